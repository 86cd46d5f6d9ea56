"""Sudoku as exact cover, specialised: a per-puzzle link builder and Algorithm X (njit).

Items, for an n x n grid with r x c boxes (``M = 4 n^2`` of them, numbered from 0):

* cell ``(row, col)`` holds a digit                            -> ``row * n + col``
* row ``row`` has digit ``d``                                   -> ``n^2 + row * n + d``
* column ``col`` has digit ``d``                                -> ``2 n^2 + col * n + d``
* box ``b`` has digit ``d``                                     -> ``3 n^2 + b * n + d``

(``d`` is the digit minus one.) Every option ("put digit d+1 in this cell") has exactly
four nodes, so the options need no spacers: item ``i``'s header is node ``i`` (its
``ITEM`` slot holds the length), and option ``k``'s nodes are ``M + 4k .. M + 4k + 3``
(cell, row, column and box item, in that order). Because ``M`` is a multiple of 4, the
node after ``p`` in its option is ``base + ((p + 1) & 3)`` with ``base = p - (p & 3)``.

The builder prunes by the givens: items the givens already satisfy start covered, and
options that clash with a given are never created. A clash
among the givens themselves, or a value above n, makes the puzzle INVALID before any
search.

Unlike the generic kernel, item lengths live in a separate contiguous ``size`` array
and there is no item list: covering an item adds ``_BIG`` to its length, and step X3
scans ``size`` for the minimum (stopping at a length of 0 or 1). For 4n^2 items this
linear scan beat walking a linked list of active items by 1.3-1.9x on sudoku17 and
top1465 here (same nodes visited; the list-walking version is commit 90e67cc), and it
makes covering an item cheaper (one add instead of two link updates).
"""

import numpy as np
from numba import njit, prange

from ..core.links import AUX, DOWN, ITEM, LINK_DTYPE, UP

# status codes (mirrored by numbadlx.sudoku.Status)
NOT_RUN = 0
UNIQUE = 1
SOLVED = 2
MULTIPLE = 3
NO_SOLUTION = 4
INVALID = 5
BUDGET = 6

_THREE = np.uint32(3)
# Added to the length of a covered (or given-satisfied) item, which takes it out of
# the minimum; lengths never reach it (at most n <= 36 options per item).
_BIG = np.uint32(1 << 20)


@njit(cache=True, nogil=True)
def allocate_work(n):
    """Work tables for n x n puzzles: ``(nodes, size, choice, used)``; ``nodes`` is
    ``(4, 4 n^2 + 4 n^3)`` (one row per field, as in :mod:`numbadlx.core.links`) and
    the links have the dtype :data:`~numbadlx.core.links.LINK_DTYPE`."""
    m = 4 * n * n
    nodes = np.zeros((4, m + 4 * n * n * n), dtype=LINK_DTYPE)
    size = np.zeros(m, dtype=np.uint32)
    choice = np.zeros(n * n + 1, dtype=LINK_DTYPE)
    used = np.zeros((3, n), dtype=np.uint64)
    return nodes, size, choice, used


@njit(cache=True, nogil=True)
def build(grid, n, box_rows, box_cols, nodes, size, used):
    """Link the pruned exact-cover problem of one puzzle into the work tables.

    Returns the number of options linked, or -1 if the givens are INVALID (a value
    above ``n`` or two equal givens in one row, column or box).
    """
    nn = n * n
    m = 4 * nn
    one = np.uint64(1)
    for k in range(n):
        used[0, k] = 0
        used[1, k] = 0
        used[2, k] = 0
    boxes_per_row = n // box_cols
    # givens: record them, detect clashes (nested loops: no division per cell)
    cell = 0
    for row in range(n):
        band = (row // box_rows) * boxes_per_row
        for col in range(n):
            v = grid[cell]
            if v != 0:
                if v > n:
                    return -1
                b = band + col // box_cols
                bit = one << np.uint64(v - 1)
                if (used[0, row] & bit) or (used[1, col] & bit) or (used[2, b] & bit):
                    return -1
                used[0, row] |= bit
                used[1, col] |= bit
                used[2, b] |= bit
            cell += 1
    # headers: empty circular lists; items the givens satisfy start covered
    for i in range(m):
        nodes[UP, i] = i
        nodes[DOWN, i] = i
        nodes[ITEM, i] = i
    for c in range(nn):
        size[c] = _BIG if grid[c] != 0 else 0
    i = nn
    for kind in range(3):
        for unit in range(n):
            mask = used[kind, unit]
            for d in range(n):
                size[i] = _BIG if (mask >> np.uint64(d)) & one else 0
                i += 1
    # options: every digit still free in the cell's row, column and box; the cell
    # node's AUX keeps the digit, for decoding
    p = m
    full = (one << np.uint64(n)) - one
    cell = 0
    for row in range(n):
        band = (row // box_rows) * boxes_per_row
        for col in range(n):
            if grid[cell] == 0:
                b = band + col // box_cols
                free = full & ~(used[0, row] | used[1, col] | used[2, b])
                d = 0
                while free:
                    if free & one:
                        for t in range(4):
                            if t == 0:
                                x = cell
                            elif t == 1:
                                x = nn + row * n + d
                            elif t == 2:
                                x = 2 * nn + col * n + d
                            else:
                                x = 3 * nn + b * n + d
                            q = p + t
                            tail = nodes[UP, x]
                            nodes[UP, q] = tail
                            nodes[DOWN, q] = x
                            nodes[ITEM, q] = x
                            nodes[DOWN, tail] = q
                            nodes[UP, x] = q
                            size[x] += 1
                        nodes[AUX, p] = d + 1
                        p += 4
                    free >>= one
                    d += 1
            cell += 1
    return (p - m) // 4


@njit(cache=True, nogil=True, inline="always")
def _cover(nodes, size, i):
    p = nodes[DOWN, i]
    while p != i:
        base = p - (p & _THREE)
        for t in range(1, 4):
            q = base + ((p + np.uint32(t)) & _THREE)
            x = nodes[ITEM, q]
            u = nodes[UP, q]
            d = nodes[DOWN, q]
            nodes[DOWN, u] = d
            nodes[UP, d] = u
            size[x] -= 1
        p = nodes[DOWN, p]
    size[i] += _BIG


@njit(cache=True, nogil=True, inline="always")
def _uncover(nodes, size, i):
    size[i] -= _BIG
    p = nodes[UP, i]
    while p != i:
        base = p - (p & _THREE)
        for t in range(3, 0, -1):
            q = base + ((p + np.uint32(t)) & _THREE)
            x = nodes[ITEM, q]
            u = nodes[UP, q]
            d = nodes[DOWN, q]
            nodes[DOWN, u] = q
            nodes[UP, d] = q
            size[x] += 1
        p = nodes[UP, p]


@njit(cache=True, nogil=True)
def search(nodes, size, choice, n, limit, max_nodes, grid, solution):
    """Algorithm X over the tables :func:`build` made; count solutions up to ``limit``.

    The first solution found is written into ``solution`` (the givens plus the digits
    chosen). Returns ``(count, nodes, guesses, complete)``: ``guesses`` counts the nodes
    whose item had two or more options left; ``complete`` is False when ``max_nodes``
    (> 0) stopped the search first.
    """
    nn = n * n
    m = 4 * nn
    level = 0
    count = 0
    visited = 0
    guesses = 0
    while True:
        # X2 [Enter level] and X3 [Choose i] in one scan: the item of minimum length,
        # first of equals, stopping at 0 or 1; none left uncovered means a solution.
        best = _BIG
        i = 0
        for t in range(m):
            s = size[t]
            if s < best:
                best = s
                i = t
                if s <= 1:
                    break
        if best == _BIG:
            # all items covered: a solution
            count += 1
            if count == 1:
                for cell in range(nn):
                    solution[cell] = grid[cell]
                for j in range(level):
                    base = choice[j] - (choice[j] & _THREE)
                    solution[nodes[ITEM, base]] = nodes[AUX, base]
            if count >= limit:
                return count, visited, guesses, True
            # X8 [Leave level l] then X6 [Try again] at the level below
            goto_x6 = True
        else:
            if max_nodes > 0 and visited >= max_nodes:
                return count, visited, guesses, False
            visited += 1
            if best >= 2:
                guesses += 1
            # X4 [Cover i]
            _cover(nodes, size, i)
            choice[level] = nodes[DOWN, i]
            goto_x6 = False
        while True:
            if goto_x6:
                # X8 [Leave level]
                if level == 0:
                    return count, visited, guesses, True
                level -= 1
                # X6 [Try again]: uncover the option's other items, walking left
                x = choice[level]
                base = x - (x & _THREE)
                for t in range(3, 0, -1):
                    _uncover(nodes, size, nodes[ITEM, base + ((x + np.uint32(t)) & _THREE)])
                choice[level] = nodes[DOWN, x]
            # X5 [Try x_l]
            x = choice[level]
            if x < m:
                # X7 [Backtrack]: back at the header of the item chosen at this level
                _uncover(nodes, size, x)
                goto_x6 = True
                continue
            base = x - (x & _THREE)
            for t in range(1, 4):
                _cover(nodes, size, nodes[ITEM, base + ((x + np.uint32(t)) & _THREE)])
            level += 1
            break


@njit(cache=True, nogil=True, inline="always")
def clear_result(k, solutions, counts, nodes, guesses):
    """Zero row ``k`` of the result arrays: what every engine's bulk loop leaves for a
    puzzle already INVALID, which it does not search."""
    counts[k] = 0
    nodes[k] = 0
    guesses[k] = 0
    for cell in range(solutions.shape[1]):
        solutions[k, cell] = 0


@njit(cache=True, nogil=True, inline="always")
def final_status(complete, count, limit):
    """The status of a finished search (every Sudoku engine's): BUDGET if it was cut
    short, else NO_SOLUTION, MULTIPLE, SOLVED (limit 1) or UNIQUE by the count."""
    if not complete:
        return BUDGET
    if count == 0:
        return NO_SOLUTION
    if count >= 2:
        return MULTIPLE
    return SOLVED if limit == 1 else UNIQUE


@njit(cache=True, nogil=True)
def solve_one(grid, n, box_rows, box_cols, limit, max_nodes, nodes, size, choice, used, solution):
    """Build and search one puzzle. Returns ``(status, count, nodes, guesses)``."""
    for cell in range(n * n):
        solution[cell] = 0
    if build(grid, n, box_rows, box_cols, nodes, size, used) < 0:
        return INVALID, 0, 0, 0
    count, visited, guesses, complete = search(
        nodes, size, choice, n, limit, max_nodes, grid, solution
    )
    return final_status(complete, count, limit), count, visited, guesses


@njit(cache=True, parallel=True, nogil=True)
def solve_bulk(
    puzzles,
    n,
    box_rows,
    box_cols,
    limit,
    max_nodes,
    chunk,
    solutions,
    status,
    counts,
    nodes_used,
    guesses,
):
    """Solve every row of ``puzzles`` into the preallocated result arrays.

    Rows whose ``status`` is already INVALID on entry are skipped (the Python side marks
    rows it could not read). Chunks of about ``chunk`` puzzles run in parallel, each
    with its own work tables, allocated once per chunk. Chunk ``c`` takes the rows
    ``c, c + n_chunks, c + 2 n_chunks, ...``: Numba hands each thread a contiguous run
    of chunks, and striding keeps a run of hard puzzles in a file (datasets are often
    sorted by difficulty) from landing on one thread. ``guesses`` receives each puzzle's
    branch points (nodes whose item had two or more options).
    """
    n_puzzles = puzzles.shape[0]
    n_chunks = (n_puzzles + chunk - 1) // chunk
    for c in prange(n_chunks):
        nodes, size, choice, used = allocate_work(n)
        for k in range(c, n_puzzles, n_chunks):
            if status[k] == INVALID:
                clear_result(k, solutions, counts, nodes_used, guesses)
                continue
            s, cnt, visited, guessed = solve_one(
                puzzles[k],
                n,
                box_rows,
                box_cols,
                limit,
                max_nodes,
                nodes,
                size,
                choice,
                used,
                solutions[k],
            )
            status[k] = s
            counts[k] = cnt
            nodes_used[k] = visited
            guesses[k] = guessed
