"""Algorithms X and C on DLX1 tables: one resumable search body, two ``@njit`` kernels.

Algorithm X (:func:`search_x`) covers every item of each option it tries. Algorithm C
(:func:`search_c`, exact covering with colours) differs only in how it treats secondary
items: a node's ``AUX`` column holds its colour (``0`` = none); committing a coloured
node *purifies* its item (the nodes of that colour get the mark
:data:`~numbadlx.core.kernels.common.MARK`, the options of other colours are hidden),
and the hide/unhide primitives leave marked nodes where they are. So both run the same
body, :func:`_search`, with a flag ``colours``. The flag is a compile-time constant:
``_search`` asks for it with :func:`numba.literally`, each entry point passes ``False``
or ``True`` literally, and Numba compiles one specialised copy of the body (and of
every helper it calls with the flag) for each value. Inside a copy the flag is an
LLVM constant, so the colour tests are folded away: Algorithm X's machine code has no
colour test at all (``tests/core/test_kernels.py`` checks that in the generated LLVM IR).

The steps carry Knuth's labels (TAOCP 7.2.2.1, Algorithms X and C, with the same
numbering):

X1/C1 initialise (done by :func:`numbadlx.core.links.build_links`), X2/C2 enter a level
(a solution when no primary item is left), X3/C3 choose an item (minimum remaining
values, first of equals), X4/C4 cover it, X5/C5 try ``choice[level]`` (cover, or
commit, the other items of its option), X6/C6 try again (undo that, next option down),
X7/C7 backtrack, X8/C8 leave the level.

A kernel keeps all its state in arrays it is handed (the link tables, ``choice`` and
``state``), so it can stop after a solution, a solution limit or a node budget and be
called again to carry on exactly where it stopped.
"""

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
    choose_mrv,
    cover,
    emit,
    option_of,
    purify,
    record_solution,
    uncover,
    unpurify,
)

__all__ = ["search_x", "search_c"]


@njit(cache=True, nogil=True)
def _search(
    nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats, trace, colours
):
    """The body of :func:`search_x` (``colours`` False) and :func:`search_c` (True)."""
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
        if pc == PC_ENTER:
            # X2/C2 [Enter level]
            if max_nodes > 0 and nodes_seen >= max_nodes:
                code = RET_BUDGET
                break
            nodes_seen += 1
            if items[1, 0] == 0:
                # every primary item is covered: visit the solution
                solutions += 1
                if found < n_record:
                    record_solution(nodes, choice, level, n_items, record, found)
                if tracing:
                    n_trace = emit(trace, n_trace, EV_SOLUTION, level, -1, -1, solutions)
                found += 1
                pc = PC_LEAVE
                if max_solutions > 0 and found >= max_solutions:
                    code = RET_LIMIT
                    break
                continue
            # X3/C3 [Choose i]
            i, best = choose_mrv(nodes, items)
            if tracing:
                n_trace = emit(trace, n_trace, EV_CHOOSE, level, i, -1, best)
            # X4 [Cover i] / C4 [Cover i]: cover(i) / cover'(i)
            updates += cover(nodes, items, i, colours)
            x = nodes[DOWN, i]
            choice[level] = x
        else:
            x = choice[level]
            if pc == PC_LEAVE:
                # X8/C8 [Leave level]
                if level == 0:
                    pc = PC_DONE
                    code = RET_DONE
                    break
                level -= 1
                x = choice[level]
            # X6/C6 [Try again]: uncover (C: uncommit) the other items of x's option,
            # walking left, then move x down its item's list
            p = x - ONE
            while p != x:
                j = nodes[ITEM, p]
                if j == 0:  # spacer: wrap to the option's last node
                    p = nodes[DOWN, p]
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
        # X5/C5 [Try x]
        if x <= n_items:
            # X7/C7 [Backtrack]: x is back at the header of item i
            uncover(nodes, items, x, colours)
            if tracing:
                n_trace = emit(trace, n_trace, EV_BACKTRACK, level, x, -1, 0)
            pc = PC_LEAVE
            continue
        if tracing:
            n_trace = emit(trace, n_trace, EV_TRY, level, nodes[ITEM, x], option_of(nodes, x), 0)
        # cover (C: commit) the other items of x's option, walking right
        p = x + ONE
        while p != x:
            j = nodes[ITEM, p]
            if j == 0:  # spacer: wrap to the option's first node
                p = nodes[UP, p]
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
        level += 1
        pc = PC_ENTER
    state[0] = pc
    state[1] = level
    if tracing:
        state[2] = n_trace
    stats[ST_NODES] = nodes_seen
    stats[ST_UPDATES] = updates
    stats[ST_SOLUTIONS] = solutions
    return code, found


@njit(cache=True, nogil=True)
def search_x(nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats, trace):
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
    return _search(
        nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats, trace, False
    )


@njit(cache=True, nogil=True)
def search_c(nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats, trace):
    """Run Algorithm C from the point saved in ``state``.

    The arguments, ``state`` layout, trace rows and return value are those of
    :func:`search_x`; ``nodes`` must carry colours in ``AUX``. ``stats[ST_UPDATES]``
    counts unlinked nodes, unlinked items and colour marks.
    """
    return _search(
        nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats, trace, True
    )
