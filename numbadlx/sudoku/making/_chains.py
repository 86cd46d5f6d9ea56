"""The logic ladder's chains and trials: X-chains, forcing chains, nishio and dynamic
forcing chains.

Chains follow links between the candidates as they stand (static); trials assume a
candidate and follow its consequences (:func:`settle`). Each of them finds everything
it can remove on the same candidates, then removes it all
(:func:`remove_marked`); the count removed is returned as by the basic techniques.
"""

import numpy as np
from numba import njit

from ._masks import (
    ONE,
    PLACED,
    ZERO,
    bit_index,
    cleared,
    cleared_rows,
    copy_into,
    inner_njit,
    lowest_bit,
    popcount,
)
from ._search import singles
from ._techniques import eliminate, fish, hidden_subset, locked_candidates, naked_subset


@inner_njit(cache=True, nogil=True)
def strong_links(cand, units, n, strong):
    """Fill ``strong``: entry ``(cell * n + d) * 3 + kind`` is the other cell of digit
    ``d + 1`` in the cell's row (kind 0), column (1) or box (2) when the digit has
    exactly two places left there (a *strong link*: one of the two holds it), else -1."""
    nn = cand.shape[0]
    for i in range(3 * nn * n):  # a loop: a slice assignment compiles more
        strong[i] = -1
    for u in range(units.shape[0]):
        kind = u // n
        for d in range(n):
            bit = ONE << np.uint64(d)
            a = -1
            b = -1
            count = 0
            for j in range(n):
                c = cand[units[u, j]]
                if c & bit:
                    if c & PLACED:
                        count = 3
                        break
                    count += 1
                    if count == 1:
                        a = units[u, j]
                    elif count == 2:
                        b = units[u, j]
                    else:
                        break
            if count == 2:
                strong[(a * n + d) * 3 + kind] = b
                strong[(b * n + d) * 3 + kind] = a


@inner_njit(cache=True, nogil=True)
def follow_strong(cand, n, strong, off, mixed, queue, tail, seen_on, stamp):
    """Candidate ``off`` is false: queue the candidates that must then be true (its
    strong-link partners; with ``mixed`` also the other digit of a two-digit cell,
    through a mask as in :func:`chain_refutes`). Returns the new queue tail."""
    cell = off // n
    d = off % n
    for kind in range(3):
        partner = strong[off * 3 + kind]
        if partner >= 0:
            on = partner * n + d
            if seen_on[on] != stamp:
                seen_on[on] = stamp
                queue[tail] = on
                tail += 1
    c = cand[cell] & (~PLACED if mixed else ZERO)
    if popcount(c) == 2:
        on = cell * n + bit_index(c & ~(ONE << np.uint64(d)))
        if seen_on[on] != stamp:
            seen_on[on] = stamp
            queue[tail] = on
            tail += 1
    return tail


@inner_njit(cache=True, nogil=True)
def chain_refutes(cand, peers, n, strong, start, mixed, queue, seen_on, seen_off, stamp):
    """True if a chain leads from candidate ``start`` (``cell * n + d``) being true to
    ``start`` being false, so that it can go.

    The chain alternates: a true candidate makes its peers with the same digit false
    (with ``mixed`` also the other digits of its cell); a false candidate makes its
    strong-link partner true (with ``mixed`` also the other digit of a two-digit cell).
    Links are those of the current candidates (static, as in Sudoku Explainer's forcing
    chains); breadth first, so the chain found is a shortest one. Entries of ``seen_on``
    and ``seen_off`` equal to ``stamp`` mark visited candidates.

    ``mixed`` becomes a mask of the links inside cells (all digits or none), a value
    rather than a branch in the inner loops: as a value (a small call compiles both
    kinds of chains once) it then costs little; as a constant (a large call) the mask
    is one too."""
    cell_links = ~PLACED if mixed else ZERO
    head = 0
    tail = np.int64(1)
    queue[0] = start
    seen_on[start] = stamp
    while head < tail:
        node = queue[head]
        head += 1
        cell = node // n
        bit = ONE << np.uint64(node % n)
        for j in range(peers.shape[1]):
            p = peers[cell, j]
            c = cand[p]
            if (c & PLACED) or not (c & bit):
                continue
            off = p * n + node % n
            if off == start:
                return True
            if seen_off[off] != stamp:
                seen_off[off] = stamp
                tail = follow_strong(cand, n, strong, off, mixed, queue, tail, seen_on, stamp)
        rest = cand[cell] & ~bit & cell_links
        while rest:
            other = lowest_bit(rest)
            rest ^= other
            off = cell * n + bit_index(other)
            if off == start:
                return True
            if seen_off[off] != stamp:
                seen_off[off] = stamp
                tail = follow_strong(cand, n, strong, off, mixed, queue, tail, seen_on, stamp)
    return False


@inner_njit(cache=True, nogil=True, inline="always")
def remove_marked(cand, gone, first):
    """Remove ``gone[cell]`` from every unplaced cell; the number of candidates removed."""
    removed = 0
    for cell in range(cand.shape[0]):
        if gone[cell]:
            removed += eliminate(cand, cell, gone[cell], first)
    return removed


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder
def chains(cand, units, peers, n, mixed, cands, first):
    """X-chains (one digit, links along rows, columns and boxes) or, with ``mixed``,
    forcing chains (also links inside cells: XY-chains, W-wings and other alternating
    inference chains): every candidate from which :func:`chain_refutes` finds a chain
    to its own negation goes. All are found on the same candidates, then removed."""
    nn = cand.shape[0]
    size = nn * n
    strong = np.empty(3 * size, dtype=np.int64)
    queue = np.empty(size, dtype=np.int64)
    seen_on = cleared(np.empty(size, dtype=np.int64))
    seen_off = cleared(np.empty(size, dtype=np.int64))
    strong_links(cand, units, n, strong)
    gone = cands[2]
    cleared(gone)
    stamp = 0
    for cell in range(nn):
        c = cand[cell]
        if c & PLACED:
            continue
        while c:
            bit = lowest_bit(c)
            c ^= bit
            stamp += 1
            start = cell * n + bit_index(bit)
            if chain_refutes(cand, peers, n, strong, start, mixed, queue, seen_on, seen_off, stamp):
                gone[cell] |= bit
    return remove_marked(cand, gone, first)


@inner_njit(cache=True, nogil=True, inline="always")
def settle(trial, units, peers, where, full, plus, ints, stack, first, consts):
    """Follow the consequences in ``trial``: naked and hidden singles until none is left
    and, with ``plus``, also locked candidates, hidden and naked pairs and X-wings (the
    techniques Sudoku Explainer's "dynamic forcing chains (+)" use inside a chain).
    ``consts`` is ``(2, True, False)``: the pair size and the two flags of locked
    candidates, given by the caller so that these helpers are compiled for the types
    the caller's own rungs take: constants in the compiled ladder (settling is the
    inner loop of the trial rungs), plain values in the ladder driven from Python
    (whose rungs then share one compile with the helpers here).
    False on a contradiction. ``ints`` (two rows of n) and ``stack`` are scratch."""
    pair, yes, no = consts
    while True:
        if singles(trial, units, peers, stack) < 0:
            return False
        if not plus:
            return True
        if locked_candidates(trial, units, where, yes, first) > 0:
            continue
        if locked_candidates(trial, units, where, no, first) > 0:
            continue
        if hidden_subset(trial, units, pair, first, ints[1], ints[0]) > 0:
            continue
        if naked_subset(trial, units, pair, first, ints[0]) > 0:
            continue
        if fish(trial, units, pair, first, ints[0], ints[1]) > 0:
            continue
        return True


@inner_njit(cache=True, nogil=True, inline="always")
def try_branch(
    cand, trial, cell, keep, units, peers, where, full, plus, ints, stack, first, consts
):
    """``trial`` becomes ``cand`` with ``cell`` cut down to the candidates ``keep``,
    settled (:func:`settle`, ``consts`` its constants); False if that leads to a
    contradiction. Inlined by Numba into its caller: compiled on its own, this
    wrapper would be one more level that links :func:`settle` and every helper under
    it and optimises them all again."""
    copy_into(trial, cand)
    trial[cell] = keep
    if keep == ZERO:
        return False
    return settle(trial, units, peers, where, full, plus, ints, stack, first, consts)


@inner_njit(cache=True, nogil=True)
def add_branch(union, trial):
    """Digits a branch leaves in each cell, added to ``union``."""
    for cell in range(trial.shape[0]):
        union[cell] |= trial[cell] & ~PLACED


@inner_njit(cache=True, nogil=True)
def mark_outside(cand, union, gone):
    """Candidates that no branch kept go to ``gone``."""
    for cell in range(cand.shape[0]):
        if not (cand[cell] & PLACED):
            gone[cell] |= cand[cell] & ~union[cell]


@inner_njit(cache=True, nogil=True)
def digit_trial(cand, units, peers, where, cell, d, possible, done):
    """Nishio's test: place digit ``d + 1`` in ``cell`` and follow that digit alone
    (every unit where it has one place left gets it there). True if that leads to a
    unit with no place for it. ``possible`` (n^2) and ``done`` (3 n) are scratch."""
    n = units.shape[1]
    bit = ONE << np.uint64(d)
    cleared(done)
    for k in range(cand.shape[0]):
        c = cand[k]
        possible[k] = 1 if (c & bit) and not (c & PLACED) else 0
        if (c & bit) and (c & PLACED):
            for kind in range(3):
                done[kind * n + where[k, kind]] = 1
    place_at = cell
    while True:
        if place_at >= 0:
            possible[place_at] = 0
            for kind in range(3):
                done[kind * n + where[place_at, kind]] = 1
            for j in range(peers.shape[1]):
                possible[peers[place_at, j]] = 0
        place_at = -1
        for u in range(3 * n):
            if done[u]:
                continue
            count = 0
            last = -1
            for j in range(n):
                if possible[units[u, j]]:
                    count += 1
                    last = units[u, j]
            if count == 0:
                return True
            if count == 1:
                place_at = last
                break
        if place_at < 0:
            return False


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder
def nishio(cand, units, peers, where, cands, first):
    """Nishio: a candidate whose digit, placed there and followed alone
    (:func:`digit_trial`), leaves some unit without a place for it goes. Every
    candidate is tried on the same candidates, then all refuted ones are removed."""
    gone = cands[2]
    cleared(gone)
    possible = np.empty(cand.shape[0], dtype=np.int64)
    done = np.empty(3 * units.shape[1], dtype=np.int64)
    for cell in range(cand.shape[0]):
        c = cand[cell]
        if c & PLACED:
            continue
        while c:
            bit = lowest_bit(c)
            c ^= bit
            if digit_trial(cand, units, peers, where, cell, bit_index(bit), possible, done):
                gone[cell] |= bit
    return remove_marked(cand, gone, first)


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder
def dynamic_chains(cand, units, peers, where, full, plus, ints, cands, first, consts):
    """Dynamic forcing chains: every candidate is assumed in turn (and, in a cell with
    three or more, its absence too), each branch followed by :func:`settle`. A candidate
    whose branch ends in a contradiction goes (whose absence does: the cell's others
    go); what all the digits of a cell (cell forcing), all the places of a digit in a
    unit (unit forcing), or a candidate and its absence (double forcing) agree on
    removing goes. All on the same candidates. ``consts``: :func:`settle`'s."""
    n = units.shape[1]
    nn = cand.shape[0]
    trial = cands[0]
    union = cands[1]
    gone = cands[2]
    on = cands[3]
    cleared(gone)
    unions = cleared_rows(np.empty((3 * n * n, nn), dtype=np.uint64))  # of each unit, digit
    stack = np.empty(16 * nn + 64, dtype=np.int32)
    dummy = cleared(np.empty(2, dtype=np.int64))
    for cell in range(nn):
        c = cand[cell]
        if c & PLACED:
            continue
        cleared(union)
        rest = c
        while rest:
            bit = lowest_bit(rest)
            rest ^= bit
            if not try_branch(
                cand, on, cell, bit, units, peers, where, full, plus, ints, stack, dummy, consts
            ):
                gone[cell] |= bit
                continue
            add_branch(union, on)
            d = bit_index(bit)
            for kind in range(3):
                add_branch(unions[(kind * n + where[cell, kind]) * n + d], on)
            if popcount(c) > 2:  # a two-digit cell's double forcing is its cell forcing
                if not try_branch(
                    cand,
                    trial,
                    cell,
                    c & ~bit,
                    units,
                    peers,
                    where,
                    full,
                    plus,
                    ints,
                    stack,
                    dummy,
                    consts,
                ):
                    gone[cell] |= c & ~bit
                    continue
                add_branch(trial, on)
                mark_outside(cand, trial, gone)
        mark_outside(cand, union, gone)
    for u in range(units.shape[0]):
        for d in range(n):
            bit = ONE << np.uint64(d)
            places = 0
            for j in range(n):
                c = cand[units[u, j]]
                if c & bit:
                    places += 1 if not (c & PLACED) else n + 1
            if 2 <= places <= n:
                mark_outside(cand, unions[u * n + d], gone)
    return remove_marked(cand, gone, first)
