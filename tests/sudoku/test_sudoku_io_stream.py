"""Tests for numbadlx.sudoku.formats: streaming in chunks, and the public datasets."""

import csv

import numpy as np
import pytest

from numbadlx.sudoku import (
    PuzzleChunk,
    format_line,
    format_lines,
    iter_chunks,
    parse,
    read_csv,
)
from tests.helpers import (
    GRID9,
    LINE9,
    data_dir,
    error_of,
    line_values,
    need_data,
    random_puzzles,
    write_csv,
)

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
