"""What the "bits" engine branches on: Knuth's minimum remaining values over cells and
over the places of a digit in a unit (:func:`choose`; see :mod:`._bits`)."""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED, popcount

_ONE = np.uint64(1)

# Sizes on which the branch looks for a digit with few places in a unit. The scan costs
# about n^3 per branch: on 9x9 it cut forum_hardest_1106's time by a quarter, but above
# 9x9 it did not change one branch on the 16x16 set or on random grids of 10x10, 12x12
# and 16x16 with holes, and took 20-40% of their time.
#
# Under rules that add units or peers (a crossing table) the search branches on cells
# alone, and a second search that weighs digits too takes turns with it (see
# _bits._FIRST_RUN). On 9x9 grids with 4 givens kept from a solution (40 per rule
# set, first solution, 300,000-node budget) the digit branch ran out of budget on 7 of 40
# anti-knight grids, 17 with both diagonals, 21 with windoku, 19 with the main diagonal,
# where cells alone ran out on 2 of all 400 (anti-knight plus both diagonals) and took
# 58 nodes on average under anti-knight, 52 under anti-king plus diagonals (7,526 with
# the digit branch), 46 under diagonals plus windoku (13,624); the empty grid under
# anti-knight and both diagonals went from over 1,000,000 nodes to 10,532 (0.03 s). On
# minimal puzzles (150 per rule set made by sudoku.generate) it is a wash: 18% fewer
# CPU seconds under anti-knight plus windoku, 15% under anti-knight plus diagonals, 13%
# more under diagonals plus windoku, 7% more under anti-king plus diagonals, the other
# rule sets (X, anti-knight, anti-king, windoku, disjoint groups, a jigsaw, 6x6 X)
# within 6%.
_UNITS_WEIGHED_UP_TO = 9

# Two-candidate cells weighed per branch (the rest are not looked at: on big grids
# weighing them all cost more than the guesses it saved)
_PAIRS_WEIGHED = 16


@inner_njit(cache=True, nogil=True)
def choose(masks, n, peers, units, at_least, weigh_units):
    """What to branch on, Knuth's minimum remaining values over both kinds of
    constraint: an unplaced cell with the fewest candidates, or, if some digit has
    fewer places than that in a row, column or box, that digit (looked for up to 9x9
    and with ``weigh_units`` only: see :data:`_UNITS_WEIGHED_UP_TO`). Among cells with two
    candidates it takes the one with the most unplaced peers that share a candidate
    with it (whichever branch is taken, the most peers lose a candidate; on top1465
    this cut the guesses per puzzle from 18.8 to 10.6, on forum_hardest_1106 from 277
    to 158, against taking the first such cell; each peer counted once: a variant's
    peer rows are padded by repeating their last peer, and counting the copies took
    X-Sudokus to 1.3 times the nodes). Returns ``(what, left)``: a cell and
    its candidate mask, or ``-(unit * 64 + digit) - 1`` and the mask of the unit's
    members (by position in ``units``) that may hold the digit. ``at_least`` is
    scratch space (``n + 1`` long at least)."""
    best = 64
    chosen = 0
    pair = -1
    pair_weight = -1
    pairs_left = _PAIRS_WEIGHED
    for cell in range(n * n):
        m = masks[cell]
        if not m & PLACED:
            k = popcount(m)
            if k == 2:
                if pairs_left == 0:
                    break
                pairs_left -= 1
                weight = 0  # unplaced peers sharing a candidate
                last = -1
                for t in range(peers.shape[1]):
                    p = peers[cell, t]
                    if p == last:
                        break  # the row's padding: its last peer repeated
                    last = p
                    other = masks[p]
                    if not other & PLACED and other & m:
                        weight += 1
                if weight > pair_weight:
                    pair_weight = weight
                    pair = cell
            elif k < best:
                best = k
                chosen = cell
    if pair >= 0:
        return pair, masks[pair]
    if n > _UNITS_WEIGHED_UP_TO or not weigh_units:
        return chosen, masks[chosen]
    # at_least[j]: digits with at least j + 1 places in the unit (j < best)
    best_unit = -1
    best_digit = 0
    for u in range(units.shape[0]):
        for j in range(best):
            at_least[j] = 0
        for k in range(units.shape[1]):
            m = masks[units[u, k]]
            if m & PLACED:
                continue
            for j in range(best - 1, 0, -1):
                at_least[j] |= at_least[j - 1] & m
            at_least[0] |= m
        for j in range(1, best - 1):
            exactly = at_least[j] & ~at_least[j + 1]  # digits with j + 1 places
            if exactly:
                best = j + 1
                best_unit = u
                best_digit = trailing_zeros(exactly)
                break
        if best == 2:
            break
    if best_unit < 0:
        return chosen, masks[chosen]
    bit = _ONE << np.uint64(best_digit)
    left = np.uint64(0)
    for k in range(units.shape[1]):
        m = masks[units[best_unit, k]]
        if m & bit and not m & PLACED:
            left |= _ONE << np.uint64(k)
    return -(best_unit * 64 + best_digit) - 1, left
