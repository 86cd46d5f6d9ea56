"""Running tdoku's compiled ``run_benchmark`` (built by you from tdoku's sources): one place
for its command line and its CSV output, used by ``engines.py`` and ``sudoku_peers.py``.

Its input is one 81-character puzzle per line with ``.`` for a blank; it solves on one
thread and checks uniqueness (limit 2) unless given ``-f`` (limit 1).
"""

import subprocess


def run_tdoku(binary, path, n_puzzles, *, limit=2, solvers="tdoku", seconds=5, warmup=1):
    """``{solver: (µs per puzzle, guesses per puzzle)}`` from one run of ``run_benchmark``
    over the ``n_puzzles`` puzzles of ``path`` in file order (CSV output)."""
    command = [binary, "-c1", "-r0", f"-n{n_puzzles}", f"-t{seconds}", f"-w{warmup}"]
    command.append(f"-s{solvers}")
    if limit == 1:
        command.append("-f")
    done = subprocess.run([*command, path], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} {path} failed ({done.returncode}): {done.stdout}{done.stderr}"
        )
    results = {}
    for line in done.stdout.splitlines():
        # compiler,version,flags,file,solver,puzzles/s,µs/puzzle,%no_guess,guesses/puzzle
        fields = line.split(",")
        if len(fields) >= 9:
            results[fields[-5]] = (float(fields[-3]), float(fields[-1]))
    missing = [s for s in solvers.split(",") if s not in results]
    if missing:
        raise RuntimeError(f"run_benchmark printed no result for {missing}: {done.stdout}")
    return results


def solvers_built(binary):
    """The solver ids ``run_benchmark -h`` lists."""
    text = subprocess.run([binary, "-h"], capture_output=True, text=True).stdout
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("solvers:") and k + 1 < len(lines):
            return lines[k + 1].split()
    return []
