"""What may still go where: candidate masks in bulk, after a chosen level of logic.

:func:`candidates` gives, for every puzzle of a batch, the digits each cell may still
hold once the givens are placed (``logic="none"``), once naked and hidden singles have
run to a standstill (``"singles"``), or once the rater's ladder (:data:`TECHNIQUES`)
has run up to and including a named technique below the trials (``"X-wing"``,
``"forcing chain"``...). The ladder is the rater's own (:mod:`._ladder`), easiest
technique first after every step, so the masks are those its solving path reaches.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numpy.typing import ArrayLike

from ..._compiling import first_use
from ..formats import parse_chunk
from ..geometry import unit_tables
from ..parallel import parallel_threads
from ..shape import box_shape
from ._ladder import STEP_FIELDS, T_FIRST_TRIAL, T_POINTING, logic_solve, logic_work
from ._masks import PLACED, candidates_of, cleared, full_mask
from ._rate import TECHNIQUES

__all__ = ["candidates", "LOGIC_LEVELS"]

#: The values of ``logic=``: "none", "singles", then the ladder's techniques below
#: the trials, by name.
LOGIC_LEVELS = ("none", "singles") + tuple(t.name for t in TECHNIQUES[T_POINTING:T_FIRST_TRIAL])


@njit(cache=True, nogil=True)
def _chunk(c, n_chunks, puzzles, units, peers, where, full, top, out):
    count, nn = puzzles.shape
    n = units.shape[1]
    cand = cleared(np.empty(nn, dtype=np.uint64))
    work = logic_work(n)
    no_steps = np.empty((0, STEP_FIELDS), dtype=np.int32)
    no_solution = np.empty(0, dtype=np.uint8)
    for k in range(c, count, n_chunks):
        if not candidates_of(puzzles[k], cand, peers, full):
            for cell in range(nn):
                out[k, cell] = 0
            continue
        if top >= 0:
            logic_solve(cand, units, peers, where, full, no_steps, work, no_solution, top, None)
        for cell in range(nn):
            out[k, cell] = cand[cell] & ~PLACED


@njit(cache=True, parallel=True, nogil=True)
def _candidates_bulk(puzzles, units, peers, where, full, top, out, n_chunks):
    for c in prange(n_chunks):
        _chunk(np.int64(c), n_chunks, puzzles, units, peers, where, full, top, out)


def candidates(
    puzzles: ArrayLike,
    logic: str = "none",
    *,
    box: tuple[int, int] | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """The candidate masks of every puzzle after a level of logic, in bulk.

    Parameters
    ----------
    puzzles : array_like or str or path
        An (N, n*n) array or anything :func:`numbadlx.sudoku.parse` reads.
    logic : str, default "none"
        ``"none"``: the givens placed and their digits taken out of their peers;
        ``"singles"``: then naked and hidden singles until none is left; or a technique
        of :data:`TECHNIQUES` below the trials (:data:`LOGIC_LEVELS`): the rater's
        ladder, easiest first, using that technique and those below it.
    box, threads
        As in :func:`numbadlx.sudoku.solve`.

    Returns
    -------
    ndarray, (N, n*n)
        Bit ``d - 1`` of ``masks[k, cell]`` is set while digit ``d`` may go there (a
        solved cell keeps its one digit); ``uint16`` up to 16x16, ``uint32`` up to
        32x32, else ``uint64``. A row whose givens clash, or that the parser could not
        read, is all zeros; a puzzle without a solution may show a cell with no
        candidate left.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> puzzle = "1...2.....3.....4" + "." * 64
    >>> masks = sudoku.candidates([puzzle])
    >>> f"{int(masks[0, 0]):09b}", f"{int(masks[0, 1]):09b}"
    ('000000001', '111111000')
    >>> easy = ("530070000600195000098000060800060003400803001"
    ...         "700020006060000280000419005000080079")
    >>> after = sudoku.candidates([easy], logic="singles")
    >>> bool((after & (after - 1)).any())  # singles solve it: one digit a cell
    False
    """
    if logic not in LOGIC_LEVELS:
        raise ValueError(f"logic must be one of {', '.join(LOGIC_LEVELS)}; got {logic!r}")
    top = {"none": -1, "singles": T_POINTING}.get(logic)
    if top is None:
        top = [t.name for t in TECHNIQUES].index(logic) + 1
    read = parse_chunk(puzzles, box=box)
    read.variant_rows("candidates reads")
    n = read.n
    rows, cols = box_shape(n, box)
    bad = np.asarray(read.bad, dtype=bool)
    grid = np.ascontiguousarray(np.where(bad[:, None], 0, read.puzzles), dtype=np.uint8)
    units, peers, where = unit_tables(n, rows, cols)
    dtype = np.uint16 if n <= 16 else np.uint32 if n <= 32 else np.uint64
    out = np.zeros(grid.shape, dtype=np.uint64)
    with parallel_threads(threads) as threads, first_use(f"the {n}x{n} candidate masks"):
        n_chunks = max(1, min(grid.shape[0], threads * 8))
        _candidates_bulk(grid, units, peers, where, full_mask(n), top, out, n_chunks)
    out[bad] = 0
    return out.astype(dtype)
