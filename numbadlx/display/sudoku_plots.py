"""Matplotlib pictures of Sudoku: a grid, and the search effort of bulk results.

Matplotlib is an optional dependency, imported inside each function only. Every
function takes an optional ``ax`` to draw on and returns the
:class:`matplotlib.figure.Figure`. With ``ax=None`` a new figure is made with
``pyplot.subplots``, so Jupyter shows it at the end of the cell; assign the result
(``fig = plot_grid(...)``) to avoid seeing it twice. :mod:`numbadlx.plotting` is the
public name of these functions.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> fig = plot_grid("1000" "0010" "0000" "0000")
>>> type(fig).__name__
'Figure'
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..core.words import plural
from ._figure import axes as _axes
from ._plot_shapes import draw_shapes as _draw_shapes
from ._plot_shapes import fit_font as _fit_font
from ._plot_shapes import layout as _layout
from ._rule_shapes import OVER, TOP, UNDER
from ._variant_marks import marks as _marks

__all__ = ["plot_grid", "plot_effort"]


def plot_grid(
    puzzle: ArrayLike | str,
    solution: ArrayLike | str | None = None,
    box: tuple[int, int] | None = None,
    ax: Any = None,
    rules: Any = None,
) -> Any:
    """Draw a Sudoku grid: givens in black, filled digits in blue, box borders thick.

    With ``rules`` (a :class:`~numbadlx.sudoku.Rules`), the marks of a variant too:
    region borders thick instead of the boxes, diagonals thin, cages dashed inside
    their cells with the total small in the first cell, thermometers grey (a bulb and a
    thick line), white and black dots and X and V on the edge between their cells, odd
    cells circled and even cells squared in grey, and the setters' rules as their tools
    draw them (arrows with bulbs and pills, coloured lines, inequality signs, minimum
    and maximum cells, quadruple circles, extra regions shaded, pencil-mark candidates;
    little killers, sandwiches, x-sums and skyscrapers in a margin outside the grid).

    A new figure is sized per cell (half an inch up to 15 cells, smaller beyond), with a
    one-line title (size, boxes, givens) and, for a variant, its rules and notes (the
    negative constraint...) in a caption under the grid. On an ``ax`` of the caller's,
    the title also names the rules and no caption is added.

    Parameters
    ----------
    puzzle : array_like or str
        One puzzle (anything :class:`numbadlx.sudoku.Grid` takes).
    solution : array_like or str, optional
        The filled grid.
    box : (rows, cols), optional
    ax : matplotlib Axes, optional
    rules : Rules, optional

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_grid("1000" "0010" "0000" "0000")
    >>> len(fig.axes[0].texts)
    2
    >>> from numbadlx.sudoku import Rules
    >>> fig = plot_grid("1000" "0010" "0000" "0000", rules=Rules(cages=[([0, 1], 3)]))
    >>> [t.get_text() for t in fig.axes[0].texts]
    ['3', '1', '1']
    """
    from ..sudoku import Grid

    grid = Grid(puzzle, solution, box, rules=rules)
    n = grid.n
    variant = grid.rules is not None and bool(grid.rules.kinds)
    m = _marks(n, grid.box, grid.rules) if variant else None
    left, top, right, bottom = m.margins if variant else (0, 0, 0, 0)
    wide, high = n + left + right, n + top + bottom
    caption = []
    if variant:
        names = ", ".join(sorted(k.replace("_", " ") for k in grid.rules.kinds))
        caption = [f"Rules: {names}.", *m.notes]
    new = ax is None
    lines = []
    if new:
        size, position, lines = _layout(wide, high, caption)
        fig, ax = _axes(None, size)
        ax.set_position(position)
    else:
        fig = ax.figure
    # points per cell, for line widths and fonts: the grid keeps its shape, so the
    # narrower of the axes' two sides sets the cell
    box, (inches_x, inches_y) = ax.get_position(), fig.get_size_inches()
    points = 72 * min(box.width * inches_x / wide, box.height * inches_y / high)
    cells = grid.cells()
    shown = frozenset(k for k, (_, kind) in enumerate(cells) if kind != "blank")
    if variant:
        _variant(ax, grid, m, points, shown)
    else:
        _boxes(ax, n, *grid.box)
    size = 0.5 * points if n <= 16 else 0.46 * points
    colours = {"given": "#111", "filled": "#1d5fbf", "clash": "#c0392b"}
    for cell, (text, kind) in enumerate(cells):
        if kind == "blank":
            continue
        row, col = divmod(cell, n)
        ax.text(
            col + 0.5,
            row + 0.5,
            text,
            ha="center",
            va="center_baseline",
            fontsize=size,
            color=colours[kind],
            fontweight="bold" if kind != "filled" else "normal",
            zorder=6,
        )
    ax.set_xlim(-left, n + right)
    ax.set_ylim(n + bottom, -top)
    ax.set_aspect("equal")
    ax.axis("off")
    # one line: the title's font shrinks to the axes' width (rules go to the caption)
    title = grid.summary(rules=not new)
    wide_points = 72 * ax.get_position().width * fig.get_size_inches()[0]
    font = _fit_font(title, wide_points)
    if not new and 0.56 * font * len(title) > wide_points:
        # a long list of rules on the caller's small axes: wrapped, as nothing else fits
        title = textwrap.fill(title, max(16, int(wide_points / (0.56 * font))))
    ax.set_title(title, fontsize=font)
    if lines:
        fig.text(
            box.x0,
            box.y0 - 0.06 / fig.get_size_inches()[1],
            "\n".join(lines),
            ha="left",
            va="top",
            fontsize=9,
            color="#333",
        )
    return fig


def _boxes(ax, n, rows, cols):
    """The classic grid: boxes shaded in a chequer, box borders thick."""
    r, c = np.divmod(np.arange(n * n), n)
    shade = ((r // rows) + (c // cols)) % 2
    ax.imshow(
        shade.reshape(n, n),
        cmap="Greys",
        vmin=0,
        vmax=6,
        extent=(0, n, n, 0),
        interpolation="nearest",
    )
    for k in range(n + 1):
        width = 2.0 if k % cols == 0 else 0.5
        ax.plot([k, k], [0, n], color="#333", lw=width)
        width = 2.0 if k % rows == 0 else 0.5
        ax.plot([0, n], [k, k], color="#333", lw=width)


def _variant(ax, grid, m, points, shown):
    """The marks of the grid's rules (see :func:`plot_grid`), under its digits."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle, Rectangle

    n = grid.n
    _draw_shapes(ax, [s for s in m.shapes if s.layer == UNDER], points, shown)
    for x, y, w, h in m.windows:
        ax.add_patch(Rectangle((x, y), w, h, color="#e8eef7", lw=0, zorder=0))
    for x, y in m.odd:
        ax.add_patch(Circle((x, y), 0.4, color="#e4e4e4", lw=0, zorder=1))
    for x, y in m.even:
        ax.add_patch(Rectangle((x - 0.4, y - 0.4), 0.8, 0.8, color="#e4e4e4", lw=0, zorder=1))
    for cells in m.thermos:
        ax.add_patch(Circle(cells[0], 0.36, color="#b8b8b8", lw=0, zorder=1))
        xs, ys = zip(*cells)
        ax.plot(xs, ys, color="#b8b8b8", lw=0.26 * points, solid_capstyle="round", zorder=1)
    grid_lines = [((k, 0), (k, n)) for k in range(n + 1)] + [((0, k), (n, k)) for k in range(n + 1)]
    ax.add_collection(LineCollection(grid_lines, colors="#bbb", linewidths=0.5, zorder=2))
    if m.diagonals:
        ax.add_collection(LineCollection(m.diagonals, colors="#7a7a7a", linewidths=0.8, zorder=2))
    outline = m.borders + [((0, 0), (n, 0)), ((n, 0), (n, n)), ((n, n), (0, n)), ((0, n), (0, 0))]
    ax.add_collection(
        LineCollection(outline, colors="#333", linewidths=2.0, capstyle="projecting", zorder=3)
    )
    for segments, label in m.cages:
        ax.add_collection(
            LineCollection(
                segments, colors="#444", linewidths=0.8, linestyles=(0, (3, 2)), zorder=3
            )
        )
        if label is not None:
            x, y, total = label
            ax.text(
                x,
                y,
                total,
                ha="left",
                va="top",
                fontsize=0.27 * points,
                color="#222",
                zorder=4,
                bbox={"boxstyle": "square,pad=0.02", "facecolor": "white", "edgecolor": "none"},
            )
    _draw_shapes(ax, [s for s in m.shapes if s.layer == OVER], points, shown)
    for x, y, colour in m.dots:
        ax.add_patch(Circle((x, y), 0.11, facecolor=colour, edgecolor="#111", lw=0.8, zorder=4))
    for x, y, letter in m.letters:
        ax.text(
            x,
            y,
            letter,
            ha="center",
            va="center",
            fontsize=0.3 * points,
            fontweight="bold",
            zorder=4,
            bbox={"boxstyle": "square,pad=0.05", "facecolor": "white", "edgecolor": "none"},
        )
    _draw_shapes(ax, [s for s in m.shapes if s.layer == TOP], points, shown)


def plot_effort(results: Any | Mapping[str, Any], bins: int = 30, ax: Any = None) -> Any:
    """Histograms of search nodes per puzzle, one panel per dataset.

    Parameters
    ----------
    results : SudokuResult or mapping of name -> SudokuResult
    bins : int, default 30
        Bins, spaced evenly on a log scale.
    ax : matplotlib Axes, optional
        Only for a single result.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from numbadlx import sudoku
    >>> fig = plot_effort(sudoku.solve(["1000" "0010" "0000" "0000"] * 3))
    >>> len(fig.axes)
    1
    """
    if hasattr(results, "nodes"):
        results = {"": results}
    results = dict(results)
    if ax is not None and len(results) != 1:
        raise ValueError("ax is only for a single result")
    if ax is None:
        from matplotlib import pyplot as plt

        fig, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 3.2), squeeze=False)
        axes = axes[0]
    else:
        fig, axes = ax.figure, [ax]
    for axis, (name, result) in zip(axes, results.items()):
        nodes = np.asarray(result.nodes)
        nodes = nodes[nodes > 0]
        low = int(nodes.min()) if nodes.size else 1
        top = max(int(nodes.max()) if nodes.size else 1, low + 1)
        if top < 4 * low:
            # a narrow range reads better on a linear axis, one bin per whole number
            # when there are few of them
            from matplotlib.ticker import MaxNLocator

            step = max(1, int(np.ceil((top - low + 1) / bins)))
            edges = np.arange(low, top + step + 1, step) - 0.5
            axis.hist(nodes, bins=edges, color="#4c72b0", edgecolor="white")
            axis.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
        else:
            from matplotlib.ticker import NullFormatter

            edges = np.geomspace(low * 0.95, top * 1.05, bins + 1)
            axis.hist(nodes, bins=edges, color="#4c72b0", edgecolor="white")
            axis.set_xscale("log")
            axis.xaxis.set_minor_formatter(NullFormatter())
        axis.set_xlabel("search nodes per puzzle")
        axis.set_ylabel("puzzles")
        if nodes.size:
            median = float(np.median(nodes))
            axis.axvline(median, color="#c44e52", lw=1.5, ls="--")
            title = f"{name}: " if name else ""
            axis.set_title(
                f"{title}{plural(nodes.size, 'puzzle', spec=',')}, median {median:,.0f}", fontsize=9
            )
    fig.tight_layout()
    return fig
