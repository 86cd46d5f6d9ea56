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
from ._rules import Rules

__all__ = ["ConstraintTable", "RELATIONS", "cage_combos", "build", "constraint_table"]

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


_UNIT_SETS = {}


def _unit_sets(units):
    """The units as cell bit sets (Python ints) and each cell's units, kept per table."""
    key = id(units)
    if key not in _UNIT_SETS or _UNIT_SETS[key][0] is not units:
        sets = [sum(1 << int(c) for c in unit) for unit in units]
        of_cell = {}
        for u, unit in enumerate(units.tolist()):
            for c in unit:
                of_cell.setdefault(c, []).append(u)
        _UNIT_SETS[key] = (units, sets, of_cell)
    return _UNIT_SETS[key][1:]


def _derived_cages(units, cages, n):
    """Cages implied by the sums (the "rule of 45"): in a unit, the cells left over by
    the cages inside it (innies), and the cells that the cages touching it hold
    outside it (outies) when they share a unit, each with its total. A unit's digits
    are 1..n, so their sum is known."""
    sets, of_cell = _unit_sets(units)
    count = len(sets)
    inside_set = [0] * count
    inside_sum = [0] * count
    touch_set = [0] * count
    touch_sum = [0] * count
    complete = [True] * count
    known = set()
    for cells, total in cages:
        mask = 0
        for c in cells:
            mask |= 1 << c
        known.add(mask)
        touched = {u for c in cells for u in of_cell[c]}
        for u in touched:
            if total is None:
                complete[u] = False
                continue
            touch_set[u] |= mask
            touch_sum[u] += total
            if mask & ~sets[u] == 0:
                inside_set[u] |= mask
                inside_sum[u] += total
    whole = n * (n + 1) // 2
    found = {}
    for u in range(count):
        covered = sets[u] & ~touch_set[u] == 0  # outies need the unit covered by cages
        for cells, total, ok in (
            (sets[u] & ~inside_set[u], whole - inside_sum[u], True),
            (touch_set[u] & ~sets[u], touch_sum[u] - whole, complete[u] and covered),
        ):
            if not ok or not cells or cells in known or cells in found:
                continue
            size = cells.bit_count()
            if size >= n:
                continue
            first = (cells & -cells).bit_length() - 1
            if not any(cells & ~sets[v] == 0 for v in of_cell[first]):
                continue  # not in one unit: the digits need not be distinct
            found[cells] = total
    out = []
    for cells, total in found.items():
        members = []
        while cells:
            low = cells & -cells
            members.append(low.bit_length() - 1)
            cells ^= low
        out.append((tuple(members), total))
    return out


def build(
    n: int,
    units: geometry.UnitTable,
    *,
    cages=(),
    thermos=(),
    pairs=None,
    odd=(),
    even=(),
    locked: bool = True,
    derive: bool = True,
) -> ConstraintTable:
    """The :class:`ConstraintTable` of ``n x n`` grids with ``units`` (a unit table) and
    constraint rules already checked (see :func:`constraint_table` for a Rules).

    Parameters
    ----------
    cages : sequence of (cells, total)
        Flat cell indices; ``total`` None for distinct digits only.
    thermos : sequence of cell sequences
        Bulb first.
    pairs : mapping of relation name (see :data:`RELATIONS`) to (a, b) pairs
    odd, even : sequences of cells
    locked : bool
        Whether locked candidates hold (the grid keeps its boxes).
    derive : bool
        Whether to add the cages the sums imply (innies and outies of each unit).

    Examples
    --------
    >>> from numbadlx.sudoku.geometry import unit_table
    >>> table = build(4, unit_table(4), cages=[((0, 1), 3)], odd=(5,), derive=False)
    >>> table.combos.tolist(), int(table.allowed[5])
    ([3], 5)
    """
    nn = n * n
    cages = [(tuple(int(c) for c in cells), total) for cells, total in cages]
    if derive:
        cages = cages + _derived_cages(units.units, cages, n)
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
        peers=units.peers,
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


def _neighbours(n):
    """Every pair of orthogonally adjacent cells, lower cell first."""
    cells = np.arange(n * n).reshape(n, n)
    across = np.stack([cells[:, :-1].ravel(), cells[:, 1:].ravel()], axis=1)
    down = np.stack([cells[:-1, :].ravel(), cells[1:, :].ravel()], axis=1)
    return tuple(map(tuple, np.concatenate([across, down]).tolist()))


def _unit_table(n, rules):
    if rules.unit_rules or rules.peer_rules:
        return geometry.unit_table(n, rules=rules)
    return geometry.unit_table(n, rules.box)


@functools.lru_cache(maxsize=64)
def _table_of(rules, n):
    units = _unit_table(n, rules)
    pairs = {kind: getattr(rules, kind) for kind in RELATIONS[:4] if getattr(rules, kind)}
    if rules.non_consecutive:
        pairs["non_consecutive"] = _neighbours(n)
    return build(
        n,
        units,
        cages=rules.cages,
        thermos=rules.thermos,
        pairs=pairs,
        odd=rules.odd,
        even=rules.even,
        locked=bool(getattr(units, "has_boxes", rules.has_boxes)),
    )


def constraint_table(rules: Rules, n: int) -> ConstraintTable:
    """The :class:`ConstraintTable` of ``n x n`` grids under ``rules`` (checked here),
    made once per rule set and size (the last 64 are kept).

    Raises ValueError naming the rule when ``rules`` do not fit ``n x n`` grids (see
    :meth:`Rules.checked <numbadlx.sudoku.Rules.checked>`).

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> table = constraint_table(Rules(cages=[([0, 1], 3)], thermos=[[4, 5, 6]]), 4)
    >>> table.cage_cells.tolist(), table.thermo_cells.tolist(), table.locked
    ([0, 1, 2, 3, 4, 5], [4, 5, 6], True)

    The cage's row and box hold 1 to 4, so their other two cells total 7: the table
    holds those cages too.

    >>> table.cage_total.tolist()
    [3, 7, 7]
    """
    return _table_of(rules.checked(n), int(n))
