"""``numbadlx solve in.parquet -o out.parquet``: typed columns, a row group per chunk,
and the checkpoint, lock, resume and fingerprint of every solve (through the spool)."""

import numpy as np
import pytest

from numbadlx import jobs, sudoku
from numbadlx.cli import main
from numbadlx.jobs._checkpoint import open_locked

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _input(path, count=60, seed=9):
    puzzles = sudoku.random_puzzles(count, seed=seed)
    puzzles[::5, :4] = 0  # some with several solutions
    texts = sudoku.format_lines(puzzles)
    texts[7] = None  # a null row: INVALID in its place
    pq.write_table(pa.table({"question": texts}), path, row_group_size=25)
    return texts


def test_parquet_out_has_the_solve_results_a_row_group_per_chunk(tmp_path):
    texts = _input(tmp_path / "in.parquet")
    out = tmp_path / "out.parquet"
    summary = jobs.solve_file(tmp_path / "in.parquet", out, chunk_size=10)
    assert summary.puzzles == 60
    handle = pq.ParquetFile(out)
    assert handle.metadata.num_row_groups == 7  # chunks never span input row groups
    table = handle.read()
    direct = sudoku.solve(tmp_path / "in.parquet")
    assert table.column("status").to_pylist() == direct.status_names().tolist()
    assert table.column("count").to_pylist() == direct.counts.tolist()
    assert table.column("puzzle").to_pylist()[:3] == texts[:3]
    solved = [s for s in table.column("solution").to_pylist() if s is not None]
    assert len(solved) == int((direct.counts > 0).sum())
    assert table.column("message").to_pylist()[7].endswith("the puzzle is null")
    assert not (tmp_path / "out.parquet.part").exists()
    assert not (tmp_path / "out.parquet.part.progress").exists()


def test_arrow_out_and_every_solution(tmp_path):
    _input(tmp_path / "in.parquet")
    out = tmp_path / "out.arrow"
    jobs.solve_file(tmp_path / "in.parquet", out, all_solutions=3)
    with pa.memory_map(str(out)) as source:
        table = pa.ipc.open_file(source).read_all()
    stream = tmp_path / "out.arrows"  # an Arrow IPC stream
    jobs.solve_file(tmp_path / "in.parquet", stream, all_solutions=3)
    assert pa.ipc.open_stream(stream.read_bytes()).read_all().equals(table)
    every = table.column("solutions").to_pylist()
    counts = table.column("count").to_pylist()
    assert [len(block) for block in every] == counts
    for text, block in zip(table.column("puzzle").to_pylist(), every):
        for solution in block:
            assert sudoku.solve([text]).counts[0] >= 1
            assert all(p in ".0" or p == s for p, s in zip(text, solution))


def _failing(monkeypatch, after):
    real = sudoku.solve
    calls = []

    def solve(*args, **kwargs):
        calls.append(1)
        if len(calls) > after:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sudoku, "solve", solve)


def test_interrupt_resume_lock_and_fingerprint(tmp_path, monkeypatch, capsys):
    source = tmp_path / "in.parquet"
    _input(source)
    base = ["solve", str(source), "--chunk-size", "10"]
    full = tmp_path / "full.parquet"
    main([*base, "-o", str(full)])
    out = tmp_path / "out.parquet"
    with monkeypatch.context() as patch:
        _failing(patch, after=3)
        assert main([*base, "-o", str(out)]) == 130
    spool = tmp_path / "out.parquet.part"
    assert spool.exists() and (tmp_path / "out.parquet.part.progress").exists()
    assert not out.exists()  # nothing is written out before the run is complete
    done = pa.ipc.open_stream(spool.read_bytes()).read_all()
    assert done.num_rows == 25  # chunks of 10, 10 and 5 rows in the first row group
    capsys.readouterr()
    assert main([*base, "-o", str(out), "--resume", "--limit", "1"]) == 2
    assert "other options" in capsys.readouterr().err
    with open_locked(spool):  # another run is writing it
        assert main([*base, "-o", str(out), "--resume"]) == 2
    assert "locked" in capsys.readouterr().err
    main([*base, "-o", str(out), "--resume"])
    assert pq.read_table(out).equals(pq.read_table(full))
    assert not spool.exists()


def test_a_changed_input_is_refused_on_resume(tmp_path, monkeypatch, capsys):
    source = tmp_path / "in.parquet"
    _input(source)
    out = tmp_path / "out.parquet"
    with monkeypatch.context() as patch:
        _failing(patch, after=2)
        assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10"]) == 130
    _input(source, seed=10)
    capsys.readouterr()
    assert main(["solve", str(source), "-o", str(out), "--resume"]) == 2
    assert "changed since" in capsys.readouterr().err
    left = pa.ipc.open_stream((tmp_path / "out.parquet.part").read_bytes()).read_all()
    assert left.num_rows == 20 and np.all(np.array(left.column("count").to_pylist()) >= 0)
