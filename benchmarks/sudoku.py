"""Bulk Sudoku throughput on the public datasets, next to the PyPI peers, in one run.

Run by hand (not in CI), in the benchmark environment that has the peers::

    bash benchmarks/setup_env.sh
    .venv-bench/bin/python benchmarks/sudoku.py
    .venv-bench/bin/python benchmarks/sudoku.py --quick      # smoke run (top1465, limit 1)
    .venv-bench/bin/python benchmarks/sudoku.py --peers none --sets sudoku17 --limits 2

The datasets are read from ``$NUMBADLX_DATA`` (default ``../shared/data`` beside the
repository).

For each dataset, limit (1: first solution, 2: prove uniqueness) and thread count it
times ``numbadlx.sudoku.solve`` on the whole set (median of ``--repeats`` runs) and
prints puzzles/s, microseconds per puzzle and search nodes per puzzle. The peers
(xcover, exact-cover, miniexact) have no bulk API: each gets the same puzzles one by
one through ``benchmarks/peers.py`` (the standard 324-item encoding, conversion not
timed, only their search), on an evenly spaced sample of ``--peer-sample`` puzzles;
the ratio column is numbadlx on one thread divided by the peer, both in puzzles/s.
Finally it times a new process that imports numbadlx and solves one puzzle with a
warm Numba cache.
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


def bench_peer(peer, puzzles, limit, repeats):
    """``(search-only puzzles/s, end-to-end puzzles/s)`` of one peer on ``puzzles``.

    End to end counts building the peer's input from the grid (the 324-item option
    lists and the peer's own conversion) plus the search; search-only counts just the
    search call.
    """
    import peers

    def search(prep):
        return prep.first() if limit == 1 else prep(limit=2)

    def end_to_end():
        start = time.perf_counter()
        for puzzle in puzzles:
            prep, _ = peers.prepare_sudoku(peer, puzzle)
            search(prep)
        return time.perf_counter() - start

    prepared = [peers.prepare_sudoku(peer, p)[0] for p in puzzles]

    def search_only():
        for prep in prepared:
            prep.reset()  # not timed (miniexact's solver is used up by one run)
        start = time.perf_counter()
        for prep in prepared:
            search(prep)
        return time.perf_counter() - start

    search_seconds = statistics.median(search_only() for _ in range(repeats))
    total_seconds = statistics.median(end_to_end() for _ in range(repeats))
    return len(puzzles) / search_seconds, len(puzzles) / total_seconds


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
        "--peers", default="xcover,exact-cover,miniexact", help="comma list, or 'none'"
    )
    parser.add_argument("--peer-sample", type=int, default=200)
    parser.add_argument("--peer-repeats", type=int, default=3)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: top1465 only, limit 1, 1 thread, 1 repeat, 20 puzzles per peer",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sets, args.limits, args.threads = "top1465", "1", "1"
        args.repeats, args.peer_sample, args.peer_repeats = 1, 20, 1
    cold_repeats = 1 if args.quick else 5
    names = [s for s in args.sets.split(",") if s]
    limits = [int(v) for v in args.limits.split(",")]
    thread_counts = [int(v) for v in args.threads.split(",")]
    peer_names = [] if args.peers == "none" else [p for p in args.peers.split(",") if p]
    versions, skipped = "none", []
    if peer_names:
        import peers

        skipped = [p for p in peer_names if not peers.AVAILABLE.get(p)]
        peer_names = [p for p in peer_names if peers.AVAILABLE.get(p)]
        if peer_names:
            peers.warmup(peer_names)
        known = peers.peer_versions()
        versions = ", ".join(f"{p} {known[p]}" for p in peer_names) or "none"
    print(machine.describe("numbadlx Sudoku benchmark"))
    print(f"# peers: {versions}")
    for p in skipped:
        print(f"# skipped peer, not importable here: {p}")
    print(f"# command: python benchmarks/sudoku.py {' '.join(argv or sys.argv[1:])}")
    print(
        f"# medians of {args.repeats} runs (peers: {args.peer_repeats} runs on "
        f"{args.peer_sample} evenly spaced puzzles of each set)"
    )
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
    samples = {}
    for name in names:
        puzzles = load(name)
        step = max(1, len(puzzles) // args.peer_sample)
        samples[name] = puzzles[::step][: args.peer_sample]
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
    if peer_names:
        print()
        header = [
            "dataset",
            "limit",
            "peer",
            "puzzles/s (search only)",
            "puzzles/s (end to end)",
            "numbadlx 1 thread ÷ peer (search only)",
            "÷ peer (end to end)",
        ]
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for name in names:
            for limit in limits:
                ours = single_rates.get((name, limit))
                for peer in peer_names:
                    search_rate, total_rate = bench_peer(
                        peer, samples[name], limit, args.peer_repeats
                    )
                    ratio = (
                        (f"{ours / search_rate:,.1f}", f"{ours / total_rate:,.1f}")
                        if ours
                        else ("", "")
                    )
                    row = [
                        name,
                        str(limit),
                        peer,
                        f"{search_rate:,.0f}",
                        f"{total_rate:,.0f}",
                        *ratio,
                    ]
                    print("| " + " | ".join(row) + " |", flush=True)
    print()
    print(
        f"new process, warm cache, import + first solve: {cold_start(cold_repeats):.2f} s "
        f"(median of {cold_repeats})"
    )
    print(f"# load avg at end: {machine.load_average()}")


if __name__ == "__main__":
    main()
