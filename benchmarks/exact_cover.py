"""Count every solution of classic exact-cover problems with numbadlx and its PyPI peers.

Run by hand (not in CI), in the benchmark virtualenv that has the peers
(see ``benchmarks/setup_env.sh`` and ``benchmarks/README_peers.md``)::

    .venv-bench/bin/python benchmarks/exact_cover.py
    .venv-bench/bin/python benchmarks/exact_cover.py --quick           # smoke run
    .venv-bench/bin/python benchmarks/exact_cover.py --problems queens12 \\
        --peers miniexact --repeats 9

Every solver counts all solutions of the same problem in the same process.
Only the search is timed: problems are built and converted to each peer's
input beforehand, miniexact's solver is rebuilt (``prep.reset()``) before every
repetition outside the timer, and ``peers.warmup()`` plus a tiny numbadlx count
run first so that no compilation or cache loading is timed. Repetitions are
interleaved (one run of every solver per round) so that a burst of load from
another process on this shared machine hits every solver alike. The garbage
collector is off during a timed run.

Adding a problem
----------------
Append a :class:`Case` to :data:`CASES`. The first three fields are
``(name, build, expected)``; ``build()`` returns the problem, ``expected`` is its
published solution count. Optional fields:

* ``quick``: a smaller ``Case`` used by ``--quick``;
* ``to_peer(problem) -> dict``: keyword arguments for ``peers.prepare`` (``options``,
  ``n_primary``, ``n_items`` and, for coloured or multiplicity problems, ``colours``
  or ``bounds``). The default, :func:`exact_peer_input`, handles plain exact cover
  with secondary items;
* ``run_ours(problem) -> (count, nodes, updates)``: how numbadlx solves it. The
  default, :func:`count_ours`, calls ``problem.count()`` and reads ``problem.stats``.

A peer whose adapter raises ``NotImplementedError`` for a case shows ``n/a``.
"""

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import NamedTuple, Optional

# This file shares its name with the exact-cover peer's package. Take its folder off
# sys.path before anything imports by name; peers.py imports the peers with the same
# precaution, and we load peers.py from its path.
import _siblings  # this folder is still on sys.path here

_siblings.off_path()


import numpy as np  # noqa: E402

import numbadlx  # noqa: E402
from numbadlx import problems  # noqa: E402

peers = _siblings.load("peers")
machine = _siblings.load("machine")
cases = _siblings.load("cases")

OURS = "numbadlx"
LONG_RUN_SECONDS = 2.0  # runs longer than this get --long-repeats repetitions


# ----------------------------------------------------------------------------------
# Conversions and solver hooks
# ----------------------------------------------------------------------------------


def exact_peer_input(problem):
    """``peers.prepare`` keyword arguments for an exact-cover problem (with colours if
    it has them).

    The peers want 0-based items with the primary ones first and the secondary ones
    last; numbadlx keeps the caller's numbering (``problem.secondary`` is a mask over
    it). Items are renumbered primary first, then secondary, each group keeping its
    order; that is also numbadlx's internal order, so "first item of minimum length"
    ties break alike everywhere. Options and the order of items inside each option
    are kept.
    """
    secondary = np.asarray(problem.secondary, dtype=bool)
    order = np.concatenate([np.flatnonzero(~secondary), np.flatnonzero(secondary)])
    new_index = np.empty(problem.n_items, dtype=np.int64)
    new_index[order] = np.arange(problem.n_items)
    indptr = np.asarray(problem.indptr, dtype=np.int64)
    renumbered = new_index[np.asarray(problem.indices, dtype=np.int64)]
    options = [part.tolist() for part in np.split(renumbered, indptr[1:-1])]
    peer_input = {
        "options": options,
        "n_primary": int((~secondary).sum()),
        "n_items": int(problem.n_items),
    }
    if problem.colours is not None:  # Algorithm C: colours parallel to the options
        peer_input["colours"] = [
            part.tolist() for part in np.split(np.asarray(problem.colours), indptr[1:-1])
        ]
    return peer_input


def count_ours(problem):
    """Count with numbadlx (its engine as ``problem.engine`` says); returns
    ``(count, nodes, updates)``."""
    found = problem.count()
    return found, problem.stats.nodes, problem.stats.updates


class Case(NamedTuple):
    """One benchmark problem: ``(name, build, expected, ...)``, see the module doc."""

    name: str
    build: Callable
    expected: int | None  # None: no published count, the solvers must agree
    quick: Optional["Case"] = None
    to_peer: Callable = exact_peer_input
    run_ours: Callable = count_ours


#: The problem registry. Append coloured / multiplicity cases here (with their own
#: ``to_peer`` and ``run_ours``).
CASES = [
    Case(
        "queens12",
        lambda: problems.n_queens(12),
        14200,
        quick=Case("queens8", lambda: problems.n_queens(8), 92),
    ),
    Case(
        "langford11",
        lambda: problems.langford(11),
        35584,
        quick=Case("langford7", lambda: problems.langford(7), 52),
    ),
    Case(
        "pentominoes6x10",
        lambda: problems.pentominoes(6, 10),
        9356,
        quick=Case("pentominoes3x20", lambda: problems.pentominoes(3, 20), 8),
    ),
    Case(
        "queens13",
        lambda: problems.n_queens(13),
        73712,
        quick=Case("queens9", lambda: problems.n_queens(9), 352),
    ),
    Case(
        "langford12",
        lambda: problems.langford(12),
        216288,
        quick=Case("langford8", lambda: problems.langford(8), 300),
    ),
    # colour problems (Algorithm C), as in benchmarks/colours.py: no published count,
    # so every solver (and every engine) must agree with the others
    Case(
        "words3",
        lambda: problems.word_square(3),
        None,
        quick=Case("words3-150", lambda: problems.word_square(3, problems.WORDS3[:150]), None),
    ),
    Case(
        "ws4",
        lambda: cases.word_squares(4, 160),
        None,
        quick=Case("ws4-80", lambda: cases.word_squares(4, 80), None),
    ),
    Case(
        "crossword5",
        lambda: cases.crossword(100),
        None,
        quick=Case("crossword5-60", lambda: cases.crossword(60), None),
    ),
]

#: numbadlx's rows: the DLX engine first (the ratios' reference), then the others.
ENGINES = ("dlx", "cells", "auto")


def _ours(engine):
    return OURS if engine == "dlx" else f"{OURS}-{engine}"


# ----------------------------------------------------------------------------------
# Environment
# ----------------------------------------------------------------------------------


def header_lines(args, peer_list):
    """The benchmark's own header lines (after :func:`machine.describe`'s)."""
    versions = peers.peer_versions()
    lines = [
        "peers: " + (", ".join(f"{p} {versions[p]}" for p in peer_list) or "none"),
        "clock: " + ("this thread's CPU time" if args.clock == "cpu" else "wall time"),
        f"repeats: median of {args.repeats} (of {args.long_repeats} for a solver whose "
        f"first run took > {LONG_RUN_SECONDS:g} s), rounds interleaved across solvers",
    ]
    return lines


# ----------------------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------------------


#: ``--clock``: wall time, or the CPU time of this thread (where every solver runs).
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def _timed(fn, clock=time.perf_counter):
    gc.collect()
    gc.disable()
    try:
        start = clock()
        result = fn()
        seconds = clock() - start
    finally:
        gc.enable()
    return result, seconds


class _Runner:
    """One solver on one problem: how to reset, run, and what it has measured."""

    def __init__(self, solver, run, reset=lambda: None, note=""):
        self.solver = solver
        self.run = run  # -> (count, nodes or None, updates or None)
        self.reset = reset
        self.note = note
        self.times = []
        self.count = None
        self.nodes = None
        self.updates = None
        self.target = None
        self.error = None


def bench_case(case, peer_list, args):
    """Time every solver on ``case``; returns the runners (ours first)."""
    problem = case.build()

    def ours(engine):
        def run():
            problem.engine = engine
            return case.run_ours(problem)

        return run

    runners = [_Runner(_ours(engine), ours(engine)) for engine in ENGINES]
    peer_input = case.to_peer(problem) if peer_list else None
    for peer in peer_list:
        try:
            prep = peers.prepare(peer, **peer_input)
        except NotImplementedError as exc:
            runner = _Runner(peer, None)
            runner.error = f"n/a ({exc})"
            runners.append(runner)
            continue
        runners.append(_Runner(peer, lambda prep=prep: (prep(), None, None), prep.reset, prep.note))
    active = [r for r in runners if r.error is None]
    while True:
        pending = [r for r in active if r.target is None or len(r.times) < r.target]
        if not pending:
            break
        for r in pending:  # one round: every solver still short of its repeats runs once
            r.reset()
            (found, nodes, updates), seconds = _timed(r.run, CLOCKS[args.clock])
            if case.expected is not None and found != case.expected:
                raise AssertionError(
                    f"{case.name}: {r.solver} counted {found} solutions, expected {case.expected}"
                )
            r.count, r.nodes, r.updates = found, nodes, updates
            r.times.append(seconds)
            if r.target is None:
                r.target = (
                    args.repeats
                    if seconds <= LONG_RUN_SECONDS
                    else min(args.repeats, args.long_repeats)
                )
            if args.verbose:
                print(
                    f"  {case.name:18s} {r.solver:12s} run {len(r.times)}: {seconds:.4f} s",
                    file=sys.stderr,
                    flush=True,
                )
    counts = {r.solver: r.count for r in active}
    if len(set(counts.values())) > 1:
        raise AssertionError(f"{case.name}: solvers disagree: {counts}")
    return problem, runners


# ----------------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------------


def _fmt_int(v):
    return "-" if v is None else f"{v:,}"


def _fmt_s(v):
    return f"{v:#.4g}"


def _fmt_rate(v):
    if v is None:
        return "-"
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= scale:
            return f"{v / scale:.1f}{suffix}/s"
    return f"{v:.0f}/s"


def table_rows(case_name, problem, runners):
    ours = statistics.median(runners[0].times)
    rows = []
    for r in runners:
        if r.error is not None:
            rows.append([case_name, r.solver, "-", r.error, "", "", "", "", "", ""])
            continue
        med = statistics.median(r.times)
        mark = ""
        if r.solver == "exact-cover" and problem.n_secondary:
            mark = "*"
        rows.append(
            [
                case_name,
                r.solver + mark,
                str(len(r.times)),
                _fmt_s(med),
                f"{_fmt_s(min(r.times))}-{_fmt_s(max(r.times))}",
                _fmt_int(r.count),
                _fmt_int(r.nodes),
                _fmt_int(r.updates),
                _fmt_rate(None if r.updates is None else r.updates / med),
                f"{med / ours:.2f}",
            ]
        )
    return rows


COLUMNS = [
    "problem",
    "solver",
    "reps",
    "median s",
    "min-max s",
    "solutions",
    "nodes",
    "updates",
    "updates/s",
    "ratio",
]
RIGHT = {2, 3, 4, 5, 6, 7, 8, 9}


def print_table(rows):
    widths = [max(len(COLUMNS[k]), *(len(row[k]) for row in rows)) for k in range(len(COLUMNS))]

    def line(cells):
        return "  ".join(
            c.rjust(w) if k in RIGHT else c.ljust(w) for k, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    print(line(COLUMNS))
    print(line(["-" * w for w in widths]))
    previous = None
    for row in rows:
        if previous is not None and row[0] != previous:
            print()
        print(line(row))
        previous = row[0]


def engine_lines(results):
    """The engines side by side: cells' speed-up over DLX, and auto against the better
    of the two (``results``: ``(case name, problem, runners)``)."""
    from numbadlx.core.search import engine_for

    lines = []
    for name, problem, runners in results:
        med = {r.solver: statistics.median(r.times) for r in runners if r.error is None}
        dlx, cells, auto = (med[_ours(e)] for e in ENGINES)
        problem.engine = "auto"
        lines.append(
            f"{name:18s} dlx/cells = {dlx / cells:5.2f}   auto/best = "
            f"{auto / min(dlx, cells):5.2f}   (auto runs {engine_for(problem)})"
        )
    return lines


def main(argv=None):
    names = [c.name for c in CASES]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repeats", type=int, default=5, help="timed runs per solver and problem (default 5)"
    )
    parser.add_argument(
        "--long-repeats",
        type=int,
        default=3,
        help=f"timed runs when the first took > {LONG_RUN_SECONDS:g} s (default 3)",
    )
    parser.add_argument(
        "--problems",
        default=",".join(names),
        help=f"comma-separated subset of {','.join(names)} (default all)",
    )
    parser.add_argument(
        "--peers",
        default=",".join(peers.PEERS),
        help=f"comma-separated subset of {','.join(peers.PEERS)}, or "
        f"'none' (default all available)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="smaller instances of each problem, for a smoke run"
    )
    parser.add_argument(
        "--verbose", "-v", action="store_true", help="print every timed run to stderr"
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall time, or this thread's CPU time (every solver runs in this thread; "
        "fairer on a loaded machine); default wall",
    )
    machine.add_results_option(parser, "exact_cover")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.long_repeats < 1:
        parser.error("--repeats and --long-repeats must be positive")

    chosen = [n.strip() for n in args.problems.split(",") if n.strip()]
    unknown = [n for n in chosen if n not in names]
    if unknown:
        parser.error(f"unknown problem(s) {unknown}; choose from {names}")
    chosen_cases = [c for c in CASES if c.name in chosen]
    if args.quick:
        chosen_cases = [c.quick or c for c in chosen_cases]

    peer_list, skipped = [], []
    if args.peers.strip().lower() != "none":
        for name in (n.strip() for n in args.peers.split(",") if n.strip()):
            try:
                canon = peers._canon(name)
            except ValueError as exc:
                parser.error(str(exc))
            if peers.AVAILABLE.get(canon):
                peer_list.append(canon)
            else:
                skipped.append(f"{canon} ({peers.IMPORT_ERRORS.get(canon, 'not installed')})")

    print(machine.describe("numbadlx exact-cover benchmark: count ALL solutions, search time only"))
    for line in header_lines(args, peer_list):
        print("# " + line)
    for s in skipped:
        print(f"# skipped peer, not importable here: {s}")

    # Warm-up, untimed: load numbadlx's cached kernels, xcover's Numba code, etc.
    for engine in ENGINES:
        numbadlx.ExactCover([[0, 1], [0], [1]], engine=engine).count()
        numbadlx.ExactCover(
            [[0, 1], [0, 1]], secondary=1, colours=[[0, 1], [0, 1]], dense=False, engine=engine
        ).count()
    if peer_list:
        peers.warmup(peer_list)

    rows, notes, results = [], [], []
    for case in chosen_cases:
        problem, runners = bench_case(case, peer_list, args)
        print(f"# {case.name}: {problem!r}", flush=True)
        rows.extend(table_rows(case.name, problem, runners))
        results.append((case.name, problem, runners))
        for r in runners:
            if r.note and r.solver == "exact-cover" and problem.n_secondary:
                notes.append(f"{case.name}: {r.note}")
    print()
    print_table(rows)
    print()
    print("Engines (medians of the same rounds; dlx/cells > 1: cells is faster):")
    for line in engine_lines(results):
        print("  " + line)
    print()
    print(
        "ratio = solver's median / numbadlx's (DLX engine) median on the same problem "
        "(> 1: numbadlx is faster)."
    )
    print(
        "numbadlx-cells: the dancing-cells engine; numbadlx-auto: engine='auto'. Cells "
        "counts fewer nodes: it rejects an option"
    )
    print("  that leaves an item without options before entering a level.")
    print(
        "nodes = search-tree nodes entered (solutions included); updates = items covered "
        "+ option nodes unlinked from item lists"
    )
    print("  (Knuth's count); the peers do not report theirs through their Python APIs: '-'.")
    print(
        "xcover (a Numba generator) and miniexact (one solve() call per solution) are "
        "counted by a Python loop over"
    )
    print(
        "  the solutions, so their times include one Python step per solution; "
        "numbadlx and exact-cover count inside compiled code."
    )
    if any(r[1] == "exact-cover*" for r in rows):
        print(
            "* exact-cover has no secondary items: each becomes a primary column plus a "
            "slack row covering only it"
        )
        print(
            "  (benchmarks/peers.py), which keeps the count but changes the search tree, so "
            "that row is not like-for-like."
        )
        for n in notes:
            print("  " + n)
    print(f"# load avg at end: {machine.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "exact_cover", "Exact cover against the peers"))
