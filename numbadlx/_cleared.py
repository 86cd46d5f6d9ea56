"""Arrays cleared by a plain loop, for the kernels that allocate their work arrays.

``np.empty`` followed by one of these compiles less than ``np.zeros``, which adds two
NumPy functions to compile for each array type. Importing this module imports Numba,
so only kernel modules import it.
"""

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def cleared(a):
    """``a`` (1-d) with every entry 0, by a plain loop.

    Examples
    --------
    >>> import numpy as np
    >>> cleared(np.full(3, 7)).tolist()
    [0, 0, 0]
    """
    for i in range(a.shape[0]):
        a[i] = 0
    return a


@njit(cache=True, nogil=True, inline="always")
def cleared_rows(a):
    """:func:`cleared` for a 2-d array.

    Examples
    --------
    >>> import numpy as np
    >>> cleared_rows(np.ones((2, 2), dtype=np.uint32)).tolist()
    [[0, 0], [0, 0]]
    """
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = 0
    return a
