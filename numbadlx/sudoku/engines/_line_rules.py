"""Propagators of the "cages" engine for outside clues, lines and quadruples.

Each rule narrows the candidate masks of its cells (the engine's state: bit ``d - 1``
for digit ``d``, the contract's ``PLACED`` bit once a digit is fixed) to the digits
that some arrangement allowed by the rule still supports, and reports a contradiction
when none is left. Every propagator is exact on a line whose cells are all placed, so
the engine never accepts a grid that breaks a rule; what a propagator leaves open is
searched. The rules, with the table rows of :class:`~._line_tables.LineTable`:

* **sandwiches** (a whole row or column, its ``total``) - for every pair of positions
  that may hold the 1 and the ``n``, the cells between them must reach the total with
  distinct digits of 2..n-1 and the cells outside the rest of those digits' sum: on
  grids up to 12x12 through the digit sets of each side's size and sum that lie among
  its cells' candidates and meet every cell (the union of those sets), then by bounds
  (the sum of the smallest and largest candidates of the cells, of the ``k`` smallest
  and largest digits left). A digit stays where some pair supports it. Which of the
  sets fills a side, and how its digits match the cells, is left to search.
* **x_sums** (a whole line, its ``total``) - for each candidate ``x`` of the first
  cell, the first ``x`` cells must total ``total`` and the others the rest, with the
  same digit sets and bounds.
* **skyscrapers** (a whole line, ``seen``) - a dynamic programme over the line's
  positions, the tallest digit so far and the count seen (sets of maxima as bit
  masks, forwards and backwards), which ignores only that the digits differ (the
  row's own singles enforce that): a digit stays where some run of candidates through
  it sees exactly ``seen``. It holds the classic bounds (the ``n`` no nearer than
  position ``seen``, the first cell ``n`` for one seen, an increasing line for ``n``
  seen) and is exact on a full line.
* **between_lines** - for each pair of end digits, every middle cell needs a candidate
  strictly between them; the ends keep the digits of some such pair, the middles the
  digits between the ends of some such pair (the middles' own differences, where they
  share no unit, are left to search).
* **lockout_lines** (``gap``) - the same over pairs of end digits at least ``gap``
  apart, the middles outside the closed range of the ends.
* **quadruples** - every way of giving each of the four cells a listed digit or "some
  other digit" that holds the listed counts (no listed digit twice in a row or column
  of the square) is tried (at most ``5 ** 4``); a cell keeps the digits of some way.
  A listed digit with as many places left as it needs is placed; four listed digits
  keep the cells to them.
* **renbans** - a digit is possible in a cell only inside some window of ``len``
  consecutive digits that holds the placed digits and fits every cell (each open cell
  has a candidate in it, every digit of it has a cell left, a window digit with one
  cell left takes it); placed digits repeated on the line are a contradiction.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED, popcount
from ._line_tables import BETWEEN, LOCKOUT, QUADRUPLE, RENBAN, SANDWICH, SKYSCRAPER, X_SUM
from ._propagation import place

__all__ = ["line_rules"]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DIGITS = ~PLACED


@njit(cache=True, nogil=True, inline="always")
def _below(k):
    """Bits 0 to k - 1 (k from 0 to 63)."""
    return (_ONE << np.uint64(k)) - _ONE


@njit(cache=True, nogil=True, inline="always")
def _high(m):
    """Index of the highest bit of a non-zero mask."""
    return 63 - leading_zeros(m)


@njit(cache=True, nogil=True, inline="always")
def _restrict(masks, cell, allowed, queue, tail):
    """Keep only the digits of ``allowed`` in ``cell``: ``(tail, state)``, state -1 when
    none is left (or a placed digit is not allowed), 1 for a change, 0 for none."""
    m = masks[cell]
    if m & PLACED:
        if m & allowed & _DIGITS:
            return tail, 0
        return tail, -1
    kept = m & allowed
    if kept == m:
        return tail, 0
    if kept == 0:
        return tail, -1
    if kept & (kept - _ONE) == 0:
        return place(masks, cell, kept, queue, tail), 1
    masks[cell] = kept
    return tail, 1


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
def _apply(masks, cells, first, size, support, queue, tail):
    """Restrict each cell of the line to ``support``: ``(tail, state)``."""
    changed = 0
    for p in range(size):
        tail, state = _restrict(masks, cells[first + p], support[p], queue, tail)
        if state < 0:
            return tail, -1
        changed |= state
    return tail, changed


@inner_njit(cache=True, nogil=True)
def _saturated(masks, cells, first, size, support):
    """Whether ``support`` holds every candidate of the line's cells: then no other
    arrangement can take a digit out, and a propagator stops looking."""
    for p in range(size):
        if masks[cells[first + p]] & _DIGITS & ~support[p]:
            return False
    return True


@inner_njit(cache=True, nogil=True)
def _line_used(masks, cells, first, size):
    """The placed digits of a line."""
    used = _ZERO
    for p in range(size):
        v = masks[cells[first + p]]
        if v & PLACED:
            used |= v & _DIGITS
    return used


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


@inner_njit(cache=True, nogil=True)
def _skyscraper(masks, n, cells, first, seen, support, good, queue, tail):
    """A skyscraper clue on a whole line (see the module docstring). Maxima are bit
    masks with bit ``m`` for a tallest digit ``m`` so far (bit 0: none yet); ``good``
    holds ``(n + 1) * (seen + 2)`` masks: ``good[p * (seen + 2) + k]`` the maxima from
    which the cells from ``p`` on can still end with ``seen`` seen when ``k`` are seen
    before ``p``. Left to search: what needs the digits to differ (the programme lets
    a digit repeat; the row's singles keep them apart)."""
    width = seen + 2
    for k in range(width):
        good[n * width + k] = _ZERO
    good[n * width + seen] = _ONE << np.uint64(n)  # a full line ends at its n
    for p in range(n - 1, -1, -1):
        c = (masks[cells[first + p]] & _DIGITS) << _ONE
        low = trailing_zeros(c)
        above_low = ~_below(low + 1)
        for k in range(width):
            g = good[(p + 1) * width + k] & above_low  # a smaller digit, hidden
            if k + 1 < width:
                nxt = c & good[(p + 1) * width + k + 1]
                if nxt:
                    g |= _below(_high(nxt))  # a taller digit, seen
            good[p * width + k] = g
    if not good[0] & _ONE:  # from no maximum with none seen before the first cell
        return tail, -1
    # forwards: the maxima reachable before each cell, ``reach[k]`` with k seen
    reach = support[n:]
    for k in range(width):
        reach[k] = _ZERO
    reach[0] = _ONE
    for p in range(n):
        c = (masks[cells[first + p]] & _DIGITS) << _ONE
        kept = _ZERO
        for k in range(seen + 1):
            f = reach[k]
            if f == 0:
                continue
            hidden = f & good[(p + 1) * width + k]  # a smaller digit here
            if hidden:
                kept |= c & _below(_high(hidden))
            # a taller digit here, seen
            kept |= c & good[(p + 1) * width + k + 1] & ~_below(trailing_zeros(f) + 1)
        support[p] = kept >> _ONE
        if kept == 0:
            return tail, -1
        above_low = ~_below(trailing_zeros(kept) + 1)
        for k in range(seen, -1, -1):  # downwards: reach[k - 1] is still the old one
            grow = _ZERO
            if k > 0 and reach[k - 1]:
                grow = kept & ~_below(trailing_zeros(reach[k - 1]) + 1)
            reach[k] = (reach[k] & above_low) | grow
    return _apply(masks, cells, first, n, support, queue, tail)


@inner_njit(cache=True, nogil=True)
def _ends(masks, n, cells, first, size, gap, spread, lockout, support, queue, tail):
    """A between line (``lockout`` False) or a lockout line with ``gap`` (see the module
    docstring), over every pair of end digits; ``spread`` middle cells share a unit, so
    the room the ends leave must hold that many digits. Left to search: how the middles
    share that room beyond this count."""
    a = masks[cells[first]] & _DIGITS
    b = masks[cells[first + size - 1]] & _DIGITS
    for p in range(size):
        support[p] = _ZERO
    found = False
    xs = a
    while xs:
        xbit = xs & (~xs + _ONE)
        xs ^= xbit
        x = trailing_zeros(xbit)
        ys = b & ~xbit
        while ys:
            ybit = ys & (~ys + _ONE)
            ys ^= ybit
            y = trailing_zeros(ybit)
            lo = min(x, y)
            hi = max(x, y)
            if lockout:
                if hi - lo < gap or lo + n - 1 - hi < spread:
                    continue
                room = _below(lo) | (_below(n) & ~_below(hi + 1))
            else:
                if hi - lo - 1 < spread:
                    continue
                room = _below(hi) & ~_below(lo + 1)
            fits = True
            for p in range(1, size - 1):
                if not masks[cells[first + p]] & room:
                    fits = False
                    break
            if not fits:
                continue
            found = True
            support[0] |= xbit
            support[size - 1] |= ybit
            for p in range(1, size - 1):
                support[p] |= masks[cells[first + p]] & room
            if _saturated(masks, cells, first, size, support):
                return tail, 0
    if not found:
        return tail, -1
    return _apply(masks, cells, first, size, support, queue, tail)


@inner_njit(cache=True, nogil=True)
def _roles(m, listed):
    """The listed digits a cell may take, plus bit 63 when it may take another."""
    out = m & listed & _DIGITS
    if m & ~listed & _DIGITS:
        out |= PLACED
    return out


@inner_njit(cache=True, nogil=True)
def _quadruple(masks, cells, first, once, twice, support, queue, tail):
    """A quadruple: every way of giving each cell a listed digit or another digit (see
    the module docstring). Exact for the square alone; what the listed digits' places
    imply outside it is left to the units and to search."""
    listed = once
    m0 = masks[cells[first]]
    m1 = masks[cells[first + 1]]
    m2 = masks[cells[first + 2]]
    m3 = masks[cells[first + 3]]
    s0 = _ZERO
    s1 = _ZERO
    s2 = _ZERO
    s3 = _ZERO
    r0 = _roles(m0, listed)
    while r0:
        b0 = r0 & (~r0 + _ONE)
        r0 ^= b0
        r1 = _roles(m1, listed)
        while r1:
            b1 = r1 & (~r1 + _ONE)
            r1 ^= b1
            if b1 == b0 and b0 != PLACED:
                continue  # a row of the square
            r2 = _roles(m2, listed)
            while r2:
                b2 = r2 & (~r2 + _ONE)
                r2 ^= b2
                if b2 == b0 and b0 != PLACED:
                    continue  # a column
                r3 = _roles(m3, listed)
                while r3:
                    b3 = r3 & (~r3 + _ONE)
                    r3 ^= b3
                    if (b3 == b1 or b3 == b2) and b3 != PLACED:
                        continue
                    seen_once = (b0 | b1 | b2 | b3) & _DIGITS
                    if once & ~seen_once:
                        continue
                    if twice:
                        seen_twice = (b0 & (b1 | b2 | b3)) | (b1 & (b2 | b3)) | (b2 & b3)
                        if twice & ~seen_twice:
                            continue
                    s0 |= b0
                    s1 |= b1
                    s2 |= b2
                    s3 |= b3
    support[0] = s0
    support[1] = s1
    support[2] = s2
    support[3] = s3
    for p in range(4):
        s = support[p]
        if s == 0:
            return tail, -1
        if s & PLACED:  # "another digit": any unlisted candidate
            s = (s & _DIGITS) | ~listed
        support[p] = s & _DIGITS
    return _apply(masks, cells, first, 4, support, queue, tail)


@inner_njit(cache=True, nogil=True)
def _renban(masks, n, cells, first, size, support, queue, tail):
    """A renban line: windows of ``size`` consecutive digits (see the module docstring).
    Left to search: a window whose digits fit the cells one by one but not all at once
    (no full matching is sought beyond the window's hidden singles)."""
    used = _ZERO
    for p in range(size):
        v = masks[cells[first + p]]
        if v & PLACED:
            d = v & _DIGITS
            if used & d:
                return tail, -1  # a digit twice on the line
            used |= d
        support[p] = _ZERO
    found = False
    run = _below(size)
    for w in range(n - size + 1):
        window = run << np.uint64(w)
        if used & ~window:
            continue
        needed = window & ~used
        once = _ZERO
        twice = _ZERO
        fits = True
        for p in range(size):
            v = masks[cells[first + p]]
            if v & PLACED:
                continue
            c = v & needed
            if c == 0:
                fits = False
                break
            twice |= once & c
            once |= c
        if not fits or needed & ~once:
            continue
        hidden = needed & ~twice
        for p in range(size):
            v = masks[cells[first + p]]
            if v & PLACED:
                continue
            c = v & needed
            h = c & hidden
            if h:
                if h & (h - _ONE):
                    fits = False  # two digits with no other cell: one cell for both
                    break
                c = h
            support[size + p] = c
        if not fits:
            continue
        found = True
        for p in range(size):
            v = masks[cells[first + p]]
            if v & PLACED:
                support[p] |= v & _DIGITS
            else:
                support[p] |= support[size + p]
        if _saturated(masks, cells, first, size, support):
            return tail, 0
    if not found:
        return tail, -1
    return _apply(masks, cells, first, size, support, queue, tail)


@njit(cache=True, nogil=True)
def line_rules(masks, table, queue, tail):
    """One pass of every line rule of ``table`` (the fields of a
    :class:`~._line_tables.LineTable` in a :class:`~._constraint_tables.ConstraintTable`)
    over ``masks``, placing cells left with one digit at ``queue[tail:]``. Returns
    ``(tail, state)``: state -1 for a contradiction, 1 if a mask changed, 0 if none."""
    n = table.n
    count = table.line_kind.shape[0]
    if count == 0:
        return tail, 0
    scratch = np.empty((n + 2) * (n + 2) + 4 * n + 8, dtype=np.uint64)
    support = scratch[: 2 * n + 4]
    temp = scratch[2 * n + 4 : 4 * n + 8]
    good = scratch[4 * n + 8 :]
    digit_sets = (table.line_sets, table.line_set_start, n * (n + 1) // 2 + 1)
    changed = 0
    for r in range(count):
        first = table.line_start[r]
        size = table.line_start[r + 1] - first
        kind = table.line_kind[r]
        number = table.line_number[r]
        cells = table.line_cells
        if kind == SANDWICH:
            tail, state = _sandwich(
                masks, n, cells, first, number, support, temp, digit_sets, queue, tail
            )
        elif kind == X_SUM:
            tail, state = _x_sum(
                masks, n, cells, first, number, support, temp, digit_sets, queue, tail
            )
        elif kind == SKYSCRAPER:
            tail, state = _skyscraper(masks, n, cells, first, number, support, good, queue, tail)
        elif kind == BETWEEN:
            spread = np.int64(table.line_need[r, 0])
            tail, state = _ends(
                masks, n, cells, first, size, number, spread, False, support, queue, tail
            )
        elif kind == LOCKOUT:
            spread = np.int64(table.line_need[r, 0])
            tail, state = _ends(
                masks, n, cells, first, size, number, spread, True, support, queue, tail
            )
        elif kind == QUADRUPLE:
            once = table.line_need[r, 0]
            twice = table.line_need[r, 1]
            tail, state = _quadruple(masks, cells, first, once, twice, support, queue, tail)
        elif kind == RENBAN:
            tail, state = _renban(masks, n, cells, first, size, support, queue, tail)
        else:
            state = -1
        if state < 0:
            return tail, -1
        changed |= state
    return tail, changed
