"""Search strength of the "cages" engine: contradictions found within a node budget,
inequality Sudokus solved to their one solution, and the ordering bounds against a
naive twin written from their definition."""

import itertools

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.engines import PLACED, constraint_table
from numbadlx.sudoku.engines._ordering import order_bounds, order_groups
from tests.helpers import call_inner

from .sat_oracle import solutions

EMPTY = np.zeros(81, dtype=np.uint8)


@pytest.mark.parametrize(
    "pairs",
    [
        [(36, 45), (45, 54)],  # down a column: 36 and 54 both 10 - d45
        [(36, 37), (37, 38)],  # along a row
        [(0, 10), (10, 20)],  # inside a box
        [(54, 45), (36, 45)],  # the same column chain, pairs written the other way
    ],
)
def test_chained_x_pairs_fail_within_a_thousand_nodes(pairs):
    result = sudoku.solve(
        EMPTY, rules=Rules(x_pairs=pairs), engine="cages", threads=1, max_nodes=1000
    )
    assert result.status[0] == sudoku.Status.NO_SOLUTION
    assert result.nodes[0] <= 1000


def test_x_pairs_apart_still_have_solutions():
    # the same chain with its ends in different rows, columns and boxes: no clash
    result = sudoku.solve(
        EMPTY, rules=Rules(x_pairs=[(36, 45), (45, 58)]), engine="cages", limit=1, threads=1
    )
    assert result.status[0] == sudoku.Status.SOLVED
    grid = result.solutions[0]
    assert grid[36] + grid[45] == 10 and grid[45] + grid[58] == 10


def _from_signs(row_signs, column_signs, n=9):
    """Two-cell thermometers (smaller, larger) from rows of "<", ">" and "." signs."""
    pairs = []
    for r, signs in enumerate(row_signs):
        for c, sign in enumerate(signs):
            if sign != ".":
                a, b = r * n + c, r * n + c + 1
                pairs.append((a, b) if sign == "<" else (b, a))
    for r, signs in enumerate(column_signs):
        for c, sign in enumerate(signs):
            if sign != ".":
                a, b = r * n + c, (r + 1) * n + c
                pairs.append((a, b) if sign == "<" else (b, a))
    return pairs


# A Greater Than Sudoku with all 108 signs inside the boxes, from a constraint-
# programming course's Choco model (University of Montpellier); no givens.
COURSE = _from_signs(
    (
        "<<.<<.>>",
        "<>.><.>>",
        ">>.<>.<>",
        "><.><.><",
        ">>.<>.><",
        "<>.<>.><",
        "><.><.<>",
        "<>.<>.><",
        "<>.><.<>",
    ),
    (
        "><><<>><>",
        "<><<<>><>",
        ".........",
        ">>><<>>><",
        "><<>><>><",
        ".........",
        "<<>><><>>",
        ">>><<<><<",
    ),
)
COURSE_SOLUTION = (
    "267139854193548762854672391938215647621794538475386219519823476786451923342967185"
)

# A hard one made for the benchmark (benchmarks/inequality.py, seed 11): a random grid,
# a sign between every two neighbours, then signs taken away while one solution stays.
MADE = [
    (1, 10), (11, 2), (3, 4), (3, 12), (5, 6), (14, 5), (7, 8), (8, 17), (9, 10), (10, 11),
    (17, 26), (18, 27), (19, 20), (29, 20), (21, 22), (22, 23), (24, 23), (25, 24), (29, 38),
    (39, 30), (33, 42), (43, 34), (35, 44), (37, 36), (38, 37), (39, 38), (47, 38), (49, 40),
    (42, 51), (44, 53), (46, 45), (49, 58), (50, 59), (52, 61), (56, 55), (55, 64), (57, 56),
    (56, 65), (66, 57), (61, 62), (63, 72), (65, 64), (76, 67), (68, 69), (70, 71), (79, 70),
    (71, 80), (72, 73), (76, 75), (76, 77),
]  # fmt: skip
MADE_SOLUTION = "739485612468712593125369748852974361976531824314826975643257189287193456591648237"


@pytest.mark.parametrize(
    "pairs, solution",
    [(COURSE, COURSE_SOLUTION), (MADE, MADE_SOLUTION)],
    ids=["course", "made"],
)
@pytest.mark.parametrize("form", ["thermos", "greater"])
def test_inequality_sudokus_solve_to_their_one_solution(pairs, solution, form):
    if form == "thermos":
        rules = Rules(thermos=pairs)
    else:
        rules = Rules(greater=[(b, a) for a, b in pairs])
    expected = [int(c) for c in solution]
    # the SAT model, written apart from the engine, finds this one solution and no other
    assert solutions(EMPTY, 9, rules, limit=2) == [expected]
    result = sudoku.solve(EMPTY, rules=rules, threads=1, max_nodes=200_000)
    assert result.engine == "cages"
    assert result.status[0] == sudoku.Status.UNIQUE
    assert result.solutions[0].tolist() == expected


# -- the ordering bounds against a naive twin ----------------------------------------


def _naive_bounds(n, units, thermos, masks):
    """The masks after one pass of the ordering bounds, from their definition: for each
    cell and each unit, the cells of the unit reachable below (above) it along the
    thermometers; k of them need k distinct digits of their candidates' union."""
    below = {cell: set() for cell in range(n * n)}
    for line in thermos:
        for low, high in itertools.pairwise(line):
            below[high].add(low)
    changed = True
    while changed:
        changed = False
        for cell in below:
            grown = set(below[cell])
            for other in below[cell]:
                grown |= below[other]
            if grown != below[cell]:
                below[cell], changed = grown, True
    above = {cell: {c for c in below if cell in below[c]} for cell in below}
    out = [int(m) for m in masks]
    for cell in range(n * n):
        low, high = 1, n
        for unit in units:
            for sets, up in ((below, False), (above, True)):
                group = [c for c in unit if c in sets[cell]]
                if len(group) < 2:
                    continue
                digits = sorted(
                    {d for c in group for d in range(1, n + 1) if int(masks[c]) >> (d - 1) & 1}
                )
                if len(digits) < len(group):
                    return None
                if up:
                    high = min(high, digits[-len(group)] - 1)
                else:
                    low = max(low, digits[len(group) - 1] + 1)
        keep = sum(1 << (d - 1) for d in range(low, high + 1))
        if not out[cell] & keep:
            return None
        out[cell] &= keep
    return out


@pytest.mark.parametrize("form", ["thermos", "greater", "mixed"])
@pytest.mark.parametrize("seed", range(30))
def test_ordering_bounds_match_a_naive_twin(seed, form):
    # the steps as two-cell thermometers, as greater pairs (larger cell first), or some
    # of each: the engine reads a greater pair's relation as the same step
    rng = np.random.default_rng(seed)
    n = 9
    solution = sudoku.solve(EMPTY, limit=1, threads=1).solutions[0]
    thermos = []
    for _ in range(int(rng.integers(5, 40))):
        a = int(rng.integers(81))
        r, c = divmod(a, 9)
        step = [(0, 1), (1, 0), (0, -1), (-1, 0)][int(rng.integers(4))]
        if 0 <= r + step[0] < 9 and 0 <= c + step[1] < 9:
            b = (r + step[0]) * 9 + c + step[1]
            thermos.append((a, b) if solution[a] < solution[b] else (b, a))
    as_pair = {"thermos": 0.0, "greater": 1.0, "mixed": 0.5}[form]
    chosen = rng.random(len(thermos)) < as_pair
    rules = Rules(
        thermos=[t for t, c in zip(thermos, chosen) if not c],
        greater=[(b, a) for (a, b), c in zip(thermos, chosen) if c],
    ).checked(n)
    table = constraint_table(geometry.unit_table(n, rules=rules), rules)
    # random candidates that keep the solution's digit
    masks = np.array(
        [(1 << (int(d) - 1)) | int(rng.integers(0, 1 << n)) for d in solution], dtype=np.uint64
    )
    # both to their fixed point (one pass may differ: the engine's later groups see
    # the cells its earlier groups narrowed)
    expected = [int(m) for m in masks]
    while True:
        narrowed = _naive_bounds(n, [list(u) for u in table.units], thermos, expected)
        assert narrowed is not None  # the solution survives every bound
        if narrowed == expected:
            break
        expected = narrowed
    got = masks.copy()
    groups = order_groups(table)
    queue = np.empty(81, dtype=np.int32)
    while True:
        tail, state = call_inner(order_bounds, got, groups, queue, 0)
        assert state >= 0
        for k in range(tail):  # a cell left with one digit is placed and queued
            assert got[queue[k]] & PLACED
        if state == 0:
            break
    assert [int(m & ~PLACED) for m in got] == expected


def test_pairs_that_order_their_cells_are_ordering_steps():
    # a greater sign and a minimum's neighbours order cells; a whisper or a negative
    # constraint's pair does not
    def groups_of(**rules):
        checked = Rules(**rules).checked(9)
        cell, up, start, cells = order_groups(constraint_table(geometry.unit_table(9), checked))
        return sorted(
            (int(c), int(u), sorted(cells[start[g] : start[g + 1]].tolist()))
            for g, (c, u) in enumerate(zip(cell, up))
        )

    # 40 below 41 and 42 below 41 along row 4: 41 exceeds two digits of its row
    assert (41, 0, [40, 42]) in groups_of(greater=[(41, 40), (41, 42)])
    assert (41, 1, [40, 42]) in groups_of(greater=[(40, 41), (42, 41)])
    # a minimum lies below its four neighbours: two of its row, two of its column, all
    # four in its box
    box, column, row = [31, 39, 41, 49], [31, 49], [39, 41]
    assert groups_of(minimums=[40]) == [(40, 1, box), (40, 1, column), (40, 1, row)]
    assert groups_of(maximums=[40]) == [(40, 0, box), (40, 0, column), (40, 0, row)]
    assert groups_of(whispers=[[39, 40, 41]], negative=("white",)) == []
