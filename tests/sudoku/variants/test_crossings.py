"""The "bits" engine's crossing table: its pairs against a brute-force search, and the
engine on it against the same engine on the plain unit table (same answers, no more
nodes in all; the answers themselves are checked against SAT in test_oracle.py)."""

import itertools

import numpy as np
import pytest

from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.engines import REGISTRY, UNIQUE, CrossTable, crossing_table

from .test_oracle import make_case

RULE_SETS = [
    (9, Rules(diagonals=True)),
    (9, Rules(windoku=True)),
    (9, Rules(disjoint=True)),
    (6, Rules(diagonals=True, disjoint=True)),
    # regions of 3 rows by 2 columns on a 6x6 grid (its boxes would be 2 by 3)
    (6, Rules(regions=(np.arange(6)[:, None] // 3) * 3 + np.arange(6)[None, :] // 2)),
]


def brute_pairs(units, n, has_boxes):
    found = []
    for a, b in itertools.combinations(range(len(units)), 2):
        sa, sb = set(units[a].tolist()), set(units[b].tolist())
        if len(sa & sb) < 2:
            continue
        is_box = [has_boxes and 2 * n <= u < 3 * n for u in (a, b)]
        is_line = [u < 2 * n for u in (a, b)]
        if (is_box[0] and is_line[1]) or (is_box[1] and is_line[0]):
            continue
        found.append([sorted(sa & sb), sorted(sa - sb), sorted(sb - sa)])
    return found


@pytest.mark.parametrize("n, rules", RULE_SETS)
def test_crossings_against_brute_force(n, rules):
    checked = rules.checked(n)
    units = geometry.unit_table(n, rules=checked)
    table = crossing_table(units, checked)
    expected = brute_pairs(np.asarray(units.units), n, units.has_boxes)
    assert expected, "every rule set here has crossing units"
    assert isinstance(table, CrossTable)
    got = [[row[1 : 1 + row[0]].tolist() for row in pair] for pair in table.crossings]
    assert got == expected
    assert tuple(table)[:-1] == tuple(units)


@pytest.mark.parametrize(
    "n, rules",
    [
        (9, Rules()),
        (9, Rules(anti_knight=True)),
        (9, Rules(anti_king=True)),
        (9, Rules(latin=True)),
        (4, Rules(latin=True, diagonals=True)),  # a diagonal meets a line in one cell
    ],
)
def test_plain_table_without_crossings(n, rules):
    checked = rules.checked(n)
    units = geometry.unit_table(n, rules=checked)
    assert REGISTRY["bits"].table_for(units, checked) is units


def _solve(puzzles, table):
    rows, cells = puzzles.shape
    out = (
        np.zeros((rows, cells), np.uint8),
        np.zeros(rows, np.uint8),
        np.zeros(rows, np.int64),
        np.zeros(rows, np.int64),
        np.zeros(rows, np.int64),
    )
    REGISTRY["bits"].solve_serial(puzzles, table, 2, 0, np.zeros(1, np.int64), *out)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["diagonals", "windoku", "disjoint", "regions"])
def test_bits_on_crossings_against_plain_table(kind):
    rng = np.random.default_rng(7)
    pairs = [make_case(kind, 9, rng) for _ in range(40)]
    nodes = {"crossing": 0, "plain": 0}
    for puzzle, rules in pairs:
        checked = rules.checked(9)
        units = geometry.unit_table(9, rules=checked)
        table = crossing_table(units, checked)
        if not isinstance(table, CrossTable):
            continue
        grid = puzzle.reshape(1, -1)
        new, old = _solve(grid, table), _solve(grid, units)
        assert new[1][0] == old[1][0]
        assert new[2][0] == old[2][0]
        if new[1][0] == UNIQUE:
            assert (new[0] == old[0]).all()
        nodes["crossing"] += int(new[3][0])
        nodes["plain"] += int(old[3][0])
    assert 0 < nodes["crossing"] <= nodes["plain"], nodes
