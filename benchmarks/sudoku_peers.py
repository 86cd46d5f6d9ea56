"""numbadlx's Sudoku solver next to the PyPI exact-cover peers and tdoku's compiled solvers.

Run by hand (not in CI), in the benchmark environment that has the peers::

    bash benchmarks/setup_env.sh
    .venv-bench/bin/python benchmarks/sudoku_peers.py
    .venv-bench/bin/python benchmarks/sudoku_peers.py --tdoku /path/to/run_benchmark
    .venv-bench/bin/python benchmarks/sudoku_peers.py --quick      # smoke run

``run_benchmark`` is tdoku's own benchmark program, built by you from the t-dillon/tdoku
sources with tdoku's own CMake build, outside this repository; without ``--tdoku``
(or when the path does not exist) its rows are skipped with a message.

What is compared, per dataset and limit (1: first solution, 2: prove uniqueness):

* The same puzzles on every side: an evenly spaced sample of ``--sample`` puzzles of
  the set. numbadlx solves the sample as one array (``sudoku.solve(sample, limit=...,
  threads=1)``); that call is what its user pays (checking the grids, building the
  pruned links, searching, writing the solutions), so all of it is timed.
* The peers (xcover, exact-cover, miniexact) have no Sudoku or bulk API. Each puzzle's
  exact cover is built with NumPy and turned into the peer's own input before any
  timing (``peers.prepare_sudoku``; no validation), and only the peer's search call is
  timed: the first solution for limit 1, a count stopped at 2 for limit 2. The time
  that building took is printed in its own column, not counted in any ratio.
  Two encodings: *textbook* (all 324 items; all 9 options of each blank cell) and
  *pruned* (what numbadlx's kernel builds: the items the givens satisfy left out, and
  only the digits no given rules out). Their answers are checked against numbadlx's
  before the timing (counts equal; each first solution a valid grid with the givens).
* lib-sudoku (PyPI, a Rust solver; module ``lib_sudoku``, optional, skipped with a
  message when absent) takes a puzzle as 81 bytes (0 = blank) and returns one
  solution; it parses no puzzle text (only CSV files, through a reader that prints to
  the terminal). It gets the same uint8 grids as numbadlx, each turned into its
  81 bytes inside the timing (``grid.tobytes()``, all its user needs), and runs in a
  child process so that a pass slower than ``--lib-sudoku-seconds`` can be stopped
  (it has no limit of its own and takes minutes on some 17-clue puzzles). It finds
  one solution and cannot prove uniqueness, so it has limit-1 rows only. Its
  answers are not trusted: every grid it returns is checked to be a valid
  completion of its puzzle, and the count of valid ones is printed.
* tdoku's ``run_benchmark`` gets the same sample, written as 81-character lines with
  ``.`` blanks, run in its own process, one thread, puzzles not permuted (``-r0``),
  set size equal to the sample (``-n``), uniqueness checked (its default, limit 2;
  ``-f`` for limit 1). It reports microseconds per puzzle averaged over passes of at
  least ``--tdoku-seconds``; it parses each puzzle's text inside that time.

Rounds alternate the sides (numbadlx, each peer and encoding, tdoku; the order is
reversed every other round); within a round each side repeats whole passes over the
sample for at least ``--min-seconds``. Times are medians over rounds; each ratio is the
median of the per-round ratios, "numbadlx N x faster" meaning the other side took N
times as long per puzzle as numbadlx in the same round.
"""

import argparse
import importlib.metadata
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402
import peers  # noqa: E402
from sudoku import DATASETS, load  # noqa: E402
from tdoku import run_tdoku, solvers_built  # noqa: E402

from numbadlx import sudoku  # noqa: E402

ENCODINGS = ("textbook", "pruned")
LIB_SUDOKU = "lib-sudoku"
# lib-sudoku's timed passes, in a child process (see the module text): the seconds per
# pass on stdout, the last pass's answers (81 bytes a puzzle, zeros where it raised)
# in a file.
_LIB_SUDOKU_WORKER = r"""
import sys, time
import numpy as np
from lib_sudoku import solve

grids = np.load(sys.argv[1])
min_seconds = float(sys.argv[2])
blank = bytes(81)


def one(grid):
    try:
        return solve(grid.tobytes())
    except ValueError:  # an illegal puzzle
        return blank


one(grids[0])  # load the library
total, passes = 0.0, 0
while total < min_seconds or passes == 0:
    start = time.perf_counter()
    answers = [one(grid) for grid in grids]
    total += time.perf_counter() - start
    passes += 1
np.save(sys.argv[3], np.frombuffer(b"".join(answers), dtype=np.uint8).reshape(-1, 81))
print(total / passes)
"""
DEFAULT_TDOKU_SOLVERS = "tdoku,jsolve,fsss2,kudoku,fast_solv_9r2"


def evenly_spaced(puzzles, size):
    """``size`` puzzles taken at even steps through ``puzzles`` (all of them if fewer)."""
    step = max(1, len(puzzles) // size)
    return puzzles[::step][:size].copy()


def timed_passes(run_pass, min_seconds, reset=None):
    """Seconds per pass: repeat ``run_pass`` until ``min_seconds`` of it were timed.

    ``reset`` (untimed) runs before every pass; miniexact's solvers are used up by one
    search and must be rebuilt.
    """
    total, passes = 0.0, 0
    while total < min_seconds or passes == 0:
        if reset is not None:
            reset()
        start = time.perf_counter()
        run_pass()
        total += time.perf_counter() - start
        passes += 1
    return total / passes


def is_completion(grid, givens):
    """True when ``grid`` (81 values) is a full valid Sudoku that keeps ``givens``."""
    if grid is None:
        return False
    g = grid.reshape(9, 9).astype(int)
    boxes = g.reshape(3, 3, 3, 3).transpose(0, 2, 1, 3).reshape(9, 9)
    digits = list(range(1, 10))
    return (
        all(sorted(unit) == digits for block in (g, g.T, boxes) for unit in block)
        and (grid[givens > 0] == givens[givens > 0]).all()
    )


class PeerSide:
    """One peer with one encoding, prepared for every puzzle of the sample."""

    def __init__(self, peer, encoding, sample, limit):
        self.peer, self.encoding, self.limit = peer, encoding, limit
        start = time.perf_counter()
        built = [peers.prepare_sudoku(peer, grid, encoding == "pruned") for grid in sample]
        self.build_seconds = (time.perf_counter() - start) / len(sample)
        self.prepared = [prep for prep, _ in built]
        self.decoders = [decode for _, decode in built]

    @property
    def name(self):
        return f"{self.peer} ({self.encoding})"

    def check(self, sample, numbadlx_counts):
        """The peer's answers next to numbadlx's; returns a list of disagreements."""
        wrong = []
        for index, (prep, decode) in enumerate(zip(self.prepared, self.decoders)):
            prep.reset()
            if self.limit == 1:
                found = decode(prep.first())
                if not is_completion(found, sample[index]):
                    wrong.append(f"puzzle {index}: first solution is not a valid completion")
            else:
                count = prep(limit=2)
                if count != numbadlx_counts[index]:
                    wrong.append(
                        f"puzzle {index}: {count} solutions, numbadlx {numbadlx_counts[index]}"
                    )
        return wrong

    def reset(self):
        for prep in self.prepared:
            prep.reset()

    def run_pass(self):
        if self.limit == 1:
            for prep in self.prepared:
                prep.first()
        else:
            for prep in self.prepared:
                prep(limit=2)


def lib_sudoku_version():
    """lib-sudoku's version, or None when it is not installed."""
    if importlib.util.find_spec("lib_sudoku") is None:
        return None
    try:
        return importlib.metadata.version("lib_sudoku")
    except importlib.metadata.PackageNotFoundError:
        return "?"


class LibSudokuSide:
    """lib-sudoku on the sample, one child process per timed round (limit 1 only)."""

    name = LIB_SUDOKU

    def __init__(self, sample, min_seconds, budget):
        self.sample, self.min_seconds, self.budget = sample, min_seconds, budget
        self.folder = tempfile.mkdtemp(prefix="lib_sudoku_")
        self.grids = os.path.join(self.folder, "grids.npy")
        self.answers = os.path.join(self.folder, "answers.npy")
        np.save(self.grids, np.ascontiguousarray(sample, dtype=np.uint8))
        self.timed_out = False
        self.valid = None

    def run_pass(self):
        """Seconds per pass over the sample, or None once a run took over the budget."""
        if self.timed_out:
            return None
        command = [sys.executable, "-c", _LIB_SUDOKU_WORKER, self.grids]
        try:
            done = subprocess.run(
                [*command, str(self.min_seconds), self.answers],
                capture_output=True,
                text=True,
                timeout=self.budget,
                check=True,
            )
        except subprocess.TimeoutExpired:
            self.timed_out = True
            return None
        if self.valid is None:
            answers = np.load(self.answers)
            self.valid = sum(
                is_completion(answer, grid) for answer, grid in zip(answers, self.sample)
            )
        return float(done.stdout.split()[-1])

    def close(self):
        for path in (self.grids, self.answers):
            if os.path.exists(path):
                os.unlink(path)
        os.rmdir(self.folder)


def verdict(ratio):
    """``other time ÷ numbadlx time`` in words."""
    factor = ratio if ratio >= 1 else 1 / ratio
    digits = 2 if factor < 2 else 1
    return f"numbadlx {factor:,.{digits}f}x {'faster' if ratio >= 1 else 'slower'}"


def bench_case(name, sample, limit, args, peer_names, tdoku, lib_sudoku=False):
    """Rows of the detail table and the ratios of one dataset and limit, and the
    lib-sudoku side (None when it does not run)."""
    sudoku.solve(sample, limit=limit, threads=1)  # warm (compiled code, caches)
    reference = sudoku.solve(sample, limit=limit, threads=1)
    sides = []
    for peer in peer_names:
        for encoding in ENCODINGS:
            side = PeerSide(peer, encoding, sample, limit)
            wrong = side.check(sample, reference.counts)
            if wrong:
                raise SystemExit(f"{name} limit {limit}: {side.name} disagrees: {wrong[:3]}")
            sides.append(side)
    lib_side = None
    if lib_sudoku and limit == 1:
        lib_side = LibSudokuSide(sample, args.min_seconds, args.lib_sudoku_seconds)
        sides.append(lib_side)
    tdoku_file = None
    if tdoku:
        handle, tdoku_file = tempfile.mkstemp(prefix=f"{name}_", suffix=".txt")
        with os.fdopen(handle, "w") as out:
            for grid in sample:
                out.write("".join(str(v) if v else "." for v in grid.tolist()) + "\n")

    def numbadlx_pass():
        sudoku.solve(sample, limit=limit, threads=1)

    times = {"numbadlx": []}
    for side in sides:
        times[side.name] = []
    tdoku_names = args.tdoku_solvers.split(",") if tdoku else []
    for solver in tdoku_names:
        times[f"tdoku run_benchmark: {solver}"] = []
    ratios = {key: [] for key in times if key != "numbadlx"}
    try:
        for round_number in range(args.rounds):
            order = ["numbadlx", *sides, *(["tdoku"] if tdoku else [])]
            if round_number % 2:
                order.reverse()
            this_round = {}
            for side in order:
                if side == "numbadlx":
                    this_round["numbadlx"] = timed_passes(numbadlx_pass, args.min_seconds)
                elif side == "tdoku":
                    measured = run_tdoku(
                        tdoku,
                        tdoku_file,
                        len(sample),
                        limit=limit,
                        solvers=args.tdoku_solvers,
                        seconds=args.tdoku_seconds,
                        warmup=args.tdoku_warmup,
                    )
                    micros = {solver: mean for solver, (mean, _) in measured.items()}
                    for solver in tdoku_names:
                        key = f"tdoku run_benchmark: {solver}"
                        this_round[key] = micros[solver] * 1e-6 * len(sample)
                elif side is lib_side:
                    seconds = lib_side.run_pass()
                    if seconds is not None:
                        this_round[side.name] = seconds
                else:
                    this_round[side.name] = timed_passes(
                        side.run_pass, args.min_seconds, side.reset
                    )
            for key, seconds in this_round.items():
                times[key].append(seconds / len(sample))
                if key != "numbadlx":
                    ratios[key].append(seconds / this_round["numbadlx"])
    finally:
        if tdoku_file:
            os.unlink(tdoku_file)
        if lib_side is not None:
            lib_side.close()
    if lib_side is not None and lib_side.timed_out:
        times.pop(LIB_SUDOKU)
        ratios.pop(LIB_SUDOKU)
    medians = {key: statistics.median(values) for key, values in times.items()}
    ratio = {key: statistics.median(values) for key, values in ratios.items()}
    build = {side.name: side.build_seconds for side in sides if side is not lib_side}
    return medians, ratio, build, lib_side


def print_table(header, rows, text_columns):
    """A Markdown table; the first ``text_columns`` columns left-aligned, the rest right."""
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if k < text_columns else "---:" for k in range(len(header))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(DATASETS), help="comma list of datasets")
    parser.add_argument("--limits", default="1,2")
    parser.add_argument("--sample", type=int, default=200, help="puzzles per dataset")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--min-seconds", type=float, default=0.2, help="timed seconds per side and round"
    )
    parser.add_argument(
        "--peers",
        default=",".join((*peers.PEERS, LIB_SUDOKU)),
        help="comma list, or 'none'",
    )
    parser.add_argument(
        "--lib-sudoku-seconds",
        type=float,
        default=60.0,
        help="stop lib-sudoku's run on a set after this many seconds (default 60)",
    )
    parser.add_argument(
        "--tdoku", help="path of tdoku's run_benchmark (built by you from tdoku's sources)"
    )
    parser.add_argument("--tdoku-solvers", default=DEFAULT_TDOKU_SOLVERS)
    parser.add_argument("--tdoku-seconds", type=int, default=1, help="run_benchmark -t")
    parser.add_argument("--tdoku-warmup", type=int, default=1, help="run_benchmark -w")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: top1465, limit 2, 30 puzzles, 1 round",
    )
    machine.add_results_option(parser, "sudoku_peers")
    args = parser.parse_args(argv)
    if args.quick:
        args.sets, args.limits, args.sample, args.rounds = "top1465", "2", 30, 1
        args.min_seconds = 0.05
    names = [s for s in args.sets.split(",") if s]
    unknown = [s for s in names if s not in DATASETS]
    if unknown:
        parser.error(f"unknown dataset(s) {unknown}; known: {', '.join(DATASETS)}")
    limits = [int(v) for v in args.limits.split(",")]
    if any(limit not in (1, 2) for limit in limits):
        parser.error("--limits takes 1 and/or 2")

    print(machine.describe("numbadlx Sudoku next to the exact-cover peers and tdoku"))
    requested = [] if args.peers == "none" else [p for p in args.peers.split(",") if p]
    lib_sudoku = LIB_SUDOKU in requested or "lib_sudoku" in requested
    requested = [p for p in requested if p not in (LIB_SUDOKU, "lib_sudoku")]
    peer_names = [peers._canon(p) for p in requested]
    for peer in [p for p in peer_names if not peers.AVAILABLE.get(p)]:
        print(f"# skipped peer, not importable here: {peer} ({peers.IMPORT_ERRORS.get(peer)})")
    peer_names = [p for p in peer_names if peers.AVAILABLE.get(p)]
    if peer_names:
        peers.warmup(peer_names)
        known = peers.peer_versions()
        print("# peers: " + ", ".join(f"{p} {known[p]}" for p in peer_names))
    if lib_sudoku:
        version = lib_sudoku_version()
        if version is None:
            print(f"# skipped peer, not importable here: {LIB_SUDOKU} (no module lib_sudoku)")
            lib_sudoku = False
        else:
            print(
                f"# {LIB_SUDOKU} {version}: limit 1 only (one solution, no uniqueness check); "
                f"a run stopped after {args.lib_sudoku_seconds:g} s"
            )
    tdoku = None
    if args.tdoku and os.access(args.tdoku, os.X_OK):
        tdoku = os.path.abspath(args.tdoku)
        built = solvers_built(tdoku)
        absent = [s for s in args.tdoku_solvers.split(",") if s not in built]
        if absent:
            parser.error(f"{tdoku} has no solver(s) {absent}; it has {built}")
        print(f"# tdoku run_benchmark: {tdoku} (solvers {args.tdoku_solvers})")
    elif args.tdoku:
        print(f"# skipped tdoku: {args.tdoku} is not an executable file")
    else:
        print("# skipped tdoku: no --tdoku PATH (build tdoku's run_benchmark from its sources)")
    print(f"# command: python benchmarks/sudoku_peers.py {' '.join(argv or sys.argv[1:])}")
    print(
        f"# {args.sample} evenly spaced puzzles per set, the same on every side; "
        f"medians of {args.rounds} alternating rounds; numbadlx on 1 thread"
    )
    print()

    detail, summary = [], []
    columns = ["numbadlx"]
    for name in names:
        sample = evenly_spaced(load(name), args.sample)
        for limit in limits:
            print(f"running {name}, limit {limit} ...", file=sys.stderr, flush=True)
            medians, ratio, build, lib_side = bench_case(
                name, sample, limit, args, peer_names, tdoku, lib_sudoku
            )
            ours = medians["numbadlx"]
            detail.append(
                [name, str(limit), "numbadlx, 1 thread", "grid array; all of solve() timed"]
                + [f"{ours * 1e6:,.1f}", f"{1 / ours:,.0f}", ""]
            )
            row = {"": [name, str(limit), f"{ours * 1e6:,.1f}"]}
            for key, seconds in medians.items():
                if key == "numbadlx":
                    continue
                if key in build:
                    note = f"{build[key] * 1e6:,.0f} µs/puzzle to build, not timed"
                elif key == LIB_SUDOKU:
                    note = (
                        f"grid.tobytes() timed; {lib_side.valid} of {len(sample)} "
                        "answers valid completions"
                    )
                else:
                    note = "81-char text, parsed inside its timing"
                detail.append(
                    [
                        name,
                        str(limit),
                        key,
                        note,
                        f"{seconds * 1e6:,.1f}",
                        f"{1 / seconds:,.0f}",
                        verdict(ratio[key]),
                    ]
                )
                if key not in columns:
                    columns.append(key)
                row[key] = verdict(ratio[key]).replace("numbadlx ", "")
                if key == LIB_SUDOKU and lib_side.valid < len(sample):
                    row[key] += f" ({lib_side.valid} of {len(sample)} valid)"
            if lib_sudoku and LIB_SUDOKU not in row:
                if lib_side is None:
                    row[LIB_SUDOKU] = "n/a (limit 1 only)"
                else:
                    note = f"stopped after {args.lib_sudoku_seconds:g} s"
                    detail.append([name, str(limit), LIB_SUDOKU, note, "-", "-", "-"])
                    row[LIB_SUDOKU] = f"over {args.lib_sudoku_seconds:g} s"
                if LIB_SUDOKU not in columns:
                    columns.append(LIB_SUDOKU)
            summary.append(row)
    print_table(
        [
            "dataset",
            "limit",
            "solver",
            "its input",
            "µs/puzzle",
            "puzzles/s",
            "same rounds",
        ],
        detail,
        4,
    )
    print()
    print("numbadlx (µs/puzzle, 1 thread) and how it compares, same puzzles, same rounds:")
    print()
    print_table(
        [
            "dataset",
            "limit",
            "numbadlx µs",
            *[c.replace("tdoku run_benchmark: ", "") for c in columns[1:]],
        ],
        [row[""] + [row.get(key, "") for key in columns[1:]] for row in summary],
        2,
    )
    print()
    print(f"# load avg at end: {machine.load_average()}")


if __name__ == "__main__":
    machine.run(main, "sudoku_peers", "Sudoku next to the PyPI peers and tdoku's solvers")
