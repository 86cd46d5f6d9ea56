"""The minimal lexicographic form of puzzles under the Sudoku symmetries (the kernel of
:func:`numbadlx.sudoku.canonical`).

The output is built row by row. A *state* is a partial transformation whose rows so far
equal the smallest prefix found: a transpose flag, the source rows placed (a band is
entered at its first row and left at its last), the source column at each output
column, and the digits named so far (by first appearance). Stack orders are enumerated
at the start, one state each; the columns inside the stacks are refined as rows come:

* a *cell* is a run of output columns, inside one stack, whose source columns are still
  interchangeable: blank in every row placed so far;
* placing a row in a cell puts its blanks first (they stay one cell), then its digits
  already named, smallest first, each a column of its own, then its new digits. Those
  take the next names in the order of their columns, whatever that order is, so the row
  is the same for every order: the columns form a *pending group*, whose positions are
  known but not which column goes where (nor, so, which digit gets which name);
* the next row settles the pending groups as it needs them: where it shows a digit of a
  group, the digit gets the group's first free name (its column the first free slot),
  and where it reaches a free slot, the columns that show the smallest value there are
  the choices. Only a tie between columns that name digits differently branches.

Each row is computed value by value and dropped at its first value above the smallest
row found; a smaller row clears the states kept. Every transformation of the group
completes one of the first states, so the states left after the last row all give the
minimal form. A full grid's first row is 1 to n in every state, and its pending groups
are settled by its second row without trying their n! orders one by one.

A state is one row of an int16 table (fields: :func:`_offsets`); the source rows used
are a bit mask beside it.
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
    """The work arrays of :func:`canonical_one`: the best row, the row being built, the
    candidates of a choice, the branches still to follow, clash masks, blank counts."""
    small = np.zeros((3, n), dtype=np.int16)
    width = state_width(n)
    queue = np.zeros((n * n + 1, width), dtype=np.int16)  # a branch: its state,
    queue_row = np.zeros((n * n + 1, n), dtype=np.int16)  # its row so far,
    queue_at = np.zeros((n * n + 1, 2), dtype=np.int64)  # its position and its choice
    cur = np.zeros(width, dtype=np.int16)
    masks = np.zeros((3, n), dtype=np.uint64)
    zeros = np.zeros((2, n + 1, n // bc), dtype=np.int64)  # blanks by row and stack
    return small, queue, queue_row, queue_at, cur, masks, zeros


@njit(cache=True, nogil=True)
def state_width(n):
    """Columns of a state: see :func:`_offsets`."""
    return 5 + 13 * n


@njit(cache=True, nogil=True)
def _offsets(n):
    """Where each field of a state starts: transpose flag (0), next label (1), pending
    groups (2) and new groups (3) of this row, then n source rows, n source columns, n
    cell starts, n free-slot flags, n + 1 digit labels, n pending groups of the columns,
    n groups of the positions, and 3 n + 3 n of the two group tables (start, size, first
    label)."""
    rows = 5
    col = rows + n
    cst = col + n
    free = cst + n
    lab = free + n
    cgrp = lab + n + 1
    pgrp = cgrp + n
    pend = pgrp + n
    new = pend + 3 * n
    return rows, col, cst, free, lab, cgrp, pgrp, pend, new


NEW = 30000  # the value of a digit not named yet: above every label


@njit(cache=True, nogil=True)
def _digit(p, n, t, r, c):
    return p[c * n + r] if t else p[r * n + c]


@njit(cache=True, nogil=True)
def _value(cur, p, n, t, r, c, o_lab, o_free, o_pend):
    """The smallest value column ``c`` of row ``r`` can show: 0, the digit's label, the
    first free label of its pending group, or NEW."""
    v = _digit(p, n, t, r, c)
    if v == 0:
        return 0
    label = np.int64(cur[o_lab + v])
    if label > 0:
        return label
    if label == 0:
        return NEW
    g = -label - 1
    a = np.int64(cur[o_pend + g])
    for q in range(a, a + cur[o_pend + n + g]):
        if cur[o_free + q]:
            return cur[o_pend + 2 * n + g] + (q - a)
    return NEW + 1  # unreachable: a pending digit's group has a free slot


@njit(cache=True, nogil=True)
def _name(cur, p, n, t, r, prev, c, offs):
    """Name the digit of row ``r`` in column ``c`` as :func:`_value` says: a pending
    digit takes its group's first free slot, a new one the next label."""
    _, o_col, _, o_free, o_lab, o_cgrp, _, o_pend, _ = offs
    e = _digit(p, n, t, r, c)
    if e == 0 or cur[o_lab + e] > 0:
        return
    if cur[o_lab + e] == 0:
        cur[o_lab + e] = cur[1]
        cur[1] += 1
        return
    g = -cur[o_lab + e] - 1
    home = -1
    for x in range(n):  # the column of e in the row of its group
        if cur[o_cgrp + x] == g and _digit(p, n, t, prev, x) == e:
            home = x
            break
    a = np.int64(cur[o_pend + g])
    for q in range(a, a + cur[o_pend + n + g]):
        if cur[o_free + q]:
            cur[o_col + q] = home
            cur[o_free + q] = 0
            cur[o_cgrp + home] = -1
            cur[o_lab + e] = cur[o_pend + 2 * n + g] + (q - a)
            return


@njit(cache=True, nogil=True)
def _larger(state, p, n, t, r, best, buf, o_col, o_cst, o_lab):
    """Whether row ``r`` makes a row above ``best`` in a state without pending groups,
    read without changing the state: each cell shows its blanks, its named digits by
    name, then its new digits named in order (most rows lose within a few values)."""
    nl = np.int64(state[1])
    a = 0
    while a < n:
        b = a + 1
        while b < n and state[o_cst + b] == 0:
            b += 1
        k = 0
        new = 0
        for q in range(a, b):
            v = _digit(p, n, t, r, state[o_col + q])
            if v == 0:
                buf[k] = 0
                k += 1
            elif state[o_lab + v] == 0:
                new += 1
        for q in range(a, b):  # the named digits, sorted by insertion
            v = _digit(p, n, t, r, state[o_col + q])
            if v != 0 and state[o_lab + v] > 0:
                label = state[o_lab + v]
                i = k
                while i > 0 and buf[i - 1] > label:
                    buf[i] = buf[i - 1]
                    i -= 1
                buf[i] = label
                k += 1
        for _ in range(new):
            buf[k] = nl
            nl += 1
            k += 1
        for i in range(b - a):
            if buf[i] != best[a + i]:
                return buf[i] > best[a + i]
        a = b
    return False


@njit(cache=True, nogil=True)
def _copy_state(dst, src, n, o_pend, o_new):
    """``dst[:] = src`` for the fields in use: the group tables only up to their
    counts."""
    for j in range(o_pend):
        dst[j] = src[j]
    for f in range(3):
        for g in range(src[2]):
            dst[o_pend + f * n + g] = src[o_pend + f * n + g]
        for g in range(src[3]):
            dst[o_new + f * n + g] = src[o_new + f * n + g]


@njit(cache=True, nogil=True)
def _fill_slot(cur, p, n, t, r, prev, offs, pos, m, c, row):
    """Column ``c`` into the free slot ``pos`` of its pending group: its digit of the
    group's row takes the slot's label. Returns the next position."""
    _, o_col, o_cst, _, o_lab, o_cgrp, o_pgrp, o_pend, _ = offs
    g = cur[o_pgrp + pos]
    cur[o_col + pos] = c
    cur[o_cgrp + c] = -1
    cur[o_cst + pos] = 1
    cur[o_lab + _digit(p, n, t, prev, c)] = cur[o_pend + 2 * n + g] + (pos - cur[o_pend + g])
    row[pos] = cur[1] if m >= NEW else m  # a new digit takes the next label
    _name(cur, p, n, t, r, prev, c, offs)
    return pos + 1


@njit(cache=True, nogil=True)
def _fill_cell(cur, p, n, t, r, prev, offs, pos, end, m, at, row):
    """The cell ``pos..end`` of interchangeable columns, whose smallest value is ``m``:
    its blanks (one cell still), or its new digits (a new pending group), or the column
    at ``at`` alone. Returns the next position."""
    _, o_col, o_cst, _, o_lab, _, _, _, o_new = offs
    if m == 0:
        z = pos
        for q in range(pos, end):
            c = cur[o_col + q]
            if _digit(p, n, t, r, c) == 0:
                cur[o_col + q] = cur[o_col + z]
                cur[o_col + z] = c
                z += 1
        for q in range(pos, z):
            cur[o_cst + q] = 1 if q == pos else 0
            row[q] = 0
        if z < end:
            cur[o_cst + z] = 1
        return z
    if m >= NEW:
        if end - pos == 1:
            row[pos] = cur[1]
            _name(cur, p, n, t, r, prev, cur[o_col + pos], offs)
            return end
        g = cur[3]
        cur[3] += 1
        cur[o_new + g] = pos
        cur[o_new + n + g] = end - pos
        cur[o_new + 2 * n + g] = cur[1]
        for q in range(pos, end):
            cur[o_lab + _digit(p, n, t, r, cur[o_col + q])] = -(g + 1)
            cur[o_cst + q] = 1
            row[q] = cur[1] + (q - pos)
        cur[1] += end - pos
        return end
    c = cur[o_col + at]
    cur[o_col + at] = cur[o_col + pos]
    cur[o_col + pos] = c
    _name(cur, p, n, t, r, prev, c, offs)
    cur[o_cst + pos] = 1
    if pos + 1 < end:
        cur[o_cst + pos + 1] = 1
    row[pos] = m
    return pos + 1


@njit(cache=True, nogil=True)
def _pend_new(state, n, offs):
    """End of a row: its new groups become the pending groups, their positions free
    slots (the columns there are placeholders until the next row names them)."""
    _, o_col, _, o_free, _, o_cgrp, o_pgrp, o_pend, o_new = offs
    groups = state[3]
    for g in range(groups):
        a = state[o_new + g]
        for q in range(a, a + state[o_new + n + g]):
            state[o_free + q] = 1
            state[o_pgrp + q] = g
            state[o_cgrp + state[o_col + q]] = g
        for f in range(3):
            state[o_pend + f * n + g] = state[o_new + f * n + g]
    state[2] = groups
    state[3] = 0


@njit(cache=True, nogil=True)
def _extract(state, p, n, offs, trans):
    """The transformation of a final state; a digit still pending is named by the slot
    its placeholder column holds."""
    o_rows, o_col, _, _, o_lab, _, _, o_pend, _ = offs
    t = state[0]
    trans[0] = t
    last = state[o_rows + n - 1]
    for i in range(n):
        trans[1 + i] = state[o_rows + i]
        trans[1 + n + i] = state[o_col + i]
    for q in range(n):
        v = _digit(p, n, t, last, state[o_col + q])
        if v != 0 and state[o_lab + v] < 0:
            g = -state[o_lab + v] - 1
            state[o_lab + v] = state[o_pend + 2 * n + g] + (q - state[o_pend + g])
    nl = state[1]
    trans[1 + 2 * n] = 0
    for d in range(1, n + 1):
        label = state[o_lab + d]
        if label == 0:  # a digit the puzzle lacks: the labels left, in order
            label = nl
            nl += 1
        trans[1 + 2 * n + d] = label


@njit(cache=True, nogil=True)
def canonical_one(p, n, br, bc, perms, limit, S, U, T, V, out, trans, work):
    """The minimal form of puzzle ``p`` into ``out`` and the transformation into
    ``trans`` (transpose flag, the n source rows, the n source columns, the n + 1
    digit labels); the tables ``S, U`` and ``T, V`` hold the states (grown as needed,
    up to ``limit`` rows); ``work`` is :func:`canonical_work`. Returns the status and
    the four tables."""
    small, queue, queue_row, queue_at, cur, masks, zeros = work
    if _clash(p, n, br, bc, masks[0], masks[1], masks[2]):
        return CLASH, S, U, T, V
    offs = _offsets(n)
    o_rows, o_col, o_cst, o_free, o_lab, o_cgrp, o_pgrp, o_pend, o_new = offs
    width = S.shape[1]
    one = np.uint64(1)
    band_bits = (one << np.uint64(br)) - one
    stacks = n // bc
    best, row, cand = small[0], small[1], small[2]
    # blanks of each row in each stack, and (row 0) the best blank counts stack by stack:
    # a first row is its blanks then new digits, stack by stack, so the more blanks in
    # the earlier stacks, the smaller the row
    for t in range(2):
        for r in range(n):
            for k in range(stacks):
                zeros[t, r, k] = 0
            for c in range(n):
                if _digit(p, n, t, r, c) == 0:
                    zeros[t, r, c // bc] += 1
    top = zeros[0, n]  # the best counts so far
    top_set = False
    count = 0
    for t in range(2 if br == bc else 1):
        for q in range(perms.shape[0]):
            if count == S.shape[0]:
                S, U = _grow(S, U, 2 * count)
            for j in range(width):
                S[count, j] = 0
            S[count, 0] = t
            S[count, 1] = 1
            for c in range(n):
                S[count, o_cgrp + c] = -1
            for k in range(stacks):
                for i in range(bc):
                    S[count, o_col + k * bc + i] = perms[q, k] * bc + i
                S[count, o_cst + k * bc] = 1
            U[count] = 0
            count += 1
    for depth in range(n):
        kept = 0
        have = False
        entering = depth % br == 0
        for s in range(count):
            t = S[s, 0]
            used = U[s]
            prev = S[s, o_rows + depth - 1] if depth > 0 else 0
            for r in range(n):
                if (used >> np.uint64(r)) & one:
                    continue
                if entering:
                    if (used >> np.uint64((r // br) * br)) & band_bits:
                        continue
                elif r // br != prev // br:
                    continue
                if depth == 0:  # the blank counts first: fewer blanks early loses at once
                    worse = False
                    for k in range(stacks):
                        z = zeros[t, r, S[s, o_col + k * bc] // bc]
                        if not top_set or z > top[k]:
                            for x in range(k, stacks):
                                top[x] = zeros[t, r, S[s, o_col + x * bc] // bc]
                            top_set = True
                            break
                        if z < top[k]:
                            worse = True
                            break
                    if worse:
                        continue
                if have and S[s, 2] == 0:  # no pending group: a quick look first
                    if _larger(S[s], p, n, t, r, best, cand, o_col, o_cst, o_lab):
                        continue
                waiting = 0
                fresh = True
                while fresh or waiting > 0:  # the branches of row r in state s, depth first
                    equal = have  # equal to the best row so far, else smaller
                    larger = False
                    if fresh:
                        _copy_state(cur, S[s], n, o_pend, o_new)
                        cur[o_rows + depth] = r
                        pos = 0
                        forced = -1
                        fresh = False
                    else:
                        waiting -= 1
                        _copy_state(cur, queue[waiting], n, o_pend, o_new)
                        pos = queue_at[waiting, 0]
                        forced = queue_at[waiting, 1]
                        for q in range(pos):
                            row[q] = queue_row[waiting, q]
                            if equal and row[q] != best[q]:
                                larger = row[q] > best[q]
                                equal = False
                                if larger:
                                    break
                    while pos < n and not larger:
                        # the smallest value at pos, and the columns that give it
                        first = pos
                        slot = cur[o_free + pos] != 0  # a slot of a pending group
                        m = NEW + 2
                        k = 0
                        if slot:
                            g = cur[o_pgrp + pos]
                            cur[o_free + pos] = 0
                            for c in range(n):
                                if cur[o_cgrp + c] == g:
                                    v = _value(cur, p, n, t, r, c, o_lab, o_free, o_pend)
                                    if v < m:
                                        m = v
                                        k = 0
                                    if v == m:
                                        cand[k] = c
                                        k += 1
                        else:
                            end = pos + 1
                            while end < n and cur[o_cst + end] == 0:
                                end += 1
                            for q in range(pos, end):
                                v = _value(cur, p, n, t, r, cur[o_col + q], o_lab, o_free, o_pend)
                                if v < m:
                                    m = v
                                    k = 0
                                if v == m:
                                    cand[k] = q
                                    k += 1
                        pick = 0
                        if k > 1 and (slot or 0 < m < NEW):  # a tie that names digits
                            if forced >= 0:
                                pick = forced
                            else:
                                for alt in range(1, k):  # the other choices, for later
                                    _copy_state(queue[waiting], cur, n, o_pend, o_new)
                                    if slot:
                                        queue[waiting, o_free + pos] = 1
                                    for q in range(pos):
                                        queue_row[waiting, q] = row[q]
                                    queue_at[waiting, 0] = pos
                                    queue_at[waiting, 1] = alt
                                    waiting += 1
                        forced = -1
                        if slot:
                            pos = _fill_slot(cur, p, n, t, r, prev, offs, pos, m, cand[pick], row)
                        else:
                            pos = _fill_cell(
                                cur, p, n, t, r, prev, offs, pos, end, m, cand[pick], row
                            )
                        for q in range(first, pos):
                            if equal and row[q] != best[q]:
                                larger = row[q] > best[q]
                                equal = False
                                if larger:
                                    break
                    if larger:
                        continue
                    if not equal:  # a new smallest row
                        for q in range(n):
                            best[q] = row[q]
                        have = True
                        kept = 0
                    if kept == T.shape[0]:
                        if kept >= limit:
                            return TOO_MANY, S, U, T, V
                        T, V = _grow(T, V, min(2 * kept, limit))
                    _copy_state(T[kept], cur, n, o_pend, o_new)
                    V[kept] = used | (one << np.uint64(r))
                    _pend_new(T[kept], n, offs)
                    kept += 1
        for q in range(n):
            out[depth * n + q] = best[q]
        S, U, T, V = T, V, S, U
        count = kept
    _extract(S[0], p, n, offs, trans)
    return DONE, S, U, T, V


@njit(cache=True, nogil=True)
def _chunk(c, n_chunks, puzzles, n, br, bc, perms, limit, out, trans, status):
    width = state_width(n)
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
