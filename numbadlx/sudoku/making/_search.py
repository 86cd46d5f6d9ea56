"""The making kernels' search: the engines' singles, then a depth-first search on mask
copies.

It serves three callers, all through :func:`search`:

* ratings (:func:`numbadlx.sudoku.rate`): the ``tries`` of a first-solution search;
* uniqueness while making puzzles (:func:`other_solution`): blanking cells of a puzzle
  whose only solution is known keeps it unique exactly when no solution puts another
  digit into one of the blanked cells, one complete search per blanked cell with the
  known digit forbidden (cheaper than counting to two);
* random full grids (:func:`random_grid_into`): the search from the empty grid with
  random choices.

Singles are the engines' propagation (:func:`numbadlx.sudoku.engines.settle_singles`:
:func:`~numbadlx.sudoku.engines.propagate` with locked candidates off; with them the
``tries`` rating's held-out Spearman correlation fell from 0.91 to 0.81, and the
seeded grids would change); what is making's own is the search around it:

* :func:`singles` ``(cand, units, peers, queue) -> placed or -1`` runs naked and
  hidden singles to their fixed point from any candidate masks (:mod:`._masks`),
  cells with one candidate left but not yet placed included;
* :func:`search` ``(work, units, peers, limit, max_tries, randomise, state,
  solution) -> (solutions up to limit, tries, complete)`` starts from the masks in
  ``work[0][0]``, branches on the first unplaced cell with fewest candidates
  (``randomise``: one of them at random) and tries its digits lowest first
  (``randomise``: in random order). A *try* is a digit tried in a cell while other
  digits of that cell are still untried; ``max_tries`` > 0 cuts the search there.
  ``solution`` receives the first solution (digits 1..n). ``work`` comes from
  :func:`search_work`; its last array is a stop flag shared with the caller: once
  another thread sets it to non-zero, every search returns at its next node
  (complete False), so a long call ends soon after Ctrl-C or a deadline.

The tests re-check every puzzle made with the exact-cover solver
(:func:`numbadlx.sudoku.solve`).
"""

import numpy as np
from numba import njit

from ..engines import PLACED, place, queue_singles, settle_singles, stop_requested
from ._masks import (
    ONE,
    ZERO,
    bit_index,
    candidates_of,
    cleared,
    cleared_rows,
    copy_into,
    inner_njit,
    lowest_bit,
    popcount,
)
from ._random import random_below, random_bit


@njit(cache=True, nogil=True)
def singles(cand, units, peers, queue):
    """Naked and hidden singles until neither applies, by the engines' propagation
    without locked candidates, from any candidate masks (cells with one candidate are
    placed first). Returns the number of cells placed, or -1 on a contradiction (a
    cell without candidates, a digit without a place in some unit). ``queue`` (int32,
    at least ``n * n`` long) is scratch."""
    tail, open_cells = queue_singles(cand, queue)
    if tail < 0:
        return -1
    n = units.shape[1]
    return settle_singles(cand, n, peers, units, queue, tail, open_cells)


@inner_njit(cache=True, nogil=True)
def choose_cell(cand, randomise, state):
    """The unplaced cell with fewest candidates (-1 if all are placed): the first such
    cell, or with ``randomise`` one of them at random."""
    best = 1 << 30
    cell = -1
    ties = 0
    for k in range(cand.shape[0]):
        c = cand[k]
        if c & PLACED:
            continue
        s = popcount(c)
        if s < best:
            best = s
            cell = k
            ties = 1
            if s == 2 and not randomise:
                break
        elif s == best and randomise:
            ties += 1
            if random_below(state, ties) == 0:
                cell = k
    return cell


@njit(cache=True, nogil=True)  # with an entry point: small rate calls call it from Python
def search(work, units, peers, limit, max_tries, randomise, state, solution):
    """Depth-first search from the candidates in ``work[0][0]`` (:func:`search_work`):
    singles after every choice, branching on a cell with fewest candidates.

    A *try* is a digit tried in a cell while other digits of that cell are still
    untried (the last one left is forced, not a try). Returns ``(solutions up to
    limit, tries, complete)``; the first solution goes to ``solution`` (digits 1..n).
    ``max_tries`` > 0 stops the search there (complete False), and so does a stop flag
    set in ``work`` (by another thread).
    """
    states, todo, cells, left, queue, stop = work
    n = units.shape[1]
    tries = 0
    count = 0
    tail, open_cells = queue_singles(states[0], queue)
    if tail < 0:
        return 0, 0, True
    got = settle_singles(states[0], n, peers, units, queue, tail, open_cells)
    if got < 0:
        return 0, 0, True
    left[0] = open_cells - got  # unplaced cells of each level's state
    level = 0
    choose = True
    nn = states.shape[1]
    while True:
        if choose:
            cur = states[level]
            cell = -1 if left[level] == 0 else choose_cell(cur, randomise, state)
            if cell < 0:
                count += 1
                if count == 1:
                    for k in range(nn):
                        solution[k] = bit_index(cur[k] & ~PLACED) + 1
                if count >= limit:
                    return count, tries, True
                level -= 1
                if level < 0:
                    return count, tries, True
                choose = False
                continue
            cells[level] = cell
            todo[level] = cur[cell]
        t = todo[level]
        if t == ZERO:
            level -= 1
            if level < 0:
                return count, tries, True
            choose = False
            continue
        if stop_requested(stop):
            return count, tries, False
        bit = random_bit(t, state) if randomise else lowest_bit(t)
        t ^= bit
        todo[level] = t
        if t != ZERO:
            tries += 1
            if max_tries > 0 and tries > max_tries:
                return count, tries, False
        child = states[level + 1]
        copy_into(child, states[level])
        tail = place(child, cells[level], bit, queue, 0)
        got = settle_singles(child, n, peers, units, queue, tail, left[level])
        if got < 0:
            choose = False
            continue
        left[level + 1] = left[level] - got
        level += 1
        choose = True


@njit(cache=True, nogil=True)  # allocates: see inner_njit
def search_work(nn, stop):
    """Work arrays of :func:`search` for grids of ``nn`` cells: ``(states, todo, cells,
    left, queue, stop)``, a state, the untried digits, the cell and the count of
    unplaced cells per level, the propagation's queue, and ``stop`` (an int64 array of
    one element, the caller's stop flag) as it is."""
    states = cleared_rows(np.empty((nn + 2, nn), dtype=np.uint64))
    todo = cleared(np.empty(nn + 2, dtype=np.uint64))
    cells = cleared(np.empty(nn + 2, dtype=np.int64))
    left = cleared(np.empty(nn + 2, dtype=np.int64))
    queue = cleared(np.empty(16 * nn + 64, dtype=np.int32))
    return states, todo, cells, left, queue, stop


@inner_njit(cache=True, nogil=True)
def random_grid_into(out, units, peers, full, state, work):
    """A random full grid, by :func:`search` with random choices from the empty grid;
    whether there is one. Restarts (with the generator moved on) when a search meets
    too many dead ends; returns False when a search ends complete without a grid (no
    grid meets the units and peers: a restart would find none either), or once the
    stop flag of ``work`` is set (``out`` left part made)."""
    nn = out.shape[0]
    budget = 2 * nn
    states = work[0]
    stop = work[5]
    while not stop_requested(stop):
        for k in range(nn):
            states[0, k] = full
        count, _, complete = search(
            work, units, peers, np.int64(1), budget, np.bool_(True), state, out
        )
        if count == 1:
            return True
        if complete and not stop_requested(stop):
            return False
        budget *= 2
    return False


@inner_njit(cache=True, nogil=True)
def other_solution(puzzle, cell, digit, units, peers, where, full, work, state, solution):
    """True if ``puzzle`` has a solution with something other than ``digit`` in the
    blank ``cell``: a complete search (first solution only) with that digit forbidden."""
    bit = ONE << np.uint64(digit - 1)
    # quick proofs first: the digit is the only one the givens leave in the cell
    # (naked single), or the only place of that digit in one of the cell's units
    # (hidden single), both counting givens only
    seen = ZERO
    for j in range(peers.shape[1]):
        v = puzzle[peers[cell, j]]
        if v != 0:
            seen |= ONE << np.uint64(v - 1)
    if (full & ~seen) == bit:
        return False
    # the rows, columns and boxes where a given already holds the digit
    n = units.shape[1]
    held = cleared(np.empty(3 * n, dtype=np.bool_))
    for k in range(puzzle.shape[0]):
        if puzzle[k] == digit:
            held[where[k, 0]] = True
            held[n + where[k, 1]] = True
            held[2 * n + where[k, 2]] = True
    for kind in range(3):
        u = kind * n + where[cell, kind]
        elsewhere = False
        for j in range(n):
            other = units[u, j]
            if other != cell and puzzle[other] == 0:
                if not (
                    held[where[other, 0]]
                    or held[n + where[other, 1]]
                    or held[2 * n + where[other, 2]]
                ):
                    elsewhere = True
                    break
        if not elsewhere:
            return False
    states = work[0]
    if not candidates_of(puzzle, states[0], peers, full):
        return False
    states[0, cell] &= ~bit
    if states[0, cell] == ZERO:
        return False
    found, _, _ = search(
        work, units, peers, np.int64(1), np.int64(0), np.bool_(False), state, solution
    )
    return found > 0
