"""The file-job runner (numbadlx.jobs): one checkpointed output, one lock and one
input path for solve, rate and generate, on the local executor or on Dask."""

import io
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from numbadlx import jobs, sudoku
from numbadlx.cli import EXIT_INTERRUPTED, EXIT_NO_ANSWER, EXIT_OK, EXIT_USAGE, main
from numbadlx.sudoku import random_puzzles


def _puzzle_file(path, count=40, seed=5, size=9):
    puzzles = random_puzzles(count, size, seed=seed)
    puzzles[::6, :5] = 0  # some with several solutions
    path.write_text("\n".join(sudoku.format_lines(puzzles)) + "\n")
    return path


def _stdin(monkeypatch, data):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


# ---------------------------------------------------------------- rate like solve


def test_rate_reads_standard_input(tmp_path, monkeypatch, capsys):
    source = _puzzle_file(tmp_path / "in.txt", count=6, size=4)
    assert main(["rate", str(source), "-o", str(tmp_path / "file.csv"), "--no-progress"]) == 0
    _stdin(monkeypatch, source.read_bytes())
    assert main(["rate", "-", "-o", str(tmp_path / "stdin.csv"), "--no-progress"]) == 0
    assert (tmp_path / "stdin.csv").read_bytes() == (tmp_path / "file.csv").read_bytes()
    capsys.readouterr()
    _stdin(monkeypatch, source.read_bytes())
    assert main(["rate", "-", "--no-progress"]) == 0
    assert capsys.readouterr().out.encode() == (tmp_path / "file.csv").read_bytes()
    # an unreadable line of standard input is named as such, not as a temporary copy
    _stdin(monkeypatch, b"12\n")
    assert main(["rate", "-", "--no-progress"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "<stdin>" in err and "numbadlx-input-" not in err
    # standard input cannot be resumed
    _stdin(monkeypatch, source.read_bytes())
    assert main(["rate", "-", "-o", str(tmp_path / "x.csv"), "--resume"]) == EXIT_USAGE
    assert "--resume needs an input file" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["solve", "-"], ["rate", "-"]])
def test_unreadable_rows_of_standard_input_are_named_stdin(tmp_path, monkeypatch, capsys, command):
    good = sudoku.format_lines(random_puzzles(2, 4, seed=3))
    _stdin(monkeypatch, ("\n".join([good[0], "12x4" * 4, good[1]]) + "\n").encode())
    assert main([*command, "--no-progress"]) in (EXIT_OK, EXIT_NO_ANSWER)
    out = capsys.readouterr().out
    assert "<stdin>:2:3" in out and "numbadlx-input-" not in out


def test_unreadable_rows_of_standard_input_are_named_stdin_on_dask(tmp_path):
    # the Dask range tasks read the copy of standard input and name it as the label says
    copy = tmp_path / "numbadlx-input-copy"
    copy.write_text("12x4" * 4 + "\n")
    executor = jobs.DaskExecutor("threads:1")
    try:
        pieces = list(executor.pieces(jobs.SolveJob(), str(copy), n=4, label="<stdin>"))
    finally:
        executor.close()
    text = b"".join(piece.data for piece in pieces).decode()
    assert "<stdin>:1:3" in text and str(copy) not in text


def test_rate_reads_standard_input_in_a_subprocess(tmp_path):
    source = _puzzle_file(tmp_path / "in.txt", count=3, size=4)
    run = subprocess.run(
        [sys.executable, "-m", "numbadlx", "rate", "-", "--no-progress"],
        input=source.read_text(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == EXIT_OK, run.stderr
    assert run.stdout.splitlines()[0] == jobs.RATE_HEADER and len(run.stdout.splitlines()) == 4


def test_rate_is_checkpointed_and_resumes(tmp_path, capsys):
    source = _puzzle_file(tmp_path / "in.txt", count=30, size=4)
    full = tmp_path / "full.csv"
    jobs.rate_file(source, full, chunk_size=7)

    def stop(end_byte, done):
        if done >= 14:
            raise KeyboardInterrupt

    out = tmp_path / "out.csv"
    summary = jobs.rate_file(source, out, chunk_size=7, progress=stop)
    assert summary.interrupted and summary.puzzles == 14
    assert full.read_bytes().startswith(out.read_bytes())
    assert (tmp_path / "out.csv.progress").exists()
    # another seed would rate the rest differently: refused
    with pytest.raises(ValueError, match="other options"):
        jobs.rate_file(source, out, chunk_size=7, resume=True, seed=1)
    assert main(["rate", str(source), "-o", str(out), "--resume", "--no-progress"]) == 0
    assert out.read_bytes() == full.read_bytes()  # one header, isomorphs by file index
    assert not (tmp_path / "out.csv.progress").exists()


def test_a_solve_checkpoint_is_not_resumed_by_rate(tmp_path):
    source = _puzzle_file(tmp_path / "in.txt", count=20, size=4)
    out = tmp_path / "out.csv"

    def stop(end_byte, done):
        if done >= 10:
            raise KeyboardInterrupt

    assert jobs.solve_file(source, out, chunk_size=5, progress=stop).interrupted
    with pytest.raises(ValueError, match="other options"):
        jobs.rate_file(source, out, resume=True)


# ---------------------------------------------------------------- resume checks the output


def _interrupted_run(kind, tmp_path):
    """An interrupted run of ``kind`` (its checkpoint kept), the output of a whole run,
    and the command line that resumes it."""
    source = _puzzle_file(tmp_path / "in.txt", count=30, size=4)

    def stop(done, *more):
        if (more[0] if kind == "solve" or kind == "rate" else done) >= 12:
            raise KeyboardInterrupt

    if kind in ("solve", "rate"):
        name = "out.txt" if kind == "solve" else "out.csv"
        run = jobs.solve_file if kind == "solve" else jobs.rate_file
        full, out = tmp_path / f"full-{name}", tmp_path / name
        run(source, full, chunk_size=4)
        assert run(source, out, chunk_size=4, progress=stop).interrupted
        args = [kind, str(source), "-o", str(out), "--chunk-size", "4"]
    else:
        name = "out.npy" if kind == "npy" else "out.txt"
        full, out = tmp_path / f"full-{name}", tmp_path / name
        jobs.generate_file(20, full, size=4, seed=3)
        made = jobs.generate_file(20, out, size=4, seed=3, chunk_size=4, progress=stop)
        assert made.interrupted
        args = ["generate", "-n", "20", "--size", "4", "--seed", "3", "-o", str(out)]
        args += ["--chunk-size", "4"]
    return out, full, [*args, "--resume", "--no-progress"]


@pytest.mark.parametrize("kind", ["solve", "rate", "generate", "npy"])
def test_resume_refuses_an_output_whose_committed_bytes_changed(kind, tmp_path, capsys):
    out, full, args = _interrupted_run(kind, tmp_path)
    checkpoint = tmp_path / (out.name + ".progress")
    assert checkpoint.exists()
    data = out.read_bytes()
    # longer, different lines in its place: the length alone would pass
    other = data.translate(bytes.maketrans(b"1234\x01\x02\x03\x04", b"2341\x02\x03\x04\x01"))
    assert other != data
    out.write_bytes(other + data)
    assert main(args) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "changed since" in err and str(out) in err and "--resume" in err
    assert out.read_bytes() == other + data  # refused: nothing cut or appended
    assert checkpoint.exists()
    # the output as the killed run left it (a part-written piece after the commit)
    # still resumes, into the output of a whole run
    out.write_bytes(data + full.read_bytes()[len(data) : len(data) + 7])
    assert main(args) == EXIT_OK
    assert out.read_bytes() == full.read_bytes()
    assert not checkpoint.exists()


def test_resume_refuses_a_checkpoint_without_the_output_hash(tmp_path, capsys):
    out, _, args = _interrupted_run("solve", tmp_path)
    checkpoint = tmp_path / "out.txt.progress"
    record = json.loads(checkpoint.read_text())
    assert len(record.pop("output_sha256")) == 64
    checkpoint.write_text(json.dumps(record))
    assert main(args) == EXIT_USAGE
    assert "no hash of the output" in capsys.readouterr().err


def test_resume_refuses_an_output_of_an_older_column_layout(tmp_path, capsys):
    """A CSV begun by a version that wrote other columns is not resumed: the new rows
    would not match the old header and rows (a file of mixed layouts)."""
    import hashlib

    source = _puzzle_file(tmp_path / "in.txt", count=30, size=4)
    out = tmp_path / "out.csv"

    def stop(done, written):
        if written >= 12:
            raise KeyboardInterrupt

    assert jobs.solve_file(source, out, chunk_size=4, progress=stop).interrupted
    checkpoint = tmp_path / "out.csv.progress"
    lines = out.read_bytes().splitlines(keepends=True)
    assert lines[0] == (jobs.CSV_HEADER + "\n").encode()
    # the same run as an older version wrote it: one column fewer, and a checkpoint
    # that vouches for those bytes (so only the layout differs)
    older = b"".join(line.rsplit(b",", 1)[0] + b"\n" for line in lines)
    out.write_bytes(older)
    record = json.loads(checkpoint.read_text())
    record["output_bytes"] = len(older)
    record["output_sha256"] = hashlib.sha256(older).hexdigest()
    checkpoint.write_text(json.dumps(record))
    args = ["solve", str(source), "-o", str(out), "--chunk-size", "4", "--resume"]
    assert main([*args, "--no-progress"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "header" in err and "puzzle,solution,status,count,nodes'" in err and "--resume" in err
    assert out.read_bytes() == older  # refused: nothing cut or appended
    assert checkpoint.exists()
    # started afresh (--overwrite), the output is the whole run's
    assert main(args[:-1] + ["--no-progress", "--overwrite"]) == EXIT_OK
    assert out.read_bytes().splitlines()[0] == jobs.CSV_HEADER.encode()
    assert len(out.read_bytes().splitlines()) == 31


# ---------------------------------------------------------------- one lock for all writers


def test_rate_and_generate_take_the_lock_of_an_output_another_job_writes(tmp_path, capsys):
    source = _puzzle_file(tmp_path / "in.txt", count=4, size=4)
    out = tmp_path / "out.csv"
    sink = jobs.CheckpointedOutput(out, source, jobs.output_options(limit=2, csv=True))
    try:
        sink.commit(b"line\n", 17, 1, jobs.count_statuses([0]))
        with pytest.raises(ValueError, match="being written by another run"):
            jobs.rate_file(source, out)
        with pytest.raises(ValueError, match="being written by another run"):
            jobs.generate_file(2, out, size=4, seed=0)
        with pytest.raises(ValueError, match="being written by another run"):
            jobs.save_puzzles(out, random_puzzles(1, 4, seed=0))
        with pytest.raises(ValueError, match="being written by another run"):
            jobs.solve_file(source, out)
        assert main(["rate", str(source), "-o", str(out), "--no-progress"]) == EXIT_USAGE
        assert "locked" in capsys.readouterr().err
        args = ["generate", "-n", "1", "--size", "4", "-o", str(out), "--no-progress"]
        assert main(args) == EXIT_USAGE
        assert "locked" in capsys.readouterr().err
        # the refused writers left the output and its checkpoint alone
        assert out.read_bytes().endswith(b"line\n")
        assert (tmp_path / "out.csv.progress").exists()
    finally:
        sink.close(ok=False)
    # once the job is stopped, its output is an interrupted run's: kept unless replaced
    with pytest.raises(FileExistsError, match="interrupted run"):
        jobs.generate_file(2, out, size=4, seed=0)
    jobs.generate_file(2, out, size=4, seed=0, overwrite=True)
    assert sudoku.parse(out).shape == (2, 16)
    jobs.rate_file(source, out, overwrite=True)
    assert out.read_text().splitlines()[0] == jobs.RATE_HEADER


def _cli(*args, **options):
    return subprocess.run(
        [sys.executable, "-m", "numbadlx", *args, "--no-progress"],
        capture_output=True,
        text=True,
        timeout=600,
        **options,
    )


@pytest.mark.slow
def test_rate_and_generate_refuse_the_output_of_a_running_solve_command(tmp_path):
    # a `solve -o F` process is writing F; `rate -o F` and `generate -o F`, run from the
    # command line meanwhile, are refused and leave F alone, and the solve still ends
    # with the output an undisturbed run writes
    source = _puzzle_file(tmp_path / "in.txt", count=3000)
    reference = tmp_path / "reference.txt"
    alone = _cli("solve", str(source), "-o", str(reference), "--chunk-size", "5")
    out = tmp_path / "out.txt"
    checkpoint = tmp_path / "out.txt.progress"
    args = ["solve", str(source), "-o", str(out), "--chunk-size", "5", "--threads", "1"]
    solve = subprocess.Popen(
        [sys.executable, "-m", "numbadlx", *args, "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 300
        while not checkpoint.exists() and solve.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        solve.send_signal(signal.SIGSTOP)  # it keeps its lock while stopped
        if solve.poll() is not None or not checkpoint.exists():
            pytest.fail("the solve ended before it could be caught writing")
        before = out.read_bytes()
        assert before  # some chunks are written
        for refused in (
            _cli("rate", str(source), "-o", str(out)),
            _cli("generate", "-n", "3", "--size", "4", "--seed", "1", "-o", str(out)),
        ):
            assert refused.returncode == EXIT_USAGE, refused.stderr
            assert "being written by another run" in refused.stderr
        assert out.read_bytes() == before
        assert checkpoint.exists()
    finally:
        solve.send_signal(signal.SIGCONT)
        _, err = solve.communicate(timeout=600)
    assert solve.returncode == alone.returncode, err
    assert f"wrote {out}" in err
    assert out.read_bytes() == reference.read_bytes()
    assert not checkpoint.exists()


def test_generate_leaves_no_file_when_it_fails(tmp_path):
    out = tmp_path / "made.txt"
    with pytest.raises(ValueError):
        jobs.generate_file(1, out, clues=(5, 6))
    assert not out.exists()


# ---------------------------------------------------------------- the Dask executor


@pytest.fixture
def dask_available():
    pytest.importorskip("dask")
    pytest.importorskip("distributed")


def test_the_runner_imports_no_dask():
    code = (
        "import sys, numbadlx.jobs, numbadlx.cli; print(sorted(m for m in sys.modules "
        "if m == 'dask' or m.startswith(('dask.', 'distributed'))))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "[]", run.stderr


@pytest.mark.parametrize(
    "extra",
    [
        ["--engine", "dlx"],
        ["--engine", "bits", "--output-format", "grid"],
        ["--output-format", "grid", "--limit", "1"],
    ],
    ids=["engine", "engine-grid", "grid"],
)
def test_cli_dask_takes_every_local_option(tmp_path, dask_available, extra):
    source = _puzzle_file(tmp_path / "in.txt", count=40)
    local, on_dask = tmp_path / "local.txt", tmp_path / "dask.txt"
    base = ["solve", str(source), "--no-progress", *extra]
    assert main([*base, "-o", str(local)]) == main(
        [*base, "-o", str(on_dask), "--dask", "threads:2", "--dask-chunk-bytes", "700"]
    )
    assert on_dask.read_bytes() == local.read_bytes()
    if "grid" in extra:
        assert b"\n\n" in local.read_bytes()


def test_cli_dask_reads_a_solution_column(tmp_path, dask_available):
    puzzles = random_puzzles(30, seed=12)
    solutions = sudoku.solve(puzzles, limit=1).solutions
    rows = ["id,question,answer"]
    for k, (p, s) in enumerate(zip(sudoku.format_lines(puzzles), sudoku.format_lines(solutions))):
        if k == 4:
            s = s[::-1]  # a wrong solution, noted on its line
        rows.append(f"{k},{p},{s}")
    source = tmp_path / "in.csv"
    source.write_text("\n".join(rows) + "\n")
    outputs = []
    for name, extra in (("local", []), ("dask", ["--dask", "threads:2"])):
        out = tmp_path / f"{name}.txt"
        args = ["solve", str(source), "-o", str(out), "--column", "question", "--no-progress"]
        main([*args, "--dask-chunk-bytes", "500", *extra])
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert outputs[0].count(b"\n") == 30


def test_a_dask_run_with_options_resumes_locally(tmp_path, dask_available):
    source = _puzzle_file(tmp_path / "in.txt", count=60)
    options = dict(engine="bits", grid=True)
    full = tmp_path / "full.txt"
    jobs.solve_file(source, full, **options)

    def stop(end_byte, done):
        if done >= 20:
            raise KeyboardInterrupt

    out = tmp_path / "out.txt"
    executor = jobs.DaskExecutor("threads:2", chunk_bytes=500, window=1)
    summary = jobs.solve_file(source, out, executor=executor, progress=stop, **options)
    assert summary.interrupted and 20 <= summary.puzzles < 60
    with pytest.raises(ValueError, match="other options"):
        jobs.solve_file(source, out, resume=True)  # without the engine and grid
    assert not jobs.solve_file(source, out, resume=True, **options).interrupted
    assert out.read_bytes() == full.read_bytes()


def test_rate_on_dask_numbers_the_puzzles_as_a_local_run(tmp_path, dask_available, capsys):
    source = _puzzle_file(tmp_path / "in.txt", count=25, size=4)
    local = tmp_path / "local.csv"
    jobs.rate_file(source, local, seed=3)
    executor = jobs.DaskExecutor("threads:2", chunk_bytes=60, chunk_size=4)
    summary = jobs.rate_file(source, tmp_path / "dask.csv", seed=3, executor=executor)
    assert summary.puzzles == 25 and summary.ranges > 3
    assert (tmp_path / "dask.csv").read_bytes() == local.read_bytes()
    args = ["rate", str(source), "-o", str(tmp_path / "cli.csv"), "--seed", "3"]
    assert main([*args, "--dask", "threads:2", "--dask-chunk-bytes", "80"]) == EXIT_OK
    assert (tmp_path / "cli.csv").read_bytes() == local.read_bytes()


def test_an_interrupted_rate_says_how_to_carry_on(tmp_path, monkeypatch, capsys):
    source = _puzzle_file(tmp_path / "in.txt", count=20, size=4)
    real = sudoku.rate
    calls = []

    def rate(*args, **kwargs):
        calls.append(1)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sudoku, "rate", rate)
    out = tmp_path / "out.csv"
    args = ["rate", str(source), "-o", str(out), "--chunk-size", "5", "--no-progress"]
    assert main(args) == EXIT_INTERRUPTED
    assert "--resume" in capsys.readouterr().err
    monkeypatch.setattr(sudoku, "rate", real)
    assert main([*args, "--resume"]) == EXIT_OK
    assert len(out.read_text().splitlines()) == 21


# ---------------------------------------------------------------- what rate echoes


def test_rate_caps_the_echo_of_a_huge_bad_line_and_its_csv_loads(tmp_path):
    import csv

    pandas = pytest.importorskip("pandas")
    huge = "1" * 5_000_000
    source = tmp_path / "in.txt"
    lines = ["0200004034000000", huge, 'x,"y', "0300004034000000"]
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.csv"
    summary = jobs.rate_file(source, out)
    assert summary.puzzles == 4 and summary.unreadable == 2
    assert out.stat().st_size < 2000
    with open(out, newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == jobs.RATE_HEADER.split(",")
    assert [len(row) for row in rows] == [4] * 5
    assert rows[1][0] == lines[0] and rows[4][0] == lines[3]  # readable rows kept whole
    assert rows[2][0].startswith("1" * 80) and "5000000 characters" in rows[2][0]
    assert rows[3][0] == 'x,"y'
    frame = pandas.read_csv(out, dtype=str)
    assert list(frame.columns) == jobs.RATE_HEADER.split(",") and len(frame) == 4
    # a solve's CSV of the same file caps it the same way
    solved = tmp_path / "solved.csv"
    jobs.solve_file(source, solved)
    assert pandas.read_csv(solved, dtype=str)["puzzle"][1] == rows[2][0]


# ---------------------------------------------------------------- .npy outputs


def test_save_puzzles_writes_exactly_the_npy_file_it_names(tmp_path):
    import threading

    puzzles = random_puzzles(2, 4, seed=0)
    jobs.save_puzzles(tmp_path / "a.NPY", puzzles)
    np.testing.assert_array_equal(np.load(tmp_path / "a.NPY"), puzzles)
    # a pipe (not a regular file) is written through as it is named
    pipe = tmp_path / "pipe.Npy"
    os.mkfifo(pipe)
    got = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()), daemon=True)
    reader.start()
    try:
        jobs.save_puzzles(pipe, puzzles)
        reader.join(timeout=60)
    finally:
        if reader.is_alive():  # nothing was written to the pipe: let the reader go
            with open(pipe, "wb"):
                pass
            reader.join(timeout=60)
    assert sorted(os.listdir(tmp_path)) == ["a.NPY", "pipe.Npy"]
    np.testing.assert_array_equal(np.load(io.BytesIO(got[0])), puzzles)


def test_csv_is_refused_for_a_npy_output(tmp_path, capsys):
    puzzles = random_puzzles(1, 4, seed=0)
    with pytest.raises(ValueError, match="cannot write CSV"):
        jobs.generate_file(2, tmp_path / "x.npy", size=4, seed=0, csv=True)
    with pytest.raises(ValueError, match="cannot write CSV"):
        jobs.save_puzzles(tmp_path / "y.NPY", puzzles, csv=True)
    args = ["generate", "-n", "1", "--size", "4", "-o", str(tmp_path / "z.npy"), "--csv"]
    assert main([*args, "--no-progress"]) == EXIT_USAGE
    assert "cannot write CSV" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


def test_dask_shares_a_small_input_among_its_workers(tmp_path, dask_available):
    # the built-in sample (1000 puzzles, 82 KB) is far below the default range of 8 MiB:
    # it is still cut so that each of two workers gets at least two ranges
    source = sudoku.default_sample_path()
    local = tmp_path / "local.txt"
    jobs.solve_file(source, local, limit=1)
    executor = jobs.DaskExecutor("threads:2")
    summary = jobs.solve_file(source, tmp_path / "dask.txt", limit=1, executor=executor)
    assert summary.puzzles == 1000 and summary.ranges >= 4
    assert (tmp_path / "dask.txt").read_bytes() == local.read_bytes()
    # chunk_bytes stays an upper bound
    executor = jobs.DaskExecutor("threads:2", chunk_bytes=40_000)
    summary = jobs.solve_file(source, tmp_path / "d2.txt", limit=1, executor=executor)
    assert summary.ranges >= 4
    assert (tmp_path / "d2.txt").read_bytes() == local.read_bytes()
    # a file of a few puzzles is one range: ranges are not cut below 16 KiB
    few = _puzzle_file(tmp_path / "few.txt", count=5)
    summary = jobs.solve_file(few, os.devnull, executor=jobs.DaskExecutor("threads:2"))
    assert summary.ranges == 1


def test_csv_output_has_a_message_column_for_the_solution_column(tmp_path):
    """A CSV input's solution column that cannot be read, or is not a solution of its
    puzzle, gets its message in the output's ``message`` column (the row is still
    solved); an INVALID row gets its reason there; a good row leaves it empty."""
    import csv

    from tests.helpers import grid_errors

    puzzle = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
    good = sudoku.solve([puzzle]).solutions[0]
    assert grid_errors(sudoku.parse([puzzle]), good[None], (3, 3)) == []
    right = sudoku.format_line(good)
    wrong = right[1] + right[0] + right[2:]  # two cells swapped: no longer a solution
    source = tmp_path / "in.csv"
    source.write_text(
        "quizzes,solutions\n"
        f"{puzzle},{right}\n"
        f"{puzzle},{right[:80]}\n"
        f"{puzzle},{wrong}\n"
        f"{puzzle[:80]},{right}\n"
    )
    out = tmp_path / "out.csv"
    jobs.solve_file(source, out)
    rows = list(csv.reader(out.open()))
    assert (
        rows[0]
        == jobs.CSV_HEADER.split(",")
        == [
            "puzzle",
            "solution",
            "status",
            "count",
            "nodes",
            "message",
        ]
    )
    body = rows[1:]
    assert [row[2] for row in body] == ["UNIQUE", "UNIQUE", "UNIQUE", "INVALID"]
    assert [row[1] for row in body[:3]] == [right] * 3
    assert body[0][5] == ""
    assert body[1][5].startswith(f"{source}:3:") and "solution column" in body[1][5]
    assert "80 cells" in body[1][5]
    assert body[2][5].startswith("line 4: solution column:")
    assert body[3][5].startswith(f"{source}:5:") and "solution column" not in body[3][5]
    assert all(len(row) == 6 for row in body)


def test_a_compile_during_a_later_chunk_is_no_solver_time(tmp_path, monkeypatch):
    """A kernel the first chunk did not need (the parallel one, after a small first
    chunk) compiles on a later chunk: the solver's seconds leave it out and the startup
    seconds (\"to compile or load the solver\") take it in. Here each chunk's solve
    counts its whole wall time as compiling, so no solver time is left."""
    from numbadlx import _compiling
    from numbadlx.jobs import _jobs

    solve_chunk = _jobs.SolveJob.solve_chunk
    spent = []

    def compiling_solve(self, chunk, first_index=0):
        begin = time.perf_counter()
        result = solve_chunk(self, chunk, first_index)
        with _compiling._lock:
            _compiling._state["total"] += time.perf_counter() - begin
        spent.append(time.perf_counter() - begin)
        return result

    monkeypatch.setattr(_jobs.SolveJob, "solve_chunk", compiling_solve)
    source = tmp_path / "in.txt"
    source.write_text("\n".join(sudoku.format_lines(random_puzzles(600, seed=3))) + "\n")
    summary = jobs.solve_file(source, tmp_path / "out.txt", chunk_size=200, threads=1)
    assert summary.puzzles == 600 and len(spent) == 3
    assert summary.solve_seconds < sum(spent) / 2, (summary.solve_seconds, spent)
    assert summary.startup_seconds >= sum(spent)
