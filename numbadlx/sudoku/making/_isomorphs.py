"""Random isomorphs of one puzzle (the kernel of :func:`numbadlx.sudoku.transform`, and
of the isomorphs the ``tries`` rating averages over)."""

import numpy as np
from numba import njit

from ._masks import cleared
from ._random import random_below, shuffle, splitmix_below


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


def transform_from_python(puzzle, n, box_rows, box_cols, state, out):
    """:func:`transform_one` in Python and NumPy: the same isomorph into ``out`` and
    the same draws from ``state``, for the loops of small calls run from Python (one
    kernel less to compile on a first use, at some tens of microseconds a call).

    Examples
    --------
    >>> import numpy as np
    >>> state = np.array([7], dtype=np.uint64)
    >>> out = np.zeros(16, dtype=np.uint8)
    >>> transform_from_python(np.arange(16, dtype=np.uint8) % 5, 4, 2, 2, state, out)
    >>> sorted(out.tolist()) == sorted((np.arange(16) % 5).tolist())
    True
    """
    draw = splitmix_below(int(state[0]))

    def shuffled(values):
        for i in range(len(values) - 1, 0, -1):
            j = draw(i + 1)
            values[i], values[j] = values[j], values[i]
        return values

    orders = []
    for size in (box_rows, box_cols):
        order = []
        for g in shuffled(list(range(n // size))):
            order += shuffled([g * size + i for i in range(size)])
        orders.append(order)
    digits = np.array([0] + shuffled(list(range(1, n + 1))), dtype=np.uint8)
    flip = box_rows == box_cols and draw(2) == 1
    image = digits[puzzle.reshape(n, n)[np.ix_(orders[0], orders[1])]]
    out[:] = (image.T if flip else image).ravel()
    state[0] = draw.state()
