"""Knuth's random-path estimate of a DLX search tree (Algorithms X and C): ``@njit``.

One sample walks from the root to a leaf as the search would (X2 enter, X3 choose the
item with the fewest options, X4 cover it, X5 commit the other items of the option)
but tries one option only, picked uniformly among the item's ``d`` options. With
``D_k`` the product of the branching degrees met on the first ``k`` levels, the
sample's estimate of the nodes the full search enters is ``1 + D_1 + D_2 + ...`` (each
level's nodes weighted by the inverse of their chance of being reached) and of the
solutions ``D_k`` when the walk ends at a solution, else 0. Both are unbiased (Knuth,
*The Art of Computer Programming* 7.2.2, "estimating the running time"; Knuth 1975).
The walk undoes its covers at the end, leaving the tables as they were.
"""

import numpy as np
from numba import literally, njit

from ..links import DOWN, ITEM
from .commit import commit_option, uncommit_option
from .common import choose_mrv, cover, uncover

__all__ = ["random_paths"]


@njit(cache=True, nogil=True)
def _walk(nodes, items, choice, colours, flat):
    """One random path. Returns ``(nodes estimate, solutions estimate, depth)``."""
    weight = 1.0
    total = 1.0
    level = 0
    solutions = 0.0
    while True:
        if items[1, 0] == 0:
            solutions = weight
            break
        i, d = choose_mrv(nodes, items)
        if d == 0:
            break
        cover(nodes, items, i, colours)
        x = nodes[DOWN, i]
        for _ in range(np.random.randint(0, d)):  # noqa: NPY002 - Numba's generator
            x = nodes[DOWN, x]
        choice[level] = x
        commit_option(nodes, items, x, colours, flat, 0)
        level += 1
        weight *= d
        total += weight
    depth = level
    while level > 0:
        level -= 1
        x = choice[level]
        uncommit_option(nodes, items, x, colours, flat, 0)
        uncover(nodes, items, nodes[ITEM, x], colours)
    return total, solutions, depth


@njit(cache=True, nogil=True)
def _paths(nodes, items, choice, seed, node_estimates, solution_estimates, depths, colours):
    literally(colours)  # one compiled copy per value
    np.random.seed(seed)  # noqa: NPY002 - seeds Numba's own generator
    flat = np.zeros(nodes.shape[1], dtype=np.int64)  # every option costs 0: plain covers  # noqa: NPY002 - seeds Numba's own generator
    for s in range(node_estimates.shape[0]):
        total, solutions, depth = _walk(nodes, items, choice, colours, flat)
        node_estimates[s] = total
        solution_estimates[s] = solutions
        depths[s] = depth


@njit(cache=True, nogil=True)
def random_paths(nodes, items, choice, seed, node_estimates, solution_estimates, depths, colours):
    """Fill ``node_estimates``, ``solution_estimates`` and ``depths`` with one random
    path each (see the module), the generator seeded by ``seed``. ``colours`` selects
    Algorithm C's commit (purify) over Algorithm X's cover."""
    if colours:
        _paths(nodes, items, choice, seed, node_estimates, solution_estimates, depths, True)
    else:
        _paths(nodes, items, choice, seed, node_estimates, solution_estimates, depths, False)
