"""Random full grids under rules on digits (non-consecutive, thermometers, dots, X/V,
odd, even, cages without totals), for :func:`~numbadlx.sudoku.generate`.

The making kernels' search knows units and peers only, so these grids come from a
search of their own: depth first from candidate masks (odd and even cells start with
their parity), a random cell among those with fewest candidates, its digits in random
order, and after each placement the digit taken out of the cell's peers and every
related cell cut down to the digits its relation allows (forward checking); a
placement that leaves a digit without a place in some unit is a dead end. Relations
come as one row per ordered pair of cells (:func:`relation_rows`): a thermometer is
the pairs of consecutive cells, each ordered both ways. A search meets too many dead
ends: it restarts with a doubled budget, as the classic grids do.
"""

import numpy as np
from numba import njit

from ._masks import ONE, ZERO, bit_index, popcount
from ._random import random_below, random_bit

__all__ = ["relation_rows", "random_grid_under"]

# the placed flag of these masks (digits use the low bits, at most 36 of them)
_SET = ONE << np.uint64(63)


def _allowed(kind, d, e):
    """Whether digit ``e`` may sit beside ``d`` under relation ``kind``."""
    if kind == "white_dots":
        return abs(d - e) == 1
    if kind == "black_dots":
        return d == 2 * e or e == 2 * d
    if kind == "x_pairs":
        return d + e == 10
    if kind == "v_pairs":
        return d + e == 5
    if kind == "non_consecutive":
        return abs(d - e) != 1
    if kind == "above":  # e is after d on a thermometer
        return e > d
    return e < d  # "below"


def relation_rows(n, rules):
    """``(start, other, allowed)``: for cell ``c``, rows ``start[c]:start[c + 1]`` name
    a related cell ``other[k]`` and ``allowed[k, d - 1]``, the digits (a mask) that
    cell may hold when ``c`` holds ``d``."""
    pairs = []
    for kind in ("white_dots", "black_dots", "x_pairs", "v_pairs"):
        pairs += [(a, b, kind) for a, b in getattr(rules, kind)]
    if rules.non_consecutive:
        for cell in range(n * n):
            r, c = divmod(cell, n)
            if c + 1 < n:
                pairs.append((cell, cell + 1, "non_consecutive"))
            if r + 1 < n:
                pairs.append((cell, cell + n, "non_consecutive"))
    for thermo in rules.thermos:
        pairs += [(a, b, "above") for a, b in zip(thermo, thermo[1:])]
    flip = {"above": "below"}
    rows = [[] for _ in range(n * n)]
    for a, b, kind in pairs:
        rows[a].append((b, kind))
        rows[b].append((a, flip.get(kind, kind)))
    start = np.zeros(n * n + 1, dtype=np.int64)
    other, allowed = [], []
    for cell, row in enumerate(rows):
        start[cell + 1] = start[cell] + len(row)
        for b, kind in row:
            other.append(b)
            allowed.append(
                [
                    sum(1 << (e - 1) for e in range(1, n + 1) if _allowed(kind, d, e))
                    for d in range(1, n + 1)
                ]
            )
    other = np.array(other, dtype=np.int64)
    allowed = np.array(allowed, dtype=np.uint64).reshape(-1, n)
    return start, other, allowed


@njit(cache=True, nogil=True)
def _search(
    out, init, peers, units, digits, start, other, allowed, state, budget, masks, cells, todo
):
    """One randomised search for a grid into ``out``: 1 found, 0 none exists, -1 the
    ``budget`` of digits tried ran out."""
    nn = init.shape[0]
    masks[0, :] = init
    level = 0
    choose = True
    tried = 0
    while True:
        if choose:
            cur = masks[level]
            best = 1 << 30
            cell = -1
            ties = 0
            for k in range(nn):
                m = cur[k]
                if m & _SET:
                    continue
                s = popcount(m)
                if s < best:
                    best, cell, ties = s, k, 1
                elif s == best:
                    ties += 1
                    if random_below(state, ties) == 0:
                        cell = k
            if cell < 0:
                for k in range(nn):
                    out[k] = bit_index(cur[k] & ~_SET) + 1
                return 1
            cells[level] = cell
            todo[level] = cur[cell]
        t = todo[level]
        if t == ZERO:
            level -= 1
            if level < 0:
                return 0
            choose = False
            continue
        tried += 1
        if tried > budget:
            return -1
        bit = random_bit(t, state)
        todo[level] = t ^ bit
        child = masks[level + 1]
        child[:] = masks[level]
        c = cells[level]
        child[c] = bit | _SET
        d = bit_index(bit)
        ok = True
        for j in range(peers.shape[1]):
            p = peers[c, j]
            m = child[p]
            if p != c and not m & _SET and m & bit:
                m &= ~bit
                if m == ZERO:
                    ok = False
                    break
                child[p] = m
        if ok:
            for k in range(start[c], start[c + 1]):
                o = other[k]
                m = child[o]
                a = allowed[k, d]
                if m & _SET:
                    if not m & a:
                        ok = False
                        break
                else:
                    m &= a
                    if m == ZERO:
                        ok = False
                        break
                    child[o] = m
        if ok:  # every digit keeps a place in every unit
            for u in range(units.shape[0]):
                seen = ZERO
                for j in range(units.shape[1]):
                    seen |= child[units[u, j]]
                if (seen & ~_SET) != digits:
                    ok = False
                    break
        if not ok:
            choose = False
            continue
        level += 1
        choose = True


@njit(cache=True, nogil=True)
def random_grid_under(out, init, peers, units, digits, start, other, allowed, state):
    """A random full grid into ``out`` under the peers, the ``units`` (each holds all
    of ``digits``, a mask) and the relations (see :func:`relation_rows`), from the
    candidate masks ``init``; restarts with a doubled
    budget after too many dead ends. Returns False if none exists (proved by a search
    that ran to its end)."""
    nn = init.shape[0]
    masks = np.zeros((nn + 1, nn), dtype=np.uint64)
    cells = np.zeros(nn, dtype=np.int64)
    todo = np.zeros(nn, dtype=np.uint64)
    budget = 2 * nn
    while True:
        got = _search(
            out,
            init,
            peers,
            units,
            digits,
            start,
            other,
            allowed,
            state,
            budget,
            masks,
            cells,
            todo,
        )
        if got >= 0:
            return got == 1
        budget *= 2
