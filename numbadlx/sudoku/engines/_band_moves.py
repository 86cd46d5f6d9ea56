"""The moves on a state of the "bands" engine (:mod:`._bands`): placing a digit (one
cell, or the single cells of a word's rows at once), the givens' state of a puzzle,
and a solved state written out as 81 digits.

A state is 27 words of 27 bits (digit ``d``, band ``b``: word ``9 b + d``, a band's
nine digits adjacent; bit ``9 r + c`` for row ``r`` of the band, column ``c``), three
words of placed cells and the placed count (:mod:`._band_tables`). A placement returns
the words it changed, a bit per word, for the band rule of :func:`._bands._propagate`
to run on again.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..._compiling import inner_njit
from ._band_tables import (
    _BAND,
    _BOXES_CELLS,
    _COLUMN_AT,
    _COUNT_AT,
    _FIRST_OTHER,
    _KEEP_NEAR,
    _PLACED_AT,
    _ROWS_CELLS,
    _SECOND_OTHER,
    SEGMENTS_OF_ROW,
    STATE_WORDS,
)
from ._contract import equal_bytes, popcount


@intrinsic
def _clear_band(typingctx, state, base, cells):
    """Take ``cells`` out of the nine words ``state[base:base + 9]`` (a band's digit
    words), inside ``@njit`` code; returns a bit per word that held any of them (bit
    ``k`` for word ``base + k``). Eight words as one vector, the ninth alone."""
    if not (isinstance(state, types.Array) and state.dtype == types.int64):
        return None

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        vector = ir.VectorType(word, 8)
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        base = context.cast(builder, args[1], signature.args[1], types.int64)
        cells = context.cast(builder, args[2], signature.args[2], types.int64)
        at = builder.gep(data, [base])
        pointer = builder.bitcast(at, vector.as_pointer())
        words = builder.load(pointer, align=8)
        spread = builder.insert_element(
            ir.Constant(vector, None), cells, ir.Constant(ir.IntType(32), 0)
        )
        spread = builder.shuffle_vector(
            spread,
            ir.Constant(vector, None),
            ir.Constant(ir.VectorType(ir.IntType(32), 8), [0] * 8),
        )
        builder.store(builder.and_(words, builder.not_(spread)), pointer, align=8)
        held = builder.icmp_unsigned(
            "!=", builder.and_(words, spread), ir.Constant(vector, [0] * 8)
        )
        low = builder.zext(builder.bitcast(held, ir.IntType(8)), word)
        last = builder.gep(data, [builder.add(base, ir.Constant(word, 8))])
        value = builder.load(last, align=8)
        builder.store(builder.and_(value, builder.not_(cells)), last, align=8)
        high = builder.zext(
            builder.icmp_unsigned("!=", builder.and_(value, cells), ir.Constant(word, 0)), word
        )
        return builder.or_(low, builder.shl(high, ir.Constant(word, 8)))

    return types.int64(state, base, cells), codegen


@njit(cache=True, nogil=True, inline="always")
def _other_bands(band):
    """The two bands other than ``band`` (0-2), in the order ``band + 1``, ``band + 2``
    modulo 3, by shifts of two constants (a table lookup costs a load)."""
    shift = 2 * band
    return (_FIRST_OTHER >> shift) & 3, (_SECOND_OTHER >> shift) & 3


@njit(cache=True, nogil=True, inline="always")
def _leave_columns(state, digit, band, columns):
    """Take the cells of ``columns`` (a band mask of whole columns) out of ``digit``'s
    words in the two bands other than ``band``; returns the words changed. The two
    words come from :func:`_other_bands`: a loop that skips ``band`` mispredicts."""
    first, second = _other_bands(band)
    first = 9 * first + digit
    second = 9 * second + digit
    m = state[first]
    n = state[second]
    state[first] = m & ~columns
    state[second] = n & ~columns
    return np.int64((m & columns) != 0) << first | np.int64((n & columns) != 0) << second


@njit(cache=True, nogil=True, inline="always")
def _place(state, digit, band, position):
    """Put ``digit`` at ``position`` (0-26) of ``band``: it leaves the cell's other
    digits, its row and box in this band and its column in the other bands. Returns
    the words changed (a bit per word), or -1 if the digit could no longer go there.
    Branch-free where it can be: placements are too many and too random for the branch
    predictor."""
    # the masks tell the compiler that the indices are not negative, so that it drops
    # the wraparound of negative indices from every access below
    band &= 3
    digit &= 15
    position &= 31
    bit = 1 << position
    base = 9 * band
    word = base + digit
    mine = state[word]
    if not mine & bit:
        return -1
    placed = state[_PLACED_AT + band]
    if placed & bit:
        return 0  # placed already (found by two rules in one pass)
    state[_PLACED_AT + band] = placed | bit
    state[_COUNT_AT] += 1
    # the band's nine digit words, adjacent: one vector step (written as scalar code,
    # the compiler leaves nine loads and stores)
    changed = _clear_band(state, base, bit) << base
    kept = (mine & _KEEP_NEAR[position]) | bit
    state[word] = kept
    # the digit's own word counts only if more than the cell went from it
    changed = (changed & ~(1 << word)) | np.int64(kept != mine) << word
    return changed | _leave_columns(state, digit, band, _COLUMN_AT[position])


@njit(cache=True, nogil=True, inline="always")
def _place_rows(state, digit, band, cells, mine):
    """Put ``digit`` on every cell of ``cells`` in ``band`` at once: cells of its own
    word, none placed, each the word's only cell in its row (found by the band rule,
    which leaves them in distinct rows, boxes and columns; their rows are not cleared).
    ``mine`` is the digit's word as it is now, which ``state`` may not hold yet. The
    same state and changed words as placing them one by one with :func:`_place`, in one
    pass over the words."""
    band &= 3
    digit &= 15
    base = 9 * band
    word = base + digit
    state[_PLACED_AT + band] |= cells
    state[_COUNT_AT] += popcount(cells)
    # the digit leaves the rows and boxes of the cells in its band, their columns in
    # the other bands
    # (each cell alone in its row already: only the boxes lose cells)
    fold = _columns_of(cells)
    kept = (mine & ~_BOXES_CELLS[SEGMENTS_OF_ROW[fold] & 7]) | cells
    # the band's nine digit words lose the cells (one vector step, see _place)
    changed = _clear_band(state, base, cells) << base
    state[word] = kept
    changed = (changed & ~(1 << word)) | np.int64(kept != mine) << word
    return changed | _leave_columns(state, digit, band, fold | fold << 9 | fold << 18)


@njit(cache=True, nogil=True, inline="always")
def _digit_words(state, digit):
    """``digit``'s three words, bands 0, 1 and 2 (nine words apart)."""
    return state[digit], state[9 + digit], state[18 + digit]


@njit(cache=True, nogil=True, inline="always")
def _columns_of(cells):
    """The columns of a band (9 bits) that ``cells`` meet: its three rows folded."""
    return (cells | cells >> 9 | cells >> 18) & 511


@njit(cache=True, nogil=True, inline="always")
def _rows_of(cells):
    """The rows of a band (3 bits) that ``cells`` meet."""
    return (
        np.int64(cells & 511 != 0)
        | np.int64(cells & (511 << 9) != 0) << 1
        | np.int64(cells >> 18 != 0) << 2
    )


@inner_njit(cache=True, nogil=True)
def _start(grid, state):
    """The givens' state, placed but not yet propagated: the same words as placing the
    givens one by one with :func:`_place`, built digit by digit with word operations.
    Returns the dirty words, or -1 for INVALID givens (a value above 9, or two equal
    givens in a unit)."""
    for word in range(STATE_WORDS):
        state[word] = 0
    # first the givens alone: digit d's given cells in band b go to word 9 b + d,
    # the bytes of the band compared with d all at once
    too_big = 0
    for band in range(3):
        # a band's 27 bytes out of 32 read in place (the last band's end at the
        # row's end: bytes 49-80, shifted by 5)
        start = 27 * band if band < 2 else 49
        shift = 0 if band < 2 else 5
        placed = ~(equal_bytes(grid, start, 0) >> shift) & _BAND
        digits = 0
        for digit in range(9):
            given = (equal_bytes(grid, start, digit + 1) >> shift) & _BAND
            state[9 * band + digit] = given
            digits |= given
        state[_PLACED_AT + band] = placed
        too_big |= placed & ~digits  # neither blank nor 1-9
    if too_big:
        return -1
    # then each digit's rows, boxes and columns: its givens are valid when each is
    # alone in its row, box and column, i.e. they meet as many rows (9 bits: 3 a
    # band), boxes and columns as there are givens; the cells of those rows, boxes and
    # columns go
    count = 0
    clash = False
    placed0 = state[_PLACED_AT]
    placed1 = state[_PLACED_AT + 1]
    placed2 = state[_PLACED_AT + 2]
    for digit in range(9):
        given0, given1, given2 = _digit_words(state, digit)
        fold0 = _columns_of(given0)
        fold1 = _columns_of(given1)
        fold2 = _columns_of(given2)
        rows0 = _rows_of(given0)
        rows1 = _rows_of(given1)
        rows2 = _rows_of(given2)
        # the boxes met, a bit at each box's first column (0, 3, 6), from the folds
        boxes0 = (fold0 | fold0 >> 1 | fold0 >> 2) & 0o111
        boxes1 = (fold1 | fold1 >> 1 | fold1 >> 2) & 0o111
        boxes2 = (fold2 | fold2 >> 1 | fold2 >> 2) & 0o111
        columns = fold0 | fold1 | fold2
        placed = popcount(given0 | given1 << 27) + popcount(given2)
        count += placed
        clash |= (
            (popcount(columns) != placed)
            | (popcount(rows0 | rows1 << 3 | rows2 << 6) != placed)
            | (popcount(boxes0 | boxes1 << 9 | boxes2 << 18) != placed)
        )
        spread = columns | columns << 9 | columns << 18
        # a box's columns: its first column's bit times 7; its cells: those in 3 rows
        taken0 = spread | _ROWS_CELLS[rows0] | boxes0 * (7 * 0x40201) | placed0
        taken1 = spread | _ROWS_CELLS[rows1] | boxes1 * (7 * 0x40201) | placed1
        taken2 = spread | _ROWS_CELLS[rows2] | boxes2 * (7 * 0x40201) | placed2
        state[digit] = (_BAND & ~taken0) | given0
        state[9 + digit] = (_BAND & ~taken1) | given1
        state[18 + digit] = (_BAND & ~taken2) | given2
    if clash:
        return -1
    state[_COUNT_AT] = count
    return (1 << 27) - 1


@inner_njit(cache=True, nogil=True)
def _write_solution(state, solution):
    """The solved ``state`` as 81 digits into ``solution``: per band, the four bit
    planes of the digits (bit ``k`` of digit ``d + 1`` set: word of ``d`` in plane
    ``k``), then each cell's digit read from them without a branch (a loop over each
    word's bits mispredicts once a word)."""
    for band in range(3):
        plane0 = plane1 = plane2 = plane3 = 0
        for digit in range(9):
            bits = state[9 * band + digit]
            value = digit + 1
            plane0 |= bits & -(value & 1)
            plane1 |= bits & -((value >> 1) & 1)
            plane2 |= bits & -((value >> 2) & 1)
            plane3 |= bits & -(value >> 3)
        offset = 27 * band
        for position in range(27):
            solution[offset + position] = (
                ((plane0 >> position) & 1)
                | ((plane1 >> position) & 1) << 1
                | ((plane2 >> position) & 1) << 2
                | ((plane3 >> position) & 1) << 3
            )
