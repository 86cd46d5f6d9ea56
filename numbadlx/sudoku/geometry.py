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
A grid with other units (diagonals, irregular regions) would need other tables here,
not other engines.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .shape import box_shape

__all__ = [
    "UNIT_KINDS",
    "UnitTable",
    "boxes",
    "units",
    "cell_units",
    "peers",
    "unit_table",
    "unit_tables",
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

    Attributes
    ----------
    n, box_rows, box_cols : int
        The grid size and box shape.
    units : (U, n) int32
        The cells of each unit (``U = 3 n``: rows, columns, boxes).
    peers : (n * n, P) int32
        The other cells of each cell's units.
    cell_units : (n * n, 3) int32
        The units of each cell.
    """

    n: int
    box_rows: int
    box_cols: int
    units: np.ndarray
    peers: np.ndarray
    cell_units: np.ndarray


@functools.cache
def _table(n, box_rows, box_cols):
    arrays = []
    for make in (units, peers, cell_units):
        array = make(n, box_rows, box_cols).astype(np.int32)
        array.flags.writeable = False
        arrays.append(array)
    return UnitTable(n, box_rows, box_cols, *arrays)


def unit_table(n: int, box: tuple[int, int] | None = None) -> UnitTable:
    """The :class:`UnitTable` of ``n x n`` grids with boxes of ``box`` (rows, columns;
    None: the default of :func:`~numbadlx.sudoku.box_shape`), made once per shape.

    Examples
    --------
    >>> table = unit_table(4)
    >>> table.units.shape, table.peers.shape, table.cell_units.shape
    ((12, 4), (16, 7), (16, 3))
    """
    rows, cols = box_shape(n, box)
    return _table(int(n), int(rows), int(cols))


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
