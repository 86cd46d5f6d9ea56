"""Making variant puzzles: the part of :func:`~numbadlx.sudoku.generate` behind ``rules=``.

Two ways, by rule kind:

* rules on units and peers (regions, latin, diagonals, windoku, disjoint, anti-knight,
  anti-king) become the grid's unit and peer tables (:func:`variant_tables`), which the
  making kernels take in place of the classic ones: the same random full grids, the
  same blanking, the same uniqueness proofs;
* rules on digits (cages, thermometers, non-consecutive, dots, X/V, odd, even), which
  the kernels do not know, go through :func:`blank_by_solving`: a random full grid from
  the forward-checking search of :mod:`._variant_grids` (with cage totals, which it
  does not check: random givens, each kept while the rules' engine still completes the
  grid), then the cells blanked in random order, each blank kept only while that engine finds
  exactly one solution (``limit=2``). Every step runs on a whole block of puzzles in
  one engine call; puzzle ``k`` draws its random numbers from ``(seed, k)`` only, so
  the puzzles do not depend on the threads or the block size.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from ..._stopping import clock
from .._deadline import solve_by_deadline
from ..engines import BUDGET, REGISTRY, SOLVED, UNIQUE, pick_engine
from ..engines import run as run_engine
from ..geometry import unit_table
from ..shape import box_shape
from ..variants import Rules
from ._variant_grids import random_grid_under, relation_rows

__all__ = ["checked_rules", "variant_tables", "blank_by_solving"]

# Puzzles per block of the solving path (between progress reports).
_BLOCK = 256
# Search-tree nodes a step of the grid phase may take before its given is dropped.
_GRID_BUDGET = 5000


# The rules the forward-checking grid search of _variant_grids checks as it places
# digits (cages there only as distinct digits); a full grid under any other rule is
# found through the engine (see _full_grids)
def checked_rules(rules, size, box):
    """``rules`` checked for ``size`` (with ``box`` when the rules name none), or None
    for the classic rules (None, or a :class:`Rules` that sets no rule)."""
    if rules is None:
        return None
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    if box is not None and rules.box is None:
        rules = dataclasses.replace(rules, box=tuple(box_shape(size, box)))
    checked = rules.checked(size)
    return checked if checked.kinds else None


def variant_tables(size, rules):
    """``(units, peers, where)`` of the making kernels (int64) under ``rules``.

    ``units`` holds rows, columns, then a third unit for every cell (its box or region;
    its row again on a latin grid), then the rules' other units; ``where[cell]`` is the
    cell's row, column and third unit, each counted from 0 within its kind (what the
    kernels' quick uniqueness proofs read). ``peers`` has every cell that may not share
    the cell's digit (units and anti-knight or anti-king links).
    """
    table = unit_table(size, rules=rules)
    n = size
    units = np.asarray(table.units, dtype=np.int64)
    if rules.latin:
        units = np.concatenate([units[: 2 * n], units[:n], units[2 * n :]])
    cells = np.arange(n * n)
    where = np.empty((n * n, 3), dtype=np.int64)
    where[:, 0], where[:, 1] = np.divmod(cells, n)
    third = np.empty(n * n, dtype=np.int64)
    for k in range(n):
        third[units[2 * n + k]] = k
    where[:, 2] = third
    return np.ascontiguousarray(units), np.asarray(table.peers, dtype=np.int64), where


class _Engine:
    """The engine that solves ``rules`` and its table, called on blocks of puzzles."""

    def __init__(self, size, rules, threads, deadline=None):
        self.deadline = deadline  # a clock() value (compiling not counted), or None
        self.name = pick_engine("auto", size, rules=rules)
        if self.name not in REGISTRY:
            raise ValueError(f"no engine makes puzzles under the rules {sorted(rules.kinds)}")
        table = unit_table(size, rules=rules)
        self.table = REGISTRY[self.name].table_for(table, rules)
        self.threads = threads

    def __call__(self, puzzles, limit, max_nodes=0):
        """``(status, solutions)`` of every row of ``puzzles``."""
        rows = puzzles.shape[0]
        out = (
            np.zeros_like(puzzles),
            np.zeros(rows, dtype=np.uint8),
            np.zeros(rows, dtype=np.int64),
            np.zeros(rows, dtype=np.int64),
            np.zeros(rows, dtype=np.int64),
        )
        if rows:
            puzzles = np.ascontiguousarray(puzzles)
            # a block of a few hundred easy searches: faster on the calling thread than
            # woken worker threads (measured: 0.1 ms against 70 ms per call on 2 cores)
            threads = self.threads if rows >= 64 * self.threads else 1
            if self.deadline is None:
                run_engine(self.name, puzzles, self.table, limit, max_nodes, 64, threads, out)
            else:
                # searches in short budgeted calls (the same results when they end), so
                # that one long block cannot run far past the deadline
                if self.deadline - clock() <= 0:
                    raise _OutOfTime
                cap = max_nodes if max_nodes else None
                solve_by_deadline(
                    self.name,
                    puzzles,
                    self.table,
                    limit,
                    cap,
                    64,
                    threads,
                    self.deadline,
                    out,
                    None,
                )
                # a row cut short (never run, or out of budget below the cap) is out of
                # time, even when the scheduler stopped a little before the deadline
                short = (out[1] == BUDGET) & (out[3] < (cap or np.iinfo(np.int64).max))
                if short.any() or clock() > self.deadline:
                    raise _OutOfTime
        return out[1], out[0]


class _OutOfTime(Exception):
    """The deadline passed during an engine call: the attempt is given up."""


def _rngs(seed, first, count):
    return [np.random.default_rng([seed, first + k]) for k in range(count)]


# The rules that random_grid_under checks as it fills a grid (units, peers, distinct
# cages, parities and the relations of relation_rows)
_FORWARD_CHECKED = frozenset(
    {"regions", "latin", "diagonals", "windoku", "disjoint", "anti_knight", "anti_king",
     "non_consecutive", "cages", "thermos", "white_dots", "black_dots", "x_pairs", "v_pairs",
     "odd", "even"}
)  # fmt: skip


def _full_grids(solve, rngs, size, rules):
    """A full grid per generator: by :func:`random_grid_under` (forward checking on the
    relations), or, for cages with totals and the other rules it does not check (sums,
    lines, inequalities...), by givens drawn at
    random from the engine's first solution of the empty grid on, each kept while the
    engine still completes the puzzle (within a small budget), the grid being its last
    completion."""
    if rules.kinds <= _FORWARD_CHECKED and all(total is None for _, total in rules.cages):
        return _searched_grids(rngs, size, rules, solve.deadline)
    count, nn = len(rngs), size * size
    status, first = solve(np.zeros((1, nn), dtype=np.uint8), 1)
    if status[0] != SOLVED:
        raise ValueError("the rules leave the empty grid without a solution")
    grids = np.repeat(first, count, axis=0)
    puzzles = np.zeros((count, nn), dtype=np.uint8)
    for _ in range(size + 2):
        trial = puzzles.copy()
        ask = np.zeros(count, dtype=bool)
        for k, rng in enumerate(rngs):
            blanks = np.flatnonzero(puzzles[k] == 0)
            cell = int(blanks[rng.integers(blanks.size)])
            digit = int(rng.integers(1, size + 1))
            trial[k, cell] = digit
            ask[k] = digit != grids[k, cell]
        puzzles[~ask] = trial[~ask]  # the grid already holds that digit there
        rows = np.flatnonzero(ask)
        status, solutions = solve(trial[rows], 1, _GRID_BUDGET)
        good = rows[status == SOLVED]
        puzzles[good] = trial[good]
        grids[good] = solutions[status == SOLVED]
    return grids


def _searched_grids(rngs, size, rules, deadline=None):
    nn = size * size
    table = unit_table(size, rules=rules)
    mates = [set(row) for row in table.peers.tolist()]
    for cells, _ in rules.cages:
        for cell in cells:
            mates[cell].update(c for c in cells if c != cell)
    width = max(len(row) for row in mates)
    peers = np.array([sorted(row) + [max(row)] * (width - len(row)) for row in mates])
    init = np.full(nn, (1 << size) - 1, dtype=np.uint64)
    init[list(rules.odd)] = sum(1 << (d - 1) for d in range(1, size + 1, 2))
    init[list(rules.even)] = sum(1 << (d - 1) for d in range(2, size + 1, 2))
    start, other, allowed = relation_rows(size, rules)
    units = np.asarray(table.units, dtype=np.int64)
    digits = np.uint64((1 << size) - 1)
    grids = np.zeros((len(rngs), nn), dtype=np.uint8)
    for k, rng in enumerate(rngs):
        if deadline is not None and clock() > deadline:
            raise _OutOfTime  # a grid may take a good part of a second
        state = np.array([rng.integers(2**63)], dtype=np.uint64)
        if not random_grid_under(
            grids[k], init, peers, units, digits, start, other, allowed, state
        ):
            raise ValueError(f"no grid meets the rules {sorted(rules.kinds)}")
    return grids


def _unique(solve, puzzles):
    """Whether each row has exactly one solution (no budget: a proof)."""
    status, _ = solve(puzzles, 2)
    if (status == BUDGET).any():  # pragma: no cover - no budget is set
        raise RuntimeError("a uniqueness search ran out of budget")
    return status == UNIQUE


def _attempt(solve, rngs, size, rules, orbits, orbit_sizes, minimal, strict, clue_lo, clue_hi):
    """One attempt per generator: ``(puzzles, grids, kept)``."""
    count, nn = len(rngs), size * size
    grids = _full_grids(solve, rngs, size, rules)
    puzzles = grids.copy()
    n_orbits = orbits.shape[0]
    orders = np.array([rng.permutation(n_orbits) for rng in rngs]).reshape(count, n_orbits)
    targets = np.array([clue_lo + int(rng.integers(clue_hi - clue_lo + 1)) for rng in rngs])
    clues = np.full(count, nn)
    rows = np.arange(count)
    for t in range(n_orbits):
        o = orders[:, t]
        sizes = orbit_sizes[o]
        go = (
            np.ones(count, dtype=bool)
            if minimal
            else (clues > targets) & (clues - sizes >= clue_lo)
        )
        trial = puzzles.copy()
        for j in range(orbits.shape[1]):
            cells = orbits[o, j]
            hit = go & (cells >= 0)
            trial[rows[hit], cells[hit]] = 0
        ask = np.flatnonzero(go)
        good = ask[_unique(solve, trial[ask])]
        puzzles[good] = trial[good]
        clues[good] -= sizes[good]
    kept = (clues >= clue_lo) & (clues <= clue_hi)
    if strict:
        for cell in range(nn):
            ask = np.flatnonzero(kept & (puzzles[:, cell] != 0))
            trial = puzzles[ask].copy()
            trial[:, cell] = 0
            kept[ask[_unique(solve, trial)]] = False  # a clue that can go
    return puzzles, kept


def blank_by_solving(
    count,
    size,
    rules,
    *,
    orbits,
    orbit_sizes,
    minimal,
    strict,
    clue_lo,
    clue_hi,
    seed,
    first_index,
    attempts,
    threads,
    progress,
    deadline,
    timeout,
):
    """``count`` unique puzzles under ``rules`` (checked) by the engines' solver, as
    :func:`~numbadlx.sudoku.generate` describes; raises ``ValueError`` when a puzzle was
    not found within ``attempts``; after the deadline, the puzzles made by then."""
    nn = size * size
    solve = _Engine(size, rules, threads, deadline)
    out = np.zeros((count, nn), dtype=np.uint8)
    try:
        return _blocks(
            solve,
            out,
            count,
            size,
            rules,
            orbits,
            orbit_sizes,
            minimal,
            strict,
            clue_lo,
            clue_hi,
            seed,
            first_index,
            attempts,
            progress,
        )
    except _OutOfTime as stop:
        warnings.warn(
            f"timeout: {stop.args[0]} of {count} puzzles made in {timeout:g} s",
            RuntimeWarning,
            stacklevel=3,
        )
        return out[: stop.args[0]].copy()


def _blocks(
    solve,
    out,
    count,
    size,
    rules,
    orbits,
    orbit_sizes,
    minimal,
    strict,
    clue_lo,
    clue_hi,
    seed,
    first_index,
    attempts,
    progress,
):
    """The blocks of :func:`blank_by_solving` into ``out``; raises ``_OutOfTime(k)``
    with ``k`` the puzzles made when the deadline passes."""
    for begin in range(0, count, _BLOCK):
        end = min(count, begin + _BLOCK)
        rngs = _rngs(seed, first_index + begin, end - begin)
        left = np.arange(end - begin)
        for _ in range(attempts):
            if solve.deadline is not None and clock() > solve.deadline:
                raise _OutOfTime(begin)
            try:
                puzzles, kept = _attempt(
                    solve,
                    [rngs[k] for k in left],
                    size,
                    rules,
                    orbits,
                    orbit_sizes,
                    minimal,
                    strict,
                    clue_lo,
                    clue_hi,
                )
            except _OutOfTime:
                raise _OutOfTime(begin) from None
            out[begin + left[kept]] = puzzles[kept]
            left = left[~kept]
            if not left.size:
                break
        if left.size:
            raise ValueError(
                f"no puzzle {first_index + begin + int(left[0])} found in {attempts} "
                f"attempts under the rules {sorted(rules.kinds)} (clues {clue_lo}..{clue_hi}, "
                f"minimal={minimal}): widen the bounds or raise attempts"
            )
        if progress is not None:
            progress(end, count)
    return out
