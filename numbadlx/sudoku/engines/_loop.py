"""The one bulk loop of every engine: rows of puzzles, handed out by an atomic counter.

Numba caches a kernel only when it is a module-level function whose callees are known
when it compiles, so each engine keeps one short entry point (``solve_units``, see
:mod:`numbadlx.sudoku.engines`) that calls the loop below with the engine's own
search and work buffers; the loop itself is written once, here. Its functions are
inlined into that entry point (Numba's ``inline="always"``): called for real, they
would receive the engine's kernels as run-time values, a pointer to a Python object
that Numba cannot write to its cache.

Work units are runs of ``chunk`` consecutive rows. A call takes the next unit from a
shared counter (:func:`~._contract.fetch_add`) as it comes free, until none is left:
one call on one thread solves every row; the same call made at once on several Python
threads (the kernels release the GIL) with the same counter shares the rows between
them, each thread with its own work buffers (:func:`~._registry.run`). So no parallel
kernel is compiled: a ``prange`` around the loop made Numba link and optimise the whole
search once more, seconds per engine on first use. Units are taken as they come free,
not split up front, so a file whose hard puzzles sit in one half keeps both threads
busy (``benchmarks/prange_schedule.py``). Runs of consecutive rows, not strided rows:
two threads writing the results of neighbouring rows (one cache line) cost more than
striding buys once units are taken as they come.
"""

from numba import njit

from ._contract import INVALID, clear_result, fetch_add, stop_requested


@njit(nogil=True, inline="always")
def whole_table(table, k):
    """The table of row ``k``: the one table every row shares (what
    :func:`take_units` hands each row)."""
    return table


@njit(nogil=True, inline="always")
def solve_rows_of(
    solve_one,
    table_of,
    puzzles,
    begin,
    end,
    table,
    limit,
    max_nodes,
    stop,
    work,
    solutions,
    status,
    counts,
    nodes,
    guesses,
):
    """Solve rows ``begin`` to ``end - 1`` of ``puzzles`` with ``solve_one`` and one set
    of work buffers, row ``k`` under ``table_of(table, k)`` (rows already INVALID are
    cleared, not searched). Once the stop flag is set, the rows not yet begun are left
    as they are (NOT_RUN, or INVALID not yet cleared), and the one being searched ends
    as BUDGET."""
    for k in range(begin, end):
        if stop_requested(stop):
            break
        if status[k] == INVALID:
            clear_result(k, solutions, counts, nodes, guesses)
            continue
        s, cnt, visited, guessed = solve_one(
            puzzles[k], table_of(table, k), limit, max_nodes, stop, work, solutions[k]
        )
        status[k] = s
        counts[k] = cnt
        nodes[k] = visited
        guesses[k] = guessed


@njit(nogil=True, inline="always")
def take_units(
    solve_one,
    work,
    next_unit,
    chunk,
    puzzles,
    table,
    limit,
    max_nodes,
    stop,
    solutions,
    status,
    counts,
    nodes,
    guesses,
):
    """One thread's share of a bulk call, every row under ``table`` (see
    :func:`take_units_of`)."""
    take_units_of(
        solve_one,
        whole_table,
        work,
        next_unit,
        chunk,
        puzzles,
        table,
        limit,
        max_nodes,
        stop,
        solutions,
        status,
        counts,
        nodes,
        guesses,
    )


@njit(nogil=True, inline="always")
def take_units_of(
    solve_one,
    table_of,
    work,
    next_unit,
    chunk,
    puzzles,
    table,
    limit,
    max_nodes,
    stop,
    solutions,
    status,
    counts,
    nodes,
    guesses,
):
    """One thread's share of a bulk call, with its own work buffers ``work``: solve the
    unit that ``next_unit`` (a shared counter) hands out next, until none is left or the
    stop flag is set; row ``k`` under ``table_of(table, k)``."""
    n_puzzles = puzzles.shape[0]
    n_units = (n_puzzles + chunk - 1) // chunk
    while True:
        unit = fetch_add(next_unit, 0, 1)
        if unit >= n_units or stop_requested(stop):
            break
        begin = unit * chunk
        solve_rows_of(
            solve_one,
            table_of,
            puzzles,
            begin,
            min(n_puzzles, begin + chunk),
            table,
            limit,
            max_nodes,
            stop,
            work,
            solutions,
            status,
            counts,
            nodes,
            guesses,
        )


@njit(nogil=True)
def lanes_for(n_puzzles, chunk, lanes):
    """Threads worth starting: no more than there are units (at least one)."""
    return max(1, min(lanes, (n_puzzles + chunk - 1) // chunk))
