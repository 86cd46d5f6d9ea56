"""Bulk Sudoku throughput on the public datasets, next to the PyPI peers, in one run.

Run by hand (not in CI), in the benchmark environment that has the peers::

    bash benchmarks/setup_env.sh
    .venv-bench/bin/python benchmarks/sudoku.py
    .venv-bench/bin/python benchmarks/sudoku.py --quick      # smoke run (top1465, limit 1)
    .venv-bench/bin/python benchmarks/sudoku.py --sets sudoku17 --limits 2

The datasets are read from ``$NUMBADLX_DATA`` (default ``../shared/data`` beside the
repository).

For each dataset, limit (1: first solution, 2: prove uniqueness) and thread count it
times ``numbadlx.sudoku.solve`` on the whole set (median of ``--repeats`` runs) and
prints puzzles/s, microseconds per puzzle and search nodes per puzzle. Finally it
times a new process that imports numbadlx and solves one puzzle with a warm Numba
cache. The comparison with other solvers (the PyPI exact-cover peers and tdoku's
compiled solvers, on the same puzzles) is ``benchmarks/sudoku_peers.py``.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402

from numbadlx import sudoku  # noqa: E402

DATASETS = {
    "sudoku17": "sudoku17.txt",
    "top1465": "top1465.txt",
    "forum_hardest_1106": "forum_hardest_1106.txt",
    "serg_benchmark": "serg_benchmark.txt",
    "kaggle": "kaggle_bryanpark_10k.csv",
}


def data_dir():
    env = os.environ.get("NUMBADLX_DATA")
    return Path(env) if env else HERE.parent.parent / "shared" / "data"


def load(name):
    path = data_dir() / DATASETS[name]
    if path.suffix == ".csv":
        return sudoku.read_csv(path)[0]
    return sudoku.parse(path)


def median_time(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_numbadlx(puzzles, limit, threads, repeats):
    sudoku.solve(puzzles[:50], limit=limit, threads=threads)  # warm
    result = None

    def run():
        nonlocal result
        result = sudoku.solve(puzzles, limit=limit, threads=threads)

    seconds = median_time(run, repeats)
    return len(puzzles) / seconds, seconds / len(puzzles) * 1e6, float(result.nodes.mean())


def cold_start(repeats):
    code = "import numbadlx.sudoku as s; s.solve(['0' * 81], limit=1)"
    subprocess.run([sys.executable, "-c", code], check=True)  # make sure cache is warm
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(DATASETS))
    parser.add_argument("--limits", default="1,2")
    parser.add_argument("--threads", default=f"1,{numba.config.NUMBA_NUM_THREADS}")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: top1465 only, limit 1, 1 thread, 1 repeat",
    )
    machine.add_results_option(parser, "sudoku")
    args = parser.parse_args(argv)
    if args.quick:
        args.sets, args.limits, args.threads = "top1465", "1", "1"
        args.repeats = 1
    cold_repeats = 1 if args.quick else 5
    names = [s for s in args.sets.split(",") if s]
    limits = [int(v) for v in args.limits.split(",")]
    thread_counts = [int(v) for v in args.threads.split(",")]
    print(machine.describe("numbadlx Sudoku benchmark"))
    print(f"# command: python benchmarks/sudoku.py {' '.join(argv or sys.argv[1:])}")
    print(f"# medians of {args.repeats} runs")
    print()
    header = [
        "dataset",
        "puzzles",
        "limit",
        "threads",
        "puzzles/s",
        "µs/puzzle",
        "nodes/puzzle",
        "vs 1 thread",
    ]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    single_rates = {}
    for name in names:
        puzzles = load(name)
        for limit in limits:
            for threads in thread_counts:
                rate, micros, nodes = bench_numbadlx(puzzles, limit, threads, args.repeats)
                if threads == 1:
                    single_rates[name, limit] = rate
                single = single_rates.get((name, limit))
                scaling = f"{rate / single:.2f}×" if single else ""
                row = [
                    name,
                    str(len(puzzles)),
                    str(limit),
                    str(threads),
                    f"{rate:,.0f}",
                    f"{micros:,.1f}",
                    f"{nodes:,.1f}",
                    scaling,
                ]
                print("| " + " | ".join(row) + " |", flush=True)
    print()
    print(
        f"new process, warm cache, import + first solve: {cold_start(cold_repeats):.2f} s "
        f"(median of {cold_repeats})"
    )
    print(f"# load avg at end: {machine.load_average()}")


if __name__ == "__main__":
    machine.run(main, "sudoku", "Bulk Sudoku throughput and cold start")
