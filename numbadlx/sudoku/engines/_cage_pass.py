"""The cage pass of the "cages" engine (see :mod:`._cages`): distinct digits in each
cage, and each cage's total through the digit sets that reach it.

For a cage with a total, the sets that hold its placed digits and whose other digits
lie among its open cells' candidates survive; the open cells keep the union of the
survivors, and a digit every survivor needs, with one open cell left for it, is placed
there. A cage without a total only keeps its placed digits out of its open cells.
Cells are restricted and placed here, not through inlined helpers (each inlined call
counted a reference to the masks and the queue in and out: most of the pass's time on
killers).
"""

import numpy as np

from ..._compiling import inner_njit
from ._contract import PLACED, popcount

__all__ = ["cage_pass"]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DIGITS = ~PLACED


@inner_njit(cache=True, nogil=True)
def cage_pass(masks, cage_start, cells, combo_start, combos, totals, queue, tail, seen):
    """The cage sums (see the module docstring), the table's cage fields one by one (a
    call that takes the whole table counts a reference to each of its arrays in and
    out: most of a killer's search time, when the call was made once a round). Returns
    ``(tail, state)``.

    ``seen[c]``: the candidates left in cage ``c``'s cells (their count over the cells)
    when a pass over the cage last changed nothing, or -1. Within one settling masks
    only lose digits, so an equal count means the same masks, and the pass, which reads
    nothing else, would change nothing again: the cage is passed over."""
    changed = 0
    for c in range(cage_start.shape[0] - 1):
        done = _ZERO
        free = _ZERO
        open_cells = 0
        left = 0
        for k in range(cage_start[c], cage_start[c + 1]):
            m = masks[cells[k]]
            left += popcount(m & _DIGITS)
            if m & PLACED:
                if done & m:
                    return tail, -1  # a digit twice in the cage
                done |= m & _DIGITS
            else:
                free |= m
                open_cells += 1
        if seen[c] == left:
            continue
        seen[c] = left  # unless the pass below changes a mask
        if totals[c] < 0:
            # distinct digits only: the placed ones leave the open cells
            if done & free:
                for k in range(cage_start[c], cage_start[c + 1]):
                    cell = cells[k]
                    m = masks[cell]
                    if m & PLACED or not m & done:
                        continue
                    m &= ~done
                    if m == 0:
                        return tail, -1
                    if m & (m - _ONE) == 0:
                        m |= PLACED
                        queue[tail] = cell
                        tail += 1
                    masks[cell] = m
                    changed = 1
                    seen[c] = -1
            continue
        union = _ZERO
        required = _DIGITS
        for j in range(combo_start[c], combo_start[c + 1]):
            combo = combos[j]
            if (combo & done) != done:
                continue
            rest = combo & ~done
            if rest & ~free:
                continue
            union |= rest
            required &= rest
        if union == 0 and open_cells > 0:
            return tail, -1
        if open_cells == 0:
            # every cell placed: the placed digits must be one of the sets
            found = False
            for j in range(combo_start[c], combo_start[c + 1]):
                if combos[j] == done:
                    found = True
                    break
            if not found:
                return tail, -1
            continue
        once = _ZERO
        twice = _ZERO
        placed_now = _ZERO
        kept = union | done
        for k in range(cage_start[c], cage_start[c + 1]):
            cell = cells[k]
            m = masks[cell]
            # cells restricted and placed here, not by inlined helpers: each inlined
            # call counted a reference to the masks and the queue in and out
            if m & PLACED:
                if not m & kept:
                    return tail, -1
            elif m & ~kept:
                m &= kept
                if m == 0:
                    return tail, -1
                if m & (m - _ONE) == 0:
                    m |= PLACED
                    queue[tail] = cell
                    tail += 1
                masks[cell] = m
                changed = 1
                seen[c] = -1
            if m & PLACED:
                placed_now |= m & _DIGITS
            else:
                twice |= once & m
                once |= m
        hidden = required & ~placed_now
        if hidden & ~once:
            return tail, -1  # a digit every set needs has no open cell left
        hidden &= ~twice
        while hidden:
            bit = hidden & (~hidden + _ONE)
            hidden ^= bit
            for k in range(cage_start[c], cage_start[c + 1]):
                cell = cells[k]
                m = masks[cell]
                if m & bit and not m & PLACED:
                    masks[cell] = bit | PLACED
                    queue[tail] = cell
                    tail += 1
                    changed = 1
                    seen[c] = -1
                    break
    return tail, changed
