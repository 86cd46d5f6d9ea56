"""Candidate masks, the cell layout every making kernel shares.

``cand[cell]`` has bit ``d`` set while digit ``d + 1`` may still go in the cell; a cell
whose digit is fixed (and already taken out of its peers) also carries :data:`PLACED`,
the placed bit of the bit-board engine. The shape of the grid comes in as tables built
once in Python by :func:`numbadlx.sudoku.geometry.unit_tables`:

* ``units``: ``(3 n, n)`` cells of every row, column and box;
* ``peers``: ``(n^2, P)`` the cells sharing a row, column or box with a cell;
* ``where``: ``(n^2, 3)`` the row, column and box of a cell.
"""

import numpy as np
from numba import njit

from ..._cleared import cleared as cleared  # the making kernels allocate with these
from ..._cleared import cleared_rows as cleared_rows
from ..._compiling import inner_njit as inner_njit  # the making kernels' helpers use it
from ..engines import PLACED
from ..engines import popcount as ctpop

ONE = np.uint64(1)
ZERO = np.uint64(0)


def full_mask(n):
    """The candidate mask with all n digits."""
    return np.uint64((1 << n) - 1)


@njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64, as int64 (a uint64 would mix into floats)."""
    return np.int64(ctpop(x))


@njit(cache=True, nogil=True, inline="always")
def lowest_bit(x):
    """The lowest set bit of ``x`` (0 if none)."""
    return x & (~x + ONE)


@njit(cache=True, nogil=True, inline="always")
def bit_index(bit):
    """Position of a single set bit (digit ``d + 1`` has bit ``d``)."""
    return popcount(bit - ONE)


@njit(cache=True, nogil=True, inline="always")
def copy_into(dst, src):
    """``dst[:] = src`` for two 1-d arrays of one length, as a plain loop: Numba's slice
    assignment compiles a formatted error message (seconds of string code) that a
    copy between arrays known to match never needs."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@njit(cache=True, nogil=True)
def candidates_of(puzzle, cand, peers, full):
    """Candidates of a puzzle with its givens placed; False if the givens clash or a
    value is above n."""
    nn = puzzle.shape[0]
    for cell in range(nn):
        cand[cell] = full
    for cell in range(nn):
        v = puzzle[cell]
        if v != 0:
            bit = ONE << np.uint64(v - 1)
            if (bit & full) == ZERO or not (cand[cell] & bit) or (cand[cell] & PLACED):
                return False
            cand[cell] = bit | PLACED
            for j in range(peers.shape[1]):
                p = peers[cell, j]
                if cand[p] & PLACED:
                    if cand[p] & bit:
                        return False
                else:
                    cand[p] &= ~bit
    return True


def candidates_from_python(puzzle, cand, peers, full):
    """:func:`candidates_of` in NumPy (the same ``cand`` and result), for the loops of
    small calls run from Python: one kernel less to compile on a first use, at some
    microseconds a puzzle. ``puzzle`` may also be several puzzles (rows), ``cand``
    their candidates (rows); False then if any of them clashes.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx.sudoku.geometry import unit_tables
    >>> _, peers, _ = unit_tables(4, 2, 2)
    >>> puzzle = np.array([1] + [0] * 15, dtype=np.uint8)
    >>> cand = np.zeros(16, dtype=np.uint64)
    >>> candidates_from_python(puzzle, cand, peers, full_mask(4)), int(cand[1])
    (True, 14)
    """
    if puzzle.max(initial=0) > int(full).bit_length():
        return False
    bits = _BIT_OF[puzzle]
    around = bits[..., peers]
    if np.any(around & bits[..., None]):
        return False  # a given's digit given again in a peer
    seen = np.bitwise_or.reduce(around, axis=-1)
    cand[...] = np.where(bits != ZERO, bits | PLACED, np.uint64(full) & ~seen)
    return True


#: The candidate bit of each value 0..64 (0: none), for :func:`candidates_from_python`.
_BIT_OF = np.concatenate([[ZERO], ONE << np.arange(64, dtype=np.uint64)])
