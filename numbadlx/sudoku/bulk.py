"""Sudoku on top of the exact-cover engine: bulk solving of puzzle arrays.

A puzzle is a row of ``n * n`` small integers (0 = blank, 1..n = a given) for an
n x n grid with r x c boxes (n = r * c, 4 <= n <= 36). :func:`solve` takes an (N, n*n)
array (or anything :func:`numbadlx.sudoku.parse` reads) and returns a
:class:`SudokuResult` of arrays: the solutions, a :class:`Status` per puzzle, solution
counts (up to ``limit``) and search nodes.

Examples
--------
>>> from numbadlx import sudoku
>>> puzzle = ("530070000600195000098000060800060003400803001"
...           "700020006060000280000419005000080079")
>>> result = sudoku.solve([puzzle])
>>> result.status_counts()
{'UNIQUE': 1}
>>> sudoku.format_line(result.solutions[0])[:9]
'534678912'
"""

from __future__ import annotations

import enum
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core import BudgetExceeded, ExactCover, SearchStats
from ..core.validate import check_count, check_timeout
from . import kernel as _kernel
from .formats import parse
from .shape import box_shape

__all__ = [
    "Status",
    "SudokuResult",
    "solve",
    "solve_one",
    "count_solutions",
    "warm_up",
    "to_exact_cover",
    "check_grid",
    "default_sample_path",
    "DEFAULT_CHUNK",
]

# Puzzles per parallel chunk: many small chunks balance hard sets across threads.
DEFAULT_CHUNK = 64


class Status(enum.IntEnum):
    """What :func:`solve` found for one puzzle."""

    NOT_RUN = _kernel.NOT_RUN
    UNIQUE = _kernel.UNIQUE  #: exactly one solution (searched with limit >= 2)
    SOLVED = _kernel.SOLVED  #: a solution, uniqueness not checked (limit = 1)
    MULTIPLE = _kernel.MULTIPLE  #: at least two solutions; the first one is kept
    NO_SOLUTION = _kernel.NO_SOLUTION  #: valid givens, but no way to complete them
    INVALID = _kernel.INVALID  #: clashing givens, a value above n, or an unreadable line
    BUDGET = _kernel.BUDGET  #: max_nodes ran out first


@dataclass
class SudokuResult:
    """Results of :func:`solve`, one row per puzzle.

    Attributes
    ----------
    puzzles : (N, n*n) uint8, the givens.
    solutions : (N, n*n) uint8, the first solution found, zeros where there is none.
    status : (N,) uint8, :class:`Status` codes.
    counts : (N,) int64, solutions found (at most ``limit``).
    nodes : (N,) int64, search-tree nodes visited.
    n, box : the grid size and box shape (rows, cols).
    limit : the count limit used.
    seconds : wall time of the solve.
    threads : threads used.
    """

    puzzles: np.ndarray
    solutions: np.ndarray
    status: np.ndarray
    counts: np.ndarray
    nodes: np.ndarray
    n: int
    box: tuple
    limit: int
    seconds: float = 0.0
    threads: int = 1

    def __len__(self):
        return self.status.shape[0]

    def status_names(self):
        """Status of each puzzle as a string array."""
        names = np.array([s.name for s in Status])
        return names[self.status]

    def status_counts(self):
        """``{name: how many}`` for every status that occurs."""
        tally = np.bincount(self.status, minlength=len(Status))
        return {Status(code).name: int(tally[code]) for code in range(len(Status)) if tally[code]}

    @property
    def puzzles_per_second(self):
        return len(self) / self.seconds if self.seconds > 0 else float("inf")

    def __repr__(self):
        tally = ", ".join(f"{k}={v}" for k, v in self.status_counts().items())
        return (
            f"SudokuResult({len(self)} puzzles of {self.n}x{self.n}, {tally}; "
            f"{self.seconds:.3f} s, {self.puzzles_per_second:,.0f} puzzles/s)"
        )

    def _repr_html_(self):
        """Jupyter view: status counts, throughput, effort and the first rows."""
        # Jupyter's hook; the drawing lives in the display layer, above this one
        from ..display.html import sudoku_result_html

        return sudoku_result_html(self)


def _as_puzzles(puzzles, box):
    """Return ``(array (N, n*n) uint8, pre-status (N,) uint8, n)``.

    Out-of-range values in an array get INVALID status (bulk mode never raises for one
    bad puzzle); anything that is not a batch of puzzles at all raises ValueError.
    """
    if isinstance(puzzles, np.ndarray) and puzzles.dtype != object:
        array = puzzles
        if array.ndim == 1:
            array = array[None, :]
        elif array.ndim == 3:
            array = array.reshape(array.shape[0], -1)
        if array.ndim != 2:
            raise ValueError(f"puzzles must be an (N, n*n) array, got shape {puzzles.shape}")
        cells = array.shape[1]
        n = int(round(cells**0.5))
        if n * n != cells:
            raise ValueError(f"a puzzle row has {cells} cells, which is not a square")
        box_shape(n, box)
        if array.dtype == np.bool_ or not (
            np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
        ):
            raise ValueError(f"puzzles must be integers, got dtype {array.dtype}")
        if np.issubdtype(array.dtype, np.floating):
            finite = np.isfinite(array)
            bad = ~finite.all(axis=1) | ~np.all(
                np.where(finite, array == np.round(array), True), axis=1
            )
        else:
            bad = np.zeros(array.shape[0], dtype=bool)
        with np.errstate(invalid="ignore"):
            bad |= ((array < 0) | (array > n)).any(axis=1)
        clean = np.where(bad[:, None], 0, array)
        grid = (
            np.ascontiguousarray(np.nan_to_num(clean), dtype=np.uint8)
            if np.issubdtype(array.dtype, np.floating)
            else np.ascontiguousarray(clean, dtype=np.uint8)
        )
    else:
        grid = parse(puzzles, box=box)
        bad = np.zeros(grid.shape[0], dtype=bool)
        n = int(round(grid.shape[1] ** 0.5))
    pre = np.where(bad, _kernel.INVALID, _kernel.NOT_RUN).astype(np.uint8)
    return grid, pre, n


def solve(
    puzzles: ArrayLike | str | os.PathLike | Any,
    *,
    limit: int = 2,
    threads: int | None = None,
    max_nodes: int | None = None,
    box: tuple[int, int] | None = None,
    chunk: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    invalid: ArrayLike | None = None,
    timeout: float | None = None,
) -> SudokuResult:
    """Solve a batch of Sudokus.

    Parameters
    ----------
    puzzles : array_like or str or path
        An (N, n*n) integer array (0 = blank), one grid, or text / a file that
        :func:`numbadlx.sudoku.parse` reads.
    limit : int, default 2
        Count solutions up to this many per puzzle: 1 finds one (status SOLVED), 2
        also proves uniqueness (UNIQUE or MULTIPLE).
    threads : int, optional
        Threads for the parallel loop (default: Numba's current setting). Results do
        not depend on it.
    max_nodes : int, optional
        Search-node budget per puzzle; a puzzle that needs more gets status BUDGET.
    box : (rows, cols), optional
        Box shape when n is not a square (inferred otherwise: 6 -> 2x3, 12 -> 3x4).
    chunk : int, optional
        Puzzles per parallel work unit (default 64).
    progress : callable, optional
        Called as ``progress(done, total)`` after each block of puzzles.
    invalid : array_like of bool, optional
        Rows to report as INVALID without solving (e.g. lines a reader could not
        parse).
    timeout : float, optional
        Wall-clock seconds for the whole call. Puzzles still unfinished when it runs
        out get status BUDGET (keeping any solution their last search found), so the
        call returns after about ``timeout`` seconds (plus at most one short slice of
        search, about 0.1 s) whatever the puzzles. Easy puzzles are finished first:
        every puzzle is searched with a small node budget, then the unfinished ones
        again with a budget twice as large, and so on, each kernel call sized to take
        about 0.1 s. A puzzle that finishes gets exactly the result (status, count,
        solution, nodes) it gets without a timeout; a re-searched puzzle costs at most
        about twice its own nodes more. Combined with ``max_nodes``, whichever comes
        first gives BUDGET.

    Returns
    -------
    SudokuResult

    Examples
    --------
    >>> import numpy as np
    >>> grid = np.zeros((1, 16), dtype=np.uint8)   # an empty 4x4 has 288 solutions
    >>> solve(grid, limit=300).counts.tolist()
    [288]
    """
    check_count(limit, "limit")
    if max_nodes is not None:
        check_count(max_nodes, "max_nodes")
    check_timeout(timeout)
    grid, status, n = _as_puzzles(puzzles, box)
    box = box_shape(n, box)
    if invalid is not None:
        invalid = np.asarray(invalid, dtype=bool)
        if invalid.shape != status.shape:
            raise ValueError(f"invalid mask has shape {invalid.shape}, expected {status.shape}")
        status[invalid] = _kernel.INVALID
    chunk = DEFAULT_CHUNK if chunk is None else int(chunk)
    if chunk < 1:
        raise ValueError(f"chunk must be positive, got {chunk}")
    n_puzzles = grid.shape[0]
    solutions = np.zeros_like(grid)
    counts = np.zeros(n_puzzles, dtype=np.int64)
    nodes = np.zeros(n_puzzles, dtype=np.int64)
    previous = numba.get_num_threads()
    threads = previous if threads is None else int(threads)
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
    start = time.perf_counter()
    # Blocks of puzzles between Python-side checks: progress reports and Ctrl-C.
    block = max(chunk * threads * 16, 4096)
    try:
        numba.set_num_threads(threads)
        if timeout is not None:
            _solve_by_deadline(
                grid,
                status,
                n,
                box,
                int(limit),
                max_nodes,
                chunk,
                threads,
                start + float(timeout),
                solutions,
                counts,
                nodes,
                progress,
            )
        for begin in range(0, n_puzzles if timeout is None else 0, block):
            end = min(n_puzzles, begin + block)
            _kernel.solve_bulk(
                grid[begin:end],
                n,
                box[0],
                box[1],
                int(limit),
                0 if max_nodes is None else int(max_nodes),
                chunk,
                solutions[begin:end],
                status[begin:end],
                counts[begin:end],
                nodes[begin:end],
            )
            if progress is not None:
                progress(end, n_puzzles)
    finally:
        numba.set_num_threads(previous)
    return SudokuResult(
        puzzles=grid,
        solutions=solutions,
        status=status,
        counts=counts,
        nodes=nodes,
        n=n,
        box=box,
        limit=int(limit),
        seconds=time.perf_counter() - start,
        threads=threads,
    )


# Under a timeout: target wall time of one kernel call, and the first round's budget.
_SLICE_SECONDS = 0.1
_FIRST_BUDGET = 1 << 11


class _CallCost:
    """Predicts the wall time of one kernel call under a timeout, so calls stay short.

    Model: a call costs ``build(n)`` per puzzle plus ``per_node(n)`` per search node,
    divided among the threads. Both start from deliberately high guesses (measured on
    empty grids, times 2-4) and are scaled by what the calls of this run really took.
    """

    def __init__(self, n, threads):
        self.build = 2e-8 * n**3 + 2e-6
        self.per_node = 2e-8 * n
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

    def observe(self, puzzles, visited, elapsed, first):
        if first:
            return  # the first call may include compiling or loading the kernel
        self.seen += (puzzles * self.build + visited * self.per_node) / self.threads
        self.took += elapsed
        if self.seen > 0:
            self.scale = min(max(self.took / self.seen, 0.05), 20.0)


def _solve_by_deadline(
    grid,
    status,
    n,
    box,
    limit,
    max_nodes,
    chunk,
    threads,
    deadline,
    solutions,
    counts,
    nodes,
    progress,
):
    """Iterative deepening under a wall-clock deadline (see ``timeout`` in :func:`solve`).

    Every search restarts from scratch with a larger node budget, so the result of a
    puzzle that finishes does not depend on the rounds before.
    """
    pending = np.flatnonzero(status == _kernel.NOT_RUN)
    total = status.shape[0]
    finished = total - pending.size
    budget = _FIRST_BUDGET if max_nodes is None else min(_FIRST_BUDGET, int(max_nodes))
    cost = _CallCost(n, threads)
    first = True
    while pending.size:
        unfinished = []
        position = 0
        while position < pending.size:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            take = cost.group(budget, min(_SLICE_SECONDS, left))
            rows = pending[position : position + take]
            position += rows.size
            part_status = np.zeros(rows.size, dtype=np.uint8)
            part_solutions = np.zeros((rows.size, grid.shape[1]), dtype=grid.dtype)
            part_counts = np.zeros(rows.size, dtype=np.int64)
            part_nodes = np.zeros(rows.size, dtype=np.int64)
            # small work units so every thread gets some, even in a small group
            unit = max(1, min(chunk, -(-rows.size // (4 * threads))))
            began = time.perf_counter()
            _kernel.solve_bulk(
                np.ascontiguousarray(grid[rows]),
                n,
                box[0],
                box[1],
                limit,
                budget,
                unit,
                part_solutions,
                part_status,
                part_counts,
                part_nodes,
            )
            cost.observe(rows.size, int(part_nodes.sum()), time.perf_counter() - began, first)
            first = False
            status[rows] = part_status
            solutions[rows] = part_solutions
            counts[rows] = part_counts
            nodes[rows] = part_nodes
            again = part_status == _kernel.BUDGET
            if max_nodes is None or budget < max_nodes:
                unfinished.append(rows[again])
                finished += rows.size - int(again.sum())
            else:
                finished += rows.size  # max_nodes itself ran out: BUDGET is final
            if progress is not None:
                progress(finished, total)
        if position < pending.size:
            # out of time: puzzles this round did not reach keep their last result,
            # those never searched get BUDGET with nothing found
            never = pending[position:][status[pending[position:]] == _kernel.NOT_RUN]
            status[never] = _kernel.BUDGET
            break
        pending = np.concatenate(unfinished) if unfinished else pending[:0]
        budget = min(2 * budget, 1 << 62)
        if max_nodes is not None:
            budget = min(budget, int(max_nodes))


def warm_up() -> None:
    """Compile (first run) or load from Numba's cache the bulk kernel, by solving one
    tiny grid, so that later timings measure the solver alone.

    Examples
    --------
    >>> warm_up()
    """
    grid = np.zeros((1, 16), dtype=np.uint8)
    _kernel.solve_bulk(
        grid,
        4,
        2,
        2,
        1,
        0,
        1,
        np.zeros_like(grid),
        np.zeros(1, dtype=np.uint8),
        np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


def check_grid(grid: ArrayLike | str, box: tuple[int, int] | None = None) -> str | None:
    """Describe the first clash among a grid's givens, or None if there is none.

    Examples
    --------
    >>> check_grid("11" + "0" * 14)
    'digit 1 appears twice in row 1 (columns 1 and 2)'
    """
    grid = _single(grid, box)
    n = int(round(grid.size**0.5))
    rows, cols = box_shape(n, box)
    cells = grid.reshape(n, n)
    units = [("row", [(r, c) for c in range(n)]) for r in range(n)]
    units += [("column", [(r, c) for r in range(n)]) for c in range(n)]
    units += [
        ("box", [(r0 + i, c0 + j) for i in range(rows) for j in range(cols)])
        for r0 in range(0, n, rows)
        for c0 in range(0, n, cols)
    ]
    for kind, members in units:
        seen = {}
        for r, c in members:
            v = int(cells[r, c])
            if v == 0:
                continue
            if v in seen:
                (r1, c1) = seen[v]
                if kind == "row":
                    where = f"row {r + 1} (columns {c1 + 1} and {c + 1})"
                elif kind == "column":
                    where = f"column {c + 1} (rows {r1 + 1} and {r + 1})"
                else:
                    where = f"the box at cells ({r1 + 1},{c1 + 1}) and ({r + 1},{c + 1})"
                return f"digit {v} appears twice in {where}"
            seen[v] = (r, c)
    return None


def _single(grid, box):
    array = parse(grid, box=box) if not isinstance(grid, np.ndarray) else grid
    array = np.asarray(array)
    if array.ndim == 2 and array.shape[0] == 1:
        array = array[0]
    elif array.ndim == 2 and array.shape[0] == array.shape[1] and array.shape[0] > 1:
        array = array.ravel()
    if array.ndim != 1:
        raise ValueError(f"expected one grid, got an array of shape {np.shape(grid)}")
    return parse(array, box=box)[0]


def _solve_single(grid, limit, box, max_nodes, timeout=None):
    puzzle = _single(grid, box)
    result = solve(
        puzzle[None, :], limit=limit, box=box, threads=1, max_nodes=max_nodes, timeout=timeout
    )
    status = Status(result.status[0])
    if status == Status.INVALID:
        raise ValueError(f"invalid puzzle: {check_grid(puzzle, box)}")
    if status == Status.BUDGET:
        stats = SearchStats(
            nodes=int(result.nodes[0]),
            solutions=int(result.counts[0]),
            status="budget",
            seconds=result.seconds,
        )
        budgets = ", ".join(
            f"{name}={value}"
            for name, value in (("max_nodes", max_nodes), ("timeout", timeout))
            if value is not None
        )
        raise BudgetExceeded(
            f"stopped at its budget ({budgets}) with {result.counts[0]} solution(s) seen",
            int(result.counts[0]),
            stats,
        )
    return result


def solve_one(
    grid: ArrayLike | str,
    *,
    box: tuple[int, int] | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> NDArray[np.uint8] | None:
    """Solve one puzzle; return its solution as an (n*n,) uint8 array, or None.

    Raises ValueError if the givens clash (saying where), and
    :class:`~numbadlx.BudgetExceeded` if ``max_nodes`` or ``timeout`` (seconds) run out
    first.

    Examples
    --------
    >>> from numbadlx.sudoku import format_line
    >>> format_line(solve_one("0200" "0040" "3400" "0000"))
    '4213134234212134'
    """
    result = _solve_single(grid, 1, box, max_nodes, timeout)
    return result.solutions[0].copy() if result.counts[0] else None


def count_solutions(
    grid: ArrayLike | str,
    limit: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> int:
    """Count the solutions of one puzzle, stopping at ``limit`` if given.

    Raises :class:`~numbadlx.BudgetExceeded` (with ``.found``, a lower bound) if
    ``max_nodes`` or ``timeout`` (seconds) run out first.

    Examples
    --------
    >>> count_solutions("0" * 16)   # the empty 4x4 grid
    288
    """
    if limit is None:
        limit = np.iinfo(np.int64).max
    return int(_solve_single(grid, limit, box, max_nodes, timeout).counts[0])


def to_exact_cover(
    grid: ArrayLike | str, box: tuple[int, int] | None = None
) -> tuple[ExactCover, NDArray[np.int64], NDArray[np.int64]]:
    """The puzzle as a generic :class:`~numbadlx.ExactCover` (the 0/1-matrix path).

    Options are ``(cell, digit)`` pairs that do not clash with a given (a given cell
    keeps only its own digit); all ``4 n^2`` items are kept. Returns ``(problem,
    option_cells, option_digits)`` so a solution's options decode to digits.

    Examples
    --------
    >>> problem, cells, digits = to_exact_cover("0" * 16)
    >>> problem.n_items, problem.n_options
    (64, 64)
    """
    puzzle = _single(grid, box)
    n = int(round(puzzle.size**0.5))
    rows, cols = box_shape(n, box)
    cells, digits = np.divmod(np.arange(n * n * n), n)
    row, col = np.divmod(cells, n)
    boxes = (row // rows) * (n // cols) + col // cols
    given = puzzle[cells]
    keep = (given == 0) | (given == digits + 1)
    # a digit that is given elsewhere in the row, column or box is excluded
    for unit in (row, col, boxes):
        placed = np.zeros((n, n), dtype=bool)
        g_cells = np.flatnonzero(puzzle)
        g_unit = unit[g_cells * n]
        placed[g_unit, puzzle[g_cells].astype(np.int64) - 1] = True
        keep &= ~placed[unit, digits] | (given == digits + 1)
    nn = n * n
    items = np.stack(
        [cells, nn + row * n + digits, 2 * nn + col * n + digits, 3 * nn + boxes * n + digits],
        axis=1,
    )[keep]
    indptr = np.arange(0, 4 * items.shape[0] + 1, 4)
    problem = ExactCover.from_csr(indptr, items.ravel(), n_items=4 * nn)
    return problem, cells[keep], digits[keep] + 1


def default_sample_path() -> str:
    """Path of the built-in sample puzzles shipped with the package."""
    return os.path.join(os.path.dirname(__file__), "data", "sample_puzzles.txt")
