"""pandas in and out: sudoku.solve reads a Series or a DataFrame column;
SudokuResult.to_pandas answers in the input's form; pandas stays optional."""

import sys

import numpy as np
import pytest

from numbadlx import sudoku

pd = pytest.importorskip("pandas")

# Two 9x9 puzzles with one solution each (Wikipedia's, and the same with dots)
WIKI = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
WIKI_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
EASY4 = "1.....1..3.....4"
CLASH4 = "11.." + "." * 12


def _valid_completion(puzzle, solution):
    """Each row, column and box holds every digit once, and every given is kept."""
    grid = sudoku.parse(solution)[0]
    givens = sudoku.parse(puzzle)[0]
    n = int(round(grid.size**0.5))
    rows, cols = sudoku.box_shape(n)
    cells = grid.reshape(n, n)
    boxes = cells.reshape(n // rows, rows, n // cols, cols).swapaxes(1, 2).reshape(n, n)
    full = set(range(1, n + 1))
    units_ok = all(set(unit) == full for group in (cells, cells.T, boxes) for unit in group)
    return units_ok and bool(np.all((givens == 0) | (givens == grid)))


def test_series_in_dataframe_out_in_the_inputs_form():
    dotted = WIKI.replace("0", ".")
    series = pd.Series([dotted, dotted], index=["a", "b"], name="quiz")
    frame = sudoku.solve(series).to_pandas()
    assert frame.index.tolist() == ["a", "b"]
    assert frame.columns.tolist() == ["puzzle", "solution", "status", "count", "nodes", "guesses"]
    assert frame["puzzle"].tolist() == [dotted, dotted]  # dots stay dots
    assert frame["solution"].tolist() == [WIKI_SOLUTION] * 2
    assert _valid_completion(dotted, frame.loc["a", "solution"])
    assert frame["status"].tolist() == ["UNIQUE", "UNIQUE"]
    assert frame["count"].tolist() == [1, 1] and (frame["nodes"] > 0).all()
    assert str(frame["puzzle"].dtype) == "string"


def test_dataframe_column_and_clear_errors():
    table = pd.DataFrame({"id": [3, 4, 5], "grid": [WIKI, EASY4, CLASH4]})
    small = table.iloc[1:]
    frame = sudoku.solve(small, column="grid").to_pandas()
    assert frame.index.tolist() == [1, 2]
    assert frame.loc[1, "puzzle"] == EASY4 and frame.loc[2, "puzzle"] == CLASH4
    assert _valid_completion(EASY4, frame.loc[1, "solution"])
    # clashing givens: INVALID, and no solution (a missing value, not a string of zeros)
    assert frame.loc[2, "status"] == "INVALID" and pd.isna(frame.loc[2, "solution"])
    with pytest.raises(ValueError, match="column="):
        sudoku.solve(table)
    with pytest.raises(ValueError, match="'puzzle' is not in the DataFrame"):
        sudoku.solve(table, column="puzzle")
    with pytest.raises(ValueError, match="for a DataFrame"):
        sudoku.solve(table["grid"], column="grid")
    with pytest.raises(TypeError, match="index 7"):
        sudoku.solve(pd.Series([EASY4, None], index=[6, 7]))


def test_array_input_gives_zero_blanks_and_a_range_index():
    puzzles = sudoku.parse([WIKI, WIKI])
    frame = sudoku.solve(puzzles, limit=1).to_pandas()
    assert frame.index.tolist() == [0, 1] and frame["puzzle"].tolist() == [WIKI, WIKI]
    assert frame["status"].tolist() == ["SOLVED", "SOLVED"]
    assert frame.loc[0, "solution"] == WIKI_SOLUTION
    assert sudoku.solve(puzzles).to_pandas(blank=".").loc[0, "puzzle"] == WIKI.replace("0", ".")


def test_pandas_stays_optional(monkeypatch):
    result = sudoku.solve(sudoku.parse([WIKI]))
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pytest.raises(ImportError, match="to_pandas needs pandas"):
        result.to_pandas()
    assert sudoku.solve(sudoku.parse([WIKI])).status_counts() == {"UNIQUE": 1}
