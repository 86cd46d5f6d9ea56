"""Sudoku variants: the shared Killer Sudokus solved by the "cages" engine.

Run by hand (any venv with numbadlx and the datasets)::

    python benchmarks/variants.py              # 3 rounds
    python benchmarks/variants.py --results    # and write benchmarks/results/variants.md

The 800 Killer Sudokus of ``killer_krazydad_vol1.csv`` (cage maps and sums, no givens,
a solution column) are read, and each is solved on one thread with ``limit=2`` by the
"cages" engine under its own rules. Every puzzle must come out UNIQUE and equal to its
solution column, or the script fails. It prints puzzles per second (median of
``--rounds`` rounds) for three spans of the work:

* **solve**: the engine's kernel alone, given the constraint tables (one call for
  all rows, each row under its own table);
* **tables + solve**: the tables made from the rows' cage arrays, all rows at once
  (innies and outies included), then the kernel;
* **read + tables + solve**: from the file, the same steps by hand;
* **sudoku.solve(path)**: the public call (``engine="auto"`` picks "cages" for each
  row's rules; rows grouped by rule set), what ``numbadlx solve`` of the file runs.

Then, when pencilmark (PyPI) is installed, the same puzzles through both: the first
``--pencilmark`` killers and minimal X-Sudoku and anti-knight puzzles made by the
script, each side timed from its own input (see :func:`pencilmark_rows`).

The target is 5,000 puzzles per second, one thread, by ``sudoku.solve(path)``. CPU
seconds (process time) are printed beside the spans: on a shared machine the wall
times grow with the load, the CPU times much less.

**Search targets** (printed first; ``--targets`` prints only them): puzzles that
propagation alone does not finish, each solved on one thread by the engine
``engine="auto"`` picks (and by "cages" where "auto" picks another), CPU time the
median of ``--rounds`` calls:

* two X pairs chained down a column on an empty grid (``x_pairs=[(36, 45), (45,
  54)]``: cells 36 and 54 would both hold 10 minus cell 45's digit): NO_SOLUTION
  within 1,000 nodes (``max_nodes=1000``); the same chain along a row beside it;
* anti-knight plus both diagonals on an empty grid: a solution (``limit=1``) within
  1 s (each call stopped at 300,000 nodes);
* inequality ("greater than") Sudokus, no givens, signs as two-cell thermometers and
  again as ``greater`` pairs (``inequality.py``: a course's puzzle with all 108 signs in
  the boxes, and hard ones made with as few signs as keep one solution): each UNIQUE,
  equal to its solution, within 1 s.

**Published puzzles** (after the search targets; ``--published`` prints only them):
every puzzle of the tests' published variant puzzles that numbadlx reads, solved on one
thread by ``sudoku.solve`` and checked against its published solution; the target is
2 CPU seconds a puzzle (``published.py``).

**Generated variants** (``--generated N`` puzzles per rule set, 0 skips them): X,
jigsaw, windoku, anti-knight, non-consecutive and thermometer puzzles made by
``sudoku.generate(N, rules=..., minimal=False, clues=(22, 26))`` (unique; a clue count
classic puzzles reach too: minimal non-consecutive puzzles have 5 to 8 clues), each
beside classic puzzles made the same way with the same clue counts. Both sets are solved with
``limit=2`` on one thread by the engine that ``engine="auto"`` picks for the variant
("bits" for units and peers, "cages" for non-consecutive and thermometers), in
alternating rounds, each set solved ``REPEAT`` times over in one call (so that the
call's fixed cost is spread as on a file); the table gives the median CPU time per
puzzle (process time: the figures hold up on a loaded machine), the ratio variant /
classic, and whether it is within the 2x target, with the search nodes per puzzle
(states propagated) of each set: where a ratio is high, the variant puzzles need more
search at the same clue count (the "bits" engine runs locked candidates between
any two units that cross in two or more cells: boxes and lines, and the regions,
diagonals, windows and disjoint groups of the rules; and removes a digit with two or
three places in a unit from the cells that see them all, in the units the rules add,
or in every unit when anti-knight or anti-king links cells).
"""

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import inequality  # noqa: E402
import machine  # noqa: E402
import published  # noqa: E402

from numbadlx import sudoku  # noqa: E402
from numbadlx.sudoku import geometry  # noqa: E402
from numbadlx.sudoku.engines import UNIQUE, cage_rows, constraint_table, run  # noqa: E402
from numbadlx.sudoku.formats import parse_chunk  # noqa: E402

KILLERS = "killer_krazydad_vol1.csv"
TARGET = 5000.0
GENERATED_TARGET = 2.0  # variant time per puzzle at most twice the classic one
GENERATED_CLUES = (22, 26)  # clue counts of the generated puzzles, variant and classic
REPEAT = 10  # each generated set is solved this many times over in one timed call


def _jigsaw():
    """A 9x9 jigsaw layout: the boxes with four pairs of border cells swapped."""
    regions = (np.arange(9)[:, None] // 3) * 3 + np.arange(9)[None, :] // 3
    for (r1, c1), (r2, c2) in (
        ((2, 2), (3, 0)),
        ((2, 5), (3, 3)),
        ((5, 8), (6, 6)),
        ((5, 5), (6, 3)),
    ):
        regions[r1, c1], regions[r2, c2] = regions[r2, c2], regions[r1, c1]
    return regions


GENERATED = {
    "X (diagonals)": sudoku.Rules(diagonals=True),
    "jigsaw": sudoku.Rules(regions=_jigsaw()),
    "windoku": sudoku.Rules(windoku=True),
    "anti-knight": sudoku.Rules(anti_knight=True),
    "non-consecutive": sudoku.Rules(non_consecutive=True),
    "thermo (4 thermometers)": sudoku.Rules(
        thermos=[(0, 1, 2, 3), (10, 19, 28, 37), (80, 79, 78), (44, 53, 62, 71, 70)]
    ),
}


def classic_with_clues(counts, seed):
    """Classic unique puzzles with ``counts`` clues each, made the way the variants are
    (``sudoku.generate(minimal=False, ...)``: blanking in random order, stopped at the
    clue count), those of each count by one call with ``clues=(count, count)``."""
    counts = np.asarray(counts)
    out = np.zeros((len(counts), 81), dtype=np.uint8)
    for want in np.unique(counts):
        rows = np.flatnonzero(counts == want)
        out[rows] = sudoku.generate(
            len(rows), seed=seed + int(want), threads=1, minimal=False, clues=(want, want)
        )
    return out


def generated_rows(count, rounds):
    """The generated-variants table: each rule set's puzzles against classic puzzles
    with the same clue counts, one thread, limit 2, same engine."""
    if count <= 0:
        return
    print(
        f"\nGenerated variants: {count} puzzles per rule set by sudoku.generate(rules=..., "
        f"minimal=False, clues={GENERATED_CLUES}) beside {count} classic puzzles with the "
        "same clue counts; limit 2, one thread, the variant's engine for both, each set "
        f"{REPEAT} times over per call; CPU time, median of {rounds} alternating rounds\n"
    )
    print(
        "| puzzles | engine | clues (variant) | clues (classic) | making ms/puzzle "
        "| nodes/puzzle (variant, classic) | variant CPU µs/puzzle | classic CPU µs/puzzle "
        "| ratio | 2x target |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    all_met = True
    for index, (name, rules) in enumerate(GENERATED.items()):
        start = time.perf_counter()
        puzzles = sudoku.generate(
            count, seed=100 + index, rules=rules, threads=1, minimal=False, clues=GENERATED_CLUES
        )
        making = (time.perf_counter() - start) / count
        counts = (puzzles > 0).sum(axis=1)
        classic = classic_with_clues(counts.tolist(), seed=200 + index)
        first = sudoku.solve(puzzles, rules=rules, threads=1)
        engine = first.engine
        if first.status_counts() != {"UNIQUE": count}:
            raise SystemExit(f"{name}: generated puzzles not all UNIQUE: {first.status_counts()}")
        check = sudoku.solve(classic, threads=1, engine=engine)
        if check.status_counts() != {"UNIQUE": count}:
            raise SystemExit(f"{name}: classic puzzles not all UNIQUE: {check.status_counts()}")
        variant_times, classic_times = [], []
        many, many_classic = np.tile(puzzles, (REPEAT, 1)), np.tile(classic, (REPEAT, 1))
        for _ in range(rounds):
            start = time.process_time()
            sudoku.solve(many, rules=rules, threads=1, limit=2, engine=engine)
            variant_times.append(time.process_time() - start)
            start = time.process_time()
            sudoku.solve(many_classic, threads=1, limit=2, engine=engine)
            classic_times.append(time.process_time() - start)
        variant = statistics.median(variant_times) / (count * REPEAT)
        plain = statistics.median(classic_times) / (count * REPEAT)
        ratio = variant / plain
        met = ratio <= GENERATED_TARGET
        all_met &= met
        print(
            f"| {name} | {engine} | {counts.mean():.1f} | {(classic > 0).sum(axis=1).mean():.1f} "
            f"| {making * 1e3:.1f} | {first.nodes.mean():.1f}, {check.nodes.mean():.1f} "
            f"| {variant * 1e6:.0f} | {plain * 1e6:.0f} | {ratio:.2f} "
            f"| {'met' if met else 'MISSED'} |"
        )
    verdict = "met for every rule set" if all_met else "MISSED for some rule set"
    print(f"\ntarget: generated variants within {GENERATED_TARGET:g}x of classic: {verdict}")


def _cpu(call, rounds):
    """``(median CPU seconds, last result)`` of ``rounds`` calls."""
    times, result = [], None
    for _ in range(rounds):
        start = time.process_time()
        result = call()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def target_rows(rounds):
    """The search targets (see the module docstring): one table row per puzzle and
    engine. Returns whether every target was met."""
    empty = np.zeros(81, dtype=np.uint8)
    print(
        "\nSearch targets: one thread, CPU seconds the median of "
        f"{rounds} calls (the first call, which may compile, not counted)\n"
    )
    print("| puzzle | engine | status | nodes | CPU s | target | met |")
    print("|---|---|---|---:|---:|---|---|")
    all_met = True

    def row(name, call, wanted, solution=None, seconds_at_most=None, nodes_at_most=None):
        nonlocal all_met
        call()
        seconds, result = _cpu(call, rounds)
        status = sudoku.Status(result.status[0]).name
        nodes = int(result.nodes[0])
        met = status == wanted
        if solution is not None:
            met &= "".join(map(str, result.solutions[0])) == solution
        target = wanted
        if nodes_at_most is not None:
            met &= nodes <= nodes_at_most
            target += f" in {nodes_at_most:,} nodes"
        if seconds_at_most is not None:
            met &= seconds <= seconds_at_most
            target += f" in {seconds_at_most:g} s"
        all_met &= met
        print(
            f"| {name} | {result.engine} | {status} | {nodes:,} | {seconds:.3f} | {target} "
            f"| {'met' if met else 'MISSED'} |"
        )

    for name, pairs, wanted in (
        ("X pairs down a column (36-45-54)", [(36, 45), (45, 54)], "NO_SOLUTION"),
        ("X pairs along a row (36-37-38)", [(36, 37), (37, 38)], "NO_SOLUTION"),
    ):
        rules = sudoku.Rules(x_pairs=pairs)
        row(
            name,
            lambda rules=rules: sudoku.solve(empty, rules=rules, threads=1, max_nodes=1000),
            wanted,
            nodes_at_most=1000,
        )
    rules = sudoku.Rules(anti_knight=True, diagonals=True)
    for engine in ("auto", "cages"):
        row(
            f"anti-knight + both diagonals, empty grid (engine={engine!r})",
            lambda engine=engine: sudoku.solve(
                empty, rules=rules, limit=1, threads=1, engine=engine, max_nodes=300_000
            ),
            "SOLVED",
            seconds_at_most=1.0,
        )
    for (name, pairs, solution), form in itertools.product(
        [inequality.COURSE, *inequality.made()], ("thermos", "greater")
    ):
        if form == "thermos":
            rules = sudoku.Rules(thermos=pairs)
        else:
            rules = sudoku.Rules(greater=[(b, a) for a, b in pairs])
        row(
            f"inequality: {name}, {len(pairs)} signs as {form}",
            lambda rules=rules: sudoku.solve(
                empty, rules=rules, limit=2, threads=1, max_nodes=2_000_000
            ),
            "UNIQUE",
            solution=solution,
            seconds_at_most=1.0,
        )
    verdict = "met" if all_met else "MISSED for some puzzle"
    print(f"\nsearch targets: {verdict}")
    return all_met


def tables_of(chunk):
    """The constraint tables of every row at once (the rows' cages packed by
    ``cage_rows`` beside the table of the rules they share), from the arrays the reader
    keeps (``chunk.rules``, a KillerRows)."""
    rules = chunk.rules
    units = geometry.unit_table(9, rules=rules.base)
    shared = constraint_table(units, rules.base)
    return cage_rows(shared, units, *rules.cage_arrays())


def solve_each(chunk, tables):
    """Each row under its own table, one kernel call on the calling thread: the result
    arrays."""
    rows = len(chunk)
    out = (
        np.zeros_like(chunk.puzzles),
        np.zeros(rows, dtype=np.uint8),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
    )
    run("cages", chunk.puzzles, tables, 2, 0, 64, 1, out)
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
    parser.add_argument("--generated", type=int, default=100, help="puzzles per generated rule set")
    parser.add_argument(
        "--pencilmark",
        type=int,
        default=40,
        metavar="K",
        help="killers also solved by pencilmark, if installed (0: no pencilmark rows; "
        "it takes about half a second a killer)",
    )
    parser.add_argument("--targets", action="store_true", help="only the search targets")
    parser.add_argument(
        "--published", action="store_true", help="only the published puzzles (see published.py)"
    )
    machine.add_results_option(parser, "variants")
    args = parser.parse_args(argv)
    env = os.environ.get("NUMBADLX_DATA")
    folder = Path(args.data or env or HERE.parent.parent / "shared" / "data")
    path = folder / KILLERS
    print(machine.describe("Sudoku variants: the shared Killer Sudokus, one thread"))
    start_load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if args.published:
        published.published_rows(args.rounds)
        print(f"\n# load avg at end {machine.load_average()}")
        return 0
    target_rows(args.rounds)
    if args.targets:
        print(f"\n# load avg at end {machine.load_average()}")
        return 0
    published.published_rows(args.rounds)
    chunk = parse_chunk(path)
    check(chunk, solve_each(chunk, tables_of(chunk)))  # compile or load the kernel
    spans = {
        "solve": [],
        "tables + solve": [],
        "read + tables + solve": [],
        "sudoku.solve(path)": [],
    }
    cpu = {name: [] for name in spans}
    nodes = guesses = None
    for _ in range(args.rounds):
        start, cpu_start = time.perf_counter(), time.process_time()
        chunk = parse_chunk(path)
        read, cpu_read = time.perf_counter(), time.process_time()
        tables = tables_of(chunk)
        made, cpu_made = time.perf_counter(), time.process_time()
        out = solve_each(chunk, tables)
        end, cpu_end = time.perf_counter(), time.process_time()
        check(chunk, out)
        nodes, guesses = out[3], out[4]
        spans["solve"].append(end - made)
        spans["tables + solve"].append(end - read)
        spans["read + tables + solve"].append(end - start)
        cpu["solve"].append(cpu_end - cpu_made)
        cpu["tables + solve"].append(cpu_end - cpu_read)
        cpu["read + tables + solve"].append(cpu_end - cpu_start)
        start, cpu_start = time.perf_counter(), time.process_time()
        result = sudoku.solve(path, threads=1)
        spans["sudoku.solve(path)"].append(time.perf_counter() - start)
        cpu["sudoku.solve(path)"].append(time.process_time() - cpu_start)
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
        "\nper CPU second (process time, median of the rounds): "
        + "; ".join(
            f"{name} {rows / statistics.median(times):,.0f}/s" for name, times in cpu.items()
        )
    )
    print(
        f"\nsearch per puzzle: {nodes.mean():.2f} nodes (propagated states), "
        f"{guesses.mean():.2f} guesses; {int((guesses == 0).sum())} of {rows} "
        "solved without a guess"
    )
    rate = rows / statistics.median(spans["sudoku.solve(path)"])
    verdict = "met" if rate >= TARGET else "MISSED"
    print(f"\ntarget: {TARGET:,.0f} puzzles/s by sudoku.solve(path): {verdict} ({rate:,.0f}/s)")
    generated_rows(args.generated, args.rounds)
    if args.pencilmark:
        pencilmark_rows(path, killers=args.pencilmark, rounds=args.rounds)
    # the 1-minute load decays over about a minute: a run that ended just before
    # still shows in it
    shared = (
        "other work may have shared the cores during the rounds"
        if start_load >= 0.5
        else "nothing else was running"
    )
    print(
        f"\nThe machine's 1-minute load was {start_load:.1f} at the start "
        f"({os.cpu_count()} cores): {shared}."
    )
    print(f"\n# load avg at end {machine.load_average()}")
    return 0


# ---- side by side with pencilmark (PyPI), on the same puzzles ------------------------


def _pencilmark_text(puzzle, rules, n=9):
    """One puzzle in pencilmark's own JSON input (its "puzzle JSON"): the givens, the
    implied rows, columns and boxes, cages and diagonals as regions, anti-knight as a
    rule. Made before the clocks start: the text is what its user would hand it."""
    import json

    def name(cell):
        return f"r{cell // n + 1}c{cell % n + 1}"

    regions = [
        {"kind": "cage", "cells": [name(c) for c in cells], **({} if t is None else {"sum": t})}
        for cells, t in rules.cages
    ]
    if rules.diagonals:
        regions.append({"kind": "diag", "cells": [name(i * n + i) for i in range(n)]})
        regions.append({"kind": "diag", "cells": [name(i * n + n - 1 - i) for i in range(n)]})
    data = {
        "digits": n,
        "box": "3x3",
        "numbers": "".join(str(int(v)) if v else "." for v in puzzle),
        "regions": regions,
    }
    if rules.anti_knight:
        data["rules"] = [{"type": "antiknight"}]
    return json.dumps(data)


def _unique_puzzles(rules, count, seed):
    """``count`` minimal 9x9 puzzles with one solution under ``rules``, made here by
    numbadlx: a random grid (a few random givens solved with ``limit=1``), then its
    clues taken away in a random order while the puzzle stays unique. Both sides must
    find them unique, and pencilmark checks that on its own."""
    rng = np.random.default_rng(seed)
    puzzles = []
    while len(puzzles) < count:
        start = np.zeros(81, dtype=np.uint8)
        for cell in rng.choice(81, 8, replace=False):
            start[cell] = rng.integers(1, 10)
        first = sudoku.solve(start, rules=rules, limit=1, threads=1, max_nodes=20000)
        if first.status[0] != sudoku.Status.SOLVED:
            continue
        puzzle = first.solutions[0].copy()
        for cell in rng.permutation(81):
            kept = puzzle[cell]
            puzzle[cell] = 0
            if sudoku.solve(puzzle, rules=rules, limit=2, threads=1).status[0] != UNIQUE:
                puzzle[cell] = kept
        puzzles.append(puzzle)
    return np.array(puzzles)


def _timed(call, rounds):
    """``(median seconds, last value)`` of ``rounds`` calls."""
    times, value = [], None
    for _ in range(rounds):
        start = time.perf_counter()
        value = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def pencilmark_rows(path, killers=40, generated=20, rounds=3):
    """The same puzzles through numbadlx and pencilmark, one thread each: the first
    ``killers`` shared killers, ``generated`` X-Sudokus and as many anti-knight
    Sudokus. Each side is timed from its own input to its answers: numbadlx from a CSV
    (the killers) or a puzzle array and its Rules, with ``sudoku.solve`` (reading,
    rule tables and search); pencilmark from its JSON text with ``pencilmark.solve``
    (its reading and its search, which proves uniqueness too). The solutions must be
    equal. pencilmark runs once per set (it is slow on cages), numbadlx the median of
    ``rounds``."""
    try:
        import pencilmark
    except ImportError:
        print("\npencilmark is not installed (pip install pencilmark): its rows are skipped")
        return
    import tempfile

    version = getattr(pencilmark, "__version__", None)
    if version is None:
        from importlib.metadata import version as _version

        version = _version("pencilmark")
    chunk = parse_chunk(path)
    sets = []
    with tempfile.TemporaryDirectory() as folder:
        subset = Path(folder) / "killers.csv"
        lines = path.read_text().splitlines()
        subset.write_text("\n".join(lines[: killers + 1]) + "\n")
        rules = chunk.rules[:killers]

        def ours_killers():
            return sudoku.solve(subset, threads=1)

        sets.append(
            (f"killers ({KILLERS}, first {killers})", ours_killers, chunk.puzzles[:killers], rules)
        )
        for label, made in (
            ("X-Sudoku (made here, minimal)", sudoku.Rules(diagonals=True)),
            ("anti-knight (made here, minimal)", sudoku.Rules(anti_knight=True)),
        ):
            puzzles = _unique_puzzles(made, generated, seed=len(sets))

            def ours(puzzles=puzzles, made=made):
                return sudoku.solve(puzzles, rules=made, threads=1)

            sets.append((label, ours, puzzles, [made] * len(puzzles)))
        print(
            f"\nSide by side with pencilmark {version} (PyPI), one thread, limit 2 (both prove "
            f"uniqueness); numbadlx median of {rounds} rounds, pencilmark one round:\n"
        )
        print("| puzzles | count | numbadlx puzzles/s | pencilmark puzzles/s | ratio |")
        print("|---|---:|---:|---:|---:|")
        for label, ours, puzzles, rules in sets:
            ours()  # compile or load the kernels
            seconds, result = _timed(ours, rounds)
            if not (result.status == UNIQUE).all():
                raise SystemExit(f"{label}: numbadlx found a puzzle not UNIQUE")
            texts = [_pencilmark_text(p, r) for p, r in zip(puzzles, rules)]
            pencilmark.solve(texts[0])  # its first call loads its engine
            start = time.perf_counter()
            theirs = [pencilmark.solve(text) for text in texts]
            their_seconds = time.perf_counter() - start
            if not (np.array(theirs, dtype=np.uint8) == result.solutions).all():
                raise SystemExit(f"{label}: pencilmark and numbadlx solutions differ")
            count = len(texts)
            ours_rate, their_rate = count / seconds, count / their_seconds
            print(
                f"| {label} | {count} | {ours_rate:,.0f} | {their_rate:,.1f} | "
                f"{ours_rate / their_rate:,.0f}x |"
            )
        print("\nEvery solution equal on both sides.")


if __name__ == "__main__":
    sys.exit(machine.run(main, "variants", "Sudoku variants"))
