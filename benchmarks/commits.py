"""Two commits of numbadlx side by side: the same Sudoku sets, every engine, the same
search effort, and the speed of each side.

For a change that must keep every answer and lose no speed (a reshape, a refactor of
a kernel), run::

    python benchmarks/commits.py --old main~3            # the old side against this checkout
    python benchmarks/commits.py --old A --new B --rounds 7
    python benchmarks/commits.py --old A --results   # also benchmarks/results/commits.md

Each side is a checkout (``git worktree`` of the commit in a temporary folder, removed
at the end; ``--new`` defaults to this checkout as it is, uncommitted changes
included). Every measurement runs in a fresh process that imports that side only. A
first pass compiles both sides' kernels (its times are dropped); then the rounds
alternate the sides, the order reversed every other round. A side solves each whole
set with ``sudoku.solve(puzzles, limit=2, engine=E, threads=T)`` in passes of at least
``--seconds``; the table gives the median rate of each side, the median and range of
the per-round ratio new / old, and whether the two sides visited the same nodes and
made the same guesses on every puzzle (compared puzzle by puzzle, with the statuses,
counts and solutions).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import machine  # noqa: E402

ENGINES = ("dlx", "bits", "bands")

# One side's measurement, run in a fresh process with that side first on sys.path
_MEASURE = r"""
import hashlib, json, sys, time
import numpy as np
from numbadlx import sudoku

sets, engines, threads, seconds = json.loads(sys.argv[1])
out = {}
for name, path in sets.items():
    puzzles = sudoku.read_csv(path)[0] if path.endswith(".csv") else sudoku.parse(path)
    for engine in engines:
        for t in threads:
            result = sudoku.solve(puzzles, limit=2, engine=engine, threads=t)
            digest = hashlib.sha1()
            for field in (result.status, result.counts, result.nodes, result.guesses,
                          result.solutions):
                digest.update(np.ascontiguousarray(field).tobytes())
            passes, start = 0, time.perf_counter()
            while True:
                sudoku.solve(puzzles, limit=2, engine=engine, threads=t)
                passes += 1
                spent = time.perf_counter() - start
                if spent >= seconds:
                    break
            out[f"{name}|{engine}|{t}"] = {
                "rate": passes * len(puzzles) / spent,
                "digest": digest.hexdigest(),
                "nodes": int(result.nodes.sum()),
                "guesses": int(result.guesses.sum()),
            }
print(json.dumps(out))
"""


def checkout(revision, folder):
    """A worktree of ``revision`` in ``folder`` (its kernels compile into it)."""
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(folder), revision],
        check=True,
    )
    return folder


def measure(side, job):
    env = dict(os.environ, PYTHONPATH=str(side))
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, json.dumps(job)],
        env=env,
        cwd=str(side),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"measuring {side} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the commit to compare against")
    parser.add_argument("--new", default=None, help="a commit (default: this checkout)")
    parser.add_argument("--sets", default="sudoku17,serg_benchmark,kaggle,top1465")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="least time of a pass")
    machine.add_results_option(parser, "commits")
    args = parser.parse_args(argv)

    from sudoku import DATASETS, data_dir

    sets = {name: str(data_dir() / DATASETS[name]) for name in args.sets.split(",") if name}
    for path in sets.values():
        if not Path(path).is_file():
            raise SystemExit(f"no such dataset file: {path} (set NUMBADLX_DATA)")
    job = [sets, args.engines.split(","), [int(t) for t in args.threads.split(",")], 0.0]

    with tempfile.TemporaryDirectory(prefix="numbadlx-commits-") as scratch:
        old = checkout(args.old, Path(scratch) / "old")
        new = checkout(args.new, Path(scratch) / "new") if args.new else ROOT
        try:
            lines = [machine.describe("numbadlx: two commits side by side (sudoku.solve)")]
            first = {"old": measure(old, job), "new": measure(new, job)}  # compiles
            job[3] = args.seconds
            rates = {"old": {}, "new": {}}
            for r in range(args.rounds):
                order = ("old", "new") if r % 2 == 0 else ("new", "old")
                for side in order:
                    got = measure(old if side == "old" else new, job)
                    for key, row in got.items():
                        rates[side].setdefault(key, []).append(row["rate"])
                print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
        finally:
            for side in (old, new):
                if side != ROOT:
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(side)],
                        check=False,
                    )
    lines += [
        "",
        f"old: {args.old}; new: {args.new or 'this checkout'}; limit 2; medians of "
        f"{args.rounds} alternating rounds; passes of at least {args.seconds} s",
        "",
        "| set | engine | threads | old puzzles/s | new puzzles/s | new / old (range) "
        "| nodes | guesses | same results |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for key in first["old"]:
        name, engine, threads = key.split("|")
        a, b = first["old"][key], first["new"][key]
        ratios = [n / o for n, o in zip(rates["new"][key], rates["old"][key])]
        same = "yes" if a["digest"] == b["digest"] else "**NO**"
        nodes, guesses = (
            f"{a[field]:,}" if a[field] == b[field] else f"{a[field]:,} / {b[field]:,}"
            for field in ("nodes", "guesses")
        )
        lines.append(
            f"| {name} | {engine} | {threads} | {statistics.median(rates['old'][key]):,.0f} "
            f"| {statistics.median(rates['new'][key]):,.0f} | {statistics.median(ratios):.2f} "
            f"({min(ratios):.2f}-{max(ratios):.2f}) | {nodes} | {guesses} | {same} |"
        )
    print("\n".join(lines))


if __name__ == "__main__":
    machine.run(main, "commits", "Two commits side by side")
