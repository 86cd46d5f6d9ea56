"""The bulk loops (``prange`` over puzzles) of random grids, isomorphs, ratings and
puzzles.

Puzzle ``k`` of a call seeds its random generator from ``(seed, first_index + k)``
(:func:`._random.seed_state`), so no result depends on the threads.
"""

import numpy as np
from numba import njit, prange

from ..engines import INVALID, NO_SOLUTION, UNIQUE, stop_requested
from ._isomorphs import transform_one, transform_work
from ._ladder import (
    STEP_FIELDS,
    STUCK,
    T_FIRST_TRIAL,
    T_SEARCH,
    logic_solve,
    logic_value,
    logic_work,
)
from ._masks import candidates_of
from ._random import random_below, seed_state, shuffle
from ._search import choose_cell, other_solution, random_grid_into, search, search_work, singles

#: ``attempts[k]`` of a puzzle that :func:`generate_bulk` left when its stop flag was set.
STOPPED = -2


@njit(cache=True, parallel=True, nogil=True)
def random_grids_bulk(out, units, peers, full, seed, first_index):
    """Row ``k`` of ``out`` becomes the random grid of index ``first_index + k``."""
    count, nn = out.shape
    for k in prange(count):
        state = np.zeros(1, dtype=np.uint64)
        seed_state(seed, first_index + k, state)
        never = np.zeros(1, dtype=np.int64)  # a grid takes milliseconds: no stop flag
        random_grid_into(out[k], units, peers, full, state, search_work(nn, never))


@njit(cache=True, parallel=True, nogil=True)
def transform_bulk(puzzles, n, box_rows, box_cols, seed, first_index, out, chunk):
    """Row ``k`` of ``out`` becomes the isomorph of ``puzzles[k]`` drawn from
    ``(seed, first_index + k)``."""
    count = puzzles.shape[0]
    n_chunks = (count + chunk - 1) // chunk
    for c in prange(n_chunks):
        state = np.zeros(1, dtype=np.uint64)
        row_order, col_order, digits, groups = transform_work(n)
        for k in range(c * chunk, min(count, (c + 1) * chunk)):
            seed_state(seed, first_index + k, state)
            transform_one(
                puzzles[k],
                n,
                box_rows,
                box_cols,
                state,
                out[k],
                row_order,
                col_order,
                digits,
                groups,
            )


@njit(cache=True, parallel=True, nogil=True)
def rate_bulk(
    puzzles,
    n,
    box_rows,
    box_cols,
    units,
    peers,
    where,
    full,
    isomorphs,
    seed,
    first_index,
    do_logic,
    ratings,
    tries,
    logic,
    outcome,
    hardest,
    n_steps,
    steps,
    chunk,
    status,
    solutions,
):
    """Ratings of every puzzle (rows assumed valid: values 0..n).

    Only the rows whose ``status`` (an engine's, searched with limit 2) is UNIQUE are
    rated, with ``solutions[k]`` their solution; every other row gets NaN ``tries``
    and ``logic`` and is left alone otherwise. Puzzle ``k`` draws its isomorphs from
    ``(seed, first_index + k)``. ``tries[k]``: mean tries of :func:`search` (first
    solution, first cell of fewest candidates, lowest digit first) over ``isomorphs``
    random isomorphs. With ``do_logic``: the ladder's ``outcome``, ``hardest``
    technique, step count and :func:`logic_value`. ``steps`` receives the steps of
    puzzle ``k`` in ``steps[k]`` when its first dimension is the number of puzzles
    (and is ignored otherwise).
    """
    count, nn = puzzles.shape
    n_chunks = (count + chunk - 1) // chunk
    keep_steps = steps.shape[0] == count
    for c in prange(n_chunks):
        state = np.zeros(1, dtype=np.uint64)
        work_s = search_work(nn, np.zeros(1, dtype=np.int64))  # never stopped
        states = work_s[0]
        queue = work_s[4]
        row_order, col_order, digits, groups = transform_work(n)
        image = np.zeros(nn, dtype=np.uint8)
        solution = np.zeros(nn, dtype=np.uint8)
        cand = np.zeros(nn, dtype=np.uint64)
        work = logic_work(n)
        no_steps = np.zeros((0, STEP_FIELDS), dtype=np.int32)
        for k in range(c, count, n_chunks):
            if status[k] != UNIQUE:
                tries[k] = np.nan
                logic[k] = np.nan
                continue
            seed_state(seed, first_index + k, state)
            if not candidates_of(puzzles[k], cand, peers, full):
                tries[k] = np.nan
                logic[k] = np.nan
                outcome[k] = INVALID
                continue
            total = 0
            solvable = True
            # singles reach the same cells in every isomorph: if they fill the grid,
            # every isomorph takes 0 tries
            states[0, :] = cand
            isomorphs_left = isomorphs
            if singles(states[0], units, peers, queue) < 0:
                solvable = False
                isomorphs_left = 0
            elif choose_cell(states[0], False, state) < 0:
                isomorphs_left = 0
            for _ in range(isomorphs_left):
                transform_one(
                    puzzles[k],
                    n,
                    box_rows,
                    box_cols,
                    state,
                    image,
                    row_order,
                    col_order,
                    digits,
                    groups,
                )
                candidates_of(image, states[0], peers, full)
                found, g, _ = search(work_s, units, peers, 1, 0, False, state, solution)
                if found == 0:
                    solvable = False
                    break
                total += g
            tries[k] = total / isomorphs if solvable else np.nan
            if not do_logic:
                continue
            mine = steps[k] if keep_steps else no_steps
            o, h, s, _, stalled = logic_solve(
                cand, units, peers, where, full, mine, work, solution[:0], T_SEARCH
            )
            if o == STUCK and solvable:
                # carry on past the ladder with the digits of the solution (the trial
                # rungs have just failed here: not again)
                solution[:] = solutions[k]
                o, _, more, _, _ = logic_solve(
                    cand,
                    units,
                    peers,
                    where,
                    full,
                    mine[min(s, mine.shape[0]) :],
                    work,
                    solution,
                    T_FIRST_TRIAL,
                )
                s += more
                o = STUCK if o != NO_SOLUTION else o
            outcome[k] = o
            hardest[k] = h
            n_steps[k] = s
            logic[k] = logic_value(o, h, stalled, nn, ratings)


@njit(cache=True, parallel=True, nogil=True)
def generate_bulk(
    out,
    attempts,
    n,
    box_rows,
    box_cols,
    units,
    peers,
    where,
    full,
    orbits,
    orbit_sizes,
    minimal,
    strict,
    clue_lo,
    clue_hi,
    rate_lo,
    rate_hi,
    ratings,
    max_attempts,
    seed,
    first_index,
    stop,
):
    """Row ``k`` of ``out`` becomes the puzzle of index ``first_index + k``.

    For every attempt: a random grid, then the cell orbits (one cell, or the cells a
    symmetry maps onto each other) blanked in random order, each kept blank only if the
    puzzle stays unique. With ``minimal`` the pass goes through every orbit (which
    leaves no removable orbit); otherwise it stops at a clue count drawn from
    ``clue_lo..clue_hi``. With ``strict`` (symmetry and minimal), every single clue is
    then checked too. The attempt is kept if its clue count and logic rating (when
    ``rate_hi`` >= 0) are within bounds; ``attempts[k]`` is the number of attempts
    used, or -1 if ``max_attempts`` ran out. ``ratings[t]`` is the logic rating of
    technique ``t``. Once another thread sets ``stop[0]`` (Ctrl-C, a deadline), every
    search ends at its next node and the rows not finished get ``attempts[k] = -2``."""
    count, nn = out.shape
    n_orbits = orbits.shape[0]
    for k in prange(count):
        attempts[k] = STOPPED
        if stop_requested(stop):
            continue
        state = np.zeros(1, dtype=np.uint64)
        seed_state(seed, first_index + k, state)
        work_s = search_work(nn, stop)
        grid = np.zeros(nn, dtype=np.uint8)
        puzzle = np.zeros(nn, dtype=np.uint8)
        solution = np.zeros(nn, dtype=np.uint8)
        cand = np.zeros(nn, dtype=np.uint64)
        order = np.arange(n_orbits)
        work = logic_work(n)
        no_steps = np.zeros((0, STEP_FIELDS), dtype=np.int32)
        attempts[k] = -1
        for attempt in range(max_attempts):
            if stop_requested(stop):
                break
            random_grid_into(grid, units, peers, full, state, work_s)
            puzzle[:] = grid
            shuffle(order, n_orbits, state)
            clues = nn
            target = clue_lo + random_below(state, clue_hi - clue_lo + 1)
            for t in range(n_orbits):
                if stop_requested(stop) or (not minimal and clues <= target):
                    break
                o = order[t]
                size = orbit_sizes[o]
                if not minimal and clues - size < clue_lo:
                    continue
                for j in range(size):
                    puzzle[orbits[o, j]] = 0
                # the puzzle was unique (its solution is grid), so another solution of
                # the blanked one must differ from grid in a blanked cell
                unique = True
                for j in range(size):
                    cell = orbits[o, j]
                    if other_solution(
                        puzzle,
                        cell,
                        grid[cell],
                        units,
                        peers,
                        where,
                        full,
                        work_s,
                        state,
                        solution,
                    ):
                        unique = False
                        break
                if unique:
                    clues -= size
                else:
                    for j in range(size):
                        puzzle[orbits[o, j]] = grid[orbits[o, j]]
            if clues < clue_lo or clues > clue_hi:
                continue
            if strict:
                removable = False
                for cell in range(nn):
                    if puzzle[cell] != 0:
                        puzzle[cell] = 0
                        other = other_solution(
                            puzzle,
                            cell,
                            grid[cell],
                            units,
                            peers,
                            where,
                            full,
                            work_s,
                            state,
                            solution,
                        )
                        puzzle[cell] = grid[cell]
                        if not other:
                            removable = True
                            break
                if removable:
                    continue
            if rate_hi >= 0:
                candidates_of(puzzle, cand, peers, full)
                o, h, _, _, stalled = logic_solve(
                    cand, units, peers, where, full, no_steps, work, grid, T_SEARCH
                )
                value = logic_value(o, h, stalled, nn, ratings)
                if value < rate_lo or value > rate_hi:
                    continue
            if stop_requested(stop):
                break  # a search of this attempt may have been cut short: not kept
            out[k] = puzzle
            attempts[k] = attempt + 1
            break
        if attempts[k] < 0 and stop_requested(stop):
            attempts[k] = STOPPED
