"""Inequality ("greater than") Sudokus for the variants benchmark: no givens, only signs.

A sign between two orthogonal neighbours says which digit is larger; numbadlx states
one as a two-cell thermometer ``(smaller, larger)``. Two sets:

* :data:`COURSE` - a Greater Than Sudoku with all 108 signs inside the boxes (the kind
  puzzle books print), as used in a constraint-programming course at the University
  of Montpellier (a Choco model, ``GTSudoku``); its one solution is checked by the
  tests' SAT model (``tests/sudoku/variants/sat_oracle.py``).
* ``inequality_puzzles.json`` - hard ones made by :func:`make`: a random solution grid,
  a sign between every two orthogonal neighbours (144; grids whose 144 signs leave more
  than one solution are skipped), then the signs taken away in a random order while
  the puzzle keeps one solution (a check that runs out of its node budget keeps the
  sign). What is left (43 to 52 signs in the stored set) has no sign to spare.

Made again by hand (slow: a minute or more a puzzle)::

    python benchmarks/inequality.py --make 1 2 3 4 5 6 8 11   # the stored set
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from numbadlx import sudoku

HERE = Path(__file__).resolve().parent
MADE = HERE / "inequality_puzzles.json"

# Signs between the cells of each row ("<": the left cell is smaller; "." none) and
# between each row and the next ("<": the upper cell is smaller).
_ROW_SIGNS = (
    "<<.<<.>>",
    "<>.><.>>",
    ">>.<>.<>",
    "><.><.><",
    ">>.<>.><",
    "<>.<>.><",
    "><.><.<>",
    "<>.<>.><",
    "<>.><.<>",
)
_COLUMN_SIGNS = (
    "><><<>><>",
    "<><<<>><>",
    ".........",
    ">>><<>>><",
    "><<>><>><",
    ".........",
    "<<>><><>>",
    ">>><<<><<",
)


def from_signs(row_signs, column_signs, n=9):
    """Two-cell thermometers ``(smaller, larger)`` from rows of sign characters."""
    pairs = []
    for r, signs in enumerate(row_signs):
        for c, sign in enumerate(signs):
            a, b = r * n + c, r * n + c + 1
            if sign != ".":
                pairs.append((a, b) if sign == "<" else (b, a))
    for r, signs in enumerate(column_signs):
        for c, sign in enumerate(signs):
            a, b = r * n + c, (r + 1) * n + c
            if sign != ".":
                pairs.append((a, b) if sign == "<" else (b, a))
    return pairs


#: The course's puzzle: ``(name, pairs, solution)``, the solution as 81 digits.
COURSE = (
    "course (108 signs in the boxes)",
    from_signs(_ROW_SIGNS, _COLUMN_SIGNS),
    "267139854193548762854672391938215647621794538475386219519823476786451923342967185",
)


def made():
    """The puzzles of ``inequality_puzzles.json``: ``(name, pairs, solution)`` each."""
    rows = json.loads(MADE.read_text())
    return [(row["name"], [tuple(p) for p in row["pairs"]], row["solution"]) for row in rows]


def _neighbours(n=9):
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                yield r * n + c, r * n + c + 1
            if r + 1 < n:
                yield r * n + c, (r + 1) * n + c


def _unique(pairs, budget):
    empty = np.zeros(81, dtype=np.uint8)
    rules = sudoku.Rules(thermos=pairs)
    result = sudoku.solve(empty, rules=rules, limit=2, threads=1, engine="cages", max_nodes=budget)
    return result.status[0] == sudoku.Status.UNIQUE


def make(seed, budget=200_000):
    """One hard inequality Sudoku (see the module docstring): ``(pairs, solution)``."""
    rng = np.random.default_rng(seed)
    while True:
        start = np.zeros(81, dtype=np.uint8)
        for cell in rng.choice(81, 11, replace=False):
            start[cell] = rng.integers(1, 10)
        found = sudoku.solve(start, limit=1, threads=1)
        if found.status[0] != sudoku.Status.SOLVED:
            continue
        grid = found.solutions[0]
        pairs = [(a, b) if grid[a] < grid[b] else (b, a) for a, b in _neighbours()]
        if _unique(pairs, budget):
            break
    for index in rng.permutation(len(pairs)):
        fewer = [p for k, p in enumerate(pairs) if k != index and p is not None]
        if _unique(fewer, budget):
            pairs[index] = None
    kept = [tuple(map(int, p)) for p in pairs if p is not None]
    return kept, "".join(map(str, grid))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--make", type=int, nargs="+", default=[], metavar="SEED", help="make one per seed"
    )
    args = parser.parse_args(argv)
    rows = []
    for seed in args.make:
        pairs, solution = make(seed)
        rows.append({"name": f"made (seed {seed})", "pairs": pairs, "solution": solution})
        print(f"seed {seed}: {len(pairs)} signs", flush=True)
    if rows:
        MADE.write_text("[\n" + ",\n".join(json.dumps(row) for row in rows) + "\n]\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
