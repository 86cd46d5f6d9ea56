"""The crossing table of the "bits" engine, made once per rule set in Python.

Locked candidates hold between any two units that share two or more cells: a digit
whose places in unit ``A`` all lie in ``A & B`` must go there, so it leaves the cells
of ``B`` outside ``A``. The engine's own pass reads this along the boxes and lines of a
box shape; the rules that add or replace units (jigsaw regions, diagonals, windoku
windows, disjoint groups) make other such pairs, listed here for its general pass
(:func:`~numbadlx.sudoku.engines.propagate_crossing`). A table without such pairs (a
classic grid, a latin square, rules on peers only) stays the unit table itself, so the
classic kernels never see the general pass.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["CrossTable", "crossings", "crossing_table"]


class CrossTable(NamedTuple):
    """A unit table (the fields of :class:`~numbadlx.sudoku.geometry.UnitTable`, the
    same arrays) with the pairs of units that locked candidates cross.

    Attributes
    ----------
    crossings : (X, 3, n + 1) int32
        For each pair of units ``A, B`` (``A`` first in the table): row 0 the cells of
        ``A & B``, row 1 those of ``A`` outside ``B``, row 2 those of ``B`` outside
        ``A``; each row its count first, then its cells.
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
    crossings: np.ndarray


def crossings(units, n: int, has_boxes: bool) -> np.ndarray:
    """The crossing rows (see :class:`CrossTable`) of every pair of the ``(U, n)``
    ``units`` that share two or more cells, in order of the pair, but for the pairs of
    a box (units ``2 n .. 3 n - 1`` when ``has_boxes``) and a row or column, which the
    engine's box pass reads already.

    Examples
    --------
    The diagonals of a 4x4 grid each cross two boxes in two cells:

    >>> import numpy as np
    >>> cells = np.arange(16).reshape(4, 4)
    >>> boxes = [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]]
    >>> units = np.concatenate([cells, cells.T, boxes, [[0, 5, 10, 15], [3, 6, 9, 12]]])
    >>> table = crossings(units, 4, True)
    >>> table.shape, table[0].tolist()
    ((4, 3, 5), [[2, 0, 5, 0, 0], [2, 1, 4, 0, 0], [2, 10, 15, 0, 0]])
    """
    units = np.asarray(units, dtype=np.int64)
    n_units = units.shape[0]
    member = np.zeros((n_units, n * n), dtype=bool)
    member[np.repeat(np.arange(n_units), n), units.ravel()] = True
    shared = member.astype(np.int32) @ member.T.astype(np.int32)
    first, second = np.nonzero(np.triu(shared >= 2, 1))
    if has_boxes:
        box = (first >= 2 * n) & (first < 3 * n) | (second >= 2 * n) & (second < 3 * n)
        line = (first < 2 * n) | (second < 2 * n)
        keep = ~(box & line)
        first, second = first[keep], second[keep]
    out = np.zeros((len(first), 3, n + 1), dtype=np.int32)
    for k, (a, b) in enumerate(zip(first.tolist(), second.tolist())):
        for row, cells in enumerate(
            (
                np.flatnonzero(member[a] & member[b]),
                np.flatnonzero(member[a] & ~member[b]),
                np.flatnonzero(member[b] & ~member[a]),
            )
        ):
            out[k, row, 0] = len(cells)
            out[k, row, 1 : 1 + len(cells)] = cells
    out.flags.writeable = False
    return out


def crossing_table(table, rules):
    """The table the "bits" engine takes for puzzles under ``rules`` (checked), from
    their unit table ``table``: a :class:`CrossTable` when the rules add or replace
    units so that two of them cross in two or more cells beyond a box and a line;
    ``table`` itself otherwise.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules, geometry
    >>> rules = Rules(diagonals=True).checked(9)
    >>> table = crossing_table(geometry.unit_table(9, rules=rules), rules)
    >>> type(table).__name__, table.crossings.shape
    ('CrossTable', (6, 3, 10))
    >>> rules = Rules(anti_knight=True).checked(9)
    >>> type(crossing_table(geometry.unit_table(9, rules=rules), rules)).__name__
    'UnitTable'
    """
    if not rules.unit_rules:
        return table
    found = crossings(table.units, table.n, table.has_boxes)
    if not len(found):
        return table
    return CrossTable(*table, found)
