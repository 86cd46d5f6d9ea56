"""The logic ladder of small ``rate`` calls, driven from Python rung by rung.

:func:`logic_solve_stepwise` takes the same steps as :func:`~._ladder.logic_solve`,
as a Python loop over compiled pieces: the singles (:func:`~._ladder.place_singles`),
each rung family (subsets, fish, wings, chains, trials: one kernel each, its size or
kind a value) and the step past the ladder. Nothing compiles the driver itself (Numba
would link every rung into it and optimise them all once more), and a rung compiles
only when a puzzle of the call first reaches it: a call of easy puzzles never
compiles the chains or the trials. Each rung then costs a call from Python (a few
microseconds), which a small call can afford. :func:`rate_logic_stepwise` and
:func:`trials_stepwise` are the two rating passes of :mod:`._bodies` on it.
"""

import numpy as np

from ..engines import INVALID, NO_SOLUTION, SOLVED, UNIQUE
from ._chains import chains, dynamic_chains, nishio
from ._ladder import (
    NEEDS_TRIALS,
    STUCK,
    T_CLAIMING,
    T_DYNAMIC_CHAIN,
    T_DYNAMIC_CHAIN_PLUS,
    T_FIRST_TRIAL,
    T_FORCING_CHAIN,
    T_GIVEN,
    T_HIDDEN_PAIR,
    T_HIDDEN_QUAD,
    T_HIDDEN_TRIPLE,
    T_JELLYFISH,
    T_NAKED_PAIR,
    T_NAKED_QUAD,
    T_NAKED_TRIPLE,
    T_NISHIO,
    T_POINTING,
    T_SEARCH,
    T_SWORDFISH,
    T_X_CHAIN,
    T_X_WING,
    T_XY_WING,
    T_XYZ_WING,
    logic_value,
    place_singles,
    place_solution_digit,
)
from ._masks import candidates_from_python
from ._techniques import fish, hidden_subset, locked_candidates, naked_subset, wing


def ladder_rungs(units, peers, where, full, work):
    """The rungs of the ladder from T_POINTING up to the trials, as a list indexed by
    technique code: each a function of ``(cand, first)`` that applies the technique
    as :func:`~._ladder.apply_technique` does, with the same scratch ``work``."""
    n = units.shape[1]
    ints, cands = work
    members, second = ints[0], ints[1]
    rungs = [None] * T_SEARCH
    rungs[T_POINTING] = lambda cand, first: locked_candidates(cand, units, where, True, first)
    rungs[T_CLAIMING] = lambda cand, first: locked_candidates(cand, units, where, False, first)
    for size, naked, fishes, hidden in (
        (2, T_NAKED_PAIR, T_X_WING, T_HIDDEN_PAIR),
        (3, T_NAKED_TRIPLE, T_SWORDFISH, T_HIDDEN_TRIPLE),
        (4, T_NAKED_QUAD, T_JELLYFISH, T_HIDDEN_QUAD),
    ):
        rungs[naked] = lambda cand, first, k=size: naked_subset(cand, units, k, first, members)
        rungs[fishes] = lambda cand, first, k=size: fish(cand, units, k, first, members, second)
        rungs[hidden] = lambda cand, first, k=size: hidden_subset(
            cand, units, k, first, second, members
        )
    rungs[T_XY_WING] = lambda cand, first: wing(cand, peers, where, False, first)
    rungs[T_XYZ_WING] = lambda cand, first: wing(cand, peers, where, True, first)
    rungs[T_X_CHAIN] = lambda cand, first: chains(cand, units, peers, n, False, cands, first)
    rungs[T_FORCING_CHAIN] = lambda cand, first: chains(cand, units, peers, n, True, cands, first)
    rungs[T_NISHIO] = lambda cand, first: nishio(cand, units, peers, where, cands, first)
    # settling's pair size and flags as values, as the rungs above take them (one
    # compile of each helper for both)
    consts = (2, True, False)
    rungs[T_DYNAMIC_CHAIN] = lambda cand, first: dynamic_chains(
        cand, units, peers, where, full, False, ints, cands, first, consts
    )
    rungs[T_DYNAMIC_CHAIN_PLUS] = lambda cand, first: dynamic_chains(
        cand, units, peers, where, full, True, ints, cands, first, consts
    )
    return rungs


def logic_solve_stepwise(cand, units, peers, where, full, steps, work, solution, top, rungs):
    """:func:`~._ladder.logic_solve` (same arguments and results; ``rungs`` from
    :func:`ladder_rungs` on the same ``work``) as a Python loop over the compiled
    singles and rungs.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx.sudoku.geometry import unit_tables
    >>> from numbadlx.sudoku.making._ladder import T_SEARCH, logic_work
    >>> from numbadlx.sudoku.making._masks import candidates_of, full_mask
    >>> units, peers, where = unit_tables(4, 2, 2)
    >>> cand = np.zeros(16, dtype=np.uint64)
    >>> full = full_mask(4)
    >>> _ = candidates_of(np.array([0, 2, 0, 0, 0, 0, 4, 0, 3, 4, 0, 0, 0, 0, 0, 0],
    ...                   dtype=np.uint8), cand, peers, full)
    >>> work = logic_work(4)
    >>> rungs = ladder_rungs(units, peers, where, full, work)
    >>> no_steps = np.zeros((0, 4), dtype=np.int32)
    >>> logic_solve_stepwise(cand, units, peers, where, full, no_steps, work,
    ...                      np.zeros(0, dtype=np.uint8), T_SEARCH, rungs)[:3]
    (2, 1, 12)
    """
    n = units.shape[1]
    first = np.zeros(2, dtype=np.int64)
    hardest = T_GIVEN
    n_steps = 0
    searches = 0
    first_stall = 0
    room = steps.shape[0]
    while True:
        o, hardest, n_steps, left = place_singles(cand, units, peers, full, steps, n_steps, hardest)
        if o == NO_SOLUTION:
            return NO_SOLUTION, hardest, n_steps, searches, first_stall
        if o == SOLVED:
            return (SOLVED if searches == 0 else STUCK), hardest, n_steps, searches, first_stall
        if first_stall == 0:
            first_stall = left
        first[0] = -1
        first[1] = 0
        removed = 0
        for technique in range(T_POINTING, top if searches == 0 else T_FIRST_TRIAL):
            removed = rungs[technique](cand, first)
            if removed:
                break
        if not removed:
            if solution.shape[0] == 0:
                return STUCK, T_SEARCH, n_steps, searches, first_stall
            cell = place_solution_digit(cand, peers, n, solution)
            if cell < 0:
                return NO_SOLUTION, T_SEARCH, n_steps, searches, first_stall
            searches += 1
            hardest = T_SEARCH
            technique, first[0], first[1] = T_SEARCH, cell, solution[cell]
        else:
            hardest = max(hardest, technique)
        if n_steps < room:  # the step, as record() writes it
            steps[n_steps] = technique, first[0], first[1], removed
        n_steps += 1


def _pass_scratch(units, peers, where, full, steps):
    """What a rating pass of :func:`logic_solve_stepwise` works in: a candidate row,
    the ladder's scratch and its rungs, no solution, and room for no steps (for
    puzzles whose steps are not kept)."""
    n, nn = units.shape[1], peers.shape[0]
    cand = np.zeros(nn, dtype=np.uint64)
    work = (np.zeros((2, max(n, 4)), dtype=np.int64), np.zeros((4, nn), dtype=np.uint64))
    rungs = ladder_rungs(units, peers, where, full, work)
    no_solution = np.zeros(0, dtype=np.uint8)
    no_steps = np.zeros((0, steps.shape[-1]), dtype=np.int32)
    return cand, work, rungs, no_solution, no_steps


def rate_logic_stepwise(
    puzzles, units, peers, where, full, ratings, logic, outcome, hardest, n_steps, steps, status
):
    """The first logic pass of a small call, as :func:`~._bodies.rate_logic` gives it
    for every puzzle that is UNIQUE and not INVALID (the ladder below the trials;
    outcome NEEDS_TRIALS where it runs out), on :func:`logic_solve_stepwise`.
    Arguments as :func:`~._loops.rate_serial`'s."""
    count, nn = puzzles.shape
    keep_steps = steps.shape[0] == count
    cand, work, rungs, no_solution, no_steps = _pass_scratch(units, peers, where, full, steps)
    for k in range(count):
        if status[k] != UNIQUE or outcome[k] == INVALID:
            continue  # not rated, or its givens clash (_tries_serial said so)
        candidates_from_python(puzzles[k], cand, peers, full)
        mine = steps[k] if keep_steps else no_steps
        o, h, s, _, stalled = logic_solve_stepwise(
            cand, units, peers, where, full, mine, work, no_solution, T_FIRST_TRIAL, rungs
        )
        if o == STUCK:
            outcome[k] = NEEDS_TRIALS
            continue
        outcome[k], hardest[k], n_steps[k] = o, h, s
        logic[k] = logic_value.py_func(o, h, stalled, nn, ratings)


def trials_stepwise(
    puzzles, units, peers, where, full, ratings, tries, logic, outcome, hardest, n_steps, steps,
    solutions,
):  # fmt: skip
    """The second logic pass of a small call, as :func:`~._bodies.trial_chunk` gives
    it: the puzzles left with outcome NEEDS_TRIALS, on the whole ladder and past it
    with the solution's digits, on :func:`logic_solve_stepwise`."""
    count, nn = puzzles.shape
    keep_steps = steps.shape[0] == count
    cand, work, rungs, no_solution, no_steps = _pass_scratch(units, peers, where, full, steps)
    for k in range(count):
        if outcome[k] != NEEDS_TRIALS:
            continue
        candidates_from_python(puzzles[k], cand, peers, full)
        mine = steps[k] if keep_steps else no_steps
        o, h, s, _, stalled = logic_solve_stepwise(
            cand, units, peers, where, full, mine, work, no_solution, T_SEARCH, rungs
        )
        if o == STUCK and not np.isnan(tries[k]):
            # past the ladder with the solution's digits (not the trial rungs again)
            o, _, more, _, _ = logic_solve_stepwise(
                cand, units, peers, where, full, mine[min(s, mine.shape[0]) :], work,
                solutions[k].copy(), T_FIRST_TRIAL, rungs,
            )  # fmt: skip
            s += more
            o = STUCK if o != NO_SOLUTION else o
        outcome[k], hardest[k], n_steps[k] = o, h, s
        logic[k] = logic_value.py_func(o, h, stalled, nn, ratings)
