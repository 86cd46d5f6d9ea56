"""Command line: ``numbadlx solve`` (Sudoku files), ``numbadlx count`` (DLX files), and
``numbadlx generate`` / ``numbadlx rate`` (make puzzles, rate them).

``numbadlx solve [INPUT] [-o OUTPUT]`` streams a puzzle file in chunks (bounded
memory), solves each chunk with the parallel bulk solver and writes one line per
puzzle, in input order:

* the solution, in the input's alphabet, when the puzzle has exactly one (UNIQUE) or
  one was asked for (SOLVED, ``--limit 1``);
* otherwise the solution found or the puzzle itself, then ``  # STATUS`` (MULTIPLE,
  NO_SOLUTION, INVALID with the reason, BUDGET).

With ``-o name.csv`` the output is CSV: ``puzzle,solution,status,count,nodes``; with
``--output-format grid`` each puzzle is ``n`` lines of space-separated values and a
blank line (the shape of contest files; a note line ``# STATUS`` after an unsolved
one). ``--column NAME`` picks the puzzle column of a CSV input.
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
* The checkpoint also records the input's fingerprint (size, mtime and a SHA-256 of
  the bytes already solved) and the options that shape the output (``--limit``,
  ``--max-nodes``, ``--timeout``, ``--box``, ``--format``, ``--column``, ``--engine``,
  the output kind and the puzzle size), and ``--resume`` refuses a changed input or
  other options. The output is locked while a run writes it.

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

__all__ = [
    "main",
    "EXIT_OK",
    "EXIT_NO_ANSWER",
    "EXIT_USAGE",
    "EXIT_UNFINISHED",
    "EXIT_INTERRUPTED",
    "EXIT_BROKEN_PIPE",
]

#: Every puzzle got an answer (UNIQUE, SOLVED or MULTIPLE); the count finished.
EXIT_OK = 0
#: Some puzzle got no answer: INVALID or NO_SOLUTION.
EXIT_NO_ANSWER = 1
#: Bad usage or input: an unknown option, a missing or unreadable file, bad DLX text.
EXIT_USAGE = 2
#: A budget (--max-nodes, --timeout) stopped some puzzle (BUDGET) or the count.
EXIT_UNFINISHED = 3
#: Ctrl-C: the output holds whole lines for a prefix of the input (see --resume).
EXIT_INTERRUPTED = 130
#: The reader of standard output went away (``numbadlx solve big.txt | head``).
EXIT_BROKEN_PIPE = 141

_EXIT_CODES = """exit codes:
  0    every puzzle got an answer (UNIQUE, SOLVED or MULTIPLE); the count finished
  1    some puzzle is INVALID or has NO_SOLUTION
  2    usage or input error (bad option, missing/unreadable file, bad DLX text)
  3    a budget (--max-nodes, --timeout) stopped a puzzle (BUDGET) or the count
  130  interrupted (Ctrl-C); run again with --resume to carry on
"""


class _ProgressBar:
    """A tqdm bar on stderr counting puzzles, with rate and ETA, as a
    ``progress(end_byte, puzzles)`` callback of the file solvers; nothing when disabled
    (or tqdm is missing). The total is estimated from the input's size and the bytes
    each puzzle took so far, so it settles after the first chunk."""

    def __init__(self, input_bytes, enabled, desc):
        self.bar = None
        self.input_bytes = input_bytes
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
        self.bar = tqdm(total=None, unit=" puzzles", file=sys.stderr, desc=desc, dynamic_ncols=True)

    def __call__(self, end_byte, puzzles):
        if self.bar is None:
            return
        if end_byte > 0:
            self.bar.total = max(puzzles, round(puzzles * self.input_bytes / end_byte))
        self.bar.update(puzzles - self.bar.n)

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

    if args.input == "-" and args.resume:
        print("numbadlx: error: --resume needs an input file, not standard input", file=sys.stderr)
        return EXIT_USAGE
    box = None
    if args.box:
        box = _box(args.box)
        if box is None:
            return EXIT_USAGE
    if _bad_timeout(args):
        return EXIT_USAGE
    with _input_path(args.input, args.resume) as source:
        if source is None:
            return EXIT_USAGE
        try:
            return _solve_source(args, source or default_sample_path(), box)
        except (ValueError, OSError) as error:
            if source == args.input:
                raise
            # a copy of standard input or of a pipe: name what the user gave
            label = "<stdin>" if args.input == "-" else args.input
            print(
                f"numbadlx: error: {_os_error_text(error).replace(source, label)}",
                file=sys.stderr,
            )
            return EXIT_USAGE


def _box(text):
    """``--box RxC`` as ``(rows, cols)``, or None after saying what is wrong."""
    try:
        rows, cols = (int(v) for v in text.lower().split("x"))
    except ValueError:
        rows = cols = 0
    if rows < 2 or cols < 2:
        print(
            f"numbadlx: error: --box must be ROWSxCOLS with both at least 2 (such as 2x3), "
            f"got {text!r}",
            file=sys.stderr,
        )
        return None
    return rows, cols


class _input_path:
    """``with _input_path(name) as path``: the file to solve. ``-`` (standard input) or a
    pipe such as ``<(zcat puzzles.gz)`` is first copied to a temporary file, which the
    chunked solver can read twice (to detect the format) and measure; it is removed
    afterwards. A missing name gives ``""`` (the built-in sample); an unusable one
    None, after an error message naming it."""

    def __init__(self, name, resume=False):
        self.name = name
        self.resume = resume
        self.copy = None

    def __enter__(self):
        import shutil
        import stat
        import tempfile

        name = self.name
        if name is None:
            return ""
        if name != "-":
            try:
                mode = os.stat(name).st_mode
            except OSError as error:
                print(f"numbadlx: error: {_os_error_text(error)}", file=sys.stderr)
                return None
            if stat.S_ISDIR(mode):
                print(f"numbadlx: error: {name} is a directory, not a puzzle file", file=sys.stderr)
                return None
            if stat.S_ISREG(mode):
                return name
            if self.resume:
                print(
                    f"numbadlx: error: --resume needs an input file, and {name} is a pipe "
                    f"or a device (its copy would be another input each time)",
                    file=sys.stderr,
                )
                return None
        with tempfile.NamedTemporaryFile(prefix="numbadlx-input-", delete=False) as copy:
            self.copy = copy.name
            try:
                if name == "-":
                    shutil.copyfileobj(sys.stdin.buffer, copy)
                else:
                    with open(name, "rb") as pipe:
                        shutil.copyfileobj(pipe, copy)
            except BaseException:  # Ctrl-C too: leave no copy behind
                copy.close()
                os.remove(self.copy)
                self.copy = None
                raise
        return self.copy

    def __exit__(self, *exc):
        if self.copy is not None:
            os.remove(self.copy)
        return False


def _solve_source(args, source, box):
    if args.dask and args.engine != "auto":
        print("numbadlx: error: --engine works for local runs (not with --dask)", file=sys.stderr)
        return EXIT_USAGE
    if args.dask and (args.output_format == "grid" or args.column is not None):
        print(
            "numbadlx: error: --output-format grid and --column work for local runs (not "
            "with --dask)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.dask:
        try:
            from . import dask as ndask  # optional: needs numbadlx[dask]
        except ImportError as error:
            print(
                f"numbadlx: error: --dask needs Dask ({error}); pip install 'numbadlx[dask]'",
                file=sys.stderr,
            )
            return EXIT_USAGE
    output = None if args.output == "-" else args.output
    show_solutions = args.output is not None or args.input is not None
    if not show_solutions:
        output = os.devnull  # the built-in sample: solve it, print only the summary
    csv = args.csv or (output is not None and output.lower().endswith(".csv"))
    csv = args.output_format == "csv" or (csv and args.output_format is None)
    progress = _ProgressBar(
        os.path.getsize(source),
        _show_progress(args),
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

            summary = solve_file(
                source,
                output,
                threads=args.threads,
                engine=args.engine,
                grid=args.output_format == "grid",
                column=int(args.column) if (args.column or "").isdigit() else args.column,
                **common,
            )
    finally:
        progress.close()
    tally = ", ".join(f"{name} {count}" for name, count in summary.tally.items())
    shown_source = "standard input" if args.input == "-" else args.input or source
    _note(f"{_plural(summary.puzzles, 'puzzle')} from {shown_source}: {tally or 'none'}")
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
    if output and output != os.devnull and not summary.interrupted:
        _note(f"wrote {output}")  # (an interrupted run says so below)
    elif not show_solutions:
        _note("(solutions not printed for the built-in sample; give -o FILE to save them)")
    if summary.interrupted:
        resumable = (
            args.input not in (None, "-")
            and source == args.input
            and output is not None
            and not os.path.abspath(output).startswith(("/dev/", "/proc/"))
        )
        if not resumable:
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
        return EXIT_INTERRUPTED
    return _solve_exit_code(summary.tally)


def _solve_exit_code(tally):
    """0 when every puzzle got an answer, else EXIT_NO_ANSWER or EXIT_UNFINISHED."""
    if tally.get("INVALID") or tally.get("NO_SOLUTION"):
        return EXIT_NO_ANSWER
    if tally.get("BUDGET"):
        return EXIT_UNFINISHED
    return EXIT_OK


def _count_command(args):
    import time
    from pathlib import Path

    from .core import BudgetExceeded, ExactCover, SearchStats

    if _bad_timeout(args):
        return EXIT_USAGE
    # "-" is standard input; anything else is a file name, passed on as a Path so that
    # it is never read as DLX text (a missing file, a directory or a binary file is an
    # error naming it).
    try:
        # stdin as bytes, so that the same UTF-8 and binary checks as for a file apply
        problem = ExactCover.from_dlx(sys.stdin.buffer if args.file == "-" else Path(args.file))
    except (OSError, ValueError) as error:
        print(f"numbadlx: error: {_os_error_text(error)}", file=sys.stderr)
        return EXIT_USAGE
    print(
        f"{'<stdin>' if args.file == '-' else args.file}: {problem.n_options} options, "
        f"{problem.n_primary} primary and {problem.n_secondary} secondary items",
        file=sys.stderr,
    )
    # --timeout is one deadline for all the searching the command does, --max-nodes one
    # node budget: the count after --show gets only what the shown solutions left.
    start = time.perf_counter()
    shown = 0
    show_nodes = 0
    if args.sample:
        return _sample_command(args, problem)
    try:
        if args.show:
            for solution in problem.solutions(
                limit=args.show, max_nodes=args.max_nodes, timeout=args.timeout
            ):
                shown += 1
                print(f"solution {shown}:")
                for k in solution:
                    print("  " + _option_text(problem, k))
            show_nodes = problem.stats.nodes
            if shown < args.show:
                # Fewer solutions than asked for: that search ran to the end, so it
                # has counted them all (exactly, whatever --limit says) and a second
                # one would only repeat it.
                return _count_report(args, shown, problem.stats, exact=True)
        max_nodes = None if args.max_nodes is None else args.max_nodes - show_nodes
        timeout = None if args.timeout is None else args.timeout - (time.perf_counter() - start)
        if (max_nodes is not None and max_nodes < 1) or (timeout is not None and timeout <= 0):
            raise BudgetExceeded("nothing left for the count", 0, SearchStats(status="budget"))
        total = problem.count(args.limit, max_nodes=max_nodes, timeout=timeout, method=args.method)
    except ValueError as error:  # --method memo with --limit or multiplicities
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BudgetExceeded as stop:
        # The count starts again from scratch, so the solutions shown are a lower bound
        # too; the nodes are those of both searches.
        print(
            f"at least {_plural(max(stop.found, shown), 'solution')} (stopped at the "
            f"budget: {show_nodes + stop.stats.nodes} nodes, "
            f"{time.perf_counter() - start:.2f} s)"
        )
        return EXIT_UNFINISHED
    return _count_report(args, total, problem.stats)


def _sample_command(args, problem):
    """``count --sample K``: build the memoised diagram, print K uniform samples and the
    exact count."""
    from .core import BudgetExceeded

    if args.show or args.limit is not None:
        print("numbadlx: error: --sample goes with neither --show nor --limit", file=sys.stderr)
        return EXIT_USAGE
    try:
        zdd = problem.zdd(max_nodes=args.max_nodes, timeout=args.timeout)
        if zdd.count() == 0:
            print("0 solutions")
            return EXIT_OK
        for number, solution in enumerate(zdd.sample(args.sample, seed=args.seed), 1):
            print(f"sample {number}:")
            for k in solution:
                print("  " + _option_text(problem, k))
    except ValueError as error:  # multiplicities: the memoised search does not do M
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BudgetExceeded as stop:
        print(f"no count: the memoised search stopped at its budget ({stop})")
        return EXIT_UNFINISHED
    return _count_report(args, zdd.count(), problem.stats)


def _option_text(problem, k):
    """Option ``k`` as its line in the DLX file: item names, ``x:colour`` for colours."""
    names = problem.item_names
    colours = problem.option_colours(k)
    labels = problem.colour_names
    words = []
    for item, colour in zip(problem.option(k), colours):
        word = names[item]
        if colour:
            word += ":" + (labels[colour - 1] if labels is not None else str(colour))
        words.append(word)
    return " ".join(words)


def _plural(number, noun):
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _os_error_text(error):
    """An OSError as 'what: file' (its strerror and filename), else its message."""
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return f"{error.strerror.lower()}: {error.filename}"
    return str(error)


def _count_report(args, total, stats, exact=False):
    # Below the limit the count is exact; at the limit there may be more.
    if not exact and args.limit is not None and total >= args.limit:
        print(f"at least {_plural(total, 'solution')} (stopped at --limit {args.limit})")
    else:
        print(_plural(total, "solution"))
    print(f"{stats.nodes} nodes, {stats.updates} updates, {stats.seconds:.3f} s", file=sys.stderr)
    return EXIT_OK


def _generate_command(args):
    import time

    from .sudoku import generate
    from .sudoku.puzzle_files import save_puzzles

    box = _box(args.box) if args.box else None
    clues = _pair(args.clues, int, "--clues")
    rating = _pair(args.rating, float, "--rating")
    if (args.box and box is None) or clues is False or rating is False:
        return EXIT_USAGE
    minimal = {"yes": True, "symmetric": "symmetric", "no": False}[args.minimal]
    enabled = _show_progress(args)
    bar = _ProgressBar(args.n, enabled, "generating")
    start = time.perf_counter()
    try:
        puzzles = generate(
            args.n,
            args.size,
            box,
            minimal=minimal,
            symmetry=args.symmetry,
            clues=clues,
            rating=rating,
            seed=args.seed,
            threads=args.threads,
            attempts=args.attempts,
            progress=lambda done, total: bar(done, done),
        )
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    save_puzzles(args.output, puzzles, csv=args.csv or None)
    rate = f"{args.n / seconds:,.0f}" if seconds > 0 else "-"
    _note(f"{args.n} puzzles of {args.size}x{args.size} in {seconds:.2f} s ({rate} puzzles/s)")
    if args.output not in (None, "-"):
        _note(f"wrote {args.output}")
    return EXIT_OK


def _rate_command(args):
    from .sudoku.puzzle_files import rate_file

    box = _box(args.box) if args.box else None
    if args.box and box is None:
        return EXIT_USAGE
    from .sudoku.stream import input_file

    try:
        input_file(args.input)  # the same check and messages as `solve`
    except ValueError as error:
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    bar = _ProgressBar(os.path.getsize(args.input), _show_progress(args), "rating")
    try:
        summary = rate_file(
            args.input,
            args.output,
            isomorphs=args.isomorphs,
            seed=args.seed,
            logic=not args.no_logic,
            box=box,
            format=args.format,
            chunk_size=args.chunk_size,
            threads=args.threads,
            progress=bar,
        )
    finally:
        bar.close()
    rate = f"{summary.puzzles / summary.seconds:,.0f}" if summary.seconds > 0 else "-"
    _note(f"rated {summary.puzzles} puzzles in {summary.seconds:.2f} s ({rate} puzzles/s)")
    if summary.unreadable:
        _note(f"{summary.unreadable} puzzles could not be read (their reason is in the CSV)")
    if args.output not in (None, "-"):
        _note(f"wrote {args.output}")
    return EXIT_NO_ANSWER if summary.unreadable else EXIT_OK


def _pair(text, kind, option):
    """``LO,HI`` (or ``LO:HI``) as a tuple, None when not given, False after an error."""
    if text is None:
        return None
    try:
        lo, hi = (kind(v) for v in text.replace(":", ",").split(","))
    except ValueError:
        print(f"numbadlx: error: {option} must be LO,HI, got {text!r}", file=sys.stderr)
        return False
    return lo, hi


def build_parser():
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="numbadlx",
        description="Dancing Links (Algorithm X) in NumPy + Numba: bulk Sudoku solving "
        "and exact-cover counting.",
        epilog=_EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"numbadlx {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    solve = sub.add_parser(
        "solve",
        help="solve a file of Sudoku puzzles",
        description="Solve every puzzle of INPUT (one per line, grid "
        "format, CSV or .npy); without INPUT, the built-in "
        "sample of 1000 puzzles.",
        epilog=_EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument(
        "input",
        nargs="?",
        help="puzzle file; - reads standard input (default: the built-in sample)",
    )
    solve.add_argument(
        "-o",
        "--output",
        help="write results here (CSV when named .csv; a regular file gets checkpoints "
        "for --resume); - or no -o: standard output",
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
    solve.add_argument(
        "--engine",
        choices=["auto", "dlx", "bits", "bands"],
        default="auto",
        help="search engine: dlx (Dancing Links), bits (candidate bit masks with locked "
        "candidates, any size), bands (per-digit band masks, 9x9 with 3x3 boxes only) or "
        "auto (the fastest for the size; default)",
    )
    solve.add_argument("--box", help="box shape RxC when n is not a square, e.g. 2x3")
    solve.add_argument(
        "--format",
        choices=["lines", "grid", "csv", "npy"],
        help="input format (default: from the extension and content)",
    )
    solve.add_argument(
        "--csv", action="store_true", help="write CSV whatever -o is called (or to stdout)"
    )
    solve.add_argument(
        "--output-format",
        choices=["text", "csv", "grid"],
        default=None,
        help="text: a line per puzzle (default); csv: as --csv; grid: n lines of n "
        "space-separated values per puzzle and a blank line, the shape of contest files",
    )
    solve.add_argument(
        "--column",
        metavar="NAME",
        help="the puzzle column of a CSV input: a header name, or a column number counted "
        "from 0 (default: quizzes, puzzle, unsolved, question, ...)",
    )
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
    count = sub.add_parser(
        "count",
        help="count the solutions of a DLX-format problem",
        epilog=_EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    count.add_argument("file", help="problem in Knuth's DLX text format; - reads standard input")
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
    count.add_argument(
        "--method",
        choices=["dlx", "memo", "auto"],
        default="dlx",
        help="dlx: search every branch (default); memo: search each distinct subproblem "
        "once (exact past 2**63; no multiplicities); auto: whichever is ahead after a short race",
    )
    count.add_argument(
        "--sample",
        type=_positive,
        default=0,
        metavar="K",
        help="also print K solutions drawn uniformly at random (builds the memoised diagram)",
    )
    count.add_argument("--seed", type=int, default=None, help="random seed of --sample")
    count.set_defaults(run=_count_command)
    make = sub.add_parser(
        "generate",
        help="make Sudoku puzzles with exactly one solution",
        description="Make N puzzles with exactly one solution (minimal by default) and "
        "write them one per line (CSV with -o NAME.csv, an array with -o NAME.npy).",
    )
    make.add_argument("-n", type=_positive, required=True, help="how many puzzles")
    make.add_argument("-o", "--output", help="write here; - or no -o: standard output")
    make.add_argument("--size", type=_positive, default=9, help="grid size (default 9)")
    make.add_argument("--box", help="box shape RxC when the size is not a square, e.g. 2x3")
    make.add_argument(
        "--symmetry",
        choices=["rotational", "diagonal", "mirror", "dihedral"],
        help="symmetry of the pattern of clues",
    )
    make.add_argument(
        "--minimal",
        choices=["yes", "symmetric", "no"],
        default="yes",
        help="yes: every clue needed (default); symmetric: every symmetric group of "
        "clues needed; no: stop at a clue count within --clues",
    )
    make.add_argument("--clues", metavar="LO,HI", help="keep puzzles with LO to HI clues")
    make.add_argument(
        "--rating", metavar="LO,HI", help="keep puzzles with a logic rating in LO..HI"
    )
    make.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    make.add_argument(
        "--attempts",
        type=_positive,
        default=1000,
        help="grids tried per puzzle before giving up on the bounds (default 1000)",
    )
    make.add_argument("--threads", type=_positive, default=None, help="threads")
    make.add_argument("--csv", action="store_true", help="write CSV whatever -o is called")
    make.add_argument("--no-progress", action="store_true", help="no progress bar")
    make.add_argument(
        "--progress", action="store_true", help="progress bar even when stderr is not a terminal"
    )
    make.set_defaults(run=_generate_command)
    grade = sub.add_parser(
        "rate",
        help="rate the difficulty of Sudoku puzzles",
        description="Rate every puzzle of INPUT (any format solve reads) and write CSV: "
        "puzzle,guesses,logic,hardest (see numbadlx.sudoku.rate).",
    )
    grade.add_argument("input", help="puzzle file")
    grade.add_argument("-o", "--output", help="CSV file; - or no -o: standard output")
    grade.add_argument(
        "--isomorphs",
        type=_positive,
        default=8,
        help="random isomorphs the guesses are averaged over (default 8)",
    )
    grade.add_argument("--seed", type=int, default=0, help="seed of the isomorphs (default 0)")
    grade.add_argument("--no-logic", action="store_true", help="guesses only (faster)")
    grade.add_argument("--box", help="box shape RxC when n is not a square, e.g. 2x3")
    grade.add_argument(
        "--format",
        choices=["lines", "grid", "csv", "npy"],
        help="input format (default: from the extension and content)",
    )
    grade.add_argument(
        "--chunk-size",
        type=_positive,
        default=16384,
        help="puzzles read and rated at a time (default 16384)",
    )
    grade.add_argument("--threads", type=_positive, default=None, help="threads")
    grade.add_argument("--no-progress", action="store_true", help="no progress bar")
    grade.add_argument(
        "--progress", action="store_true", help="progress bar even when stderr is not a terminal"
    )
    grade.set_defaults(run=_rate_command)
    return parser


def _show_progress(args):
    """A progress bar when asked (--progress), or when stderr is a terminal and
    --no-progress is not given."""
    return (not args.no_progress and sys.stderr.isatty()) or args.progress


def _bad_timeout(args):
    """Check ``args.timeout`` with the library's own rule (core.validate.check_timeout):
    say so on stderr and return True when it is negative or NaN; infinity becomes None
    (no deadline)."""
    from .core.validate import check_timeout

    try:
        args.timeout = check_timeout(args.timeout)
    except ValueError as error:
        print(f"numbadlx: error: --{error}", file=sys.stderr)
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
    if args.command == "solve" and args.resume and args.output in (None, "-"):
        print("numbadlx: error: --resume needs -o OUTPUT (a file)", file=sys.stderr)
        return EXIT_USAGE
    try:
        return args.run(args)
    except KeyboardInterrupt:
        # Ctrl-C outside the solve loop (reading stdin, checking a resume): nothing
        # was written yet that needs cutting back
        print("numbadlx: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # e.g. `numbadlx solve big.txt | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except (ValueError, OSError) as error:
        print(f"numbadlx: error: {_os_error_text(error)}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
