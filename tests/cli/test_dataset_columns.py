"""The dataset tools from the command line: ``solve --canonical --candidates LOGIC
--backtracks`` columns and ``rate --steps`` traces, in CSV, Parquet and Arrow, with bad
rows in their place and the checkpoints, locks and resume of every file job."""

import csv

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.cli import EXIT_NO_ANSWER, EXIT_USAGE, main
from numbadlx.jobs._checkpoint import open_locked
from tests.helpers import data_dir

CLASH = "11" + "0" * 79
SHORT = "12345"


def _puzzles(count=40):
    """Published hard puzzles (top95), or the built-in sample without the data."""
    path = data_dir() / "top95.txt"
    source = path if path.exists() else sudoku.default_sample_path()
    return sudoku.parse(str(source))[:count]


def _write(path, puzzles):
    """``puzzles`` one a line, a transformed copy of the first one (the same class), a
    clashing row and an unreadable one among them: their texts in file order."""
    texts = sudoku.format_lines(puzzles)
    image = sudoku.format_lines(sudoku.transform(puzzles[:1], seed=4))[0]
    texts = texts[:5] + [CLASH, image, SHORT] + texts[5:]
    path.write_text("".join(t + "\n" for t in texts))
    return texts


def _rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_solve_writes_canonical_candidates_and_backtrack_columns(tmp_path, capsys):
    puzzles = _puzzles()
    source = tmp_path / "in.txt"
    texts = _write(source, puzzles)
    out = tmp_path / "out.csv"
    argv = ["solve", str(source), "-o", str(out), "--chunk-size", "7", "--threads", "2"]
    code = main([*argv, "--canonical", "--candidates", "singles", "--backtracks"])
    assert code == EXIT_NO_ANSWER  # the bad rows
    rows = _rows(out)
    assert [r["puzzle"] for r in rows] == texts  # every row, in input order
    good = [k for k, t in enumerate(texts) if t not in (CLASH, SHORT)]
    grid = sudoku.parse([texts[k] for k in good])
    forms = sudoku.format_lines(sudoku.canonical(grid))
    masks = sudoku.candidates(grid, logic="singles")
    ratings = sudoku.backtracks(grid, limit=2)  # the solve's own limit
    for j, k in enumerate(good):
        assert rows[k]["status"] == "UNIQUE"
        assert rows[k]["canonical"] == forms[j]
        assert [int(v) for v in rows[k]["candidates"].split()] == masks[j].tolist()
        assert int(rows[k]["backtracks"]) == ratings[j] >= 0
    # equivalent puzzles, and they only, share a form
    assert rows[6]["canonical"] == rows[0]["canonical"]
    assert len({rows[k]["canonical"] for k in good}) == len(good) - 1
    # the bad rows: a status and a message in their place, the columns empty
    for k, why in ((5, "givens clash"), (7, "cells")):
        assert rows[k]["status"] == "INVALID" and why in rows[k]["message"]
        assert rows[k]["canonical"] == rows[k]["candidates"] == rows[k]["backtracks"] == ""
    # a candidate mask keeps the solution's digit
    solutions = sudoku.solve(grid).solutions
    assert all((masks >> (solutions.astype(np.int64) - 1) & 1).ravel())


def test_the_columns_go_to_csv_parquet_or_arrow_only(tmp_path, capsys):
    source = tmp_path / "in.txt"
    _write(source, _puzzles(3))
    out = tmp_path / "out.txt"
    assert main(["solve", str(source), "--canonical", "--output-format", "text"]) == EXIT_USAGE
    assert main(["solve", str(source), "--backtracks", "--all-solutions", "2"]) == EXIT_USAGE
    assert main(["solve", str(source), "-o", str(out), "--candidates", "hard"]) == EXIT_USAGE
    assert "must be one of none, singles" in capsys.readouterr().err
    assert not out.exists()  # refused before anything was opened
    # without -o, the columns make the output CSV
    assert main(["solve", str(source), "--backtracks", "--limit", "1"]) == EXIT_NO_ANSWER
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "puzzle,solution,status,count,nodes,message,backtracks"
    assert len(lines) == 1 + 3 + 3


pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _failing(monkeypatch, name, after):
    """``sudoku.<name>`` raising Ctrl-C once it has been called ``after`` times."""
    real = getattr(sudoku, name)
    calls = []

    def stand_in(*args, **kwargs):
        calls.append(1)
        if len(calls) > after:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sudoku, name, stand_in)


def test_parquet_columns_resume_only_with_the_same_columns(tmp_path, monkeypatch, capsys):
    source = tmp_path / "in.txt"
    texts = _write(source, _puzzles(30))
    base = ["solve", str(source), "--chunk-size", "8", "--canonical", "--candidates", "none"]
    full = tmp_path / "full.parquet"
    main([*base, "--backtracks", "-o", str(full)])
    table = pq.read_table(full)
    assert table.column("puzzle").to_pylist() == texts
    assert table.schema.field("candidates").type == pa.list_(pa.uint32())
    assert table.column("backtracks").null_count == 2  # the two bad rows
    assert table.column("candidates").to_pylist()[5] is None
    out = tmp_path / "out.parquet"
    with monkeypatch.context() as patch:
        _failing(patch, "solve", after=2)
        assert main([*base, "--backtracks", "-o", str(out)]) == 130
    spool = tmp_path / "out.parquet.part"
    assert pa.ipc.open_stream(spool.read_bytes()).read_all().num_rows == 16
    capsys.readouterr()
    assert main([*base, "-o", str(out), "--resume"]) == EXIT_USAGE  # no --backtracks
    assert "other options" in capsys.readouterr().err
    with open_locked(spool):  # another run is writing it
        assert main([*base, "--backtracks", "-o", str(out), "--resume"]) == EXIT_USAGE
    assert "locked" in capsys.readouterr().err
    main([*base, "--backtracks", "-o", str(out), "--resume"])
    assert pq.read_table(out).equals(table)
    assert not spool.exists()


def test_rate_steps_trace_every_puzzle_in_csv_and_parquet(tmp_path, capsys):
    puzzles = _puzzles(12)
    source = tmp_path / "in.txt"
    texts = _write(source, puzzles)
    out = tmp_path / "steps.csv"
    assert main(["rate", str(source), "--steps", "-o", str(out), "--chunk-size", "5"]) == 1
    rows = _rows(out)
    # every puzzle has its rows, in input order: nothing dropped
    order = [int(r["puzzle"]) for r in rows]
    assert sorted(set(order)) == list(range(len(texts))) and order == sorted(order)
    for k, why in ((5, "givens clash"), (7, "cells")):
        (row,) = [r for r in rows if int(r["puzzle"]) == k]
        assert row["status"] == "INVALID" and why in row["message"] and row["step"] == ""
    good = [k for k, t in enumerate(texts) if t not in (CLASH, SHORT)]
    direct = sudoku.rate([texts[k] for k in good], steps=True).steps()
    mine = [r for r in rows if r["step"] != ""]
    assert [good.index(int(r["puzzle"])) for r in mine] == direct["puzzle"].tolist()
    for name in ("step", "row", "column", "digit", "removed"):
        assert [int(r[name]) for r in mine] == direct[name].tolist()
    assert [r["technique"] for r in mine] == direct["technique"].tolist()
    assert {r["status"] for r in mine} == {"UNIQUE"}
    # Parquet, with the candidate masks before each step
    table_path = tmp_path / "steps.parquet"
    argv = ["rate", str(source), "--steps", "--masks", "-o", str(table_path)]
    assert main([*argv, "--chunk-size", "5"]) == 1
    table = pq.read_table(table_path)
    assert table.column("puzzle").to_pylist() == order
    assert table.column("technique").to_pylist() == [r["technique"] or None for r in rows]
    masks = table.column("masks").to_pylist()
    firsts = [s for s, r in enumerate(rows) if r["step"] == "0"]
    start = sudoku.candidates([texts[int(rows[s]["puzzle"])] for s in firsts])
    assert [masks[s] for s in firsts] == start.tolist()  # before the first step: the givens'


def test_rate_to_parquet_and_a_resumed_trace(tmp_path, monkeypatch, capsys):
    source = tmp_path / "in.txt"
    _write(source, _puzzles(20))
    ratings = tmp_path / "ratings.parquet"
    assert main(["rate", str(source), "-o", str(ratings)]) == 1
    table = pq.read_table(ratings)
    assert table.column_names == ["puzzle", "tries", "logic", "hardest"]
    assert table.column("tries").to_pylist()[5] is None
    assert table.column("hardest").to_pylist()[5] == "invalid or no solution"
    base = ["rate", str(source), "--steps", "--chunk-size", "6"]
    full = tmp_path / "full.csv"
    main([*base, "-o", str(full)])
    out = tmp_path / "out.csv"
    with monkeypatch.context() as patch:
        _failing(patch, "rate", after=2)
        assert main([*base, "-o", str(out)]) == 130
    assert (tmp_path / "out.csv.progress").exists()
    capsys.readouterr()
    assert main([*base, "--masks", "-o", str(out), "--resume"]) == EXIT_USAGE
    assert "other options" in capsys.readouterr().err
    main([*base, "-o", str(out), "--resume"])
    assert out.read_bytes() == full.read_bytes()
    assert main(["rate", str(source), "--masks"]) == EXIT_USAGE
    assert main(["rate", str(source), "--steps", "--no-logic"]) == EXIT_USAGE
