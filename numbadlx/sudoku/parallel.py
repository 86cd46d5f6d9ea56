"""Running the Sudoku layer's ``prange`` kernels: one place for the thread count and
for the lock that Numba's ``workqueue`` threading layer needs.

Every bulk call with a ``prange`` kernel (``random_grids``, ``rate``, ``transform``)
runs it inside ``with parallel_threads(threads) as threads:``. ``solve`` and ``generate``
have none: they run their compiled kernels on Python threads (the kernels release the
GIL), and take only :func:`check_threads` from here. Kernels whose work is uneven hand
it out with :func:`~numbadlx.sudoku.engines.fetch_add` (also importable from here).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import numba

from ..core.validate import is_integer

# the engines' atomic counter, named here too beside the thread controls it works with
from .engines import fetch_add

__all__ = [
    "parallel_threads",
    "unsafe_threads_lock",
    "check_threads",
    "current_threads",
    "fetch_add",
]

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


def current_threads() -> int:
    """``numba.get_num_threads()``, without starting Numba's threading layer when no
    parallel code has run yet (a serial call need not pay about 0.01 s for it): until
    the layer starts, no thread has set a count of its own, and each has
    ``NUMBA_NUM_THREADS``.

    Examples
    --------
    >>> 1 <= current_threads() <= numba.config.NUMBA_NUM_THREADS
    True
    """
    try:
        numba.threading_layer()
    except ValueError:  # not started
        return numba.config.NUMBA_NUM_THREADS
    return numba.get_num_threads()


def check_threads(threads: int | None) -> int:
    """``threads`` as an int in ``1..NUMBA_NUM_THREADS`` (None: Numba's current
    setting); TypeError or ValueError naming it otherwise."""
    if threads is None:
        return current_threads()
    if not is_integer(threads):
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
