"""The argument parser of the ``numbadlx`` command: its subcommands and options."""

import argparse
import difflib

from ._common import EXIT_CODES, positive
from ._count import count_command
from ._dedup import dedup_command
from ._files import generate_command, rate_command, solve_command
from ._warm_up import warm_up_command


class _Version(argparse.Action):
    """``--version``: reads the version only when asked (the metadata lookup costs)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from .. import __version__

        print(f"numbadlx {__version__}")  # on standard output, as argparse's own
        parser.exit()


class _CommandParser(argparse.ArgumentParser):
    """A command's parser (``numbadlx solve`` ...): an argument it does not know is its
    own error, shown with its usage and the nearest option's name, instead of the
    top-level usage that argparse would show for it."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(unknown_arguments(self, extras))
        return namespace, extras


def unknown_arguments(parser, extras):
    """The error for arguments ``parser`` does not know, naming the option each unknown
    option was likely meant to be.

    Examples
    --------
    >>> parser = argparse.ArgumentParser(prog="numbadlx solve")
    >>> _ = parser.add_argument("--output-format")
    >>> unknown_arguments(parser, ["--output-fmt", "csv"])
    'unrecognized arguments: --output-fmt csv (did you mean --output-format?)'
    """
    known = [name for action in parser._actions for name in action.option_strings]
    hints = []
    for extra in extras:
        if not extra.startswith("-"):
            continue
        near = difflib.get_close_matches(extra.split("=", 1)[0], known, n=1, cutoff=0.6)
        if near and f"did you mean {near[0]}?" not in hints:
            hints.append(f"did you mean {near[0]}?")
    message = "unrecognized arguments: " + " ".join(extras)
    return message + (f" ({'; '.join(hints)})" if hints else "")


#: What the file-job commands import before they run (NumPy, Numba, the engines).
JOB_MODULES = ("numbadlx.jobs",)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="numbadlx",
        description="Dancing Links (Algorithm X) in NumPy + Numba: bulk Sudoku solving "
        "and exact-cover counting.",
        epilog=EXIT_CODES["numbadlx"],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_CommandParser)
    solve = sub.add_parser(
        "solve",
        help="solve a file of Sudoku puzzles",
        description="Solve every puzzle of INPUT (one per line, grid "
        "format, CSV, .npy, a killer CSV of cage maps and sums, or f-puzzles); without "
        "INPUT, the built-in sample of 1000 puzzles.",
        epilog=EXIT_CODES["solve"],
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
        help="write results here (CSV when named .csv, Parquet for .parquet, Arrow IPC for "
        ".arrow; a regular file gets checkpoints for --resume); - or no -o: standard output",
    )
    solve.add_argument(
        "--limit",
        type=positive,
        default=2,
        help="count solutions up to this (1: just solve; 2: also prove uniqueness; default 2)",
    )
    solve.add_argument(
        "--all-solutions",
        type=positive,
        default=None,
        metavar="K",
        help="write up to K solutions of each puzzle: a line per solution (a puzzle's "
        "on consecutive lines, '# MULTIPLE j/c' after each of several), or with CSV a row "
        "per puzzle with columns solution_1..solution_K",
    )
    _column_options(solve)
    solve.add_argument(
        "--threads", type=positive, default=None, help="threads (default: all cores)"
    )
    solve.add_argument(
        "--max-nodes",
        type=positive,
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
        choices=["auto", "dlx", "bits", "bands", "cages"],
        default="auto",
        help="search engine: dlx (Dancing Links), bits (candidate bit masks with locked "
        "candidates, any size), bands (per-digit band masks, 9x9 with 3x3 boxes only), "
        "cages (bit masks with cage sums and the other constraint rules of variants) or "
        "auto (the fastest for the size and rules; default)",
    )
    solve.add_argument("--box", help="box shape RxC when n is not a square, e.g. 2x3")
    solve.add_argument(
        "--format",
        choices=["lines", "grid", "csv", "npy", "fpuzzles", "parquet", "arrow"],
        help="input format (default: from the extension and content; fpuzzles: a JSON "
        "file, or a puzzle per line as f-puzzles links or lz-string texts, each with "
        "its own rules)",
    )
    solve.add_argument(
        "--csv",
        action="store_true",
        help="write CSV whatever -o is called (or to stdout); not with --output-format "
        "text or grid",
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
        type=positive,
        default=16384,
        help="puzzles read, solved and written at a time (default 16384)",
    )
    _run_options(solve, "solve")
    solve.add_argument("--no-progress", action="store_true", help="no progress bar")
    solve.add_argument(
        "--progress", action="store_true", help="progress bar even when stderr is not a terminal"
    )
    solve.set_defaults(run=solve_command, loads=JOB_MODULES)
    count = sub.add_parser(
        "count",
        help="count the solutions of a DLX-format problem",
        description="Count the solutions of an exact-cover problem written in Knuth's "
        "DLX text format (the first line names the items, each other line an option).",
        epilog=EXIT_CODES["count"],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    count.add_argument("file", help="problem in Knuth's DLX text format; - reads standard input")
    count.add_argument("--limit", type=positive, default=None, help="stop at this many")
    count.add_argument(
        "--max-nodes",
        type=positive,
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
        "--show", type=positive, default=0, metavar="K", help="also print the first K solutions"
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
        type=positive,
        default=0,
        metavar="K",
        help="also print K solutions drawn uniformly at random (builds the memoised diagram)",
    )
    count.add_argument(
        "--estimate",
        type=positive,
        default=0,
        metavar="K",
        help="instead of counting, estimate the search's nodes and solutions from K random "
        "paths (Knuth's estimator)",
    )
    count.add_argument(
        "--progress",
        action="store_true",
        help="show the share of the search tree done (estimated), even when standard error "
        "is not a terminal",
    )
    count.add_argument(
        "--cheapest",
        type=positive,
        default=0,
        metavar="K",
        help="instead of counting, print the K cheapest solutions and their costs (options "
        "cost '|c' in DLX text)",
    )
    count.add_argument(
        "--reduce",
        action="store_true",
        help="remove blocked options and implied items first (preprocessing), and say how many",
    )
    count.add_argument(
        "--seed", type=int, default=None, help="random seed of --sample and --estimate"
    )
    count.add_argument(
        "--engine",
        choices=["dlx", "cells", "auto"],
        default="dlx",
        help="dlx: dancing links (default); cells: dancing cells; auto: chosen by the "
        "problem's shape (Algorithms X, C and M alike)",
    )
    count.add_argument(
        "--threads",
        type=positive,
        default=1,
        help="split the count (--method dlx) over this many threads",
    )
    count.set_defaults(run=count_command)
    make = sub.add_parser(
        "generate",
        help="make Sudoku puzzles with exactly one solution",
        description="Make N puzzles with exactly one solution (minimal by default) and "
        "write them one per line (CSV with -o NAME.csv, an array with -o NAME.npy), "
        "--chunk-size at a time: a regular file gets checkpoints for --resume, which "
        "gives the file an uninterrupted run writes.",
        epilog=EXIT_CODES["generate"],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    make.add_argument("-n", type=positive, required=True, help="how many puzzles")
    make.add_argument(
        "-o",
        "--output",
        help="write here (a regular file gets checkpoints for --resume; a .npy file "
        "loads once the run is complete); - or no -o: standard output",
    )
    make.add_argument("--size", type=positive, default=9, help="grid size (default 9)")
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
    make.add_argument(
        "--seed", type=int, default=None, help="random seed (default: fresh, and printed)"
    )
    make.add_argument(
        "--attempts",
        type=positive,
        default=1000,
        help="grids tried per puzzle before giving up on the bounds (default 1000)",
    )
    make.add_argument("--threads", type=positive, default=None, help="threads")
    make.add_argument(
        "--chunk-size",
        type=positive,
        default=1024,
        help="puzzles made and written at a time, between checkpoints (default 1024; "
        "fewer for large grids)",
    )
    make.add_argument(
        "--resume",
        action="store_true",
        help="carry on an interrupted run into the same -o file (same options; the "
        "seed drawn is taken from the checkpoint when --seed is not given)",
    )
    make.add_argument("--overwrite", action="store_true", help=_OVERWRITE_HELP)
    make.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help="generate on Dask, a task per --chunk-size block: a scheduler address "
        "(tcp://host:8786), local[:N] for a LocalCluster of N worker processes, or "
        "threads[:N] (needs numbadlx[dask]); --threads is per task (default 1)",
    )
    make.add_argument(
        "--csv", action="store_true", help="write CSV whatever -o is called (not a .npy one)"
    )
    make.add_argument("--no-progress", action="store_true", help="no progress bar")
    make.add_argument(
        "--progress", action="store_true", help="progress bar even when stderr is not a terminal"
    )
    make.set_defaults(run=generate_command, loads=JOB_MODULES)
    grade = sub.add_parser(
        "rate",
        help="rate the difficulty of Sudoku puzzles",
        description="Rate every puzzle of INPUT (any format solve reads) and write CSV: "
        "puzzle,tries,logic,hardest (see numbadlx.sudoku.rate); with --steps, the trace "
        "of the logic ladder instead, a row per step. -o NAME.parquet or NAME.arrow "
        "writes the same columns to a Parquet or Arrow file.",
        epilog=EXIT_CODES["rate"],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    grade.add_argument("input", help="puzzle file; - reads standard input")
    grade.add_argument(
        "-o",
        "--output",
        help="CSV file (Parquet for .parquet, Arrow IPC for .arrow); - or no -o: standard output",
    )
    grade.add_argument(
        "--steps",
        action="store_true",
        help="write every step of the logic ladder instead of the ratings: puzzle (its row, "
        "from 0), step, technique, rating, row, column, digit, removed, status, message; "
        "a puzzle without a step gets one row with its status and the reason",
    )
    grade.add_argument(
        "--masks",
        action="store_true",
        help="with --steps, also the candidate masks before each step (bit d-1 set while d "
        "may go in a cell; in CSV numbers separated by spaces; slower)",
    )
    grade.add_argument(
        "--isomorphs",
        type=positive,
        default=8,
        help="random isomorphs the tries are averaged over (default 8)",
    )
    grade.add_argument("--seed", type=int, default=0, help="seed of the isomorphs (default 0)")
    grade.add_argument("--no-logic", action="store_true", help="tries only (faster)")
    grade.add_argument("--box", help="box shape RxC when n is not a square, e.g. 2x3")
    grade.add_argument(
        "--format",
        choices=["lines", "grid", "csv", "npy", "parquet", "arrow"],
        help="input format (default: from the extension and content)",
    )
    grade.add_argument(
        "--chunk-size",
        type=positive,
        default=16384,
        help="puzzles read and rated at a time (default 16384)",
    )
    grade.add_argument("--threads", type=positive, default=None, help="threads")
    _run_options(grade, "rate")
    grade.add_argument("--no-progress", action="store_true", help="no progress bar")
    grade.add_argument(
        "--progress", action="store_true", help="progress bar even when stderr is not a terminal"
    )
    grade.set_defaults(run=rate_command, loads=JOB_MODULES)
    dedup = sub.add_parser(
        "dedup",
        help="keep the first puzzle of each class of equivalent puzzles",
        description="Read INPUT (any format solve reads) and write the first puzzle of each "
        "class of equivalent puzzles (the same canonical form, see "
        "numbadlx.sudoku.canonical), one line each, in input order. How many were dropped, "
        "and every row that could not be read or whose givens clash (not written), go to "
        "standard error. An OUTPUT that holds something is replaced only with --overwrite.",
        epilog=EXIT_CODES["dedup"],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    dedup.add_argument("input", help="puzzle file")
    dedup.add_argument("-o", "--output", help="new file to write; - or no -o: standard output")
    dedup.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an -o file that holds something (once the new one is complete)",
    )
    dedup.add_argument(
        "--canonical", action="store_true", help="write each kept puzzle's canonical form"
    )
    dedup.add_argument("--box", help="box shape RxC when n is not a square, e.g. 2x3")
    dedup.add_argument(
        "--format",
        choices=["lines", "grid", "csv", "npy", "parquet", "arrow"],
        help="input format (default: from the extension and content)",
    )
    dedup.add_argument("--column", help="the puzzle column of a CSV input")
    dedup.add_argument(
        "--chunk-size",
        type=positive,
        default=65536,
        help="puzzles read at a time (default 65536)",
    )
    dedup.add_argument("--threads", type=positive, default=None, help="threads")
    dedup.set_defaults(run=dedup_command)
    warm = sub.add_parser(
        "warm-up",
        help="compile the kernels ahead (each is compiled once, then cached)",
        description="Compile the kernels of the common paths (the 9x9 solver, rate, "
        "generate, exact cover with Algorithms X and C), or of everything with --all, "
        "into Numba's cache, a group at a time in each of a few worker processes, with "
        "the time each took. A later run "
        "loads them in a fraction of a second.",
    )
    warm.add_argument("--all", action="store_true", help="every engine and kernel (takes longer)")
    warm.add_argument(
        "--processes",
        type=positive,
        default=None,
        help="groups compiled at once, each in a process of its own (default: the CPUs "
        "available; 1: one group after another in this process)",
    )
    warm.set_defaults(run=warm_up_command)
    return parser


def _column_options(parser):
    """The extra columns of a solve's CSV, Parquet or Arrow rows."""
    group = parser.add_argument_group(
        "dataset columns",
        "added after the others to a CSV row (the output is CSV unless -o names a\n"
        "Parquet or Arrow file) or a Parquet or Arrow row; empty (null) where a row\n"
        "has no value, its status and message saying why",
    )
    group.add_argument(
        "--canonical",
        action="store_true",
        help="each puzzle's canonical form: equivalent puzzles, and only they, share it",
    )
    group.add_argument(
        "--candidates",
        metavar="LOGIC",
        help="each puzzle's candidate masks after LOGIC: none, singles or a technique of "
        "the rater's ladder up to forcing chains (bit d-1 set while d may go in a cell; "
        "in CSV the masks as numbers separated by spaces)",
    )
    group.add_argument(
        "--backtracks",
        action="store_true",
        help="the guesses of the search, the backtrack rating published datasets carry "
        "(with --limit 1: to the first solution)",
    )


_OVERWRITE_HELP = (
    "replace an -o file that holds something (without it such a file is refused, and one "
    "that holds an interrupted run is named as such)"
)


def _run_options(parser, verb):
    """The options of where and how a file job runs: --resume, --overwrite and --dask."""
    parser.add_argument(
        "--resume", action="store_true", help="carry on an interrupted run into the same -o file"
    )
    parser.add_argument("--overwrite", action="store_true", help=_OVERWRITE_HELP)
    parser.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help=f"{verb} on Dask: a scheduler address (tcp://host:8786), "
        "local[:N] for a LocalCluster of N worker processes, or "
        "threads[:N] (needs numbadlx[dask])",
    )
    parser.add_argument(
        "--dask-chunk-bytes",
        type=positive,
        default=8 << 20,
        metavar="BYTES",
        help="input bytes per Dask task at most (default 8 MiB; a smaller input is cut "
        "into about four ranges per worker, none under 16 KiB)",
    )
