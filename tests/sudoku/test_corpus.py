"""The bad-input corpus (tests/corpus/): each file's expected parse error or shape, and
the status of every puzzle from ``numbadlx solve``, as listed in expected.json."""

import csv
import json
import time
from pathlib import Path

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.cli import EXIT_NO_ANSWER, EXIT_OK, EXIT_UNFINISHED, main
from numbadlx.sudoku import parse, random_puzzles

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
CASES = sorted(name for name in EXPECTED if not name.startswith("_"))


def test_every_corpus_file_has_an_entry_and_is_small():
    files = sorted(p.name for p in CORPUS.iterdir() if p.name != "expected.json")
    assert files == CASES
    assert all((CORPUS / name).stat().st_size < 100_000 for name in files)


@pytest.mark.parametrize("name", CASES)
def test_parse(name):
    expected = EXPECTED[name]["parse"]
    if "error" in expected:
        with pytest.raises(ValueError) as error:
            parse(CORPUS / name)
        assert expected["error"] in str(error.value)
    else:
        assert parse(CORPUS / name).shape == tuple(expected["shape"])


def _solve(tmp_path, capsys, path, extra=()):
    """Run the CLI twice (CSV and text output); return (code, statuses, lines, err)."""
    out_csv = tmp_path / "out.csv"
    code = main(["solve", str(path), "-o", str(out_csv), "--no-progress", *extra])
    err = capsys.readouterr().err
    if code not in (EXIT_OK, EXIT_NO_ANSWER, EXIT_UNFINISHED):  # no output written
        return code, None, None, err
    rows = list(csv.reader(out_csv.read_text(encoding="utf-8").splitlines()))
    assert rows[0] == ["puzzle", "solution", "status", "count", "nodes", "message"]
    statuses = [row[2] for row in rows[1:]]
    for row in rows[1:]:  # an INVALID row says why in its message column
        assert len(row) == 6 and (row[2] != "INVALID" or row[5].strip()), row
    out_txt = tmp_path / "out.txt"
    assert main(["solve", str(path), "-o", str(out_txt), "--no-progress", *extra]) == code
    capsys.readouterr()
    lines = out_txt.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(statuses)  # one line per puzzle, in both outputs
    return code, statuses, lines, err


@pytest.mark.parametrize("name", CASES)
def test_cli_statuses_and_messages(name, tmp_path, capsys):
    expected = EXPECTED[name]["solve"]
    code, statuses, lines, err = _solve(tmp_path, capsys, CORPUS / name)
    assert code == expected["exit"], err
    if code == 2:
        assert "numbadlx: error:" in err and expected["error"] in err
        return
    assert statuses == expected["statuses"]
    for index, fragment in expected.get("notes", {}).items():
        assert fragment in lines[int(index)], (index, lines[int(index)])
    for status, line in zip(statuses, lines):
        # solved lines are bare grids, every other line says what happened
        assert ("  # " not in line) == (status in ("UNIQUE", "SOLVED"))


@pytest.mark.parametrize("name", [n for n in CASES if "shape" in EXPECTED[n]["parse"]])
def test_the_library_agrees_with_the_cli(name):
    result = sudoku.solve(CORPUS / name)
    assert result.status_names().tolist() == EXPECTED[name]["solve"]["statuses"]


def test_box_shape_decides_the_clash(tmp_path, capsys):
    # the same givens clash in a 2x3 box but not in a 3x2 one
    _, statuses, _, _ = _solve(tmp_path, capsys, CORPUS / "box_2x3_clash.txt", ["--box", "3x2"])
    assert statuses[0] == "MULTIPLE"


# ------------------------------------------------------- very long lines (made here)
def test_very_long_lines_are_invalid_lines_not_a_hang(tmp_path, capsys):
    good = sudoku.format_lines(random_puzzles(2, seed=601))
    path = tmp_path / "long.txt"
    with open(path, "w") as handle:
        handle.write(good[0] + "\n")
        handle.write("1234567890" * 300_000 + "\n")  # 3 million digits
        handle.write("x" * 1_000_000 + "\n")
        handle.write(good[1] + "\n")
    start = time.perf_counter()
    _, statuses, lines, _ = _solve(tmp_path, capsys, path)
    assert time.perf_counter() - start < 20
    assert statuses == ["UNIQUE", "INVALID", "INVALID", "UNIQUE"]
    assert "line has 3000000 cells, expected 81" in lines[1]
    assert "invalid character 'x'" in lines[2] or "cells" in lines[2]
    with pytest.raises(ValueError, match="long.txt:2:.*3000000 cells"):
        parse(path)


def test_one_huge_line_without_newline_is_an_error_not_a_hang(tmp_path, capsys):
    path = tmp_path / "huge.txt"
    path.write_text("5" * 2_000_001)
    start = time.perf_counter()
    code = main(["solve", str(path), "-o", str(tmp_path / "out.txt"), "--no-progress"])
    assert time.perf_counter() - start < 20
    assert code == 2
    assert "line has 2000001 cells" in capsys.readouterr().err


def test_a_long_file_of_short_bad_lines(tmp_path, capsys):
    path = tmp_path / "short.txt"
    good = sudoku.format_line(random_puzzles(1, seed=602)[0])
    path.write_text(good + "\n" + "123\n" * 50_000)
    _, statuses, lines, _ = _solve(tmp_path, capsys, path)
    assert statuses[0] == "UNIQUE" and statuses.count("INVALID") == 50_000
    assert np.all([line.startswith("123  # INVALID") for line in lines[1:]])
