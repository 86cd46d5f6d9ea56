"""Interrupt and resume: ``numbadlx solve`` killed (SIGKILL), stopped with Ctrl-C (SIGINT)
or failing half way must leave complete lines for a prefix of the input, and
``--resume`` must finish with output byte for byte equal to an uninterrupted run."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from numbadlx import jobs, sudoku
from numbadlx.cli import main
from numbadlx.sudoku import random_puzzles

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

SAMPLE = sudoku.default_sample_path()


def _big_input(path, copies):
    """The built-in 1000 sample puzzles, ``copies`` times (comment lines included)."""
    with open(SAMPLE, "rb") as handle:
        data = handle.read()
    path.write_bytes(data * copies)
    return path


def _start(args, **kwargs):
    # SIGINT back to its default in the child, so Python installs its Ctrl-C handler even
    # when this test runs in a background job (where SIGINT is inherited as ignored).
    return subprocess.Popen(
        [sys.executable, "-m", "numbadlx", "solve", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **kwargs,
    )


def _wait_for(predicate, process, seconds=120.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        if process.poll() is not None:
            pytest.fail(
                f"the run ended (code {process.returncode}) before it could be "
                f"interrupted: {process.stderr.read()}"
            )
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("timed out waiting for the run")
        time.sleep(0.005)


def _checkpoint(out):
    return json.loads((out.parent / (out.name + ".progress")).read_text())


def _assert_complete_prefix(data, reference, puzzles):
    """``data`` is the first ``puzzles`` lines of ``reference``, every one complete."""
    assert data.endswith(b"\n") or data == b""
    assert reference.startswith(data)
    lines = data.decode().splitlines()
    assert len(lines) == puzzles
    if lines:
        assert sudoku.parse(lines).shape == (puzzles, 81)  # every line a whole grid


@pytest.mark.slow
def test_sigkill_mid_run_then_resume_twice_is_byte_identical(tmp_path):
    source = _big_input(tmp_path / "in.txt", 30)
    reference_path = tmp_path / "reference.txt"
    assert (
        main(
            [
                "solve",
                str(source),
                "-o",
                str(reference_path),
                "--chunk-size",
                "1000",
                "--no-progress",
            ]
        )
        == 0
    )
    reference = reference_path.read_bytes()
    out = tmp_path / "out.txt"
    progress = tmp_path / "out.txt.progress"
    args = [str(source), "-o", str(out), "--chunk-size", "1000", "--threads", "1", "--no-progress"]
    done_before = 0
    for attempt in range(2):
        run = _start(args + (["--resume"] if attempt else []))

        def moved_on(done_before=done_before):  # this attempt's starting point
            try:
                return progress.exists() and _checkpoint(out)["puzzles"] > done_before
            except (ValueError, OSError):  # replaced while read
                return False

        _wait_for(moved_on, run)
        run.kill()
        run.communicate()
        assert run.returncode == -signal.SIGKILL
        saved = _checkpoint(out)
        assert saved["puzzles"] > done_before and saved["puzzles"] < 30000
        data = out.read_bytes()
        # the committed prefix is whole lines and agrees with the uninterrupted run
        _assert_complete_prefix(data[: saved["output_bytes"]], reference, saved["puzzles"])
        # past it, at most part of the chunk being written when the kill came
        tail = data[saved["output_bytes"] :]
        assert reference[saved["output_bytes"] :].startswith(tail)
        assert len(tail.splitlines()) <= 1000
        done_before = saved["puzzles"]
    finished = _start(args + ["--resume"])
    _, err = finished.communicate(timeout=300)
    assert finished.returncode == 0, err
    assert "already written" in err
    assert "30000 puzzles" in err and "UNIQUE 30000" in err  # the tally survived
    assert out.read_bytes() == reference
    assert not progress.exists()


@pytest.mark.slow
def test_ctrl_c_mid_run_leaves_whole_lines_and_resume_completes(tmp_path):
    source = _big_input(tmp_path / "in.txt", 20)
    reference_path = tmp_path / "reference.txt"
    assert (
        main(
            [
                "solve",
                str(source),
                "-o",
                str(reference_path),
                "--chunk-size",
                "500",
                "--no-progress",
            ]
        )
        == 0
    )
    reference = reference_path.read_bytes()
    out = tmp_path / "out.txt"
    args = [str(source), "-o", str(out), "--chunk-size", "500", "--threads", "1", "--no-progress"]
    run = _start(args)
    _wait_for((tmp_path / "out.txt.progress").exists, run)
    sent = time.monotonic()
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert time.monotonic() - sent < 10
    saved = _checkpoint(out)
    data = out.read_bytes()
    assert len(data) == saved["output_bytes"]  # cut back to the checkpoint exactly
    _assert_complete_prefix(data, reference, saved["puzzles"])
    assert f"holds the first {saved['puzzles']} puzzles complete" in err
    assert "--resume" in err
    finished = _start(args + ["--resume"])
    _, err = finished.communicate(timeout=300)
    assert finished.returncode == 0, err
    assert out.read_bytes() == reference


@pytest.mark.slow
def test_ctrl_c_stops_within_seconds_during_one_long_search(tmp_path):
    """A single search that would run for minutes (counting the empty 9x9's solutions up
    to a billion) must not hold Ctrl-C back."""
    easy = sudoku.format_lines(random_puzzles(3, seed=12))
    source = tmp_path / "in.txt"
    source.write_text("\n".join(easy + ["0" * 81]) + "\n")
    out = tmp_path / "out.txt"
    run = _start(
        [
            str(source),
            "-o",
            str(out),
            "--chunk-size",
            "3",
            "--limit",
            "1000000000",
            "--threads",
            "1",
            "--no-progress",
        ]
    )
    _wait_for((tmp_path / "out.txt.progress").exists, run)
    time.sleep(0.5)  # well inside the long search now
    sent = time.monotonic()
    run.send_signal(signal.SIGINT)
    try:
        _, err = run.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        run.kill()
        run.communicate()
        pytest.fail("Ctrl-C did not stop the run within 15 s")
    # exit includes Numba's own teardown (about a second on a busy machine)
    assert time.monotonic() - sent < 6
    assert run.returncode == 130, err
    assert "holds the first 3 puzzles complete" in err
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and sudoku.parse(lines).min() > 0


# ------------------------------------------------------------ in-process edge cases
def _failing_solve(monkeypatch, after, error=KeyboardInterrupt):
    """Make the CLI's solver raise ``error`` on call number ``after + 1`` (the file jobs
    call :func:`numbadlx.sudoku.solve` by its public name)."""
    real = sudoku.solve
    calls = []

    def solve(*args, **kwargs):
        calls.append(1)
        if len(calls) > after:
            raise error()
        return real(*args, **kwargs)

    monkeypatch.setattr(sudoku, "solve", solve)


def _puzzle_file(path, count=60, seed=9):
    puzzles = random_puzzles(count, seed=seed)
    puzzles[::5, :4] = 0  # some with several solutions
    path.write_text("\n".join(sudoku.format_lines(puzzles)) + "\n")
    return path


@pytest.mark.parametrize("name", ["out.txt", "out.csv"])
def test_interrupt_in_process_then_resume(tmp_path, monkeypatch, capsys, name):
    source = _puzzle_file(tmp_path / "in.txt")
    full = tmp_path / ("full" + name[3:])
    assert main(["solve", str(source), "-o", str(full), "--chunk-size", "10"]) == 0
    reference = full.read_bytes()
    summary = capsys.readouterr().err.split("\n")[0].split(": ")[-1]  # e.g. UNIQUE 49, ...
    assert summary.startswith("UNIQUE") and "MULTIPLE" in summary
    out = tmp_path / name
    with monkeypatch.context() as patch:
        _failing_solve(patch, after=3)
        assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10"]) == 130
    err = capsys.readouterr().err
    assert "holds the first 30 puzzles complete" in err
    assert reference.startswith(out.read_bytes())
    assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10", "--resume"]) == 0
    err = capsys.readouterr().err
    assert out.read_bytes() == reference  # one CSV header, nothing lost or repeated
    assert f"60 puzzles from {source}: {summary}\n" in err  # the tally survived


def test_an_error_mid_run_also_cuts_back_to_the_checkpoint(tmp_path, monkeypatch):
    source = _puzzle_file(tmp_path / "in.txt")
    full = tmp_path / "full.txt"
    assert main(["solve", str(source), "-o", str(full), "--chunk-size", "10"]) == 0
    out = tmp_path / "out.txt"
    with monkeypatch.context() as patch:
        _failing_solve(patch, after=2, error=MemoryError)
        with pytest.raises(MemoryError):
            main(["solve", str(source), "-o", str(out), "--chunk-size", "10"])
    assert out.read_bytes() == b"".join(full.read_bytes().splitlines(keepends=True)[:20])
    assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10", "--resume"]) == 0
    assert out.read_bytes() == full.read_bytes()


def test_ctrl_c_during_a_commit_is_held_until_the_checkpoint_agrees(tmp_path, monkeypatch):
    """SIGINT arriving just after the checkpoint file is replaced (before the CLI notes
    the new committed length) must not leave an output shorter than the checkpoint."""
    source = _puzzle_file(tmp_path / "in.txt")
    full = tmp_path / "full.txt"
    assert main(["solve", str(source), "-o", str(full), "--chunk-size", "10"]) == 0
    real = jobs.CheckpointedOutput.store_checkpoint
    calls = []

    def write_then_signal(self, record):
        real(self, record)
        calls.append(1)
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)

    out = tmp_path / "out.txt"
    with monkeypatch.context() as patch:
        patch.setattr(jobs.CheckpointedOutput, "store_checkpoint", write_then_signal)
        assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10"]) == 130
    saved = _checkpoint(out)
    assert saved["puzzles"] == 20 and os.path.getsize(out) == saved["output_bytes"]
    assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10", "--resume"]) == 0
    assert out.read_bytes() == full.read_bytes()


def test_a_fresh_run_removes_a_stale_checkpoint(tmp_path, monkeypatch):
    source = _puzzle_file(tmp_path / "in.txt")
    out = tmp_path / "out.txt"
    with monkeypatch.context() as patch:
        _failing_solve(patch, after=3)
        assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10"]) == 130
    assert (tmp_path / "out.txt.progress").exists()
    # a new run started afresh (--overwrite), stopped before its first commit
    with monkeypatch.context() as patch:
        _failing_solve(patch, after=0)
        args = ["solve", str(source), "-o", str(out), "--chunk-size", "10", "--overwrite"]
        assert main(args) == 130
    assert out.read_bytes() == b""
    assert not (tmp_path / "out.txt.progress").exists()
    # so --resume starts over instead of padding the empty output to the old length
    assert main(["solve", str(source), "-o", str(out), "--resume"]) == 0
    assert len(out.read_text().splitlines()) == 60


def test_resume_refuses_a_shorter_output_and_other_options(tmp_path, monkeypatch, capsys):
    source = _puzzle_file(tmp_path / "in.txt")
    out = tmp_path / "out.txt"
    with monkeypatch.context() as patch:
        _failing_solve(patch, after=3)
        assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10"]) == 130
    capsys.readouterr()
    assert main(["solve", str(source), "-o", str(out), "--resume", "--limit", "1"]) == 2
    assert "other options" in capsys.readouterr().err
    committed = out.read_bytes()
    out.write_bytes(committed[:100])
    assert main(["solve", str(source), "-o", str(out), "--resume"]) == 2
    assert "cannot be resumed" in capsys.readouterr().err
    assert out.read_bytes() == committed[:100]  # left alone, not padded
    (tmp_path / "out.txt.progress").write_text("{not json")
    assert main(["solve", str(source), "-o", str(out), "--resume"]) == 2
    assert "cannot read the checkpoint" in capsys.readouterr().err


def test_resume_keeps_the_puzzle_size_of_the_whole_file(tmp_path, monkeypatch):
    """A file of 9x9 lines followed by 4x4 lines: the 4x4 lines are wrong-length lines
    of a 9x9 file, also when a resumed run starts among them."""
    nine = sudoku.format_lines(random_puzzles(10, seed=3))
    four = sudoku.format_lines(random_puzzles(10, n=4, seed=3))
    source = tmp_path / "mixed.txt"
    source.write_text("\n".join(nine + four) + "\n")
    full = tmp_path / "full.txt"
    # it has bad lines: exit 1
    assert main(["solve", str(source), "-o", str(full), "--chunk-size", "10"]) == 1
    lines = full.read_text().splitlines()
    assert all("# INVALID" in line and "has 16 cells" in line for line in lines[10:])
    out = tmp_path / "out.txt"
    with monkeypatch.context() as patch:
        _failing_solve(patch, after=1)
        assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10"]) == 130
    resume = ["solve", str(source), "-o", str(out), "--chunk-size", "10", "--resume"]
    assert main(resume) == 1  # bad lines
    resumed = out.read_text().splitlines()
    assert resumed[:10] == lines[:10]
    # Same statuses and messages; only the note on where the size came from differs
    # ("set by line 1" in one run, "n=9 was given" after the resume: the reader does not
    # let the CLI hand that note over).
    for before, after in zip(lines[10:], resumed[10:], strict=True):
        assert "# INVALID" in after and "has 16 cells" in after
        assert before.rsplit(" (", 1)[0] == after.rsplit(" (", 1)[0]


def test_one_output_line_per_puzzle_whatever_the_input_line_holds(tmp_path):
    good = sudoku.format_line(random_puzzles(1, seed=4)[0])
    source = tmp_path / "odd.txt"
    # a form feed and a lone CR inside lines, a comma-separated line, a quote
    source.write_bytes(
        b"\n".join(
            [
                good.encode(),
                b"12\x0c34\r56",
                b'"' + b"0" * 80,
                b",".join([b"0"] * 81),
                b"\xff\xfe" + b"0" * 79,
                b"",
            ]
        )
    )
    for name in ("out.txt", "out.csv"):
        out = tmp_path / name
        assert main(["solve", str(source), "-o", str(out)]) == 1  # INVALID lines
        text = out.read_text(encoding="utf-8")
        rows = text.splitlines()
        if name.endswith(".csv"):
            import csv

            rows = list(csv.reader(rows))[1:]
            assert all(len(row) == 6 for row in rows)
            assert [row[2] for row in rows] == [
                "UNIQUE",
                "INVALID",
                "INVALID",
                "MULTIPLE",
                "INVALID",
            ]
            # the message column: each INVALID row's reason, on the row itself
            assert [bool(row[5]) for row in rows] == [False, True, True, False, True]
            assert all(row[5].startswith(f"{source}:") for row in rows if row[5])
        assert len(rows) == 5


# ------------------------------------------------ the stream library itself
def test_checkpointed_output_commits_and_cuts_back(tmp_path):
    source = _puzzle_file(tmp_path / "in.txt")
    out = tmp_path / "out.csv"
    options = jobs.output_options(limit=2, csv=True)
    header = (jobs.CSV_HEADER + "\n").encode()
    sink = jobs.CheckpointedOutput(out, source, options, header=header)
    assert (sink.start_byte, sink.puzzles, sink.n, sink.messages) == (0, 0, None, [])
    sink.commit(b"a\nb\n", 40, 2, [0, 2, 0, 0, 0, 0, 0], n=9)
    saved = _checkpoint(out)
    assert saved["output_bytes"] == len(header) + 4 == os.path.getsize(out)
    assert (saved["end_byte"], saved["puzzles"], saved["n"]) == (40, 2, 9)
    assert saved["tally"] == [0, 2, 0, 0, 0, 0, 0] and saved["options"] == options
    assert jobs.Checkpoint.read(str(out) + ".progress").as_dict() == saved
    with open(out, "ab") as handle:
        handle.write(b"half a li")  # a chunk cut short by a failure
    sink.close(ok=False)
    assert out.read_bytes() == header + b"a\nb\n"  # back to the commit
    notes = []
    with jobs.CheckpointedOutput(
        out, source, options, resume=True, header=header, log=notes.append
    ) as sink:
        assert (sink.start_byte, sink.puzzles, sink.n) == (40, 2, 9)
        assert notes == sink.messages and "at byte 40 (2 puzzles already" in notes[0]
        sink.commit(b"c\n", 80, 1, [0, 0, 0, 1, 0, 0, 0])
        assert sink.tally.tolist() == [0, 2, 0, 1, 0, 0, 0] and sink.n == 9
    assert out.read_bytes() == header + b"a\nb\nc\n"  # the header once
    assert not (tmp_path / "out.csv.progress").exists()  # finished: no checkpoint
    # other options, another input, a shorter output: refused before touching anything
    (tmp_path / "other.txt").write_text(source.read_text() + "\n")
    with pytest.raises(FileExistsError, match="exists"):  # a finished output is kept
        jobs.CheckpointedOutput(out, source, options, header=header)
    assert out.read_bytes() == header + b"a\nb\nc\n"
    sink = jobs.CheckpointedOutput(out, source, options, header=header, overwrite=True)
    sink.commit(b"d\n", 10, 1, [0] * 7)
    sink.close(ok=False)
    other = jobs.output_options(limit=1, csv=True)
    with pytest.raises(ValueError, match="other options"):
        jobs.CheckpointedOutput(out, source, other, resume=True)
    with pytest.raises(ValueError, match="another input"):
        jobs.CheckpointedOutput(out, tmp_path / "other.txt", options, resume=True)
    out.write_bytes(b"x")  # shorter than the checkpoint says
    with pytest.raises(ValueError, match="cannot be resumed"):
        jobs.CheckpointedOutput(out, source, options, resume=True)
    assert out.read_bytes() == b"x"


def test_stream_solve_file_interrupted_and_resumed(tmp_path):
    source = _puzzle_file(tmp_path / "in.txt")
    full = tmp_path / "full.txt"
    jobs.solve_file(source, full, chunk_size=10)
    out = tmp_path / "out.txt"

    def stop_after_two(end_byte, done):
        if done >= 20:
            raise KeyboardInterrupt

    summary = jobs.solve_file(source, out, chunk_size=10, progress=stop_after_two)
    assert summary.interrupted and summary.puzzles == 20 and summary.ranges == 2
    saved = _checkpoint(out)
    assert saved["end_byte"] == summary.end_byte and os.path.getsize(out) == saved["output_bytes"]
    calls, notes = [], []
    summary = jobs.solve_file(
        source,
        out,
        chunk_size=10,
        resume=True,
        progress=lambda *a: calls.append(a),
        log=notes.append,
    )
    assert not summary.interrupted and summary.puzzles == 60
    assert summary.resumed_puzzles == 20 and summary.start_byte == saved["end_byte"]
    assert calls[0] == (saved["end_byte"], 20) and calls[-1][1] == 60  # starts there
    assert notes == summary.messages and "already written" in notes[0]
    assert out.read_bytes() == full.read_bytes()
    summary = jobs.solve_file(source, out, resume=True, log=notes.append)
    assert "no checkpoint" in notes[-1] and out.read_bytes() == full.read_bytes()


def test_a_box_checkpoint_of_the_cli_resumes_in_the_library(tmp_path, monkeypatch):
    puzzles = random_puzzles(30, n=6, seed=4)
    source = tmp_path / "six.txt"
    source.write_text("\n".join(sudoku.format_lines(puzzles)) + "\n")
    full = tmp_path / "full.txt"
    assert main(["solve", str(source), "-o", str(full), "--box", "2X3", "--chunk-size", "10"]) == 0
    out = tmp_path / "out.txt"
    with monkeypatch.context() as patch:
        _failing_solve(patch, after=1)
        assert (
            main(["solve", str(source), "-o", str(out), "--box", "2x3", "--chunk-size", "10"])
            == 130
        )
    assert _checkpoint(out)["options"]["box"] == "2x3"
    summary = jobs.solve_file(source, out, box=(2, 3), chunk_size=10, resume=True)
    assert summary.puzzles == 30 and out.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("when", [2, "last"])
def test_a_ctrl_c_whose_exception_was_swallowed_still_stops_the_run(tmp_path, when):
    """Python runs the SIGINT handler between any two bytecodes, also inside code that
    drops exceptions (a finalizer: a Dask future's __del__ printed "Exception ignored"
    and the run went on to exit 0). The run must stop at its next commit, or before it
    reports success when the swallowed Ctrl-C came after the last one."""
    source = _puzzle_file(tmp_path / "in.txt")
    full = tmp_path / "full.txt"
    assert main(["solve", str(source), "-o", str(full), "--chunk-size", "10"]) == 0
    lines = full.read_text().count("\n")
    calls = []

    def swallowing_progress(done, puzzles):
        calls.append(puzzles)
        if len(calls) == (2 if when == 2 else lines // 10):
            try:
                signal.raise_signal(signal.SIGINT)  # the handler raises here...
            except KeyboardInterrupt:
                pass  # ...and a finalizer's caller would drop it

    out = tmp_path / "out.txt"
    summary = jobs.solve_file(source, out, chunk_size=10, progress=swallowing_progress)
    assert summary.interrupted
    saved = _checkpoint(out)
    assert os.path.getsize(out) == saved["output_bytes"]
    assert saved["puzzles"] == (30 if when == 2 else lines)
    assert main(["solve", str(source), "-o", str(out), "--chunk-size", "10", "--resume"]) == 0
    assert out.read_bytes() == full.read_bytes()
