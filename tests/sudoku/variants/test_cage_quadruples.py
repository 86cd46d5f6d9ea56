"""Killer cages that meet quadruples: the digit sets the "cages" engine keeps for such a
cage, against a brute force over the square's digits, and whole puzzles against the SAT
oracle."""

import itertools

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.engines import _constraint_tables as tables
from numbadlx.sudoku.engines import constraint_table

from .sat_oracle import random_solution, solutions


def square_fits(combo, cage, four, digits, n):
    """Whether the square's four cells can hold digits meeting the listed counts, the
    cage's cells among them holding distinct digits of ``combo`` (the other cells any
    digit): every filling tried."""
    inside = [c for c in four if c in cage]
    options = [
        [d for d in range(1, n + 1) if combo >> (d - 1) & 1] if c in inside else range(1, n + 1)
        for c in four
    ]
    for values in itertools.product(*options):
        mine = [v for c, v in zip(four, values) if c in inside]
        if len(set(mine)) < len(mine):
            continue
        if all(values.count(d) >= digits.count(d) for d in set(digits)):
            return True
    return False


def test_digit_sets_kept_are_those_a_square_can_take():
    rng = np.random.default_rng(34)
    n = 6
    for _ in range(300):
        top = int(rng.integers(n - 1)) * n + int(rng.integers(n - 1))
        four = (top, top + 1, top + n, top + n + 1)
        digits = tuple(sorted(int(d) for d in rng.integers(1, n + 1, int(rng.integers(1, 5)))))
        size = int(rng.integers(1, 5))
        cage = tuple(int(c) for c in rng.choice([*four, 0, 35, 17], size, replace=False))
        for combo in range(1, 1 << n):
            if bin(combo).count("1") != size:
                continue
            want = square_fits(combo, cage, four, digits, n)
            assert tables._fits_quadruples(combo, cage, [(four, digits)]) == want, (
                combo,
                cage,
                four,
                digits,
            )


def test_published_boxes_needs_few_nodes():
    # clover!'s "Boxes": each three-cell cage lies in a quadruple listing three digits,
    # so it holds two of them (with 11: 2, 4, 5) and the fourth cell the third
    cages = [((20, 21, 29), 11), ((23, 24, 33), 14), ((51, 59, 60), 17), ((47, 56, 57), 20)]
    quads = [
        ((20, 21, 29, 30), (3, 4, 5)),
        ((23, 24, 32, 33), (4, 5, 6)),
        ((50, 51, 59, 60), (5, 6, 7)),
        ((47, 48, 56, 57), (6, 7, 8)),
    ]
    rules = Rules(cages=cages, quadruples=quads).checked(9)
    table = constraint_table(geometry.unit_table(9, rules=rules), rules)
    first = [table.combos[table.combo_start[k] : table.combo_start[k + 1]] for k in range(4)]
    assert [[int(m) for m in sets] for sets in first] == [
        [0b11010],
        [0b110100],
        [0b1101000],
        [0b11010000],
    ]


def random_case(n, rng):
    """A puzzle with cages through quadruples, read off a random grid; now and then a
    total or a listed digit off (maybe no solution)."""
    grid = random_solution(n, Rules(), rng)
    quads, cages, used = [], [], set()
    for _ in range(int(rng.integers(1, 4))):
        top = int(rng.integers(n - 1)) * n + int(rng.integers(n - 1))
        four = [top, top + 1, top + n, top + n + 1]
        shown = sorted(grid[c] for c in rng.permutation(four)[: int(rng.integers(2, 5))])
        if rng.random() < 0.15:
            shown[0] = int(rng.integers(1, n + 1))
        quads.append((four, sorted(shown)))
        free = [c for c in four if c not in used]
        size = min(len(free), int(rng.integers(2, 4)))
        if size < 2:
            continue
        cage = [int(c) for c in rng.permutation(free)[:size]]
        if rng.random() < 0.5:  # one cell outside the square
            out = [c for c in (top + 2, top + 2 * n, top - 1) if 0 <= c < n * n and c not in used]
            out = [c for c in out if c not in four and grid[c] not in [grid[x] for x in cage]]
            cage += out[:1]
        if len({grid[c] for c in cage}) < len(cage):
            continue
        used.update(cage)
        total = sum(grid[c] for c in cage) + int(rng.choice([0, 0, 0, 0, 1, -1]))
        cages.append((cage, total))
    rules = Rules(cages=cages, quadruples=quads)
    puzzle = np.array(grid, dtype=np.uint8)
    puzzle[rng.random(n * n) < 0.6] = 0
    return puzzle, rules


@pytest.mark.parametrize("n", [4, 6])
def test_cages_in_quadruples_against_sat(n):
    rng = np.random.default_rng(340 + n)
    checked = 0
    for _ in range(60):
        puzzle, rules = random_case(n, rng)
        try:
            rules.checked(n)
        except ValueError:
            continue
        found = solutions(puzzle, n, rules, limit=2)
        result = sudoku.solve(puzzle, rules=rules, engine="cages")
        status = sudoku.Status(result.status[0])
        where = f"{rules!r} {sudoku.format_line(puzzle)}"
        if not found:
            assert status == sudoku.Status.NO_SOLUTION, where
        elif len(found) == 1:
            assert status == sudoku.Status.UNIQUE, where
            assert result.solutions[0].tolist() == found[0], where
        else:
            assert status == sudoku.Status.MULTIPLE, where
        checked += 1
    assert checked >= 40
