"""solve(rules=): grouping, engine choice, options, errors; the unit tables of rules."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, Status, geometry
from numbadlx.sudoku.engines import COVER, pick_engine

from .sat_oracle import groups, random_solution, solutions

EMPTY4 = np.zeros((1, 16), dtype=np.uint8)
# a 4x4 X-Sudoku with one solution (1234 3412 4321 2143), many without the diagonals
X4 = "1200000040000000"


def test_unit_table_matches_the_oracle_groups():
    for n in (4, 6, 9):
        for rules in (
            Rules(diagonals=True, windoku=True, disjoint=True),
            Rules(latin=True, diagonals=True),
            Rules(regions=np.arange(n * n) // n),
        ):
            table = geometry.unit_table(n, rules=rules)
            ours = sorted(map(tuple, table.units.tolist()))
            theirs = sorted(tuple(sorted(g)) for g in groups(n, rules.checked(n)))
            assert ours == theirs
            for cell in range(n * n):
                expected = {u for u, members in enumerate(table.units.tolist()) if cell in members}
                assert set(table.cell_units[cell].tolist()) == expected
                peers = {p for u in expected for p in table.units[u].tolist()} - {cell}
                assert set(table.peers[cell].tolist()) == peers
    assert len(geometry.rule_units(9, Rules(windoku=True).checked(9))) == 27 + 4
    assert geometry.unit_table(9, rules=Rules()) is geometry.unit_table(9)
    assert geometry.unit_table(9, rules=Rules(cages=[([0, 1], 3)])) is geometry.unit_table(9)


def test_unit_table_links():
    table = geometry.unit_table(9, rules=Rules(anti_knight=True))
    knight = {(a, b) for a, b in table.links.tolist()}
    for a, b in knight:
        (r1, c1), (r2, c2) = divmod(a, 9), divmod(b, 9)
        assert sorted((abs(r1 - r2), abs(c1 - c2))) == [1, 2]
        assert (r1 // 3, c1 // 3) != (r2 // 3, c2 // 3)  # in one box: a peer already
        assert b in table.peers[a] and a in table.peers[b]
    for cell in range(81):
        mine = [k for k in table.cell_links[cell].tolist() if k >= 0]
        assert all(cell in table.links[k] for k in mine)
        assert len(mine) == sum(cell in pair for pair in knight)


def test_solve_one_rule_set_every_engine():
    rules = Rules(diagonals=True)
    for engine in ("auto", "bits", "dlx"):
        result = sudoku.solve([X4], rules=rules, engine=engine)
        assert result.status_counts() == {"UNIQUE": 1}
        assert sudoku.format_line(result.solutions[0]) == "1234341243212143"
    assert sudoku.solve([X4]).status_counts() == {"MULTIPLE": 1}
    with pytest.raises(ValueError, match='engine "bands" does not solve the rules diagonals'):
        sudoku.solve([X4], rules=rules, engine="bands")
    with pytest.raises(ValueError, match='engine "dlx" does not solve the rules cages'):
        sudoku.solve([X4], rules=Rules(cages=[([0, 1], 3)]), engine="dlx")


def test_solve_counts_and_limits_under_rules():
    for rules, expected in (
        (Rules(diagonals=True), 48),
        (Rules(latin=True), 576),
        (Rules(cages=[([0, 1], 3)]), 48),
    ):
        assert len(solutions(EMPTY4[0], 4, rules, limit=10**6)) == expected
        assert sudoku.count_solutions("0" * 16, rules=rules) == expected
        result = sudoku.solve(EMPTY4, rules=rules, limit=5)
        assert result.counts.tolist() == [5] and result.status[0] == Status.MULTIPLE
        result = sudoku.solve(EMPTY4, rules=rules, limit=1)
        assert result.status[0] == Status.SOLVED
    assert sudoku.format_line(sudoku.solve_one(X4, rules=Rules(diagonals=True))) == (
        "1234341243212143"
    )


def test_list_of_rules_grouped_in_input_order():
    puzzles = [X4, "0" * 16, X4, "1100" + "0" * 12]
    rules = [Rules(diagonals=True), Rules(cages=[([0, 1], 3)]), Rules(diagonals=True), Rules()]
    result = sudoku.solve(puzzles, rules=rules, limit=100)
    assert result.status.tolist() == [Status.UNIQUE, Status.MULTIPLE, Status.UNIQUE, Status.INVALID]
    assert result.counts.tolist()[:3] == [1, 48, 1]
    assert result.engine == f"bits,{COVER},bands" or result.engine.startswith("bits")
    seen = []
    sudoku.solve(puzzles, rules=rules, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (4, 4)
    with pytest.raises(ValueError, match="rules: got 2 rule sets for 4 puzzles"):
        sudoku.solve(puzzles, rules=rules[:2])
    with pytest.raises(TypeError, match=r"rules\[1\] is a dict"):
        sudoku.solve(puzzles[:2], rules=[Rules(), {}])
    with pytest.raises(TypeError, match="rules must be a Rules"):
        sudoku.solve(puzzles, rules=5)
    with pytest.raises(ValueError, match='engine "dlx" does not solve the rules cages'):
        sudoku.solve(puzzles, rules=rules, engine="dlx")


def test_bad_rules_raise_before_solving():
    with pytest.raises(ValueError, match="cages: cell 16 is out of range"):
        sudoku.solve(EMPTY4, rules=Rules(cages=[([0, 16], 3)]))
    with pytest.raises(ValueError, match="regions: expected 16 cells"):
        sudoku.solve(EMPTY4, rules=Rules(regions=np.zeros(81, int)))


def test_to_exact_cover_names_a_misplaced_or_mistyped_rules():
    # rules passed where the box goes, or not a Rules: a TypeError that says what to do
    with pytest.raises(TypeError, match=r"rules=rules"):
        sudoku.to_exact_cover("0" * 16, Rules(diagonals=True))
    with pytest.raises(TypeError, match="rules must be a Rules, got str"):
        sudoku.to_exact_cover("0" * 16, rules="diagonals")


def test_invalid_givens_under_rules():
    # equal givens a knight's move apart, in different boxes
    puzzle = np.zeros((1, 81), dtype=np.uint8)
    puzzle[0, 0] = puzzle[0, 1 * 9 + 5 - 3] = 0
    puzzle[0, 2] = 5
    puzzle[0, 9 + 4] = 5
    for engine in ("bits", "dlx"):
        result = sudoku.solve(puzzle, rules=Rules(anti_knight=True), engine=engine)
        assert result.status[0] == Status.INVALID
    with pytest.raises(ValueError, match="invalid puzzle"):
        sudoku.solve_one(puzzle[0], rules=Rules(anti_knight=True))
    diagonal = np.zeros((1, 16), dtype=np.uint8)
    diagonal[0, [0, 15]] = 2
    result = sudoku.solve(diagonal, rules=Rules(diagonals=True, cages=[([1, 2], 3)]))
    assert result.status[0] == Status.INVALID


@pytest.mark.slow
def test_budgets_and_threads_under_rules():
    rng = np.random.default_rng(0)
    rules = Rules(diagonals=True, anti_knight=True)
    full = np.array(random_solution(9, rules, rng), dtype=np.uint8)
    puzzles = np.where(rng.random((40, 81)) < 0.35, full, 0).astype(np.uint8)
    one = sudoku.solve(puzzles, rules=rules, threads=1, limit=2)
    two = sudoku.solve(puzzles, rules=rules, threads=2, limit=2)
    assert (one.status == two.status).all() and (one.solutions == two.solutions).all()
    assert set(one.status_names()) <= {"MULTIPLE", "UNIQUE"}
    for k in range(3):
        found = solutions(puzzles[k], 9, rules)
        assert one.counts[k] == len(found)
    capped = sudoku.solve(puzzles[:3], rules=rules, max_nodes=1, engine="dlx")
    assert set(capped.status_names()) <= {"BUDGET", "UNIQUE", "MULTIPLE"}
    assert (capped.nodes <= 1).all()
    timed = sudoku.solve(puzzles[:3], rules=rules, timeout=30)
    assert (timed.status == one.status[:3]).all()
    cages = Rules(cages=[([0, 1], 3)])
    capped = sudoku.solve(EMPTY4, rules=cages, max_nodes=1, limit=100)
    assert capped.status[0] == Status.BUDGET


def test_pick_engine_per_rule_set():
    assert pick_engine("auto", 9, rules=Rules()) == "bands"
    assert pick_engine("auto", 9, rules=Rules(regions=np.arange(81) // 9)) == "bits"
    # the constraint rules: the "cages" engine (the only one that solves them)
    assert pick_engine("auto", 9, rules=Rules(thermos=[(0, 1)])) == "cages"
    assert pick_engine("auto", 9, rules=Rules(thermos=[(0, 1)], diagonals=True)) == "cages"
    assert pick_engine("dlx", 4, rules=Rules(anti_king=True)) == "dlx"
