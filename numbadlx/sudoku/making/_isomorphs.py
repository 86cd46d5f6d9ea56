"""Random isomorphs of one puzzle (the kernel of :func:`numbadlx.sudoku.transform`, and
of the isomorphs the ``tries`` rating averages over)."""

import numpy as np
from numba import njit

from ._masks import cleared
from ._random import random_below, shuffle


@njit(cache=True, nogil=True)  # with an entry point: small rate calls call it from Python
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
