"""Random isomorphs of puzzles, for augmenting data sets.

An isomorph has the same structure, and so the same number of solutions and the same
difficulty: the digits are relabelled, the bands (rows of boxes) and the rows inside
each band are permuted, so are the stacks (columns of boxes) and the columns inside
each stack, and, when the boxes are square, the grid is transposed half the time.

Examples
--------
>>> from numbadlx import sudoku
>>> puzzles = sudoku.generate(3, 4, seed=1)
>>> images = sudoku.transform(puzzles, seed=2)
>>> (sudoku.solve(images).status == sudoku.Status.UNIQUE).all()
np.True_
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..._compiling import first_use
from ..formats import parse
from ..parallel import parallel_threads
from ..shape import box_shape
from ._loops import transform_bulk
from ._rate import _check_seed

__all__ = ["transform"]


def transform(
    puzzles: ArrayLike | str | os.PathLike | Any,
    *,
    seed: int | None = None,
    box: tuple[int, int] | None = None,
    threads: int | None = None,
) -> NDArray[np.uint8]:
    """One random isomorph of every puzzle, as an (N, n*n) uint8 array.

    Parameters
    ----------
    puzzles : array_like or str or path
        An (N, n*n) array or anything :func:`numbadlx.sudoku.parse` reads; values must
        be 0..n (full grids work too).
    seed : int, optional
        Puzzle ``k`` gets the isomorph drawn from ``(seed, k)``, the same for any
        number of threads; None draws a fresh seed.
    box : (rows, cols), optional
        Box shape when n is not a square.
    threads : int, optional
        Threads for the parallel loop.

    Returns
    -------
    ndarray of uint8, shape (N, n*n)

    Examples
    --------
    >>> from numbadlx.sudoku import random_grids, format_line, check_grid
    >>> grid = random_grids(1, 4, seed=1)
    >>> image = transform(grid, seed=0)
    >>> format_line(grid[0]), format_line(image[0]), check_grid(image[0])
    ('1324243131424213', '3142243142131324', None)
    """
    seed = _check_seed(np.random.default_rng().integers(2**63) if seed is None else seed)
    grid = np.ascontiguousarray(parse(puzzles, box=box), dtype=np.uint8)
    n = int(round(grid.shape[1] ** 0.5))
    rows, cols = box_shape(n, box)
    out = np.empty_like(grid)
    with parallel_threads(threads) as threads, first_use("the isomorph maker"):
        transform_bulk(grid, n, rows, cols, seed, 0, out, 256)
    return out
