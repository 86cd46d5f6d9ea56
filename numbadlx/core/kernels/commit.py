"""Committing a chosen option's other items, and undoing it, as helpers: for the
kernels that walk a search tree without the last few percent of speed at stake (the
random-path estimate, the minimum-cost search). The main X and C kernels write the
same loops out in their bodies, where LLVM keeps them inline (see :mod:`.common`).

Each helper acts on the options of net cost at most ``limit`` only (``node_net`` gives
each node's option cost; item lists are in increasing net cost): DLX5's thresholded
cover. With every net cost 0 and a limit of 0 they are the plain ``cover'`` and
``purify`` of Algorithm C (and ``cover`` of X).
"""

from numba import njit

from ..links import AUX, DOWN, ITEM, UP
from .common import MARK, ONE, hide, unhide

__all__ = [
    "commit_option",
    "uncommit_option",
    "cover_below",
    "uncover_below",
    "purify_below",
    "unpurify_below",
]


@njit(cache=True, nogil=True)
def cover_below(nodes, items, i, colours, node_net, limit):
    """cover(i) for the options of net cost at most ``limit`` only: the others, at the
    end of the sorted list, can never be chosen below this level, so they stay linked
    (DLX5's thresholded cover)."""
    p = nodes[DOWN, i]
    while p != i and node_net[p] <= limit:
        hide(nodes, p, colours)
        p = nodes[DOWN, p]
    left = items[0, i]
    right = items[1, i]
    items[1, left] = right
    items[0, right] = left


@njit(cache=True, nogil=True)
def uncover_below(nodes, items, i, colours, node_net, limit):
    """Undo :func:`_cover_below` with the same ``limit``. The options are unhidden top
    to bottom, the order they were hidden in: as Knuth notes in DLX5, the links come
    back all the same."""
    left = items[0, i]
    right = items[1, i]
    items[1, left] = i
    items[0, right] = i
    p = nodes[DOWN, i]
    while p != i and node_net[p] <= limit:
        unhide(nodes, p, colours)
        p = nodes[DOWN, p]


@njit(cache=True, nogil=True)
def purify_below(nodes, p, node_net, limit):
    """purify(p) for the options of net cost at most ``limit`` only (see
    :func:`_cover_below`): mark those of ``p``'s colour, hide the others."""
    c = nodes[AUX, p]
    i = nodes[ITEM, p]
    q = nodes[DOWN, i]
    while q != i and node_net[q] <= limit:
        if nodes[AUX, q] == c:
            nodes[AUX, q] = MARK
        else:
            hide(nodes, q, True)
        q = nodes[DOWN, q]


@njit(cache=True, nogil=True)
def unpurify_below(nodes, p, node_net, limit):
    """Undo :func:`_purify_below` with the same ``limit``, top to bottom."""
    c = nodes[AUX, p]
    i = nodes[ITEM, p]
    q = nodes[DOWN, i]
    while q != i and node_net[q] <= limit:
        if nodes[AUX, q] == MARK:
            nodes[AUX, q] = c
        else:
            unhide(nodes, q, True)
        q = nodes[DOWN, q]


@njit(cache=True, nogil=True)
def commit_option(nodes, items, x, colours, node_net, limit):
    """X5/C5: cover (C: commit) the other items of ``x``'s option, walking right, each
    item's options of net cost at most ``limit`` only (see :func:`cover_below`)."""
    p = x + ONE
    while p != x:
        j = nodes[ITEM, p]
        if j == 0:
            p = nodes[UP, p]
        else:
            if colours:
                c = nodes[AUX, p]
                if c == 0:
                    cover_below(nodes, items, j, True, node_net, limit)
                elif c != MARK:
                    purify_below(nodes, p, node_net, limit)
            else:
                cover_below(nodes, items, j, False, node_net, limit)
            p += ONE


@njit(cache=True, nogil=True)
def uncommit_option(nodes, items, x, colours, node_net, limit):
    """Undo :func:`commit_option` with the same ``limit``, walking left."""
    p = x - ONE
    while p != x:
        j = nodes[ITEM, p]
        if j == 0:
            p = nodes[DOWN, p]
        else:
            if colours:
                c = nodes[AUX, p]
                if c == 0:
                    uncover_below(nodes, items, j, True, node_net, limit)
                elif c != MARK:
                    unpurify_below(nodes, p, node_net, limit)
            else:
                uncover_below(nodes, items, j, False, node_net, limit)
            p -= ONE
