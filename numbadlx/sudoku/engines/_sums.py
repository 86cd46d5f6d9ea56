"""Linear sums on candidate masks: the "cages" engine's arrows, little killers,
region-sum lines and zipper lines.

A sum is ``sum(coef_k * digit(cell_k)) == total`` with integer coefficients (a pill
arrow's bulb weighs 100, 10 and 1; a segment compared with another weighs -1). Its
terms come in groups: terms of one coefficient whose cells are peers of each other,
so hold distinct digits (an arrow's cells inside one box). Two steps per sum:

* **bounds** - a group of ``k`` cells contributes at least its coefficient times the
  ``k`` smallest digits of its cells' candidates together (at most: the ``k``
  largest); a digit of a cell stays while the total lies between what the other
  terms reach with it (its group's other cells taking distinct digits, not this one);
  a group whose cells have fewer than ``k`` candidates together is a contradiction;
* **exact support** - a sum with few open cells (the product of their candidate counts
  at most ``table.sum_exact``) is enumerated, distinct within each group: each digit
  left is part of an assignment that makes the total;
* **needed digits** - in the same enumeration, the digits that every assignment puts
  into a group's open cells (two or more) leave each other cell that sees all of
  them: a bulb of 6 over three cells of one box puts 1, 2 and 3 there, and the box's
  other cells lose them (a person's first step on an arrow; the singles do not see
  it). On the published arrow puzzles it took "Eddies" from 54,768 nodes to 29,876,
  "Orbit" from 641 to 436, "Arrow" from 110 to 24 and "Pill arrow" from 131 to 17.

The steps take the table's sum arrays one by one (a call that takes the whole table
counts a reference to each of its arrays in and out, which cost more than the steps
on the arrow puzzles), and the enumeration's scratch is made once a pass.

Table fields (see :class:`~._constraint_tables.ConstraintTable`)::

    sum_start (S+1,) int32     sum s's terms are sum_cells[sum_start[s]:sum_start[s+1]]
    sum_cells, sum_group       int32: each term's cell and group (groups contiguous)
    sum_coef                   int64: each term's coefficient (never 0)
    sum_total (S,)             int64
    sum_exact                  int: the enumeration bound (0: bounds only)
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED, popcount
from ._propagation import place

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DIGITS = ~PLACED


@njit(cache=True, nogil=True, inline="always")
def _digit(bit):
    """The digit of a one-bit mask (or of a mask's lowest bit), as an int64."""
    return np.int64(trailing_zeros(bit)) + 1


@njit(cache=True, nogil=True, inline="always")
def _top(mask):
    """The largest digit of a mask that is not empty, as an int64."""
    return 64 - np.int64(leading_zeros(mask))


@njit(cache=True, nogil=True, inline="always")
def _least(mask, k):
    """The sum of the ``k`` smallest digits of ``mask``; -1 if it has fewer."""
    total = 0
    m = mask
    for _ in range(k):
        if m == 0:
            return -1
        total += _digit(m)
        m &= m - _ONE
    return total


@njit(cache=True, nogil=True, inline="always")
def _most(mask, k):
    """The sum of the ``k`` largest digits of ``mask`` (it has at least ``k``)."""
    total = 0
    m = mask
    for _ in range(k):
        top = _top(m)
        total += top
        m ^= _ONE << np.uint64(top - 1)
    return total


@njit(cache=True, nogil=True, inline="always")
def _keep(masks, cell, kept, queue, tail):
    """Keep only ``kept`` of an unplaced cell's digits. Returns ``(tail, state)``."""
    m = masks[cell]
    if kept == m:
        return tail, 0
    if kept == 0:
        return tail, -1
    if kept & (kept - _ONE) == 0:
        return place(masks, cell, kept, queue, tail), 1
    masks[cell] = kept
    return tail, 1


@inner_njit(cache=True, nogil=True)
def _bounds(masks, sum_start, cells, coef, group, totals, exact, s, queue, tail):
    """The bounds step of sum ``s`` (the table's sum arrays passed one by one: a call
    that takes the whole table counts a reference to each of its arrays in and out,
    which cost more than the step itself on the arrow puzzles). Returns ``(tail,
    state, open cells, product of their candidate counts)``; state -1 for a
    contradiction; the product stops growing past ``exact``."""
    start = sum_start[s]
    end = sum_start[s + 1]
    total = totals[s]
    lo = 0
    hi = 0
    t = start
    while t < end:
        g = t
        union = _ZERO
        while g < end and group[g] == group[t]:
            union |= masks[cells[g]]
            g += 1
        union &= _DIGITS
        small = _least(union, g - t)
        if small < 0:
            return tail, -1, 0, 0
        big = _most(union, g - t)
        c = coef[t]
        if c > 0:
            lo += c * small
            hi += c * big
        else:
            lo += c * big
            hi += c * small
        t = g
    if lo > total or hi < total:
        return tail, -1, 0, 0
    changed = 0
    open_cells = 0
    product = 1
    t = start
    while t < end:
        g = t
        union = _ZERO
        while g < end and group[g] == group[t]:
            union |= masks[cells[g]]
            g += 1
        union &= _DIGITS
        k = g - t
        c = coef[t]
        if c > 0:
            g_lo = c * _least(union, k)
            g_hi = c * _most(union, k)
        else:
            g_lo = c * _most(union, k)
            g_hi = c * _least(union, k)
        for j in range(t, g):
            cell = cells[j]
            m = masks[cell]
            if m & PLACED:
                continue
            others = _ZERO
            for i in range(t, g):
                if i != j:
                    others |= masks[cells[i]]
            others &= _DIGITS
            kept = _ZERO
            rest = m
            while rest:
                bit = rest & (~rest + _ONE)
                rest ^= bit
                d = _digit(bit)
                o_lo = 0
                o_hi = 0
                if k > 1:
                    o_lo = _least(others & ~bit, k - 1)
                    if o_lo < 0:
                        continue
                    o_hi = _most(others & ~bit, k - 1)
                if c > 0:
                    low = lo - g_lo + c * (d + o_lo)
                    high = hi - g_hi + c * (d + o_hi)
                else:
                    low = lo - g_lo + c * (d + o_hi)
                    high = hi - g_hi + c * (d + o_lo)
                if low <= total <= high:
                    kept |= bit
            tail, state = _keep(masks, cell, kept, queue, tail)
            if state < 0:
                return tail, -1, 0, 0
            changed |= state
            m = masks[cell]
            if not m & PLACED:
                open_cells += 1
                if product <= exact:  # past the bound it stays past it
                    product *= np.int64(popcount(m))
        t = g
    return tail, changed, open_cells, product


@inner_njit(cache=True, nogil=True)
def _exact(
    masks, peers, sum_start, cells, coef, group, totals, s, open_cells, ints, bits, queue, tail
):
    """The exact step of sum ``s`` over its ``open_cells`` open cells: each digit kept
    is part of an assignment that makes the total (distinct within each group; placed
    cells count as they are); then the digits every assignment puts into a group's
    open cells (two or more) leave the cells that see all of them (``peers``: each
    cell's peers). ``ints`` and ``bits`` are scratch rows (three and four, of at least
    ``open_cells + 1``). Returns ``(tail, state)``."""
    start = sum_start[s]
    end = sum_start[s + 1]
    target = totals[s]
    term, reach_lo, reach_hi = ints[0], ints[1], ints[2]
    left, chosen, support, need = bits[0], bits[1], bits[2], bits[3]
    reach_lo[open_cells] = 0
    reach_hi[open_cells] = 0
    for i in range(open_cells):
        support[i] = _ZERO
        need[i] = _DIGITS
    m_open = 0
    for t in range(start, end):
        m = masks[cells[t]]
        if m & PLACED:
            target -= coef[t] * _digit(m & _DIGITS)
        else:
            term[m_open] = t
            m_open += 1
    for i in range(open_cells - 1, -1, -1):
        m = masks[cells[term[i]]]
        c = coef[term[i]]
        low = c * _digit(m)
        high = c * _top(m)
        if c < 0:
            low, high = high, low
        reach_lo[i] = reach_lo[i + 1] + low
        reach_hi[i] = reach_hi[i + 1] + high
    depth = 0
    partial = 0
    left[0] = masks[cells[term[0]]]
    while depth >= 0:
        rest = left[depth]
        if rest == 0:
            depth -= 1
            if depth >= 0:
                partial -= coef[term[depth]] * _digit(chosen[depth])
            continue
        bit = rest & (~rest + _ONE)
        left[depth] = rest ^ bit
        t = term[depth]
        clash = False
        for i in range(depth):
            if chosen[i] == bit and group[term[i]] == group[t]:
                clash = True
                break
        if clash:
            continue
        value = partial + coef[t] * _digit(bit)
        rest_lo = value + reach_lo[depth + 1]
        rest_hi = value + reach_hi[depth + 1]
        if rest_lo > target or rest_hi < target:
            continue
        chosen[depth] = bit
        if depth == open_cells - 1:
            if value == target:
                used = _ZERO  # the digits of the group so far; kept at its last term
                for i in range(open_cells):
                    support[i] |= chosen[i]
                    used |= chosen[i]
                    if i == open_cells - 1 or group[term[i + 1]] != group[term[i]]:
                        need[i] &= used
                        used = _ZERO
            continue
        partial = value
        depth += 1
        left[depth] = masks[cells[term[depth]]]
    changed = 0
    for i in range(open_cells):
        cell = cells[term[i]]
        tail, state = _keep(masks, cell, masks[cell] & support[i], queue, tail)
        if state < 0:
            return tail, -1
        changed |= state
    first = 0
    for i in range(open_cells):
        if i < open_cells - 1 and group[term[i + 1]] == group[term[i]]:
            continue
        tail, state = _needed(masks, peers, cells, term, first, i + 1, need[i], queue, tail)
        if state < 0:
            return tail, -1
        changed |= state
        first = i + 1
    return tail, changed


@njit(cache=True, nogil=True, inline="always")
def _needed(masks, peers, cells, term, first, end, need, queue, tail):
    """The digits ``need`` that the group of open terms ``term[first:end]`` (two or
    more cells, peers of each other) holds whatever the assignment leave every other
    cell that sees all its cells. Returns ``(tail, state)``."""
    need &= _DIGITS
    if end - first < 2 or need == 0:
        return tail, 0
    changed = 0
    a = cells[term[first]]
    for k in range(peers.shape[1]):
        p = peers[a, k]
        m = masks[p]
        if m & PLACED or not m & need:
            continue
        sees = True
        for j in range(first + 1, end):
            q = cells[term[j]]
            if q == p:
                sees = False
                break
            seen = False
            for r in range(peers.shape[1]):
                if peers[q, r] == p:
                    seen = True
                    break
            if not seen:
                sees = False
                break
        if sees:
            tail, state = _keep(masks, p, m & ~need, queue, tail)
            if state < 0:
                return tail, -1
            changed |= state
    return tail, changed


@njit(cache=True, nogil=True)
def propagate_sums(masks, peers, start, cells, coef, group, total, exact, queue, tail):
    """Every linear sum of a table (its fields ``sum_start``, ``sum_cells``,
    ``sum_coef``, ``sum_group``, ``sum_total``, ``sum_exact``, passed one by one: a
    call that takes the whole table counts a reference to each of its arrays in and
    out): bounds, then exact support where it is cheap (see the module docstring).
    Returns ``(tail, state)``: state -1 for a contradiction, 1 for a change, 0 for
    none; cells left with one digit are placed and queued."""
    changed = 0
    ints = np.empty((3, masks.shape[0] + 1), dtype=np.int64)
    bits = np.empty((4, masks.shape[0] + 1), dtype=np.uint64)
    for s in range(total.shape[0]):
        tail, state, open_cells, product = _bounds(
            masks, start, cells, coef, group, total, exact, s, queue, tail
        )
        if state < 0:
            return tail, -1
        changed |= state
        if open_cells > 0 and product <= exact:
            tail, state = _exact(
                masks,
                peers,
                start,
                cells,
                coef,
                group,
                total,
                s,
                open_cells,
                ints,
                bits,
                queue,
                tail,
            )
            if state < 0:
                return tail, -1
            changed |= state
    return tail, changed
