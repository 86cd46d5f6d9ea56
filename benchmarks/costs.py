"""The cheapest exact cover: numbadlx's ``cheapest()`` next to Knuth's DLX5.

DLX5 is Knuth's program for minimum-cost exact covers (options with ``|c`` costs in
DLX text). This repository ships none of its code: build it yourself outside the
repository as ``benchmarks/knuth.py`` says for the others (``ctangle dlx5.w``, then a C
compiler with ``gb_flip``), put it in a folder as ``dlx5`` and name the folder::

    python benchmarks/costs.py --knuth ../knuth-build
    python benchmarks/costs.py --knuth ../knuth-build --k 4 --rounds 5 --results

The problems are those of ``benchmarks/exact_cover.py``, with option ``k`` (from 0, in
the DLX text's order) costing ``1 + (7919 * k) % 100``. Each side reads the same DLX
text and finds the optimum (``--k K``: DLX5's ``k`` option and ``cheapest(K)``, the K
best). DLX5's time is the child's CPU time (reading the text included); ours is this
thread's CPU time from the text (``from_dlx`` + ``cheapest``), and of the search
alone (``cheapest`` on the read problem). Rounds alternate; medians and ranges. Both
must give the same optimum cost.
"""

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import _siblings  # this folder is still on sys.path here

_siblings.off_path()

from numbadlx import ExactCover  # noqa: E402

machine = _siblings.load("machine")
exact_cover = _siblings.load("exact_cover")
knuth = _siblings.load("knuth")

_NODES = re.compile(r"Altogether \d+ solutions?,.*?(\d+) nodes", re.DOTALL)
_OPTIMUM = re.compile(r"optimum cost is \$(\d+)")


def priced_text(problem):
    """The problem's DLX text with option ``k`` costing ``1 + (7919 * k) % 100``."""
    lines = problem.to_dlx().splitlines()
    head, options = lines[0], [line for line in lines[1:] if not line.startswith("|")]
    priced = [f"{line} |{1 + (7919 * k) % 100}" for k, line in enumerate(options)]
    return "\n".join([head, *priced]) + "\n"


def run_dlx5(program, path, k):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(path, "rb") as stdin:
        args = [program] + ([f"k{k}"] if k > 1 else [])
        done = subprocess.run(args, stdin=stdin, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    text = done.stderr.decode(errors="replace") + done.stdout.decode(errors="replace")
    nodes, optimum = _NODES.search(text), _OPTIMUM.search(text)
    if done.returncode != 0 or nodes is None or optimum is None:
        raise RuntimeError(f"dlx5 failed on {path}: {text.strip().splitlines()[-1:]}")
    return int(optimum.group(1)), int(nodes.group(1)), seconds


def run_ours(text, k):
    """(optimum, nodes, CPU s from the text, CPU s of the search alone)."""
    start = time.thread_time()
    problem = ExactCover.from_dlx(text)
    linked = time.thread_time()
    best = problem.cheapest(k)
    end = time.thread_time()
    return best[0][0], problem.stats.nodes, end - start, end - linked


def _ratio(theirs, ours):
    ratios = [t / max(o, 1e-9) for t, o in zip(theirs, ours)]
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--knuth", required=True, metavar="DIR", help="folder holding dlx5")
    names = [c.name for c in exact_cover.CASES]
    parser.add_argument("--problems", default=",".join(names), help=f"of {','.join(names)}")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (median)")
    parser.add_argument("--k", type=int, default=1, help="the K cheapest (default 1)")
    machine.add_results_option(parser, "costs")
    args = parser.parse_args()
    program = os.path.join(os.path.abspath(args.knuth), "dlx5")
    if not os.access(program, os.X_OK):
        parser.error(f"no executable dlx5 in {args.knuth}")
    cases = [c for c in exact_cover.CASES if c.name in args.problems.split(",")]
    print(machine.describe(f"numbadlx's cheapest({args.k}) next to Knuth's DLX5"))
    print("# option k costs 1 + (7919 * k) % 100, in the DLX text's order")
    print(f"# rounds: {args.rounds}, alternating; medians and ranges of CPU seconds")
    print("# ratio: DLX5's time over ours (above 1: numbadlx is faster)")
    print()
    header = (
        "problem",
        "optimum",
        "DLX5 nodes",
        "our nodes",
        "DLX5 s",
        "our s, from text",
        "our s, search",
        "ratio, from text",
        "ratio, search",
    )
    rows = []
    with tempfile.TemporaryDirectory(prefix="numbadlx-costs-") as workdir:
        for case in cases:
            text = priced_text(case.build())
            path = os.path.join(workdir, case.name + ".dlx")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            run_ours(text, args.k)  # compile and load outside the rounds
            theirs, ours, searches = [], [], []
            for _ in range(args.rounds):
                cost, our_nodes, seconds, search = run_ours(text, args.k)
                ours.append(seconds)
                searches.append(search)
                optimum, their_nodes, their_seconds = run_dlx5(program, path, args.k)
                theirs.append(their_seconds)
                if optimum != cost:
                    raise AssertionError(f"{case.name}: DLX5 says ${optimum}, numbadlx ${cost}")
            rows.append(
                (
                    case.name,
                    f"${cost}",
                    f"{their_nodes:,}",
                    f"{our_nodes:,}",
                    f"{statistics.median(theirs):.4f}",
                    f"{statistics.median(ours):.4f}",
                    f"{statistics.median(searches):.4f}",
                    _ratio(theirs, ours),
                    _ratio(theirs, searches),
                )
            )
    knuth.print_table(rows, header)
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "costs", "The cheapest cover, next to DLX5"))
