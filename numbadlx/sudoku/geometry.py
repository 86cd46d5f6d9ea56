"""Grid geometry: the one place that says which cells form a row, a column or a box.

An ``n x n`` grid with boxes of ``r`` rows and ``c`` columns has ``n^2`` cells, numbered
in reading order (``cell = row * n + column``), and ``3 n`` units, numbered rows first,
then columns, then boxes (boxes in reading order too)::

    4x4, 2x2 boxes          units (3n, n): the cells of each unit
     0  1 |  2  3             u0..u3    rows       u0 = 0 1 2 3
     4  5 |  6  7             u4..u7    columns    u4 = 0 4 8 12
    ------+------             u8..u11   boxes      u9 = 2 3 6 7
     8  9 | 10 11           cell_units (n^2, 3): the units of each cell
    12 13 | 14 15             cell 6 -> u1 (row 1), u6 (column 2), u9 (box 1)
                            peers (n^2, 2(n-1) + (r-1)(c-1)): the other cells of
                            its units, in increasing order
                              cell 0 -> 1 2 3 4 5 8 12

Everything else asks this module: the engines take these tables as one
:class:`UnitTable` (see :mod:`numbadlx.sudoku.engines`), the Python-side checks
(:func:`~numbadlx.sudoku.check_grid`, the CSV solution check) and the exact-cover
encoding (:func:`~numbadlx.sudoku.to_exact_cover`) use :func:`units` and :func:`boxes`.
A variant's :class:`~numbadlx.sudoku.Rules` on units and peers (jigsaw regions,
diagonals, windoku, disjoint groups, anti-knight, anti-king) make other tables here
(:func:`rule_units`, :func:`rule_links`), not other engines.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .shape import box_shape
from .variants import Rules

__all__ = [
    "UNIT_KINDS",
    "UnitTable",
    "boxes",
    "units",
    "cell_units",
    "peers",
    "unit_table",
    "unit_tables",
    "rule_units",
    "rule_links",
]

#: The kinds of unit, in the order the units are numbered: ``units(...)[k * n + i]`` is
#: the ``i``-th unit of kind ``UNIT_KINDS[k]``.
UNIT_KINDS = ("row", "column", "box")


def boxes(n: int, box_rows: int, box_cols: int) -> NDArray[np.int64]:
    """The box of every cell, ``(n * n,)``: boxes numbered in reading order.

    Examples
    --------
    >>> boxes(4, 2, 2).reshape(4, 4).tolist()
    [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]
    """
    row, col = np.divmod(np.arange(n * n), n)
    return (row // box_rows) * (n // box_cols) + col // box_cols


def cell_units(n: int, box_rows: int, box_cols: int) -> NDArray[np.int64]:
    """The units of every cell, ``(n * n, 3)``: its row, column and box as unit numbers
    (``row``, ``n + column``, ``2 n + box``).

    Examples
    --------
    >>> cell_units(4, 2, 2)[6].tolist()
    [1, 6, 9]
    """
    row, col = np.divmod(np.arange(n * n), n)
    return np.stack([row, n + col, 2 * n + boxes(n, box_rows, box_cols)], axis=1)


def units(n: int, box_rows: int, box_cols: int) -> NDArray[np.int64]:
    """The cells of every unit, ``(3 n, n)``: rows, then columns, then boxes, each
    unit's cells in increasing order.

    Examples
    --------
    >>> units(4, 2, 2)[[0, 4, 9]].tolist()
    [[0, 1, 2, 3], [0, 4, 8, 12], [2, 3, 6, 7]]
    """
    of_cell = cell_units(n, box_rows, box_cols)
    table = np.empty((3 * n, n), dtype=np.int64)
    for kind in range(3):
        # a stable sort by unit keeps each unit's cells in increasing order
        table[kind * n : (kind + 1) * n] = np.argsort(of_cell[:, kind], kind="stable").reshape(n, n)
    return table


def peers(n: int, box_rows: int, box_cols: int) -> NDArray[np.int64]:
    """The peers of every cell, ``(n * n, 2 (n - 1) + (r - 1)(c - 1))``: the other cells
    that share a unit with it, in increasing order.

    Examples
    --------
    >>> peers(4, 2, 2)[0].tolist()
    [1, 2, 3, 4, 5, 8, 12]
    """
    of_cell = cell_units(n, box_rows, box_cols)
    same = (of_cell[:, None, :] == of_cell[None, :, :]).any(axis=2)
    np.fill_diagonal(same, False)
    return np.stack([np.flatnonzero(line) for line in same]).astype(np.int64)


class UnitTable(NamedTuple):
    """A grid's constraints as the engines take them (read-only arrays, int32).

    Every unit holds ``n`` cells that take the ``n`` digits once each: rows, columns and
    boxes on classic grids; a variant's :class:`~numbadlx.sudoku.Rules` replace the
    boxes (jigsaw regions, none for latin squares) and add units (diagonals, windoku
    windows, disjoint groups). Anti-knight and anti-king add *links*: pairs of cells
    that share no unit but may not share a digit.

    Attributes
    ----------
    n, box_rows, box_cols : int
        The grid size and box shape (``1, n`` on a grid without a box shape).
    units : (U, n) int32
        The cells of each unit (``U = 3 n`` on classic grids: rows, columns, boxes;
        then the rules' units).
    peers : (n * n, P) int32
        The other cells of each cell's units and links, in increasing order; a cell
        with fewer than ``P`` repeats its last peer to fill the row.
    cell_units : (n * n, K) int32
        The units of each cell, in increasing order (row, column, box first); a cell
        in fewer than ``K`` units repeats its row unit to fill the row.
    links : (L, 2) int32
        The linked pairs of cells (first cell lower), none on classic grids.
    cell_links : (n * n, Q) int32
        The links of each cell (indices into ``links``), -1 filling the row.
    has_boxes : bool
        Whether ``units`` ``2 n .. 3 n - 1`` are boxes of ``box_rows x box_cols`` (what
        locked candidates read).
    """

    n: int
    box_rows: int
    box_cols: int
    units: np.ndarray
    peers: np.ndarray
    cell_units: np.ndarray
    links: np.ndarray
    cell_links: np.ndarray
    has_boxes: bool


def _frozen(array):
    array = np.ascontiguousarray(array, dtype=np.int32)
    array.flags.writeable = False
    return array


@functools.cache
def _table(n, box_rows, box_cols):
    arrays = [_frozen(make(n, box_rows, box_cols)) for make in (units, peers, cell_units)]
    links = _frozen(np.zeros((0, 2)))
    cell_links = _frozen(np.zeros((n * n, 0)))
    return UnitTable(n, box_rows, box_cols, *arrays, links, cell_links, True)


def unit_table(n: int, box: tuple[int, int] | None = None, rules: Rules | None = None) -> UnitTable:
    """The :class:`UnitTable` of ``n x n`` grids with boxes of ``box`` (rows, columns;
    None: the default of :func:`~numbadlx.sudoku.box_shape`) under ``rules`` (None:
    the classic rules), made once per shape and rule set.

    Only the rules on units and peers shape the table (regions, latin, diagonals,
    windoku, disjoint, anti-knight, anti-king); the others leave it classic.

    Examples
    --------
    >>> table = unit_table(4)
    >>> table.units.shape, table.peers.shape, table.cell_units.shape
    ((12, 4), (16, 7), (16, 3))
    >>> from numbadlx.sudoku import Rules
    >>> table = unit_table(9, rules=Rules(diagonals=True, anti_knight=True))
    >>> table.units.shape, table.cell_units[0].tolist(), table.links.shape
    ((29, 9), [0, 9, 18, 27, 0], (152, 2))
    """
    if rules is not None and (rules.unit_rules or rules.peer_rules):
        if box is not None and rules.box is None:
            rules = dataclasses.replace(rules, box=tuple(box))
        return _rules_table(int(n), _shape_only(rules.checked(n)))
    if rules is not None:
        box = rules.checked(n).box if box is None else box
    rows, cols = box_shape(n, box)
    return _table(int(n), int(rows), int(cols))


def _shape_only(rules):
    """The rules that shape the table (the others dropped), so that equal shapes share
    one cached table."""
    keep = {f: getattr(rules, f) for f in ("box", "regions", *_UNIT_FLAGS, *_PEER_FLAGS)}
    return Rules(**keep)


_UNIT_FLAGS = ("latin", "diagonals", "windoku", "disjoint")
_PEER_FLAGS = ("anti_knight", "anti_king")
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2))
_KING = ((0, 1), (1, -1), (1, 0), (1, 1))


def rule_units(n: int, rules: Rules) -> NDArray[np.int64]:
    """The cells of every unit under ``rules`` (checked for ``n``), ``(U, n)``: rows,
    columns, then the boxes or regions (none for ``latin``), then the diagonals (main,
    then anti), the windoku windows (reading order) and the disjoint groups (by
    position in the box); each unit's cells in increasing order.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> rule_units(4, Rules(latin=True, diagonals=True).checked(4))[-2:].tolist()
    [[0, 5, 10, 15], [3, 6, 9, 12]]
    """
    cells = np.arange(n * n).reshape(n, n)
    out = [cells, cells.T]
    r, c = rules.box if rules.box is not None else (1, n)
    if rules.regions is not None:
        out.append(np.argsort(rules.regions, kind="stable").reshape(n, n))
    elif not rules.latin:
        out.append(units(n, r, c)[2 * n :])
    if rules.main_diagonal:
        out.append(np.diagonal(cells)[None])
    if rules.anti_diagonal:
        out.append(np.diagonal(cells[:, ::-1])[None])
    if rules.windoku:
        windows = [
            cells[top : top + r, left : left + c].ravel()
            for top in range(1, n - r + 1, r + 1)
            for left in range(1, n - c + 1, c + 1)
        ]
        out.append(np.array(windows).reshape(-1, n))
    if rules.disjoint:
        out.append(np.sort(units(n, r, c)[2 * n :].T, axis=1))
    return np.concatenate(out).astype(np.int64)


def rule_links(n: int, rules: Rules) -> NDArray[np.int64]:
    """The pairs of cells (lower first, sorted) that anti-knight and anti-king keep
    apart, whether or not they share a unit, ``(L, 2)``.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> rule_links(4, Rules(anti_knight=True))[:3].tolist()
    [[0, 6], [0, 9], [1, 7]]
    """
    steps = (_KNIGHT if rules.anti_knight else ()) + (_KING if rules.anti_king else ())
    pairs = []
    row, col = np.divmod(np.arange(n * n), n)
    for dr, dc in steps:
        r2, c2 = row + dr, col + dc
        ok = (r2 >= 0) & (r2 < n) & (c2 >= 0) & (c2 < n)
        pairs.append(np.stack([np.arange(n * n)[ok], (r2 * n + c2)[ok]], axis=1))
    if not pairs:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.sort(np.concatenate(pairs), axis=1)
    return np.unique(pairs, axis=0).astype(np.int64)


def _padded(rows, fill):
    width = max((len(row) for row in rows), default=0)
    out = np.empty((len(rows), width), dtype=np.int64)
    for k, row in enumerate(rows):
        out[k, : len(row)] = row
        out[k, len(row) :] = fill(row)
    return out


@functools.lru_cache(maxsize=64)
def _rules_table(n, rules):
    nn = n * n
    table = rule_units(n, rules)
    of_cell = [[] for _ in range(nn)]
    for u, members in enumerate(table.tolist()):
        for cell in members:
            of_cell[cell].append(u)
    same = np.zeros((nn, nn), dtype=bool)
    for members in table:
        same[np.ix_(members, members)] = True
    pairs = rule_links(n, rules)
    near = np.zeros((nn, nn), dtype=bool)
    near[pairs[:, 0], pairs[:, 1]] = near[pairs[:, 1], pairs[:, 0]] = True
    links = pairs[~same[pairs[:, 0], pairs[:, 1]]] if len(pairs) else pairs
    peer_mask = same | near
    np.fill_diagonal(peer_mask, False)
    peer_rows = [np.flatnonzero(line) for line in peer_mask]
    cell_links = [[] for _ in range(nn)]
    for k, (a, b) in enumerate(links.tolist()):
        cell_links[a].append(k)
        cell_links[b].append(k)
    box = rules.box if rules.box is not None else (1, n)
    return UnitTable(
        n,
        int(box[0]),
        int(box[1]),
        _frozen(table),
        _frozen(_padded(peer_rows, lambda row: row[-1])),
        _frozen(_padded(of_cell, lambda row: row[0])),
        _frozen(links.reshape(-1, 2)),
        _frozen(_padded(cell_links, lambda row: -1)),
        bool(rules.has_boxes),
    )


def unit_tables(n: int, box_rows: int, box_cols: int):
    """``(units, peers, where)`` as int64 arrays: :func:`units`, :func:`peers` and
    ``where[cell] = (row, column, box)``, each counted from 0 within its kind.

    Examples
    --------
    >>> units_, peers_, where = unit_tables(4, 2, 2)
    >>> units_.shape, peers_.shape, units_[8].tolist(), where[5].tolist()
    ((12, 4), (16, 7), [0, 1, 4, 5], [1, 1, 0])
    """
    where = cell_units(n, box_rows, box_cols) - np.array([0, n, 2 * n])
    return units(n, box_rows, box_cols), peers(n, box_rows, box_cols), where
