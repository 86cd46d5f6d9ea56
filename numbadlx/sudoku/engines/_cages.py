"""Sudoku with constraint rules on candidate bit masks: cages, thermos, pairs, odd/even.

The engine keeps the "bits" engine's state (one ``uint64`` mask per cell, the
contract's ``PLACED`` bit once a digit is fixed) and its propagation (naked and hidden
singles over the units, :func:`~._propagation.propagate`), and adds one pass over the
constraint rules, repeated with the singles until neither changes a mask:

* **cages** - a digit placed in a cage leaves its other cells (distinct digits); for a
  cage with a total, each digit set of its size that reaches the total (``combos``, made
  once in Python; where the cage meets a quadruple, only the sets that leave room for
  its listed digits) survives while it holds the cage's placed digits and its other
  digits lie among the candidates of the open cells; the open cells keep the union
  of the surviving sets (this is also the min/max bound on the sum), and a digit in
  every surviving set with one open cell left for it is placed there;
* **pairs** - a relation between two cells (white or black dot, X, V, not
  consecutive, greater, whispers, palindromes, entropic and modular lines, the
  negative constraint; see :mod:`._rule_tables`): a candidate of one cell stays while
  some candidate of the other is allowed beside it (``relation[r, d]``: the digits
  the first cell may hold beside digit ``d + 1`` in the second, row ``pair_rel``; the
  second cell's row is ``pair_back``); two relations meeting in a cell, towards two
  peers, are checked together (:mod:`._relations`);
* **sums** - linear sums with coefficients (arrows, little killers, region-sum and
  zipper lines), bounds, exact support and the digits a group of peers on a sum
  needs: :mod:`._sums`; and a region-sum line's
  segments by the totals they all reach: :mod:`._line_totals`;
* **thermos** - strictly increasing from the bulb: each cell keeps the digits above
  the smallest candidate of the cell before and below the largest of the cell after;
* **odd/even, candidates** - a mask of allowed digits per cell, applied once to the
  givens' state; extra regions are more peers (and units when they hold ``n`` cells);
* **outside clues, lines, quadruples** (sandwiches, x-sums, skyscrapers, between and
  lockout lines, quadruples, renbans) - the propagators of :mod:`._line_rules`;

and, with thermometers or ordering pairs (``greater``, minimums, maximums), the bounds
of :mod:`._ordering` (a cell above ``k`` cells of one unit along those steps exceeds
``k`` distinct digits).

What propagation does not finish is searched depth first over an explicit stack of
mask copies. Where pairs, thermometers or region-sum lines link cells (on the published
"Region sum lines", probing took 272,195 nodes to 10,244), the state is probed before each
branch of the search's first four levels (:mod:`._probing`): each candidate of each
cell with at most four is tried, and one that propagates to a contradiction goes
(deeper, where the subtrees are small, probing cost more than it saved on inequality
Sudokus; on the killers, cages only, it saved no time at all). The branch is on an
open cell with the fewest candidates, ties going to the cell whose probes placed the
most, then to the cell most pair, thermometer, line and sum links touch.

The ``table`` of this engine is a :class:`~._constraint_tables.ConstraintTable`
(:func:`~._constraint_tables.constraint_table`): the unit table's fields and the rule
arrays, its cages including those the sums imply (innies and outies of each unit)::

    n, box_rows, box_cols, units, peers, cell_units     as the unit table's
    locked                 bool: the grid keeps the boxes of its box shape (locked
                           candidates hold)
    allowed     (n*n,)     uint64: digits each cell may hold (odd/even)
    cage_start  (C+1,)     int32: cage k's cells are cage_cells[cage_start[k]:...]
    cage_cells             int32
    combo_start (C+1,)     int32: cage k's digit sets are combos[combo_start[k]:...]
    combos                 uint64: a cage without a total has none (distinct only)
    cage_total  (C,)       int32: the total, or -1 for none
    thermo_start (T+1,)    int32, thermo_cells int32: bulb first
    pair_a, pair_b, pair_rel, pair_back (Q,) int32: the two cells and the rows
    relation    (R, n)     uint64
    sum_start, sum_cells, sum_coef, sum_group, sum_total, sum_exact: see _sums
    tri_mid, tri_a, tri_b, tri_ra, tri_rb: see _relations
    line_kind, line_number, line_start, line_cells, line_need: the outside clues,
                           lines and quadruples (a LineTable's fields, _line_tables)
    total_line, total_seg, total_cells: region-sum lines' segments, _line_totals

Statuses: INVALID for a value above n or two equal givens that are peers (in a unit
or in a cage); a given that breaks another rule (an odd cell holding 4, a cage sum,
a dot) is a puzzle without a solution (NO_SOLUTION). Counters as the "bits" engine's:
``nodes`` counts propagated states, ``guesses`` branch points.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..._compiling import inner_njit
from ._cage_pass import cage_pass
from ._contract import INVALID, NO_SOLUTION, PLACED, final_status, popcount, stop_requested
from ._line_rules import line_rules
from ._line_totals import propagate_totals
from ._loop import take_units
from ._ordering import order_groups, settle_ordered
from ._probing import probe, rule_degree
from ._propagation import place, propagate
from ._relations import propagate_triples
from ._sums import propagate_sums

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_DIGITS = ~PLACED
# probing tries the cells with at most this many candidates: with pair or thermometer
# links, and with cages only (none: on the killers probes cost what the guesses they
# saved cost, and a little more)
_WIDEST_LINKED = 4
_WIDEST = 0
_PROBED_LEVELS = 4  # probing runs at the search's first levels only, where a guess costs most
_NO_BUDGET = 1 << 62


@njit(cache=True, nogil=True)
def allocate_work(table):
    """One thread's buffers: ``(masks, stack, stack_cell, stack_left, stack_placed,
    queue, segments, degree, score, groups, links)``, one mask copy per search level (at
    most ``n * n``); the search's per-table data made once here: the rule links of each
    cell and their count (:func:`._probing.rule_degree`), the ordering groups
    (:func:`._ordering.order_groups`), and the probes' scores."""
    nn = table.n * table.n
    masks = np.empty(nn, dtype=np.uint64)
    stack = np.empty((nn + 1, nn), dtype=np.uint64)
    stack_cell = np.empty(nn + 1, dtype=np.int64)
    stack_left = np.empty(nn + 1, dtype=np.uint64)
    stack_placed = np.empty(nn + 1, dtype=np.int64)
    queue = np.empty(nn, dtype=np.int32)
    segments = np.empty(nn, dtype=np.uint64)
    degree = np.empty(nn, dtype=np.int32)
    links = rule_degree(table, degree)
    score = np.zeros(nn, dtype=np.int64)
    groups = order_groups(table)
    return (
        masks,
        stack,
        stack_cell,
        stack_left,
        stack_placed,
        queue,
        segments,
        degree,
        score,
        groups,
        links,
    )


@njit(cache=True, nogil=True, inline="always")
def _restrict(masks, cell, allowed, queue, tail):
    """Keep only the digits of ``allowed`` in ``cell``. Returns ``(tail, state)``:
    state -1 when the cell is left without a digit (or a placed cell's digit is not
    allowed), 1 for a change, 0 for none; a cell left with one digit is placed."""
    m = masks[cell]
    if m & PLACED:
        if m & allowed & _DIGITS:
            return tail, 0
        return tail, -1
    kept = m & allowed
    if kept == m:
        return tail, 0
    if kept == 0:
        return tail, -1
    if kept & (kept - _ONE) == 0:
        return place(masks, cell, kept, queue, tail), 1
    masks[cell] = kept
    return tail, 1


@inner_njit(cache=True, nogil=True)
def _support(mask, relation, r):
    """The digits allowed beside some digit of ``mask`` by relation ``r``."""
    out = _ZERO
    m = mask & _DIGITS
    while m:
        bit = m & (~m + _ONE)
        m ^= bit
        out |= relation[r, trailing_zeros(bit)]
    return out


@inner_njit(cache=True, nogil=True)
def _pairs(masks, table, queue, tail):
    """The relations between two cells. Returns ``(tail, state)``."""
    changed = 0
    relation = table.relation
    for q in range(table.pair_a.shape[0]):
        a = table.pair_a[q]
        b = table.pair_b[q]
        r = table.pair_rel[q]
        tail, state = _restrict(masks, a, _support(masks[b], relation, r), queue, tail)
        if state < 0:
            return tail, -1
        changed |= state
        back = table.pair_back[q]
        tail, state = _restrict(masks, b, _support(masks[a], relation, back), queue, tail)
        if state < 0:
            return tail, -1
        changed |= state
    return tail, changed


@inner_njit(cache=True, nogil=True)
def _thermos(masks, table, queue, tail):
    """Strictly increasing lines, bulb first. Returns ``(tail, state)``."""
    changed = 0
    start = table.thermo_start
    cells = table.thermo_cells
    for t in range(start.shape[0] - 1):
        # upward: above the smallest candidate of the cell before
        for k in range(start[t] + 1, start[t + 1]):
            low = trailing_zeros(masks[cells[k - 1]] & _DIGITS)
            above = ~((_ONE << np.uint64(low + 1)) - _ONE) & _DIGITS
            tail, state = _restrict(masks, cells[k], above, queue, tail)
            if state < 0:
                return tail, -1
            changed |= state
        # downward: below the largest candidate of the cell after
        for k in range(start[t + 1] - 2, start[t] - 1, -1):
            high = 63 - leading_zeros(masks[cells[k + 1]] & _DIGITS)
            below = (_ONE << np.uint64(high)) - _ONE
            tail, state = _restrict(masks, cells[k], below, queue, tail)
            if state < 0:
                return tail, -1
            changed |= state
    return tail, changed


@inner_njit(cache=True, nogil=True)
def _settle(masks, table, queue, tail, segments, open_cells):
    """Singles and the constraint pass, in turn, until neither changes a mask. Returns
    the number of cells placed (the ``tail`` queued ones included) or -1 for a
    contradiction. Runs the constraint pass at least once, so a grid the singles fill
    is checked against every rule."""
    placed = 0
    seen = np.full(table.cage_start.shape[0] - 1, -1, dtype=np.int64)
    while True:
        got = propagate(
            masks,
            table.n,
            table.box_rows,
            table.box_cols,
            table.peers,
            table.units,
            queue,
            tail,
            segments,
            table.locked,
            open_cells - placed,
        )
        if got < 0:
            return -1
        placed += got
        # each pass only where the table has its rules: a call that takes the table
        # counts a reference to each of its arrays in and out, which costs more than a
        # pass over nothing
        tail = 0
        s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0
        if table.cage_total.shape[0]:
            tail, s1 = cage_pass(
                masks,
                table.cage_start,
                table.cage_cells,
                table.combo_start,
                table.combos,
                table.cage_total,
                queue,
                tail,
                seen,
            )
            if s1 < 0:
                return -1
        if table.pair_a.shape[0]:
            tail, s2 = _pairs(masks, table, queue, tail)
            if s2 < 0:
                return -1
        if table.thermo_start.shape[0] > 1:
            tail, s3 = _thermos(masks, table, queue, tail)
            if s3 < 0:
                return -1
        if table.sum_total.shape[0]:
            tail, s4 = propagate_sums(
                masks,
                table.peers,
                table.sum_start,
                table.sum_cells,
                table.sum_coef,
                table.sum_group,
                table.sum_total,
                table.sum_exact,
                queue,
                tail,
            )
            if s4 < 0:
                return -1
        if table.tri_mid.shape[0]:
            tail, s5 = propagate_triples(masks, table, queue, tail)
            if s5 < 0:
                return -1
        if table.line_kind.shape[0]:
            tail, s6 = line_rules(masks, table, queue, tail)
            if s6 < 0:
                return -1
        if table.total_line.shape[0] > 1:
            tail, s7 = propagate_totals(
                masks, table.n, table.total_line, table.total_seg, table.total_cells, queue, tail
            )
            if s7 < 0:
                return -1
        if tail == 0 and (s1 | s2 | s3 | s4 | s5 | s6 | s7) == 0:
            return placed


@inner_njit(cache=True, nogil=True)
def _start(grid, table, masks, queue):
    """Candidate masks of the givens' state. Returns ``(queued cells, givens)``;
    ``(-1, 0)`` for INVALID givens, ``(-2, 0)`` for a dead end already."""
    n = table.n
    peers = table.peers
    full = (_ONE << np.uint64(n)) - _ONE
    for cell in range(n * n):
        v = grid[cell]
        if v > n:
            return -1, 0
        if v != 0:
            for k in range(peers.shape[1]):
                if grid[peers[cell, k]] == v:
                    return -1, 0
    for c in range(table.cage_start.shape[0] - 1):
        seen = _ZERO
        for k in range(table.cage_start[c], table.cage_start[c + 1]):
            v = grid[table.cage_cells[k]]
            if v != 0:
                bit = _ONE << np.uint64(v - 1)
                if seen & bit:
                    return -1, 0
                seen |= bit
    tail = 0
    givens = 0
    dead = False
    for cell in range(n * n):
        v = grid[cell]
        if v != 0:
            bit = _ONE << np.uint64(v - 1)
            masks[cell] = bit | PLACED
            givens += 1
            if not bit & table.allowed[cell]:
                dead = True
    if dead:
        return -2, 0
    for cell in range(n * n):
        if grid[cell] != 0:
            continue
        m = full & table.allowed[cell]
        for k in range(peers.shape[1]):
            v = grid[peers[cell, k]]
            if v != 0:
                m &= ~(_ONE << np.uint64(v - 1))
        if m == 0:
            return -2, 0
        if m & (m - _ONE) == 0:
            tail = place(masks, cell, m, queue, tail)
        else:
            masks[cell] = m
    return tail, givens


@inner_njit(cache=True, nogil=True)
def _choose(masks, nn, degree, score):
    """An open cell with the fewest candidates; among those, the one whose probes
    placed the most cells (``score``, the product over its candidates of one more than
    the cells each probe placed, see :func:`._probing.probe`), then the one the most
    rule links touch (``degree``, :func:`._probing.rule_degree`), then the first."""
    best = 65
    best_score = -1
    best_degree = -1
    chosen = 0
    for cell in range(nn):
        m = masks[cell]
        if m & PLACED:
            continue
        k = popcount(m)
        if k > best:
            continue
        if k == best:
            if score[cell] < best_score:
                continue
            if score[cell] == best_score and degree[cell] <= best_degree:
                continue
        best = k
        best_score = score[cell]
        best_degree = degree[cell]
        chosen = cell
    return chosen


@njit(cache=True, nogil=True)
def solve_one(grid, table, limit, max_nodes, stop, work, solution):
    """Propagate and search one puzzle (the engines' contract, see :mod:`._contract`).
    Returns ``(status, count, nodes, guesses)``; the first solution goes into
    ``solution``; ``max_nodes`` (> 0) bounds the states propagated."""
    masks, stack, stack_cell, stack_left, stack_placed, queue, segments = work[:7]
    degree, score, groups, links = work[7:]
    nn = table.n * table.n
    for cell in range(nn):
        solution[cell] = 0
    tail, givens = _start(grid, table, masks, queue)
    if tail == -1:
        return INVALID, 0, 0, 0
    if tail == -2:
        return NO_SOLUTION, 0, 1, 0
    visited = 1
    guesses = 0
    count = 0
    complete = True
    level = 0
    placed = -1
    widest = _WIDEST_LINKED if links > 0 else _WIDEST
    got = settle_ordered(_settle, masks, table, groups, queue, tail, segments, nn - givens)
    if got >= 0:
        placed = givens + got
    while True:
        if 0 <= placed < nn and widest > 0:
            budget = max_nodes - visited if max_nodes > 0 else _NO_BUDGET
            got, probes = probe(
                _settle,
                masks,
                table,
                groups,
                queue,
                segments,
                stack[level],
                score,
                nn - placed,
                widest if level < _PROBED_LEVELS else 0,
                budget,
                stop,
            )
            visited += probes
            placed = placed + got if got >= 0 else -1
        if placed == nn:
            count += 1
            if count == 1:
                for cell in range(nn):
                    solution[cell] = trailing_zeros(masks[cell] & _DIGITS) + 1
            if count >= limit:
                break
        elif placed >= 0:
            chosen = _choose(masks, nn, degree, score)
            guesses += 1
            for cell in range(nn):
                stack[level, cell] = masks[cell]
            stack_cell[level] = chosen
            stack_left[level] = masks[chosen]
            stack_placed[level] = placed
            level += 1
        if level == 0:
            break
        if (max_nodes > 0 and visited >= max_nodes) or stop_requested(stop):
            complete = False
            break
        top = level - 1
        left = stack_left[top]
        bit = left & (~left + _ONE)
        left ^= bit
        stack_left[top] = left
        for cell in range(nn):
            masks[cell] = stack[top, cell]
        if left == 0:
            level -= 1
        visited += 1
        tail = place(masks, stack_cell[top], bit, queue, 0)
        before = stack_placed[top]
        got = settle_ordered(_settle, masks, table, groups, queue, tail, segments, nn - before)
        placed = before + got if got >= 0 else -1
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
