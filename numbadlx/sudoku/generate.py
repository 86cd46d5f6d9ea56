"""Random Sudoku grids and puzzles with a unique solution (for samples and tests).

A full grid comes from the standard pattern ``(c * (row % r) + row // r + col) % n``
shuffled by symmetry-preserving moves (relabel digits, permute rows inside a band,
bands, columns inside a stack, stacks). A puzzle is made by removing givens in random
order, keeping each removal only while the solution stays unique.

Examples
--------
>>> from numbadlx.sudoku import random_grid, random_puzzles
>>> grid = random_grid(9, seed=1)
>>> sorted(grid[:9].tolist()) == list(range(1, 10))
True
>>> puzzles = random_puzzles(2, n=4, seed=0)
>>> puzzles.shape
(2, 16)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from . import kernel as _kernel
from .shape import box_shape

__all__ = ["random_grid", "random_puzzles"]


def random_grid(
    n: int = 9, box: tuple[int, int] | None = None, seed: int | None = None
) -> NDArray[np.uint8]:
    """A uniformly shuffled valid n x n grid as an (n*n,) uint8 array (not uniform over
    all grids: the pattern's symmetry class only)."""
    rows, cols = box_shape(n, box)
    rng = np.random.default_rng(seed)
    r, c = np.divmod(np.arange(n * n), n)
    pattern = (cols * (r % rows) + r // rows + c) % n
    grid = pattern.reshape(n, n)
    # rows inside each band (a band is `rows` rows), then the bands
    bands = np.arange(n // rows)
    rng.shuffle(bands)
    row_order = np.concatenate([b * rows + rng.permutation(rows) for b in bands])
    stacks = np.arange(n // cols)
    rng.shuffle(stacks)
    col_order = np.concatenate([s * cols + rng.permutation(cols) for s in stacks])
    grid = grid[row_order][:, col_order]
    digits = rng.permutation(n) + 1
    return digits[grid].astype(np.uint8).ravel()


def random_puzzles(
    count: int,
    n: int = 9,
    box: tuple[int, int] | None = None,
    seed: int | None = None,
    keep: int = 0,
) -> NDArray[np.uint8]:
    """``count`` puzzles with a unique solution, made by removing givens from random
    grids until no further given can go (or only ``keep`` are left).

    Returns an (count, n*n) uint8 array.
    """
    rows, cols = box_shape(n, box)
    rng = np.random.default_rng(seed)
    nodes, size, choice, used = _kernel.allocate_work(n)
    solution = np.zeros(n * n, dtype=np.uint8)
    out = np.zeros((count, n * n), dtype=np.uint8)
    for k in range(count):
        puzzle = random_grid(n, (rows, cols), seed=rng.integers(2**63))
        filled = n * n
        for cell in rng.permutation(n * n):
            if filled <= keep:
                break
            digit = puzzle[cell]
            puzzle[cell] = 0
            status, _, _ = _kernel.solve_one(
                puzzle, n, rows, cols, 2, 0, nodes, size, choice, used, solution
            )
            if status != _kernel.UNIQUE:
                puzzle[cell] = digit
            else:
                filled -= 1
        out[k] = puzzle
    return out
