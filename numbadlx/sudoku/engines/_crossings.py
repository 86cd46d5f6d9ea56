"""The crossing table of the "bits" engine, made once per rule set in Python.

Locked candidates hold between any two units that share two or more cells: a digit
whose places in unit ``A`` all lie in ``A & B`` must go there, so it leaves the cells
of ``B`` outside ``A``. The engine's own pass reads this along the boxes and lines of a
box shape; the rules that add or replace units (jigsaw regions, diagonals, windoku
windows, disjoint groups) make other such pairs, listed here for its general pass
(:func:`~numbadlx.sudoku.engines.propagate_crossing`). That pass also removes a
digit from every cell that sees all of its two or three places in a unit (its *common
peers*), which no pair of crossing units finds where a diagonal meets the rows,
columns and boxes of its cells, or where links (anti-knight, anti-king) add peers; the
table holds each cell's peers as a bit set for it. A table with neither (a classic
grid, a latin square) stays the unit table itself, so the classic kernels never see
the general pass.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["CrossTable", "crossings", "crossing_table", "peer_bits"]


class CrossTable(NamedTuple):
    """A unit table (the fields of :class:`~numbadlx.sudoku.geometry.UnitTable`, the
    same arrays) with the pairs of units that locked candidates cross.

    Attributes
    ----------
    crossings : (X, 3, n + 1) int32
        For each pair of units ``A, B`` (``A`` first in the table): row 0 the cells of
        ``A & B``, row 1 those of ``A`` outside ``B``, row 2 those of ``B`` outside
        ``A``; each row its count first, then its cells.
    peer_bits : (n * n, W) uint64
        Each cell's peers as a bit set (:func:`peer_bits`), for the eliminations by
        common peers.
    shared_from : int
        The first unit the eliminations by common peers read (from it to the last;
        the number of units for none).
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
    peer_bits: np.ndarray
    shared_from: int


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
    units so that two of them cross in two or more cells beyond a box and a line, or
    add links between cells; ``table`` itself otherwise.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules, geometry
    >>> rules = Rules(diagonals=True).checked(9)
    >>> table = crossing_table(geometry.unit_table(9, rules=rules), rules)
    >>> type(table).__name__, table.crossings.shape, table.shared_from
    ('CrossTable', (6, 3, 10), 27)
    >>> rules = Rules(anti_knight=True).checked(9)
    >>> table = crossing_table(geometry.unit_table(9, rules=rules), rules)
    >>> type(table).__name__, table.crossings.shape, table.shared_from
    ('CrossTable', (0, 3, 10), 0)
    >>> rules = Rules(latin=True).checked(9)
    >>> type(crossing_table(geometry.unit_table(9, rules=rules), rules)).__name__
    'UnitTable'
    """
    linked = len(table.links) > 0
    if not rules.unit_rules and not linked:
        return table
    found = crossings(table.units, table.n, table.has_boxes)
    if not len(found) and not linked:
        return table
    # where common peers find more than crossing units do, at a cost that pays: every
    # unit when links (anti-knight, anti-king) add peers, else the units the rules add
    # beside rows, columns and boxes (diagonals, windows, disjoint groups); none on
    # grids whose regions replace the boxes (on jigsaws it cut a tenth of the nodes
    # and added a third to the time)
    n_units = table.units.shape[0]
    if linked:
        shared_from = 0
    else:
        shared_from = 3 * table.n if table.has_boxes else n_units
    return CrossTable(*table, found, peer_bits(table.peers), min(shared_from, n_units))


def peer_bits(peers) -> np.ndarray:
    """Each cell's peers (the rows of ``peers``) as a bit set: ``(n * n, W)`` uint64,
    bit ``b`` of word ``w`` for cell ``64 w + b``.

    Examples
    --------
    >>> from numbadlx.sudoku import geometry
    >>> bits = peer_bits(geometry.unit_table(4).peers)
    >>> bits.shape, bin(int(bits[0, 0]))
    ((16, 1), '0b1000100111110')
    """
    peers = np.asarray(peers, dtype=np.int64)
    nn = peers.shape[0]
    words = (nn + 63) // 64
    member = np.zeros((nn, words * 64), dtype=bool)
    member[np.repeat(np.arange(nn), peers.shape[1]), peers.ravel()] = True
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
    out = (member.reshape(nn, words, 64).astype(np.uint64) * weights).sum(axis=2, dtype=np.uint64)
    out.flags.writeable = False
    return out
