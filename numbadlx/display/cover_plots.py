"""Matplotlib pictures of exact-cover solutions and searches: N-queens and polyomino
solutions, search trees.

Matplotlib is an optional dependency, imported inside each function only. Every
function takes an optional ``ax`` to draw on and returns the
:class:`matplotlib.figure.Figure`. With ``ax=None`` a new figure is made with
``pyplot.subplots``, so Jupyter shows it at the end of the cell; assign the result
(``fig = plot_queens(...)``) to avoid seeing it twice. :mod:`numbadlx.plotting` is the
public name of these functions.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from numbadlx import problems
>>> queens = problems.n_queens(6)
>>> fig = plot_queens(queens, queens.solve())
>>> type(fig).__name__
'Figure'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.validate import check_count
from ..core.words import plural
from ._figure import axes as _axes

__all__ = ["plot_queens", "plot_pentominoes", "plot_search_tree"]


def plot_queens(problem: Any, solution: Sequence[int], ax: Any = None) -> Any:
    """Draw an N-queens solution on a coloured chessboard.

    Parameters
    ----------
    problem : ExactCover or int
        A :func:`numbadlx.problems.n_queens` problem (option ``r * n + c`` puts a
        queen on row r, column c), or the board size n.
    solution : sequence of int
        Option indices.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    if isinstance(problem, (bool, np.bool_)) or isinstance(problem, (int, np.integer)):
        n = check_count(problem, "n")  # a board size (never a bool)
    else:
        n = int(round(problem.n_options**0.5))
    fig, ax = _axes(ax, (0.5 * n + 1, 0.5 * n + 1))
    board = np.add.outer(np.arange(n), np.arange(n)) % 2
    from matplotlib.colors import ListedColormap

    ax.imshow(
        board,
        cmap=ListedColormap(["#f0d9b5", "#b58863"]),
        extent=(0, n, n, 0),
        interpolation="nearest",
    )
    rows, cols = np.divmod(np.asarray(solution, dtype=np.int64), n)
    # the glyph's size follows the size of one square on the page
    inches = ax.get_window_extent().transformed(fig.dpi_scale_trans.inverted()).width
    points = 0.7 * 72.0 * inches / n
    for r, c in zip(rows, cols):
        ax.text(
            c + 0.5,
            r + 0.55,
            "\u265b",
            ha="center",
            va="center",
            fontsize=points,
            color="#8e1b1b",
            zorder=3,
        )
    ax.set_xticks(np.arange(n) + 0.5, [chr(ord("a") + k) if n <= 26 else str(k) for k in range(n)])
    ax.set_yticks(np.arange(n) + 0.5, [str(k + 1) for k in range(n)])
    ax.tick_params(length=0)
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.set_title(f"{n} queens", fontsize=10)
    return fig


def plot_pentominoes(problem: Any, solution: Sequence[int], ax: Any = None) -> Any:
    """Draw a polyomino packing in colour, one colour and letter per piece.

    Parameters
    ----------
    problem : ExactCover
        A :func:`numbadlx.problems.pentominoes` problem: items are the pieces, then
        the board's cells row by row; ``problem.board_shape`` is ``(rows, cols)``.
    solution : sequence of int
        Option indices.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    rows, cols = problem.board_shape
    pieces = problem.n_items - rows * cols
    names = problem.item_names or [str(k) for k in range(problem.n_items)]
    board = np.full(rows * cols, -1, dtype=np.int64)
    for k in solution:
        items = problem.option(int(k))
        piece = items[items < pieces]
        board[items[items >= pieces] - pieces] = piece[0] if piece.size else -1
    fig, ax = _axes(ax, (0.5 * cols + 0.5, 0.5 * rows + 0.5))
    from matplotlib import colormaps

    palette = colormaps["tab20"].resampled(max(pieces, 1))
    image = np.ones((rows * cols, 4))
    placed = board >= 0
    image[placed] = palette(board[placed])
    ax.imshow(image.reshape(rows, cols, 4), extent=(0, cols, rows, 0), interpolation="nearest")
    grid = board.reshape(rows, cols)
    # outline each piece: a thick line wherever two neighbouring cells differ
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and grid[r, c] != grid[r, c + 1]:
                ax.plot([c + 1, c + 1], [r, r + 1], color="#222", lw=2)
            if r + 1 < rows and grid[r, c] != grid[r + 1, c]:
                ax.plot([c, c + 1], [r + 1, r + 1], color="#222", lw=2)
    for piece in np.unique(board[placed]):
        cells = np.flatnonzero(board == piece)
        r, c = np.divmod(cells, cols)
        # the letter goes in the piece's cell nearest its centre of mass
        near = np.argmin((r - r.mean()) ** 2 + (c - c.mean()) ** 2)
        ax.text(
            c[near] + 0.5,
            r[near] + 0.5,
            names[piece],
            parse_math=False,  # a name, never a formula
            ha="center",
            va="center",
            fontsize=11,
            fontweight="bold",
            color="#222",
        )
    ax.plot([0, cols, cols, 0, 0], [0, 0, rows, rows, 0], color="#222", lw=3)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


def plot_search_tree(table: Any, ax: Any = None, labels: bool | None = None) -> Any:
    """Draw the search tree of a :meth:`ExactCover.trace` table.

    Nodes are the search's levels: an inner node is labelled with the item it chose,
    an edge with the option tried; solutions are green, dead ends (an item with no
    option left) red, nodes the trace stopped before are hollow.

    Parameters
    ----------
    table : DataFrame or structured array from :meth:`numbadlx.ExactCover.trace`
    ax : matplotlib Axes, optional
    labels : bool, optional
        Write item and option names (default: when the tree has at most 60 nodes).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from numbadlx import ExactCover
    >>> fig = plot_search_tree(ExactCover([[0, 1], [0], [1]]).trace())
    >>> type(fig).__name__
    'Figure'
    """
    from .tree import search_tree

    tree = search_tree(table)
    k = len(tree)
    if labels is None:
        labels = k <= 60
    width = float(tree.x.max()) + 1 if k else 1.0
    depth = int(tree.level.max()) + 1 if k else 1
    made = ax is None
    # sized to the tree: room per leaf (wider with labels), per level, and a margin for
    # the level names on the left and the legend on the right
    per_leaf, per_level = (0.75, 0.8) if labels else (0.12, 0.35)
    size = (1.0 + max(1.0, per_leaf * width) + 1.6, 0.7 + max(1.2, per_level * depth))
    fig, ax = _axes(ax, (min(size[0], 16.0), min(size[1], 10.0)))
    for node in range(1, k):
        up = tree.parent[node]
        ax.plot(
            [tree.x[up], tree.x[node]], [tree.y[up], tree.y[node]], color="#999", lw=1, zorder=1
        )
        if labels and tree.option[node]:
            ax.text(
                0.5 * (tree.x[up] + tree.x[node]),
                0.5 * (tree.y[up] + tree.y[node]),
                tree.option[node],
                parse_math=False,  # a name, never a formula
                fontsize=8,
                ha="center",
                va="center",
                color="#1d5fbf",
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85),
                zorder=2,
            )
    style = {
        "inner": ("#dddddd", "#333"),
        "solution": ("#55a868", "#2d6a3e"),
        "dead end": ("#c44e52", "#7a2326"),
        "open": ("white", "#999"),
    }
    from matplotlib.lines import Line2D

    handles = []
    for kind, (face, edge) in style.items():
        chosen = [node for node in range(k) if tree.kind[node] == kind]
        if chosen:
            ax.scatter(
                tree.x[chosen],
                tree.y[chosen],
                s=380 if labels else max(6, min(40, 2400 / k)),
                c=face,
                edgecolors=edge,
                linewidths=1.2,
                zorder=3,
            )
            handles.append(
                Line2D(
                    [],
                    [],
                    ls="none",
                    marker="o",
                    markersize=8,
                    markerfacecolor=face,
                    markeredgecolor=edge,
                    label=f"{kind} ({len(chosen)})",
                )
            )
    if labels:
        for node in range(k):
            if tree.item[node]:
                ax.text(
                    tree.x[node],
                    tree.y[node],
                    tree.item[node],
                    parse_math=False,  # a name, never a formula
                    fontsize=8,
                    ha="center",
                    va="center",
                    zorder=4,
                )
    ax.set_yticks(-np.arange(depth), [f"level {d}" for d in range(depth)])
    ax.set_xticks([])
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    ax.set_xlim(-0.7, width - 0.3)
    ax.set_ylim(-depth + 0.5, 0.6)
    ax.legend(
        handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False
    )
    ax.set_title(f"search tree: {plural(k, 'node')}", fontsize=10)
    if made:
        fig.tight_layout()
    return fig
