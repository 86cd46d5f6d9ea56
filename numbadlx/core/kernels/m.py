"""Algorithm M (exact covering with multiplicities and colours): one resumable ``@njit`` kernel.

A primary item ``i`` must be covered between ``u_i`` and ``v_i`` times. The kernel works
on the DLX1 tables of :mod:`numbadlx.core.links` (colours in ``AUX``, as for Algorithm C)
and an item table widened to four columns::

    items[i] = (PREV, NEXT, BOUND, SLACK)

where ``BOUND`` starts at ``v_i`` and counts the covers still allowed, and ``SLACK`` is
``v_i - u_i``; so ``BOUND - SLACK`` is how many covers item ``i`` still needs.

The steps carry Knuth's labels (TAOCP 7.2.2.1, Algorithm M):

M1 initialise (tables built on the Python side), M2 enter a level (a solution when no
primary item is active), M3 choose an item of minimum branching degree
``theta = LEN + 1 - max(BOUND - SLACK, 0)`` (ties: smaller slack, then longer list),
M4 prepare to branch on it, M5 possibly *tweak* ``x = choice[level]``, M6 try ``x``,
M7 try again, M8 restore the item, M9 leave the level.

While branching on ``i`` with room to spare (``BOUND(i) > 0`` after this choice, or some
slack left), each option tried is *tweaked*: taken out of ``i``'s list (and hidden, when
``i`` is not covered) so that later branches at this level do not use it again; the
branch where ``x`` comes back round to ``i``'s header means "no further option for
``i``" and removes ``i`` from the active list. ``ft[level]`` remembers the first
tweaked node so :func:`_untweak` can put the whole chain back in M8.

One shortcut beyond Knuth's steps: an active item that needs no more covers
(``BOUND <= SLACK``) and has no option left (``LEN = 0``) can never be covered again
below this node, so its only branch would be "no further option". The M3 scan takes
such items out of the active list at once, without a level of their own; they are
pushed on the ``zap`` stack (``zap_top[level]..zap_top[level + 1]`` for each level) and
put back, in reverse, when the level is left (M9). The solutions are the same; fewer
nodes are visited.

Per-level state is ``choice[level]`` (``x``), ``ft[level]`` and ``zap_top[level + 1]``;
``i`` is ``ITEM(x)``, or ``x`` itself when ``x`` is a header. With
``state = [pc, level, trace_len]`` that is all a later call needs to resume.
"""

import numpy as np
from numba import njit

from .x import (EV_BACKTRACK, EV_CHOOSE, EV_SOLUTION, EV_TRY, PC_DONE, PC_X2, PC_X8,
                      RET_BUDGET, RET_DONE, RET_LIMIT, ST_NODES, ST_SOLUTIONS, ST_UPDATES,
                      emit, option_of)
from .c import MARK, cover_c, hide_c, purify, uncover_c, unhide_c, unpurify
from ..links import AUX, DOWN, ITEM, UP

_ONE = np.uint32(1)

# columns of the widened item table
PREV = 0
NEXT = 1
BOUND = 2
SLACK = 3

# program counter values (state[0]), shared with Algorithm X
PC_M2 = PC_X2  # (re)enter M2 at state[1] = level
PC_M9 = PC_X8  # leave the level


@njit(cache=True, inline="always")
def _untweak(nodes, i, a, with_unhide):
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
            unhide_c(nodes, x)
            x = nodes[UP, x]


@njit(cache=True)
def search(nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats,
           trace, n_primary, ft, zap, zap_top):
    """Run Algorithm M from the point saved in ``state``.

    Arguments and return value as :func:`numbadlx.core.kernels.x.search`, except:

    items : (n_items + 2, 4) table ``(PREV, NEXT, BOUND, SLACK)`` (see the module).
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
            # M3 [Choose i]: least theta; ties: less slack, then the longer list. The scan
            # stops at theta <= 1 (no item can do better than a single branch), and takes
            # out the items that need nothing and can get nothing (see the module).
            top = zap_top[level]
            i = items[NEXT, 0]
            best = np.int64(1) << 62
            best_slack = np.uint32(0)
            best_len = np.uint32(0)
            p = i
            while p != 0:
                length = nodes[ITEM, p]
                b = items[BOUND, p]
                s = items[SLACK, p]
                following = items[NEXT, p]
                if length == 0 and b <= s:
                    left = items[PREV, p]
                    items[NEXT, left] = following
                    items[PREV, following] = left
                    zap[top] = p
                    top += 1
                    updates += 1
                else:
                    theta = np.int64(length) + 1
                    if b > s:
                        theta -= np.int64(b - s)
                    if theta < best or (theta == best and (
                            s < best_slack or (s == best_slack and length > best_len))):
                        best = theta
                        best_slack = s
                        best_len = length
                        i = p
                        if theta <= 1:  # a dead end, or a single branch: take it
                            break
                p = following
            zap_top[level + 1] = top
            if items[NEXT, 0] == 0:
                solutions += 1
                if found < n_record:
                    t = 0
                    for j in range(level):
                        if choice[j] > n_items:
                            record[found, t] = option_of(nodes, choice[j])
                            t += 1
                    for j in range(t, record.shape[1]):
                        record[found, j] = -1
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
            b = items[BOUND, i] - _ONE
            items[BOUND, i] = b
            if b == 0:
                updates += cover_c(nodes, items, i)
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
                p = x - _ONE
                while p != x:
                    j = nodes[ITEM, p]
                    if j == 0:
                        p = nodes[DOWN, p]
                    elif j <= n_primary:
                        bj = items[BOUND, j] + _ONE
                        items[BOUND, j] = bj
                        if bj == 1:
                            uncover_c(nodes, items, j)
                        p -= _ONE
                    else:
                        c = nodes[AUX, p]  # uncommit(p, j)
                        if c == 0:
                            uncover_c(nodes, items, j)
                        elif c != MARK:
                            unpurify(nodes, p)
                        p -= _ONE
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
                    updates += hide_c(nodes, x)
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
                p = x + _ONE
                while p != x:
                    j = nodes[ITEM, p]
                    if j == 0:
                        p = nodes[UP, p]
                    elif j <= n_primary:
                        bj = items[BOUND, j] - _ONE
                        items[BOUND, j] = bj
                        if bj == 0:
                            updates += cover_c(nodes, items, j)
                        p += _ONE
                    else:
                        c = nodes[AUX, p]  # commit(p, j)
                        if c == 0:
                            updates += cover_c(nodes, items, j)
                        elif c != MARK:
                            updates += purify(nodes, p)
                        p += _ONE
            elif tracing:
                n_trace = emit(trace, n_trace, EV_TRY, level, i, -1, 0)
            level += 1
            pc = PC_M2
            continue
        # M8 [Restore i]
        if b == 0 and s == 0:
            uncover_c(nodes, items, i)
        elif b == 0:
            _untweak(nodes, i, ft[level], False)
            uncover_c(nodes, items, i)
        else:
            _untweak(nodes, i, ft[level], True)
        items[BOUND, i] = b + _ONE
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
