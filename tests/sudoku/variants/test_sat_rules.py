"""The SAT oracle's clauses for the setters' rules, checked against brute force.

On 4x4 grids every Latin square (576; the 288 Sudoku grids among them) is tried against
a plain-Python reading of each rule (``rule_check.broken``), and the set of grids that
pass must be the set of the oracle's solutions, for random clues of every rule kind
(boxes, Latin squares and jigsaw regions, kinds mixed). Entropic lines need a size
divisible by 3: on 6x6 puzzles with a few empty cells every completion is tried.
"""

import numpy as np
import pytest

from numbadlx.sudoku import Rules

from .rule_cases import KINDS, make_instance
from .rule_check import broken, completions, latin_squares
from .sat_oracle import random_solution, solutions

LATIN4 = latin_squares(4)


def test_the_brute_force_lists_every_grid():
    assert len(LATIN4) == 576
    assert sum(not broken(g, 4, Rules()) for g in LATIN4) == 288
    assert sum(not broken(g, 4, Rules(diagonals=True)) for g in LATIN4) == 48


def _agree(puzzle, n, rules, grids):
    want = sorted(g for g in grids if not broken(g, n, rules))
    got = sorted(solutions(puzzle, n, rules, limit=len(grids) + 1))
    assert got == want, f"{n}x{n} {rules!r} {puzzle.tolist()}"
    return len(want)


@pytest.mark.parametrize("kind", KINDS)
def test_oracle_equals_brute_force(kind):
    rng = np.random.default_rng(KINDS.index(kind))
    counts = []
    for _ in range(0 if kind == "entropic_lines" else 12):
        _, rules = make_instance(kind, 4, rng, perturb=0.3)
        counts.append(_agree(np.zeros(16, dtype=np.uint8), 4, rules, LATIN4))
    for _ in range(12 if kind == "entropic_lines" else 4):
        counts.append(_agree_6x6(kind, rng))
    # the clues bite: some rule sets leave few grids, and not every one leaves none
    assert min(counts) < 288 and max(counts) > 0, counts


def _agree_6x6(kind, rng):
    """On 6x6 (larger digits, longer lines; entropic lines need it): a full grid (the
    rules' own if they have one) with 12 cells emptied, every completion tried."""
    puzzle, rules = make_instance(kind, 6, rng, perturb=0.3)
    found = solutions(puzzle, 6, rules, limit=1)
    full = found[0] if found else random_solution(6, Rules(latin=True), rng)
    puzzle = np.array(full, dtype=np.uint8)
    puzzle[rng.choice(36, 12, replace=False)] = 0
    return _agree(puzzle, 6, rules, completions(puzzle, 6, Rules(latin=True)))


GRID4 = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]


def _pairs(test):
    """The orthogonal neighbour pairs of GRID4 whose digits pass ``test``."""
    out = []
    for a in range(16):
        for b in (a + 1, a + 4):
            if b < 16 and (b == a + 4 or b % 4) and test(GRID4[a], GRID4[b]):
                out.append((a, b))
    return out


FIVES = _pairs(lambda p, q: p + q == 5)
CONSECUTIVE = _pairs(lambda p, q: abs(p - q) == 1)
DOUBLE = _pairs(lambda p, q: p == 2 * q or q == 2 * p)
ONLY_DOUBLE = [p for p in DOUBLE if p not in CONSECUTIVE]

# (rules, the rules GRID4 breaks), read off the docstring by hand; GRID4 is
#   1 2 | 3 4
#   3 4 | 1 2
#   ----+----
#   2 1 | 4 3
#   4 3 | 2 1
BY_HAND = [
    (Rules(arrows=[((3,), (2, 6))]), []),  # 4 = 3 + 1
    (Rules(arrows=[((1, 0), (5, 6, 10, 11))]), []),  # the pill reads 12 = 4 + 1 + 4 + 3
    (Rules(arrows=[((3,), (2, 7))]), ["arrows"]),  # 3 + 2
    (Rules(little_killers=[((0, 5, 10, 15), 10)]), []),
    (Rules(little_killers=[((3, 6, 9, 12), 11)]), ["little_killers"]),
    (Rules(sandwiches=[((0, 1, 2, 3), 5), ((3, 7, 11, 15), 5), ((4, 5, 6, 7), 0)]), []),
    (Rules(sandwiches=[((8, 9, 10, 11), 1)]), ["sandwiches"]),  # 1 and 4 are neighbours
    (Rules(x_sums=[((0, 1, 2, 3), 1), ((3, 2, 1, 0), 10), ((8, 9, 10, 11), 3)]), []),
    (Rules(x_sums=[((4, 5, 6, 7), 7)]), ["x_sums"]),  # 3 + 4 + 1
    (Rules(skyscrapers=[((0, 1, 2, 3), 4), ((3, 2, 1, 0), 1), ((4, 5, 6, 7), 2)]), []),
    (Rules(skyscrapers=[((8, 9, 10, 11), 3)]), ["skyscrapers"]),  # 2, 4 seen
    (Rules(whispers=[(0, 5), ((5, 2), 1)]), []),  # 1-4 (default gap 2), 4-3 (gap 1)
    (Rules(whispers=[(0, 5, 2)]), ["whispers"]),  # 4-3 with the default gap 2
    (Rules(renbans=[(0, 1, 4)]), []),  # 1, 2, 3
    (Rules(renbans=[(0, 1, 5)]), ["renbans"]),  # 1, 2, 4
    (Rules(palindromes=[(0, 5, 6)]), []),  # 1, 4, 1
    (Rules(palindromes=[(0, 1)]), ["palindromes"]),
    (Rules(between_lines=[(0, 1, 2), (12, 13, 14)]), []),  # 2 in (1, 3); 3 in (2, 4)
    (Rules(between_lines=[(12, 9, 10, 15)]), ["between_lines"]),  # 1 is an end's digit
    (Rules(between_lines=[(0, 1)]), []),  # nothing inside
    (Rules(region_sum_lines=[(4, 0), (0, 1, 2)]), []),  # one box; 1 + 2 = 3
    (Rules(region_sum_lines=[(4, 8)]), ["region_sum_lines"]),  # 3, then 2
    (Rules(region_sum_lines=[(1, 2)]), ["region_sum_lines"]),  # 2, then 3
    (Rules(modular_lines=[((0, 1, 2, 3), 2), (0, 1, 2, 3)]), []),
    (Rules(modular_lines=[((0, 4, 8, 12), 2)]), ["modular_lines"]),  # 1 and 3 both odd
    (Rules(zipper_lines=[(4, 5, 6), (4, 5, 6, 7)]), []),  # 3 + 1 = 4; 3 + 2 = 4 + 1
    (Rules(zipper_lines=[(0, 1, 2)]), ["zipper_lines"]),  # 1 + 3 is not 2
    (Rules(lockout_lines=[((1, 5, 2), 1)]), []),  # ends 2, 3; 4 outside
    (Rules(lockout_lines=[((0, 5, 2, 3), 3)]), ["lockout_lines"]),  # 4 is an end
    (Rules(lockout_lines=[((1, 5, 2), 2)]), ["lockout_lines"]),  # ends 1 apart
    (Rules(quadruples=[((0, 1, 4, 5), (1, 3))]), []),
    (Rules(quadruples=[((0, 1, 4, 5), (1, 1))]), ["quadruples"]),  # 1 only once
    (Rules(greater=[(3, 2)], minimums=[0], maximums=[3]), []),
    (Rules(greater=[(2, 3)]), ["greater"]),
    (Rules(minimums=[1]), ["minimums"]),  # 2 beside 1
    (Rules(maximums=[5]), []),  # 4 beside 2, 3, 1, 1
    (Rules(extra_regions=[(0, 1, 10, 11)], candidates={0: [1, 2]}), []),
    (Rules(extra_regions=[(0, 5, 10, 15)]), ["extra_regions"]),  # 1, 4, 4, 1
    (Rules(candidates={0: [2, 3]}), ["candidates"]),
    (Rules(negative="v", v_pairs=FIVES), []),
    (Rules(negative="v", v_pairs=FIVES[1:]), ["negative"]),
    # every dot given: the 1-2 pairs (cells 0 and 1 ...) carry one dot, white or black
    (Rules(negative=True, white_dots=CONSECUTIVE, black_dots=ONLY_DOUBLE, v_pairs=FIVES), []),
    (
        Rules(negative=True, white_dots=CONSECUTIVE[1:], black_dots=ONLY_DOUBLE, v_pairs=FIVES),
        ["negative"],
    ),
]


@pytest.mark.parametrize("k", range(len(BY_HAND)))
def test_definitions_by_hand(k):
    rules, want = BY_HAND[k]
    assert broken(GRID4, 4, rules) == want, rules
    assert bool(solutions(GRID4, 4, rules, limit=1)) == (not want), rules


def test_dot_pairs_of_the_hand_grid():
    # the 1-2 pairs are both consecutive and double: either dot marks them
    both = set(CONSECUTIVE) & set(DOUBLE)
    assert (0, 1) in both and len(FIVES) == 8
    rules = Rules(
        negative=("white", "black"),
        white_dots=[p for p in CONSECUTIVE if p not in both],
        black_dots=DOUBLE,
    )
    assert broken(GRID4, 4, rules) == []
    assert solutions(GRID4, 4, rules, limit=1)
