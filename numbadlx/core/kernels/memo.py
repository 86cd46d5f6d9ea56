"""Memoised Algorithms X and C that build a decision diagram of every solution.

This is the idea of Nishino, Yasuda, Minato and Nagata's DXZ (AAAI 2017) and of
Knuth's DLX6: two branches of the search that reach the same *subproblem* have the
same completions, so each subproblem is searched once and its result (a node of a
zero-suppressed decision diagram, ZDD) is kept in a cache and reused.

The subproblem key
------------------
The options still active in the links are fixed by

* the set of primary items still to be covered (one bit each), and
* for every secondary item: covered or open (Algorithm X, one bit each), or, with
  colours (Algorithm C), open or purified to a colour ``c`` (32 bits each: ``0``,
  ``1`` for open, ``c + 1`` for purified).

A secondary item that no active option holds any more (length 0) gets the key value
``0`` whatever happened to it: it can no longer constrain anything, and merging those
states lets more branches meet. Two states with equal keys have the same active
options, hence the same completions. The cache is an open-addressing hash table;
the hash only picks the slot where the probe starts: a hit needs the stored 64-bit
hash *and every word of the stored key* to equal the current one.

The diagram
-----------
Node ``0`` is the empty family (no solution, "bottom"), node ``1`` the family holding
only the empty set ("top"). Every other node ``z`` reads "option ``opt[z]``": the
solutions of ``z`` are those of ``lo[z]`` plus those of ``hi[z]`` with ``opt[z]``
added. A subproblem whose chosen item ``i`` has the options ``o1, o2, ...`` (with
non-empty completions ``z1, z2, ...``) becomes the chain
``(o1, lo=(o2, lo=..., hi=z2), hi=z1)``. Children are always made before their
parents, so node numbers are a topological order. The number of solutions of every
node is kept as a 128-bit integer (two uint64 words); if that ever overflows,
``state[S_OVERFLOW]`` is set and the caller recounts with Python integers.

The kernel is resumable like the plain ones: it stops at a node budget, or when its
tables are too full (:data:`RET_GROW`: the caller enlarges them, within its memory
budget, and calls again), and carries on from ``state``. It never allocates.
"""

import numpy as np
from numba import njit

from ..links import AUX, DOWN, ITEM, UP
from .common import MARK, ONE, choose_mrv, cover, option_of, purify, uncover, unpurify

__all__ = ["memo_x", "memo_c", "rehash", "RET_GROW"]

# return codes (RET_DONE and RET_BUDGET as in common)
RET_DONE = 0
RET_BUDGET = 2
RET_GROW = 3  # the hash table, the key store or the node table needs more room

# state slots
S_PC = 0  # 0 enter a level, 2 done
S_LEVEL = 1
S_ENTRIES = 2  # cache entries in use
S_ZDD = 3  # diagram nodes in use (0 and 1 are the terminals)
S_PENDING = 4  # (option, child) pairs waiting to become a chain
S_ROOT = 5  # the root node, once done
S_OVERFLOW = 6  # 1 when a 128-bit count overflowed
N_STATE = 7

# stats slots
M_NODES = 0  # subproblems entered (search-tree nodes)
M_HITS = 1  # of which answered by the cache
M_UPDATES = 2  # link updates
N_MSTATS = 3

PC_ENTER = 0
PC_DONE = 2

_EMPTY = -1
_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_SEED = np.uint64(0x9E3779B97F4A7C15)
_S33 = np.uint64(33)
_U1 = np.uint64(1)
_U0 = np.uint64(0)


@njit(cache=True, nogil=True, inline="always")
def _hash(key):
    """A 64-bit hash of the key words (it only chooses where a probe starts)."""
    h = _SEED
    for w in range(key.shape[0]):
        h ^= key[w]
        h *= _M1
        h ^= h >> _S33
    h *= _M2
    h ^= h >> _S33
    return h


@njit(cache=True, nogil=True, inline="always")
def _make_key(nodes, items, n_items, n_primary, words_primary, sec_colour, key, colours):
    """Write the current subproblem's key into ``key`` (see the module)."""
    for w in range(key.shape[0]):
        key[w] = _U0
    p = items[1, 0]
    while p != 0:
        b = np.int64(p) - 1
        key[b >> 6] |= _U1 << np.uint64(b & 63)
        p = items[1, p]
    head = n_items + 1
    p = items[1, head]
    while p != head:
        if nodes[ITEM, p] > 0:
            s = np.int64(p) - n_primary - 1
            if colours:
                value = np.uint64(sec_colour[s]) + _U1
                key[words_primary + (s >> 1)] |= value << np.uint64((s & 1) * 32)
            else:
                key[words_primary + (s >> 6)] |= _U1 << np.uint64(s & 63)
        p = items[1, p]


@njit(cache=True, nogil=True, inline="always")
def _new_node(option, lo, hi, zdd, counts, n_zdd, state):
    """Append node ``(option, lo, hi)`` with its 128-bit count; return its number."""
    z = n_zdd
    zdd[0, z] = option
    zdd[1, z] = lo
    zdd[2, z] = hi
    low = counts[0, lo] + counts[0, hi]
    carry = _U1 if low < counts[0, lo] else _U0
    high = counts[1, lo] + counts[1, hi]
    if high < counts[1, lo]:
        state[S_OVERFLOW] = 1
    high2 = high + carry
    if high2 < high:
        state[S_OVERFLOW] = 1
    counts[0, z] = low
    counts[1, z] = high2
    return z


@njit(cache=True, nogil=True)
def memo_x(
    nodes,
    items,
    n_items,
    n_primary,
    words_primary,
    margin,
    choice,
    level_entry,
    pending_start,
    pending,
    sec_colour,
    key,
    slots,
    hashes,
    keys,
    values,
    zdd,
    counts,
    state,
    stats,
    max_nodes,
    colours=None,
):
    """Memoised Algorithm X from the point saved in ``state``; builds the diagram.

    Parameters
    ----------
    nodes, items : DLX1 tables (changed in place, restored when the search is done).
    n_items, n_primary : int
    words_primary : int, key words holding the primary items' bits.
    margin : int, diagram nodes that must be free before a subproblem is entered
        (the number of options is enough).
    choice, level_entry, pending_start : per-level stacks (n_primary + 1,): the node
        tried, the cache entry of the subproblem, where its pending pairs start.
    pending : int64 (2, n_options + 1), the (option, child) pairs of the levels open.
    sec_colour : uint32 (n_secondary,), the colour a secondary item is purified to.
    key : uint64 (n_words,), scratch for the current key.
    slots : int64 (2**k,), the hash table: entry numbers or -1.
    hashes, keys, values : the entries: 64-bit hash, key words, diagram node (-1
        while the subproblem is being searched).
    zdd : int64 (3, capacity): rows option, lo, hi.
    counts : uint64 (2, capacity): solutions of each node, low and high word.
    state : int64 (N_STATE,), see the S_ slots; stats : int64 (N_MSTATS,).
    max_nodes : stop once this many subproblems were entered (<= 0: no budget).
    colours : None (leave it out) for Algorithm X; :func:`memo_c` passes True.
        None, not False: Numba drops the branches of ``colours is None`` when it
        compiles (an omitted None is a type of its own), so Algorithm X compiles none
        of the colour code and none of the helpers only that code calls; a literal
        False would leave them in. The body is this kernel's own rather than a
        helper's that both kernels call: compiled as a kernel of its own, the helper's
        code was optimised once for it and again inside its caller (0.35 s of CPU of
        a first ``count --method memo``, whose target is 4 s). Inlining that helper
        (``inline="always"``) instead did not pay: Numba's copy of its IR took 0.7 s.

    Returns
    -------
    RET_DONE (``state[S_ROOT]`` is the root), RET_BUDGET or RET_GROW.
    """
    if state[S_PC] == PC_DONE:
        return RET_DONE
    level = state[S_LEVEL]
    n_entries = state[S_ENTRIES]
    n_zdd = state[S_ZDD]
    n_pending = state[S_PENDING]
    nodes_seen = stats[M_NODES]
    hits = stats[M_HITS]
    updates = stats[M_UPDATES]
    mask = np.uint64(slots.shape[0] - 1)
    code = RET_DONE
    while True:
        # ---- enter the subproblem at `level`
        if max_nodes > 0 and nodes_seen >= max_nodes:
            code = RET_BUDGET
            break
        if (
            n_entries >= keys.shape[0]
            or 2 * (n_entries + 1) > slots.shape[0]
            or n_zdd + margin > zdd.shape[1]
        ):
            code = RET_GROW
            break
        nodes_seen += 1
        result = -1
        if items[1, 0] == 0:
            result = 1  # every primary item covered: the empty completion
        else:
            if colours is None:
                _make_key(nodes, items, n_items, n_primary, words_primary, sec_colour, key, False)
            else:
                _make_key(nodes, items, n_items, n_primary, words_primary, sec_colour, key, True)
            h = _hash(key)
            s = h & mask
            while True:
                e = slots[s]
                if e == _EMPTY:
                    break
                if hashes[e] == h:
                    same = True
                    for w in range(key.shape[0]):
                        if keys[e, w] != key[w]:
                            same = False
                            break
                    if same:
                        result = values[e]
                        hits += 1
                        break
                s = (s + _U1) & mask
            if result < 0:
                # a new subproblem: store its key now (value filled in when it is done)
                e = n_entries
                n_entries += 1
                slots[s] = e
                hashes[e] = h
                for w in range(key.shape[0]):
                    keys[e, w] = key[w]
                values[e] = -1
                # choose an item: minimum remaining values, the first of equals
                i, best = choose_mrv(nodes, items)
                if best == 0:
                    values[e] = 0
                    result = 0
                else:
                    if colours is None:
                        updates += cover(nodes, items, i, False)
                    else:
                        updates += cover(nodes, items, i, True)
                    level_entry[level] = e
                    pending_start[level] = n_pending
                    x = nodes[DOWN, i]
                    choice[level] = x
        # ---- try options, return results upward, until a new subproblem is entered
        while True:
            if result >= 0:
                # the subproblem at `level` is answered: hand the result to its parent
                if level == 0:
                    break
                level -= 1
                x = choice[level]
                if result != 0:
                    pending[0, n_pending] = option_of(nodes, x)
                    pending[1, n_pending] = result
                    n_pending += 1
                # undo the commits of x's option, walking left
                p = x - ONE
                while p != x:
                    j = nodes[ITEM, p]
                    if j == 0:
                        p = nodes[DOWN, p]
                    else:
                        if colours is None:
                            uncover(nodes, items, j, False)
                        else:
                            c = nodes[AUX, p]
                            if c == 0:
                                uncover(nodes, items, j, True)
                            elif c != MARK:
                                unpurify(nodes, p)
                                sec_colour[j - n_primary - 1] = 0
                        p -= ONE
                x = nodes[DOWN, x]
                choice[level] = x
                result = -1
            x = choice[level]
            if x <= n_items:
                # every option of item x tried: build the chain, bottom option first
                z = np.int64(0)  # not the literal 0: no second specialisation of _new_node
                start = pending_start[level]
                for t in range(n_pending - 1, start - 1, -1):
                    z = _new_node(pending[0, t], z, pending[1, t], zdd, counts, n_zdd, state)
                    n_zdd += 1
                n_pending = start
                if colours is None:
                    uncover(nodes, items, x, False)
                else:
                    uncover(nodes, items, x, True)
                values[level_entry[level]] = z
                result = z
                continue
            # try x: commit the other items of its option, walking right
            p = x + ONE
            while p != x:
                j = nodes[ITEM, p]
                if j == 0:
                    p = nodes[UP, p]
                else:
                    if colours is None:
                        updates += cover(nodes, items, j, False)
                    else:
                        c = nodes[AUX, p]
                        if c == 0:
                            updates += cover(nodes, items, j, True)
                        elif c != MARK:
                            updates += purify(nodes, p)
                            sec_colour[j - n_primary - 1] = c
                    p += ONE
            level += 1
            break
        if result >= 0 and level == 0:
            state[S_ROOT] = result
            state[S_PC] = PC_DONE
            code = RET_DONE
            break
    state[S_LEVEL] = level
    state[S_ENTRIES] = n_entries
    state[S_ZDD] = n_zdd
    state[S_PENDING] = n_pending
    stats[M_NODES] = nodes_seen
    stats[M_HITS] = hits
    stats[M_UPDATES] = updates
    return code


@njit(cache=True, nogil=True)
def memo_c(
    nodes,
    items,
    n_items,
    n_primary,
    words_primary,
    margin,
    choice,
    level_entry,
    pending_start,
    pending,
    sec_colour,
    key,
    slots,
    hashes,
    keys,
    values,
    zdd,
    counts,
    state,
    stats,
    max_nodes,
):
    """Memoised Algorithm C (colours): the arguments and result of :func:`memo_x`."""
    return memo_x(
        nodes,
        items,
        n_items,
        n_primary,
        words_primary,
        margin,
        choice,
        level_entry,
        pending_start,
        pending,
        sec_colour,
        key,
        slots,
        hashes,
        keys,
        values,
        zdd,
        counts,
        state,
        stats,
        max_nodes,
        True,
    )


@njit(cache=True, nogil=True)
def rehash(hashes, n_entries, slots):
    """Fill the empty hash table ``slots`` (all -1, a power of two long) with entries
    ``0..n_entries-1`` by their stored hashes."""
    mask = np.uint64(slots.shape[0] - 1)
    for e in range(n_entries):
        s = hashes[e] & mask
        while slots[s] != _EMPTY:
            s = (s + _U1) & mask
        slots[s] = e
