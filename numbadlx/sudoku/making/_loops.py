"""The bulk loops of random grids, isomorphs, ratings and puzzles (``prange`` loops
over the small bodies, Python threads over the compiled large ones); the work of one
iteration of the larger ones is in :mod:`._bodies`.

Puzzle ``k`` of a call seeds its random generator from ``(seed, first_index + k)``
(:func:`._random.seed_state`), so no result depends on the threads.
"""

import itertools
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit, prange

from ..engines import INVALID, MULTIPLE, NO_SOLUTION, NOT_RUN, UNIQUE
from ._bodies import rate_chunk, trial_chunk
from ._isomorphs import isomorphs_from_python, transform_one, transform_work
from ._masks import candidates_from_python
from ._random import seed_state, seed_value
from ._search import random_grid_into, search, search_work
from ._stepwise import rate_logic_stepwise, trials_stepwise


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


def rate_threads(body, arguments, threads):
    """``body(c, n_chunks, *arguments)`` for every chunk ``c`` of a large ``rate``
    call's rows, on ``threads`` Python threads: ``body`` is
    :func:`~._bodies.rate_chunk` or :func:`~._bodies.trial_chunk`, ``arguments``
    those of :func:`rate_serial` (``chunk`` rows a chunk; chunk ``c`` rates the rows
    ``c``, ``c + n_chunks``, ..., each from its own seed, so no result depends on the
    threads).

    The bodies are compiled kernels that release the GIL, so the chunks run in
    parallel without a parallel kernel around them, which Numba would compile with the
    whole ladder linked into it and optimised once more (about a third of a first
    large call's compile). Ctrl-C stops the threads after the chunks they are rating.
    """
    puzzles, chunk = arguments[0], arguments[19]
    n_chunks = (puzzles.shape[0] + chunk - 1) // chunk
    taken = itertools.count()  # next() is atomic under the GIL
    stop = threading.Event()

    def work():
        while not stop.is_set():
            c = next(taken)
            if c >= n_chunks:
                return
            body(np.int64(c), np.int64(n_chunks), *arguments)

    workers = max(1, min(threads, n_chunks))
    pool = ThreadPoolExecutor(workers, "numbadlx-rate")
    try:
        for future in [pool.submit(work) for _ in range(workers)]:
            future.result()
    finally:
        stop.set()
        pool.shutdown(wait=True)


# The loops of the large bodies: Python loops over the compiled bodies, on the calling
# thread or on several at once (the bodies release the GIL). A compiled loop around a
# body would compile (and optimise) the whole body once more, and a parallel one more
# still; results do not depend on the threads.


def rate_serial(
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
    *,
    stepwise=False,
):
    """The ratings of every puzzle (rows assumed valid: values 0..n), on the calling
    thread.

    Only the rows whose ``status`` (an engine's, searched with limit 2) is UNIQUE are
    rated, with ``solutions[k]`` their solution; every other row gets NaN ``tries``
    and ``logic`` and is left alone otherwise. A row whose status is NOT_RUN gets its
    status and solution here, from :func:`search` with limit 2 (a small call needs no
    engine compiled). Puzzle ``k`` draws its isomorphs from
    ``(seed, first_index + k)``. ``tries[k]``: mean tries of :func:`search` (first
    solution, first cell of fewest candidates, lowest digit first) over ``isomorphs``
    random isomorphs. With ``do_logic``: the ladder's ``outcome``, ``hardest``
    technique, step count and :func:`logic_value`. ``steps`` receives the steps of
    puzzle ``k`` in ``steps[k]`` when its first dimension is the number of puzzles
    (and is ignored otherwise). :func:`rate_threads` runs the same chunks on several
    threads.

    With ``stepwise`` (a small call), nothing of the compiled chunk runs: the
    uniqueness and ``tries`` come from :func:`_tries_serial` and the ladder is driven
    from Python rung by rung (:func:`~._stepwise.rate_logic_stepwise`), both Python
    loops over compiled pieces, which are then compiled once each, not a second time
    inside a chunk (and a rung only once a puzzle reaches it)."""
    if stepwise:
        _tries_serial(
            puzzles, n, box_rows, box_cols, units, peers, full, isomorphs, seed, first_index,
            tries, logic, outcome, status, solutions,
        )  # fmt: skip
    else:
        rate_chunk(
            np.int64(0),
            np.int64(1),
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
        )
    if stepwise and do_logic:
        rate_logic_stepwise(
            puzzles, units, peers, where, full, ratings, logic, outcome, hardest, n_steps, steps,
            status,
        )  # fmt: skip


def _tries_serial(
    puzzles, n, box_rows, box_cols, units, peers, full, isomorphs, seed, first_index,
    tries, logic, outcome, status, solutions,
):  # fmt: skip
    """The uniqueness check and ``tries`` of :func:`~._bodies.rate_chunk` (a small
    call), as a Python loop over the compiled search: that loop is not compiled, nor
    the search a second time inside it, and the isomorphs and candidates are drawn in
    NumPy (:func:`~._isomorphs.isomorphs_from_python`,
    :func:`~._masks.candidates_from_python`: two kernels less to compile, at some tens
    of microseconds an isomorph). Same arguments as :func:`rate_serial`; same results
    as the compiled chunk."""
    count, nn = puzzles.shape
    work_s = (
        np.zeros((nn + 2, nn), dtype=np.uint64),
        np.zeros(nn + 2, dtype=np.uint64),
        np.zeros(nn + 2, dtype=np.int64),
        np.zeros(nn + 2, dtype=np.int64),
        np.zeros(16 * nn + 64, dtype=np.int32),
        np.zeros(1, dtype=np.int64),  # the stop flag: never set
    )  # search_work's arrays
    first_state = work_s[0][0]
    state = np.zeros(1, dtype=np.uint64)
    starts = np.zeros((isomorphs, nn), dtype=np.uint64)
    solution = np.zeros(nn, dtype=np.uint8)
    cand = np.zeros(nn, dtype=np.uint64)
    for k in range(count):
        branched = -1  # tries of a search of the puzzle as given (-1: none run yet)
        if status[k] == NOT_RUN:
            if not candidates_from_python(puzzles[k], first_state, peers, full):
                status[k] = INVALID
            else:
                found, branched, _ = search(work_s, units, peers, 2, 0, False, state, solutions[k])
                status[k] = UNIQUE if found == 1 else MULTIPLE if found == 2 else NO_SOLUTION
        if status[k] != UNIQUE:
            tries[k] = logic[k] = np.nan
            continue
        state[0] = seed_value(seed, first_index + k)
        if not candidates_from_python(puzzles[k], cand, peers, full):
            tries[k] = logic[k] = np.nan
            outcome[k] = INVALID
            continue
        if branched < 0:  # its status came with it: one search of the puzzle as given
            first_state[:] = cand
            _, branched, _ = search(work_s, units, peers, 1, 0, False, state, solution)
        total = 0
        solvable = True
        # a search that never branched was done by singles, which reach the same cells
        # in every isomorph (the compiled chunk asks singles alone): 0 tries in each
        if branched > 0:  # the isomorphs' candidates, all at once
            images = isomorphs_from_python(puzzles[k], n, box_rows, box_cols, state, isomorphs)
            candidates_from_python(images, starts, peers, full)
        for t in range(isomorphs if branched > 0 else 0):
            first_state[:] = starts[t]
            found, g, _ = search(work_s, units, peers, 1, 0, False, state, solution)
            if found == 0:
                solvable = False
                break
            total += g
        tries[k] = total / isomorphs if solvable else np.nan


def trials_serial(
    puzzles, n, box_rows, box_cols, units, peers, where, full, isomorphs, seed, first_index,
    do_logic, ratings, tries, logic, outcome, hardest, n_steps, steps, chunk, status, solutions,
    *, stepwise=False,
):  # fmt: skip
    """The second pass of :func:`rate_serial` (same arguments), on the calling thread:
    the logic ratings of the puzzles it left with outcome NEEDS_TRIALS, on the whole
    ladder. Run only when there are some, so a call whose puzzles never need the trial
    rungs never compiles them. With ``stepwise`` (a small call) on the ladder driven
    from Python (:mod:`._stepwise`)."""
    if stepwise:
        trials_stepwise(
            puzzles, units, peers, where, full, ratings, tries, logic, outcome, hardest, n_steps,
            steps, solutions,
        )  # fmt: skip
        return
    trial_chunk(
        np.int64(0), np.int64(1), puzzles, n, box_rows, box_cols, units, peers, where, full,
        isomorphs, seed, first_index, do_logic, ratings, tries, logic, outcome, hardest, n_steps,
        steps, chunk, status, solutions,
    )  # fmt: skip


def generate_share(taken, make, out, attempts, n, box_rows, box_cols, *rest):
    """Rows of ``out`` made by ``make`` (:func:`~._bodies.make_puzzle`, or
    :func:`~._bodies.make_rated_puzzle` with a rating bound; ``rest`` its other
    arguments, the stop flag last), row ``k`` the puzzle of index ``first_index + k``,
    the rows taken in turn from ``taken`` (an :func:`itertools.count`) until none is
    left or the stop flag is set. Calls made at once on several threads with one
    ``taken`` share the rows: ``make`` releases the GIL, and a row depends on its index
    alone, not on the thread. Once the flag is set, every search ends at its next
    node, the rows being made get ``attempts[k] = -2`` and the rows not begun are left
    as they were."""
    stop = rest[-1]
    count = out.shape[0]
    while stop[0] == 0:
        k = next(taken)  # atomic under the GIL
        if k >= count:
            return
        make(np.int64(k), out, attempts, n, *rest)
