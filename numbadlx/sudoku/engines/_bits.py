"""Sudoku on candidate bit masks: the second engine beside the Dancing Links kernel.

Each cell keeps a ``uint64`` mask of the digits it may still hold (bit ``d`` for digit
``d + 1``; ``n <= 36`` fits easily) and bit 63, the contract's ``PLACED``, once its
digit is fixed and has been (or is queued to be) removed from its peers. Propagation runs the two
singles rules until they find nothing, then one round of locked candidates, and again
while that round places cells or the singles place more:

* **naked singles** - a placed digit leaves the other cells of its row, column and box;
  a cell left with one candidate is placed;
* **hidden singles** - a digit with one possible cell in a row, column or box is placed
  there (a digit with none is a contradiction);
* **locked candidates** - where a box meets a row (or column) in a segment: a digit
  whose only places in the box lie in one segment leaves the rest of that row
  (*pointing*), and a digit whose only places in the row lie in one box leaves the rest
  of that box (*claiming*). In exact-cover terms this is Knuth's reduction: every
  option of the box item also contains the row item, so the row's other options go.

What propagation cannot finish is searched depth first over an explicit stack of mask
copies (one per level, so backtracking is a copy, with no undo trail), branching by
minimum remaining values over both kinds of constraint: a cell with the fewest
candidates, or (up to 9x9) a digit with fewer places than that in one row, column or
box. A puzzle
the rules finish is never searched: it costs one pass over its givens plus the
propagation, with no per-candidate setup.

Counters: ``nodes`` counts propagated states (the givens' state plus one per digit
tried); ``guesses`` counts branch points, search levels with two or more candidates.
Statuses, result arrays and the kernels' signatures are the engines' contract
(:mod:`._contract`).

First use (a fresh process, an empty Numba cache, CPU seconds of one 16x16 ``solve``,
A/B in alternating rounds on a loaded 2-core machine): 6.77 s went to 5.31 s (25x25 7.02
to 5.57, 6x6 6.84 to 5.56). What paid: :func:`_settle` and :func:`_locks` are intrinsics
that emit the call themselves (an overload inlined with ``inline="always"`` is also
compiled by Numba as a function of its own, the propagation linked into it and optimised
once more: about 0.4 s); the helpers only kernels call have no Python or C entry point
(``inner_njit``); the serial kernel allocates its buffers through an inlined body rather
than compiling :func:`allocate_work`. What did not pay: inlining ``_start``,
``_choose``, or ``_singles`` and ``_hidden_singles`` (0.4-0.5 s *more* each: Numba
copies an inlined function's IR, deep-copying every block's variables, so a large body
costs more to inline than to compile and link); ``_locked`` as a callee rather than
inlined (0.3-0.4 s more); ``settle_singles`` called from :func:`propagate` rather than
inlined (no gain beyond the noise, top1465 0.6-1.9% slower); one flat search stack
instead of a 2-d one (one NumPy function less, no gain beyond the noise). Earlier:
``propagate``'s body inlined into the call, ``place`` and ``_remove`` as plain callees.
What is left is spread thin: of about 4.9 s compiling, LLVM takes some 1.7 (each
kernel's code is optimised again in every caller it is linked into), the copying of
inlined IR about 0.6 (``_locked`` into ``propagate`` 0.35, ``_search`` 0.16), typing
and lowering most of the rest; no function above 0.5 s of its own.
"""

import numpy as np
from numba import njit
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ..._compiling import inner_njit
from ._contract import INVALID, PLACED, final_status, popcount, stop_requested
from ._loop import take_units
from ._propagation import place, propagate, propagate_crossing

_ONE = np.uint64(1)
_DIGITS = ~PLACED


@njit(nogil=True, inline="always")
def _allocate(table):
    """The body of :func:`allocate_work`, inlined into the serial kernel (which then
    compiles no kernel of its own for it, optimised once more inside the loop)."""
    n = table.n
    nn = n * n
    masks = np.empty(nn, dtype=np.uint64)
    stack = np.empty((nn + 1, nn), dtype=np.uint64)
    stack_cell = np.empty(nn + 1, dtype=np.int64)
    stack_left = np.empty(nn + 1, dtype=np.uint64)
    stack_placed = np.empty(nn + 1, dtype=np.int64)
    queue = np.empty(nn, dtype=np.int32)
    n_units = table.units.shape[0]  # (no max(): one function less to compile)
    segments = np.empty(nn if nn >= n_units else n_units, dtype=np.uint64)
    return masks, stack, stack_cell, stack_left, stack_placed, queue, segments


@njit(cache=True, nogil=True)
def allocate_work(table):
    """One thread's work buffers for the grids of ``table``: ``(masks, stack,
    stack_cell, stack_left, stack_placed, queue, segments)``; the stack holds one mask
    copy per search level (at most ``n * n`` levels)."""
    return _allocate(table)


@inner_njit(cache=True, nogil=True)
def _start(grid, n, cell_units, n_units, links, cell_links, masks, queue, used):
    """Candidate masks of the givens' state. Returns ``(queued cells, givens)``, or
    ``(-1, 0)`` for INVALID givens (a value above n, two equal givens in a unit or
    linked) and ``(-2, 0)`` for a cell left with no digit. ``used`` (at least
    ``n_units`` long) is scratch space for the masks of the givens in each unit
    (numbered as in ``cell_units``, the unit table's)."""
    full = (_ONE << np.uint64(n)) - _ONE
    width = cell_units.shape[1]
    for k in range(n_units):
        used[k] = 0
    for cell in range(n * n):
        v = grid[cell]
        if v != 0:
            if v > n:
                return -1, 0
            bit = _ONE << np.uint64(v - 1)
            if width == 3:  # rows, columns, boxes: unrolled (a classic grid's hot path)
                row = cell_units[cell, 0]
                col = cell_units[cell, 1]
                b = cell_units[cell, 2]
                if (used[row] | used[col] | used[b]) & bit:
                    return -1, 0
                used[row] |= bit
                used[col] |= bit
                used[b] |= bit
                continue
            seen = np.uint64(0)
            for k in range(width):
                seen |= used[cell_units[cell, k]]
            if seen & bit:
                return -1, 0
            for k in range(width):
                used[cell_units[cell, k]] |= bit
    for k in range(links.shape[0]):
        v = grid[links[k, 0]]
        if v != 0 and grid[links[k, 1]] == v:
            return -1, 0
    tail = 0
    givens = 0
    for cell in range(n * n):
        v = grid[cell]
        if v != 0:
            masks[cell] = (_ONE << np.uint64(v - 1)) | PLACED
            givens += 1
        else:
            if width == 3:
                taken = (
                    used[cell_units[cell, 0]]
                    | used[cell_units[cell, 1]]
                    | used[cell_units[cell, 2]]
                )
            else:
                taken = np.uint64(0)
                for k in range(width):
                    taken |= used[cell_units[cell, k]]
            for k in range(cell_links.shape[1]):
                link = cell_links[cell, k]
                if link < 0:
                    break
                other = grid[links[link, 0] + links[link, 1] - cell]
                if other != 0:
                    taken |= _ONE << np.uint64(other - 1)
            m = full & ~taken
            if m == 0:
                return -2, 0
            if m & (m - _ONE) == 0:
                tail = place(masks, cell, m, queue, tail)
            else:
                masks[cell] = m
    return tail, givens


# Sizes on which the branch looks for a digit with few places in a unit. The scan costs
# about n^3 per branch: on 9x9 it cut forum_hardest_1106's time by a quarter, but above
# 9x9 it did not change one branch on the 16x16 set or on random grids of 10x10, 12x12
# and 16x16 with holes, and took 20-40% of their time.
#
# Only on classic tables: under rules that add units or peers (a crossing table) the
# branch is on cells alone. On 9x9 grids with 4 givens kept from a solution (40 per rule
# set, first solution, 300,000-node budget) the digit branch ran out of budget on 7 of 40
# anti-knight grids, 17 with both diagonals, 21 with windoku, 19 with the main diagonal,
# where cells alone ran out on 2 of all 400 (anti-knight plus both diagonals) and took
# 58 nodes on average under anti-knight, 52 under anti-king plus diagonals (7,526 with
# the digit branch), 46 under diagonals plus windoku (13,624); the empty grid under
# anti-knight and both diagonals went from over 1,000,000 nodes to 10,532 (0.03 s). On
# minimal puzzles (150 per rule set made by sudoku.generate) it is a wash: 18% fewer
# CPU seconds under anti-knight plus windoku, 15% under anti-knight plus diagonals, 13%
# more under diagonals plus windoku, 7% more under anti-king plus diagonals, the other
# rule sets (X, anti-knight, anti-king, windoku, disjoint groups, a jigsaw, 6x6 X)
# within 6%.
_UNITS_WEIGHED_UP_TO = 9

# Two-candidate cells weighed per branch (the rest are not looked at: on big grids
# weighing them all cost more than the guesses it saved)
_PAIRS_WEIGHED = 16


@inner_njit(cache=True, nogil=True)
def _choose(masks, n, peers, units, at_least, weigh_units):
    """What to branch on, Knuth's minimum remaining values over both kinds of
    constraint: an unplaced cell with the fewest candidates, or, if some digit has
    fewer places than that in a row, column or box, that digit (looked for up to 9x9
    and with ``weigh_units`` only: see :data:`_UNITS_WEIGHED_UP_TO`). Among cells with two
    candidates it takes the one with the most unplaced peers that share a candidate
    with it (whichever branch is taken, the most peers lose a candidate; on top1465
    this cut the guesses per puzzle from 18.8 to 10.6, on forum_hardest_1106 from 277
    to 158, against taking the first such cell; each peer counted once: a variant's
    peer rows are padded by repeating their last peer, and counting the copies took
    X-Sudokus to 1.3 times the nodes). Returns ``(what, left)``: a cell and
    its candidate mask, or ``-(unit * 64 + digit) - 1`` and the mask of the unit's
    members (by position in ``units``) that may hold the digit. ``at_least`` is
    scratch space (``n + 1`` long at least)."""
    best = 64
    chosen = 0
    pair = -1
    pair_weight = -1
    pairs_left = _PAIRS_WEIGHED
    for cell in range(n * n):
        m = masks[cell]
        if not m & PLACED:
            k = popcount(m)
            if k == 2:
                if pairs_left == 0:
                    break
                pairs_left -= 1
                weight = 0  # unplaced peers sharing a candidate
                last = -1
                for t in range(peers.shape[1]):
                    p = peers[cell, t]
                    if p == last:
                        break  # the row's padding: its last peer repeated
                    last = p
                    other = masks[p]
                    if not other & PLACED and other & m:
                        weight += 1
                if weight > pair_weight:
                    pair_weight = weight
                    pair = cell
            elif k < best:
                best = k
                chosen = cell
    if pair >= 0:
        return pair, masks[pair]
    if n > _UNITS_WEIGHED_UP_TO or not weigh_units:
        return chosen, masks[chosen]
    # at_least[j]: digits with at least j + 1 places in the unit (j < best)
    best_unit = -1
    best_digit = 0
    for u in range(units.shape[0]):
        for j in range(best):
            at_least[j] = 0
        for k in range(units.shape[1]):
            m = masks[units[u, k]]
            if m & PLACED:
                continue
            for j in range(best - 1, 0, -1):
                at_least[j] |= at_least[j - 1] & m
            at_least[0] |= m
        for j in range(1, best - 1):
            exactly = at_least[j] & ~at_least[j + 1]  # digits with j + 1 places
            if exactly:
                best = j + 1
                best_unit = u
                best_digit = trailing_zeros(exactly)
                break
        if best == 2:
            break
    if best_unit < 0:
        return chosen, masks[chosen]
    bit = _ONE << np.uint64(best_digit)
    left = np.uint64(0)
    for k in range(units.shape[1]):
        m = masks[units[best_unit, k]]
        if m & bit and not m & PLACED:
            left |= _ONE << np.uint64(k)
    return -(best_unit * 64 + best_digit) - 1, left


def _crosses(table):
    """Whether a table type (at compile time) is a crossing table."""
    return isinstance(table, types.BaseNamedTuple) and "crossings" in table.fields


# What _settle passes to each propagation: ("arg", k) is _settle's argument k (after
# the table), ("field", name) the table's field of that name.
_CLASSIC_ARGS = (
    ("arg", 0),  # masks
    ("field", "n"),
    ("field", "box_rows"),
    ("field", "box_cols"),
    ("field", "peers"),
    ("field", "units"),
    ("arg", 1),  # queue
    ("arg", 2),  # tail
    ("arg", 3),  # segments
    ("arg", 4),  # locked
    ("arg", 5),  # open_cells
)
_CROSSING_ARGS = _CLASSIC_ARGS[:9] + (
    ("field", "has_boxes"),
    ("field", "crossings"),
    ("field", "peer_bits"),
    ("field", "shared_from"),
    ("arg", 4),
    ("arg", 5),
)


@intrinsic
def _locks(typingctx, table):
    """Whether locked candidates run on ``table``: always on a crossing table, along
    boxes on a classic one (``table.has_boxes``); chosen when compiling. An intrinsic
    rather than an inlined overload, which Numba compiles as a function of its own
    besides inlining it."""

    def codegen(context, builder, signature, args):
        if _crosses(table):
            return context.get_constant(types.boolean, True)
        value = builder.extract_value(args[0], table.fields.index("has_boxes"))
        return context.cast(builder, value, table[table.fields.index("has_boxes")], types.boolean)

    return types.boolean(table), codegen


@intrinsic
def _weighs_units(typingctx, table):
    """Whether the branch weighs digits in units (see :data:`_UNITS_WEIGHED_UP_TO`):
    on a classic table, not on a crossing table; chosen when compiling."""

    def codegen(context, builder, signature, args):
        return context.get_constant(types.boolean, not _crosses(table))

    return types.boolean(table), codegen


@intrinsic
def _settle(typingctx, table, masks, queue, tail, segments, locked, open_cells):
    """:func:`propagate` on ``table``'s units, or :func:`propagate_crossing` on a
    crossing table, chosen when compiling (a classic table never compiles the crossing
    pass), with the table's fields as its arguments. An intrinsic that emits the call
    itself: an overload inlined into the search (``inline="always"``) is also compiled
    by Numba as a function of its own, with the propagation linked into it and optimised
    once more (about 0.4 s of a first 16x16 solve's 6)."""
    if not isinstance(table, types.BaseNamedTuple):
        return None
    target, spec = (
        (propagate_crossing, _CROSSING_ARGS) if _crosses(table) else (propagate, _CLASSIC_ARGS)
    )
    given = (masks, queue, tail, segments, locked, open_cells)
    kinds = [given[k] if what == "arg" else table[table.fields.index(k)] for what, k in spec]
    target_type = typingctx.resolve_value_type(target)
    target_sig = typingctx.resolve_function_type(target_type, tuple(kinds), {})
    if target_sig is None:
        return None

    def codegen(context, builder, signature, args):
        values = []
        for (what, k), kind, want in zip(spec, kinds, target_sig.args):
            if what == "arg":
                value = args[1 + k]
            else:
                value = builder.extract_value(args[0], table.fields.index(k))
            values.append(context.cast(builder, value, kind, want))
        call = context.get_function(target_type, target_sig)
        return call(builder, values)

    signature = target_sig.return_type(table, masks, queue, tail, segments, locked, open_cells)
    return signature, codegen


@njit(nogil=True, inline="always")
def _search(grid, table, limit, max_nodes, stop, work, solution):
    """The body of :func:`solve_one`, inlined into the serial kernel's loop: called
    there as a kernel of its own, its code (and that of everything it calls) would be
    optimised and compiled twice, once for it and once again inside the loop."""
    masks, stack, stack_cell, stack_left, stack_placed, queue, segments = work
    n = table.n
    peers = table.peers
    units = table.units
    locked = _locks(table)  # the locked candidates rule (along boxes, or crossings)
    weigh_units = _weighs_units(table)
    nn = n * n
    for cell in range(nn):
        solution[cell] = 0
    tail, givens = _start(
        grid,
        n,
        table.cell_units,
        units.shape[0],
        table.links,
        table.cell_links,
        masks,
        queue,
        segments,
    )
    if tail == -1:
        return INVALID, 0, 0, 0
    visited = 1
    guesses = 0
    count = 0
    complete = True
    level = 0
    placed = -1
    if tail >= 0:
        got = _settle(table, masks, queue, tail, segments, locked, nn - givens)
        if got >= 0:
            placed = givens + got
    dead_ends = 0
    while True:
        if placed == nn:
            count += 1
            if count == 1:
                for cell in range(nn):
                    solution[cell] = trailing_zeros(masks[cell] & _DIGITS) + 1
            if count >= limit:
                break
        elif placed >= 0:
            chosen, left = _choose(masks, n, peers, units, segments, weigh_units)
            guesses += 1
            for cell in range(nn):
                stack[level, cell] = masks[cell]
            stack_cell[level] = chosen
            stack_left[level] = left
            stack_placed[level] = placed
            level += 1
        # try the next digit at the deepest level that has one left
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
            level -= 1  # its last digit: the saved copy is no longer needed
        visited += 1
        chosen = stack_cell[top]
        if chosen >= 0:
            tail = place(masks, chosen, bit, queue, 0)
        else:
            # a digit's places in a unit: the bit is a member of the unit
            unit, digit = divmod(-chosen - 1, 64)
            cell = units[unit, trailing_zeros(bit)]
            tail = place(masks, cell, _ONE << np.uint64(digit), queue, 0)
        before = stack_placed[top]
        # below the root, locked candidates only once the search has met a dead end: a
        # puzzle whose first tries all lead to solutions (easy, or with many of them)
        # gains nothing from the pass, which costs about a third of a node on 16x16
        got = _settle(table, masks, queue, tail, segments, locked and dead_ends > 0, nn - before)
        placed = before + got if got >= 0 else -1
        if placed < 0:
            dead_ends += 1
    return final_status(complete, count, limit), count, visited, guesses


@njit(cache=True, nogil=True)
def solve_one(grid, table, limit, max_nodes, stop, work, solution):
    """Propagate and search one puzzle (the engines' contract, see :mod:`._contract`).
    Returns ``(status, count, nodes, guesses)``; the first solution found goes into
    ``solution``; ``max_nodes`` (> 0) bounds the states propagated."""
    return _search(grid, table, limit, max_nodes, stop, work, solution)


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
    work = _allocate(table)
    take_units(
        _search,
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
