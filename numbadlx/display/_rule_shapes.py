"""The marks of the setters' rules as plain shapes, drawn alike by the SVG and the
Matplotlib views: arrows, coloured lines, inequality signs, minimum and maximum cells,
quadruple circles, extra regions, candidates.

A :class:`Shape` is a circle, an open line, a polygon, a rectangle or a centred text,
in grid units (``x`` the column, ``y`` the row, one unit a cell), with its colours,
its stroke width, its layer and the class naming it. The clues outside the grid
(little killers, sandwiches, x-sums, skyscrapers) are in :mod:`._outside_shapes`.
"""

from __future__ import annotations

import dataclasses
import math

from ..sudoku.shape import DIGITS
from ..sudoku.variants import whisper_gap

__all__ = [
    "Shape",
    "LINE_COLOURS",
    "UNDER",
    "OVER",
    "TOP",
    "rule_shapes",
    "unit",
    "symbol",
    "notes",
]

#: layers: under the cell lines (shading), over the region borders (lines, arrows), over
#: the dots and letters (signs, clues, pencil marks); the digits come last
UNDER, OVER, TOP = 0, 1, 2

#: the colour of each kind of line, near what the setters' tools draw
LINE_COLOURS = {
    "whispers": "#3fbf4f",  # green
    "renbans": "#d66fd6",  # purple-pink
    "palindromes": "#a8a8a8",  # grey
    "between_lines": "#8fb3d3",  # pale blue, with a circle at each end
    "region_sum_lines": "#2a7de1",  # blue
    "entropic_lines": "#f0932b",  # orange
    "modular_lines": "#139a9a",  # teal
    "zipper_lines": "#b39ddb",  # lavender
    "lockout_lines": "#5c6f9e",  # slate, with a diamond at each end
}
#: the class of each kind of line in the SVG
LINE_CLASSES = {name: name.rstrip("s").replace("_", "-") for name in LINE_COLOURS}
LINE_CLASSES["whispers"] = "whisper"

_ARROW = "#8a8a8a"
_INK = "#222"
_LINE_WIDTH = 0.17
_REGION_TINTS = ("#f6e3c6", "#d8ecd2", "#e4dcf3", "#f6d7d7", "#d3e7ee", "#efeec8")
_MIN_TINT, _MAX_TINT = "#e3e3e3", "#e3e3e3"


@dataclasses.dataclass(frozen=True)
class Shape:
    """One shape to draw, in grid units.

    ``kind`` is ``"circle"`` (``points[0]`` its centre, ``r`` its radius), ``"line"``
    (an open polyline through ``points``), ``"polygon"`` (closed), ``"rect"``
    (``points`` its top-left and bottom-right corners, ``r`` the corners' radius) or
    ``"text"`` (centred on ``points[0]``, ``size`` the font's height). ``cell`` >= 0:
    not drawn when that cell shows a digit (pencil marks).
    """

    kind: str
    cls: str
    points: tuple
    r: float = 0.0
    fill: str = "none"
    stroke: str = "none"
    width: float = 0.0
    text: str = ""
    size: float = 0.0
    bold: bool = False
    layer: int = OVER
    cell: int = -1


def unit(dx, dy):
    """``(dx, dy)`` scaled to length 1 (``(0, 0)`` stays)."""
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length else (0.0, 0.0)


def symbol(value):
    """A digit as the grid writes it (base 36: 10 is ``A``)."""
    return DIGITS[value] if 0 <= value < len(DIGITS) else str(value)


def _centre(cell, n):
    row, col = divmod(int(cell), n)
    return (col + 0.5, row + 0.5)


def _chevron(x, y, dx, dy, reach, spread, cls, layer=TOP, width=0.035):
    """A ``>`` whose tip is ``reach`` from ``(x, y)`` along ``(dx, dy)`` (a unit), its
    arms ``spread`` to each side, back at ``(x, y)``."""
    tip = (x + dx * reach, y + dy * reach)
    arms = [(x - dx * reach + s * -dy * spread, y - dy * reach + s * dx * spread) for s in (1, -1)]
    return Shape("line", cls, (arms[0], tip, arms[1]), stroke=_INK, width=width, layer=layer)


def _arrowhead(tip, direction, cls, length=0.26, colour=_ARROW, width=0.05):
    """Two short strokes back from ``tip`` at 40 degrees either side of ``direction``."""
    dx, dy = direction
    out = []
    for angle in (0.7, -0.7):
        c, s = math.cos(angle), math.sin(angle)
        bx, by = -(dx * c - dy * s), -(dx * s + dy * c)
        out.append((tip[0] + bx * length, tip[1] + by * length))
    return Shape("line", cls, (out[0], tip, out[1]), stroke=colour, width=width)


# ------------------------------------------------------------------ arrows
def _straight_run(cells, n):
    """The (row, col) span of cells forming one straight run in a row or a column, or
    None."""
    spots = sorted(divmod(c, n) for c in cells)
    rows = {r for r, _ in spots}
    cols = {c for _, c in spots}
    if len(rows) == 1 and max(cols) - min(cols) == len(spots) - 1:
        return spots[0], spots[-1]
    if len(cols) == 1 and max(rows) - min(rows) == len(spots) - 1:
        return spots[0], spots[-1]
    return None


def _arrow(bulb, shaft, n):
    r = 0.4
    shapes = []
    if len(bulb) == 1:
        shapes.append(
            Shape("circle", "bulb", (_centre(bulb[0], n),), r=r, stroke=_ARROW, width=0.05)
        )
    else:
        run = _straight_run(bulb, n)
        if run is not None:
            (r0, c0), (r1, c1) = run
            corners = ((c0 + 0.5 - r, r0 + 0.5 - r), (c1 + 0.5 + r, r1 + 0.5 + r))
            shapes.append(Shape("rect", "pill", corners, r=r, stroke=_ARROW, width=0.05))
        else:  # a bent pill: its cells and the joins of neighbours, thick then hollowed
            pieces = [(_centre(c, n),) * 2 for c in bulb]
            pieces += [
                (_centre(a, n), _centre(b, n))
                for a in bulb
                for b in bulb
                if a < b and math.dist(_centre(a, n), _centre(b, n)) == 1
            ]
            for colour, width in ((_ARROW, 2 * r + 0.05), ("white", 2 * r - 0.05)):
                shapes += [Shape("line", "pill", p, stroke=colour, width=width) for p in pieces]
    first = _centre(shaft[0], n)
    # the shaft leaves the bulb cell nearest its first cell, from the bulb's edge
    near = min(bulb, key=lambda c: math.dist(_centre(c, n), first))
    centre = _centre(near, n)
    ux, uy = unit(first[0] - centre[0], first[1] - centre[1])
    start = (centre[0] + ux * r, centre[1] + uy * r)
    points = (start, *(_centre(c, n) for c in shaft))
    shapes.append(Shape("line", "arrow", points, stroke=_ARROW, width=0.05))
    tip, before = points[-1], points[-2]
    shapes.append(
        _arrowhead(tip, unit(tip[0] - before[0], tip[1] - before[1]), "arrowhead", colour=_ARROW)
    )
    return shapes


# ------------------------------------------------------------------- lines
def _lines(rules, n):
    shapes = []
    for name, colour in LINE_COLOURS.items():
        cls = LINE_CLASSES[name]
        for value in getattr(rules, name):
            line = value[0] if isinstance(value[0], tuple) else value
            points = tuple(_centre(c, n) for c in line)
            shapes.append(Shape("line", cls, points, stroke=colour, width=_LINE_WIDTH))
            if name == "between_lines":
                for x, y in (points[0], points[-1]):
                    shapes.append(
                        Shape(
                            "circle",
                            "between-end",
                            ((x, y),),
                            r=0.38,
                            fill="white",
                            stroke=colour,
                            width=0.06,
                        )
                    )
            elif name == "lockout_lines":
                d = 0.4
                for x, y in (points[0], points[-1]):
                    diamond = ((x, y - d), (x + d, y), (x, y + d), (x - d, y))
                    shapes.append(
                        Shape(
                            "polygon",
                            "lockout-end",
                            diamond,
                            fill="white",
                            stroke=colour,
                            width=0.06,
                        )  # fmt: skip
                    )
    return shapes


# --------------------------------------------------------- signs and cells
def _greater(a, b, n):
    """An inequality sign between cells ``a`` > ``b``: its tip toward ``b``. Between
    neighbours it sits on their shared edge (or corner); a pair further apart is
    joined by a dotted line with the sign halfway."""
    (xa, ya), (xb, yb) = _centre(a, n), _centre(b, n)
    mx, my = (xa + xb) / 2, (ya + yb) / 2
    dx, dy = unit(xb - xa, yb - ya)
    shapes = []
    if max(abs(xb - xa), abs(yb - ya)) > 1:
        shapes.append(
            Shape("line", "greater-link", ((xa, ya), (xb, yb)), stroke="#999", width=0.02)
        )
    shapes.append(_chevron(mx, my, dx, dy, 0.08, 0.13, "greater", width=0.045))
    return shapes


def _extremes(cells, n, cls, tint, outward):
    shapes = []
    for cell in cells:
        row, col = divmod(int(cell), n)
        shapes.append(
            Shape("rect", cls, ((col, row), (col + 1, row + 1)), fill=tint, layer=UNDER, cell=-1)
        )
        x, y = col + 0.5, row + 0.5
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            if 0 <= row + dy < n and 0 <= col + dx < n:
                sign = 1 if outward else -1
                shapes.append(
                    _chevron(x + dx * 0.38, y + dy * 0.38, sign * dx, sign * dy, 0.04, 0.08, cls)
                )
    return shapes


def _quadruple(four, digits, n):
    row, col = divmod(four[0], n)
    x, y = col + 1.0, row + 1.0
    r = 0.33 if len(digits) > 2 else 0.28
    shapes = [Shape("circle", "quadruple", ((x, y),), r=r, fill="white", stroke=_INK, width=0.03)]
    k = len(digits)
    if k == 1:
        spots = [(0, 0)]
    elif k == 2:
        spots = [(-1, 0), (1, 0)]
    else:
        spots = [(-1, -1), (1, -1), (-1, 1), (1, 1)][:k] if k == 4 else [(-1, -1), (1, -1), (0, 1)]
    size = 0.25 if k <= 2 else 0.22
    step = 0.115
    for (sx, sy), digit in zip(spots, digits):
        shapes.append(
            Shape(
                "text",
                "quadruple-digit",
                ((x + sx * step, y + sy * step * 1.05),),
                text=symbol(digit),
                size=size,
                fill=_INK,
                layer=TOP,
            )  # fmt: skip
        )
    return shapes


def _extra_regions(regions, n):
    shapes = []
    for k, region in enumerate(regions):
        tint = _REGION_TINTS[k % len(_REGION_TINTS)]
        for cell in region:
            row, col = divmod(int(cell), n)
            shapes.append(
                Shape(
                    "rect", "extra-region", ((col, row), (col + 1, row + 1)), fill=tint, layer=UNDER
                )
            )
    return shapes


def _candidates(candidates, n):
    """Pencil marks: digit ``d`` at its place in a ``k x k`` grid inside the cell."""
    k = math.isqrt(n - 1) + 1
    shapes = []
    for cell, digits in candidates:
        row, col = divmod(int(cell), n)
        for digit in digits:
            r, c = divmod(digit - 1, k)
            x = col + (c + 0.5) / k
            y = row + (r + 0.5) / k
            shapes.append(
                Shape(
                    "text",
                    "candidate",
                    ((x, y),),
                    text=symbol(digit),
                    size=0.75 / k,
                    fill="#555",
                    layer=TOP,
                    cell=int(cell),
                )  # fmt: skip
            )
    return shapes


def rule_shapes(rules, n):
    """The shapes of the setters' rules of ``rules`` (checked for ``n``), in drawing
    order within each layer.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> shapes = rule_shapes(Rules(arrows=[(0, [1, 2])]).checked(4), 4)
    >>> [s.cls for s in shapes]
    ['bulb', 'arrow', 'arrowhead']
    >>> shapes[1].points
    ((0.9, 0.5), (1.5, 0.5), (2.5, 0.5))
    """
    shapes = _extra_regions(rules.extra_regions, n)
    shapes += _extremes(rules.minimums, n, "minimum", _MIN_TINT, outward=False)
    shapes += _extremes(rules.maximums, n, "maximum", _MAX_TINT, outward=True)
    shapes += _lines(rules, n)
    for bulb, shaft in rules.arrows:
        shapes += _arrow(bulb, shaft, n)
    for a, b in rules.greater:
        shapes += _greater(a, b, n)
    for four, digits in rules.quadruples:
        shapes += _quadruple(four, digits, n)
    shapes += _candidates(rules.candidates, n)
    return shapes


_NEGATIVE = {
    "white": "no white dot, not consecutive",
    "black": "no black dot, neither twice the other",
    "x": "no X, no sum of 10",
    "v": "no V, no sum of 5",
}


def notes(rules, n):
    """Lines of text for the caption: what the picture cannot show (the negative
    constraint, a whisper gap or a modulus other than the default, the lockout gaps).

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> print(notes(Rules(negative=("x",)), 9)[0])
    Negative constraint between orthogonal neighbours: no X, no sum of 10.
    >>> notes(Rules(lockout_lines=[([0, 1, 2], 4)]), 9)
    ['Lockout lines: the ends differ by at least 4.']
    """
    out = []
    if rules.negative:
        parts = "; ".join(_NEGATIVE[k] for k in rules.negative)
        out.append(f"Negative constraint between orthogonal neighbours: {parts}.")
    gaps = sorted({gap for _, gap in rules.whispers if gap is not None and gap != whisper_gap(n)})
    if gaps:
        out.append(f"Whispers: neighbours differ by at least {_either(gaps)}.")
    moduli = sorted({m for _, m in rules.modular_lines if m is not None and m != 3})
    if moduli:
        out.append(f"Modular lines: every {_either(moduli)} cells in a row differ modulo that.")
    gaps = sorted({gap for _, gap in rules.lockout_lines})
    if gaps:
        out.append(f"Lockout lines: the ends differ by at least {_either(gaps)}.")
    return out


def _either(numbers):
    text = [str(v) for v in numbers]
    return text[0] if len(text) == 1 else ", ".join(text[:-1]) + " or " + text[-1]
