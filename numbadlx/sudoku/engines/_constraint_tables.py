"""The constraint table of the "cages" engine, made once per rule set in Python.

The engine (:mod:`._cages`) reads the unit table's fields and
the rule arrays of :class:`ConstraintTable`; this module turns cages, thermos, pairs
and odd/even cells into them: each cage's digit sets of its size that reach its total
(bit masks), the cage mates added to each cell's peers (a cage's digits are
distinct), and one row of allowed neighbour digits per kind of pair.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

import numpy as np
from numba import njit

from ..variants import Rules
from . import _rule_tables as rule_tables
from ._line_tables import LineTable, line_table, no_lines

__all__ = ["ConstraintTable", "RELATIONS", "cage_combos", "build", "constraint_table"]

#: The relations between two cells of the classic rules (the names ``build`` takes).
RELATIONS = ("white_dots", "black_dots", "x_pairs", "v_pairs", "non_consecutive")

#: Sums whose open cells have at most this product of candidate counts are enumerated
#: for exact support (see :mod:`._sums`).
SUM_EXACT = 512


def _totals_fields(lines):
    """``(total_line, total_seg, total_cells)`` of region-sum lines given as their
    segments (see :mod:`._line_totals`)."""
    seg_start, cells = _csr([piece for pieces in lines for piece in pieces])
    line_start, _ = _csr([[0] * len(pieces) for pieces in lines])
    return line_start, seg_start, cells


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
    pair_back: np.ndarray
    sum_start: np.ndarray
    sum_cells: np.ndarray
    sum_coef: np.ndarray
    sum_group: np.ndarray
    sum_total: np.ndarray
    sum_exact: int
    tri_mid: np.ndarray
    tri_a: np.ndarray
    tri_b: np.ndarray
    tri_ra: np.ndarray
    tri_rb: np.ndarray
    # outside clues, lines, quadruples: the fields of a LineTable (see _line_tables)
    line_kind: np.ndarray
    line_number: np.ndarray
    line_start: np.ndarray
    line_cells: np.ndarray
    line_need: np.ndarray
    line_sets: np.ndarray
    line_set_start: np.ndarray
    # region-sum lines by their shared total (see _line_totals)
    total_line: np.ndarray
    total_seg: np.ndarray
    total_cells: np.ndarray


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
    start = [0]
    flat = []
    for group in groups:
        flat.extend(group)
        start.append(len(flat))
    return _readonly(start, np.int32), _readonly(flat, np.int32)


@njit(cache=True, nogil=True)
def _derive(n, units, cage_start, cage_cells, totals):
    """Cages implied by the sums (the "rule of 45"): in each unit, the cells left over
    by the cages inside it (innies, totalling the unit's sum less theirs), and, when
    cages with totals cover the unit, the cells they hold outside it (outies, totalling
    theirs less the unit's). A set is kept when it has fewer than ``n`` cells, lies in
    one unit (so its digits are distinct) and is no cage already. Returns
    ``(cells (D, n), sizes (D,), totals (D,))``, each set's cells in increasing order."""
    nn = n * n
    n_units = units.shape[0]
    n_cages = totals.shape[0]
    whole = n * (n + 1) // 2
    cage_of = np.full(nn, -1, dtype=np.int64)
    for c in range(n_cages):
        for k in range(cage_start[c], cage_start[c + 1]):
            cage_of[cage_cells[k]] = c
    in_unit = np.zeros((n_units, nn), dtype=np.bool_)
    for u in range(n_units):
        for k in range(n):
            in_unit[u, units[u, k]] = True
    count = np.zeros(n_cages, dtype=np.int64)
    found = np.zeros((2 * n_units, n), dtype=np.int64)
    sizes = np.zeros(2 * n_units, dtype=np.int64)
    sums = np.zeros(2 * n_units, dtype=np.int64)
    kept = 0
    candidate = np.empty(nn, dtype=np.int64)
    for u in range(n_units):
        for k in range(n):
            c = cage_of[units[u, k]]
            if c >= 0:
                count[c] += 1
        for kind in range(2):
            size = 0
            total = whole if kind == 0 else -whole
            covered = True
            for k in range(n):
                cell = units[u, k]
                c = cage_of[cell]
                whole_cage = (
                    c >= 0 and totals[c] >= 0 and count[c] == cage_start[c + 1] - cage_start[c]
                )
                if kind == 0:
                    if not whole_cage:
                        candidate[size] = cell
                        size += 1
                    elif cell == cage_cells[cage_start[c]]:
                        total -= totals[c]  # once per cage inside: at its first cell
                    continue
                if c < 0 or totals[c] < 0:
                    covered = False
                    break
                first = True  # the cage's first cell in this unit adds it once
                for j in range(k):
                    if cage_of[units[u, j]] == c:
                        first = False
                        break
                if not first:
                    continue
                total += totals[c]
                for j in range(cage_start[c], cage_start[c + 1]):
                    if not in_unit[u, cage_cells[j]]:
                        candidate[size] = cage_cells[j]
                        size += 1
            if not covered or size == 0 or size >= n:
                continue
            # in increasing order (an insertion sort: a set holds fewer than n cells,
            # and np.sort would be compiled for this one call)
            for j in range(1, size):
                cell = candidate[j]
                i = j
                while i > 0 and candidate[i - 1] > cell:
                    candidate[i] = candidate[i - 1]
                    i -= 1
                candidate[i] = cell
            cells = candidate[:size]
            one_unit = False
            for v in range(n_units):
                inside = True
                for j in range(size):
                    if not in_unit[v, cells[j]]:
                        inside = False
                        break
                if inside:
                    one_unit = True
                    break
            if not one_unit:
                continue
            c = cage_of[cells[0]]
            same = c >= 0 and cage_start[c + 1] - cage_start[c] == size
            for j in range(size):
                if cage_of[cells[j]] != c:
                    same = False
                    break
            if same:
                continue  # a cage already
            for d in range(kept):
                if sizes[d] == size:
                    same = True
                    for j in range(size):
                        if found[d, j] != cells[j]:
                            same = False
                            break
                    if same:
                        break
            if same:
                continue
            for j in range(size):  # a loop: a slice assignment compiles its shape error
                found[kept, j] = cells[j]
            sizes[kept] = size
            sums[kept] = total
            kept += 1
        for k in range(n):
            c = cage_of[units[u, k]]
            if c >= 0:
                count[c] = 0
    return found[:kept], sizes[:kept], sums[:kept]


def _derived_cages(units, cages, n):
    """The cages :func:`_derive` finds, as ``(cells, total)`` pairs."""
    starts = [0]
    flat = []
    for cells, _ in cages:
        flat.extend(cells)
        starts.append(len(flat))
    totals = np.array([-1 if t is None else t for _, t in cages], dtype=np.int64)
    found, sizes, sums = _derive(
        n,
        units,
        np.array(starts, dtype=np.int64),
        np.array(flat, dtype=np.int64),
        totals,
    )
    return [
        (tuple(row[:size]), total)
        for row, size, total in zip(found.tolist(), sizes.tolist(), sums.tolist())
    ]


def _fits_quadruples(combo, cells, quadruples):
    """Whether a cage's digit set ``combo`` (bit ``d - 1``) leaves room for the listed
    digits of each quadruple its ``cells`` meet: the ``i`` cells of the cage in the
    square hold ``i`` distinct digits of the set, so they meet at most
    ``min(i, listed digits in the set)`` of the listed places, and the square's other
    ``4 - i`` cells one each of the rest."""
    for four, digits in quadruples:
        inside = len(set(cells) & set(four))
        if inside == 0:
            continue
        hits = sum(1 for d in set(digits) if combo >> (d - 1) & 1)
        if len(digits) - min(inside, hits) > 4 - inside:
            return False
    return True


def build(
    n: int,
    units,
    *,
    cages=(),
    thermos=(),
    pairs=None,
    odd=(),
    even=(),
    locked: bool = True,
    derive: bool = True,
    relations=(),
    sums=(),
    extra_regions=(),
    candidates=(),
    sum_exact: int = SUM_EXACT,
    sum_groups: bool = True,
    triples: bool = True,
    lines: LineTable | None = None,
    line_totals=None,
    quadruples=(),
) -> ConstraintTable:
    """The :class:`ConstraintTable` of ``n x n`` grids with ``units`` (a unit table,
    :class:`~numbadlx.sudoku.geometry.UnitTable`) and
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
    relations : sequence of (a, b, key)
        Relations between two cells, by key (see :mod:`._rule_tables`).
    sums : sequence of (terms, total)
        Linear sums, ``terms`` a sequence of ``(cell, coefficient)``.
    extra_regions : sequence of cell sequences
        Groups of distinct digits: their cells become peers (a group of ``n`` cells a
        unit).
    candidates : sequence of (cell, digits)
        The digits a cell may hold.
    sum_exact : int
        Sums whose open cells have at most this product of candidate counts are
        enumerated (exact support); 0: bounds only.
    sum_groups : bool
        Whether a sum's cells that are peers count as distinct in its bounds.
    triples : bool
        Whether relations that meet in a cell are checked together (see
        :mod:`._relations`).
    lines : LineTable, optional
        The outside clues, lines and quadruples (:func:`~._line_tables.line_table`);
        None: none.
    line_totals : tuple of three int32 arrays, optional
        The region-sum lines' segments, ``(total_line, total_seg, total_cells)`` (see
        :mod:`._line_totals`); None: none.
    quadruples : sequence of (four cells, digits)
        The quadruples, whose listed digits narrow the digit sets of the cages that
        meet them (the quadruples themselves are rows of ``lines``).

    Examples
    --------
    >>> from numbadlx.sudoku.geometry import unit_table
    >>> table = build(4, unit_table(4), cages=[((0, 1), 3)], odd=(5,), derive=False)
    >>> table.combos.tolist(), int(table.allowed[5])
    ([3], 5)
    """
    cages = [(tuple(map(int, cells)), total) for cells, total in cages]
    if derive and cages:
        cages += _derived_cages(units.units, cages, n)
    combos = [() if t is None else cage_combos(n, len(cells), int(t)) for cells, t in cages]
    if quadruples:
        # a cage inside a quadruple holds most of its listed digits: on the published
        # "Boxes" (killer cages in quadruples), 215 nodes instead of 305,347
        combos = [
            tuple(m for m in sets if _fits_quadruples(m, cells, quadruples))
            for (cells, _), sets in zip(cages, combos)
        ]
    cage_start, cage_cells = _csr([cells for cells, _ in cages])
    combo_start, _ = _csr(combos)
    flat = np.fromiter(itertools.chain.from_iterable(combos), dtype=np.uint64)
    flat.flags.writeable = False
    totals = [-1 if total is None else int(total) for _, total in cages]
    thermo_start, thermo_cells = _csr(thermos)
    if extra_regions:
        unit_cells, peers, cell_units = rule_tables.extra_units(units, extra_regions)
    else:
        unit_cells, peers, cell_units = units.units, units.peers, units.cell_units
    listed = [(x, y, (kind,)) for kind, items in (pairs or {}).items() for x, y in items]
    listed += list(relations)
    peer_sets = [set(row) for row in peers.tolist()] if listed or sums else None
    # a relation between peers also keeps their digits apart (an X pair in one row is
    # no 5 and 5)
    listed = [(x, y, ("distinct", key) if y in peer_sets[x] else key) for x, y, key in listed]
    relation, a, b, forward, backward = rule_tables.relation_rows(n, listed)
    tri = []
    if triples and len(a) > 1:
        tri = rule_tables.relation_triples(n, relation, a, b, forward, backward, peer_sets)
    tri_cols = [_readonly([t[k] for t in tri], np.int32) for k in range(5)]
    sum_cells, sum_coef, sum_group, sum_total = [], [], [], []
    for terms, total in sums:
        cells, coefs, ids = rule_tables.sum_groups(terms, peer_sets, grouped=bool(sum_groups))
        sum_cells.append(cells)
        sum_coef += coefs
        sum_group += ids
        sum_total.append(int(total))
    sum_start, sum_flat = _csr(sum_cells)
    return ConstraintTable(
        n=units.n,
        box_rows=units.box_rows,
        box_cols=units.box_cols,
        units=unit_cells,
        peers=peers,
        cell_units=cell_units,
        locked=bool(locked),
        allowed=rule_tables.candidate_masks(_allowed(n, tuple(odd), tuple(even)), candidates),
        cage_start=cage_start,
        cage_cells=cage_cells,
        combo_start=combo_start,
        combos=flat,
        cage_total=_readonly(totals, np.int32),
        thermo_start=thermo_start,
        thermo_cells=thermo_cells,
        pair_a=_readonly(a, np.int32),
        pair_b=_readonly(b, np.int32),
        pair_rel=_readonly(forward, np.int32),
        relation=_readonly(relation, np.uint64),
        pair_back=_readonly(backward, np.int32),
        sum_start=sum_start,
        sum_cells=sum_flat,
        sum_coef=_readonly(sum_coef, np.int64),
        sum_group=_readonly(sum_group, np.int32),
        sum_total=_readonly(sum_total, np.int64),
        sum_exact=int(sum_exact),
        tri_mid=tri_cols[0],
        tri_a=tri_cols[1],
        tri_b=tri_cols[2],
        tri_ra=tri_cols[3],
        tri_rb=tri_cols[4],
        **(no_lines() if lines is None else lines)._asdict(),
        **dict(zip(("total_line", "total_seg", "total_cells"), line_totals or _totals_fields([]))),
    )


@functools.lru_cache(maxsize=16)
def _allowed(n, odd, even):
    """The digits each cell may hold: all, the odd ones or the even ones."""
    full = (1 << n) - 1
    odd_bits = sum(1 << (d - 1) for d in range(1, n + 1, 2))
    allowed = np.full(n * n, full, dtype=np.uint64)
    allowed[list(odd)] &= np.uint64(odd_bits)
    allowed[list(even)] &= np.uint64(full & ~odd_bits)
    allowed.flags.writeable = False
    return allowed


def constraint_table(units, rules: Rules, **options) -> ConstraintTable:
    """The :class:`ConstraintTable` of grids with the unit table ``units`` (of the
    rules, :func:`~numbadlx.sudoku.geometry.unit_table`) under ``rules`` (checked for
    the grid's size): what the "cages" engine's kernels take.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules, geometry
    >>> rules = Rules(cages=[([0, 1], 3)], thermos=[[4, 5, 6]]).checked(4)
    >>> table = constraint_table(geometry.unit_table(4, rules=rules), rules)
    >>> table.cage_cells.tolist(), table.thermo_cells.tolist(), table.locked
    ([0, 1, 2, 3, 4, 5], [4, 5, 6], True)

    The cage's row and box hold 1 to 4, so their other two cells total 7: the table
    holds those cages too.

    >>> table.cage_total.tolist()
    [3, 7, 7]
    """
    n = units.n
    pairs = {kind: getattr(rules, kind) for kind in RELATIONS[:4] if getattr(rules, kind)}
    if rules.non_consecutive:
        pairs["non_consecutive"] = rule_tables.neighbours(n)
    # a two-cell thermometer is an inequality sign: held as a "greater" relation (arc
    # consistency, checked with the relations that meet it in a cell, and an ordering
    # step like a thermometer's); on the inequality Sudokus of benchmarks/inequality.py
    # stated as thermometers, 0.74 CPU s instead of 1.09 (96,015 nodes, 96,043 before)
    signs = [(line[1], line[0], ("greater",)) for line in rules.thermos if len(line) == 2]
    return build(
        n,
        units,
        cages=rules.cages,
        thermos=[line for line in rules.thermos if len(line) > 2],
        pairs=pairs,
        odd=rules.odd,
        even=rules.even,
        locked=units.has_boxes,
        relations=signs + rule_tables.relation_pairs(n, rules),
        sums=rule_tables.linear_sums(n, rules),
        extra_regions=rules.extra_regions,
        candidates=rules.candidates,
        lines=line_table(n, rules),
        line_totals=_totals_fields(rule_tables.total_segments(n, rules)),
        quadruples=rules.quadruples,
        **options,
    )
