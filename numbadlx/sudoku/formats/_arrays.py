"""Puzzles given as arrays: shape to ``(N, n*n)`` and value checks (shared by
``.npy`` input, :func:`~numbadlx.sudoku.formats.parse` of arrays and the writers)."""

from __future__ import annotations

import numpy as np

from ..shape import box_shape
from ._cells import _BOXLESS_ROW_COUNTS, _BOXLESS_SQUARES, _ROW_COUNTS, _SQUARES


def _has_box(n: int) -> bool:
    try:
        box_shape(n)
    except ValueError:
        return False
    return True


def _array_matrix(
    arr: np.ndarray, n: int | None, name: str, prefer_batch: bool, boxless: bool = False
):
    """Reshape an array source to ``(N, n*n)``; return it and ``n``; ``boxless``: the
    grids have no boxes (their rules give the units), so sizes from 2 up are read.

    A 2-D ``(k, k)`` array is ambiguous when ``k`` is 16 or 36 (``k`` puzzles
    of size 4 or 6, or one ``k x k`` grid) and ``n`` is not given:
    ``prefer_batch`` chooses the first reading.  A ``(25, 25)`` array is one grid
    (there are no ``5x5`` puzzles: 5 has no box shape).
    """
    squares = _BOXLESS_SQUARES if boxless else _SQUARES
    row_counts = _BOXLESS_ROW_COUNTS if boxless else _ROW_COUNTS
    low = min(row_counts)
    kind = arr.dtype.kind
    if kind not in "iuf":
        raise ValueError(
            f"{name}: array of dtype {arr.dtype} cannot hold puzzles "
            "(use integers, or floats with whole values)"
        )
    shape = arr.shape

    def bad_shape(why: str):
        return ValueError(f"{name}: array of shape {shape} {why}")

    if arr.ndim == 1:
        size = shape[0]
        k = squares.get(size)
        if k is None or (n is not None and k != n):
            raise bad_shape(
                "is not one puzzle: its length must be n*n"
                + (f" = {n * n}" if n is not None else f" for n from {low} to 36")
            )
        return arr.reshape(1, size), k
    if arr.ndim == 2:
        rows, cols = shape
        if n is not None:
            if cols == n * n:
                return arr, n
            if rows == cols == n:
                return arr.reshape(1, n * n), n
            raise bad_shape(f"does not hold {n}x{n} puzzles: expected (N, {n * n}) or ({n}, {n})")
        small = squares.get(cols)
        if small is not None and (rows != cols or (prefer_batch and _has_box(small))):
            return arr, small
        if rows == cols and cols in row_counts:
            return arr.reshape(1, rows * cols), rows
        raise bad_shape(f"is neither (N, n*n) nor (n, n) for a size n from {low} to 36")
    if arr.ndim == 3:
        count, rows, cols = shape
        if rows == cols and cols in row_counts and (n is None or n == cols):
            return arr.reshape(count, rows * cols), cols
        raise bad_shape("is not (N, n, n)" + (f" with n = {n}" if n is not None else ""))
    raise bad_shape("has the wrong number of dimensions (expected 1, 2 or 3)")


def _check_values(block: np.ndarray, n: int, name: str, base: int):
    """Validate a ``(k, n*n)`` block; return ``(uint8, bad, errors)``."""
    kind = block.dtype.kind
    non_negative = kind == "u" or (kind == "i" and (block.size == 0 or block.min() >= 0))
    if kind in "iu" and (block.size == 0 or (non_negative and block.max() <= n)):
        return block.astype(np.uint8, copy=False), np.zeros(block.shape[0], dtype=bool), []
    if block.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            wrong = ~np.isfinite(block) | (block != np.trunc(block)) | (block < 0) | (block > n)
    else:
        wrong = (block < 0) | (block > n)
    row_bad = wrong.any(axis=1)
    errors = []
    if row_bad.any():
        for i in np.flatnonzero(row_bad):
            j = int(np.argmax(wrong[i]))
            value = block[i, j]
            r, c = divmod(j, n)
            if block.dtype.kind == "f" and np.isnan(value):
                what = "NaN is not a cell value"
            elif block.dtype.kind == "f" and not np.isfinite(value):
                what = f"{value} is not a cell value"
            elif block.dtype.kind == "f" and value != np.trunc(value):
                what = f"value {value} is not a whole number"
            else:
                shown = int(value) if block.dtype.kind != "f" else value
                what = f"value {shown} is out of range 0..{n}"
            errors.append((int(i), f"{name}[{base + int(i)}]: row {r + 1}, column {c + 1}: {what}"))
        block = np.where(row_bad[:, None], 0, block)
    return block.astype(np.uint8), row_bad, errors
