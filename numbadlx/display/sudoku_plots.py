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

__all__ = ["plot_grid", "plot_effort"]


def plot_grid(
    puzzle: ArrayLike | str,
    solution: ArrayLike | str | None = None,
    box: tuple[int, int] | None = None,
    ax: Any = None,
) -> Any:
    """Draw a Sudoku grid: givens in black, filled digits in blue, box borders thick.

    Parameters
    ----------
    puzzle : array_like or str
        One puzzle (anything :class:`numbadlx.sudoku.Grid` takes).
    solution : array_like or str, optional
        The filled grid.
    box : (rows, cols), optional
    ax : matplotlib Axes, optional

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
    """
    from ..sudoku import Grid

    grid = Grid(puzzle, solution, box)
    n = grid.n
    rows, cols = grid.box
    side = 0.42 * n + 0.6
    fig, ax = _axes(ax, (side, side + 0.3))
    # background: boxes shaded in a chequer so the boxes read at a glance
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
    size = max(5.0, 14.0 - 0.3 * n)
    colours = {"given": "#111", "filled": "#1d5fbf", "clash": "#c0392b"}
    for cell, (text, kind) in enumerate(grid.cells()):
        if kind == "blank":
            continue
        row, col = divmod(cell, n)
        ax.text(
            col + 0.5,
            row + 0.5,
            text,
            ha="center",
            va="center",
            fontsize=size,
            color=colours[kind],
            fontweight="bold" if kind != "filled" else "normal",
        )
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    # wrapped to the axes' width (about 12 characters an inch at 10 points), so a
    # small grid's title is not cut off
    inches = ax.get_position().width * fig.get_size_inches()[0]
    ax.set_title(textwrap.fill(grid.summary(), max(16, int(12 * inches))), fontsize=10)
    return fig


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
