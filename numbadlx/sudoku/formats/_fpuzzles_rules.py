"""The constraint keys of an f-puzzles puzzle read into :class:`~numbadlx.sudoku.Rules`
fields: one reader per key, a table saying which keys are read.

The shapes are those f-puzzles writes (and SudokuPad and the solver add-ons that extend
it): cells are ``"R{row}C{column}"`` (1-based); a line key holds ``{"lines": [[cells],
...]}`` entries, each line one rule; an outside clue (``sandwichsum``, ``xsum``,
``skyscraper``, ``littlekillersum``) names the cell outside the grid it stands in (row
or column 0 or ``n + 1``), and its row, column or diagonal is read from there; an
``arrow``'s ``cells`` are its bulb (two or three for a pill) and each of its lines
starts in the bulb. Cosmetic drawings that the add-ons write beside a constraint they
draw (marked ``fromConstraint``) are skipped; an inequality sign written as text on the
border of two cells is read as ``greater``; other drawings carry rules only the rules
text explains, and are refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["rule_fields", "READ_KEYS"]

#: line keys: f-puzzles key -> Rules field
_LINE_KEYS = {
    "renban": "renbans",
    "palindrome": "palindromes",
    "betweenline": "between_lines",
    "regionsumline": "region_sum_lines",
    "entropicline": "entropic_lines",
    "zipperline": "zipper_lines",
}
#: outside clues on a whole row or column: f-puzzles key -> Rules field
_OUTSIDE_KEYS = {"sandwichsum": "sandwiches", "xsum": "x_sums", "skyscraper": "skyscrapers"}
_FLAGS = {
    "antiknight": "anti_knight",
    "antiking": "anti_king",
    "disjointgroups": "disjoint",
}
#: cosmetic keys: drawings, skipped when an add-on drew them for a constraint
_COSMETIC = ("line", "circle", "rectangle", "text", "cage")
_STEPS = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}
#: negative-constraint names f-puzzles writes, and the marks they cover
_NEGATIVE = {"ratio": ("black",), "xv": ("x", "v")}


def _lines(reader, key, entry):
    """The lines of one entry of a line key."""
    lines = entry.get("lines")
    if not isinstance(lines, list) or not lines:
        raise ValueError(f"f-puzzles: {key}: each entry needs lines, got {entry!r}")
    if len(lines) > reader.n * reader.n:
        raise ValueError(f"f-puzzles: {key}: an entry of {len(lines):,} lines is too many")
    return [reader.cells(key, {"cells": line}) for line in lines]


def _drawn(entry):
    return isinstance(entry, Mapping) and (
        entry.get("fromConstraint") or entry.get("isNewConstraint")
    )


def _outside(reader, key, entry):
    """The clue cell outside the grid: ``(row, column)``, 0-based, one of them -1 or n."""
    row, col = reader.position(key, entry.get("cell"), outside=True)
    n = reader.n
    inside = 0 <= row < n and 0 <= col < n
    return row, col, inside


def _whole_line(reader, key, entry):
    """The row or column an outside clue reads, from the clue's side."""
    row, col, inside = _outside(reader, key, entry)
    n = reader.n
    if inside or (row in (-1, n) and col in (-1, n)):
        raise ValueError(
            f"f-puzzles: {key}: the clue {entry.get('cell')} must stand outside the grid, "
            "beside a row or column"
        )
    if row in (-1, n):
        cells = [r * n + col for r in range(n)]
        return cells[::-1] if row == n else cells
    cells = [row * n + c for c in range(n)]
    return cells[::-1] if col == n else cells


def _diagonal(reader, entry):
    """The cells a little-killer clue sums: from its cell, one diagonal step at a time."""
    key = "littlekillersum"
    direction = str(entry.get("direction", "")).strip().upper()
    if direction not in _STEPS:
        raise ValueError(
            f"f-puzzles: {key}: direction must be UL, UR, DL or DR, got {entry.get('direction')!r}"
        )
    (dr, dc), n = _STEPS[direction], reader.n
    row, col, inside = _outside(reader, key, entry)
    if not inside:
        row, col = row + dr, col + dc
    cells = []
    while 0 <= row < n and 0 <= col < n:
        cells.append(row * n + col)
        row, col = row + dr, col + dc
    if not cells:
        raise ValueError(
            f"f-puzzles: {key}: the clue {entry.get('cell')} pointing {direction} meets no cell"
        )
    return cells


def _arrows(reader):
    out = []
    for entry in reader.entries("arrow"):
        bulb = reader.cells("arrow", entry)
        if len(bulb) > 3:
            raise ValueError(f"f-puzzles: arrow: a bulb holds 1 to 3 cells, got {len(bulb)}")
        for line in _lines(reader, "arrow", entry):
            at = 0
            while at < len(line) and line[at] in bulb:
                at += 1  # a line starts in its bulb
            if at == 0:
                raise ValueError(
                    f"f-puzzles: arrow: a line must start in its bulb {entry.get('cells')!r}"
                )
            if at < len(line):
                out.append((bulb, line[at:]))
    return out


def _clues(reader, number, key):
    """(cells, number) of the outside clues of ``key`` (empty clues skipped)."""
    out, seen = [], set()
    for entry in reader.entries(key):
        value = number(key, entry.get("value"), None)
        if value is None:
            continue
        where = (_outside(reader, key, entry)[:2], str(entry.get("direction", "")).upper())
        if where in seen:  # (which also bounds the clues to a few per outside cell)
            raise ValueError(f"f-puzzles: {key}: two clues at {entry.get('cell')}")
        seen.add(where)
        if key == "littlekillersum":
            out.append((_diagonal(reader, entry), value))
        else:
            out.append((_whole_line(reader, key, entry), value))
    return out


def _whispers(reader, number):
    out, half = [], (reader.n + 1) // 2
    for key, default in (("whispers", None), ("germanwhispers", None), ("dutchwhispers", -1)):
        for entry in reader.entries(key):
            gap = number(key, entry.get("value"), None)
            if gap is None and default is not None:
                gap = half + default
            out.extend(line if gap is None else (line, gap) for line in _lines(reader, key, entry))
    return out


def _extremes(n, fields):
    """f-puzzles compares a minimum (maximum) cell only with its neighbours that are not
    minima (maxima) too. Where two of them touch, Rules' ``minimums`` (every neighbour)
    would say more: the comparisons become ``greater`` pairs instead."""
    pairs = []
    for name, larger in (("minimums", False), ("maximums", True)):
        cells = set(fields[name])
        touching = any(c + 1 in cells and c % n < n - 1 or c + n in cells for c in cells)
        if not touching:
            continue
        for c in sorted(cells):
            r, k = divmod(c, n)
            for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
                d = rr * n + kk
                if 0 <= rr < n and 0 <= kk < n and d not in cells:
                    pairs.append((c, d) if larger else (d, c))
        fields[name] = []
    return pairs


def _negative(reader, fields):
    value = reader.data.get("negative") or []
    if not isinstance(value, list):
        raise ValueError(f"f-puzzles: negative must be a list of names, got {value!r}")
    kinds = set()
    for name in value:
        if not isinstance(name, str) or name not in _NEGATIVE:
            raise ValueError(
                f"f-puzzles: negative: {name!r} is not supported (only "
                f"{', '.join(sorted(_NEGATIVE))})"
            )
        kinds.update(_NEGATIVE[name])
    if reader.flag("nonconsecutive"):
        if fields["white_dots"] or kinds:
            kinds.add("white")  # kropki with every white dot given
        else:
            fields["non_consecutive"] = True
    fields["negative"] = sorted(kinds)


#: inequality signs setters write as text between two cells: the way each one points
#: (row step, column step) unrotated; the cell it points to holds the smaller digit
_SIGNS = {">": (0, 1), "<": (0, -1), "^": (-1, 0), "\u2227": (-1, 0), "\u02c4": (-1, 0)}
_SIGNS.update({"v": (1, 0), "V": (1, 0), "\u2228": (1, 0), "\u02c5": (1, 0)})


def _sign(reader, entry):
    """``(larger, smaller)`` of an inequality sign written as text on the border of two
    orthogonally adjacent cells, or None when the text is anything else."""
    value = entry.get("value")
    cells = entry.get("cells")
    angle = entry.get("angle", 0) or 0
    if not isinstance(value, str) or value.strip() not in _SIGNS:
        return None
    if not isinstance(cells, list) or len(cells) != 2:
        return None
    if isinstance(angle, bool) or not isinstance(angle, (int, float)) or angle % 90:
        return None
    a, b = (reader.position("text", c) for c in cells)
    dr, dc = _SIGNS[value.strip()]
    for _ in range(int(angle // 90) % 4):  # a quarter turn clockwise on the screen
        dr, dc = dc, -dr
    n = reader.n
    if (b[0] - a[0], b[1] - a[1]) == (dr, dc):
        return a[0] * n + a[1], b[0] * n + b[1]
    if (a[0] - b[0], a[1] - b[1]) == (dr, dc):
        return b[0] * n + b[1], a[0] * n + a[1]
    return None


def _cosmetics(reader, drawn_lines, fields):
    """Refuse drawings that may carry a rule; skip those an add-on drew for a rule; read
    an inequality sign written as text between two cells as ``greater``."""
    for key in _COSMETIC:
        for entry in reader.entries(key):
            if _drawn(entry):
                continue
            if key == "text":
                pair = _sign(reader, entry)
                if pair is not None:
                    fields["greater"].append(pair)
                    continue
            if key == "cage":
                continue  # read as a cage (see the cage reader)
            if key == "line" and all(
                tuple(reader.cells(key, {"cells": line})) in drawn_lines
                for line in entry.get("lines") or [None]
            ):
                continue  # the drawing of a line rule read from its key
            raise ValueError(
                f"f-puzzles: the drawing {key!r} is not supported by numbadlx (its meaning "
                "is in the rules text, not in the data)"
            )


def rule_fields(reader, number, pairs) -> dict:
    """The Rules fields of every constraint key (see the module's docstring)."""
    fields = {name: reader.flag(key) for key, name in _FLAGS.items()}
    plus, minus = reader.flag("diagonal+"), reader.flag("diagonal-")
    # f-puzzles' "diagonal+" rises from the bottom-left corner, "diagonal-" falls from
    # the top-left one
    fields["diagonals"] = True if plus and minus else "anti" if plus else "main" if minus else False
    fields["cages"] = [
        (reader.cells(key, entry), number(key, entry.get("value"), None))
        for key in ("killercage", "cage")
        for entry in reader.entries(key)
        if not _drawn(entry)
    ]
    fields["thermos"] = [
        line
        for entry in reader.entries("thermometer")
        for line in _lines(reader, "thermometer", entry)
    ]
    fields["white_dots"] = pairs("difference", 1)
    fields["black_dots"] = pairs("ratio", 2)
    for entry in reader.entries("xv"):
        cells = reader.cells("xv", entry)
        letter = str(entry.get("value", "")).strip().upper()
        if len(cells) != 2 or letter not in ("X", "V"):
            raise ValueError(f"f-puzzles: xv: expected two cells and X or V, got {entry!r}")
        fields.setdefault(f"{letter.lower()}_pairs", []).append(cells)
    for key, name in (
        ("odd", "odd"),
        ("even", "even"),
        ("minimum", "minimums"),
        ("maximum", "maximums"),
    ):
        fields[name] = [reader.cell(key, e.get("cell")) for e in reader.entries(key)]
    fields["greater"] = _extremes(reader.n, fields)
    _negative(reader, fields)
    fields["arrows"] = _arrows(reader)
    fields["little_killers"] = _clues(reader, number, "littlekillersum")
    for key, name in _OUTSIDE_KEYS.items():
        fields[name] = _clues(reader, number, key)
    drawn_lines = set()
    for key, name in _LINE_KEYS.items():
        fields[name] = [line for e in reader.entries(key) for line in _lines(reader, key, e)]
        drawn_lines.update(fields[name])
    fields["whispers"] = _whispers(reader, number)
    fields["modular_lines"] = []
    for entry in reader.entries("modularline"):
        m = number("modularline", entry.get("value"), None)
        for line in _lines(reader, "modularline", entry):
            fields["modular_lines"].append(line if m is None else (line, m))
    # the lockout add-on's ends differ by at least floor(n / 2) (4 on a 9x9 grid)
    fields["lockout_lines"] = [
        (line, reader.n // 2)
        for e in reader.entries("lockout")
        for line in _lines(reader, "lockout", e)
    ]
    drawn_lines.update(line for line, _ in fields["lockout_lines"])
    drawn_lines.update(
        line if isinstance(line[0], int) else line[0]
        for line in fields["whispers"] + fields["modular_lines"]
    )
    drawn_lines.update(fields["thermos"])
    fields["quadruples"] = []
    for entry in reader.entries("quadruple"):
        digits = entry.get("values")
        if not isinstance(digits, list) or not digits:
            raise ValueError(f"f-puzzles: quadruple: each entry needs values, got {entry!r}")
        four = reader.cells("quadruple", entry)
        fields["quadruples"].append((four, [number("quadruple", d, None) for d in digits]))
    _cosmetics(reader, drawn_lines, fields)
    return fields


#: Every key :func:`rule_fields` reads (the others are refused by name).
READ_KEYS = frozenset(
    {
        *_FLAGS,
        *_LINE_KEYS,
        *_OUTSIDE_KEYS,
        *_COSMETIC,
        "diagonal+",
        "diagonal-",
        "nonconsecutive",
        "negative",
        "killercage",
        "thermometer",
        "difference",
        "ratio",
        "xv",
        "odd",
        "even",
        "minimum",
        "maximum",
        "arrow",
        "littlekillersum",
        "whispers",
        "germanwhispers",
        "dutchwhispers",
        "modularline",
        "lockout",
        "quadruple",
        "extraregion",
    }
)
