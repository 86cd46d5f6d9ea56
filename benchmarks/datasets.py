"""Working on puzzle datasets in bulk: canonical forms (and, as they come, the other
dataset tools), on the public datasets.

Run by hand (any venv with numbadlx; the public datasets in ``../shared/data`` or
``$NUMBADLX_DATA``)::

    python benchmarks/datasets.py            # the full run (a minute or two)
    python benchmarks/datasets.py --quick    # smoke run

It prints, for ``sudoku.canonical`` on sudoku17 (Royle's 17-clue list), top1465, the
first 10k of Kaggle's set and the Kaggle solutions (full grids): puzzles per second on
one and two threads, the median of ``--rounds`` alternating rounds, per wall-clock
second and per CPU second of this process (the machine may be shared: wall time then
includes waiting for a core, CPU time does not: the target is judged on it); and the
number of classes of equivalent puzzles each set holds.
"""

import argparse
import os
import statistics
import sys
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, one round")
    parser.add_argument("--rounds", type=int, default=3)
    machine.add_results_option(parser, "datasets")
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else args.rounds
    print(machine.describe("numbadlx: dataset tools (benchmarks/datasets.py)"))
    sets = load_sets(args.quick)
    sudoku.canonical(np.vstack([p[:4] for p in sets.values()]))  # compile or load
    canonical_rows(sets, rounds)
    print(
        "\nA full grid costs more than a puzzle: its first row is 1 to n under every order "
        "of the columns, and its second row has to settle them. CPU seconds count this "
        "process's threads only; the wall-clock rates also count the time spent waiting "
        "for a core while the machine ran other work."
    )
    print(f"\n# load avg at end {machine.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "datasets", "Dataset tools"))
