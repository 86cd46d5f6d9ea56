"""9x9 Sudoku on per-digit band masks: the third engine, for the classic shape only.

The state of a puzzle is 27 words of 27 bits, one per digit and band (three rows of
nine cells; bit ``9 r + c`` is row ``r`` of the band, column ``c``), band by band (word
``9 b + d``, so that a placement clears a band's nine words as one vector step): the
cells where the digit may still go. A placed cell keeps the bit of its digit. Three
more words hold the placed cells of each band, and one the number placed, so a whole
state is 31 ``int64`` and a search level saves it by copying 31 words.

Seen from one digit, a band is a 3 x 3 matrix of segments (row of the band by box) and
the digit must take one segment in each row and each box: a permutation. A segment that
no permutation of the still-possible segments uses cannot hold the digit, so its cells
go. That one rule, a table lookup on the band's 9 segment bits (:data:`KEEP_SEGMENTS`),
does pointing and claiming and the hidden singles of the band's boxes at once. The same
rule runs on stacks (three columns by three bands, from the bands' column folds). A row
of a band left with one cell for the digit places it there (a hidden single of the row,
or of a box through the rule); the rows of one word are placed together, in one pass
over the words they touch. Then come cells with one digit left (naked singles) and
columns with one cell for a digit (hidden singles), both found for all cells at once
by counting bits across words, and the rules run again until nothing changes. A word
goes back to the band rule only when a placement took more from it than the placed
cell (the digit's own word keeps its cell). The columns and stacks of digits 0-7 are
first tested in one vector pass (:mod:`._band_columns`); the per-digit pass then works
only on the digits that have something to give.

Search copies the state and branches on a cell with two candidates (of the first 8
such cells, the one whose digits have the most other places near it; once a puzzle has
made 16 guesses, of the first 16, by the product of its two digits' counts,
two-candidate cells among the places counting thrice), or else on a cell with the
fewest; ``guesses`` counts these branch points and ``nodes``
the states propagated (the givens' state and one per digit tried), as in the "bits"
engine. Statuses, result arrays and the kernels' signatures are the engines' contract
(:mod:`._contract`); the unit table is taken and not read, the shape being fixed. The
constant tables live in :mod:`._band_tables`, the placements, the givens' state and
the writing of a solution in :mod:`._band_moves`, the branch choice in
:mod:`._band_choose`.

What each tuning round tried, kept and left, with its numbers, is on the
documentation page docs/benchmarks/bands-rounds.md.
"""

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ..._cleared import cleared
from ..._compiling import inner_njit
from ._band_choose import _HARD_AFTER, _choose
from ._band_columns import _column_flags
from ._band_moves import (
    _columns_of,
    _digit_words,
    _place,
    _place_rows,
    _start,
    _write_solution,
)
from ._band_tables import (
    _BAND,
    _BAND_OF,
    _BAND_WORDS,
    _COLUMN,
    _COUNT_AT,
    _KEEP_STACK,
    _PLACED_AT,
    _POSITION_OF,
    KEEP_CELLS,
    SEGMENTS_OF_ROW,
    STATE_WORDS,
)
from ._contract import INVALID, final_status, stop_requested
from ._loop import take_units

# One thread's work buffer is a single int64 array: the state in words 0-30, then one
# saved state per search level (row ``level + 1`` of :data:`_ROW_WORDS` words, its word
# :data:`_BRANCH_AT` holding the branch cell and the digits left to try, ``cell | digits
# << 8``). One flat array rather than a tuple of four: unpacking a tuple of arrays cost
# an atomic reference count up and down per array and puzzle (1-4% of the time, within
# the noise of a loaded machine).
_ROW_WORDS = 32
_BRANCH_AT = 31
_WORK_WORDS = _ROW_WORDS * 83


@njit(cache=True, nogil=True)
def allocate_work(table):
    """One thread's work buffer: the state, and room for one saved state per search
    level (at most 81 levels) in one array; ``table`` is not read."""
    return np.zeros(_WORK_WORDS, dtype=np.int64)


@intrinsic
def _copy_state(typingctx, work, to, source):
    """``work[to:to + STATE_WORDS] = work[source:source + STATE_WORDS]``, inside
    ``@njit`` code, for two rows that never overlap; indices not checked.

    One memory copy of fixed size, which the compiler makes a few vector moves: the
    same copy written as a loop over one array stays 31 scalar loads and stores, as the
    compiler cannot tell that the two rows do not overlap."""
    if not (
        isinstance(work, types.Array)
        and work.dtype == types.int64
        and work.layout == "C"
        and isinstance(to, types.Integer)
        and isinstance(source, types.Integer)
    ):
        return None

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        at = [
            context.cast(builder, value, kind, types.intp)
            for value, kind in zip(args[1:], signature.args[1:])
        ]
        cgutils.raw_memcpy(
            builder,
            builder.gep(array.data, [at[0]]),
            builder.gep(array.data, [at[1]]),
            context.get_constant(types.intp, STATE_WORDS),
            8,
            align=8,
        )
        return context.get_dummy_value()

    return types.void(work, to, source), codegen


@njit(cache=True, nogil=True, inline="always")
def _keep(mask):
    """The cells of a word that the permutation rule keeps (0: none, a contradiction)."""
    key = (
        SEGMENTS_OF_ROW[mask & 511]
        | SEGMENTS_OF_ROW[(mask >> 9) & 511] << 3
        | SEGMENTS_OF_ROW[(mask >> 18) & 511] << 6
    )
    # (every index masked: the compiler then knows it is not negative)
    return KEEP_CELLS[key & 511]


@njit(cache=True, nogil=True, inline="always")
def _apply(state, word, keep):
    """Narrow ``state[word]`` to ``keep`` and place its rows' single cells; returns the
    words changed by the placements, or -1 for a contradiction."""
    band = (word * 57) >> 9  # word // 9 for word < 27, without a division
    digit = (word - 9 * band) & 15  # & 15: not negative, for the compiler
    mask = state[word] & keep
    if mask == 0:
        return -1
    # rows holding the digit in one cell, not placed yet
    r0 = mask & 511
    r1 = mask & (511 << 9)
    r2 = mask & (511 << 18)
    single = (
        (r0 if r0 & (r0 - 1) == 0 else 0)
        | (r1 if r1 & (r1 - 1) == 0 else 0)
        | (r2 if r2 & (r2 - 1) == 0 else 0)
    ) & ~state[_PLACED_AT + band]
    if single:
        # the narrowed word is handed over, not stored: _place_rows stores the word
        # after its vector pass over the band's words, which a store just before would
        # stall (a vector load of a word being stored on its own)
        return _place_rows(state, digit, band, single, mask)
    state[word] = mask
    return 0


@inner_njit(cache=True, nogil=True)
def _propagate(state, dirty):
    """Run the rules until nothing changes; ``dirty`` has a bit for every word changed
    since its band rule last ran. Returns the cells placed (81 when solved), or -1 for a
    contradiction. A band's naked singles, and a digit's columns and stacks, are looked
    at again only when one of their words changed since (a band or digit left as it
    was has nothing new to give)."""
    naked_due = 0  # words changed since the naked singles last ran
    column_due = 0  # and since the columns last ran
    while True:
        # bands: the permutation rule on every changed word, then rows with one cell
        if dirty:
            # pipelined: the next word's rule is read before this word's rows are
            # placed, so that the CPU overlaps its table lookups with the placement
            # (a rule read from a word that the placement then narrows is still
            # sound; that word runs again)
            word = trailing_zeros(dirty)
            dirty &= dirty - 1
            keep = _keep(state[word])
            while True:
                seen = 1 << word
                naked_due |= seen
                column_due |= seen
                following = -1
                following_keep = 0
                if dirty:
                    following = trailing_zeros(dirty)
                    dirty &= dirty - 1
                    following_keep = _keep(state[following])
                changed = _apply(state, word, keep)
                if changed < 0:
                    return -1
                dirty |= changed
                if following < 0:
                    if not dirty:
                        break
                    following = trailing_zeros(dirty)
                    dirty &= dirty - 1
                    following_keep = _keep(state[following])
                word = following
                keep = following_keep
        if state[_COUNT_AT] == 81:
            return 81
        # cells with no digit left (a contradiction) or one (a naked single)
        due = naked_due
        naked_due = 0
        for band in range(3):
            if not due & (_BAND_WORDS << (9 * band)):
                continue
            once = 0
            twice = 0
            # the digit's bits by plane (digit d in plane k when bit k of d is set), so
            # that a single's digit costs no nine loads
            plane0 = plane1 = plane2 = plane3 = 0
            for digit in range(9):
                bits = state[9 * band + digit]
                twice |= once & bits
                once |= bits
                if digit & 1:
                    plane0 |= bits
                if digit & 2:
                    plane1 |= bits
                if digit & 4:
                    plane2 |= bits
                if digit & 8:
                    plane3 |= bits
            unplaced = _BAND & ~state[_PLACED_AT + band]
            if unplaced & ~once:
                return -1
            single = once & ~twice & unplaced
            while single:
                position = trailing_zeros(single)
                single &= single - 1
                # the cell's one digit, from the planes; a placement made in this
                # pass may have emptied the cell: _place then finds the digit gone
                digit = (
                    (plane0 >> position) & 1
                    | ((plane1 >> position) & 1) << 1
                    | ((plane2 >> position) & 1) << 2
                    | ((plane3 >> position) & 1) << 3
                )
                changed = _place(state, digit, band, position)
                if changed < 0:
                    return -1
                dirty |= changed
        if dirty:
            continue
        # columns: a digit with one cell left in a column, and the permutation rule on
        # the stacks (column of a stack by band)
        # the digits due, a bit each (no test per digit)
        due = (column_due | column_due >> 9 | column_due >> 18) & 511
        column_due = 0
        if due & 255:
            # digits 0-7 tested in one vector pass: only those with work stay due
            due = (due & 256) | _column_flags(state, _KEEP_STACK)
        while due:
            digit = trailing_zeros(due)
            due &= due - 1
            m0, m1, m2 = _digit_words(state, digit)
            fold0 = _columns_of(m0)
            fold1 = _columns_of(m1)
            fold2 = _columns_of(m2)
            if fold0 | fold1 | fold2 != 511:
                return -1
            # the columns with two cells or more: two in different rows of their
            # bands meet in the union of the three words folded by row pairs, two in
            # the same row of two bands in the words' pairwise meets
            across = m0 | m1 | m2
            within = (m0 & m1) | (m0 & m2) | (m1 & m2)
            a0 = across & 511
            a1 = (across >> 9) & 511
            a2 = across >> 18
            twice = (a0 & a1) | (a0 & a2) | (a1 & a2) | within | within >> 9 | within >> 18
            on = (
                (m0 & state[_PLACED_AT])
                | (m1 & state[_PLACED_AT + 1])
                | (m2 & state[_PLACED_AT + 2])
            )
            done = on | on >> 9 | on >> 18
            hidden = 511 & ~twice & ~done
            while hidden:
                column = _COLUMN[trailing_zeros(hidden)]
                hidden &= hidden - 1
                # the one band that holds the column's cell, found without a branch
                w0, w1, w2 = _digit_words(state, digit)
                in0 = w0 & column
                in1 = w1 & column
                in2 = w2 & column
                cell = in0 | in1 | in2
                if cell == 0:
                    return -1  # emptied by a placement made in this pass
                band = np.int64(in1 != 0) | np.int64(in2 != 0) << 1
                changed = _place(state, digit, band, trailing_zeros(cell))
                if changed < 0:
                    return -1
                dirty |= changed
            # the permutation rule on the three stacks: the columns each band keeps
            keep0 = _KEEP_STACK[((fold0 & 7) | (fold1 & 7) << 3 | (fold2 & 7) << 6) & 511]
            keep1 = _KEEP_STACK[
                ((fold0 >> 3) & 7 | ((fold1 >> 3) & 7) << 3 | ((fold2 >> 3) & 7) << 6) & 511
            ]
            keep2 = _KEEP_STACK[((fold0 >> 6) | (fold1 >> 6) << 3 | (fold2 >> 6) << 6) & 511]
            if keep0 == 0 or keep1 == 0 or keep2 == 0:
                return -1
            kept = keep0 | keep1 << 3 | keep2 << 6  # band b's columns at bit 9 b
            if not (fold0 | fold1 << 9 | fold2 << 18) & ~kept:
                continue  # nothing to cut (the usual case): no pass over the words
            for band in range(3):
                columns = (kept >> (9 * band)) & 511
                word = 9 * band + digit
                mask = state[word]
                cut = mask & (columns | columns << 9 | columns << 18)
                if cut != mask:
                    state[word] = cut
                    dirty |= 1 << word
        if not dirty:
            return state[_COUNT_AT]


@njit(nogil=True, inline="always")
def _search(grid, table, limit, max_nodes, stop, work, solution):
    """The body of :func:`solve_one`, inlined into the serial kernel's loop (as in the
    "bits" engine): called there as a kernel of its own, it would be compiled once on
    its own and optimised again inside the loop, a second first-use cost."""
    state = work  # words 0-30; the saved states follow (see allocate_work)
    dirty = _start(grid, state)
    if dirty < 0:
        for cell in range(81):
            solution[cell] = 0
        return INVALID, 0, 0, 0
    placed = _propagate(state, dirty)
    visited = 1
    guesses = 0
    count = 0
    complete = True
    level = 0
    fresh = False
    while True:
        if placed == 81:
            count += 1
            if count == 1:
                _write_solution(state, solution)
            if count >= limit:
                break
        elif placed >= 0:
            cell, digits = _choose(state, guesses >= _HARD_AFTER)
            guesses += 1
            row = _ROW_WORDS * (level + 1)
            _copy_state(work, row, 0)
            work[row + _BRANCH_AT] = cell | digits << 8
            level += 1
            fresh = True  # state is still the copy just saved
        # try the next digit at the deepest level that has one left
        if level == 0:
            break
        if (max_nodes > 0 and visited >= max_nodes) or stop_requested(stop):
            complete = False
            break
        row = _ROW_WORDS * level
        branch = work[row + _BRANCH_AT]
        cell = branch & 127
        left = branch >> 8
        digit = trailing_zeros(left)
        left &= left - 1
        work[row + _BRANCH_AT] = cell | left << 8
        if not fresh:
            _copy_state(work, 0, row)
        fresh = False
        if left == 0:
            level -= 1  # its last digit: the saved copy is no longer needed
        visited += 1
        changed = _place(state, digit, _BAND_OF[cell], _POSITION_OF[cell])
        placed = _propagate(state, changed) if changed >= 0 else -1
    if count == 0:
        for cell in range(81):
            solution[cell] = 0
    return final_status(complete, count, limit), count, visited, guesses


@njit(cache=True, nogil=True)
def solve_one(grid, table, limit, max_nodes, stop, work, solution):
    """Propagate and search one 9x9 puzzle (the engines' contract, see
    :mod:`._contract`). Returns ``(status, count, nodes, guesses)``; the first solution
    found goes into ``solution``; ``max_nodes`` (> 0) bounds the states propagated."""
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
    # the work buffer made here: no kernel of its own and no np.zeros to compile
    # for a first solve (about 0.2 s of it)
    work = cleared(np.empty(_WORK_WORDS, dtype=np.int64))
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
