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

The builder prunes by the givens: items the givens already satisfy are never put in
the active item list, and options that clash with a given are never created. A clash
among the givens themselves, or a value above n, makes the puzzle INVALID before any
search.

The item list (``items``: PREV, NEXT) is circular through the root ``M``.
"""

import numpy as np
from numba import njit, prange

from ._links import DOWN, ITEM, UP

# status codes (mirrored by numbadlx.sudoku.Status)
NOT_RUN = 0
UNIQUE = 1
SOLVED = 2
MULTIPLE = 3
NO_SOLUTION = 4
INVALID = 5
BUDGET = 6

_ONE = np.uint32(1)
_THREE = np.uint32(3)


def work_dtype(n):
    """Smallest unsigned dtype that indexes every node of an n x n puzzle."""
    return np.uint16 if 4 * n * n + 4 * n**3 < 2**16 else np.uint32


def allocate_work(n, dtype):
    """Per-thread work tables for n x n puzzles: ``(nodes, items, choice, used)``."""
    m = 4 * n * n
    nodes = np.zeros((m + 4 * n**3, 4), dtype=dtype)
    items = np.zeros((m + 1, 2), dtype=dtype)
    choice = np.zeros(n * n + 1, dtype=dtype)
    used = np.zeros((3, n), dtype=np.uint64)
    return nodes, items, choice, used


@njit(cache=True)
def build(grid, n, box_rows, box_cols, nodes, items, used):
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
    # givens: record them, detect clashes
    for cell in range(nn):
        v = grid[cell]
        if v == 0:
            continue
        if v > n:
            return -1
        row = cell // n
        col = cell - row * n
        b = (row // box_rows) * boxes_per_row + col // box_cols
        bit = one << np.uint64(v - 1)
        if (used[0, row] & bit) or (used[1, col] & bit) or (used[2, b] & bit):
            return -1
        used[0, row] |= bit
        used[1, col] |= bit
        used[2, b] |= bit
    # headers: empty circular lists of length 0
    for i in range(m):
        nodes[i, UP] = i
        nodes[i, DOWN] = i
        nodes[i, ITEM] = 0
    # active items, in order, linked through the root m
    last = m
    for i in range(m):
        kind = i // nn
        rest = i - kind * nn
        if kind == 0:
            satisfied = grid[rest] != 0
        else:
            unit = rest // n
            d = rest - unit * n
            satisfied = ((used[kind - 1, unit] >> np.uint64(d)) & one) != 0
        if not satisfied:
            items[last, 1] = i
            items[i, 0] = last
            last = i
    items[last, 1] = m
    items[m, 0] = last
    # options: every digit still free in the cell's row, column and box
    p = m
    full = (one << np.uint64(n)) - one
    for cell in range(nn):
        if grid[cell] != 0:
            continue
        row = cell // n
        col = cell - row * n
        b = (row // box_rows) * boxes_per_row + col // box_cols
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
                    tail = nodes[x, UP]
                    nodes[q, UP] = tail
                    nodes[q, DOWN] = x
                    nodes[q, ITEM] = x
                    nodes[tail, DOWN] = q
                    nodes[x, UP] = q
                    nodes[x, ITEM] += 1
                p += 4
            free >>= one
            d += 1
    return (p - m) // 4


@njit(cache=True, inline="always")
def _cover(nodes, items, i):
    p = nodes[i, DOWN]
    while p != i:
        base = p - (p & _THREE)
        for t in range(1, 4):
            q = base + ((p + np.uint32(t)) & _THREE)
            x = nodes[q, ITEM]
            u = nodes[q, UP]
            d = nodes[q, DOWN]
            nodes[u, DOWN] = d
            nodes[d, UP] = u
            nodes[x, ITEM] -= 1
        p = nodes[p, DOWN]
    left = items[i, 0]
    right = items[i, 1]
    items[left, 1] = right
    items[right, 0] = left


@njit(cache=True, inline="always")
def _uncover(nodes, items, i):
    left = items[i, 0]
    right = items[i, 1]
    items[left, 1] = i
    items[right, 0] = i
    p = nodes[i, UP]
    while p != i:
        base = p - (p & _THREE)
        for t in range(3, 0, -1):
            q = base + ((p + np.uint32(t)) & _THREE)
            x = nodes[q, ITEM]
            u = nodes[q, UP]
            d = nodes[q, DOWN]
            nodes[u, DOWN] = q
            nodes[d, UP] = q
            nodes[x, ITEM] += 1
        p = nodes[p, UP]


@njit(cache=True)
def search(nodes, items, choice, n, limit, max_nodes, grid, solution):
    """Algorithm X over the tables :func:`build` made; count solutions up to ``limit``.

    The first solution found is written into ``solution`` (the givens plus the digits
    chosen). Returns ``(count, nodes, complete)``: ``complete`` is False when
    ``max_nodes`` (> 0) stopped the search first.
    """
    nn = n * n
    m = 4 * nn
    root = m
    level = 0
    count = 0
    visited = 0
    # X2 [Enter level l]
    while True:
        if items[root, 1] == root:
            # all items covered: a solution
            count += 1
            if count == 1:
                for cell in range(nn):
                    solution[cell] = grid[cell]
                for j in range(level):
                    base = choice[j] - (choice[j] & _THREE)
                    cell = nodes[base, ITEM]
                    digit = (nodes[base + _ONE, ITEM] - nn) % n + 1
                    solution[cell] = digit
            if count >= limit:
                return count, visited, True
            # X8 [Leave level l] then X6 [Try again] at the level below
            goto_x6 = True
        else:
            if max_nodes > 0 and visited >= max_nodes:
                return count, visited, False
            visited += 1
            # X3 [Choose i]: minimum remaining values, a length <= 1 ends the scan
            i = items[root, 1]
            best = nodes[i, ITEM]
            p = items[i, 1]
            while p != root and best > 1:
                length = nodes[p, ITEM]
                if length < best:
                    best = length
                    i = p
                p = items[p, 1]
            # X4 [Cover i]
            _cover(nodes, items, i)
            choice[level] = nodes[i, DOWN]
            goto_x6 = False
        while True:
            if goto_x6:
                # X8 [Leave level]
                if level == 0:
                    return count, visited, True
                level -= 1
                # X6 [Try again]: uncover the option's other items, walking left
                x = choice[level]
                base = x - (x & _THREE)
                for t in range(3, 0, -1):
                    _uncover(nodes, items, nodes[base + ((x + np.uint32(t)) & _THREE), ITEM])
                choice[level] = nodes[x, DOWN]
            # X5 [Try x_l]
            x = choice[level]
            if x < m:
                # X7 [Backtrack]: back at the header of the item chosen at this level
                _uncover(nodes, items, x)
                goto_x6 = True
                continue
            base = x - (x & _THREE)
            for t in range(1, 4):
                _cover(nodes, items, nodes[base + ((x + np.uint32(t)) & _THREE), ITEM])
            level += 1
            break


@njit(cache=True)
def solve_one(grid, n, box_rows, box_cols, limit, max_nodes, nodes, items, choice, used,
              solution):
    """Build and search one puzzle. Returns ``(status, count, nodes)``."""
    for cell in range(n * n):
        solution[cell] = 0
    if build(grid, n, box_rows, box_cols, nodes, items, used) < 0:
        return INVALID, 0, 0
    count, visited, complete = search(nodes, items, choice, n, limit, max_nodes, grid,
                                      solution)
    if not complete:
        status = BUDGET
    elif count == 0:
        status = NO_SOLUTION
    elif count >= 2:
        status = MULTIPLE
    elif limit == 1:
        status = SOLVED
    else:
        status = UNIQUE
    return status, count, visited


@njit(cache=True, parallel=True)
def solve_bulk(puzzles, n, box_rows, box_cols, limit, max_nodes, chunk, dtype_sample,
               solutions, status, counts, nodes_used):
    """Solve every row of ``puzzles`` into the preallocated result arrays.

    Rows whose ``status`` is already INVALID on entry are skipped (the Python side marks
    rows it could not read). Chunks of ``chunk`` puzzles run in parallel, each with its
    own work tables, allocated once per chunk.
    """
    n_puzzles = puzzles.shape[0]
    n_chunks = (n_puzzles + chunk - 1) // chunk
    nn = n * n
    m = 4 * nn
    for c in prange(n_chunks):
        nodes = np.zeros((m + 4 * n * nn, 4), dtype=dtype_sample.dtype)
        items = np.zeros((m + 1, 2), dtype=dtype_sample.dtype)
        choice = np.zeros(nn + 1, dtype=dtype_sample.dtype)
        used = np.zeros((3, n), dtype=np.uint64)
        stop = min(n_puzzles, (c + 1) * chunk)
        for k in range(c * chunk, stop):
            if status[k] == INVALID:
                counts[k] = 0
                nodes_used[k] = 0
                for cell in range(nn):
                    solutions[k, cell] = 0
                continue
            s, cnt, visited = solve_one(puzzles[k], n, box_rows, box_cols, limit,
                                        max_nodes, nodes, items, choice, used,
                                        solutions[k])
            status[k] = s
            counts[k] = cnt
            nodes_used[k] = visited
