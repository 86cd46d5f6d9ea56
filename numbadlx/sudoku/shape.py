"""Sudoku shapes: grid sizes, box shapes and the one-character cell alphabet.

A puzzle of size ``n`` is an ``n x n`` grid split into boxes of ``r`` rows and ``c``
columns, ``n == r * c``, ``4 <= n <= 36``. Cells hold 0 (blank) or ``1..n``. Which
cells form a row, a column or a box is :mod:`~numbadlx.sudoku.geometry`'s to say.
A grid whose :class:`~numbadlx.sudoku.Rules` have no boxes (``latin=True``, jigsaw
``regions=``) may have any size from 2 to 36, primes too: readers take
:data:`NO_BOXES` as its ``box``.
"""

from __future__ import annotations

import math
import operator

__all__ = [
    "MIN_SIZE",
    "MAX_SIZE",
    "MIN_BOXLESS_SIZE",
    "NO_BOXES",
    "DIGITS",
    "box_note",
    "box_shape",
    "check_shape",
    "check_size",
]

#: Smallest and largest supported grid size ``n`` (with boxes).
MIN_SIZE = 4
MAX_SIZE = 36
#: Smallest size of a grid without boxes (a Latin square or a jigsaw), whose units
#: come from its :class:`~numbadlx.sudoku.Rules` (``latin=True`` or ``regions=``).
MIN_BOXLESS_SIZE = 2


class _NoBoxes:
    """The type of :data:`NO_BOXES`."""

    def __repr__(self):
        return "NO_BOXES"

    def __reduce__(self):
        return "NO_BOXES"


#: The ``box`` a reader takes for grids whose units come from rules without boxes
#: (``Rules(latin=True)`` or jigsaw regions): any size from :data:`MIN_BOXLESS_SIZE`
#: to :data:`MAX_SIZE` is read, prime sizes too.
NO_BOXES = _NoBoxes()

#: The text alphabet: the character of cell value ``v`` is ``DIGITS[v]`` (base 36, so
#: 10 is ``A``); a blank (0) is usually written ``0`` or ``.``.
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def box_shape(n: int, box: tuple[int, int] | None = None) -> tuple[int, int]:
    """Return the box shape ``(r, c)`` of an ``n x n`` Sudoku.

    Parameters
    ----------
    n : int
        Grid size, from 4 to 36.
    box : tuple of int, optional
        Explicit ``(rows, columns)`` of one box.  It must satisfy
        ``rows * columns == n`` with both at least 2.  If omitted, ``r`` is
        the largest divisor of ``n`` not above ``sqrt(n)`` and ``c = n // r``.

    Returns
    -------
    tuple of int
        ``(r, c)``: rows and columns of one box.

    Raises
    ------
    ValueError
        If ``n`` is out of range, has no box shape with both sides at least
        2 (``n`` prime), or ``box`` does not fit ``n``.

    Examples
    --------
    >>> box_shape(9)
    (3, 3)
    >>> box_shape(12)
    (3, 4)
    >>> box_shape(6, (3, 2))
    (3, 2)
    """
    if box is not None:
        # the box first: a bad one (0x9) is named as such, not as a puzzle size
        try:
            r, c = (operator.index(v) for v in box)
        except (TypeError, ValueError):
            raise ValueError(
                f"box must be a pair of integers (rows, columns), got {box!r}"
            ) from None
        if r < 2 or c < 2:
            raise ValueError(
                f"box {r}x{c} is not supported: a box needs at least 2 rows and 2 columns"
            )
    n = check_size(n)
    if box is None:
        r = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
        if r == 1:
            raise ValueError(
                f"unsupported puzzle size {n}x{n}: {n} is prime, so there is no "
                "box shape with at least 2 rows and 2 columns (for a grid without "
                "boxes pass rules=Rules(latin=True) or jigsaw regions, Rules(regions=...))"
            )
        return r, n // r
    if r * c != n:
        raise ValueError(f"box {r}x{c} does not fit a {n}x{n} puzzle (rows * columns must be {n})")
    return r, c


def check_shape(n: int, box=None) -> tuple[int, int] | None:
    """Check a grid size for a reader: :func:`box_shape` of ``n`` and ``box``, or, for
    ``box`` :data:`NO_BOXES`, only the size (from :data:`MIN_BOXLESS_SIZE` to
    :data:`MAX_SIZE`, prime sizes too), returning None.

    Examples
    --------
    >>> check_shape(9), check_shape(7, NO_BOXES)
    ((3, 3), None)
    """
    if box is not NO_BOXES:
        return box_shape(n, box)
    check_size(n, MIN_BOXLESS_SIZE)
    return None


def check_size(n, low: int = MIN_SIZE) -> int:
    """``n`` as an int if it is a grid size from ``low`` to :data:`MAX_SIZE`; else
    ValueError, the one message for a bad size (with boxes, ``low`` is :data:`MIN_SIZE`
    and the message names the smaller sizes that grids without boxes take).

    Examples
    --------
    >>> check_size(9), check_size(3, MIN_BOXLESS_SIZE)
    (9, 3)
    >>> check_size(37)
    Traceback (most recent call last):
    ...
    ValueError: unsupported puzzle size 37x37: n must be from 4 to 36 (from 2 without ...
    """
    try:
        n = operator.index(n)
    except TypeError:
        raise ValueError(f"puzzle size must be an integer, got {n!r}") from None
    if not low <= n <= MAX_SIZE:
        hint = (
            ""
            if low <= MIN_BOXLESS_SIZE
            else (f" (from {MIN_BOXLESS_SIZE} without boxes: latin or regions)")
        )
        raise ValueError(
            f"unsupported puzzle size {n}x{n}: n must be from {low} to {MAX_SIZE}{hint}"
        )
    return n


def box_note(n, box) -> str:
    """`` with boxes of R rows by C columns`` where the grid size leaves a choice (a
    10x10 grid: 2x5 or 5x2); nothing for a square box or none.

    Examples
    --------
    >>> box_note(10, (2, 5)), box_note(9, (3, 3)), box_note(8, None)
    (' with boxes of 2 rows by 5 columns', '', '')
    """
    if box is None or len(box) != 2 or box[0] == box[1] or not all(box):
        return ""
    return f" with boxes of {box[0]} rows by {box[1]} columns"
