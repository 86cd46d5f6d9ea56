"""How Numba's ``prange`` shares uneven work between threads, and what taking work units
from an atomic counter (:func:`numbadlx.sudoku.parallel.fetch_add`) changes.

Run by hand (not in CI)::

    python benchmarks/prange_schedule.py            # --items, --work, --rounds

The work: ``--items`` iterations of a dependent arithmetic loop, the first half
``--heavy`` times as long as the second (a file whose hard puzzles come first). Three
ways to run it on 1 and 2 threads, alternating rounds, medians:

- ``prange`` over the items with Numba's parallel chunk size 0 (its default);
- the same with chunk size 1 (what :func:`numbadlx.sudoku.parallel.parallel_threads`
  sets);
- one ``prange`` iteration per thread, each taking the next item from a shared counter.

If ``prange`` splits the range into one contiguous share per thread, its speedup on 2
threads is ``(heavy + 1) / heavy`` (1.33 for 3), whatever the chunk size; taken from a
counter, the work balances and the speedup nears 2.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402

from numbadlx.sudoku.parallel import fetch_add  # noqa: E402


@njit(parallel=True, nogil=True)
def split_by_prange(work):
    out = np.zeros(work.size)
    for i in prange(work.size):
        x = 0.0
        for r in range(work[i]):
            x = x * 0.999 + r
        out[i] = x
    return out


@njit(parallel=True, nogil=True)
def taken_from_a_counter(work, lanes):
    out = np.zeros(work.size)
    next_item = np.zeros(1, dtype=np.int64)
    for _ in prange(lanes):
        while True:
            i = fetch_add(next_item, 0, 1)
            if i >= work.size:
                break
            x = 0.0
            for r in range(work[i]):
                x = x * 0.999 + r
            out[i] = x
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--work", type=int, default=20_000, help="loop steps of a light item")
    parser.add_argument("--heavy", type=int, default=3, help="how much heavier the first half is")
    parser.add_argument("--rounds", type=int, default=5)
    machine.add_results_option(parser, "prange_schedule")
    args = parser.parse_args(argv)
    print(machine.describe("prange scheduling of uneven work"))
    print(f"# numba threading layer: {numba.config.THREADING_LAYER} (requested)")
    work = np.full(args.items, args.work, dtype=np.int64)
    work[: args.items // 2] *= args.heavy
    ways = {
        "prange, chunk size 0": (0, lambda threads: split_by_prange(work)),
        "prange, chunk size 1": (1, lambda threads: split_by_prange(work)),
        "units from a counter": (0, lambda threads: taken_from_a_counter(work, threads)),
    }
    rows = []
    for name, (chunk, run) in ways.items():
        times = {1: [], 2: []}
        for k in range(args.rounds):
            for threads in (1, 2) if k % 2 == 0 else (2, 1):
                numba.set_num_threads(threads)
                previous = numba.set_parallel_chunksize(chunk)
                run(threads)  # compile, or warm the threads
                start = time.perf_counter()
                run(threads)
                times[threads].append(time.perf_counter() - start)
                numba.set_parallel_chunksize(previous)
        one, two = (statistics.median(times[t]) for t in (1, 2))
        rows.append((name, one, two))
    print(f"# layer used: {numba.threading_layer()}")
    print(f"\n{args.items} items, the first half {args.heavy}x heavier", end="")
    print(f"; seconds, medians of {args.rounds} rounds\n")
    print("| way | 1 thread | 2 threads | speedup |")
    print("|---|---:|---:|---:|")
    for name, one, two in rows:
        print(f"| {name} | {one:.3f} | {two:.3f} | {one / two:.2f} |")
    print(f"\nA contiguous share per thread would give {(args.heavy + 1) / args.heavy:.2f}.")
    print(f"# load avg at end: {machine.load_average()}")


if __name__ == "__main__":
    machine.run(main, "prange_schedule", "How prange shares uneven work")
