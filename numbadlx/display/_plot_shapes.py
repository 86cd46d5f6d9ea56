"""The setters' marks (:class:`._rule_shapes.Shape`) drawn with Matplotlib, and the
layout of a grid's figure: a size per cell, margins for the clues outside, a one-line
title and a caption under the grid.
"""

from __future__ import annotations

import textwrap

from ._rule_shapes import OVER, TOP, UNDER

__all__ = ["draw_shapes", "ZORDER", "layout", "fit_font"]

#: the zorder of each layer (the digits are drawn at 6, above all)
ZORDER = {UNDER: 0.5, OVER: 3.5, TOP: 4.5}

# inches per cell for grids up to 15 cells wide (margins included), then smaller so the
# grid stays about 7.5 inches wide
_CELL_INCHES = 0.5
_GRID_INCHES = 7.5
# a line of 10-point caption text, in inches; the title's band
_CAPTION_LINE = 0.19
_TITLE_BAND = 0.42
# room for a one-line title at a readable size above a small grid
_LEAST_WIDTH = 3.2


def draw_shapes(ax, shapes, points, shown=frozenset()):
    """Draw ``shapes`` on ``ax``; ``points`` is the size of one cell in points (line
    widths and fonts scale with it); shapes tied to a cell in ``shown`` are skipped."""
    from matplotlib.patches import Circle, FancyBboxPatch, Polygon, Rectangle

    for shape in shapes:
        if shape.cell >= 0 and shape.cell in shown:
            continue
        z = ZORDER[shape.layer]
        fill = shape.fill if shape.fill != "none" else "none"
        edge = shape.stroke if shape.stroke != "none" else "none"
        lw = shape.width * points
        if shape.kind == "circle":
            ax.add_patch(
                Circle(shape.points[0], shape.r, facecolor=fill, edgecolor=edge, lw=lw, zorder=z)
            )
        elif shape.kind == "rect":
            (x0, y0), (x1, y1) = shape.points
            if shape.r:
                r = shape.r
                patch = FancyBboxPatch(
                    (x0 + r, y0 + r),
                    x1 - x0 - 2 * r,
                    y1 - y0 - 2 * r,
                    boxstyle=f"round,pad={r},rounding_size={r}",
                    facecolor=fill,
                    edgecolor=edge,
                    lw=lw,
                    zorder=z,
                )
            else:
                patch = Rectangle(
                    (x0, y0), x1 - x0, y1 - y0, facecolor=fill, edgecolor=edge, lw=lw, zorder=z
                )
            ax.add_patch(patch)
        elif shape.kind == "polygon":
            ax.add_patch(
                Polygon(
                    shape.points,
                    closed=True,
                    facecolor=fill,
                    edgecolor=edge,
                    lw=lw,
                    joinstyle="round",
                    zorder=z,
                )
            )
        elif shape.kind == "line":
            xs, ys = zip(*shape.points)
            ax.plot(
                xs,
                ys,
                color=edge,
                lw=lw,
                solid_capstyle="round",
                solid_joinstyle="round",
                zorder=z,
            )
        else:
            ax.text(
                *shape.points[0],
                shape.text,
                ha="center",
                va="center_baseline",
                fontsize=shape.size * points,
                fontweight="bold" if shape.bold else "normal",
                color=shape.fill,
                zorder=z,
            )


def fit_font(text, points_wide, largest=10.0, smallest=6.0):
    """A font size at which ``text`` fits on one line ``points_wide`` wide (an average
    character is about 0.56 em), from ``smallest`` to ``largest``."""
    return max(smallest, min(largest, points_wide / (0.56 * max(1, len(text)))))


def layout(wide, high, caption):
    """``(figure size, axes box, caption lines)`` of a new grid figure: ``wide`` and
    ``high`` cells (margins included), a title band above, the ``caption`` paragraphs
    wrapped below.

    Examples
    --------
    >>> size, box, lines = layout(9, 9, ["Rules: arrows, whispers."])
    >>> size, lines
    ((4.9, 5.23), ['Rules: arrows, whispers.'])
    """
    cell = min(_CELL_INCHES, _GRID_INCHES / max(wide, high))
    width = round(max(wide * cell + 0.4, _LEAST_WIDTH), 3)
    chars = max(20, int(width * 72 / (0.56 * 9)))  # 9-point caption
    lines = [line for text in caption for line in textwrap.wrap(text, chars)]
    below = 0.12 + _CAPTION_LINE * len(lines) if lines else 0.15
    height = round(high * cell + _TITLE_BAND + below, 3)
    box = (
        (width - wide * cell) / 2 / width,
        below / height,
        wide * cell / width,
        high * cell / height,
    )
    return (width, height), box, lines
