"""sudoku.solutions: every solution up to a limit, checked against brute force (every
4x4 grid), published counts and the generic exact cover's enumeration."""

import csv

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, Status
from tests.helpers import all_4x4_grids, broken_rule, grid_errors

GRIDS = all_4x4_grids()


def brute_force(puzzle, rules=None):
    """The 4x4 grids (2x2 boxes) that keep the givens of ``puzzle`` and break no rule,
    as a set of byte strings, from the list of all 288 grids."""
    puzzle = np.asarray(puzzle)
    keep = np.all((puzzle == 0) | (GRIDS == puzzle), axis=1)
    found = GRIDS[keep]
    if rules is not None:
        found = [g for g in found if broken_rule(g, 4, rules) is None]
    return {bytes(np.asarray(g, dtype=np.uint8)) for g in found}


def random_4x4_puzzles(rng, count):
    """Puzzles from random grids with random cells blanked (many solutions each), and
    a few with a clash or no completion."""
    grids = GRIDS[rng.integers(0, len(GRIDS), count)]
    puzzles = np.where(rng.random(grids.shape) < rng.random((count, 1)), 0, grids)
    return puzzles.astype(np.uint8)


def givens_clash(puzzle, rules=None):
    """Whether two equal givens share a row, column, box or (under ``rules``) a
    diagonal of a 4x4 grid."""
    units = [[r * 4 + c for c in range(4)] for r in range(4)]
    units += [[r * 4 + c for r in range(4)] for c in range(4)]
    units += [
        [(b // 2 * 2 + r) * 4 + b % 2 * 2 + c for r in (0, 1) for c in (0, 1)] for b in range(4)
    ]
    if rules is not None and rules.main_diagonal:
        units += [[0, 5, 10, 15], [3, 6, 9, 12]]
    for unit in units:
        given = [int(puzzle[c]) for c in unit if puzzle[c]]
        if len(set(given)) != len(given):
            return True
    return False


def check_against(found, puzzles, limit, rules=None):
    grids, counts = found
    for k, puzzle in enumerate(puzzles):
        want = brute_force(puzzle, rules)
        got = [bytes(g) for g in grids[k, : counts[k]]]
        assert counts[k] == min(limit, len(want)), k
        assert len(set(got)) == len(got), k  # no solution twice
        assert set(got) <= want, k
        assert not grids[k, counts[k] :].any(), k  # zeros past the count
        expected = {0: Status.NO_SOLUTION, 1: Status.UNIQUE}.get(len(want), Status.MULTIPLE)
        if givens_clash(puzzle, rules):
            expected = Status.INVALID
        assert found.status[k] == expected, k


@pytest.mark.parametrize("limit", [2, 7, 300])
def test_every_4x4_puzzle_sample_matches_brute_force(limit):
    rng = np.random.default_rng(limit)
    puzzles = random_4x4_puzzles(rng, 120)
    puzzles[0] = 0  # the empty grid: all 288
    check_against(sudoku.solutions(puzzles, limit), puzzles, limit)


def test_all_288_grids_from_the_empty_grid_on_one_and_two_threads():
    empty = np.zeros((3, 16), dtype=np.uint8)
    one = sudoku.solutions(empty, 300, threads=1)
    two = sudoku.solutions(empty, 300, threads=2)
    assert one.counts.tolist() == [288] * 3
    assert {bytes(g) for g in one.grids[0, :288]} == {bytes(g.astype(np.uint8)) for g in GRIDS}
    assert np.array_equal(one.grids, two.grids)  # same order whatever the threads
    assert np.array_equal(one.result.solutions, one.grids[:, 0])


def test_published_counts_of_the_special_cases(datasets):
    with open(datasets / "sudoku_special_cases.csv") as handle:
        rows = list(csv.DictReader(handle))
    puzzles = sudoku.parse([row["puzzle"] for row in rows])
    found = sudoku.solutions(puzzles, 200)
    checked = 0
    for k, row in enumerate(rows):
        text = row["solution_count"]
        if sudoku.check_grid(puzzles[k]) is not None:
            assert found.status[k] == Status.INVALID and found.counts[k] == 0
            continue
        expected = min(int(text), 200) if text.isdigit() else 200
        assert found.counts[k] == expected, row["name"]
        block = found.grids[k, : found.counts[k]]
        assert grid_errors(np.repeat(puzzles[k : k + 1], len(block), 0), block, (3, 3)) == []
        assert len({bytes(g) for g in block}) == len(block)
        checked += expected >= 2
    assert checked >= 6  # 2, 3, 4, 10, 125, 162, 2 and more than 1000 solutions


def test_agrees_with_the_exact_cover_enumeration(datasets):
    with open(datasets / "sudoku_special_cases.csv") as handle:
        rows = [row for row in csv.DictReader(handle) if row["solution_count"] in ("3", "10")]
    for row in rows:
        problem, cells, digits = sudoku.to_exact_cover(row["puzzle"])
        want = {
            bytes(sudoku.decode_cover(row["puzzle"], chosen, cells, digits))
            for chosen in problem.solutions()
        }
        grids, counts = sudoku.solutions(row["puzzle"], 50)
        assert counts[0] == len(want) == problem.count()
        assert {bytes(g) for g in grids[0, : counts[0]]} == want


def test_statuses_as_solve():
    puzzles = [
        "1234341221434321",  # full: UNIQUE
        "1100000000000000",  # clash: INVALID
        "12..............",  # many
        "0012030000200000",  # no completion
        "12x4000000000000",  # unreadable
    ]
    found = sudoku.solutions(puzzles, 4)
    names = [Status(s).name for s in found.status]
    assert names == ["UNIQUE", "INVALID", "MULTIPLE", "NO_SOLUTION", "INVALID"]
    assert found.counts.tolist()[:2] == [1, 0] and found.counts[2] == 4
    assert found.counts[3] == 0 and not found.grids[[1, 3, 4]].any()
    assert 4 in found.result.messages  # the unreadable row says why, in its place
    one = sudoku.solutions(puzzles[:3], 1)
    assert [Status(s).name for s in one.status] == ["SOLVED", "INVALID", "SOLVED"]
    assert one.grids.shape == (3, 1, 16)


def test_budget_keeps_what_was_found():
    found = sudoku.solutions(np.zeros((1, 81), dtype=np.uint8), 10_000, max_nodes=200)
    assert found.status[0] == Status.BUDGET
    assert 0 < found.counts[0] < 10_000
    block = found.grids[0, : found.counts[0]]
    assert grid_errors(np.zeros((len(block), 81)), block, (3, 3)) == []


def test_rules_of_the_unit_table_use_the_compiled_enumerator():
    # 576 Latin squares of order 4 (a published count)
    found = sudoku.solutions(np.zeros((1, 16), np.uint8), 600, rules=Rules(latin=True))
    assert found.counts[0] == 576
    rules = Rules(diagonals=True)
    puzzles = random_4x4_puzzles(np.random.default_rng(5), 40)
    check_against(sudoku.solutions(puzzles, 50, rules=rules), puzzles, 50, rules)


def test_rules_the_dlx_links_lack_go_through_the_exact_cover():
    rules = Rules(cages=[((0, 1), 3)], thermos=[(4, 5)])
    puzzles = random_4x4_puzzles(np.random.default_rng(9), 30)
    check_against(sudoku.solutions(puzzles, 20, rules=rules), puzzles, 20, rules)


def _random_isomorphism(rng):
    """A random validity-preserving map of 9x9 grids, as (cell permutation, digit map):
    bands, rows in bands, stacks, columns in stacks, a transpose and a relabelling."""
    rows = np.concatenate([3 * b + rng.permutation(3) for b in rng.permutation(3)])
    cols = np.concatenate([3 * s + rng.permutation(3) for s in rng.permutation(3)])
    source = (rows[:, None] * 9 + cols[None, :]).ravel()
    if rng.random() < 0.5:
        source = source.reshape(9, 9).T.ravel()
    digits = np.concatenate([[0], rng.permutation(9) + 1]).astype(np.uint8)
    return source, digits


def test_solutions_of_a_transformed_puzzle_are_the_transformed_solutions(datasets):
    with open(datasets / "sudoku_special_cases.csv") as handle:
        rows = [r for r in csv.DictReader(handle) if r["solution_count"] in ("4", "10", "125")]
    assert len(rows) == 3
    puzzles = sudoku.parse([row["puzzle"] for row in rows])
    rng = np.random.default_rng(3)
    maps = [_random_isomorphism(rng) for _ in puzzles]
    images = np.array([digits[p[source]] for p, (source, digits) in zip(puzzles, maps)])
    before = sudoku.solutions(puzzles, 200)
    after = sudoku.solutions(images, 200)
    assert np.array_equal(before.counts, after.counts)
    for k, (source, digits) in enumerate(maps):
        mapped = {bytes(digits[g[source]]) for g in before.grids[k, : before.counts[k]]}
        assert mapped == {bytes(g) for g in after.grids[k, : after.counts[k]]}


def test_one_rule_set_per_puzzle_keeps_each_its_own():
    kinds = [Rules(), Rules(diagonals=True), Rules(cages=[((0, 1), 3)])]
    puzzles = random_4x4_puzzles(np.random.default_rng(21), 45)
    per_row = [kinds[k % 3] for k in range(len(puzzles))]
    found = sudoku.solutions(puzzles, 30, rules=per_row)
    for k, rules in enumerate(per_row):
        one = _row_of(found, k)
        check_against(one, puzzles[k : k + 1], 30, rules if rules.kinds else None)


def _row_of(found, k):
    """Row ``k`` of ``found`` as a Solutions of its own (for check_against)."""
    result = found.result
    part = type(result)(
        puzzles=result.puzzles[k : k + 1],
        solutions=result.solutions[k : k + 1],
        status=result.status[k : k + 1],
        counts=result.counts[k : k + 1],
        nodes=result.nodes[k : k + 1],
        n=result.n,
        box=result.box,
        limit=result.limit,
    )
    return sudoku.Solutions(found.grids[k : k + 1], found.counts[k : k + 1], part)
