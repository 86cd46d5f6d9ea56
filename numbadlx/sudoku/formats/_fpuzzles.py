"""f-puzzles JSON: the exchange format of variant setters, read into a puzzle and Rules.

An f-puzzles puzzle is one JSON object: ``size``, ``grid`` (rows of cell objects with
``value``, ``given`` and ``region``), and one key per constraint, each a list of objects
naming cells as ``"R{row}C{column}"`` (1-based). Links carry it packed by lz-string's
``compressToBase64`` after ``?load=`` (f-puzzles) or after an ``fpuz`` puzzle id
(SudokuPad). Every constraint key is mapped to a :class:`~numbadlx.sudoku.Rules` field
(:mod:`._fpuzzles_rules`) or refused by name: a rule the solvers would ignore would give
wrong answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

import numpy as np

from ..variants import Rules
from ._fpuzzles_rules import READ_KEYS, rule_fields
from ._fpuzzles_text import text_of

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
        "id",
        "version",
    }
)
# Cell fields that do not constrain the digits (colours, the solver's pencil marks, and
# the candidates f-puzzles writes when it exports them: what its own checks leave).
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
        "candidates",
        "givenPencilMarks",
        "parity",
    }
)
# ASCII digits only: "\d" would take any script's digits (R١C٣ is no cell)
_CELL = re.compile(r"\s*[Rr]([0-9]{1,6})[Cc]([0-9]{1,6})\s*")
_NUMBER = re.compile(r"\s*(-?[0-9]{1,9})\s*")


class _Reader:
    def __init__(self, data):
        if not isinstance(data, Mapping):
            raise ValueError(f"f-puzzles: the puzzle must be a JSON object, got {type(data)}")
        self.data = data
        size = data.get("size")
        if isinstance(size, bool) or not isinstance(size, int):
            raise ValueError(f"f-puzzles: size must be an integer, got {size!r}")
        self.n = size

    def position(self, key, value, outside=False):
        """``(row, column)``, 0-based, of a cell name; ``outside``: one step outside the
        grid allowed (the cell of an outside clue)."""
        found = _CELL.fullmatch(value) if isinstance(value, str) else None
        if found is None:
            raise ValueError(f"f-puzzles: {key}: a cell is written R<row>C<column>, got {value!r}")
        row, col = (int(v) for v in found.groups())
        low, high = (0, self.n + 1) if outside else (1, self.n)
        if not (low <= row <= high and low <= col <= high):
            where = "more than one step outside" if outside else "outside"
            raise ValueError(
                f"f-puzzles: {key}: cell {value} is {where} the {self.n}x{self.n} grid"
            )
        return row - 1, col - 1

    def cell(self, key, value):
        row, col = self.position(key, value)
        return row * self.n + col

    def cells(self, key, entry, field="cells"):
        values = entry.get(field) if isinstance(entry, Mapping) else None
        if not isinstance(values, list) or not values:
            raise ValueError(f"f-puzzles: {key}: each entry needs a list of {field}, got {entry!r}")
        if len(values) > self.n * self.n:
            raise ValueError(
                f"f-puzzles: {key}: a list of {len(values):,} cells is longer than the "
                f"{self.n * self.n} cells of the grid"
            )
        return tuple(self.cell(key, v) for v in values)

    def entries(self, key):
        value = self.data.get(key) or []
        if not isinstance(value, list):
            raise ValueError(f"f-puzzles: {key} must be a list, got {value!r}")
        if len(value) > 4 * self.n * self.n:
            raise ValueError(
                f"f-puzzles: {key}: {len(value):,} entries are more than a "
                f"{self.n}x{self.n} grid can hold (at most {4 * self.n * self.n:,})"
            )
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
    """The value of a cage, clue or dot: an integer (a JSON number or its digits, ASCII
    only), or ``default`` when empty."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    found = _NUMBER.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise ValueError(f"f-puzzles: {key}: expected a whole number, got {value!r}")
    return int(found.group(1))


def _given(where, cell, n):
    """The digit of a given cell, 0 when the cell holds no given."""
    given, value = cell.get("given", False), cell.get("value")
    if not isinstance(given, bool):
        raise ValueError(f"{where}: given must be true or false, got {given!r}")
    if not given or value is None:
        return 0  # a digit the solver entered is no given
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
        raise ValueError(f"{where}: a given must be a digit from 1 to {n}, got {value!r}")
    return value


def _cell_rules(where, cell, n):
    """``(candidates, parity)`` of a cell: its given pencil marks (the digits it may
    hold) or None, and ``"odd"``, ``"even"`` or None."""
    marks = cell.get("givenPencilMarks")
    if marks is not None:
        if not isinstance(marks, list) or any(
            isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= n for d in marks
        ):
            raise ValueError(
                f"{where}: givenPencilMarks must be a list of digits from 1 to {n}, got {marks!r}"
            )
        marks = marks or None
    parity = cell.get("parity")
    if parity is not None:
        if not isinstance(parity, str) or parity.strip().lower() not in ("odd", "even"):
            raise ValueError(f"{where}: parity must be Odd or Even, got {parity!r}")
        parity = parity.strip().lower()
    return marks, parity


def _grid(reader):
    """``(puzzle, regions, cell fields)``: the givens, the region of every cell (-1 where
    none is written), and the Rules fields the cells carry (candidates, odd, even)."""
    n, rows = reader.n, reader.data.get("grid")
    if not isinstance(rows, list) or len(rows) != n:
        raise ValueError(f"f-puzzles: grid must be a list of {n} rows")
    puzzle = np.zeros(n * n, dtype=np.uint8)
    regions = np.full(n * n, -1, dtype=np.int64)
    fields = {"candidates": {}, "odd": [], "even": []}
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != n:
            raise ValueError(f"f-puzzles: grid row {r + 1} must be a list of {n} cells")
        for c, cell in enumerate(row):
            where = f"f-puzzles: grid R{r + 1}C{c + 1}"
            if not isinstance(cell, Mapping):
                raise ValueError(f"{where}: a cell is an object, got {cell!r}")
            for key in cell:
                if key not in _CELL_COSMETIC:
                    raise ValueError(f"{where}: unknown cell field {key!r}")
            puzzle[r * n + c] = _given(where, cell, n)
            marks, parity = _cell_rules(where, cell, n)
            if marks is not None:
                fields["candidates"][r * n + c] = marks
            if parity is not None:
                fields[parity].append(r * n + c)
            if "region" in cell:
                region = cell["region"]
                if isinstance(region, bool) or not isinstance(region, int) or not 0 <= region < n:
                    raise ValueError(
                        f"{where}: region must be an integer from 0 to {n - 1}, got {region!r}"
                    )
                regions[r * n + c] = region
    return puzzle, regions, fields


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
    else:
        # f-puzzles' default region on a grid without boxes (a prime size) is the row
        marked = np.where(marked < 0, np.arange(n * n) // n, marked)
    return {"regions": marked}


def _extra_regions(reader):
    """``{"windoku": True}`` when the extra regions are exactly the windoku windows (the
    engines that know windows take them), else the regions as ``extra_regions``."""
    from ..geometry import rule_units

    n = reader.n
    regions = [reader.cells("extraregion", e) for e in reader.entries("extraregion")]
    if not regions:
        return {}
    try:
        units = rule_units(n, Rules(windoku=True).checked(n))
        plain = rule_units(n, Rules().checked(n))
    except ValueError:
        units = plain = np.zeros((0, n))
    windows = {frozenset(u.tolist()) for u in units[len(plain) :]}
    if len(regions) == len(windows) and {frozenset(r) for r in regions} == windows:
        return {"windoku": True}
    return {"extra_regions": regions}


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


def _rules(reader, fields):
    keyed = rule_fields(reader, _number, lambda key, v: _pairs(reader, key, v))
    for name in ("odd", "even"):  # marked on the cells and listed under a key
        keyed[name] = fields.pop(name) + keyed[name]
    fields = {**fields, **keyed}
    fields.update(_extra_regions(reader))
    for key, value in reader.data.items():
        if key in _METADATA or key in READ_KEYS:
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
        with ``?load=``, a SudokuPad link whose puzzle id is f-puzzles data (``fpuz``
        or ``fpuzzles`` then the packing), a file holding any of these, or the parsed
        object. Input is bounded: a JSON text, or a packed text inflating, past 8 Mi
        characters, more than ``4 n²`` entries under a key, or a list of more cells
        than the grid has, is refused.

    Returns
    -------
    puzzle : (n*n,) uint8 array
        The givens (cells with ``"given": true``), 0 for a blank.
    rules : Rules
        The constraints, checked for the grid size. Keys read: ``diagonal+``
        (``diagonals="anti"``), ``diagonal-`` (``"main"``), ``antiknight``,
        ``antiking``, ``disjointgroups``, ``nonconsecutive``, ``negative``
        (``"ratio"``, ``"xv"``), ``killercage``, ``cage``, ``thermometer``,
        ``difference``, ``ratio``, ``xv``, ``odd``, ``even``, ``minimum``, ``maximum``,
        ``arrow``, ``littlekillersum``, ``sandwichsum``, ``xsum``, ``skyscraper``,
        ``whispers`` (and ``germanwhispers``, ``dutchwhispers``), ``renban``,
        ``palindrome``, ``betweenline``, ``regionsumline``, ``entropicline``,
        ``modularline``, ``zipperline``, ``lockout``, ``quadruple``, ``extraregion``,
        an inequality sign (``<``, ``>``, ``^``, ``v``) written as ``text`` between two
        neighbouring cells (``greater``); per cell
        ``given``, ``region``, ``givenPencilMarks`` (candidates) and ``parity``.

    Raises
    ------
    ValueError
        Malformed JSON, a bad cell name, a rule numbadlx does not have (``clone``,
        ``nabner``, ``slowthermometer``, a cosmetic ``line`` or ``text`` that is not
        the drawing of a rule read, ...), named.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> text = '{"size": 4, "grid": [[{"value": 1, "given": true}, {}, {}, {}],'
    >>> text += ' [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]],'
    >>> text += ' "killercage": [{"cells": ["R1C2", "R1C3"], "value": "7"}]}'
    >>> puzzle, rules = sudoku.read_fpuzzles(text)
    >>> puzzle.tolist()[:4], rules.cages
    ([1, 0, 0, 0], (((1, 2), 7),))

    An arrow's line starts in its bulb; a sandwich clue stands outside the grid:

    >>> text = '{"size": 4, "grid": [[{}, {}, {}, {}], [{}, {}, {}, {}],'
    >>> text += ' [{}, {}, {}, {}], [{}, {}, {}, {}]],'
    >>> text += ' "arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C2"]]}],'
    >>> text += ' "sandwichsum": [{"cell": "R0C4", "value": "5"}]}'
    >>> rules = sudoku.read_fpuzzles(text)[1]
    >>> rules.arrows, rules.sandwiches
    ((((0,), (5, 9)),), (((3, 7, 11, 15), 5),))
    """
    return _read(source, paths=True)


def _read(source, paths):
    """:func:`read_fpuzzles`; a str ``source`` names a file only when ``paths``."""
    if isinstance(source, Mapping):
        data = source
    else:
        text = text_of(source, paths)
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
    puzzle, marked, fields = _grid(reader)
    return puzzle, _rules(reader, {**fields, **_regions(reader, marked)})
