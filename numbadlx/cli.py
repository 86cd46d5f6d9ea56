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
"""

import argparse
import csv as _csv
import io
import json
import os
import re
import signal
import sys
import threading
import time

import numpy as np

__all__ = ["main"]

STATUS_NAMES = ["NOT_RUN", "UNIQUE", "SOLVED", "MULTIPLE", "NO_SOLUTION", "INVALID",
                "BUDGET"]


class _Progress:
    """A progress bar on stderr: tqdm when installed, else a plain line."""

    def __init__(self, total, enabled, unit="B"):
        self.enabled = enabled
        self.bar = None
        self.done = 0
        self.total = total
        self.last = 0.0
        if not enabled:
            return
        try:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr,
                            desc="solving", dynamic_ncols=True)
        except ImportError:
            self.bar = None

    def update(self, done, puzzles):
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(done - self.done)
            self.bar.set_postfix(puzzles=puzzles, refresh=False)
        else:
            now = time.perf_counter()
            if now - self.last > 0.5 or done >= self.total:
                share = 100.0 * done / self.total if self.total else 100.0
                sys.stderr.write(f"\rsolving: {share:5.1f}%  {puzzles} puzzles")
                sys.stderr.flush()
                self.last = now
        self.done = done

    def close(self):
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            sys.stderr.write("\n")


def _fsync(handle):
    handle.flush()
    os.fsync(handle.fileno())


def _write_checkpoint(path, record):
    tmp = path + ".tmp"
    with open(tmp, "w") as handle:
        json.dump(record, handle)
        _fsync(handle)
    os.replace(tmp, path)


# Characters that end a line for str.splitlines() or a CSV reader: never inside one
# output line (a grid puzzle's rows are joined with "/").
_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


# An unreadable line longer than this is echoed cut short (CSV readers refuse fields
# over 128 KiB; any real puzzle line is far shorter).
_ECHO_LIMIT = 10_000


def _one_line(raw, invalid=False):
    if invalid and len(raw) > _ECHO_LIMIT:
        raw = f"{raw[:80]}... ({len(raw)} characters)"
    raw = raw.strip().replace("\n", "/")
    if _LINE_BREAKS.search(raw):
        raw = _LINE_BREAKS.sub(lambda m: ascii(m.group())[1:-1], raw)
    return raw


def _csv_field(text):
    """``text`` as one CSV field (quoted when it holds a comma or a quote)."""
    if "," not in text and '"' not in text:
        return text
    buffer = io.StringIO()
    _csv.writer(buffer, lineterminator="").writerow([text])
    return buffer.getvalue()


def _output_lines(chunk, result, csv):
    from .sudoku import format_lines

    solutions = format_lines(result.solutions)
    lines = []
    messages = dict(chunk.errors)
    for k in range(len(chunk)):
        status = int(result.status[k])
        raw = _one_line(chunk.raw[k], invalid=status == 5)
        if csv:
            solution = _csv_field(solutions[k]) if result.counts[k] else ""
            lines.append(f"{_csv_field(raw)},{solution},{STATUS_NAMES[status]},"
                         f"{result.counts[k]},{result.nodes[k]}")
            continue
        if status in (1, 2):
            lines.append(solutions[k])
        elif status == 3:
            lines.append(f"{solutions[k]}  # MULTIPLE (first of at least "
                         f"{result.counts[k]})")
        elif status == 5 and k in messages:
            lines.append(f"{raw}  # INVALID: {messages[k]}")
        elif status == 5:
            lines.append(f"{raw}  # INVALID: givens clash")
        elif status == 6 and result.counts[k]:
            lines.append(f"{solutions[k]}  # BUDGET (a solution; count not finished)")
        else:
            lines.append(f"{raw}  # {STATUS_NAMES[status]}")
    return lines


class _DeferInterrupt:
    """Ctrl-C handling for the solve loop: raise KeyboardInterrupt at once, except
    while a chunk is being committed (output written and fsynced, checkpoint
    replaced), where it is held back until the commit is complete, so the output and
    the checkpoint always agree."""

    def __init__(self):
        self.holding = False
        self.pending = False
        self.previous = None

    def _handler(self, signum, frame):
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def install(self):
        if threading.current_thread() is not threading.main_thread():
            return
        current = signal.getsignal(signal.SIGINT)
        if current is signal.default_int_handler:  # not when SIGINT is ignored
            self.previous = current
            signal.signal(signal.SIGINT, self._handler)

    def restore(self):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None

    def __enter__(self):
        self.holding = True
        return self

    def __exit__(self, *exc):
        self.holding = False
        if self.pending and exc[0] is None:
            self.pending = False
            raise KeyboardInterrupt
        return False


def _interruptible(function, *args, **kwargs):
    """Call ``function`` on a helper thread and wait for it so that Ctrl-C gets through.

    Python runs signal handlers only between bytecodes of the main thread, so a long
    compiled search called from the main thread would hold Ctrl-C back until it ends.
    The Sudoku kernel releases the GIL, so here the main thread waits in short joins and
    a KeyboardInterrupt reaches it at once; the helper thread is then abandoned (the
    command exits soon after). Off the main thread, ``function`` is simply called.
    """
    if threading.current_thread() is not threading.main_thread():
        return function(*args, **kwargs)
    outcome = {}

    def target():
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # handed to the main thread below
            outcome["error"] = error

    worker = threading.Thread(target=target, name="numbadlx-solve", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _solve_command(args):
    from . import sudoku
    from .sudoku import iter_chunks

    source = args.input or sudoku.default_sample_path()
    if not os.path.isfile(source):
        print(f"numbadlx: error: no such file: {source}", file=sys.stderr)
        return 2
    box = None
    if args.box:
        try:
            rows, cols = (int(v) for v in args.box.lower().split("x"))
        except ValueError:
            print(f"numbadlx: error: --box must look like 2x3, got {args.box!r}",
                  file=sys.stderr)
            return 2
        box = (rows, cols)
    if getattr(args, "dask", None):
        try:
            from .dask import cli_solve  # optional: needs numbadlx[dask]
        except ImportError as error:
            print(f"numbadlx: error: --dask needs Dask ({error}); pip install "
                  f"'numbadlx[dask]'", file=sys.stderr)
            return 2
        return cli_solve(args, source, box)
    timeout = getattr(args, "timeout", None)
    if timeout is not None and not timeout >= 0:
        print(f"numbadlx: error: --timeout must be >= 0 seconds, got {timeout}",
              file=sys.stderr)
        return 2
    output = args.output
    csv = bool(output) and (args.csv or output.lower().endswith(".csv"))
    checkpoint = output + ".progress" if output else None
    input_size = os.path.getsize(source)
    # what shapes the output: a resumed run must use the same
    options = {"limit": args.limit, "max_nodes": args.max_nodes, "csv": csv,
               "box": None if box is None else f"{box[0]}x{box[1]}", "format": args.format}
    start_byte, done_puzzles, tally = 0, 0, np.zeros(len(STATUS_NAMES), dtype=np.int64)
    size_n = None
    if output and args.resume and os.path.exists(checkpoint):
        try:
            with open(checkpoint) as handle:
                saved = json.load(handle)
            start_byte = int(saved["end_byte"])
            done_puzzles = int(saved["puzzles"])
            tally = np.array(saved["tally"], dtype=np.int64)
            output_bytes = int(saved["output_bytes"])
            size_n = saved.get("n")
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"numbadlx: error: cannot read the checkpoint {checkpoint} ({error}); "
                  f"remove it and run again without --resume", file=sys.stderr)
            return 2
        if saved.get("input") != os.path.abspath(source) or saved.get(
                "input_size") != input_size:
            print(f"numbadlx: error: {checkpoint} belongs to another input "
                  f"({saved.get('input')}); remove it or drop --resume", file=sys.stderr)
            return 2
        if saved.get("options", options) != options:
            print(f"numbadlx: error: {checkpoint} was written with other options "
                  f"({saved.get('options')}); resume with the same --limit, --max-nodes, "
                  f"--box, --format and output type, or drop --resume", file=sys.stderr)
            return 2
        have = os.path.getsize(output) if os.path.isfile(output) else -1
        if have < output_bytes:
            print(f"numbadlx: error: {output} has {max(have, 0)} bytes but the checkpoint "
                  f"{checkpoint} says {output_bytes} were written; the output was changed "
                  f"since, so the run cannot be resumed (drop --resume)", file=sys.stderr)
            return 2
        with open(output, "r+b") as handle:
            handle.truncate(output_bytes)
        mode = "ab"
        print(f"numbadlx: resuming {source} at byte {start_byte} ({done_puzzles} puzzles "
              f"already written)", file=sys.stderr)
    else:
        if output and args.resume:
            print(f"numbadlx: no checkpoint {checkpoint}; starting from the beginning",
                  file=sys.stderr)
        if output and os.path.exists(checkpoint):
            os.remove(checkpoint)  # a stale one would describe some other output
        mode = "wb"
    out = open(output, mode) if output else sys.stdout.buffer
    show_solutions = output is not None or args.input is not None
    progress = _Progress(input_size, not args.no_progress and sys.stderr.isatty()
                         or args.progress)
    progress.update(start_byte, done_puzzles)
    started = time.perf_counter()
    sudoku.warm_up()  # compile or load the kernels here, so the rate below is the solver's
    startup = time.perf_counter() - started
    solve_seconds = 0.0
    interrupted = False
    committed = out.tell() if output else 0
    header = b"puzzle,solution,status,count,nodes\n" if csv and start_byte == 0 else b""
    position = start_byte
    resumed_puzzles = done_puzzles
    interrupts = _DeferInterrupt()
    interrupts.install()
    failed = True
    try:
        for chunk in iter_chunks(source, chunk_size=args.chunk_size, box=box,
                                 format=args.format, start_byte=start_byte, n=size_n):
            if len(chunk) == 0:
                continue
            result = _interruptible(sudoku.solve, chunk.puzzles, limit=args.limit,
                                    threads=args.threads, max_nodes=args.max_nodes, box=box,
                                    invalid=chunk.bad, timeout=timeout)
            solve_seconds += result.seconds
            lines = _output_lines(chunk, result, csv)
            text = header + ("\n".join(lines) + "\n").encode("utf-8", "replace")
            with interrupts:  # all of the commit, or none of it
                if show_solutions:
                    out.write(text)
                    header = b""
                done_puzzles += len(chunk)
                tally += np.bincount(result.status, minlength=len(STATUS_NAMES))
                position = chunk.end_byte
                if output:
                    _fsync(out)
                    _write_checkpoint(checkpoint, {
                        "input": os.path.abspath(source), "input_size": input_size,
                        "end_byte": chunk.end_byte, "puzzles": done_puzzles,
                        "output_bytes": out.tell(), "tally": tally.tolist(),
                        "n": chunk.n, "options": options})
                    committed = out.tell()
                else:
                    out.flush()
            progress.update(chunk.end_byte, done_puzzles)
        if header and show_solutions:
            out.write(header)  # a CSV of no puzzles still gets its header
        failed = False
    except KeyboardInterrupt:
        interrupted = True
    finally:
        interrupts.restore()
        progress.close()
        if output:
            if interrupted or failed:
                # drop anything written after the last checkpoint: only whole lines stay
                out.flush()
                out.truncate(committed)
            out.close()
    elapsed = time.perf_counter() - started
    summary = ", ".join(f"{STATUS_NAMES[k]} {tally[k]}" for k in range(len(STATUS_NAMES))
                        if tally[k])
    solved_now = done_puzzles - resumed_puzzles
    rate = f"{solved_now / solve_seconds:,.0f}" if solve_seconds > 0 and solved_now else "-"
    print(f"numbadlx: {done_puzzles} puzzles from {source}: {summary or 'none'}",
          file=sys.stderr)
    print(f"numbadlx: {elapsed:.2f} s in all ({startup:.2f} s to compile or load the "
          f"solver), solver {rate} puzzles/s (limit {args.limit}, threads "
          f"{args.threads or 'all'})", file=sys.stderr)
    if output:
        print(f"numbadlx: wrote {output}", file=sys.stderr)
    elif not show_solutions:
        print("numbadlx: (solutions not printed for the built-in sample; give -o FILE to "
              "save them)", file=sys.stderr)
    if interrupted:
        if output:
            print(f"numbadlx: interrupted; {output} holds the first {done_puzzles} puzzles "
                  f"complete (input read to byte {position} of {input_size}). Run the "
                  f"same command with --resume to carry on.", file=sys.stderr)
        else:
            print(f"numbadlx: interrupted after {done_puzzles} puzzles", file=sys.stderr)
        return 130
    if output and os.path.exists(checkpoint):
        os.remove(checkpoint)
    return 0


def _count_command(args):
    from .core import BudgetExceeded, ExactCover

    try:
        problem = ExactCover.from_dlx(args.file)
    except (OSError, ValueError) as error:
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return 2
    print(f"{args.file}: {problem.n_options} options, {problem.n_primary} primary and "
          f"{problem.n_secondary} secondary items", file=sys.stderr)
    try:
        shown = 0
        if args.show:
            for solution in problem.solutions(limit=args.show, max_nodes=args.max_nodes,
                                              timeout=args.timeout):
                shown += 1
                print(f"solution {shown}:")
                for k in solution:
                    names = problem.item_names
                    print("  " + " ".join(names[i] for i in problem.option(k)))
        total = problem.count(args.limit, max_nodes=args.max_nodes, timeout=args.timeout)
    except BudgetExceeded as stop:
        print(f"at least {stop.found} solutions (stopped at the budget: "
              f"{stop.stats.nodes} nodes, {stop.stats.seconds:.2f} s)")
        return 3
    stats = problem.stats
    more = "+" if args.limit is not None and total >= args.limit else ""
    print(f"{total}{more} solutions")
    print(f"{stats.nodes} nodes, {stats.updates} updates, {stats.seconds:.3f} s",
          file=sys.stderr)
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="numbadlx",
        description="Dancing Links (Algorithm X) in NumPy + Numba: bulk Sudoku solving "
                    "and exact-cover counting.")
    sub = parser.add_subparsers(dest="command", required=True)
    solve = sub.add_parser("solve", help="solve a file of Sudoku puzzles",
                           description="Solve every puzzle of INPUT (one per line, grid "
                                       "format, CSV or .npy); without INPUT, the built-in "
                                       "sample of 1000 puzzles.")
    solve.add_argument("input", nargs="?", help="puzzle file (default: built-in sample)")
    solve.add_argument("-o", "--output", help="write results here (.csv for CSV); "
                                              "default: standard output")
    solve.add_argument("--limit", type=_positive, default=2,
                       help="count solutions up to this (1: just solve; 2: also prove "
                            "uniqueness; default 2)")
    solve.add_argument("--threads", type=_positive, default=None,
                       help="threads (default: all cores)")
    solve.add_argument("--max-nodes", type=_positive, default=None,
                       help="search-node budget per puzzle (status BUDGET past it)")
    solve.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                       help="wall-clock limit for each chunk of --chunk-size puzzles: "
                            "those not finished by then get BUDGET (easy ones first)")
    solve.add_argument("--box", help="box shape RxC when n is not a square, e.g. 2x3")
    solve.add_argument("--format", choices=["lines", "grid", "csv", "npy"],
                       help="input format (default: from the extension and content)")
    solve.add_argument("--csv", action="store_true", help="write CSV whatever -o is called")
    solve.add_argument("--chunk-size", type=_positive, default=16384,
                       help="puzzles read, solved and written at a time (default 16384)")
    solve.add_argument("--resume", action="store_true",
                       help="carry on an interrupted run into the same -o file")
    solve.add_argument("--dask", metavar="SCHEDULER",
                       help="solve on Dask: a scheduler address (tcp://host:8786), "
                            "local[:N] for a LocalCluster of N worker processes, or "
                            "threads[:N] (needs numbadlx[dask])")
    solve.add_argument("--dask-chunk-bytes", type=_positive, default=8 << 20,
                       metavar="BYTES", help="input bytes per Dask task (default 8 MiB)")
    solve.add_argument("--no-progress", action="store_true", help="no progress bar")
    solve.add_argument("--progress", action="store_true",
                       help="progress bar even when stderr is not a terminal")
    solve.set_defaults(run=_solve_command)
    count = sub.add_parser("count", help="count the solutions of a DLX-format problem")
    count.add_argument("file", help="problem in Knuth's DLX text format")
    count.add_argument("--limit", type=_positive, default=None, help="stop at this many")
    count.add_argument("--max-nodes", type=_positive, default=None, help="node budget")
    count.add_argument("--timeout", type=float, default=None, help="seconds budget")
    count.add_argument("--show", type=_positive, default=0, metavar="K",
                       help="also print the first K solutions")
    count.set_defaults(run=_count_command)
    return parser


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
