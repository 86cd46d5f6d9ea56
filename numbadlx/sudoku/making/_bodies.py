"""The work of one iteration of each bulk loop of :mod:`._loops`: a puzzle made (with or
without a bound on its rating) and a chunk of puzzles rated.

They are plain compiled functions that release the GIL, called from Python loops on
one thread or several, rather than loop bodies inside a ``prange`` loop: Numba's
parallel passes analyse and outline everything inside a ``prange`` loop, and then
optimise the whole body once more, which on bodies this large took longer than
compiling the body itself. Making a puzzle with and without a rating bound are two
functions, so that a call without a bound never compiles the logic ladder; rating is
two passes, the ladder below the trials (:func:`rate_chunk`) and then, for the puzzles
stuck there only, the whole ladder (:func:`trial_chunk`), so that a call whose puzzles
never need the trial rungs never compiles them.
"""

import numpy as np
from numba import njit

from ..engines import INVALID, MULTIPLE, NO_SOLUTION, NOT_RUN, UNIQUE, stop_requested
from ._isomorphs import transform_one, transform_work
from ._ladder import (
    NEEDS_TRIALS,
    STEP_FIELDS,
    STUCK,
    T_FIRST_TRIAL,
    T_SEARCH,
    logic_solve,
    logic_value,
    logic_work,
)
from ._masks import candidates_of, cleared, copy_into, inner_njit
from ._random import random_below, seed_state, shuffle
from ._search import choose_cell, other_solution, random_grid_into, search, search_work, singles

#: ``attempts[k]`` of a puzzle left unfinished when the stop flag was set.
STOPPED = -2
#: ``attempts[k]`` when a complete search found that no grid meets the units and peers.
NO_GRID = -3


@njit(cache=True, nogil=True, inline="always")
def attempt_puzzle(
    puzzle,
    grid,
    solution,
    order,
    state,
    work_s,
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
):
    """One attempt: a random grid into ``grid``, then its cell orbits (one cell, or the
    cells a symmetry maps onto each other) blanked in random order in ``puzzle``, each
    kept blank only if the puzzle stays unique. With ``minimal`` the pass goes through
    every orbit (which leaves no removable orbit); otherwise it stops at a clue count
    drawn from ``clue_lo..clue_hi``. With ``strict`` (symmetry and minimal), every
    single clue is then checked too. Returns 1 if the puzzle is kept (its clue count
    within bounds and, with ``strict``, no single clue removable), 0 if not, -1 if no
    grid meets the units and peers (a complete search found none). The stop flag of
    ``work_s`` (:func:`~._search.search_work`) cuts the attempt short: the caller
    looks at it before keeping a puzzle. Inlined into its one caller of each kind
    (one compiled level less to optimise again)."""
    nn = puzzle.shape[0]
    n_orbits = orbits.shape[0]
    stop = work_s[5]
    if not random_grid_into(grid, units, peers, full, state, work_s):
        return -1  # no grid, or stopped: the caller looks at the stop flag first
    copy_into(puzzle, grid)
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
        # the puzzle was unique (its solution is grid), so another solution of the
        # blanked one must differ from grid in a blanked cell
        unique = True
        for j in range(size):
            cell = orbits[o, j]
            if other_solution(
                puzzle, cell, grid[cell], units, peers, where, full, work_s, state, solution
            ):
                unique = False
                break
        if unique:
            clues -= size
        else:
            for j in range(size):
                puzzle[orbits[o, j]] = grid[orbits[o, j]]
    if clues < clue_lo or clues > clue_hi:
        return 0
    if strict:
        for cell in range(nn):
            if puzzle[cell] != 0:
                puzzle[cell] = 0
                other = other_solution(
                    puzzle, cell, grid[cell], units, peers, where, full, work_s, state, solution
                )
                puzzle[cell] = grid[cell]
                if not other:
                    return 0  # a removable clue
    return 1


@njit(cache=True, nogil=True)
def make_puzzle(
    k,
    out,
    attempts,
    n,
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
    max_attempts,
    seed,
    first_index,
    stop,
):
    """Row ``k`` of ``out`` becomes the puzzle of index ``first_index + k``: the first of
    ``max_attempts`` attempts (:func:`attempt_puzzle`) that is kept; ``attempts[k]``
    is the number of attempts used, -1 if they ran out, or :data:`STOPPED` once
    another thread sets ``stop[0]`` (every search then ends at its next node)."""
    attempts[k] = STOPPED
    if stop_requested(stop):
        return
    nn = out.shape[1]
    state = cleared(np.empty(1, dtype=np.uint64))
    seed_state(seed, first_index + k, state)
    work_s = search_work(nn, stop)
    grid = cleared(np.empty(nn, dtype=np.uint8))
    puzzle = cleared(np.empty(nn, dtype=np.uint8))
    solution = cleared(np.empty(nn, dtype=np.uint8))
    order = np.arange(orbits.shape[0])
    attempts[k] = -1
    for attempt in range(max_attempts):
        if stop_requested(stop):
            break
        kept = attempt_puzzle(
            puzzle,
            grid,
            solution,
            order,
            state,
            work_s,
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
        )
        if stop_requested(stop):
            break  # a search of this attempt may have been cut short: not kept
        if kept < 0:
            attempts[k] = NO_GRID
            return
        if kept > 0:
            copy_into(out[k], puzzle)
            attempts[k] = attempt + 1
            return
    if stop_requested(stop):
        attempts[k] = STOPPED


@njit(cache=True, nogil=True)
def make_rated_puzzle(
    k,
    out,
    attempts,
    n,
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
    """:func:`make_puzzle`, an attempt kept only if its logic rating is within
    ``rate_lo..rate_hi`` too (``ratings[t]`` the rating of technique ``t``)."""
    attempts[k] = STOPPED
    if stop_requested(stop):
        return
    nn = out.shape[1]
    state = cleared(np.empty(1, dtype=np.uint64))
    seed_state(seed, first_index + k, state)
    work_s = search_work(nn, stop)
    grid = cleared(np.empty(nn, dtype=np.uint8))
    puzzle = cleared(np.empty(nn, dtype=np.uint8))
    solution = cleared(np.empty(nn, dtype=np.uint8))
    cand = cleared(np.empty(nn, dtype=np.uint64))
    order = np.arange(orbits.shape[0])
    work = logic_work(n)
    no_steps = np.empty((0, STEP_FIELDS), dtype=np.int32)
    attempts[k] = -1
    for attempt in range(max_attempts):
        if stop_requested(stop):
            break
        kept = attempt_puzzle(
            puzzle,
            grid,
            solution,
            order,
            state,
            work_s,
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
        )
        if kept < 0 and not stop_requested(stop):
            attempts[k] = NO_GRID
            return
        if kept <= 0:
            continue
        candidates_of(puzzle, cand, peers, full)
        o, h, _, _, stalled = logic_solve(
            cand,
            units,
            peers,
            where,
            full,
            no_steps,
            work,
            grid,
            np.int64(T_SEARCH),
        )
        value = logic_value(o, h, stalled, nn, ratings)
        if value < rate_lo or value > rate_hi:
            continue
        if stop_requested(stop):
            break  # a search of this attempt may have been cut short: not kept
        copy_into(out[k], puzzle)
        attempts[k] = attempt + 1
        return
    if stop_requested(stop):
        attempts[k] = STOPPED


@njit(cache=True, nogil=True)
def rate_chunk(
    c,
    n_chunks,
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
    """Chunk ``c`` of ``n_chunks`` of :func:`~._loops.rate_serial`: puzzles ``c``,
    ``c + n_chunks``, ... (see there for the arguments)."""
    count, nn = puzzles.shape
    keep_steps = steps.shape[0] == count
    state = cleared(np.empty(1, dtype=np.uint64))
    work_s = search_work(nn, cleared(np.empty(1, dtype=np.int64)))  # never stopped
    states = work_s[0]
    queue = work_s[4]
    row_order, col_order, digits, groups = transform_work(n)
    image = cleared(np.empty(nn, dtype=np.uint8))
    solution = cleared(np.empty(nn, dtype=np.uint8))
    cand = cleared(np.empty(nn, dtype=np.uint64))
    work = logic_work(n)
    no_steps = np.empty((0, STEP_FIELDS), dtype=np.int32)
    for k in range(c, count, n_chunks):
        if status[k] == NOT_RUN:
            # not checked by an engine (a small call): the uniqueness check here
            if not candidates_of(puzzles[k], states[0], peers, full):
                status[k] = INVALID
            else:
                found, _, _ = search(
                    work_s,
                    units,
                    peers,
                    np.int64(2),
                    np.int64(0),
                    np.bool_(False),
                    state,
                    solutions[k],
                )
                status[k] = UNIQUE if found == 1 else MULTIPLE if found == 2 else NO_SOLUTION
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
        copy_into(states[0], cand)
        isomorphs_left = isomorphs
        if singles(states[0], units, peers, queue) < 0:
            solvable = False
            isomorphs_left = 0
        elif choose_cell(states[0], np.bool_(False), state) < 0:
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
            found, g, _ = search(
                work_s, units, peers, np.int64(1), np.int64(0), np.bool_(False), state, solution
            )
            if found == 0:
                solvable = False
                break
            total += g
        tries[k] = total / isomorphs if solvable else np.nan
        if do_logic is None or not do_logic:
            continue  # None: no ladder compiled here (a small call runs it itself)
        # the ladder below the trials first: a call whose puzzles never need them
        # never compiles them (trial_chunk rates the others on the whole ladder)
        rate_logic(
            k,
            cand,
            units,
            peers,
            where,
            full,
            ratings,
            logic,
            outcome,
            hardest,
            n_steps,
            steps[k] if keep_steps else no_steps,
            work,
            solution[:0],
        )


@inner_njit(cache=True, nogil=True)
def rate_logic(
    k,
    cand,
    units,
    peers,
    where,
    full,
    ratings,
    logic,
    outcome,
    hardest,
    n_steps,
    steps,
    work,
    no_solution,
):
    """The logic rating of puzzle ``k`` of :func:`rate_chunk` (its candidates in
    ``cand``, its steps into ``steps``) on the ladder below the trials, into row ``k``
    of ``logic``, ``outcome``, ``hardest`` and ``n_steps``; outcome NEEDS_TRIALS where
    that ladder runs out (:func:`trial_chunk` rates those). ``no_solution`` is an empty
    uint8 array, ``work`` the ladder's scratch. A small call runs its twin from
    Python (:func:`~._stepwise.rate_logic_stepwise`)."""
    o, h, s, _, stalled = logic_solve(
        cand,
        units,
        peers,
        where,
        full,
        steps,
        work,
        no_solution,
        np.int64(T_FIRST_TRIAL),
        None,  # below the trials
    )
    if o == STUCK:
        outcome[k] = NEEDS_TRIALS
        return
    outcome[k] = o
    hardest[k] = h
    n_steps[k] = s
    logic[k] = logic_value(o, h, stalled, cand.shape[0], ratings)


@njit(cache=True, nogil=True)
def trial_chunk(
    c,
    n_chunks,
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
    """The logic rating of the puzzles of chunk ``c`` that :func:`rate_chunk` left
    with outcome NEEDS_TRIALS (the ladder below the trials ran out), on the whole
    ladder from the start (same arguments)."""
    count, nn = puzzles.shape
    keep_steps = steps.shape[0] == count
    solution = cleared(np.empty(nn, dtype=np.uint8))
    cand = cleared(np.empty(nn, dtype=np.uint64))
    work = logic_work(n)
    no_steps = np.empty((0, STEP_FIELDS), dtype=np.int32)
    for k in range(c, count, n_chunks):
        if outcome[k] != NEEDS_TRIALS:
            continue
        candidates_of(puzzles[k], cand, peers, full)
        solvable = not np.isnan(tries[k])
        mine = steps[k] if keep_steps else no_steps
        o, h, s, _, stalled = logic_solve(
            cand,
            units,
            peers,
            where,
            full,
            mine,
            work,
            solution[:0],
            np.int64(T_SEARCH),
            True,
        )
        if o == STUCK and solvable:
            # carry on past the ladder with the digits of the solution (the trial
            # rungs have just failed here: not again)
            copy_into(solution, solutions[k])
            o, _, more, _, _ = logic_solve(
                cand,
                units,
                peers,
                where,
                full,
                mine[min(s, mine.shape[0]) :],
                work,
                solution,
                np.int64(T_FIRST_TRIAL),
                None,  # below the trials: the ladder compiled for rate_chunk
            )
            s += more
            o = STUCK if o != NO_SOLUTION else o
        outcome[k] = o
        hardest[k] = h
        n_steps[k] = s
        logic[k] = logic_value(o, h, stalled, nn, ratings)
