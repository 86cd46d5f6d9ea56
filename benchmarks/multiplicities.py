"""Algorithm M (multiplicities) in numbadlx next to Knuth's DLX3 and SSMCC.

Knuth's DLX3 runs Algorithm M on dancing links, SSMCC on dancing cells (his sparse
sets). numbadlx runs it on both: ``engine='dlx'`` and ``engine='cells'``. As for
``benchmarks/knuth.py`` (whose timing this script shares), the programs are built by
you from Knuth's CWEB sources, outside the repository, and found in one folder given by
``--knuth`` or the ``NUMBADLX_KNUTH`` environment variable::

    python benchmarks/multiplicities.py --knuth ../knuth-build
    python benchmarks/multiplicities.py --knuth ../knuth-build --quick --rounds 1

Each problem is written once as DLX text; every side counts all its solutions from that
text, and all must agree. Their time: the child process's CPU time; ours: this
thread's CPU time for the whole job (``from_dlx`` + ``count``) and for the search only.
Rounds alternate between the sides; medians are printed. The last column says which
engine ``engine='auto'`` picks for the problem.

The problems: marking ``k`` squares per row and column (with and without a limit per
diagonal; OEIS A001499 for ``k = 2``), n queens as multiplicities (each diagonal
``0..1``), domino tilings with a given number of horizontal dominoes, and packings of
polyominoes where each piece is an item with a multiplicity (so many copies of it:
``polyomino_tilings(..., copies=)``).
"""

import argparse
import os
import statistics
import sys
import tempfile
from typing import NamedTuple

import _siblings  # this folder is still on sys.path here

_siblings.off_path()

from numbadlx import problems  # noqa: E402
from numbadlx.core.search import engine_for  # noqa: E402
from numbadlx.problems import PENTOMINOES, TETROMINOES, polyomino_tilings  # noqa: E402

machine = _siblings.load("machine")
knuth = _siblings.load("knuth")

#: (program, our engine that walks a tree like it)
PROGRAMS = (("dlx3", "dlx"), ("ssmcc", "cells"))


class Case(NamedTuple):
    name: str
    build: object
    quick: object


CASES = (
    Case(
        "rows-cols-k2-n7",
        lambda: problems.k_per_row_and_column(7, 2),
        lambda: problems.k_per_row_and_column(6, 2),
    ),
    Case(
        "rows-cols-diag-k2-n8",
        lambda: problems.k_per_row_and_column(8, 2, max_per_diagonal=2),
        lambda: problems.k_per_row_and_column(7, 2, max_per_diagonal=2),
    ),
    Case(
        "queens-m-12",
        lambda: problems.k_per_row_and_column(12, 1, max_per_diagonal=1),
        lambda: problems.k_per_row_and_column(9, 1, max_per_diagonal=1),
    ),
    Case(
        "dominoes-8x8-h16",
        lambda: problems.domino_tilings(8, 8, horizontal=16),
        lambda: problems.domino_tilings(6, 6, horizontal=(8, 10)),
    ),
    Case(
        "tetrominoes-x2-5x8",
        lambda: polyomino_tilings(5, 8, TETROMINOES, copies=2),
        lambda: polyomino_tilings(4, 5, TETROMINOES, copies=1),
    ),
    Case(
        "pentominoes-0..1-5x9",
        lambda: polyomino_tilings(5, 9, PENTOMINOES, copies=(0, 1)),
        lambda: polyomino_tilings(4, 10, PENTOMINOES, copies=(0, 1)),
    ),
)


def bench_case(name, problem, folder, programs, rounds, workdir):
    text = problem.to_dlx()
    path = os.path.join(workdir, name + ".dlx")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    for _, engine in programs:  # compile and load outside the timed rounds
        knuth.run_ours(text, engine)
    ours = {e: {"total": [], "search": []} for _, e in programs}
    theirs = {p: [] for p, _ in programs}
    counts, nodes = {}, {}
    for _ in range(rounds):
        for program, engine in programs:
            count, n, total, search = knuth.run_ours(text, engine)
            counts[engine], nodes[engine] = count, n
            ours[engine]["total"].append(total)
            ours[engine]["search"].append(search)
            count, n, seconds = knuth.run_knuth(os.path.join(folder, program), path)
            counts[program], nodes[program] = count, n
            theirs[program].append(seconds)
    if len(set(counts.values())) != 1:
        raise AssertionError(f"{name}: the counts differ: {counts}")
    problem.engine = "auto"
    auto = engine_for(problem)
    rows = []
    for program, engine in programs:
        theirs_s = statistics.median(theirs[program])
        total = statistics.median(ours[engine]["total"])
        search = statistics.median(ours[engine]["search"])
        rows.append(
            (
                name,
                program.upper(),
                f"{counts[program]:,}",
                f"{nodes[program]:,}",
                f"{theirs_s:.3f}",
                engine,
                f"{nodes[engine]:,}",
                f"{total:.3f}",
                f"{search:.3f}",
                f"{theirs_s / total:.2f}",
                auto,
            )
        )
    versus = None
    if "dlx3" in theirs and "cells" in ours:  # the target: cells at least as fast as DLX3
        dlx3 = statistics.median(theirs["dlx3"])
        cells = statistics.median(ours["cells"]["total"])
        versus = (
            name,
            f"{nodes['dlx3']:,}",
            f"{nodes['cells']:,}",
            f"{dlx3:.3f}",
            f"{cells:.3f}",
            f"{dlx3 / cells:.2f}",
        )
    return rows, versus


HEADER = (
    "problem",
    "Knuth's",
    "solutions",
    "their nodes",
    "their CPU s",
    "our engine",
    "our nodes",
    "our CPU s, from text",
    "our CPU s, search",
    "their time / ours",
    "auto picks",
)

VERSUS = (
    "problem",
    "DLX3 nodes",
    "cells nodes",
    "DLX3 CPU s",
    "cells CPU s, from text",
    "DLX3 time / cells",
)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--knuth",
        default=os.environ.get("NUMBADLX_KNUTH"),
        metavar="DIR",
        help="folder holding Knuth's dlx3 and ssmcc (default: $NUMBADLX_KNUTH)",
    )
    names = [c.name for c in CASES]
    parser.add_argument("--problems", default=",".join(names), help=f"of {','.join(names)}")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (median)")
    parser.add_argument("--quick", action="store_true", help="the small version of each problem")
    machine.add_results_option(parser, "multiplicities")
    args = parser.parse_args()
    if not args.knuth:
        parser.error("name the folder of Knuth's programs with --knuth or NUMBADLX_KNUTH")
    folder = os.path.abspath(args.knuth)
    programs = [p for p in PROGRAMS if os.access(os.path.join(folder, p[0]), os.X_OK)]
    if not programs:
        parser.error(f"neither dlx3 nor ssmcc is an executable in {folder}")
    chosen = args.problems.split(",")
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        parser.error(f"unknown problems: {', '.join(unknown)} (known: {', '.join(names)})")
    print(machine.describe("Algorithm M: numbadlx's dlx and cells engines, Knuth's DLX3, SSMCC"))
    print(f"# rounds: {args.rounds}, alternating between the sides; medians")
    print("# their time: the child process's CPU time (reading the DLX text included)")
    print("# ours: this thread's CPU time, from the DLX text (from_dlx + count), and search only")
    print("# ratio: their time over ours for the whole job (above 1: numbadlx is faster)")
    print()
    rows, against = [], []
    with tempfile.TemporaryDirectory(prefix="numbadlx-m-") as workdir:
        for case in CASES:
            if case.name in chosen:
                problem = (case.quick if args.quick else case.build)()
                found, versus = bench_case(
                    case.name, problem, folder, programs, args.rounds, workdir
                )
                rows += found
                against += [versus] if versus else []
    knuth.print_table(rows, HEADER)
    if against:
        print()
        print("Dancing cells next to DLX3 (dancing links), whole job:")
        knuth.print_table(against, VERSUS)
    print()
    print("DLX3 and the dlx engine choose items by the same rule and walk the same tree")
    print("(numbadlx leaves out the one-branch nodes of items that need and can get no")
    print("more); SSMCC and the cells engine each prune in their own way.")
    print(f"# load avg at end: {machine.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "multiplicities", "Algorithm M next to DLX3 and SSMCC"))
