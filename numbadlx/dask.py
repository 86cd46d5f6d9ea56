"""numbadlx on Dask: bulk Sudoku arrays, puzzle files and split counts on a cluster.

An optional layer (``pip install numbadlx[dask]``); the core package never imports it.

* :func:`solve` maps the bulk Sudoku kernel over the blocks of a ``dask.array`` of
  puzzles and returns a lazy :class:`DaskSudokuResult` (solutions, status, counts,
  nodes as dask arrays). Any Dask scheduler runs it: threads, processes,
  ``dask.distributed``.
* :func:`solve_file` runs the file solve of :mod:`numbadlx.jobs` on its Dask executor
  (:class:`numbadlx.jobs.DaskExecutor`): byte ranges on line boundaries solved as
  tasks (on a ``distributed`` cluster, or a local thread pool), the output written in
  input order through the same checkpointed output as ``numbadlx solve``, so
  ``resume=True`` (``--resume``) carries on an interrupted run, with or without Dask.
  Its :class:`FileSummary` is the runner's, re-exported here.
* :func:`count` splits an exact-cover search tree into prefixes
  (:mod:`numbadlx.core.split`), or a problem with multiplicities into the states of
  Algorithm M's branches (:mod:`numbadlx.core.split_m`), counts them as tasks and adds
  the results.

This module is ``numbadlx.dask``; the ``import dask`` lines below are absolute imports
(Python 3 has no implicit relative imports), so they load the real Dask.

Examples
--------
>>> import dask.array as da
>>> import numpy as np
>>> from numbadlx import dask as ndask
>>> grid = np.zeros((6, 16), dtype=np.uint8)
>>> grid[:, 0] = [1, 2, 3, 4, 1, 2]
>>> lazy = ndask.solve(da.from_array(grid, chunks=(2, 16)), limit=1000)
>>> lazy.counts.compute(scheduler="threads").tolist()
[72, 72, 72, 72, 72, 72]
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import dask as _dask
import dask.array as _da
import numpy as np

from . import jobs as _jobs
from . import sudoku as _sudoku
from .core.split import count_prefixes as _count_prefixes_local
from .core.split import split_prefixes
from .core.split_m import split_m
from .core.validate import check_count
from .core.words import plural
from .jobs import DEFAULT_RANGE_BYTES, DaskExecutor, FileSummary
from .sudoku.formats import line_ranges

__all__ = [
    "solve",
    "DaskSudokuResult",
    "count",
    "count_prefixes",
    "solve_file",
    "line_ranges",
    "FileSummary",
    "DEFAULT_RANGE_BYTES",
]

_STATUS_NAMES = [status.name for status in _sudoku.Status]


# --------------------------------------------------------------------------- kernel calls


def _solve_array(grid, limit, max_nodes, box, threads, chunk, invalid=None, timeout=None):
    """``sudoku.solve`` with the task's options (it is safe to call from several
    threads at once: each call runs its own threads over the compiled kernels)."""
    kwargs = dict(
        limit=limit, threads=threads, max_nodes=max_nodes, box=box, chunk=chunk, invalid=invalid
    )
    if timeout is not None:
        kwargs["timeout"] = timeout
    return _sudoku.solve(grid, **kwargs)


# --------------------------------------------------------------------------- arrays


class _Parts:
    """The five result arrays of one block, kept opaque so Dask passes them as one
    object from the solving task to the tasks that pick the fields."""

    __slots__ = ("arrays",)

    def __init__(self, arrays):
        self.arrays = arrays

    def __getstate__(self):
        return self.arrays

    def __setstate__(self, arrays):
        self.arrays = arrays


def _solve_block(block, limit, max_nodes, box, threads, chunk):
    result = _solve_array(block, limit, max_nodes, box, threads, chunk)
    return _Parts((result.puzzles, result.solutions, result.status, result.counts, result.nodes))


def _part(parts, index):
    return parts.arrays[index]


@dataclass
class DaskSudokuResult:
    """The lazy result of :func:`solve`: one dask array per field of
    :class:`~numbadlx.sudoku.SudokuResult`, chunked like the puzzles.

    Attributes
    ----------
    puzzles : (N, n*n) uint8, the givens as solved (rows with values out of range are
        zeros and INVALID).
    solutions : (N, n*n) uint8.
    status : (N,) uint8, :class:`~numbadlx.sudoku.Status` codes.
    counts, nodes : (N,) int64.
    n, box, limit : as in :class:`~numbadlx.sudoku.SudokuResult`.
    """

    puzzles: object
    solutions: object
    status: object
    counts: object
    nodes: object
    n: int
    box: tuple
    limit: int
    packed: object = field(default=None, repr=False)  #: one _Parts object per block

    def arrays(self):
        return (self.puzzles, self.solutions, self.status, self.counts, self.nodes)

    def compute(self, **kwargs):
        """Compute every array in one pass (each block is solved once) and return a
        :class:`~numbadlx.sudoku.SudokuResult`; ``kwargs`` go to ``dask.compute``
        (e.g. ``scheduler="threads"``)."""
        start = time.perf_counter()
        if self.packed is not None:
            # one task per block: fetch the blocks' results whole, join them here
            blocks = _dask.compute(*self.packed.to_delayed().ravel().tolist(), **kwargs)
            joined = [
                np.concatenate([b.arrays[k] for b in blocks])
                if blocks
                else np.zeros(
                    (0, self.n * self.n) if k < 2 else 0, dtype=np.uint8 if k < 3 else np.int64
                )
                for k in range(5)
            ]
            puzzles, solutions, status, counts, nodes = joined
        else:
            puzzles, solutions, status, counts, nodes = _dask.compute(*self.arrays(), **kwargs)
        return _sudoku.SudokuResult(
            puzzles=puzzles,
            solutions=solutions,
            status=status,
            counts=counts,
            nodes=nodes,
            n=self.n,
            box=self.box,
            limit=self.limit,
            seconds=time.perf_counter() - start,
            threads=0,
        )

    def persist(self, **kwargs):
        """Solve now, keep the blocks in memory (on the cluster) and return a new
        :class:`DaskSudokuResult` over them."""
        arrays = _dask.persist(*self.arrays(), **kwargs)
        return DaskSudokuResult(*arrays, n=self.n, box=self.box, limit=self.limit)

    def status_counts(self, **kwargs):
        """``{name: how many}`` for every status that occurs (computes the status)."""
        tally = _da.bincount(self.status, minlength=len(_STATUS_NAMES)).compute(**kwargs)
        return {_STATUS_NAMES[k]: int(v) for k, v in enumerate(tally) if v}

    def __repr__(self):
        return (
            f"DaskSudokuResult({plural(self.puzzles.shape[0], 'puzzle')} of {self.n}x{self.n} in "
            f"{plural(self.puzzles.numblocks[0], 'block')}, limit {self.limit})"
        )


def solve(
    puzzles: Any,
    *,
    limit: int = 2,
    max_nodes: int | None = None,
    box: tuple[int, int] | None = None,
    threads: int = 1,
    chunk: int | None = None,
) -> DaskSudokuResult:
    """Solve a ``dask.array`` of Sudokus lazily, block by block, with the bulk kernel.

    Parameters
    ----------
    puzzles : dask.array.Array or array_like
        Shape (N, n*n) of integers (0 = blank), chunked along N (a chunking along the
        cells is merged). A NumPy array is wrapped in one block.
    limit, max_nodes, box, chunk : as in :func:`numbadlx.sudoku.solve`.
    threads : int, default 1
        Numba threads per block. Dask already runs blocks in parallel (one per worker
        thread), so one thread per block avoids oversubscription.

    Returns
    -------
    DaskSudokuResult
        Lazy arrays; ``.compute()`` gives a :class:`~numbadlx.sudoku.SudokuResult`,
        or compute the arrays you need (``dask.compute(r.status, r.counts)``).
    """
    check_count(limit, "limit")
    if max_nodes is not None:
        check_count(max_nodes, "max_nodes")
    if not isinstance(puzzles, _da.Array):
        puzzles = _da.from_array(np.asarray(puzzles), chunks=(-1, -1))
    if puzzles.ndim != 2:
        raise ValueError(f"puzzles must be an (N, n*n) array, got shape {puzzles.shape}")
    cells = puzzles.shape[1]
    n = int(round(cells**0.5)) if cells == cells else 0  # NaN width: unknown
    if n * n != cells:
        raise ValueError(f"a puzzle row has {cells} cells, which is not a square")
    box = _sudoku.box_shape(n, box)
    if (
        not (np.issubdtype(puzzles.dtype, np.integer) or np.issubdtype(puzzles.dtype, np.floating))
        or puzzles.dtype == np.bool_
    ):
        raise ValueError(f"puzzles must be integers, got dtype {puzzles.dtype}")
    if puzzles.numblocks[1] != 1:
        puzzles = puzzles.rechunk({1: -1})
    threads = check_count(threads, "threads")
    max_nodes = None if max_nodes is None else int(max_nodes)
    rows = puzzles.chunks[0]
    # Keys: name= (token= is deprecated in Dask) names the output fully, so it holds a
    # hash of everything the result depends on, as Dask's own default names do.
    key = _dask.base.tokenize(puzzles.name, int(limit), max_nodes, box, threads, chunk)
    # one task per block solves it into a _Parts object (a 1-D object "array" with one
    # element per block); light tasks pick the five fields out of it
    packed = puzzles.map_blocks(
        _solve_block,
        int(limit),
        max_nodes,
        box,
        threads,
        chunk,
        drop_axis=1,
        chunks=(rows,),
        dtype=object,
        meta=np.empty((0,), dtype=object),
        name=f"numbadlx-solve-{key}",
    )

    def field_(index, dtype, wide):
        if wide:
            return packed.map_blocks(
                _part,
                index,
                dtype=dtype,
                new_axis=1,
                chunks=(rows, (cells,)),
                meta=np.empty((0, 0), dtype=dtype),
                name=f"numbadlx-part{index}-{key}",
            )
        return packed.map_blocks(
            _part,
            index,
            dtype=dtype,
            chunks=(rows,),
            meta=np.empty((0,), dtype=dtype),
            name=f"numbadlx-part{index}-{key}",
        )

    return DaskSudokuResult(
        puzzles=field_(0, np.uint8, True),
        solutions=field_(1, np.uint8, True),
        status=field_(2, np.uint8, False),
        counts=field_(3, np.int64, False),
        nodes=field_(4, np.int64, False),
        n=n,
        box=box,
        limit=int(limit),
        packed=packed,
    )


# --------------------------------------------------------------------------- counting


def _count_batch(problem, prefixes, max_nodes, timeout):
    return _count_prefixes_local(problem, prefixes, max_nodes=max_nodes, timeout=timeout)


def _count_parts(parts, max_nodes, timeout):
    return [int(part.count(max_nodes=max_nodes, timeout=timeout)) for part in parts]


def _tasks(tasks, jobs):
    return min(jobs, 1024) if tasks is None else max(1, min(int(tasks), jobs))


def count_prefixes(
    problem: Any,
    prefixes: Sequence[tuple[int, ...]],
    *,
    client: Any = None,
    scheduler: Any = None,
    tasks: int | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> np.ndarray:
    """Count each prefix of ``prefixes`` (see :func:`numbadlx.core.split.count_prefix`) as
    Dask tasks; return an int64 array parallel to ``prefixes``.

    ``tasks`` is how many tasks to make (default: one per prefix, at most 1024); the
    prefixes are dealt to them in turn, so neighbouring subtrees, often of similar
    size, land in different tasks. ``client`` (a ``distributed.Client``) or
    ``scheduler`` (any Dask scheduler name) chooses where they run; by default Dask's
    current scheduler (a ``distributed`` client if one is active).
    """
    prefixes = [tuple(int(k) for k in prefix) for prefix in prefixes]
    if not prefixes:
        return np.zeros(0, dtype=np.int64)
    tasks = _tasks(tasks, len(prefixes))
    batches = [prefixes[j::tasks] for j in range(tasks)]
    shared = _dask.delayed(problem, pure=True)
    count_batch = _dask.delayed(_count_batch, pure=True)
    parts = [count_batch(shared, batch, max_nodes, timeout) for batch in batches]
    if client is not None:
        scheduler = client
    results = _dask.compute(*parts, scheduler=scheduler)
    counts = np.zeros(len(prefixes), dtype=np.int64)
    for j, part in enumerate(results):
        counts[j::tasks] = part
    return counts


def count(
    problem: Any,
    depth: int = 2,
    *,
    client: Any = None,
    scheduler: Any = None,
    tasks: int | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> int:
    """Count the solutions of an exact-cover problem on Dask.

    The search tree is split at ``depth`` levels into independent prefixes
    (:func:`numbadlx.core.split.split_prefixes`), the prefixes are counted as Dask tasks
    (:func:`count_prefixes`) and the counts are added: the total equals
    ``problem.count()``. ``max_nodes`` and ``timeout`` budget each prefix.

    A problem with multiplicities (Algorithm M) cannot be cut at prefixes of chosen
    options: two of M's branches may hold the same options yet leave different
    problems (one passed over an option that the other may still take). Its tree is
    cut instead into the states of its branches ``depth`` levels down
    (:func:`numbadlx.core.split_m.split_m`, as the threaded count does): each is a
    smaller problem with what is left of the bounds, the branches partition the
    solutions, and the parts are counted as tasks (``max_nodes`` and ``timeout``
    budget each part) and added.

    Examples
    --------
    >>> from numbadlx import problems
    >>> count(problems.n_queens(8), depth=2, scheduler="threads")
    92
    >>> count(problems.k_per_row_and_column(4, 2), depth=2, scheduler="threads")
    90
    """
    if getattr(problem, "bounds", None) is not None:
        parts = split_m(problem, 1, depth=depth)
        known = sum(settled for part, settled in parts if part is None)
        pieces = [part for part, _ in parts if part is not None]
        if not pieces:
            return int(known)
        tasks = _tasks(tasks, len(pieces))
        count_batch = _dask.delayed(_count_parts, pure=False)
        batches = [count_batch(pieces[j::tasks], max_nodes, timeout) for j in range(tasks)]
        results = _dask.compute(*batches, scheduler=client if client is not None else scheduler)
        return int(known) + sum(sum(result) for result in results)
    prefixes = split_prefixes(problem, depth)
    counts = count_prefixes(
        problem,
        prefixes,
        client=client,
        scheduler=scheduler,
        tasks=tasks,
        max_nodes=max_nodes,
        timeout=timeout,
    )
    return int(counts.sum())


# --------------------------------------------------------------------------- files


def solve_file(
    input: str | os.PathLike,
    output: str | os.PathLike | None = None,
    *,
    scheduler: Any = None,
    limit: int = 2,
    max_nodes: int | None = None,
    box: tuple[int, int] | None = None,
    n: int | None = None,
    format: str | None = None,
    csv: bool | None = None,
    chunk_bytes: int = DEFAULT_RANGE_BYTES,
    resume: bool = False,
    threads: int = 1,
    chunk_size: int = 16384,
    window: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    header: bool = True,
    timeout: float | None = None,
    log: Callable[[str], None] | None = None,
    engine: str = "auto",
    grid: bool = False,
    column: str | int | None = None,
    overwrite: bool = False,
) -> FileSummary:
    """Solve a puzzle file on Dask and write one result line per puzzle, in input order.

    The file is cut into byte ranges of about ``chunk_bytes`` on line boundaries
    (:func:`line_ranges`); each range is a task that reads, solves and formats its own
    puzzles (so the workers must see ``input`` at the same path). The driver writes
    the ranges' lines in input order as they arrive, through the
    :class:`~numbadlx.jobs.CheckpointedOutput` of the local
    :func:`numbadlx.jobs.solve_file` (each range a commit: output fsynced, then
    the ``OUTPUT.progress`` checkpoint replaced), so an interrupted run of either kind
    resumes with ``resume=True`` (``--resume``), locally or on Dask. The lines are those of
    ``numbadlx solve`` (text, or CSV for an output named ``*.csv`` or ``csv=True``).

    Parameters
    ----------
    input : path
        A line-format or CSV puzzle file.
    output : path, optional
        Where to write; None writes to standard output (no checkpoint), ``os.devnull``
        nowhere.
    scheduler : distributed.Client or str, optional
        A ``Client``; a scheduler address (``"tcp://host:8786"``); ``"local"`` or
        ``"local:N"`` for a ``LocalCluster`` of N worker processes (default: one per
        core), closed at the end; ``"threads"`` or ``"threads:N"`` for a thread pool in
        this process. Default: the active ``distributed`` client, else threads.
    limit, max_nodes, box : as in :func:`numbadlx.sudoku.solve`.
    n, format : puzzle size and input format (inferred when omitted).
    chunk_bytes : int
        Bytes of input per task at most; a smaller input is cut into about four ranges
        per worker thread (none under 16 KiB), so that every worker gets some.
    resume : bool
        Carry on from ``OUTPUT.progress`` if it exists (else start afresh).
    threads : int
        Numba threads per task (default 1: the cluster supplies the parallelism).
    chunk_size : int
        Puzzles parsed and solved at a time inside a task.
    window : int, optional
        Tasks in flight at once (default: 4 per worker thread); bounds the memory that
        finished but not yet written ranges take.
    progress : callable, optional
        Called as ``progress(end_byte, puzzles_written)`` after each range is written,
        and first with the starting point when resuming.
    header : bool
        Write the CSV header when starting at the beginning of the file.
    timeout : float, optional
        Seconds per ``chunk_size`` puzzles inside a task (``timeout`` of
        :func:`numbadlx.sudoku.solve`): puzzles not finished by then get BUDGET.
    log : callable, optional
        Called with each note on the run (resuming, no checkpoint found) as it arises;
        the notes are also in the summary's ``messages``.
    engine, grid, column : as in :func:`numbadlx.jobs.solve_file`: the search engine,
        grid blocks instead of lines, the puzzle column of a CSV input.
    overwrite : bool
        Replace an ``output`` that holds something; without it a regular file that is
        not empty is refused (FileExistsError, before any task; one with a checkpoint
        is named as an interrupted run, to carry on with ``resume``).

    Returns
    -------
    FileSummary
        ``interrupted`` is True after Ctrl-C (KeyboardInterrupt); the output then holds
        only whole ranges and the checkpoint says where to carry on.
    """
    executor = DaskExecutor(
        scheduler, chunk_bytes=chunk_bytes, chunk_size=chunk_size, window=window, n=n
    )
    return _jobs.solve_file(
        input,
        output,
        limit=limit,
        max_nodes=max_nodes,
        box=box,
        format=format,
        csv=csv,
        threads=int(threads),
        timeout=timeout,
        resume=resume,
        progress=progress,
        log=log,
        engine=engine,
        grid=grid,
        column=column,
        executor=executor,
        header=header,
        overwrite=overwrite,
    )
