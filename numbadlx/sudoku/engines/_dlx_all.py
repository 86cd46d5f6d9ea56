"""Every solution of a puzzle, up to a limit: the "dlx" engine's links, a search that
records each solution it meets (njit).

The engines' contract keeps only the first solution of a puzzle. This module keeps the
first ``limit``: it links a puzzle with the "dlx" engine's builder
(:func:`~._dlx.build`, the same pruned exact cover and the same items, see
:mod:`._dlx`) and runs Algorithm X over it with the same steps as
:func:`~._dlx.search` (X2..X8, the item of minimum length first), writing solution
``j`` (the givens plus the digits chosen) into row ``j`` of the puzzle's
``(limit, n*n)`` block. The solutions come in the search's order, so the block is the
same on every thread count.

The bulk kernels take the rows to search as a list (``rows``): the caller solves every
puzzle with a fast engine first and only hands over the puzzles with two or more
solutions. Threads take rows one at a time from a shared counter
(:func:`~._contract.fetch_add`); the stop flag is read at one node in 64, as in
:mod:`._dlx`, and a stopped puzzle keeps the solutions it found, as BUDGET.
"""

import numpy as np
from numba import njit, prange

from ...core.links import AUX, DOWN, ITEM
from ._contract import INVALID, fetch_add, final_status, stop_requested
from ._dlx import _BIG, _cover, _uncover, allocate_work, build, layout
from ._loop import lanes_for

_STOP_EVERY = 63


@njit(cache=True, nogil=True)
def record_search(nodes, size, choice, n, limit, max_nodes, stop, grid, out, layout_of):
    """Algorithm X over the tables :func:`~._dlx.build` made, recording up to ``limit``
    solutions into the rows of ``out`` (a ``(limit, n*n)`` block).

    ``layout_of`` is :func:`~._dlx.layout`'s ``(primary, pad, width, first)``.
    Returns ``(count, nodes, guesses, complete)`` as :func:`~._dlx.search` does.
    """
    primary, pad, width, first = layout_of
    mask = np.uint32(width - 1)
    nn = n * n
    level = 0
    count = 0
    visited = 0
    guesses = 0
    while True:
        # X2 [Enter level] and X3 [Choose i]: the first item of minimum length
        best = _BIG
        i = 0
        for t in range(primary):
            s = size[t]
            if s < best:
                best = s
                i = t
                if s <= 1:
                    break
        if best == _BIG:
            # every primary item covered: record the solution
            row = out[count]
            for cell in range(nn):
                row[cell] = grid[cell]
            for j in range(level):
                base = choice[j] - (choice[j] & mask)
                row[nodes[ITEM, base]] = nodes[AUX, base]
            count += 1
            if count >= limit:
                return count, visited, guesses, True
            backtrack = True
        else:
            if max_nodes > 0 and visited >= max_nodes:
                return count, visited, guesses, False
            if visited & _STOP_EVERY == 0 and stop_requested(stop):
                return count, visited, guesses, False
            visited += 1
            if best >= 2:
                guesses += 1
            # X4 [Cover i]
            _cover(nodes, size, i, width)
            choice[level] = nodes[DOWN, i]
            backtrack = False
        while True:
            if backtrack:
                # X8 [Leave level]
                if level == 0:
                    return count, visited, guesses, True
                level -= 1
                # X6 [Try again]: uncover the option's other items, right to left
                x = choice[level]
                base = x - (x & mask)
                for t in range(width - 1, 0, -1):
                    item = nodes[ITEM, base + ((x + np.uint32(t)) & mask)]
                    if item != pad:
                        _uncover(nodes, size, item, width)
                choice[level] = nodes[DOWN, x]
            # X5 [Try x_l]
            x = choice[level]
            if x < first:
                # X7 [Backtrack]: the chosen item's options are used up
                _uncover(nodes, size, x, width)
                backtrack = True
                continue
            base = x - (x & mask)
            for t in range(1, width):
                item = nodes[ITEM, base + ((x + np.uint32(t)) & mask)]
                if item != pad:
                    _cover(nodes, size, item, width)
            level += 1
            break


@njit(cache=True, nogil=True)
def record_one(grid, table, limit, max_nodes, stop, work, out):
    """Build and search one puzzle, recording up to ``limit`` solutions into ``out``
    (``(limit, n*n)``, zeroed first). Returns ``(status, count, nodes, guesses)`` with
    the statuses of every engine."""
    nodes, size, choice, used = work
    n = table.n
    for j in range(out.shape[0]):
        for cell in range(n * n):
            out[j, cell] = 0
    if build(grid, table, nodes, size, used) < 0:
        return INVALID, 0, 0, 0
    count, visited, guesses, complete = record_search(
        nodes, size, choice, n, limit, max_nodes, stop, grid, out, layout(table)
    )
    return final_status(complete, count, limit), count, visited, guesses


@njit(cache=True, nogil=True, inline="always")
def _record_rows(
    next_row, puzzles, rows, table, limit, max_nodes, stop, grids, status, counts, nodes, guesses
):
    """One thread's share: take the next entry of ``rows`` until none is left."""
    work = allocate_work(table)
    while True:
        k = fetch_add(next_row, 0, 1)
        if k >= rows.shape[0] or stop_requested(stop):
            break
        r = rows[k]
        s, cnt, visited, guessed = record_one(
            puzzles[r], table, limit, max_nodes, stop, work, grids[r]
        )
        status[r] = s
        counts[r] = cnt
        nodes[r] = visited
        guesses[r] = guessed


@njit(cache=True, nogil=True)
def record_serial(
    puzzles, rows, table, limit, max_nodes, stop, grids, status, counts, nodes, guesses
):
    """Rows ``rows`` of ``puzzles`` on the calling thread: up to ``limit`` solutions of
    row ``r`` into ``grids[r]`` (``(N, limit, n*n)``), its status, count, nodes and
    guesses into the other arrays. Rows not reached before a stop keep their values."""
    next_row = np.zeros(1, dtype=np.int64)
    _record_rows(
        next_row,
        puzzles,
        rows,
        table,
        limit,
        max_nodes,
        stop,
        grids,
        status,
        counts,
        nodes,
        guesses,
    )


@njit(cache=True, nogil=True, parallel=True)
def record_bulk(
    puzzles, rows, table, limit, max_nodes, stop, lanes, grids, status, counts, nodes, guesses
):
    """:func:`record_serial` on ``lanes`` threads, each taking the next row as it comes
    free."""
    next_row = np.zeros(1, dtype=np.int64)
    for _ in prange(lanes_for(rows.shape[0], 1, lanes)):
        _record_rows(
            next_row,
            puzzles,
            rows,
            table,
            limit,
            max_nodes,
            stop,
            grids,
            status,
            counts,
            nodes,
            guesses,
        )
