"""Algorithm M (exact covering with multiplicities and colours): resumable ``@njit`` kernels.

A primary item ``i`` must be covered between ``u_i`` and ``v_i`` times. The kernel works
on the DLX1 tables of :mod:`numbadlx.core.links` (colours in ``AUX``, as for Algorithm C)
and an item table widened to four rows, one contiguous row per field::

    items[PREV, i], items[NEXT, i], items[BOUND, i], items[SLACK, i]

(shape ``(4, n_items + 2)``) where ``BOUND`` starts at ``v_i`` and counts the covers
still allowed, and ``SLACK`` is ``v_i - u_i``; so ``BOUND - SLACK`` is how many covers
item ``i`` still needs.

The steps carry Knuth's labels (TAOCP 7.2.2.1, Algorithm M):

M1 initialise (tables built on the Python side), M2 enter a level (a solution when no
primary item is active), M3 choose an item (see below), M4 prepare to branch on it, M5
possibly *tweak* ``x = choice[level]``, M6 try ``x``, M7 try again, M8 restore the item,
M9 leave the level.

M3 picks the item the way Knuth's DLX3 program does. With ``s = min(SLACK, BOUND)``,
an item has ``theta = LEN + s - BOUND + 1`` branches (its options that may still be
tried, plus the "no further option" branch when it has slack); ``theta <= 0`` means its
list is too short for what it still needs, a dead end. The item of least ``theta`` is
chosen; ties go to the smaller ``s`` (a slack item constrains less), then to the
*longer* list (which keeps the middle levels of the tree narrower), then to the first
in the item list. The whole list is scanned, except that a dead end ends the scan.

While branching on ``i`` with room to spare (``BOUND(i) > 0`` after this choice, or some
slack left), each option tried is *tweaked*: taken out of ``i``'s list (and hidden, when
``i`` is not covered) so that later branches at this level do not use it again; the
branch where ``x`` comes back round to ``i``'s header means "no further option for
``i``" and removes ``i`` from the active list. ``ft[level]`` remembers the first
tweaked node so :func:`_untweak` can put the whole chain back in M8.

One shortcut beyond Knuth's steps: an active item that needs no more covers
(``BOUND <= SLACK``) and has no option left (``LEN = 0``) has ``theta = 1``, its only
branch being "no further option", which changes nothing else. The M3 scan takes such
items out of the active list at once, without a level of their own; they are pushed on
the ``zap`` stack (``zap_top[level]..zap_top[level + 1]`` for each level) and put back,
in reverse, when the level is left (M9). Such an item stays that way in every node
below, and no other item ties with it exactly, so the tree is DLX3's with those
one-branch nodes left out: the same solutions, never more nodes (measured in
``benchmarks/kernels.py``).

Like Algorithms X and C (:mod:`numbadlx.core.kernels.xc`), the body :func:`_search`
takes a compile-time flag ``colours``: :func:`search_m` handles colours,
:func:`search_m_plain` is the same body compiled without the colour tests, for problems
that have none.

Per-level state is ``choice[level]`` (``x``), ``ft[level]`` and ``zap_top[level + 1]``;
``i`` is ``ITEM(x)``, or ``x`` itself when ``x`` is a header. With
``state = [pc, level, trace_len]`` that is all a later call needs to resume.
"""

import numpy as np
from numba import literally, njit

from ..links import AUX, DOWN, ITEM, UP
from .common import (
    EV_BACKTRACK,
    EV_CHOOSE,
    EV_SOLUTION,
    EV_TRY,
    MARK,
    ONE,
    PC_DONE,
    PC_ENTER,
    PC_LEAVE,
    RET_BUDGET,
    RET_DONE,
    RET_LIMIT,
    ST_NODES,
    ST_SOLUTIONS,
    ST_UPDATES,
    cover,
    emit,
    hide,
    option_of,
    purify,
    record_solution,
    uncover,
    unhide,
    unpurify,
)

__all__ = ["search_m", "search_m_plain", "PREV", "NEXT", "BOUND", "SLACK"]

# rows of the widened item table
PREV = 0
NEXT = 1
BOUND = 2
SLACK = 3

# program counter values (state[0]), shared with Algorithms X and C
PC_M2 = PC_ENTER  # (re)enter M2 at state[1] = level
PC_M9 = PC_LEAVE  # leave the level

_NO_SCORE = np.int64(1) << 62  # above any theta


@njit(cache=True, nogil=True)
def _untweak(nodes, i, a, with_unhide, colours):
    """Put back the chain of nodes tweaked out of item ``i``'s list, starting at ``a``.

    A tweaked node keeps its ``DOWN`` link, so the chain runs ``a -> ... -> z`` where
    ``z`` is the present first node of the list (or ``i``). The list links are restored
    first (top-down), then, with ``with_unhide``, the options are unhidden bottom-up:
    the exact reverse of the order in which they were hidden.
    """
    z = nodes[DOWN, i]
    nodes[DOWN, i] = a
    y = i
    x = a
    k = 0
    while x != z:
        nodes[UP, x] = y
        k += 1
        y = x
        x = nodes[DOWN, x]
    nodes[UP, z] = y
    nodes[ITEM, i] += k
    if with_unhide:
        x = y
        while x != i:
            unhide(nodes, x, colours)
            x = nodes[UP, x]


@njit(cache=True, nogil=True)
def _search(
    nodes,
    items,
    n_items,
    choice,
    state,
    max_solutions,
    max_nodes,
    record,
    stats,
    trace,
    n_primary,
    ft,
    zap,
    zap_top,
    colours,
):
    """The body of :func:`search_m` (``colours`` True) and :func:`search_m_plain`."""
    literally(colours)  # one compiled copy per value, the other value's code folded away
    pc = state[0]
    level = state[1]
    found = 0
    n_record = record.shape[0]
    tracing = trace.shape[0] > 0
    n_trace = state[2] if tracing else 0
    if pc == PC_DONE:
        return RET_DONE, 0
    nodes_seen = stats[ST_NODES]
    updates = stats[ST_UPDATES]
    solutions = stats[ST_SOLUTIONS]
    code = RET_DONE
    while True:
        if pc == PC_M2:
            # M2 [Enter level]
            if max_nodes > 0 and nodes_seen >= max_nodes:
                code = RET_BUDGET
                break
            nodes_seen += 1
            # M3 [Choose i]: least theta = LEN + s - BOUND + 1 with s = min(SLACK, BOUND);
            # ties: smaller s, then the longer list, then the first. A dead end
            # (theta <= 0) ends the scan; items that need nothing and can get nothing
            # are taken out on the way (see the module).
            top = zap_top[level]
            i = items[NEXT, 0]
            best = _NO_SCORE
            best_s = np.uint32(0)
            best_len = np.uint32(0)
            p = i
            while p != 0:
                length = nodes[ITEM, p]
                b = items[BOUND, p]
                s = items[SLACK, p]
                if s > b:
                    s = b
                following = items[NEXT, p]
                if length == 0 and s == b:
                    left = items[PREV, p]
                    items[NEXT, left] = following
                    items[PREV, following] = left
                    zap[top] = p
                    top += 1
                    updates += 1
                else:
                    theta = np.int64(length) + np.int64(s) - np.int64(b) + 1
                    if theta < best or (
                        theta == best and (s < best_s or (s == best_s and length > best_len))
                    ):
                        best = theta
                        best_s = s
                        best_len = length
                        i = p
                        if theta <= 0:  # a dead end: nothing else matters
                            break
                p = following
            zap_top[level + 1] = top
            if items[NEXT, 0] == 0:
                solutions += 1
                if found < n_record:
                    record_solution(nodes, choice, level, n_items, record, found)
                if tracing:
                    n_trace = emit(trace, n_trace, EV_SOLUTION, level, -1, -1, solutions)
                found += 1
                pc = PC_M9
                if max_solutions > 0 and found >= max_solutions:
                    code = RET_LIMIT
                    break
                continue
            if tracing:
                n_trace = emit(trace, n_trace, EV_CHOOSE, level, i, -1, best)
            if best <= 0:
                # list i is too short for what i still needs
                if tracing:
                    n_trace = emit(trace, n_trace, EV_BACKTRACK, level, i, -1, 0)
                pc = PC_M9
                continue
            # M4 [Prepare to branch on i]
            x = nodes[DOWN, i]
            choice[level] = x
            b = items[BOUND, i] - ONE
            items[BOUND, i] = b
            if b == 0:
                updates += cover(nodes, items, i, colours)
            if b != 0 or items[SLACK, i] != 0:
                ft[level] = x
            restore = False
        else:
            # M9 [Leave level]: first put back the items this level took out in M3
            t = zap_top[level + 1]
            while t > zap_top[level]:
                t -= 1
                p = zap[t]
                items[NEXT, items[PREV, p]] = p
                items[PREV, items[NEXT, p]] = p
            if level == 0:
                pc = PC_DONE
                code = RET_DONE
                break
            level -= 1
            x = choice[level]
            if x <= n_items:
                # the "no further option" branch: i back in the active list, then M8
                i = x
                if items[BOUND, i] != 0:
                    left = items[PREV, i]
                    right = items[NEXT, i]
                    items[NEXT, left] = i
                    items[PREV, right] = i
                restore = True
            else:
                # M7 [Try again]: undo x's other items, walking left
                i = nodes[ITEM, x]
                p = x - ONE
                while p != x:
                    j = nodes[ITEM, p]
                    if j == 0:  # spacer: wrap to the option's last node
                        p = nodes[DOWN, p]
                    elif j <= n_primary:
                        bj = items[BOUND, j] + ONE
                        items[BOUND, j] = bj
                        if bj == 1:
                            uncover(nodes, items, j, colours)
                        p -= ONE
                    else:
                        if colours:
                            c = nodes[AUX, p]  # uncommit(p, j)
                            if c == 0:
                                uncover(nodes, items, j, True)
                            elif c != MARK:
                                unpurify(nodes, p)
                        else:
                            uncover(nodes, items, j, False)
                        p -= ONE
                x = nodes[DOWN, x]
                choice[level] = x
                restore = False
        b = items[BOUND, i]
        s = items[SLACK, i]
        if not restore:
            # M5 [Possibly tweak x]
            if b == 0 and s == 0:
                restore = x == i
            elif nodes[ITEM, i] + s <= b:
                restore = True  # too few options left for what i still needs
            elif x != i:
                if b != 0:
                    updates += hide(nodes, x, colours)
                d = nodes[DOWN, x]
                nodes[DOWN, i] = d
                nodes[UP, d] = i
                nodes[ITEM, i] -= 1
                updates += 1
            elif b != 0:
                left = items[PREV, i]
                right = items[NEXT, i]
                items[NEXT, left] = right
                items[PREV, right] = left
                updates += 1
        if not restore:
            # M6 [Try x]
            if x != i:
                if tracing:
                    n_trace = emit(trace, n_trace, EV_TRY, level, i, option_of(nodes, x), 0)
                p = x + ONE
                while p != x:
                    j = nodes[ITEM, p]
                    if j == 0:  # spacer: wrap to the option's first node
                        p = nodes[UP, p]
                    elif j <= n_primary:
                        bj = items[BOUND, j] - ONE
                        items[BOUND, j] = bj
                        if bj == 0:
                            updates += cover(nodes, items, j, colours)
                        p += ONE
                    else:
                        if colours:
                            c = nodes[AUX, p]  # commit(p, j)
                            if c == 0:
                                updates += cover(nodes, items, j, True)
                            elif c != MARK:
                                updates += purify(nodes, p)
                        else:
                            updates += cover(nodes, items, j, False)
                        p += ONE
            elif tracing:
                n_trace = emit(trace, n_trace, EV_TRY, level, i, -1, 0)
            level += 1
            pc = PC_M2
            continue
        # M8 [Restore i]
        if b == 0 and s == 0:
            uncover(nodes, items, i, colours)
        elif b == 0:
            _untweak(nodes, i, ft[level], False, colours)
            uncover(nodes, items, i, colours)
        else:
            _untweak(nodes, i, ft[level], True, colours)
        items[BOUND, i] = b + ONE
        if tracing:
            n_trace = emit(trace, n_trace, EV_BACKTRACK, level, i, -1, 0)
        pc = PC_M9
    state[0] = pc
    state[1] = level
    if tracing:
        state[2] = n_trace
    stats[ST_NODES] = nodes_seen
    stats[ST_UPDATES] = updates
    stats[ST_SOLUTIONS] = solutions
    return code, found


@njit(cache=True, nogil=True)
def search_m(
    nodes,
    items,
    n_items,
    choice,
    state,
    max_solutions,
    max_nodes,
    record,
    stats,
    trace,
    n_primary,
    ft,
    zap,
    zap_top,
):
    """Run Algorithm M from the point saved in ``state``.

    Arguments and return value as :func:`numbadlx.core.kernels.xc.search_x`, except:

    items : (4, n_items + 2) table, rows ``PREV, NEXT, BOUND, SLACK`` (see the module).
    n_primary : int, primary items are ``1..n_primary``.
    ft : (max_depth,) array, the first tweaked node at each level.
    zap : (n_primary,) array, the stack of items taken out in M3 (see the module).
    zap_top : int64 (max_depth + 1,) array, the stack height at the start of each
        level; ``zap_top[0]`` must be 0.
    choice : (max_depth,) array. A level either picks an option or (``choice[level]``
        a header) decides that its item gets no further option, so the depth can reach
        ``min(sum(v), n_options) + n_primary``.

    Solutions are recorded as the option indices of the levels that picked an option.
    Trace rows: ``EV_TRY`` with option ``-1`` is the "no further option" branch;
    ``EV_CHOOSE`` reports the branching degree ``theta``.
    """
    return _search(
        nodes,
        items,
        n_items,
        choice,
        state,
        max_solutions,
        max_nodes,
        record,
        stats,
        trace,
        n_primary,
        ft,
        zap,
        zap_top,
        True,
    )


@njit(cache=True, nogil=True)
def search_m_plain(
    nodes,
    items,
    n_items,
    choice,
    state,
    max_solutions,
    max_nodes,
    record,
    stats,
    trace,
    n_primary,
    ft,
    zap,
    zap_top,
):
    """:func:`search_m` without the colour tests, for problems without colours (every
    ``AUX`` of an option node 0): the same nodes, updates and solutions, a little
    faster."""
    return _search(
        nodes,
        items,
        n_items,
        choice,
        state,
        max_solutions,
        max_nodes,
        record,
        stats,
        trace,
        n_primary,
        ft,
        zap,
        zap_top,
        False,
    )
