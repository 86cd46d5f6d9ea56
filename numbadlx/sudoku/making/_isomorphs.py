"""Random isomorphs of one puzzle (the kernel of :func:`numbadlx.sudoku.transform`, and
of the isomorphs the ``tries`` rating averages over)."""

import numpy as np
from numba import njit

from ._masks import cleared
from ._random import random_below, shuffle, splitmix_draws


@njit(cache=True, nogil=True)
def transform_one(puzzle, n, box_rows, box_cols, state, out, row_order, col_order, digits, groups):
    """A random isomorph of ``puzzle`` into ``out``: bands and the rows inside each band,
    stacks and the columns inside each stack, digits relabelled, and (square boxes only)
    a transpose with probability one half."""
    for axis in range(2):
        size = box_rows if axis == 0 else box_cols
        order = row_order if axis == 0 else col_order
        count = n // size
        for g in range(count):
            groups[g] = g
        shuffle(groups, count, state)
        for g in range(count):
            for i in range(size):
                order[g * size + i] = groups[g] * size + i
            shuffle(order[g * size : (g + 1) * size], size, state)
    digits[0] = 0
    for d in range(1, n + 1):
        digits[d] = d
    shuffle(digits[1:], n, state)
    flip = box_rows == box_cols and random_below(state, 2) == 1
    for i in range(n):
        for j in range(n):
            v = digits[puzzle[row_order[i] * n + col_order[j]]]
            if flip:
                out[j * n + i] = v
            else:
                out[i * n + j] = v


@njit(cache=True, nogil=True)  # allocates: see inner_njit
def transform_work(n):
    """Work arrays of :func:`transform_one`."""
    row_order = cleared(np.empty(n, dtype=np.int64))
    col_order = cleared(np.empty(n, dtype=np.int64))
    digits = cleared(np.empty(n + 1, dtype=np.int64))  # int64 as the orders: one shuffle
    groups = cleared(np.empty(n, dtype=np.int64))
    return row_order, col_order, digits, groups


def isomorphs_from_python(puzzle, n, box_rows, box_cols, state, count):
    """``count`` isomorphs of ``puzzle`` as ``count`` calls of :func:`transform_one`
    draw them one after another from ``state`` (advanced past them all), in Python and
    NumPy: a ``(count, n*n)`` uint8 array. For the loops of small calls run from
    Python: one kernel less to compile on a first use, at some microseconds an isomorph.

    Examples
    --------
    >>> import numpy as np
    >>> state = np.array([7], dtype=np.uint64)
    >>> images = isomorphs_from_python(np.arange(16, dtype=np.uint8) % 5, 4, 2, 2, state, 3)
    >>> images.shape, sorted(images[2].tolist()) == sorted((np.arange(16) % 5).tolist())
    ((3, 16), True)
    """
    shapes = [(n // size, size) for size in (box_rows, box_cols)]
    square = box_rows == box_cols
    # the bounds of one isomorph's draws, in the kernel's order: per axis, a shuffle of
    # the groups, then one inside each group; then the digits, and the transpose
    bounds = []
    for groups, size in shapes:
        bounds += range(groups, 1, -1)
        bounds += list(range(size, 1, -1)) * groups
    bounds += range(n, 1, -1)
    if square:
        bounds.append(2)
    draws = iter(splitmix_draws(state, bounds * count))

    def shuffled(values):
        for i in range(len(values) - 1, 0, -1):
            j = next(draws)
            values[i], values[j] = values[j], values[i]
        return values

    cells = np.empty((count, n * n), dtype=np.int64)
    digits = np.empty((count, n + 1), dtype=np.uint8)
    for t in range(count):
        orders = []
        for groups, size in shapes:
            order = []
            for g in shuffled(list(range(groups))):
                order += shuffled(list(range(g * size, (g + 1) * size)))
            orders.append(np.array(order))
        digits[t] = [0] + shuffled(list(range(1, n + 1)))
        index = orders[0][:, None] * n + orders[1]
        cells[t] = (index.T if square and next(draws) == 1 else index).ravel()
    return np.take_along_axis(digits, puzzle[cells], axis=1)
