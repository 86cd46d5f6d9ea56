"""``numbadlx dedup``: the first puzzle of each class kept, in input order; bad rows
reported, never dropped silently; an existing output never overwritten."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.cli import EXIT_NO_ANSWER, EXIT_OK, EXIT_USAGE, main
from tests.helpers import data_dir


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines))


def test_dedup_keeps_the_first_of_each_class_and_reports_bad_rows(tmp_path, capsys):
    grids = sudoku.format_lines(sudoku.random_grids(3, 9, seed=1))
    images = sudoku.format_lines(sudoku.transform(sudoku.parse(grids), seed=2))
    clash = "11" + "0" * 79
    source = tmp_path / "in.txt"
    _write(source, [grids[0], images[1], clash, grids[1], images[0], "bad", grids[2]])
    out = tmp_path / "out.txt"
    assert main(["dedup", str(source), "-o", str(out), "--chunk-size", "3"]) == EXIT_NO_ANSWER
    assert out.read_text().split() == [grids[0], images[1], grids[2]]
    err = capsys.readouterr().err
    assert f"{source}:3: its givens clash" in err
    assert f"{source}:6:" in err
    assert "7 puzzles read, 3 kept (one a class), 2 equivalent dropped, 2 bad" in err
    # an existing output is never overwritten
    out.write_text("mine\n")
    assert main(["dedup", str(source), "-o", str(out)]) == EXIT_USAGE
    assert out.read_text() == "mine\n"


def test_dedup_canonical_and_a_published_file(tmp_path, capsys):
    path = data_dir() / "top1465.txt"
    if not path.exists():
        pytest.skip("top1465.txt is not in the data directory")
    puzzles = sudoku.parse(str(path))[:200]
    doubled = np.vstack([puzzles, sudoku.transform(puzzles, seed=3)])
    source = tmp_path / "in.txt"
    _write(source, sudoku.format_lines(doubled))
    out = tmp_path / "forms.txt"
    assert main(["dedup", str(source), "-o", str(out), "--canonical"]) == EXIT_OK
    forms = sudoku.parse(str(out))
    classes = sudoku.equivalence_classes(puzzles)
    assert len(forms) == classes.max() + 1
    firsts = np.unique(classes, return_index=True)[1]
    assert (forms == sudoku.canonical(puzzles[np.sort(firsts)])).all()
    assert f"{len(forms)} kept" in capsys.readouterr().err


def test_dedup_reads_a_parquet_file(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    grids = sudoku.format_lines(sudoku.random_grids(2, 9, seed=5))
    image = sudoku.format_lines(sudoku.transform(sudoku.parse(grids[:1]), seed=6))[0]
    source = tmp_path / "in.parquet"
    pq.write_table(pa.table({"question": [grids[0], None, image, grids[1]]}), source)
    out = tmp_path / "out.txt"
    argv = ["dedup", str(source), "--format", "parquet", "-o", str(out)]
    assert main(argv) == EXIT_NO_ANSWER
    assert out.read_text().split() == [grids[0], grids[1]]
    assert "in.parquet:2:1: the puzzle is null" in capsys.readouterr().err
