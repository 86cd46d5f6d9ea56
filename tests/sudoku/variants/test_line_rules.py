"""The "cages" engine on outside clues, lines and quadruples, against brute force.

Sandwiches, x-sums, skyscrapers, between and lockout lines, quadruples and renbans,
each checked here in plain Python from its definition in the :class:`Rules` docstring
(:func:`holds`), on every 4x4 grid and on every completion of 6x6 puzzles (a plain
backtracking over rows, columns and boxes, the rule checked on full grids only).
"""

from collections import Counter

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
from tests.helpers import all_4x4_grids

ENGINE = REGISTRY["cages"]
KINDS = (
    "sandwiches",
    "x_sums",
    "skyscrapers",
    "between_lines",
    "lockout_lines",
    "quadruples",
    "renbans",
)


# -- the rules, from their definitions -------------------------------------------------


def holds(kind, value, grid, n):
    """Whether the full ``grid`` (flat digits) meets one rule ``value`` of ``kind``."""
    if kind in ("sandwiches", "x_sums", "skyscrapers"):
        line, number = value
        digits = [int(grid[c]) for c in line]
        if kind == "sandwiches":
            a, b = sorted((digits.index(1), digits.index(n)))
            return sum(digits[a + 1 : b]) == number
        if kind == "x_sums":
            return sum(digits[: digits[0]]) == number
        tallest, seen = 0, 0
        for d in digits:
            if d > tallest:
                tallest, seen = d, seen + 1
        return seen == number
    if kind == "quadruples":
        four, listed = value
        have = Counter(int(grid[c]) for c in four)
        return all(have[d] >= k for d, k in Counter(listed).items())
    if kind == "lockout_lines":
        line, gap = value
        digits = [int(grid[c]) for c in line]
        low, high = sorted((digits[0], digits[-1]))
        return high - low >= gap and all(d < low or d > high for d in digits[1:-1])
    digits = [int(grid[c]) for c in value]
    if kind == "between_lines":
        low, high = sorted((digits[0], digits[-1]))
        return all(low < d < high for d in digits[1:-1])
    # renbans: distinct, consecutive
    return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1


def all_hold(rules, grid, n):
    return all(holds(kind, value, grid, n) for kind in KINDS for value in getattr(rules, kind))


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
    """The engine's serial kernel on ``puzzles`` (rows of n*n) under ``rules``."""
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
    ENGINE.solve_serial(puzzles, table, limit, 0, np.zeros(1, np.int64), *out)
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


# -- published puzzles -------------------------------------------------------------------


def around_the_clock(clues, n):
    """Skyscraper clues listed clockwise from the top-left corner (the top from left to
    right, the right side downwards, the bottom from right to left, the left side
    upwards; 0 for none), as ``(line, seen)`` pairs."""
    lines = []
    for k in range(n):
        lines.append([r * n + k for r in range(n)])  # top, looking down
    for k in range(n):
        lines.append([k * n + c for c in range(n - 1, -1, -1)])  # right, looking left
    for k in range(n):
        col = n - 1 - k
        lines.append([r * n + col for r in range(n - 1, -1, -1)])  # bottom, looking up
    for k in range(n):
        row = n - 1 - k
        lines.append([row * n + c for c in range(n)])  # left, looking right
    return [(line, seen) for line, seen in zip(lines, clues) if seen]


# Skyscraper puzzles of the codewars katas "4 By 4 Skyscrapers", "6 By 6 Skyscrapers"
# and "7x7 Skyscrapers" (the latter taken from Conceptis Puzzles): Latin squares with
# clues around the grid, each with its published unique solution.
SKYSCRAPERS = [
    (
        [2, 2, 1, 3, 2, 2, 3, 1, 1, 2, 2, 3, 3, 2, 1, 3],
        [[1, 3, 4, 2], [4, 2, 1, 3], [3, 4, 2, 1], [2, 1, 3, 4]],
    ),
    (
        [0, 0, 0, 2, 2, 0, 0, 0, 0, 6, 3, 0, 0, 4, 0, 0, 0, 0, 4, 4, 0, 3, 0, 0],
        [
            [5, 6, 1, 4, 3, 2],
            [4, 1, 3, 2, 6, 5],
            [2, 3, 6, 1, 5, 4],
            [6, 5, 4, 3, 2, 1],
            [1, 2, 5, 6, 4, 3],
            [3, 4, 2, 5, 1, 6],
        ],
    ),
    (
        [7, 0, 0, 0, 2, 2, 3, 0, 0, 3, 0, 0, 0, 0, 3, 0, 3, 0, 0, 5, 0, 0, 0, 0, 0, 5, 0, 4],
        [
            [1, 5, 6, 7, 4, 3, 2],
            [2, 7, 4, 5, 3, 1, 6],
            [3, 4, 5, 6, 7, 2, 1],
            [4, 6, 3, 1, 2, 7, 5],
            [5, 3, 1, 2, 6, 4, 7],
            [6, 2, 7, 3, 1, 5, 4],
            [7, 1, 2, 4, 5, 6, 3],
        ],
    ),
    (
        [0, 2, 3, 0, 2, 0, 0, 5, 0, 4, 5, 0, 4, 0, 0, 4, 2, 0, 0, 0, 6, 5, 2, 2, 2, 2, 4, 1],
        [
            [7, 6, 2, 1, 5, 4, 3],
            [1, 3, 5, 4, 2, 7, 6],
            [6, 5, 4, 7, 3, 2, 1],
            [5, 1, 7, 6, 4, 3, 2],
            [4, 2, 1, 3, 7, 6, 5],
            [3, 7, 6, 2, 1, 5, 4],
            [2, 4, 3, 5, 6, 1, 7],
        ],
    ),
    (
        [3, 3, 2, 1, 2, 2, 3, 4, 3, 2, 4, 1, 4, 2, 2, 4, 1, 4, 5, 3, 2, 3, 1, 4, 2, 5, 2, 3],
        [
            [2, 1, 4, 7, 6, 5, 3],
            [6, 4, 7, 3, 5, 1, 2],
            [1, 2, 3, 6, 4, 7, 5],
            [5, 7, 6, 2, 3, 4, 1],
            [4, 3, 5, 1, 2, 6, 7],
            [7, 6, 2, 5, 1, 3, 4],
            [3, 5, 1, 4, 7, 2, 6],
        ],
    ),
]


@pytest.mark.parametrize("clues, solution", SKYSCRAPERS)
def test_published_skyscrapers(clues, solution):
    n = len(solution)
    rules = Rules(latin=True, skyscrapers=around_the_clock(clues, n))
    want = np.array(solution).ravel()
    assert all_hold(rules, want, n)
    solutions, status, _, _, _ = run(np.zeros(n * n, dtype=np.uint8), rules, n, 2)
    assert status[0] == UNIQUE
    assert solutions[0].tolist() == want.tolist()


def test_published_sandwich():
    # Cracking the Cryptic's sandwich sudoku of https://www.youtube.com/watch?v=qUZnq5nP0zI
    # (as transcribed with its solution in Timwi's PuzzleSolvers tests)
    columns = [15, 9, 26, 8, 8, 12, 0, 12, 6]
    rows = [7, 14, 20, 2, 8, 26, 10, 31, 16]
    givens = "............9......1............9...............8............5......5............"
    solution = "389251476457968123216374985648539217935127648721846539894613752162785394573492861"
    rules = Rules(
        sandwiches=[([r * 9 + c for c in range(9)], total) for r, total in enumerate(rows)]
        + [([r * 9 + c for r in range(9)], total) for c, total in enumerate(columns)]
    )
    puzzle = np.array([0 if ch == "." else int(ch) for ch in givens], dtype=np.uint8)
    want = np.array([int(ch) for ch in solution])
    assert all_hold(rules, want, 9)
    solutions, status, _, _, _ = run(puzzle, rules, 9, 2)
    assert status[0] == UNIQUE
    assert solutions[0].tolist() == want.tolist()


def _cell(text):
    r, c = text[1:].split("C")
    return (int(r) - 1) * 9 + int(c) - 1


def _line(which):
    """A whole row ("R3") or column ("C3") of a 9x9 grid, read from its top or left."""
    k = int(which[1:]) - 1
    return [k * 9 + c for c in range(9)] if which[0] == "R" else [r * 9 + k for r in range(9)]


def read_published(text):
    """``(puzzle, Rules)`` of a 9x9 puzzle written as "." separated pieces: givens
    ``~R1C2_5``, and the rules this file needs (the notation of the example list the
    puzzles below were transcribed from)."""
    puzzle = [0] * 81
    rules = {}
    for piece in filter(None, text.split(".")):
        kind, *args = piece.split("~")
        add = rules.setdefault
        if kind == "":
            for given in args:
                cell, digit = given.split("_")
                puzzle[_cell(cell)] = int(digit)
        elif kind == "Sandwich":
            add("sandwiches", []).append((_line(args[1]), int(args[0])))
        elif kind in ("XSum", "Skyscraper"):
            name = "x_sums" if kind == "XSum" else "skyscrapers"
            line = _line(args[0])
            for clue, cells in zip(args[1:], (line, line[::-1])):
                if clue:
                    add(name, []).append((cells, int(clue)))
        elif kind == "Renban":
            add("renbans", []).append([_cell(c) for c in args])
        elif kind == "Between":
            add("between_lines", []).append([_cell(c) for c in args])
        elif kind == "Lockout":
            add("lockout_lines", []).append(([_cell(c) for c in args[1:]], int(args[0])))
        elif kind == "Quad":
            top = _cell(args[0])
            four = [top, top + 1, top + 9, top + 10]
            add("quadruples", []).append((four, [int(d) for d in args[1:]]))
        elif kind == "BlackDot":
            add("black_dots", []).append((_cell(args[0]), _cell(args[1])))
        elif kind == "Diagonal":
            rules["diagonals"] = True
        else:
            raise AssertionError(kind)
    return puzzle, Rules(**rules)


# Published puzzles with their published solutions, each from the page or video named
# (transcribed in that notation in an open-source solver's list of example puzzles).
PUBLISHED = {
    # Cracking the Cryptic, "Between 1 and 9", https://www.youtube.com/watch?v=2wfR6QIvNn4
    "sandwiches": (
        ".Sandwich~8~C1.Sandwich~4~C2.Sandwich~17~C3.Sandwich~35~C4.Sandwich~14~C5"
        ".Sandwich~13~C6.Sandwich~3~C7.Sandwich~10~C8.Sandwich~25~C9.Sandwich~4~R1"
        ".Sandwich~33~R2.Sandwich~20~R3.Sandwich~17~R4.Sandwich~26~R5.Sandwich~10~R6"
        ".Sandwich~16~R7.Sandwich~24~R8.Sandwich~0~R9.~R3C3_1~R5C5_5~R7C7_9",
        "236941875954378612871625439182439756397856124645217398413562987569783241728194563",
    ),
    # Cracking the Cryptic, https://www.youtube.com/watch?v=rLlZA5ZND00
    "skyscrapers": (
        ".~R1C1_1~R1C6_2~R1C9_8~R3C1_3~R3C4_6~R3C7_4~R5C1_5~R5C3_2~R5C6_3~R7C1_7~R7C4_8"
        "~R7C7_2~R9C9_6~R9C6_4~R9C1_9.Skyscraper~C5~5.Skyscraper~R2~2.Skyscraper~R4~4"
        ".Skyscraper~R6~6.Skyscraper~R8~8",
        "147932658826145937359678412678419325592783164413256789765891243234567891981324576",
    ),
    # Tom Collyer's x-sums sudoku, Cracking the Cryptic,
    # https://www.youtube.com/watch?v=fnCzYnsC4Ow
    "x_sums": (
        ".XSum~C2~27~27.XSum~C4~11~11.XSum~C6~21~.XSum~C7~16~16.XSum~R2~8~8.XSum~R4~17~17"
        ".XSum~R6~30~30.XSum~R8~28~28.",
        "856214379341975862792863541417529683985631724623487195274156938539748216168392457",
    ),
    # "'Leven", Cracking the Cryptic, https://www.youtube.com/watch?v=XouRUgRsVSA
    "renbans": (
        ".Renban~R4C8~R4C9~R5C9~R6C9.Renban~R7C9~R8C9~R9C9~R9C8.Renban~R6C7~R7C7~R8C7~R8C6"
        ".Renban~R2C6~R1C6~R1C5~R1C4.Renban~R2C1~R1C1~R1C2~R1C3.Renban~R2C3~R2C4~R3C4~R4C4"
        ".Renban~R5C5~R5C6~R6C6~R7C6.Renban~R5C4~R5C3~R6C3~R7C3.Renban~R3C1~R4C1~R5C1~R5C2"
        ".Renban~R7C1~R8C1~R9C1~R9C2.Renban~R7C4~R8C4~R9C4~R9C3.~R3C7_1.BlackDot~R2C9~R3C9"
        ".BlackDot~R1C7~R1C8.BlackDot~R3C6~R3C5.BlackDot~R4C7~R5C7",
        "132769845496518723758342196815473269963285417274196358521937684389624571647851932",
    ),
    # Sudoku Variants Series (173), Between Lines Sudoku,
    # https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?chlang=en&id=0002KO
    "between_lines": (
        ".Between~R9C5~R8C6~R7C7~R6C8~R5C9.Between~R9C3~R8C4~R7C5~R6C6~R5C7~R4C8~R3C9"
        ".Between~R1C9~R2C8~R3C7~R4C6~R5C5~R6C4~R7C3~R8C2~R9C1.Between~R5C1~R4C2~R3C3~R2C4"
        "~R1C5.Between~R7C1~R6C2~R5C3~R4C4~R3C5~R2C6~R1C7.~R1C2_9~R2C1_2~R2C7_1~R4C3_6"
        "~R4C5_7~R4C8_5~R5C2_3~R5C8_8~R6C5_5~R6C7_2~R8C3_9~R8C9_8~R9C8_1",
        "697531842258497163314862579846273951532149786971658234125386497469715328783924615",
    ),
    # Lockout Lines (DSM 23 Quali Training),
    # https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=000CM1
    "lockout_lines": (
        ".Lockout~4~R1C2~R2C2~R3C2~R4C2.Lockout~4~R4C2~R3C3~R2C3~R1C2"
        ".Lockout~4~R2C5~R2C4~R3C4~R3C5~R4C5~R4C4.Lockout~4~R4C6~R3C6~R2C6~R1C6~R2C7~R1C8"
        "~R2C8~R3C8~R4C8.Lockout~4~R6C3~R6C4~R7C4~R7C3~R8C3~R8C4"
        ".Lockout~4~R8C5~R8C6~R8C7~R7C6~R6C7~R6C6~R6C5.~R3C1_2~R3C9_8~R5C4_5~R6C1_3~R9C7_9"
        "~R9C2_1",
        "563814729489752316271693548627189453148536297395427861934271685752968134816345972",
    ),
    # Quadruple X, https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=00040T
    "quadruples": (
        ".Diagonal~1.Diagonal~-1.Quad~R1C1~1~4~6~7.Quad~R5C1~2~3.Quad~R6C1~1~2"
        ".Quad~R3C3~1~2~4~8.Quad~R6C3~3~5~8~9.Quad~R2C4~6~7.Quad~R7C5~3~6.Quad~R3C6~4~5~8~9"
        ".Quad~R6C6~2~3~6~7.Quad~R3C8~1~2.Quad~R4C8~1~5.Quad~R8C8~2~3~4~5",
        "762384591415729368398165427654278913837691245129543786543812679971436852286957134",
    ),
}


@pytest.mark.parametrize("kind", sorted(PUBLISHED))
def test_published_puzzles(kind):
    text, solution = PUBLISHED[kind]
    puzzle, rules = read_published(text)
    assert getattr(rules, kind)
    want = [int(ch) for ch in solution]
    assert all_hold(rules, want, 9)  # the plain checks agree with the setter's solution
    solutions, status, _, _, _ = run(np.array(puzzle), rules, 9, 2)
    assert status[0] == UNIQUE
    assert solutions[0].tolist() == want


def test_published_in_bulk_on_two_threads():
    # every published puzzle in one call, each with its own rules: "auto" takes the
    # "cages" engine, the parallel kernel solves them, in input order
    read = [read_published(PUBLISHED[kind][0]) for kind in sorted(PUBLISHED)]
    puzzles = np.array([puzzle for puzzle, _ in read] * 2, dtype=np.uint8)
    rules = [r for _, r in read] * 2
    result = sudoku.solve(puzzles, rules=rules, threads=2)
    assert result.status.tolist() == [UNIQUE] * len(rules)
    want = [[int(ch) for ch in PUBLISHED[kind][1]] for kind in sorted(PUBLISHED)] * 2
    assert result.solutions.tolist() == want
    assert "cages" in result.engine
    # a node budget ends a search as BUDGET, the contract's way (the between lines
    # puzzle, first, takes 3 nodes)
    few = sudoku.solve(puzzles[:1], rules=rules[:1], max_nodes=1, engine="cages")
    assert few.status.tolist() == [sudoku.Status.BUDGET]


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
