"""The puzzle files people have (issue 13): contest grids with a count line, trailing
fields, CSV columns, bad puzzles as statuses, size inference, binary files, 2-D grids."""

import csv
import io

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.core import ExactCover
from numbadlx.jobs import output_options, result_text
from numbadlx.sudoku import (
    format_grid_rows,
    format_lines,
    iter_chunks,
    parse,
    parse_chunk,
    read_csv,
)
from numbadlx.sudoku.formats import file_format, line_ranges

# Project Euler 96, grid 01, and its solution (published with the problem)
EULER = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EULER_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# Norvig's "hardest" 1 (unique)
HARD = "850002400720000009004000000000107002305000900040000000000080070017000000000036040"


def values(line):
    return [0 if ch in "._*-" else int(ch, 36) for ch in line]


def is_completion(puzzle, solution, rows, cols):
    """Independent check: the givens are kept and every unit holds 1..n once."""
    puzzle, solution = np.asarray(puzzle), np.asarray(solution)
    n = rows * cols
    if np.any((puzzle != 0) & (puzzle != solution)):
        return False
    grid = solution.reshape(n, n)
    units = [set(grid[r]) for r in range(n)] + [set(grid[:, c]) for c in range(n)]
    for r0 in range(0, n, rows):
        for c0 in range(0, n, cols):
            units.append(set(grid[r0 : r0 + rows, c0 : c0 + cols].ravel()))
    return all(unit == set(range(1, n + 1)) for unit in units)


def spaced_rows(line, n):
    return [" ".join(line[r * n : (r + 1) * n]) for r in range(n)]


def plain_rows(line, n):
    return [line[r * n : (r + 1) * n] for r in range(n)]


# ---------------------------------------------------------------- item 8: contest files


@pytest.mark.parametrize("rows_of", [spaced_rows, plain_rows])
@pytest.mark.parametrize("blank_lines", [True, False])
def test_contest_file_with_count_line(tmp_path, rows_of, blank_lines):
    puzzles = [EULER, HARD, EULER]
    blocks = ["\n".join(rows_of(p, 9)) for p in puzzles]
    text = "3\n" + ("\n\n" if blank_lines else "\n").join(blocks) + "\n"
    path = tmp_path / "contest.txt"
    path.write_text(text)
    expected = np.array([values(p) for p in puzzles], dtype=np.uint8)
    assert file_format(path) == "grid"
    np.testing.assert_array_equal(parse(path), expected)
    np.testing.assert_array_equal(parse(path, format="grid"), expected)
    np.testing.assert_array_equal(parse(text), expected)
    chunk = next(iter_chunks(path))
    assert not chunk.bad.any()
    step = 10 if blank_lines else 9
    assert chunk.line_numbers.tolist() == [2, 2 + step, 2 + 2 * step]
    result = sudoku.solve(path)
    assert result.status_names().tolist() == ["UNIQUE"] * 3
    assert sudoku.format_line(result.solutions[0]) == EULER_SOLUTION


@pytest.mark.parametrize("n", [4, 16])
def test_contest_file_other_sizes(n):
    rng = np.random.default_rng(n)
    puzzles = rng.integers(0, n + 1, size=(2, n * n))
    text = "2\n" + "\n\n".join(format_grid_rows(puzzles)) + "\n"
    np.testing.assert_array_equal(parse(text), puzzles)


def test_grid_output_is_the_contest_shape(tmp_path):
    path = tmp_path / "contest.txt"
    path.write_text("2\n" + "\n".join(spaced_rows(EULER, 9) + spaced_rows(HARD, 9)) + "\n")
    chunk = next(iter_chunks(path))
    result = sudoku.solve(chunk.puzzles)
    text = result_text(chunk, result, grid=True).decode()
    blocks = text.split("\n\n")
    assert blocks[-1] == ""  # a blank line after every puzzle
    for block, puzzle in zip(blocks[:2], (EULER, HARD)):
        rows = block.split("\n")
        assert len(rows) == 9
        assert all(len(row.split(" ")) == 9 for row in rows)
        grid = [int(v) for row in rows for v in row.split(" ")]
        assert is_completion(values(puzzle), grid, 3, 3)
    assert "".join(blocks[0].split()) == EULER_SOLUTION
    np.testing.assert_array_equal(parse(text, format="grid"), result.solutions)


def test_grid_output_notes_unsolved_puzzles():
    clash = "11" + "0" * 14
    chunk = parse_chunk([clash, "1x" + "0" * 14])
    result = sudoku.solve(chunk)
    text = result_text(chunk, result, grid=True).decode()
    assert text.split("\n\n")[0] == "1 1 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n# INVALID: givens clash"
    assert "# INVALID: <list>:2:2: invalid character 'x'" in text
    # the notes are comments: the output reads back as grids
    assert parse(text, format="grid").shape == (2, 16)


# ------------------------------------------------------------- item 9: trailing fields


@pytest.mark.parametrize(
    "tail",
    [
        " 11.9",
        "\t3.4",
        "  ED=11.9/11.9/11.3",
        ";comment",
        " ; comment",
        "//comment",
        " // x",
        ",9.1",
        "|rating",
        " # note",
        "#note",
    ],
)
def test_puzzle_lines_with_a_trailing_field(tmp_path, tail):
    expected = np.array([values(HARD), values(EULER)], dtype=np.uint8)
    lines = [HARD + tail, EULER + tail]
    path = tmp_path / "rated.txt"
    path.write_text("\n".join(lines) + "\n")
    np.testing.assert_array_equal(parse(path), expected)
    np.testing.assert_array_equal(parse(lines), expected)
    # mixed with plain lines in one chunk (the batch reader's fast and slow paths)
    path.write_text("\n".join([HARD, EULER + tail, HARD + tail, EULER]) + "\n")
    chunk = next(iter_chunks(path))
    assert not chunk.bad.any()
    np.testing.assert_array_equal(chunk.puzzles, expected[[0, 1, 0, 1]])


@pytest.mark.parametrize("blank", [".", "0", "_", "*", "-"])
def test_blank_characters(blank):
    line = HARD.replace("0", blank)
    np.testing.assert_array_equal(parse([line + " 2.0"]), [values(HARD)])


@pytest.mark.parametrize(
    "line, message",
    [
        (HARD + "x 11.9", "<list>:2:82: line has 86 cells, expected 81"),
        (HARD[:80] + " 11.9", "<list>:2:83: line has 84 cells, expected 81"),
        (HARD + "/x", "<list>:2:82: line has 83 cells, expected 81"),
        (HARD[:80] + "x 11.9", "<list>:2:81: invalid character 'x' (expected 0-9 or '.')"),
    ],
)
def test_anything_else_after_the_cells_is_an_error(line, message):
    with pytest.raises(ValueError) as info:
        parse([HARD, line])
    assert str(info.value) == message


# --------------------------------------------------- item 4: bad puzzles get a status


def test_solve_gives_a_bad_line_invalid_with_its_message_and_goes_on(tmp_path):
    bad = HARD[:40] + "x" + HARD[41:]
    result = sudoku.solve([EULER, bad, HARD])
    assert result.status_names().tolist() == ["UNIQUE", "INVALID", "UNIQUE"]
    assert result.messages == {1: "<list>:2:41: invalid character 'x' (expected 0-9 or '.')"}
    assert sudoku.format_line(result.solutions[0]) == EULER_SOLUTION
    assert is_completion(values(HARD), result.solutions[2], 3, 3)
    path = tmp_path / "p.txt"
    path.write_text(f"{EULER}\n{bad}\n{HARD[:70]}\n")
    result = sudoku.solve(str(path))
    assert result.status_names().tolist() == ["UNIQUE", "INVALID", "INVALID"]
    assert result.messages[1] == f"{path}:2:41: invalid character 'x' (expected 0-9 or '.')"
    assert result.messages[2] == f"{path}:3:71: line has 70 cells, expected 81"
    with pytest.raises(ValueError, match=r"p\.txt:2:41: invalid character 'x'"):
        sudoku.solve(path, errors="raise")
    with pytest.raises(ValueError, match="errors must be"):
        sudoku.solve([EULER], errors="ignore")
    with pytest.raises(ValueError, match="invalid character"):
        parse([EULER, bad])  # parse returns an array: it still raises


def test_solve_array_rows_out_of_range_get_a_message():
    batch = np.array([values(EULER), values(EULER)])
    batch[1, 5] = 12
    result = sudoku.solve(batch)
    assert result.status_names().tolist() == ["UNIQUE", "INVALID"]
    assert result.messages == {1: "<array>[1]: row 1, column 6: value 12 is out of range 0..9"}
    with pytest.raises(ValueError, match="out of range"):
        sudoku.solve(batch, errors="raise")


def test_parse_chunk_keeps_every_row():
    chunk = parse_chunk([EULER, "?" * 81, HARD])
    assert len(chunk) == 3 and chunk.bad.tolist() == [False, True, False]
    assert chunk.errors[0][0] == 1 and chunk.errors[0][1].startswith("<list>:2:1:")
    assert chunk.puzzles[1].tolist() == [0] * 81
    grids = [
        "\n".join(plain_rows(EULER, 9)),
        "\n".join(plain_rows(HARD[:70] + "?" + HARD[71:], 9)),
    ]
    chunk = parse_chunk(grids)
    assert chunk.bad.tolist() == [False, True]
    assert chunk.errors[0][1].startswith("<list item 1>:8:8: invalid character '?'")


# ---------------------------------------------------------------- item 10: CSV columns


def write_rows(path, rows):
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows(rows)


@pytest.mark.parametrize(
    "header",
    [
        ("unsolved", "solved"),
        ("question", "answer"),
        ("puzzle", "solution"),
        ("quizzes", "solutions"),
        ("Quizzes", "Solutions"),
    ],
)
def test_csv_common_headers(tmp_path, header):
    path = tmp_path / "p.csv"
    write_rows(path, [header, (EULER, EULER_SOLUTION), (EULER, "")])
    puzzles, solutions = read_csv(path)
    np.testing.assert_array_equal(puzzles, [values(EULER)] * 2)
    assert solutions[0].tolist() == values(EULER_SOLUTION) and not solutions[1].any()


def test_csv_without_header(tmp_path):
    path = tmp_path / "p.csv"
    write_rows(path, [("7", EULER, EULER_SOLUTION), ("8", HARD, "")])
    puzzles, solutions = read_csv(path)
    np.testing.assert_array_equal(puzzles, [values(EULER), values(HARD)])
    assert solutions[0].tolist() == values(EULER_SOLUTION)
    chunk = next(iter_chunks(path))
    assert chunk.line_numbers.tolist() == [1, 2]


def test_csv_column_by_name_or_index(tmp_path):
    path = tmp_path / "p.csv"
    write_rows(path, [("id", "start", "given"), ("1", EULER, HARD), ("2", HARD, EULER)])
    with pytest.raises(ValueError, match="no puzzle column .*column="):
        parse(path)
    np.testing.assert_array_equal(parse(path, column="GIVEN"), [values(HARD), values(EULER)])
    np.testing.assert_array_equal(parse(path, column=1), [values(EULER), values(HARD)])
    np.testing.assert_array_equal(
        next(iter_chunks(path, column="start")).puzzles, [values(EULER), values(HARD)]
    )
    with pytest.raises(ValueError, match="CSV header has no column 'nope'"):
        read_csv(path, column="nope")
    with pytest.raises(ValueError, match="column 5 was asked for"):
        read_csv(path, column=5)
    with pytest.raises(ValueError, match="column= is for CSV input"):
        parse([EULER], column="quizzes")
    result = sudoku.solve(path, column="start")
    assert result.status_names().tolist() == ["UNIQUE", "UNIQUE"]


def test_csv_solution_column_is_checked_per_row(tmp_path):
    wrong = EULER_SOLUTION[:-2] + EULER_SOLUTION[-1] + EULER_SOLUTION[-2]  # two swapped
    path = tmp_path / "p.csv"
    write_rows(
        path,
        [
            ("puzzle", "solution"),
            (EULER, EULER_SOLUTION),
            (EULER, wrong),
            (HARD, ""),
            (EULER, "1" * 81),
        ],
    )
    result = sudoku.solve(path)
    assert result.status_names().tolist() == ["UNIQUE"] * 4
    assert sorted(result.messages) == [1, 3]
    assert result.messages[1] == "line 3: solution column: digit 2 appears 2 times in column 8"
    assert result.messages[3].startswith("line 5: solution column: it changes the given 3")


# ------------------------------------------------------------- item 12: not text files


def test_directory_and_binary_file_are_named(tmp_path):
    with pytest.raises(IsADirectoryError, match=f"{tmp_path} is a directory, not a file"):
        parse(tmp_path)
    with pytest.raises(IsADirectoryError, match="is a directory"):
        parse(str(tmp_path))
    with pytest.raises(IsADirectoryError, match="is a directory"):
        next(iter_chunks(tmp_path))
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    message = f"{binary} is not a text file (byte 0x00 at offset 8)"
    for read in (parse, lambda p: next(iter_chunks(p)), read_csv, sudoku.solve):
        with pytest.raises(ValueError) as info:
            read(binary)
        assert str(info.value) == message
    # the DLX reader shares the check
    with pytest.raises(ValueError) as info:
        ExactCover.from_dlx(binary)
    assert str(info.value) == message
    with pytest.raises(FileNotFoundError, match="no such file"):
        next(iter_chunks(tmp_path / "missing.txt"))


# -------------------------------------------------- item 19: CSV rows across line ends


def multi_line_csv(path, rows):
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["quizzes", "note"])
    for i in range(rows):
        note = "first line\nsecond line" if i % 3 else 'says "hi",\nthen\n\nmore'
        writer.writerow([EULER if i % 2 else HARD, note])
    path.write_text(buffer.getvalue(), newline="")
    return buffer.getvalue().encode()


def test_line_ranges_keep_quoted_fields_whole(tmp_path):
    path = tmp_path / "notes.csv"
    data = multi_line_csv(path, 60)
    for chunk_bytes in (40, 173, 1000):
        ranges = line_ranges(path, chunk_bytes, quoted=True)
        assert ranges[0][0] == 0 and ranges[-1][1] == len(data)
        rows = 0
        for start, stop, first_line in ranges:
            assert data[:start].count(b"\n") + 1 == first_line
            part = list(csv.reader(io.StringIO(data[start:stop].decode(), newline="")))
            rows += len(part)
            assert all(len(row) == 2 for row in part)
        assert rows == 61  # the header and 60 rows, none cut


def test_dask_solve_file_on_a_csv_with_multi_line_fields(tmp_path):
    pytest.importorskip("dask.array")
    from numbadlx import dask as ndask

    path = tmp_path / "notes.csv"
    multi_line_csv(path, 30)
    out = tmp_path / "out.csv"
    summary = ndask.solve_file(path, out, scheduler="threads:2", chunk_bytes=150, limit=2)
    assert summary.puzzles == 30 and summary.tally == {"UNIQUE": 30}
    rows = list(csv.reader(open(out, newline="")))
    assert len(rows) == 31
    assert [row[2] for row in rows[1:]] == ["UNIQUE"] * 30


# ------------------------------------------------------ item 22: size from many lines


def four_by_four_lines(count):
    rng = np.random.default_rng(5)
    return format_lines(rng.integers(0, 5, size=(count, 16)))


@pytest.mark.parametrize("typo", ["9234000000000000", "92340000000000000"])
def test_one_mistyped_line_does_not_set_the_size(tmp_path, typo):
    lines = four_by_four_lines(32)
    lines[0] = typo
    path = tmp_path / "four.txt"
    path.write_text("\n".join(lines) + "\n")
    assert file_format(path) == "lines"
    for chunk_size in (1, 1000):
        chunks = list(iter_chunks(path, chunk_size=chunk_size))
        assert sum(len(c) for c in chunks) == 32
        assert {c.n for c in chunks} == {4}
        bad = [c.line_numbers[i] for c in chunks for i in np.flatnonzero(c.bad)]
        assert bad == [1]
    with pytest.raises(ValueError, match=f"{path}:1:"):
        parse(path)
    result = sudoku.solve(path)
    assert len(result) == 32 and result.status_names()[0] == "INVALID"


def test_size_is_the_most_common_among_the_first_lines():
    lines = ["0" * 81] + ["0" * 16] * 3
    with pytest.raises(ValueError) as info:
        parse(lines)
    assert str(info.value) == (
        "<list>:1:17: line has 81 cells, expected 16 (the size 4x4 was inferred from 3 of "
        "the first 4 puzzle lines)"
    )


# ------------------------------------------------------------ item 27: one 2-D grid


def test_solve_one_two_dimensional_grid():
    grid = np.array(values(EULER)).reshape(9, 9)
    result = sudoku.solve(grid)
    assert len(result) == 1 and result.n == 9
    assert sudoku.format_line(result.solutions[0]) == EULER_SOLUTION
    np.testing.assert_array_equal(parse(grid), [values(EULER)])
    assert sudoku.format_line(sudoku.solve_one(grid)) == EULER_SOLUTION


def test_square_arrays_follow_one_documented_rule():
    rng = np.random.default_rng(1)
    # (25, 25): one 25x25 grid (there are no 5x5 puzzles)
    empty25 = np.zeros((25, 25), dtype=np.uint8)
    assert parse(empty25).shape == (1, 625)
    assert sudoku.solve(empty25, limit=1, max_nodes=10**6).n == 25
    # (16, 16): 16 puzzles of 4x4, as parse returns them; box=(4, 4) makes it one grid
    batch = rng.integers(0, 5, size=(16, 16))
    assert len(sudoku.solve(batch)) == 16
    empty16 = np.zeros((16, 16), dtype=np.uint8)
    one = sudoku.solve(empty16, box=(4, 4), limit=1)
    assert len(one) == 1 and one.n == 16
    assert is_completion(np.zeros(256), one.solutions[0], 4, 4)


def test_cli_names_a_binary_file(tmp_path, capsys):
    from numbadlx import cli

    binary = tmp_path / "data.bin"
    binary.write_bytes(b"\x1f\x8b\x08\x00" + bytes(100))
    assert cli.main(["solve", str(binary), "--no-progress"]) == 2
    assert f"{binary} is not a text file (byte 0x1f at offset 0)" in capsys.readouterr().err


def test_one_mistyped_grid_row_does_not_set_the_size():
    rows = plain_rows(EULER, 9)
    typo = ["0030206001"] + rows[1:]  # the first row has a digit too many
    text = "\n".join(typo + rows) + "\n"
    chunk = parse_chunk(text, format="grid")
    assert chunk.n == 9 and chunk.bad.tolist() == [True, False]
    assert chunk.errors == [
        (
            0,
            "<string>:1:10: row has 10 cells, expected 9 (the size 9x9 was inferred from "
            "17 of the first 18 grid rows)",
        )
    ]
    np.testing.assert_array_equal(chunk.puzzles[1], values(EULER))


def test_cli_reads_and_writes_contest_grids(tmp_path):
    from numbadlx import cli

    source = tmp_path / "contest.txt"
    source.write_text("2\n" + "\n".join(spaced_rows(EULER, 9) + [""] + plain_rows(HARD, 9)) + "\n")
    out = tmp_path / "out.txt"
    args = ["solve", str(source), "-o", str(out), "--output-format", "grid", "--no-progress"]
    assert cli.main(args) == 0
    text = out.read_text()
    blocks = text.split("\n\n")
    assert len(blocks) == 3 and blocks[-1] == ""
    assert [len(block.split("\n")) for block in blocks[:2]] == [9, 9]
    assert "".join(blocks[0].split()) == EULER_SOLUTION
    solved = parse(text, format="grid")
    assert is_completion(values(HARD), solved[1], 3, 3)
    # the checkpoint records the shape (a resume must not mix it), only when it is used
    plain = output_options(limit=2)
    assert output_options(limit=2, grid=True) == {**plain, "grid": True}
    assert output_options(limit=2, column="q") == {**plain, "column": "q"}
    assert "grid" not in plain and "column" not in plain


def test_cli_column_option(tmp_path, capsys):
    from numbadlx import cli

    source = tmp_path / "p.csv"
    write_rows(source, [("id", "start", "given"), ("1", EULER, HARD)])
    for column in ("start", "1"):
        out = tmp_path / f"out-{column}.txt"
        assert cli.main(["solve", str(source), "-o", str(out), "--column", column]) == 0
        assert out.read_text() == EULER_SOLUTION + "\n"
    assert cli.main(["solve", str(source), "--column", "nope", "--no-progress"]) == 2
    assert "CSV header has no column 'nope'" in capsys.readouterr().err
