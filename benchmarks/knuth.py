"""numbadlx next to Knuth's own exact-cover programs: DLX1, DLX2 and SSXC1 (SSXCC1).

Knuth's CWEB programs are the reference implementations of Algorithms X and C with
dancing links (DLX1: items and options; DLX2: colours too) and with dancing cells,
his sparse-set structure (SSXC1, and SSXCC1 with colours). This repository ships none
of their code. Build them yourself, outside the repository: ``ctangle`` (Debian's
texlive-binaries) turns each ``.w`` file into C, and they link against ``gb_flip``
from the Stanford GraphBase; put the programs, named ``dlx1``, ``dlx2``, ``ssxc1`` and
``ssxcc1``, in one folder and name it::

    python benchmarks/knuth.py --knuth ../knuth-build
    python benchmarks/knuth.py --knuth ../knuth-build --problems pentominoes6x10 --rounds 5

The problems are those of ``benchmarks/exact_cover.py``. Each is written once as DLX
text (``ExactCover.to_dlx``), the input every program reads. A Knuth program is one
process reading that file from standard input: its time is the child's CPU time (user
plus system, from the operating system's accounting), which includes reading the text
and starting the process (about a millisecond). numbadlx is timed twice on the same
text, as this thread's CPU time: the whole job its user pays (``ExactCover.from_dlx``
then ``count()``) and the search alone (``count()`` on the linked problem). Rounds
alternate between the sides; medians and ranges are printed.

Every side must report the same count, and the node counts are printed next to each
other: DLX1/DLX2 and numbadlx's ``dlx`` engine choose items alike and walk the same
search tree; SSXC1/SSXCC1 and the ``cells`` engine use the same rule but may break ties
in another order, and the table says where their node counts differ.
"""

import argparse
import gc
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

#: Knuth's programs, and the numbadlx engine that walks the same search tree.
#: (program, handles colours, our engine)
PROGRAMS = (
    ("dlx1", False, "dlx"),
    ("dlx2", True, "dlx"),
    ("ssxc1", False, "cells"),
    ("ssxcc1", True, "cells"),
)

_SUMMARY = re.compile(r"Altogether (\d+) solutions?,.*?(\d+) nodes", re.DOTALL)


def run_knuth(program, path):
    """Run one of Knuth's programs on the DLX file ``path``: (count, nodes, CPU s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(path, "rb") as stdin:
        done = subprocess.run([program], stdin=stdin, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    text = done.stderr.decode(errors="replace") + done.stdout.decode(errors="replace")
    found = _SUMMARY.search(text)
    if done.returncode != 0 or found is None:
        tail = text.strip().splitlines()[-1:] or ["(no output)"]
        raise RuntimeError(f"{os.path.basename(program)} failed on {path}: {tail[0]}")
    return int(found.group(1)), int(found.group(2)), seconds


def run_ours(text, engine):
    """numbadlx on DLX text: (count, nodes, CPU s of the whole job, CPU s of the search)."""
    gc.collect()
    gc.disable()
    try:
        start = time.thread_time()
        problem = ExactCover.from_dlx(text)
        problem.engine = engine
        linked = time.thread_time()
        count = problem.count()
        end = time.thread_time()
    finally:
        gc.enable()
    return count, problem.stats.nodes, end - start, end - linked


def _median_range(values):
    return statistics.median(values), min(values), max(values)


def bench_case(case, folder, programs, rounds, workdir):
    """Time every side on ``case``: rows of the table, and the notes."""
    problem = case.build()
    text = problem.to_dlx()
    path = os.path.join(workdir, case.name + ".dlx")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    coloured = problem.colours is not None
    sides = [(name, engine) for name, colours, engine in programs if colours or not coloured]
    engines = sorted({engine for _, engine in sides}, key=["dlx", "cells"].index)
    for engine in engines:  # compile and load outside the timed rounds
        run_ours(text, engine)
    ours = {e: {"total": [], "search": [], "count": None, "nodes": None} for e in engines}
    theirs = {name: {"time": [], "count": None, "nodes": None} for name, _ in sides}
    for _ in range(rounds):
        for engine in engines:
            count, nodes, total, search = run_ours(text, engine)
            ours[engine].update(count=count, nodes=nodes)
            ours[engine]["total"].append(total)
            ours[engine]["search"].append(search)
        for name, _ in sides:
            count, nodes, seconds = run_knuth(os.path.join(folder, name), path)
            theirs[name].update(count=count, nodes=nodes)
            theirs[name]["time"].append(seconds)
    counts = {f"numbadlx-{e}": ours[e]["count"] for e in engines}
    counts.update({name: theirs[name]["count"] for name, _ in sides})
    if len(set(counts.values())) != 1:
        raise AssertionError(f"{case.name}: the counts differ: {counts}")
    if case.expected is not None and ours[engines[0]]["count"] != case.expected:
        raise AssertionError(f"{case.name}: counted {counts}, published {case.expected}")
    rows = []
    for name, engine in sides:
        knuth, low, high = _median_range(theirs[name]["time"])
        total = statistics.median(ours[engine]["total"])
        search = statistics.median(ours[engine]["search"])
        ratios = [k / o for k, o in zip(theirs[name]["time"], ours[engine]["total"])]
        rows.append(
            (
                case.name,
                name.upper(),
                f"{counts[name]:,}",
                f"{theirs[name]['nodes']:,}",
                f"{ours[engine]['nodes']:,}",
                "yes" if theirs[name]["nodes"] == ours[engine]["nodes"] else "no",
                f"{knuth:.3f} ({low:.3f}-{high:.3f})",
                engine,
                f"{total:.3f}",
                f"{search:.3f}",
                f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})",
            )
        )
    return rows


HEADER = (
    "problem",
    "Knuth's",
    "solutions",
    "their nodes",
    "our nodes",
    "same nodes",
    "their CPU s (range)",
    "our engine",
    "our CPU s, from text",
    "our CPU s, search",
    "their time / ours (range)",
)


def print_table(rows, header=HEADER):
    widths = [max(len(str(r[k])) for r in [header, *rows]) for k in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--knuth",
        required=True,
        metavar="DIR",
        help="folder holding Knuth's programs built from his CWEB sources "
        "(dlx1, dlx2, ssxc1, ssxcc1; those missing are left out)",
    )
    names = [c.name for c in exact_cover.CASES]
    parser.add_argument("--problems", default=",".join(names), help=f"of {','.join(names)}")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (median)")
    parser.add_argument("--quick", action="store_true", help="the small version of each problem")
    machine.add_results_option(parser, "knuth")
    args = parser.parse_args()
    folder = os.path.abspath(args.knuth)
    programs = [p for p in PROGRAMS if os.access(os.path.join(folder, p[0]), os.X_OK)]
    if not programs:
        parser.error(f"none of {', '.join(p[0] for p in PROGRAMS)} is an executable in {folder}")
    chosen = args.problems.split(",")
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        parser.error(f"unknown problems: {', '.join(unknown)} (known: {', '.join(names)})")
    cases = [c for c in exact_cover.CASES if c.name in chosen]
    if args.quick:
        cases = [c.quick or c for c in cases]

    print(machine.describe("numbadlx next to Knuth's DLX1, DLX2, SSXC1 and SSXCC1: count all"))
    print(f"# Knuth's programs: {', '.join(p[0].upper() for p in programs)} (gcc -O3)")
    print(f"# rounds: {args.rounds}, alternating between the sides; medians, ranges")
    print("# their time: the child process's CPU time (reading the DLX text included)")
    print("# ours: this thread's CPU time, from the DLX text (from_dlx + count), and search only")
    print("# ratio: their time over ours for the whole job (above 1: numbadlx is faster)")
    print()
    rows = []
    with tempfile.TemporaryDirectory(prefix="numbadlx-knuth-") as workdir:
        for case in cases:
            rows += bench_case(case, folder, programs, args.rounds, workdir)
    print_table(rows)
    print()
    print("Nodes: DLX1/DLX2 are set beside numbadlx's dlx engine, SSXC1/SSXCC1 beside its")
    print("cells engine. Each pair branches on an item with the fewest options left, so")
    print("equal node counts mean the same search tree; where they differ, the pair chose")
    print("different items among equally short ones at some nodes.")
    print(f"# load avg at end: {machine.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "knuth", "Next to Knuth's programs"))
