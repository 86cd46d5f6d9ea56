"""Every solution of each puzzle, up to a limit, in bulk: :func:`solutions`.

The puzzles are first solved by :func:`~numbadlx.sudoku.solve` with a limit of two
(the fast engine ``engine=`` picks), which settles every puzzle with no solution or
exactly one. Only the puzzles with two or more solutions are searched again, by a
compiled search over the "dlx" engine's links that records up to ``limit`` solutions
each (:func:`~numbadlx.sudoku.engines.record_bulk`); under rules that engine does not
take (cages, thermometers, pairs, parity), each such puzzle's exact-cover model
(:func:`~numbadlx.sudoku.to_exact_cover`) is enumerated by the generic search instead
and decoded with :func:`~numbadlx.sudoku.decode_cover`.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._compiling import first_use
from .._stopping import call_stoppable, new_flag
from ..core.validate import check_count
from . import engines, frames, geometry
from ._rules_solve import rule_groups
from .bulk import solve
from .cover import decode_cover, to_exact_cover
from .formats import parse_chunk
from .parallel import check_threads, parallel_threads
from .variants import Rules

__all__ = ["Solutions", "solutions"]

# Puzzles with many solutions each take a (limit, n*n) block; past this many bytes in
# all the call refuses rather than allocate without bound.
_MAX_BYTES = 1 << 31


class Solutions(tuple):
    """What :func:`solutions` returns: the pair ``(grids, counts)``, which unpacks as
    one, with the statuses of :func:`~numbadlx.sudoku.solve` beside it.

    Attributes
    ----------
    grids : (N, limit, n*n) uint8
        Puzzle ``i``'s solutions in ``grids[i, :counts[i]]``, zeros past the count.
    counts : (N,) int64
        Solutions found per puzzle, at most ``limit``.
    status : (N,) uint8
        :class:`~numbadlx.sudoku.Status` codes, as :func:`~numbadlx.sudoku.solve`
        gives them for the same limit: UNIQUE, MULTIPLE (two or more solutions),
        NO_SOLUTION, INVALID (with a message in ``result.messages`` for an unreadable
        row), BUDGET (``max_nodes`` ran out: ``counts`` is what was found by then), or
        SOLVED when ``limit`` is 1 (uniqueness not checked).
    result : SudokuResult
        The whole result of the call (status, counts, nodes, guesses, messages,
        seconds); its ``solutions`` are ``grids[:, 0]`` and its ``limit`` is ``limit``.
    """

    def __new__(cls, grids, counts, result):
        self = super().__new__(cls, (grids, counts))
        self.result = result
        return self

    @property
    def grids(self) -> np.ndarray:
        return self[0]

    @property
    def counts(self) -> np.ndarray:
        return self[1]

    @property
    def status(self) -> np.ndarray:
        return self.result.status

    def __repr__(self):
        shape = "x".join(str(size) for size in self.grids.shape)
        return f"Solutions(grids {shape}, found {int(self.counts.sum())}; {self.result!r})"


def solutions(
    puzzles: ArrayLike | str | os.PathLike | Any,
    limit: int,
    *,
    rules: Rules | Sequence[Rules] | None = None,
    box: tuple[int, int] | None = None,
    threads: int | None = None,
    engine: str = "auto",
    max_nodes: int | None = None,
    column: Any = None,
    errors: str = "status",
) -> Solutions:
    """Up to ``limit`` solutions of every puzzle, compiled and in bulk.

    Parameters
    ----------
    puzzles : array_like or str or path or pandas object
        Anything :func:`~numbadlx.sudoku.solve` takes.
    limit : int
        Solutions kept per puzzle (at least 1).
    rules, box, threads, engine, column, errors
        As in :func:`~numbadlx.sudoku.solve`; ``engine`` is the engine of the first
        pass (limit 2); the puzzles with two or more solutions are enumerated over the
        "dlx" engine's links (or, for rules it does not take, their exact-cover models).
    max_nodes : int, optional
        Node budget of each search of a puzzle (the first pass's and the enumeration's
        each); a puzzle that needs more gets status BUDGET with the solutions found.

    Returns
    -------
    Solutions
        ``(grids, counts)``: an ``(N, limit, n*n)`` uint8 array (zeros past each
        count) and the solutions found per puzzle (at most ``limit``), with
        ``.status`` and ``.result`` (a :class:`~numbadlx.sudoku.SudokuResult`) beside
        them. The solutions of a puzzle come in the enumeration's order, the same on
        every thread count.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> grids, counts = sudoku.solutions(["1234" "3412" "0000" "0000"], limit=5)
    >>> counts.tolist(), grids.shape
    ([4], (1, 5, 16))
    >>> sudoku.format_line(grids[0, 0])
    '1234341221434321'
    >>> sudoku.solutions(["1234" "3412" "2143" "4321"], 3).status.tolist()  # UNIQUE
    [1]
    """
    limit = check_count(limit, "limit")
    start = time.perf_counter()
    if rules is None and not isinstance(puzzles, np.ndarray):
        if not (frames.is_pandas(puzzles) or frames.is_columnar(puzzles)):
            # read once here: a source may give each puzzle its rules (a killer CSV),
            # which the enumeration must keep as solve does
            puzzles = parse_chunk(puzzles, box=box, column=column)
            rules = puzzles.rules
    result = solve(
        puzzles,
        limit=min(limit, 2),
        threads=threads,
        max_nodes=max_nodes,
        box=box,
        engine=engine,
        column=column,
        errors=errors,
        rules=rules,
    )
    n_puzzles, nn = result.puzzles.shape
    if n_puzzles * limit * nn > _MAX_BYTES:
        raise ValueError(
            f"solutions: {n_puzzles} puzzles x {limit} solutions x {nn} cells is more than "
            f"{_MAX_BYTES:,} bytes; ask for fewer at a time"
        )
    grids = np.zeros((n_puzzles, limit, nn), dtype=np.uint8)
    grids[:, 0] = result.solutions
    many = np.flatnonzero(result.status == engines.MULTIPLE) if limit >= 2 else None
    if many is not None and many.size:
        n = result.n
        if rules is None:
            groups = [(None, many)]
        else:
            per = rule_groups(rules, n_puzzles, n, box)
            groups = [(checked, np.intersect1d(rows, many)) for checked, rows in per]
        out = (result.status, result.counts, result.nodes, result.guesses)
        for checked, rows in groups:
            if rows.size == 0:
                continue
            if checked is None or engines.REGISTRY["dlx"].solves(checked.kinds):
                table = geometry.unit_table(n, result.box if checked is None else None, checked)
                _record(result.puzzles, rows, table, limit, max_nodes, threads, grids, out)
            else:
                _record_cover(result.puzzles, rows, checked, limit, max_nodes, grids, out)
        result.solutions[many] = grids[many, 0]
    result.limit = limit
    result.seconds = time.perf_counter() - start
    return Solutions(grids, result.counts, result)


def _record(puzzles, rows, table, limit, max_nodes, threads, grids, out):
    """Enumerate ``puzzles[rows]`` with the recording kernels into ``grids`` and ``out``
    (status, counts, nodes, guesses; the nodes are added to the first pass's)."""
    status, counts, nodes, guesses = out
    first_nodes = nodes[rows].copy()
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    budget = 0 if max_nodes is None else int(max_nodes)
    serial = rows.size == 1 or check_threads(threads) == 1
    context = contextlib.nullcontext(1) if serial else parallel_threads(threads)
    with context as lanes, first_use("the Sudoku enumerator"), new_flag() as stop:
        if serial:
            kernel = engines.record_serial
            args = (puzzles, rows, table, limit, budget, stop, grids, status, counts, nodes)
            call_stoppable(kernel, stop, *args, guesses)
        else:
            args = (puzzles, rows, table, limit, budget, stop, lanes, grids, status, counts)
            call_stoppable(_on_threads, stop, lanes, (*args, nodes, guesses))
    nodes[rows] += first_nodes


def _on_threads(lanes, args):
    """The parallel recording kernel on ``lanes`` threads (Numba's thread count belongs
    to the thread that runs it)."""
    import numba

    numba.set_num_threads(lanes)
    return engines.record_bulk(*args)


def _record_cover(puzzles, rows, rules, limit, max_nodes, grids, out):
    """Enumerate ``puzzles[rows]`` under ``rules`` through their exact-cover models."""
    from ..core import BudgetExceeded

    status, counts, nodes, guesses = out
    for r in rows.tolist():
        problem, cells, digits = to_exact_cover(puzzles[r], rules=rules)
        found = 0
        complete = True
        try:
            for chosen in problem.solutions(limit, max_nodes=max_nodes):
                grids[r, found] = decode_cover(puzzles[r], chosen, cells, digits, rules=rules)
                found += 1
        except BudgetExceeded:
            complete = False
        grids[r, found:] = 0
        counts[r] = found
        nodes[r] += int(problem.stats.nodes) if problem.stats is not None else 0
        if not complete:
            status[r] = engines.BUDGET
        else:
            status[r] = (
                engines.MULTIPLE if found >= 2 else engines.UNIQUE if found else engines.NO_SOLUTION
            )
