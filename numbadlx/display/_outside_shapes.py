"""Clues outside the grid: little killers (a total and a small diagonal arrow) and the
numbers beside a row or a column (sandwiches, x-sums, skyscrapers).

Each clue takes one outside slot, a cell-sized square beside the grid: a row's clue the
slot left of its first cell (or right of it, when the row is read from the right), a
column's above or below, a little killer's the slot diagonally before its first cell.
Two clues never share a slot: the later one moves one slot further out. The margins are
how far the slots reach on each side (none when no clue is outside).
"""

from __future__ import annotations

from ._rule_shapes import TOP, Shape, unit

__all__ = ["outside_shapes"]

_INK = "#222"
_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _inside(r, c, n):
    return 0 <= r < n and 0 <= c < n


def _killer_slot(cells, n):
    """The little killer's slot ``(row, col)`` and its direction ``(dr, dc)`` along
    the diagonal, into the grid."""
    spots = [divmod(int(c), n) for c in cells]
    if len(spots) > 1:
        (r0, c0), (r1, c1) = spots[0], spots[1]
        steps = [(r1 - r0, c1 - c0)]
    else:
        (r0, c0) = spots[0]
        # one cell (a corner): the direction whose diagonal ends there both ways
        steps = sorted(
            _DIAGONALS,
            key=lambda d: (_inside(r0 - d[0], c0 - d[1], n), _inside(r0 + d[0], c0 + d[1], n)),
        )
    dr, dc = steps[0]
    before = (spots[0][0] - dr, spots[0][1] - dc)
    after = (spots[-1][0] + dr, spots[-1][1] + dc)
    if _inside(*before, n) and not _inside(*after, n):
        return after, (-dr, -dc)  # the clue sits at the far end, pointing back
    return before, (dr, dc)


def _line_slot(line, n):
    """A whole row's or column's slot beside its first cell, and the outward step."""
    (r0, c0), (r1, c1) = divmod(line[0], n), divmod(line[1], n)
    if r0 == r1:  # a row
        return ((r0, -1), (0, -1)) if c1 > c0 else ((r0, n), (0, 1))
    return ((-1, c0), (-1, 0)) if r1 > r0 else ((n, c0), (1, 0))


def outside_shapes(rules, n):
    """``(shapes, margins)``: the outside clues of ``rules`` (checked for ``n``) and the
    margins ``(left, top, right, bottom)`` in cells that they need.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> rules = Rules(sandwiches=[(list(range(4)), 0)], little_killers=[([4, 9, 14], 6)])
    >>> shapes, margins = outside_shapes(rules.checked(4), 4)
    >>> [(s.cls, s.text, [round(v, 2) for v in s.points[0]]) for s in shapes if s.kind == "text"]
    [('little-killer', '6', [-0.57, 0.43]), ('sandwich', '0', [-1.5, 0.5])]
    >>> margins  # the sandwich's slot was the little killer's: it moved one further out
    (2, 0, 0, 0)
    """
    taken = set()
    clues = []  # (slot, text, cls, direction of a little killer's arrow or None)

    def place(slot, step, text, cls, direction=None):
        while slot in taken:
            slot = (slot[0] + step[0], slot[1] + step[1])
        taken.add(slot)
        clues.append((slot, text, cls, direction))

    for cells, total in rules.little_killers:
        slot, (dr, dc) = _killer_slot(cells, n)
        place(slot, (-dr, -dc), str(total), "little-killer", (dc, dr))
    for name, cls in (
        ("sandwiches", "sandwich"),
        ("x_sums", "x-sum"),
        ("skyscrapers", "skyscraper"),
    ):
        for line, number in getattr(rules, name):
            slot, step = _line_slot(line, n)
            place(slot, step, str(number), cls)
    shapes = []
    for (row, col), text, cls, direction in clues:
        x, y = col + 0.5, row + 0.5
        if direction is None:
            shapes.append(Shape("text", cls, ((x, y),), text=text, size=0.42, fill=_INK, layer=TOP))
            continue
        dx, dy = unit(*direction)
        sx, sy = direction  # signs: +-1 each
        shapes.append(
            Shape(
                "text",
                cls,
                ((x - dx * 0.1, y - dy * 0.1),),
                text=text,
                size=0.36,
                fill=_INK,
                layer=TOP,
            )  # fmt: skip
        )
        tail = (x + dx * 0.3, y + dy * 0.3)
        tip = (x + dx * 0.62, y + dy * 0.62)
        head = ((tip[0] - sx * 0.13, tip[1]), tip, (tip[0], tip[1] - sy * 0.13))
        for points in ((tail, tip), head):
            shapes.append(Shape("line", "killer-arrow", points, stroke=_INK, width=0.03, layer=TOP))
    rows = [row for (row, _), *_ in clues]
    cols = [col for (_, col), *_ in clues]
    margins = (
        max([0] + [-c for c in cols]),
        max([0] + [-r for r in rows]),
        max([0] + [c - n + 1 for c in cols]),
        max([0] + [r - n + 1 for r in rows]),
    )
    return shapes, margins
