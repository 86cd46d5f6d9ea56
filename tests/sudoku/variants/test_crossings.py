"""The "bits" engine's crossing table: its pairs against a brute-force search, and the
engine on it against the same engine on the plain unit table (same answers, no more
nodes in all; the answers themselves are checked against SAT in test_oracle.py)."""

import itertools

import numpy as np
import pytest

from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.engines import (
    PLACED,
    REGISTRY,
    UNIQUE,
    CrossTable,
    crossing_table,
    peer_bits,
    propagate_crossing,
)
from tests.helpers import make_case

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
    assert all(a is b for a, b in zip(tuple(table)[: len(units)], tuple(units)))


@pytest.mark.parametrize(
    "n, rules",
    [
        (9, Rules()),
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
    REGISTRY["bits"].solve_units(
        puzzles, table, 2, 0, np.zeros(1, np.int64), max(1, rows), np.zeros(1, np.int64), *out
    )
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind", ["diagonals", "windoku", "disjoint", "regions", "anti_knight", "anti_king"]
)
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


@pytest.mark.parametrize("rules", [Rules(anti_knight=True), Rules(anti_king=True)])
def test_links_get_a_table_for_common_peers_on_every_unit(rules):
    checked = rules.checked(9)
    units = geometry.unit_table(9, rules=checked)
    table = REGISTRY["bits"].table_for(units, checked)
    assert isinstance(table, CrossTable)
    assert table.crossings.shape[0] == 0 and table.shared_from == 0


def test_peer_bits_against_the_peer_rows():
    rules = Rules(diagonals=True, anti_knight=True).checked(9)
    units = geometry.unit_table(9, rules=rules)
    bits = peer_bits(units.peers)
    for cell in range(81):
        members = {
            w * 64 + b
            for w in range(bits.shape[1])
            for b in range(64)
            if int(bits[cell, w]) >> b & 1
        }
        assert members == set(units.peers[cell].tolist())
        assert cell not in members


def _common_peer_case(rules):
    """A 9x9 state where digit 1 may go only in cells 0 and 40 of the main diagonal
    (r1c1 and r5c5) and in every other cell but those of the diagonal; the other digits
    everywhere."""
    checked = rules.checked(9)
    table = crossing_table(geometry.unit_table(9, rules=checked), checked)
    masks = np.full(81, 0b111111111, dtype=np.uint64)
    diagonal = [10 * k for k in range(9)]
    masks[diagonal] &= ~np.uint64(1)
    masks[[0, 40]] |= np.uint64(1)
    return table, masks


def test_common_peers_of_a_diagonal_digit_lose_it():
    """r1c1 and r5c5 (1's only places on the main diagonal) lie in different boxes,
    rows and columns, so no pair of crossing units places 1; but r1c5 sees r1c1 (row)
    and r5c5 (column), r1c9 sees r1c1 (row) and r5c5 (the other diagonal), and so on:
    the cells off the diagonal that see both (by a brute force over the peer rows)
    lose 1, and only they."""
    table, masks = _common_peer_case(Rules(diagonals=True))
    peers = [set(row.tolist()) for row in table.peers]
    both = {cell for cell in range(81) if 0 in peers[cell] and 40 in peers[cell]}
    off_diagonal = sorted(cell for cell in both if cell % 10)
    assert off_diagonal == [4, 8, 36, 72]
    queue = np.empty(81, dtype=np.int32)
    segments = np.empty(81, dtype=np.uint64)
    got = propagate_crossing(
        masks, 9, 3, 3, table.peers, table.units, queue, 0, segments, True,
        table.crossings, table.peer_bits, table.shared_from, True, 81,
    )  # fmt: skip
    assert got == 0  # nothing placed
    lost = [cell for cell in range(81) if not int(masks[cell]) & 1 and cell % 10]
    assert lost == off_diagonal
    assert not (masks & PLACED).any()


@pytest.mark.slow
def test_an_empty_anti_knight_grid_is_filled_in_few_nodes():
    """Common peers along the links: the first solution of the empty anti-knight 9x9
    took 1.78 million nodes on "bits" (0.14 million with them), checked here by the SAT
    oracle as a solution of the rules."""
    from numbadlx import sudoku

    from .sat_oracle import solutions

    rules = Rules(anti_knight=True)
    result = sudoku.solve(
        np.zeros((1, 81), np.uint8), rules=rules, limit=1, engine="bits", max_nodes=400_000
    )
    assert result.status_names().tolist() == ["SOLVED"]
    grid = result.solutions[0].tolist()
    assert solutions(grid, 9, rules, limit=2) == [grid]


@pytest.mark.parametrize("engine", ["bits", "auto"])
def test_empty_grid_under_knight_king_and_diagonals_has_no_solution(engine):
    """Anti-knight, anti-king and both diagonals: no 9x9 grid keeps them all (the SAT
    oracle proves it). The branch on cells alone passed 300,000 nodes; with the search
    that weighs digits taking turns with it, the proof takes 16,549."""
    from numbadlx import sudoku

    from .sat_oracle import solutions

    rules = Rules(anti_knight=True, anti_king=True, diagonals=True)
    empty = np.zeros((1, 81), np.uint8)
    assert solutions(empty[0].tolist(), 9, rules, limit=1) == []
    result = sudoku.solve(empty, rules=rules, limit=1, engine=engine, max_nodes=30_000)
    assert result.status_names().tolist() == ["NO_SOLUTION"]
    assert int(result.nodes[0]) < 30_000


def test_the_turns_keep_the_cells_search_on_knight_and_diagonals():
    """The empty grid under anti-knight and both diagonals: the search on cells alone
    finds a solution before its first turn ends, so the digits' search never runs; the
    grid is a solution of the rules by the SAT oracle."""
    from numbadlx import sudoku

    from .sat_oracle import is_solution

    rules = Rules(anti_knight=True, diagonals=True)
    empty = np.zeros((1, 81), np.uint8)
    result = sudoku.solve(empty, rules=rules, limit=1, engine="bits", max_nodes=300_000)
    assert result.status_names().tolist() == ["SOLVED"]
    assert int(result.nodes[0]) <= 16_384
    assert is_solution(empty[0], 9, rules, result.solutions[0])


def test_a_search_that_takes_turns_keeps_its_answer():
    """Four givens under anti-knight and both diagonals that the search on cells alone
    does not finish in its first turn: the digits' search runs, the cells' search
    resumes where it stopped and meets a second solution; statuses and the solution
    are checked by the SAT oracle."""
    from numbadlx import sudoku

    from .sat_oracle import is_solution, solutions

    rules = Rules(anti_knight=True, diagonals=True)
    line = "006000000000000000000000000000000000000000000008500009000000000000000000000000000"
    puzzle = np.array([[int(ch) for ch in line]], np.uint8)
    assert len(solutions(puzzle[0].tolist(), 9, rules, limit=2)) == 2
    for limit, status in ((1, "SOLVED"), (2, "MULTIPLE")):
        result = sudoku.solve(puzzle, rules=rules, limit=limit, engine="bits", max_nodes=300_000)
        assert result.status_names().tolist() == [status]
        assert int(result.nodes[0]) > 16_384  # past the first turn
        assert is_solution(puzzle[0], 9, rules, result.solutions[0])
