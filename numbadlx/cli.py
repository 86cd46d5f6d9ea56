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
"""

import argparse
import json
import os
import sys
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


def _output_lines(chunk, result, csv, alphabet_blank):
    from .sudoku_io import format_lines

    solutions = format_lines(result.solutions)
    lines = []
    messages = dict(chunk.errors)
    for k in range(len(chunk)):
        status = int(result.status[k])
        raw = chunk.raw[k].strip().replace("\n", "/")
        if csv:
            solution = solutions[k] if result.counts[k] else ""
            lines.append(f"{raw},{solution},{STATUS_NAMES[status]},{result.counts[k]},"
                         f"{result.nodes[k]}")
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


def _solve_command(args):
    from . import sudoku
    from .sudoku_io import iter_chunks

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
    output = args.output
    csv = bool(output) and (args.csv or output.lower().endswith(".csv"))
    checkpoint = output + ".progress" if output else None
    input_size = os.path.getsize(source)
    start_byte, done_puzzles, tally = 0, 0, np.zeros(len(STATUS_NAMES), dtype=np.int64)
    if output and args.resume and os.path.exists(checkpoint):
        with open(checkpoint) as handle:
            saved = json.load(handle)
        if saved.get("input") != os.path.abspath(source) or saved.get(
                "input_size") != input_size:
            print(f"numbadlx: error: {checkpoint} belongs to another input "
                  f"({saved.get('input')}); remove it or drop --resume", file=sys.stderr)
            return 2
        start_byte = saved["end_byte"]
        done_puzzles = saved["puzzles"]
        tally = np.array(saved["tally"], dtype=np.int64)
        with open(output, "r+b") as handle:
            handle.truncate(saved["output_bytes"])
        mode = "ab"
        print(f"numbadlx: resuming {source} at byte {start_byte} ({done_puzzles} puzzles "
              f"already written)", file=sys.stderr)
    elif output and args.resume:
        print(f"numbadlx: no checkpoint {checkpoint}; starting from the beginning",
              file=sys.stderr)
        mode = "wb"
    else:
        mode = "wb"
    out = open(output, mode) if output else sys.stdout.buffer
    show_solutions = output is not None or args.input is not None
    progress = _Progress(input_size, not args.no_progress and sys.stderr.isatty()
                         or args.progress)
    progress.update(start_byte, done_puzzles)
    started = time.perf_counter()
    solve_seconds = 0.0
    interrupted = False
    first = start_byte == 0
    committed = out.tell() if output else 0
    try:
        for chunk in iter_chunks(source, chunk_size=args.chunk_size, box=box,
                                 format=args.format, start_byte=start_byte):
            if len(chunk) == 0:
                continue
            result = sudoku.solve(chunk.puzzles, limit=args.limit, threads=args.threads,
                                  max_nodes=args.max_nodes, box=box, invalid=chunk.bad)
            solve_seconds += result.seconds
            lines = _output_lines(chunk, result, csv, "0")
            if show_solutions:
                text = ""
                if csv and first:
                    text = "puzzle,solution,status,count,nodes\n"
                text += "\n".join(lines) + "\n"
                out.write(text.encode())
                first = False
            done_puzzles += len(chunk)
            tally += np.bincount(result.status, minlength=len(STATUS_NAMES))
            if output:
                _fsync(out)
                _write_checkpoint(checkpoint, {
                    "input": os.path.abspath(source), "input_size": input_size,
                    "end_byte": chunk.end_byte, "puzzles": done_puzzles,
                    "output_bytes": out.tell(), "tally": tally.tolist()})
                committed = out.tell()
            else:
                out.flush()
            progress.update(chunk.end_byte, done_puzzles)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.close()
        if output:
            if interrupted:
                # drop anything written after the last checkpoint: only whole lines stay
                out.flush()
                out.truncate(committed)
            out.close()
    elapsed = time.perf_counter() - started
    summary = ", ".join(f"{STATUS_NAMES[k]} {tally[k]}" for k in range(len(STATUS_NAMES))
                        if tally[k])
    rate = done_puzzles / solve_seconds if solve_seconds > 0 else float("inf")
    print(f"numbadlx: {done_puzzles} puzzles from {source}: {summary or 'none'}",
          file=sys.stderr)
    print(f"numbadlx: {elapsed:.2f} s in all, solver {rate:,.0f} puzzles/s "
          f"(limit {args.limit}, threads {args.threads or 'all'})", file=sys.stderr)
    if output:
        print(f"numbadlx: wrote {output}", file=sys.stderr)
    elif not show_solutions:
        print("numbadlx: (solutions not printed for the built-in sample; give -o FILE to "
              "save them)", file=sys.stderr)
    if interrupted:
        if output:
            print(f"numbadlx: interrupted; {output} holds the first {done_puzzles} puzzles "
                  f"complete. Run the same command with --resume to carry on.",
                  file=sys.stderr)
        else:
            print(f"numbadlx: interrupted after {done_puzzles} puzzles", file=sys.stderr)
        return 130
    if output and os.path.exists(checkpoint):
        os.remove(checkpoint)
    return 0


def _count_command(args):
    from .exact_cover import BudgetExceeded, ExactCover

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
    solve.add_argument("--box", help="box shape RxC when n is not a square, e.g. 2x3")
    solve.add_argument("--format", choices=["lines", "grid", "csv", "npy"],
                       help="input format (default: from the extension and content)")
    solve.add_argument("--csv", action="store_true", help="write CSV whatever -o is called")
    solve.add_argument("--chunk-size", type=_positive, default=16384,
                       help="puzzles read, solved and written at a time (default 16384)")
    solve.add_argument("--resume", action="store_true",
                       help="carry on an interrupted run into the same -o file")
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
    except ValueError as error:
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
