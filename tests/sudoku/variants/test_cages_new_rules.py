"""The "cages" engine on the relation, sum and group rules, against brute force.

Every 4x4 grid (288 of them) is checked against each rule as its definition reads
(:mod:`.rule_checks`, written apart from the engine's tables); a puzzle's solutions are
the grids that keep its givens and every rule.
"""

import numpy as np
import pytest

from numbadlx.sudoku import Rules
from numbadlx.sudoku.engines import INVALID, MULTIPLE, NO_SOLUTION, REGISTRY, SOLVED, UNIQUE

from .rule_checks import (
    GRIDS,
    brute_force,
    clashes,
    keeps,
    orthogonal,
    random_diagonal,
    random_line,
    run,
)


def random_rules(kind, rng, grid):
    """Random rules of ``kind`` on a 4x4 grid; sums read from ``grid`` (now and then
    off by one)."""
    n = 4

    def total(cells):
        return sum(int(grid[c]) for c in cells) + int(rng.choice([0, 0, 0, 1, -1]))

    if kind == "extra_regions":
        return Rules(
            extra_regions=[rng.choice(16, int(rng.integers(2, 5)), replace=False).tolist()]
        )
    if kind == "diagonals":
        return Rules(diagonals=str(rng.choice(["main", "anti"])))
    if kind == "candidates":
        cells = rng.choice(16, 4, replace=False).tolist()
        return Rules(candidates={c: (rng.choice(4, 2, replace=False) + 1).tolist() for c in cells})
    if kind == "negative":
        marks = list(rng.choice(["white", "black", "x", "v"], int(rng.integers(1, 5)), False))
        near = list(orthogonal(n))
        dots = [near[k] for k in rng.choice(len(near), 3, replace=False)]
        return Rules(negative=marks, white_dots=dots[:1], black_dots=dots[1:2], v_pairs=dots[2:])
    if kind == "greater":
        return Rules(greater=[rng.choice(16, 2, replace=False).tolist() for _ in range(3)])
    if kind == "minimums":
        cells = rng.choice(16, 3, replace=False).tolist()
        return Rules(minimums=cells[:2], maximums=cells[2:])
    if kind == "whispers":
        return Rules(whispers=[(random_line(n, rng, 4), int(rng.integers(1, 4)))])
    if kind == "palindromes":
        return Rules(palindromes=[random_line(n, rng, int(rng.integers(2, 6)))])
    if kind == "modular_lines":
        return Rules(modular_lines=[(random_line(n, rng, 5), int(rng.integers(2, 5)))])
    if kind == "arrows":
        cells = random_line(n, rng, int(rng.integers(2, 5)))
        bulb = cells[:1] if rng.random() < 0.7 else cells[:2]
        line = cells[len(bulb) :] or [int((cells[0] + 5) % 16)]
        if set(line) & set(bulb) or len(line) < 1:
            line = [c for c in range(16) if c not in bulb][:1]
        return Rules(arrows=[(bulb, line)])
    if kind == "little_killers":
        cells = random_diagonal(n, rng)
        return Rules(little_killers=[(cells, min(4 * len(cells), max(len(cells), total(cells))))])
    if kind == "region_sum_lines":
        return Rules(region_sum_lines=[random_line(n, rng, int(rng.integers(2, 7)))])
    if kind == "zipper_lines":
        return Rules(zipper_lines=[random_line(n, rng, int(rng.integers(2, 7)))])
    raise AssertionError(kind)


KINDS = (
    "extra_regions",
    "diagonals",
    "candidates",
    "negative",
    "greater",
    "minimums",
    "whispers",
    "palindromes",
    "modular_lines",
    "arrows",
    "little_killers",
    "region_sum_lines",
    "zipper_lines",
)


@pytest.mark.parametrize("options", [{}, {"sum_exact": 0, "sum_groups": False, "triples": False}])
@pytest.mark.parametrize("kind", KINDS)
def test_random_4x4_rules_agree_with_brute_force(kind, options):
    """Each kind, with every propagation step (and with the optional ones off)."""
    rng = np.random.default_rng(sum(map(ord, kind)))
    checked_cases = 0
    for _ in range(40):
        grid = GRIDS[rng.integers(len(GRIDS))]
        rules = random_rules(kind, rng, grid)
        puzzles = []
        for givens in (0, 2, 4, 6):
            puzzle = np.zeros(16, dtype=np.uint8)
            where = rng.choice(16, givens, replace=False)
            source = grid if rng.random() < 0.8 else GRIDS[rng.integers(len(GRIDS))]
            puzzle[where] = source[where]
            puzzles.append(puzzle)
        solutions, status, counts, _, _ = run(puzzles, rules, 4, limit=300, **options)
        for k, puzzle in enumerate(puzzles):
            if clashes(puzzle, rules):
                assert status[k] == INVALID and counts[k] == 0
                checked_cases += 1
                continue
            expected = brute_force(puzzle, rules)
            assert counts[k] == len(expected), (rules, puzzle.tolist())
            want = NO_SOLUTION if not expected else UNIQUE if len(expected) == 1 else MULTIPLE
            assert status[k] == want
            if expected:
                assert any((solutions[k] == g).all() for g in expected)
            checked_cases += 1
    assert checked_cases == 160


@pytest.mark.parametrize("engine", ["bits", "dlx", "cages"])
@pytest.mark.parametrize("diagonal", ["main", "anti"])
def test_one_diagonal_on_every_table_engine(engine, diagonal):
    rules = Rules(diagonals=diagonal)
    expected = [g for g in GRIDS if keeps(g, 4, rules.checked(4))]
    assert 0 < len(expected) < len(GRIDS)
    _, status, counts, _, _ = run(np.zeros(16), rules, 4, limit=300, engine=REGISTRY[engine])
    assert counts[0] == len(expected) and status[0] == MULTIPLE
    # the other diagonal is free (on 4x4 grids one diagonal forces the other; on 9x9
    # it does not): two equal givens on it are fine
    puzzle = np.zeros(81, dtype=np.uint8)
    free = [0, 80] if diagonal == "anti" else [8, 72]
    puzzle[free] = 1
    solutions, status, _, _, _ = run(puzzle, rules, 9, limit=1, engine=REGISTRY[engine])
    grid = solutions[0].reshape(9, 9)
    assert status[0] == SOLVED and (solutions[0][free] == 1).all()
    assert keeps(solutions[0], 9, rules.checked(9))
    assert all(len(set(line)) == 9 for line in [*grid, *grid.T])
    assert all(
        len(set(grid[r : r + 3, c : c + 3].ravel())) == 9 for r in (0, 3, 6) for c in (0, 3, 6)
    )
    ruled = [8, 72] if diagonal == "anti" else [0, 80]
    puzzle = np.zeros(81, dtype=np.uint8)
    puzzle[ruled] = 1
    assert run(puzzle, rules, 9, engine=REGISTRY[engine])[1][0] == INVALID


def test_mixed_4x4_rules_agree_with_brute_force():
    rng = np.random.default_rng(34)
    for _ in range(60):
        grid = GRIDS[rng.integers(len(GRIDS))]
        fields = {}
        for kind in rng.choice(KINDS, 3, replace=False):
            part = random_rules(str(kind), rng, grid)
            for name in part.kinds:
                fields.setdefault(name, getattr(part, name))
        if set(fields.get("minimums", ())) & set(fields.get("maximums", ())):
            continue
        rules = Rules(**fields)
        puzzle = np.zeros(16, dtype=np.uint8)
        where = rng.choice(16, int(rng.integers(0, 5)), replace=False)
        puzzle[where] = grid[where]
        solutions, status, counts, _, _ = run(puzzle, rules, 4, limit=300)
        if clashes(puzzle, rules):
            assert status[0] == INVALID
            continue
        expected = brute_force(puzzle, rules)
        assert counts[0] == len(expected), rules
        if expected:
            assert any((solutions[0] == g).all() for g in expected)


def test_givens_breaking_a_rule_are_no_solution_not_invalid():
    cases = [
        (Rules(greater=[(0, 1)]), {0: 1, 1: 2}),
        (Rules(arrows=[((0,), (1, 2))]), {0: 1}),  # two digits on the line sum to 2 at least
        (Rules(little_killers=[((0, 5, 10, 15), 9)]), {0: 4, 10: 4}),
        (Rules(palindromes=[(0, 1, 2)]), {0: 1, 2: 2}),
        (Rules(whispers=[((0, 1), 2)]), {0: 2, 1: 3}),
        (Rules(candidates={0: [2, 3]}), {0: 1}),
        (Rules(negative=True), {0: 1, 1: 2}),
        (Rules(minimums=[5]), {5: 4}),
        (Rules(zipper_lines=[(0, 1, 2)]), {1: 1}),
    ]
    for rules, givens in cases:
        puzzle = np.zeros(16, dtype=np.uint8)
        for cell, d in givens.items():
            puzzle[cell] = d
        _, status, counts, _, _ = run(puzzle, rules, 4)
        assert status[0] == NO_SOLUTION and counts[0] == 0, rules
        assert not brute_force(puzzle, rules)
    puzzle = np.zeros(16, dtype=np.uint8)
    puzzle[[0, 15]] = 3
    assert run(puzzle, Rules(extra_regions=[(0, 15)]), 4)[1][0] == INVALID


def test_relations_meeting_in_a_cell_are_checked_together():
    # two X pairs chained down a column: cells 36 and 54 would both hold 10 - d45
    _, status, _, nodes, _ = run(np.zeros(81), Rules(x_pairs=[(36, 45), (45, 54)]), 9)
    assert status[0] == NO_SOLUTION and nodes[0] == 1
    # without the step the same answer takes a search
    _, status, _, more, _ = run(
        np.zeros(81), Rules(x_pairs=[(36, 45), (45, 54)]), 9, max_nodes=5000, triples=False
    )
    assert status[0] != UNIQUE and more[0] > 1
    # a 4x4 minimum between two cells of its row cannot be 3: both would be 4
    rules = Rules(minimums=[1])
    assert all(g[1] != 3 for g in brute_force(np.zeros(16), rules))
    _, status, counts, _, _ = run(np.zeros(16), rules, 4, limit=300)
    assert counts[0] == len(brute_force(np.zeros(16), rules))


@pytest.mark.parametrize("kind", KINDS)
def test_auto_picks_the_cages_engine(kind):
    from numbadlx.sudoku.engines import pick_engine

    rules = random_rules(kind, np.random.default_rng(1), GRIDS[0])
    expected = "bits" if kind == "diagonals" else "cages"
    assert pick_engine("auto", 4, rules=rules) == expected
    assert pick_engine("cages", 4, rules=rules) == "cages"
