"""Sudoku variants: the shared Killer Sudokus solved by the "cages" engine.

Run by hand (any venv with numbadlx and the datasets)::

    python benchmarks/variants.py              # 3 rounds
    python benchmarks/variants.py --results    # and write benchmarks/results/variants.md

The 800 Killer Sudokus of ``killer_krazydad_vol1.csv`` (cage maps and sums, no givens,
a solution column) are read, and each is solved on one thread with ``limit=2`` by the
"cages" engine under its own rules. Every puzzle must come out UNIQUE and equal to its
solution column, or the script fails. It prints puzzles per second (median of
``--rounds`` rounds) for three spans of the work:

* **solve**: the engine's kernel alone, given the constraint tables;
* **tables + solve**: the tables made from each row's rules (innies and outies
  included), then the kernel;
* **read + tables + solve**: from the file, the same steps by hand;
* **sudoku.solve(path)**: the public call (``engine="auto"`` picks "cages" for each
  row's rules; rows grouped by rule set), what ``numbadlx solve`` of the file runs.

The target is 1,000 puzzles per second, one thread, by ``sudoku.solve(path)``.
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
from numbadlx.sudoku import geometry  # noqa: E402
from numbadlx.sudoku.engines import REGISTRY, UNIQUE, constraint_table  # noqa: E402
from numbadlx.sudoku.formats import parse_chunk  # noqa: E402

KILLERS = "killer_krazydad_vol1.csv"
TARGET = 1000.0


def tables_of(chunk):
    return [constraint_table(geometry.unit_table(9, rules=r), r) for r in chunk.rules]


def solve_each(chunk, tables):
    """Each row under its own table, on the calling thread: the result arrays."""
    engine = REGISTRY["cages"]
    rows = len(chunk)
    out = (
        np.zeros_like(chunk.puzzles),
        np.zeros(rows, dtype=np.uint8),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
    )
    for k, table in enumerate(tables):
        engine.solve_serial(chunk.puzzles[k : k + 1], table, 2, 0, *(a[k : k + 1] for a in out))
    return out


def check(chunk, out):
    solutions, status = out[0], out[1]
    if not (status == UNIQUE).all() or not (solutions == chunk.solutions).all():
        bad = int(((status != UNIQUE) | (solutions != chunk.solutions).any(axis=1)).sum())
        raise SystemExit(f"{bad} killers not UNIQUE or not equal to their solution column")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="the datasets folder")
    parser.add_argument("--rounds", type=int, default=3)
    machine.add_results_option(parser, "variants")
    args = parser.parse_args(argv)
    env = os.environ.get("NUMBADLX_DATA")
    folder = Path(args.data or env or HERE.parent.parent / "shared" / "data")
    path = folder / KILLERS
    print(machine.describe("Sudoku variants: the shared Killer Sudokus, one thread"))
    start_load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    chunk = parse_chunk(path)
    check(chunk, solve_each(chunk, tables_of(chunk)))  # compile or load the kernel
    spans = {
        "solve": [],
        "tables + solve": [],
        "read + tables + solve": [],
        "sudoku.solve(path)": [],
    }
    nodes = guesses = None
    for _ in range(args.rounds):
        start = time.perf_counter()
        chunk = parse_chunk(path)
        read = time.perf_counter()
        tables = tables_of(chunk)
        made = time.perf_counter()
        out = solve_each(chunk, tables)
        end = time.perf_counter()
        check(chunk, out)
        nodes, guesses = out[3], out[4]
        spans["solve"].append(end - made)
        spans["tables + solve"].append(end - read)
        spans["read + tables + solve"].append(end - start)
        start = time.perf_counter()
        result = sudoku.solve(path, threads=1)
        spans["sudoku.solve(path)"].append(time.perf_counter() - start)
        check(chunk, (result.solutions, result.status))
        if result.engine != "cages":
            raise SystemExit(f'engine="auto" ran {result.engine!r}, not "cages"')
    rows = len(chunk)
    print(
        f"\n{rows} killers ({path.name}), limit 2, one thread, median of {args.rounds} "
        "rounds: every one UNIQUE and equal to its solution column\n"
    )
    print("| span | seconds | puzzles/s |")
    print("|---|---:|---:|")
    for name, times in spans.items():
        seconds = statistics.median(times)
        print(f"| {name} | {seconds:.3f} | {rows / seconds:,.0f} |")
    print(
        f"\nsearch per puzzle: {nodes.mean():.2f} nodes (propagated states), "
        f"{guesses.mean():.2f} guesses; {int((guesses == 0).sum())} of {rows} "
        "solved without a guess"
    )
    rate = rows / statistics.median(spans["sudoku.solve(path)"])
    verdict = "met" if rate >= TARGET else "MISSED"
    print(f"\ntarget: {TARGET:,.0f} puzzles/s by sudoku.solve(path): {verdict} ({rate:,.0f}/s)")
    print(
        f"\nThe machine's 1-minute load was {start_load:.1f} at the start "
        f"({os.cpu_count()} cores): other work shared the cores during the rounds."
    )
    print(f"\n# load avg at end {machine.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "variants", "Sudoku variants"))
