"""The moves on a state of the "bands" engine (:mod:`._bands`): placing a digit (one
cell, or the single cells of a word's rows at once), the givens' state of a puzzle,
and a solved state written out as 81 digits.

A state is 27 words of 27 bits (digit ``d``, band ``b``: word ``3 d + b``; bit ``9 r +
c`` for row ``r`` of the band, column ``c``), three words of placed cells and the
placed count (:mod:`._band_tables`). A placement returns the words it changed, a bit
per word, for the band rule of :func:`._bands._propagate` to run on again.
"""

import numpy as np
from numba import njit

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


@inner_njit(cache=True, nogil=True)
def _drop(state, word, bit, position):
    """Take ``bit`` (``1 << position``) out of ``state[word]``; returns the word's bit
    in a changed-words mask if it was there."""
    m = state[word]
    state[word] = m & ~bit
    return ((m >> position) & 1) << word


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
    first += 3 * digit
    second += 3 * digit
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
    word = 3 * digit + band
    mine = state[word]
    if not mine & bit:
        return -1
    placed = state[_PLACED_AT + band]
    if placed & bit:
        return 0  # placed already (found by two rules in one pass)
    state[_PLACED_AT + band] = placed | bit
    state[_COUNT_AT] += 1
    # the nine digits' words of the band, written out: as a loop, the compiler turns
    # these strided words into vector gathers and scatters, slower here than scalars
    changed = (
        _drop(state, band, bit, position)
        | _drop(state, band + 3, bit, position)
        | _drop(state, band + 6, bit, position)
        | _drop(state, band + 9, bit, position)
        | _drop(state, band + 12, bit, position)
        | _drop(state, band + 15, bit, position)
        | _drop(state, band + 18, bit, position)
        | _drop(state, band + 21, bit, position)
        | _drop(state, band + 24, bit, position)
    )
    kept = (mine & _KEEP_NEAR[position]) | bit
    state[word] = kept
    # the digit's own word counts only if more than the cell went from it
    changed = (changed & ~(1 << word)) | np.int64(kept != mine) << word
    return changed | _leave_columns(state, digit, band, _COLUMN_AT[position])


@njit(cache=True, nogil=True, inline="always")
def _place_rows(state, digit, band, cells):
    """Put ``digit`` on every cell of ``cells`` in ``band`` at once: cells of its own
    word, none placed, each the word's only cell in its row (found by the band rule,
    which leaves them in distinct rows, boxes and columns; their rows are not cleared).
    The same state and changed words as placing them one by one with :func:`_place`,
    in one pass over the words."""
    band &= 3
    digit &= 15
    word = 3 * digit + band
    mine = state[word]
    state[_PLACED_AT + band] |= cells
    state[_COUNT_AT] += popcount(cells)
    changed = 0
    # the band's nine digit words lose the cells (written out, see _place)
    for other in (band, band + 3, band + 6, band + 9, band + 12, band + 15, band + 18, band + 21):
        m = state[other]
        state[other] = m & ~cells
        changed |= np.int64((m & cells) != 0) << other
    m = state[band + 24]
    state[band + 24] = m & ~cells
    changed |= np.int64((m & cells) != 0) << (band + 24)
    # the digit leaves the rows and boxes of the cells in its band, their columns in
    # the other bands
    # (each cell alone in its row already: only the boxes lose cells)
    fold = _columns_of(cells)
    kept = (mine & ~_BOXES_CELLS[SEGMENTS_OF_ROW[fold] & 7]) | cells
    state[word] = kept
    changed = (changed & ~(1 << word)) | np.int64(kept != mine) << word
    return changed | _leave_columns(state, digit, band, fold | fold << 9 | fold << 18)


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
    # first the givens alone: digit d's given cells in band b go to word 3 d + b,
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
            state[3 * digit + band] = given
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
        word = 3 * digit
        given0 = state[word]
        given1 = state[word + 1]
        given2 = state[word + 2]
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
        state[word] = (_BAND & ~taken0) | given0
        state[word + 1] = (_BAND & ~taken1) | given1
        state[word + 2] = (_BAND & ~taken2) | given2
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
            bits = state[3 * digit + band]
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
