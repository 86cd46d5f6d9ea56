"""Making puzzles through the file-job runner (numbadlx.jobs.generate_file, GenerateJob):
a block of puzzle indices at a time, each committed with a checkpoint whose fingerprint
is the options and the seed; killed, interrupted or cut into other blocks, the file is
byte for byte that of one ``sudoku.generate`` call."""

import io
import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from numbadlx import jobs, sudoku
from numbadlx.cli import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, main


def _text(puzzles, csv=False):
    lines = sudoku.format_lines(puzzles) if len(puzzles) else []
    return (("puzzle\n" if csv else "") + "".join(line + "\n" for line in lines)).encode()


def _npy(puzzles):
    buffer = io.BytesIO()
    np.save(buffer, puzzles)
    return buffer.getvalue()


def _checkpoint(out):
    return json.loads((out.parent / (out.name + ".progress")).read_text())


def _stop_after(blocks):
    """A progress callback that presses Ctrl-C once ``blocks`` blocks are committed."""
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) >= blocks:
            raise KeyboardInterrupt

    return progress


# ---------------------------------------------------------------- first_index


def test_first_index_continues_the_sequence_of_a_seed():
    whole = sudoku.generate(7, 4, seed=2)
    assert (sudoku.generate(3, 4, seed=2, first_index=4) == whole[4:]).all()
    assert (sudoku.generate(2, 4, seed=2, first_index=np.int64(1)) == whole[1:3]).all()
    assert sudoku.generate(0, 4, seed=2, first_index=9).shape == (0, 16)


@pytest.mark.parametrize(
    "value, error",
    [(-1, ValueError), (2**63, ValueError), (True, TypeError), (1.0, TypeError), ("1", TypeError)],
)
def test_first_index_must_be_a_non_negative_integer(value, error):
    with pytest.raises(error, match="first_index"):
        sudoku.generate(1, 4, seed=0, first_index=value)


# ---------------------------------------------------------------- blocks join into one call


@pytest.mark.parametrize("name, csv", [("out.txt", False), ("out.csv", True)])
def test_blocks_give_the_bytes_of_one_generate_call(tmp_path, name, csv):
    reference = _text(sudoku.generate(11, 4, seed=3), csv)
    for chunk_size in (1, 4, 11, 100):
        out = tmp_path / name
        summary = jobs.generate_file(
            11, out, size=4, seed=3, chunk_size=chunk_size, overwrite=True
        )  # the file of the last pass, replaced
        assert out.read_bytes() == reference
        assert summary.puzzles == 11 and summary.seed == 3 and not summary.interrupted
        assert summary.ranges == -(-11 // chunk_size)
        assert not (tmp_path / (name + ".progress")).exists()


def test_npy_is_the_file_numpy_save_writes(tmp_path):
    puzzles = sudoku.generate(9, 4, seed=8)
    out = tmp_path / "made.npy"
    jobs.generate_file(9, out, size=4, seed=8, chunk_size=2)
    assert out.read_bytes() == _npy(puzzles)
    assert (np.load(out) == puzzles).all()
    empty = tmp_path / "empty.npy"
    jobs.generate_file(0, empty, size=4, seed=8)
    assert empty.read_bytes() == _npy(puzzles[:0])


def test_standard_output_without_checkpoints(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    reference = _text(sudoku.generate(5, 4, seed=1))
    jobs.generate_file(5, None, size=4, seed=1, chunk_size=2)
    assert capsys.readouterr().out.encode() == reference
    assert main(["generate", "-n", "5", "--size", "4", "--seed", "1", "-o", "-"]) == EXIT_OK
    assert capsys.readouterr().out.encode() == reference
    assert main(["generate", "-n", "5", "--size", "4", "--seed", "1", "--csv"]) == EXIT_OK
    assert capsys.readouterr().out.encode() == _text(sudoku.generate(5, 4, seed=1), True)
    assert list(tmp_path.iterdir()) == []  # no checkpoint anywhere
    assert main(["generate", "-n", "5", "--size", "4", "--resume"]) == EXIT_USAGE
    assert "--resume needs -o" in capsys.readouterr().err


# ---------------------------------------------------------------- checkpoints and resume


@pytest.mark.parametrize("name", ["out.txt", "out.npy"])
def test_interrupted_then_resumed_without_a_seed_gives_the_whole_file(tmp_path, name):
    out = tmp_path / name
    notes = []
    summary = jobs.generate_file(
        10, out, size=4, chunk_size=3, progress=_stop_after(2), log=notes.append
    )
    assert summary.interrupted and summary.puzzles == 6
    seed = summary.seed
    assert any(f"seed {seed}" in note for note in notes)  # the fresh seed is said
    saved = _checkpoint(out)
    assert saved["puzzles"] == 6 and saved["end_byte"] == 6
    assert saved["input"] is None
    assert saved["options"] == {
        "job": "generate",
        "count": 10,
        "size": 4,
        "box": None,
        "minimal": True,
        "symmetry": None,
        "clues": None,
        "rating": None,
        "seed": seed,
        "attempts": 1000,
        "output": name[-3:].replace("txt", "lines"),
    }
    whole = sudoku.generate(10, 4, seed=seed)
    reference = _npy(whole) if name.endswith(".npy") else _text(whole)
    data = out.read_bytes()
    assert len(data) == saved["output_bytes"] and reference.startswith(data)
    if name.endswith(".txt"):
        assert data == _text(whole[:6])  # whole lines for the first blocks
    # resumed with no seed: the checkpoint's, not a fresh one
    notes.clear()
    summary = jobs.generate_file(10, out, size=4, chunk_size=4, resume=True, log=notes.append)
    assert summary.seed == seed and summary.resumed_puzzles == 6 and summary.puzzles == 10
    assert any("6 puzzles already written" in note for note in notes)
    assert not any("drawn afresh" in note for note in notes)
    assert out.read_bytes() == reference
    assert not (tmp_path / (name + ".progress")).exists()


def test_resume_cuts_a_part_written_block(tmp_path):
    out = tmp_path / "out.txt"
    jobs.generate_file(8, out, size=4, seed=4, chunk_size=3, progress=_stop_after(1))
    with open(out, "ab") as handle:  # what a kill mid-block leaves
        handle.write(b"0123")
    jobs.generate_file(8, out, size=4, seed=4, chunk_size=3, resume=True)
    assert out.read_bytes() == _text(sudoku.generate(8, 4, seed=4))


def test_resume_with_other_options_is_refused(tmp_path):
    out = tmp_path / "out.txt"
    options = dict(size=4, seed=4, chunk_size=2)
    jobs.generate_file(8, out, progress=_stop_after(1), **options)
    before = out.read_bytes()
    for change, word in [
        (dict(seed=5), "seed"),
        (dict(count=9), "count"),
        (dict(symmetry="rotational"), "symmetry"),
        (dict(csv=True), "output"),
        (dict(attempts=7), "attempts"),
    ]:
        args = {"count": 8, **options, **change}
        with pytest.raises(ValueError, match=f"other options.*{word}"):
            jobs.generate_file(args.pop("count"), out, resume=True, **args)
    assert out.read_bytes() == before  # untouched
    assert _checkpoint(out)["puzzles"] == 2
    # a solve cannot take up the checkpoint of a generate run
    source = tmp_path / "in.txt"
    source.write_bytes(before)
    with pytest.raises(ValueError, match="another job"):
        jobs.solve_file(source, out, resume=True)
    # nor can the command line, which says what differs
    args = ["generate", "-n", "8", "--size", "4", "--seed", "6", "-o", str(out), "--resume"]
    assert main([*args, "--no-progress"]) == EXIT_USAGE
    # the same options finish it
    jobs.generate_file(8, out, resume=True, **options)
    assert out.read_bytes() == _text(sudoku.generate(8, 4, seed=4))


def test_the_output_is_locked_while_blocks_are_made(tmp_path, capsys):
    out = tmp_path / "out.txt"
    source = tmp_path / "in.txt"
    source.write_text("0200004034000000\n")
    refused = []

    def second_writer(done, total):
        for write in (
            lambda: jobs.generate_file(2, out, size=4, seed=0),
            lambda: jobs.solve_file(source, out),
            lambda: jobs.save_puzzles(out, sudoku.generate(1, 4, seed=0)),
        ):
            with pytest.raises(ValueError, match="being written by another run"):
                write()
            refused.append(done)
        args = ["generate", "-n", "1", "--size", "4", "-o", str(out), "--no-progress"]
        assert main(args) == EXIT_USAGE
        assert "locked" in capsys.readouterr().err

    jobs.generate_file(4, out, size=4, seed=0, chunk_size=2, progress=second_writer)
    assert len(refused) == 6
    assert out.read_bytes() == _text(sudoku.generate(4, 4, seed=0))


def test_options_are_checked_before_the_output_is_touched(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("keep me\n")
    # (even a run allowed to replace it)
    for bad in (dict(clues=(2, 3)), dict(symmetry="spiral"), dict(seed=-1), dict(box=(3, 3))):
        with pytest.raises(ValueError):
            jobs.generate_file(2, out, size=4, overwrite=True, **bad)
    with pytest.raises(TypeError):
        jobs.generate_file(2.5, out, size=4, overwrite=True)
    assert out.read_text() == "keep me\n"


def test_a_run_that_fails_in_its_first_block_leaves_no_new_file(tmp_path):
    out = tmp_path / "made.txt"
    with pytest.raises(ValueError, match="no puzzle 0 found"):
        jobs.generate_file(3, out, clues=(17, 17), attempts=1, seed=0)
    assert not out.exists() and not (tmp_path / "made.txt.progress").exists()


# ---------------------------------------------------------------- the command, killed


def _start(args):
    return subprocess.Popen(
        [sys.executable, "-m", "numbadlx", "generate", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for_commit(out, process, seconds=120.0):
    deadline = time.monotonic() + seconds
    while True:
        try:
            if _checkpoint(out)["puzzles"] > 0:
                return
        except (ValueError, OSError):  # not there yet, or replaced while read
            pass
        if process.poll() is not None:
            pytest.fail(f"the run ended (code {process.returncode}): {process.stderr.read()}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("timed out waiting for the run")
        time.sleep(0.005)


COUNT = 6000
ARGS = ["-n", str(COUNT), "--chunk-size", "200", "--threads", "1", "--no-progress"]


@pytest.fixture(scope="module")
def made():
    """The puzzles of one uninterrupted call with seed 7."""
    return sudoku.generate(COUNT, seed=7)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigkill_mid_run_then_resume_is_byte_identical(tmp_path, made):
    out = tmp_path / "out.txt"
    args = [*ARGS, "--seed", "7", "-o", str(out)]
    run = _start(args)
    _wait_for_commit(out, run)
    run.kill()
    run.communicate()
    assert run.returncode == -signal.SIGKILL
    saved = _checkpoint(out)
    assert 0 < saved["puzzles"] < COUNT and saved["puzzles"] % 200 == 0
    reference = _text(made)
    data = out.read_bytes()
    assert data[: saved["output_bytes"]] == _text(made[: saved["puzzles"]])
    assert reference.startswith(data)  # past the commit, at most part of one block
    finished = _start([*args, "--resume"])
    _, err = finished.communicate(timeout=300)
    assert finished.returncode == EXIT_OK, err
    assert "already written" in err and f"{COUNT} puzzles" in err
    assert out.read_bytes() == reference
    assert not (tmp_path / "out.txt.progress").exists()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_at_once_leaves_whole_lines_and_resume_keeps_the_drawn_seed(tmp_path):
    out = tmp_path / "out.txt"
    run = _start([*ARGS, "-o", str(out)])
    _wait_for_commit(out, run)
    sent = time.monotonic()
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == EXIT_INTERRUPTED, err
    assert time.monotonic() - sent < 6  # Numba's teardown included
    saved = _checkpoint(out)
    seed = saved["options"]["seed"]
    assert f"seed {seed}" in err and "--resume" in err
    assert f"holds the first {saved['puzzles']} puzzles complete" in err
    data = out.read_bytes()
    assert len(data) == saved["output_bytes"]  # cut back to the commit exactly
    assert data == _text(sudoku.generate(saved["puzzles"], seed=seed))
    finished = _start([*ARGS, "-o", str(out), "--resume"])
    _, err = finished.communicate(timeout=300)
    assert finished.returncode == EXIT_OK, err
    assert "drawn afresh" not in err and f"seed {seed}" in err
    assert out.read_bytes() == _text(sudoku.generate(COUNT, seed=seed))


# ---------------------------------------------------------------- on Dask


def test_dask_blocks_give_the_same_file_and_resume_a_local_run(tmp_path):
    pytest.importorskip("dask")
    out = tmp_path / "out.npy"
    jobs.generate_file(10, out, size=4, seed=6, chunk_size=3, progress=_stop_after(1))
    executor = jobs.DaskExecutor("threads:2", chunk_size=2, window=2)
    summary = jobs.generate_file(10, out, size=4, seed=6, resume=True, executor=executor)
    assert summary.resumed_puzzles == 3 and summary.ranges == 4
    assert out.read_bytes() == _npy(sudoku.generate(10, 4, seed=6))


@pytest.mark.slow
def test_generate_on_a_local_cluster_writes_the_local_file(tmp_path, capsys):
    pytest.importorskip("distributed")
    args = ["generate", "-n", "40", "--size", "4", "--seed", "9", "--no-progress"]
    assert (
        main([*args, "-o", str(tmp_path / "dask.csv"), "--dask", "local:2", "--chunk-size", "5"])
        == EXIT_OK
    )
    assert main([*args, "-o", str(tmp_path / "here.csv"), "--chunk-size", "7"]) == EXIT_OK
    assert (tmp_path / "dask.csv").read_bytes() == (tmp_path / "here.csv").read_bytes()
    assert (tmp_path / "dask.csv").read_bytes() == _text(sudoku.generate(40, 4, seed=9), True)
