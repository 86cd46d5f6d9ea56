"""The constraint table of the "cages" engine, made once per rule set in Python.

The engine (``numbadlx/sudoku/engines/_cages.py``) reads the unit table's fields and
the rule arrays of :class:`ConstraintTable`; this module turns cages, thermos, pairs
and odd/even cells into them: each cage's digit sets of its size that reach its total
(bit masks), the cage mates added to each cell's peers (a cage's digits are
distinct), and one row of allowed neighbour digits per kind of pair.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from .. import geometry

__all__ = ["ConstraintTable", "RELATIONS", "cage_combos", "constraint_table"]

#: The relations between two cells, in the order of the engine's ``relation`` rows.
RELATIONS = ("white_dots", "black_dots", "x_pairs", "v_pairs", "non_consecutive")


class ConstraintTable(NamedTuple):
    """A grid's units and constraint rules as the "cages" engine takes them
    (read-only arrays; see the engine module for each field)."""

    n: int
    box_rows: int
    box_cols: int
    units: np.ndarray
    peers: np.ndarray
    cell_units: np.ndarray
    locked: bool
    allowed: np.ndarray
    cage_start: np.ndarray
    cage_cells: np.ndarray
    combo_start: np.ndarray
    combos: np.ndarray
    cage_total: np.ndarray
    thermo_start: np.ndarray
    thermo_cells: np.ndarray
    pair_a: np.ndarray
    pair_b: np.ndarray
    pair_rel: np.ndarray
    relation: np.ndarray


def _allowed_beside(kind: str, d: int, e: int) -> bool:
    if kind == "white_dots":
        return abs(d - e) == 1
    if kind == "black_dots":
        return d == 2 * e or e == 2 * d
    if kind == "x_pairs":
        return d + e == 10
    if kind == "v_pairs":
        return d + e == 5
    return abs(d - e) != 1  # non_consecutive


@functools.cache
def _relation(n: int) -> np.ndarray:
    table = np.zeros((len(RELATIONS), n), dtype=np.uint64)
    for r, kind in enumerate(RELATIONS):
        for d in range(1, n + 1):
            bits = sum(1 << (e - 1) for e in range(1, n + 1) if _allowed_beside(kind, d, e))
            table[r, d - 1] = bits
    table.flags.writeable = False
    return table


@functools.cache
def _subsets(n: int):
    """Every digit set of 1..n as a mask, with its size and sum (n <= 16)."""
    masks = np.arange(1 << n, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(n)) & 1
    return masks, bits.sum(axis=1), bits @ np.arange(1, n + 1)


@functools.cache
def cage_combos(n: int, size: int, total: int) -> tuple[int, ...]:
    """The digit sets (bit ``d - 1`` for digit ``d``) of ``size`` distinct digits of
    1..n that sum to ``total``.

    Examples
    --------
    >>> [bin(m) for m in cage_combos(9, 2, 4)]
    ['0b101']
    >>> len(cage_combos(9, 3, 15))
    8
    """
    if n <= 16:
        masks, sizes, sums = _subsets(n)
        return tuple(int(m) for m in masks[(sizes == size) & (sums == total)])
    found = []
    stack = [(0, 0, 0, 1)]  # mask, count, sum, next digit
    while stack:
        mask, count, got, digit = stack.pop()
        if count == size:
            if got == total:
                found.append(mask)
            continue
        for d in range(digit, n + 1):
            if got + d > total:
                break
            stack.append((mask | 1 << (d - 1), count + 1, got + d, d + 1))
    return tuple(sorted(found))


def _readonly(array, dtype):
    array = np.ascontiguousarray(array, dtype=dtype)
    array.flags.writeable = False
    return array


def _csr(groups):
    start = np.zeros(len(groups) + 1, dtype=np.int32)
    start[1:] = np.cumsum([len(g) for g in groups])
    flat = [x for g in groups for x in g]
    return _readonly(start, np.int32), _readonly(np.array(flat, dtype=np.int64), np.int32)


def _widen_peers(peers, cages, nn):
    """Each cell's peers with its cage mates added; rows padded with a repeat."""
    extra = [[] for _ in range(nn)]
    for cells, _ in cages:
        for a in cells:
            extra[a].extend(b for b in cells if b != a)
    rows = []
    for cell in range(nn):
        known = set(peers[cell].tolist())
        rows.append(list(peers[cell]) + sorted({b for b in extra[cell] if b not in known}))
    width = max(len(r) for r in rows)
    table = np.empty((nn, width), dtype=np.int32)
    for cell, row in enumerate(rows):
        table[cell, : len(row)] = row
        table[cell, len(row) :] = row[0]  # a repeat changes nothing
    table.flags.writeable = False
    return table


def constraint_table(
    n: int,
    units: geometry.UnitTable | None = None,
    *,
    cages=(),
    thermos=(),
    pairs=None,
    odd=(),
    even=(),
    locked: bool | None = None,
) -> ConstraintTable:
    """The :class:`ConstraintTable` of ``n x n`` grids with ``units`` (a unit table;
    None: rows, columns and the default boxes) and checked constraint rules.

    Parameters
    ----------
    cages : sequence of (cells, total)
        Flat cell indices; ``total`` None for distinct digits only.
    thermos : sequence of cell sequences
        Bulb first.
    pairs : mapping of relation name (see :data:`RELATIONS`) to (a, b) pairs
    odd, even : sequences of cells
    locked : bool or None
        Whether locked candidates hold (the units' boxes are the box shape's); None:
        when ``units`` has the three kinds of unit only.

    Examples
    --------
    >>> table = constraint_table(4, cages=[((0, 1), 3)], odd=(5,))
    >>> table.combos.tolist(), int(table.allowed[5])
    ([3], 5)
    """
    if units is None:
        units = geometry.unit_table(n)
    nn = n * n
    if locked is None:
        locked = units.units.shape[0] == 3 * n
    cages = [(tuple(int(c) for c in cells), total) for cells, total in cages]
    combos = [
        cage_combos(n, len(cells), int(total)) if total is not None else ()
        for cells, total in cages
    ]
    cage_start, cage_cells = _csr([cells for cells, _ in cages])
    combo_start, _ = _csr(combos)
    flat = np.array([m for group in combos for m in group], dtype=np.uint64)
    totals = [-1 if total is None else int(total) for _, total in cages]
    thermo_start, thermo_cells = _csr([tuple(t) for t in thermos])
    a, b, rel = [], [], []
    for kind, items in (pairs or {}).items():
        r = RELATIONS.index(kind)
        for x, y in items:
            a.append(int(x))
            b.append(int(y))
            rel.append(r)
    full = (1 << n) - 1
    odd_bits = sum(1 << (d - 1) for d in range(1, n + 1, 2))
    allowed = np.full(nn, full, dtype=np.uint64)
    allowed[list(odd)] &= np.uint64(odd_bits)
    allowed[list(even)] &= np.uint64(full & ~odd_bits)
    return ConstraintTable(
        n=units.n,
        box_rows=units.box_rows,
        box_cols=units.box_cols,
        units=units.units,
        peers=_widen_peers(units.peers, cages, nn) if cages else units.peers,
        cell_units=units.cell_units,
        locked=bool(locked),
        allowed=_readonly(allowed, np.uint64),
        cage_start=cage_start,
        cage_cells=cage_cells,
        combo_start=combo_start,
        combos=_readonly(flat, np.uint64),
        cage_total=_readonly(np.array(totals, dtype=np.int64), np.int32),
        thermo_start=thermo_start,
        thermo_cells=thermo_cells,
        pair_a=_readonly(np.array(a, dtype=np.int64), np.int32),
        pair_b=_readonly(np.array(b, dtype=np.int64), np.int32),
        pair_rel=_readonly(np.array(rel, dtype=np.int64), np.int32),
        relation=_relation(n),
    )
