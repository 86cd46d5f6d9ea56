"""Bulk Sudoku on a Dask LocalCluster of worker processes vs the in-process solver.

One run, one file (default: sudoku17.txt from ``${NUMBADLX_DATA:-../shared/data}``):

* ``local threads``: ``sudoku.solve(array, threads=W)`` in this process (the baseline);
* ``local CLI file``: ``numbadlx solve FILE -o OUT`` in this process (parse + solve +
  write, fsynced chunks): the baseline for the file runs;
* ``dask threads``: :func:`numbadlx.dask.solve` on Dask's threaded scheduler (Dask's
  own overhead, no processes);
* ``cluster array``: :func:`numbadlx.dask.solve` on a ``LocalCluster`` of W worker
  processes (one thread each); the puzzles travel to the workers and the results back;
* ``cluster file``: :func:`numbadlx.dask.solve_file` on the same cluster (workers read
  their byte ranges; the driver writes in order with checkpoints).

Each is timed ``--repeat`` times (median reported) and each Dask mode at two task
sizes, so the overhead splits into a per-task part (the slope between the two) and a
per-puzzle part. Cluster start-up is reported on its own.

    python benchmarks/dask_cluster.py [--file PATH] [--workers 2] [--repeat 3]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import dask.array as da
import distributed
import machine
import numpy as np
from machine import describe  # benchmarks/machine.py: the script's folder is on sys.path

from numbadlx import cli, sudoku
from numbadlx import dask as ndask
from numbadlx.jobs import fsync_file, write_checkpoint
from numbadlx.sudoku import parse


def _data_file(name):
    folder = (
        os.environ.get("NUMBADLX_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data"
    )
    return Path(folder) / name


def _median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _warm():
    from numbadlx import sudoku as s

    s.solve(np.zeros((2, 81), dtype=np.uint8), threads=1)
    return os.getpid()


def _commit_cost(folder, times=20):
    """Seconds per durable commit as the file solvers make them: output fsynced, then
    the checkpoint replaced (the file jobs' own functions)."""
    with open(folder / "commit.bin", "wb") as handle:
        start = time.perf_counter()
        for k in range(times):
            handle.write(b"0" * 30000)
            fsync_file(handle)
            write_checkpoint(str(folder / "commit.progress"), {"k": k})
        return (time.perf_counter() - start) / times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default=str(_data_file("sudoku17.txt")))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=int, default=2)
    machine.add_results_option(parser, "dask_cluster")
    args = parser.parse_args(argv)
    source = Path(args.file)
    if not source.is_file():
        sys.exit(f"no such file: {source} (set NUMBADLX_DATA)")
    workers = args.workers
    grid = parse(source)
    count = grid.shape[0]
    size = source.stat().st_size
    tmp = Path(tempfile.mkdtemp(prefix="numbadlx-dask-bench-"))
    _warm()
    reference = sudoku.solve(grid, limit=args.limit, threads=workers)

    def local_threads():
        sudoku.solve(grid, limit=args.limit, threads=workers)

    def local_cli():
        # the CLI prints a summary on stderr each time: keep the table readable
        stderr, sys.stderr = sys.stderr, open(os.devnull, "w")
        try:
            cli.main(
                [
                    "solve",
                    str(source),
                    "-o",
                    str(tmp / "local.txt"),
                    "--overwrite",  # each repeat replaces the one before
                    "--no-progress",
                    "--threads",
                    str(workers),
                    "--limit",
                    str(args.limit),
                ]
            )
        finally:
            sys.stderr.close()
            sys.stderr = stderr

    local_cli()
    expected = (tmp / "local.txt").read_bytes()
    # task sizes: a few tasks per worker, and many small ones
    few, many = 8 * workers, 64 * workers
    start = time.perf_counter()
    cluster = distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    t_start = time.perf_counter() - start
    start = time.perf_counter()
    client.run(_warm)
    t_warm = time.perf_counter() - start
    # (mode, tasks, kind, callable); kind picks the baseline
    runs = [
        ("local threads (array)", 1, None, local_threads),
        ("local CLI (file)", 1, None, local_cli),
    ]
    try:
        for tasks in (few, many):
            block = -(-count // tasks)
            lazy = ndask.solve(da.from_array(grid, chunks=(block, 81)), limit=args.limit)
            runs.append(
                (
                    "dask threads (array)",
                    lazy.status.numblocks[0],
                    "array",
                    lambda lazy=lazy: lazy.compute(scheduler="threads", num_workers=workers),
                )
            )
        for tasks in (few, many):
            block = -(-count // tasks)
            lazy = ndask.solve(da.from_array(grid, chunks=(block, 81)), limit=args.limit)
            got = lazy.compute(scheduler=client)
            assert np.array_equal(got.solutions, reference.solutions)
            runs.append(
                (
                    f"cluster {workers} procs (array)",
                    lazy.status.numblocks[0],
                    "array",
                    lambda lazy=lazy: lazy.compute(scheduler=client),
                )
            )
        for tasks in (few, many):
            chunk_bytes = -(-size // tasks)
            out = tmp / f"dask-{tasks}.txt"
            ndask.solve_file(
                source, out, scheduler=client, chunk_bytes=chunk_bytes, limit=args.limit,
                overwrite=True,
            )  # fmt: skip
            assert out.read_bytes() == expected
            runs.append(
                (
                    f"cluster {workers} procs (file)",
                    len(ndask.line_ranges(source, chunk_bytes)),
                    "file",
                    lambda out=out, chunk_bytes=chunk_bytes: ndask.solve_file(
                        source,
                        out,
                        scheduler=client,
                        chunk_bytes=chunk_bytes,
                        limit=args.limit,
                        overwrite=True,
                    ),  # fmt: skip
                )
            )
        # interleaved repeats: a busy machine slows every mode alike
        times = [[] for _ in runs]
        for _ in range(args.repeat):
            for k, (_, _, _, fn) in enumerate(runs):
                begin = time.perf_counter()
                fn()
                times[k].append(time.perf_counter() - begin)
    finally:
        client.close()
        cluster.close()
    rows = [
        (mode, tasks, statistics.median(t), kind) for (mode, tasks, kind, _), t in zip(runs, times)
    ]
    t_threads, t_cli = rows[0][2], rows[1][2]

    print(describe("numbadlx on a Dask LocalCluster vs in-process (benchmarks/dask_cluster.py)"))
    print(
        f"{source.name}: {count} puzzles ({size / 1e6:.1f} MB), limit {args.limit}, "
        f"{workers} workers, median of {args.repeat}"
    )
    print(
        f"cluster start {t_start:.2f} s, first kernel load on the workers "
        f"{t_warm:.2f} s (once per cluster)"
    )
    print()
    header = (
        f"{'mode':28} {'tasks':>6} {'seconds':>8} {'puzzles/s':>10} "
        f"{'overhead/puzzle':>16} {'overhead/task':>14}"
    )
    print(header)
    print("-" * len(header))
    slopes = {}
    by_kind = {}
    for mode, tasks, seconds, kind in rows:
        by_kind.setdefault((mode, kind), []).append((tasks, seconds))
    for (mode, _kind), points in by_kind.items():
        if len(points) == 2:
            (t1, s1), (t2, s2) = points
            slopes[mode] = (s2 - s1) / (t2 - t1)
    for mode, tasks, seconds, kind in rows:
        base = {None: None, "array": t_threads, "file": t_cli}[kind]
        if base is None:
            extra_puzzle = extra_task = "(baseline)"
        else:
            extra = seconds - base
            extra_puzzle = f"{1e6 * extra / count:+.1f} us"
            extra_task = f"{1e3 * extra / tasks:+.2f} ms"
        print(
            f"{mode:28} {tasks:>6} {seconds:>8.3f} {count / seconds:>10,.0f} "
            f"{extra_puzzle:>16} {extra_task:>14}"
        )
    print()
    print(
        f"durable commit per written range (fsync output + checkpoint) on this disk: "
        f"{1e3 * _commit_cost(tmp):.1f} ms; the file modes pay it once per range"
    )
    print(
        "overhead/puzzle and overhead/task: (seconds - baseline) / puzzles or / tasks; "
        "baseline = local threads for array modes, local CLI for file modes."
    )
    for mode, slope in slopes.items():
        print(
            f"marginal cost of one more task, {mode}: {1e3 * slope:+.2f} ms "
            f"(slope between the two task counts)"
        )


if __name__ == "__main__":
    machine.run(main, "dask_cluster", "A Dask LocalCluster against in-process solving")
