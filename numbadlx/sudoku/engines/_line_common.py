"""Helpers of the line-rule propagators (:mod:`._line_rules`, :mod:`._line_sums`):
bit ranges, a cell's candidates narrowed, a line's support applied."""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from ..._compiling import inner_njit
from ._contract import PLACED
from ._propagation import place

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DIGITS = ~PLACED


@njit(cache=True, nogil=True, inline="always")
def _below(k):
    """Bits 0 to k - 1 (k from 0 to 63)."""
    return (_ONE << np.uint64(k)) - _ONE


@njit(cache=True, nogil=True, inline="always")
def _high(m):
    """Index of the highest bit of a non-zero mask."""
    return 63 - leading_zeros(m)


@njit(cache=True, nogil=True, inline="always")
def _restrict(masks, cell, allowed, queue, tail):
    """Keep only the digits of ``allowed`` in ``cell``: ``(tail, state)``, state -1 when
    none is left (or a placed digit is not allowed), 1 for a change, 0 for none."""
    m = masks[cell]
    if m & PLACED:
        if m & allowed & _DIGITS:
            return tail, 0
        return tail, -1
    kept = m & allowed
    if kept == m:
        return tail, 0
    if kept == 0:
        return tail, -1
    if kept & (kept - _ONE) == 0:
        return place(masks, cell, kept, queue, tail), 1
    masks[cell] = kept
    return tail, 1


@inner_njit(cache=True, nogil=True)
def _apply(masks, cells, first, size, support, queue, tail):
    """Restrict each cell of the line to ``support``: ``(tail, state)``."""
    changed = 0
    for p in range(size):
        tail, state = _restrict(masks, cells[first + p], support[p], queue, tail)
        if state < 0:
            return tail, -1
        changed |= state
    return tail, changed


@inner_njit(cache=True, nogil=True)
def _saturated(masks, cells, first, size, support):
    """Whether ``support`` holds every candidate of the line's cells: then no other
    arrangement can take a digit out, and a propagator stops looking."""
    for p in range(size):
        if masks[cells[first + p]] & _DIGITS & ~support[p]:
            return False
    return True


@inner_njit(cache=True, nogil=True)
def _line_used(masks, cells, first, size):
    """The placed digits of a line."""
    used = _ZERO
    for p in range(size):
        v = masks[cells[first + p]]
        if v & PLACED:
            used |= v & _DIGITS
    return used
