"""What the X, C and M kernels share: constants, the link primitives, trace rows,
solution recording and the minimum-remaining-values choice.

The helpers are plain ``@njit`` functions, which LLVM inlines into the kernels. (Marked
``inline="always"``, Numba inlines them at the IR level instead and then reference-
counts their array arguments on every call, which once cost about half of Algorithm
C's run time.) The exception is :func:`record_solution`, which runs only at a
solution: see there. The link primitives are compiled without a Python or C entry point
(:func:`~numbadlx._compiling.inner_njit`): only kernels call them, and the entry points
were code to generate and optimise on first use (a first ``count --method memo`` took
about 0.2 s less CPU).

Several helpers take a ``colours`` flag, always a compile-time constant: the kernels
pass ``True`` or ``False`` literally, so Numba compiles one version of the helper for
each value, and the branches for the other value are folded away. With ``colours``
false the helpers are Knuth's plain ``hide``/``cover`` (Algorithm X); with it true they
are ``hide'``/``cover'`` (Algorithms C and M), which leave alone the nodes marked with
:data:`MARK`.

Numba's on-disk cache keys each kernel on its own source file only, so ``xc.py`` and
``m.py`` would keep loading kernels compiled with the old helpers of this module inlined
after an edit here: :func:`numbadlx.core.kernels.drop_stale_caches` removes their cache
index on import when this file (or ``links.py``) is newer.

``commit(p, j)`` and ``uncommit(p, j)`` are written out in the kernels where they are
used (a node of colour 0 covers its item, a coloured node purifies it with
:func:`purify`, a marked node needs nothing): as helpers of their own, LLVM declined to
inline them and Algorithm C ran twice as long.
"""

import numpy as np
from numba import njit

from ..._compiling import inner_njit
from ..links import AUX, DOWN, ITEM, UP

ONE = np.uint32(1)

#: Colour mark of a node whose item is purified to that node's own colour (Knuth's
#: ``COLOR = -1``); real colours stay below it (see numbadlx.core.validate.MAX_COLOUR).
MARK = np.uint32(0xFFFFFFFF)

# program counter values kept in state[0]
PC_ENTER = 0  # (re)enter the level state[1]: X2, C2, M2
PC_LEAVE = 1  # leave the level (after a solution or a backtrack): X8, C8, M9
PC_DONE = 2  # the search space is exhausted
# Knuth's names for the same values
PC_X2 = PC_ENTER
PC_X8 = PC_LEAVE

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
EV_CHOOSE = 0  # columns: event, level, item, option (-1), length of item (M: theta)
EV_TRY = 1  # the option tried at this level (M: -1 for "no further option")
EV_BACKTRACK = 2  # no option left for the item: uncover and leave the level
EV_SOLUTION = 3


# ----------------------------------------------------------------------------------
# Link primitives
# ----------------------------------------------------------------------------------


@inner_njit(cache=True, nogil=True)
def hide(nodes, p, colours):
    """hide(p) / hide'(p): unlink the other nodes of ``p``'s option from their item
    lists (with ``colours``, marked nodes stay). Returns the number of nodes unlinked."""
    updates = 0
    q = p + ONE
    while q != p:
        x = nodes[ITEM, q]
        if x == 0:  # spacer: wrap to the option's first node
            q = nodes[UP, q]
        else:
            if not colours or nodes[AUX, q] != MARK:
                u = nodes[UP, q]
                d = nodes[DOWN, q]
                nodes[DOWN, u] = d
                nodes[UP, d] = u
                nodes[ITEM, x] -= 1
                updates += 1
            q += ONE
    return updates


@inner_njit(cache=True, nogil=True)
def unhide(nodes, p, colours):
    """Undo :func:`hide`, walking left (the reverse order)."""
    q = p - ONE
    while q != p:
        x = nodes[ITEM, q]
        if x == 0:  # spacer: wrap to the option's last node
            q = nodes[DOWN, q]
        else:
            if not colours or nodes[AUX, q] != MARK:
                u = nodes[UP, q]
                d = nodes[DOWN, q]
                nodes[DOWN, u] = q
                nodes[UP, d] = q
                nodes[ITEM, x] += 1
            q -= ONE


@inner_njit(cache=True, nogil=True)
def cover(nodes, items, i, colours):
    """cover(i) / cover'(i): hide every option in item ``i``'s list, then unlink ``i``
    from its item list. Returns the number of updates (nodes and the item)."""
    updates = 1
    p = nodes[DOWN, i]
    while p != i:
        updates += hide(nodes, p, colours)
        p = nodes[DOWN, p]
    left = items[0, i]
    right = items[1, i]
    items[1, left] = right
    items[0, right] = left
    return updates


@inner_njit(cache=True, nogil=True)
def uncover(nodes, items, i, colours):
    """Undo :func:`cover`: relink ``i``, then unhide its options bottom-up."""
    left = items[0, i]
    right = items[1, i]
    items[1, left] = i
    items[0, right] = i
    p = nodes[UP, i]
    while p != i:
        unhide(nodes, p, colours)
        p = nodes[UP, p]


@inner_njit(cache=True, nogil=True)
def purify(nodes, p):
    """Keep in ``p``'s item only the options that agree with ``p``'s colour: mark the
    nodes of that colour, hide the options of the others.

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
            updates += hide(nodes, q, True)
        q = nodes[DOWN, q]
    return updates


@inner_njit(cache=True, nogil=True)
def unpurify(nodes, p):
    """Undo :func:`purify` (bottom-up)."""
    c = nodes[AUX, p]
    i = nodes[ITEM, p]
    q = nodes[UP, i]
    while q != i:
        if nodes[AUX, q] == MARK:
            nodes[AUX, q] = c
        else:
            unhide(nodes, q, True)
        q = nodes[UP, q]


# ----------------------------------------------------------------------------------
# Choosing, recording, tracing
# ----------------------------------------------------------------------------------


@inner_njit(cache=True, nogil=True)
def choose_mrv(nodes, items):
    """X3/C3 [Choose i]: the active primary item with the fewest options left
    (minimum remaining values), the first of equals in the item list. The scan stops
    at a length of 0 (nothing can beat a dead end). Returns ``(i, length)``; at least
    one primary item must be active."""
    i = items[1, 0]
    best = nodes[ITEM, i]
    p = items[1, i]
    while p != 0 and best > 0:
        length = nodes[ITEM, p]
        if length < best:
            best = length
            i = p
        p = items[1, p]
    return i, best


@inner_njit(cache=True, nogil=True)
def option_of(nodes, x):
    """Index of the option that holds node ``x`` (walk left to its spacer)."""
    q = x - ONE
    while nodes[ITEM, q] != 0:
        q -= ONE
    return nodes[AUX, q]


@njit(cache=True, nogil=True, inline="always")
def record_solution(nodes, choice, level, n_items, record, row):
    """Write the options chosen on levels ``0..level-1`` into ``record[row]`` as option
    indices, padded with -1. A level whose choice is an item's header (Algorithm M's
    "no further option" branch) chose no option and is skipped.

    The one helper Numba inlines itself: LLVM keeps this loop out of line, and a call
    in the kernels' main loop, even one never made, cost Algorithm C 3-5% (measured).
    Inlined by Numba, its array arguments are reference-counted only when a solution
    is recorded.
    """
    t = 0
    for j in range(level):
        x = choice[j]
        if x > n_items:
            record[row, t] = option_of(nodes, x)
            t += 1
    for j in range(t, record.shape[1]):
        record[row, j] = -1


@njit(cache=True, nogil=True)
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
