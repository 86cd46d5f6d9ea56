"""Bounds along ordering chains for the constraint engine ("cages"): counting the
distinct digits a cell must exceed.

Thermometer steps order cells (the lower cell's digit is smaller), and so do the pair
relations that allow only a larger digit on one side (``greater`` signs, the
neighbours of minimums and maximums: :func:`_ordering` reads that from the relation's
table, so a two-cell thermometer and a ``greater`` pair are the same step). Following
the steps, every cell has a set of cells below it (smaller, on some chain of steps) and a
set above it. The cells of one of those sets that lie in one unit hold distinct digits;
if ``k`` of them lie in a unit, the cell's digit exceeds ``k`` distinct digits drawn
from their candidates, so it exceeds the ``k``-th smallest digit of their candidates'
union (and, above, stays under the ``k``-th largest); fewer than ``k`` digits in that
union is a contradiction. With one cell in a unit this is the thermometer's own bound,
so only the groups of two or more cells are kept. This is what solves inequality
("greater than") Sudokus by hand: a cell with three cells of its box below it is at
least 4.

* :func:`order_groups` - the groups (a cell, a direction, the cells of one unit below
  or above it), made once per table from the thermometers and ordering pairs. On the
  inequality Sudokus of ``benchmarks/inequality.py`` stated as ``greater`` pairs
  (eight hard ones and a course's), adding the pairs cut the nodes from 119,029 to
  96,015 in all and the CPU time from 0.83 to 0.73 s (one made puzzle 27,700 nodes to
  6,445; two others 10-50% more, the rest within 10%);
* :func:`order_bounds` - one pass of the bounds over the groups;
* :func:`settle_ordered` - the engine's propagation and the bounds in turn, to the
  fixed point.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED
from ._propagation import place

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DIGITS = ~PLACED


@inner_njit(cache=True, nogil=True)
def _ordering(relation, row, n):
    """How a pair relation orders its two cells: 1 if it allows the first cell only
    digits above the second's (``greater``, a minimum's or maximum's neighbours), -1
    only digits below, 0 neither (a row of ``relation``: ``relation[row, e]`` the
    digits the first cell may hold beside digit ``e + 1`` in the second)."""
    full = (_ONE << np.uint64(n)) - _ONE
    up = True
    down = True
    for e in range(n):
        allowed = relation[row, e]
        lower = (_ONE << np.uint64(e)) - _ONE  # digits below e + 1
        if allowed & ~(full & ~lower & ~(_ONE << np.uint64(e))):
            up = False
        if allowed & ~lower:
            down = False
    if up:
        return 1
    if down:
        return -1
    return 0


@inner_njit(cache=True, nogil=True)
def _closure(table, nn):
    """``(below, above, steps)``: bit sets (``(nn + 63) // 64`` words a cell) of the
    cells below and above each cell along the ordering steps, transitively, and the
    number of steps. A step is a thermometer's (bulb first) or a pair relation that
    orders its cells (:func:`_ordering`)."""
    words = (nn + 63) // 64
    below = np.zeros((nn, words), dtype=np.uint64)
    above = np.zeros((nn, words), dtype=np.uint64)
    start = table.thermo_start
    cells = table.thermo_cells
    steps = 0
    for t in range(start.shape[0] - 1):
        for k in range(start[t], start[t + 1] - 1):
            _step(below, above, cells[k], cells[k + 1])
            steps += 1
    for q in range(table.pair_a.shape[0]):
        order = _ordering(table.relation, table.pair_rel[q], table.n)
        if order > 0:
            _step(below, above, table.pair_b[q], table.pair_a[q])
            steps += 1
        elif order < 0:
            _step(below, above, table.pair_a[q], table.pair_b[q])
            steps += 1
    for sets in (below, above):
        changed = True
        while changed:
            changed = False
            for cell in range(nn):
                for w in range(words):
                    bits = sets[cell, w]
                    while bits:
                        bit = bits & (~bits + _ONE)
                        bits ^= bit
                        other = w * 64 + trailing_zeros(bit)
                        for v in range(words):
                            grown = sets[cell, v] | sets[other, v]
                            if grown != sets[cell, v]:
                                sets[cell, v] = grown
                                changed = True
    return below, above, steps


@njit(cache=True, nogil=True, inline="always")
def _step(below, above, low, high):
    """One ordering step: cell ``low`` holds a smaller digit than cell ``high``."""
    below[high, low >> 6] |= _ONE << np.uint64(low & 63)
    above[low, high >> 6] |= _ONE << np.uint64(high & 63)


@njit(cache=True, nogil=True)
def order_groups(table):
    """The groups of two or more cells of one unit below or above a cell. Returns
    ``(group_cell, group_up, group_start, group_cells)``: group ``g`` bounds cell
    ``group_cell[g]`` from below (``group_up[g] == 0``: its cells are smaller) or from
    above (1), its cells are ``group_cells[group_start[g]:group_start[g + 1]]``."""
    nn = table.n * table.n
    units = table.units
    below, above, steps = _closure(table, nn)
    if steps == 0:
        empty = np.zeros(0, dtype=np.int32)
        return empty, empty, np.zeros(1, dtype=np.int32), empty
    count = 0
    size = 0
    for rounds in range(2):
        if rounds == 1:
            group_cell = np.empty(count, dtype=np.int32)
            group_up = np.empty(count, dtype=np.int32)
            group_start = np.empty(count + 1, dtype=np.int32)
            group_cells = np.empty(size, dtype=np.int32)
            group_start[0] = 0
            count = 0
            size = 0
        for cell in range(nn):
            for up in range(2):
                sets = above if up else below
                for u in range(units.shape[0]):
                    inside = 0
                    for k in range(units.shape[1]):
                        other = units[u, k]
                        if sets[cell, other >> 6] >> np.uint64(other & 63) & _ONE:
                            inside += 1
                    if inside < 2:
                        continue
                    if rounds == 1:
                        group_cell[count] = cell
                        group_up[count] = up
                        at = size
                        for k in range(units.shape[1]):
                            other = units[u, k]
                            if sets[cell, other >> 6] >> np.uint64(other & 63) & _ONE:
                                group_cells[at] = other
                                at += 1
                        group_start[count + 1] = at
                    count += 1
                    size += inside
    return group_cell, group_up, group_start, group_cells


@inner_njit(cache=True, nogil=True)
def order_bounds(masks, groups, queue, tail):
    """One pass of the bounds over ``groups`` (:func:`order_groups`). Returns ``(tail,
    state)``: state -1 for a contradiction, 1 if a candidate went, 0 if none; a cell
    left with one digit is placed and queued at ``queue[tail]``."""
    group_cell, group_up, group_start, group_cells = groups
    changed = 0
    for g in range(group_cell.shape[0]):
        union = _ZERO
        for k in range(group_start[g], group_start[g + 1]):
            union |= masks[group_cells[k]]
        union &= _DIGITS
        size = group_start[g + 1] - group_start[g]
        if group_up[g]:
            for _ in range(size - 1):
                if union:
                    union &= ~(_ONE << np.uint64(63 - leading_zeros(union)))
            if union == 0:
                return tail, -1
            allowed = (_ONE << np.uint64(63 - leading_zeros(union))) - _ONE
        else:
            for _ in range(size - 1):
                union &= union - _ONE
            if union == 0:
                return tail, -1
            allowed = ~((_ONE << np.uint64(trailing_zeros(union) + 1)) - _ONE) & _DIGITS
        cell = group_cell[g]
        m = masks[cell]
        if m & PLACED:
            if not m & allowed:
                return tail, -1
            continue
        kept = m & allowed
        if kept == m:
            continue
        if kept == 0:
            return tail, -1
        changed = 1
        if kept & (kept - _ONE) == 0:
            tail = place(masks, cell, kept, queue, tail)
        else:
            masks[cell] = kept
    return tail, changed


@njit(nogil=True, inline="always")
def settle_ordered(settle, masks, table, groups, queue, tail, segments, open_cells):
    """``settle`` (the engine's propagation, see :func:`._cages._settle`) and
    :func:`order_bounds` in turn until the bounds change nothing. Returns the cells
    placed, or -1 for a contradiction."""
    placed = settle(masks, table, queue, tail, segments, open_cells)
    if placed < 0 or groups[0].shape[0] == 0:
        return placed
    while True:
        tail, state = order_bounds(masks, groups, queue, 0)
        if state < 0:
            return -1
        if state == 0:
            return placed
        got = settle(masks, table, queue, tail, segments, open_cells - placed)
        if got < 0:
            return -1
        placed += got
