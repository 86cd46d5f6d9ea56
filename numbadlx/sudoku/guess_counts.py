"""Backtrack ratings: the guess count of the fast engine per puzzle, the kind of number
published datasets carry as their "rating" (tdoku's guess count): :func:`backtracks`.

tdoku's solver counts a guess each time its search branches: it propagates singles and
the band-and-stack reasoning of its triads, then picks a digit and a band (or stack)
whose placements of that digit are still open and tries the first of them, the others
being the alternative. The engines here count a guess at each branch point of their
search too (:attr:`~numbadlx.sudoku.SudokuResult.guesses`): "bands" (the 9x9 engine
"auto" picks) propagates singles and a per-digit permutation rule on bands and stacks,
close to tdoku's triads, and branches on a cell, two-candidate cells first; "bits"
propagates singles and locked candidates. The numbers are of the same kind, counted by
other searches: equal for every puzzle that needs no guess, close on average, not equal
puzzle by puzzle (see the datasets guide for a comparison on public sets).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import engines
from .bulk import SudokuResult, solve

__all__ = ["backtracks"]


def backtracks(
    puzzles: ArrayLike | str | os.PathLike | Any,
    *,
    limit: int = 1,
    engine: str = "auto",
    box: tuple[int, int] | None = None,
    threads: int | None = None,
    max_nodes: int | None = None,
    column: Any = None,
    errors: str = "status",
    return_result: bool = False,
) -> NDArray[np.int64] | tuple[NDArray[np.int64], SudokuResult]:
    """The backtrack rating of every puzzle: the guesses (branch points) the engine's
    search makes on it, as published datasets rate puzzles by tdoku's guess count.

    Parameters
    ----------
    puzzles : array_like or str or path or frame
        Anything :func:`~numbadlx.sudoku.solve` takes.
    limit : int, default 1
        1 counts the guesses to the first solution (the effort to solve); 2 also those
        of proving it unique, as tdoku's benchmark counts by default.
    engine : str, default "auto"
        The engine whose search is counted (see :func:`~numbadlx.sudoku.solve`):
        "auto" is "bands" on 9x9 puzzles, whose propagation is closest to tdoku's.
    box, threads, max_nodes, column, errors
        As in :func:`~numbadlx.sudoku.solve`.
    return_result : bool, default False
        Also return the :class:`~numbadlx.sudoku.SudokuResult` (statuses, messages).

    Returns
    -------
    numpy.ndarray of int64
        One rating per puzzle, in input order: 0 where propagation alone solves it;
        -1 where there is nothing to rate (INVALID, NO_SOLUTION, or BUDGET when
        ``max_nodes`` ran out). With ``return_result``, ``(ratings, result)``.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> sudoku.backtracks(["1..." "..1." ".3.." "...4", "1100" + "0" * 12]).tolist()
    [0, -1]
    >>> sudoku.backtracks(["0" * 16], limit=2).tolist()   # the empty 4x4
    [7]
    """
    result = solve(
        puzzles,
        limit=limit,
        engine=engine,
        box=box,
        threads=threads,
        max_nodes=max_nodes,
        column=column,
        errors=errors,
    )
    unrated = np.isin(result.status, (engines.INVALID, engines.NO_SOLUTION, engines.BUDGET))
    ratings = np.where(unrated, -1, result.guesses).astype(np.int64)
    return (ratings, result) if return_result else ratings
