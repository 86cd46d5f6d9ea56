"""Ctrl-C at random moments of a first use: does the command always exit with 130?

Run by hand (any venv with numbadlx; minutes: each run compiles from scratch)::

    python benchmarks/ctrl_c_compile_stress.py --runs 100
    python benchmarks/ctrl_c_compile_stress.py --runs 50 --seed 2 --log runs.jsonl

Each run starts ``python -m numbadlx generate -n 1 --size 25`` (override with
``--command``) with an empty ``NUMBA_CACHE_DIR`` of its own, in a session of its own,
and sends SIGINT to its process group (as a terminal's Ctrl-C) after a delay drawn
uniformly from ``--low`` to ``--high`` seconds: while Numba loads, while kernels compile
(the default command compiles for about 30 s on a loaded two-core machine), or later.
A run that does not exit with 130 is a failure; its standard error is kept (with
``PYTHONFAULTHANDLER=1``, a crash inside Python prints every thread's stack). The
table gives the exit codes per delay band of five seconds.

A compile cannot be stopped, so after Ctrl-C the command lets it go and leaves at once
(``os._exit``); a process torn down beside LLVM crashes (SIGSEGV, or SIGABRT on an LLVM
assertion). Run it after any change to how the jobs, the CLI or ``_stopping`` wait for
their threads.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

DEFAULT_COMMAND = ["generate", "-n", "1", "--size", "25", "--seed", "1"]


def one_run(command, delay, timeout=120.0):
    """One cold-cache run interrupted after ``delay`` seconds: a record of what it did."""
    cache = tempfile.mkdtemp(prefix="numbadlx-stress-")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONFAULTHANDLER="1")
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "numbadlx", *command],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        time.sleep(delay)
        alive = child.poll() is None
        sent = time.monotonic()
        if alive:
            os.killpg(child.pid, signal.SIGINT)
        try:
            _, errors = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            _, errors = child.communicate()
            errors += b"\n[killed: no exit within the timeout]"
        record = {
            "delay": round(delay, 2),
            "alive_at_signal": alive,
            "code": child.returncode,
            "exit_after": round(time.monotonic() - sent, 2),
            "load": round(os.getloadavg()[0], 1),
        }
        if child.returncode != 130:
            record["stderr"] = errors.decode(errors="replace")[-3000:]
        return record
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--low", type=float, default=0.3, help="shortest delay (s)")
    parser.add_argument("--high", type=float, default=30.0, help="longest delay (s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", help="append one JSON line per run to this file")
    parser.add_argument("--command", nargs=argparse.REMAINDER, default=DEFAULT_COMMAND)
    args = parser.parse_args(argv)
    # a shell's background job ignores SIGINT, and an ignored signal stays ignored
    # across exec: catch it here, so that each child starts with Python's own handler
    signal.signal(signal.SIGINT, signal.default_int_handler)
    rng = random.Random(args.seed)
    bands = collections.defaultdict(collections.Counter)
    failures = 0
    for k in range(args.runs):
        record = one_run(args.command, rng.uniform(args.low, args.high))
        bands[int(record["delay"] // 5) * 5][record["code"]] += 1
        failures += record["code"] != 130
        if args.log:
            with open(args.log, "a") as log:
                log.write(json.dumps(dict(record, run=k)) + "\n")
        if record["code"] != 130:
            print(f"run {k}: exit {record['code']} after a Ctrl-C at {record['delay']} s")
    print("delay (s) | exit codes")
    for band in sorted(bands):
        codes = ", ".join(f"{code}: {count}" for code, count in sorted(bands[band].items()))
        print(f"{band:>3}-{band + 5:<5} | {codes}")
    print(f"{args.runs - failures} of {args.runs} runs exited with 130")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
