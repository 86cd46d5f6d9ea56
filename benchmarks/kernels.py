"""The search kernels (Algorithms X, C and M) against the baseline kernels of commit
5b9c15b, side by side in one process, plus what two threads gain now that the
kernels release the GIL.

Run by hand (not in CI), from the repository (it reads the baseline with ``git show``)::

    python benchmarks/kernels.py
    python benchmarks/kernels.py --quick                   # smoke run: small problems
    python benchmarks/kernels.py --rounds 9 --clock wall
    python benchmarks/kernels.py --dlx3 /path/to/dlx3      # also Knuth's DLX3, for M

Method
------
* The baseline's four kernel files (``_links.py``, ``_kernel.py``, ``_kernel_c.py``,
  ``_kernel_m.py`` at 5b9c15b) are written into a package of their own in the temporary
  folder and imported next to today's ``numbadlx.core.kernels``; the baseline's
  ``build_links`` must build the very tables numbadlx builds (checked), and both
  kernels then search copies of those tables with the same arguments.
* Only the kernel call is timed (one call per run, no node budget, so no Python in
  between). Every kernel is run once before timing, so nothing is compiled or loaded
  from Numba's cache inside a timed run. Rounds alternate (one run of every kernel on
  every problem per round, old and new in turns); each cell is the median over the
  rounds. ``--clock cpu`` (the default) is the thread's CPU time, as this machine is
  shared; ``--clock wall`` is ``time.perf_counter``.
* X and C must visit exactly the same nodes, make the same updates and find the same
  solutions as the baseline (printed, and checked). Algorithm M now chooses its items
  as DLX3 does, so its node counts differ (printed); its solutions must not.
* Threads: the same counting job twice, first one after the other, then in two
  threads at once (wall time, median of the rounds), with today's kernels and with the
  baseline's; speed-up = one after the other / at once. With the GIL held (the
  baseline) two threads cannot do better than 1.0; with 2 free cores, 2.0 is the
  ceiling. "cores busy" is this process's CPU time over the wall time while the two
  threads run: about 1 when they take turns, up to 2 when they run at once (less when
  other processes hold a core, whatever the kernels do).
* ``--dlx3 PATH``: run Knuth's DLX3 (built from dlx3.w by the user; not part of this
  project) on ``problem.to_dlx()`` of the M problems and print its node counts beside
  ours and the baseline's.
"""

import argparse
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import cases
import machine
import numpy as np
from machine import describe, load_average

from numbadlx import problems
from numbadlx.core.search import Search

BASELINE = "5b9c15b"
BASELINE_FILES = ("_links.py", "_kernel.py", "_kernel_c.py", "_kernel_m.py")
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ----------------------------------------------------------------------------------
# The baseline kernels
# ----------------------------------------------------------------------------------


def load_baseline(revision=BASELINE):
    """Import the baseline's kernel modules from ``git show`` as package
    ``numbadlx_<revision>``, kept in the temporary folder (so that Numba's cache of
    them survives from one run to the next)."""
    name = f"numbadlx_{revision}"
    folder = os.path.join(tempfile.gettempdir(), "numbadlx-baseline-kernels")
    package = os.path.join(folder, name)
    os.makedirs(package, exist_ok=True)
    sources = {"__init__.py": f'"""numbadlx kernels at {revision} (benchmarks/kernels.py)."""\n'}
    for filename in BASELINE_FILES:
        sources[filename] = subprocess.run(
            ["git", "-C", _ROOT, "show", f"{revision}:numbadlx/{filename}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    for filename, text in sources.items():
        path = os.path.join(package, filename)
        try:
            with open(path) as f:
                same = f.read() == text
        except OSError:
            same = False
        if not same:  # rewrite only on change: an unchanged file keeps its Numba cache
            with open(path, "w") as f:
                f.write(text)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import importlib

    return {
        short: importlib.import_module(f"{name}.{module}")
        for short, module in (
            ("links", "_links"),
            ("x", "_kernel"),
            ("c", "_kernel_c"),
            ("m", "_kernel_m"),
        )
    }


# ----------------------------------------------------------------------------------
# Problems
# ----------------------------------------------------------------------------------


# (algorithm, (name, build), (name, build) for --quick)
CASES = [
    ("X", ("queens12", lambda: problems.n_queens(12)), ("queens9", lambda: problems.n_queens(9))),
    (
        "X",
        ("langford11", lambda: problems.langford(11)),
        ("langford8", lambda: problems.langford(8)),
    ),
    (
        "X",
        ("pentominoes6x10", lambda: problems.pentominoes(6, 10)),
        ("pentominoes3x20", lambda: problems.pentominoes(3, 20)),
    ),
    (
        "C",
        ("words3", lambda: problems.word_square(3)),
        ("words3-150", lambda: problems.word_square(3, problems.WORDS3[:150])),
    ),
    (
        "C",
        ("ws4-160", lambda: cases.word_squares(4, 160)),
        ("ws4-80", lambda: cases.word_squares(4, 80)),
    ),
    (
        "C",
        ("crossword5-100", lambda: cases.crossword(100)),
        ("crossword5-60", lambda: cases.crossword(60)),
    ),
    (
        "M",
        ("queens13-M", lambda: problems.k_per_row_and_column(13, 1, 1)),
        ("queens9-M", lambda: problems.k_per_row_and_column(9, 1, 1)),
    ),
    (
        "M",
        ("dominoes8x8-h16", lambda: problems.domino_tilings(8, 8, horizontal=16)),
        ("dominoes6x6-h8", lambda: problems.domino_tilings(6, 6, horizontal=8)),
    ),
]

# More M problems for --dlx3
DLX3_EXTRA = [
    (
        "M",
        ("2-per-line-7", lambda: problems.k_per_row_and_column(7, 2)),
        ("2-per-line-5", lambda: problems.k_per_row_and_column(5, 2)),
    ),
    (
        "M",
        ("2-per-line-8-diag2", lambda: problems.k_per_row_and_column(8, 2, 2)),
        ("2-per-line-6-diag2", lambda: problems.k_per_row_and_column(6, 2, 2)),
    ),
    (
        "M",
        ("3-per-line-7-diag2", lambda: problems.k_per_row_and_column(7, 3, 2)),
        ("3-per-line-6-diag2", lambda: problems.k_per_row_and_column(6, 3, 2)),
    ),
    (
        "M",
        ("queens10-M", lambda: problems.k_per_row_and_column(10, 1, 1)),
        ("queens8-M", lambda: problems.k_per_row_and_column(8, 1, 1)),
    ),
    (
        "M",
        ("dominoes7x8-h10-14", lambda: problems.domino_tilings(7, 8, horizontal=(10, 14))),
        ("dominoes4x6-h2-4", lambda: problems.domino_tilings(4, 6, horizontal=(2, 4))),
    ),
    (
        "M",
        ("dominoes6x7-h0-9", lambda: problems.domino_tilings(6, 7, horizontal=(0, 9))),
        ("dominoes5x6-h4-9", lambda: problems.domino_tilings(5, 6, horizontal=(4, 9))),
    ),
]


def pick(cases, quick):
    """``(kind, name, problem)`` for each case, at the size asked for."""
    chosen = []
    for kind, full, small in cases:
        name, build = small if quick else full
        chosen.append((kind, name, build()))
    return chosen


class Job:
    """One problem with its new and baseline kernel, and fresh arguments per run."""

    def __init__(self, name, kind, problem, baseline):
        if problem.algorithm != kind:
            raise AssertionError(f"{name}: numbadlx picks {problem.algorithm}, not {kind}")
        self.name, self.kind, self.problem = name, kind, problem
        template = Search(problem)
        self.new = template.kernel
        self.old = {
            "X": baseline["x"].search,
            "C": baseline["c"].search,
            "M": baseline["m"].search,
        }[kind]
        self._check_tables(baseline["links"])

    def _check_tables(self, links):
        """The baseline's builder must make the tables numbadlx makes today."""
        p = self.problem
        internal = np.empty(p.n_items, dtype=np.int32)  # caller's item -> internal item
        internal[p.item_order] = np.arange(p.n_items, dtype=np.int32)
        indices = internal[p.indices]
        colours = p.colours if p.colours is not None else np.zeros(0, dtype=np.int32)
        nodes, items = links.build_links(
            p.indptr, indices, colours, p.n_items, p.n_primary, np.zeros(1, dtype=np.uint32)
        )
        today_nodes, today_items = p.links()  # (transposed copies)
        if not (np.array_equal(nodes.T, today_nodes) and np.array_equal(items.T, today_items)):
            raise AssertionError(f"{self.name}: the baseline builds other tables")

    def arguments(self):
        """Fresh tables and state: the kernel's arguments for a search from scratch."""
        s = Search(self.problem)
        record = np.zeros((0, s.width), dtype=np.int32)
        return (
            s.nodes,
            s.items,
            s.n_items,
            s.choice,
            s.state,
            0,
            0,
            record,
            s.stats,
            s.trace,
            *s.extra,
        )

    def run(self, kernel, clock):
        """Run ``kernel`` from scratch: ``(seconds, nodes, updates, solutions)``."""
        args = self.arguments()
        stats = args[8]
        gc.collect()
        gc.disable()
        try:
            start = clock()
            code, found = kernel(*args)
            seconds = clock() - start
        finally:
            gc.enable()
        assert code == 0 and found == stats[2]
        return seconds, int(stats[0]), int(stats[1]), int(stats[2])


# ----------------------------------------------------------------------------------
# Measurements
# ----------------------------------------------------------------------------------


def compare(jobs, rounds, clock):
    times = {(job.name, side): [] for job in jobs for side in ("old", "new")}
    effort = {}
    for job in jobs:  # warm: compile or load both kernels outside the timer
        for side in ("old", "new"):
            effort[job.name, side] = job.run(getattr(job, side), clock)[1:]
    for round_ in range(rounds):
        order = ("old", "new") if round_ % 2 == 0 else ("new", "old")
        for job in jobs:
            for side in order:
                seconds, *counts = job.run(getattr(job, side), clock)
                if tuple(counts) != effort[job.name, side]:
                    raise AssertionError(f"{job.name} {side}: effort changed between runs")
                times[job.name, side].append(seconds)
    rows = []
    for job in jobs:
        old_t = statistics.median(times[job.name, "old"])
        new_t = statistics.median(times[job.name, "new"])
        old_e, new_e = effort[job.name, "old"], effort[job.name, "new"]
        if old_e[2] != new_e[2]:
            raise AssertionError(f"{job.name}: solutions differ: {old_e[2]} vs {new_e[2]}")
        if job.kind in "XC" and old_e != new_e:
            raise AssertionError(f"{job.name}: X/C effort differs: {old_e} vs {new_e}")
        same = "same" if old_e[:2] == new_e[:2] else f"{new_e[0] / old_e[0]:.3f}"
        rows.append(
            [
                job.name,
                job.kind,
                f"{new_e[2]:,}",
                f"{old_e[0]:,}",
                f"{new_e[0]:,}",
                f"{old_e[1]:,}",
                f"{new_e[1]:,}",
                same,
                f"{old_t:.3f}",
                f"{new_t:.3f}",
                f"{new_t / old_t:.3f}",
            ]
        )
    table(
        [
            "problem",
            "alg",
            "solutions",
            "nodes old",
            "nodes new",
            "updates old",
            "updates new",
            "new/old eff",
            "old s",
            "new s",
            "new/old t",
        ],
        rows,
    )


def threads(job, rounds):
    """Wall seconds of ``job`` twice one after the other and twice in two threads."""
    rows = []
    for side in ("old", "new"):
        kernel = getattr(job, side)
        job.run(kernel, time.perf_counter)  # warm
        serial, parallel, busy = [], [], []
        for _ in range(rounds):
            a, b = job.arguments(), job.arguments()
            start = time.perf_counter()
            kernel(*a)
            kernel(*b)
            serial.append(time.perf_counter() - start)
            a, b = job.arguments(), job.arguments()
            workers = [threading.Thread(target=kernel, args=args) for args in (a, b)]
            start, cpu = time.perf_counter(), time.process_time()
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            parallel.append(time.perf_counter() - start)
            busy.append((time.process_time() - cpu) / parallel[-1])
            if not (a[8][2] == b[8][2] and a[8][0] == b[8][0]):
                raise AssertionError("the two threads disagree")
        s, p = statistics.median(serial), statistics.median(parallel)
        label = "baseline (GIL held)" if side == "old" else "today (nogil)"
        rows.append(
            [
                f"{job.name} x2",
                label,
                f"{s:.3f}",
                f"{p:.3f}",
                f"{s / p:.2f}",
                f"{statistics.median(busy):.2f}",
            ]
        )
    # the public API: ExactCover.count in two threads (Python between kernel slices)
    job.problem.count()
    serial, parallel, busy = [], [], []
    for _ in range(rounds):
        start = time.perf_counter()
        counts = [job.problem.count(), job.problem.count()]
        serial.append(time.perf_counter() - start)
        out = []
        workers = [threading.Thread(target=_count_into, args=(job.problem, out)) for _ in range(2)]
        start, cpu = time.perf_counter(), time.process_time()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        parallel.append(time.perf_counter() - start)
        busy.append((time.process_time() - cpu) / parallel[-1])
        if out != counts:
            raise AssertionError("the two threads disagree")
    s, p = statistics.median(serial), statistics.median(parallel)
    rows.append(
        [
            f"{job.name} x2",
            "today, ExactCover.count",
            f"{s:.3f}",
            f"{p:.3f}",
            f"{s / p:.2f}",
            f"{statistics.median(busy):.2f}",
        ]
    )
    table(
        ["job", "kernels", "one after the other s", "two threads s", "speed-up", "cores busy"], rows
    )


def _count_into(problem, out):
    out.append(problem.count())


def dlx3_nodes(binary, problem):
    """``(solutions, nodes)`` of Knuth's DLX3 on ``problem``."""
    done = subprocess.run(
        [binary], input=problem.to_dlx(), capture_output=True, text=True, check=True
    )
    found = re.search(r"Altogether (\d+) solutions?,.*? (\d+) nodes", done.stderr, re.S)
    if not found:
        raise RuntimeError(f"cannot read DLX3's statistics from: {done.stderr[-300:]}")
    return int(found.group(1)), int(found.group(2))


def versus_dlx3(binary, cases, baseline):
    rows = []
    for name, problem in cases:
        job = Job(name, "M", problem, baseline)
        solutions, nodes = dlx3_nodes(binary, problem)
        _, old_nodes, _, old_solutions = job.run(job.old, time.perf_counter)
        _, new_nodes, _, new_solutions = job.run(job.new, time.perf_counter)
        if not solutions == old_solutions == new_solutions:
            raise AssertionError(
                f"{name}: solutions differ: DLX3 {solutions}, "
                f"old {old_solutions}, new {new_solutions}"
            )
        rows.append(
            [
                name,
                f"{solutions:,}",
                f"{nodes:,}",
                f"{new_nodes:,}",
                f"{old_nodes:,}",
                f"{new_nodes / nodes:.4f}",
                f"{old_nodes / nodes:.4f}",
            ]
        )
    table(
        ["problem", "solutions", "DLX3 nodes", "new nodes", "old nodes", "new/DLX3", "old/DLX3"],
        rows,
    )


def table(head, rows):
    widths = [max(len(h), *(len(row[k]) for row in rows)) for k, h in enumerate(head)]

    def line(cells):
        return "  ".join(
            c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(cells, widths))
        )

    print(line(head))
    print(line(["-" * w for w in widths]))
    for row in rows:
        print(line(row))
    print(flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--quick", action="store_true", help="small problems, 1 round")
    parser.add_argument(
        "--dlx3",
        metavar="PATH",
        help="Knuth's DLX3 binary, to compare Algorithm M's node counts with",
    )
    machine.add_results_option(parser, "kernels")
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else args.rounds
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    print(describe(f"numbadlx kernels: X, C and M against the baseline {BASELINE}"))
    print(
        f"# median of {rounds} alternating rounds, {args.clock} time of the kernel call;"
        f" new/old < 1: today is faster"
    )
    print(flush=True)
    baseline = load_baseline()
    jobs = [Job(name, kind, problem, baseline) for kind, name, problem in pick(CASES, args.quick)]
    compare(jobs, rounds, clock)
    queens = Job(
        "queens11" if args.quick else "queens13",
        "X",
        problems.n_queens(11 if args.quick else 13),
        baseline,
    )
    threads(queens, max(rounds, 3))
    if args.dlx3:
        cases = [
            (name, problem)
            for kind, name, problem in pick(
                [case for case in CASES if case[0] == "M"] + DLX3_EXTRA, args.quick
            )
        ]
        versus_dlx3(args.dlx3, cases, baseline)
    print(f"# load avg at end {load_average()}")


if __name__ == "__main__":
    machine.run(main, "kernels", "The exact-cover kernels against the baseline")
