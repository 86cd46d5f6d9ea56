"""Algorithm C (exact covering with colours) on DLX1 tables: one resumable ``@njit`` kernel.

Same tables, state, statistics, budgets and return codes as Algorithm X in
:mod:`numbadlx.core.kernels.x`; only the way secondary items are handled differs. A node's
``AUX`` column holds its colour (``0`` = none). While a secondary item is *purified*
to colour ``c`` (some chosen option gave it ``c``), every other node of that item with
colour ``c`` carries the mark :data:`MARK` (Knuth's ``COLOR = -1``): those options stay
compatible, and the hide/unhide primitives leave marked nodes where they are, so that
:func:`unpurify` finds them again to give their colour back.

The steps carry Knuth's labels (TAOCP 7.2.2.1, Algorithm C):

C1 initialise (:func:`numbadlx.core.links.build_links` with a colour array), C2 enter a
level (a solution when no primary item is left), C3 choose an item (minimum remaining
values), C4 cover it, C5 try ``choice[level]`` (commit its other items), C6 try again
(uncommit, next option down), C7 backtrack, C8 leave the level.

Primary items never have a colour, so committing a node of colour 0 is a plain
cover'; a coloured node purifies its item, and a marked node needs nothing (its item is
already purified to the same colour).

The helpers here (``hide'``, ``cover'``, ``purify`` and their inverses) are also used by
Algorithm M in :mod:`numbadlx.core.kernels.m`.
"""

import numpy as np
from numba import njit

from .x import (EV_BACKTRACK, EV_CHOOSE, EV_SOLUTION, EV_TRY, PC_DONE, PC_X2, PC_X8,
                      RET_BUDGET, RET_DONE, RET_LIMIT, ST_NODES, ST_SOLUTIONS, ST_UPDATES,
                      emit, option_of)
from ..links import AUX, DOWN, ITEM, UP

_ONE = np.uint32(1)

#: Colour mark of a node whose item is purified to that node's own colour (Knuth's -1).
MARK = np.uint32(0xFFFFFFFF)

# (colours are validated to at most numbadlx.core.validate.MAX_COLOUR, below the mark)


@njit(cache=True, inline="always")
def hide_c(nodes, p):
    """hide'(p): unlink the other nodes of ``p``'s option, leaving marked nodes alone."""
    updates = 0
    q = p + _ONE
    while q != p:
        x = nodes[ITEM, q]
        if x == 0:  # spacer: wrap to the option's first node
            q = nodes[UP, q]
        else:
            if nodes[AUX, q] != MARK:
                u = nodes[UP, q]
                d = nodes[DOWN, q]
                nodes[DOWN, u] = d
                nodes[UP, d] = u
                nodes[ITEM, x] -= 1
                updates += 1
            q += _ONE
    return updates


@njit(cache=True, inline="always")
def unhide_c(nodes, p):
    """unhide'(p): undo :func:`hide_c`, walking left (the reverse order)."""
    q = p - _ONE
    while q != p:
        x = nodes[ITEM, q]
        if x == 0:  # spacer: wrap to the option's last node
            q = nodes[DOWN, q]
        else:
            if nodes[AUX, q] != MARK:
                u = nodes[UP, q]
                d = nodes[DOWN, q]
                nodes[DOWN, u] = q
                nodes[UP, d] = q
                nodes[ITEM, x] += 1
            q -= _ONE


@njit(cache=True)
def cover_c(nodes, items, i):
    """cover'(i): hide every option in item ``i``'s list, then unlink ``i``."""
    updates = 1
    p = nodes[DOWN, i]
    while p != i:
        updates += hide_c(nodes, p)
        p = nodes[DOWN, p]
    left = items[0, i]
    right = items[1, i]
    items[1, left] = right
    items[0, right] = left
    return updates


@njit(cache=True)
def uncover_c(nodes, items, i):
    """uncover'(i): relink ``i`` and unhide its options bottom-up."""
    left = items[0, i]
    right = items[1, i]
    items[1, left] = i
    items[0, right] = i
    p = nodes[UP, i]
    while p != i:
        unhide_c(nodes, p)
        p = nodes[UP, p]


@njit(cache=True)
def purify(nodes, p):
    """Keep in ``p``'s item only the options that agree with ``p``'s colour.

    ``p`` itself is no longer in the list (its option was hidden when it was chosen),
    so it keeps its colour for :func:`unpurify`.
    """
    updates = 0
    c = nodes[AUX, p]
    i = nodes[ITEM, p]
    q = nodes[DOWN, i]
    while q != i:
        if nodes[AUX, q] == c:
            nodes[AUX, q] = MARK
            updates += 1
        else:
            updates += hide_c(nodes, q)
        q = nodes[DOWN, q]
    return updates


@njit(cache=True)
def unpurify(nodes, p):
    """Undo :func:`purify` (bottom-up)."""
    c = nodes[AUX, p]
    i = nodes[ITEM, p]
    q = nodes[UP, i]
    while q != i:
        if nodes[AUX, q] == MARK:
            nodes[AUX, q] = c
        else:
            unhide_c(nodes, q)
        q = nodes[UP, q]


# commit(p, j) and uncommit(p, j) are written out where they are used, as
#     c = nodes[AUX, p]; if c == 0: cover_c(j) elif c != MARK: purify(p)
# Helpers called on such branches (cover_c, uncover_c, purify, unpurify) are plain
# @njit functions, inlined by LLVM: inlined by Numba (inline="always") their array
# arguments were reference-counted on every call, which cost half of the run time.


@njit(cache=True)
def search(nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats,
           trace):
    """Run Algorithm C from the point saved in ``state``.

    The arguments, ``state`` layout, trace rows and return value are those of
    :func:`numbadlx.core.kernels.x.search`; ``nodes`` must carry colours in ``AUX``.
    ``stats[ST_UPDATES]`` counts unlinked nodes, unlinked items and colour marks.
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
            # C2 [Enter level]
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
            # C3 [Choose i]: minimum remaining values, first of equals
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
            # C4 [Cover i]
            updates += cover_c(nodes, items, i)
            x = nodes[DOWN, i]
            choice[level] = x
        else:
            x = choice[level]
            if pc == PC_X8:
                # C8 [Leave level]
                if level == 0:
                    pc = PC_DONE
                    code = RET_DONE
                    break
                level -= 1
                x = choice[level]
            # C6 [Try again]: uncommit the other items of x's option, walking left
            p = x - _ONE
            while p != x:
                j = nodes[ITEM, p]
                if j == 0:
                    p = nodes[DOWN, p]
                else:
                    # uncommit(p, j)
                    c = nodes[AUX, p]
                    if c == 0:
                        uncover_c(nodes, items, j)
                    elif c != MARK:
                        unpurify(nodes, p)
                    p -= _ONE
            x = nodes[DOWN, x]
            choice[level] = x
        # C5 [Try x]
        if x <= n_items:
            # C7 [Backtrack]: x is back at the header of item i
            uncover_c(nodes, items, x)
            if tracing:
                n_trace = emit(trace, n_trace, EV_BACKTRACK, level, x, -1, 0)
            pc = PC_X8
            continue
        if tracing:
            n_trace = emit(trace, n_trace, EV_TRY, level, nodes[ITEM, x],
                           option_of(nodes, x), 0)
        p = x + _ONE
        while p != x:
            j = nodes[ITEM, p]
            if j == 0:
                p = nodes[UP, p]
            else:
                # commit(p, j)
                c = nodes[AUX, p]
                if c == 0:
                    updates += cover_c(nodes, items, j)
                elif c != MARK:
                    updates += purify(nodes, p)
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
