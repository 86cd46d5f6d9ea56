"""The engines' shared names: status codes, the placed bit, the result-row helpers, and
the intrinsics every bulk loop and bit-mask engine uses (and the stop flag's read).
The kernel signature they serve is set out in the package docstring
(:mod:`numbadlx.sudoku.engines`).
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

__all__ = [
    "NOT_RUN",
    "UNIQUE",
    "SOLVED",
    "MULTIPLE",
    "NO_SOLUTION",
    "INVALID",
    "BUDGET",
    "PLACED",
    "final_status",
    "clear_result",
    "popcount",
    "fetch_add",
    "stop_requested",
    "equal_bytes",
]

# Status codes of every engine (numbadlx.sudoku.Status names them for users)
#: Not searched (yet).
NOT_RUN = 0
#: Exactly one solution (searched with limit >= 2).
UNIQUE = 1
#: A solution, uniqueness not checked (limit 1).
SOLVED = 2
#: At least two solutions; the first one is kept.
MULTIPLE = 3
#: Valid givens, but no way to complete them.
NO_SOLUTION = 4
#: Clashing givens, a value above n, or a row marked INVALID before the call.
INVALID = 5
#: ``max_nodes`` ran out first.
BUDGET = 6

#: Flag bit of a cell whose digit is fixed, in a ``uint64`` candidate mask (bit ``d``
#: for digit ``d + 1``; sizes up to 36 leave it free).
PLACED = np.uint64(1) << np.uint64(63)


@njit(cache=True, nogil=True, inline="always")
def clear_result(k, solutions, counts, nodes, guesses):
    """Zero row ``k`` of the result arrays: what every engine's bulk loop leaves for a
    puzzle already INVALID, which it does not search."""
    counts[k] = 0
    nodes[k] = 0
    guesses[k] = 0
    for cell in range(solutions.shape[1]):
        solutions[k, cell] = 0


@njit(cache=True, nogil=True, inline="always")
def final_status(complete, count, limit):
    """The status of a finished search (every Sudoku engine's): BUDGET if it was cut
    short, else NO_SOLUTION, MULTIPLE, SOLVED (limit 1) or UNIQUE by the count."""
    if not complete:
        return BUDGET
    if count == 0:
        return NO_SOLUTION
    if count >= 2:
        return MULTIPLE
    return SOLVED if limit == 1 else UNIQUE


@intrinsic
def popcount(typingctx, value):
    """Set bits of a uint64 or int64, in its own type (LLVM's ctpop: one instruction
    where the CPU has it)."""
    if value not in (types.uint64, types.int64):
        return None

    def codegen(context, builder, signature, args):
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, args)

    return value(value), codegen


@intrinsic
def fetch_add(typingctx, counter, index, value):
    """``counter[index] += value`` as one atomic step, inside ``@njit`` code; returns
    the value before the addition.

    The threads that share ``counter`` (calls of one kernel made at once on several
    Python threads, or the iterations of one ``prange``) take work units with it as
    they come free: split up front (with OpenMP, Numba gives each thread one
    contiguous share of a ``prange``), a thread is left idle when the hard puzzles of
    a file sit in the other's share, or when the machine slows one thread (see
    ``benchmarks/prange_schedule.py``).

    Parameters
    ----------
    counter : 1-D int64 array (writable)
        Shared by the threads; allocated before they start.
    index : integer
        The element to add to; bounds are checked only under ``NUMBA_BOUNDSCHECK=1``.
    value : integer
        Added to ``counter[index]``.

    Notes
    -----
    Numba's own analysis does not see this write. In the function that runs the
    ``prange``, ``counter[index]`` read after the loop was seen to come out as it was
    before the loop: read the counter in another function, or return the array.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def take_two(counter):
    ...     return fetch_add(counter, 0, 1), fetch_add(counter, 0, 1)
    >>> counter = np.zeros(1, dtype=np.int64)
    >>> take_two(counter), int(counter[0])
    ((0, 1), 2)
    """
    if not (
        isinstance(counter, types.Array)
        and counter.ndim == 1
        and counter.dtype == types.int64
        and counter.mutable
        and isinstance(index, types.Integer)
        and isinstance(value, types.Integer)
    ):
        return None
    signature = types.int64(counter, types.intp, types.int64)

    def codegen(context, builder, sig, args):
        array_type = sig.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(
            context,
            builder,
            array_type,
            array,
            [args[1]],
            boundscheck=context.enable_boundscheck,
        )
        return builder.atomic_rmw("add", pointer, args[2], "monotonic")

    return signature, codegen


@intrinsic
def stop_requested(typingctx, flag):
    """True once another thread has set ``flag[0]`` (a stop flag, see
    :mod:`numbadlx._stopping`) to non-zero, inside ``@njit`` code.

    The read is atomic, so the compiler reads the flag again at every call: a plain
    ``flag[0] != 0`` may be read once and kept in a register (no other thread writes
    it, as far as the compiler may assume), and a search would never see its stop.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def asked(flag):
    ...     return stop_requested(flag)
    >>> flag = np.zeros(1, dtype=np.int64)
    >>> asked(flag), asked(np.ones(1, dtype=np.int64))
    (False, True)
    """
    if not (isinstance(flag, types.Array) and flag.ndim == 1 and flag.dtype == types.int64):
        return None
    signature = types.boolean(flag)

    def codegen(context, builder, sig, args):
        array = context.make_array(sig.args[0])(context, builder, args[0])
        pointer = cgutils.get_item_pointer(
            context,
            builder,
            sig.args[0],
            array,
            [ir.Constant(ir.IntType(64), 0)],
            boundscheck=context.enable_boundscheck,
        )
        value = builder.load_atomic(pointer, "acquire", 8)
        return builder.icmp_signed("!=", value, ir.Constant(ir.IntType(64), 0))

    return signature, codegen


@intrinsic
def _equal_bytes_vector(typingctx, row, offset, value):
    """:func:`equal_bytes` for a contiguous uint8 row: one vector load, compare and mask
    move (the compiler makes no such thing of a loop over the bytes)."""
    if not (
        isinstance(row, types.Array)
        and row.ndim == 1
        and row.dtype == types.uint8
        and row.layout == "C"
        and isinstance(offset, types.Integer)
        and isinstance(value, types.Integer)
    ):
        return None
    signature = types.int64(row, types.intp, types.int64)

    def codegen(context, builder, sig, args):
        array = context.make_array(sig.args[0])(context, builder, args[0])
        vector = ir.VectorType(ir.IntType(8), 32)
        pointer = builder.bitcast(builder.gep(array.data, [args[1]]), vector.as_pointer())
        data = builder.load(pointer, align=1)
        byte = builder.trunc(args[2], ir.IntType(8))
        spread = builder.insert_element(
            ir.Constant(vector, ir.Undefined), byte, ir.Constant(ir.IntType(32), 0)
        )
        spread = builder.shuffle_vector(
            spread,
            ir.Constant(vector, ir.Undefined),
            ir.Constant(ir.VectorType(ir.IntType(32), 32), [0] * 32),
        )
        equal = builder.icmp_unsigned("==", data, spread)
        return builder.zext(builder.bitcast(equal, ir.IntType(32)), ir.IntType(64))

    return signature, codegen


def equal_bytes(row, offset, value):
    """The 32 bytes ``row[offset:offset + 32]`` that equal ``value``, a bit each (bit
    ``k`` for ``row[offset + k]``), inside ``@njit`` code.

    A contiguous uint8 row is compared in one vector step; any other row byte by byte.
    The 32 bytes must lie inside ``row``: they are not checked, not even under
    ``NUMBA_BOUNDSCHECK=1``.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def sevens(row):
    ...     return equal_bytes(row, 0, 7)
    >>> row = np.zeros(40, dtype=np.uint8)
    >>> row[[1, 5, 31]] = 7
    >>> bin(sevens(row))
    '0b10000000000000000000000000100010'
    """
    raise NotImplementedError("equal_bytes runs inside @njit code only")


@overload(
    equal_bytes,
    jit_options={
        "cache": True,
        "nogil": True,
        "no_cpython_wrapper": True,
        "no_cfunc_wrapper": True,
    },
)
def _equal_bytes_impl(row, offset, value):
    if isinstance(row, types.Array) and row.dtype == types.uint8 and row.layout == "C":
        return lambda row, offset, value: _equal_bytes_vector(row, offset, value)

    def one_by_one(row, offset, value):
        bits = 0
        for k in range(32):
            bits |= np.int64(row[offset + k] == value) << k
        return bits

    return one_by_one
