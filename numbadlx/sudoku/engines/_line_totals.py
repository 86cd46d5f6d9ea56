"""Region-sum lines by their shared total, for the "cages" engine.

Box (or region) borders cut a region-sum line into segments that all sum to one
total. The linear sums of :mod:`._sums` compare each segment with the first; this
pass reasons about the total itself, once per line:

* the sums each segment can reach are a bit mask (bit ``s``: sum ``s``): a segment
  whose open cells have at most ``TOTALS_ENUMERATED`` (1024) assignments is enumerated
  with distinct digits (it lies in one box), recording for each digit of each cell
  the sums it takes part in; a wider one goes through a dynamic programme over its
  cells' candidates (``reach << d`` for each digit ``d``, before and after each cell),
  which ignores that the digits differ - sound, but weaker;
* the possible totals ``S`` are the intersection of those masks over the segments, and
  an empty ``S`` is a contradiction;
* a digit of a cell stays while some assignment through it reaches a total of ``S``.

Sums are bits of one ``uint64``. A segment lies in one box or region, so its digits
differ and it sums to at most ``n + (n - 1) + ... + (n - k + 1)`` for ``k`` cells; a
line with a segment that may sum past 63 (on 9x9 none can) is left to the linear sums
alone. The dynamic programme lets digits repeat, so it meets sums past 63 too: their
bits fall off the top of the mask, and they are sums no assignment of distinct digits
reaches, so nothing sound is lost. A line
whose segments are always enumerated (``n ** k`` at most 1024) has no linear sums, a
line between the two has both (:func:`by_totals`). The segments come from
:func:`~._rule_tables.total_segments`.

Table fields (see :class:`~._constraint_tables.ConstraintTable`)::

    total_line (L+1,) int32    line l's segments are g = total_line[l] .. total_line[l+1]-1
    total_seg  (G+1,) int32    segment g's cells are total_cells[total_seg[g]:total_seg[g+1]]
    total_cells        int32
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED, popcount
from ._sums import _keep

__all__ = ["by_totals", "propagate_totals"]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DIGITS = ~PLACED


#: Sums are bits of a uint64: the largest sum a segment may reach.
MAX_TOTAL = 63
#: A segment whose open cells have at most this product of candidate counts is
#: enumerated (distinct digits); a wider one goes through the dynamic programme.
ENUMERATED = 1024


def by_totals(n, lengths):
    """How this pass takes a region-sum line on an ``n x n`` grid whose segments hold
    ``lengths`` cells: 0 not at all (one segment, or sums past :data:`MAX_TOTAL`), 1 in
    part (a segment may be too wide to enumerate), 2 with every segment enumerated
    (linear sums add nothing).

    Examples
    --------
    >>> by_totals(9, [3, 2]), by_totals(9, [4, 1]), by_totals(9, [8, 6]), by_totals(9, [3])
    (2, 1, 1, 0)
    >>> by_totals(16, [4, 2]), by_totals(16, [5, 2])
    (1, 0)
    """
    longest = max(lengths)
    largest_sum = longest * n - longest * (longest - 1) // 2  # distinct digits
    if len(lengths) < 2 or largest_sum > MAX_TOTAL:
        return 0
    return 2 if n**longest <= ENUMERATED else 1


@inner_njit(cache=True, nogil=True)
def _step(reach, mask):
    """The sums ``reach`` (bit ``s``: sum ``s``) plus one digit of ``mask``."""
    out = _ZERO
    m = mask & _DIGITS
    d = np.uint64(1)
    while m:
        if m & _ONE:
            out |= reach << d
        m >>= _ONE
        d += _ONE
    return out


@inner_njit(cache=True, nogil=True)
def _reach(masks, cells, a, b):
    """The sums cells ``cells[a:b]`` reach (digits not necessarily distinct)."""
    reach = _ONE
    for i in range(a, b):
        reach = _step(reach, masks[cells[i]])
    return reach


@inner_njit(cache=True, nogil=True)
def _spread(masks, cells, a, b, sums):
    """The sums of ``cells[a:b]`` by the dynamic programme (digits not necessarily
    distinct): ``sums[i, d - 1]`` gets those reached with cell ``cells[a + i]`` holding
    ``d``. Returns every sum reached."""
    before = _ONE
    for i in range(a, b):
        m = masks[cells[i]] & _DIGITS
        after = _reach(masks, cells, i + 1, b)
        others = _ZERO  # the sums of the other cells together
        p = before
        shift = np.uint64(0)
        while p:
            if p & _ONE:
                others |= after << shift
            p >>= _ONE
            shift += _ONE
        d = np.uint64(1)
        while m:
            if m & _ONE:
                sums[i, d - _ONE] = others << d
            m >>= _ONE
            d += _ONE
        before = _step(before, masks[cells[i]])
    return before


@inner_njit(cache=True, nogil=True)
def _enumerate(masks, cells, a, b, sums, chosen, left):
    """The sums of ``cells[a:b]`` with distinct digits, every assignment enumerated:
    ``sums[i, d - 1]`` gets those reached with cell ``cells[i]`` holding ``d``.
    Returns every sum reached."""
    reach = _ZERO
    last = b - a - 1
    depth = 0
    partial = 0
    used = _ZERO
    left[0] = masks[cells[a]] & _DIGITS
    while depth >= 0:
        rest = left[depth] & ~used
        if rest == 0:
            depth -= 1
            if depth >= 0:
                used ^= chosen[depth]
                partial -= np.int64(trailing_zeros(chosen[depth])) + 1
            continue
        bit = rest & (~rest + _ONE)
        left[depth] = rest ^ bit
        if depth == last:
            total = _ONE << np.uint64(partial + np.int64(trailing_zeros(bit)) + 1)
            reach |= total
            for i in range(last):
                sums[a + i, trailing_zeros(chosen[i])] |= total
            sums[a + last, trailing_zeros(bit)] |= total
            continue
        chosen[depth] = bit
        used |= bit
        partial += np.int64(trailing_zeros(bit)) + 1
        depth += 1
        left[depth] = masks[cells[a + depth]] & _DIGITS
    return reach


@njit(cache=True, nogil=True)
def propagate_totals(masks, n, total_line, total_seg, total_cells, queue, tail):
    """Every region-sum line of the table fields: the totals its segments share, and
    each digit kept only where it reaches one (see the module docstring). Returns
    ``(tail, state)``: -1 for a contradiction, 1 for a change, 0 for none."""
    sums = np.empty((total_cells.shape[0], n), dtype=np.uint64)
    chosen = np.empty(n, dtype=np.uint64)
    left = np.empty(n, dtype=np.uint64)
    changed = 0
    for line in range(total_line.shape[0] - 1):
        first = total_line[line]
        last = total_line[line + 1]
        totals = ~_ZERO
        for g in range(first, last):
            a = total_seg[g]
            b = total_seg[g + 1]
            product = 1
            for i in range(a, b):
                sums[i, :] = _ZERO
                product *= popcount(masks[total_cells[i]] & _DIGITS)
            if product <= ENUMERATED:
                totals &= _enumerate(masks, total_cells, a, b, sums, chosen, left)
            else:
                totals &= _spread(masks, total_cells, a, b, sums)
        if totals == 0:
            return tail, -1
        for i in range(total_seg[first], total_seg[last]):
            cell = total_cells[i]
            m = masks[cell]
            if m & PLACED:
                continue
            kept = _ZERO
            for d in range(n):
                if sums[i, d] & totals:
                    kept |= _ONE << np.uint64(d)
            tail, state = _keep(masks, cell, kept & m, queue, tail)
            if state < 0:
                return tail, -1
            changed |= state
    return tail, changed
