"""The command line on variant files: f-puzzles files with their rules, a rule numbadlx
lacks named, and warm-up --all covering the variant kernels."""

import json

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.cli import EXIT_NO_ANSWER, EXIT_OK, EXIT_USAGE, main
from numbadlx.sudoku import Rules
from tests.helpers import CLASSIC, X_LINK, compress_base64, grid_json


def _x_solution():
    grid, rules = sudoku.read_fpuzzles(X_LINK)
    return sudoku.format_line(sudoku.solve(grid, rules=rules).solutions[0])


def test_a_json_file_is_solved_under_its_rules(tmp_path):
    # the classic puzzle with its diagonals: solved as an X-Sudoku, not as a classic one
    data = {"size": 9, "grid": grid_json(9, CLASSIC), "diagonal+": True, "diagonal-": True}
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data, indent=2))
    out = tmp_path / "out.txt"
    code = main(["solve", str(path), "-o", str(out), "--no-progress"])
    want = sudoku.solve(sudoku.parse(CLASSIC), rules=Rules(diagonals=True))
    assert code == (EXIT_OK if want.status[0] == sudoku.Status.UNIQUE else EXIT_NO_ANSWER)
    line = out.read_text().strip()
    if want.status[0] == sudoku.Status.UNIQUE:
        assert line == sudoku.format_line(want.solutions[0])
    else:
        assert want.status_names()[0] in line


def test_a_file_of_links_and_packed_texts_one_per_line(tmp_path, capsys):
    packed = X_LINK.split("load=")[1]
    arrow = {
        "size": 9,
        "grid": grid_json(9, CLASSIC),
        "clone": [{"cells": ["R1C1"], "cloneCells": ["R9C9"]}],
    }
    path = tmp_path / "puzzles.txt"
    path.write_text(f"# f-puzzles\n{X_LINK}\n\n{packed}\n{compress_base64(json.dumps(arrow))}\n")
    out = tmp_path / "out.txt"
    code = main(["solve", str(path), "-o", str(out), "--no-progress"])
    assert code == EXIT_NO_ANSWER  # the clone puzzle is not read: INVALID
    lines = out.read_text().splitlines()
    assert lines[:2] == [_x_solution()] * 2
    assert "# INVALID" in lines[2] and "the rule 'clone' is not supported" in lines[2]
    assert f"{path}:5:1:" in lines[2]
    assert "UNIQUE 2, INVALID 1" in capsys.readouterr().err
    # --format fpuzzles reads the same from a name that says nothing
    other = tmp_path / "puzzles.dat"
    other.write_text(path.read_text())
    main(["solve", str(other), "--format", "fpuzzles", "-o", str(out), "--no-progress"])
    assert out.read_text().splitlines()[:2] == [_x_solution()] * 2


def test_a_rule_numbadlx_lacks_in_a_json_file_is_an_input_error(tmp_path, capsys):
    data = {"size": 9, "grid": grid_json(9, CLASSIC), "nabner": [{"lines": [["R1C1", "R1C2"]]}]}
    path = tmp_path / "sandwich.json"
    path.write_text(json.dumps(data))
    assert main(["solve", str(path), "--no-progress"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "the rule 'nabner' is not supported by numbadlx" in err
    assert str(path) in err


def test_csv_output_keeps_the_fpuzzles_text(tmp_path):
    path = tmp_path / "links.txt"
    path.write_text(X_LINK + "\n")
    out = tmp_path / "out.csv"
    assert main(["solve", str(path), "-o", str(out), "--no-progress"]) == EXIT_OK
    header, row = out.read_text().splitlines()
    assert header == "puzzle,solution,status,count,nodes,message"
    assert row.startswith(X_LINK + "," + _x_solution() + ",UNIQUE,1,")


def test_the_library_reads_the_same_file(tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text(X_LINK + "\n" + X_LINK.split("load=")[1] + "\n")
    assert sudoku.file_format(path) == "fpuzzles"
    chunk = sudoku.parse_chunk(path)
    assert chunk.rules == [Rules(diagonals=True).checked(9)] * 2
    result = sudoku.solve(path)
    assert result.status_counts() == {"UNIQUE": 2}
    assert np.array_equal(result.solutions[0], result.solutions[1])


def test_rate_refuses_variant_rows(tmp_path, capsys):
    path = tmp_path / "links.txt"
    path.write_text(X_LINK + "\n")
    assert main(["rate", str(path), "--no-progress"]) == EXIT_USAGE
    assert "rates classic puzzles" in capsys.readouterr().err


@pytest.mark.slow
def test_warm_up_all_covers_the_variant_kernels(capsys):
    from numbadlx.cli._warm_up import _groups

    names = [name for name, _ in _groups(True)]
    assert any("cages engine" in name for name in names)
    assert any("rule tables" in name for name in names)
    for name, run in _groups(True):
        if "Sudoku variants" in name:
            run()
    from numbadlx.sudoku.engines import _cages

    # the one batch kernel, which files of more puzzles run on more threads
    assert _cages.solve_units.signatures


def test_json_lines_and_a_byte_order_mark(tmp_path):
    x = {"size": 4, "grid": grid_json(4, "1000000000000002")}
    x.update({"diagonal+": True, "diagonal-": True})
    path = tmp_path / "lines.txt"
    text = json.dumps(x) + "\n" + '{"size": 4, "grid": [' + "\n" + json.dumps(x) + "\n"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    chunk = sudoku.parse_chunk(path)
    assert chunk.bad.tolist() == [False, True, False]
    assert "not valid JSON" in chunk.errors[0][1] and ":2:1:" in chunk.errors[0][1]
    assert chunk.rules[0] == Rules(diagonals=True).checked(4) == chunk.rules[2]
    one = tmp_path / "one.json"
    one.write_bytes(b"\xef\xbb\xbf" + json.dumps(x, indent=1).encode())
    assert sudoku.parse_chunk(one).rules == [Rules(diagonals=True).checked(4)]
    broken = tmp_path / "broken.json"
    broken.write_text('{"size": 4,\n "grid": [\n')
    with pytest.raises(ValueError, match="not valid JSON"):
        sudoku.parse_chunk(broken)


def test_a_line_naming_a_file_is_not_opened(tmp_path, monkeypatch):
    # a line of a data file is a puzzle, never a path: no other file's text in the output
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.txt").write_text("top secret words\n")
    path = tmp_path / "lines.txt"
    path.write_text("secret.txt\n" + X_LINK + "\n")
    chunk = sudoku.parse_chunk(path, format="fpuzzles")
    assert chunk.bad.tolist() == [True, False]
    assert "secret" in chunk.errors[0][1] and "top secret" not in chunk.errors[0][1]
