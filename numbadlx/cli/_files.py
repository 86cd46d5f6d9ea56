"""``numbadlx solve``, ``rate`` and ``generate``: the file jobs of :mod:`numbadlx.jobs`,
with their arguments turned into a job and an executor, and their summary printed."""

import os
import sys

from ..core.words import per_second, plural
from ._common import (
    EXIT_INTERRUPTED,
    EXIT_NO_ANSWER,
    EXIT_OK,
    EXIT_USAGE,
    ProgressBar,
    bad_timeout,
    note,
    parse_box,
    parse_pair,
    show_progress,
    solve_exit_code,
)


def _executor(args):
    """The executor the arguments ask for (Dask with ``--dask``, else local), or False
    after an error message."""
    from .. import jobs

    if not getattr(args, "dask", None):
        return jobs.LocalExecutor(args.chunk_size)
    try:
        import dask  # noqa: F401 - optional: needs numbadlx[dask]
    except ImportError as error:
        print(
            f"numbadlx: error: --dask needs Dask ({error}); pip install 'numbadlx[dask]'",
            file=sys.stderr,
        )
        return False
    chunk_bytes = getattr(args, "dask_chunk_bytes", jobs.DEFAULT_RANGE_BYTES)
    return jobs.DaskExecutor(args.dask, chunk_bytes=chunk_bytes, chunk_size=args.chunk_size)


def _rate(puzzles, seconds):
    """``N puzzles/s``, or ``- puzzles/s`` when nothing was timed."""
    return per_second(puzzles, seconds)


def _boxes(n, box):
    """`` of 10x10 with boxes of 2 rows by 5 columns`` when the grid size leaves a choice
    of box shape (the one taken is named: ``--box`` gives the other)."""
    from ..sudoku.shape import box_note, box_shape

    try:
        shape = box_shape(n, box) if n else None
    except ValueError:  # no box shape at all (a prime size, solved without boxes)
        return ""
    note = box_note(n, shape)
    return f" of {n}x{n}{note}" if note else ""


def _compiling_left_out(summary, made):
    """``, N s of it compiling (not in the rate)`` when the run compiled kernels."""
    if summary.compile_seconds < 0.005 or not made:
        return ""
    return f", {summary.compile_seconds:.2f} s of it compiling (not in the rate)"


def _input_size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _run_file_job(args, run, source, desc, output):
    """Run ``run(path, progress)`` on ``source`` (a path, ``-`` or a pipe, read through
    :class:`numbadlx.jobs.JobInput`) with a progress bar; its summary, or None after
    an error message. An ``output`` that must not be replaced is refused first, before
    standard input is read."""
    from .. import jobs

    if output is not None and source != "-" and os.path.isfile(source):
        jobs.check_output(source, output)  # the output is not the input: said first
    jobs.check_replace(output, resume=args.resume, overwrite=args.overwrite)
    job_input = jobs.JobInput(source, getattr(args, "resume", False))
    with job_input as path:
        progress = ProgressBar(_input_size(path), show_progress(args), desc)
        try:
            return run(path, progress)
        except (ValueError, OSError) as error:
            raise job_input.relabel(error) from None
        finally:
            progress.close()


def solve_command(args):
    from .. import jobs
    from ..sudoku import default_sample_path

    box = None
    if args.box:
        box = parse_box(args.box)
        if box is None:
            return EXIT_USAGE
    if bad_timeout(args):
        return EXIT_USAGE
    if args.csv and args.output_format not in (None, "csv"):
        print(
            f"numbadlx: error: --csv and --output-format {args.output_format} ask for two "
            f"output formats; give one",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.all_solutions and (args.output_format == "grid" or args.timeout is not None):
        print(
            "numbadlx: error: --all-solutions writes lines or CSV, without --timeout",
            file=sys.stderr,
        )
        return EXIT_USAGE
    columns = args.canonical or args.candidates is not None or args.backtracks
    if columns and (args.all_solutions or args.output_format in ("text", "grid")):
        print(
            "numbadlx: error: --canonical, --candidates and --backtracks write columns: "
            "CSV, Parquet or Arrow, without --all-solutions",
            file=sys.stderr,
        )
        return EXIT_USAGE
    executor = _executor(args)
    if executor is False:
        return EXIT_USAGE
    output = None if args.output == "-" else args.output
    show_solutions = args.output is not None or args.input is not None
    if not show_solutions:
        output = os.devnull  # the built-in sample: solve it, print only the summary
    csv = args.csv or (output is not None and output.lower().endswith(".csv"))
    csv = args.output_format == "csv" or (csv and args.output_format is None)
    if columns and not jobs.columnar_kind(output):
        csv = True  # the columns need columns
    threads = (args.threads or 1) if args.dask else args.threads

    def run(path, progress):
        return jobs.solve_file(
            path,
            output,
            limit=args.limit,
            max_nodes=args.max_nodes,
            box=box,
            format=args.format,
            csv=csv,
            threads=threads,
            timeout=args.timeout,
            resume=args.resume,
            overwrite=args.overwrite,
            progress=progress,
            log=progress.note,
            engine=args.engine,
            grid=args.output_format == "grid",
            column=int(args.column) if (args.column or "").isdigit() else args.column,
            executor=executor,
            all_solutions=args.all_solutions,
            canonical=args.canonical,
            candidates=args.candidates,
            backtracks=args.backtracks,
        )

    source = args.input if args.input is not None else default_sample_path()
    desc = "solving on Dask" if args.dask else "solving"
    summary = _run_file_job(args, run, source, desc, output)
    tally = ", ".join(f"{name} {count}" for name, count in summary.tally.items())
    shown_source = "standard input" if args.input == "-" else source
    note(
        f"{plural(summary.puzzles, 'puzzle')}{_boxes(summary.n, box)} from {shown_source}: "
        f"{tally or 'none'}"
    )
    if args.dask:
        note(
            f"{summary.seconds:.2f} s on Dask ({args.dask}), {plural(summary.ranges, 'range')}, "
            f"limit {args.limit}"
        )
    else:
        solved_now = summary.puzzles - summary.resumed_puzzles
        threads = plural(args.threads, "thread") if args.threads else "all threads"
        kept = f"limit {args.limit}"
        if args.all_solutions:
            kept = f"up to {plural(args.all_solutions, 'solution')} each"
        solver = (
            f", solver {_rate(solved_now, summary.solve_seconds)} ({kept}, {threads})"
            if summary.solve_seconds > 0 and solved_now
            else ""  # nothing solved (interrupted while compiling): no rate to give
        )
        note(
            f"{summary.seconds:.2f} s in all ({summary.startup_seconds:.2f} s to compile "
            f"or load the solver){solver}"
        )
    if output and output != os.devnull and not summary.interrupted:
        note(f"wrote {output}")  # (an interrupted run says so below)
    elif not show_solutions:
        note("(solutions not printed for the built-in sample; give -o FILE to save them)")
    if summary.interrupted:
        return _interrupted(args, summary, output)
    return solve_exit_code(summary.tally)


def _interrupted(args, summary, output):
    """Say what an interrupted run left; EXIT_INTERRUPTED."""
    from ..jobs import is_stream  # imported by the run already

    resumable = (
        args.input not in (None, "-")
        and os.path.isfile(args.input)
        and output is not None
        and not is_stream(output)
    )
    if not resumable:
        note(f"interrupted after {plural(summary.puzzles, 'puzzle')}")
    elif getattr(args, "dask", None):
        note(
            f"interrupted; {args.output} holds the first {plural(summary.puzzles, 'puzzle')} "
            f"complete. Run the same command with --resume to carry on."
        )
    else:
        from .. import jobs

        kept = args.output
        if jobs.columnar_kind(args.output):
            kept = f"{jobs.spool_path(args.output)} (written out as {args.output} at the end)"
        note(
            f"interrupted; {kept} holds the first {plural(summary.puzzles, 'puzzle')} "
            f"complete (input read to byte {summary.end_byte} of "
            f"{summary.input_size}). Run the same command with --resume to carry "
            f"on."
        )
    return EXIT_INTERRUPTED


def rate_command(args):
    from .. import jobs

    box = parse_box(args.box) if args.box else None
    if args.box and box is None:
        return EXIT_USAGE
    if (args.steps or args.masks) and args.no_logic or (args.masks and not args.steps):
        print(
            "numbadlx: error: --steps traces the logic ladder (not with --no-logic); "
            "--masks goes with --steps",
            file=sys.stderr,
        )
        return EXIT_USAGE
    executor = _executor(args)
    if executor is False:
        return EXIT_USAGE
    output = None if args.output in (None, "-") else args.output

    def run(path, progress):
        return jobs.rate_file(
            path,
            output,
            steps=args.steps,
            masks=args.masks,
            isomorphs=args.isomorphs,
            seed=args.seed,
            logic=not args.no_logic,
            box=box,
            format=args.format,
            threads=args.threads or (1 if args.dask else None),
            resume=args.resume,
            overwrite=args.overwrite,
            progress=progress,
            log=progress.note,
            executor=executor,
        )

    summary = _run_file_job(args, run, args.input, "rating", output)
    rate = _rate(summary.puzzles, summary.seconds - summary.compile_seconds)  # no compiling
    note(
        f"rated {plural(summary.puzzles, 'puzzle')} in {summary.seconds:.2f} s "
        f"({rate}){_compiling_left_out(summary, summary.puzzles)}"
    )
    if summary.unreadable:
        unread = plural(summary.unreadable, "puzzle")
        note(f"{unread} could not be read (the reason is in the output)")
    if summary.interrupted:
        return _interrupted(args, summary, output)
    if output is not None:
        note(f"wrote {output}")
    return EXIT_NO_ANSWER if summary.unreadable else EXIT_OK


def generate_command(args):
    from .. import jobs

    box = parse_box(args.box) if args.box else None
    clues = parse_pair(args.clues, int, "--clues")
    rating = parse_pair(args.rating, float, "--rating")
    if (args.box and box is None) or clues is False or rating is False:
        return EXIT_USAGE
    minimal = {"yes": True, "symmetric": "symmetric", "no": False}[args.minimal]
    executor = _executor(args)
    if executor is False:
        return EXIT_USAGE
    output = None if args.output in (None, "-") else args.output
    jobs.check_replace(output, resume=args.resume, overwrite=args.overwrite)
    desc = "generating on Dask" if args.dask else "generating"
    bar = ProgressBar(args.n, show_progress(args), desc)
    try:
        summary = jobs.generate_file(
            args.n,
            output,
            csv=args.csv or None,
            size=args.size,
            box=box,
            minimal=minimal,
            symmetry=args.symmetry,
            clues=clues,
            rating=rating,
            seed=args.seed,
            threads=(args.threads or 1) if args.dask else args.threads,
            attempts=args.attempts,
            chunk_size=args.chunk_size,
            executor=executor,
            resume=args.resume,
            overwrite=args.overwrite,
            progress=lambda done, total: bar(done, done),
            log=bar.note,
        )
    finally:
        bar.close()
    made = summary.puzzles - summary.resumed_puzzles
    rate = _rate(made, summary.seconds - summary.compile_seconds)  # without compiling
    note(
        f"{plural(summary.puzzles, 'puzzle')} of {args.size}x{args.size} in "
        f"{summary.seconds:.2f} s ({rate}){_compiling_left_out(summary, made)}, "
        f"seed {summary.seed}"
    )
    if summary.interrupted:
        if output is None or jobs.is_stream(output):
            note(f"interrupted after {plural(summary.puzzles, 'puzzle')}")
        else:
            note(
                f"interrupted; {output} holds the first {plural(summary.puzzles, 'puzzle')} "
                f"complete. Run the same command with --resume to carry on."
            )
        return EXIT_INTERRUPTED
    if output is not None:
        note(f"wrote {output}")
    return EXIT_OK
