"""Reading puzzles keeps every row in its place: one result per array-like item
(blank and comment items included), the input's index and text in ``to_pandas()``,
a bad CSV solution column reported but not fatal, contest count lines before
box-drawn grids, and a pandas column of numbers named with its fix."""

import pathlib

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import iter_chunks, parse, parse_chunk, read_csv

P4 = "1.....1..3.....4"
Q4 = "..1.3......2.4.."
P4_SOLUTION = "1243341243212134"
Q4_SOLUTION = "4213312413422431"
WIKI = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
WIKI_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


# ------------------------------------------------ array-like items are one puzzle each


@pytest.mark.parametrize("empty", ["", "   ", "# a comment", "  # indented comment"])
def test_a_blank_or_comment_item_is_an_invalid_row(empty):
    result = sudoku.solve([P4, empty, Q4])
    assert len(result) == 3
    assert result.status_names().tolist() == ["UNIQUE", "INVALID", "UNIQUE"]
    assert sudoku.format_line(result.solutions[2]) == Q4_SOLUTION
    assert result.messages[1].startswith("<list>:2:1: ")
    assert "not a puzzle" in result.messages[1]
    with pytest.raises(ValueError, match="<list>:2:1: "):
        parse([P4, empty, Q4])  # parse raises for any row it cannot read


def test_a_lone_number_item_is_a_puzzle_row_not_a_count_line():
    result = sudoku.solve(["2", P4, Q4])
    assert result.status_names().tolist() == ["INVALID", "UNIQUE", "UNIQUE"]
    assert result.messages[0].startswith("<list>:1:")


def test_every_item_blank_with_a_known_size():
    chunk = parse_chunk(["", "#"], n=4)
    assert len(chunk) == 2 and chunk.bad.tolist() == [True, True]
    with pytest.raises(ValueError, match="no puzzles found"):
        parse_chunk(["", "#"])  # no size to give the rows


def test_string_array_items_are_one_puzzle_each():
    result = sudoku.solve(np.array([P4, "", Q4]))
    assert result.status_names().tolist() == ["UNIQUE", "INVALID", "UNIQUE"]


def test_multi_line_items_are_one_puzzle_each():
    grid = "\n".join(P4[i : i + 4] for i in range(0, 16, 4))
    other = "\n".join(Q4[i : i + 4] for i in range(0, 16, 4))
    chunk = parse_chunk([grid, "", "# note\n", other, grid + "\n\n" + other])
    assert len(chunk) == 5
    assert chunk.bad.tolist() == [False, True, True, False, True]
    assert sudoku.format_line(chunk.puzzles[3], blank=".") == Q4
    reasons = dict(chunk.errors)
    assert "not a puzzle" in reasons[1] and "not a puzzle" in reasons[2]
    assert "holds 2 puzzles" in reasons[4]


def test_text_files_still_skip_blank_and_comment_lines(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"# two puzzles\n{P4}\n\n{Q4}\n")
    assert len(parse(path)) == 2
    assert len(parse(f"{P4}\n\n# c\n{Q4}\n")) == 2  # one multi-line string is a text


# ------------------------------------------------------------------------- pandas


def test_pandas_rows_keep_their_index_and_place():
    pd = pytest.importorskip("pandas")
    series = pd.Series([P4, "", "# c", Q4], index=list("abcd"), name="quiz")
    frame = series.to_frame().join(sudoku.solve(series).to_pandas())
    assert frame.index.tolist() == list("abcd")
    assert frame.loc["a", "solution"] == P4_SOLUTION
    assert frame.loc["d", "solution"] == Q4_SOLUTION
    assert frame.loc[["b", "c"], "status"].tolist() == ["INVALID", "INVALID"]
    assert frame.loc[["b", "c"], "solution"].isna().all()


def test_to_pandas_shows_the_input_text_of_an_unreadable_row():
    pd = pytest.importorskip("pandas")
    bad = "1x" + "." * 14
    frame = sudoku.solve(pd.Series([P4, bad, "# c"])).to_pandas()
    assert frame["puzzle"].tolist() == [P4, bad, "# c"]
    frame = sudoku.solve([P4, bad]).to_pandas()
    assert frame["puzzle"].tolist() == ["1000001003000004", bad]
    values = np.array([[1] + [0] * 15, [17] + [0] * 15])
    frame = sudoku.solve(values).to_pandas()
    assert frame.loc[1, "puzzle"] == " ".join(["17"] + ["0"] * 15)


def test_a_column_of_numbers_names_the_column_and_dtype_str():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"quizzes": [int(WIKI)], "solutions": [int(WIKI_SOLUTION)]})
    with pytest.raises(TypeError, match=r"column 'quizzes'.*dtype=str"):
        sudoku.solve(frame, column="quizzes")
    with pytest.raises(TypeError, match=r"dtype=str"):
        sudoku.solve(frame["quizzes"])


def test_the_bulk_guide_reads_csv_as_strings():
    guide = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guides" / "bulk.md"
    text = guide.read_text(encoding="utf-8")
    assert "pd.read_csv(" in text
    assert all("dtype=str" in line for line in text.splitlines() if "pd.read_csv(" in line)


# ------------------------------------------------------------- CSV solution column


def test_a_malformed_solution_column_is_reported_and_the_puzzle_solved(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text(
        "quizzes,solutions\n"
        f"{WIKI},{WIKI_SOLUTION}\n"
        f"{WIKI},{WIKI_SOLUTION[:80]}\n"
        f"{WIKI},{WIKI_SOLUTION[:80]}x\n"
    )
    result = sudoku.solve(path)
    assert result.status_names().tolist() == ["UNIQUE"] * 3
    assert [sudoku.format_line(s) for s in result.solutions] == [WIKI_SOLUTION] * 3
    assert sorted(result.messages) == [1, 2]
    assert "solution column" in result.messages[1] and "80 cells" in result.messages[1]
    assert "solution column" in result.messages[2] and "'x'" in result.messages[2]
    assert result.messages[1].startswith(f"{path}:3:")
    chunk = next(iter_chunks(path))
    assert chunk.bad.tolist() == [False, False, False]
    with pytest.raises(ValueError, match="solution"):
        read_csv(path)  # read_csv still refuses a malformed solution


# ---------------------------------------------------- count line before drawn grids

BOXED = """\
+-------+-------+-------+
| 5 3 . | . 7 . | . . . |
| 6 . . | 1 9 5 | . . . |
| . 9 8 | . . . | . 6 . |
+-------+-------+-------+
| 8 . . | . 6 . | . . 3 |
| 4 . . | 8 . 3 | . . 1 |
| 7 . . | . 2 . | . . 6 |
+-------+-------+-------+
| . 6 . | . . . | 2 8 . |
| . . . | 4 1 9 | . . 5 |
| . . . | . 8 . | . 7 9 |
+-------+-------+-------+
"""


@pytest.mark.parametrize("fmt", [None, "grid"])
def test_a_count_line_before_box_drawn_grids(tmp_path, fmt):
    path = tmp_path / "boxed.txt"
    path.write_text("2\n" + BOXED + "\n" + BOXED)
    puzzles = parse(path, format=fmt)
    assert puzzles.shape == (2, 81)
    assert sudoku.format_line(puzzles[0]) == WIKI
    result = sudoku.solve(path)
    assert result.status_names().tolist() == ["UNIQUE", "UNIQUE"]
    assert len(parse("1\n" + BOXED, format=fmt)) == 1


def test_a_count_line_before_lines_of_dashes(tmp_path):
    assert parse("2\n" + "-" * 81 + "\n" + WIKI + "\n").shape == (2, 81)
