"""Sudoku on top of the exact-cover engine: bulk solving of puzzle arrays.

A puzzle is a row of ``n * n`` small integers (0 = blank, 1..n = a given) for an
n x n grid with r x c boxes (n = r * c, 4 <= n <= 36), or, under rules without boxes
(``Rules(latin=True)``, jigsaw regions), of any size from 2 to 36, primes too.
:func:`solve` takes an (N, n*n) array (or anything :func:`numbadlx.sudoku.parse`
reads) and returns a :class:`SudokuResult` of arrays: the solutions, a :class:`Status`
per puzzle, solution counts (up to ``limit``) and search nodes.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._compiling import first_use
from .._stopping import clock
from ..core.validate import check_count, check_timeout
from ..core.words import per_second, plural
from . import engines, frames, geometry
from ._deadline import solve_by_deadline
from ._labels import solver_label
from ._rules_solve import rule_groups, solve_rules
from .completion import cage_column_messages, solution_column_messages
from .cover import decode_cover, to_exact_cover
from .engines import ENGINES, REGISTRY, pick_engine
from .engines import run as run_engine
from .formats import columnar_chunk, parse_chunk
from .parallel import check_threads
from .shape import box_note, box_shape
from .variants import Rules, reading_box

__all__ = [
    "Status",
    "SudokuResult",
    "solve",
    "warm_up",
    "to_exact_cover",
    "decode_cover",
    "default_sample_path",
    "DEFAULT_CHUNK",
    "ENGINES",
    "pick_engine",
]

# Puzzles per parallel work unit: many small units balance hard sets across threads.
DEFAULT_CHUNK = 64


class Status(enum.IntEnum):
    """What :func:`solve` found for one puzzle."""

    NOT_RUN = engines.NOT_RUN
    UNIQUE = engines.UNIQUE  #: exactly one solution (searched with limit >= 2)
    SOLVED = engines.SOLVED  #: a solution, uniqueness not checked (limit = 1)
    MULTIPLE = engines.MULTIPLE  #: at least two solutions; the first one is kept
    NO_SOLUTION = engines.NO_SOLUTION  #: valid givens, but no way to complete them
    INVALID = engines.INVALID  #: clashing givens, a value above n, or an unreadable line
    BUDGET = engines.BUDGET  #: max_nodes ran out first


@dataclass
class SudokuResult:
    """Results of :func:`solve`, one row per puzzle.

    Attributes
    ----------
    puzzles : (N, n*n) uint8, the givens.
    solutions : (N, n*n) uint8, the first solution found, zeros where there is none.
    status : (N,) uint8, :class:`Status` codes.
    counts : (N,) int64, solutions found (at most ``limit``).
    nodes : (N,) int64, search-tree nodes visited (engine ``"dlx"``: items chosen;
        ``"bits"`` and ``"bands"``: states propagated, the givens' one plus one per
        digit tried).
    n, box : the grid size and box shape (rows, cols).
    limit : the count limit used.
    seconds : wall time of the solve.
    threads : threads used.
    guesses : (N,) int64 or None, branch points per puzzle: search levels with two or
        more candidates (None where the producer did not count them).
    engine : the engine that ran, ``"dlx"``, ``"bits"`` or ``"bands"`` (None where the
        producer did not say).
    messages : dict of int to str, what is wrong with a puzzle, by row: a line that
        could not be read (INVALID, ``name:line:column: ...``), or a CSV solution
        column that cannot be read (``name:line:column: solution column: ...``) or
        is not a solution of its puzzle (``line L: solution column: ...``); for a
        solution column the status is the solver's. Clashing givens have no message
        here (:func:`check_grid` says where).
    texts : dict of int to str, the input text of each row that could not be read,
        by row (its ``puzzles`` row is all zeros).
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
    guesses: np.ndarray | None = None
    engine: str | None = None
    #: for pandas input, its index and blank character (:class:`.frames.PandasSource`)
    source: Any = None
    messages: dict = field(default_factory=dict)
    #: the input text of each row that could not be read, by row (what
    #: :meth:`to_pandas` shows as its puzzle)
    texts: dict = field(default_factory=dict)

    def __len__(self):
        return self.status.shape[0]

    def to_pandas(self, blank: str | None = None) -> Any:
        """The results as a pandas DataFrame: ``puzzle``, ``solution`` (strings in the
        input's form), ``status``, ``count``, ``nodes`` and ``guesses``, indexed like
        a Series or DataFrame given to :func:`solve`; see
        :func:`numbadlx.sudoku.frames.result_frame`.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = solve(pd.Series(["1..." "..1." ".3.." "...4"])).to_pandas()
        >>> frame.loc[0, "puzzle"], frame.loc[0, "status"], int(frame.loc[0, "count"])
        ('1.....1..3.....4', 'UNIQUE', 1)
        """
        return frames.result_frame(self, blank)

    def to_arrow(self) -> Any:
        """The results as a pyarrow Table (``puzzle``, ``solution``, ``status``,
        ``count``, ``nodes``, ``guesses``, ``message``), one row per puzzle in input
        order; see :func:`numbadlx.sudoku.frames.result_arrow`. ``polars.from_arrow``
        of it is a Polars DataFrame. Needs pyarrow (``numbadlx[arrow]``).

        Examples
        --------
        >>> table = solve(["1..." "..1." ".3.." "...4"]).to_arrow()
        >>> table.column("status").to_pylist(), table.num_rows
        (['UNIQUE'], 1)
        """
        return frames.result_arrow(self)

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
            f"SudokuResult({plural(len(self), 'puzzle')} of {self.n}x{self.n}"
            f"{box_note(self.n, self.box)}, {tally}; "
            f"{self.seconds:.3f} s, {per_second(len(self), self.seconds)})"
        )

    def _repr_html_(self):
        """Jupyter view: status counts, throughput, effort and the first rows."""
        # Jupyter's hook; the drawing lives in the display layer, above this one
        from ..display.sudoku_html import sudoku_result_html

        return sudoku_result_html(self)


def _as_puzzles(puzzles, box, errors="status", column=None, rules=None):
    """Return ``(array (N, n*n) uint8, pre-status (N,) uint8, n, messages, chunk,
    shared)``: ``shared`` when the array is the caller's own memory (a uint8 array
    passed in), which the result is to keep a copy of.

    A puzzle that cannot be read (a bad line, a value out of range) gets INVALID status
    and its message, or raises ValueError with ``errors="raise"``; anything that is not
    a batch of puzzles at all raises ValueError.
    """
    if errors not in ("status", "raise"):
        raise ValueError(f'errors must be "status" or "raise", got {errors!r}')
    # an array's raw text is made only for the rows asked for, so keeping it costs
    # nothing, where dropping it would build a list of one string per row
    raw = isinstance(puzzles, np.ndarray)
    chunk = parse_chunk(puzzles, box=reading_box(box, rules), column=column, raw=raw)
    if errors == "raise" and chunk.errors:
        raise ValueError(chunk.errors[0][1])
    if chunk.errors:
        pre = np.where(chunk.bad, engines.INVALID, engines.NOT_RUN).astype(np.uint8)
    else:
        pre = np.full(chunk.bad.shape[0], engines.NOT_RUN, dtype=np.uint8)
    grid = np.ascontiguousarray(chunk.puzzles, dtype=np.uint8)
    shared = isinstance(puzzles, np.ndarray) and np.may_share_memory(grid, puzzles)
    return grid, pre, chunk.n, dict(chunk.errors), chunk, shared


def _unread_texts(chunk) -> dict:
    """The input text of each unreadable row of ``chunk``, by row."""
    return {row: str(chunk.raw[row]) for row, _ in chunk.errors}


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
    engine: str = "auto",
    column: Any = None,
    errors: str = "status",
    rules: Rules | Sequence[Rules] | None = None,
) -> SudokuResult:
    """Solve a batch of Sudokus.

    Parameters
    ----------
    puzzles : array_like or str or path or pandas.Series or pandas.DataFrame
        An (N, n*n) integer array (0 = blank), one grid (``(n*n,)`` or ``(n, n)``;
        a ``(16, 16)`` or ``(36, 36)`` array is 16 (36) puzzles of 4x4 (6x6), as for
        :func:`numbadlx.sudoku.parse`: pass ``box=(4, 4)`` for one 16x16 grid), text /
        a file that :func:`~numbadlx.sudoku.parse` reads, a
        :class:`~numbadlx.sudoku.PuzzleChunk`, a pandas Series of puzzle strings, or a
        DataFrame with ``column`` naming the puzzles' column
        (:meth:`SudokuResult.to_pandas` then answers with the same index and blanks),
        a Polars Series or DataFrame, a pyarrow array or table (strings or lists of
        integers; a null is an INVALID row), or a Parquet or Arrow IPC file
        (``column`` names its puzzle column).
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
        Puzzles per parallel work unit (default 64; fewer where a call has too few
        puzzles to give each thread 64 units).
    progress : callable, optional
        Called as ``progress(done, total)`` after each block of puzzles.
    invalid : array_like of bool, optional
        Rows to report as INVALID without solving (e.g. lines a reader could not
        parse).
    timeout : float, optional
        Seconds for the whole call: everything from its start (reading the puzzles,
        loading kernels from Numba's cache, searching) counts, except compiling
        kernels on a first use. Puzzles still unfinished when it runs out get status
        BUDGET (keeping any solution their last search found), so the call returns
        after about ``timeout`` seconds (plus any compiling) whatever the puzzles: the
        search running at the deadline stops at its next node. Easy puzzles are
        finished first:
        every puzzle is searched with a small node budget, then the unfinished ones
        again with a budget twice as large, and so on, each kernel call sized to take
        about 0.1 s. A puzzle that finishes gets exactly the result (status, count,
        solution, nodes) it gets without a timeout; a re-searched puzzle costs at most
        about twice its own nodes more. Combined with ``max_nodes``, whichever comes
        first gives BUDGET.
    engine : {"auto", "dlx", "bits", "bands"}, default "auto"
        The search engine (see :data:`ENGINES`; ``"bands"`` is for 9x9 puzzles with
        3x3 boxes only). All give the same statuses, counts
        and, for a puzzle with one solution, the same grid; with several solutions
        each keeps the first it found. Nodes differ (the engines count different
        steps); ``max_nodes`` bounds the chosen engine's own nodes.
    column : hashable, optional
        For a DataFrame: the column that holds the puzzle strings; for a CSV file: the
        puzzle column (a header name or a 0-based index), as in
        :func:`numbadlx.sudoku.read_csv`.
    errors : {"status", "raise"}, default "status"
        What a puzzle that cannot be read (a bad line of text, a value out of range in
        an array) does: ``"status"`` gives it INVALID and its message in
        :attr:`SudokuResult.messages` (``name:line:column: ...``) and solves the others,
        as the command line does; ``"raise"`` raises that ValueError instead (what
        :func:`numbadlx.sudoku.parse` always does). Input that is not puzzles at all
        (no size, a wrong array shape, a binary file) raises either way. A CSV
        solution column is checked: a row whose solution cannot be read or is not a
        solution of its puzzle gets a message (its status stays the solver's).
    rules : Rules or sequence of Rules, optional
        A variant's rules (:class:`~numbadlx.sudoku.Rules`) for every puzzle, or one
        per puzzle (puzzles are then solved in groups of equal rules, results in input
        order). ``"auto"`` picks an engine per rule set; a named engine that does not
        solve the rules raises ValueError. Bad rules raise ValueError naming the rule.
        Rules without boxes (``latin=True``, ``regions=``) take grids of any size from
        2x2 to 36x36, prime sizes too (a 5x5 or 7x7 Latin square or jigsaw).
        A CSV solution column is checked against rows, columns and boxes when every
        rule set keeps the boxes, and against the cages of each row's rules (sums and
        distinct digits), not against the other rules.

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
    timeout = check_timeout(timeout)  # None for no deadline (None or infinity)
    # everything from here on counts against the timeout, except compiling
    deadline = None if timeout is None else clock() + timeout
    source = None
    if frames.is_pandas(puzzles):
        puzzles, source = frames.puzzles_from_pandas(puzzles, column)
        column = None
    elif frames.is_columnar(puzzles):
        puzzles = columnar_chunk(puzzles, column, reading_box(box, rules))
        column = None
    grid, status, n, messages, read, shared = _as_puzzles(puzzles, box, errors, column, rules)
    # the result keeps its own copy of the givens: made while the other threads solve
    # (the engines only read the givens) when the call is one kernel call, else here
    kept = [grid]
    copy_meanwhile = shared and rules is None and timeout is None and progress is None
    if shared and not copy_meanwhile:
        kept[0] = grid = grid.copy()
    if rules is None and read.rules is not None:
        rules = read.rules  # a source that gives each puzzle its rules (a killer CSV)
    if rules is None and REGISTRY.get(engine) and REGISTRY[engine].rules_table:
        rules = Rules()  # an engine that builds its own table: through the rules path
    if rules is None:
        box = box_shape(n, box)
        solution_column_messages(read, box, messages)
        engine = pick_engine(engine, n, box)
    else:
        groups = rule_groups(rules, grid.shape[0], n, box, rows_tables=True)  # checked first
        picked = {pick_engine(engine, n, checked.box, rules=checked): 0 for checked, _ in groups}
        shown = ",".join(picked)  # the engines the groups take (checked before any search)
        if all(checked.has_boxes for checked, _ in groups):
            solution_column_messages(read, groups[0][0].box, messages)
        cage_column_messages(read, rules, messages)
    if invalid is not None:
        invalid = np.asarray(invalid, dtype=bool)
        if invalid.shape != status.shape:
            raise ValueError(f"invalid mask has shape {invalid.shape}, expected {status.shape}")
        status[invalid] = engines.INVALID
    chunk = DEFAULT_CHUNK if chunk is None else check_count(chunk, "chunk")
    n_puzzles = grid.shape[0]
    solutions = np.zeros_like(grid)
    counts = np.zeros(n_puzzles, dtype=np.int64)
    nodes = np.zeros(n_puzzles, dtype=np.int64)
    guesses = np.zeros(n_puzzles, dtype=np.int64)
    start = time.perf_counter()
    # the engines run on Python threads (see engines.run): Numba's thread settings,
    # and its threading layer, are left alone
    threads = check_threads(threads)
    with first_use(solver_label(engine if rules is None else shown)):
        # Blocks of puzzles between progress reports. Each block is a kernel call, and
        # each call wakes the other threads and ends with a tail where one thread waits
        # for the other's last unit: "bands" solves 9x9 puzzles in a few microseconds,
        # so its blocks are bigger (32,768 puzzles is still well under a second).
        # Without progress reports the whole array is one call (Ctrl-C reaches a
        # running call through its stop flag, see engines.run).
        block = max(chunk * threads * 16, 32768 if engine == "bands" else 4096)
        if progress is None:
            block = max(block, n_puzzles)
        out = (solutions, status, counts, nodes, guesses)
        if rules is not None:
            names, box = solve_rules(
                grid,
                rules,
                n,
                box,
                engine=engine,
                limit=int(limit),
                max_nodes=max_nodes,
                chunk=chunk,
                threads=threads,
                deadline=deadline,
                progress=progress,
                out=out,
                groups=groups,
            )
            engine = ",".join(names)
        table = geometry.unit_table(n, box) if rules is None else None
        if timeout is not None and rules is None:
            solve_by_deadline(
                engine,
                grid,
                table,
                int(limit),
                max_nodes,
                chunk,
                threads,
                deadline,
                out,
                progress,
            )
        for begin in range(0, n_puzzles if timeout is None and rules is None else 0, block):
            end = min(n_puzzles, begin + block)
            run_engine(
                engine,
                grid[begin:end],
                table,
                int(limit),
                0 if max_nodes is None else int(max_nodes),
                chunk,
                threads,
                tuple(array[begin:end] for array in out),
                meanwhile=(lambda: kept.__setitem__(0, grid.copy())) if copy_meanwhile else None,
            )
            if progress is not None:
                progress(end, n_puzzles)
    if kept[0] is grid and copy_meanwhile:  # no kernel call (no puzzles)
        kept[0] = grid.copy()
    return SudokuResult(
        puzzles=kept[0],
        solutions=solutions,
        status=status,
        counts=counts,
        nodes=nodes,
        n=n,
        box=box,
        limit=int(limit),
        seconds=time.perf_counter() - start,
        threads=threads,
        guesses=guesses,
        engine=engine,
        source=source,
        messages=messages,
        texts=_unread_texts(read),
    )


def warm_up(
    engines: tuple[str, ...] = ENGINES[1:],
    *,
    puzzles: int | None = None,
    threads: int | None = None,
) -> None:
    """Compile (first run) or load from Numba's cache the batch kernels of ``engines``
    (default: all of them) by solving blank grids, so that later timings measure the
    solver alone. Each engine has one batch kernel, which :func:`solve` runs on one
    thread or several; ``puzzles`` and ``threads`` are taken for the calls of older
    versions, and change nothing. A call that compiles says so on standard error
    (``NUMBADLX_QUIET=1`` silences it).

    Examples
    --------
    >>> warm_up(("bands",))
    >>> warm_up(("bits",), puzzles=1)
    """
    if puzzles is not None:
        check_count(puzzles, "puzzles")
    check_threads(threads)
    for engine in engines:
        n, box = (9, (3, 3)) if engine == "bands" else (4, (2, 2))
        name = pick_engine(engine, n, box)
        table = geometry.unit_table(n, box)
        if REGISTRY[name].rules_table is not None:
            table = REGISTRY[name].rules_table(table, Rules(box=box).checked(n))
        # one blank puzzle; the kernel takes every size's unit table, so a 4x4 one
        # compiles it for all
        with first_use(solver_label(name)):
            grid = np.zeros((1, n * n), dtype=np.uint8)
            out = (
                np.zeros_like(grid),
                np.zeros(1, dtype=np.uint8),
                np.zeros(1, dtype=np.int64),
                np.zeros(1, dtype=np.int64),
                np.zeros(1, dtype=np.int64),
            )
            run_engine(name, grid, table, 1, 0, 1, 1, out)


def default_sample_path() -> str:
    """Path of the built-in sample puzzles shipped with the package."""
    return os.path.join(os.path.dirname(__file__), "data", "sample_puzzles.txt")
