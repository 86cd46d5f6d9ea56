"""The one bulk loop of every engine: rows of puzzles, handed out by an atomic counter.

Numba caches a kernel only when it is a module-level function whose callees are known
when it compiles, so each engine keeps two short entry points (``solve_serial`` and
``solve_bulk``, see :mod:`._contract`) that call the loop below with the engine's own
``solve_one`` and ``allocate_work``; the loop itself is written once, here. Its two
functions are inlined into those entry points (Numba's ``inline="always"``): called
for real, they would receive the engine's kernels as run-time values, a pointer to a
Python object that Numba cannot write to its cache.

Work units are runs of ``chunk`` consecutive rows. Each of ``lanes`` threads keeps one
set of work buffers and takes the next unit as it comes free
(:func:`~._contract.fetch_add`): with OpenMP, Numba's ``prange`` gives each thread one
contiguous share of its range whatever the chunk size, so a file whose hard puzzles
sit in one half would leave the other thread idle (``benchmarks/prange_schedule.py``).
Runs of consecutive rows, not strided rows: two threads writing the results of
neighbouring rows (one cache line) cost more than striding buys once units are taken
as they come.
"""

from numba import njit

from ._contract import INVALID, clear_result, fetch_add, stop_requested


@njit(nogil=True, inline="always")
def whole_table(table, k):
    """The table of row ``k``: the one table every row shares (what
    :func:`solve_rows` and :func:`take_units` hand each row)."""
    return table


@njit(nogil=True, inline="always")
def solve_rows(
    solve_one,
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
    """Solve rows ``begin`` to ``end - 1`` of ``puzzles`` with ``solve_one``, every row
    under ``table`` (see :func:`solve_rows_of`)."""
    solve_rows_of(
        solve_one,
        whole_table,
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
    )


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
    allocate_work,
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
        allocate_work,
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
    allocate_work,
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
    """One thread's share of a bulk call: allocate its work buffers, then solve the
    unit that ``next_unit`` (a shared counter) hands out next, until none is left or the
    stop flag is set; row ``k`` under ``table_of(table, k)``."""
    n_puzzles = puzzles.shape[0]
    n_units = (n_puzzles + chunk - 1) // chunk
    work = allocate_work(table)
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
