"""What every benchmark prints first: the machine, the load, the versions, the commit.

One helper for all scripts under ``benchmarks/`` (read at run time, never typed in),
so that a table can always be traced back to the CPU and code that produced it::

    from machine import describe
    print(describe("numbadlx kernels: X, C and M against the baseline"))

A script whose tables the documentation shows also takes ``--results [PATH]``: it then
writes its tables to a Markdown file (``benchmarks/results/NAME.md`` by default) headed
by the command, the CPU, the date and the versions, and the site renders that file::

    machine.add_results_option(parser, "engines")   # in main(), on the script's parser
    ...
    if __name__ == "__main__":
        machine.run(main, "engines", "Sudoku engines against tdoku")
"""

import argparse
import contextlib
import datetime
import io
import os
import platform
import re
import shlex
import subprocess
import sys

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


def versions():
    """Python, NumPy, Numba and numbadlx versions as one line of text (no commit)."""
    import numba
    import numpy as np

    try:
        import numbadlx

        ours = f", numbadlx {numbadlx.__version__}"
    except ImportError:
        ours = ""
    return (
        f"Python {platform.python_version()}, NumPy {np.__version__}, "
        f"Numba {numba.__version__}{ours}"
    )


def results_default(name):
    """Where ``--results`` without a path writes: ``benchmarks/results/NAME.md``."""
    return os.path.join("benchmarks", "results", name + ".md")


def add_results_option(parser, name):
    """Give a script's parser the ``--results [PATH]`` option that :func:`run` acts on."""
    parser.add_argument(
        "--results",
        nargs="?",
        const=results_default(name),
        metavar="PATH",
        help="also write the tables to this Markdown file, with the command, CPU, date "
        f"and versions (without PATH: {results_default(name)})",
    )


class _Tee(io.TextIOBase):
    """Writes to the real stdout and keeps a copy."""

    def __init__(self, stream):
        self.stream, self.copy = stream, io.StringIO()

    def write(self, text):
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


_DROPPED = re.compile(r"load avg|^# (date:|CPU:|python |command:)", re.IGNORECASE)
_RULE = re.compile(r"^-+(  +-+)*\s*$")


def _spans(rule):
    """Column spans of a text table from its rule line of dashes (the last one open)."""
    spans = [m.span() for m in re.finditer(r"-+", rule)]
    return [(a, None if k == len(spans) - 1 else b) for k, (a, b) in enumerate(spans)]


def _cells(line, spans):
    return [line[a:b].strip() if b else line[a:].strip() for a, b in spans]


def _fits(line, spans):
    """Whether a line is a row of the text table whose columns are ``spans``."""
    gaps = [(b, spans[k + 1][0]) for k, (_, b) in enumerate(spans[:-1])]
    return bool(line[: spans[0][1]].strip()) and all(line[a:c].strip() == "" for a, c in gaps)


def to_markdown(output):
    """A script's printed output as Markdown.

    Markdown tables stay as they are; a text table (a header, a rule of dashes, rows
    aligned under it) becomes a Markdown table; ``#`` comment lines become list items,
    except the machine description and load averages (the file's heading says when
    and where it ran); an indented line starts a new line (a Markdown hard break);
    other lines stay as they are.
    """
    lines = output.splitlines()
    out, k = [], 0
    while k < len(lines):
        line = lines[k].rstrip()
        if line.startswith("#") and (_DROPPED.search(line) or k == 0):
            k += 1
            continue
        if k + 1 < len(lines) and line.strip() and _RULE.match(lines[k + 1]):
            spans = _spans(lines[k + 1])
            rows = [_cells(line, spans)]
            k += 2
            while k < len(lines):
                if not lines[k].strip():
                    nxt = lines[k + 1] if k + 1 < len(lines) else ""
                    if nxt.strip() and not nxt.startswith("#") and _fits(nxt, spans):
                        k += 1
                        continue
                    break
                if not _fits(lines[k], spans):
                    break
                rows.append(_cells(lines[k], spans))
                k += 1
            rule = "|---|" + "---:|" * (len(spans) - 1)  # text first, figures after
            out += ["", "| " + " | ".join(rows[0]) + " |", rule]
            out += ["| " + " | ".join(row) + " |" for row in rows[1:]] + [""]
            continue
        if line.startswith("#"):
            line = "- " + line.lstrip("#").strip()  # a note of the script's: a list item
            if out and out[-1] and not out[-1].startswith("- "):
                out.append("")
        elif out and out[-1].startswith("- ") and line.strip():
            out.append("")
        elif line.startswith("  ") and line.strip() and out and out[-1].strip():
            out[-1] += "  "  # an indented line of the output starts a line of its own
            line = line.strip()
        out.append(line)
        k += 1
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def results_text(title, command, output, when=None):
    """The Markdown of a results file: title, date, command, CPU, versions, tables."""
    when = when or datetime.date.today().isoformat()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    head = [
        f"# {title}",
        "",
        f"Run on {when}: `{command}`",
        "",
        f"CPU: {cpu_model()}; {os.cpu_count()} cores ({usable} usable); {platform.system()}. "
        f"{versions()}.",
        "",
    ]
    return "\n".join(head) + "\n" + to_markdown(output)


def run(main, name, title):
    """Run a benchmark's ``main()``; with ``--results [PATH]``, also write its output as
    Markdown to PATH (``benchmarks/results/NAME.md`` without one)."""
    argv = sys.argv[1:]
    picker = argparse.ArgumentParser(add_help=False)
    picker.add_argument("--results", nargs="?", const=results_default(name))
    known, _ = picker.parse_known_args(argv)
    if known.results is None or "-h" in argv or "--help" in argv:
        return main()
    shown = []
    skip = False
    for k, arg in enumerate(argv):  # the command as run, without --results [PATH]
        if skip:
            skip = False
            continue
        if arg == "--results":
            nxt = argv[k + 1] if k + 1 < len(argv) else ""
            skip = nxt == known.results
            continue
        if arg.startswith("--results="):
            continue
        shown.append(arg)
    command = shlex.join(["python", f"benchmarks/{name}.py", *shown])
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        status = main()
    os.makedirs(os.path.dirname(os.path.abspath(known.results)), exist_ok=True)
    with open(known.results, "w", encoding="utf-8") as f:
        f.write(results_text(title, command, tee.copy.getvalue()))
    print(f"results written to {known.results}", file=sys.stderr)
    return status


if __name__ == "__main__":
    print(describe("machine description"))
