"""Givens that break a rule: the exact-cover model, ``solve`` and SAT all find nothing.

A given is its cell's only digit, but the cell's own rules still hold for it: an even
digit given in an odd cell leaves the model no option for that cell. Every rule the
cover model encodes is tried with a grid that breaks it given in full, and the rules on
a few cells with only those cells given.
"""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules
from numbadlx.sudoku.cover import decode_cover

from .rule_cases import KINDS, make_instance
from .rule_check import broken
from .sat_oracle import random_solution, solutions

OLDER = ("odd", "even", "cages", "thermos", "white_dots", "black_dots", "x_pairs", "v_pairs")
REFUSED = ("no exact-cover model", "does not solve the rules")


def _cover_solutions(puzzle, rules):
    problem, cells, digits = sudoku.to_exact_cover(puzzle, rules=rules)
    return [
        decode_cover(puzzle, s, cells, digits, rules=rules).tolist()
        for s in problem.solutions(limit=2)
    ]


def _check(puzzle, n, rules):
    """The three agree that ``puzzle`` has no solution: ``(solve ran, cover ran)``
    (each False while it does not take the rules)."""
    where = f"{n}x{n} {rules!r} {sudoku.format_line(puzzle)}"
    assert solutions(puzzle, n, rules, limit=1) == [], where
    ran = [True, True]
    try:
        status = sudoku.Status(sudoku.solve([puzzle], rules=rules, engine="auto").status[0])
    except ValueError as error:  # no engine takes these rules yet
        if not any(words in str(error) for words in REFUSED):
            raise
        ran[0] = False
    else:
        assert status in (sudoku.Status.NO_SOLUTION, sudoku.Status.INVALID), where
    try:
        assert _cover_solutions(puzzle, rules) == [], where
    except ValueError as error:
        if not any(words in str(error) for words in REFUSED):
            raise
        ran[1] = False
    return tuple(ran)


def test_an_even_given_in_an_odd_cell():
    puzzle = np.array([2] + [0] * 15, dtype=np.uint8)
    for rules in (Rules(odd=[0]), Rules(odd=[0], latin=True)):
        assert _cover_solutions(puzzle, rules) == []
        assert sudoku.solve([puzzle], rules=rules).status[0] == sudoku.Status.NO_SOLUTION
    assert _cover_solutions(puzzle, Rules(even=[0]))  # the same given, kept
    assert _cover_solutions("1" + "0" * 15, Rules(even=[0])) == []


def test_a_rule_cell_left_without_digits():
    # the odd digits of cell 0 are given in its row: the odd cell has no digit left,
    # first on a thermometer or inside a cage
    puzzle = "0130" + "0" * 12
    for rules in (
        Rules(odd=[0], thermos=[[0, 4]]),
        Rules(odd=[0], cages=[([4, 0], 5)]),
        Rules(even=[4], odd=[0], white_dots=[(4, 0)]),
    ):
        assert all(_check(np.array([int(c) for c in puzzle], dtype=np.uint8), 4, rules))


def _older_rules(kind, n, rng):
    """A random rule of an older kind on a few cells (the grid decides if it holds)."""
    a = int(rng.integers(n * n - n))
    b = a + n if rng.random() < 0.5 or a % n == n - 1 else a + 1
    if kind in ("odd", "even"):
        return Rules(**{kind: [int(c) for c in rng.choice(n * n, 3, replace=False)]})
    if kind == "cages":
        return Rules(cages=[([a, b], int(rng.integers(3, 2 * n)))])
    if kind == "thermos":
        return Rules(thermos=[[a, b]])
    return Rules(**{kind: [(a, b)]})


def _breaking_cases(kind, count, seed):
    """``(puzzle, n, rules)``: grids that break the rule of ``kind``, given in full or
    (older kinds) on the rule's cells only."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        n = int(rng.choice((4, 6) if kind != "entropic_lines" else (6,)))
        if kind in OLDER:
            rules = _older_rules(kind, n, rng)
        else:
            _, rules = make_instance(kind, n, rng, mix=0.2, perturb=0.0)
        base = Rules(latin=rules.latin, regions=rules.regions)
        grid = random_solution(n, base, rng)
        if grid is None or not broken(grid, n, rules):
            continue
        puzzle = np.array(grid, dtype=np.uint8)
        if kind in OLDER and rng.random() < 0.5:
            cells = set(rules.odd + rules.even)
            for field in ("cages", "thermos", "white_dots", "black_dots", "x_pairs", "v_pairs"):
                for item in getattr(rules, field):
                    cells.update(item[0] if field == "cages" else item)
            keep = np.zeros(n * n, dtype=bool)
            keep[sorted(cells)] = True
            puzzle[~keep] = 0
        out.append((puzzle, n, rules))
    return out


@pytest.mark.parametrize("kind", OLDER + KINDS)
def test_givens_breaking_a_rule(kind):
    ran = [_check(p, n, r) for p, n, r in _breaking_cases(kind, 8, len(kind))]
    if not any(any(pair) for pair in ran):
        pytest.skip(f"neither an engine nor the exact-cover model takes {kind} yet")
