"""``numbadlx solve --all-solutions K`` and ``solve_file(all_solutions=K)``: a CSV row
per puzzle with K solution columns or a line per solution, checked by brute force, and
the checkpoint, resume and fingerprint of every solve."""

import csv

import numpy as np
import pytest

from numbadlx import jobs, sudoku
from numbadlx.cli import main
from tests.helpers import all_4x4_grids

GRIDS = all_4x4_grids()


def _completions(text):
    puzzle = np.array([int(c) for c in text])
    keep = np.all((puzzle == 0) | (GRIDS == puzzle), axis=1)
    return {"".join(map(str, g)) for g in GRIDS[keep]}


def _file(path, count=40, seed=4):
    rng = np.random.default_rng(seed)
    grids = GRIDS[rng.integers(0, len(GRIDS), count)]
    puzzles = np.where(rng.random(grids.shape) < 0.6, 0, grids)
    lines = sudoku.format_lines(puzzles)
    lines[3] = "12x4"  # unreadable: a status and a message in its place
    path.write_text("\n".join(lines) + "\n")
    return lines


def test_csv_has_a_column_per_solution_each_checked_by_brute_force(tmp_path, capsys):
    lines = _file(tmp_path / "in.txt")
    out = tmp_path / "out.csv"
    assert main(["solve", str(tmp_path / "in.txt"), "-o", str(out), "--all-solutions", "6"]) == 1
    assert "up to 6 solutions each" in capsys.readouterr().err
    rows = list(csv.reader(out.open()))
    assert rows[0] == jobs.solutions_header(6).split(",")
    assert len(rows) == len(lines) + 1
    for line, row in zip(lines, rows[1:]):
        assert row[0] == line
        if line == "12x4":
            assert row[1:3] == ["INVALID", "0"] and "line has 4 cells" in row[4]
            continue
        want = _completions(line)
        count = int(row[2])
        assert count == min(6, len(want))
        assert set(row[5 : 5 + count]) <= want and len(set(row[5 : 5 + count])) == count
        assert row[5 + count :] == [""] * (6 - count)
        assert row[1] == {0: "NO_SOLUTION", 1: "UNIQUE"}.get(len(want), "MULTIPLE")


def test_text_has_a_line_per_solution(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("1234341200000000\n1234341221434321\n0012030000200000\n")
    out = tmp_path / "out.txt"
    summary = jobs.solve_file(source, out, all_solutions=3)
    assert summary.tally == {"UNIQUE": 1, "MULTIPLE": 1, "NO_SOLUTION": 1}
    lines = out.read_text().splitlines()
    assert len(lines) == 5
    assert [line.partition("  # ")[2] for line in lines[:3]] == [
        "MULTIPLE 1/3+",
        "MULTIPLE 2/3+",
        "MULTIPLE 3/3+",
    ]
    assert {line[:16] for line in lines[:3]} <= _completions("1234341200000000")
    assert lines[3] == "1234341221434321"
    assert lines[4] == "0012030000200000  # NO_SOLUTION"
    with pytest.raises(ValueError, match="without a timeout"):
        jobs.solve_file(source, out, all_solutions=3, timeout=1.0)


def test_interrupted_then_resumed_is_byte_identical_and_other_k_is_refused(
    tmp_path, monkeypatch, capsys
):
    source = tmp_path / "in.txt"
    _file(source, count=60, seed=8)
    base = ["solve", str(source), "--chunk-size", "10", "--all-solutions", "4"]
    full = tmp_path / "full.csv"
    main([*base, "-o", str(full)])
    real = sudoku.solutions
    calls = []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    out = tmp_path / "out.csv"
    with monkeypatch.context() as patch:
        patch.setattr(sudoku, "solutions", failing)
        assert main([*base, "-o", str(out)]) == 130
    assert full.read_bytes().startswith(out.read_bytes())
    assert len(out.read_text().splitlines()) == 31  # the header and three chunks
    capsys.readouterr()
    other = ["solve", str(source), "--chunk-size", "10", "--all-solutions", "5"]
    assert main([*other, "-o", str(out), "--resume"]) == 2
    assert "other options" in capsys.readouterr().err
    main([*base, "-o", str(out), "--resume"])
    assert out.read_bytes() == full.read_bytes()
