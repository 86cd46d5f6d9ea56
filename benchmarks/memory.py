"""Peak memory of ``numbadlx solve`` on big inputs: it must not grow with the input.

Builds inputs of 100,000 and 1,000,000 lines by repeating public datasets (sudoku17 and
top1465 from ``$NUMBADLX_DATA``, default ``../shared/data`` beside the repository) in a
temporary folder (never in the repository), runs the command line on each in a fresh
process and reports its peak resident memory (``ru_maxrss`` of that child, from
``os.wait4``), the wall time and the puzzles per second. The target is a peak under
300 MB whatever the number of puzzles.

    python benchmarks/memory.py                   # 100k and 1M lines
    python benchmarks/memory.py --quick           # smoke run: 2,000 lines
    python benchmarks/memory.py --sizes 10000 200000 --threads 1 --chunk-size 4096
    python benchmarks/memory.py --columnar        # also Parquet in and out (pyarrow)

With ``--columnar`` each size also runs text into a Parquet output and a Parquet input
(all its rows in one row group, the worst case for a reader that holds a row group)
into a Parquet output.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import machine

REPO = Path(__file__).resolve().parents[1]
TARGET_MB = 300
DATASETS = ["sudoku17.txt", "top1465.txt"]


def data_dir():
    env = os.environ.get("NUMBADLX_DATA")
    return Path(env) if env else REPO.parent / "shared" / "data"


def puzzle_lines(folder):
    lines = []
    for name in DATASETS:
        path = folder / name
        if not path.is_file():
            sys.exit(
                f"memory.py: {path} not found (set NUMBADLX_DATA to the folder of the "
                f"public datasets)"
            )
        with open(path, "rb") as handle:
            lines += [line.strip() for line in handle if line.strip() and not line.startswith(b"#")]
    return lines


def write_input(path, lines, count):
    """``count`` lines: the datasets repeated (and cut) to length, written in blocks."""
    block = b"\n".join(lines) + b"\n"
    full, rest = divmod(count, len(lines))
    with open(path, "wb") as handle:
        for _ in range(full):
            handle.write(block)
        handle.write(b"".join(line + b"\n" for line in lines[:rest]))


def run(argv):
    """Run ``argv`` as a child; return (exit code, seconds, peak RSS in MB, stderr)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return child.returncode, seconds, usage.ru_maxrss / 1024, err.read().decode()


# Run in children of their own: a child's peak RSS counts what it inherited from this
# process when it was forked, so this process keeps no puzzles and no pyarrow.
_TO_PARQUET = """
import sys
import pyarrow as pa, pyarrow.parquet as pq
with open(sys.argv[1]) as handle:
    texts = [line.rstrip("\\n") for line in handle]
pq.write_table(pa.table({"puzzle": texts}), sys.argv[2], row_group_size=max(1, len(texts)))
"""
_ROWS = "import sys, pyarrow.parquet as pq; print(pq.ParquetFile(sys.argv[1]).metadata.num_rows)"


def columnar_rows(base, options, source, work, count, baseline):
    """Text into Parquet, and Parquet (one row group) into Parquet: one printed row each,
    with the growth over ``baseline`` (the peak of a 10-puzzle Parquet run: pyarrow
    itself weighs about 100 MB); the failures (a wrong row count, a peak over the text
    target plus that weight)."""
    failures = []
    target = TARGET_MB + 100
    parquet_in = work / f"in_{count}.parquet"
    subprocess.run([sys.executable, "-c", _TO_PARQUET, str(source), str(parquet_in)], check=True)
    for label, path in (("text -> parquet", source), ("parquet -> parquet", parquet_in)):
        out = work / f"out_{count}.parquet"
        out.unlink(missing_ok=True)  # the label before wrote it; a run never replaces it
        code, seconds, peak, err = run(base + [str(path), "-o", str(out)] + options)
        if code:
            sys.exit(f"numbadlx solve failed ({code}):\n{err}")
        rows = subprocess.run(
            [sys.executable, "-c", _ROWS, str(out)], check=True, capture_output=True, text=True
        ).stdout.strip()
        if rows != str(count):
            failures.append(f"{label} {count}: wrote {rows} rows")
        if peak >= target:
            failures.append(f"{label} {count}: peak {peak:.0f} MB >= {target} MB")
        print(
            f"{'':>10} {label}: peak RSS {peak:.1f} MB ({peak - baseline:+.1f} over "
            f"{baseline:.1f} MB for 10 puzzles), {seconds:.1f} s"
        )
        out.unlink()
    parquet_in.unlink()
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--chunk-size", type=int, default=None)
    parser.add_argument("--limit", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--quick", action="store_true", help="smoke run: --sizes 2000")
    parser.add_argument(
        "--columnar", action="store_true", help="also Parquet outputs and inputs (pyarrow)"
    )
    machine.add_results_option(parser, "memory")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes = [2000]

    lines = puzzle_lines(data_dir())
    work = Path(tempfile.mkdtemp(prefix="numbadlx-memory-"))
    print(machine.describe("numbadlx memory benchmark: peak RSS of `numbadlx solve` on big inputs"))
    print(
        f"# input: {', '.join(DATASETS)} ({len(lines)} puzzles) repeated; temporary folder {work}"
    )
    base = [sys.executable, "-m", "numbadlx", "solve"]
    options = ["--no-progress", "--limit", str(args.limit)]
    if args.threads:
        options += ["--threads", str(args.threads)]
    if args.chunk_size:
        options += ["--chunk-size", str(args.chunk_size)]

    # what a process costs before it reads any input: Python, NumPy, Numba, the kernels
    tiny = work / "tiny.txt"
    write_input(tiny, lines, 10)
    code, seconds, baseline, err = run(base + [str(tiny), "-o", str(work / "tiny.out")] + options)
    if code:
        sys.exit(err)
    print(f"\nbaseline (10 puzzles): peak RSS {baseline:7.1f} MB, {seconds:.2f} s")
    columnar_base = 0.0
    if args.columnar:
        out = str(work / "tiny.parquet")
        code, seconds, columnar_base, err = run(base + [str(tiny), "-o", out] + options)
        if code:
            sys.exit(err)
        print(f"baseline (10 puzzles into Parquet): peak RSS {columnar_base:7.1f} MB")
    header = (
        f"{'puzzles':>10} {'input MB':>9} {'peak RSS MB':>12} {'over baseline':>14} "
        f"{'wall s':>8} {'puzzles/s':>10} {'solver/s':>10}"
    )
    print(header)
    print("-" * len(header))
    failures = []
    try:
        for count in args.sizes:
            source = work / f"in_{count}.txt"
            write_input(source, lines, count)
            out = work / f"out_{count}.txt"
            code, seconds, peak, err = run(base + [str(source), "-o", str(out)] + options)
            if code:
                sys.exit(f"numbadlx solve failed ({code}):\n{err}")
            with open(out, "rb") as handle:
                written = sum(
                    block.count(b"\n") for block in iter(lambda: handle.read(1 << 24), b"")
                )
            if written != count:
                failures.append(f"{count}: wrote {written} lines")
            solver = re.search(r"solver ([\d,]+) puzzles/s", err)
            print(
                f"{count:>10,} {source.stat().st_size / 1e6:>9.1f} {peak:>12.1f} "
                f"{peak - baseline:>14.1f} {seconds:>8.1f} {count / seconds:>10,.0f} "
                f"{solver.group(1) if solver else '-':>10}"
            )
            if peak >= TARGET_MB:
                failures.append(f"{count}: peak {peak:.0f} MB >= {TARGET_MB} MB")
            summary = [line for line in err.splitlines() if " puzzles from " in line]
            print(f"{'':>10} {summary[0].split(': ', 2)[-1] if summary else ''}")
            if args.columnar:
                failures += columnar_rows(base, options, source, work, count, columnar_base)
            source.unlink()
            out.unlink()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(
        f"\ntarget: peak RSS under {TARGET_MB} MB whatever the number of puzzles: "
        f"{'FAILED: ' + '; '.join(failures) if failures else 'met'}"
    )
    print(f"# load avg at end: {machine.load_average()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(machine.run(main, "memory", "Peak memory streaming puzzles through the CLI"))
