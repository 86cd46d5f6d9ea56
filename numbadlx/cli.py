"""Command line: ``numbadlx solve`` (Sudoku files) and ``numbadlx count`` (DLX files).

``numbadlx solve [INPUT] [-o OUTPUT]`` streams a puzzle file in chunks (bounded
memory), solves each chunk with the parallel bulk solver and writes one line per
puzzle, in input order:

* the solution, in the input's alphabet, when the puzzle has exactly one (UNIQUE) or
  one was asked for (SOLVED, ``--limit 1``);
* otherwise the solution found or the puzzle itself, then ``  # STATUS`` (MULTIPLE,
  NO_SOLUTION, INVALID with the reason, BUDGET).

With ``-o name.csv`` the output is CSV: ``puzzle,solution,status,count,nodes``.
Without INPUT it solves the sample puzzles shipped in the package.

Output goes to a file chunk by chunk, each chunk flushed and fsynced before a small
checkpoint file (``OUTPUT.progress``) records how far the input was read, so an
interrupted run (Ctrl-C, a kill, a crash) loses nothing: ``--resume`` cuts the output
back to the last checkpoint and carries on from there.

What an interruption leaves:

* Ctrl-C (SIGINT) stops within a fraction of a second even in the middle of a long
  search (the solver runs on a helper thread; the main thread waits for it in a way a
  signal can break). The output is cut back to the last checkpoint, so it holds
  complete lines for a prefix of the input, and the message says how many puzzles that
  is. Exit code 130.
* A kill (SIGKILL, a crash, a power cut) cannot clean up: the output holds complete
  lines up to the checkpoint's ``output_bytes``, and possibly part of the chunk being
  written after them. ``--resume`` cuts that tail and carries on; the final output is
  byte for byte the one an uninterrupted run writes.
* The checkpoint also records the options that shape the output (``--limit``,
  ``--max-nodes``, CSV or text, the box and the puzzle size), and ``--resume`` refuses
  to mix outputs made with different ones.

``--timeout SECONDS`` limits the wall-clock time spent on each chunk of
``--chunk-size`` puzzles (``timeout`` of :func:`numbadlx.sudoku.solve`): puzzles of
the chunk that are not finished by then get BUDGET, the hardest ones last.

This module parses the arguments and prints; the work is done by
:func:`numbadlx.sudoku.stream.solve_file` (or :func:`numbadlx.dask.solve_file` with
``--dask``), which write the same output and checkpoints.
"""

import argparse
import os
import sys

__all__ = ["main"]


class _ProgressBar:
    """A tqdm bar on stderr over the input's bytes, as a ``progress(end_byte, puzzles)``
    callback of the file solvers; nothing when disabled (or tqdm is missing)."""

    def __init__(self, total, enabled, desc):
        self.bar = None
        self.done = 0
        if not enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:  # tqdm comes with numbadlx[cli]
            print(
                "numbadlx: (no progress bar without tqdm: pip install 'numbadlx[cli]')",
                file=sys.stderr,
            )
            return
        self.bar = tqdm(
            total=total, unit="B", unit_scale=True, file=sys.stderr, desc=desc, dynamic_ncols=True
        )

    def __call__(self, done, puzzles):
        if self.bar is not None:
            self.bar.update(done - self.done)
            self.bar.set_postfix(puzzles=puzzles, refresh=False)
        self.done = done

    def note(self, message):
        """Print ``numbadlx: message`` on stderr (above the bar while it shows)."""
        _note(message, self.bar)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _note(message, bar=None):
    if bar is not None:
        bar.write(f"numbadlx: {message}", file=sys.stderr)
    else:
        print(f"numbadlx: {message}", file=sys.stderr)


def _solve_command(args):
    from .sudoku import default_sample_path

    source = args.input or default_sample_path()
    if not os.path.isfile(source):
        print(f"numbadlx: error: no such file: {source}", file=sys.stderr)
        return 2
    box = None
    if args.box:
        try:
            rows, cols = (int(v) for v in args.box.lower().split("x"))
        except ValueError:
            print(f"numbadlx: error: --box must look like 2x3, got {args.box!r}", file=sys.stderr)
            return 2
        box = (rows, cols)
    if _bad_timeout(args.timeout):
        return 2
    if args.dask:
        try:
            from . import dask as ndask  # optional: needs numbadlx[dask]
        except ImportError as error:
            print(
                f"numbadlx: error: --dask needs Dask ({error}); pip install 'numbadlx[dask]'",
                file=sys.stderr,
            )
            return 2
    output = args.output
    show_solutions = output is not None or args.input is not None
    if not show_solutions:
        output = os.devnull  # the built-in sample: solve it, print only the summary
    csv = bool(args.output) and (args.csv or args.output.lower().endswith(".csv"))
    progress = _ProgressBar(
        os.path.getsize(source),
        not args.no_progress and sys.stderr.isatty() or args.progress,
        "solving on Dask" if args.dask else "solving",
    )
    common = dict(
        limit=args.limit,
        max_nodes=args.max_nodes,
        box=box,
        format=args.format,
        csv=csv,
        chunk_size=args.chunk_size,
        timeout=args.timeout,
        resume=args.resume,
        progress=progress,
        log=progress.note,
    )
    try:
        if args.dask:
            summary = ndask.solve_file(
                source,
                output,
                scheduler=args.dask,
                chunk_bytes=args.dask_chunk_bytes,
                threads=args.threads or 1,
                **common,
            )
        else:
            from .sudoku.stream import solve_file

            summary = solve_file(source, output, threads=args.threads, **common)
    finally:
        progress.close()
    tally = ", ".join(f"{name} {count}" for name, count in summary.tally.items())
    _note(f"{summary.puzzles} puzzles from {source}: {tally or 'none'}")
    if args.dask:
        _note(
            f"{summary.seconds:.2f} s on Dask ({args.dask}), {summary.ranges} ranges, "
            f"limit {args.limit}"
        )
    else:
        solved_now = summary.puzzles - summary.resumed_puzzles
        rate = (
            f"{solved_now / summary.solve_seconds:,.0f}"
            if summary.solve_seconds > 0 and solved_now
            else "-"
        )
        _note(
            f"{summary.seconds:.2f} s in all ({summary.startup_seconds:.2f} s to compile "
            f"or load the solver), solver {rate} puzzles/s (limit {args.limit}, threads "
            f"{args.threads or 'all'})"
        )
    if args.output and not summary.interrupted:  # an interrupted run says so below
        _note(f"wrote {args.output}")
    elif not show_solutions:
        _note("(solutions not printed for the built-in sample; give -o FILE to save them)")
    if summary.interrupted:
        if not args.output:
            _note(f"interrupted after {summary.puzzles} puzzles")
        elif args.dask:
            _note(
                f"interrupted; {args.output} holds the first {summary.puzzles} puzzles "
                f"complete. Run the same command with --resume to carry on."
            )
        else:
            _note(
                f"interrupted; {args.output} holds the first {summary.puzzles} puzzles "
                f"complete (input read to byte {summary.end_byte} of "
                f"{summary.input_size}). Run the same command with --resume to carry "
                f"on."
            )
        return 130
    return 0


def _count_command(args):
    import time
    from pathlib import Path

    from .core import BudgetExceeded, ExactCover, SearchStats

    # Checked here, and the name passed on as a Path, so that a missing file is never
    # read as DLX text.
    if not os.path.isfile(args.file):
        print(f"numbadlx: error: no such file: {args.file}", file=sys.stderr)
        return 2
    if _bad_timeout(args.timeout):
        return 2
    try:
        problem = ExactCover.from_dlx(Path(args.file))
    except (OSError, ValueError) as error:
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return 2
    print(
        f"{args.file}: {problem.n_options} options, {problem.n_primary} primary and "
        f"{problem.n_secondary} secondary items",
        file=sys.stderr,
    )
    # --timeout is one deadline for all the searching the command does, --max-nodes one
    # node budget: the count after --show gets only what the shown solutions left.
    start = time.perf_counter()
    shown = 0
    show_nodes = 0
    try:
        if args.show:
            for solution in problem.solutions(
                limit=args.show, max_nodes=args.max_nodes, timeout=args.timeout
            ):
                shown += 1
                print(f"solution {shown}:")
                for k in solution:
                    names = problem.item_names
                    print("  " + " ".join(names[i] for i in problem.option(k)))
            show_nodes = problem.stats.nodes
            if shown < args.show:
                # Fewer solutions than asked for: that search ran to the end, so it
                # has counted them all and a second one would only repeat it.
                total = shown if args.limit is None else min(shown, args.limit)
                return _count_report(args, total, problem.stats)
        max_nodes = None if args.max_nodes is None else args.max_nodes - show_nodes
        timeout = None if args.timeout is None else args.timeout - (time.perf_counter() - start)
        if (max_nodes is not None and max_nodes < 1) or (timeout is not None and timeout <= 0):
            raise BudgetExceeded("nothing left for the count", 0, SearchStats(status="budget"))
        total = problem.count(args.limit, max_nodes=max_nodes, timeout=timeout)
    except BudgetExceeded as stop:
        # The count starts again from scratch, so the solutions shown are a lower bound
        # too; the nodes are those of both searches.
        print(
            f"at least {max(stop.found, shown)} solutions (stopped at the budget: "
            f"{show_nodes + stop.stats.nodes} nodes, {time.perf_counter() - start:.2f} s)"
        )
        return 3
    return _count_report(args, total, problem.stats)


def _count_report(args, total, stats):
    more = "+" if args.limit is not None and total >= args.limit else ""
    print(f"{total}{more} solutions")
    print(f"{stats.nodes} nodes, {stats.updates} updates, {stats.seconds:.3f} s", file=sys.stderr)
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="numbadlx",
        description="Dancing Links (Algorithm X) in NumPy + Numba: bulk Sudoku solving "
        "and exact-cover counting.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    solve = sub.add_parser(
        "solve",
        help="solve a file of Sudoku puzzles",
        description="Solve every puzzle of INPUT (one per line, grid "
        "format, CSV or .npy); without INPUT, the built-in "
        "sample of 1000 puzzles.",
    )
    solve.add_argument("input", nargs="?", help="puzzle file (default: built-in sample)")
    solve.add_argument(
        "-o", "--output", help="write results here (.csv for CSV); default: standard output"
    )
    solve.add_argument(
        "--limit",
        type=_positive,
        default=2,
        help="count solutions up to this (1: just solve; 2: also prove uniqueness; default 2)",
    )
    solve.add_argument(
        "--threads", type=_positive, default=None, help="threads (default: all cores)"
    )
    solve.add_argument(
        "--max-nodes",
        type=_positive,
        default=None,
        help="search-node budget per puzzle (status BUDGET past it)",
    )
    solve.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="wall-clock limit for each chunk of --chunk-size puzzles: "
        "those not finished by then get BUDGET (easy ones first)",
    )
    solve.add_argument("--box", help="box shape RxC when n is not a square, e.g. 2x3")
    solve.add_argument(
        "--format",
        choices=["lines", "grid", "csv", "npy"],
        help="input format (default: from the extension and content)",
    )
    solve.add_argument("--csv", action="store_true", help="write CSV whatever -o is called")
    solve.add_argument(
        "--chunk-size",
        type=_positive,
        default=16384,
        help="puzzles read, solved and written at a time (default 16384)",
    )
    solve.add_argument(
        "--resume", action="store_true", help="carry on an interrupted run into the same -o file"
    )
    solve.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help="solve on Dask: a scheduler address (tcp://host:8786), "
        "local[:N] for a LocalCluster of N worker processes, or "
        "threads[:N] (needs numbadlx[dask])",
    )
    solve.add_argument(
        "--dask-chunk-bytes",
        type=_positive,
        default=8 << 20,
        metavar="BYTES",
        help="input bytes per Dask task (default 8 MiB)",
    )
    solve.add_argument("--no-progress", action="store_true", help="no progress bar")
    solve.add_argument(
        "--progress", action="store_true", help="progress bar even when stderr is not a terminal"
    )
    solve.set_defaults(run=_solve_command)
    count = sub.add_parser("count", help="count the solutions of a DLX-format problem")
    count.add_argument("file", help="problem in Knuth's DLX text format")
    count.add_argument("--limit", type=_positive, default=None, help="stop at this many")
    count.add_argument(
        "--max-nodes",
        type=_positive,
        default=None,
        help="node budget of the whole command (--show included)",
    )
    count.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="wall-clock limit of the whole search (--show included)",
    )
    count.add_argument(
        "--show", type=_positive, default=0, metavar="K", help="also print the first K solutions"
    )
    count.set_defaults(run=_count_command)
    return parser


def _bad_timeout(timeout):
    """Say so on stderr and return True when --timeout is negative (or NaN)."""
    if timeout is not None and not timeout >= 0:
        print(f"numbadlx: error: --timeout must be >= 0 seconds, got {timeout}", file=sys.stderr)
        return True
    return False


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not positive")
    return value


def main(argv=None):
    """Entry point of the ``numbadlx`` command."""
    args = build_parser().parse_args(argv)
    if args.command == "solve" and args.resume and not args.output:
        print("numbadlx: error: --resume needs -o OUTPUT", file=sys.stderr)
        return 2
    try:
        return args.run(args)
    except BrokenPipeError:
        # e.g. `numbadlx solve big.txt | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (ValueError, OSError) as error:
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
