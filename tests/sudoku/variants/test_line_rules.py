"""The "cages" engine on outside clues, lines and quadruples, against brute force.

Sandwiches, x-sums, skyscrapers, between and lockout lines, quadruples and renbans,
each checked in plain Python from its definition in the :class:`Rules` docstring
(``tests.helpers.line_rule_holds``), on every 4x4 grid and on every completion of 6x6
and 5x5 puzzles (a plain backtracking over rows, columns and boxes, the rule checked on
full grids only).
"""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.engines import (
    INVALID,
    MULTIPLE,
    NO_SOLUTION,
    REGISTRY,
    UNIQUE,
    constraint_table,
)
from tests.helpers import LINE_KINDS as KINDS
from tests.helpers import all_4x4_grids
from tests.helpers import line_rule_holds as holds
from tests.helpers import line_rules_hold as all_hold

ENGINE = REGISTRY["cages"]


# -- random rules ----------------------------------------------------------------------


def whole_line(n, rng):
    k = int(rng.integers(n))
    line = [k * n + c for c in range(n)] if rng.integers(2) else [r * n + k for r in range(n)]
    return line[::-1] if rng.integers(2) else line


def king_path(n, rng, length):
    """A random line of distinct cells, each a king's step from the one before."""
    for _ in range(100):
        path = [int(rng.integers(n * n))]
        while len(path) < length:
            r, c = divmod(path[-1], n)
            steps = [
                (r + dr) * n + c + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path
            ]
            if not steps:
                break
            path.append(int(rng.choice(steps)))
        if len(path) == length:
            return path
    raise AssertionError("no path")


def random_rule(kind, n, rng, grid):
    """One rule of ``kind``; its number read from ``grid`` (so it holds there) or, one
    time in four, drawn at random in its range (it may hold nowhere)."""
    wild = rng.integers(4) == 0
    if kind in ("sandwiches", "x_sums", "skyscrapers"):
        line = whole_line(n, rng)
        digits = [int(grid[c]) for c in line]
        if kind == "sandwiches":
            a, b = sorted((digits.index(1), digits.index(n)))
            number = sum(digits[a + 1 : b])
            if wild:
                number = int(rng.integers(n * (n - 1) // 2))
        elif kind == "x_sums":
            number = sum(digits[: digits[0]])
            if wild:
                number = int(rng.integers(1, n * (n + 1) // 2 + 1))
        else:
            number = next(s for s in range(n + 1) if holds(kind, (line, s), grid, n))
            if wild:
                number = int(rng.integers(1, n + 1))
        return (line, number)
    if kind == "quadruples":
        r, c = int(rng.integers(n - 1)), int(rng.integers(n - 1))
        four = [r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1]
        k = int(rng.integers(1, 5))
        listed = [int(grid[x]) for x in rng.permutation(four)[:k]]
        if wild:
            listed = [int(d) for d in rng.integers(1, n + 1, size=k)]
        return (four, listed)
    length = int(rng.integers(2, min(n, 5) + 1))
    for _ in range(200):
        line = king_path(n, rng, length)
        if kind == "lockout_lines":
            low, high = sorted((int(grid[line[0]]), int(grid[line[-1]])))
            gap = int(rng.integers(1, n))
            value = (line, gap if wild else max(1, min(gap, high - low)))
        else:
            value = line
        if wild or holds(kind, value, grid, n):
            return value
    return value


def random_rules(kinds, n, rng, grid, per_kind=2):
    fields = {}
    for kind in kinds:
        values = [
            random_rule(kind, n, rng, grid) for _ in range(int(rng.integers(1, per_kind + 1)))
        ]
        fields[kind] = values
    return Rules(**fields)


# -- brute force -----------------------------------------------------------------------


def completions(puzzle, n, box):
    """Every completion of ``puzzle`` (rows, columns, boxes only), by backtracking."""
    br, bc = box
    grid = list(puzzle)
    used_r = [set() for _ in range(n)]
    used_c = [set() for _ in range(n)]
    used_b = [set() for _ in range(n)]

    def bx(r, c):
        return (r // br) * (n // bc) + c // bc

    for cell, v in enumerate(grid):
        if v:
            r, c = divmod(cell, n)
            for used in (used_r[r], used_c[c], used_b[bx(r, c)]):
                assert v not in used
                used.add(v)
    empty = [cell for cell, v in enumerate(grid) if not v]
    out = []

    def go(k):
        if k == len(empty):
            out.append(list(grid))
            return
        cell = empty[k]
        r, c = divmod(cell, n)
        b = bx(r, c)
        for d in range(1, n + 1):
            if d in used_r[r] or d in used_c[c] or d in used_b[b]:
                continue
            grid[cell] = d
            used_r[r].add(d)
            used_c[c].add(d)
            used_b[b].add(d)
            go(k + 1)
            used_r[r].discard(d)
            used_c[c].discard(d)
            used_b[b].discard(d)
        grid[cell] = 0

    go(0)
    return out


def random_grid(n, box, rng):
    """A random full grid (rows, columns, boxes), by randomised backtracking."""
    puzzle = [0] * (n * n)
    first = list(rng.permutation(np.arange(1, n + 1)))
    puzzle[:n] = [int(d) for d in first]
    grids = completions(puzzle, n, box) if n <= 4 else None
    if grids:
        return grids[int(rng.integers(len(grids)))]
    # 6x6: fill the top band's other rows at random, then take one completion
    while True:
        trial = list(puzzle)
        for cell in rng.permutation(np.arange(n, n * n))[:4]:
            trial[int(cell)] = int(rng.integers(1, n + 1))
        try:
            found = completions(trial, n, box)
        except AssertionError:
            continue
        if found:
            return found[int(rng.integers(len(found)))]


# -- the engine ------------------------------------------------------------------------


def run(puzzles, rules, n, limit):
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
    checked = rules.checked(n)
    table = constraint_table(geometry.unit_table(n, rules=checked), checked)
    ENGINE.solve_units(
        puzzles, table, limit, 0, np.zeros(1, np.int64), max(1, rows), np.zeros(1, np.int64), *out
    )
    return out


def agree(puzzles, expected, rules, n):
    """The engine's counts, statuses and unique solutions equal the brute force's."""
    limit = max(2, max(len(e) for e in expected) + 1)
    solutions, status, counts, _, _ = run(puzzles, rules, n, limit)
    for k, found in enumerate(expected):
        assert counts[k] == len(found), (rules, puzzles[k], len(found))
        want = NO_SOLUTION if not found else UNIQUE if len(found) == 1 else MULTIPLE
        assert status[k] == want
        if found:
            assert any(list(solutions[k]) == list(g) for g in found)
            assert all_hold(rules, solutions[k], n)


ALL_4X4 = all_4x4_grids()


@pytest.mark.parametrize("kind", KINDS)
def test_every_4x4_grid(kind):
    rng = np.random.default_rng(KINDS.index(kind) + 40)
    for _ in range(12):
        grid = ALL_4X4[int(rng.integers(len(ALL_4X4)))]
        rules = random_rules([kind], 4, rng, grid)
        good = [g for g in ALL_4X4 if all_hold(rules, g, 4)]
        puzzles = [np.zeros(16, dtype=np.uint8)]
        for _ in range(3):
            puzzle = np.zeros(16, dtype=np.uint8)
            cells = rng.permutation(16)[: int(rng.integers(1, 6))]
            puzzle[cells] = grid[cells]
            puzzles.append(puzzle)
        expected = [[g for g in good if np.all((p == 0) | (p == g))] for p in puzzles]
        agree(np.array(puzzles), expected, rules, 4)


@pytest.mark.parametrize("kind", KINDS)
def test_6x6_completions(kind):
    rng = np.random.default_rng(KINDS.index(kind) + 60)
    for _ in range(4):
        grid = random_grid(6, (2, 3), rng)
        rules = random_rules([kind], 6, rng, grid, per_kind=3)
        puzzles = []
        expected = []
        for _ in range(3):
            puzzle = [0] * 36
            for cell in rng.permutation(36)[:7]:
                puzzle[int(cell)] = grid[int(cell)]
            puzzles.append(puzzle)
            expected.append([g for g in completions(puzzle, 6, (2, 3)) if all_hold(rules, g, 6)])
        agree(np.array(puzzles), expected, rules, 6)


def test_kinds_mixed_4x4():
    rng = np.random.default_rng(7)
    for _ in range(10):
        grid = ALL_4X4[int(rng.integers(len(ALL_4X4)))]
        kinds = [k for k in KINDS if rng.integers(2)] or ["renbans"]
        rules = random_rules(kinds, 4, rng, grid)
        good = [g for g in ALL_4X4 if all_hold(rules, g, 4)]
        agree(np.zeros((1, 16), dtype=np.uint8), [good], rules, 4)


def test_givens_breaking_a_rule_are_no_solution():
    # a renban holding 1 and 3, a skyscraper line whose first cell is 4 but sees 2:
    # rules broken by valid givens (no two equal peers) give no solution, not INVALID
    renban = Rules(renbans=[[0, 5]])
    puzzle = np.zeros(16, dtype=np.uint8)
    puzzle[[0, 5]] = [1, 3]
    _, status, _, _, _ = run(puzzle, renban, 4, 2)
    assert status[0] == NO_SOLUTION
    sky = Rules(skyscrapers=[([0, 1, 2, 3], 2)])
    puzzle = np.zeros(16, dtype=np.uint8)
    puzzle[0] = 4
    _, status, _, _, _ = run(puzzle, sky, 4, 2)
    assert status[0] == NO_SOLUTION
    # two equal givens in a row stay INVALID
    puzzle[1] = 4
    _, status, _, _, _ = run(puzzle, sky, 4, 2)
    assert status[0] == INVALID


def test_solve_takes_the_rules():
    rules = Rules(sandwiches=[([0, 1, 2, 3], 5)], skyscrapers=[([0, 4, 8, 12], 1)])
    assert sudoku.count_solutions("0" * 16, rules=rules, engine="cages") == sum(
        all_hold(rules.checked(4), g, 4) for g in ALL_4X4
    )
    assert sudoku.solve("0" * 16, rules=rules).status[0] in (UNIQUE, MULTIPLE)


def test_a_quadruple_listing_a_digit_three_times():
    rules = Rules(quadruples=[([0, 1, 4, 5], [2, 2, 2])])
    _, status, _, _, _ = run(np.zeros(16, dtype=np.uint8), rules, 4, 2)
    assert status[0] == NO_SOLUTION


def test_brute_force_check_itself():
    # the plain checks on known lines: 1 and 9 around 2+3, x-sum 3 -> 3+1+2, skyscrapers
    n = 9
    line = list(range(9))
    grid = [1, 2, 3, 9, 4, 5, 6, 7, 8] + [0] * 72
    assert holds("sandwiches", (line, 5), grid, n)
    assert not holds("sandwiches", (line, 4), grid, n)
    grid[:9] = [3, 1, 2, 9, 4, 5, 6, 7, 8]
    assert holds("x_sums", (line, 6), grid, n)
    assert holds("skyscrapers", (line, 2), grid, n)
    assert holds("renbans", [0, 1, 2], grid, n) and not holds("renbans", [2, 3], grid, n)
    assert holds("between_lines", [1, 2, 3], grid, n)
    assert holds("lockout_lines", ([3, 4, 5, 6, 7, 8], 1), [0, 0, 0, 9, 1, 3, 2, 1, 8], n)


def test_completions_count():
    # the brute force finds every 4x4 grid (288), and a 6x6 puzzle's completions are
    # the ones the "bits" engine counts (no rules: a published count's stand-in)
    assert len(completions([0] * 16, 4, (2, 2))) == 288
    rng = np.random.default_rng(3)
    grid = random_grid(6, (2, 3), rng)
    puzzle = [0] * 36
    for cell in rng.permutation(36)[:12]:
        puzzle[int(cell)] = grid[int(cell)]
    found = completions(puzzle, 6, (2, 3))
    assert grid in found and len({tuple(g) for g in found}) == len(found)
    assert sudoku.count_solutions(puzzle, engine="bits") == len(found)


def test_kinds_mixed_6x6():
    rng = np.random.default_rng(11)
    for _ in range(4):
        grid = random_grid(6, (2, 3), rng)
        rules = random_rules(KINDS, 6, rng, grid, per_kind=1)
        puzzles = []
        expected = []
        for _ in range(2):
            puzzle = [0] * 36
            for cell in rng.permutation(36)[:6]:
                puzzle[int(cell)] = grid[int(cell)]
            puzzles.append(puzzle)
            expected.append([g for g in completions(puzzle, 6, (2, 3)) if all_hold(rules, g, 6)])
        agree(np.array(puzzles), expected, rules, 6)


def test_generate_under_line_rules():
    # the making path finds its full grids through the engine for rules its own grid
    # search does not check: every puzzle made has one solution, which meets the rules
    rules = Rules(
        renbans=[[0, 1, 2]],
        quadruples=[([7, 8, 13, 14], [1, 2])],
        sandwiches=[(list(range(30, 36)), 3)],
        skyscrapers=[([5, 11, 17, 23, 29, 35], 2)],
    )
    puzzles = sudoku.generate(4, size=6, seed=3, rules=rules)
    result = sudoku.solve(puzzles, rules=rules)
    assert result.status.tolist() == [UNIQUE] * 4
    for grid in result.solutions:
        assert all_hold(rules.checked(6), grid, 6)


def test_latin_5x5_completions():
    # a prime size without boxes: the rules' lines on rows and columns only
    rng = np.random.default_rng(17)
    box = (1, 5)  # rows as "boxes": the brute force then checks rows and columns only
    for _ in range(6):
        first = [int(d) for d in rng.permutation(5) + 1] + [0] * 20
        found = completions(first, 5, box)
        grid = found[int(rng.integers(len(found)))]
        kinds = [str(k) for k in rng.choice(KINDS, 2, replace=False)]
        fields = random_rules(kinds, 5, rng, grid, per_kind=1)
        rules = Rules(latin=True, **{kind: getattr(fields, kind) for kind in kinds})
        puzzles, expected = [], []
        for _ in range(2):
            puzzle = [0] * 25
            for cell in rng.permutation(25)[:5]:
                puzzle[int(cell)] = grid[int(cell)]
            puzzles.append(puzzle)
            expected.append([g for g in completions(puzzle, 5, box) if all_hold(rules, g, 5)])
        agree(np.array(puzzles), expected, rules, 5)


@pytest.mark.parametrize(
    "line_rule, clash",
    [
        ({"entropic_lines": [[0, 1]]}, {1: [2]}),  # 1 and 2: one run on a 6x6 grid
        ({"modular_lines": [[0, 1]]}, {1: [4]}),  # 1 and 4 agree modulo 3
        ({"modular_lines": [([0, 1, 2], 4)]}, {2: [5]}),  # 1 and 5 agree modulo 4
    ],
)
def test_a_line_shorter_than_its_window_is_one_window(line_rule, clash):
    # as setters' solvers read it: every pair on the short line differs
    puzzle = np.zeros(36, dtype=np.uint8)
    puzzle[0] = 1
    rules = Rules(**line_rule, candidates=clash)
    for engine in ("cages", "auto"):
        result = sudoku.solve(puzzle, rules=rules, engine=engine, limit=1)
        assert result.status_names()[0] == "NO_SOLUTION", engine
    problem, _, _ = sudoku.to_exact_cover(puzzle, rules=rules)
    assert problem.count(limit=1) == 0
    # the same line without the clash is solved, and every pair on it differs
    looser = Rules(**line_rule)
    result = sudoku.solve(puzzle, rules=looser, limit=1)
    assert result.status_names()[0] == "SOLVED"
    digits = np.asarray(result.solutions[0]).ravel()
    for line in looser.entropic_lines:
        assert len({(int(digits[c]) - 1) // 2 for c in line}) == len(line)
    for line, m in looser.checked(6).modular_lines:
        assert len({int(digits[c]) % m for c in line}) == len(line)
