"""The variant puzzles the repository already shows, checked by the SAT oracle.

The shared killers (``killer_krazydad_vol1.csv``, with their published solutions) and
the worked examples of the variants guide and notebook: each has exactly one solution by
SAT, equal to the published (or documented) one and to what ``sudoku.solve`` returns on
every engine that takes the rules.
"""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules
from numbadlx.sudoku.formats import parse_chunk
from tests.helpers import bounds_checked, data_dir

from .sat_oracle import solutions

KILLERS = "killer_krazydad_vol1.csv"
JIGSAW5 = [
    [0, 0, 0, 1, 1],
    [0, 0, 1, 1, 1],
    [2, 2, 2, 3, 3],
    [2, 4, 2, 3, 3],
    [4, 4, 4, 4, 3],
]
# (puzzle, rules, documented solution or None): the guide's and the notebook's examples
EXAMPLES = [
    ("1200000040000000", Rules(diagonals=True), "1234341243212143"),
    (
        "....5......1......3..5..4",
        Rules(regions=np.array(JIGSAW5)),
        "1342552143413522453135214",
    ),
    (
        "0" * 16,
        Rules(
            thermos=[(4, 0, 1)],
            white_dots=[(12, 13)],
            black_dots=[(10, 14)],
            v_pairs=[(2, 3)],
            odd=[15],
        ),
        None,
    ),
]
# counts on the empty 4x4 grid the guide gives
COUNTS = [
    (Rules(diagonals=True), 48),
    (Rules(latin=True), 576),
    (Rules(thermos=[(0, 1, 2, 3)]), 12),
]


def _digits(text):
    return np.array([0 if c == "." else int(c) for c in text], dtype=np.uint8)


@pytest.mark.parametrize("k", range(len(EXAMPLES)))
def test_documented_examples(k):
    text, rules, documented = EXAMPLES[k]
    puzzle = _digits(text)
    n = int(round(len(puzzle) ** 0.5))
    found = solutions(puzzle, n, rules, limit=2)
    assert len(found) == 1
    if documented is not None:
        assert found[0] == [int(c) for c in documented]
    for engine in ("auto", "cages", "bits", "dlx"):
        try:
            result = sudoku.solve([puzzle], rules=rules, engine=engine)
        except ValueError as error:
            assert "does not solve the rules" in str(error)
            continue
        assert result.status[0] == sudoku.Status.UNIQUE, engine
        assert result.solutions[0].tolist() == found[0], engine


def test_documented_counts():
    for rules, count in COUNTS:
        assert len(solutions(np.zeros(16, np.uint8), 4, rules, limit=10**4)) == count
        assert sudoku.count_solutions("0" * 16, rules=rules) == count


def _killers(step):
    path = data_dir() / KILLERS
    if not path.exists():
        pytest.skip(f"no {KILLERS} in the datasets folder")
    chunk = parse_chunk(path)
    assert chunk.puzzles.shape == (800, 81) and not chunk.bad.any()
    rows = list(range(0, 800, step))
    result = sudoku.solve(chunk.puzzles[rows], rules=[chunk.rules[k] for k in rows])
    for j, k in enumerate(rows):
        found = solutions(chunk.puzzles[k], 9, chunk.rules[k], limit=2)
        assert found == [chunk.solutions[k].tolist()], f"killer row {k}"
        assert result.status[j] == sudoku.Status.UNIQUE, f"killer row {k}"
        assert result.solutions[j].tolist() == found[0], f"killer row {k}"
    return len(rows)


def test_shared_killers_sample():
    # about a second of SAT each (nine-cell cages are tables of permutations)
    assert _killers(160) == 5


@pytest.mark.slow
@pytest.mark.skipif(bounds_checked(), reason="run once, in the plain run of the suite")
def test_shared_killers_many():
    assert _killers(8) == 100
