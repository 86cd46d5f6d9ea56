"""Every rule against the SAT oracle: random rule sets and puzzles (4x4 to 9x9, with and
without boxes), statuses and solutions of every engine that solves them and of the
exact-cover model searched by numbadlx.core, equal to the oracle's."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku.cover import decode_cover
from tests.helpers import bounds_checked, make_case

from .sat_oracle import is_solution, solutions

TYPES = [
    "diagonals",
    "windoku",
    "disjoint",
    "anti_knight",
    "anti_king",
    "regions",
    "latin",
    "non_consecutive",
    "cages",
    "killer",
    "thermos",
    "white_dots",
    "black_dots",
    "x_pairs",
    "v_pairs",
    "odd_even",
    "mixed",
]
SIZES = (4, 6, 8, 9)


def cases(kind, count, seed, sizes=SIZES):
    rng = np.random.default_rng(seed)
    by_size = {}
    for _ in range(count):
        n = int(rng.choice(sizes))
        by_size.setdefault(n, []).append(make_case(kind, n, rng))
    return by_size


def _expected(puzzle, n, rules):
    return solutions(puzzle, n, rules, limit=2)


def check_engine(engine, puzzles, rules_list, n, expected):
    try:
        result = sudoku.solve(puzzles, rules=rules_list, engine=engine, box=None)
    except ValueError as error:
        assert "does not solve the rules" in str(error) or "only" in str(error)
        return 0
    for k, found in enumerate(expected):
        status = sudoku.Status(result.status[k])
        where = f"{engine} {n}x{n} {rules_list[k]!r} {sudoku.format_line(puzzles[k])}"
        if len(found) == 0:
            assert status in (sudoku.Status.NO_SOLUTION, sudoku.Status.INVALID), where
        elif len(found) == 1:
            assert status == sudoku.Status.UNIQUE, where
            assert result.solutions[k].tolist() == found[0], where
        else:
            assert status == sudoku.Status.MULTIPLE, where
            assert is_solution(puzzles[k], n, rules_list[k], result.solutions[k]), where
    return 1


def check_cover(puzzle, n, rules, found):
    problem, cells, digits = sudoku.to_exact_cover(puzzle, rules=rules)
    got = [decode_cover(puzzle, s, cells, digits).tolist() for s in problem.solutions(limit=2)]
    where = f"cover {n}x{n} {rules!r} {sudoku.format_line(puzzle)}"
    assert len(got) == len(found), where
    if len(found) == 1:
        assert got == found, where
    for grid in got:
        assert is_solution(puzzle, n, rules, grid), where


def run_kind(kind, count, seed, sizes=SIZES):
    for n, group in cases(kind, count, seed, sizes).items():
        puzzles = np.stack([p for p, _ in group])
        rules_list = [r for _, r in group]
        expected = [_expected(p, n, r) for p, r in group]
        ran = sum(
            check_engine(engine, puzzles, rules_list, n, expected)
            for engine in ("auto", "bits", "dlx", "bands")
        )
        assert ran >= 1
        for (puzzle, rules), found in zip(group, expected):
            check_cover(puzzle, n, rules, found)


@pytest.mark.parametrize("kind", TYPES)
def test_rule_against_sat_4x4(kind):
    run_kind(kind, 6, seed=TYPES.index(kind), sizes=(4,))


@pytest.mark.slow
@pytest.mark.parametrize("kind", TYPES)
def test_rule_against_sat_quick(kind):
    run_kind(kind, 20, seed=100 + TYPES.index(kind))


# The many-case tier checks answers, not memory safety: the NUMBA_BOUNDSCHECK=1 run of
# the suite keeps the two tiers above and skips this one. It stays in the plain run (a
# quarter of that run's time) whatever NUMBADLX_ONCE_IN says: moved, it would make the
# bounds-checked run the longer one by far (tests/helpers.py, run_once).
@pytest.mark.slow
@pytest.mark.skipif(bounds_checked(), reason="run once, in the plain run of the suite")
@pytest.mark.parametrize("kind", TYPES)
def test_rule_against_sat_many(kind):
    # the mixed rule sets are the slowest to check by SAT (a third of the tier's time)
    run_kind(kind, 50 if kind == "mixed" else 100, seed=1000 + TYPES.index(kind))
