"""Format detection from the file name, the ``.npy`` magic number and the first
data line (see "Format auto-detection" in :mod:`numbadlx.sudoku.formats`)."""

from __future__ import annotations

import csv
import math
import os

from ._cells import _LOOKUP, _ROW_COUNTS, _SQUARES, _split_cells
from ._csv import PUZZLE_COLUMNS, _pick_column
from ._grid import _SEPARATOR_LINE_RE
from ._npy import _NPY_MAGIC
from ._reader import _BOM, _strip_comment

__all__ = ["FORMATS", "file_format"]

FORMATS = ("lines", "grid", "csv", "npy")
_ANY_COUNT = frozenset(_SQUARES) | _ROW_COUNTS


def _check_format(format: str | None) -> str | None:
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)} or None")
    return format


def _detect_format(head: bytes, n: int | None) -> str:
    """Guess the text format from the first data line (see the package docs)."""
    if head.startswith(_BOM):
        head = head[len(_BOM) :]
    decoded = (_strip_comment(raw).decode("utf-8", "replace") for raw in head.split(b"\n"))
    data_lines = [line for line in decoded if line.strip()]
    for text in data_lines[:1]:
        if "," in text:
            try:
                names = [cell.strip().lower() for cell in next(csv.reader([text]))]
            except csv.Error:  # e.g. a lone CR inside the line: not a CSV header
                names = []
            if _pick_column(names, PUZZLE_COLUMNS) is not None:
                return "csv"
        if "|" in text or "+" in text or _SEPARATOR_LINE_RE.fullmatch(text):
            return "grid"
        kind, cells, _, _ = _split_cells(text, None, _ANY_COUNT, grid=False)
        count = len(cells)
        if n is not None:
            return "grid" if count == n else "lines"
        if count in _SQUARES:
            if count in (16, 36):
                # values possible only as a row of a count x count grid
                if kind == "chars":
                    values = [int(_LOOKUP[ord(ch)]) for ch in cells if ord(ch) < 128]
                else:
                    values = [int(t) for t in cells if t != "." and len(t) < 4]
                if len(data_lines) >= count and any(math.isqrt(count) < v <= count for v in values):
                    return "grid"
            return "lines"
        if count in _ROW_COUNTS:
            return "grid"
        return "lines"
    return "lines"


def _path_format(path: str, fmt: str | None) -> str | None:
    if fmt is not None:
        return fmt
    lower = path.lower()
    if lower.endswith(".npy"):
        return "npy"
    if lower.endswith(".csv"):
        return "csv"
    return None


def file_format(path, format: str | None = None, n: int | None = None) -> str:
    """The format of the puzzle file at ``path``: ``format`` when given, else from the
    file name's extension, the ``.npy`` magic number, or the first data line (see
    "Format auto-detection" in :mod:`numbadlx.sudoku.formats`).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "puzzles.txt")
    ...     with open(path, "w") as f:
    ...         _ = f.write("0" * 81)
    ...     file_format(path)
    'lines'
    """
    format = _check_format(_path_format(os.fspath(path), format))
    if format is not None:
        return format
    with open(path, "rb") as f:
        return _sniff_format(f, n)


def _sniff_format(f, n: int | None) -> str:
    """The format of an open binary file from its first bytes: the ``.npy`` magic
    number, else the first data line (the file position is left after the bytes read)."""
    f.seek(0)
    head = f.read(1 << 18)
    return "npy" if head.startswith(_NPY_MAGIC) else _detect_format(head, n)
