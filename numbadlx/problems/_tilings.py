"""Tilings of rectangles by copies of polyominoes: trominoes and tetrominoes.

These are the problems where memoised counting (``count(method="memo")``) pays: every
branch that has filled the same cells has the same completions.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..core import ExactCover
from ..core.validate import check_count
from ._placement import orientations

__all__ = ["TROMINOES", "TETROMINOES", "polyomino_tilings", "tromino_tilings", "tetromino_tilings"]

#: The two free trominoes as (row, column) cells.
TROMINOES = {
    "I": ((0, 0), (0, 1), (0, 2)),
    "L": ((0, 0), (1, 0), (1, 1)),
}

#: The five free tetrominoes as (row, column) cells.
TETROMINOES = {
    "I": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "O": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "S": ((0, 1), (0, 2), (1, 0), (1, 1)),
    "L": ((0, 0), (1, 0), (2, 0), (2, 1)),
}


def _check_board(rows, cols):
    return check_count(rows, "rows"), check_count(cols, "cols")


def polyomino_tilings(
    rows: int,
    cols: int,
    pieces: dict[str, Iterable[tuple[int, int]]],
    copies: int | tuple[int, int] | None = None,
):
    """Tile a ``rows x cols`` rectangle with any number of copies of the given pieces,
    each in every rotation and reflection.

    Items: the squares ``r{r}c{c}`` (all primary). Option names are the piece's name
    and its squares, e.g. ``'L r0c0 r1c0 r1c1'``. With ``copies`` (``k``, or a range
    ``(u, v)``), each piece is also a primary item, named as the piece and put first in
    its options, with multiplicity ``k`` (or ``u..v``): a problem for Algorithm M. The
    pieces' items then come first, as in :func:`~numbadlx.problems.pentominoes`.

    Examples
    --------
    >>> polyomino_tilings(2, 2, {"domino": [(0, 0), (0, 1)]}).count()
    2
    >>> polyomino_tilings(5, 8, TETROMINOES, copies=2).count()  # two of each
    3106
    """
    rows, cols = _check_board(rows, cols)
    if not pieces:
        raise ValueError("pieces must name at least one polyomino")
    shift = 0 if copies is None else len(pieces)  # the squares' first item
    options, option_names = [], []
    for k, (name, cells) in enumerate(pieces.items()):
        for shape in orientations(list(cells)):
            height, width = shape.max(axis=0) + 1
            for top in range(rows - height + 1):
                for left in range(cols - width + 1):
                    squares = np.sort((shape[:, 0] + top) * cols + shape[:, 1] + left)
                    options.append(([k] if shift else []) + (squares + shift).tolist())
                    option_names.append(
                        f"{name} " + " ".join(f"r{s // cols}c{s % cols}" for s in squares)
                    )
    item_names = [str(name) for name in pieces] if shift else []
    item_names += [f"r{r}c{c}" for r in range(rows) for c in range(cols)]
    bounds = None
    if copies is not None:
        pair = (copies, copies) if isinstance(copies, (int, np.integer)) else copies
        bounds = {k: pair for k in range(len(pieces))}
    try:
        problem = ExactCover.from_options(
            options,
            n_items=len(item_names),
            item_names=item_names,
            option_names=option_names,
            bounds=bounds,
        )
    except ValueError as error:  # a bad multiplicity: say which argument
        raise ValueError(f"copies={copies!r}: {error}") from None
    problem.board_shape = (rows, cols)
    return problem


def _pick(catalogue, kinds, what):
    if isinstance(kinds, str):
        kinds = list(kinds)
    unknown = [k for k in kinds if k not in catalogue]
    if unknown or not kinds:
        raise ValueError(f"{what} kinds must be among {''.join(catalogue)}, got {kinds!r}")
    return {k: catalogue[k] for k in kinds}


def tromino_tilings(rows: int, cols: int, kinds: str = "IL") -> ExactCover:
    """Tile a ``rows x cols`` strip with trominoes: ``kinds`` among ``'I'`` (straight)
    and ``'L'``, any number of each, every orientation.

    Straight trominoes alone tile a 3 x n strip in A000930(n) ways (OEIS A000930:
    1, 1, 1, 2, 3, 4, 6, 9, 13, 19, 28, ...).

    Examples
    --------
    >>> tromino_tilings(3, 10, "I").count()
    28
    >>> tromino_tilings(2, 6, "L").count()
    4
    """
    return polyomino_tilings(rows, cols, _pick(TROMINOES, kinds, "tromino"))


def tetromino_tilings(rows: int, cols: int, kinds: str = "IOTSL") -> ExactCover:
    """Tile a ``rows x cols`` strip with tetrominoes: ``kinds`` among ``'I'``,
    ``'O'``, ``'T'``, ``'S'`` and ``'L'``, any number of each, every orientation.

    Straight tetrominoes alone tile a 4 x n strip in A003269(n + 1) ways (OEIS
    A003269: 0, 1, 1, 1, 1, 2, 3, 4, 5, 7, 10, 14, ...).

    Examples
    --------
    >>> tetromino_tilings(4, 10, "I").count()
    14
    """
    return polyomino_tilings(rows, cols, _pick(TETROMINOES, kinds, "tetromino"))
