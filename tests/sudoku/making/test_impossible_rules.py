"""``generate`` under unit and peer rules that no grid meets: it says so at once.

The making kernels' random-grid search restarted for ever when its complete search of
the empty grid found no grid. Each rule set on 4x4 is checked against the solver
(``sudoku.solve`` of the empty grid, an engine apart from making's own search): no
solution there, "no grid meets the rules" from ``generate``; a solution there, a
unique puzzle from ``generate``.
"""

import itertools
import warnings

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, Status

TABLE_RULES = ["latin", "diagonals", "windoku", "disjoint", "anti_knight", "anti_king"]


def _rule_sets(size):
    """Every set of the table rules that is valid on ``size`` (disjoint groups need
    boxes), with whether the empty grid has a solution under it."""
    empty = np.zeros((1, size * size), dtype=np.uint8)
    for r in range(1, len(TABLE_RULES) + 1):
        for names in itertools.combinations(TABLE_RULES, r):
            if "latin" in names and "disjoint" in names:
                continue
            rules = Rules(**dict.fromkeys(names, True))
            status = sudoku.solve(empty, rules=rules, limit=1).status[0]
            yield names, rules, status == Status.SOLVED


def test_generate_says_no_grid_meets_the_rules_whenever_the_solver_finds_none():
    impossible = 0
    for names, rules, possible in _rule_sets(4):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a timeout's "0 of 1 puzzles made" fails
            if possible:
                puzzles = sudoku.generate(2, 4, seed=3, rules=rules, timeout=30)
                result = sudoku.solve(puzzles, rules=rules)
                assert (result.status == Status.UNIQUE).all(), names
            else:
                impossible += 1
                # (the timeout only bounds the test if the search loops again)
                with pytest.raises(ValueError, match="no grid meets the rules"):
                    sudoku.generate(1, 4, seed=3, rules=rules, timeout=30)
    assert impossible > 20  # anti-king alone, and most sets with two links or more


def test_no_grid_is_also_said_for_a_larger_grid_and_by_the_parallel_kernel():
    # a 6x6 latin square with both diagonals and no two equal digits a king's move apart
    # does not exist (the solver's word); more puzzles than the serial kernel takes
    rules = Rules(latin=True, anti_king=True, diagonals=True)
    empty = np.zeros((1, 36), dtype=np.uint8)
    assert sudoku.solve(empty, rules=rules, limit=1).status[0] == Status.NO_SOLUTION
    with pytest.raises(ValueError, match=r"no grid meets the rules \['anti_king'"):
        sudoku.generate(80, 6, seed=1, rules=rules, threads=2, timeout=60)
