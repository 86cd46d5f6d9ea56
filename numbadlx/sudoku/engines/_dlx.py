"""Sudoku as exact cover, specialised: a per-puzzle link builder and Algorithm X (njit).

Items, for an n x n grid, numbered from the unit table
(:class:`~numbadlx.sudoku.geometry.UnitTable`: ``U`` units of ``n`` cells, rows,
columns and boxes first, and ``cell_units`` naming a cell's units; ``L`` links, pairs
of cells that may not share a digit):

* cell ``c`` holds a digit                          -> ``c``              (primary)
* unit ``u`` has digit ``d``                        -> ``n^2 + u * n + d``  (primary)
* link ``l``'s cells hold ``d`` at most once         -> ``P + l * n + d``   (secondary)
* the pad item, in no solution                      -> ``P + L n``

with ``P = n^2 + U n`` primary items and ``d`` the digit minus one. On classic grids
(``U = 3 n``, no links) row ``row``'s item for ``d`` is ``n^2 + row * n + d``, column
``col``'s ``2 n^2 + col * n + d`` and box ``b``'s ``3 n^2 + b * n + d``. Every option
("put digit d+1 in this cell") has the same number of nodes ``W``, a power of two (4 on
classic grids: cell, row, column, box), so the options need no spacers: item ``i``'s
header is node ``i`` (its ``ITEM`` slot holds the length), and option ``k``'s nodes
are ``F + W k .. F + W k + W - 1`` with ``F`` the header count rounded up to a
multiple of ``W``; the node after ``p`` in its option is ``base + ((p + 1) & (W - 1))``
with ``base = p - (p & (W - 1))``. A cell in fewer units or links than the widest
fills its option with nodes of the pad item, which is never covered (see
:func:`layout`). Secondary items are never chosen; covering an option covers them,
which removes the other cell's option of that digit.

The builder prunes by the givens: items the givens already satisfy start covered, and
options that clash with a given are never created. A clash
among the givens themselves, or a value above n, makes the puzzle INVALID before any
search.

Unlike the generic kernel, item lengths live in a separate contiguous ``size`` array
and there is no item list: covering an item adds ``_BIG`` to its length, and step X3
scans ``size`` (the primary items) for the minimum (stopping at a length of 0 or 1).
For 4n^2 items this linear scan beat walking a linked list of active items by 1.3-1.9x
on sudoku17 and top1465 here (same nodes visited; the list-walking version is commit
90e67cc), and it makes covering an item cheaper (one add instead of two link updates).
"""

import numpy as np
from numba import njit

from ...core.links import AUX, DOWN, ITEM, LINK_DTYPE, UP
from ._contract import INVALID, final_status, stop_requested
from ._loop import take_units

# Added to the length of a covered (or given-satisfied) item, which takes it out of
# the minimum; lengths never reach it (at most n <= 36 options per item).
_BIG = np.uint32(1 << 20)
# The stop flag is read at one node in 64 (a node is one item chosen: a few links)
_STOP_EVERY = 63
_THREE = np.uint32(3)


@njit(cache=True, nogil=True)
def layout(table):
    """``(primary, pad, width, first)``: the number of primary items, the pad item,
    the nodes of an option (a power of two) and the first option node (the header
    count, a multiple of ``width``) for the grids of ``table``. Classic grids need no
    pad item: ``first == primary == 4 n^2``."""
    n = table.n
    nn = n * n
    primary = nn + table.units.shape[0] * n
    pad = primary + table.links.shape[0] * n
    need = 1 + table.cell_units.shape[1] + table.cell_links.shape[1]
    width = 4
    while width < need:
        width *= 2
    if table.links.shape[0] == 0 and table.units.shape[0] == 3 * n and need == 4:
        return primary, pad, width, primary  # rows, columns, boxes: no pad item
    first = -(-(pad + 1) // width) * width
    return primary, pad, width, first


@njit(cache=True, nogil=True)
def allocate_work(table):
    """Work tables for the grids of ``table``: ``(nodes, size, choice, used)``;
    ``nodes`` is ``(4, first + width n^3)`` (one row per field, as in
    :mod:`numbadlx.core.links`, with :func:`layout`'s sizes) and the links have the
    dtype :data:`~numbadlx.core.links.LINK_DTYPE`."""
    n = table.n
    _, _, width, first = layout(table)
    nodes = np.zeros((4, first + width * n * n * n), dtype=LINK_DTYPE)
    size = np.zeros(first, dtype=np.uint32)
    choice = np.zeros(n * n + 1, dtype=LINK_DTYPE)
    used = np.zeros(table.units.shape[0], dtype=np.uint64)
    return nodes, size, choice, used


@njit(cache=True, nogil=True, inline="always")
def _option_item(cell_units, cell_links, cell, t, nn, n, d, primary, pad):
    """The item of node ``t`` (1 on) of the option "digit ``d + 1`` in ``cell``"."""
    k = t - 1
    if k < cell_units.shape[1]:
        u = cell_units[cell, k]
        if k > 0 and u == cell_units[cell, 0]:
            return pad  # the row's repeat that fills the cell's units
        return nn + u * n + d
    k -= cell_units.shape[1]
    if k < cell_links.shape[1]:
        link = cell_links[cell, k]
        if link >= 0:
            return primary + link * n + d
    return pad


@njit(cache=True, nogil=True)
def _build_classic(grid, table, nodes, size, used):
    """:func:`build` on classic grids (rows, columns and boxes only: options of four
    nodes, unrolled; the generic builder took twice as long on sudoku17)."""
    n = table.n
    cell_units = table.cell_units
    n_units = table.units.shape[0]
    nn = n * n
    m = 4 * nn
    one = np.uint64(1)
    for u in range(n_units):
        used[u] = 0
    # givens: record them in their units' masks, detect clashes
    for cell in range(nn):
        v = grid[cell]
        if v != 0:
            if v > n:
                return -1
            row = cell_units[cell, 0]
            col = cell_units[cell, 1]
            b = cell_units[cell, 2]
            bit = one << np.uint64(v - 1)
            if (used[row] | used[col] | used[b]) & bit:
                return -1
            used[row] |= bit
            used[col] |= bit
            used[b] |= bit
    # headers: empty circular lists; items the givens satisfy start covered
    for i in range(m):
        nodes[UP, i] = i
        nodes[DOWN, i] = i
        nodes[ITEM, i] = i
    for c in range(nn):
        size[c] = _BIG if grid[c] != 0 else 0
    i = nn
    for u in range(n_units):
        mask = used[u]
        for d in range(n):
            size[i] = _BIG if (mask >> np.uint64(d)) & one else 0
            i += 1
    # options: every digit still free in the cell's row, column and box; the cell
    # node's AUX keeps the digit, for decoding
    p = m
    full = (one << np.uint64(n)) - one
    for cell in range(nn):
        if grid[cell] == 0:
            row = cell_units[cell, 0]
            col = cell_units[cell, 1]
            b = cell_units[cell, 2]
            free = full & ~(used[row] | used[col] | used[b])
            d = 0
            while free:
                if free & one:
                    for t in range(4):
                        if t == 0:
                            x = cell
                        elif t == 1:
                            x = nn + row * n + d
                        elif t == 2:
                            x = nn + col * n + d
                        else:
                            x = nn + b * n + d
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
    return (p - m) // 4


@njit(cache=True, nogil=True)
def build(grid, table, nodes, size, used):
    """Link the pruned exact-cover problem of one puzzle into the work tables.

    Returns the number of options linked, or -1 if the givens are INVALID (a value
    above ``n``, two equal givens in one unit or in a linked pair).
    """
    n = table.n
    cell_units = table.cell_units
    links = table.links
    cell_links = table.cell_links
    n_units = table.units.shape[0]
    k_units = cell_units.shape[1]
    nn = n * n
    primary, pad, width, first = layout(table)
    if width == 4 and k_units == 3 and first == 4 * nn:
        return _build_classic(grid, table, nodes, size, used)
    one = np.uint64(1)
    for u in range(n_units):
        used[u] = 0
    # givens: record them in their units' masks, detect clashes
    for cell in range(nn):
        v = grid[cell]
        if v != 0:
            if v > n:
                return -1
            bit = one << np.uint64(v - 1)
            seen = np.uint64(0)
            for k in range(k_units):
                seen |= used[cell_units[cell, k]]
            if seen & bit:
                return -1
            for k in range(k_units):
                used[cell_units[cell, k]] |= bit
    for k in range(links.shape[0]):
        v = grid[links[k, 0]]
        if v != 0 and grid[links[k, 1]] == v:
            return -1
    # headers: empty circular lists; items the givens satisfy start covered
    for i in range(first):
        nodes[UP, i] = i
        nodes[DOWN, i] = i
        nodes[ITEM, i] = i
        size[i] = 0
    for c in range(nn):
        size[c] = _BIG if grid[c] != 0 else 0
    i = nn
    for u in range(n_units):
        mask = used[u]
        for d in range(n):
            size[i] = _BIG if (mask >> np.uint64(d)) & one else 0
            i += 1
    # options: every digit still free in the cell's units and links; the cell node's
    # AUX keeps the digit, for decoding
    p = first
    full = (one << np.uint64(n)) - one
    for cell in range(nn):
        if grid[cell] == 0:
            taken = np.uint64(0)
            for k in range(k_units):
                taken |= used[cell_units[cell, k]]
            for k in range(cell_links.shape[1]):
                link = cell_links[cell, k]
                if link < 0:
                    break
                other = grid[links[link, 0] + links[link, 1] - cell]
                if other != 0:
                    taken |= one << np.uint64(other - 1)
            free = full & ~taken
            d = 0
            while free:
                if free & one:
                    for t in range(width):
                        if t == 0:
                            x = cell
                        else:
                            x = _option_item(
                                cell_units, cell_links, cell, t, nn, n, d, primary, pad
                            )
                        q = p + t
                        tail = nodes[UP, x]
                        nodes[UP, q] = tail
                        nodes[DOWN, q] = x
                        nodes[ITEM, q] = x
                        nodes[DOWN, tail] = q
                        nodes[UP, x] = q
                        size[x] += 1
                    nodes[AUX, p] = d + 1
                    p += width
                free >>= one
                d += 1
    return (p - first) // width


@njit(cache=True, nogil=True, inline="always")
def _cover(nodes, size, i, width):
    mask = np.uint32(width - 1)
    p = nodes[DOWN, i]
    while p != i:
        base = p - (p & mask)
        for t in range(1, width):
            q = base + ((p + np.uint32(t)) & mask)
            x = nodes[ITEM, q]
            u = nodes[UP, q]
            d = nodes[DOWN, q]
            nodes[DOWN, u] = d
            nodes[UP, d] = u
            size[x] -= 1
        p = nodes[DOWN, p]
    size[i] += _BIG


@njit(cache=True, nogil=True, inline="always")
def _uncover(nodes, size, i, width):
    mask = np.uint32(width - 1)
    size[i] -= _BIG
    p = nodes[UP, i]
    while p != i:
        base = p - (p & mask)
        for t in range(width - 1, 0, -1):
            q = base + ((p + np.uint32(t)) & mask)
            x = nodes[ITEM, q]
            u = nodes[UP, q]
            d = nodes[DOWN, q]
            nodes[DOWN, u] = q
            nodes[UP, d] = q
            size[x] += 1
        p = nodes[UP, p]


@njit(cache=True, nogil=True)
def search(
    nodes, size, choice, n, limit, max_nodes, stop, grid, solution, primary, pad, width, first
):
    """Algorithm X over the tables :func:`build` made; count solutions up to ``limit``.

    ``primary, pad, width, first`` are :func:`layout`'s: the items from ``primary``
    on are secondary (never chosen; the links between cells), and the pad item is
    never covered. The first
    solution found is written into ``solution`` (the givens plus the digits chosen).
    Returns ``(count, nodes, guesses, complete)``: ``guesses`` counts the nodes whose
    item had two or more options left; ``complete`` is False when ``max_nodes`` (> 0)
    stopped the search first.
    """
    mask = np.uint32(width - 1)
    nn = n * n
    level = 0
    count = 0
    visited = 0
    guesses = 0
    while True:
        # X2 [Enter level] and X3 [Choose i] in one scan: the item of minimum length,
        # first of equals, stopping at 0 or 1; none left uncovered means a solution.
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
            # all items covered: a solution
            count += 1
            if count == 1:
                for cell in range(nn):
                    solution[cell] = grid[cell]
                for j in range(level):
                    base = choice[j] - (choice[j] & mask)
                    solution[nodes[ITEM, base]] = nodes[AUX, base]
            if count >= limit:
                return count, visited, guesses, True
            # X8 [Leave level l] then X6 [Try again] at the level below
            goto_x6 = True
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
            goto_x6 = False
        while True:
            if goto_x6:
                # X8 [Leave level]
                if level == 0:
                    return count, visited, guesses, True
                level -= 1
                # X6 [Try again]: uncover the option's other items, walking left
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
                # X7 [Backtrack]: back at the header of the item chosen at this level
                _uncover(nodes, size, x, width)
                goto_x6 = True
                continue
            base = x - (x & mask)
            for t in range(1, width):
                item = nodes[ITEM, base + ((x + np.uint32(t)) & mask)]
                if item != pad:
                    _cover(nodes, size, item, width)
            level += 1
            break


@njit(cache=True, nogil=True, inline="always")
def _cover4(nodes, size, i):
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
def _uncover4(nodes, size, i):
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
def _search_classic(nodes, size, choice, n, limit, max_nodes, stop, grid, solution):
    """:func:`search` on classic grids, with options of four nodes as constants (the
    general search, with the sizes as arguments, was 5-20% slower on top1465 and
    sudoku17)."""
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
            if visited & _STOP_EVERY == 0 and stop_requested(stop):
                return count, visited, guesses, False
            visited += 1
            if best >= 2:
                guesses += 1
            # X4 [Cover i]
            _cover4(nodes, size, i)
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
                    _uncover4(nodes, size, nodes[ITEM, base + ((x + np.uint32(t)) & _THREE)])
                choice[level] = nodes[DOWN, x]
            # X5 [Try x_l]
            x = choice[level]
            if x < m:
                # X7 [Backtrack]: back at the header of the item chosen at this level
                _uncover4(nodes, size, x)
                goto_x6 = True
                continue
            base = x - (x & _THREE)
            for t in range(1, 4):
                _cover4(nodes, size, nodes[ITEM, base + ((x + np.uint32(t)) & _THREE)])
            level += 1
            break


@njit(cache=True, nogil=True)
def solve_one(grid, table, limit, max_nodes, stop, work, solution):
    """Build and search one puzzle (the engines' contract, see :mod:`._contract`).
    Returns ``(status, count, nodes, guesses)``."""
    nodes, size, choice, used = work
    n = table.n
    for cell in range(n * n):
        solution[cell] = 0
    if build(grid, table, nodes, size, used) < 0:
        return INVALID, 0, 0, 0
    nn = n * n
    primary, pad, width, first = layout(table)
    # classic grids only: no pad item (a 2x2 Latin square also has first == 4 n^2)
    if width == 4 and first == 4 * nn and primary == first:
        count, visited, guesses, complete = _search_classic(
            nodes, size, choice, n, limit, max_nodes, stop, grid, solution
        )
    else:
        count, visited, guesses, complete = search(
            nodes,
            size,
            choice,
            n,
            limit,
            max_nodes,
            stop,
            grid,
            solution,
            primary,
            pad,
            width,
            first,
        )
    return final_status(complete, count, limit), count, visited, guesses


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def solve_units(
    puzzles,
    table,
    limit,
    max_nodes,
    stop,
    chunk,
    next_unit,
    solutions,
    status,
    counts,
    nodes,
    guesses,
):
    """The rows of ``puzzles`` in units of ``chunk`` rows taken from the shared counter
    ``next_unit`` until none is left, on the calling thread; calls made at once on
    several threads with one counter share the rows (see :mod:`._loop`)."""
    work = allocate_work(table)
    take_units(
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
    )
