"""The Sudoku engines (Dancing Links "dlx", candidate bit masks "bits", band masks "bands")
against tdoku.

Run by hand (not in CI)::

    python benchmarks/engines.py --tdoku /path/to/run_benchmark --rust-sudoku /path/to/sudoku
    python benchmarks/engines.py --quick              # smoke run, no tdoku needed

``run_benchmark`` is tdoku's own benchmark program, built by you from the
t-dillon/tdoku sources (and its fsss2 submodule) with tdoku's own CMake build, outside
this repository; without ``--tdoku``, or when the path does not exist, its columns are
skipped with a message. ``--rust-sudoku`` names the directory of the Rust crate
``sudoku``'s sources (Emerentius/sudoku, fetched by you): ``rust_sudoku.py`` builds a
small harness of ours around it into a temporary directory (or ``--rust-build``), and
its column joins the datasets table the same way.

Four tables, each measured in one run:

1. **Datasets, one thread, limit 2** (uniqueness proven). Every side gets the whole
   file: numbadlx as one array (``sudoku.solve(puzzles, limit=2, threads=1,
   engine=...)``, all of it timed: checks, search, solutions), and with ``--tdoku``,
   tdoku's ``run_benchmark`` on the same puzzles written with ``.`` blanks (``-r0`` not
   permuted, ``-n`` = the file's size, one thread, limit 2; it parses the text inside
   its time), running tdoku and the other compiled solvers of ``--compiled`` (jsolve,
   fsss2) in one call per round. Every side times whole passes over at least
   ``--tdoku-seconds``. Rounds alternate the sides (order reversed every other round);
   rates are medians over rounds. A second table sets "bands" beside each compiled
   solver: the ratio is the median of the per-round ratios of bands' rate to the
   solver's, printed with their range (the machine's 2 cores are shared), against the
   targets (at least 1.0 of each). rust_sudoku's counts of puzzles with 0, 1 and 2
   solutions are checked against ours. Guesses per puzzle: each compiled
   solver's own count (its branch points), ours the search levels with two or more
   candidates (``SudokuResult.guesses``).
2. **Threads**: the ``auto`` engine on each set with 1 and 2 threads, alternating, each
   timed over whole passes of at least ``--tdoku-seconds``; the ratio is the median of
   the per-round ratios, with their range.
3. **Large grids**: the 16x16 and 25x25 files, one thread, limit 2, each engine with a
   node budget (``--large-budget``), alternating: seconds for the whole file (median),
   nodes per puzzle (mean and largest) and statuses.
4. **Shapes** 4x4 .. 36x36 (every box shape ``--shapes`` lists): random full grids
   with random holes, limit 2, every engine of the shape, alternating; "auto" is the engine
   :func:`numbadlx.sudoku.pick_engine` chooses, and "auto / dlx" compares it with the
   DLX engine (the only engine before the bit masks).
"""

import argparse
import math
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402
from rust_sudoku import build as build_rust_sudoku  # noqa: E402
from rust_sudoku import run_rust_sudoku  # noqa: E402
from sudoku import DATASETS, data_dir, load  # noqa: E402
from tdoku import run_tdoku, solvers_built  # noqa: E402

from numbadlx import sudoku  # noqa: E402

SETS = ("sudoku17", "serg_benchmark", "kaggle", "top1465", "forum_hardest_1106")
# tdoku's solvers run beside "bands" (those built into run_benchmark), and the targets:
# bands' rate over the solver's, on every set, one thread, limit 2
COMPILED = ("tdoku", "jsolve", "fsss2", "fsss")
TARGETS = {"tdoku": 1.0, "jsolve": 1.0, "fsss2": 1.0, "fsss": 1.0, "rust_sudoku": 1.0}
ENGINES = ("dlx", "bits", "bands")  # "bands" only on the 9x9 sets and the 9x9 (3x3) shape


def engines_for(n, box=None):
    """The engines that solve this shape."""
    classic = n == 9 and tuple(sudoku.box_shape(n, box)) == (3, 3)
    return ENGINES if classic else ENGINES[:2]


SHAPES = (
    "4:2x2,6:2x3,8:2x4,9:3x3,10:2x5,12:3x4,15:3x5,16:4x4,20:4x5,24:4x6,25:5x5,"
    "28:4x7,30:5x6,32:4x8,35:5x7,36:6x6"
)


# the clock of our side: the wall clock, or with --cpu-time this process's CPU time (the
# compiled peers are then converted by their own CPU share, see tdoku.run_measured)
CLOCK = {"now": time.perf_counter, "cpu": False}


def time_solve(puzzles, min_seconds=0.0, clock=None, **options):
    """``(seconds per pass, result)``: whole passes of ``sudoku.solve`` over the puzzles
    until ``min_seconds`` are timed (one pass at least), by ``clock`` (default: the
    clock :data:`CLOCK` names)."""
    passes = 0
    now = clock or CLOCK["now"]
    start = now()
    while True:
        result = sudoku.solve(puzzles, **options)
        passes += 1
        took = now() - start
        if took >= min_seconds:
            return took / passes, result


def fmt(value, digits=0):
    return f"{value:,.{digits}f}"


def print_table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if k == 0 else "---:" for k in range(len(header))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |", flush=True)
    print()


def bench_datasets(names, rounds, tdoku, tdoku_seconds, compiled=(), rust=None):
    """The datasets table, and with ``tdoku``, the table of "bands" against the compiled
    solvers ``compiled`` (tdoku's ids), all run by one ``run_benchmark`` per round, and
    with ``rust`` (the harness binary) rust_sudoku beside them."""
    peers = (*compiled, *(["rust_sudoku"] if rust else []))
    rows = []
    peer_rows = []
    for name in names:
        puzzles = load(name)
        size = len(puzzles)
        dotted = None
        if tdoku or rust:
            handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
            with handle:
                handle.write("\n".join(sudoku.format_lines(puzzles, blank=".")) + "\n")
            dotted = handle.name
        seconds = {side: [] for side in (*ENGINES, *peers)}
        rust_counts = None
        peer_guesses = {}
        results = {}
        for engine in ENGINES:
            sudoku.solve(puzzles[:20], limit=2, threads=1, engine=engine)  # compile/load
        for k in range(rounds):
            order = [*ENGINES, *(["compiled"] if tdoku else []), *(["rust"] if rust else [])]
            if k % 2:
                order.reverse()
            for side in order:
                if side == "compiled":
                    measured = run_tdoku(
                        tdoku,
                        dotted,
                        size,
                        solvers=",".join(compiled),
                        seconds=tdoku_seconds,
                        cpu=CLOCK["cpu"],
                    )
                    for solver in compiled:
                        micros, peer_guesses[solver] = measured[solver]
                        seconds[solver].append(micros * 1e-6 * size)
                elif side == "rust":
                    micros, rust_counts = run_rust_sudoku(
                        rust, dotted, seconds=tdoku_seconds, warmup=1, cpu=CLOCK["cpu"]
                    )
                    peer_guesses["rust_sudoku"] = math.nan
                    seconds["rust_sudoku"].append(micros * 1e-6 * size)
                else:
                    took, results[side] = time_solve(
                        puzzles, tdoku_seconds, limit=2, threads=1, engine=side
                    )
                    seconds[side].append(took)
        if dotted:
            Path(dotted).unlink()
        dlx = results["dlx"]
        same = all(
            np.array_equal(dlx.status, r.status) and np.array_equal(dlx.counts, r.counts)
            for r in results.values()
        )
        rate = {side: size / statistics.median(t) for side, t in seconds.items() if t}
        row = [name, fmt(size)]
        for engine in ENGINES:
            result = results[engine]
            row += [fmt(rate[engine]), fmt(result.guesses.mean(), 1), fmt(result.nodes.mean(), 1)]
        row += [f"{rate['bands'] / rate['bits']:.2f}", "yes" if same else "NO"]
        rows.append(row)
        if rust_counts is not None:
            ours = tuple(int((results["bands"].counts == c).sum()) for c in (0, 1, 2))
            if ours != rust_counts:
                print(f"# {name}: rust_sudoku's 0/1/2-solution counts {rust_counts} != {ours}")
        if peers:
            bands = results["bands"]
            peer_row = [name, fmt(rate["bands"]), fmt(bands.guesses.mean(), 1)]
            for solver in peers:
                # per round: bands' rate over the solver's (its time over ours)
                ratios = [t / b for t, b in zip(seconds[solver], seconds["bands"])]
                ratio = statistics.median(ratios)
                target = TARGETS.get(solver)
                verdict = ""
                if target is not None:
                    verdict = " met" if ratio >= target else " missed"
                peer_row += [
                    fmt(rate[solver]),
                    "n/a" if math.isnan(peer_guesses[solver]) else fmt(peer_guesses[solver], 1),
                    f"{ratio:.2f} ({min(ratios):.2f}-{max(ratios):.2f}){verdict}",
                ]
            peer_rows.append(peer_row)
    header = ["dataset", "puzzles"]
    for engine in ENGINES:
        header += [f"{engine} puzzles/s", f"{engine} guesses", f"{engine} nodes"]
    header += ["bands / bits", "same status and counts"]
    print("Datasets: one thread, limit 2 (puzzles/s; guesses and nodes per puzzle)\n")
    print_table(header, rows)
    if peers:
        header = ["dataset", "bands puzzles/s", "bands guesses"]
        for solver in peers:
            goal = TARGETS.get(solver)
            aim = f"; target {goal:g}" if goal is not None else ""
            header += [
                f"{solver} puzzles/s",
                f"{solver} guesses",
                f"bands / {solver} (range{aim})",
            ]
        print(
            "Against the compiled solvers of tdoku's run_benchmark, same files, same rounds: "
            "one thread, limit 2 (puzzles/s; guesses per puzzle; a ratio is bands' rate "
            "over the solver's, median of the per-round ratios)\n"
        )
        print_table(header, peer_rows)


def bench_threads(names, rounds, min_seconds):
    rows = []
    for name in names:
        puzzles = load(name)
        # the kernel is compiled (or loaded) before the clock runs: a rate excludes
        # compile time
        for threads in (1, 2):
            sudoku.solve(puzzles, limit=2, threads=threads)
        times = {1: [], 2: []}
        for k in range(rounds):
            for threads in (1, 2) if k % 2 == 0 else (2, 1):
                # the wall clock always: two threads' CPU time is their sum
                took, result = time_solve(
                    puzzles, min_seconds, time.perf_counter, limit=2, threads=threads
                )
                times[threads].append(took)
        one, two = (len(puzzles) / statistics.median(times[t]) for t in (1, 2))
        ratios = [a / b for a, b in zip(times[1], times[2])]
        ratio = statistics.median(ratios)
        verdict = "met" if ratio >= 1.85 else "missed"
        spread = f"{ratio:.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        rows.append([name, result.engine, fmt(one), fmt(two), spread, verdict])
    print("Threads: engine auto, limit 2 (puzzles/s; target 2 threads >= 1.85x one)\n")
    print_table(["dataset", "engine", "1 thread", "2 threads", "2 / 1 (range)", "1.85x"], rows)


LARGE = ("sudoku16x16_100.txt", "sudoku25x25.txt")


def bench_large(rounds, budget):
    rows = []
    for name in LARGE:
        path = data_dir() / name
        if not path.is_file():
            print(f"# large grids: {path} not found, skipped")
            continue
        puzzles = sudoku.parse(path)
        size = len(puzzles)
        n = math.isqrt(puzzles.shape[1])
        engines = engines_for(n)
        times = {engine: [] for engine in engines}
        results = {}
        for engine in engines:
            sudoku.solve(puzzles[:1], limit=2, threads=1, engine=engine, max_nodes=1)  # load
        for k in range(rounds):
            for engine in engines if k % 2 == 0 else engines[::-1]:
                took, results[engine] = time_solve(
                    puzzles, limit=2, threads=1, engine=engine, max_nodes=budget
                )
                times[engine].append(took)
        for engine in engines:
            result = results[engine]
            statuses = ", ".join(f"{c} {k}" for k, c in result.status_counts().items())
            rows.append(
                [
                    f"{name} ({n}x{n}, {size})",
                    engine + (" (auto)" if engine == sudoku.pick_engine("auto", n) else ""),
                    f"{statistics.median(times[engine]):.3f}",
                    fmt(result.nodes.mean(), 1),
                    fmt(result.nodes.max()),
                    statuses,
                ]
            )
    print(f"Large grids: one thread, limit 2, max_nodes {budget:,} (seconds for the file)\n")
    print_table(["file", "engine", "seconds", "nodes", "most nodes", "statuses"], rows)


def shape_puzzles(n, box, count, seed):
    """Random full grids with random holes (half the cells up to 16x16, a third above)."""
    rng = np.random.default_rng(seed)
    share = 0.5 if n <= 16 else 1 / 3
    out = np.empty((count, n * n), dtype=np.uint8)
    for k in range(count):
        grid = sudoku.random_grid(n, box=box, seed=int(rng.integers(1 << 30)))
        grid[rng.random(n * n) < share] = 0
        out[k] = grid
    return out


def bench_shapes(spec, rounds, budget):
    rows = []
    for item in spec.split(","):
        size, shape = item.split(":")
        n = int(size)
        box = tuple(int(v) for v in shape.split("x"))
        count = 2000 if n <= 9 else 300 if n <= 16 else 40
        puzzles = shape_puzzles(n, box, count, seed=n)
        engines = engines_for(n, box)
        times = {engine: [] for engine in engines}
        results = {}
        for engine in engines:
            sudoku.solve(puzzles[:2], box=box, engine=engine)  # compile/load
        for k in range(rounds):
            for engine in engines if k % 2 == 0 else engines[::-1]:
                took, results[engine] = time_solve(
                    puzzles, 0.3, limit=2, box=box, threads=1, engine=engine, max_nodes=budget
                )
                times[engine].append(took)
        rate = {e: count / statistics.median(t) for e, t in times.items()}
        auto = sudoku.pick_engine("auto", n, box)
        budget_hits = {e: int((results[e].status == sudoku.Status.BUDGET).sum()) for e in engines}
        rows.append(
            [
                f"{n}x{n} ({box[0]}x{box[1]})",
                str(count),
                fmt(rate["dlx"]),
                fmt(rate["bits"]),
                fmt(rate["bands"]) if "bands" in rate else "",
                f"{rate['bits'] / rate['dlx']:.2f}",
                " / ".join(str(budget_hits[e]) for e in engines),
                auto,
                "1 (same engine)" if auto == "dlx" else f"{rate[auto] / rate['dlx']:.2f}",
            ]
        )
    print(
        f"Shapes: random grids with holes, one thread, limit 2, max_nodes {budget:,} (puzzles/s)\n"
    )
    header = ["shape", "puzzles", "dlx", "bits", "bands", "bits / dlx", "BUDGET per engine"]
    print_table([*header, "auto", "auto / dlx"], rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tdoku", help="path of tdoku's run_benchmark (built by you from tdoku's sources)"
    )
    parser.add_argument(
        "--tdoku-seconds",
        type=int,
        default=1,
        help="run_benchmark -t, and the least time each of our measurements runs",
    )
    parser.add_argument(
        "--rust-sudoku", help="directory of the Rust crate sudoku's sources (fetched by you)"
    )
    parser.add_argument(
        "--rust-build", help="where to build the rust_sudoku harness (default: a temp dir)"
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time CPU, not the wall clock (ours: this process; peers: their wall time "
        "times their CPU share); for a machine shared with other work",
    )
    parser.add_argument("--sets", default=",".join(SETS), help='comma-separated; "" for none')
    parser.add_argument(
        "--compiled",
        default=",".join(COMPILED),
        help="tdoku's solver ids to run beside bands (those built; tdoku always)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shapes", default=SHAPES, help="n:RxC list, or 'none'")
    parser.add_argument("--shape-budget", type=int, default=100_000, help="max_nodes per puzzle")
    parser.add_argument("--large-budget", type=int, default=5_000_000, help="max_nodes per puzzle")
    parser.add_argument("--no-threads", action="store_true", help="skip the threads table")
    parser.add_argument("--no-large", action="store_true", help="skip the large grids table")
    parser.add_argument("--quick", action="store_true", help="smoke run: top1465, 1 round")
    machine.add_results_option(parser, "engines")
    args = parser.parse_args(argv)
    if args.quick:
        args.sets, args.rounds, args.shapes = "top1465", 1, "4:2x2,9:3x3,16:4x4"
        args.large_budget = min(args.large_budget, 200_000)
    names = [s for s in args.sets.split(",") if s]
    unknown = [s for s in names if s not in DATASETS]
    if unknown:
        parser.error(f"unknown sets {unknown}; known: {', '.join(DATASETS)}")
    if args.cpu_time:
        CLOCK.update(now=time.process_time, cpu=True)
    print(machine.describe("numbadlx Sudoku engines against tdoku"))
    given = argv if argv is not None else sys.argv[1:]
    print(f"# command: python benchmarks/engines.py {shlex.join(given)}")
    print(f"# numba threads available: {numba.config.NUMBA_NUM_THREADS}; rounds {args.rounds}")
    clock = "CPU time (peers: wall time x CPU share)" if args.cpu_time else "wall clock"
    print(f"# clock: {clock}")
    tdoku = args.tdoku
    if tdoku and not Path(tdoku).is_file():
        print(f"# tdoku columns skipped: no run_benchmark at {tdoku}")
        tdoku = None
    elif not tdoku:
        print("# tdoku columns skipped: no --tdoku given")
    compiled = ()
    if tdoku:
        built = solvers_built(tdoku)
        wanted = [s for s in args.compiled.split(",") if s]
        compiled = tuple(s for s in wanted if s in built)
        left_out = [s for s in wanted if s not in built]
        if "tdoku" not in compiled:
            compiled = ("tdoku", *compiled)
        print(f"# compiled solvers: {', '.join(compiled)}")
        if left_out:
            print(f"# not built into run_benchmark, left out: {', '.join(left_out)}")
    rust = None
    if args.rust_sudoku:
        build_dir = args.rust_build or tempfile.mkdtemp(prefix="rust_sudoku_")
        rust = build_rust_sudoku(args.rust_sudoku, build_dir)
        print(f"# rust_sudoku: the crate at {args.rust_sudoku}, harness built in {build_dir}")
    print()
    if names:  # --sets "" skips the datasets and threads tables
        bench_datasets(names, args.rounds, tdoku, args.tdoku_seconds, compiled, rust)
        if not args.no_threads:
            bench_threads(names, args.rounds, args.tdoku_seconds)
    if not args.no_large:
        bench_large(args.rounds, args.large_budget)
    if args.shapes != "none":
        bench_shapes(args.shapes, args.rounds, args.shape_budget)
    print(f"# load avg at end: {machine.load_average()}")


if __name__ == "__main__":
    machine.run(main, "engines", "Sudoku engines against tdoku")
