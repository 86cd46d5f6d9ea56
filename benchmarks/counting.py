"""Counting past enumeration: plain DLX against memoised counting (numbadlx's ZDD) and
xcover's ZDD solver (``covers_zdd``'s kernel, memo cache on and off), in one run.

Run by hand (not in CI), in the benchmark virtualenv that has xcover (numbadlx
installed there editable)::

    .venv-bench/bin/python benchmarks/counting.py
    .venv-bench/bin/python benchmarks/counting.py --rounds 1 --cap 20   # quicker

Method
------
* Problems come from ``numbadlx.problems`` (13 queens, Langford 12, pentominoes 6 x 10,
  domino tilings), built once; every count is checked against its published value
  (OEIS A000170, A014552 x 2, 2339 x 4, A004003).
* Sides: numbadlx ``count()`` (plain DLX), ``count(method="memo")``,
  ``count(method="auto")`` (a probe of the memoised search, then DLX unless the cache
  pays), and xcover's ``algorithm_z`` (what ``xcover.covers_zdd`` runs after
  converting its input) with ``use_memo_cache`` False and True. xcover's input arrays
  are made before the timer (as numbadlx's problem is); its time covers running the
  generator of ZDD nodes and adding up the solution count over them in Python, which
  is what a user of ``covers_zdd`` has to do to get a count.
* CPU time of this thread by default (``--clock cpu``: every side runs in this
  thread, and this machine is shared, so wall time follows other jobs' load;
  ``--clock wall`` for ``time.perf_counter``), garbage collector off while timing,
  rounds alternate the sides (one run of each per round), medians of ``--rounds``.
  A side that passes ``--cap`` wall seconds is stopped (numbadlx by its ``timeout``,
  xcover between generator steps), shown as ``> cap``, and not run again.
* The threads comparison is wall time (what threads buy), with the process's CPU
  seconds per wall second beside it: how many cores the count kept busy.
* Then: 12 x 12 domino tilings (target under 10 s), and ``count(threads=2)`` against
  ``count()`` on pentominoes 6 x 10 (target 1.7x), alternating.
* ratio columns: the other side's time / numbadlx memo's (above 1: memo is faster);
  auto / dlx (target at most 1.2 on queens and pentominoes).
"""

import argparse
import gc
import os
import statistics
import sys
import time

import numpy as np

from numbadlx import BudgetExceeded, problems

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402

A004003 = {8: 12988816, 10: 258584046368, 12: 53060477521960000}

CASES = [
    ("13-queens", lambda: problems.n_queens(13), 73712),
    ("Langford 12", lambda: problems.langford(12), 216288),
    ("pentominoes 6x10", lambda: problems.pentominoes(6, 10), 9356),
    ("dominoes 8x8", lambda: problems.domino_tilings(8, 8), A004003[8]),
    ("dominoes 10x10", lambda: problems.domino_tilings(10, 10), A004003[10]),
]
SIDES = ["dlx", "memo", "auto", "xcover", "xcover memo"]


class TooSlow(Exception):
    pass


def xcover_runner(problem, use_memo):
    """A function counting ``problem``'s solutions with xcover's ZDD kernel."""
    from xcover import algorithm_z

    # xcover wants items 0..n-1 with the secondary ones last: numbadlx's internal order
    internal = np.empty(problem.n_items, dtype=np.int64)
    internal[problem.item_order] = np.arange(problem.n_items)
    options = internal[np.asarray(problem.indices, dtype=np.int64)].astype(np.uint32)
    pointers = np.asarray(problem.indptr, dtype=np.uint32)
    colours = np.zeros(options.size, dtype=np.uint32)
    n_items, n_secondary = np.uint32(problem.n_items), np.uint32(problem.n_secondary)

    def run(deadline):
        counts = {0: 0, 1: 1}
        root = 0
        steps = 0
        for index, _option, lo, hi in algorithm_z(
            options, pointers, colours, n_items, n_secondary, use_memo, "MRV"
        ):
            counts[index] = counts[lo] + counts[hi]
            root = index
            steps += 1
            if steps % 4096 == 0 and time.perf_counter() > deadline:
                raise TooSlow
        return counts[root] if len(counts) > 2 else 0

    return run


def ours_runner(problem, method):
    def run(deadline):
        try:
            return problem.count(method=method, timeout=max(deadline - time.perf_counter(), 0))
        except BudgetExceeded as stop:
            raise TooSlow from stop

    return run


def timed(run, cap, clock=time.perf_counter):
    """``(value, seconds)`` of ``run`` on ``clock``; the cap is in wall seconds."""
    gc.disable()
    try:
        start = clock()
        value = run(time.perf_counter() + cap)
        return value, clock() - start
    finally:
        gc.enable()


def fmt_time(seconds):
    if seconds is None:
        return "n/a"
    if isinstance(seconds, str):
        return seconds
    return f"{seconds:.4f}" if seconds < 1 else f"{seconds:.2f}"


def fmt_ratio(a, b):
    if not isinstance(a, float) or not isinstance(b, float) or b <= 0:
        return "n/a"
    return f"{a / b:.3g}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds before a side stops")
    parser.add_argument(
        "--clock",
        choices=["cpu", "wall"],
        default="cpu",
        help="cpu (default): this thread's CPU time, every side runs in this thread; "
        "wall: time.perf_counter",
    )
    machine.add_results_option(parser, "counting")
    args = parser.parse_args(argv)
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    print(machine.describe("numbadlx counting: DLX vs memo vs xcover covers_zdd"))
    print(f"# command: {' '.join([os.path.basename(sys.executable)] + sys.argv)}")
    # warm-up: load or compile every kernel, ours and xcover's
    warm = problems.domino_tilings(4, 4)
    for method in ("dlx", "memo", "auto"):
        warm.count(method=method)
    warm.count(threads=2)
    xcover_runner(warm, False)(time.perf_counter() + 60)
    xcover_runner(warm, True)(time.perf_counter() + 60)

    rows = []
    for name, build, expected in CASES:
        problem = build()
        runners = {
            "dlx": ours_runner(problem, "dlx"),
            "memo": ours_runner(problem, "memo"),
            "auto": ours_runner(problem, "auto"),
            "xcover": xcover_runner(problem, False),
            "xcover memo": xcover_runner(problem, True),
        }
        times = {side: [] for side in SIDES}
        counts = {side: None for side in SIDES}
        too_slow = set()
        for _ in range(args.rounds):
            for side in SIDES:
                if side in too_slow:
                    continue
                try:
                    value, seconds = timed(runners[side], args.cap, clock)
                except TooSlow:
                    too_slow.add(side)
                    continue
                counts[side] = value
                times[side].append(seconds)
        cells = {}
        for side in SIDES:
            if side in too_slow:
                cells[side] = f"> {args.cap:g}"
            else:
                cells[side] = statistics.median(times[side])
        rows.append((name, expected, counts, cells))
        print(f"# {name}: done (load {machine.load_average()})", flush=True)

    print()
    print(f"times: {args.clock} seconds, median of {args.rounds} alternating rounds")
    print("| problem | solutions | " + " | ".join(f"{s} s" for s in SIDES) + " | counts |")
    print("|---|---:|" + "---:|" * len(SIDES) + "---|")
    for name, expected, counts, cells in rows:
        verdict = []
        for side in SIDES:
            if counts[side] is None:
                continue
            if counts[side] != expected:
                verdict.append(f"{side} WRONG {counts[side]:,}")
        text = "all correct" if not verdict else "; ".join(verdict)
        print(
            f"| {name} | {expected:,} | "
            + " | ".join(fmt_time(cells[s]) for s in SIDES)
            + f" | {text} |"
        )
    print()
    print("| problem | dlx ÷ memo | xcover ÷ memo | xcover memo ÷ memo | auto ÷ dlx |")
    print("|---|---:|---:|---:|---:|")
    for name, _expected, _counts, cells in rows:
        print(
            f"| {name} | {fmt_ratio(cells['dlx'], cells['memo'])} | "
            f"{fmt_ratio(cells['xcover'], cells['memo'])} | "
            f"{fmt_ratio(cells['xcover memo'], cells['memo'])} | "
            f"{fmt_ratio(cells['auto'], cells['dlx'])} |"
        )

    # 12 x 12 domino tilings, memo only
    board = problems.domino_tilings(12, 12)
    seconds = []
    for _ in range(args.rounds):
        value, spent = timed(ours_runner(board, "memo"), args.cap, clock)
        assert value == A004003[12], value
        seconds.append(spent)
    print()
    print(
        f"12x12 domino tilings, count(method='memo'): {A004003[12]:,} (A004003) in "
        f"{statistics.median(seconds):.4f} s (median of {args.rounds}; target < 10 s); "
        f"{board.stats.nodes:,} subproblems entered"
    )

    # threads on pentominoes 6 x 10
    pentominoes = problems.pentominoes(6, 10)
    one, two, busy = [], [], {1: [], 2: []}
    for _ in range(args.rounds):
        for threads, where in ((1, one), (2, two)):
            start, cpu = time.perf_counter(), time.process_time()
            value = pentominoes.count(threads=threads)
            where.append(time.perf_counter() - start)
            busy[threads].append((time.process_time() - cpu) / where[-1])
            assert value == 9356, value
    t1, t2 = statistics.median(one), statistics.median(two)
    print(
        f"pentominoes 6x10, count(): {t1:.2f} s, count(threads=2): {t2:.2f} s, "
        f"speed-up {t1 / t2:.2f}x (target 1.7x); cores kept busy (process CPU s / wall s): "
        f"{statistics.median(busy[1]):.2f} with 1 thread, {statistics.median(busy[2]):.2f} "
        f"with 2; load avg now {machine.load_average()}, {os.cpu_count()} cores shared "
        "with other work"
    )


if __name__ == "__main__":
    machine.run(main, "counting", "Counting past enumeration: memoised counts and the ZDD")
