"""What every benchmark prints first: the machine, the load, the versions, the commit.

One helper for all scripts under ``benchmarks/`` (read at run time, never typed in),
so that a table can always be traced back to the CPU and code that produced it::

    from machine import describe
    print(describe("numbadlx kernels: X, C and M against the baseline"))
"""

import datetime
import os
import platform
import subprocess

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_model():
    """The CPU's model name from ``/proc/cpuinfo`` (or what :mod:`platform` knows)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_revision():
    """Short commit of this checkout, marked when it has uncommitted changes."""
    try:
        rev = subprocess.run(
            ["git", "-C", _ROOT, "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", _ROOT, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not rev:
        return "unknown"
    return rev + (" + uncommitted changes" if dirty else "")


def load_average():
    """The 1, 5 and 15 minute load averages as text."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def describe(title=None):
    """A few ``# ``-prefixed lines: title, date, CPU, cores, load, versions, commit."""
    import numba
    import numpy as np

    try:
        import numbadlx

        ours = f"numbadlx {numbadlx.__version__} (git {git_revision()})"
    except ImportError:
        ours = "numbadlx not importable"
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    lines = [] if title is None else [title]
    lines += [
        f"date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
        f"CPU: {cpu_model()}; {os.cpu_count()} cores ({usable} usable); "
        f"{platform.system()} {platform.release()}; load avg at start {load_average()}",
        f"python {platform.python_version()}, numpy {np.__version__}, "
        f"numba {numba.__version__}, {ours}",
    ]
    return "\n".join("# " + line for line in lines)


if __name__ == "__main__":
    print(describe("machine description"))
