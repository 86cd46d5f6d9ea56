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
box. Under rules that add units or peers, a search on cells alone and one that weighs
digits too take turns, each for a doubling number of nodes, until one is over. A puzzle
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
``choose``, or ``_singles`` and ``_hidden_singles`` (0.4-0.5 s *more* each: Numba
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
from ._bits_choose import choose
from ._contract import INVALID, PLACED, final_status, stop_requested
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


# On a crossing table the search branches on cells alone for at most this many nodes;
# then a search that also weighs digits in units (see _bits_choose.choose) gets an eighth of that
# (2 ** -_DIGIT_SHARE), from the givens; then the first resumes for twice as many, the
# second starts again with twice its share, and so on, until one of them is over. Each
# kind wins where the other is lost: on the empty 9x9 grid under anti-knight and both
# diagonals cells alone find a solution in 10,532 nodes where the digit branch passed
# 1,000,000; under anti-knight, anti-king and both diagonals the digit branch proves in
# 164 nodes that there is none, where cells alone passed 300,000 (16,549 nodes and
# 0.03 s with the turns). On 400 grids with 4 givens (40 for each of ten rule sets) the
# turns cost 2% more nodes (616,387 against 604,094, on the hardest anti-knight grids);
# a classic table keeps its one search (the same nodes and guesses on every classic set;
# its first use compiles about 0.8 CPU s more, 4.9 against 4.1 on a 9x9 grid, whether
# the search loop is inlined, as now, or called, or chosen per table when compiling).
_FIRST_RUN = 16_384
_DIGIT_SHARE = 3
_NO_CAP = 1 << 62


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
    """Whether the first search weighs digits in units (see
    :data:`._bits_choose._UNITS_WEIGHED_UP_TO`): on a classic table; not on a crossing
    table, where a search that does takes turns with it; chosen when compiling."""

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
def _descend(
    table,
    masks,
    queue,
    segments,
    stack,
    stack_cell,
    stack_left,
    stack_placed,
    level,
    count,
    dead_ends,
    visited,
    guesses,
    found,
    placed,
    digits,
    cap,
    limit,
    max_nodes,
    stop,
    solution,
):
    """One search from its saved state: its stacks, its depth (``level``), the
    solutions it has met (``count``) and its dead ends, the call's nodes
    (``visited``), ``guesses`` and most solutions one search has met (``found``),
    and ``placed``, the cells the state in ``masks`` has placed (-1: none to take,
    the search resumes at its next digit). Branches with :func:`~._bits_choose.choose`
    (``digits``: weighing digits in units too). Returns ``(out, level, count,
    dead_ends, visited, guesses, found)``, ``out`` 0 once the search is over (every
    branch tried, or ``limit`` solutions met), 1 when it stops for the node budget or
    a stop request, 2 when it has passed ``cap`` more nodes (it may be resumed). (The
    state goes in and out as numbers, not in an array allocated once a puzzle; inlined
    into its one caller.)"""
    n = table.n
    nn = n * n
    units = table.units
    locked = _locks(table)
    until = visited + cap
    out = 0
    while True:
        if placed == nn:
            count += 1
            if count > found:
                found = count
                if count == 1:  # the first solution any search of the call meets
                    for cell in range(nn):
                        solution[cell] = trailing_zeros(masks[cell] & _DIGITS) + 1
            if count >= limit:
                break
        elif placed >= 0:
            chosen, left = choose(masks, n, table.peers, units, segments, digits)
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
            out = 1
            break
        if visited >= until:
            out = 2
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
    return out, level, count, dead_ends, visited, guesses, found


@njit(nogil=True, inline="always")
def _search(grid, table, limit, max_nodes, stop, work, solution):
    """The body of :func:`solve_one`, inlined into the serial kernel's loop: called
    there as a kernel of its own, its code (and that of everything it calls) would be
    optimised and compiled twice, once for it and once again inside the loop.

    On a classic table one search branches as :func:`~._bits_choose.choose` says. On a
    crossing table a search on cells alone and one that also weighs digits in units
    take turns (see :data:`_FIRST_RUN`) until one of them is over."""
    masks, stack, stack_cell, stack_left, stack_placed, queue, segments = work[:7]
    n = table.n
    nn = n * n
    for cell in range(nn):
        solution[cell] = 0
    digits = _weighs_units(table)  # a classic table's one search weighs digits
    cap = _NO_CAP if digits else _FIRST_RUN
    visited = 0
    guesses = 0
    found = 0
    level = count = dead_ends = 0  # the search on cells
    their_level = their_count = their_dead_ends = 0  # the search on digits
    other = (stack, stack_cell, stack_left, stack_placed)  # its stacks, once it runs
    turn = False  # whether the search on digits runs
    ready = False  # whether its stacks are made
    fresh = True
    placed = -1
    while True:
        if fresh:
            # the givens' state (the first search's, or the digits' search's anew)
            fresh = False
            visited += 1
            tail, givens = _start(
                grid,
                n,
                table.cell_units,
                table.units.shape[0],
                table.links,
                table.cell_links,
                masks,
                queue,
                segments,
            )
            if tail == -1:
                return INVALID, 0, 0, 0
            placed = -1
            if tail >= 0:
                got = _settle(table, masks, queue, tail, segments, _locks(table), nn - givens)
                if got >= 0:
                    placed = givens + got
            if visited == 1 and (placed < 0 or placed == nn):
                # settled at the root (most puzzles of a big file): no search to run
                if placed == nn:
                    for cell in range(nn):
                        solution[cell] = trailing_zeros(masks[cell] & _DIGITS) + 1
                    return final_status(True, 1, limit), 1, 1, 0
                return final_status(True, 0, limit), 0, 1, 0
        s0, s1, s2, s3 = other if turn else (stack, stack_cell, stack_left, stack_placed)
        out, at, met, dead, visited, guesses, found = _descend(
            table,
            masks,
            queue,
            segments,
            s0,
            s1,
            s2,
            s3,
            their_level if turn else level,
            their_count if turn else count,
            their_dead_ends if turn else dead_ends,
            visited,
            guesses,
            found,
            placed,
            digits,
            cap >> _DIGIT_SHARE if turn else cap,
            limit,
            max_nodes,
            stop,
            solution,
        )
        if turn:
            their_level, their_count, their_dead_ends = at, met, dead
        else:
            level, count, dead_ends = at, met, dead
        if out != 2:
            break
        if turn:
            # the search on cells resumes, for twice as many nodes as last time
            turn = False
            digits = False
            cap *= 2
            placed = -1
        else:
            # the search on digits starts again from the givens
            if not ready:
                ready = True
                other = (
                    np.empty((nn + 1, nn), dtype=np.uint64),
                    np.empty(nn + 1, dtype=np.int64),
                    np.empty(nn + 1, dtype=np.uint64),
                    np.empty(nn + 1, dtype=np.int64),
                )
            their_level = their_count = their_dead_ends = 0
            turn = True
            digits = True
            fresh = True
    if out == 1:
        met = found  # cut short: what the searches met (one that is over met them all)
    return final_status(out == 0, met, limit), met, visited, guesses


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
