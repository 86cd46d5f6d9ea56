"""Whole files: ``numbadlx solve FILE -o OUT`` against ``sudoku.solve`` on the parsed array.

Run by hand (any venv with numbadlx; the datasets in ``$NUMBADLX_DATA``)::

    python benchmarks/files.py             # sudoku17 ten times over, 3 rounds
    python benchmarks/files.py --quick     # one copy, one round

The input is sudoku17 (49,158 puzzles) repeated ``--copies`` times, written to a
temporary folder with the output. Each round runs, in turn, for one and two threads:

* ``array``: ``sudoku.solve(puzzles, limit=2, threads=T)`` on the array parsed once
  beforehand (parsing excluded), in this process;
* ``file``: ``python -m numbadlx solve FILE -o OUT --threads T`` in a subprocess (the
  file in the page cache after the first round); its rate counts the command's own
  time ("s in all" of its summary) less the seconds it reports to compile or load the
  solver, which are shown apart, as is the process's wall time with interpreter start;
* ``baseline`` (with ``--baseline REV``): the same command from git revision REV of
  this checkout, for a before/after ratio from the same rounds;
* ``parse``: reading the file chunk by chunk as the command does
  (``sudoku.iter_chunks``, 16384 puzzles a chunk), in this process, once a round.

The tables give medians over the rounds with their ranges, and the ratio file / array
of each round (its median and range): that ratio, from the same rounds, is what counts
on a shared machine, where every rate also shows the load (printed at start and end).
CPU seconds (all threads) are this process's for the array and parse rows; for the
file rows, the child's less that of the same command on a one-puzzle file (interpreter
start, imports, loading the solver). Their ratio array / file does not depend on the
load: it is what the rate ratio tends to when the kernels keep both cores busy.
"""

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402

import numbadlx  # noqa: E402
from numbadlx import sudoku  # noqa: E402

NAMES = {
    "array": "sudoku.solve(array)",
    "file": "numbadlx solve FILE -o OUT",
    "baseline": "the same, baseline checkout",
}
SUMMARY = re.compile(r"([\d.]+) s in all \(([\d.]+) s to compile or load the solver\)")


def data_dir():
    env = os.environ.get("NUMBADLX_DATA")
    return Path(env) if env else HERE.parent.parent / "shared" / "data"


def make_input(folder, copies):
    """sudoku17 ``copies`` times in ``folder``: its path and puzzle count."""
    source = (data_dir() / "sudoku17.txt").read_bytes()
    if not source.endswith(b"\n"):
        source += b"\n"
    path = Path(folder) / f"sudoku17x{copies}.txt"
    path.write_bytes(source * copies)
    return path


def export_revision(revision, folder):
    """The ``numbadlx`` package of git ``revision`` of this checkout, in ``folder``."""
    folder.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(HERE.parent), "archive", revision, "numbadlx"],
        capture_output=True,
        check=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return str(folder)


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_file(path, out, threads, root=None):
    """One ``numbadlx solve`` run (of the package under ``root``, default the one
    imported here): (own seconds, startup seconds, process wall, CPU)."""
    env = dict(os.environ)
    root = root or str(Path(numbadlx.__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    # removed first, not --overwrite: the command of an older commit (--baseline) has no
    # such option, and a run never replaces a file that holds results
    Path(out).unlink(missing_ok=True)
    command = [sys.executable, "-m", "numbadlx", "solve", str(path), "-o", str(out)]
    command += ["--threads", str(threads), "--no-progress"]
    cpu, start = child_cpu(), time.perf_counter()
    # run from the input's folder: ``python -m`` puts the working folder first on the
    # path, where a checkout would shadow ``root``
    done = subprocess.run(
        command, capture_output=True, text=True, env=env, check=False, cwd=Path(path).parent
    )
    wall, cpu = time.perf_counter() - start, child_cpu() - cpu
    match = SUMMARY.search(done.stderr)
    if done.returncode != 0 or match is None:
        raise RuntimeError(f"numbadlx solve failed ({done.returncode}): {done.stderr}")
    return float(match.group(1)), float(match.group(2)), wall, cpu


def timed(function):
    cpu, start = time.process_time(), time.perf_counter()
    function()
    return time.perf_counter() - start, time.process_time() - cpu


def parse_file(path):
    for _ in sudoku.iter_chunks(path, chunk_size=16384):
        pass


def spread(values, digits=0):
    """Median and range of ``values`` as text."""
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{mid:,.{digits}f} ({low:,.{digits}f}-{high:,.{digits}f})"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one copy, one round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="a git revision (main, a tag): its command runs in the same rounds too",
    )
    machine.add_results_option(parser, "files")
    args = parser.parse_args(argv)
    rounds, copies = (1, 1) if args.quick else (args.rounds, args.copies)
    print(machine.describe("numbadlx: whole files against the parsed array (benchmarks/files.py)"))
    folder = tempfile.mkdtemp(prefix="numbadlx-files-")
    try:
        path = make_input(folder, copies)
        baseline = None
        if args.baseline:
            baseline = export_revision(args.baseline, Path(folder) / "baseline")
        out = Path(folder) / "out.txt"
        puzzles = sudoku.parse(path)
        count = len(puzzles)
        sudoku.warm_up()
        sudoku.solve(puzzles[:1000], limit=2)
        print(f"# sudoku17 x {copies}: {count:,} puzzles, limit 2, {rounds} alternating rounds")
        one = Path(folder) / "one.txt"
        one.write_bytes(path.read_bytes().split(b"\n", 1)[0] + b"\n")
        kinds = ("array", "file") + (("baseline",) if args.baseline else ())
        rates = {(kind, t): [] for kind in kinds for t in (1, 2)}
        cpus = {key: [] for key in rates}
        ratios = {(kind, t): [] for kind in kinds[1:] for t in (1, 2)}
        startups, walls, parse_rates, parse_cpu = [], {1: [], 2: []}, [], []
        cpu_ratios = {1: [], 2: []}
        for _ in range(rounds):
            seconds, cpu = timed(lambda: parse_file(path))
            parse_rates.append(count / seconds)
            parse_cpu.append(cpu)
            for threads in (1, 2):
                seconds, cpu = timed(lambda t=threads: sudoku.solve(puzzles, limit=2, threads=t))
                array_rate = count / seconds
                rates["array", threads].append(array_rate)
                cpus["array", threads].append(cpu)
                own, startup, wall, cpu = run_file(path, out, threads)
                fixed = run_file(one, Path(folder) / "one.out", threads)[3]
                file_rate = count / (own - startup)
                rates["file", threads].append(file_rate)
                cpus["file", threads].append(cpu - fixed)
                cpu_ratios[threads].append(cpus["array", threads][-1] / (cpu - fixed))
                startups.append(startup)
                walls[threads].append(wall)
                ratios["file", threads].append(file_rate / array_rate)
                if args.baseline:
                    own, startup, _, cpu = run_file(path, out, threads, baseline)
                    rate = count / (own - startup)
                    rates["baseline", threads].append(rate)
                    cpus["baseline", threads].append(cpu - fixed)
                    ratios["baseline", threads].append(rate / array_rate)
        print()
        rows = [("parse (iter_chunks)", "-", spread(parse_rates), spread(parse_cpu, 2), "")]
        for threads in (1, 2):
            for kind in kinds:
                ratio = spread(ratios[kind, threads], 2) if kind != "array" else ""
                rows.append(
                    (
                        NAMES[kind],
                        str(threads),
                        spread(rates[kind, threads]),
                        spread(cpus[kind, threads], 2),
                        ratio,
                    )
                )
        header = ("run", "threads", "puzzles/s", "CPU s", "file / array")
        widths = [max(len(str(row[k])) for row in [header, *rows]) for k in range(5)]
        for line in [header, tuple("-" * w for w in widths), *rows]:
            print("  ".join(str(cell).ljust(w) for cell, w in zip(line, widths)).rstrip())
        print()
        print(
            f"# the file rows leave out the solver's compile or load time, "
            f"{spread(startups, 2)} s; the whole process (interpreter start included) "
            f"took {spread(walls[1], 2)} s on one thread, {spread(walls[2], 2)} s on two"
        )
        print(
            "# CPU s of the file rows: the command's, less that of the same command on a "
            "one-puzzle file (interpreter start, imports, loading the solver); array CPU / "
            f"file CPU: {spread(cpu_ratios[1], 2)} on one thread, {spread(cpu_ratios[2], 2)} "
            "on two (what the file / array ratio tends to when the kernels keep both cores "
            "busy and nothing else runs)"
        )
        print("# the rates are indicative on a shared machine; the ratios of the same rounds count")
        print(f"# load avg at end {machine.load_average()}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "files", "Whole files against the parsed array"))
