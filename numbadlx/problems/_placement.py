"""Placement puzzles: N queens, Langford pairs, pentomino tilings (Algorithm X)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ..core import ExactCover
from ..core.validate import check_count

__all__ = ["n_queens", "langford", "pentominoes", "PENTOMINOES", "orientations"]


def n_queens(n: int) -> ExactCover:
    """N queens on an n x n board, none attacking another.

    Items: ranks ``r0..`` and files ``c0..`` (primary: one queen each), then the
    diagonals ``a0..`` (``r + c``) and anti-diagonals ``b0..`` (``r - c + n - 1``),
    secondary (at most one queen each). Option ``r * n + c`` puts a queen on ``(r, c)``.

    Examples
    --------
    >>> n_queens(8).count()
    92
    """
    n = check_count(n, "n")
    rows, cols = np.divmod(np.arange(n * n), n)
    options = np.stack(
        [rows, n + cols, 2 * n + rows + cols, 2 * n + (2 * n - 1) + rows - cols + n - 1], axis=1
    )
    names = (
        [f"r{k}" for k in range(n)]
        + [f"c{k}" for k in range(n)]
        + [f"a{k}" for k in range(2 * n - 1)]
        + [f"b{k}" for k in range(2 * n - 1)]
    )
    option_names = [f"r{r} c{c}" for r, c in zip(rows, cols)]
    indptr = np.arange(0, 4 * n * n + 1, 4)
    return ExactCover.from_csr(
        indptr,
        options.ravel(),
        n_items=len(names),
        secondary=2 * (2 * n - 1),
        item_names=names,
        option_names=option_names,
    )


def langford(n: int) -> ExactCover:
    """Langford pairings: place two copies of each of 1..n in 2n slots so that the two
    copies of k have exactly k other numbers between them.

    Items: the numbers ``1..n`` then slots ``s1..s2n``. The option for ``(k, i)`` puts
    the copies of k in slots ``i`` and ``i + k + 1``. A solution and its reversal are
    both counted.

    Examples
    --------
    >>> langford(3).count()
    2
    """
    n = check_count(n, "n")
    options, option_names = [], []
    for k in range(1, n + 1):
        for i in range(1, 2 * n - k):
            options.append([k - 1, n + i - 1, n + i + k])
            option_names.append(f"{k} s{i} s{i + k + 1}")
    names = [str(k) for k in range(1, n + 1)] + [f"s{i}" for i in range(1, 2 * n + 1)]
    return ExactCover.from_options(
        options, n_items=3 * n, item_names=names, option_names=option_names
    )


#: The 12 pentominoes as (row, column) cells, one fixed orientation each.
PENTOMINOES = {
    "F": ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1)),
    "I": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "N": ((0, 1), (1, 1), (2, 0), (2, 1), (3, 0)),
    "P": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "V": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "Y": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)),
    "Z": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
}


def orientations(cells: Sequence[tuple[int, int]]) -> list[NDArray[np.int64]]:
    """All distinct rotations and reflections of a polyomino, each normalised to
    start at row 0 and column 0 and sorted.

    Examples
    --------
    >>> len(orientations(PENTOMINOES["F"])), len(orientations(PENTOMINOES["X"]))
    (8, 1)
    """
    base = np.asarray(cells, dtype=np.int64)
    seen = []
    for flip in (False, True):
        shape = base * np.array([1, -1]) if flip else base
        for _ in range(4):
            shape = np.stack([shape[:, 1], -shape[:, 0]], axis=1)  # quarter turn
            norm = shape - shape.min(axis=0)
            key = tuple(sorted(map(tuple, norm.tolist())))
            if key not in seen:
                seen.append(key)
    return [np.array(key, dtype=np.int64) for key in seen]


def pentominoes(rows: int = 6, cols: int = 10) -> ExactCover:
    """Pack the 12 pentominoes into a ``rows x cols`` rectangle (area 60).

    Items: the piece names ``F, I, ..., Z`` then the cells ``r{row}c{col}``. Every
    placement of every orientation is an option; solutions related by the rectangle's
    symmetries are all counted (6 x 10 has 9356 = 4 x 2339).

    Examples
    --------
    >>> problem = pentominoes(3, 20)
    >>> problem.count()
    8
    """
    rows, cols = check_count(rows, "rows"), check_count(cols, "cols")
    if rows * cols != 60:
        raise ValueError(
            f"a {rows} x {cols} board has {rows * cols} cells; the 12 pentominoes need exactly 60"
        )
    names = list(PENTOMINOES)
    options, option_names = [], []
    for piece_index, name in enumerate(names):
        for shape in orientations(PENTOMINOES[name]):
            height, width = shape.max(axis=0) + 1
            for top in range(rows - height + 1):
                for left in range(cols - width + 1):
                    cells = (shape[:, 0] + top) * cols + shape[:, 1] + left
                    options.append([piece_index] + (12 + cells).tolist())
                    option_names.append(
                        name + " " + " ".join(f"r{c // cols}c{c % cols}" for c in cells)
                    )
    item_names = names + [f"r{r}c{c}" for r in range(rows) for c in range(cols)]
    problem = ExactCover.from_options(
        options, n_items=12 + rows * cols, item_names=item_names, option_names=option_names
    )
    problem.board_shape = (rows, cols)
    return problem


# --------------------------------------------------------------------------------------
# Colours (Algorithm C): word squares and crossword fills
# --------------------------------------------------------------------------------------

#: A small built-in list of common three-letter English words (lower case).
