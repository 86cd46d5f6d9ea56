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
from numba.cpython.unsafe.numbers import trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED
from ._line_common import _DIGITS, _ONE, _ZERO, _apply, _below, _high, _saturated
from ._line_sums import _sandwich, _x_sum
from ._line_tables import BETWEEN, LOCKOUT, QUADRUPLE, RENBAN, SANDWICH, SKYSCRAPER, X_SUM

__all__ = ["line_rules"]


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


@inner_njit(cache=True, nogil=True)
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
