"""The constant tables of the "bands" engine (:mod:`._bands`): the layout of a state,
the segment tables of the permutation rule, and masks of rows, boxes and columns.

A state is 27 words of 27 bits (digit ``d``, band ``b``: word ``9 b + d``, a band's
nine digits adjacent; bit ``9 r + c`` for row ``r`` of the band, column ``c``), three
words of placed cells and the placed count.
"""

import numpy as np

#: Words of one state: 27 digit-band masks, 3 placed-cell masks, the placed count.
STATE_WORDS = 31
_PLACED_AT = 27
_COUNT_AT = 30
_BAND = (1 << 27) - 1
# the words of band 0 (a bit per word; band b: shifted by 9 b)
_BAND_WORDS = 511


def _segment_tables():
    """``(segments_of_row, keep_segments, keep_cells)`` (see the module notes)."""
    segments_of_row = np.zeros(512, dtype=np.int64)
    for bits in range(512):
        for box in range(3):
            if bits >> (3 * box) & 7:
                segments_of_row[bits] |= 1 << box
    permutations = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    keep_segments = np.zeros(512, dtype=np.int64)
    keep_cells = np.zeros(512, dtype=np.int64)
    for possible in range(512):
        for perm in permutations:
            used = sum(1 << (3 * row + box) for row, box in enumerate(perm))
            if used & possible == used:
                keep_segments[possible] |= used
        for segment in range(9):
            if keep_segments[possible] >> segment & 1:
                row, box = divmod(segment, 3)
                keep_cells[possible] |= 7 << (9 * row + 3 * box)
    for table in (segments_of_row, keep_segments, keep_cells):
        table.flags.writeable = False
    return segments_of_row, keep_segments, keep_cells


#: ``SEGMENTS_OF_ROW[bits]``: the boxes (3 bits) that a row's 9 cell bits touch.
#: ``KEEP_SEGMENTS[m]``: of the 3 x 3 segment matrix ``m`` (bit ``3 i + j``), the
#: segments some permutation inside ``m`` uses (0: none fits, a contradiction).
#: ``KEEP_CELLS[m]``: the same as a mask of the band's 27 cells.
SEGMENTS_OF_ROW, KEEP_SEGMENTS, KEEP_CELLS = _segment_tables()

_ROW = np.array([511 << (9 * r) for r in range(3)], dtype=np.int64)
_BOX = np.array([sum(7 << (9 * r + 3 * j) for r in range(3)) for j in range(3)], dtype=np.int64)
_COLUMN = np.array([(1 | 1 << 9 | 1 << 18) << c for c in range(9)], dtype=np.int64)
# by 3 bits of rows (boxes) of a band: their cells
_ROWS_CELLS = np.array(
    [sum(_ROW[r] for r in range(3) if k >> r & 1) for k in range(8)], dtype=np.int64
)
_BOXES_CELLS = np.array(
    [sum(_BOX[j] for j in range(3) if k >> j & 1) for k in range(8)], dtype=np.int64
)
# by position in a band: the cells of its row and box, the band's other cells, and its
# column
_NEAR = np.array([_ROW[p // 9] | _BOX[p % 9 // 3] for p in range(27)], dtype=np.int64)
_KEEP_NEAR = _BAND & ~_NEAR
_COLUMN_AT = np.array([_COLUMN[p % 9] for p in range(27)], dtype=np.int64)
# by cell 0-80 (row-major): its band and position in the band (divisions cost more
# than the rest of a pass over the givens)
_BAND_OF = np.array([c // 27 for c in range(81)], dtype=np.int64)
_POSITION_OF = np.array([c % 27 for c in range(81)], dtype=np.int64)
# by band b, the other two bands, 2 bits each at bit 2 b: (b + 1) % 3 and (b + 2) % 3
# read by a shift, with no load and no division
_FIRST_OTHER = 1 | 2 << 2 | 0 << 4
_SECOND_OTHER = 2 | 0 << 2 | 1 << 4
# KEEP_SEGMENTS with its three rows of 3 bits moved 9 bits apart: for a stack's 3 x 3
# matrix (band by column of the stack), the columns each band keeps, band b at bit 9 b
# (shifted by 3 s for stack s, the three stacks' results or together into one word of
# each band's 9 columns)
_KEEP_STACK = np.array(
    [sum(((int(k) >> (3 * b)) & 7) << (9 * b) for b in range(3)) for k in KEEP_SEGMENTS],
    dtype=np.int64,
)
for _table in (
    _KEEP_STACK,
    _ROW,
    _BOX,
    _ROWS_CELLS,
    _BOXES_CELLS,
    _COLUMN,
    _KEEP_NEAR,
    _COLUMN_AT,
    _BAND_OF,
    _POSITION_OF,
    _NEAR,
):
    _table.flags.writeable = False
