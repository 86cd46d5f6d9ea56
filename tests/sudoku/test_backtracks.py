"""sudoku.backtracks: the engines' guess counts as a rating, checked against what the
rater's logic ladder solves without a guess, and against the search's own order."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Status


def _solved_by(puzzles, logic):
    """Rows that the rater's ladder up to ``logic`` fills completely (one candidate in
    every cell): written apart from the engines' propagation."""
    masks = sudoku.candidates(puzzles, logic=logic).astype(np.uint64)
    single = (masks != 0) & ((masks & (masks - np.uint64(1))) == 0)
    return single.all(axis=1)


@pytest.mark.parametrize(
    "engine, logic",
    # "bits" runs one round of locked candidates after the singles and goes on only if
    # that round placed a digit, so it may stop short of the ladder's claiming
    [("bands", "claiming"), ("bits", "pointing"), ("bits", "singles")],
)
def test_no_guess_where_the_ladder_solves_without_one(datasets, engine, logic):
    hard = sudoku.parse(datasets / "top1465.txt")[:400]
    easy = sudoku.parse(sudoku.default_sample_path())[:400]
    puzzles = np.concatenate([hard, easy])
    ratings = sudoku.backtracks(puzzles, engine=engine)
    logical = _solved_by(puzzles, logic)
    assert logical.sum() > 200 and (~logical).sum() > 300  # both kinds are here
    assert np.all(ratings[logical] == 0)
    assert np.all(ratings >= 0)


def test_proving_uniqueness_adds_guesses_to_the_same_search(datasets):
    puzzles = sudoku.parse(datasets / "forum_hardest_1106.txt")[:60]
    first, result = sudoku.backtracks(puzzles, return_result=True)
    both = sudoku.backtracks(puzzles, limit=2)
    assert np.all(both >= first) and np.any(both > first)
    assert np.all(first > 0)  # every one of these needs a guess
    assert np.array_equal(first, result.guesses)
    assert result.status_counts() == {"SOLVED": 60}


def test_nothing_to_rate_is_minus_one_in_place():
    rows = [
        "1.....1..3.....4",  # unique
        "11.." + "." * 12,  # clashing givens
        "..12.3....2.....",  # no completion
        "12x4" + "0" * 12,  # unreadable
    ]
    ratings, result = sudoku.backtracks(rows, return_result=True)
    assert ratings.tolist()[1:] == [-1, -1, -1]
    assert ratings[0] == 0
    names = [Status(s).name for s in result.status]
    assert names == ["SOLVED", "INVALID", "NO_SOLUTION", "INVALID"]
    assert 3 in result.messages
    budget = sudoku.backtracks(np.zeros((1, 256), np.uint8), max_nodes=2, limit=2)
    assert budget.tolist() == [-1]
