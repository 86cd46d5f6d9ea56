"""Tests for numbadlx.sudoku.formats (Sudoku text, CSV and array input/output)."""

import csv
from pathlib import Path

import numpy as np
import pytest

from numbadlx.sudoku import (
    PuzzleChunk,
    box_shape,
    format_grid,
    format_line,
    format_lines,
    iter_chunks,
    parse,
    read_csv,
)
from tests.helpers import data_dir

SIZES = [4, 6, 9, 16, 25, 36]

# Norvig's "hardest" puzzle 1, with '0' blanks, and its grid text
LINE9 = "850002400720000009004000000000107002305000900040000000000080070017000000000036040"
GRID9 = """\
8 5 . | . . 2 | 4 . .
7 2 . | . . . | . . 9
. . 4 | . . . | . . .
------+-------+------
. . . | 1 . 7 | . . 2
3 . 5 | . . . | 9 . .
. 4 . | . . . | . . .
------+-------+------
. . . | . 8 . | . 7 .
. 1 7 | . . . | . . .
. . . | . 3 6 | . 4 .
"""


def need_data(name: str) -> Path:
    path = data_dir() / name
    if not path.is_file():
        pytest.skip(f"data file {path} not found (set NUMBADLX_DATA to the data folder)")
    return path


def line_values(text: str) -> list[int]:
    return [0 if ch == "." else int(ch, 36) for ch in text]


def random_puzzles(n: int, count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed + n)
    return rng.integers(0, n + 1, size=(count, n * n)).astype(np.uint8)


def error_of(func, *args, **kwargs) -> str:
    with pytest.raises(ValueError) as info:
        func(*args, **kwargs)
    return str(info.value)


# ---------------------------------------------------------------------------
# sizes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, shape",
    [
        (4, (2, 2)),
        (6, (2, 3)),
        (8, (2, 4)),
        (9, (3, 3)),
        (12, (3, 4)),
        (16, (4, 4)),
        (25, (5, 5)),
        (32, (4, 8)),
        (35, (5, 7)),
        (36, (6, 6)),
    ],
)
def test_box_shape_default(n, shape):
    assert box_shape(n) == shape


def test_box_shape_explicit_and_errors():
    assert box_shape(6, (3, 2)) == (3, 2)
    assert box_shape(12, [2, 6]) == (2, 6)
    assert "prime" in error_of(box_shape, 7)
    assert "from 4 to 36" in error_of(box_shape, 3)
    assert "from 4 to 36" in error_of(box_shape, 49)
    assert "does not fit" in error_of(box_shape, 9, (2, 4))
    assert "at least 2" in error_of(box_shape, 8, (1, 8))


# ---------------------------------------------------------------------------
# line format and round trips
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_round_trip_lines(n):
    puzzles = random_puzzles(n, 25)
    lines = format_lines(puzzles)
    assert len(lines) == 25
    if n == 36:
        assert len(lines[0].split()) == 36 * 36
    else:
        assert all(len(line) == n * n for line in lines)
    back = parse("\n".join(lines) + "\n")
    assert back.dtype == np.uint8
    np.testing.assert_array_equal(back, puzzles)
    np.testing.assert_array_equal(parse(lines), puzzles)
    dotted = format_lines(puzzles, blank=".")
    assert "0" not in (dotted[0].split() if n == 36 else dotted[0])
    np.testing.assert_array_equal(parse(dotted), puzzles)
    assert format_line(puzzles[3]) == lines[3]
    np.testing.assert_array_equal(parse(format_line(puzzles[3])), puzzles[3:4])


def test_known_values_and_alphabet():
    p = parse(LINE9)
    assert p.shape == (1, 81)
    assert p[0].tolist() == line_values(LINE9)
    dots = LINE9.replace("0", ".")
    np.testing.assert_array_equal(parse(dots), p)
    # base-36 letters, either case
    line16 = "123456789ABCDEFG" + "abcdefg" + "0" * (256 - 23)
    q = parse(line16)
    assert q.shape == (1, 256)
    assert q[0, :23].tolist() == list(range(1, 17)) + list(range(10, 17))
    assert format_line(q)[:23] == "123456789ABCDEFGABCDEFG"


def test_separated_numbers_and_grouped_lines():
    nums = " ".join(str(v) for v in line_values(LINE9))
    np.testing.assert_array_equal(parse(nums), parse(LINE9))
    np.testing.assert_array_equal(parse(nums.replace(" ", ",")), parse(LINE9))
    grouped = " ".join(LINE9[i : i + 9] for i in range(0, 81, 9))
    np.testing.assert_array_equal(parse(grouped), parse(LINE9))
    # 16x16 as integers (values above 9 need more than one character)
    values = random_puzzles(16, 1)[0]
    text = ", ".join(str(v) for v in values)
    np.testing.assert_array_equal(parse(text), values[None])


def test_crlf_bom_comments_blank_lines(tmp_path):
    puzzles = random_puzzles(9, 4)
    lines = format_lines(puzzles)
    text = (
        "# a comment\r\n\r\n"
        + lines[0]
        + "   \r\n"
        + "   # indented comment\r\n"
        + lines[1]
        + "\t# trailing comment\r\n"
        + "\r\n"
        + lines[2]
        + "\r\n"
        + lines[3]  # no final newline
    )
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("ascii"))
    np.testing.assert_array_equal(parse(path), puzzles)
    np.testing.assert_array_equal(parse(str(path)), puzzles)
    np.testing.assert_array_equal(parse(text), puzzles)
    chunk = next(iter_chunks(path))
    assert chunk.line_numbers.tolist() == [3, 5, 7, 8]
    assert chunk.raw[1] == lines[1] + "\t# trailing comment"
    assert chunk.end_byte == path.stat().st_size
    # errors count the comment lines and the BOM is not a column
    bad = text.replace(lines[2], lines[2][:10] + "x" + lines[2][11:])
    path.write_bytes(b"\xef\xbb\xbf" + bad.encode("ascii"))
    msg = error_of(parse, path)
    assert msg == f"{path}:7:11: invalid character 'x' (expected 0-9 or '.')"


def test_string_that_is_a_path_or_text(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(LINE9 + "\n")
    np.testing.assert_array_equal(parse(str(path)), parse(LINE9))
    # a line that names no file and is no puzzle: a missing file, not puzzle text
    with pytest.raises(FileNotFoundError, match="no such file") as info:
        parse(str(tmp_path / "missing.txt"))
    assert info.value.filename == str(tmp_path / "missing.txt")
    # with a line break it is puzzle text, read as such
    assert error_of(parse, str(tmp_path / "missing.txt") + "\n").startswith("<string>:1:")


# ---------------------------------------------------------------------------
# grid format
# ---------------------------------------------------------------------------


def test_grid_9x9_with_separators(tmp_path):
    p = parse(GRID9)
    np.testing.assert_array_equal(p, parse(LINE9))
    path = tmp_path / "grids.txt"
    path.write_text(GRID9 + "\n" + GRID9.replace("8 5 .", "1 5 ."))
    q = parse(path)
    assert q.shape == (2, 81)
    assert q[1, 0] == 1 and q[1, 1:].tolist() == p[0, 1:].tolist()
    chunks = list(iter_chunks(path, chunk_size=1))
    assert [c.line_numbers.tolist() for c in chunks] == [[1], [13]]
    assert chunks[0].raw[0].splitlines()[0] == "8 5 . | . . 2 | 4 . ."
    resumed = list(iter_chunks(path, start_byte=chunks[0].end_byte))
    np.testing.assert_array_equal(resumed[0].puzzles, q[1:])
    assert resumed[0].line_numbers.tolist() == [13]


def test_grid_4x4_consecutive_and_forced():
    text = "1.3.\n....\n..1.\n4...\n2...\n....\n....\n...3\n"
    p = parse(text, format="grid")
    assert p.shape == (2, 16)
    assert p[0].tolist() == line_values("1.3.......1.4...")
    assert p[1].tolist() == line_values("2..............3")
    # auto-detection: 4 cells per line -> grid format
    np.testing.assert_array_equal(parse(text), p)
    boxed = "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n"
    np.testing.assert_array_equal(parse(boxed), parse("1234341221434321"))


@pytest.mark.parametrize("n", [4, 6, 9, 12, 16, 25, 36])
def test_format_grid_round_trip(n):
    puzzles = random_puzzles(n, 3, seed=5)
    r, c = box_shape(n)
    text = format_grid(puzzles[0])
    rows = text.splitlines()
    assert len(rows) == n + (n // r - 1)
    assert sum(set(row) <= set("-+") for row in rows) == n // r - 1
    np.testing.assert_array_equal(parse(text), puzzles[:1])
    np.testing.assert_array_equal(parse(format_grid(puzzles), format="grid"), puzzles)
    np.testing.assert_array_equal(parse(format_grid(puzzles[0].reshape(n, n))), puzzles[:1])


def test_format_grid_layout():
    grid = np.zeros((6, 6), dtype=np.uint8)
    grid[0, 0] = 6
    assert format_grid(grid).splitlines()[:3] == ["6 . . | . . .", ". . . | . . .", "------+------"]
    assert format_grid(grid, box=(3, 2)).splitlines()[:4] == [
        "6 . | . . | . .",
        ". . | . . | . .",
        ". . | . . | . .",
        "----+-----+----",
    ]


def test_ambiguous_16_cell_lines():
    puzzles = random_puzzles(16, 2, seed=3)
    puzzles[:, 0] = 16  # a value impossible in a 4x4 puzzle
    rows = "\n".join(line[i : i + 16] for line in format_lines(puzzles) for i in range(0, 256, 16))
    # rows with a value > 4: auto-detected as a 16x16 grid
    np.testing.assert_array_equal(parse(rows), puzzles)
    small = random_puzzles(4, 16)
    text = "\n".join(format_lines(small))
    np.testing.assert_array_equal(parse(text), small)  # 4x4 puzzle lines
    np.testing.assert_array_equal(parse(text, n=16), small.reshape(1, 256))
    np.testing.assert_array_equal(parse(text, format="grid"), small.reshape(1, 256))


# ---------------------------------------------------------------------------
# CSV and npy
# ---------------------------------------------------------------------------


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


@pytest.mark.parametrize(
    "header, pcol, scol",
    [
        (["quizzes", "solutions"], 0, 1),
        (["puzzle", "solution", "clues", "difficulty", "difficulty_range"], 0, 1),
        (["id", "Quiz", "Solution"], 1, 2),
    ],
)
def test_csv_header_styles(tmp_path, header, pcol, scol):
    puzzles = random_puzzles(9, 6)
    sols = random_puzzles(9, 6, seed=1)
    rows = []
    for i, (p, s) in enumerate(zip(format_lines(puzzles), format_lines(sols))):
        row = [str(i)] * len(header)
        row[pcol], row[scol] = p, s
        rows.append(row)
    path = tmp_path / "data.csv"
    write_csv(path, header, rows)
    got_p, got_s = read_csv(path)
    np.testing.assert_array_equal(got_p, puzzles)
    np.testing.assert_array_equal(got_s, sols)
    np.testing.assert_array_equal(parse(path), puzzles)
    # without the .csv extension the header is recognised too
    other = tmp_path / "data.dat"
    other.write_bytes(path.read_bytes())
    np.testing.assert_array_equal(parse(other), puzzles)


def test_csv_without_solutions_and_errors(tmp_path):
    path = tmp_path / "p.csv"
    write_csv(path, ["puzzle", "solution_count", "name"], [[LINE9, "1", "a"], [LINE9, "1", "b"]])
    puzzles, sols = read_csv(path)
    assert sols is None and puzzles.shape == (2, 81)
    write_csv(path, ["id", "quizzes"], [["1", LINE9], ["2", LINE9[:40] + "x" + LINE9[41:]]])
    assert error_of(parse, path) == f"{path}:3:43: invalid character 'x' (expected 0-9 or '.')"
    write_csv(path, ["a", "b"], [["1", "2"]])
    assert "no puzzle column" in error_of(read_csv, path)


def test_npy_round_trip(tmp_path):
    puzzles = random_puzzles(9, 7)
    stored = [puzzles, puzzles.astype(np.int64).reshape(7, 9, 9), puzzles.astype(np.float32)]
    for i, arr in enumerate(stored):
        path = tmp_path / f"p{i}.npy"
        np.save(path, arr)
        np.testing.assert_array_equal(parse(path), puzzles)
        np.testing.assert_array_equal(parse(str(path), format="npy"), puzzles)
        chunks = list(iter_chunks(path, chunk_size=3))
        assert [len(c) for c in chunks] == [3, 3, 1]
        np.testing.assert_array_equal(np.concatenate([c.puzzles for c in chunks]), puzzles)
        rest = list(iter_chunks(path, start_byte=chunks[0].end_byte))
        np.testing.assert_array_equal(np.concatenate([c.puzzles for c in rest]), puzzles[3:])
    bad = puzzles.astype(np.int16)
    bad[2, 5] = 10
    path = tmp_path / "bad.npy"
    np.save(path, bad)
    assert error_of(parse, path) == f"{path}[2]: row 1, column 6: value 10 is out of range 0..9"
    chunk = next(iter_chunks(path))
    assert chunk.bad.tolist() == [False, False, True] + [False] * 4
    assert chunk.puzzles[2].tolist() == [0] * 81


# ---------------------------------------------------------------------------
# arrays
# ---------------------------------------------------------------------------


def test_array_shapes():
    puzzles = random_puzzles(9, 4)
    np.testing.assert_array_equal(parse(puzzles), puzzles)
    np.testing.assert_array_equal(parse(puzzles[0]), puzzles[:1])
    np.testing.assert_array_equal(parse(puzzles[0].reshape(9, 9)), puzzles[:1])
    np.testing.assert_array_equal(parse(puzzles.reshape(4, 9, 9).astype(np.int32)), puzzles)
    np.testing.assert_array_equal(parse(puzzles.astype(np.float64)), puzzles)
    np.testing.assert_array_equal(parse(puzzles.tolist()), puzzles)
    # (16, 16): a batch of 16 4x4 puzzles unless n says it is one grid
    sixteen = random_puzzles(4, 16)
    np.testing.assert_array_equal(parse(sixteen), sixteen)
    np.testing.assert_array_equal(parse(sixteen, n=16), sixteen.reshape(1, 256))
    assert parse(np.zeros((1, 16, 16), np.int8)).shape == (1, 256)
    assert parse(np.array(format_lines(puzzles))).shape == (4, 81)


@pytest.mark.parametrize(
    "arr, expected",
    [
        (np.array([[np.nan] + [0.0] * 80]), "<array>[0]: row 1, column 1: NaN is not a cell value"),
        (
            np.array([[0.0] * 12 + [2.5] + [0.0] * 68]),
            "<array>[0]: row 2, column 4: value 2.5 is not a whole number",
        ),
        (
            np.array([[0] * 81, [0] * 80 + [10]]),
            "<array>[1]: row 9, column 9: value 10 is out of range 0..9",
        ),
        (np.array([-1] + [0] * 15), "<array>[0]: row 1, column 1: value -1 is out of range 0..4"),
        (np.zeros(80, np.int64), "<array>: array of shape (80,) is not one puzzle"),
        (np.zeros((3, 50), np.int64), "<array>: array of shape (3, 50) is neither"),
        (np.zeros((2, 9, 8), np.int64), "<array>: array of shape (2, 9, 8) is not (N, n, n)"),
        (np.zeros((1, 81), bool), "<array>: array of dtype bool cannot hold puzzles"),
    ],
)
def test_array_errors(arr, expected):
    assert error_of(parse, arr).startswith(expected)


def test_array_size_mismatch_with_n():
    assert "does not hold 4x4 puzzles" in error_of(parse, np.zeros((2, 81), np.uint8), n=4)
    assert "prime" in error_of(parse, np.zeros((2, 49), np.uint8))


# ---------------------------------------------------------------------------
# malformed text
# ---------------------------------------------------------------------------


def test_error_messages_name_line_column(tmp_path):
    good = format_lines(random_puzzles(9, 3, seed=9), blank=".")
    path = tmp_path / "puzzles.txt"

    def fails(lines):
        path.write_text("\n".join(lines) + "\n")
        return error_of(parse, path)

    bad = good[1][:39] + "x" + good[1][40:]
    assert fails([good[0], "", bad]) == f"{path}:3:40: invalid character 'x' (expected 0-9 or '.')"
    assert fails([good[0], good[1][:80]]) == f"{path}:2:81: line has 80 cells, expected 81"
    assert fails([good[0], good[1] + "1"]) == f"{path}:2:82: line has 82 cells, expected 81"
    assert fails([good[0], "0" * 256]) == (
        f"{path}:2:82: line has 256 cells, expected 81 (the size 9x9 was set by line 1)"
    )
    assert fails([good[0], good[1][:5] + "A" + good[1][6:]]).startswith(
        f"{path}:2:6: invalid character 'A'"
    )
    assert fails(["1234" + "0" * 11 + "9"]) == (
        f"{path}:1:16: value '9' (9) is too large for a 4x4 puzzle (max 4)"
    )
    assert fails(["G" + "0" * 80, ""]).startswith(f"{path}:1:1: invalid character 'G'")
    assert fails(["0" * 40]).startswith(f"{path}:1:41: line has 40 cells; a puzzle line needs")
    assert "7x7" in fails(["0" * 49])
    numbers = " ".join(["0"] * 1295 + ["37"])
    assert fails([numbers]) == (
        f"{path}:1:{len(numbers) - 1}: value 37 is too large for a 36x36 puzzle (max 36)"
    )
    # undecodable bytes
    path.write_bytes(good[0].encode()[:10] + b"\xff" + good[0].encode()[11:] + b"\n")
    assert error_of(parse, path) == (
        f"{path}:1:11: undecodable byte 0xFF (the text is not valid UTF-8)"
    )
    # explicit n that does not match
    path.write_text(good[0] + "\n")
    assert error_of(parse, path, n=16).startswith(f"{path}:1:82: line has 81 cells, expected 256")


def test_strings_and_lists_report_their_origin():
    # one line without a line break that is no puzzle line names a (missing) file
    with pytest.raises(FileNotFoundError, match="not a line of puzzle text"):
        parse(LINE9[:80])
    assert error_of(parse, LINE9[:80] + "\n").startswith(
        "<string>:1:81: line has 80 cells; a puzzle line needs n*n"
    )
    assert error_of(parse, [LINE9, LINE9[:80]]) == "<list>:2:81: line has 80 cells, expected 81"
    assert error_of(parse, [LINE9, LINE9[:3] + "?" + LINE9[4:]]).startswith(
        "<list>:2:4: invalid character '?'"
    )
    assert error_of(parse, GRID9.replace("3 . 5", "3 . x")).startswith(
        "<string>:6:5: invalid character 'x'"
    )
    short = "\n".join(GRID9.splitlines()[:-1])
    assert error_of(parse, short) == (
        "<string>:1:1: puzzle has only 8 rows, expected 9 (the file ends after line 10)"
    )
    assert error_of(parse, "\n\n# nothing\n") == "<string>: no puzzles found"
    assert parse("", n=9).shape == (0, 81)
    with pytest.raises(ValueError, match="unknown format"):
        parse(LINE9, format="xml")


def test_box_argument():
    puzzles = random_puzzles(6, 2)
    np.testing.assert_array_equal(parse(format_lines(puzzles), box=(3, 2)), puzzles)
    np.testing.assert_array_equal(parse(format_lines(puzzles), n=6, box=(2, 3)), puzzles)
    assert error_of(parse, format_lines(puzzles), box=(2, 2)) == (
        "<list>:1:17: line has 36 cells, expected 16 (box 2x2 was given)"
    )
    assert "does not hold 9x9 puzzles" in error_of(parse, puzzles, box=(3, 3))
    assert "does not fit" in error_of(parse, puzzles, n=6, box=(3, 3))


def test_clashing_givens_are_not_parse_errors():
    p = parse("11" + "0" * 79)
    assert p[0, :2].tolist() == [1, 1]


def test_format_errors():
    with pytest.raises(ValueError, match="out of range"):
        format_lines(np.full((1, 16), 5))
    with pytest.raises(ValueError, match="one puzzle"):
        format_line(np.zeros((2, 81), np.uint8))
    with pytest.raises(ValueError, match="blank"):
        format_lines(np.zeros((1, 81), np.uint8), blank="-")
    assert format_lines(np.zeros((0, 81), np.uint8)) == []


# ---------------------------------------------------------------------------
# streaming
# ---------------------------------------------------------------------------


def make_mixed_file(path):
    """12 puzzle lines (4 bad) plus a comment; return the good rows."""
    puzzles = random_puzzles(9, 12, seed=11)
    lines = format_lines(puzzles)
    lines[2] = lines[2][:20] + "?" + lines[2][21:]  # bad character
    lines[5] = lines[5][:70]  # too short
    lines[6] = "0" * 256  # wrong size
    lines[9] = lines[9][:80] + "\xe9"  # non-ASCII character
    text = "# header comment\n" + "\n".join(lines) + "\n"
    path.write_bytes(text.encode("utf-8"))
    return puzzles, lines, [2, 5, 6, 9]


def test_iter_chunks_flags_bad_lines(tmp_path):
    path = tmp_path / "mixed.txt"
    puzzles, lines, bad_rows = make_mixed_file(path)
    chunks = list(iter_chunks(path, chunk_size=5))
    assert [len(c) for c in chunks] == [5, 5, 2]
    assert all(isinstance(c, PuzzleChunk) for c in chunks)
    bad = np.concatenate([c.bad for c in chunks])
    assert np.flatnonzero(bad).tolist() == bad_rows
    got = np.concatenate([c.puzzles for c in chunks])
    good = np.setdiff1d(np.arange(12), bad_rows)
    np.testing.assert_array_equal(got[good], puzzles[good])
    assert not got[bad_rows].any()
    lines_no = np.concatenate([c.line_numbers for c in chunks])
    assert lines_no.tolist() == list(range(2, 14))
    assert sum((c.raw for c in chunks), []) == lines
    messages = [(k * 5 + i, m) for k, c in enumerate(chunks) for i, m in c.errors]
    assert [row for row, _ in messages] == bad_rows
    assert messages[0][1] == f"{path}:4:21: invalid character '?' (expected 0-9 or '.')"
    assert messages[1][1] == f"{path}:7:71: line has 70 cells, expected 81"
    assert messages[2][1].startswith(f"{path}:8:82: line has 256 cells, expected 81")
    assert messages[3][1].startswith(f"{path}:11:81: invalid character")
    # byte offsets: each chunk ends just after its last line
    data = path.read_bytes()
    for c in chunks:
        assert data[c.end_byte - 1 : c.end_byte] == b"\n"
        assert data[: c.end_byte].count(b"\n") == c.line_numbers[-1]


def test_iter_chunks_matches_parse_and_resumes(tmp_path):
    puzzles = random_puzzles(16, 40, seed=2)
    path = tmp_path / "good.txt"
    path.write_text("# sixteen\n" + "\n".join(format_lines(puzzles)) + "\n\n")
    chunks = list(iter_chunks(path, chunk_size=7))
    assert not any(c.bad.any() for c in chunks)
    np.testing.assert_array_equal(np.concatenate([c.puzzles for c in chunks]), parse(path))
    for k in (0, 3):
        rest = list(iter_chunks(path, chunk_size=100, start_byte=chunks[k].end_byte))
        assert len(rest) == 1
        np.testing.assert_array_equal(rest[0].puzzles, puzzles[(k + 1) * 7 :])
        assert rest[0].line_numbers[0] == (k + 1) * 7 + 2
    assert list(iter_chunks(path, start_byte=chunks[-1].end_byte)) == []
    with pytest.raises(ValueError, match="not at the start of a line"):
        next(iter_chunks(path, start_byte=5))


@pytest.mark.parametrize("block", [7, 100, 1 << 20])
def test_iter_chunks_small_read_blocks(tmp_path, monkeypatch, block):
    """Lines split across read blocks, clean and messy blocks, no final newline."""
    import numbadlx.sudoku.formats._reader as sio

    puzzles = random_puzzles(9, 30, seed=8)
    lines = format_lines(puzzles)
    lines[4] = "  " + lines[4] + "  # spaces and a comment"
    lines[7] = lines[7] + "\r"
    lines[12] = lines[12][:50]
    text = "\n".join(lines[:10]) + "\n\n# comment\n" + "\n".join(lines[10:])
    path = tmp_path / "blocks.txt"
    path.write_text(text, newline="")
    monkeypatch.setattr(sio, "_READ_BLOCK", block)
    chunks = list(iter_chunks(path, chunk_size=4))
    got = np.concatenate([c.puzzles for c in chunks])
    bad = np.concatenate([c.bad for c in chunks])
    assert np.flatnonzero(bad).tolist() == [12]
    keep = np.arange(30) != 12
    np.testing.assert_array_equal(got[keep], puzzles[keep])
    numbers = np.concatenate([c.line_numbers for c in chunks])
    assert numbers.tolist() == list(range(1, 11)) + list(range(13, 33))
    assert chunks[-1].end_byte == len(text)
    data = text.encode()
    done = 0
    for c in chunks[:-1]:
        done += len(c)
        assert data[c.end_byte - 1 : c.end_byte] == b"\n"
        rest = np.concatenate([r.puzzles for r in iter_chunks(path, start_byte=c.end_byte)])
        np.testing.assert_array_equal(rest, got[done:])


@pytest.mark.parametrize("block", [1, 2, 5, 64])
def test_read_blocks_split_lines_longer_than_many_blocks(tmp_path, monkeypatch, block):
    """Lines of any length against a plain split: a line spanning many read blocks is
    joined once (its blocks are held, not re-joined and searched at every block)."""
    import numbadlx.sudoku.formats._reader as sio

    monkeypatch.setattr(sio, "_READ_BLOCK", block)
    rng = np.random.default_rng(block)
    path = tmp_path / "long.txt"
    for _ in range(40):
        lines = [b"x" * int(rng.choice([0, 1, 3, 9, 200])) for _ in range(rng.integers(1, 6))]
        data = b"\n".join(lines) + (b"\n" if rng.random() < 0.5 else b"")
        path.write_bytes(data)
        with open(path, "rb") as f:
            got = list(sio._iter_blocks(f, 0, 1))
        pieces = [p for _, _, _, ps, _ in got for p in ps]
        whole = (data[:-1] if data.endswith(b"\n") else data).split(b"\n")
        assert pieces == (whole if data else [])
        for first, start, body, ps, terminated in got:
            assert data[start : start + len(body)] == body == b"\n".join(ps)
            assert terminated == (start + len(body) < len(data))
            assert first == 1 + data[:start].count(b"\n")


def test_iter_chunks_csv_resume(tmp_path):
    puzzles = random_puzzles(9, 10, seed=4)
    sols = random_puzzles(9, 10, seed=5)
    rows = [[p, s, "x"] for p, s in zip(format_lines(puzzles), format_lines(sols))]
    rows[4][0] = rows[4][0][:-1]
    path = tmp_path / "data.csv"
    write_csv(path, ["puzzle", "solution", "note"], rows)
    chunks = list(iter_chunks(path, chunk_size=4))
    assert [len(c) for c in chunks] == [4, 4, 2]
    assert chunks[1].bad.tolist() == [True, False, False, False]
    assert chunks[1].errors == [(0, f"{path}:6:81: puzzle has 80 cells, expected 81")]
    assert chunks[0].line_numbers.tolist() == [2, 3, 4, 5]
    np.testing.assert_array_equal(chunks[2].solutions, sols[8:])
    assert chunks[2].raw == [format_line(p) for p in puzzles[8:]]
    rest = list(iter_chunks(path, start_byte=chunks[0].end_byte))
    got = np.concatenate([c.puzzles for c in rest])
    np.testing.assert_array_equal(got[1:], puzzles[5:])
    np.testing.assert_array_equal(np.concatenate([c.solutions for c in rest])[1:], sols[5:])
    assert rest[0].line_numbers[0] == 6


def test_iter_chunks_grid_bad_puzzle(tmp_path):
    path = tmp_path / "grids.txt"
    broken = GRID9.replace(". 4 . | . . . | . . .\n", ". 4 . | . . . | . .\n")
    path.write_text(GRID9 + "\n" + broken + "\n" + GRID9)
    chunks = list(iter_chunks(path))
    assert len(chunks) == 1
    c = chunks[0]
    assert c.bad.tolist() == [False, True, False]
    assert c.errors == [
        (
            1,
            f"{path}:19:20: row has 8 cells, expected 9 (the size 9x9 was inferred from 26 "
            f"of the first 27 grid rows)",
        )
    ]
    np.testing.assert_array_equal(c.puzzles[[0, 2]], parse(LINE9).repeat(2, axis=0))
    assert c.line_numbers.tolist() == [1, 13, 25]


def test_iter_chunks_csv_bom_crlf_and_undecodable(tmp_path):
    path = tmp_path / "x.csv"
    body = "Quizzes,Solutions\r\n" + LINE9 + ",\r\n" + LINE9[:9] + "\udcff" + LINE9[10:] + ",\r\n"
    path.write_bytes(b"\xef\xbb\xbf" + body.encode("utf-8", "surrogateescape"))
    c = next(iter_chunks(path))
    assert c.bad.tolist() == [False, True]
    assert c.errors[0][1] == f"{path}:3:10: undecodable byte 0xFF (the text is not valid UTF-8)"
    assert not c.solutions.any()  # empty solution fields give zeros
    np.testing.assert_array_equal(c.puzzles[0], parse(LINE9)[0])


# ---------------------------------------------------------------------------
# public data sets (skipped when the folder is absent)
# ---------------------------------------------------------------------------

TXT_SHAPES = {
    "sudoku17.txt": (49158, 81),
    "top1465.txt": (1465, 81),
    "top95.txt": (95, 81),
    "hardest.txt": (11, 81),
    "forum_hardest_1106.txt": (375, 81),
    "serg_benchmark.txt": (10000, 81),
    "easy50_projecteuler96.txt": (50, 81),
    "sudoku16x16_100.txt": (100, 256),
    "sudoku16x16_singles.txt": (2, 256),
    "sudoku25x25.txt": (3, 625),
}


@pytest.mark.parametrize("name, shape", sorted(TXT_SHAPES.items()))
def test_data_txt_files(name, shape):
    path = need_data(name)
    puzzles = parse(path)
    assert puzzles.shape == shape and puzzles.dtype == np.uint8
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip()]
    assert len(lines) == shape[0]
    for i in (0, len(lines) // 2, len(lines) - 1):
        assert puzzles[i].tolist() == line_values(lines[i])
    n = int(round(shape[1] ** 0.5))
    assert puzzles.max() <= n


def test_all_data_txt_files_listed():
    folder = data_dir()
    if not folder.is_dir():
        pytest.skip(f"data folder {folder} not found (set NUMBADLX_DATA)")
    for path in sorted(folder.glob("*.txt")):
        puzzles = parse(path)
        with open(path) as f:
            count = sum(1 for line in f if line.strip() and not line.startswith("#"))
        assert puzzles.shape[0] == count, path.name


def test_data_kaggle_csv():
    path = need_data("kaggle_bryanpark_10k.csv")
    puzzles, sols = read_csv(path)
    assert puzzles.shape == sols.shape == (10000, 81)
    given = puzzles > 0
    assert np.array_equal(sols[given], puzzles[given])
    assert (sols >= 1).all()
    # every row of a solution holds 1..9
    rows = np.sort(sols.reshape(-1, 9, 9), axis=2)
    assert (rows == np.arange(1, 10)).all()
    chunks = list(iter_chunks(path, chunk_size=4096))
    assert [len(c) for c in chunks] == [4096, 4096, 1808]
    np.testing.assert_array_equal(np.concatenate([c.puzzles for c in chunks]), puzzles)


def test_data_other_csvs():
    p, s = read_csv(need_data("radcliffe_3m_sample_7034.csv"))
    assert p.shape == s.shape == (7034, 81)
    assert np.array_equal(s[p > 0], p[p > 0])
    special, none = read_csv(need_data("sudoku_special_cases.csv"))
    assert special.shape == (39, 81) and none is None
    # mixed sizes in one file: strict parse fails, streaming flags the odd row
    mixed = need_data("sudoku_large_known_solutions.csv")
    msg = error_of(parse, mixed)
    assert msg.startswith(f"{mixed}:3:") and "expected 256" in msg
    chunk = next(iter_chunks(mixed))
    assert chunk.bad.tolist() == [False, True]
    given = chunk.puzzles[0] > 0
    assert np.array_equal(chunk.solutions[0][given], chunk.puzzles[0][given])
    with open(mixed, newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        size = int(row["size"])
        assert parse(row["puzzle"]).shape == (1, size * size)
        assert parse(row["solution"]).min() == 1
