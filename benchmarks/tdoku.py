"""Running tdoku's compiled ``run_benchmark`` (built by you from tdoku's sources): one place
for its command line and its CSV output, used by ``engines.py`` and ``sudoku_peers.py``.

Its input is one 81-character puzzle per line with ``.`` for a blank; it solves on one
thread and checks uniqueness (limit 2) unless given ``-f`` (limit 1).
"""

import os
import subprocess
import time


def run_measured(command):
    """``(returncode, output, CPU share)`` of a child process (its standard output and
    error together): the share is its CPU time (user and system, from ``os.wait4``) over
    its wall time. A peer that times itself by the wall clock, as ``run_benchmark``
    does, is converted to CPU time by this share, which on a shared machine counts the
    time it ran rather than the time it waited for a core."""
    began = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with child.stdout:
        output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    share = (usage.ru_utime + usage.ru_stime) / wall if wall > 0 else 1.0
    return child.returncode, output, share


def run_tdoku(binary, path, n_puzzles, *, limit=2, solvers="tdoku", seconds=5, warmup=1, cpu=False):
    """``{solver: (µs per puzzle, guesses per puzzle)}`` from one run of ``run_benchmark``
    over the ``n_puzzles`` puzzles of ``path`` in file order (CSV output); with ``cpu``,
    µs of CPU time (see :func:`run_measured`)."""
    command = [binary, "-c1", "-r0", f"-n{n_puzzles}", f"-t{seconds}", f"-w{warmup}"]
    command.append(f"-s{solvers}")
    if limit == 1:
        command.append("-f")
    code, output, share = run_measured([*command, path])
    if code != 0:
        raise RuntimeError(f"{' '.join(command)} {path} failed ({code}): {output}")
    scale = share if cpu else 1.0
    results = {}
    for line in output.splitlines():
        # compiler,version,flags,file,solver,puzzles/s,µs/puzzle,%no_guess,guesses/puzzle
        fields = line.split(",")
        if len(fields) >= 9:
            results[fields[-5]] = (float(fields[-3]) * scale, float(fields[-1]))
    missing = [s for s in solvers.split(",") if s not in results]
    if missing:
        raise RuntimeError(f"run_benchmark printed no result for {missing}: {output}")
    return results


def solvers_built(binary):
    """The solver ids ``run_benchmark -h`` lists."""
    text = subprocess.run([binary, "-h"], capture_output=True, text=True).stdout
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("solvers:") and k + 1 < len(lines):
            return lines[k + 1].split()
    return []
