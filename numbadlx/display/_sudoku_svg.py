"""An SVG picture of a variant grid: the marks of its rules under its digits.

The picture is drawn in grid units (one unit a cell, through the ``viewBox``), so it
scales with the page. Every element carries a class naming what it shows (``border``,
``diagonal``, ``window``, ``cage``, ``cage-sum``, ``thermo``, ``dot white``, ``dot
black``, ``xv``, ``odd``, ``even``, and ``given``/``filled``/``clash`` for the digits);
all text is escaped.
"""

from __future__ import annotations

from ._escape import text as _esc
from ._rule_shapes import OVER, TOP, UNDER
from ._variant_marks import marks

__all__ = ["grid_svg", "svg_picture"]

_COLOURS = {"given": "#111", "filled": "#1d5fbf", "clash": "#c0392b"}
_THERMO = "#b8b8b8"


def _f(value):
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _line(a, b, cls, style):
    return (
        f'<line class="{cls}" x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" '
        f'y2="{_f(b[1])}" {style}/>'
    )


def _shape(shape):
    """One :class:`._rule_shapes.Shape` as an SVG element (its text escaped)."""
    paint = f'fill="{shape.fill}" stroke="{shape.stroke}"'
    if shape.width:
        paint += f' stroke-width="{_f(shape.width)}"'
    cls = _esc(shape.cls)
    if shape.kind == "circle":
        (x, y), r = shape.points[0], shape.r
        return f'<circle class="{cls}" cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" {paint}/>'
    if shape.kind == "rect":
        (x0, y0), (x1, y1) = shape.points
        corner = f' rx="{_f(shape.r)}"' if shape.r else ""
        return (
            f'<rect class="{cls}" x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" '
            f'height="{_f(y1 - y0)}"{corner} {paint}/>'
        )
    if shape.kind in ("line", "polygon"):
        points = " ".join(f"{_f(x)},{_f(y)}" for x, y in shape.points)
        tag = "polyline" if shape.kind == "line" else "polygon"
        return (
            f'<{tag} class="{cls}" points="{points}" {paint} stroke-linecap="round" '
            'stroke-linejoin="round"/>'
        )
    (x, y) = shape.points[0]
    weight = ' font-weight="bold"' if shape.bold else ""
    return (
        f'<text class="{cls}" x="{_f(x)}" y="{_f(y)}" font-size="{_f(shape.size)}"{weight} '
        'text-anchor="middle" dominant-baseline="central" font-family="sans-serif" '
        f'fill="{shape.fill}">{_esc(shape.text)}</text>'
    )


def _layer(m, layer, shown):
    return [_shape(s) for s in m.shapes if s.layer == layer and (s.cell < 0 or s.cell not in shown)]


def grid_svg(grid):
    """A ``<div>`` holding the SVG picture of a :class:`~numbadlx.sudoku.Grid` under its
    rules (:func:`svg_picture`), with the grid's summary and notes below it.

    Examples
    --------
    >>> from numbadlx.sudoku import Grid, Rules
    >>> rules = Rules(cages=[([0, 1], 3)], white_dots=[(2, 3)], diagonals=True)
    >>> svg = grid_svg(Grid("1000" "0010" "0000" "0000", rules=rules))
    >>> svg.count('class="cage"'), svg.count('class="dot white"'), svg.count('class="given"')
    (1, 1, 2)
    """
    m = marks(grid.n, grid.box, grid.rules)
    left, _, right, _ = m.margins
    wide = grid.n + left + right
    out = [
        '<div class="numbadlx-grid" style="display:inline-block;margin:0.3em 0">',
        svg_picture(grid, m),
        f'<div style="font-size:0.8em;font-family:sans-serif">{_esc(grid.summary())}</div>',
    ]
    for note in m.notes:
        out.append(
            f'<div class="note" style="font-size:0.8em;font-family:sans-serif;max-width:'
            f'{_f(max(wide * _pixels(grid.n), 240))}px">{_esc(note)}</div>'
        )
    out.append("</div>")
    return "".join(out)


def _pixels(n):
    """Pixels a cell at the picture's natural size."""
    return 40 if n <= 9 else 30 if n <= 16 else 22


def svg_picture(grid, m=None):
    """The ``<svg>`` element alone (a file of its own, as the docs' pictures are): the
    grid's marks ``m`` (:func:`._variant_marks.marks`, made when None) under its digits.

    Examples
    --------
    >>> from numbadlx.sudoku import Grid, Rules
    >>> svg = svg_picture(Grid("0" * 16, rules=Rules(whispers=[[0, 1, 2]])))
    >>> svg.startswith("<svg") and svg.endswith("</svg>"), svg.count('class="whisper"')
    (True, 1)
    """
    n = grid.n
    if m is None:
        m = marks(n, grid.box, grid.rules)
    pixels = _pixels(n)
    pad = 0.04
    left, top, right, bottom = m.margins
    wide, high = n + left + right, n + top + bottom
    shown_cells = grid.cells()
    shown = {k for k, (_, kind) in enumerate(shown_cells) if kind != "blank"}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(wide * pixels)}" '
        f'height="{_f(high * pixels)}" viewBox="{_f(-left - pad)} {_f(-top - pad)} '
        f'{_f(wide + 2 * pad)} {_f(high + 2 * pad)}">',
        f'<rect x="0" y="0" width="{n}" height="{n}" fill="white"/>',
    ]
    out += _layer(m, UNDER, shown)
    for x, y, w, h in m.windows:
        out.append(
            f'<rect class="window" x="{x}" y="{y}" width="{w}" height="{h}" fill="#e8eef7"/>'
        )
    for x, y in m.odd:
        out.append(f'<circle class="odd" cx="{_f(x)}" cy="{_f(y)}" r="0.4" fill="#e4e4e4"/>')
    for x, y in m.even:
        out.append(
            f'<rect class="even" x="{_f(x - 0.4)}" y="{_f(y - 0.4)}" width="0.8" '
            'height="0.8" fill="#e4e4e4"/>'
        )
    for cells in m.thermos:
        (bx, by), points = cells[0], " ".join(f"{_f(x)},{_f(y)}" for x, y in cells)
        out.append(
            f'<g class="thermo"><circle class="bulb" cx="{_f(bx)}" cy="{_f(by)}" r="0.36" '
            f'fill="{_THERMO}"/><polyline points="{points}" fill="none" '
            f'stroke="{_THERMO}" stroke-width="0.26" stroke-linecap="round" '
            'stroke-linejoin="round"/></g>'
        )
    thin = 'stroke="#bbb" stroke-width="0.02"'
    for k in range(1, n):
        out.append(_line((k, 0), (k, n), "cell-line", thin))
        out.append(_line((0, k), (n, k), "cell-line", thin))
    for a, b in m.diagonals:
        out.append(_line(a, b, "diagonal", 'stroke="#7a7a7a" stroke-width="0.025"'))
    for a, b in m.borders:
        out.append(
            _line(a, b, "border", 'stroke="#333" stroke-width="0.06" stroke-linecap="square"')
        )
    out.append(
        f'<rect x="0" y="0" width="{n}" height="{n}" fill="none" stroke="#333" '
        'stroke-width="0.08"/>'
    )
    for segments, label in m.cages:
        path = " ".join(f"M{_f(a[0])} {_f(a[1])}L{_f(b[0])} {_f(b[1])}" for a, b in segments)
        out.append(
            f'<path class="cage" d="{path}" fill="none" stroke="#444" '
            'stroke-width="0.025" stroke-dasharray="0.08 0.06"/>'
        )
        if label is not None:
            x, y, total = label
            out.append(
                f'<text class="cage-sum" x="{_f(x)}" y="{_f(y)}" font-size="0.24" '
                'dominant-baseline="hanging" font-family="sans-serif" fill="#222" '
                f'style="paint-order:stroke" stroke="white" stroke-width="0.06">'
                f"{_esc(total)}</text>"
            )
    out += _layer(m, OVER, shown)
    for x, y, colour in m.dots:
        out.append(
            f'<circle class="dot {colour}" cx="{_f(x)}" cy="{_f(y)}" r="0.11" '
            f'fill="{colour}" stroke="#111" stroke-width="0.025"/>'
        )
    for x, y, letter in m.letters:
        out.append(
            f'<text class="xv" x="{_f(x)}" y="{_f(y)}" font-size="0.34" font-weight="bold" '
            'text-anchor="middle" dominant-baseline="central" font-family="sans-serif" '
            'style="paint-order:stroke" stroke="white" stroke-width="0.08">'
            f"{_esc(letter)}</text>"
        )
    out += _layer(m, TOP, shown)
    size = 0.6 if n <= 16 else 0.5
    for cell, (value, kind) in enumerate(shown_cells):
        if kind == "blank":
            continue
        row, col = divmod(cell, n)
        weight = "normal" if kind == "filled" else "bold"
        out.append(
            f'<text class="{kind}" x="{col + 0.5}" y="{row + 0.53}" font-size="{size}" '
            f'font-weight="{weight}" text-anchor="middle" dominant-baseline="central" '
            f'font-family="sans-serif" fill="{_COLOURS[kind]}">{_esc(value)}</text>'
        )
    out.append("</svg>")
    return "".join(out)
