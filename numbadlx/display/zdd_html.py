"""The Jupyter view of a :class:`numbadlx.core.zdd.ZDD`: its numbers, and for a small
diagram a picture in inline SVG (no Matplotlib needed).

Nodes are drawn in rows by their height (the longest path down to a terminal), the
root on top and the terminals ``0`` and ``1`` at the bottom; a solid line leads to
``hi`` (the option taken), a dashed one to ``lo`` (left out).
"""

from __future__ import annotations

from typing import Any

from ..core.words import plural
from ._escape import text as _esc

__all__ = ["zdd_html", "zdd_svg", "ZDD_PICTURE_MAX_NODES"]

#: Diagrams with more decision nodes than this are described, not drawn.
ZDD_PICTURE_MAX_NODES = 60

_DX, _DY, _R = 70, 60, 16


def zdd_svg(zdd: Any, max_nodes: int = ZDD_PICTURE_MAX_NODES) -> str:
    """The diagram as an SVG picture (a string); ValueError beyond ``max_nodes``.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> svg = zdd_svg(ExactCover([[0, 1], [0], [1]]).zdd())
    >>> svg.startswith("<svg") and svg.count("<circle") == 3
    True
    """
    if zdd.size > max_nodes:
        raise ValueError(
            f"the diagram has {plural(zdd.size, 'node')}, more than max_nodes={max_nodes}"
        )
    table = zdd.nodes
    n = table.shape[0]
    height = [0] * n
    for z in range(2, n):  # children are numbered before their parents
        height[z] = 1 + max(height[table[z, 1]], height[table[z, 2]])
    rows: dict[int, list[int]] = {}
    for z in range(n):
        rows.setdefault(height[z], []).append(z)
    top = max(rows)
    width = max(len(members) for members in rows.values())
    place = {}
    for level, members in rows.items():
        offset = (width - len(members)) * _DX / 2
        for k, z in enumerate(members):
            place[z] = (offset + _DX * (k + 0.5), _DY * (top - level + 0.5))
    names = zdd.option_names
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * _DX}" '
        f'height="{(top + 1) * _DY}" font-family="sans-serif" font-size="11">'
    ]
    for z in range(2, n):
        x, y = place[z]
        for child, dash in ((int(table[z, 1]), ' stroke-dasharray="4 3"'), (int(table[z, 2]), "")):
            cx, cy = place[child]
            parts.append(
                f'<line x1="{x:.0f}" y1="{y:.0f}" x2="{cx:.0f}" y2="{cy:.0f}" stroke="#555"{dash}/>'
            )
    for z in range(n):
        x, y = place[z]
        if z < 2:
            parts.append(
                f'<rect x="{x - 10:.0f}" y="{y - 10:.0f}" width="20" height="20" '
                f'fill="#eee" stroke="#333"/><text x="{x:.0f}" y="{y + 4:.0f}" '
                f'text-anchor="middle">{z}</text>'
            )
            continue
        option = int(table[z, 0])
        label = str(option) if names is None else names[option]
        label = label if len(label) <= 10 else label[:9] + "…"
        parts.append(
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{_R}" fill="#fff" stroke="#333">'
            f"<title>{_esc(str(option if names is None else names[option]))}</title>"
            f'</circle><text x="{x:.0f}" y="{y + 4:.0f}" text-anchor="middle">'
            f"{_esc(label)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def zdd_html(zdd: Any) -> str:
    """HTML for Jupyter: solutions, nodes, subproblems, and the picture when small.

    Examples
    --------
    >>> from numbadlx import problems
    >>> text = zdd_html(problems.domino_tilings(8, 8).zdd())
    >>> "12,988,816 solutions" in text and "<svg" not in text
    True
    """
    summary = (
        f"<p>ZDD: {plural(zdd.count(), 'solution', spec=',')}, "
        f"{plural(zdd.size, 'node', spec=',')}, "
        f"{plural(zdd.subproblems, 'subproblem', spec=',')} searched</p>"
    )
    if zdd.size > ZDD_PICTURE_MAX_NODES:
        return summary
    return summary + zdd_svg(zdd)
