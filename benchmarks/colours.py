"""Exact cover with colours (Algorithm C) and multiplicities (Algorithm M): numbadlx
against xcover and miniexact, counting every solution, in one run.

Run by hand (not in CI), in the benchmark virtualenv that has the peers
(``benchmarks/setup_env.sh``; numbadlx installed there editable)::

    .venv-bench/bin/python benchmarks/colours.py
    .venv-bench/bin/python benchmarks/colours.py --quick            # smoke run
    .venv-bench/bin/python benchmarks/colours.py --problems ws4,queens13-M \\
        --repeats 9 --clock wall

Method
------
* Problems are built once (numbadlx's ``problems`` module, some on seeded random word
  lists) and converted to each peer's input up front (``benchmarks/peers.py``), with
  items renumbered primary first as the peers want them.
* Only the search is timed. ``peers.warmup()`` and a short numbadlx count on every
  problem run first, so no compilation or cache loading is timed; miniexact's solver
  is rebuilt (``prep.reset()``) before each repetition, outside the timer.
* Repetitions are interleaved (one run of every solver per round) and the garbage
  collector is off while a run is timed. Each cell is the median of ``--repeats``.
* ``--clock cpu`` (the default) measures the thread's CPU time, because this machine
  is shared with other jobs and wall time follows their load; ``--clock wall`` uses
  ``time.perf_counter``. All three solvers run in this thread, so both are fair.
* xcover has no multiplicities (``n/a``). Both peers hand solutions to Python one at
  a time (a generator step or a ``solve()`` call per solution), while numbadlx counts
  inside its kernel; on problems with millions of solutions that is part of the gap.
* ratio = peer time / numbadlx time (above 1: numbadlx is faster).
"""

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import NamedTuple

# benchmarks/exact_cover.py shares its name with the exact-cover peer's package: take
# this folder off sys.path and load peers.py and machine.py from their paths.
import _siblings  # this folder is still on sys.path here

_siblings.off_path()


from numbadlx import problems  # noqa: E402

peers = _siblings.load("peers")
machine = _siblings.load("machine")

PEERS = ("xcover", "miniexact")


# ----------------------------------------------------------------------------------
# Problems
# ----------------------------------------------------------------------------------


cases = _siblings.load("cases")
CROSSWORD = cases.CROSSWORD


class Case(NamedTuple):
    name: str
    kind: str  # "C" or "M": the algorithm numbadlx must pick
    build: Callable
    description: str
    quick: Callable = None  # a smaller build for --quick


CASES = [
    Case(
        "words3",
        "C",
        lambda: problems.word_square(3),
        "3x3 double word squares, built-in WORDS3 (330 words), all 6 words distinct",
        lambda: problems.word_square(3, problems.WORDS3[:150]),
    ),
    Case(
        "ws4",
        "C",
        lambda: cases.word_squares(4, 160),
        "4x4 double word squares, 160 random 4-letter words over a-e",
        lambda: cases.word_squares(4, 80),
    ),
    Case(
        "crossword5",
        "C",
        lambda: cases.crossword(100),
        f"fill {'/'.join(CROSSWORD)}, 100 random words of each length 3-5 over a-e",
        lambda: cases.crossword(60),
    ),
    Case(
        "2-per-line-7",
        "M",
        lambda: problems.k_per_row_and_column(7, 2),
        "7x7 0/1 matrices, every row and column sum 2 (OEIS A001499)",
        lambda: problems.k_per_row_and_column(5, 2),
    ),
    Case(
        "2-per-line-8-diag2",
        "M",
        lambda: problems.k_per_row_and_column(8, 2, 2),
        "8x8, 2 per row and column, at most 2 per diagonal",
        lambda: problems.k_per_row_and_column(6, 2, 2),
    ),
    Case(
        "queens13-M",
        "M",
        lambda: problems.k_per_row_and_column(13, 1, 1),
        "13 queens as multiplicities: lines 1, diagonals 0..1 (OEIS A000170)",
        lambda: problems.k_per_row_and_column(9, 1, 1),
    ),
    Case(
        "dominoes8x8-h16",
        "M",
        lambda: problems.domino_tilings(8, 8, horizontal=16),
        "domino tilings of 8x8 with exactly 16 horizontal dominoes",
        lambda: problems.domino_tilings(6, 6, horizontal=8),
    ),
    Case(
        "dominoes7x8-h10-14",
        "M",
        lambda: problems.domino_tilings(7, 8, horizontal=(10, 14)),
        "domino tilings of 7x8 with 10 to 14 horizontal dominoes",
        lambda: problems.domino_tilings(4, 6, horizontal=(2, 4)),
    ),
]


def peer_input(problem):
    """``peers.prepare`` keyword arguments: items renumbered primary first."""
    internal = problem.item_order.argsort()  # caller's item -> internal position
    idx = internal[problem.indices]
    starts, stops = problem.indptr[:-1], problem.indptr[1:]
    options = [idx[a:b].tolist() for a, b in zip(starts, stops)]
    colours = None
    if problem.colours is not None:
        colours = [problem.colours[a:b].tolist() for a, b in zip(starts, stops)]
    bounds = None
    if problem.bounds is not None:
        bounds = [(int(u), int(v)) for u, v in problem.bounds]
    return dict(
        options=options,
        n_primary=problem.n_primary,
        n_items=problem.n_items,
        colours=colours,
        bounds=bounds,
    )


# ----------------------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------------------


def _clock(name):
    return time.thread_time if name == "cpu" else time.perf_counter


def _timed(fn, clock):
    gc.collect()
    gc.disable()
    try:
        start = clock()
        result = fn()
        return result, clock() - start
    finally:
        gc.enable()


def bench(case, args):
    problem = (case.quick if args.quick and case.quick else case.build)()
    if problem.algorithm != case.kind:
        raise AssertionError(
            f"{case.name}: numbadlx picked Algorithm {problem.algorithm}, expected {case.kind}"
        )
    problem.count(limit=1)  # load the kernel outside the timer
    runs = {"numbadlx": (problem.count, lambda: None)}
    notes = {}
    kwargs = peer_input(problem)
    for peer in args.peers:
        try:
            prep = peers.prepare(peer, **kwargs)
        except NotImplementedError:
            notes[peer] = "n/a"
            continue
        runs[peer] = (prep, prep.reset)
    clock = _clock(args.clock)
    times = {name: [] for name in runs}
    counts = {}
    for round_ in range(args.repeats):
        for name, (run, reset) in runs.items():
            reset()
            count, seconds = _timed(run, clock)
            times[name].append(seconds)
            if counts.setdefault(name, count) != count:
                raise AssertionError(f"{case.name}: {name} changed its count")
            if args.verbose:
                print(
                    f"  {case.name} {name} round {round_ + 1}: {seconds:.4f} s",
                    file=sys.stderr,
                    flush=True,
                )
    if len(set(counts.values())) != 1:
        raise AssertionError(f"{case.name}: solvers disagree: {counts}")
    stats = problem.stats
    medians = {name: statistics.median(values) for name, values in times.items()}
    return dict(
        case=case,
        problem=problem,
        count=counts["numbadlx"],
        medians=medians,
        nodes=stats.nodes,
        updates=stats.updates,
        notes=notes,
    )


# ----------------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------------


def _rate(value):
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:.1f}{suffix}"
    return f"{value:.0f}"


def header(args):
    """The machine description and this benchmark's own lines (peers, repeats, clock)."""
    versions = peers.peer_versions()
    return "\n".join(
        [
            machine.describe("numbadlx colours/multiplicities benchmark: count all solutions"),
            "# peers: " + (", ".join(f"{p} {versions[p]}" for p in args.peers) or "none"),
            f"# median of {args.repeats} interleaved runs, {args.clock} time",
        ]
    )


def report(results, args):
    head = ["problem", "alg", "solutions", "numbadlx s", "nodes", "updates/s"]
    for peer in args.peers:
        head += [f"{peer} s", "ratio"]
    rows = []
    for r in results:
        ours = r["medians"]["numbadlx"]
        row = [
            r["case"].name,
            r["case"].kind,
            f"{r['count']:,}",
            f"{ours:.3f}",
            f"{r['nodes']:,}",
            _rate(r["updates"] / ours) if ours > 0 else "-",
        ]
        for peer in args.peers:
            if peer in r["medians"]:
                row += [f"{r['medians'][peer]:.3f}", f"{r['medians'][peer] / ours:.2f}"]
            else:
                row += [r["notes"].get(peer, "-"), ""]
        rows.append(row)
    widths = [max(len(h), *(len(row[k]) for row in rows)) for k, h in enumerate(head)]
    line = lambda cells: "  ".join(  # noqa: E731
        c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(cells, widths))
    )
    print(line(head))
    print(line(["-" * w for w in widths]))
    for row in rows:
        print(line(row))
    print()
    for r in results:
        print(f"  {r['case'].name}: {r['case'].description}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--problems", default=",".join(c.name for c in CASES))
    parser.add_argument(
        "--peers",
        default=",".join(PEERS),
        help=f"comma-separated subset of {','.join(PEERS)}, or 'none'",
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, 1 repeat")
    parser.add_argument("--verbose", "-v", action="store_true")
    machine.add_results_option(parser, "colours")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats = 1
    args.peers = (
        []
        if args.peers.strip().lower() == "none"
        else [p.strip() for p in args.peers.split(",") if p.strip()]
    )
    missing = [p for p in args.peers if not peers.AVAILABLE.get(p)]
    if missing:
        parser.error(f"peers not importable here: {missing} (use the benchmark venv)")
    wanted = args.problems.split(",")
    unknown = set(wanted) - {c.name for c in CASES}
    if unknown:
        parser.error(f"unknown problems {sorted(unknown)}")
    print(header(args), flush=True)
    if args.peers:
        peers.warmup(args.peers)
    results = [bench(case, args) for case in CASES if case.name in wanted]
    report(results, args)
    print(f"# load avg at end: {machine.load_average()}")


if __name__ == "__main__":
    machine.run(main, "colours", "Colours and multiplicities (Algorithms C and M)")
