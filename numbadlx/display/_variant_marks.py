"""Where the marks of a variant's rules go on a grid: shapes in grid units, for any drawer.

Coordinates are ``(x, y)`` with ``x`` the column and ``y`` the row, both growing from the
grid's top-left corner, one unit a cell; the HTML view (SVG) and the Matplotlib view
draw the same :class:`Marks`.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ._outside_shapes import outside_shapes
from ._rule_shapes import notes, rule_shapes

__all__ = ["Marks", "marks"]

# How far a cage's outline sits inside its cells, in cells.
_CAGE_INSET = 0.1


@dataclasses.dataclass
class Marks:
    """The shapes of one grid's rules (all lists of plain floats and strings)."""

    #: thick lines between cells of different regions (boxes, jigsaw regions)
    borders: list = dataclasses.field(default_factory=list)
    #: thin lines: the main diagonals
    diagonals: list = dataclasses.field(default_factory=list)
    #: windoku windows to shade, as (x, y, width, height)
    windows: list = dataclasses.field(default_factory=list)
    #: per cage, its dashed outline segments and (x, y, text) of its total (None: no total)
    cages: list = dataclasses.field(default_factory=list)
    #: per thermometer, the centres of its cells from the bulb
    thermos: list = dataclasses.field(default_factory=list)
    #: (x, y, "white" | "black") on the edge between two cells
    dots: list = dataclasses.field(default_factory=list)
    #: (x, y, "X" | "V") on the edge between two cells
    letters: list = dataclasses.field(default_factory=list)
    #: centres of odd (circle) and even (square) cells
    odd: list = dataclasses.field(default_factory=list)
    even: list = dataclasses.field(default_factory=list)
    #: the setters' rules as plain shapes (:class:`._rule_shapes.Shape`): arrows, lines,
    #: signs, extra regions, pencil marks, outside clues
    shapes: list = dataclasses.field(default_factory=list)
    #: cells of margin (left, top, right, bottom) the outside clues need
    margins: tuple = (0, 0, 0, 0)
    #: caption lines for what the picture cannot show (the negative constraint...)
    notes: list = dataclasses.field(default_factory=list)


def _centre(cell, n):
    row, col = divmod(int(cell), n)
    return (col + 0.5, row + 0.5)


def _region_ids(n, box, rules):
    if rules is not None and rules.regions is not None:
        return np.asarray(rules.regions).reshape(n, n)
    if rules is not None and rules.latin:
        return np.zeros((n, n), dtype=np.int64)
    rows, cols = box
    r, c = np.divmod(np.arange(n * n), n)
    return ((r // rows) * n + c // cols).reshape(n, n)


def _borders(ids):
    n = ids.shape[0]
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n and ids[r, c] != ids[r, c + 1]:
                out.append(((c + 1, r), (c + 1, r + 1)))
            if r + 1 < n and ids[r, c] != ids[r + 1, c]:
                out.append(((c, r + 1), (c + 1, r + 1)))
    return out


def _cage_outline(cells, n):
    """Segments of a cage's outline, inset into its cells, corners joined."""
    inside = {divmod(int(cell), n) for cell in cells}
    d = _CAGE_INSET
    segments = []
    # each side: the outward normal (dr, dc) and the tangent along it (dr, dc)
    for r, c in sorted(inside):
        cx, cy = c + 0.5, r + 0.5
        for (nr, nc), (tr, tc) in (
            ((-1, 0), (0, 1)),
            ((1, 0), (0, 1)),
            ((0, -1), (1, 0)),
            ((0, 1), (1, 0)),
        ):
            if (r + nr, c + nc) in inside:
                continue
            ends = []
            for sign in (-1, 1):
                step = (r + sign * tr, c + sign * tc)
                if step not in inside:
                    reach = 0.5 - d  # an outer corner: stop inside the cell
                elif (step[0] + nr, step[1] + nc) in inside:
                    reach = 0.5 + d  # an inner corner: meet the next side's line
                else:
                    reach = 0.5  # the side goes on in the next cell
                ends.append(sign * reach)
            off = 0.5 - d
            segments.append(tuple((cx + nc * off + tc * t, cy + nr * off + tr * t) for t in ends))
    return segments


def _between(a, b, n):
    (xa, ya), (xb, yb) = _centre(a, n), _centre(b, n)
    return ((xa + xb) / 2, (ya + yb) / 2)


def marks(n, box, rules=None):
    """The :class:`Marks` of an ``n x n`` grid with boxes ``box`` (rows, columns) under
    ``rules`` (a checked :class:`~numbadlx.sudoku.Rules`, or None for the classic grid).

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> m = marks(4, (2, 2), Rules(cages=[([0, 1], 3)], x_pairs=[(2, 3)]).checked(4))
    >>> len(m.borders), len(m.cages), m.cages[0][1], m.letters
    (8, 1, (0.08, 0.06, '3'), [(3.0, 0.5, 'X')])
    """
    out = Marks(borders=_borders(_region_ids(n, box, rules)))
    if rules is None:
        return out
    if rules.main_diagonal:
        out.diagonals.append(((0, 0), (n, n)))
    if rules.anti_diagonal:
        out.diagonals.append(((n, 0), (0, n)))
    if rules.windoku:
        rows, cols = rules.box
        out.windows = [
            (left, top, cols, rows)
            for top in range(1, n - rows + 1, rows + 1)
            for left in range(1, n - cols + 1, cols + 1)
        ]
    for cells, total in rules.cages:
        row, col = divmod(min(int(c) for c in cells), n)
        label = None if total is None else (col + 0.08, row + 0.06, str(total))
        out.cages.append((_cage_outline(cells, n), label))
    out.thermos = [[_centre(c, n) for c in thermo] for thermo in rules.thermos]
    for name, colour in (("white_dots", "white"), ("black_dots", "black")):
        out.dots += [(*_between(a, b, n), colour) for a, b in getattr(rules, name)]
    for name, letter in (("x_pairs", "X"), ("v_pairs", "V")):
        out.letters += [(*_between(a, b, n), letter) for a, b in getattr(rules, name)]
    out.odd = [_centre(c, n) for c in rules.odd]
    out.even = [_centre(c, n) for c in rules.even]
    outside, out.margins = outside_shapes(rules, n)
    out.shapes = rule_shapes(rules, n) + outside
    out.notes = notes(rules, n)
    return out
