"""Minimum-cost exact covers (after Knuth's DLX5): Algorithms X and C with a cost bound.

Every option has an integer **net cost** ``>= 0`` (its cost less the *taxes* of its
primary items, see :mod:`numbadlx.core.costs`), every solution's cost is the sum of
the taxes plus its options' net costs, and the tables come linked with each item's
options in increasing net cost. So the search can cut whole branches against a
``threshold`` on the net cost (the k-th best so far, or a ``max_cost``):

* C3' [Choose i], bounded: the item with the fewest options that the level can still
  afford (net cost at most the threshold less what the level has spent), the first of
  equals whose cheapest option is dearest; if some item has no affordable option, no
  solution below is cheap enough and the level is left without covering anything;
* C4' [Cover i], thresholded: only the affordable options are hidden, the others (at
  the end of each sorted list) can never be chosen below, since the threshold only
  comes down; uncovering uses the same limit, kept per level;
* C5' [Try x], sorted: an option whose net cost takes the level past the threshold is
  the first of its list's too expensive ones, so the level backtracks at once.

Link updates are not counted here (``stats[ST_UPDATES]`` stays as it was).

The rest is Algorithm X (``colours`` False) or C (True) as in :mod:`.xc`, with the same
resumable ``state`` (``[pc, level]``) and node budget. A call stops at each solution
when ``max_solutions`` is 1, so the caller can lower ``threshold`` before the next
call: the cut stays sound, since it only removes branches above the threshold. For
the one cheapest solution the kernel lowers it itself (``lower``), and a call records
up to ``max_solutions`` of them.
"""

from numba import literally, njit

from ..links import DOWN
from .commit import commit_option, cover_below, uncommit_option, uncover_below
from .common import (
    PC_DONE,
    PC_ENTER,
    PC_LEAVE,
    RET_BUDGET,
    RET_DONE,
    RET_LIMIT,
    ST_NODES,
    ST_SOLUTIONS,
    record_solution,
)

__all__ = ["search_cost"]


@njit(cache=True, nogil=True)
def _choose_bounded(nodes, items, node_net, room):
    """C3' [Choose i]: ``(i, usable)``, the item with the fewest options of net cost at
    most ``room`` (the first of equals with the dearest cheapest option, whose cost
    must be paid somehow), or ``usable = 0`` when some item has none."""
    i = items[1, 0]
    best = -1
    dearest = -1
    k = i
    while k != 0:
        p = nodes[DOWN, k]
        if p == k or node_net[p] > room:
            return k, 0
        cheapest = node_net[p]
        usable = 0
        beaten = False
        while p != k and node_net[p] <= room:
            usable += 1
            if 0 <= best < usable:
                beaten = True  # more options than the best so far: stop counting
                break
            p = nodes[DOWN, p]
        if not beaten and (best < 0 or usable < best or cheapest > dearest):
            best = usable
            dearest = cheapest
            i = k
        k = items[1, k]
    return i, best


@njit(cache=True, nogil=True)
def _search(
    nodes,
    items,
    n_items,
    choice,
    spent,
    limits,
    state,
    node_net,
    threshold,
    max_solutions,
    max_nodes,
    record,
    stats,
    colours,
    lower,
):
    literally(colours)
    pc = state[0]
    level = state[1]
    if pc == PC_DONE:
        return RET_DONE, 0
    found = 0
    n_record = record.shape[0]
    nodes_seen = stats[ST_NODES]
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
                if lower:
                    threshold = spent[level]  # the best so far: only ties and better now
                pc = PC_LEAVE
                if max_solutions > 0 and found >= max_solutions:
                    code = RET_LIMIT
                    break
                continue
            room = threshold - spent[level]
            i, usable = _choose_bounded(nodes, items, node_net, room)
            if usable == 0:
                pc = PC_LEAVE  # some item has no option cheap enough
                continue
            limits[2 * level] = room
            cover_below(nodes, items, i, colours, node_net, room)
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
            uncommit_option(nodes, items, x, colours, node_net, limits[2 * level + 1])
            x = nodes[DOWN, x]
            choice[level] = x
        if x <= n_items or spent[level] + node_net[x] > threshold:
            # back at the header, or this option and the rest of the list cost too much
            while x > n_items:
                x = nodes[DOWN, x]
            choice[level] = x
            uncover_below(nodes, items, x, colours, node_net, limits[2 * level])
            pc = PC_LEAVE
            continue
        spent[level + 1] = spent[level] + node_net[x]
        limits[2 * level + 1] = threshold - spent[level + 1]
        commit_option(nodes, items, x, colours, node_net, limits[2 * level + 1])
        level += 1
        pc = PC_ENTER
    state[0] = pc
    state[1] = level
    stats[ST_NODES] = nodes_seen
    stats[ST_SOLUTIONS] = solutions
    return code, found


@njit(cache=True, nogil=True)
def search_cost(
    nodes,
    items,
    n_items,
    choice,
    spent,
    limits,
    state,
    node_net,
    threshold,
    max_solutions,
    max_nodes,
    record,
    stats,
    colours,
    lower,
):
    """Run the bounded search from the point saved in ``state`` (see the module).

    Parameters
    ----------
    nodes, items, n_items, choice, state, max_solutions, max_nodes, record, stats
        As for :func:`numbadlx.core.kernels.xc.search_x` (``state``: ``[pc, level]``).
    spent : int64 (max_depth + 1,)
        Net cost of the options chosen above each level (``spent[0] = 0``).
    limits : int64 (2 * max_depth,)
        The cost limits each level covered with (its item, its option's other items),
        kept so that uncovering uses the same ones.
    node_net : int64 (n_nodes,)
        Net cost of the option each node belongs to (headers and spacers: 0).
    threshold : int
        Largest net cost a solution may have.
    colours : bool
        Algorithm C's commit (purify) instead of X's cover.
    lower : bool
        Lower ``threshold`` to each solution's net cost (the search for the one
        cheapest): with ``max_solutions`` above 1, one call then records a run of
        ever cheaper solutions (ties included) instead of stopping at each.

    Returns
    -------
    (code, found) : as :func:`~numbadlx.core.kernels.xc.search_x`.
    """
    if colours:
        return _search(
            nodes, items, n_items, choice, spent, limits, state, node_net, threshold,
            max_solutions, max_nodes, record, stats, True, lower,
        )  # fmt: skip
    return _search(
        nodes, items, n_items, choice, spent, limits, state, node_net, threshold,
        max_solutions, max_nodes, record, stats, False, lower,
    )  # fmt: skip
