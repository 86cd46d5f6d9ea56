"""Making variant puzzles: ``generate(rules=)`` and ``generate_killer``, every puzzle
checked unique (and minimal) by the independent SAT oracle."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules

from .sat_oracle import solutions

# a jigsaw layout: the boxes with four pairs of border cells swapped between regions
JIGSAW = np.repeat(np.arange(3), 3)[:, None] * 3 + np.repeat(np.arange(3), 3)[None, :]
JIGSAW = JIGSAW.copy()
for (r1, c1), (r2, c2) in (((2, 2), (3, 0)), ((2, 5), (3, 3)), ((5, 8), (6, 6)), ((5, 5), (6, 3))):
    JIGSAW[r1, c1], JIGSAW[r2, c2] = JIGSAW[r2, c2], JIGSAW[r1, c1]

TABLE_RULES = {
    "diagonals": Rules(diagonals=True),
    "windoku": Rules(windoku=True),
    "disjoint": Rules(disjoint=True),
    "anti_knight": Rules(anti_knight=True),
    "anti_king": Rules(anti_king=True),
    "jigsaw": Rules(regions=JIGSAW),
}
SOLVER_RULES = {
    "non_consecutive": Rules(non_consecutive=True),
    "thermos": Rules(thermos=[(0, 1, 2, 3), (20, 29, 38), (80, 79, 70, 61, 52)]),
    "x_and_thermo": Rules(diagonals=True, thermos=[(40, 41, 42)]),
    # cage totals: grids from random givens tried against the engine
    "cages": Rules(cages=[((0, 1), 3), ((9, 10, 11), 24), ((40, 41), None)]),
    "pairs_and_parity": Rules(
        cages=[((0, 1), None)],
        white_dots=[(3, 4)],
        black_dots=[(5, 6)],
        x_pairs=[(20, 21)],
        v_pairs=[(30, 31)],
        odd=[70],
        even=[71],
    ),
}


def _unique_and_minimal(puzzle, n, rules):
    """The oracle's verdicts: exactly one solution; every clue needed."""
    assert len(solutions(puzzle.tolist(), n, rules, limit=2)) == 1
    for cell in np.flatnonzero(puzzle):
        fewer = puzzle.copy()
        fewer[cell] = 0
        assert len(solutions(fewer.tolist(), n, rules, limit=2)) == 2, f"clue {cell} not needed"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TABLE_RULES))
def test_table_rules_unique_and_minimal(name):
    rules = TABLE_RULES[name]
    puzzles = sudoku.generate(3, seed=11, rules=rules)
    assert puzzles.shape == (3, 81)
    for puzzle in puzzles:
        _unique_and_minimal(puzzle, 9, rules)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SOLVER_RULES))
def test_solver_rules_unique_and_minimal(name):
    rules = SOLVER_RULES[name]
    # (a minimal non-consecutive puzzle has 5 to 8 clues and takes seconds to prove)
    puzzles = sudoku.generate(1 if name == "non_consecutive" else 3, seed=4, rules=rules)
    for puzzle in puzzles:
        _unique_and_minimal(puzzle, 9, rules)


@pytest.mark.slow
@pytest.mark.parametrize(
    "size, rules",
    [
        (4, Rules(diagonals=True)),
        (6, Rules(anti_king=True)),
        (5, Rules(latin=True)),
        (6, Rules(latin=True, diagonals=True)),
        (5, Rules(non_consecutive=True, latin=True)),
        (6, Rules(white_dots=[(0, 1), (7, 13)], odd=[5, 20])),
    ],
)
def test_other_sizes(size, rules):
    puzzles = sudoku.generate(3, size, seed=2, rules=rules)
    for puzzle in puzzles:
        _unique_and_minimal(puzzle, size, rules)


@pytest.mark.slow
def test_symmetry_and_clue_bounds():
    rules = Rules(diagonals=True)
    puzzles = sudoku.generate(2, seed=3, rules=rules, symmetry="rotational", minimal="symmetric")
    assert ((puzzles > 0) == (puzzles[:, ::-1] > 0)).all()
    loose = sudoku.generate(2, seed=3, rules=rules, minimal=False, clues=(30, 32))
    assert ((loose > 0).sum(axis=1) >= 30).all() and ((loose > 0).sum(axis=1) <= 32).all()
    for puzzle in np.concatenate([puzzles, loose]):
        assert len(solutions(puzzle.tolist(), 9, rules, limit=2)) == 1
    thermo = SOLVER_RULES["thermos"]
    loose = sudoku.generate(2, seed=3, rules=thermo, minimal=False, clues=(40, 45))
    assert ((loose > 0).sum(axis=1) >= 40).all() and ((loose > 0).sum(axis=1) <= 45).all()
    assert sudoku.solve(loose, rules=thermo).status_counts() == {"UNIQUE": 2}
    calm = sudoku.generate(
        2, seed=3, rules=Rules(non_consecutive=True), minimal=False, clues=(24, 26)
    )
    for puzzle in calm:
        assert 24 <= (puzzle > 0).sum() <= 26
        assert len(solutions(puzzle.tolist(), 9, Rules(non_consecutive=True), limit=2)) == 1


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(anti_knight=True), SOLVER_RULES["thermos"]])
def test_reproducible_by_seed(rules):
    first = sudoku.generate(4, seed=21, rules=rules, threads=1)
    assert (first == sudoku.generate(4, seed=21, rules=rules, threads=2)).all()
    assert (first[2:] == sudoku.generate(2, seed=21, rules=rules, first_index=2)).all()
    assert not (first == sudoku.generate(4, seed=22, rules=rules)).all()


@pytest.mark.slow
def test_classic_rules_are_the_classic_maker():
    plain = sudoku.generate(3, 4, seed=9)
    assert (plain == sudoku.generate(3, 4, seed=9, rules=Rules())).all()
    assert (plain == sudoku.generate(3, 4, seed=9, rules=None)).all()
    tall = sudoku.generate(2, 6, seed=9, box=(3, 2))
    assert (tall == sudoku.generate(2, 6, seed=9, rules=Rules(box=(3, 2)))).all()


def test_bad_arguments():
    with pytest.raises(TypeError, match="rules must be a Rules"):
        sudoku.generate(1, rules="diagonals")
    with pytest.raises(ValueError, match="rating"):
        sudoku.generate(1, rules=Rules(diagonals=True), rating=(1, 2))
    with pytest.raises(ValueError, match="regions"):
        sudoku.generate(1, rules=Rules(regions=np.zeros(81, dtype=int)))
    with pytest.raises(ValueError, match="cages"):
        sudoku.generate(1, rules=Rules(cages=[([0, 1], 18)]))
    with pytest.raises(ValueError, match="no grid meets the rules"):
        sudoku.generate(1, 4, rules=Rules(latin=True, non_consecutive=True))  # none exists
    with pytest.raises(ValueError, match="windoku"):
        sudoku.generate(1, 5, rules=Rules(latin=True, windoku=True))


@pytest.mark.slow
@pytest.mark.parametrize("size", [9, 6, 4])
def test_killers_unique_without_givens(size):
    killers = sudoku.generate_killer(3, size, seed=5)
    assert killers.puzzles.shape == (3, size * size) and not killers.puzzles.any()
    for grid, rules in zip(killers.solutions, killers.rules):
        cells = sorted(c for cage, _ in rules.cages for c in cage)
        assert cells == list(range(size * size))  # every cell in one cage
        for cage, total in rules.cages:
            digits = grid[list(cage)]
            assert len(set(digits.tolist())) == len(cage) and int(digits.sum()) == total
        found = solutions([0] * (size * size), size, rules, limit=2)
        assert found == [grid.tolist()]
    result = sudoku.solve(killers.puzzles, rules=killers.rules)
    assert result.status_counts() == {"UNIQUE": 3}
    assert (result.solutions == killers.solutions).all()


@pytest.mark.slow
def test_killers_reproducible():
    first = sudoku.generate_killer(3, seed=8, threads=1)
    again = sudoku.generate_killer(3, seed=8, threads=2)
    assert first.rules == again.rules and (first.solutions == again.solutions).all()
    tail = sudoku.generate_killer(1, seed=8, first_index=2)
    assert tail.rules == first.rules[2:]
    assert sudoku.generate_killer(1, seed=9).rules != first.rules[:1]


@pytest.mark.slow
def test_killers_have_few_one_cell_cages():
    """A one-cell cage is a given in disguise: they are rare (the generator made 3.6 per
    9x9 puzzle before it joined them to their neighbours), and the puzzles stay unique
    (by the SAT oracle) with the grid as their solution."""
    killers = sudoku.generate_killer(20, seed=3, threads=1)
    singles = [sum(len(cage) == 1 for cage, _ in rules.cages) for rules in killers.rules]
    assert sum(singles) / len(singles) <= 1.0
    assert singles.count(0) >= len(singles) // 2
    for grid, rules in zip(killers.solutions[:5], killers.rules[:5]):
        for cage, total in rules.cages:
            digits = grid[list(cage)]
            assert len(set(digits.tolist())) == len(cage) and int(digits.sum()) == total
        assert solutions([0] * 81, 9, rules, limit=2) == [grid.tolist()]
    result = sudoku.solve(killers.puzzles, rules=killers.rules, limit=2)
    assert result.status_counts() == {"UNIQUE": 20}
    assert (result.solutions == killers.solutions).all()


def test_killer_bad_arguments():
    with pytest.raises(ValueError, match="size"):
        sudoku.generate_killer(1, 17)
    with pytest.raises(ValueError, match="max_cage"):
        sudoku.generate_killer(1, max_cage=1)
    with pytest.raises(ValueError, match="max_cage"):
        sudoku.generate_killer(1, 4, max_cage=5)
    with pytest.raises(TypeError):
        sudoku.generate_killer(1.5)
    with pytest.raises(ValueError):
        sudoku.generate_killer(1, seed=-1)


def test_solving_path_timeout_and_progress():
    thermo = Rules(thermos=[(0, 1, 2)])
    with pytest.warns(RuntimeWarning, match="timeout: 0 of 3"):
        made = sudoku.generate(3, 4, seed=1, rules=thermo, timeout=1e-9)
    assert made.shape == (0, 16)
    calls = []
    made = sudoku.generate(3, 4, seed=1, rules=thermo, progress=lambda *a: calls.append(a))
    assert calls == [(3, 3)] and made.shape == (3, 16)
    for puzzle in made:
        assert len(solutions(puzzle.tolist(), 4, thermo, limit=2)) == 1


@pytest.mark.slow
def test_solving_path_timeout_is_a_deadline_within_a_block():
    # a block of minimal non-consecutive puzzles takes far longer than the timeout: the
    # call still returns soon after it (slack for a loaded machine), with whole puzzles
    import time
    import warnings

    nc = Rules(non_consecutive=True)
    sudoku.generate(1, seed=1, rules=nc)  # compiled before the clock starts
    began = time.monotonic()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        made = sudoku.generate(60, seed=1, rules=nc, timeout=1)
    assert time.monotonic() - began <= 3.5
    assert made.shape[0] < 60
    # the puzzles made by then are those made without a timeout
    if made.shape[0]:
        assert np.array_equal(made, sudoku.generate(made.shape[0], seed=1, rules=nc))


def test_solving_path_with_time_to_spare_makes_the_same_puzzles():
    # under a timeout the searches run in budgeted slices: the same answers when they end
    for rules in (Rules(thermos=[(0, 1, 2, 3)]), Rules(cages=[((0, 1), 3), ((8, 9), 11)])):
        plain = sudoku.generate(4, 6, seed=3, rules=rules)
        assert np.array_equal(sudoku.generate(4, 6, seed=3, rules=rules, timeout=600), plain)
