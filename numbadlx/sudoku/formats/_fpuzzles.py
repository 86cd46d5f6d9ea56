"""f-puzzles JSON: the exchange format of variant setters, read into a puzzle and Rules.

An f-puzzles puzzle is one JSON object: ``size``, ``grid`` (rows of cell objects with
``value``, ``given`` and ``region``), and one key per constraint, each a list of objects
naming cells as ``"R{row}C{column}"`` (1-based). Links carry it packed by lz-string's
``compressToBase64`` after ``?load=``. Every constraint key is mapped to a
:class:`~numbadlx.sudoku.Rules` field or refused by name: a rule the solvers would
ignore would give wrong answers.
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections.abc import Mapping

import numpy as np

from ..variants import Rules
from ._lzstring import decompress_base64

__all__ = ["read_fpuzzles"]

# Keys that describe the puzzle without constraining it.
_METADATA = frozenset(
    {
        "size",
        "grid",
        "title",
        "author",
        "ruleset",
        "solution",
        "highlightConflicts",
        "activeConstraints",
        "disabledlogic",
        "truecandidatesoptions",
    }
)
# Cell fields that do not constrain the digits (colours, the solver's pencil marks).
_CELL_COSMETIC = frozenset(
    {
        "value",
        "given",
        "region",
        "c",
        "cArray",
        "highlight",
        "centerPencilMarks",
        "cornerPencilMarks",
    }
)
_CELL = re.compile(r"[Rr](\d+)[Cc](\d+)")
_BASE64 = re.compile(r"[A-Za-z0-9+/= \n\r\t]+")


def _text_of(source, paths=True):
    """The JSON text of ``source``: a JSON string, a packed string, a link or (when
    ``paths``) a file. The text of a file, or a line of a data file, is never a path."""
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8-sig") as handle:
            return _text_of(handle.read(), paths=False)
    if not isinstance(source, str):
        raise TypeError(f"f-puzzles: expected JSON text, a link or a path, got {type(source)}")
    text = source.strip()
    if text.startswith("{"):
        return text
    if "load=" in text:
        query = text.split("load=", 1)[1].split("&", 1)[0].split("#", 1)[0]
        # a "+" in a link may have been turned into a space on the way
        return decompress_base64(urllib.parse.unquote(query).replace(" ", "+"))
    is_file = paths and os.path.isfile(text)
    if text and _BASE64.fullmatch(text) and not is_file:
        return decompress_base64("".join(text.split()))
    if is_file:
        with open(text, encoding="utf-8-sig") as handle:
            return _text_of(handle.read(), paths=False)
    raise ValueError(
        "f-puzzles: expected a JSON object, an lz-string base64 text, a link with "
        f"?load= or a file, got {text[:40]!r}"
    )


class _Reader:
    def __init__(self, data):
        if not isinstance(data, Mapping):
            raise ValueError(f"f-puzzles: the puzzle must be a JSON object, got {type(data)}")
        self.data = data
        size = data.get("size")
        if isinstance(size, bool) or not isinstance(size, int):
            raise ValueError(f"f-puzzles: size must be an integer, got {size!r}")
        self.n = size

    def cell(self, key, value):
        if not isinstance(value, str) or not _CELL.fullmatch(value.strip()):
            raise ValueError(f"f-puzzles: {key}: a cell is written R<row>C<column>, got {value!r}")
        row, col = (int(v) for v in _CELL.fullmatch(value.strip()).groups())
        if not (1 <= row <= self.n and 1 <= col <= self.n):
            raise ValueError(
                f"f-puzzles: {key}: cell {value} is outside the {self.n}x{self.n} grid"
            )
        return (row - 1) * self.n + (col - 1)

    def cells(self, key, entry, field="cells"):
        values = entry.get(field) if isinstance(entry, Mapping) else None
        if not isinstance(values, list) or not values:
            raise ValueError(f"f-puzzles: {key}: each entry needs a list of {field}, got {entry!r}")
        return tuple(self.cell(key, v) for v in values)

    def entries(self, key):
        value = self.data.get(key) or []
        if not isinstance(value, list):
            raise ValueError(f"f-puzzles: {key} must be a list, got {value!r}")
        for entry in value:
            if not isinstance(entry, Mapping):
                raise ValueError(f"f-puzzles: {key}: each entry is an object, got {entry!r}")
        return value

    def flag(self, key):
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            raise ValueError(f"f-puzzles: {key} must be true or false, got {value!r}")
        return value


def _number(key, value, default):
    """The value of a cage or dot: an integer, or ``default`` when empty."""
    if value is None or value == "":
        return default
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"f-puzzles: {key}: expected a whole number, got {value!r}") from None


def _grid(reader):
    n, rows = reader.n, reader.data.get("grid")
    if not isinstance(rows, list) or len(rows) != n:
        raise ValueError(f"f-puzzles: grid must be a list of {n} rows")
    puzzle = np.zeros(n * n, dtype=np.uint8)
    regions = np.full(n * n, -1, dtype=np.int64)
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != n:
            raise ValueError(f"f-puzzles: grid row {r + 1} must be a list of {n} cells")
        for c, cell in enumerate(row):
            where = f"f-puzzles: grid R{r + 1}C{c + 1}"
            if not isinstance(cell, Mapping):
                raise ValueError(f"{where}: a cell is an object, got {cell!r}")
            marks = cell.get("givenPencilMarks")
            if marks:
                raise ValueError(f"{where}: givenPencilMarks (given candidates) are not supported")
            for key in cell:
                if key not in _CELL_COSMETIC and key != "givenPencilMarks":
                    raise ValueError(f"{where}: unknown cell field {key!r}")
            value = cell.get("value")
            if cell.get("given") and value is not None:
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
                    raise ValueError(
                        f"{where}: a given must be a digit from 1 to {n}, got {value!r}"
                    )
                puzzle[r * n + c] = value
            if "region" in cell:
                region = cell["region"]
                if isinstance(region, bool) or not isinstance(region, int) or not 0 <= region < n:
                    raise ValueError(
                        f"{where}: region must be an integer from 0 to {n - 1}, got {region!r}"
                    )
                regions[r * n + c] = region
    return puzzle, regions


def _regions(reader, marked):
    """Rules fields for the regions: None when they are the default boxes."""
    from ..shape import box_shape

    n = reader.n
    try:
        rows, cols = box_shape(n)
    except ValueError:
        rows = cols = None
    if rows is not None:
        r, c = np.divmod(np.arange(n * n), n)
        boxes = (r // rows) * (n // cols) + c // cols
        marked = np.where(marked < 0, boxes, marked)
        if (marked == boxes).all():
            return {}
    elif (marked < 0).any():
        raise ValueError(f"f-puzzles: grid: a {n}x{n} grid needs a region on every cell")
    return {"regions": marked}


def _windoku(reader, entries):
    """True when the extra regions are exactly the windoku windows."""
    from ..geometry import rule_units

    n = reader.n
    regions = {frozenset(reader.cells("extraregion", e)) for e in entries}
    try:
        units = rule_units(n, Rules(windoku=True).checked(n))
        plain = rule_units(n, Rules().checked(n))
    except ValueError:
        units = plain = np.zeros((0, n))
    windows = {frozenset(u.tolist()) for u in units[len(plain) :]}
    if regions != windows:
        raise ValueError(
            "f-puzzles: extraregion: only the windoku windows are supported as extra "
            "regions (one cell in from the edges, one cell apart)"
        )
    return True


def _pairs(reader, key, expect):
    out = []
    for entry in reader.entries(key):
        cells = reader.cells(key, entry)
        if len(cells) != 2:
            raise ValueError(f"f-puzzles: {key}: a dot joins two cells, got {entry['cells']!r}")
        if _number(key, entry.get("value"), expect) != expect:
            raise ValueError(
                f"f-puzzles: {key}: only the value {expect} is supported, got {entry['value']!r}"
            )
        out.append(cells)
    return out


def _rules(reader, regions):
    data, fields = reader.data, dict(regions)
    plus, minus = reader.flag("diagonal+"), reader.flag("diagonal-")
    if plus != minus:
        name = "diagonal+" if plus else "diagonal-"
        raise ValueError(f"f-puzzles: {name}: one diagonal alone is not supported (only both)")
    fields["diagonals"] = plus
    for key, name in (
        ("antiknight", "anti_knight"),
        ("antiking", "anti_king"),
        ("nonconsecutive", "non_consecutive"),
        ("disjointgroups", "disjoint"),
    ):
        fields[name] = reader.flag(key)
    cages = []
    for key in ("killercage", "cage"):
        for entry in reader.entries(key):
            cages.append((reader.cells(key, entry), _number(key, entry.get("value"), None)))
    fields["cages"] = cages
    thermos = []
    for entry in reader.entries("thermometer"):
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines:
            raise ValueError(f"f-puzzles: thermometer: each entry needs lines, got {entry!r}")
        for line in lines:
            thermos.append(reader.cells("thermometer", {"cells": line}))
    fields["thermos"] = thermos
    fields["white_dots"] = _pairs(reader, "difference", 1)
    fields["black_dots"] = _pairs(reader, "ratio", 2)
    for entry in reader.entries("xv"):
        cells = reader.cells("xv", entry)
        letter = str(entry.get("value", "")).strip().upper()
        if len(cells) != 2 or letter not in ("X", "V"):
            raise ValueError(f"f-puzzles: xv: expected two cells and X or V, got {entry!r}")
        fields.setdefault(f"{letter.lower()}_pairs", []).append(cells)
    for key in ("odd", "even"):
        fields[key] = [reader.cell(key, e.get("cell")) for e in reader.entries(key)]
    extra = reader.entries("extraregion")
    if extra:
        fields["windoku"] = _windoku(reader, extra)
    known = {
        "diagonal+",
        "diagonal-",
        "antiknight",
        "antiking",
        "nonconsecutive",
        "disjointgroups",
        "killercage",
        "cage",
        "thermometer",
        "difference",
        "ratio",
        "xv",
        "odd",
        "even",
        "extraregion",
    }
    for key, value in data.items():
        if key in _METADATA or key in known:
            continue
        if value in (None, False, "", [], {}):
            continue
        raise ValueError(f"f-puzzles: the rule {key!r} is not supported by numbadlx")
    try:
        return Rules(**fields).checked(reader.n)
    except ValueError as error:
        raise ValueError(f"f-puzzles: {error}") from None


def read_fpuzzles(source):
    """A puzzle and its :class:`~numbadlx.sudoku.Rules` from f-puzzles JSON.

    Parameters
    ----------
    source : str, path or mapping
        The JSON text, its lz-string ``compressToBase64`` packing, an f-puzzles link
        with ``?load=``, a file holding any of these, or the parsed object.

    Returns
    -------
    puzzle : (n*n,) uint8 array
        The givens (cells with ``"given": true``), 0 for a blank.
    rules : Rules
        The constraints, checked for the grid size.

    Raises
    ------
    ValueError
        Malformed JSON, a bad cell name, a rule numbadlx does not have (``arrow``,
        ``littlekiller``, ``sandwichsum``, ... or one diagonal alone), named.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> text = '{"size": 4, "grid": [[{"value": 1, "given": true}, {}, {}, {}],'
    >>> text += ' [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]],'
    >>> text += ' "killercage": [{"cells": ["R1C2", "R1C3"], "value": "7"}]}'
    >>> puzzle, rules = sudoku.read_fpuzzles(text)
    >>> puzzle.tolist()[:4], rules.cages
    ([1, 0, 0, 0], (((1, 2), 7),))
    """
    return _read(source, paths=True)


def _read(source, paths):
    """:func:`read_fpuzzles`; a str ``source`` names a file only when ``paths``."""
    if isinstance(source, Mapping):
        data = source
    else:
        text = _text_of(source, paths)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"f-puzzles: not valid JSON: {error}") from None
        except RecursionError:
            raise ValueError("f-puzzles: not valid JSON: nested too deeply") from None
    reader = _Reader(data)
    from ..shape import MAX_SIZE, MIN_SIZE

    if not MIN_SIZE <= reader.n <= MAX_SIZE:
        raise ValueError(f"f-puzzles: size {reader.n} is outside {MIN_SIZE} to {MAX_SIZE}")
    puzzle, marked = _grid(reader)
    return puzzle, _rules(reader, _regions(reader, marked))
