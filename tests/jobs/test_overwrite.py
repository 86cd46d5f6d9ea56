"""Nothing a user owns is replaced unless asked: every writer refuses an output that
holds something (a regular file that is not empty) without ``--overwrite``
(``overwrite=True``), before any work and under the output's lock; an interrupted run's
output is named as such and kept byte for byte until ``--resume`` or ``--overwrite``."""

import io
import os
import sys

import numpy as np
import pytest

from numbadlx import jobs, sudoku
from numbadlx.cli import EXIT_NO_ANSWER, EXIT_OK, EXIT_USAGE, main

MINE = b"my own notes\nkeep them\n"


def _source(path, count=30, seed=4):
    """``count`` 4x4 puzzles (each solvable) and one clash at row 5: a solve exits 1."""
    lines = sudoku.format_lines(sudoku.random_puzzles(count, 4, seed=seed))
    lines[5] = "11" + "0" * 14
    path.write_text("".join(line + "\n" for line in lines))
    return path


def _command(kind, source, out):
    if kind == "solve":
        return ["solve", str(source), "-o", str(out), "--no-progress", "--chunk-size", "8"]
    if kind == "rate":
        return ["rate", str(source), "-o", str(out), "--no-progress", "--chunk-size", "8"]
    return ["generate", "-n", "6", "--size", "4", "--seed", "3", "-o", str(out), "--no-progress"]


#: what each command exits with when it completes on _source (solve: a clash)
_DONE = {"solve": EXIT_NO_ANSWER, "rate": EXIT_OK, "generate": EXIT_OK}


@pytest.mark.parametrize("kind", ["solve", "rate", "generate"])
def test_a_file_that_holds_something_is_refused_then_replaced_with_overwrite(
    kind, tmp_path, capsys
):
    source = _source(tmp_path / "in.txt")
    fresh = tmp_path / "fresh.csv"
    assert main(_command(kind, source, fresh)) == _DONE[kind]
    out = tmp_path / "out.csv"
    out.write_bytes(MINE)
    capsys.readouterr()
    assert main(_command(kind, source, out)) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"numbadlx: error: {out} exists ({len(MINE)} bytes); run again with --overwrite "
        f"to replace it, or choose another output"
    ]
    assert out.read_bytes() == MINE  # not cut, not appended to
    assert not (tmp_path / "out.csv.progress").exists()
    assert main([*_command(kind, source, out), "--overwrite"]) == _DONE[kind]
    assert out.read_bytes() == fresh.read_bytes()
    # an empty file holds nothing to lose: written without --overwrite
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    assert main(_command(kind, source, empty)) == _DONE[kind]
    assert empty.read_bytes() == fresh.read_bytes()


def test_an_interrupted_output_is_kept_until_resume_or_overwrite(tmp_path, capsys):
    source = _source(tmp_path / "in.txt")
    full = tmp_path / "full.txt"
    assert main(["solve", str(source), "-o", str(full), "--chunk-size", "8"]) == EXIT_NO_ANSWER
    out = tmp_path / "out.txt"
    checkpoint = tmp_path / "out.txt.progress"

    def stop(end_byte, done):
        if done >= 16:
            raise KeyboardInterrupt

    assert jobs.solve_file(source, out, chunk_size=8, progress=stop).interrupted
    kept, record = out.read_bytes(), checkpoint.read_bytes()
    assert kept and full.read_bytes().startswith(kept)
    capsys.readouterr()
    # a rerun without --resume used to empty it and drop the checkpoint
    for extra in ([], ["--limit", "1"], ["--csv"]):
        assert main(["solve", str(source), "-o", str(out), "--no-progress", *extra]) == EXIT_USAGE
        (line,) = capsys.readouterr().err.splitlines()
        assert line == (
            f"numbadlx: error: {out} holds an interrupted run (16 puzzles done); run again "
            f"with --resume to carry on, or with --overwrite to start afresh"
        )
        assert out.read_bytes() == kept and checkpoint.read_bytes() == record
    with pytest.raises(FileExistsError, match="interrupted run"):
        jobs.solve_file(source, out)
    assert out.read_bytes() == kept and checkpoint.read_bytes() == record
    # --resume carries on (--overwrite, the other way, is tested below)
    args = ["solve", str(source), "-o", str(out), "--chunk-size", "8", "--no-progress"]
    assert main([*args, "--resume"]) == EXIT_NO_ANSWER
    assert out.read_bytes() == full.read_bytes() and not checkpoint.exists()


def test_overwrite_starts_an_interrupted_run_afresh(tmp_path, capsys):
    source = _source(tmp_path / "in.txt")
    out = tmp_path / "out.csv"

    def stop(end_byte, done):
        if done >= 8:
            raise KeyboardInterrupt

    assert jobs.rate_file(source, out, chunk_size=8, progress=stop).interrupted
    assert (tmp_path / "out.csv.progress").exists()
    capsys.readouterr()
    assert main(["rate", str(source), "-o", str(out), "--no-progress"]) == EXIT_USAGE
    assert "interrupted run (8 puzzles done)" in capsys.readouterr().err
    code = main(["rate", str(source), "-o", str(out), "--no-progress", "--overwrite"])
    assert code == EXIT_OK
    assert len(out.read_text().splitlines()) == 31 and not (tmp_path / "out.csv.progress").exists()
    assert "resuming" not in capsys.readouterr().err


def test_the_python_functions_take_overwrite(tmp_path):
    source = _source(tmp_path / "in.txt")
    puzzles = sudoku.random_puzzles(3, 4, seed=1)
    calls = {
        "solve_file": lambda out, **kw: jobs.solve_file(source, out, **kw),
        "rate_file": lambda out, **kw: jobs.rate_file(source, out, **kw),
        "generate_file": lambda out, **kw: jobs.generate_file(2, out, size=4, seed=0, **kw),
        "save_puzzles": lambda out, **kw: jobs.save_puzzles(out, puzzles, **kw),
        "run_job": lambda out, **kw: jobs.run_job(jobs.SolveJob(), source, out, **kw),
    }
    for name, call in calls.items():
        out = tmp_path / f"{name}.txt"
        out.write_bytes(MINE)
        with pytest.raises(FileExistsError, match="--overwrite"):
            call(out)
        assert out.read_bytes() == MINE, name
        call(out, overwrite=True)
        assert out.read_bytes() != MINE and b"notes" not in out.read_bytes(), name
        fresh = tmp_path / f"{name}.fresh.txt"
        call(fresh)
        assert out.read_bytes() == fresh.read_bytes(), name
    # a .npy array too, and an empty file takes one without overwrite
    array = tmp_path / "a.npy"
    array.write_bytes(b"")
    jobs.save_puzzles(array, puzzles)
    with pytest.raises(FileExistsError):
        jobs.save_puzzles(array, puzzles[:1])
    assert np.array_equal(np.load(array), puzzles)


def test_the_check_is_made_again_under_the_lock(tmp_path):
    """The runner checks before any work, and the output checks again once it holds the
    lock: a writer opened directly is refused too, and one holding the lock keeps it."""
    source = _source(tmp_path / "in.txt")
    out = tmp_path / "out.txt"
    out.write_bytes(MINE)
    options = jobs.output_options(limit=2)
    with pytest.raises(FileExistsError, match="exists"):
        jobs.CheckpointedOutput(out, source, options)
    assert out.read_bytes() == MINE
    # another run holds the lock: refused as locked even with overwrite, nothing cut
    sink = jobs.CheckpointedOutput(out, source, options, overwrite=True)
    try:
        sink.commit(b"line\n", 17, 1, jobs.count_statuses([0]))
        with pytest.raises(ValueError, match="being written by another run"):
            jobs.solve_file(source, out, overwrite=True)
        with pytest.raises(ValueError, match="being written by another run"):
            jobs.save_puzzles(out, sudoku.random_puzzles(1, 4, seed=0), overwrite=True)
    finally:
        sink.close(ok=False)
    assert out.read_bytes() == b"line\n"


def test_devices_and_standard_output_are_written_as_before(tmp_path, capsys):
    source = _source(tmp_path / "in.txt", count=6)
    assert main(["solve", str(source), "-o", os.devnull, "--no-progress"]) == EXIT_NO_ANSWER
    assert main(["solve", str(source), "-o", "-", "--no-progress"]) == EXIT_NO_ANSWER
    assert len(capsys.readouterr().out.splitlines()) == 6
    jobs.check_replace(os.devnull)
    jobs.check_replace("-")
    jobs.check_replace(None)


def test_standard_input_is_not_read_when_the_output_is_refused(tmp_path, monkeypatch, capsys):
    class Untouched(io.BytesIO):
        def read(self, *args):
            raise AssertionError("standard input was read")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Untouched()))
    out = tmp_path / "out.txt"
    out.write_bytes(MINE)
    assert main(["solve", "-", "-o", str(out), "--no-progress"]) == EXIT_USAGE
    assert "--overwrite" in capsys.readouterr().err and out.read_bytes() == MINE


def test_a_parquet_output_and_its_spool_are_kept(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    source = _source(tmp_path / "in.txt")
    full = tmp_path / "full.parquet"
    assert main(["solve", str(source), "-o", str(full), "--chunk-size", "8"]) == EXIT_NO_ANSWER
    out = tmp_path / "out.parquet"
    out.write_bytes(MINE)
    capsys.readouterr()
    assert main(["solve", str(source), "-o", str(out), "--no-progress"]) == EXIT_USAGE
    assert "--overwrite" in capsys.readouterr().err and out.read_bytes() == MINE
    assert not (tmp_path / "out.parquet.part").exists()
    args = ["solve", str(source), "-o", str(out), "--chunk-size", "8", "--no-progress"]
    assert main([*args, "--overwrite"]) == EXIT_NO_ANSWER
    assert pq.read_table(out).equals(pq.read_table(full))
    # an interrupted run's spool is named and kept too
    again = tmp_path / "again.parquet"

    def stop(end_byte, done):
        if done >= 8:
            raise KeyboardInterrupt

    assert jobs.solve_file(source, again, chunk_size=8, progress=stop).interrupted
    spool = tmp_path / "again.parquet.part"
    kept = spool.read_bytes()
    with pytest.raises(FileExistsError, match="interrupted run"):
        jobs.solve_file(source, again, chunk_size=8)
    assert spool.read_bytes() == kept
    # a file of that name that appeared meanwhile is kept, the run too
    again.write_bytes(MINE)
    with pytest.raises(FileExistsError, match="with --resume: the run is carried on"):
        jobs.solve_file(source, again, chunk_size=8, resume=True)
    assert spool.read_bytes() == kept and again.read_bytes() == MINE
    summary = jobs.solve_file(source, again, chunk_size=8, resume=True, overwrite=True)
    assert summary.puzzles == 30 and summary.resumed_puzzles == 8
    assert pq.read_table(again).equals(pq.read_table(full))


def test_dedup_replaces_only_with_overwrite(tmp_path, capsys):
    source = tmp_path / "in.txt"
    lines = sudoku.format_lines(sudoku.random_grids(2, 9, seed=1))
    source.write_text("".join(line + "\n" for line in lines))
    out = tmp_path / "out.txt"
    out.write_bytes(MINE)
    assert main(["dedup", str(source), "-o", str(out)]) == EXIT_USAGE
    assert "--overwrite" in capsys.readouterr().err and out.read_bytes() == MINE
    assert main(["dedup", str(source), "-o", str(out), "--overwrite"]) == EXIT_OK
    assert out.read_text().split() == lines
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".dedup-")]
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert main(["dedup", str(source), "-o", str(empty)]) == EXIT_OK
    assert empty.read_text().split() == lines


def test_dedup_never_writes_its_own_input(tmp_path, capsys):
    source = tmp_path / "in.txt"
    lines = sudoku.format_lines(sudoku.random_grids(2, 9, seed=1))
    text = "".join(line + "\n" for line in [*lines, lines[0], "not a puzzle"])
    source.write_text(text)
    link = tmp_path / "link.txt"
    link.symlink_to(source)
    for output in (source, link):
        assert main(["dedup", str(source), "-o", str(output), "--overwrite"]) == EXIT_USAGE
        assert "is the input file" in capsys.readouterr().err
        assert source.read_text() == text


def test_a_failed_write_through_a_dangling_link_keeps_the_link(tmp_path):
    # the file a failed write made is removed where the link leads; the link stays
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "target.txt")
    with pytest.raises(ValueError, match="out of range"):
        jobs.save_puzzles(link, np.full((2, 16), 9, dtype=np.uint8))
    assert link.is_symlink() and not (tmp_path / "target.txt").exists()
    other = tmp_path / "other.txt"
    other.symlink_to(tmp_path / "made.txt")
    with pytest.raises(RuntimeError, match="failed"):
        with jobs.CheckpointedOutput(other, None, "options"):
            raise RuntimeError("failed before any line")
    assert other.is_symlink() and not (tmp_path / "made.txt").exists()


def test_an_interrupted_generate_names_its_run(tmp_path, capsys):
    out = tmp_path / "made.txt"

    def stop(done, count):
        if done >= 2:
            raise KeyboardInterrupt

    summary = jobs.generate_file(6, out, size=4, seed=3, chunk_size=2, progress=stop)
    assert summary.interrupted
    kept = out.read_bytes()
    args = ["generate", "-n", "6", "--size", "4", "--seed", "3", "-o", str(out)]
    assert main([*args, "--chunk-size", "2", "--no-progress"]) == EXIT_USAGE
    assert "interrupted run (2 puzzles done)" in capsys.readouterr().err
    assert out.read_bytes() == kept
    assert main([*args, "--chunk-size", "2", "--no-progress", "--resume"]) == EXIT_OK
    fresh = tmp_path / "fresh.txt"
    jobs.generate_file(6, fresh, size=4, seed=3)
    assert out.read_bytes() == fresh.read_bytes()


@pytest.mark.parametrize("name", ["out.parquet", "out.arrow", "out.arrows"])
def test_a_columnar_output_that_is_a_directory_or_a_pipe_is_refused_before_any_work(
    tmp_path, name, capsys
):
    pytest.importorskip("pyarrow")
    source = _source(tmp_path / "in.txt")
    folder = tmp_path / name
    folder.mkdir()
    (folder / "mine.txt").write_bytes(MINE)
    pipe = tmp_path / ("pipe" + os.path.splitext(name)[1])
    os.mkfifo(pipe)
    seen = []
    for out in (folder, pipe):
        with pytest.raises(FileExistsError, match="exists and is not a regular file"):
            jobs.solve_file(source, out, progress=lambda *at: seen.append(at))
        assert seen == [] and not os.path.exists(jobs.spool_path(str(out)))
        assert main(["solve", str(source), "-o", str(out), "--no-progress"]) == EXIT_USAGE
        assert "is not a regular file" in capsys.readouterr().err
        assert not os.path.exists(jobs.spool_path(str(out)))
    assert (folder / "mine.txt").read_bytes() == MINE and os.path.exists(pipe)
