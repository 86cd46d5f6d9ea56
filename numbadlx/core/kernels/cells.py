"""Algorithms X and C on dancing cells: sparse sets instead of linked lists.

The table is the one of :mod:`numbadlx.core._cells_links` (read its module text
first): each item keeps its available option nodes at the front of its block of
``sets``; the active items sit at the front of ``act``, primary items in one region
and secondary ones in the next. Removing a node or an item is a swap with the last
available one and a size going down; undoing it is the size going back up. The kernel
keeps a *trail* of the items whose sizes went down, so a level is undone by walking
the trail back to a mark and putting back the ends of the active regions.

One search body, :func:`_search`, compiled twice through :func:`numba.literally` (as
in :mod:`.xc`): :func:`search_cells_x` without colours, :func:`search_cells_c` with.
The steps keep the labels of Knuth's Algorithms X and C (TAOCP 7.2.2.1):

* X2/C2 [Enter level]: a solution when no primary item is active;
* X3/C3 [Choose i]: the active primary item with the fewest available options, the
  lowest-numbered of equals; DLX's first of equals in its item list is the same item,
  so both engines walk the same tree;
* X4/C4 [Cover i]: ``i`` leaves the active items and each of its options leaves the
  sets of its other items;
* X5/C5 [Try x]: the items of ``x``'s option leave the active items; then each in turn,
  last first, is covered (its options leave the sets of their other items, ``x``'s later items
  included, as in DLX) or, for a secondary item with a colour, purified (only the
  options of other colours leave). Should an active primary item outside ``x`` be left
  with no option, ``x`` is part of no solution: its work is undone at once and the
  next option tried without entering a level (DLX enters one, finds the empty item
  and backtracks). So this kernel counts fewer nodes than DLX on the same tree (a
  third of them on pentominoes); the solutions are the same, found in another order;
* X6/C6 [Try again]: undo ``x`` (the trail back to the level's second mark);
* X7/C7 [Backtrack]: undo ``i`` (the trail back to the first mark);
* X8/C8 [Leave level].

A purified secondary item stays inactive below its level, and the options left in its
set (those of its colour) are not taken out of it when they leave the others: nothing
reads that set until the level is undone. An option without primary items is never
chosen (Knuth's convention): options are only tried through primary items.

Measured on pentominoes 6x10 and N-queens 12 and not kept (each slower): saving an
item's size on the trail once per try instead of at every decrement (3% slower);
leaving the sets of ``x``'s own items alone and skipping, by a stamp per option, the
options already hidden through an earlier item of ``x`` (17% fewer updates, but 1.7
times the time: a hard-to-predict test per node of whether its item is active);
walking an option from ``t`` round to ``t`` instead of testing ``w != t`` at each
node (4% slower, on one loop or two); walking it as two straight runs, the nodes
before ``t`` and those after it (6% slower); records of two entries per node (item and
place) with the option's bounds in a region of their own (-2%, +4% and +2% in three
runs: no gain). Kept: each node's record holds its option's bounds, so hiding an option reads
them from the node it starts from instead of from a table of options one load further
(7% less time on pentominoes 6x10, queens 12 and Langford 11).
Kept too: an item that sits at three or more places in its options (a cell of
pentominoes) has its set walked from the end in X5, each option leaving that set as
well, so the walk over an option's nodes has no test to skip the item's own node, a
test that guessed wrong about once an option (8-13% less time on pentominoes, the
word squares and the crossword; with items at two places, Langford's, 7-11% more).

All state lives in the arrays handed in (``levels``, ``state``, the table), so a call
stops after a solution, a solution limit or a node budget and the next call carries on
where it stopped (``state``: see :func:`fresh_state`).
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
    SPREAD,
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

ONE = np.uint32(1)
TWO = np.uint32(2)
# X3's keys: an item's size in the high half, its number in the low one
KEY_MAX = np.uint64(0xFFFFFFFFFFFFFFFF)
KEY_LOW = np.uint64(0xFFFFFFFF)
KEY_SHIFT = np.uint64(32)

__all__ = ["search_cells_x", "search_cells_c", "fresh_state", "N_STATE", "LEVEL_COLUMNS"]

#: Length of the ``state`` array.
N_STATE = 6
# columns of a level's row: the item chosen, the position of the option tried in its
# set, the trail marks before covering the item and before trying the option, and
# the ends of the active primary and secondary items once the item is covered
L_ITEM = 0
L_POS = 1
L_MARK_ITEM = 2
L_MARK_TRY = 3
L_PE = 4
L_SE = 5
#: Columns of the ``levels`` table.
LEVEL_COLUMNS = 6


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
    mem, layout, n_items, levels, state, max_solutions, max_nodes, record, stats, trace, colours
):
    """The body of :func:`search_cells_x` (``colours`` False) and
    :func:`search_cells_c` (True).

    One table, and every index into it unsigned (as in the DLX kernels): Numba then
    needs no negative-index fix-up and LLVM keeps the loops' values in registers
    (with a table per field and signed indices this ran three times slower).
    """
    literally(colours)
    pc = state[0]
    if pc == PC_DONE:
        return RET_DONE, 0
    level = state[1]
    act0 = np.uint32(layout[ACT])
    primary_end = np.uint32(layout[PRIMARY_END])
    clr0 = np.uint32(layout[COLOURS])  # node w's colour: mem[clr0 + (w >> 2)]
    spread0 = np.uint32(layout[SPREAD])  # item j is spread: mem[spread0 + (j >> 2)]
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
        if pc == PC_ENTER:
            # X2/C2 [Enter level]
            if max_nodes > 0 and nodes_seen >= max_nodes:
                code = RET_BUDGET
                break
            nodes_seen += 1
            if pe == act0:
                solutions += 1
                if found < n_record:
                    for lev in range(level):
                        x = mem[mem[levels[lev, L_ITEM] + BASE] + levels[lev, L_POS]]
                        record[found, lev] = mem[opt0 + (x >> TWO)]
                    for col in range(level, record.shape[1]):
                        record[found, col] = -1
                found += 1
                pc = PC_LEAVE
                if max_solutions > 0 and found >= max_solutions:
                    code = RET_LIMIT
                    break
                continue
            # X3/C3 [Choose i]: fewest options, lowest number of equals. Each item's
            # key is its size above its number, so the least key is the item wanted
            # and the scan needs no branch but the loop's (with a branch on the size
            # and one on the number, the scan took a quarter of the time on N-queens
            # and Langford: the tests went either way); it stops at a size of 0
            key = KEY_MAX
            q = act0
            while q < pe and key > KEY_LOW:
                j = mem[q]
                q += ONE
                key = min(key, (np.uint64(mem[j + SIZE]) << KEY_SHIFT) | np.uint64(j))
            i = np.uint32(key & KEY_LOW)
            best = np.uint32(key >> KEY_SHIFT)
            # X4/C4 [Cover i]: i leaves the active items, each of its options the sets
            # of its other items (written out here and in X5: as a helper, LLVM kept
            # it out of line and the call cost reference counts)
            levels[level, L_ITEM] = i
            levels[level, L_MARK_ITEM] = tl
            _deactivate(mem, i, pe)
            pe -= ONE
            q = mem[i + BASE]
            end_q = q + best
            while q < end_q:
                t = mem[q]
                q += ONE
                w = mem[t + FIRST]
                w_stop = mem[t + END]
                while w < w_stop:
                    j = mem[w + ITM]
                    # a node of another item, and not of a purified secondary one
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
            levels[level, L_MARK_TRY] = tl
            levels[level, L_PE] = pe
            levels[level, L_SE] = se
            p = np.uint32(0)
        else:
            if pc == PC_LEAVE:
                # X8/C8 [Leave level]
                if level == 0:
                    pc = PC_DONE
                    code = RET_DONE
                    break
                level -= 1
            # X6/C6 [Try again]: undo the option tried at this level
            tl = _undo(mem, tl, levels[level, L_MARK_TRY])
            pe = levels[level, L_PE]
            se = levels[level, L_SE]
            i = levels[level, L_ITEM]
            p = levels[level, L_POS] + ONE
        # X5/C5 [Try x], for the options of i from position p on
        base = mem[i + BASE]
        size_i = mem[i + SIZE]
        entered = False
        while p < size_i:
            x = mem[base + p]
            start = mem[x + FIRST]
            stop = mem[x + END]
            old_pe = pe
            old_se = se
            # the option's items leave the active items (so that an item left without
            # options can be told from one of x's own, covered below)
            u = start
            while u < stop:
                j = mem[u + ITM]
                if j < primary_end:
                    if j != i:
                        _deactivate(mem, j, pe)
                        pe -= ONE
                elif mem[j + POS] < se:
                    _deactivate(mem, j, se)
                    se -= ONE
                u += WIDTH
            updates += np.int64((old_pe - pe) + (old_se - se))
            # then each is covered in turn (a coloured secondary one purified): its
            # options leave the sets of their other items, x's later items included.
            # Last item first: an option names its piece (say) before its cells, and
            # covering the cells first finds a dead end sooner (measured: 11% less
            # time on pentominoes, the same elsewhere)
            dead = False
            before = tl
            own = 0  # nodes taken out of their own item's set
            u = stop
            while u > start and not dead:
                u -= WIDTH
                j = mem[u + ITM]
                c = mem[clr0 + (u >> TWO)] if colours else 0
                if j == i or (j >= primary_end and mem[j + POS] >= old_se):
                    continue  # i itself, or a secondary item purified before x
                q = mem[j + BASE]
                if mem[spread0 + (j >> TWO)] != 0:
                    # j sits at many places in its options, so a test "is this
                    # node j's?" on the walk would guess wrong about once an option:
                    # walk j's set from the end instead, each option leaving j's set
                    # too (a swap with itself, the last available node), and skip none
                    first_q = q
                    q += mem[j + SIZE]
                    while q > first_q and not dead:
                        q -= ONE
                        t = mem[q]
                        if colours and c != 0 and mem[clr0 + (t >> TWO)] == c:
                            continue  # the same colour: the option stays
                        own += 1
                        w = mem[t + FIRST]
                        w_stop = mem[t + END]
                        while w < w_stop:
                            j2 = mem[w + ITM]
                            if not (
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
                                if size == 0 and j2 < primary_end and mem[j2 + POS] < pe:
                                    dead = True  # an active primary item without options
                                    break
                            w += WIDTH
                    continue
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
                            if size == 0 and j2 < primary_end and mem[j2 + POS] < pe:
                                dead = True  # an active primary item without options
                                break
                        w += WIDTH
            updates += np.int64(tl - before) - own  # j's own nodes are no updates
            if not dead:
                entered = True
                break
            # an active primary item has no option left: x fails, try the next
            tl = _undo(mem, tl, levels[level, L_MARK_TRY])
            pe = old_pe
            se = old_se
            p += ONE
        if entered:
            levels[level, L_POS] = p
            level += 1
            pc = PC_ENTER
            continue
        # X7/C7 [Backtrack]: no option of i left; uncover i
        tl = _undo(mem, tl, levels[level, L_MARK_ITEM])
        pe = levels[level, L_PE] + ONE
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
def search_cells_x(
    mem, layout, n_items, levels, state, max_solutions, max_nodes, record, stats, trace
):
    """Run Algorithm X on dancing cells from the point saved in ``state``.

    Parameters
    ----------
    mem, layout : the table of :func:`numbadlx.core._cells_links.build_cells`
        (changed in place; back as it was, up to the order inside each set, when the
        search ends).
    n_items : int, the number of items.
    levels : uint32 ``(n_primary + 1, LEVEL_COLUMNS)``, one row per level.
    state : int64 ``(N_STATE,)``: ``[pc, level, 0, end of the active primary items,
        end of the active secondary items, top of the trail]``; see
        :func:`fresh_state`.
    max_solutions, max_nodes, record, stats : as in
        :func:`numbadlx.core.kernels.xc.search_x`.
    trace : unused (this engine keeps no trace; pass an empty array).

    Returns
    -------
    (code, found) as in :func:`numbadlx.core.kernels.xc.search_x`.
    """
    return _search(
        mem, layout, n_items, levels, state, max_solutions, max_nodes, record, stats, trace, False
    )


@njit(cache=True, nogil=True)
def search_cells_c(
    mem, layout, n_items, levels, state, max_solutions, max_nodes, record, stats, trace
):
    """Run Algorithm C on dancing cells: :func:`search_cells_x` with the colours of
    the nodes (a coloured secondary item is purified, not covered)."""
    return _search(
        mem, layout, n_items, levels, state, max_solutions, max_nodes, record, stats, trace, True
    )


def fresh_state(layout, n_items, n_primary):
    """The ``state`` array of a search not yet begun.

    Examples
    --------
    >>> fresh_state(np.array([8, 10, 0, 0, 30, 4, 0, 0]), 2, 1).tolist()
    [0, 0, 0, 9, 10, 30]
    """
    state = np.zeros(N_STATE, dtype=np.int64)
    state[3] = layout[ACT] + n_primary
    state[4] = layout[ACT] + n_items
    state[5] = layout[TRAIL]
    return state
