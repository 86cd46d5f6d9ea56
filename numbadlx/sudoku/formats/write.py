"""Writing puzzles as lines and grids."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..shape import DIGITS as _DIGITS
from ..shape import NO_BOXES, box_shape
from ._arrays import _array_matrix, _check_values

__all__ = ["format_grid", "format_grid_rows", "format_line", "format_lines"]

_OUT_CHARS = np.frombuffer(_DIGITS.encode("ascii"), dtype=np.uint8)


def _output_matrix(puzzles, n: int | None = None, prefer_batch: bool = True):
    # every size from 2 up is written (grids without boxes, latin squares, too)
    arr = np.asarray(puzzles)
    matrix, n = _array_matrix(arr, n, "<array>", prefer_batch, boxless=True)
    values, _, errors = _check_values(matrix, n, "<array>", 0)
    if errors:
        raise ValueError(errors[0][1])
    return values, n


def _check_blank(blank: str) -> str:
    if blank not in ("0", "."):
        raise ValueError(f"blank must be '0' or '.', got {blank!r}")
    return blank


def format_lines(puzzles: ArrayLike, *, blank: str = "0") -> list[str]:
    """Write puzzles as one-line strings.

    Parameters
    ----------
    puzzles : array_like
        ``(N, n*n)``, ``(n*n,)``, ``(n, n)`` or ``(N, n, n)`` values ``0..n``.
    blank : {'0', '.'}, default '0'
        Character for blank cells.

    Returns
    -------
    list of str
        One base-36 character per cell for ``n <= 35``; for ``n == 36``
        the values as integers separated by single spaces.

    Examples
    --------
    >>> import numpy as np
    >>> format_lines(np.array([[1, 0, 3, 4] + [0] * 12]))
    ['1034000000000000']
    >>> format_lines(np.arange(16).reshape(1, 16) % 5, blank='.')
    ['.1234.1234.1234.']
    """
    blank = _check_blank(blank)
    values, n = _output_matrix(puzzles)
    count, size = values.shape
    if n > 35:
        words = np.array([blank] + [str(v) for v in range(1, n + 1)], dtype=object)
        return [" ".join(words[row]) for row in values]
    table = _OUT_CHARS.copy()
    table[0] = ord(blank)
    buf = np.empty((count, size + 1), dtype=np.uint8)
    buf[:, :size] = table[values]
    buf[:, size] = ord("\n")
    return buf.tobytes().decode("ascii").split("\n")[:-1]


def format_line(grid: ArrayLike, n: int | None = None, *, blank: str = "0") -> str:
    """Write one puzzle as a one-line string.

    Parameters
    ----------
    grid : array_like
        One puzzle, shape ``(n*n,)``, ``(n, n)`` or ``(1, n*n)``.
    n : int, optional
        Puzzle size, to check the shape (or to read ``(n*n,)`` vs
        ``(n, n)`` unambiguously).
    blank : {'0', '.'}, default '0'
        Character for blank cells.

    Returns
    -------
    str

    Examples
    --------
    >>> format_line([[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0, 4]], blank='.')
    '1....2....3....4'
    """
    values, n = _output_matrix(grid, n, prefer_batch=False)
    if values.shape[0] != 1:
        raise ValueError(f"format_line takes one puzzle, got {values.shape[0]}; use format_lines")
    return format_lines(values, blank=blank)[0]


def format_grid(grid: ArrayLike, box: tuple[int, int] | None = None, *, blank: str = ".") -> str:
    """Write one puzzle as a readable grid with box separators.

    Parameters
    ----------
    grid : array_like
        One puzzle, shape ``(n*n,)``, ``(n, n)`` or ``(1, n*n)``.  Several
        puzzles ``(N, n*n)`` give their grids separated by blank lines.
    box : tuple of int, optional
        Box shape ``(rows, columns)``; the default comes from
        :func:`box_shape`. :data:`~numbadlx.sudoku.shape.NO_BOXES` writes a grid
        without boxes (a Latin square, a jigsaw; any size from 2, primes too)
        with no separators.
    blank : {'.', '0'}, default '.'
        Character for blank cells.

    Returns
    -------
    str
        Rows of cells separated by spaces, ``|`` between boxes and a
        ``-+-`` line between bands of boxes; no trailing newline.  The text
        can be read back with :func:`parse` (with ``rules`` for a grid without
        boxes).

    Examples
    --------
    >>> print(format_grid([1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4]))
    1 . | . .
    . 2 | . .
    ----+----
    . . | 3 .
    . . | . 4
    >>> from numbadlx.sudoku.shape import NO_BOXES
    >>> print(format_grid([1, 2, 3, 2, 3, 1, 3, 1, 2], NO_BOXES))
    1 2 3
    2 3 1
    3 1 2
    """
    blank = _check_blank(blank)
    if box is NO_BOXES:
        values, n = _output_matrix(grid, prefer_batch=False)
        r = c = n
    elif box is not None:
        r, c = box_shape(int(box[0]) * int(box[1]), box)
        values, n = _output_matrix(grid, r * c, prefer_batch=False)
    else:
        values, n = _output_matrix(grid, prefer_batch=False)
        r, c = box_shape(n)
    if n > 35:
        words = [blank.rjust(2)] + [str(v).rjust(2) for v in range(1, n + 1)]
    else:
        words = [blank] + list(_DIGITS[1 : n + 1])
    grids = []
    for puzzle in values:
        cells = [[words[v] for v in row] for row in puzzle.reshape(n, n).tolist()]
        lines = []
        separator = None
        for i, row in enumerate(cells):
            groups = [" ".join(row[j : j + c]) for j in range(0, n, c)]
            if separator is None:
                separator = "-+-".join("-" * len(g) for g in groups)
            if i and i % r == 0:
                lines.append(separator)
            lines.append(" | ".join(groups))
        grids.append("\n".join(lines))
    return "\n\n".join(grids)


def format_grid_rows(puzzles: ArrayLike) -> list[str]:
    """Write puzzles in the plain grid shape of contest files: ``n`` lines of ``n``
    values separated by single spaces, ``0`` for a blank.

    Parameters
    ----------
    puzzles : array_like
        ``(N, n*n)``, ``(n*n,)`` or ``(N, n, n)`` values ``0..n`` (a 2-D array is
        read as in :func:`format_lines`).

    Returns
    -------
    list of str
        One string per puzzle, its ``n`` rows joined by ``\\n`` (no final newline).
        Values above 9 are written as decimal numbers (``10``, ``11``, ...), so every
        size reads back with :func:`parse` (``format="grid"``). A contest file is
        ``"\\n\\n".join(...)``, or each block followed by a blank line.

    Examples
    --------
    >>> print(format_grid_rows([[1, 0, 3, 4] + [0] * 12])[0])
    1 0 3 4
    0 0 0 0
    0 0 0 0
    0 0 0 0
    """
    values, n = _output_matrix(puzzles)
    count, size = values.shape
    if n <= 9:  # one character a value: build all the text at once
        buf = np.full((count, size, 2), ord(" "), dtype=np.uint8)
        buf[:, :, 0] = _OUT_CHARS[values]
        buf[:, n - 1 :: n, 1] = ord("\n")
        text = buf.reshape(count, 2 * size)[:, :-1].tobytes().decode("ascii")
        step = 2 * size - 1
        return [text[i * step : (i + 1) * step] for i in range(count)]
    words = np.array([str(v) for v in range(n + 1)], dtype=object)
    blocks = []
    for puzzle in values:
        cells = words[puzzle.reshape(n, n)]
        blocks.append("\n".join(" ".join(row) for row in cells))
    return blocks
