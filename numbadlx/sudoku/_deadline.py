"""Solving under a wall-clock deadline: the scheduler behind ``solve(timeout=...)``.

Every puzzle is searched with a small node budget, then the unfinished ones again with
a budget twice as large, and so on; each kernel call is sized by a cost model to take
about :data:`_SLICE_SECONDS`. The model can be wrong (one puzzle whose nodes cost more
than it guessed): every call also carries the deadline itself, at which its stop flag
is set, so the call returns within a search node of it whatever the puzzles.

The deadline is on :func:`numbadlx._stopping.clock`, which stands still while this
process compiles kernels: a timeout counts everything after the call starts (reading,
loading kernels from Numba's cache, searching) except compiling. The last round runs
to the deadline: when the time left cannot hold a whole round with the next budget,
the round is run anyway with the deadline stopping it, and the puzzles it finishes keep
their results (stopping a round early left up to half the time unused).
"""

from __future__ import annotations

import time

import numpy as np

from .._stopping import clock
from .engines import BUDGET, NOT_RUN, REGISTRY, make_ready, run

# Under a timeout: target wall time of one kernel call, and the first round's budget.
_SLICE_SECONDS = 0.1
_FIRST_BUDGET = 1 << 11
# Share of the time left that one kernel call may plan to use (the cost model errs).
_DEADLINE_SHARE = 0.8


class _CallCost:
    """Predicts the wall time of one kernel call under a timeout, so calls stay short.

    Model: a call costs ``build(n)`` per puzzle plus ``per_node(n)`` per search node,
    divided among the threads. Both start from deliberately high guesses (measured on
    empty grids, times 2-4) and are scaled by what the calls of this run really took.
    """

    def __init__(self, n, threads, engine="dlx"):
        self.build = 2e-8 * n**3 + 2e-6
        # what one node is depends on the engine: a "dlx" node is one item chosen, a
        # "bits" or "bands" node a whole propagation (about n^2 cells)
        self.per_node = REGISTRY[engine].node_seconds(n)
        self.threads = threads
        self.scale = 1.0
        self.seen = 0.0  # predicted and observed seconds, summed over the calls so far
        self.took = 0.0

    def worst(self, budget):
        """Seconds one puzzle may take (all threads counted as one) at this budget."""
        return self.scale * (self.build + budget * self.per_node)

    def group(self, budget, seconds):
        """How many puzzles fit into ``seconds`` of wall time at this budget."""
        return max(1, int(seconds * self.threads / self.worst(budget)))

    def budget_within(self, seconds, puzzles):
        """The largest node budget with which ``puzzles`` puzzles surely end within
        ``seconds`` of wall time, even if every one of them uses all of it (at least 1)."""
        rounds = -(-puzzles // self.threads)  # puzzles one thread may have to do in turn
        per_puzzle = seconds / (self.scale * rounds) - self.build
        return max(1, int(per_puzzle / self.per_node))

    def observe(self, puzzles, visited, elapsed, first):
        if first:
            return  # the first call may include compiling or loading the kernel
        self.seen += (puzzles * self.build + visited * self.per_node) / self.threads
        self.took += elapsed
        if self.seen > 0:
            self.scale = min(max(self.took / self.seen, 0.05), 20.0)


def solve_by_deadline(
    engine, grid, table, limit, max_nodes, chunk, threads, deadline, out, progress
):
    """Iterative deepening under a deadline (a :func:`~numbadlx._stopping.clock` value;
    see ``timeout`` in :func:`~numbadlx.sudoku.solve`), into ``out = (solutions, status,
    counts, nodes, guesses)``; rows whose status is not NOT_RUN on entry are left as
    they are.

    Every search restarts from scratch with a larger node budget, so the result of a
    puzzle that finishes does not depend on the rounds before. A call stopped at the
    deadline leaves the puzzles it did not finish with their last result (BUDGET), or
    BUDGET with nothing found if they had none.
    """
    status = out[1]  # (solutions, status, counts, nodes, guesses)
    n = table.n
    pending = np.flatnonzero(status == NOT_RUN)
    total = status.shape[0]
    finished = total - pending.size
    budget = _FIRST_BUDGET if max_nodes is None else min(_FIRST_BUDGET, int(max_nodes))
    cost = _CallCost(n, threads, engine)
    first = True
    searched_with = 0  # node budget the pending puzzles were last searched with
    while pending.size:
        unfinished = []
        position = 0
        while position < pending.size:
            left = deadline - clock()
            if left <= 0:
                break
            take = cost.group(budget, min(_SLICE_SECONDS, left))
            rows = pending[position : position + take]
            # The deadline caps the call's budget too, so that the other puzzles of the
            # round get their turn. A call capped to the budget these puzzles were
            # already searched with, or below, could only repeat that search: it runs
            # with the round's whole budget instead, and the deadline stops it.
            call_budget = min(budget, cost.budget_within(_DEADLINE_SHARE * left, rows.size))
            if call_budget <= searched_with:
                call_budget = budget
            position += rows.size
            part_status = np.zeros(rows.size, dtype=np.uint8)
            part_solutions = np.zeros((rows.size, grid.shape[1]), dtype=grid.dtype)
            part_counts = np.zeros(rows.size, dtype=np.int64)
            part_nodes = np.zeros(rows.size, dtype=np.int64)
            part_guesses = np.zeros(rows.size, dtype=np.int64)
            part = (part_solutions, part_status, part_counts, part_nodes, part_guesses)
            puzzles = np.ascontiguousarray(grid[rows])
            # a table per row (rows that differ in their cages) goes with its rows
            part_table = table.for_rows(rows) if hasattr(table, "for_rows") else table
            # compiled (or loaded from the cache) before the call: a compile then stops
            # no clock, a load counts, and the cost model never sees either
            make_ready(engine, puzzles, part_table, limit, call_budget, chunk, threads, part)
            began = time.perf_counter()
            stopped = run(
                engine,
                puzzles,
                part_table,
                limit,
                call_budget,
                chunk,
                threads,
                part,
                deadline=deadline,
            )
            cost.observe(rows.size, int(part_nodes.sum()), time.perf_counter() - began, first)
            first = False
            if stopped:
                # cut short by the deadline: what ended keeps its result, the rest
                # their last (or BUDGET with nothing found); the time is up
                ended = (part_status != NOT_RUN) & (part_status != BUDGET)
                status[rows[~ended & (status[rows] == NOT_RUN)]] = BUDGET
                _store(out, part, rows, ended)
                finished += int(ended.sum())
                if progress is not None:
                    progress(finished, total)
                break
            _store(out, part, rows)
            again = part_status == BUDGET
            if max_nodes is None or call_budget < max_nodes:
                unfinished.append(rows[again])
                finished += rows.size - int(again.sum())
            else:
                finished += rows.size  # max_nodes itself ran out: BUDGET is final
            if progress is not None:
                progress(finished, total)
        if position < pending.size:
            # out of time: puzzles this round did not reach keep their last result,
            # those never searched get BUDGET with nothing found
            never = pending[position:][status[pending[position:]] == NOT_RUN]
            status[never] = BUDGET
            break
        pending = np.concatenate(unfinished) if unfinished else pending[:0]
        searched_with = budget
        budget = min(2 * budget, 1 << 62)
        if max_nodes is not None:
            budget = min(budget, int(max_nodes))


def _store(out, part, rows, pick=slice(None)):
    """Write the results of a kernel call (``part``, the five arrays of ``out`` for
    its rows) back at ``rows``: all of them, or those ``pick`` selects."""
    for whole, piece in zip(out, part):
        whole[rows[pick]] = piece[pick]
