"""What the "cages" engine's sum and relation propagation buys, in search nodes.

Run by hand from the root of a checkout::

    python benchmarks/cages_propagators.py [--puzzles 20] [--results]

Puzzles are built around planted solutions (the solutions of the first puzzles of
``top95.txt``, found first): for each family of rules (arrows with pills, little
killers, zipper and region-sum lines, the negative kropki constraint with every dot
drawn, inequality signs on every pair of neighbours, whisper, entropic and modular
lines) the rules are read off the planted grid and a few givens kept. Each puzzle is
solved with ``limit=2`` by the "cages" engine under three settings of its sums:

* **full**: bounds with distinct groups (a sum's cells that are peers take distinct
  digits) and exact support for sums whose open cells have at most 512 candidate
  combinations (the default);
* **no exact**: bounds with groups only (``sum_exact=0``);
* **no groups**: exact support, bounds without the groups (each cell on its own).

It prints, per family, the statuses and the total and largest search nodes (states
propagated) of each setting, and the CPU seconds of the whole set. Nodes do not depend
on the machine's load; the seconds do.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402

from numbadlx import sudoku  # noqa: E402
from numbadlx.sudoku import Rules, geometry  # noqa: E402
from numbadlx.sudoku.engines import REGISTRY, constraint_table  # noqa: E402

N = 9
ENGINE = REGISTRY["cages"]
STATUS = {1: "UNIQUE", 3: "MULTIPLE", 4: "NO_SOLUTION", 6: "BUDGET"}


def data_path(name):
    root = os.environ.get("NUMBADLX_DATA") or os.path.join(os.getcwd(), "..", "shared", "data")
    path = os.path.join(root, name)
    if not os.path.exists(path):
        raise SystemExit(f"no such dataset file: {path} (set NUMBADLX_DATA)")
    return path


def planted_grids(count):
    with open(data_path("top95.txt")) as f:
        lines = [line.strip() for line in f if line.strip()][:count]
    result = sudoku.solve(lines, limit=1)
    return [np.array(row, dtype=np.int64) for row in result.solutions]


def king_line(rng, length, fits):
    """A random line of king steps whose every prefix ``fits`` (or None)."""
    line = [int(rng.integers(N * N))]
    while len(line) < length:
        r, c = divmod(line[-1], N)
        steps = [
            (r + dr) * N + c + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if 0 <= r + dr < N and 0 <= c + dc < N and (r + dr) * N + c + dc not in line
        ]
        steps = [s for s in steps if fits(line + [s])]
        if not steps:
            break
        line.append(int(rng.choice(steps)))
    return line if len(line) >= 2 else None


def neighbour_pairs():
    cells = np.arange(N * N).reshape(N, N)
    return [(int(a), int(b)) for a, b in zip(cells[:, :-1].ravel(), cells[:, 1:].ravel())] + [
        (int(a), int(b)) for a, b in zip(cells[:-1].ravel(), cells[1:].ravel())
    ]


def family_rules(family, g, rng):
    """Rules of ``family`` read off the grid ``g`` (a list of digits)."""
    if family == "arrows":
        arrows = []
        while len(arrows) < 10:
            line = king_line(rng, int(rng.integers(3, 5)), lambda ln: True)
            if line and sum(g[c] for c in line[1:]) == g[line[0]]:
                arrows.append((line[:1], line[1:]))
        while len(arrows) < 12:  # pills: a two-digit bulb across a row
            a = int(rng.integers(N * N))
            if a % N == N - 1:
                continue
            line = [a + 1] + (king_line(rng, 7, lambda ln: True) or [])
            target = 10 * g[a] + g[a + 1]
            shaft = [c for c in line[1:] if c not in (a, a + 1)]
            total = 0
            for k, c in enumerate(shaft):
                total += g[c]
                if total == target:
                    if all(abs(x // N - y // N) <= 1 and abs(x % N - y % N) <= 1
                           for x, y in zip(shaft[: k + 1], shaft[1 : k + 1])):  # fmt: skip
                        arrows.append(((a, a + 1), shaft[: k + 1]))
                    break
        return Rules(arrows=arrows)
    if family == "little_killers":
        killers = []
        for start in range(N - 1):  # the diagonals from the top row, down-right
            cells = [start + k * (N + 1) for k in range(N - start)]
            killers.append((cells, sum(g[c] for c in cells)))
            cells = [start * N + k * (N + 1) for k in range(N - start)]
            if start:
                killers.append((cells, sum(g[c] for c in cells)))
        return Rules(little_killers=killers[::2])
    if family == "zipper_region_sum":
        zippers, regions = [], []
        box = [(c // N // 3) * 3 + c % N // 3 for c in range(N * N)]
        while len(zippers) < 4:
            line = king_line(rng, int(rng.integers(3, 8)), lambda ln: True)
            if line and Rules(zipper_lines=[line]).checked(N) and _zip_ok(line, g):
                zippers.append(line)
        while len(regions) < 4:
            line = king_line(rng, int(rng.integers(3, 7)), lambda ln: True)
            if line and len({box[c] for c in line}) > 1 and _region_ok(line, g, box):
                regions.append(line)
        return Rules(zipper_lines=zippers, region_sum_lines=regions)
    if family == "negative_kropki":
        near = neighbour_pairs()
        white = [(a, b) for a, b in near if abs(g[a] - g[b]) == 1]
        black = [(a, b) for a, b in near if g[a] == 2 * g[b] or g[b] == 2 * g[a]]
        black = [p for p in black if p not in white]
        return Rules(white_dots=white, black_dots=black, negative=("white", "black"))
    if family == "greater":
        near = neighbour_pairs()
        return Rules(greater=[(a, b) if g[a] > g[b] else (b, a) for a, b in near])
    if family == "lines":
        whispers = [king_line(rng, 8, lambda ln: abs(g[ln[-1]] - g[ln[-2]]) >= 5)]
        entropic = [
            king_line(rng, 8, lambda ln: len({(g[c] - 1) // 3 for c in ln[-3:]}) == len(ln[-3:]))
        ]
        modular = [king_line(rng, 8, lambda ln: len({g[c] % 3 for c in ln[-3:]}) == len(ln[-3:]))]
        return Rules(
            whispers=[w for w in whispers if w] * 1,
            entropic_lines=[e for e in entropic if e],
            modular_lines=[m for m in modular if m],
        )
    raise ValueError(family)


def _zip_ok(line, g):
    k = len(line)
    totals = {g[line[i]] + g[line[k - 1 - i]] for i in range(k // 2)}
    if k % 2:
        totals.add(g[line[k // 2]])
    return len(totals) == 1


def _region_ok(line, g, box):
    sums = [g[line[0]]]
    for prev, cell in zip(line, line[1:]):
        if box[cell] == box[prev]:
            sums[-1] += g[cell]
        else:
            sums.append(g[cell])
    return len(set(sums)) == 1


FAMILIES = {
    "arrows": 6,
    "little_killers": 10,
    "zipper_region_sum": 12,
    "negative_kropki": 2,
    "greater": 0,
    "lines": 16,
}
SETTINGS = {
    "full": {},
    "exact 8192": {"sum_exact": 8192},
    "no exact": {"sum_exact": 0},
    "no groups": {"sum_groups": False},
    "no triples": {"triples": False},
}


def solve(puzzles, rules, setting):
    checked = rules.checked(N)
    units = geometry.unit_table(N, rules=checked)
    table = constraint_table(units, checked, **setting)
    rows = len(puzzles)
    out = (
        np.zeros((rows, N * N), np.uint8),
        np.zeros(rows, np.uint8),
        np.zeros(rows, np.int64),
        np.zeros(rows, np.int64),
        np.zeros(rows, np.int64),
    )
    began = time.process_time()
    ENGINE.solve_units(
        np.asarray(puzzles, np.uint8),
        table,
        2,
        2_000_000,
        np.zeros(1, np.int64),
        max(1, rows),
        np.zeros(1, np.int64),
        *out,
    )
    return out[1], out[3], time.process_time() - began


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=12, help="puzzles per family")
    machine.add_results_option(parser, "cages_propagators")
    args = parser.parse_args()
    print(machine.describe("numbadlx: what the cages engine's sum propagation buys"))
    grids = planted_grids(args.puzzles)
    rng = np.random.default_rng(2026)
    print()
    print(f"{'family':<18} {'setting':<10} {'statuses':<28} {'nodes':>10} {'max':>8} {'cpu s':>7}")
    print(f"{'-' * 18} {'-' * 10} {'-' * 28} {'-' * 10} {'-' * 8} {'-' * 7}")
    for family, givens in FAMILIES.items():
        cases = []
        for grid in grids:
            g = [int(v) for v in grid]
            rules = family_rules(family, g, rng)
            puzzle = np.zeros(N * N, np.uint8)
            where = rng.choice(N * N, givens, replace=False)
            puzzle[where] = grid[where]
            cases.append((puzzle, rules))
        for name, setting in SETTINGS.items():
            statuses, nodes, seconds = [], [], 0.0
            for puzzle, rules in cases:
                status, node, spent = solve([puzzle], rules, setting)
                statuses.append(STATUS.get(int(status[0]), str(status[0])))
                nodes.append(int(node[0]))
                seconds += spent
            tally = ", ".join(f"{s} {statuses.count(s)}" for s in sorted(set(statuses)))
            print(
                f"{family:<18} {name:<10} {tally:<28} {sum(nodes):>10} {max(nodes):>8} "
                f"{seconds:>7.2f}",
                flush=True,
            )
    print(f"# load avg at end {machine.load_average()}")


if __name__ == "__main__":
    machine.run(main, "cages_propagators", "What the cages engine's sum propagation buys")
