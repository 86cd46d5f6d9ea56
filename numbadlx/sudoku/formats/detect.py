"""Format detection from the file name, the ``.npy`` magic number and the first
data line (see "Format auto-detection" in :mod:`numbadlx.sudoku.formats`)."""

from __future__ import annotations

import csv
import math
import os
import re

from ...core.textfile import check_file
from ._cells import (
    _BOXLESS_ROW_COUNTS,
    _BOXLESS_SQUARES,
    _LOOKUP,
    _ROW_COUNTS,
    _SQUARES,
    _leading_run,
    _split_cells,
)
from ._columnar import is_columnar_path, sniff_columnar
from ._csv import PUZZLE_COLUMNS, _pick_column
from ._grid import _SEPARATOR_LINE_RE
from ._npy import _NPY_MAGIC
from ._reader import _BOM, _SAMPLE_LINES, _strip_comment

__all__ = ["FORMATS", "file_format"]

FORMATS = ("lines", "grid", "csv", "npy", "fpuzzles", "parquet", "arrow")
_ANY_COUNT = frozenset(_SQUARES) | _ROW_COUNTS
_BOXLESS_ANY_COUNT = frozenset(_BOXLESS_SQUARES) | _BOXLESS_ROW_COUNTS
_FPUZZLES_PACKED = re.compile(r"[A-Za-z0-9+/=]+")


def _check_format(format: str | None) -> str | None:
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)} or None")
    return format


def _data_lines(head: bytes) -> list[tuple[int, str]]:
    """``(offset after the line, text)`` of the data lines (not blank, not a comment)
    in ``head``; offsets count from the start of the file (a BOM included)."""
    offset = 0
    if head.startswith(_BOM):
        head = head[len(_BOM) :]
        offset = len(_BOM)
    found = []
    for raw in head.split(b"\n"):
        offset += len(raw) + 1
        text = _strip_comment(raw).decode("utf-8", "replace")
        if text.strip():
            found.append((offset, text))
    return found


def _count_line_end(head: bytes) -> int | None:
    """Where a leading puzzle-count line ends (the byte after its LF), or None.

    The first data line is a count when it is a lone whole number written without
    leading zeros (at most 9 digits), with fewer digits than the next data line has
    cells: contest files start with the number of puzzles that follow (``3``, then
    three grids). A grid row or puzzle line with a digit too many is not taken for one.
    Box-drawing lines (``+---+---+``) between the count and the first row are passed
    over, as the grid reader does; a line of dashes as long as a puzzle is a puzzle.
    """
    lines = _data_lines(head[: 1 << 16])
    first = lines[0][1].strip() if lines else ""
    if not (first.isascii() and first.isdigit() and len(first) <= 9):
        return None
    if first.startswith("0") and first != "0":
        return None
    rows = [text for _, text in lines[1:] if not _drawing_only(text)]
    if not rows:
        return None
    if set(rows[0].strip()) == {"-"}:
        following = len(rows[0].strip())  # a puzzle line of blanks
    else:
        following = len(_split_cells(rows[0], None, _ANY_COUNT, grid=True)[1])
    if len(first) >= following or len(rows[0].strip()) == len(first):
        return None
    return lines[0][0]


def _drawing_only(text: str) -> bool:
    """True for a line of box-drawing characters only (not a puzzle line of dashes)."""
    stripped = text.strip()
    dashes = set(stripped) == {"-"} and len(stripped) in _SQUARES
    return _SEPARATOR_LINE_RE.fullmatch(text) is not None and not dashes


def _too_large_for(count: int, text: str) -> bool:
    """True if the line of ``count`` cells holds a value above ``sqrt(count)``: it
    cannot be a puzzle line of that size (so it is a row of a ``count x count`` grid)."""
    kind, cells, _, _ = _split_cells(text, None, _ANY_COUNT, grid=False)
    if len(cells) != count:
        return False
    if kind == "chars":
        values = [int(_LOOKUP[ord(ch)]) for ch in cells if ord(ch) < 128]
    else:
        values = [int(t) for t in cells if t != "." and len(t) < 4]
    return any(math.isqrt(count) < v <= count for v in values)


def _is_fpuzzles(text: str) -> bool:
    """True for the start of an f-puzzles file: a JSON object, an f-puzzles link, a
    SudokuPad link whose puzzle id is f-puzzles data (``fpuz...``), or the lz-string
    packing of a JSON object (``N4Ig`` is how ``{"`` starts packed)."""
    text = text.strip()
    if text.startswith(("{", "fpuzN4Ig", "fpuzzlesN4Ig")) or "?load=" in text:
        return True
    if "://" in text and re.search(r"[/=]fpuz(zles)?N4Ig", text):
        return True
    return (
        text.startswith("N4Ig")
        and len(text) not in _SQUARES
        and _FPUZZLES_PACKED.fullmatch(text) is not None
    )


def _detect_format(head: bytes, n: int | None, boxless: bool = False) -> str:
    """Guess the text format from the first data lines (see the package docs);
    ``boxless``: grids without boxes, whose sizes start at 2 (a line of 4 or 9 cells
    may then be a puzzle)."""
    squares = _BOXLESS_SQUARES if boxless else _SQUARES
    any_count = _BOXLESS_ANY_COUNT if boxless else _ANY_COUNT
    data_lines = [text for _, text in _data_lines(head)]
    if _count_line_end(head) is not None:
        data_lines = data_lines[1:]  # a contest file's count line
    for text in data_lines[:1]:
        if _is_fpuzzles(text):
            return "fpuzzles"
        if "," in text:
            try:
                names = [cell.strip().lower() for cell in next(csv.reader([text]))]
            except csv.Error:  # e.g. a lone CR inside the line: not a CSV header
                names = []
            if _pick_column(names, PUZZLE_COLUMNS) is not None:
                return "csv"
        # a puzzle line followed by a trailing field (a rating, a comment)
        run = _leading_run(text, (n * n,) if n is not None else squares)
        if run is not None and text[run[2][-1] + 1 :].strip():
            return "lines"
        if "|" in text or "+" in text or _drawing_only(text):
            return "grid"
        # the cell count most of the first lines have: one mistyped line does not decide
        sample = data_lines[:_SAMPLE_LINES]
        counts = [len(_split_cells(line, None, any_count, grid=False)[1]) for line in sample]
        count = max(counts, key=lambda c: (counts.count(c), -counts.index(c)))
        if n is not None:
            return "grid" if count == n else "lines"
        if count in squares:
            if count in (4, 9, 16, 36) and len(data_lines) >= count:
                # rows of a count x count grid, or puzzle lines of size sqrt(count)?
                # Grid rows when at least half of the first lines hold a value too
                # large for the small size.
                large = sum(_too_large_for(count, line) for line in sample)
                if 2 * large >= len(sample):
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
    if lower.endswith(".json"):
        return "fpuzzles"
    return is_columnar_path(path)


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
    with open(check_file(path), "rb") as f:
        return _sniff_format(f, n)


def _sniff_format(f, n: int | None, boxless: bool = False) -> str:
    """The format of an open binary file from its first bytes: the ``.npy`` magic
    number, else the first data line (the file position is left after the bytes read);
    ``boxless`` as for :func:`_detect_format`."""
    f.seek(0)
    head = f.read(1 << 18)
    if head.startswith(_NPY_MAGIC):
        return "npy"
    return sniff_columnar(head) or _detect_format(head, n, boxless)
