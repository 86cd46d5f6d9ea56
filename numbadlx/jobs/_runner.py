"""The one loop of every file job: check the input and the output, open the checkpointed
output (fresh or resumed), take the executor's pieces in input order and commit each;
and the public job functions built on it."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

from .._compiling import compile_seconds
from ..core.validate import check_count, check_integer
from ._checkpoint import Checkpoint, checkpoint_path
from ._columnar import columnar_kind, finish_output, spool_path
from ._executors import LocalExecutor
from ._extras import check_candidates_level
from ._guard import check_replace
from ._inputs import JobInput, check_output
from ._jobs import GenerateJob, RateJob, SolveJob
from ._output import CheckpointedOutput, FileSummary


def run_job(
    job: Any,
    input: str | os.PathLike | None,
    output: str | os.PathLike | None = None,
    *,
    executor: Any = None,
    resume: bool = False,
    header: bool = True,
    progress: Callable[[int, int], None] | None = None,
    log: Callable[[str], None] | None = None,
    overwrite: bool = False,
) -> FileSummary:
    """Run ``job`` (:class:`SolveJob` or :class:`RateJob`) over the puzzle file
    ``input`` into ``output`` on ``executor`` (default: a :class:`LocalExecutor`); or
    a job that reads no input (:class:`GenerateJob`, ``input`` None) in blocks of
    puzzle indices, each committed as a piece of input is.

    ``input`` ``"-"`` is standard input (a pipe is read the same way: both are copied to
    a temporary file first, and cannot be resumed). ``output`` None is standard output,
    ``os.devnull`` nowhere; a regular file gets an ``OUTPUT.progress`` checkpoint after
    each piece and is locked while the job writes it. ``resume`` carries on from the
    checkpoint; ``header`` writes the job's header (CSV, .npy) when starting from the top;
    ``progress(end_byte, puzzles)`` is called after each piece (and first with the
    starting point when resuming); ``log`` gets each note on the run.
    An ``output`` that holds something (a regular file that is not empty) is replaced
    only with ``overwrite``; else FileExistsError, before any work or any input is read
    (:func:`~numbadlx.jobs.check_replace`: one with a checkpoint is named as an
    interrupted run, which ``resume`` carries on).
    The executor is closed at the end.
    """
    started = time.perf_counter()
    executor = LocalExecutor() if executor is None else executor
    try:
        if output is not None and input not in (None, "-") and os.path.isfile(input):
            check_output(os.fspath(input), os.fspath(output))  # said first
        check_replace(output, resume=resume, overwrite=overwrite)  # before any work
    except BaseException:
        executor.close()
        raise
    sink_options = {"resume": resume, "overwrite": overwrite}
    if input is None:
        try:
            return _run(
                job, None, output, executor, sink_options, header, progress, log, started, None
            )
        finally:
            executor.close()
    source = JobInput(input, resume)
    try:
        with source as path:
            try:
                return _run(
                    job,
                    path,
                    output,
                    executor,
                    sink_options,
                    header,
                    progress,
                    log,
                    started,
                    source.label,
                )
            except (ValueError, OSError) as error:
                relabelled = source.relabel(error)
                if relabelled is error:
                    raise
                raise relabelled from None
    finally:
        executor.close()


def _run(job, path, output, executor, sink_options, header, progress, log, started, label):
    output = None if output is None else os.fspath(output)
    resume = sink_options["resume"]
    if path is not None:
        check_output(path, output)
    if isinstance(job, GenerateJob):
        job.check()  # before a fresh seed is drawn and said
        job = _settle_seed(job, output, resume, log)
    executor.check(path, job)  # before the output is opened, which would empty it
    sink = CheckpointedOutput(
        output, path, job.options, header=job.header if header else None, log=log, **sink_options
    )
    interrupted = ok = False
    seconds = 0.0
    compiled_before = compile_seconds()
    try:
        if progress is not None and sink.start_byte:
            progress(sink.start_byte, sink.puzzles)
        pieces = executor.pieces(
            job,
            sink.input,
            start_byte=sink.start_byte,
            n=sink.n,
            first_index=sink.puzzles,
            label=label,
        )
        with contextlib.closing(pieces):
            for piece in pieces:
                sink.commit(piece.data, piece.end_byte, piece.puzzles, piece.tally, n=piece.n)
                seconds += piece.seconds
                if progress is not None:
                    progress(piece.end_byte, sink.puzzles)
        sink.stop_if_interrupted()  # a Ctrl-C swallowed after the last commit
        ok = True
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sink.close(ok)
    summary = sink.summary(
        started,
        interrupted,
        solve_seconds=seconds,
        startup_seconds=executor.startup_seconds,
    )
    summary.compile_seconds = compile_seconds() - compiled_before
    summary.n = sink.n
    summary.unreadable = summary.tally.get("INVALID", 0) if isinstance(job, RateJob) else 0
    summary.seed = job.seed if isinstance(job, GenerateJob) else None
    return summary


def _settle_seed(job, output, resume, log):
    """A generate job without a seed takes the one its checkpoint recorded (when
    resuming) or a fresh one, which is said (``log``) so that it can be given again."""
    if job.seed is not None:
        return job
    saved = None
    if resume and output is not None and os.path.isfile(checkpoint_path(output)):
        try:
            saved = Checkpoint.read(checkpoint_path(output)).options
        except ValueError:
            saved = None  # the output's own checks say what is wrong with it
    settled = job.settle(saved)
    if log is not None and (saved or {}).get("seed") != settled.seed:
        log(f"seed {settled.seed} (drawn afresh; --seed {settled.seed} makes these puzzles again)")
    return settled


def solve_file(
    input: str | os.PathLike,
    output: str | os.PathLike | None = None,
    *,
    limit: int = 2,
    max_nodes: int | None = None,
    box: tuple[int, int] | None = None,
    format: str | None = None,
    csv: bool | None = None,
    chunk_size: int = 16384,
    threads: int | None = None,
    timeout: float | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    log: Callable[[str], None] | None = None,
    engine: str = "auto",
    grid: bool = False,
    column: str | int | None = None,
    executor: Any = None,
    header: bool = True,
    all_solutions: int | None = None,
    canonical: bool = False,
    candidates: str | None = None,
    backtracks: bool = False,
    overwrite: bool = False,
) -> FileSummary:
    """Solve a puzzle file chunk by chunk and write one result line per puzzle
    (:func:`~numbadlx.jobs.result_lines`), in input order, with checkpoints.

    Parameters
    ----------
    input : path or "-"
        A puzzle file in any format :func:`~numbadlx.sudoku.iter_chunks` reads (line
        and CSV files only on Dask); ``"-"`` reads standard input.
    output : path, optional
        Where to write (CSV when named ``*.csv`` or ``csv=True``), committed chunk by
        chunk with an ``OUTPUT.progress`` checkpoint; None writes to standard output,
        ``os.devnull`` nowhere. An output named ``*.parquet`` (or ``*.arrow``,
        ``*.feather``) is a Parquet (Arrow IPC) file of typed columns, one row group
        per chunk: the chunks are committed to ``OUTPUT.part`` (an Arrow stream, with
        its own checkpoint and resume) and written out when the run is complete.
    limit, max_nodes, box, threads, engine : as in :func:`numbadlx.sudoku.solve`.
    format : input format (inferred when omitted).
    chunk_size : int
        Puzzles read, solved and written at a time (inside a task on Dask).
    timeout : float, optional
        Seconds per chunk (``timeout`` of :func:`numbadlx.sudoku.solve`).
    resume : bool
        Carry on from ``OUTPUT.progress`` if it exists (else start afresh); ValueError
        if it belongs to another input, other options, or the output does not begin
        with the bytes it says were written (their length and SHA-256). A run of
        either executor resumes with the other.
    overwrite : bool
        Replace an ``output`` that holds something. Without it a regular file that is
        not empty is refused (FileExistsError, before any work; one with a checkpoint
        is named as an interrupted run, to carry on with ``resume``); a new or empty
        file, standard output and a device are written either way. A Parquet or Arrow
        output is checked with its spool.
    progress : callable, optional
        Called as ``progress(end_byte, puzzles_written)`` after each chunk is written,
        and first with the starting point when resuming.
    log : callable, optional
        Called with each note on the run (resuming, no checkpoint found) as it arises.
    grid : bool
        Write each result as a grid block (``grid`` of
        :func:`~numbadlx.jobs.result_lines`, the shape of contest files) instead of a
        line; not with CSV (ValueError).
    column : str or int, optional
        The puzzle column of a CSV input (``column`` of
        :func:`~numbadlx.sudoku.iter_chunks`).
    executor : LocalExecutor or DaskExecutor, optional
        Where the chunks are solved (default: this process, ``chunk_size`` at a time);
        it is closed at the end.
    header : bool
        Write :data:`~numbadlx.jobs.CSV_HEADER` first when writing CSV from the top.
    all_solutions : int, optional
        Write up to this many solutions of each puzzle
        (:func:`numbadlx.sudoku.solutions`) instead of the first: a CSV row per puzzle
        with a column per solution, or a text line per solution
        (:func:`~numbadlx.jobs.solutions_text`); not with ``grid`` or ``timeout``.
    canonical, candidates, backtracks
        Extra columns of a CSV, Parquet or Arrow output (ValueError for text, grid
        blocks or ``all_solutions``), after the others: ``canonical`` each puzzle's
        canonical form (:func:`numbadlx.sudoku.canonical`), ``candidates`` (a level of
        :data:`numbadlx.sudoku.LOGIC_LEVELS`) its candidate masks after that logic
        (:func:`numbadlx.sudoku.candidates`; in CSV the masks as numbers separated by
        spaces, one a cell), ``backtracks`` the guesses of this solve's search
        (:func:`numbadlx.sudoku.backtracks` with this ``limit``). A row without a value
        (unreadable, clashing givens; no rating for NO_SOLUTION or BUDGET) has an empty
        field or a null, its status and message saying why. They are recorded in the
        checkpoint: a resumed run must ask for the same.

    Returns
    -------
    FileSummary
        ``interrupted`` is True after Ctrl-C (KeyboardInterrupt): the output then holds
        whole lines for a prefix of the input and the checkpoint says where to carry
        on. Any other error propagates, the output cut back to the last commit.

    Examples
    --------
    >>> import os, tempfile
    >>> from numbadlx import jobs
    >>> folder = tempfile.mkdtemp()
    >>> source = os.path.join(folder, "in.txt")
    >>> with open(source, "w") as f:
    ...     _ = f.write("0200004034000000\\n1100000000000000\\n")
    >>> summary = jobs.solve_file(source, os.path.join(folder, "out.txt"))
    >>> summary.puzzles, summary.tally
    (2, {'UNIQUE': 1, 'INVALID': 1})
    >>> print(open(os.path.join(folder, "out.txt")).read(), end="")
    4213134234212134
    1100000000000000  # INVALID: givens clash
    >>> import shutil; shutil.rmtree(folder)
    """
    name = None if output is None else os.fspath(output)
    kind = columnar_kind(name)
    if kind is not None and (csv or grid):
        raise ValueError(f"{name} is a {kind} file, not CSV or grid text: drop csv or grid")
    if csv is None:
        csv = bool(name) and name.lower().endswith(".csv")
    if csv and grid:
        raise ValueError(
            "grid blocks are text, not CSV: pass grid=True with csv=False (an output "
            "named *.csv is CSV unless csv=False), or drop grid"
        )
    if all_solutions is not None:
        all_solutions = check_count(all_solutions, "all_solutions")
        if grid or timeout is not None:
            raise ValueError("all_solutions writes lines or CSV, without a timeout")
    extras = canonical or candidates is not None or backtracks
    if extras and (all_solutions or grid or not (csv or kind)):
        raise ValueError(
            "the canonical, candidates and backtracks columns are written to CSV, Parquet "
            "or Arrow outputs, without all_solutions or grid"
        )
    job = SolveJob(
        canonical=bool(canonical),
        candidates=check_candidates_level(candidates),
        backtracks=bool(backtracks),
        columnar=kind,
        all_solutions=all_solutions,
        limit=check_count(limit, "limit"),
        max_nodes=None if max_nodes is None else check_count(max_nodes, "max_nodes"),
        box=box,
        format=format,
        column=column,
        timeout=timeout,
        engine=engine,
        csv=bool(csv),
        grid=bool(grid),
        threads=threads,
    )
    if executor is None:
        executor = LocalExecutor(chunk_size)
    return _run_into(job, input, output, kind, executor, resume, overwrite, header, progress, log)


def _run_into(job, input, output, kind, executor, resume, overwrite, header, progress, log):
    """:func:`run_job` into ``output``; for a columnar ``kind``, into its spool, written
    out as the file asked for once the run is complete."""
    if kind is None:
        return run_job(
            job, input, output, executor=executor, resume=resume, header=header,
            progress=progress, log=log, overwrite=overwrite,
        )  # fmt: skip
    name = os.fspath(output)
    if input != "-" and os.path.exists(name) and os.path.exists(input):
        check_output(os.fspath(input), name)  # the output is not the input
    try:
        check_replace(name, resume=resume, overwrite=overwrite)  # the file and its spool
    except BaseException:
        executor.close()
        raise
    spool = spool_path(name)
    summary = run_job(
        job, input, spool, executor=executor, resume=resume, header=True,
        progress=progress, log=log, overwrite=overwrite,
    )  # fmt: skip
    if not summary.interrupted:
        finish_output(spool, name, kind, overwrite=overwrite)
    return summary


def rate_file(
    input: str | os.PathLike,
    output: str | os.PathLike | None = None,
    *,
    isomorphs: int = 8,
    seed: int = 0,
    logic: bool = True,
    box: tuple[int, int] | None = None,
    format: str | None = None,
    column: str | int | None = None,
    chunk_size: int = 16384,
    threads: int | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    log: Callable[[str], None] | None = None,
    executor: Any = None,
    steps: bool = False,
    masks: bool = False,
    overwrite: bool = False,
) -> FileSummary:
    """Rate every puzzle of a file (:func:`numbadlx.sudoku.rate`) into a CSV:
    ``puzzle,tries,logic,hardest``, one line per puzzle in input order, with the
    checkpoints, lock and resume of :func:`solve_file`. An unreadable puzzle keeps its
    text and gets empty ratings and ``hardest`` = the reason (``unreadable`` of the
    summary counts them); so does a puzzle without exactly one solution, with
    ``hardest`` = ``multiple solutions`` or ``invalid or no solution``.

    With ``steps``, the file is the trace of the logic ladder instead: a row per step of
    each puzzle (:meth:`numbadlx.sudoku.Ratings.steps`: ``puzzle`` its row in the input,
    from 0, ``step``, ``technique``, ``rating``, ``row``, ``column``, ``digit``,
    ``removed``) with its ``status`` and ``message``; a puzzle without a step has one
    row, its step fields empty and the reason as its message. ``masks`` adds the
    candidate masks before each step (``masks``; replayed from the givens, slower). An
    output named ``*.parquet`` (or ``*.arrow``, ``*.feather``) is written as
    :func:`solve_file` writes one: typed columns, a row group per chunk, spooled to
    ``OUTPUT.part`` with its checkpoint until the run is complete.

    Puzzle ``k`` of the file (from 0) draws its isomorphs from ``(seed, k)``, so the
    ratings do not depend on ``chunk_size``, ``threads`` or the executor. ``input``
    ``"-"`` reads standard input; ``output`` None or ``"-"`` writes standard output.
    ``overwrite`` replaces an output that holds something, as in :func:`solve_file`
    (without it a regular file that is not empty is refused with FileExistsError).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "p.txt"
    >>> _ = path.write_text("0200004034000000\\n")
    >>> _ = rate_file(path)
    puzzle,tries,logic,hardest
    0200004034000000,0,1.2,hidden single (box)
    """
    if (steps or masks) and not logic:
        raise ValueError("steps are the logic ladder's: not with logic=False")
    if masks and not steps:
        raise ValueError("masks are written with the steps: pass steps=True")
    if output is not None and os.fspath(output) == "-":
        output = None
    kind = columnar_kind(output)
    job = RateJob(
        steps=bool(steps),
        masks=bool(masks),
        columnar=kind,
        isomorphs=check_count(isomorphs, "isomorphs"),
        seed=check_integer(seed, "seed"),
        logic=bool(logic),
        box=box,
        format=format,
        column=column,
        threads=threads,
    )
    if executor is None:
        executor = LocalExecutor(chunk_size)
    return _run_into(job, input, output, kind, executor, resume, overwrite, True, progress, log)


def generate_file(
    count: int,
    output: str | os.PathLike | None = None,
    *,
    size: int = 9,
    box: tuple[int, int] | None = None,
    minimal: bool | str = True,
    symmetry: str | None = None,
    clues: tuple[int, int] | None = None,
    rating: tuple[float, float] | None = None,
    seed: int | None = None,
    threads: int | None = None,
    attempts: int = 1000,
    csv: bool | None = None,
    chunk_size: int = 1024,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    log: Callable[[str], None] | None = None,
    executor: Any = None,
    overwrite: bool = False,
) -> FileSummary:
    """Make ``count`` puzzles (:func:`numbadlx.sudoku.generate` with the options of the
    same names) into ``output``, ``chunk_size`` at a time, with the checkpoints, lock
    and resume of :func:`solve_file` (:class:`GenerateJob`).

    Each block of puzzles is written, flushed and fsynced, then the checkpoint
    ``OUTPUT.progress`` records how many are made and the options that shape them
    (``count``, ``size``, ``box``, ``minimal``, ``symmetry``, ``clues``, ``rating``,
    ``seed``, ``attempts`` and the output type): they are the run's fingerprint, as the
    input is a solve's. Puzzle ``k`` depends on ``(seed, k)`` only, so the file is byte
    for byte that of one :func:`~numbadlx.sudoku.generate` call, however it is cut, and
    ``resume=True`` carries on after the last block committed (ValueError for other
    options). ``seed`` None draws a fresh seed, noted through ``log`` and kept in the
    checkpoint and in the summary's ``seed``; resuming without a seed takes the
    checkpoint's.

    ``output``: lines, CSV (``*.csv`` or ``csv=True``, a ``puzzle`` column) or ``.npy``
    (any case of the suffix, the file named and no other; not with ``csv=True``; the
    array's header first, then each block's rows: an interrupted ``.npy`` is
    loadable only once it is resumed and finished); None or ``"-"`` is standard output
    (lines or CSV, no checkpoint), ``os.devnull`` nowhere. A new file is removed again
    when the run fails before its first block. ``progress(done, count)`` is called
    after each block; the options are all checked before the output is opened. A
    regular file that is not empty is replaced only with ``overwrite`` (else
    FileExistsError before any puzzle is made; one with a checkpoint is named as an
    interrupted run, which ``resume`` carries on).

    Returns
    -------
    FileSummary
        ``puzzles`` made in all (``resumed_puzzles`` of them by an earlier run),
        ``seed``, and ``interrupted`` after Ctrl-C (the output then holds the first
        ``puzzles`` puzzles, whole).

    Examples
    --------
    >>> summary = generate_file(2, None, size=4, seed=0)
    2000000103000004
    2000030000010203
    >>> summary.puzzles, summary.seed
    (2, 0)
    """
    name = None if output is None or os.fspath(output) == "-" else os.fspath(output)
    if name is not None and name.lower().endswith(".npy"):
        if csv:
            raise ValueError(f"cannot write CSV to {name}: a .npy output is an array")
        kind = "npy"
    elif csv if csv is not None else bool(name and name.lower().endswith(".csv")):
        kind = "csv"
    else:
        kind = "lines"
    job = GenerateJob(
        count=count,
        size=size,
        box=None if box is None else (int(box[0]), int(box[1])),
        minimal=minimal,
        symmetry=symmetry,
        clues=clues,
        rating=rating,
        seed=seed,
        attempts=attempts,
        output_format=kind,
        threads=threads,
    )
    report = None if progress is None else (lambda end, done: progress(done, job.count))
    if executor is None:
        executor = LocalExecutor(chunk_size)
    return run_job(
        job, None, name, executor=executor, resume=resume, progress=report, log=log,
        overwrite=overwrite,
    )  # fmt: skip
