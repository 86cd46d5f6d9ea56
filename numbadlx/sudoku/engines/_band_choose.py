"""The branch choice of the "bands" engine (:mod:`._bands`): which cell a search
node branches on, and in which digits.

A cell with two candidates is preferred: of the first :data:`_PAIRS_WEIGHED` such
cells (band by band, each band's cells in order), the one whose two digits have the
most other places in its row, column and box; once a puzzle has made
:data:`_HARD_AFTER` guesses, of the first :data:`_PAIRS_WEIGHED_HARD`, by a product
that also counts the two-candidate cells among those places. With no such cell, the
first cell with the fewest candidates. The state is the 27 digit-band words of
:mod:`._band_tables`.
"""

from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ..._compiling import inner_njit
from ._band_moves import _other_bands
from ._band_tables import _BAND, _COLUMN_AT, _NEAR, _PLACED_AT
from ._contract import popcount

# Two-candidate cells weighed per branch. Weighing was a fifth of a search node's cost;
# 8 against 16 (by the sum) gave 1% fewer nodes on serg_benchmark (many solutions) and
# 4% and 8% more on top1465 and forum_hardest_1106; serg_benchmark took 11% less time.
# Once a puzzle has made _HARD_AFTER guesses, 16 cells are weighed by the product of
# their digits' counts (a branch good on both sides), their digits read from bit
# planes: 8% fewer nodes on forum_hardest_1106 and 3.5% on top1465, serg_benchmark's
# the same. From the first guess (or after 4), serg_benchmark had 2% more nodes.
# Hard weighing also counts, for each digit, the two-candidate cells among the places
# it takes (each becomes a naked single when the digit goes in), :data:`_FORCED_WEIGHT`
# times: 12% fewer nodes on forum_hardest_1106, 5% on top1465 (weights 1, 3, 4 and 8:
# 4%, 1%, 5% and 20% more nodes on forum_hardest_1106 than 2). Counting, instead, the
# units where the other digit is left with one place more (hidden singles) gave 18%
# more nodes there than the plain product.
_PAIRS_WEIGHED = 8
_PAIRS_WEIGHED_HARD = 16
_HARD_AFTER = 16
_FORCED_WEIGHT = 2


@intrinsic
def _scan_pairs(typingctx, state):
    """The cells with two candidates of each band (placed or not), and the bits of each
    cell's first and second digit by plane, inside ``@njit`` code: ``(pairs0, pairs1,
    pairs2, plane 0 of bands 0-2, ..., plane 3 of bands 0-2)``. Plane ``k`` of a band
    holds the cells whose first digit has bit ``k`` set at bits 0-26, those whose second
    digit has it at bits 32-58 (one mask and shift per plane reads both digits of a
    pair; bits of a cell's third digit and beyond are left out).

    One pass over the nine digits for the three bands at once, as vector code: a
    digit's three words (nine apart) go into three lanes of a ``<4 x i64>`` and are
    worked on together. Written as scalar code, the compiler leaves it scalar: three
    times the operations."""
    if not (isinstance(state, types.Array) and state.dtype == types.int64 and state.ndim == 1):
        return None
    result = types.UniTuple(types.int64, 15)

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        vector = ir.VectorType(word, 4)
        zeros = ir.Constant(vector, [0] * 4)
        ones = ir.Constant(vector, [-1] * 4)
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        once = twice = thrice = zeros
        planes = [zeros] * 4
        for digit in range(9):
            # the digit's three words, nine apart, into the first three lanes
            bits = zeros
            for band in range(3):
                at = builder.gep(data, [ir.Constant(word, 9 * band + digit)])
                bits = builder.insert_element(
                    bits, builder.load(at, align=8), ir.Constant(ir.IntType(32), band)
                )
            # the cells where this digit is the first, and where it is the second
            first = builder.and_(bits, builder.xor(once, ones))
            second = builder.and_(builder.and_(bits, once), builder.xor(twice, ones))
            both = builder.or_(first, builder.shl(second, ir.Constant(vector, [32] * 4)))
            for k in range(4):
                if digit & (1 << k):
                    planes[k] = builder.or_(planes[k], both)
            thrice = builder.or_(thrice, builder.and_(twice, bits))
            twice = builder.or_(twice, builder.and_(once, bits))
            once = builder.or_(once, bits)
        pairs = builder.and_(twice, builder.xor(thrice, ones))
        values = [
            builder.extract_element(vector_value, ir.Constant(ir.IntType(32), band))
            for vector_value in (pairs, *planes)
            for band in range(3)
        ]
        return context.make_tuple(builder, result, values)

    return result(state), codegen


@intrinsic
def _words_of(typingctx, state):
    """The data pointer of the int64 array ``state``, inside ``@njit`` code: indexed
    like the array (no bounds checked), it is no array to count references to, which an
    inlined helper taking the array itself costs (an atomic increment and decrement a
    call that the compiler could not prune)."""
    if not (isinstance(state, types.Array) and state.dtype == types.int64):
        return None

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return types.CPointer(types.int64)(state), codegen


@njit(cache=True, nogil=True, inline="always")
def _weigh_pairs(
    words,
    hard,
    band,
    pairs,
    plane0,
    plane1,
    plane2,
    plane3,
    here,
    there,
    beyond,
    pairs_left,
    pair_weight,
    pair,
    pair_found,
):
    """:func:`_choose`'s weighing of the unplaced two-candidate cells ``pairs`` of
    ``band``, up to ``pairs_left`` of them, from the band's digit planes (see
    :func:`_scan_pairs`); ``words`` is the state (:func:`_words_of`), ``here``,
    ``there`` and ``beyond`` the two-candidate cells of the band and of its first and
    second other band. Returns ``(pairs_left, pair_weight, pair, pair_found)``, the
    best pair so far kept unless one here weighs more."""
    state = words
    first, second = _other_bands(band)
    while pairs and pairs_left:
        position = trailing_zeros(pairs)
        pairs &= pairs - 1
        pairs_left -= 1
        near = _NEAR[position]
        column = _COLUMN_AT[position]
        # the first digit at bits 0-3, the second at bits 32-35
        pick = (1 << 32 | 1) << position
        found = (
            (plane0 & pick) | (plane1 & pick) << 1 | (plane2 & pick) << 2 | (plane3 & pick) << 3
        ) >> position
        low = found & 15
        high = (found >> 32) & 15
        # the cell has exactly two digits: two rounds, a branch always taken twice.
        # The column's cells in the other two bands are moved above the band's 27
        # bits (by 27 and 28: they never meet), so that one popcount counts row,
        # box and column.
        one = popcount(
            (state[9 * band + low] & near)
            | (state[9 * first + low] & column) << 27
            | (state[9 * second + low] & column) << 28
        )
        other = popcount(
            (state[9 * band + high] & near)
            | (state[9 * first + high] & column) << 27
            | (state[9 * second + high] & column) << 28
        )
        if hard:
            # the two-candidate cells among those places (the cell itself, which
            # holds both digits, counts on both sides)
            one += _FORCED_WEIGHT * popcount(
                (state[9 * band + low] & near & here)
                | (state[9 * first + low] & column & there) << 27
                | (state[9 * second + low] & column & beyond) << 28
            )
            other += _FORCED_WEIGHT * popcount(
                (state[9 * band + high] & near & here)
                | (state[9 * first + high] & column & there) << 27
                | (state[9 * second + high] & column & beyond) << 28
            )
            weight = one * other
        else:
            weight = one + other
        if weight > pair_weight:
            pair_weight = weight
            pair = band * 27 + position
            pair_found = found
    return pairs_left, pair_weight, pair, pair_found


@njit(cache=True, nogil=True, inline="always")
def _fewest(words):
    """The first cell with the fewest candidates, for a state with no cell of two
    (``words``: see :func:`_words_of`); returns ``(band * 27 + position, digits)``."""
    state = words
    best = 10
    chosen = -1
    chosen_digits = 0
    for band in range(3):
        unplaced = _BAND & ~state[_PLACED_AT + band]
        while unplaced:
            position = trailing_zeros(unplaced)
            unplaced &= unplaced - 1
            digits = 0
            for digit in range(9):
                if state[9 * band + digit] >> position & 1:
                    digits |= 1 << digit
            count = popcount(digits)
            if count < best:
                best = count
                chosen = band * 27 + position
                chosen_digits = digits
        if best <= 3:
            break
    return chosen, chosen_digits


@inner_njit(cache=True, nogil=True)
def _choose(state, hard):
    """The cell to branch on: of the first :data:`_PAIRS_WEIGHED` cells with two
    candidates, the one whose two digits have the most other places in its row, column
    and box (whichever digit is tried, the most candidates go), their sum; when
    ``hard``, of the first :data:`_PAIRS_WEIGHED_HARD`, by the product of each digit's
    places and two-candidate cells among them (:data:`_FORCED_WEIGHT` each). With no
    such cell, the first cell with the fewest candidates. Returns ``(band * 27 +
    position, digits)``."""
    # the cells with two candidates of each band (placed or not) and the bits of each
    # cell's first and second digit, in one vector pass over the three bands
    (
        pairs0,
        pairs1,
        pairs2,
        a0,
        a1,
        a2,
        b0,
        b1,
        b2,
        c0,
        c1,
        c2,
        d0,
        d1,
        d2,
    ) = _scan_pairs(state)
    # the state's words, not the array, from here on: an array used after the inlined
    # calls below cost an atomic reference count up and down a call
    words = _words_of(state)
    # the unplaced ones
    open0 = pairs0 & ~words[_PLACED_AT] & _BAND
    open1 = pairs1 & ~words[_PLACED_AT + 1] & _BAND
    open2 = pairs2 & ~words[_PLACED_AT + 2] & _BAND
    if not (open0 | open1 | open2):
        return _fewest(words)
    # the three bands written out (no band's values picked at run time); each call
    # carries the pairs left to weigh and the best pair so far
    pairs_left = _PAIRS_WEIGHED_HARD if hard else _PAIRS_WEIGHED
    pairs_left, weight, pair, found = _weigh_pairs(
        words, hard, 0, open0, a0, b0, c0, d0, pairs0, pairs1, pairs2, pairs_left, -1, -1, 0
    )
    pairs_left, weight, pair, found = _weigh_pairs(
        words,
        hard,
        1,
        open1,
        a1,
        b1,
        c1,
        d1,
        pairs1,
        pairs2,
        pairs0,
        pairs_left,
        weight,
        pair,
        found,
    )
    pairs_left, weight, pair, found = _weigh_pairs(
        words,
        hard,
        2,
        open2,
        a2,
        b2,
        c2,
        d2,
        pairs2,
        pairs0,
        pairs1,
        pairs_left,
        weight,
        pair,
        found,
    )
    return pair, 1 << (found & 15) | 1 << ((found >> 32) & 15)
