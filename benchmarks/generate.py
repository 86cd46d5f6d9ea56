"""Making and rating puzzles: throughput, and how well the ratings order known sets.

Run by hand (any venv with numbadlx; the datasets for the ratings part)::

    python benchmarks/generate.py            # the full run (a few minutes)
    python benchmarks/generate.py --quick    # smoke run

It prints:

1. puzzles per second of ``sudoku.generate`` (minimal, unique) for 9x9 on one and two
   threads and for 16x16 on one thread (median of ``--rounds`` alternating rounds);
2. ratings per second of ``sudoku.rate`` on one thread, ``guesses`` only (K = 8
   isomorphs) and with the logic ladder, on Kaggle's first 10k and top1465 (a puzzle
   that singles alone solve takes 0 guesses in every isomorph, so it is rated from
   one propagation: that is most of Kaggle);

Throughput is given per wall-clock second and per CPU second of this process (the
machine may be shared: wall time then includes waiting for a core).
3. the median ratings of the public datasets (they should rise from Kaggle through
   top95/top1465 to forum_hardest_1106);
4. Spearman correlations with the ``difficulty`` column of the Radcliffe sample, for
   ``guesses``, ``logic``, and for scale the raw DLX node count (limit 2) and its log
   averaged over 8 random isomorphs. Spearman is computed here with NumPy ranks (ties
   get their mean rank), so SciPy is not needed.

The protocol of step 4: every choice in the ``logic`` rating that was made by looking at
this sample (which secondary measure, and how it combines with the ladder's rating;
see ``numbadlx.sudoku.rate``) was made on the *even* data rows (0, 2, 4, ... counting
the first row after the header as 0) only. The odd rows are held out: the correlation
that counts is the one on them. The even rows and the whole sample are printed too,
labelled. ``guesses`` has no weight or choice tuned on this sample; it is reported the
same way.
"""

import argparse
import csv
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

SETS = {
    "kaggle (first 10k)": "kaggle_bryanpark_10k.csv",
    "sudoku17": "sudoku17.txt",
    "top95": "top95.txt",
    "top1465": "top1465.txt",
    "forum_hardest_1106": "forum_hardest_1106.txt",
}
RADCLIFFE = "radcliffe_3m_sample_7034.csv"


def data_dir():
    env = os.environ.get("NUMBADLX_DATA")
    return Path(env) if env else HERE.parent.parent / "shared" / "data"


def load(file_name):
    path = data_dir() / file_name
    if path.suffix == ".csv":
        return sudoku.read_csv(path)[0]
    return sudoku.parse(path)


def ranks(values):
    """Ranks from 1, ties sharing their mean rank."""
    values = np.asarray(values, dtype=np.float64)
    order = np.argsort(values, kind="stable")
    ranked = np.empty(values.size)
    ranked[order] = np.arange(1, values.size + 1)
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=ranked)
    return sums[inverse] / counts[inverse]


def spearman(a, b):
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def alternate(jobs, rounds):
    """Run every job once per round, in turn; the median (wall, CPU) seconds of each.
    CPU time is this process's (all its threads): on a machine shared with other work
    it shows what the job costs, where wall time also counts the waiting."""
    times = {name: [] for name in jobs}
    cpu = {name: [] for name in jobs}
    for _ in range(rounds):
        for name, job in jobs.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            job()
            times[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    return {name: (statistics.median(times[name]), statistics.median(cpu[name])) for name in jobs}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, one round")
    parser.add_argument("--rounds", type=int, default=3)
    machine.add_results_option(parser, "generate")
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else args.rounds
    print(machine.describe("numbadlx: making and rating puzzles (benchmarks/generate.py)"))

    # warm up (compile or load every kernel used below)
    sudoku.generate(2, 9, seed=0)
    sudoku.generate(1, 16, seed=0)
    sudoku.rate(sudoku.generate(2, 9, seed=0))
    sudoku.solve(sudoku.generate(2, 9, seed=0))

    count9 = 200 if args.quick else 4000
    count16 = 2 if args.quick else 20
    jobs = {
        "9x9, 1 thread": lambda: sudoku.generate(count9, 9, seed=1, threads=1),
        "9x9, 2 threads": lambda: sudoku.generate(count9, 9, seed=1, threads=2),
        "16x16, 1 thread": lambda: sudoku.generate(count16, 16, seed=1, threads=1),
    }
    seconds = alternate(jobs, rounds)
    print("\n## Minimal unique puzzles per second (sudoku.generate)\n")
    print("| what | puzzles | median wall s | puzzles/s (wall) | puzzles per CPU second |")
    print("|---|---:|---:|---:|---:|")
    for name, (wall, cpu) in seconds.items():
        n = count16 if name.startswith("16") else count9
        print(f"| {name} | {n:,} | {wall:.3f} | {n / wall:,.0f} | {n / cpu:,.0f} |")
    made = sudoku.generate(count9, 9, seed=1)
    clue_counts = (made > 0).sum(axis=1)
    print(
        f"\nclues of those 9x9 puzzles: median {np.median(clue_counts):.0f}, "
        f"min {clue_counts.min()}, max {clue_counts.max()}"
    )

    folder = data_dir()
    if not folder.is_dir():
        print(f"\n(no datasets at {folder}: set NUMBADLX_DATA for the ratings part)")
        return 0
    puzzles = {name: load(file_name) for name, file_name in SETS.items()}
    if args.quick:
        puzzles = {name: p[:300] for name, p in puzzles.items()}

    print("\n## Ratings per second, one thread (sudoku.rate)\n")
    print(
        "| dataset | puzzles | guesses only (K=8) /s | per CPU s | guesses + logic /s | per CPU s |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in ("kaggle (first 10k)", "top1465"):
        p = puzzles[name]
        t = alternate(
            {
                "guesses": lambda p=p: sudoku.rate(p, isomorphs=8, logic=False, threads=1),
                "both": lambda p=p: sudoku.rate(p, isomorphs=8, threads=1),
            },
            rounds,
        )
        (g_wall, g_cpu), (b_wall, b_cpu) = t["guesses"], t["both"]
        print(
            f"| {name} | {len(p):,} | {len(p) / g_wall:,.0f} | {len(p) / g_cpu:,.0f} | "
            f"{len(p) / b_wall:,.0f} | {len(p) / b_cpu:,.0f} |"
        )

    print("\n## Ratings of the public datasets (K = 8, seed 0)\n")
    print(
        "| dataset | puzzles | median guesses | mean guesses | median logic | "
        "solved by the ladder | hardest steps (top 3) |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, p in puzzles.items():
        r = sudoku.rate(p)
        names, counts = np.unique(r.hardest_names(), return_counts=True)
        top = ", ".join(
            f"{names[k]} {counts[k] / len(p):.0%}" for k in np.argsort(-counts, kind="stable")[:3]
        )
        print(
            f"| {name} | {len(p):,} | {np.median(r.tries):.2f} | {np.mean(r.tries):.2f} | "
            f"{np.median(r.logic):.2f} | {r.solved_by_logic.mean():.0%} | {top} |"
        )

    with open(folder / RADCLIFFE, newline="") as handle:
        rows = list(csv.DictReader(handle))
    number = np.arange(len(rows))  # data row numbers, from 0
    if args.quick:
        number = number[::7]  # both parities
        rows = [rows[k] for k in number]
    grid = sudoku.parse([row["puzzle"] for row in rows])
    difficulty = np.array([float(row["difficulty"]) for row in rows])
    ratings = sudoku.rate(grid)
    nodes = sudoku.solve(grid, limit=2).nodes
    log_nodes = np.mean(
        [np.log(sudoku.solve(sudoku.transform(grid, seed=s), limit=2).nodes) for s in range(8)],
        axis=0,
    )
    tuning = number % 2 == 0
    held_out = ~tuning
    print(
        f"\n## Spearman with the Radcliffe sample's difficulty ({len(rows):,} puzzles)\n\n"
        f"Choices in `logic` were made on the even data rows ({tuning.sum():,}); the odd "
        f"rows ({held_out.sum():,}) are **held out**: their column is the test.\n"
    )
    print("| rating | tuned on this sample | held out: odd rows | even rows | whole | target |")
    print("|---|---|---:|---:|---:|---:|")
    for name, values, tuned, target in (
        ("tries (mean over 8 isomorphs)", ratings.tries, "nothing", "0.9"),
        ("logic", ratings.logic, "even rows only", "0.75"),
        ("DLX nodes, limit 2 (for scale)", nodes, "nothing", ""),
        ("log DLX nodes over 8 isomorphs (for scale)", log_nodes, "nothing", ""),
    ):
        print(
            f"| {name} | {tuned} | {spearman(values[held_out], difficulty[held_out]):.3f} | "
            f"{spearman(values[tuning], difficulty[tuning]):.3f} | "
            f"{spearman(values, difficulty):.3f} | {target} |"
        )
    print(f"\n# load avg at end {machine.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "generate", "Making and rating puzzles"))
