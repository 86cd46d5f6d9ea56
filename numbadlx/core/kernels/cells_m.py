"""Algorithm M (multiplicities, and colours) on dancing cells.

The table is the one of :mod:`numbadlx.core._cells_links` (read its module text first),
as for :mod:`.cells`: each item keeps its available option nodes at the front of its
block of ``sets``, the active items sit at the front of ``act`` (primary ones, then
secondary ones), and a *trail* of the items whose sizes went down lets a level be
undone by putting sizes back. Two fields more for a primary item ``i`` (internal
reference, ``4 * k``): ``mem[i + BOUND]``, the covers still allowed (``v`` at first, in
the record's spare field), and ``slack[i >> 2]``, ``v - u``; so ``BOUND - slack`` is how
many covers ``i`` still needs.

The steps keep the labels of Knuth's Algorithm M (TAOCP 7.2.2.1), and its tree: each
node branches on an item ``i`` over "the first of ``i``'s remaining options in the
solution is ``x``", one branch per option, and, when ``i`` needs nothing more, the
branch "none of them is"; each option tried is *tweaked* out of the later branches.

* M2 [Enter level]: a solution when no primary item is active;
* M3 [Choose i]: with ``s = min(slack, BOUND)``, the active primary item of least
  ``theta = size + s - BOUND + 1`` (its number of branches; ``theta <= 0`` is a dead
  end and ends the scan), then the smaller ``s``, then the larger size, then the lower
  number (the item :mod:`.m` and Knuth's DLX3 choose). An item that needs no more
  covers and has no option left leaves the active items on the way (see :mod:`.m`);
* M4 [Prepare to branch on i]: ``BOUND(i)`` goes down by one. When it reaches 0 (the
  option chosen here is ``i``'s last), ``i`` is covered as in Algorithm X: it leaves
  the active items and its options the sets of their other items; its own set is
  then frozen, and the branches walk it by position, plus "none" when it has slack;
* M5 [Possibly tweak x]: when ``i`` stays active (``BOUND(i) > 0``), no position in its
  set is stable (the levels below take options out of it and put them back in another
  order), so each branch takes the *last* available option ``x`` of ``i`` and tweaks
  it: ``x`` leaves ``i``'s set (the size goes down by one, nothing moves) and the sets
  of its other items, for the rest of this level. Branching stops once the options
  left cannot give ``i`` the covers it still needs (``size + slack <= BOUND``); "none"
  (``i`` leaves the active items) comes after the options, when ``i`` needs no more;
* M6 [Try x]: ``x``'s primary items' bounds go down (those reaching 0 leave the active
  items) and its secondary items leave the active items; then each of them that left,
  last first, is covered, or purified when ``x`` gives it a colour, as in
  :mod:`.cells`. Should an active primary item be left with fewer options than it
  still needs (``size + slack < BOUND``), ``x`` is part of no solution: its work is
  undone at once and the next branch taken without entering a level (:mod:`.m`
  enters one and finds the dead end in M3: this kernel counts fewer nodes);
* M7 [Try again]: undo ``x`` (the trail back to the branch's mark, the bounds back up);
* M8 [Restore i]: undo the tweaks and the cover (the trail back to the level's first
  mark) and ``BOUND(i)`` back up;
* M9 [Leave level].

The solutions are those of :mod:`.m`, found in another order (the options of an item
that stays active are tried last first). When every item has ``u = v = 1`` this is the
tree of :mod:`.cells`, node for node (the tests check it).

Measured and kept: the bounds of ``x``'s items put back by a loop written out in M7
and after a dead end, not by a helper (3-7% less time on k marks per row and column and
on domino tilings). A secondary item's ``BOUND`` is 0, so the dead-end test in M6
starts with ``size < BOUND``, which fails at once for most nodes.

All state lives in the arrays handed in (``levels``, ``state``, the table), so a call
stops after a solution, a solution limit or a node budget and the next call carries on
where it stopped; ``state`` is that of :func:`fresh_state` (as in :mod:`.cells`).
"""

import numpy as np
from numba import literally, njit

from .._cells_links import (
    ACT,
    BASE,
    COLOURS,
    END,
    FIRST,
    ITM,
    LOC,
    OPTION,
    POS,
    PRIMARY_END,
    SIZE,
    TRAIL,
    WIDTH,
)
from .common import (
    PC_DONE,
    PC_ENTER,
    PC_LEAVE,
    RET_BUDGET,
    RET_DONE,
    RET_LIMIT,
    ST_NODES,
    ST_SOLUTIONS,
    ST_UPDATES,
)

__all__ = [
    "search_cells_m",
    "search_cells_m_plain",
    "fresh_state",
    "set_bounds",
    "N_STATE",
    "LEVEL_COLUMNS",
]

ONE = np.uint32(1)
TWO = np.uint32(2)
#: An item record's spare field: the covers the item may still get.
BOUND = np.uint32(3)
#: ``levels[level, L_X]`` of the "none" branch (no option chosen).
NONE = np.uint32(0xFFFFFFFF)
_NO_SCORE = np.int64(1) << 62  # above any theta

#: Length of the ``state`` array.
N_STATE = 6
# columns of a level's row: the item chosen, the branch (a position in the item's set
# when it is covered, else a count), the trail marks before M4 and before the branch's
# M6, the ends of the active primary and secondary items after M4, the option node
# tried (NONE for "none"), and the end of the active primary items on entering
L_ITEM = 0
L_POS = 1
L_MARK_ITEM = 2
L_MARK_TRY = 3
L_PE = 4
L_SE = 5
L_X = 6
L_PE0 = 7
#: Columns of the ``levels`` table.
LEVEL_COLUMNS = 8


@njit(cache=True, nogil=True)
def _deactivate(mem, j, end):
    """Swap item ``j`` with the active item at ``end - 1``, the last active one."""
    where = mem[j + POS]
    last = end - ONE
    y = mem[last]
    mem[where] = y
    mem[y + POS] = where
    mem[last] = j
    mem[j + POS] = last


@njit(cache=True, nogil=True)
def _undo(mem, tl, mark):
    """Put back the sizes of the trail's entries above ``mark``; returns ``mark``."""
    while tl > mark:
        tl -= ONE
        mem[mem[tl] + SIZE] += ONE
    return mark


@njit(cache=True, nogil=True)
def _search(
    mem,
    layout,
    n_items,
    levels,
    state,
    max_solutions,
    max_nodes,
    record,
    stats,
    trace,
    slack,
    colours,
):
    """The body of :func:`search_cells_m` (``colours`` True) and
    :func:`search_cells_m_plain` (False)."""
    literally(colours)
    pc = state[0]
    if pc == PC_DONE:
        return RET_DONE, 0
    level = state[1]
    act0 = np.uint32(layout[ACT])
    primary_end = np.uint32(layout[PRIMARY_END])
    clr0 = np.uint32(layout[COLOURS])  # node w's colour: mem[clr0 + (w >> 2)]
    opt0 = np.uint32(layout[OPTION])  # node w's option: mem[opt0 + (w >> 2)]
    pe = np.uint32(state[3])  # active primary items: mem[act0:pe]
    se = np.uint32(state[4])  # active secondary items: mem[act0 + n_primary:se]
    tl = np.uint32(state[5])  # the trail's top
    found = 0
    n_record = record.shape[0]
    nodes_seen = stats[ST_NODES]
    updates = stats[ST_UPDATES]
    solutions = stats[ST_SOLUTIONS]
    code = RET_DONE
    while True:
        exhausted = False
        if pc == PC_ENTER:
            # M2 [Enter level]
            if max_nodes > 0 and nodes_seen >= max_nodes:
                code = RET_BUDGET
                break
            nodes_seen += 1
            levels[level, L_PE0] = pe
            # M3 [Choose i]
            i = NONE
            best = _NO_SCORE
            best_s = np.uint32(0)
            best_len = np.uint32(0)
            q = act0
            while q < pe:
                j = mem[q]
                length = mem[j + SIZE]
                b = mem[j + BOUND]
                s = slack[j >> TWO]
                if s > b:
                    s = b
                if length == 0 and s == b:
                    # needs nothing more and can get nothing: out, no level of its own
                    _deactivate(mem, j, pe)
                    pe -= ONE
                    updates += 1
                    continue  # the item swapped in at q is looked at next
                theta = np.int64(length) + np.int64(s) - np.int64(b) + 1
                if theta < best or (
                    theta == best
                    and (
                        s < best_s
                        or (s == best_s and (length > best_len or (length == best_len and j < i)))
                    )
                ):
                    best = theta
                    best_s = s
                    best_len = length
                    i = j
                    if theta <= 0:
                        break  # a dead end: nothing else matters
                q += ONE
            if pe == act0:
                solutions += 1
                if found < n_record:
                    t = 0
                    for lev in range(level):
                        x = levels[lev, L_X]
                        if x != NONE:
                            record[found, t] = mem[opt0 + (x >> TWO)]
                            t += 1
                    for col in range(t, record.shape[1]):
                        record[found, col] = -1
                found += 1
                pc = PC_LEAVE
                if max_solutions > 0 and found >= max_solutions:
                    code = RET_LIMIT
                    break
                continue
            if best <= 0:
                pc = PC_LEAVE  # i's options cannot give it the covers it needs
                continue
            # M4 [Prepare to branch on i]
            levels[level, L_ITEM] = i
            levels[level, L_MARK_ITEM] = tl
            b = mem[i + BOUND] - ONE
            mem[i + BOUND] = b
            if b == 0:
                # i's last cover: i leaves the active items, each of its options the
                # sets of its other items (Algorithm X's cover)
                _deactivate(mem, i, pe)
                pe -= ONE
                q = mem[i + BASE]
                end_q = q + mem[i + SIZE]
                while q < end_q:
                    t = mem[q]
                    q += ONE
                    w = mem[t + FIRST]
                    w_stop = mem[t + END]
                    while w < w_stop:
                        j = mem[w + ITM]
                        if w != t and not (
                            colours and mem[clr0 + (w >> TWO)] != 0 and mem[j + POS] >= se
                        ):
                            here = mem[w + LOC]
                            size = mem[j + SIZE] - ONE
                            last = mem[j + BASE] + size
                            y = mem[last]
                            mem[here] = y
                            mem[y + LOC] = here
                            mem[last] = w
                            mem[w + LOC] = last
                            mem[j + SIZE] = size
                            mem[tl] = j
                            tl += ONE
                        w += WIDTH
                updates += 1 + np.int64(tl - levels[level, L_MARK_ITEM])
            levels[level, L_PE] = pe
            levels[level, L_SE] = se
            p = np.uint32(0)
        else:
            if pc == PC_LEAVE:
                # M9 [Leave level]
                if level == 0:
                    pc = PC_DONE
                    code = RET_DONE
                    break
                level -= 1
            # M7 [Try again]: undo the branch tried at this level
            tl = _undo(mem, tl, levels[level, L_MARK_TRY])
            pe = levels[level, L_PE]
            se = levels[level, L_SE]
            i = levels[level, L_ITEM]
            x = levels[level, L_X]
            if x == NONE:
                exhausted = True  # "none" is the last branch
            else:  # the bounds of x's primary items back up (written out: see M6)
                u = mem[x + FIRST]
                stop = mem[x + END]
                while u < stop:
                    j = mem[u + ITM]
                    if j < primary_end and j != i:
                        mem[j + BOUND] += ONE
                    u += WIDTH
            p = levels[level, L_POS] + ONE
        b = mem[i + BOUND]
        s_i = slack[i >> TWO]
        entered = False
        while not exhausted:
            # M5 [Possibly tweak x]
            size_i = mem[i + SIZE]
            if b == 0:
                # i covered: its set is frozen, the branches walk it by position
                if p < size_i:
                    x = mem[mem[i + BASE] + p]
                elif p == size_i and s_i != 0:
                    x = NONE
                else:
                    break
            elif size_i + s_i <= b:
                break  # too few options left for what i still needs
            elif size_i == 0:
                x = NONE  # none of i's options: i leaves the active items
                _deactivate(mem, i, pe)
                pe -= ONE
            else:
                # tweak: i's last available option leaves i's set (nothing moves) and
                # the sets of its other items, for the rest of this level
                tweak = tl
                size_i -= ONE
                x = mem[mem[i + BASE] + size_i]
                mem[i + SIZE] = size_i
                mem[tl] = i
                tl += ONE
                w = mem[x + FIRST]
                w_stop = mem[x + END]
                while w < w_stop:
                    j = mem[w + ITM]
                    if w != x and not (
                        colours and mem[clr0 + (w >> TWO)] != 0 and mem[j + POS] >= se
                    ):
                        here = mem[w + LOC]
                        size = mem[j + SIZE] - ONE
                        last = mem[j + BASE] + size
                        y = mem[last]
                        mem[here] = y
                        mem[y + LOC] = here
                        mem[last] = w
                        mem[w + LOC] = last
                        mem[j + SIZE] = size
                        mem[tl] = j
                        tl += ONE
                    w += WIDTH
                updates += np.int64(tl - tweak)
            levels[level, L_MARK_TRY] = tl
            levels[level, L_X] = x
            levels[level, L_POS] = p
            if x == NONE:
                entered = True
                break
            # M6 [Try x]: first the bounds of x's primary items go down (those reaching
            # 0 leave the active items) and its active secondary items leave them
            start = mem[x + FIRST]
            stop = mem[x + END]
            old_pe = pe
            old_se = se
            u = start
            while u < stop:
                j = mem[u + ITM]
                if j < primary_end:
                    if j != i:
                        bj = mem[j + BOUND] - ONE
                        mem[j + BOUND] = bj
                        if bj == 0:
                            _deactivate(mem, j, pe)
                            pe -= ONE
                elif mem[j + POS] < se:
                    _deactivate(mem, j, se)
                    se -= ONE
                u += WIDTH
            updates += np.int64((old_pe - pe) + (old_se - se))
            # then each item that left is covered (a coloured secondary one purified),
            # last first; its options leave the sets of their other items
            dead = False
            before = tl
            u = stop
            while u > start and not dead:
                u -= WIDTH
                j = mem[u + ITM]
                if j == i:
                    continue
                if j < primary_end:
                    if mem[j + BOUND] != 0:
                        continue  # still open: x has left its set already
                elif mem[j + POS] >= old_se:
                    continue  # a secondary item purified before x
                c = mem[clr0 + (u >> TWO)] if colours else 0
                q = mem[j + BASE]
                end_q = q + mem[j + SIZE]
                while q < end_q and not dead:
                    t = mem[q]
                    q += ONE
                    if colours and c != 0 and mem[clr0 + (t >> TWO)] == c:
                        continue  # the same colour: the option stays
                    w = mem[t + FIRST]
                    w_stop = mem[t + END]
                    while w < w_stop:
                        j2 = mem[w + ITM]
                        if w != t and not (
                            colours and mem[clr0 + (w >> TWO)] != 0 and mem[j2 + POS] >= old_se
                        ):
                            here = mem[w + LOC]
                            size = mem[j2 + SIZE] - ONE
                            last = mem[j2 + BASE] + size
                            y = mem[last]
                            mem[here] = y
                            mem[y + LOC] = here
                            mem[last] = w
                            mem[w + LOC] = last
                            mem[j2 + SIZE] = size
                            mem[tl] = j2
                            tl += ONE
                            # (a secondary item's BOUND is 0: the first test fails)
                            if (
                                size < mem[j2 + BOUND]
                                and size + slack[j2 >> TWO] < mem[j2 + BOUND]
                                and mem[j2 + POS] < pe
                            ):
                                dead = True  # an active item can no longer be satisfied
                                break
                        w += WIDTH
            updates += np.int64(tl - before)
            if not dead:
                entered = True
                break
            # x is part of no solution: undo it and take the next branch
            tl = _undo(mem, tl, levels[level, L_MARK_TRY])
            u = start
            while u < stop:
                j = mem[u + ITM]
                if j < primary_end and j != i:
                    mem[j + BOUND] += ONE
                u += WIDTH
            pe = old_pe
            se = old_se
            p += ONE
        if entered:
            level += 1
            pc = PC_ENTER
            continue
        # M8 [Restore i]: the tweaks and the cover undone, i's bound back up
        tl = _undo(mem, tl, levels[level, L_MARK_ITEM])
        mem[i + BOUND] = b + ONE
        pe = levels[level, L_PE0]
        se = levels[level, L_SE]
        pc = PC_LEAVE
    state[0] = pc
    state[1] = level
    state[3] = pe
    state[4] = se
    state[5] = tl
    stats[ST_NODES] = nodes_seen
    stats[ST_UPDATES] = updates
    stats[ST_SOLUTIONS] = solutions
    return code, found


@njit(cache=True, nogil=True)
def search_cells_m(
    mem, layout, n_items, levels, state, max_solutions, max_nodes, record, stats, trace, slack
):
    """Run Algorithm M on dancing cells from the point saved in ``state``.

    Parameters
    ----------
    mem, layout : the table of :func:`numbadlx.core._cells_links.build_cells`, with
        ``mem[4 * k + BOUND]`` set to ``v`` for each primary item ``k`` (changed in
        place; back as it was, up to the order inside each set, when the search ends).
    n_items : int, the number of items.
    levels : uint32 ``(depth, LEVEL_COLUMNS)``, one row per level: a level chooses an
        option or lets an item go without more, so ``depth = min(sum(v), n_options)
        + n_primary + 1`` is enough.
    state : int64 ``(N_STATE,)``, see :func:`fresh_state`.
    max_solutions, max_nodes, record, stats : as in
        :func:`numbadlx.core.kernels.xc.search_x`.
    trace : unused (this engine keeps no trace; pass an empty array).
    slack : uint32 ``(n_primary,)``: ``v - u`` for each primary item ``k`` at ``k``
        (see :func:`set_bounds`).

    Returns
    -------
    (code, found) as in :func:`numbadlx.core.kernels.xc.search_x`.
    """
    return _search(
        mem,
        layout,
        n_items,
        levels,
        state,
        max_solutions,
        max_nodes,
        record,
        stats,
        trace,
        slack,
        True,
    )


@njit(cache=True, nogil=True)
def search_cells_m_plain(
    mem, layout, n_items, levels, state, max_solutions, max_nodes, record, stats, trace, slack
):
    """:func:`search_cells_m` without the colour tests, for problems without colours."""
    return _search(
        mem,
        layout,
        n_items,
        levels,
        state,
        max_solutions,
        max_nodes,
        record,
        stats,
        trace,
        slack,
        False,
    )


def fresh_state(layout, n_items, n_primary):
    """The ``state`` array of a search not yet begun: ``[pc, level, 0, end of the
    active primary items, end of the active secondary items, top of the trail]``.

    Examples
    --------
    >>> fresh_state(np.array([8, 10, 0, 0, 30, 4]), 2, 1).tolist()
    [0, 0, 0, 9, 10, 30]
    """
    state = np.zeros(N_STATE, dtype=np.int64)
    state[3] = layout[ACT] + n_primary
    state[4] = layout[ACT] + n_items
    state[5] = layout[TRAIL]
    return state


def set_bounds(mem, bounds, n_items):
    """Write the multiplicities into a fresh table; return the ``slack`` array.

    ``bounds``: ``(u, v)`` per primary item, rows in internal order (primary items
    come first internally, in the caller's order). A secondary item's ``BOUND`` is set
    to 0, which the kernel's test for an item left with too few options relies on.

    Examples
    --------
    >>> from numbadlx.core._cells_links import build_cells
    >>> mem, layout = build_cells(np.array([0, 1, 2]), np.array([0, 0]), [], 1, 1)
    >>> set_bounds(mem, np.array([[1, 2]]), 1).tolist(), int(mem[BOUND])
    ([1], 2)
    """
    bounds = np.asarray(bounds, dtype=np.int64)
    n_primary = bounds.shape[0]
    mem[4 * np.arange(n_items) + BOUND] = 0
    mem[4 * np.arange(n_primary) + BOUND] = bounds[:, 1]
    return (bounds[:, 1] - bounds[:, 0]).astype(np.uint32)
