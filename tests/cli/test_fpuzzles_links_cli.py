"""`numbadlx solve FILE` on files of f-puzzles and SudokuPad links, one puzzle a line:
one result a line, in input order; a bad line (garbage, a decompression bomb, a rule
numbadlx lacks) a status and its message, never dropped."""

import json

from numbadlx import sudoku
from numbadlx.cli import EXIT_NO_ANSWER, EXIT_OK, EXIT_USAGE, main
from tests.helpers import compress_base64, lz_bomb

CLASSIC = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _json(givens=CLASSIC, **keys):
    grid = [
        [
            {"value": int(givens[r * 9 + c]), "given": True} if givens[r * 9 + c] != "0" else {}
            for c in range(9)
        ]
        for r in range(9)
    ]
    return json.dumps({"size": 9, "grid": grid, **keys})


def test_a_file_of_sudokupad_and_fpuzzles_links(tmp_path, capsys):
    packed = compress_base64(_json())
    clone = compress_base64(_json(clone=[{"cells": ["R1C1"], "cloneCells": ["R9C9"]}]))
    lines = [
        f"https://sudokupad.app/fpuz{packed}",
        "this line is no puzzle",
        f"https://www.f-puzzles.com/?load={lz_bomb(20_000)}",
        f"https://sudokupad.app/?puzzleid=fpuzzles{packed}",
        f"https://sudokupad.app/{clone}",
        f"https://sudokupad.app/fpuz{clone}",
        f"https://www.f-puzzles.com/?load={packed}",
    ]
    path = tmp_path / "links.txt"
    path.write_text("\n".join(lines) + "\n")
    assert sudoku.file_format(path) == "fpuzzles"
    out = tmp_path / "out.txt"
    code = main(["solve", str(path), "-o", str(out), "--no-progress"])
    assert code == EXIT_NO_ANSWER
    got = out.read_text().splitlines()
    assert len(got) == len(lines)
    assert got[0] == got[3] == got[6] == SOLVED
    assert "# INVALID" in got[1] and f"{path}:2:1:" in got[1]
    assert "# INVALID" in got[2] and "decompression bomb" in got[2]
    assert "# INVALID" in got[4] and "not f-puzzles data" in got[4]
    assert "# INVALID" in got[5] and "the rule 'clone' is not supported" in got[5]
    assert "UNIQUE 3, INVALID 4" in capsys.readouterr().err


def test_a_json_file_with_new_rules_reads_them(tmp_path, capsys):
    # a sandwich clue and an arrow the classic's solution keeps: the file is read under
    # them (solved once the engines take them, else an input error naming the rules)
    data = _json(
        sandwichsum=[{"cell": "R1C0", "value": "0"}],  # 9 and 1 touch in row 1
        arrow=[{"cells": ["R1C4"], "lines": [["R1C4", "R1C3", "R2C3"]]}],  # 6 = 4 + 2
    )
    path = tmp_path / "new.json"
    path.write_text(data)
    puzzle, rules = sudoku.read_fpuzzles(path)
    assert rules.arrows == (((3,), (2, 11)),)
    assert rules.sandwiches == ((tuple(range(9)), 0),)
    out = tmp_path / "out.txt"
    code = main(["solve", str(path), "-o", str(out), "--no-progress"])
    if code == EXIT_OK:
        assert out.read_text().split()[0] == SOLVED
    else:  # the engines do not take them yet: an input error that names them
        assert code == EXIT_USAGE
        assert "arrows" in capsys.readouterr().err


def _published():
    from pathlib import Path

    folder = Path(__file__).parents[1] / "sudoku" / "variants" / "fpuzzles"
    return folder, json.loads((folder / "published.json").read_text())


def test_published_files_and_links_solve_to_their_solutions(tmp_path):
    folder, published = _published()
    frost = next(p for p in published if p["title"] == "Frost")
    out = tmp_path / "frost.txt"
    assert main(["solve", str(folder / frost["file"]), "-o", str(out), "--no-progress"]) == EXIT_OK
    assert out.read_text().split()[0] == frost["solution"]
    # a file of published links, one a line, each solved under its own rules
    chosen = [p for p in published if p["title"] in ("300 Subs!", "Irregular 7x7 Kropki")]
    chosen = [p for p in chosen if p["size"] == 9]  # one size a file
    path = tmp_path / "links.txt"
    path.write_text(
        "".join(f"https://www.f-puzzles.com/?load={p['packed']}\n" for p in chosen)
        + f"https://sudokupad.app/fpuzzles{chosen[0]['packed']}\n"
    )
    out = tmp_path / "out.txt"
    assert main(["solve", str(path), "-o", str(out), "--no-progress"]) == EXIT_OK
    assert out.read_text().split() == [p["solution"] for p in chosen] + [chosen[0]["solution"]]
