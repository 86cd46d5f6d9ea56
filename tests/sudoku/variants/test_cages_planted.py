"""The "cages" engine on 6x6 and 9x9 puzzles built around a planted solution.

Each rule set is read off a random solution grid (arrows whose line sums to the bulb
there, little killers with its totals, lines whose digits keep the rule...), so the
planted grid is a solution: the engine must never answer NO_SOLUTION, every grid it
returns must keep the rules (:func:`.rule_checks.keeps`), and a UNIQUE answer must be
the planted grid. On 6x6 grids a naive backtracking search counts the solutions too.
"""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules
from numbadlx.sudoku.engines import BUDGET, INVALID, MULTIPLE, SOLVED, UNIQUE

from .rule_checks import (
    keeps,
    naive_count,
    orthogonal,
    random_diagonal,
    random_line,
    run,
    solution_grid,
)


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
    near = list(orthogonal(n))
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


def test_generate_under_the_new_rules_makes_unique_puzzles():
    rules = Rules(
        little_killers=[((0, 10, 20, 30, 40, 50, 60, 70, 80), 45)],
        whispers=[[1, 2, 3]],
        greater=[(9, 18)],
    )
    puzzles = sudoku.generate(2, rules=rules, seed=3)
    result = sudoku.solve(puzzles, rules=rules)
    assert result.status.tolist() == [UNIQUE, UNIQUE]
    for solution in result.solutions:
        assert keeps(solution, 9, rules.checked(9))
