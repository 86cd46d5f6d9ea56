"""How hard is a puzzle: two ratings, in bulk.

:func:`rate` (its notes say what they mean) gives ``tries`` (search effort, in the
style of tdoku's guess counts) and ``logic`` (the hardest step on a ladder of human
techniques, from singles through chains to trials, on a scale modelled on Sudoku
Explainer's, stretched by how much of the grid singles left open).

The steps the ladder took (technique, cell, digit, candidates removed) come with
``rate(..., steps=True)`` or :func:`solving_path`, for showing the solving path.

Examples
--------
>>> from numbadlx import sudoku
>>> puzzle = ("530070000600195000098000060800060003400803001"
...           "700020006060000280000419005000080079")
>>> ratings = sudoku.rate([puzzle])
>>> ratings.tries.tolist(), ratings.hardest_names().tolist()
([0.0], ['hidden single (box)'])
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ..._compiling import first_use
from ...core.validate import check_count, is_integer
from ...core.words import plural
from .. import engines
from ..engines import INVALID, SOLVED, pick_engine, run
from ..formats import parse_chunk
from ..geometry import unit_table, unit_tables
from ..parallel import parallel_threads
from ..shape import box_shape
from ._bodies import rate_chunk, trial_chunk
from ._ladder import NEEDS_TRIALS, STEP_FIELDS, T_SEARCH
from ._loops import rate_serial, rate_threads, trials_serial
from ._masks import full_mask

__all__ = ["TECHNIQUES", "Technique", "Ratings", "Step", "rate", "solving_path"]


class Technique(NamedTuple):
    """One rung of the logic ladder: its name and its rating."""

    name: str
    rating: float


#: The logic ladder, indexed by the technique codes of :attr:`Ratings.hardest`
#: (0 is "givens only": a puzzle with nothing to solve).
TECHNIQUES = (
    Technique("givens only", 0.0),
    Technique("hidden single (box)", 1.2),
    Technique("hidden single (line)", 1.5),
    Technique("naked single", 2.3),
    Technique("pointing", 2.6),
    Technique("claiming", 2.8),
    Technique("naked pair", 3.0),
    Technique("X-wing", 3.2),
    Technique("hidden pair", 3.4),
    Technique("naked triple", 3.6),
    Technique("swordfish", 3.8),
    Technique("hidden triple", 4.0),
    Technique("XY-wing", 4.2),
    Technique("XYZ-wing", 4.4),
    Technique("naked quad", 5.0),
    Technique("jellyfish", 5.2),
    Technique("hidden quad", 5.4),
    Technique("X-chain", 6.6),
    Technique("forcing chain", 7.0),
    Technique("nishio", 7.5),
    Technique("dynamic forcing chain", 8.5),
    Technique("dynamic forcing chain (+)", 9.0),
    Technique("needs search", 9.5),
)
assert len(TECHNIQUES) == T_SEARCH + 1

# Status names by code, as numbadlx.sudoku.Status has them (that enum lives above here)
_STATUS_CODES = ("NOT_RUN", "UNIQUE", "SOLVED", "MULTIPLE", "NO_SOLUTION", "INVALID", "BUDGET")
_STATUS_NAMES = np.array(sorted(_STATUS_CODES, key=lambda name: getattr(engines, name)))

#: The ratings of :data:`TECHNIQUES` as an array (what the kernels take).
LOGIC_RATINGS = np.array([t.rating for t in TECHNIQUES], dtype=np.float64)


class Step(NamedTuple):
    """One step of the logic solver: a placement (``removed == 0``: ``digit`` goes into
    ``cell``) or an elimination (``removed`` candidates went; ``cell`` and ``digit``
    name the first of them). ``cell`` is ``(row, column)``, from 0. A "needs search"
    step places the solution's digit."""

    technique: str
    rating: float
    cell: tuple
    digit: int
    removed: int

    def __str__(self):
        where = f"r{self.cell[0] + 1}c{self.cell[1] + 1}"
        if self.removed:
            return (
                f"{self.technique} ({self.rating}): {plural(self.removed, 'candidate')} removed, "
                f"first {self.digit} from {where}"
            )
        return f"{self.technique} ({self.rating}): {where} = {self.digit}"


#: Calls of at most this many puzzles of up to 9x9 run on the calling thread (a
#: fraction of a second), so they do not compile the parallel kernels, and check
#: uniqueness with the rater's own search, so they do not compile an engine.
_SERIAL_UP_TO = 256


#: A rough guess of one puzzle's rating (up to 9x9) on the ladder driven from Python,
#: one thread: 0.8-1.1 ms a puzzle on typical sets, 7 ms on top1465's, 36 ms on the
#: hardest ones (the compiled ladder takes 0.4-0.8 of that).
_ROW_SECONDS = 1e-3

#: A call of puzzles up to 9x9 whose expected work (:data:`_ROW_SECONDS` a puzzle) is
#: at most this also runs on the calling thread, on the ladder driven from Python, as
#: long as the compiled ladder is neither in this process nor in Numba's disk cache:
#: compiling it whole costs 20-30 CPU s on first use (with an engine), the stepwise
#: rungs 6-9 s, and a thousand typical puzzles take a second either way.
_STEPWISE_SECONDS = 5.0


def _compiled_ladder_cached():
    """Whether the kernel of a large call (the compiled rating chunk) is loaded in this
    process or in Numba's disk cache (an index file for it there: it loads in a
    fraction of a second)."""
    kernel = rate_chunk
    if getattr(kernel, "signatures", None):
        return True
    index = getattr(
        getattr(getattr(kernel, "_cache", None), "_cache_file", None), "_index_path", None
    )
    return index is not None and os.path.exists(index)


@contextlib.contextmanager
def compiled_ladder():
    """Within the block, a call larger than the small ones (more than
    :data:`_SERIAL_UP_TO` puzzles) takes the compiled ladder even when it is not in
    the cache yet: ``numbadlx warm-up --all`` compiles it so for later large calls.

    Examples
    --------
    >>> from numbadlx.sudoku.making import _rate
    >>> with compiled_ladder():
    ...     _rate._STEPWISE_SECONDS
    0.0
    >>> _rate._STEPWISE_SECONDS
    5.0
    """
    global _STEPWISE_SECONDS
    saved, _STEPWISE_SECONDS = _STEPWISE_SECONDS, 0.0
    try:
        yield
    finally:
        _STEPWISE_SECONDS = saved


def _fast_ladder_loaded():
    """True once this process holds the compiled rating loop (a large call ran): small
    calls then take it too (it runs faster) rather than compile the rungs of small
    calls as well, as the last short chunk of a large file would."""
    return bool(rate_chunk.signatures)


@dataclass
class Ratings:
    """Results of :func:`rate`, one row per puzzle.

    Attributes
    ----------
    puzzles : (N, n*n) uint8, the puzzles rated.
    tries : (N,) float64, mean tries over the isomorphs: digits a depth-first search
        tried in a cell while others of that cell were still untried (NaN where
        ``status`` is not UNIQUE).
    logic : (N,) float64, the logic rating (NaN where ``status`` is not UNIQUE, the
        logic solver met a contradiction, or was not run).
    hardest : (N,) uint8, index into :data:`TECHNIQUES` of the hardest step (0 where
        the logic solver was not run); its rating times ``1 + s`` is ``logic``.
    solved_by_logic : (N,) bool, True where the ladder alone (chains and trials
        included) filled the grid, without a "needs search" step.
    n_steps : (N,) int32, steps the logic solver took.
    isomorphs, seed : what ``tries`` averaged over.
    seconds, threads : wall time and threads of the call.
    status : (N,) uint8, :class:`~numbadlx.sudoku.Status` codes: UNIQUE for a rated
        puzzle; MULTIPLE (two solutions or more), NO_SOLUTION and INVALID (clashing
        givens, a value out of range, an unreadable line) are not rated.
    """

    puzzles: np.ndarray
    tries: np.ndarray
    logic: np.ndarray
    hardest: np.ndarray
    solved_by_logic: np.ndarray
    n_steps: np.ndarray
    isomorphs: int
    seed: int
    seconds: float = 0.0
    threads: int = 1
    step_table: np.ndarray | None = None
    status: np.ndarray | None = None

    def __len__(self):
        return self.tries.shape[0]

    def status_names(self):
        """The status of each puzzle by name (``"UNIQUE"`` for a rated one)."""
        return _STATUS_NAMES[self.status]

    def hardest_names(self):
        """The hardest technique of each puzzle, by name."""
        names = np.array([t.name for t in TECHNIQUES], dtype=object)
        return names[self.hardest]

    def path(self, k: int) -> list[Step]:
        """The logic solver's steps for puzzle ``k`` (needs ``rate(..., steps=True)``)."""
        if self.step_table is None:
            raise ValueError("no steps kept: call rate(..., steps=True)")
        n = int(round(self.puzzles.shape[1] ** 0.5))
        rows = self.step_table[k, : self.n_steps[k]]
        return [
            Step(
                TECHNIQUES[t].name,
                TECHNIQUES[t].rating,
                divmod(int(cell), n),
                int(digit),
                int(removed),
            )
            for t, cell, digit, removed in rows
        ]

    def steps(self, masks: bool = False) -> dict:
        """Every rated puzzle's steps as columns, one row a step (needs
        ``rate(..., steps=True)``): ``puzzle``, ``step``, ``technique``, ``rating``,
        ``row``, ``column``, ``digit``, ``removed``; with ``masks`` also the candidate
        masks before each step, ``(S, n*n)`` uint64 (replayed from the givens: see
        :mod:`numbadlx.sudoku.making._trace`).

        Examples
        --------
        >>> from numbadlx import sudoku
        >>> ratings = sudoku.rate(["0200" "0040" "3400" "0000"], steps=True)
        >>> trace = ratings.steps(masks=True)
        >>> trace["technique"][0], trace["masks"].shape
        ('hidden single (box)', (12, 16))
        """
        from ._trace import trace_columns

        return trace_columns(self, TECHNIQUES, masks=masks)

    def steps_to_pandas(self, masks: bool = False) -> Any:
        """:meth:`steps` as a pandas DataFrame (``masks``: one object column of arrays)."""
        import pandas as pd

        columns = self.steps(masks=masks)
        if masks:
            columns["masks"] = list(columns["masks"])
        return pd.DataFrame(columns)

    def steps_to_arrow(self, masks: bool = False) -> Any:
        """:meth:`steps` as a pyarrow Table (``masks``: a fixed-size list column);
        needs pyarrow (``pip install pyarrow``)."""
        import pyarrow as pa

        columns = self.steps(masks=masks)
        if masks:
            grid = columns["masks"]
            columns["masks"] = pa.FixedSizeListArray.from_arrays(
                pa.array(grid.reshape(-1)), grid.shape[1]
            )
        return pa.table(columns)

    def __repr__(self):
        if not len(self):
            return "Ratings(0 puzzles)"
        return (
            f"Ratings({plural(len(self), 'puzzle')}; median tries {_median(self.tries)}, "
            f"median logic {_median(self.logic)}; {self.seconds:.3f} s)"
        )


def _median(values) -> str:
    """The median of the rated values (NaN: not rated), or ``-`` when none is rated."""
    values = np.asarray(values, dtype=float)
    rated = values[~np.isnan(values)]
    return f"{np.median(rated):.2f}" if rated.size else "-"


def rate(
    puzzles: ArrayLike | str | os.PathLike | Any,
    *,
    isomorphs: int = 8,
    seed: int = 0,
    logic: bool = True,
    steps: bool = False,
    box: tuple[int, int] | None = None,
    threads: int | None = None,
    chunk: int = 64,
    progress: Callable[[int, int], None] | None = None,
    first_index: int = 0,
) -> Ratings:
    """Rate a batch of puzzles: ``tries`` and ``logic`` (see the module docstring).

    Parameters
    ----------
    puzzles : array_like or str or path
        An (N, n*n) array or anything :func:`numbadlx.sudoku.parse` reads.
    isomorphs : int, default 8
        Random isomorphs ``tries`` averages over (K).
    seed : int, default 0
        Seed of the isomorphs; puzzle ``k`` uses ``(seed, first_index + k)`` whatever
        the threads.
    logic : bool, default True
        Also run the logic ladder (False: ``tries`` only, faster).
    steps : bool, default False
        Keep every step of the logic solver, for :meth:`Ratings.path`.
    box, threads, chunk, progress
        As in :func:`numbadlx.sudoku.solve`.
    first_index : int, default 0
        Number of the first puzzle (for rating a file in pieces).

    Returns
    -------
    Ratings
        Only puzzles with exactly one solution are rated: every puzzle is first solved
        with a solution limit of 2, and one with several solutions, none, or clashing
        givens gets NaN ratings and its status in :attr:`Ratings.status`.

    Notes
    -----
    ``tries``
        The mean number of tries a depth-first solver makes before it finds a solution,
        over ``isomorphs`` random isomorphs of the puzzle (relabelled digits, shuffled bands,
        stacks, rows and columns, a transpose for square boxes), in the style of tdoku's
        rating. The solver places naked and hidden singles after every choice, branches on
        the first cell with fewest candidates and tries its digits lowest first; a *try*
        is a digit tried while others of that cell are still untried (the last one is
        forced): a branch point counts every digit tried there but the last of its
        cell, so a two-digit cell counts one whichever digit holds (the ``guesses`` of
        :class:`~numbadlx.sudoku.SudokuResult` count each branch point once). 0 means
        singles alone solve the puzzle (such a puzzle is rated from one propagation:
        singles reach the same cells in every isomorph). Averaging over isomorphs removes
        the bias of one particular clue order; the isomorphs of puzzle ``k`` come from
        ``(seed, k)``, so the ratings are reproducible and do not depend on the threads.
        The counts are of the same kind as tdoku's guess counts, not equal to them:
        tdoku's solver propagates more (it also uses locked candidates), so it tries
        less.
    ``logic``
        The hardest technique a human-style solver needs, on a ladder tried easiest first
        (after every step it starts again from the bottom), rated on a scale modelled on
        Sudoku Explainer's (SE), and stretched by how much of the grid was left for work
        beyond singles: ``r * (1 + s)``, where ``r`` is the rating of the hardest step
        (:attr:`Ratings.hardest` names it) and ``s`` the share of the ``n^2`` cells still
        empty when naked and hidden singles first ran out (0 if they never did). A puzzle
        that singles solve keeps its SE number (1.2, 1.5 or 2.3); an X-wing needed near
        the end counts a little over 3.2, one needed with half the grid open 4.8. The
        ladder and the ratings ``r`` are :data:`TECHNIQUES`:

        =========================  ======  =========================================
        technique                  rating  SE's rating of the same technique
        =========================  ======  =========================================
        hidden single (box)        1.2     1.2
        hidden single (line)       1.5     1.5
        naked single               2.3     2.3
        pointing                   2.6     2.6
        claiming                   2.8     2.8
        naked pair                 3.0     3.0
        X-wing                     3.2     3.2
        hidden pair                3.4     3.4
        naked triple               3.6     3.6
        swordfish                  3.8     3.8
        hidden triple              4.0     4.0
        XY-wing                    4.2     4.2
        XYZ-wing                   4.4     4.4
        naked quad                 5.0     5.0
        jellyfish                  5.2     5.2
        hidden quad                5.4     5.4
        X-chain                    6.6     6.6+ forcing X-chain (+ length)
        forcing chain              7.0     7.0+ forcing chain (+ length)
        nishio                     7.5     7.5+ nishio forcing chain
        dynamic forcing chain      8.5     8.5+ dynamic forcing chain
        dynamic forcing chain (+)  9.0     9.0+ dynamic forcing chain (+)
        needs search               9.5     9.5-11+ nested forcing chains
        =========================  ======  =========================================

        The rungs past the quads: an *X-chain* follows one digit along strong links (a
        unit with two places left for it) and weak links (two places that see each
        other), from a candidate to its own removal (skyscrapers, kites, turbot fish); a
        *forcing chain* also links the two digits of a two-digit cell and the digits of
        one cell (XY-chains, W-wings and other alternating inference chains); links are
        those of the candidates as they stand (static). *Nishio* places a digit and
        follows that digit alone (units where it has one place left get it there); a
        unit left without a place removes the candidate. *Dynamic forcing chains* assume
        each candidate (and, in a cell with three or more, its absence) and follow naked
        and hidden singles: a candidate whose branch ends in a contradiction goes, and
        so does whatever all the branches of a cell, of a digit's places in a unit, or
        of a candidate and its absence agree on removing; the (+) rung does the same
        with locked candidates, naked and hidden pairs and X-wings inside each branch
        (SE's first level). Past the ladder the solver takes the solution's digit of a
        cell with fewest candidates (what a search would have to find) and goes on,
        without the trial rungs from then on.

        Where it differs from SE: no "direct" variants (SE's 1.7-2.5 for a pair or
        pointing that yields a single at once); no uniqueness techniques (unique
        rectangles, BUG), aligned pair or triple exclusion, or cycles; chains only
        remove candidates; each chain or trial rung removes all it finds on the current
        candidates at once, where SE takes its simplest hint; no length increments (SE
        adds 0.1 for each length threshold a chain passes, 4, 6, 8, 12, 16, ...: grading
        our trials by their length that way ordered the Radcliffe puzzles worse, on the
        tuning half below); nested forcing chains are not tried ("needs search"
        instead); and the stretch by ``1 + s`` is ours. How it was chosen: only the even
        data rows of the Radcliffe sample were looked at (some fifteen measures for
        ``s`` and a dozen ways to combine one with ``r`` were tried there); the odd rows
        are held out. Spearman correlation with its ``difficulty`` on the held-out rows:
        0.769 (even rows 0.778; ``r`` alone 0.689 and ``r`` with ``s`` only breaking
        ties 0.751, both on the even rows).
        ``benchmarks/generate.py`` prints it.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> r = sudoku.rate(["0200" "0040" "3400" "0000"], steps=True)
    >>> r.logic.tolist(), str(r.path(0)[0])
    ([1.2], 'hidden single (box) (1.2): r2c2 = 3')
    """
    check_count(isomorphs, "isomorphs")
    check_count(chunk, "chunk")
    seed = _check_seed(seed)
    first_index = _check_seed(first_index, "first_index")
    chunk_read = parse_chunk(puzzles, box=box)
    chunk_read.variant_rows("rate rates")
    n = chunk_read.n
    rows, cols = box_shape(n, box)
    bad = np.asarray(chunk_read.bad, dtype=bool)
    grid = np.ascontiguousarray(np.where(bad[:, None], 0, chunk_read.puzzles), dtype=np.uint8)
    count, nn = grid.shape
    # uniqueness first (an engine with limit 2): only unique puzzles are rated
    status = np.where(bad, INVALID, 0).astype(np.uint8)
    solutions = np.zeros_like(grid)
    found = [np.zeros(count, dtype=np.int64) for _ in range(3)]
    engine, shape = pick_engine("auto", n, (rows, cols)), unit_table(n, (rows, cols))
    tries = np.full(count, np.nan)
    values = np.full(count, np.nan)
    outcome = np.zeros(count, dtype=np.uint8)
    hardest = np.zeros(count, dtype=np.uint8)
    n_steps = np.zeros(count, dtype=np.int32)
    # at most one step per placement and one per candidate removed
    table = np.zeros((count if steps else 0, nn * (n + 1), STEP_FIELDS), dtype=np.int32)
    units, peers, where = unit_tables(n, rows, cols)
    start = time.perf_counter()
    with parallel_threads(threads) as threads, first_use(f"the {n}x{n} rater"):
        block = max(chunk * threads * 16, 4096)
        for begin in range(0, count, block):
            end = min(count, begin + block)
            todo = slice(begin, end)
            checked = (solutions[todo], status[todo], *(a[todo] for a in found))
            # a small call runs on the calling thread (no parallel kernel to compile),
            # and the rater's own search checks uniqueness (no engine to compile)
            small = n <= 9 and (
                count <= _SERIAL_UP_TO
                or (count * _ROW_SECONDS <= _STEPWISE_SECONDS and not _compiled_ladder_cached())
            )
            serial = threads == 1 or small
            if not small:
                run(engine, grid[todo], shape, 2, 0, chunk, 1 if serial else threads, checked)
            arguments = (
                grid[todo],
                n,
                rows,
                cols,
                units,
                peers,
                where,
                full_mask(n),
                isomorphs,
                seed,
                first_index + begin,
                logic,
                LOGIC_RATINGS,
                tries[todo],
                values[todo],
                outcome[todo],
                hardest[todo],
                n_steps[todo],
                table[todo] if steps else table,
                chunk,
                status[todo],
                solutions[todo],
            )
            # a small call drives the ladder from Python over the rungs compiled once
            # each; a large one compiles it whole, the rungs for each size, to run fastest
            stepwise = small and not _fast_ladder_loaded()
            if serial:
                rate_serial(*arguments, stepwise=stepwise)
            else:
                rate_threads(rate_chunk, arguments, threads)
            # the puzzles the ladder below the trials left stuck, on the whole ladder
            if logic and np.any(outcome[todo] == NEEDS_TRIALS):
                if serial:
                    trials_serial(*arguments, stepwise=stepwise)
                else:
                    rate_threads(trial_chunk, arguments, threads)
            if progress is not None:
                progress(end, count)
    return Ratings(
        puzzles=grid,
        tries=tries,
        logic=values,
        hardest=hardest,
        solved_by_logic=outcome == SOLVED,
        n_steps=n_steps,
        isomorphs=int(isomorphs),
        seed=seed,
        seconds=time.perf_counter() - start,
        threads=threads,
        step_table=table if steps else None,
        status=status,
    )


def solving_path(puzzle: ArrayLike | str, *, box: tuple[int, int] | None = None) -> list[Step]:
    """The logic solver's steps for one puzzle, easiest technique first each time.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> path = sudoku.solving_path("0200" "0040" "3400" "0000")
    >>> len(path), str(path[-1])
    (12, 'hidden single (box) (1.2): r4c4 = 4')
    """
    ratings = rate(puzzle, isomorphs=1, steps=True, box=box, threads=1)
    if len(ratings) != 1:
        raise ValueError(f"expected one puzzle, got {len(ratings)}")
    return ratings.path(0)


def _check_seed(seed, name="seed"):
    """A seed (or a puzzle index: ``name``) as a non-negative int below 2**63 (an error
    naming ``name`` otherwise)."""
    if not is_integer(seed):
        raise TypeError(f"{name} must be an integer, got {seed!r}")
    if not 0 <= int(seed) < 2**63:
        raise ValueError(f"{name} must be in 0..2**63-1, got {seed}")
    return int(seed)
