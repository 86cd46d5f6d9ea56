"""Relations through a middle cell: the "cages" engine's step past arc consistency.

Two relations that meet in one cell ``m``, towards cells ``a`` and ``b`` that are peers
(so hold different digits), rule out a digit ``e`` of ``m`` unless ``a`` and ``b`` can
take *different* digits beside it: two X pairs chained down a column (``a`` and ``b``
both ``10 - e``), a whisper's cell between two cells of one row that only one digit
suits, a minimum cell whose two row neighbours must both be above it. Arc consistency
on each relation alone sees none of these.

Table fields (see :class:`~._constraint_tables.ConstraintTable`)::

    tri_mid, tri_a, tri_b (T,) int32    the middle cell and the two peers
    tri_ra, tri_rb        (T,) int32    rows of ``relation``: the digits a (b) may hold
                                        beside each digit of the middle cell

Only pairs of relations that allow few digits beside each digit (half the digits or
fewer, on average) are kept: with more, the step never prunes before the cells are
nearly decided.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED
from ._propagation import place

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DIGITS = ~PLACED


@inner_njit(cache=True, nogil=True)
def propagate_triples(masks, table, queue, tail):
    """The middle-cell step for every triple of ``table``. Returns ``(tail, state)``:
    state -1 for a contradiction, 1 for a change, 0 for none."""
    changed = 0
    relation = table.relation
    for t in range(table.tri_mid.shape[0]):
        m = table.tri_mid[t]
        mask = masks[m]
        ma = masks[table.tri_a[t]] & _DIGITS
        mb = masks[table.tri_b[t]] & _DIGITS
        ra = table.tri_ra[t]
        rb = table.tri_rb[t]
        kept = _ZERO
        rest = mask & _DIGITS
        while rest:
            bit = rest & (~rest + _ONE)
            rest ^= bit
            e = trailing_zeros(bit)
            sa = relation[ra, e] & ma
            sb = relation[rb, e] & mb
            if sa and sb and not (sa == sb and sa & (sa - _ONE) == 0):
                kept |= bit
        if kept == mask & _DIGITS:
            continue
        if kept == 0 or mask & PLACED:
            return tail, -1
        if kept & (kept - _ONE) == 0:
            tail = place(masks, m, kept, queue, tail)
        else:
            masks[m] = kept
        changed = 1
    return tail, changed
