"""The line-rule propagators of sums on a whole row or column: sandwiches and x-sums
(see :mod:`._line_rules`).

A side of the line (the sandwich's inside, the x-sum's first X cells, and the rest of
the line) must hold distinct digits of a given sum: :func:`_group` checks it by the
digit sets of its size and sum (on grids up to 12x12) and by bounds, and writes the
digits each cell keeps.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED, popcount
from ._line_common import _DIGITS, _ONE, _ZERO, _apply, _below, _high, _line_used, _saturated


@inner_njit(cache=True, nogil=True)
def _smallest(avail, k):
    """``(sum, largest)`` of the ``k`` smallest digits of ``avail`` (bit ``d - 1``:
    digit ``d``); ``largest`` 0 when ``k`` is 0. The caller ensures ``k`` fit."""
    total = 0
    last = 0
    m = avail
    for _ in range(k):
        last = trailing_zeros(m) + 1
        total += last
        m &= m - _ONE
    return total, last


@inner_njit(cache=True, nogil=True)
def _largest(avail, k):
    """``(sum, smallest)`` of the ``k`` largest digits of ``avail``; ``smallest`` 64
    when ``k`` is 0."""
    total = 0
    last = 64
    m = avail
    for _ in range(k):
        b = _high(m)
        last = b + 1
        total += last
        m &= ~(_ONE << np.uint64(b))
    return total, last


@inner_njit(cache=True, nogil=True)
def _group(masks, cells, first, positions, total, forbid, used, have, out, digit_sets):
    """Whether the line's cells at ``positions`` (bit ``p``: ``cells[first + p]``) may
    hold distinct digits, none of ``forbid``, summing to ``total`` (by bounds, and on
    grids up to 12x12 by ``digit_sets``, ``(sets, set_start, width)``: each digit set of
    the open cells' count and sum that lies among their digits and meets each of them,
    sets of size k and sum s being ``sets[set_start[k * width + s]:...]``); open cells
    take no digit of ``used`` (the line's placed digits). Writes into ``out[p]`` each cell's
    supported digits not in ``have[p]`` (those found before)."""
    placed = _ZERO
    placed_sum = 0
    k = 0
    avail = _ZERO
    low_sum = 0
    high_sum = 0
    m = positions
    while m:
        p = trailing_zeros(m)
        m &= m - _ONE
        v = masks[cells[first + p]]
        if v & PLACED:
            d = v & _DIGITS
            if d & forbid or d & placed:
                return False
            placed |= d
            placed_sum += trailing_zeros(d) + 1
        else:
            c = v & ~forbid & ~used & _DIGITS
            if c == 0:
                return False
            k += 1
            avail |= c
            low_sum += trailing_zeros(c) + 1
            high_sum += _high(c) + 1
    rest = total - placed_sum
    if popcount(avail) < k:
        return False
    small_k, _ = _smallest(avail, k)
    large_k, _ = _largest(avail, k)
    if rest < max(low_sum, small_k) or rest > min(high_sum, large_k):
        return False
    sets, set_start, width = digit_sets
    if k > 0 and set_start.shape[0] > 1 and rest < width:
        # the digit sets of k open cells summing to rest
        union = _ZERO
        key = k * width + rest
        for j in range(set_start[key], set_start[key + 1]):
            digits = sets[j]
            if digits & ~avail:
                continue
            meets = True
            m = positions
            while m:
                p = trailing_zeros(m)
                m &= m - _ONE
                v = masks[cells[first + p]]
                if not v & PLACED and not v & digits:
                    meets = False
                    break
            if meets:
                union |= digits
        if union == 0:
            return False
        avail = union
    # the k - 1 smallest (largest) of avail: their sum and the largest (smallest)
    small_1, top_small = _smallest(avail, max(k - 1, 0))
    large_1, bottom_large = _largest(avail, max(k - 1, 0))
    m = positions
    while m:
        p = trailing_zeros(m)
        m &= m - _ONE
        v = masks[cells[first + p]]
        if v & PLACED:
            out[p] = v & _DIGITS
            continue
        c = v & avail
        if c == 0:
            return False
        cell_low = trailing_zeros(c) + 1
        cell_high = _high(c) + 1
        # digits not yet in `have` are all tried; of the others, one that fits is
        # enough (the cell is not left empty), and none is kept again
        kept = _ZERO
        fits = False
        for again in range(2):
            left = c & have[p] if again else c & ~have[p]
            while left:
                bit = left & (~left + _ONE)
                left ^= bit
                d = trailing_zeros(bit) + 1
                others = rest - d
                # the other open cells: k - 1 distinct digits of avail other than d
                lo = small_k - d if d <= top_small else small_1
                hi = large_k - d if d >= bottom_large else large_1
                lo = max(lo, low_sum - cell_low)
                hi = min(hi, high_sum - cell_high)
                if lo <= others <= hi:
                    fits = True
                    if again:
                        break
                    kept |= bit
            if fits:
                break
        if not fits:
            return False
        out[p] = kept
    return True


@inner_njit(cache=True, nogil=True)
def _sandwich(masks, n, cells, first, total, support, temp, digit_sets, queue, tail):
    """A sandwich clue on a whole line (see the module docstring). Left to search:
    which digit set fills each side when several fit, and how its digits match the
    cells."""
    one = _ONE
    big = _ONE << np.uint64(n - 1)
    forbid = one | big
    rest = n * (n + 1) // 2 - 1 - n - total
    used = _line_used(masks, cells, first, n)
    everyone = _below(n)
    for p in range(n):
        support[p] = _ZERO
    found = False
    for lo in range(n - 1):
        m_lo = masks[cells[first + lo]]
        if not m_lo & forbid:
            continue
        for hi in range(lo + 1, n):
            m_hi = masks[cells[first + hi]]
            # the 1 at lo and the n at hi, or the other way round
            ends_lo = (m_lo & one if m_hi & big else _ZERO) | (m_lo & big if m_hi & one else _ZERO)
            if not ends_lo:
                continue
            k = hi - lo - 1
            if total < k * (k + 3) // 2 or total > k * (2 * n - k - 1) // 2:
                continue  # k distinct digits of 2..n-1 never reach the total
            inside = _below(hi) & ~_below(lo + 1)
            outside = everyone & ~inside & ~(_ONE << np.uint64(lo)) & ~(_ONE << np.uint64(hi))
            if not _group(
                masks, cells, first, inside, total, forbid, used, support, temp, digit_sets
            ):
                continue
            if not _group(
                masks, cells, first, outside, rest, forbid, used, support, temp, digit_sets
            ):
                continue
            found = True
            temp[lo] = ends_lo
            temp[hi] = (one if ends_lo & big else _ZERO) | (big if ends_lo & one else _ZERO)
            for p in range(n):
                support[p] |= temp[p]
            if _saturated(masks, cells, first, n, support):
                return tail, 0
    if not found:
        return tail, -1
    return _apply(masks, cells, first, n, support, queue, tail)


@inner_njit(cache=True, nogil=True)
def _x_sum(masks, n, cells, first, total, support, temp, digit_sets, queue, tail):
    """An x-sum clue on a whole line (see the module docstring). Left to search: which
    digit set of the first X cells reaches the total when several fit."""
    rest = n * (n + 1) // 2 - total
    used = _line_used(masks, cells, first, n)
    everyone = _below(n)
    for p in range(n):
        support[p] = _ZERO
    found = False
    head = masks[cells[first]] & _DIGITS
    while head:
        bit = head & (~head + _ONE)
        head ^= bit
        x = trailing_zeros(bit) + 1
        inside = _below(x) & ~_ONE
        outside = everyone & ~_below(x)
        if not _group(masks, cells, first, inside, total - x, bit, used, support, temp, digit_sets):
            continue
        if not _group(masks, cells, first, outside, rest, bit, used, support, temp, digit_sets):
            continue
        found = True
        temp[0] = bit
        for p in range(n):
            support[p] |= temp[p]
        if _saturated(masks, cells, first, n, support):
            return tail, 0
    if not found:
        return tail, -1
    return _apply(masks, cells, first, n, support, queue, tail)
