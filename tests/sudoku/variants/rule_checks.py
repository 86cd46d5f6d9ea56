"""Shared by the tests of the "cages" engine's rules: each rule as its definition reads
(:func:`keeps`, written apart from the engine's tables), brute force over every 4x4
grid, a naive backtracking twin, random lines and solution grids, and the engine's
serial kernel on a batch.
"""

import numpy as np

from numbadlx.sudoku import geometry
from numbadlx.sudoku.engines import REGISTRY, constraint_table
from tests.helpers import all_4x4_grids

ENGINE = REGISTRY["cages"]
GRIDS = all_4x4_grids()


def run(puzzles, rules, n, limit=2, max_nodes=0, engine=ENGINE, **build):
    """The engine's serial kernel on rows of n*n; returns the five result arrays."""
    puzzles = np.atleast_2d(np.asarray(puzzles, dtype=np.uint8))
    rows = puzzles.shape[0]
    out = (
        np.zeros_like(puzzles),
        np.zeros(rows, dtype=np.uint8),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
    )
    checked = rules.checked(n)
    units = geometry.unit_table(n, rules=checked)
    if engine is ENGINE:
        table = constraint_table(units, checked, **build)
    else:
        table = engine.table_for(units, checked)
    engine.solve_units(
        puzzles,
        table,
        limit,
        max_nodes,
        np.zeros(1, np.int64),
        max(1, rows),
        np.zeros(1, np.int64),
        *out,
    )
    return out


# -- the rules as they read ----------------------------------------------------------


def orthogonal(n):
    for cell in range(n * n):
        r, c = divmod(cell, n)
        if c + 1 < n:
            yield cell, cell + 1
        if r + 1 < n:
            yield cell, cell + n


def _box_of(n, rules):
    if rules.regions is not None:
        return list(rules.regions)
    r, c = rules.box
    return [(cell // n // r) * (n // c) + cell % n // c for cell in range(n * n)]


def _windows(line, width):
    """Every run of ``width`` consecutive cells (a shorter line is one run)."""
    return [line[i : i + width] for i in range(max(1, len(line) - width + 1))]


def keeps(grid, n, rules):
    """Whether the full ``grid`` keeps every constraint rule of ``rules`` (checked)."""
    g = [int(v) for v in grid]
    marks = {
        "white_dots": lambda d, e: abs(d - e) == 1,
        "black_dots": lambda d, e: d == 2 * e or e == 2 * d,
        "x_pairs": lambda d, e: d + e == 10,
        "v_pairs": lambda d, e: d + e == 5,
    }
    for kind, ok in marks.items():
        if not all(ok(g[a], g[b]) for a, b in getattr(rules, kind)):
            return False
    for region in rules.extra_regions:
        if len({g[c] for c in region}) != len(region):
            return False
    if rules.main_diagonal and len({g[i * n + i] for i in range(n)}) != n:
        return False
    if rules.anti_diagonal and len({g[(n - 1 - i) * n + i] for i in range(n)}) != n:
        return False
    if any(g[cell] not in digits for cell, digits in rules.candidates):
        return False
    dotted = {frozenset(p) for p in rules.white_dots + rules.black_dots}
    crossed = {frozenset(p) for p in rules.x_pairs + rules.v_pairs}
    for a, b in orthogonal(n):
        d, e = g[a], g[b]
        if frozenset((a, b)) not in dotted:
            if "white" in rules.negative and abs(d - e) == 1:
                return False
            if "black" in rules.negative and (d == 2 * e or e == 2 * d):
                return False
        if frozenset((a, b)) not in crossed:
            if "x" in rules.negative and d + e == 10:
                return False
            if "v" in rules.negative and d + e == 5:
                return False
        if a in rules.minimums and not g[a] < g[b] or b in rules.minimums and not g[b] < g[a]:
            return False
        if a in rules.maximums and not g[a] > g[b] or b in rules.maximums and not g[b] > g[a]:
            return False
    if not all(g[a] > g[b] for a, b in rules.greater):
        return False
    for line, gap in rules.whispers:
        if any(abs(g[x] - g[y]) < gap for x, y in zip(line, line[1:])):
            return False
    for line in rules.palindromes:
        if [g[c] for c in line] != [g[c] for c in reversed(line)]:
            return False
    third = n // 3
    for line in rules.entropic_lines:
        for window in _windows(line, 3):
            if len({(g[c] - 1) // third for c in window}) != len(window):
                return False
    for line, m in rules.modular_lines:
        for window in _windows(line, m):
            if len({g[c] % m for c in window}) != len(window):
                return False
    for bulb, line in rules.arrows:
        if sum(g[c] for c in line) != int("".join(str(g[c]) for c in sorted(bulb))):
            return False
    for cells, total in rules.little_killers:
        if sum(g[c] for c in cells) != total:
            return False
    if rules.region_sum_lines and (rules.has_boxes or rules.regions is not None):
        box = _box_of(n, rules)
        for line in rules.region_sum_lines:
            sums = [g[line[0]]]
            for prev, cell in zip(line, line[1:]):
                if box[cell] == box[prev]:
                    sums[-1] += g[cell]
                else:
                    sums.append(g[cell])
            if len(set(sums)) > 1:
                return False
    for line in rules.zipper_lines:
        k = len(line)
        totals = {g[line[i]] + g[line[k - 1 - i]] for i in range(k // 2)}
        if k % 2:
            totals.add(g[line[k // 2]])
        if len(totals) > 1:
            return False
    return True


def brute_force(puzzle, rules):
    """The 4x4 grids (2x2 boxes) that keep the givens of ``puzzle`` and ``rules``."""
    checked = rules.checked(4)
    puzzle = np.asarray(puzzle)
    given = puzzle > 0
    found = [g for g in GRIDS if (g[given] == puzzle[given]).all() and keeps(g, 4, checked)]
    return found


def clashes(puzzle, rules):
    """Whether two equal givens of a 4x4 puzzle share a row, column, box, the rules'
    diagonal or an extra region (the INVALID of the contract)."""
    checked = rules.checked(4)
    cells = np.arange(16).reshape(4, 4)
    groups = [
        *cells,
        *cells.T,
        *[cells[r : r + 2, c : c + 2].ravel() for r in (0, 2) for c in (0, 2)],
    ]
    groups += [np.array(region) for region in checked.extra_regions]
    if checked.main_diagonal:
        groups.append(np.diagonal(cells))
    if checked.anti_diagonal:
        groups.append(np.diagonal(cells[:, ::-1]))
    for group in groups:
        seen = [int(puzzle[c]) for c in group if puzzle[c]]
        if len(seen) != len(set(seen)):
            return True
    return False


# -- random material -----------------------------------------------------------------


def random_line(n, rng, length):
    """A random path of king steps, no cell twice, up to ``length`` cells."""
    line = [int(rng.integers(n * n))]
    while len(line) < length:
        r, c = divmod(line[-1], n)
        steps = [
            (r + dr) * n + c + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in line
        ]
        if not steps:
            break
        line.append(int(rng.choice(steps)))
    return line


def random_diagonal(n, rng):
    start = int(rng.integers(n * n))
    r, c = divmod(start, n)
    dr, dc = (int(v) for v in rng.choice([-1, 1], size=2))
    cells = []
    while 0 <= r < n and 0 <= c < n:
        cells.append(r * n + c)
        r, c = r + dr, c + dc
    return cells[: int(rng.integers(1, len(cells) + 1))]


def solution_grid(n, r, c, rng):
    """A random solution of an n x n grid with r x c boxes (a pattern, shuffled)."""
    rows = [b * r + i for b in rng.permutation(n // r) for i in rng.permutation(r)]
    cols = [b * c + j for b in rng.permutation(n // c) for j in rng.permutation(c)]
    digits = rng.permutation(n) + 1
    grid = np.empty((n, n), dtype=np.int64)
    for i, row in enumerate(rows):
        for j, col in enumerate(cols):
            grid[i, j] = digits[(c * (row % r) + row // r + col) % n]
    return grid.ravel()


def naive_count(puzzle, n, box, rules, limit):
    """Solutions of ``puzzle`` by filling cells in order with distinct digits (rows,
    columns, boxes), every rule checked at the leaves; up to ``limit``."""
    r, c = box
    grid = [int(v) for v in puzzle]
    unit_of = [
        (cell // n, n + cell % n, 2 * n + (cell // n // r) * (n // c) + cell % n // c)
        for cell in range(n * n)
    ]
    used = [set() for _ in range(3 * n)]
    for cell, v in enumerate(grid):
        if v:
            for u in unit_of[cell]:
                used[u].add(v)
    empty = [cell for cell in range(n * n) if not grid[cell]]
    found = []

    def fill(k):
        if len(found) >= limit:
            return
        if k == len(empty):
            if keeps(grid, n, rules):
                found.append(list(grid))
            return
        cell = empty[k]
        for d in range(1, n + 1):
            if all(d not in used[u] for u in unit_of[cell]):
                grid[cell] = d
                for u in unit_of[cell]:
                    used[u].add(d)
                fill(k + 1)
                for u in unit_of[cell]:
                    used[u].discard(d)
        grid[cell] = 0

    fill(0)
    return found
