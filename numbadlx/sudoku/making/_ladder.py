"""The logic ladder: a human-style solver that records its steps.

:func:`logic_solve` takes the easiest technique that makes progress, again and again
(singles, then :func:`apply_technique` up the ladder: the basic techniques of
:mod:`._techniques`, the chains and trials of :mod:`._chains`), and
:func:`logic_value` turns its hardest step into the ``logic`` rating. The technique
codes index :data:`numbadlx.sudoku.TECHNIQUES`.

Outcomes are the engines' status codes where the meaning is the same: ``SOLVED`` (the
ladder filled the grid), ``NO_SOLUTION`` (it met a contradiction), ``INVALID`` (the
givens clash, set by the bulk loop) and ``NOT_RUN``; :data:`STUCK` is the ladder's own
(nothing on it applies, or the grid was finished with search steps).
"""

import numpy as np
from numba import njit

from ..engines import NO_SOLUTION, SOLVED
from ._chains import chains, dynamic_chains, nishio
from ._masks import ONE, PLACED, ZERO, bit_index, cleared, cleared_rows, popcount
from ._techniques import (
    find_hidden_single,
    fish,
    hidden_subset,
    locked_candidates,
    naked_subset,
    place_single,
    wing,
)

#: Outcome of a ladder that ran out of techniques (a code no engine status uses).
STUCK = 7
#: Outcome of a ladder below the trials that ran out of techniques: the puzzle is
#: rated again on the whole ladder (a code of the kernels only, never returned).
NEEDS_TRIALS = 8

# The technique ladder (codes index numbadlx.sudoku.TECHNIQUES).
T_GIVEN = 0
T_HIDDEN_SINGLE_BOX = 1
T_HIDDEN_SINGLE_LINE = 2
T_NAKED_SINGLE = 3
T_POINTING = 4
T_CLAIMING = 5
T_NAKED_PAIR = 6
T_X_WING = 7
T_HIDDEN_PAIR = 8
T_NAKED_TRIPLE = 9
T_SWORDFISH = 10
T_HIDDEN_TRIPLE = 11
T_XY_WING = 12
T_XYZ_WING = 13
T_NAKED_QUAD = 14
T_JELLYFISH = 15
T_HIDDEN_QUAD = 16
T_X_CHAIN = 17
T_FORCING_CHAIN = 18
T_NISHIO = 19
T_DYNAMIC_CHAIN = 20
T_DYNAMIC_CHAIN_PLUS = 21
T_SEARCH = 22
# the rungs from T_NISHIO up assume a candidate and follow its consequences (trials)
T_FIRST_TRIAL = T_NISHIO
# step record columns: technique, cell, digit, candidates removed (0 for a placement)
STEP_FIELDS = 4


@njit(cache=True, nogil=True, inline="always")
def record(steps, n_steps, technique, cell, digit, removed):
    """Write one step as row ``n_steps`` of ``steps`` (if it fits); the new count."""
    if n_steps < steps.shape[0]:
        steps[n_steps, 0] = technique
        steps[n_steps, 1] = cell
        steps[n_steps, 2] = digit
        steps[n_steps, 3] = removed
    return n_steps + 1


@njit(cache=True, nogil=True, inline="always")
def apply_static(technique, cand, units, peers, where, full, work, first):
    """Apply one elimination technique of the ladder below the trials (T_POINTING up
    to T_FORCING_CHAIN) to ``cand``; the number of candidates removed (0: it does not
    apply, or ``technique`` is a trial). ``first`` receives the first (cell, digit)
    removed; ``work`` is scratch (:func:`logic_work`). Inlined where it is called (a
    dispatch, not work): one compiled level less between the ladder and the rungs.
    The subset sizes and flags are constants, so that the rungs are compiled for each
    of them (the fastest rating); small calls drive the ladder from Python instead,
    over the rungs compiled once each (:mod:`._stepwise`)."""
    n = units.shape[1]
    ints, cands = work
    members = ints[0]
    second = ints[1]
    two, three, four = 2, 3, 4
    yes, no = True, False
    if technique == T_POINTING:
        return locked_candidates(cand, units, where, yes, first)
    if technique == T_CLAIMING:
        return locked_candidates(cand, units, where, no, first)
    if technique == T_NAKED_PAIR:
        return naked_subset(cand, units, two, first, members)
    if technique == T_X_WING:
        return fish(cand, units, two, first, members, second)
    if technique == T_HIDDEN_PAIR:
        return hidden_subset(cand, units, two, first, second, members)
    if technique == T_NAKED_TRIPLE:
        return naked_subset(cand, units, three, first, members)
    if technique == T_SWORDFISH:
        return fish(cand, units, three, first, members, second)
    if technique == T_HIDDEN_TRIPLE:
        return hidden_subset(cand, units, three, first, second, members)
    if technique == T_XY_WING:
        return wing(cand, peers, where, no, first)
    if technique == T_XYZ_WING:
        return wing(cand, peers, where, yes, first)
    if technique == T_NAKED_QUAD:
        return naked_subset(cand, units, four, first, members)
    if technique == T_JELLYFISH:
        return fish(cand, units, four, first, members, second)
    if technique == T_HIDDEN_QUAD:
        return hidden_subset(cand, units, four, first, second, members)
    if technique == T_X_CHAIN:
        return chains(cand, units, peers, n, no, cands, first)
    if technique == T_FORCING_CHAIN:
        return chains(cand, units, peers, n, yes, cands, first)
    return 0


@njit(cache=True, nogil=True)
def apply_technique(technique, cand, units, peers, where, full, work, first):
    """:func:`apply_static`, and the trial rungs (T_NISHIO up, below T_SEARCH) too.
    A ladder that never reaches the trials runs with :func:`apply_static` alone, and
    so never compiles them."""
    if technique < T_FIRST_TRIAL:
        return apply_static(technique, cand, units, peers, where, full, work, first)
    ints, cands = work
    consts = (2, True, False)  # constants: the helpers of settling compiled for them
    if technique == T_NISHIO:
        return nishio(cand, units, peers, where, cands, first)
    if technique == T_DYNAMIC_CHAIN:
        return dynamic_chains(cand, units, peers, where, full, False, ints, cands, first, consts)
    if technique == T_DYNAMIC_CHAIN_PLUS:
        return dynamic_chains(cand, units, peers, where, full, True, ints, cands, first, consts)
    return 0


@njit(cache=True, nogil=True)
def logic_solve(cand, units, peers, where, full, steps, work, solution, top, trials=True):
    """Solve with the easiest technique that makes progress, again and again.

    Returns ``(outcome, hardest technique, steps taken, searches, first stall)``:
    SOLVED, STUCK (nothing on the ladder applies) or NO_SOLUTION (a contradiction);
    ``first stall`` is the number of cells still empty when singles first ran out (0 if
    they never did).
    Techniques below ``top`` are tried (T_SEARCH: the whole ladder); with ``trials``
    None, only those below the trials (:func:`apply_static`): Numba then drops the
    branch of the trial rungs before typing it, so they are not compiled. With a
    ``solution`` (an empty array for none), a stalled solver takes the solution's digit
    of a cell with fewest candidates (a T_SEARCH step) and goes on, without the trial
    rungs from then on (the rating is already at the top); ``searches`` counts those
    steps (the outcome is then STUCK even when the grid gets filled). Each step
    goes into ``steps`` (as far as it reaches): technique, cell, digit (a placement) or
    technique, first cell and digit removed, candidates removed. ``work`` is scratch
    (:func:`logic_work`). :func:`~._stepwise.logic_solve_stepwise` takes the same steps
    from Python.
    """
    n = units.shape[1]
    first = cleared(np.empty(2, dtype=np.int64))
    hardest = T_GIVEN
    n_steps = 0
    searches = 0
    first_stall = 0
    while True:
        o, hardest, n_steps, left = place_singles(cand, units, peers, full, steps, n_steps, hardest)
        if o == NO_SOLUTION:
            return NO_SOLUTION, hardest, n_steps, searches, first_stall
        if o == SOLVED:
            return (SOLVED if searches == 0 else STUCK), hardest, n_steps, searches, first_stall
        if first_stall == 0:
            first_stall = left
        # eliminations, easiest first
        first[0] = -1
        first[1] = 0
        removed = 0
        for technique in range(T_POINTING, top if searches == 0 else T_FIRST_TRIAL):
            if trials is None:
                removed = apply_static(technique, cand, units, peers, where, full, work, first)
            else:
                removed = apply_technique(technique, cand, units, peers, where, full, work, first)
            if removed:
                break
        if not removed:
            if solution.shape[0] == 0:
                return STUCK, T_SEARCH, n_steps, searches, first_stall
            # beyond the ladder: the solution's digit of a cell with fewest candidates
            cell = place_solution_digit(cand, peers, n, solution)
            if cell < 0:
                return NO_SOLUTION, T_SEARCH, n_steps, searches, first_stall
            searches += 1
            hardest = T_SEARCH
            n_steps = record(steps, n_steps, T_SEARCH, cell, solution[cell], 0)
            continue
        hardest = max(hardest, technique)
        n_steps = record(steps, n_steps, technique, first[0], first[1], removed)


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder calls it
def place_singles(cand, units, peers, full, steps, n_steps, hardest):
    """The singles of :func:`logic_solve`: place hidden singles (in a box, then in a
    line) and naked singles, the easiest first, each a step, until none is left.

    Returns ``(outcome, hardest, n_steps, left)``: SOLVED (the grid is full),
    NO_SOLUTION (a contradiction) or STUCK (no single left, ``left`` cells still
    empty), with ``hardest`` and ``n_steps`` carried on from those given."""
    n = units.shape[1]
    nn = cand.shape[0]
    while True:
        left = 0
        for cell in range(nn):
            if not (cand[cell] & PLACED):
                left += 1
                if cand[cell] == ZERO:
                    return NO_SOLUTION, hardest, n_steps, left
        if left == 0:
            return SOLVED, hardest, n_steps, left
        technique = T_GIVEN
        cell, bit = find_hidden_single(cand, units, full, 2 * n, 3 * n)
        if cell >= 0:
            technique = T_HIDDEN_SINGLE_BOX
        elif cell == -1:
            cell, bit = find_hidden_single(cand, units, full, np.int64(0), 2 * n)
            if cell >= 0:
                technique = T_HIDDEN_SINGLE_LINE
        if cell == -2:
            return NO_SOLUTION, hardest, n_steps, left
        if technique == T_GIVEN:
            for k in range(nn):
                c = cand[k]
                if not (c & PLACED) and (c & (c - ONE)) == ZERO:
                    cell = k
                    bit = c
                    technique = T_NAKED_SINGLE
                    break
        if technique == T_GIVEN:
            return STUCK, hardest, n_steps, left
        if not place_single(cand, cell, bit, peers):
            return NO_SOLUTION, max(hardest, technique), n_steps, left
        hardest = max(hardest, technique)
        n_steps = record(steps, n_steps, technique, cell, bit_index(bit) + 1, 0)


@njit(cache=True, nogil=True)  # with an entry point: the small calls' ladder calls it
def place_solution_digit(cand, peers, n, solution):
    """A step past the ladder: the digit of ``solution`` placed in the first cell with
    fewest candidates (what a search would have to find). Returns the cell, or -1 if
    that digit is no longer a candidate there or placing it meets a contradiction."""
    cell = np.int64(-1)
    best = n + 1
    for k in range(cand.shape[0]):
        c = cand[k]
        if not (c & PLACED) and popcount(c) < best:
            best = popcount(c)
            cell = k
    bit = ONE << np.uint64(solution[cell] - 1)
    if not (cand[cell] & bit) or not place_single(cand, cell, bit, peers):
        return np.int64(-1)
    return cell


@njit(cache=True, nogil=True)
def logic_value(outcome, hardest, first_stall, nn, ratings):
    """The logic rating: ``ratings[hardest]`` times ``1 + first_stall / nn`` (the share
    of the ``nn`` cells still empty when singles first ran out; 0 if they never did);
    NaN on a contradiction."""
    if outcome == NO_SOLUTION:
        return np.nan
    return ratings[hardest] * (1.0 + first_stall / nn)


@njit(cache=True, nogil=True)
def logic_work(n):
    """Scratch of :func:`logic_solve`, a tuple: ``ints`` (two rows of cells or digits of
    a unit) and ``cands`` (four candidate grids: trials, their unions, what goes). The
    chains and trials make their larger tables when they run."""
    ints = cleared_rows(np.empty((2, max(n, 4)), dtype=np.int64))
    return ints, cleared_rows(np.empty((4, n * n), dtype=np.uint64))
