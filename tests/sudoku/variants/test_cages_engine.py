"""The "cages" engine against an independent SAT model, on random rule sets and puzzles.

The SAT model is written here from the rules' definitions (one variable per cell and
digit; cages as tables of allowed digit tuples; thermos, pairs and parities as
forbidden combinations), and knows nothing of the engine's propagation.
"""

import itertools

import numpy as np
import pytest
from pysat.solvers import Minisat22

from numbadlx._stopping import call_on_lanes, new_flag
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

ENGINE = REGISTRY["cages"]
BESIDE = {
    "white_dots": lambda d, e: abs(d - e) == 1,
    "black_dots": lambda d, e: d == 2 * e or e == 2 * d,
    "x_pairs": lambda d, e: d + e == 10,
    "v_pairs": lambda d, e: d + e == 5,
}


def run(puzzles, rules, n, limit=2, max_nodes=0):
    """The engine's kernel, one call on this thread, on ``puzzles`` (rows of n*n) under
    ``rules``."""
    puzzles = np.atleast_2d(np.asarray(puzzles, dtype=np.uint8))
    rows = puzzles.shape[0]
    out = (
        np.zeros_like(puzzles),
        np.zeros(rows, dtype=np.uint8),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
    )
    stop, counter = np.zeros(1, np.int64), np.zeros(1, np.int64)
    ENGINE.solve_units(
        puzzles, table_of(rules, n), limit, max_nodes, stop, max(1, rows), counter, *out
    )
    return out


def table_of(rules, n):
    checked = rules.checked(n)
    return constraint_table(geometry.unit_table(n, rules=checked), checked)


# -- the oracle ----------------------------------------------------------------------


def distinct_groups(n, rules):
    """The sets of cells holding distinct digits: the units, the cages and the pairs
    a chess move apart (anti-knight, anti-king), from the rules' own definitions."""
    checked = rules.checked(n)
    cells = np.arange(n * n).reshape(n, n)
    groups = [list(row) for row in cells] + [list(col) for col in cells.T]
    r, c = checked.box if checked.box is not None else (1, n)
    if checked.has_boxes:
        groups += [
            list(cells[i : i + r, j : j + c].ravel())
            for i in range(0, n, r)
            for j in range(0, n, c)
        ]
    if checked.diagonals:
        groups += [list(np.diagonal(cells)), list(np.diagonal(cells[:, ::-1]))]
    steps = []
    if checked.anti_knight:
        steps += [(1, 2), (2, 1), (2, -1), (1, -2)]
    if checked.anti_king:
        steps += [(1, 1), (1, -1)]  # the orthogonal neighbours share a row or column
    for i in range(n):
        for j in range(n):
            for di, dj in steps:
                if 0 <= i + di < n and 0 <= j + dj < n:
                    groups.append([cells[i, j], cells[i + di, j + dj]])
    groups += [list(cage) for cage, _ in checked.cages]
    return [[int(x) for x in group] for group in groups]


def sat_model(n, rules, grid):
    """CNF clauses of ``grid`` (givens) under ``rules``; variable of (cell, digit d)
    is ``cell * n + d`` (d from 1)."""

    def var(cell, d):
        return int(cell) * n + int(d)

    clauses = []
    nn = n * n
    for cell in range(nn):
        clauses.append([var(cell, d) for d in range(1, n + 1)])
        for d, e in itertools.combinations(range(1, n + 1), 2):
            clauses.append([-var(cell, d), -var(cell, e)])
    groups = distinct_groups(n, rules)
    for group in groups:
        for a, b in itertools.combinations(group, 2):
            for d in range(1, n + 1):
                clauses.append([-var(a, d), -var(b, d)])
    top = nn * n
    for cells, total in rules.cages:
        if total is None:
            continue
        # one selector per allowed tuple; some selector holds
        selectors = []
        for digits in itertools.permutations(range(1, n + 1), len(cells)):
            if sum(digits) != total:
                continue
            top += 1
            selectors.append(top)
            for cell, d in zip(cells, digits):
                clauses.append([-top, var(cell, d)])
        clauses.append(selectors)
    for thermo in rules.thermos:
        for a, b in zip(thermo, thermo[1:]):
            for d in range(1, n + 1):
                for e in range(1, d + 1):
                    clauses.append([-var(a, d), -var(b, e)])
    pairs = [(kind, a, b) for kind in BESIDE for a, b in getattr(rules, kind)]
    if rules.non_consecutive:
        for cell in range(nn):
            r, c = divmod(cell, n)
            if c + 1 < n:
                pairs.append(("non_consecutive", cell, cell + 1))
            if r + 1 < n:
                pairs.append(("non_consecutive", cell, cell + n))
    for kind, a, b in pairs:
        ok = BESIDE.get(kind, lambda d, e: abs(d - e) != 1)
        for d in range(1, n + 1):
            for e in range(1, n + 1):
                if not ok(d, e):
                    clauses.append([-var(a, d), -var(b, e)])
    for cell in rules.odd:
        clauses += [[-var(cell, d)] for d in range(2, n + 1, 2)]
    for cell in rules.even:
        clauses += [[-var(cell, d)] for d in range(1, n + 1, 2)]
    for cell, v in enumerate(grid):
        if v:
            clauses.append([var(cell, int(v))])
    return clauses


def sat_solutions(n, rules, grid, limit=2):
    """Up to ``limit`` solutions of the SAT model, as lists of digits."""
    found = []
    with Minisat22(bootstrap_with=sat_model(n, rules, grid)) as solver:
        while len(found) < limit and solver.solve():
            true = {v for v in solver.get_model() if 0 < v <= n * n * n}
            digits = [0] * (n * n)
            for v in true:
                cell, d = divmod(v - 1, n)
                digits[cell] = d + 1
            found.append(digits)
            solver.add_clause([-(cell * n + d) for cell, d in enumerate(digits)])
    return found


def clashing(n, rules, grid):
    """Whether the givens are INVALID by the engines' rule: a value above n, or two
    equal givens in a unit or in a cage."""
    if any(v > n for v in grid):
        return True
    for group in distinct_groups(n, rules):
        seen = [grid[c] for c in group if grid[c]]
        if len(seen) != len(set(seen)):
            return True
    return False


# -- random cases --------------------------------------------------------------------


def random_solution(n, rng):
    """A random classic solution of an n x n grid (a pattern, then its symmetries)."""
    r, c = geometry.unit_table(n)[1:3]
    rows = [b * r + i for b in rng.permutation(n // r) for i in rng.permutation(r)]
    cols = [b * c + j for b in rng.permutation(n // c) for j in rng.permutation(c)]
    digits = rng.permutation(n) + 1
    grid = np.empty((n, n), dtype=np.int64)
    for i, row in enumerate(rows):
        for j, col in enumerate(cols):
            grid[i, j] = digits[(c * (row % r) + row // r + col) % n]
    return grid.ravel()


def neighbours(cell, n):
    r, c = divmod(cell, n)
    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            yield (r + dr) * n + c + dc


def random_cages(n, solution, rng, cover):
    """Random connected cages of 1 to 4 cells (every cell when ``cover``), their
    totals read from ``solution`` (one now and then made wrong or None)."""
    free = set(range(n * n)) if cover else set(rng.choice(n * n, n * n // 2, replace=False))
    cages = []
    while free:
        cell = min(free) if cover else int(rng.choice(sorted(free)))
        cells = [cell]
        free.discard(cell)
        for _ in range(int(rng.integers(0, 4))):
            options = [
                b
                for a in cells
                for b in neighbours(a, n)
                if b in free and solution[b] not in solution[cells]
            ]
            if not options:
                break
            b = int(rng.choice(options))
            cells.append(b)
            free.discard(b)
        total = int(solution[cells].sum())
        roll = rng.random()
        if roll < 0.05:
            total = None
        elif roll < 0.08 and len(cells) > 1:
            low, high = (
                len(cells) * (len(cells) + 1) // 2,
                len(cells) * (2 * n - len(cells) + 1) // 2,
            )
            total = int(rng.integers(low, high + 1))
        cages.append((tuple(cells), total))
        if not cover and len(cages) >= n:
            break
    return cages


def random_thermos(n, solution, rng, count):
    thermos = []
    for _ in range(count):
        cell = int(rng.integers(n * n))
        line = [cell]
        while len(line) < 5:
            up = [
                b
                for b in neighbours(line[-1], n)
                if b not in line and solution[b] > solution[line[-1]]
            ]
            if not up:
                break
            line.append(int(rng.choice(up)))
        if len(line) > 1:
            thermos.append(tuple(line))
    return thermos


def random_pairs(n, solution, rng, kind, count):
    """Pairs of adjacent cells that hold in ``solution``, and now and then one that
    does not."""
    pairs = []
    for _ in range(count):
        a = int(rng.integers(n * n))
        b = int(rng.choice(list(neighbours(a, n))))
        if BESIDE[kind](solution[a], solution[b]) or rng.random() < 0.1:
            pairs.append((a, b))
    return pairs


def random_rules(n, solution, rng):
    kinds = rng.random(6) < 0.5
    rules = {}
    if kinds[0]:
        rules["cages"] = random_cages(n, solution, rng, cover=rng.random() < 0.5)
    if kinds[1]:
        rules["thermos"] = random_thermos(n, solution, rng, int(rng.integers(1, 4)))
    if kinds[2]:
        for kind in BESIDE:
            if rng.random() < 0.5:
                rules[kind] = random_pairs(n, solution, rng, kind, int(rng.integers(1, 6)))
    if kinds[3]:
        cells = rng.choice(n * n, int(rng.integers(1, n)), replace=False)
        flip = rng.random() < 0.1
        rules["odd"] = [int(c) for c in cells if (solution[c] % 2 == 1) != flip]
        rules["even"] = [int(c) for c in cells if (solution[c] % 2 == 1) == flip]
    if kinds[4] and rng.random() < 0.3:
        rules["non_consecutive"] = True
    if kinds[5]:
        # unit and peer rules the solution obeys, or not (then mostly no solution)
        rules["latin"] = bool(rng.random() < 0.4)
        for name in ("diagonals", "anti_knight", "anti_king"):
            rules[name] = bool(rng.random() < 0.2)
    return Rules(**rules)


def random_puzzle(n, solution, rng):
    grid = solution * (rng.random(n * n) < rng.choice([0.0, 0.1, 0.3, 0.5]))
    if rng.random() < 0.1:
        grid[int(rng.integers(n * n))] = int(rng.integers(1, n + 1))
    return grid.astype(np.uint8)


def check_case(n, rules, grid):
    solutions, status, counts, nodes, guesses = run(grid, rules, n)
    expected = sat_solutions(n, rules, grid)
    if clashing(n, rules, grid):
        assert status[0] == INVALID, (rules, grid)
        return INVALID
    want = {0: NO_SOLUTION, 1: UNIQUE, 2: MULTIPLE}[len(expected)]
    assert status[0] == want, (rules, grid.tolist(), expected)
    assert counts[0] == len(expected)
    if want == UNIQUE:
        assert solutions[0].tolist() == expected[0]
    elif want == MULTIPLE:
        # the first solution kept is one of the model's
        assert sat_solutions(n, rules, solutions[0], limit=1) == [solutions[0].tolist()]
    else:
        assert not solutions[0].any()
    return want


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 6])
def test_random_rule_sets_match_sat(n):
    rng = np.random.default_rng(2024 + n)
    seen = set()
    for _ in range(500 if n == 4 else 400):
        solution = random_solution(n, rng)
        rules = random_rules(n, solution, rng)
        seen.add(check_case(n, rules, random_puzzle(n, solution, rng)))
    assert seen >= {UNIQUE, MULTIPLE, NO_SOLUTION, INVALID}


def test_a_few_random_cases_match_sat():
    rng = np.random.default_rng(7)
    for _ in range(20):
        solution = random_solution(4, rng)
        rules = random_rules(4, solution, rng)
        check_case(4, rules, random_puzzle(4, solution, rng))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(cages=[((0, 1), 3), ((2, 3), 7)]),
        Rules(thermos=[(0, 1, 2, 3)]),
        Rules(white_dots=[(0, 1)], black_dots=[(4, 5)], v_pairs=[(8, 9)]),
        Rules(odd=[0, 5, 10], even=[15]),
        Rules(non_consecutive=True),
    ],
)
def test_each_rule_alone_on_an_empty_4x4(rules):
    grid = np.zeros(16, dtype=np.uint8)
    want = sat_solutions(4, rules, grid, limit=400)
    solutions, status, counts, _, _ = run(grid, rules, 4, limit=400)
    assert counts[0] == len(want)
    assert solutions[0].tolist() in want or not want and status[0] == NO_SOLUTION


def test_statuses_of_the_givens():
    rules = Rules(cages=[((0, 5), 3)], odd=[15])
    grid = np.zeros(16, dtype=np.uint8)
    grid[0] = grid[5] = 1  # twice in a cage (not a unit)
    assert run(grid, rules, 4)[1][0] == INVALID
    grid[5] = 0
    grid[0] = 5  # above n
    assert run(grid, rules, 4)[1][0] == INVALID
    grid[0] = 0
    grid[15] = 2  # an odd cell holding 2: no solution, not invalid
    assert run(grid, rules, 4)[1][0] == NO_SOLUTION
    assert run(np.zeros(16, dtype=np.uint8), rules, 4, limit=1)[1][0] == SOLVED


def test_node_budget_returns_budget():
    rules = Rules(thermos=[(0, 1)])
    solutions, status, counts, nodes, _ = run(np.zeros(36, np.uint8), rules, 6, 10**6, 5)
    assert status[0] == BUDGET and nodes[0] == 5 and counts[0] >= 0
    status = run(np.zeros(36, np.uint8), rules, 6, 2, 10**6)[1]
    assert status[0] == MULTIPLE


def test_two_threads_sharing_the_units_match_one_call():
    rng = np.random.default_rng(11)
    solution = random_solution(6, rng)
    rules = Rules(cages=random_cages(6, solution, rng, cover=True))
    puzzles = np.stack([random_puzzle(6, solution, rng) for _ in range(40)])
    serial = run(puzzles, rules, 6)
    out = tuple(np.zeros_like(a) for a in serial)
    with new_flag() as stop:  # two calls at once, one counter, units of 3 rows
        counter = np.zeros(1, np.int64)
        call_on_lanes(
            ENGINE.solve_units, stop, 2, puzzles, table_of(rules, 6), 2, 0, stop, 3, counter, *out
        )
    for a, b in zip(serial, out):
        assert (a == b).all()
