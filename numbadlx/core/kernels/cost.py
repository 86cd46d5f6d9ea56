"""Minimum-cost exact covers (after Knuth's DLX5): Algorithms X and C with a cost bound.

Every option has an integer **net cost** ``>= 0`` (its cost less the *taxes* of its
primary items, see :mod:`numbadlx.core.costs`), every solution's cost is the sum of
the taxes plus its options' net costs, and the tables come linked with each item's
options in increasing net cost. So the search can cut whole branches against a
``threshold`` on the net cost (the k-th best so far, or a ``max_cost``):

* C3' [Choose i], bounded: besides the item with the fewest options, the scan finds
  the largest of the items' cheapest options (the first node of each list); if what
  the level has spent plus that exceeds the threshold, no solution below it can be
  cheap enough and the level is left without covering anything;
* C5' [Try x], sorted: an option whose net cost takes the level past the threshold is
  the first of its list's too expensive ones, so the level backtracks at once.

The rest is Algorithm X (``colours`` False) or C (True) as in :mod:`.xc`, with the same
resumable ``state`` (``[pc, level]``) and node budget. A call stops at each solution
when ``max_solutions`` is 1, so the caller can lower ``threshold`` before the next
call: the cut stays sound, since it only removes branches above the threshold.
"""

from numba import literally, njit

from ..links import DOWN, ITEM
from .commit import commit_option, uncommit_option
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
    cover,
    record_solution,
    uncover,
)

__all__ = ["search_cost"]


@njit(cache=True, nogil=True)
def _choose_bounded(nodes, items, node_net):
    """``(i, length, bound)``: the item with the fewest options (first of equals) and
    the largest net cost of the items' cheapest options."""
    i = items[1, 0]
    best = nodes[ITEM, i]
    bound = 0
    p = i
    while p != 0:
        length = nodes[ITEM, p]
        if length == 0:
            return p, 0, bound
        cheapest = node_net[nodes[DOWN, p]]
        if cheapest > bound:
            bound = cheapest
        if length < best:
            best = length
            i = p
        p = items[1, p]
    return i, best, bound


@njit(cache=True, nogil=True)
def _search(
    nodes,
    items,
    n_items,
    choice,
    spent,
    state,
    node_net,
    threshold,
    max_solutions,
    max_nodes,
    record,
    stats,
    colours,
):
    literally(colours)
    pc = state[0]
    level = state[1]
    if pc == PC_DONE:
        return RET_DONE, 0
    found = 0
    n_record = record.shape[0]
    nodes_seen = stats[ST_NODES]
    updates = stats[ST_UPDATES]
    solutions = stats[ST_SOLUTIONS]
    code = RET_DONE
    while True:
        if pc == PC_ENTER:
            if max_nodes > 0 and nodes_seen >= max_nodes:
                code = RET_BUDGET
                break
            nodes_seen += 1
            if items[1, 0] == 0:
                solutions += 1
                if found < n_record:
                    record_solution(nodes, choice, level, n_items, record, found)
                found += 1
                pc = PC_LEAVE
                if max_solutions > 0 and found >= max_solutions:
                    code = RET_LIMIT
                    break
                continue
            i, best, bound = _choose_bounded(nodes, items, node_net)
            if best == 0 or spent[level] + bound > threshold:
                pc = PC_LEAVE  # a dead end, or nothing below is cheap enough
                continue
            updates += cover(nodes, items, i, colours)
            x = nodes[DOWN, i]
            choice[level] = x
        else:
            if pc == PC_LEAVE:
                if level == 0:
                    pc = PC_DONE
                    code = RET_DONE
                    break
                level -= 1
            x = choice[level]
            uncommit_option(nodes, items, x, colours)
            x = nodes[DOWN, x]
            choice[level] = x
        if x <= n_items or spent[level] + node_net[x] > threshold:
            # back at the header, or this option and the rest of the list cost too much
            while x > n_items:
                x = nodes[DOWN, x]
            choice[level] = x
            uncover(nodes, items, x, colours)
            pc = PC_LEAVE
            continue
        commit_option(nodes, items, x, colours)
        spent[level + 1] = spent[level] + node_net[x]
        level += 1
        pc = PC_ENTER
    state[0] = pc
    state[1] = level
    stats[ST_NODES] = nodes_seen
    stats[ST_UPDATES] = updates
    stats[ST_SOLUTIONS] = solutions
    return code, found


@njit(cache=True, nogil=True)
def search_cost(
    nodes,
    items,
    n_items,
    choice,
    spent,
    state,
    node_net,
    threshold,
    max_solutions,
    max_nodes,
    record,
    stats,
    colours,
):
    """Run the bounded search from the point saved in ``state`` (see the module).

    Parameters
    ----------
    nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats
        As for :func:`numbadlx.core.kernels.xc.search_x` (``state``: ``[pc, level]``).
    spent : int64 (max_depth + 1,)
        Net cost of the options chosen above each level (``spent[0] = 0``).
    node_net : int64 (n_nodes,)
        Net cost of the option each node belongs to (headers and spacers: 0).
    threshold : int
        Largest net cost a solution may have.
    colours : bool
        Algorithm C's commit (purify) instead of X's cover.

    Returns
    -------
    (code, found) : as :func:`~numbadlx.core.kernels.xc.search_x`.
    """
    if colours:
        return _search(
            nodes, items, n_items, choice, spent, state, node_net, threshold,
            max_solutions, max_nodes, record, stats, True,
        )  # fmt: skip
    return _search(
        nodes, items, n_items, choice, spent, state, node_net, threshold,
        max_solutions, max_nodes, record, stats, False,
    )  # fmt: skip
