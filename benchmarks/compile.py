"""First use: how long a command takes with an empty Numba cache, and with a warm one.

Run by hand (any venv with numbadlx)::

    python benchmarks/compile.py              # every figure, 3 rounds each
    python benchmarks/compile.py --rounds 1   # one round (compile figures are slow)
    python benchmarks/compile.py --only solve # the figures whose name holds "solve"

The first table is README command 1 as a new user meets it: ``numbadlx solve`` (the
built-in sample, the installed command when there is one beside this Python, else
``python -m numbadlx solve``), run exactly so, in a fresh process with an empty
``NUMBA_CACHE_DIR``, its messages on: the wall time from start to exit, each round.

Every figure of the next table is one fresh process (``python -m numbadlx ...``) with
an empty ``NUMBA_CACHE_DIR`` of its own, so the kernels it needs are compiled from
scratch: what a new user waits for on the first call. The second table runs the same
commands again against the cache the first left behind (loading, not compiling), and
the cold start of the package: ``import numbadlx`` and ``numbadlx --help``.

Each figure is the median over ``--rounds`` rounds, the commands alternated within a
round, as wall-clock seconds and as CPU seconds of the child process (on a shared
machine the wall time also counts waiting for a core; the CPU time does not). The
target column is the goal the package is held to on an idle machine, where wall time
is about the CPU time (compiling runs on one thread): "met" compares the CPU time.

The puzzles are made here from one pattern grid per box shape with cells blanked (no
dataset needed); ``rate`` reads the first 20 puzzles of the built-in sample, and all
1,000 of them; ``warm-up --all`` compiles every group of kernels.

What the children measure is what a user's process does, nothing more: the package's
Python bytecode is compiled once before the figures (``compileall``, as ``pip install``
does), and the children run without ``PYTHONDONTWRITEBYTECODE`` and ``PYTHONPYCACHEPREFIX``
even when the calling shell sets them, so a cold start is not charged for turning every
module of the package back into bytecode (about 0.1 s of CPU on one ``solve``). Each
figure is the whole child process, interpreter start included, once.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402

ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def pattern_puzzle(rows, cols, blank_every=3, keep=(0,)):
    """One puzzle line of an R x C-box grid: a pattern solution with about two cells in
    three blanked (deterministic, no random numbers)."""
    n = rows * cols
    cells = []
    for r in range(n):
        for c in range(n):
            value = (cols * (r % rows) + r // rows + c) % n
            blanked = (r * 7 + c * 5) % blank_every not in keep
            cells.append("0" if blanked else ALPHABET[value] if n > 9 else str(value + 1))
    return "".join(cells)


def write_inputs(folder):
    """The input files of the figures, in ``folder``; their paths by name."""
    paths = {}
    for name, (rows, cols) in {
        "9x9": (3, 3),
        "16x16": (4, 4),
        "25x25": (5, 5),
        "6x6": (2, 3),
    }.items():
        path = folder / f"puzzle_{name}.txt"
        path.write_text(pattern_puzzle(rows, cols) + "\n")
        paths[name] = path
    sample = ROOT / "numbadlx" / "sudoku" / "data" / "sample_puzzles.txt"
    lines = [line for line in sample.read_text().splitlines() if line and line[0] != "#"]
    paths["rate"] = folder / "rate20.txt"
    paths["rate"].write_text("\n".join(lines[:20]) + "\n")
    paths["rate1000"] = folder / "rate1000.txt"
    paths["rate1000"].write_text("\n".join(lines[:1000]) + "\n")
    paths["dlx"] = ROOT / "examples" / "knuth.dlx"
    return paths


def readme_command_1():
    """README command 1 after its install: ``numbadlx solve`` (the installed script
    beside this Python when there is one), as argv."""
    script = Path(sys.executable).with_name("numbadlx")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script), "solve"]
    return [sys.executable, "-m", "numbadlx", "solve"]


def figures(paths):
    """(name, command after ``python``, target seconds with an empty cache)."""
    cli = ["-m", "numbadlx"]
    return [
        ("generate -n 10", cli + ["generate", "-n", "10", "--seed", "1", "--no-progress"], 10),
        ("rate (20 puzzles)", cli + ["rate", str(paths["rate"]), "--no-progress"], 8),
        (
            "rate (1,000 puzzles)",
            cli + ["rate", str(paths["rate1000"]), "--no-progress"],
            10,
        ),
        ("solve 9x9", cli + ["solve", str(paths["9x9"]), "--no-progress"], 6),
        ("solve 16x16", cli + ["solve", str(paths["16x16"]), "--no-progress"], 6),
        ("solve 25x25", cli + ["solve", str(paths["25x25"]), "--no-progress"], 6),
        (
            "solve 6x6 (2x3 boxes)",
            cli + ["solve", str(paths["6x6"]), "--box", "2x3", "--no-progress"],
            6,
        ),
        ("count --method memo", cli + ["count", "--method", "memo", str(paths["dlx"])], 4),
        ("warm-up --all", cli + ["warm-up", "--all"], 30),
    ]


def cold_starts(paths):
    """(name, command after ``python``, target seconds with a warm cache)."""
    return [
        ("import numbadlx", ["-c", "import numbadlx"], 0.25),
        ("numbadlx --help", ["-m", "numbadlx", "--help"], 0.3),
        (
            "solve one 9x9 puzzle",
            ["-m", "numbadlx", "solve", str(paths["9x9"]), "--no-progress"],
            0.5,
        ),
    ]


def child_environment(cache_dir):
    """The environment of a measured child: Numba's cache in ``cache_dir``, messages
    off, this checkout first on the path, and Python's bytecode cache used as a user's
    process uses it (not disabled, not moved)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir), NUMBADLX_QUIET="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX"):
        env.pop(name, None)
    return env


def compile_bytecode():
    """Compile the package's modules to bytecode once (what ``pip install`` does), so
    that no figure pays for it."""
    env = child_environment(tempfile.gettempdir())
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "numbadlx")],
        env=env,
        capture_output=True,
        check=False,
        timeout=600,
    )


def run_once(args, cache_dir, argv=None, messages=False):
    """Wall and CPU seconds of one ``python ARGS`` (or of ``argv`` as it is) with
    ``cache_dir`` as Numba's cache; ``messages``: the package's notes on (as a user
    sees them), else off."""
    env = child_environment(cache_dir)
    if messages:
        env.pop("NUMBADLX_QUIET", None)
    argv = [sys.executable, *args] if argv is None else argv
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    return wall, cpu


def table(title, rows):
    print(f"\n**{title}**\n")
    print("| command | median wall s | median CPU s | target s | met (by CPU s) |")
    print("|---|---:|---:|---:|---|")
    for name, wall, cpu, target in rows:
        met = "yes" if cpu <= target else "no"
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {target:g} | {met} |")


def readme_table(scratch, rounds):
    """README command 1 (``numbadlx solve``), each round a fresh process with an empty
    Numba cache of its own: wall seconds, and CPU seconds beside them."""
    argv = readme_command_1()
    runs = []
    for round_ in range(rounds):
        cache = scratch / f"cache-readme-{round_}"
        runs.append(run_once(None, cache, argv=argv, messages=True))
        shutil.rmtree(cache, ignore_errors=True)
    walls = sorted(wall for wall, _ in runs)
    shown = "numbadlx solve" if argv[0].endswith("numbadlx") else "python -m numbadlx solve"
    print(f"\n**README command 1, `{shown}`: a fresh process, empty Numba cache**\n")
    print("| rounds | median wall s | fastest wall s | slowest wall s | median CPU s |")
    print("|---:|---:|---:|---:|---:|")
    print(
        f"| {rounds} | {statistics.median(walls):.2f} | {walls[0]:.2f} | {walls[-1]:.2f} | "
        f"{statistics.median(cpu for _, cpu in runs):.2f} |"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="only the figures whose name holds this")
    machine.add_results_option(parser, "compile")
    args = parser.parse_args(argv)
    print(machine.describe("numbadlx: first use, compiling and cold start (benchmarks/compile.py)"))
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="numbadlx-compile-") as scratch:
        scratch = Path(scratch)
        paths = write_inputs(scratch)
        if args.only in "README command 1: numbadlx solve":
            readme_table(scratch, args.rounds)
        chosen = [f for f in figures(paths) if args.only in f[0]]
        cold = {name: [] for name, _, _ in chosen}
        warm = {name: [] for name, _, _ in chosen}
        for round_ in range(args.rounds):
            for name, command, _ in chosen:
                cache = scratch / f"cache-{round_}-{len(cold[name])}-{abs(hash(name))}"
                cold[name].append(run_once(command, cache))
                warm[name].append(run_once(command, cache))
                shutil.rmtree(cache, ignore_errors=True)
        rows = [
            (name, *(statistics.median(x) for x in zip(*cold[name])), target)
            for name, _, target in chosen
        ]
        if chosen:
            table("First use, empty Numba cache (one process each)", rows)
            rows = [
                (name, *(statistics.median(x) for x in zip(*warm[name])), "")
                for name, _, _ in chosen
            ]
            print("\n**The same commands again, the cache warm**\n")
            print("| command | median wall s | median CPU s |")
            print("|---|---:|---:|")
            for name, wall, cpu, _ in rows:
                print(f"| {name} | {wall:.2f} | {cpu:.2f} |")
        starting = [f for f in cold_starts(paths) if args.only in f[0]]
        if starting:
            cache = scratch / "cache-cold-start"
            run_once(cold_starts(paths)[-1][1], cache)  # fill the cache
            starts = {name: [] for name, _, _ in starting}
            for _ in range(max(args.rounds, 5)):
                for name, command, _ in starting:
                    starts[name].append(run_once(command, cache))
            rows = [
                (name, *(statistics.median(x) for x in zip(*starts[name])), target)
                for name, _, target in starting
            ]
            table("Cold start, warm cache", rows)
    print(f"\n# load avg at end {machine.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "compile", "First use: compiling and cold start"))
