"""Committing a chosen option's other items, and undoing it, as helpers: for the
kernels that walk a search tree without the last few percent of speed at stake (the
random-path estimate, the minimum-cost search). The main X and C kernels write the
same loops out in their bodies, where LLVM keeps them inline (see :mod:`.common`)."""

from numba import njit

from ..links import AUX, DOWN, ITEM, UP
from .common import MARK, ONE, cover, purify, uncover, unpurify

__all__ = ["commit_option", "uncommit_option"]


@njit(cache=True, nogil=True)
def commit_option(nodes, items, x, colours):
    """X5/C5: cover (C: commit) the other items of ``x``'s option, walking right."""
    p = x + ONE
    while p != x:
        j = nodes[ITEM, p]
        if j == 0:
            p = nodes[UP, p]
        else:
            if colours:
                c = nodes[AUX, p]
                if c == 0:
                    cover(nodes, items, j, True)
                elif c != MARK:
                    purify(nodes, p)
            else:
                cover(nodes, items, j, False)
            p += ONE


@njit(cache=True, nogil=True)
def uncommit_option(nodes, items, x, colours):
    """X6/C6: undo :func:`commit_option`, walking left."""
    p = x - ONE
    while p != x:
        j = nodes[ITEM, p]
        if j == 0:
            p = nodes[DOWN, p]
        else:
            if colours:
                c = nodes[AUX, p]
                if c == 0:
                    uncover(nodes, items, j, True)
                elif c != MARK:
                    unpurify(nodes, p)
            else:
                uncover(nodes, items, j, False)
            p -= ONE
