"""Search strength of the constraint engine ("cages"): failed-literal probing and the
branching rule.

* :func:`probe` - failed-literal probing (shaving): for each open cell with at most
  ``widest`` candidates, each candidate is placed on a copy of the state and the
  engine's propagation run; a candidate whose placement ends in a contradiction
  leaves the cell (and the state is propagated again), the ordering bounds
  (:mod:`._ordering`) included. A cell left without a
  candidate ends the state. Each probe is a propagated state, counted as a node.
  The probes also score each cell they try (the product over its candidates of one
  more than the cells the probe placed), the branching rule's first tie-break: among
  the cells with the fewest candidates the engine branches on the one whose digits
  settle the most.
* :func:`rule_degree` - how many rule links touch each cell (pairs, thermometer
  steps, region-sum lines, linear sums), the second tie-break: the cell most rules
  touch, where a wrong digit shows soonest. Counting the sums' cells took the
  published arrow puzzle "Eddies" from 88,263 nodes to 54,768 and "Orbit" (arrows
  and little killers) from 18,129 to 641.

Both serve :func:`._cages.solve_one`; ``settle`` is the engine's propagation to the
fixed point (its ``_settle``), passed in and inlined so that the caller stays a cached
kernel.
"""

import numpy as np
from numba import njit

from ..._compiling import inner_njit
from ._contract import PLACED, popcount, stop_requested
from ._ordering import settle_ordered
from ._propagation import place

_ONE = np.uint64(1)
_DIGITS = ~PLACED


@njit(nogil=True, inline="always")
def probe(
    settle, masks, table, groups, queue, segments, saved, score, open_cells, widest, budget, stop
):
    """Failed-literal probing of the state ``masks`` (settled, ``open_cells`` cells
    open), repeated until a pass removes nothing; the propagation is ``settle`` with the
    ordering bounds of ``groups`` (:func:`._ordering.settle_ordered`). ``saved`` is
    scratch space (one mask per cell); at most ``budget`` probes (> 0). ``score[cell]``
    is set for each cell (0 for a cell not probed; the last pass, which removed nothing,
    leaves the scores of the state returned). A set ``stop`` flag ends the probing
    between passes (a pass is at most ``widest`` probes a cell). Returns ``(placed,
    probes)``: the cells placed on the way, or -1 for a contradiction, and the probes
    made."""
    nn = masks.shape[0]
    placed = 0
    probes = 0
    again = True
    while again:
        if stop_requested(stop):
            return placed, probes
        again = False
        for cell in range(nn):
            score[cell] = 0
            m = masks[cell]
            if m & PLACED or popcount(m) > widest:
                continue
            left = m
            product = 1
            while left:
                if probes >= budget:
                    return placed, probes
                bit = left & (~left + _ONE)
                left ^= bit
                for k in range(nn):
                    saved[k] = masks[k]
                tail = place(masks, cell, bit, queue, 0)
                got = settle_ordered(
                    settle, masks, table, groups, queue, tail, segments, open_cells - placed
                )
                probes += 1
                for k in range(nn):
                    masks[k] = saved[k]
                if got >= 0:
                    product *= got + 1
                    if left == 0:
                        score[cell] = product
                    continue
                # the digit fails here: it leaves the cell, and the state settles again
                kept = masks[cell] & ~bit
                if kept == 0:
                    return -1, probes
                if kept & (kept - _ONE) == 0:
                    tail = place(masks, cell, kept, queue, 0)
                else:
                    masks[cell] = kept
                    tail = 0
                got = settle_ordered(
                    settle, masks, table, groups, queue, tail, segments, open_cells - placed
                )
                if got < 0:
                    return -1, probes
                placed += got
                again = True
                break
    return placed, probes


@inner_njit(cache=True, nogil=True)
def rule_degree(table, out):
    """Into ``out`` (one per cell): the number of pair relations and thermometer steps
    that touch the cell, plus one on a region-sum line the totals pass takes
    (:mod:`._line_totals`) and one for each linear sum (:mod:`._sums`) it is in.
    Returns the number of links (the sums not counted)."""
    for cell in range(out.shape[0]):
        out[cell] = 0
    for q in range(table.pair_a.shape[0]):
        out[table.pair_a[q]] += 1
        out[table.pair_b[q]] += 1
    start = table.thermo_start
    cells = table.thermo_cells
    for t in range(start.shape[0] - 1):
        for k in range(start[t], start[t + 1] - 1):
            out[cells[k]] += 1
            out[cells[k + 1]] += 1
    links = table.pair_a.shape[0] + start[start.shape[0] - 1] - start[0] - (start.shape[0] - 1)
    # a region-sum line links each cell to the line's other segments
    for k in range(table.total_cells.shape[0]):
        out[table.total_cells[k]] += 1
    # one more for each linear sum the cell is in (not counted as links: probing the
    # cells of sums cost more than it saved)
    for k in range(table.sum_cells.shape[0]):
        out[table.sum_cells[k]] += 1
    return links + table.total_cells.shape[0]
