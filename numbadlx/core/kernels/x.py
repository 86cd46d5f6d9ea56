"""Algorithm X on DLX1 tables: one iterative, resumable ``@njit`` search kernel.

The steps carry Knuth's labels (TAOCP 7.2.2.1, Algorithm X):

X1 initialise (done by :func:`numbadlx.core.links.build_links`), X2 enter a level (a
solution when no primary item is left), X3 choose an item (minimum remaining values),
X4 cover it, X5 try ``choice[level]``, X6 try again (next option down), X7 backtrack,
X8 leave the level.

The kernel keeps all its state in arrays it is handed (the link tables, ``choice`` and
``state``), so it can stop after a solution, a solution limit or a node budget and be
called again to carry on exactly where it stopped.
"""

import numpy as np
from numba import njit

from ..links import AUX, DOWN, ITEM, UP

_ONE = np.uint32(1)

# program counter values kept in state[0]
PC_X2 = 0  # (re)enter step X2 at state[1] = level
PC_X8 = 1  # leave the level (after a solution)
PC_DONE = 2  # the search space is exhausted

# kernel return codes
RET_DONE = 0  # exhausted: every solution was seen
RET_LIMIT = 1  # stopped because max_solutions were found in this call
RET_BUDGET = 2  # stopped because the node budget ran out

# stats slots
ST_NODES = 0
ST_UPDATES = 1
ST_SOLUTIONS = 2
N_STATS = 3

# trace event codes (rows of the optional trace table)
EV_CHOOSE = 0  # columns: event, level, item, option (-1), length of item
EV_TRY = 1  # the option tried at this level
EV_BACKTRACK = 2  # no option left for the item: uncover and leave the level
EV_SOLUTION = 3


@njit(cache=True, inline="always")
def _hide(nodes, p):
    """Unlink every other node of the option of ``p`` from its item list."""
    updates = 0
    q = p + _ONE
    while q != p:
        x = nodes[ITEM, q]
        u = nodes[UP, q]
        if x == 0:  # spacer: wrap to the option's first node
            q = u
        else:
            d = nodes[DOWN, q]
            nodes[DOWN, u] = d
            nodes[UP, d] = u
            nodes[ITEM, x] -= 1
            updates += 1
            q += _ONE
    return updates


@njit(cache=True, inline="always")
def _unhide(nodes, p):
    """Undo :func:`_hide` (walking left, the reverse order)."""
    q = p - _ONE
    while q != p:
        x = nodes[ITEM, q]
        d = nodes[DOWN, q]
        if x == 0:  # spacer: wrap to the option's last node
            q = d
        else:
            u = nodes[UP, q]
            nodes[DOWN, u] = q
            nodes[UP, d] = q
            nodes[ITEM, x] += 1
            q -= _ONE


@njit(cache=True, inline="always")
def _cover(nodes, items, i):
    updates = 1
    p = nodes[DOWN, i]
    while p != i:
        updates += _hide(nodes, p)
        p = nodes[DOWN, p]
    left = items[0, i]
    right = items[1, i]
    items[1, left] = right
    items[0, right] = left
    return updates


@njit(cache=True, inline="always")
def _uncover(nodes, items, i):
    left = items[0, i]
    right = items[1, i]
    items[1, left] = i
    items[0, right] = i
    p = nodes[UP, i]
    while p != i:
        _unhide(nodes, p)
        p = nodes[UP, p]


@njit(cache=True, inline="always")
def option_of(nodes, x):
    """Index of the option that holds node ``x`` (walk left to its spacer)."""
    q = x - _ONE
    while nodes[ITEM, q] != 0:
        q -= _ONE
    return nodes[AUX, q]


@njit(cache=True, inline="always")
def emit(trace, n_trace, event, level, item, option, value):
    """Append one trace row if there is room; return the new row count."""
    if n_trace < trace.shape[0]:
        trace[n_trace, 0] = event
        trace[n_trace, 1] = level
        trace[n_trace, 2] = item
        trace[n_trace, 3] = option
        trace[n_trace, 4] = value
        return n_trace + 1
    return n_trace


@njit(cache=True)
def search(nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats,
           trace):
    """Run Algorithm X from the point saved in ``state``.

    Parameters
    ----------
    nodes, items : DLX1 tables (modified in place; restored when the search finishes).
    n_items : int, the number of items (header rows are ``1..n_items``).
    choice : (max_depth,) array, the node chosen at each level.
    state : int64 (3,) array: ``[pc, level, trace_len]``; zeros start a fresh search.
    max_solutions : stop after this many solutions in this call (<= 0: never).
    max_nodes : stop when ``stats[ST_NODES]`` reaches this (<= 0: no budget).
    record : int32 (k, max_depth) array; the first ``k`` solutions of this call are
        written there as option indices (rows padded with -1).
    stats : int64 (N_STATS,) counters, accumulated: nodes, updates, solutions.
    trace : int64 (m, 5) array of events ``(event, level, item, option, value)``; an
        empty array turns tracing off. Events are written until it is full; how many
        were written is kept in ``state[2]``.

    Returns
    -------
    (code, found) : ``code`` is RET_DONE, RET_LIMIT or RET_BUDGET; ``found`` how many
    solutions this call saw.
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
        if pc == PC_X2:
            # X2 [Enter level]
            if max_nodes > 0 and nodes_seen >= max_nodes:
                code = RET_BUDGET
                break
            nodes_seen += 1
            if items[1, 0] == 0:
                # every primary item is covered: visit the solution
                solutions += 1
                if found < n_record:
                    for j in range(level):
                        record[found, j] = option_of(nodes, choice[j])
                    for j in range(level, record.shape[1]):
                        record[found, j] = -1
                if tracing:
                    n_trace = emit(trace, n_trace, EV_SOLUTION, level, -1, -1, solutions)
                found += 1
                pc = PC_X8
                if max_solutions > 0 and found >= max_solutions:
                    code = RET_LIMIT
                    break
                continue
            # X3 [Choose i]: minimum remaining values, first of equals
            i = items[1, 0]
            best = nodes[ITEM, i]
            p = items[1, i]
            while p != 0 and best > 0:
                length = nodes[ITEM, p]
                if length < best:
                    best = length
                    i = p
                p = items[1, p]
            if tracing:
                n_trace = emit(trace, n_trace, EV_CHOOSE, level, i, -1, best)
            # X4 [Cover i]
            updates += _cover(nodes, items, i)
            x = nodes[DOWN, i]
            choice[level] = x
        else:
            x = choice[level]
            if pc == PC_X8:
                # X8 [Leave level]
                if level == 0:
                    pc = PC_DONE
                    code = RET_DONE
                    break
                level -= 1
                x = choice[level]
            # X6 [Try again]: uncover the other items of x's option, walking left
            p = x - _ONE
            while p != x:
                j = nodes[ITEM, p]
                if j == 0:
                    p = nodes[DOWN, p]
                else:
                    _uncover(nodes, items, j)
                    p -= _ONE
            x = nodes[DOWN, x]
            choice[level] = x
        # X5 [Try x]
        if x <= n_items:
            # X7 [Backtrack]: x is back at the header of item i
            _uncover(nodes, items, x)
            if tracing:
                n_trace = emit(trace, n_trace, EV_BACKTRACK, level, x, -1, 0)
            pc = PC_X8
            continue
        if tracing:
            n_trace = emit(trace, n_trace, EV_TRY, level, nodes[ITEM, x], option_of(nodes, x),
                           0)
        p = x + _ONE
        while p != x:
            j = nodes[ITEM, p]
            if j == 0:
                p = nodes[UP, p]
            else:
                updates += _cover(nodes, items, j)
                p += _ONE
        level += 1
        pc = PC_X2
    state[0] = pc
    state[1] = level
    if tracing:
        state[2] = n_trace
    stats[ST_NODES] = nodes_seen
    stats[ST_UPDATES] = updates
    stats[ST_SOLUTIONS] = solutions
    return code, found
