"""The minimal lexicographic form of puzzles under the Sudoku symmetries (the kernel of
:func:`numbadlx.sudoku.canonical`).

The output is built row by row. A *state* is a partial transformation whose output so
far equals the smallest prefix found: a transpose flag, the source rows placed so far
(a band is entered at its first row and left at its last), an arrangement of the source
columns split into *cells*, and the digit labels given so far (by first appearance).

Stack orders are enumerated at the start (one state per order). A cell is a run of
output columns, inside one stack, whose source columns are still interchangeable: all
blank in every row placed so far. Placing a source row in a cell puts its blanks first
(they stay one cell, in any order), then its digits already labelled, by label, then its
new digits, each a cell of its own: the new digits of a cell take the next labels in
the order of their columns whatever that order is, so the row is the same for every
order and each order is a state of its own. A row larger than the smallest one found
stops being computed at its first larger value; a smaller one clears the states kept.
Every transformation of the group is the completion of one of the first states, and
the states left after the last row all give the minimal form.

A state is one row of an int16 table (``S``): transpose flag, next label, the source row
of each output row placed, the source column at each output column, the cell starts,
and the label of each digit; the source rows used are a bit mask (``U``).
"""

import numpy as np
from numba import njit, prange

#: Status of a puzzle: done, givens that clash (or a value above n), too many ties.
DONE, CLASH, TOO_MANY = 0, 1, 2


@njit(cache=True, nogil=True)
def _grow(S, U, size):
    """``S`` and ``U`` copied into tables of ``size`` rows."""
    S2 = np.zeros((size, S.shape[1]), dtype=np.int16)
    U2 = np.zeros(size, dtype=np.uint64)
    for i in range(S.shape[0]):
        U2[i] = U[i]
        for j in range(S.shape[1]):
            S2[i, j] = S[i, j]
    return S2, U2


@njit(cache=True, nogil=True)
def _clash(p, n, br, bc, rows, cols, boxes):
    """True if a value is above n or a digit repeats in a row, column or box (``rows``,
    ``cols`` and ``boxes`` are work arrays of n uint64)."""
    one = np.uint64(1)
    for i in range(n):
        rows[i] = cols[i] = boxes[i] = 0
    for i in range(n):
        for j in range(n):
            v = p[i * n + j]
            if v == 0:
                continue
            if v > n:
                return True
            bit = one << np.uint64(v - 1)
            b = (i // br) * (n // bc) + j // bc
            if (rows[i] | cols[j] | boxes[b]) & bit:
                return True
            rows[i] |= bit
            cols[j] |= bit
            boxes[b] |= bit
    return False


@njit(cache=True, nogil=True)
def canonical_work(n, bc):
    """The work arrays of :func:`canonical_one`."""
    fact = np.ones(bc + 1, dtype=np.int64)
    for i in range(2, bc + 1):
        fact[i] = fact[i - 1] * i
    small = np.zeros((4, n), dtype=np.int16)  # best row, row, column order, cell starts
    groups = np.zeros((2, n), dtype=np.int64)  # start and size of each group of new digits
    masks = np.zeros((3, n), dtype=np.uint64)
    zeros = np.zeros((2, n + 1, n // bc), dtype=np.int64)  # blanks by row and stack
    return fact, small, groups, masks, zeros


@njit(cache=True, nogil=True)
def canonical_one(p, n, br, bc, perms, limit, S, U, T, V, out, trans, work):
    """The minimal form of puzzle ``p`` into ``out`` and the transformation into
    ``trans`` (transpose flag, the n source rows, the n source columns, the n + 1
    digit labels); the tables ``S, U`` and ``T, V`` hold the states (grown as needed,
    up to ``limit`` rows); ``work`` is :func:`canonical_work`. Returns the status and
    the four tables."""
    fact, small, groups2, masks, zeros = work
    if _clash(p, n, br, bc, masks[0], masks[1], masks[2]):
        return CLASH, S, U, T, V
    oc = 2 + n  # source column at each output column
    ocell = 2 + 2 * n  # 1 where a cell starts
    olab = 2 + 3 * n  # label of each digit (0: none yet)
    one = np.uint64(1)
    band_bits = (one << np.uint64(br)) - one
    stacks = n // bc
    best, row, order, starts = small[0], small[1], small[2], small[3]
    gstart, gsize = groups2[0], groups2[1]
    # blanks of each row in each stack, and (row 0) the best blank counts stack by stack:
    # a first row is its blanks then new digits, stack by stack, so the more blanks in
    # the earlier stacks, the smaller the row
    for t in range(2):
        for r in range(n):
            for k in range(stacks):
                zeros[t, r, k] = 0
            for c in range(n):
                v = p[c * n + r] if t else p[r * n + c]
                if v == 0:
                    zeros[t, r, c // bc] += 1
    top = zeros[0, n]  # the best counts so far
    top_set = False
    count = 0
    for t in range(2 if br == bc else 1):
        for q in range(perms.shape[0]):
            if count == S.shape[0]:
                S, U = _grow(S, U, 2 * count)
            for j in range(S.shape[1]):
                S[count, j] = 0
            S[count, 0] = t
            S[count, 1] = 1
            for k in range(stacks):
                for i in range(bc):
                    S[count, oc + k * bc + i] = perms[q, k] * bc + i
                S[count, ocell + k * bc] = 1
            U[count] = 0
            count += 1
    for depth in range(n):
        kept = 0
        have = False
        entering = depth % br == 0
        for s in range(count):
            t = S[s, 0]
            used = U[s]
            band = S[s, 2 + depth - 1] // br if depth > 0 else 0
            for r in range(n):
                if (used >> np.uint64(r)) & one:
                    continue
                if entering:
                    if (used >> np.uint64((r // br) * br)) & band_bits:
                        continue
                elif r // br != band:
                    continue
                if depth == 0:  # the blank counts first: fewer blanks early loses at once
                    worse = False
                    for k in range(stacks):
                        z = zeros[t, r, S[s, oc + k * bc] // bc]
                        if not top_set or z > top[k]:
                            for x in range(k, stacks):
                                top[x] = zeros[t, r, S[s, oc + x * bc] // bc]
                            top_set = True
                            break
                        if z < top[k]:
                            worse = True
                            break
                    if worse:
                        continue
                # the smallest row that row r makes in this state, value by value
                less = not have
                larger = False
                nl = S[s, 1]
                groups = 0
                a = 0
                while a < n:
                    b = a + 1
                    while b < n and S[s, ocell + b] == 0:
                        b += 1
                    m = a
                    for q in range(a, b):  # blanks first
                        c = S[s, oc + q]
                        v = p[c * n + r] if t else p[r * n + c]
                        if v == 0:
                            order[m] = c
                            m += 1
                    z = m
                    for q in range(a, b):  # then the labelled digits, by label
                        c = S[s, oc + q]
                        v = p[c * n + r] if t else p[r * n + c]
                        if v != 0 and S[s, olab + v] > 0:
                            lab = S[s, olab + v]
                            i = m
                            while i > z:
                                w = order[i - 1]
                                u = p[w * n + r] if t else p[r * n + w]
                                if S[s, olab + u] <= lab:
                                    break
                                order[i] = w
                                i -= 1
                            order[i] = c
                            m += 1
                    if m < b:  # then the new digits, in any order
                        gstart[groups] = m
                        gsize[groups] = b - m
                        groups += 1
                        for q in range(a, b):
                            c = S[s, oc + q]
                            v = p[c * n + r] if t else p[r * n + c]
                            if v != 0 and S[s, olab + v] == 0:
                                order[m] = c
                                m += 1
                    for q in range(a, b):
                        c = order[q]
                        v = p[c * n + r] if t else p[r * n + c]
                        if v == 0:
                            e = 0
                        elif S[s, olab + v] > 0:
                            e = S[s, olab + v]
                        else:
                            e = nl
                            nl += 1
                        row[q] = e
                        starts[q] = 1 if q == a or q >= z else 0
                        if not less:
                            if e > best[q]:
                                larger = True
                                break
                            if e < best[q]:
                                less = True
                    if larger:
                        break
                    a = b
                if larger:
                    continue
                if less:
                    for q in range(n):
                        best[q] = row[q]
                    have = True
                    kept = 0
                branches = 1
                for g in range(groups):
                    branches *= fact[gsize[g]]
                for branch in range(branches):
                    if kept == T.shape[0]:
                        if kept >= limit:
                            return TOO_MANY, S, U, T, V
                        T, V = _grow(T, V, min(2 * kept, limit))
                    for j in range(oc):
                        T[kept, j] = S[s, j]
                    for j in range(olab, S.shape[1]):
                        T[kept, j] = S[s, j]
                    T[kept, 2 + depth] = r
                    V[kept] = used | (one << np.uint64(r))
                    for q in range(n):
                        T[kept, oc + q] = order[q]
                        T[kept, ocell + q] = starts[q]
                    rest = branch
                    for g in range(groups):  # this branch's order of each group
                        size = gsize[g]
                        k = rest % fact[size]
                        rest //= fact[size]
                        base = oc + gstart[g]
                        for i in range(size - 1):
                            f = fact[size - 1 - i]
                            j = k // f
                            k %= f
                            w = T[kept, base + i + j]
                            for x in range(i + j, i, -1):
                                T[kept, base + x] = T[kept, base + x - 1]
                            T[kept, base + i] = w
                    nl = S[s, 1]
                    for q in range(n):
                        c = T[kept, oc + q]
                        v = p[c * n + r] if t else p[r * n + c]
                        if v != 0 and T[kept, olab + v] == 0:
                            T[kept, olab + v] = nl
                            nl += 1
                    T[kept, 1] = nl
                    kept += 1
        for q in range(n):
            out[depth * n + q] = best[q]
        S, U, T, V = T, V, S, U
        count = kept
    trans[0] = S[0, 0]
    for i in range(n):
        trans[1 + i] = S[0, 2 + i]
        trans[1 + n + i] = S[0, oc + i]
    nl = S[0, 1]
    trans[1 + 2 * n] = 0
    for d in range(1, n + 1):
        lab = S[0, olab + d]
        if lab == 0:  # a digit the puzzle lacks: the labels left, in order
            lab = nl
            nl += 1
        trans[1 + 2 * n + d] = lab
    return DONE, S, U, T, V


@njit(cache=True, nogil=True)
def _chunk(c, n_chunks, puzzles, n, br, bc, perms, limit, out, trans, status):
    width = 3 + 4 * n
    work = canonical_work(n, bc)
    S = np.zeros((64, width), dtype=np.int16)
    U = np.zeros(64, dtype=np.uint64)
    T = np.zeros((64, width), dtype=np.int16)
    V = np.zeros(64, dtype=np.uint64)
    for k in range(c, puzzles.shape[0], n_chunks):
        done, S, U, T, V = canonical_one(
            puzzles[k], n, br, bc, perms, limit, S, U, T, V, out[k], trans[k], work
        )
        status[k] = done


@njit(cache=True, parallel=True, nogil=True)
def canonical_bulk(puzzles, n, br, bc, perms, limit, out, trans, status, n_chunks):
    """:func:`canonical_one` of every puzzle, ``n_chunks`` interleaved shares in parallel."""
    for c in prange(n_chunks):
        _chunk(np.int64(c), n_chunks, puzzles, n, br, bc, perms, limit, out, trans, status)
