"""Running the Sudoku layer's ``prange`` kernels: one place for the thread count and
for the lock that Numba's ``workqueue`` threading layer needs.

Every bulk call (``solve``, ``generate``, ``random_grids``, ``rate``, ``transform``)
runs its parallel kernel inside ``with parallel_threads(threads) as threads:``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["parallel_threads", "unsafe_threads_lock", "check_threads", "fetch_add"]

_PARALLEL_LOCK = threading.Lock()


def unsafe_threads_lock() -> threading.Lock | None:
    """The lock to hold around a parallel kernel call, or None when none is needed.

    Numba's ``workqueue`` threading layer (its fallback when neither OpenMP nor TBB
    loads) aborts the process if two threads run parallel code at once; the ``omp`` and
    ``tbb`` layers allow it. Until the first parallel call Numba cannot say which layer
    it will load, so that call is serialised too.
    """
    try:
        if numba.threading_layer() != "workqueue":
            return None
    except ValueError:  # no parallel call yet: the layer is not chosen
        pass
    return _PARALLEL_LOCK


def check_threads(threads: int | None) -> int:
    """``threads`` as an int in ``1..NUMBA_NUM_THREADS`` (None: Numba's current
    setting); TypeError or ValueError naming it otherwise."""
    if threads is None:
        return numba.get_num_threads()
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an integer, got {threads!r}")
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
    return int(threads)


@contextlib.contextmanager
def parallel_threads(threads: int | None) -> Iterator[int]:
    """Run the block's parallel kernels on ``threads`` threads (checked; None keeps
    Numba's setting), serialised under the workqueue layer, with Numba's parallel chunk
    size 1; the previous settings are restored afterwards. Yields the thread count.

    The chunk size asks for ``prange`` iterations to be handed out one at a time. The
    TBB layer does so; with OpenMP (Numba 0.68, this project's machine) it changed
    nothing, and each thread ran one contiguous share (``benchmarks/prange_schedule.py``).
    Kernels whose work is uneven take their units with :func:`fetch_add` instead.

    Examples
    --------
    >>> with parallel_threads(1) as threads:
    ...     threads
    1
    """
    previous = numba.get_num_threads()
    count = check_threads(threads)
    lock = unsafe_threads_lock()
    if lock is not None:
        lock.acquire()
    previous_chunk = numba.get_parallel_chunksize()
    try:
        numba.set_num_threads(count)
        numba.set_parallel_chunksize(1)
        yield count
    finally:
        numba.set_parallel_chunksize(previous_chunk)
        numba.set_num_threads(previous)
        if lock is not None:
            lock.release()


@intrinsic
def fetch_add(typingctx, counter, index, value):
    """``counter[index] += value`` as one atomic step, inside ``@njit`` code; returns
    the value before the addition.

    The threads of one ``prange`` that share ``counter`` take work units with it as
    they come free: with OpenMP, Numba gives each thread one contiguous share of a
    ``prange``, which leaves a thread idle when the hard puzzles of a file sit in the
    other's share, or when the machine slows one thread (see
    ``benchmarks/prange_schedule.py``).

    Parameters
    ----------
    counter : 1-D int64 array (writable)
        Shared by the threads; allocated before the ``prange``.
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
