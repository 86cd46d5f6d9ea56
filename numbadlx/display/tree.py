"""The tree a traced search walked, rebuilt from a trace table for drawing.

:func:`numbadlx.core.trace.trace` records the search as a flat table of events;
:func:`search_tree` turns it into a :class:`SearchTree` (parents, levels, labels and a
layout), which :func:`numbadlx.plotting.plot_search_tree` draws.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.words import plural

__all__ = ["SearchTree", "search_tree"]


class SearchTree:
    """The tree a traced search walked, one entry per search node (root first).

    Attributes
    ----------
    parent : (k,) int array, -1 for the root
    level : (k,) int array
    item : list of str, the item chosen at each node ('' at a solution or open leaf)
    option : list of str, the option on the edge from the parent ('' for the root)
    kind : list of str, ``'inner'``, ``'solution'``, ``'dead end'`` (an item with no
        option left) or ``'open'`` (the trace stopped before the node was explored)
    x, y : (k,) float arrays, a layout: leaves spaced 1 apart in search order, an
        inner node centred over its children, ``y = -level``
    """

    def __init__(self, parent, level, item, option, kind):
        self.parent = np.asarray(parent, dtype=np.int64)
        self.level = np.asarray(level, dtype=np.int64)
        self.item = item
        self.option = option
        self.kind = kind
        self.x, self.y = self._layout()

    def __len__(self):
        return self.parent.size

    def _layout(self):
        k = len(self)
        children = [[] for _ in range(k)]
        for node in range(1, k):
            children[self.parent[node]].append(node)
        x = np.zeros(k)
        next_leaf = 0.0
        # nodes were created in depth-first order: leaves left to right, and every
        # child after its parent, so a backward sweep places parents over children
        for node in range(k):
            if not children[node]:
                x[node] = next_leaf
                next_leaf += 1.0
        for node in range(k - 1, -1, -1):
            if children[node]:
                x[node] = 0.5 * (x[children[node][0]] + x[children[node][-1]])
        return x, -self.level.astype(float)

    def __repr__(self):
        kinds = {
            name: self.kind.count(name)
            for name in ("inner", "solution", "dead end", "open")
            if name in self.kind
        }
        text = ", ".join(f"{v} {k}" for k, v in kinds.items())  # kinds of node, not nouns
        return f"SearchTree({plural(len(self), 'node')}: {text})"


def _number(value):
    """An integer, or -1 for a missing value (pandas' NA or NaN)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _texts(column):
    return column.tolist() if hasattr(column, "tolist") else list(column)


def search_tree(table: Any) -> SearchTree:
    """Rebuild the search tree from a :func:`~numbadlx.core.trace.trace` table.

    Each ``try`` at level L adds a child under the current node of level L; a
    ``choose`` names the current node's item; ``solution`` and ``backtrack`` close
    a node.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> from numbadlx.core.trace import trace
    >>> tree = search_tree(trace(ExactCover([[0, 1], [0], [1]]), as_frame=False))
    >>> tree
    SearchTree(4 nodes: 2 inner, 2 solution)
    >>> tree.parent.tolist(), tree.option
    ([-1, 0, 0, 2], ['', '0 1', '0', '1'])
    """
    events = [str(e) for e in np.asarray(table["event"])]
    levels = np.asarray(table["level"]).tolist()
    # a DataFrame marks what does not apply as missing, a structured array as -1
    options = [_number(v) for v in np.asarray(table["option"]).tolist()]
    branches = [_number(v) for v in np.asarray(table["branches"]).tolist()]
    item_names = [v if isinstance(v, str) else "" for v in _texts(table["item_name"])]
    option_names = [v if isinstance(v, str) else "" for v in _texts(table["option_name"])]
    parent, level, item, option, kind = [-1], [0], [""], [""], ["open"]
    path = [0]  # path[L] is the current node at level L
    for e, lev, name, opt_name, opt, width in zip(
        events, levels, item_names, option_names, options, branches
    ):
        del path[lev + 1 :]
        node = path[lev]
        if e == "choose":
            item[node] = name
            kind[node] = "dead end" if width == 0 else "inner"
        elif e == "try":
            parent.append(node)
            level.append(lev + 1)
            item.append("")
            option.append(opt_name if opt >= 0 else "(none)")
            kind.append("open")
            path.append(len(parent) - 1)
        elif e == "solution":
            kind[node] = "solution"
    return SearchTree(parent, level, item, option, kind)
