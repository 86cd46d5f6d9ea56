"""The logic ladder's basic techniques: singles, locked candidates, subsets, fish, wings.

Each technique works on candidate masks (:mod:`._masks`) in place: it finds the first
unit, digit or cell where it applies, removes what it proves, and returns the number
of candidates removed (0: it does not apply), with the first (cell, digit) removed in
``first``. The ladder (:mod:`._ladder`) tries them easiest first.
"""

import numpy as np
from numba import njit

from ._masks import ONE, PLACED, ZERO, bit_index, cleared, inner_njit, lowest_bit, popcount


@njit(cache=True, nogil=True, inline="always")
def sees(where, a, b):
    """True if two different cells share a row, column or box."""
    return a != b and (
        where[a, 0] == where[b, 0] or where[a, 1] == where[b, 1] or where[a, 2] == where[b, 2]
    )


@inner_njit(cache=True, nogil=True)
def eliminate(cand, cell, mask, first):
    """Remove ``mask`` from an unplaced cell; returns how many candidates went, and
    remembers the first (cell, digit) removed in ``first``."""
    c = cand[cell]
    if c & PLACED:
        return 0
    gone = c & mask
    if gone == ZERO:
        return 0
    cand[cell] = c & ~mask
    if first[0] < 0:
        first[0] = cell
        first[1] = bit_index(lowest_bit(gone)) + 1
    return popcount(gone)


@inner_njit(cache=True, nogil=True)
def place_single(cand, cell, bit, peers):
    """Place one digit found by a single; False on a contradiction."""
    cand[cell] = bit | PLACED
    for j in range(peers.shape[1]):
        p = peers[cell, j]
        c = cand[p]
        if c & bit:
            if c & PLACED:
                return False
            c &= ~bit
            if c == ZERO:
                return False
            cand[p] = c
    return True


@inner_njit(cache=True, nogil=True)
def find_hidden_single(cand, units, full, first_unit, last_unit):
    """A hidden single in units ``first_unit..last_unit-1``: ``(cell, bit)``, ``(-2, 0)``
    on a contradiction, ``(-1, 0)`` if none."""
    n = units.shape[1]
    for u in range(first_unit, last_unit):
        once = ZERO
        twice = ZERO
        done = ZERO
        for j in range(n):
            c = cand[units[u, j]]
            if c & PLACED:
                done |= c
            else:
                twice |= once & c
                once |= c
        done &= ~PLACED
        if (once | done) != full:
            return -2, ZERO
        hidden = once & ~twice & ~done
        if hidden:
            bit = lowest_bit(hidden)
            for j in range(n):
                cell = units[u, j]
                if not (cand[cell] & PLACED) and (cand[cell] & bit):
                    return cell, bit
    return -1, ZERO


@inner_njit(cache=True, nogil=True, inline="always")
def next_combination(index, k, m):
    """Advance ``index[:k]`` to the next k-subset of ``0..m-1``; False after the last."""
    i = k - 1
    while i >= 0 and index[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[j - 1] + 1
    return True


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder
def naked_subset(cand, units, k, first, members):
    """k cells of a unit holding only k digits between them: those digits leave the
    unit's other cells. Returns the number of candidates removed."""
    n = units.shape[1]
    index = cleared(np.empty(4, dtype=np.int64))
    for u in range(units.shape[0]):
        m = np.int64(0)
        for j in range(n):
            c = cand[units[u, j]]
            if not (c & PLACED):
                s = popcount(c)
                if 2 <= s <= k:
                    members[m] = units[u, j]
                    m += 1
        if m < k:
            continue
        for j in range(k):
            index[j] = j
        while True:
            union = ZERO
            for j in range(k):
                union |= cand[members[index[j]]]
            if popcount(union) == k:
                removed = 0
                for j in range(n):
                    cell = units[u, j]
                    inside = False
                    for t in range(k):
                        if members[index[t]] == cell:
                            inside = True
                    if not inside:
                        removed += eliminate(cand, cell, union, first)
                if removed:
                    return removed
            if not next_combination(index, k, m):
                break
    return 0


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder
def hidden_subset(cand, units, k, first, positions, digits):
    """k digits of a unit that fit only in the same k cells: those cells lose every other
    digit. Returns the number of candidates removed."""
    n = units.shape[1]
    index = cleared(np.empty(4, dtype=np.int64))
    for u in range(units.shape[0]):
        for d in range(n):
            positions[d] = 0
        placed = ZERO
        for j in range(n):
            c = cand[units[u, j]]
            if c & PLACED:
                placed |= c
                continue
            rest = c
            while rest:
                bit = lowest_bit(rest)
                rest ^= bit
                positions[bit_index(bit)] |= np.int64(1) << j
        m = np.int64(0)
        for d in range(n):
            if not (placed & (ONE << np.uint64(d))):
                s = popcount(np.uint64(positions[d]))
                if 2 <= s <= k:
                    digits[m] = d
                    m += 1
        if m < k:
            continue
        for j in range(k):
            index[j] = j
        while True:
            where = np.int64(0)
            keep = ZERO
            for j in range(k):
                where |= positions[digits[index[j]]]
                keep |= ONE << np.uint64(digits[index[j]])
            if popcount(np.uint64(where)) == k:
                removed = 0
                for j in range(n):
                    if where & (np.int64(1) << j):
                        removed += eliminate(cand, units[u, j], ~keep & ~PLACED, first)
                if removed:
                    return removed
            if not next_combination(index, k, m):
                break
    return 0


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder
def locked_candidates(cand, units, where, pointing, first):
    """Pointing (a box's digit confined to one row or column leaves the rest of that
    line) or claiming (a line's digit confined to one box leaves the rest of the box)."""
    n = units.shape[1]
    for d in range(n):
        bit = ONE << np.uint64(d)
        if pointing:
            first_unit, last_unit = 2 * n, 3 * n
        else:
            first_unit, last_unit = 0, 2 * n
        for u in range(first_unit, last_unit):
            line_r = -1
            line_c = -1
            box = -1
            same_r = True
            same_c = True
            same_b = True
            count = 0
            for j in range(n):
                cell = units[u, j]
                c = cand[cell]
                if (c & PLACED) or not (c & bit):
                    continue
                count += 1
                if count == 1:
                    line_r = where[cell, 0]
                    line_c = where[cell, 1]
                    box = where[cell, 2]
                else:
                    same_r = same_r and where[cell, 0] == line_r
                    same_c = same_c and where[cell, 1] == line_c
                    same_b = same_b and where[cell, 2] == box
            if count < 2:
                continue
            removed = 0
            if pointing:
                for target, same in ((line_r, same_r), (n + line_c, same_c)):
                    if same:
                        for j in range(n):
                            cell = units[target, j]
                            if where[cell, 2] != box:
                                removed += eliminate(cand, cell, bit, first)
            elif same_b:
                for j in range(n):
                    cell = units[2 * n + box, j]
                    if (u < n and where[cell, 0] != line_r) or (
                        u >= n and where[cell, 1] != line_c
                    ):
                        removed += eliminate(cand, cell, bit, first)
            if removed:
                return removed
    return 0


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder
def fish(cand, units, k, first, lines, masks):
    """X-wing (k = 2), swordfish (3), jellyfish (4): a digit confined, in k rows, to the
    same k columns leaves those columns' other rows (and the same with rows and columns
    swapped)."""
    n = units.shape[1]
    index = cleared(np.empty(4, dtype=np.int64))
    for d in range(n):
        bit = ONE << np.uint64(d)
        for base in range(2):
            cover = 1 - base
            m = np.int64(0)
            for line in range(n):
                mask = np.int64(0)
                placed = False
                u = base * n + line
                for j in range(n):
                    c = cand[units[u, j]]
                    if c & bit:
                        if c & PLACED:
                            placed = True
                            break
                        mask |= np.int64(1) << j
                if placed:
                    continue
                s = popcount(np.uint64(mask))
                if 2 <= s <= k:
                    lines[m] = line
                    masks[m] = mask
                    m += 1
            if m < k:
                continue
            for j in range(k):
                index[j] = j
            while True:
                union = np.int64(0)
                for j in range(k):
                    union |= masks[index[j]]
                if popcount(np.uint64(union)) == k:
                    removed = 0
                    for other in range(n):
                        if not (union & (np.int64(1) << other)):
                            continue
                        u = cover * n + other
                        for j in range(n):
                            inside = False
                            for t in range(k):
                                if lines[index[t]] == j:
                                    inside = True
                            if not inside:
                                removed += eliminate(cand, units[u, j], bit, first)
                    if removed:
                        return removed
                if not next_combination(index, k, m):
                    break
    return 0


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder
def wing(cand, peers, where, xyz, first):
    """XY-wing: a pivot {x,y} seeing pincers {x,z} and {y,z}; z leaves every cell seeing
    both pincers. XYZ-wing: a pivot {x,y,z} with pincers {x,z} and {y,z}; z leaves every
    cell seeing all three."""
    nn = cand.shape[0]
    size = 3 if xyz else 2
    for pivot in range(nn):
        pc = cand[pivot]
        if (pc & PLACED) or popcount(pc) != size:
            continue
        for a in range(peers.shape[1]):
            p1 = peers[pivot, a]
            c1 = cand[p1]
            if (c1 & PLACED) or popcount(c1) != 2:
                continue
            if xyz:
                if (c1 & pc) != c1:
                    continue
            elif popcount(c1 & pc) != 1:
                continue
            for b in range(a + 1, peers.shape[1]):
                p2 = peers[pivot, b]
                c2 = cand[p2]
                if (c2 & PLACED) or popcount(c2) != 2 or c2 == c1:
                    continue
                z = c1 & c2
                if popcount(z) != 1:
                    continue
                if xyz:
                    if (c2 & pc) != c2:
                        continue
                elif (z & pc) or (c1 | c2) & pc != pc:
                    continue
                removed = 0
                for cell in range(nn):
                    if cell == p1 or cell == p2 or cell == pivot:
                        continue
                    if sees(where, cell, p1) and sees(where, cell, p2):
                        if xyz and not sees(where, cell, pivot):
                            continue
                        removed += eliminate(cand, cell, z, first)
                if removed:
                    return removed
    return 0
