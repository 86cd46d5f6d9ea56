"""Working on puzzle datasets in bulk: canonical forms, candidate masks, solving traces
and Parquet files, on the public datasets.

Run by hand (any venv with numbadlx and pyarrow; the public datasets in
``../shared/data`` or ``$NUMBADLX_DATA``)::

    python benchmarks/datasets.py            # the full run (ten minutes or so)
    python benchmarks/datasets.py --quick    # smoke run

It prints, for ``sudoku.canonical`` on sudoku17 (Royle's 17-clue list), top1465, the
first 10k of Kaggle's set and the Kaggle solutions (full grids): puzzles per second on
one and two threads, the median of ``--rounds`` rounds, per wall-clock second and per
CPU second of this process (the machine may be shared: wall time then includes waiting
for a core, CPU time does not: the target is judged on it); and the number of classes
of equivalent puzzles each set holds. Then the same rates for ``sudoku.candidates`` at
three logic levels and for the solving traces (``rate(..., steps=True)`` and its step
table, with and without the candidate masks), on the puzzle sets. Last, Parquet files
of ``--parquet-rows`` generated puzzles (Kaggle's, each block of 10,000 relabelled
afresh, so that every row is new text), each step in a fresh process whose peak
resident memory (``ru_maxrss``) is reported: reading the file with
``sudoku.iter_chunks``, and ``numbadlx solve in.parquet -o out.parquet --limit 1``
(reading, solving and writing a Parquet file, checkpointed); the I/O rate leaves the
solver's own seconds out.
"""

import argparse
import json
import os
import re
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

from numbadlx import sudoku  # noqa: E402

DATA = Path(os.environ.get("NUMBADLX_DATA", HERE.parent.parent / "shared" / "data"))
TARGET = 50_000  # 9x9 puzzles per second on one thread


def load_sets(quick):
    """The benchmark's inputs: name -> (N, 81) puzzles."""
    count = 2000 if quick else None
    kaggle = sudoku.parse_chunk(str(DATA / "kaggle_bryanpark_10k.csv"))
    return {
        "sudoku17 (Royle, 17 clues)": sudoku.parse(str(DATA / "sudoku17.txt"))[:count],
        "top1465": sudoku.parse(str(DATA / "top1465.txt"))[:count],
        "Kaggle, first 10k": kaggle.puzzles[:count],
        "Kaggle solutions (full grids)": kaggle.solutions[: 200 if quick else 2000],
    }


def timed(job, rounds):
    """Median (wall, CPU) seconds of ``rounds`` runs of ``job``."""
    wall, cpu = [], []
    for _ in range(rounds):
        start, start_cpu = time.perf_counter(), time.process_time()
        job()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def canonical_rows(sets, rounds):
    print("\nCanonical forms (`sudoku.canonical`):\n")
    print(
        "| set | puzzles | classes | 1 thread, per wall s | 1 thread, per CPU s "
        "| 2 threads, per wall s | target (1 thread) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, puzzles in sets.items():
        classes = sudoku.equivalence_classes(puzzles).max() + 1
        one = timed(lambda p=puzzles: sudoku.canonical(p, threads=1), rounds)
        two = timed(lambda p=puzzles: sudoku.canonical(p, threads=2), rounds)
        count = len(puzzles)
        grids = "full grids" in name
        met = "met" if count / one[1] >= TARGET else "not met"
        goal = "" if grids else f"{TARGET:,}/s per CPU s: {met}"
        print(
            f"| {name} | {count:,} | {classes:,} | {count / one[0]:,.0f}/s "
            f"| {count / one[1]:,.0f}/s | {count / two[0]:,.0f}/s | {goal} |"
        )


CAP = 10_000  # puzzles of a set timed for candidates and traces
LEVELS = ("none", "singles", "forcing chain")


def rates(count, one, two):
    """``| per wall s | per CPU s | 2 threads per wall s |`` cells."""
    return f"{count / one[0]:,.0f}/s | {count / one[1]:,.0f}/s | {count / two[0]:,.0f}/s"


def candidate_rows(sets, rounds):
    print("\nCandidate masks (`sudoku.candidates`), per logic level:\n")
    print(
        "| set | puzzles | logic | 1 thread, per wall s | 1 thread, per CPU s "
        "| 2 threads, per wall s |"
    )
    print("|---|---:|---|---:|---:|---:|")
    for name, puzzles in sets.items():
        if "full grids" in name:
            continue
        puzzles = puzzles[:CAP]
        for level in LEVELS:
            one = timed(lambda p=puzzles, v=level: sudoku.candidates(p, v, threads=1), rounds)
            two = timed(lambda p=puzzles, v=level: sudoku.candidates(p, v, threads=2), rounds)
            print(f"| {name} | {len(puzzles):,} | {level} | {rates(len(puzzles), one, two)} |")


def trace_rows(sets, rounds, quick):
    print(
        "\nSolving traces: `rate(..., steps=True, isomorphs=1)` and its step table "
        "(`Ratings.steps()`), puzzles per second; the table with the candidate masks "
        "before each step (`steps(masks=True)`, replayed in Python) on the first "
        f"{20 if quick else 200} puzzles:\n"
    )
    print(
        "| set | puzzles | steps | 1 thread, per wall s | 1 thread, per CPU s "
        "| 2 threads, per wall s | with masks, per wall s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, puzzles in sets.items():
        if "full grids" in name:
            continue
        puzzles = puzzles[: 1000 if quick else CAP]

        def trace(p, threads):
            return sudoku.rate(p, steps=True, isomorphs=1, threads=threads).steps()

        steps = len(trace(puzzles[:1000], 2)["step"]) * len(puzzles) // min(1000, len(puzzles))
        one = timed(lambda p=puzzles: trace(p, 1), rounds)
        two = timed(lambda p=puzzles: trace(p, 2), rounds)
        few = puzzles[: 20 if quick else 200]
        masked = timed(lambda p=few: sudoku.rate(p, steps=True, isomorphs=1).steps(True), 1)
        print(
            f"| {name} | {len(puzzles):,} | ~{steps:,} | {rates(len(puzzles), one, two)} "
            f"| {len(few) / masked[0]:,.0f}/s |"
        )


_MAKE_PARQUET = """
import sys
import pyarrow as pa, pyarrow.parquet as pq
from numbadlx import sudoku
base = sudoku.parse_chunk(sys.argv[1]).puzzles
rows = int(sys.argv[3])
with pq.ParquetWriter(sys.argv[2], pa.schema([("question", pa.string())])) as writer:
    for block in range(0, rows, len(base)):
        some = sudoku.transform(base, seed=block)[: rows - block]
        writer.write_table(pa.table({"question": sudoku.format_lines(some)}))
"""
_READ_PARQUET = """
import sys, time
from numbadlx import sudoku
start = time.perf_counter()
rows = sum(len(chunk) for chunk in sudoku.iter_chunks(sys.argv[1], chunk_size=16384))
print(rows, time.perf_counter() - start)
"""


# Runs each command it reads (a JSON list a line) and answers with a JSON line: exit
# code, wall seconds, peak RSS in MB (``ru_maxrss`` from ``os.wait4``), stdout, stderr.
# Started before this process grows: a child's peak counts the image it was forked
# from, so the commands are forked from this small process, not from the benchmark.
_LAUNCHER = """
import json, os, subprocess, sys, tempfile, time
for line in sys.stdin:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(json.loads(line), stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0); err.seek(0)
        answer = [os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss / 1024,
                  out.read().decode(), err.read().decode()]
    print(json.dumps(answer), flush=True)
"""


class Launcher:
    """A small process that runs commands and measures their peak memory."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip

    def run(self, argv):
        """``(exit code, seconds, peak RSS in MB, stdout, stderr)`` of ``argv``."""
        self.process.stdin.write(json.dumps([str(a) for a in argv]) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def parquet_rows(launcher, sizes, threads_list):
    print(
        "\nParquet files (a `question` column of 81-character puzzles), each step in a "
        "fresh process; peak RSS is that process's (`ru_maxrss`), pyarrow and the "
        "compiled solver included:\n"
    )
    print(
        "| rows | file | read (`iter_chunks`) | peak RSS | `numbadlx solve -o out.parquet "
        "--limit 1` | its I/O, solver left out | peak RSS |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    source = DATA / "kaggle_bryanpark_10k.csv"
    with tempfile.TemporaryDirectory(prefix="numbadlx-datasets-") as work:
        for rows in sizes:
            path = Path(work) / f"in_{rows}.parquet"
            code, _, _, _, err = launcher.run(
                [sys.executable, "-c", _MAKE_PARQUET, source, path, rows]
            )
            assert not code, err
            size = path.stat().st_size / 2**20
            code, _, read_peak, out, err = launcher.run([sys.executable, "-c", _READ_PARQUET, path])
            assert not code, err
            count, read_seconds = out.split()
            assert int(count) == rows
            for threads in threads_list:
                target = Path(work) / "out.parquet"
                target.unlink(missing_ok=True)  # a run never replaces a file that holds rows
                argv = [sys.executable, "-m", "numbadlx", "solve", path, "-o", target]
                argv += ["--limit", "1", "--no-progress", "--threads", threads]
                code, seconds, peak, _, err = launcher.run(argv)
                assert not code, err
                io = rows / max(seconds - _solver_seconds(err, rows), 1e-9)
                print(
                    f"| {rows:,} | {size:.0f} MB | {rows / float(read_seconds):,.0f} rows/s "
                    f"| {read_peak:.0f} MB | {rows / seconds:,.0f} rows/s ({threads} "
                    f"thread{'s' if threads > 1 else ''}) | {io:,.0f} rows/s "
                    f"| {peak:.0f} MB |"
                )
                target.unlink()
            path.unlink()


def _solver_seconds(err, rows):
    """The solver's seconds, from the command's ``solver N puzzles/s`` summary."""
    found = re.search(r"solver ([\d,.]+) puzzles/s", err)
    return rows / float(found.group(1).replace(",", "")) if found else 0.0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, one round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--parquet-rows",
        type=int,
        nargs="+",
        default=None,
        help="rows of the generated Parquet files (default 1000000 10000000; --quick 20000)",
    )
    machine.add_results_option(parser, "datasets")
    args = parser.parse_args(argv)
    launcher = Launcher()  # while this process is small
    start_load = machine.load_average()
    rounds = 1 if args.quick else args.rounds
    print(machine.describe("numbadlx: dataset tools (benchmarks/datasets.py)"))
    sets = load_sets(args.quick)
    sudoku.canonical(np.vstack([p[:4] for p in sets.values()]))  # compile or load
    canonical_rows(sets, rounds)
    sudoku.candidates(sets["top1465"][:4], "forcing chain")  # compile or load
    candidate_rows(sets, rounds)
    trace_rows(sets, rounds, args.quick)
    sizes = args.parquet_rows or ([20_000] if args.quick else [1_000_000, 10_000_000])
    parquet_rows(launcher, sizes, (1, 2))
    launcher.close()
    print(
        "\nA full grid costs more than a puzzle: its first row is 1 to n under every order "
        "of the columns, and its second row has to settle them. CPU seconds count this "
        "process's threads only; the wall-clock rates also count the time spent waiting "
        "for a core while the machine ran other work. A Parquet row's peak RSS does not "
        "grow with the rows (a chunk of 16,384 puzzles is in flight, plus pyarrow itself): "
        "a file ten times longer costs about the same memory and ten times the time."
    )
    print(
        f"\nLoad average at the start: {start_load}; at the end: {machine.load_average()} "
        "(over 2 on two cores: other work shared the machine, and the wall-clock rates "
        "are lower for it)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "datasets", "Dataset tools"))
