"""The "cages" engine on the relation, sum and group rules, against brute force.

Every 4x4 grid (288 of them) is checked against each rule as its definition reads
(written here, apart from the engine's tables); a puzzle's solutions are the grids that
keep its givens and every rule. Larger grids: a naive backtracking search over the
empty cells, checked by the same definitions at the leaves.
"""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.engines import (
    BUDGET,
    INVALID,
    MULTIPLE,
    NO_SOLUTION,
    REGISTRY,
    SOLVED,
    UNIQUE,
    constraint_table,
)
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
        table = constraint_table(units, checked)
        if build:
            table = table._replace(**build)
    else:
        table = engine.table_for(units, checked)
    engine.solve_serial(puzzles, table, limit, max_nodes, np.zeros(1, np.int64), *out)
    return out


# -- the rules as they read ----------------------------------------------------------


def _orthogonal(n):
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
    width = min(width, len(line))
    return [line[i : i + width] for i in range(len(line) - width + 1)]


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
    for a, b in _orthogonal(n):
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


def random_rules(kind, rng, grid):
    """Random rules of ``kind`` on a 4x4 grid; sums read from ``grid`` (now and then
    off by one)."""
    n = 4

    def total(cells):
        return sum(int(grid[c]) for c in cells) + int(rng.choice([0, 0, 0, 1, -1]))

    if kind == "extra_regions":
        return Rules(
            extra_regions=[rng.choice(16, int(rng.integers(2, 5)), replace=False).tolist()]
        )
    if kind == "diagonals":
        return Rules(diagonals=str(rng.choice(["main", "anti"])))
    if kind == "candidates":
        cells = rng.choice(16, 4, replace=False).tolist()
        return Rules(candidates={c: (rng.choice(4, 2, replace=False) + 1).tolist() for c in cells})
    if kind == "negative":
        marks = list(rng.choice(["white", "black", "x", "v"], int(rng.integers(1, 5)), False))
        near = list(_orthogonal(n))
        dots = [near[k] for k in rng.choice(len(near), 3, replace=False)]
        return Rules(negative=marks, white_dots=dots[:1], black_dots=dots[1:2], v_pairs=dots[2:])
    if kind == "greater":
        return Rules(greater=[rng.choice(16, 2, replace=False).tolist() for _ in range(3)])
    if kind == "minimums":
        cells = rng.choice(16, 3, replace=False).tolist()
        return Rules(minimums=cells[:2], maximums=cells[2:])
    if kind == "whispers":
        return Rules(whispers=[(random_line(n, rng, 4), int(rng.integers(1, 4)))])
    if kind == "palindromes":
        return Rules(palindromes=[random_line(n, rng, int(rng.integers(2, 6)))])
    if kind == "modular_lines":
        return Rules(modular_lines=[(random_line(n, rng, 5), int(rng.integers(2, 5)))])
    if kind == "arrows":
        cells = random_line(n, rng, int(rng.integers(2, 5)))
        bulb = cells[:1] if rng.random() < 0.7 else cells[:2]
        line = cells[len(bulb) :] or [int((cells[0] + 5) % 16)]
        if set(line) & set(bulb) or len(line) < 1:
            line = [c for c in range(16) if c not in bulb][:1]
        return Rules(arrows=[(bulb, line)])
    if kind == "little_killers":
        cells = random_diagonal(n, rng)
        return Rules(little_killers=[(cells, min(4 * len(cells), max(len(cells), total(cells))))])
    if kind == "region_sum_lines":
        return Rules(region_sum_lines=[random_line(n, rng, int(rng.integers(2, 7)))])
    if kind == "zipper_lines":
        return Rules(zipper_lines=[random_line(n, rng, int(rng.integers(2, 7)))])
    raise AssertionError(kind)


KINDS = (
    "extra_regions",
    "diagonals",
    "candidates",
    "negative",
    "greater",
    "minimums",
    "whispers",
    "palindromes",
    "modular_lines",
    "arrows",
    "little_killers",
    "region_sum_lines",
    "zipper_lines",
)


@pytest.mark.parametrize("kind", KINDS)
def test_random_4x4_rules_agree_with_brute_force(kind):
    rng = np.random.default_rng(sum(map(ord, kind)))
    checked_cases = 0
    for _ in range(40):
        grid = GRIDS[rng.integers(len(GRIDS))]
        rules = random_rules(kind, rng, grid)
        puzzles = []
        for givens in (0, 2, 4, 6):
            puzzle = np.zeros(16, dtype=np.uint8)
            where = rng.choice(16, givens, replace=False)
            source = grid if rng.random() < 0.8 else GRIDS[rng.integers(len(GRIDS))]
            puzzle[where] = source[where]
            puzzles.append(puzzle)
        solutions, status, counts, _, _ = run(puzzles, rules, 4, limit=300)
        for k, puzzle in enumerate(puzzles):
            if clashes(puzzle, rules):
                assert status[k] == INVALID and counts[k] == 0
                checked_cases += 1
                continue
            expected = brute_force(puzzle, rules)
            assert counts[k] == len(expected), (rules, puzzle.tolist())
            want = NO_SOLUTION if not expected else UNIQUE if len(expected) == 1 else MULTIPLE
            assert status[k] == want
            if expected:
                assert any((solutions[k] == g).all() for g in expected)
            checked_cases += 1
    assert checked_cases == 160


@pytest.mark.parametrize("engine", ["bits", "dlx", "cages"])
@pytest.mark.parametrize("diagonal", ["main", "anti"])
def test_one_diagonal_on_every_table_engine(engine, diagonal):
    rules = Rules(diagonals=diagonal)
    expected = [g for g in GRIDS if keeps(g, 4, rules.checked(4))]
    assert 0 < len(expected) < len(GRIDS)
    _, status, counts, _, _ = run(np.zeros(16), rules, 4, limit=300, engine=REGISTRY[engine])
    assert counts[0] == len(expected) and status[0] == MULTIPLE
    # the other diagonal is free (on 4x4 grids one diagonal forces the other; on 9x9
    # it does not): two equal givens on it are fine
    puzzle = np.zeros(81, dtype=np.uint8)
    free = [0, 80] if diagonal == "anti" else [8, 72]
    puzzle[free] = 1
    solutions, status, _, _, _ = run(puzzle, rules, 9, limit=1, engine=REGISTRY[engine])
    grid = solutions[0].reshape(9, 9)
    assert status[0] == SOLVED and (solutions[0][free] == 1).all()
    assert keeps(solutions[0], 9, rules.checked(9))
    assert all(len(set(line)) == 9 for line in [*grid, *grid.T])
    assert all(
        len(set(grid[r : r + 3, c : c + 3].ravel())) == 9 for r in (0, 3, 6) for c in (0, 3, 6)
    )
    ruled = [8, 72] if diagonal == "anti" else [0, 80]
    puzzle = np.zeros(81, dtype=np.uint8)
    puzzle[ruled] = 1
    assert run(puzzle, rules, 9, engine=REGISTRY[engine])[1][0] == INVALID


# -- 6x6 and 9x9 puzzles around a planted solution -----------------------------------
#
# Each rule set is read off a random solution grid (arrows whose line sums to the bulb
# there, little killers with its totals, lines whose digits keep the rule...), so the
# planted grid is a solution: the engine must never answer NO_SOLUTION, every grid it
# returns must keep the rules (``keeps``), and a UNIQUE answer must be the planted
# grid. On 6x6 grids a naive backtracking search counts the solutions too.


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


def planted_line(n, rng, length, fits, tries=200):
    """A random king-step line of up to ``length`` cells whose every prefix ``fits``."""
    for _ in range(tries):
        line = random_line(n, rng, int(rng.integers(2, length + 1)))
        k = 2
        while k <= len(line) and fits(line[:k]):
            k += 1
        if k > 3 or (k == 3 and len(line) >= 2):
            return line[: k - 1]
    return None


def planted_rules(n, grid, rng):
    """Rules of every kind this module covers, each kept by ``grid``."""
    g = [int(v) for v in grid]
    box = {6: (2, 3), 9: (3, 3)}[n]
    out = {}
    arrows = []
    for _ in range(60):
        cells = random_line(n, rng, int(rng.integers(2, 5)))
        bulb, line = cells[:1], cells[1:]
        if sum(g[c] for c in line) == g[bulb[0]]:
            arrows.append((bulb, line))
    if n == 9:  # a pill: a two-digit bulb
        for _ in range(400):
            cells = random_line(n, rng, 9)
            if len(cells) >= 4 and cells[1] in (cells[0] + 1, cells[0] + n):
                bulb, line = cells[:2], cells[2:]
                target = int(f"{g[min(bulb)]}{g[max(bulb)]}")
                for k in range(1, len(line) + 1):
                    if sum(g[c] for c in line[:k]) == target:
                        arrows.append((bulb, line[:k]))
                        break
    out["arrows"] = arrows[:4]
    out["little_killers"] = [
        (cells, sum(g[c] for c in cells))
        for cells in (random_diagonal(n, rng) for _ in range(3))
        if len(cells) > 1
    ]
    out["whispers"] = [
        (line, 2)
        for line in [planted_line(n, rng, 5, lambda ln: abs(g[ln[-1]] - g[ln[-2]]) >= 2)]
        if line
    ]
    out["palindromes"] = [
        line
        for line in [planted_line(n, rng, 3, lambda ln: g[ln[0]] == g[ln[-1]]) for _ in range(3)]
        if line and len(line) > 2
    ][:1]
    third = n // 3
    out["entropic_lines"] = [
        line
        for line in [
            planted_line(
                n, rng, 6, lambda ln: len({(g[c] - 1) // third for c in ln[-3:]}) == len(ln[-3:])
            )
        ]
        if line
    ]
    out["modular_lines"] = [
        (line, 3)
        for line in [
            planted_line(n, rng, 6, lambda ln: len({g[c] % 3 for c in ln[-3:]}) == len(ln[-3:]))
        ]
        if line
    ]
    out["zipper_lines"] = [
        line
        for line in (random_line(n, rng, int(rng.integers(3, 6))) for _ in range(200))
        if keeps(grid, n, Rules(zipper_lines=[line]).checked(n))
    ][:2]
    out["region_sum_lines"] = [
        line
        for line in (random_line(n, rng, int(rng.integers(3, 6))) for _ in range(300))
        if keeps(grid, n, Rules(region_sum_lines=[line], box=box).checked(n))
        and len({(c // n // box[0], c % n // box[1]) for c in line}) > 1
    ][:2]
    pairs = [rng.choice(n * n, 2, replace=False).tolist() for _ in range(4)]
    out["greater"] = [(a, b) if g[a] > g[b] else (b, a) for a, b in pairs if g[a] != g[b]]
    near = list(_orthogonal(n))
    around = {
        cell: [b if a == cell else a for a, b in near if cell in (a, b)] for cell in range(n * n)
    }
    out["minimums"] = [c for c in range(n * n) if all(g[c] < g[o] for o in around[c])][:2]
    out["maximums"] = [c for c in range(n * n) if all(g[c] > g[o] for o in around[c])][:2]
    cells = rng.choice(n * n, n, replace=False).tolist()
    seen = {}
    for cell in cells:
        seen.setdefault(g[cell], cell)
    out["extra_regions"] = [sorted(seen.values())]
    out["candidates"] = {
        int(c): sorted({g[c], int(rng.integers(1, n + 1))}) for c in rng.choice(n * n, 4, False)
    }
    if rng.random() < 0.5:
        out["white_dots"] = [(a, b) for a, b in near if abs(g[a] - g[b]) == 1]
        out["black_dots"] = [
            (a, b)
            for a, b in near
            if (g[a] == 2 * g[b] or g[b] == 2 * g[a]) and abs(g[a] - g[b]) != 1
        ]
        out["x_pairs"] = [(a, b) for a, b in near if g[a] + g[b] == 10]
        out["v_pairs"] = [(a, b) for a, b in near if g[a] + g[b] == 5]
        out["negative"] = True
    return out


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


@pytest.mark.parametrize("n", [6, 9])
def test_planted_puzzles_keep_their_solution(n):
    rng = np.random.default_rng(n)
    box = {6: (2, 3), 9: (3, 3)}[n]
    kinds_seen = set()
    for _ in range(12 if n == 6 else 8):
        grid = solution_grid(n, *box, rng)
        fields = planted_rules(n, grid, rng)
        rules = Rules(box=box, **fields)
        checked = rules.checked(n)
        assert keeps(grid, n, checked)
        kinds_seen |= checked.kinds
        puzzles = []
        for givens in (14, 20) if n == 6 else (20, 30):
            puzzle = np.zeros(n * n, dtype=np.uint8)
            where = rng.choice(n * n, givens, replace=False)
            puzzle[where] = grid[where]
            puzzles.append(puzzle)
        solutions, status, counts, _, _ = run(puzzles, rules, n, limit=2, max_nodes=200_000)
        for k, puzzle in enumerate(puzzles):
            assert status[k] in (UNIQUE, MULTIPLE), (status[k], rules)
            found = solutions[k]
            given = puzzle > 0
            assert (found[given] == puzzle[given]).all() and keeps(found, n, checked)
            g = found.reshape(n, n)
            assert all(len(set(line)) == n for line in [*g, *g.T])
            if status[k] == UNIQUE:
                assert (found == grid).all()
            if n == 6:
                assert len(naive_count(puzzle, n, box, checked, 2)) == counts[k]
    assert kinds_seen >= {"arrows", "little_killers", "whispers", "zipper_lines", "greater"}


def test_mixed_4x4_rules_agree_with_brute_force():
    rng = np.random.default_rng(34)
    for _ in range(60):
        grid = GRIDS[rng.integers(len(GRIDS))]
        fields = {}
        for kind in rng.choice(KINDS, 3, replace=False):
            part = random_rules(str(kind), rng, grid)
            for name in part.kinds:
                fields.setdefault(name, getattr(part, name))
        if set(fields.get("minimums", ())) & set(fields.get("maximums", ())):
            continue
        rules = Rules(**fields)
        puzzle = np.zeros(16, dtype=np.uint8)
        where = rng.choice(16, int(rng.integers(0, 5)), replace=False)
        puzzle[where] = grid[where]
        solutions, status, counts, _, _ = run(puzzle, rules, 4, limit=300)
        if clashes(puzzle, rules):
            assert status[0] == INVALID
            continue
        expected = brute_force(puzzle, rules)
        assert counts[0] == len(expected), rules
        if expected:
            assert any((solutions[0] == g).all() for g in expected)


def test_givens_breaking_a_rule_are_no_solution_not_invalid():
    cases = [
        (Rules(greater=[(0, 1)]), {0: 1, 1: 2}),
        (Rules(arrows=[((0,), (1, 2))]), {0: 1}),  # two digits on the line sum to 2 at least
        (Rules(little_killers=[((0, 5, 10, 15), 9)]), {0: 4, 10: 4}),
        (Rules(palindromes=[(0, 1, 2)]), {0: 1, 2: 2}),
        (Rules(whispers=[((0, 1), 2)]), {0: 2, 1: 3}),
        (Rules(candidates={0: [2, 3]}), {0: 1}),
        (Rules(negative=True), {0: 1, 1: 2}),
        (Rules(minimums=[5]), {5: 4}),
        (Rules(zipper_lines=[(0, 1, 2)]), {1: 1}),
    ]
    for rules, givens in cases:
        puzzle = np.zeros(16, dtype=np.uint8)
        for cell, d in givens.items():
            puzzle[cell] = d
        _, status, counts, _, _ = run(puzzle, rules, 4)
        assert status[0] == NO_SOLUTION and counts[0] == 0, rules
        assert not brute_force(puzzle, rules)
    puzzle = np.zeros(16, dtype=np.uint8)
    puzzle[[0, 15]] = 3
    assert run(puzzle, Rules(extra_regions=[(0, 15)]), 4)[1][0] == INVALID


def test_public_solve_with_limits_budgets_and_threads():
    rng = np.random.default_rng(5)
    grid = solution_grid(9, 3, 3, rng)
    g = [int(v) for v in grid]
    killers = [([k * 10 for k in range(9)], sum(g[k * 10] for k in range(9)))]
    arrows = []
    while len(arrows) < 6:
        line = random_line(9, rng, 3)
        if len(line) == 3 and g[line[1]] + g[line[2]] == g[line[0]]:
            arrows.append((line[:1], line[1:]))
    rules = Rules(little_killers=killers, arrows=arrows)
    puzzles = np.zeros((6, 81), dtype=np.uint8)
    for k in range(6):
        where = rng.choice(81, 20 + 5 * k, replace=False)
        puzzles[k, where] = grid[where]
    puzzles[5, :2] = 9  # a clash: INVALID, the other rows unharmed
    both = sudoku.solve(puzzles, rules=rules, threads=2, limit=2)
    assert both.engine == "cages"
    one = sudoku.solve(puzzles, rules=rules, threads=1, limit=1)
    assert both.status.tolist()[5] == INVALID == one.status.tolist()[5]
    for k in range(5):
        assert both.status[k] in (UNIQUE, MULTIPLE) and one.status[k] == SOLVED
        assert keeps(one.solutions[k], 9, rules.checked(9))
        assert (both.solutions[k] == one.solutions[k]).all()
    tight = sudoku.solve(puzzles[:1], rules=rules, max_nodes=1, limit=2)
    assert tight.status[0] in (BUDGET, UNIQUE, MULTIPLE)
    assert tight.nodes[0] <= 1 or tight.status[0] != BUDGET
