"""Where the work units of a file job run: in this process (:class:`LocalExecutor`) or
on Dask (:class:`DaskExecutor`). An executor cuts the input into units, runs the job's
``run_chunk`` on each and hands back :class:`Piece` objects in input order; it knows
nothing of outputs, checkpoints or what a job computes."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import sudoku as _sudoku
from .._compiling import compile_seconds
from .._stopping import LET_GO_SECONDS, join_for, stop_all
from ..core.validate import check_count
from ..sudoku.formats import line_ranges
from ._lines import TALLY_SIZE

#: Bytes of input per Dask task at most (about 100 000 9x9 puzzles).
DEFAULT_RANGE_BYTES = 8 << 20
#: Ranges per worker thread a Dask run aims at, so that every worker gets work and the
#: last ones to finish are short; a smaller input gets smaller ranges, down to
#: :data:`MIN_RANGE_BYTES`.
RANGES_PER_WORKER = 4
#: The smallest range cut to share an input among workers (about 200 9x9 puzzles): a
#: task has a fixed cost of a few milliseconds.
MIN_RANGE_BYTES = 16 << 10


@dataclass
class Piece:
    """The result of one work unit: ``data`` to append to the output for ``puzzles``
    puzzles (their statuses counted in ``tally``), the input read to ``end_byte``;
    ``n`` the puzzle size and ``seconds`` the job's own time on it."""

    data: bytes
    end_byte: int
    puzzles: int
    tally: np.ndarray
    n: int | None
    seconds: float = 0.0


def run_chunks(job, chunks, first_index=0):
    """Run ``job`` on every non-empty chunk of ``chunks`` (puzzle ``first_index`` of the
    file first) and join the results: ``(data, puzzles, tally, seconds)``."""
    pieces, tally, puzzles, seconds = [], np.zeros(TALLY_SIZE, dtype=np.int64), 0, 0.0
    for chunk in chunks:
        if len(chunk) == 0:
            continue
        data, part, spent = job.run_chunk(chunk, first_index + puzzles)
        pieces.append(data)
        tally += part
        puzzles += len(chunk)
        seconds += spent
    return b"".join(pieces), puzzles, tally, seconds


def relabel_chunks(chunks, path, label):
    """``chunks`` with each message of a bad row that names ``path`` naming ``label``
    instead (standard input is read from a temporary copy, which no message should
    show); ``chunks`` as they are when ``label`` is None or ``path`` itself."""
    if label is None or label == path:
        yield from chunks
        return
    prefix = f"{path}:"

    def named(errors):
        return [
            (row, label + text[len(path) :] if text.startswith(prefix) else text)
            for row, text in errors
        ]

    for chunk in chunks:
        chunk.errors = named(chunk.errors)
        chunk.solution_errors = named(chunk.solution_errors)
        yield chunk


def index_blocks(job, first_index, size):
    """The ``(begin, end)`` blocks of ``size`` puzzle indices from ``first_index`` to
    ``job.count``, for a job that reads no input."""
    return [(begin, min(job.count, begin + size)) for begin in range(first_index, job.count, size)]


def run_block(job, begin, end):
    """Task: puzzles ``begin`` to ``end - 1`` of a job that reads no input, as
    ``(data, puzzles, tally, seconds)``."""
    data, tally, seconds = job.run_block(begin, end)
    return data, end - begin, tally, seconds


#: Seconds :meth:`DaskExecutor.close` waits for a cluster or client to close: after a
#: finished run, and after one stopped early (Ctrl-C), when the caller is leaving.
CLOSE_SECONDS = 60.0
CLOSE_SECONDS_STOPPED = 2.0


def _result(future):
    """The result of ``future`` (a Dask or a thread-pool future), waited for in short
    sleeps of this thread: a Ctrl-C then lands in ``time.sleep`` here, never inside
    distributed's own blocking wait, which it can leave half done (a client that no
    longer closes)."""
    while not future.done():
        time.sleep(0.002)
    return future.result()


def _interruptible(function, *args):
    """Call ``function`` on a helper thread and wait for it so that Ctrl-C gets through.

    Python runs signal handlers only between bytecodes of the main thread, so a long
    compiled search called from the main thread would hold Ctrl-C back until it ends.
    The kernels release the GIL, so here the main thread waits in short joins and a
    KeyboardInterrupt reaches it at once; every kernel that watches a stop flag is
    then told to stop (:func:`numbadlx._stopping.stop_all`) and the helper thread is
    waited for a moment before it is let go (it may still be compiling). Off the main
    thread, ``function`` is simply called.
    """
    if threading.current_thread() is not threading.main_thread():
        return function(*args)
    return _Call(function, *args).wait()


class _Call:
    """``function(*args)`` started on a helper thread: :meth:`wait` for its value in
    short joins, so that Ctrl-C reaches this thread at once (then the call is stopped
    and re-raised, as :func:`_interruptible` does), or :meth:`stop` it."""

    def __init__(self, function, *args):
        self._outcome = {}
        # the call's end, set by the worker as its last act: after a Ctrl-C that
        # interrupted Thread.join, Python 3.11 says the thread has ended while it runs
        # on (see join_for)
        self._done = threading.Event()
        self._worker = threading.Thread(
            target=self._target, args=(function, args), name="numbadlx-job", daemon=True
        )
        self._worker.start()

    def _target(self, function, args):
        try:
            self._outcome["value"] = function(*args)
        except BaseException as error:  # handed to the waiting thread
            self._outcome["error"] = error
        finally:
            self._done.set()

    def wait(self):
        try:
            while not self._done.is_set():
                self._done.wait(0.05)
        except KeyboardInterrupt:
            self.stop()
            raise
        if "error" in self._outcome:
            raise self._outcome["error"]
        return self._outcome["value"]

    def stop(self):
        """End the call early: on the main thread every stoppable kernel is told to
        stop and the call is waited for a moment before it is let go (it may still be
        compiling); elsewhere it is waited for."""
        if self._done.is_set():
            return
        if threading.current_thread() is threading.main_thread():
            stop_all()
            join_for(self._worker, LET_GO_SECONDS, self._done)
        else:
            self._done.wait()


def _timed(solve):
    """``solve`` that also returns its wall seconds and the seconds of them this process
    spent compiling kernels: ``(value, wall, compiling)``."""

    def call(*args):
        begin, compiled = time.perf_counter(), compile_seconds()
        value = solve(*args)
        return value, time.perf_counter() - begin, compile_seconds() - compiled

    return call


def _piece(write, chunk, timed):
    """The :class:`Piece` of ``chunk`` from what its solving gave (``timed``: the value,
    its wall and compiling seconds, from :func:`_timed`), written by ``write`` (a job's
    ``write_chunk``; None when the value is already written). The piece's seconds are
    the solver's alone: never more than the wall time less any compiling (a kernel the
    first chunks did not need, compiled on a later one, is no solver time)."""
    value, wall, compiling = timed
    data, tally, seconds = value if write is None else write(chunk, value)
    seconds = max(0.0, min(seconds, wall - compiling))
    return Piece(data, chunk.end_byte, len(chunk), tally, chunk.n, seconds)


class LocalExecutor:
    """Run a job in this process: the input is read ``chunk_size`` puzzles at a time (any
    format :func:`~numbadlx.sudoku.iter_chunks` reads) and each chunk is one unit, solved
    on a helper thread (so that Ctrl-C stops even a long search at once) while this
    thread reads the next chunk and writes the lines of the one before; a job without
    input (generate) gets blocks of ``chunk_size`` puzzle indices as its units. The
    job's own threads (``threads`` of solve, rate and generate) do the parallel work."""

    name = "local"

    def __init__(self, chunk_size: int = 16384):
        self.chunk_size = check_count(chunk_size, "chunk_size")
        self.startup_seconds = 0.0

    def check(self, path, job):
        """Nothing to check: every input format is read here."""

    def pieces(
        self, job, path, *, start_byte=0, n=None, first_index=0, label=None
    ) -> Iterator[Piece]:
        """The job's pieces in input order; ``label`` names the input in the messages
        of unreadable rows (``<stdin>`` for the copy of standard input)."""
        if path is None:  # a job without input: blocks of puzzle indices
            yield from self._blocks(job, first_index)
            return
        chunks = _sudoku.iter_chunks(
            path,
            chunk_size=self.chunk_size,
            box=job.box,
            format=job.format,
            start_byte=start_byte,
            n=n,
            column=job.column,
            start_row=first_index,  # where a Parquet or Arrow input carries on
        )
        yield from self._pipeline(job, relabel_chunks(chunks, path, label), first_index)

    def _pipeline(self, job, chunks, first_index):
        """The pieces of ``chunks`` in order, three chunks at work at once: while chunk
        ``k`` is solved on a helper thread (the kernels release the GIL), this thread
        reads chunk ``k + 1`` and, once ``k - 1`` is solved, writes its lines and hands
        its piece over (to be committed before the next one is asked for). A job with
        ``solve_chunk`` and ``write_chunk`` gets only the first on the helper thread;
        another runs its whole ``run_chunk`` there.

        A chunk whose solving fails (or is stopped by Ctrl-C) ends the run after the
        chunks before it were handed over; when the run ends early, a chunk still being
        solved is stopped as :func:`_interruptible` stops one."""
        solve = getattr(job, "solve_chunk", None)
        write = getattr(job, "write_chunk", None)
        if solve is None or write is None:
            solve, write = job.run_chunk, None
        solve = _timed(solve)
        running = None  # (chunk, call) being solved
        done = first_index
        try:
            for chunk in chunks:  # reading the next chunk while one is solved
                if len(chunk) == 0:
                    continue
                if done == first_index:
                    # compile or load the kernels before the first chunk, so that the
                    # job's seconds are its own
                    begin = time.perf_counter()
                    job.warm(chunk.n, len(chunk), chunk.rules)
                    self.startup_seconds = time.perf_counter() - begin
                finished = None
                if running is not None:
                    finished = (running[0], self._waited(running[1]))
                running = (chunk, _Call(solve, chunk, done))
                done += len(chunk)
                if finished is not None:
                    yield _piece(write, *finished)
            if running is not None:
                finished = (running[0], self._waited(running[1]))
                running = None
                yield _piece(write, *finished)
        finally:
            if running is not None:
                running[1].stop()

    def _waited(self, call):
        """The value of a chunk's ``call`` (:func:`_timed`'s triple); a compile during it
        is counted as startup, as the compiling before the first chunk is."""
        timed = call.wait()
        self.startup_seconds += timed[2]
        return timed

    def _blocks(self, job, first_index):
        """Puzzles ``first_index`` to ``job.count - 1`` of a job that reads no input
        (:class:`~numbadlx.jobs.GenerateJob`), ``chunk_size`` a unit; a piece's
        ``end_byte`` is the index after its last puzzle."""
        for begin, end in index_blocks(job, first_index, self.chunk_size):
            data, puzzles, tally, seconds = _interruptible(run_block, job, begin, end)
            yield Piece(data, end, puzzles, tally, job.size, seconds)

    def close(self):
        """Nothing to release."""


def _range_chunks(job, path, fmt, n, start, stop, first_line, chunk_size):
    """The puzzle chunks of one byte range of the input, as ``job`` reads them."""
    return _sudoku.iter_chunks(
        path,
        chunk_size=chunk_size,
        n=n,
        box=job.box,
        format=fmt,
        start_byte=start,
        start_line=first_line,
        stop_byte=stop,
        column=job.column,
    )


def _run_range(job, path, fmt, n, start, stop, first_line, first_index, chunk_size, label=None):
    """Task: run ``job`` on the puzzles of one byte range of the input (``label``
    naming it in the messages of unreadable rows)."""
    if start >= stop:
        return b"", 0, np.zeros(TALLY_SIZE, dtype=np.int64), 0.0
    chunks = _range_chunks(job, path, fmt, n, start, stop, first_line, chunk_size)
    return run_chunks(job, relabel_chunks(chunks, path, label), first_index)


def _count_range(job, path, fmt, n, start, stop, first_line, chunk_size):
    """Task: how many puzzles one byte range holds (for jobs that number them)."""
    if start >= stop:
        return 0
    chunks = _range_chunks(job, path, fmt, n, start, stop, first_line, chunk_size)
    return sum(len(chunk) for chunk in chunks)


class DaskExecutor:
    """Run a job on Dask: the input (line or CSV format) is cut into byte ranges of
    about ``chunk_bytes`` on line boundaries (rows, for CSV), or smaller ones when that
    would leave workers idle (about four ranges per worker thread, none under 16 KiB),
    and each range is a task that reads its own puzzles (so the workers must see the
    input at the same path) and runs the job on them ``chunk_size`` at a time; a job
    without input (generate) gets a task per block of ``chunk_size`` puzzle indices. At
    most ``window`` tasks are in flight (default: 4 per worker thread); the results come
    back in input order.
    ``n`` is the puzzle size (default: that of the first puzzle).

    ``scheduler``: a ``distributed.Client``; a scheduler address
    (``"tcp://host:8786"``); ``"local"`` or ``"local:N"`` for a ``LocalCluster`` of N
    worker processes (default: one per core), closed at the end; ``"threads"`` or
    ``"threads:N"`` for a thread pool in this process. Default: the active
    ``distributed`` client, else threads. Dask and distributed are imported only here,
    when a cluster is used.
    """

    name = "dask"

    def __init__(
        self,
        scheduler: Any = None,
        *,
        chunk_bytes: int = DEFAULT_RANGE_BYTES,
        chunk_size: int = 16384,
        window: int | None = None,
        n: int | None = None,
    ):
        self.scheduler = scheduler
        self.n = n
        self.chunk_bytes = check_count(chunk_bytes, "chunk_bytes")
        self.chunk_size = check_count(chunk_size, "chunk_size")
        self.window = window
        self.startup_seconds = 0.0
        self._fmt = None
        self._slots = 1  # worker threads, once connected
        self._client = None
        self._pool = None
        self._owned = []  # things to close at the end, last first
        self._stopped_early = False

    def check(self, path, job):
        """Refuse (ValueError) an input a range task cannot read: checked before the
        output is opened, which would empty it."""
        if path is None:  # a job without input: every task makes its own block
            return
        fmt = _sudoku.file_format(path, job.format, self.n)
        if fmt not in ("lines", "csv"):
            raise ValueError(
                f"{path}: solving on Dask reads line and CSV files (one puzzle "
                f"per line), not {fmt!r}; use the local solver for it"
            )
        self._fmt = fmt

    def pieces(
        self, job, path, *, start_byte=0, n=None, first_index=0, label=None
    ) -> Iterator[Piece]:
        """As :meth:`LocalExecutor.pieces`, each range a Dask task."""
        if path is None:  # a job without input: blocks of chunk_size puzzle indices
            blocks = index_blocks(job, first_index, self.chunk_size)
            if blocks:
                self._connect()
            tasks = [(end, (run_block, job, begin, end)) for begin, end in blocks]
            yield from self._in_order(tasks, job.size)
            return
        fmt = self._fmt or _sudoku.file_format(path, job.format, self.n)
        n = n or self.n
        if n is None:
            n = _first_size(path, fmt, job)
        if n is None or os.path.getsize(path) <= start_byte:  # no puzzle (left) to read
            return
        self._connect()
        # a CSV is cut between rows, never inside a quoted field holding line breaks
        ranges = line_ranges(path, self._range_bytes(path, start_byte), start_byte, fmt == "csv")
        if not ranges:
            return
        firsts = self._first_indices(job, path, fmt, n, ranges, first_index)
        tasks = [
            (
                stop,
                (_run_range, job, path, fmt, n, start, stop, line, first, self.chunk_size, label),
            )
            for (start, stop, line), first in zip(ranges, firsts)
        ]
        yield from self._in_order(tasks, n)

    def _range_bytes(self, path, start_byte=0):
        """The bytes of input per task: ``chunk_bytes`` at most, less when the input
        left to read would give fewer than :data:`RANGES_PER_WORKER` ranges per worker
        thread (but not under :data:`MIN_RANGE_BYTES`)."""
        left = max(0, os.path.getsize(path) - start_byte)
        share = -(-left // (RANGES_PER_WORKER * self._slots))
        return max(1, min(self.chunk_bytes, max(MIN_RANGE_BYTES, share)))

    def _in_order(self, tasks, n):
        """Submit ``tasks`` (``(end_byte, (function, *args))``, each function returning
        ``(data, puzzles, tally, seconds)``) with at most ``window`` in flight, and
        yield their pieces in order."""
        window = max(1, int(self.window) if self.window else 4 * self._slots)
        pending = {}
        submitted = 0
        try:
            for index, (stop, _) in enumerate(tasks):
                while submitted < len(tasks) and submitted < index + window:
                    pending[submitted] = self._submit(*tasks[submitted][1])
                    submitted += 1
                data, puzzles, tally, seconds = _result(pending.pop(index))
                yield Piece(data, stop, puzzles, tally, n, seconds)
        finally:
            if pending:  # stopped early: Ctrl-C, or an error downstream
                self._stopped_early = True
            if True:
                for future in pending.values():
                    future.cancel()
            # a Dask future is let go instead: cancelling waits on the scheduler, and the
            # tasks of futures nobody holds any more are dropped by it anyway
            pending.clear()

    def _first_indices(self, job, path, fmt, n, ranges, first_index):
        """The file index of each range's first puzzle, for jobs that need it (rate
        draws its isomorphs from it); zeros otherwise."""
        if not getattr(job, "numbered", False):
            return [0] * len(ranges)
        futures = [
            self._submit(_count_range, job, path, fmt, n, a, b, line, self.chunk_size)
            for a, b, line in ranges
        ]
        counts = [_result(future) for future in futures]
        return [first_index + int(v) for v in np.concatenate(([0], np.cumsum(counts)[:-1]))]

    def _connect(self):
        if self._client is not None or self._pool is not None:
            return
        scheduler = self.scheduler
        if scheduler is None:
            try:
                from distributed import default_client

                scheduler = default_client()
            except (ImportError, ValueError):
                scheduler = "threads"
        if isinstance(scheduler, str) and scheduler.split(":")[0] in ("threads", "local"):
            kind, _, number = scheduler.partition(":")
            workers = int(number) if number else (os.cpu_count() or 1)
            if workers < 1:
                raise ValueError(f"{scheduler}: need at least one worker")
            if kind == "threads":
                self._pool = ThreadPoolExecutor(workers, thread_name_prefix="numbadlx")
                # running tasks are not waited for (after Ctrl-C they are abandoned)
                pool = self._pool
                self._owned.append(lambda _: pool.shutdown(wait=False, cancel_futures=True))
                self._slots = workers
                return
            from distributed import Client, LocalCluster

            cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
            )
            self._owned.append(lambda timeout: cluster.close(timeout=timeout))
            scheduler = Client(cluster)
            self._owned.append(lambda timeout, client=scheduler: client.close(timeout=timeout))
        elif isinstance(scheduler, str):
            from distributed import Client

            scheduler = Client(scheduler)
            self._owned.append(lambda timeout, client=scheduler: client.close(timeout=timeout))
        self._client = scheduler
        self._slots = max(1, sum(self._client.nthreads().values()))

    def _submit(self, fn, *args):
        if self._pool is not None:
            return self._pool.submit(fn, *args)
        return self._client.submit(fn, *args, pure=False)

    def close(self):
        """Close what this executor opened (a thread pool, a LocalCluster, a Client),
        waiting at most :data:`CLOSE_SECONDS` for each (:data:`CLOSE_SECONDS_STOPPED`
        after a run stopped early), so that a scheduler that does not answer never holds
        the caller, after Ctrl-C above all."""
        owned, self._owned = self._owned, []
        self._client = self._pool = None
        timeout = CLOSE_SECONDS_STOPPED if self._stopped_early else CLOSE_SECONDS
        for close in reversed(owned):
            try:
                close(timeout)
            except Exception:  # noqa: BLE001 - best effort at shutdown (TimeoutError too)
                pass


def _first_size(path, fmt, job):
    """Puzzle size from the first puzzle of the file, or None for a file without any."""
    for chunk in _sudoku.iter_chunks(
        path, chunk_size=1, box=job.box, format=fmt, column=job.column
    ):
        return chunk.n
    return None
