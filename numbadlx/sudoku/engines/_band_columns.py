"""The column rules of the "bands" engine (:mod:`._bands`) looked at for eight digits at
once: which digits a pass of :func:`._bands._propagate` over the columns has anything to
do for.

The state is 27 words of 27 bits, word ``9 b + d`` for digit ``d`` in band ``b``
(:mod:`._band_tables`), so digits 0-7 of a band are eight adjacent words: one vector.
For each of those digits the test below asks what the pass over the columns asks of one
digit (a column with no cell for the digit, a column where it has one cell left and is
not placed yet, a stack whose permutation rule keeps nothing or drops a column), with
the same operations, in eight lanes. Most passes find nothing for any digit; the pass
then works only on the digits flagged here.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def _column_flags(typingctx, state, keep_stack):
    """A bit for each digit 0-7 that the column pass has work for (see the module
    notes), inside ``@njit`` code; ``keep_stack`` is
    :data:`._band_tables._KEEP_STACK`; both contiguous. Indices are not checked:
    ``state`` holds at least the 30 words of a state."""
    if not (
        isinstance(state, types.Array)
        and state.dtype == types.int64
        and state.layout == "C"
        and isinstance(keep_stack, types.Array)
        and keep_stack.layout == "C"
        and keep_stack.dtype == types.int64
    ):
        return None

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        lane = ir.IntType(32)
        vector = ir.VectorType(word, 8)
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        table = context.make_array(signature.args[1])(context, builder, args[1]).data

        def splat(value):
            return ir.Constant(vector, [value] * 8)

        def spread(scalar):
            one = builder.insert_element(ir.Constant(vector, None), scalar, ir.Constant(lane, 0))
            return builder.shuffle_vector(
                one, ir.Constant(vector, None), ir.Constant(ir.VectorType(lane, 8), [0] * 8)
            )

        def shr(value, bits):
            return builder.lshr(value, splat(bits))

        def shl(value, bits):
            return builder.shl(value, splat(bits))

        def band_words(band):
            at = builder.gep(data, [ir.Constant(word, 9 * band)])
            return builder.load(builder.bitcast(at, vector.as_pointer()), align=8)

        def fold(m):
            return builder.and_(builder.or_(builder.or_(m, shr(m, 9)), shr(m, 18)), splat(511))

        m0, m1, m2 = (band_words(band) for band in range(3))
        placed = [builder.load(builder.gep(data, [ir.Constant(word, 27 + b)])) for b in range(3)]
        f0, f1, f2 = fold(m0), fold(m1), fold(m2)
        columns = builder.or_(builder.or_(f0, f1), f2)
        flags = builder.icmp_unsigned("!=", columns, splat(511))
        # columns with two cells or more (as in the pass: across the row pairs of the
        # union, and within the pairwise meets), and columns where the digit is placed
        across = builder.or_(builder.or_(m0, m1), m2)
        within = builder.or_(
            builder.or_(builder.and_(m0, m1), builder.and_(m0, m2)), builder.and_(m1, m2)
        )
        a0 = builder.and_(across, splat(511))
        a1 = builder.and_(shr(across, 9), splat(511))
        a2 = shr(across, 18)
        twice = builder.or_(
            builder.or_(
                builder.or_(builder.and_(a0, a1), builder.and_(a0, a2)), builder.and_(a1, a2)
            ),
            builder.or_(builder.or_(within, shr(within, 9)), shr(within, 18)),
        )
        on = builder.or_(
            builder.or_(builder.and_(m0, spread(placed[0])), builder.and_(m1, spread(placed[1]))),
            builder.and_(m2, spread(placed[2])),
        )
        done = builder.or_(builder.or_(on, shr(on, 9)), shr(on, 18))
        hidden = builder.and_(builder.and_(builder.not_(twice), builder.not_(done)), splat(511))
        flags = builder.or_(flags, builder.icmp_unsigned("!=", hidden, splat(0)))
        # the stacks' permutation rule, one table lookup a lane and stack
        seven = splat(7)
        keys = [
            builder.or_(
                builder.or_(
                    builder.and_(shr(f0, 3 * s), seven), shl(builder.and_(shr(f1, 3 * s), seven), 3)
                ),
                shl(builder.and_(shr(f2, 3 * s), seven), 6),
            )
            for s in range(3)
        ]
        keeps = []
        for key in keys:
            kept = ir.Constant(vector, None)
            for k in range(8):
                index = builder.extract_element(key, ir.Constant(lane, k))
                value = builder.load(builder.gep(table, [index]), align=8)
                kept = builder.insert_element(kept, value, ir.Constant(lane, k))
            keeps.append(kept)
            flags = builder.or_(flags, builder.icmp_unsigned("==", kept, splat(0)))
        kept = builder.or_(builder.or_(keeps[0], shl(keeps[1], 3)), shl(keeps[2], 6))
        possible = builder.or_(builder.or_(f0, shl(f1, 9)), shl(f2, 18))
        cut = builder.and_(possible, builder.not_(kept))
        flags = builder.or_(flags, builder.icmp_unsigned("!=", cut, splat(0)))
        return builder.zext(builder.bitcast(flags, ir.IntType(8)), word)

    return types.int64(state, keep_stack), codegen
