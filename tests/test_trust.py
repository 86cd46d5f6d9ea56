"""No silent wrong answer: each test here reproduces an edge a user met (issue 13) and
fails without its fix: files that are not there, arguments that meant nothing, exit
codes, resumes of a changed input, two writers of one output, and more."""

import io
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from numbadlx import ExactCover, count, explain, jobs, problems, sudoku, verify
from numbadlx.cli import (
    EXIT_NO_ANSWER,
    EXIT_OK,
    EXIT_UNFINISHED,
    EXIT_USAGE,
    main,
)
from numbadlx.jobs import checkpoint_path
from numbadlx.sudoku import random_puzzles
from tests.helpers import grid_errors

KNUTH = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"


def _lines(puzzles):
    return "\n".join(sudoku.format_lines(puzzles)) + "\n"


# ------------------------------------------------------------------ files for count
def test_count_refuses_what_is_not_a_dlx_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "knuth.dlx").write_text(KNUTH)
    (tmp_path / "binary.dlx").write_bytes(b"a b\n\x00\x01\x02")
    cases = {
        "knuth.dl": "no such file",  # a typo
        "a b c": "no such file",
        str(tmp_path): "is a directory",
        "binary.dlx": "is not a text file (byte 0x00 at offset 4)",
    }
    for name, message in cases.items():
        assert main(["count", name]) == EXIT_USAGE, name
        captured = capsys.readouterr()
        assert message in captured.err.lower() and name in captured.err, captured.err
        assert captured.out == "", name
    assert main(["count", "knuth.dlx"]) == EXIT_OK
    assert capsys.readouterr().out == "1 solution\n"


def test_count_reads_standard_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a b\na\nb\na b\n")))
    assert main(["count", "-"]) == EXIT_OK
    captured = capsys.readouterr()
    assert captured.out == "2 solutions\n" and captured.err.startswith("<stdin>: 3 options")
    # stdin gets the same checks as a file: here, not UTF-8
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a b\n\xff\n")))
    assert main(["count", "-"]) == EXIT_USAGE
    assert "not a UTF-8 text file" in capsys.readouterr().err


def test_from_dlx_never_reads_a_file_name_as_text(tmp_path):
    with pytest.raises(FileNotFoundError, match="names a file"):
        ExactCover.from_dlx("a b c")  # no newline: a file name, and there is none
    with pytest.raises(IsADirectoryError, match="is a directory"):
        ExactCover.from_dlx(str(tmp_path))
    path = tmp_path / "knuth.dlx"
    path.write_text(KNUTH)
    assert ExactCover.from_dlx(str(path)).count() == 1
    assert ExactCover.from_dlx("a b c\n").count() == 0  # text: it has a newline
    with open(path) as handle:
        assert ExactCover.from_dlx(handle).count() == 1


def test_dlx_lines_end_only_at_newline_and_names_split_only_at_ascii_blanks():
    # a form feed is a blank between names, not a line break
    assert ExactCover.from_dlx("a\fb\na b\n").count() == 1
    # U+2028 and a no-break space are characters of a name, as in Knuth's programs
    problem = ExactCover.from_dlx("a\u2028b c\u00a0d\na\u2028b c\u00a0d\n")
    assert problem.item_names == ["a\u2028b", "c\u00a0d"] and problem.count() == 1
    with pytest.raises(ValueError, match="<string>:2:1: unknown item 'c'"):
        ExactCover.from_dlx("a b\u2028c\nc\n")


def test_a_problem_without_items_survives_to_dlx_and_back():
    empty = ExactCover([], n_items=0)
    again = ExactCover.from_dlx(empty.to_dlx())
    assert (again.n_items, again.n_options, again.count()) == (0, 0, 1)


def test_count_show_prints_colours_and_grammar(tmp_path, capsys):
    path = tmp_path / "coloured.dlx"
    path.write_text("p q | x\np x:red\nq x:red\np q x:blue\n")
    assert main(["count", str(path), "--show", "3"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "  p x:red\n" in out and "  q x:red\n" in out
    assert out.endswith("2 solutions\n")


# ------------------------------------------------------------------ API arguments
@pytest.mark.parametrize(
    "call, message",
    [
        (lambda p: p.count(0.5), "limit must be a positive integer, got 0.5"),
        (lambda p: p.count(2**63), "limit must be at most 2\\*\\*63 - 1"),
        (lambda p: p.count(max_nodes=0), "max_nodes must be a positive integer"),
        (lambda p: p.count(max_nodes=-5), "max_nodes must be a positive integer"),
        (lambda p: p.count(timeout=float("nan")), "timeout must be >= 0"),
        (lambda p: p.count(timeout="1"), "timeout must be a number"),
        (lambda p: p.solutions(batch=0), "batch must be a positive integer"),
        (lambda p: p.solutions(limit=-1), "limit must be a positive integer"),
        (lambda p: p.solutions(limit=True), "limit must be a positive integer"),
    ],
)
def test_meaningless_arguments_are_refused_when_called(call, message):
    problem = ExactCover(np.eye(3, dtype=np.uint8))
    with pytest.raises(ValueError, match=message):
        call(problem)  # solutions() checks at once, not at the first next()


def test_lists_of_zero_one_rows_must_say_what_they_are():
    with pytest.raises(ValueError, match="dense=True or dense=False"):
        count([[1, 0], [0, 1]])
    assert count([[1, 0], [0, 1]], dense=True) == count(np.array([[1, 0], [0, 1]])) == 1
    assert count([[1, 0], [0, 1]], dense=False) == 2  # two options, each covers 0 and 1
    assert count([[1, 0, 1], [0, 1, 0]]) == 1  # rows repeat 0 and 1: only a matrix
    assert count([[0, 3], [1, 2]]) == 1  # not 0/1 rows: option lists
    assert count([[True, False], [False, True]]) == 1  # bools: a matrix


def test_verify_checks_its_argument_and_follows_the_search():
    problem = ExactCover(np.eye(2, dtype=np.uint8))
    for bad in ([True, False], [2.9], "2", [[0, 1]]):
        with pytest.raises(ValueError):
            verify(problem, bad)
    assert verify(problem, [0, 1]) and verify(problem, np.array([1, 0], dtype=np.uint8))
    # an option with no primary item is never chosen by count(); verify agrees
    only_secondary = ExactCover([[0], [1]], secondary=1)
    assert only_secondary.count() == 1 and not verify(only_secondary, [0, 1])
    assert "no primary item" in explain(only_secondary, [0, 1])


# ------------------------------------------------------------------ exit codes
def test_solve_exit_codes_say_whether_every_puzzle_got_an_answer(tmp_path, capsys):
    good = random_puzzles(3, seed=5)
    source = tmp_path / "in.txt"
    out = str(tmp_path / "out.txt")
    source.write_text(_lines(good))
    assert main(["solve", str(source), "-o", out]) == EXIT_OK
    source.write_text("1" * 81 + "\n" + "11" + "0" * 79 + "\n")  # every puzzle INVALID
    assert main(["solve", str(source), "-o", out, "--overwrite"]) == EXIT_NO_ANSWER
    source.write_text(_lines(good) + "0" * 81 + "\n")
    budget = ["--limit", "9999", "--max-nodes", "50", "--overwrite"]
    assert main(["solve", str(source), "-o", out, *budget]) == EXIT_UNFINISHED
    assert main(["solve", str(source), "--box", "0x9"]) == EXIT_USAGE
    assert "--box must be ROWSxCOLS with both at least 2" in capsys.readouterr().err


def test_budget_line_says_when_several_solutions_are_known(tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("0" * 81 + "\n")
    out = tmp_path / "out.txt"
    main(["solve", str(source), "-o", str(out), "--limit", "9999", "--max-nodes", "60"])
    line = out.read_text()
    count_found = sudoku.solve(np.zeros((1, 81), np.uint8), limit=9999, max_nodes=60).counts[0]
    assert count_found >= 2
    assert f"# BUDGET (not unique: {count_found} solutions found; count not finished)" in line


def test_version_and_puzzle_grammar(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("numbadlx ")
    source = tmp_path / "in.txt"
    source.write_text(_lines(random_puzzles(1, seed=2)))
    assert main(["solve", str(source), "-o", str(tmp_path / "o.txt")]) == EXIT_OK
    assert "1 puzzle from" in capsys.readouterr().err


# ------------------------------------------------------------------ outputs
def test_output_over_the_input_is_refused_also_through_a_symlink(tmp_path, capsys):
    source = tmp_path / "in.txt"
    text = _lines(random_puzzles(2, seed=3))
    source.write_text(text)
    link = tmp_path / "link.txt"
    link.symlink_to(source)
    for output in (source, link):
        assert main(["solve", str(source), "-o", str(output)]) == EXIT_USAGE
        assert "is the input file" in capsys.readouterr().err
    assert source.read_text() == text


def test_a_second_writer_of_the_same_output_is_refused(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    source = tmp_path / "in.txt"
    source.write_text(_lines(random_puzzles(2, seed=4)))
    out = tmp_path / "out.txt"
    out.write_text("held by another run\n")
    with open(out, "r+b") as other:
        fcntl.flock(other.fileno(), fcntl.LOCK_EX)
        with pytest.raises(ValueError, match="being written by another run"):
            jobs.solve_file(source, out)
        assert out.read_text() == "held by another run\n"  # untouched
    with pytest.raises(FileExistsError, match="--overwrite"):  # it holds something
        jobs.solve_file(source, out)
    assert jobs.solve_file(source, out, overwrite=True).puzzles == 2


def test_npy_output_is_refused_not_written_as_text(tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text(_lines(random_puzzles(2, seed=6)))
    assert main(["solve", str(source), "-o", str(tmp_path / "out.npy")]) == EXIT_USAGE
    assert "not .npy" in capsys.readouterr().err
    assert not (tmp_path / "out.npy").exists()


def _run_cli(args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "numbadlx", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_standard_input_and_output_and_devices(tmp_path):
    puzzles = random_puzzles(3, seed=7)
    text = _lines(puzzles)
    piped = _run_cli(["solve", "-", "-o", "-", "--no-progress"], stdin=text)
    assert piped.returncode == EXIT_OK, piped.stderr
    solutions = sudoku.parse(piped.stdout.splitlines())
    assert grid_errors(puzzles, solutions, (3, 3)) == []
    assert "3 puzzles from standard input" in piped.stderr
    as_csv = _run_cli(["solve", "-", "--csv", "--no-progress"], stdin=text)
    assert as_csv.stdout.splitlines()[0] == "puzzle,solution,status,count,nodes,message"
    assert len(as_csv.stdout.splitlines()) == 4
    source = tmp_path / "in.txt"
    source.write_text(text)
    for device in ("/dev/null", "/dev/stdout"):
        run = _run_cli(["solve", str(source), "-o", device, "--no-progress"])
        assert run.returncode == EXIT_OK, run.stderr
        assert not os.path.exists(checkpoint_path(device))
    bad = _run_cli(["solve", "-", "--no-progress"], stdin="12\n")
    assert bad.returncode == EXIT_USAGE and "<stdin>:1:" in bad.stderr


# ------------------------------------------------------------------ resume
def _interrupted_run(tmp_path, monkeypatch, **options):
    """A run killed after its first chunk: output and checkpoint of one chunk."""
    from numbadlx import jobs

    source = tmp_path / "in.txt"
    source.write_text(_lines(random_puzzles(40, seed=8)))
    out = tmp_path / "out.txt"
    calls = []
    real = sudoku.solve

    def solve_then_die(*args, **kwargs):
        if calls:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(sudoku, "solve", solve_then_die)
    summary = jobs.solve_file(source, out, chunk_size=10, **options)
    monkeypatch.setattr(sudoku, "solve", real)
    assert summary.interrupted and summary.puzzles == 10
    return source, out


def test_resume_refuses_an_input_edited_in_place_at_the_same_size(tmp_path, monkeypatch):
    source, out = _interrupted_run(tmp_path, monkeypatch)
    data = bytearray(source.read_bytes())
    stat = os.stat(source)
    first = data.index(b"\n")
    data[:first] = sudoku.format_lines(random_puzzles(1, seed=99))[0].encode()  # same size
    source.write_bytes(bytes(data))
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # even with the old mtime
    with pytest.raises(ValueError, match="not those already solved"):
        jobs.solve_file(source, out, chunk_size=10, resume=True)
    os.utime(source)  # a new mtime alone is refused too
    with pytest.raises(ValueError, match="modified after the checkpoint"):
        jobs.solve_file(source, out, chunk_size=10, resume=True)


def test_resume_refuses_another_timeout(tmp_path, monkeypatch):
    source, out = _interrupted_run(tmp_path, monkeypatch, timeout=30.0)
    with pytest.raises(ValueError, match="other options"):
        jobs.solve_file(source, out, chunk_size=10, resume=True)
    summary = jobs.solve_file(source, out, chunk_size=10, resume=True, timeout=30.0)
    assert summary.puzzles == 40 and summary.resumed_puzzles == 10


# ------------------------------------------------------------------ threads
def test_two_threads_solving_under_the_workqueue_layer_do_not_abort():
    # the solver's threads are Python threads over one kernel: Numba's threading layer
    # (whose workqueue aborts on two parallel calls at once) is never started
    code = textwrap.dedent(
        """
        import threading
        import numba, numpy as np
        from numbadlx import sudoku
        # more puzzles than one thread is given (two threads share them)
        puzzles = np.tile(sudoku.random_puzzles(400, seed=1), (6, 1))
        results = []
        def work():
            for _ in range(5):
                results.append(sudoku.solve(puzzles, threads=2))
        threads = [threading.Thread(target=work) for _ in range(2)]
        for t in threads: t.start()
        for t in threads: t.join()
        try:
            numba.threading_layer()
            raise AssertionError("a threading layer was started")
        except ValueError:
            pass
        grids = [r.solutions for r in results]
        assert len(grids) == 10 and all(np.array_equal(g, grids[0]) for g in grids)
        print("ok")
        """
    )
    env = dict(os.environ, NUMBA_THREADING_LAYER="workqueue", NUMBA_NUM_THREADS="2")
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]


# ------------------------------------------------------------------ found in review
def test_an_iterator_of_options_is_read_once_and_whole():
    assert ExactCover(row for row in [[0], [1], [0, 1]]).count() == 2
    assert count(iter([[0], [1], [0, 1]])) == 2


def test_bytes_without_a_newline_name_a_file_and_bools_are_not_indices():
    with pytest.raises(FileNotFoundError):
        ExactCover.from_dlx(b"no-such-problem.dlx")
    problem = ExactCover([[0], [1], [0, 1]])
    with pytest.raises(ValueError, match="entry 1 is True"):
        verify(problem, [0, True])


def test_first_index_errors_name_first_index():
    with pytest.raises(ValueError, match="first_index must be in 0"):
        sudoku.rate(["0200004034000000"], first_index=-5)
    with pytest.raises(TypeError, match="first_index must be an integer"):
        sudoku.rate(["0200004034000000"], first_index=1.5)
    with pytest.raises(ValueError, match="seed must be in 0"):
        sudoku.rate(["0200004034000000"], seed=-5)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: sudoku.generate(True, 4), TypeError, "n must be an integer, got True"),
        (lambda: sudoku.random_grids(True, 4), TypeError, "n must be an integer, got True"),
        (lambda: sudoku.random_grids(np.bool_(True), 4), TypeError, "n must be an integer"),
        (lambda: sudoku.generate(1, 4, first_index=True), TypeError, "first_index must be an"),
        (lambda: sudoku.generate(1, 4, clues=(True, 9), minimal=False), ValueError, "clues"),
        (lambda: sudoku.generate(1, 4, attempts=True), ValueError, "attempts must be a pos"),
        (lambda: sudoku.solve(["0200004034000000"], limit=True), ValueError, "limit must be"),
        (lambda: sudoku.solve(["0200004034000000"], threads=True), TypeError, "threads must"),
        (lambda: sudoku.solve(["0200004034000000"], max_nodes=True), ValueError, "max_nodes"),
        (lambda: sudoku.solve(["0200004034000000"], chunk=True), ValueError, "chunk must be a"),
        (lambda: sudoku.rate(["0200004034000000"], isomorphs=True), ValueError, "isomorphs"),
        (lambda: sudoku.rate(["0200004034000000"], first_index=True), TypeError, "first_index"),
        (lambda: ExactCover(np.eye(3)).count(threads=True), ValueError, "threads must be a pos"),
        (lambda: ExactCover(np.eye(3)).count(limit=True), ValueError, "limit must be a pos"),
        (lambda: jobs.rate_file("-", isomorphs=True), ValueError, "isomorphs must be a pos"),
    ],
)
def test_bools_are_not_counts(call, error, message):
    with pytest.raises(error, match=message):
        call()


def _one_line_file():
    import tempfile

    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "p.txt")
    with open(path, "w") as handle:
        handle.write("0200004034000000\n")
    return path


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: problems.n_queens(True), ValueError, "n must be a positive integer, got True"),
        (lambda: problems.n_queens(np.bool_(True)), ValueError, "n must be a positive"),
        (lambda: problems.langford(True), ValueError, "n must be a positive integer"),
        (lambda: problems.pentominoes(6.0, 10), ValueError, "rows must be a positive integer"),
        (lambda: problems.k_per_row_and_column(True, 1), ValueError, "n must be a positive"),
        (lambda: problems.k_per_row_and_column(4, True), ValueError, "k must be a positive"),
        (
            lambda: problems.k_per_row_and_column(4, 1, max_per_diagonal=True),
            ValueError,
            "max_per_diagonal must be a positive",
        ),
        (lambda: problems.domino_tilings(True, 2), ValueError, "rows must be a positive"),
        (lambda: problems.domino_tilings(2, 2, horizontal=True), ValueError, "horizontal"),
        (lambda: problems.domino_tilings(2, 2, horizontal=(0, 1.5)), ValueError, "horizontal"),
        (lambda: problems.tromino_tilings(True, 3), ValueError, "rows must be a positive"),
        (lambda: problems.word_square(True), ValueError, "size must be an integer >= 2"),
        (
            lambda: list(sudoku.iter_chunks(_one_line_file(), chunk_size=True)),
            TypeError,
            "chunk_size must be an integer, got True",
        ),
        (
            lambda: sudoku.formats.line_ranges(_one_line_file(), True),
            TypeError,
            "chunk_bytes must be an integer",
        ),
        (lambda: jobs.rate_file(_one_line_file(), seed=True), TypeError, "seed must be an int"),
        (lambda: jobs.rate_file(_one_line_file(), seed=1.5), TypeError, "seed must be an int"),
        (lambda: jobs.solve_file(_one_line_file(), limit=True), ValueError, "limit must be a"),
        (lambda: jobs.solve_file(_one_line_file(), chunk_size=True), ValueError, "chunk_size"),
        (lambda: jobs.LocalExecutor(True), ValueError, "chunk_size must be a positive"),
        (lambda: jobs.DaskExecutor(chunk_bytes=True), ValueError, "chunk_bytes must be a"),
        (lambda: jobs.generate_file(2, None, size=4, chunk_size=True), ValueError, "chunk_size"),
        (lambda: sudoku.random_puzzles(2, 4, seed=True), TypeError, "seed must be an integer"),
        (lambda: sudoku.random_puzzles(True, 4), TypeError, "count must be an integer"),
        (lambda: ExactCover(np.eye(3)).trace(max_events=True), ValueError, "max_events must"),
        (lambda: ExactCover(np.eye(3)).trace(limit=True), ValueError, "limit must be a pos"),
    ],
)
def test_bools_and_fractions_are_not_sizes_or_seeds(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("name", ["nonexistent_file.txt", "puzzles", "x" * 81, "0" * 80])
def test_a_string_that_names_no_file_and_is_no_puzzle_line_is_a_missing_file(
    tmp_path, monkeypatch, name
):
    monkeypatch.chdir(tmp_path)
    calls = [sudoku.parse, sudoku.solve, sudoku.count_solutions, sudoku.rate, sudoku.parse_chunk]
    for call in calls:
        with pytest.raises(FileNotFoundError, match="no such file") as info:
            call(name)
        assert info.value.filename == name
    # a file of that name is read; a line break makes it text (and an error in it)
    (tmp_path / name).write_text("0200004034000000\n")
    assert sudoku.count_solutions(name) == 1
    with pytest.raises(ValueError):
        sudoku.parse(name + "x\n")


@pytest.mark.parametrize(
    "line",
    [
        "0200004034000000",
        ".2....4.34......",
        "0200004034000000  # a comment",
        "0200004034000000;1.2",
        " ".join("0200004034000000"),
        ",".join("0200004034000000"),
        "0" * 81,
        "G" + "0" * 255,
    ],
)
def test_a_well_formed_puzzle_line_is_still_a_puzzle(tmp_path, monkeypatch, line):
    monkeypatch.chdir(tmp_path)
    assert sudoku.parse(line).shape[0] == 1
    assert len(sudoku.solve(line, limit=1)) == 1


def test_an_infinite_timeout_means_no_deadline(tmp_path):
    result = sudoku.solve(np.zeros((1, 16), dtype=np.uint8), timeout=float("inf"), limit=300)
    assert result.counts.tolist() == [288]
    source = tmp_path / "in.txt"
    source.write_text(_lines(random_puzzles(2, seed=11)))
    assert main(["solve", str(source), "-o", str(tmp_path / "o.txt"), "--timeout", "inf"]) == 0


def test_standard_output_appended_to_the_input_is_refused(tmp_path):
    source = tmp_path / "loop.txt"
    text = _lines(random_puzzles(3, seed=12))
    source.write_text(text)
    with open(source, "a") as appended:
        run = subprocess.run(
            [sys.executable, "-m", "numbadlx", "solve", str(source), "--no-progress"],
            stdout=appended,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert run.returncode == EXIT_USAGE and "standard output is the input file" in run.stderr
    assert source.read_text() == text


def test_dev_stdout_into_a_file_is_a_stream_not_a_file_to_truncate(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(_lines(random_puzzles(2, seed=13)))
    log = tmp_path / "log.txt"
    log.write_text("an earlier line\n")
    with open(log, "a") as appended:
        run = subprocess.run(
            [sys.executable, "-m", "numbadlx", "solve", str(source), "-o", "/dev/stdout"],
            stdout=appended,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert run.returncode == EXIT_OK, run.stderr
    lines = log.read_text().splitlines()
    assert lines[0] == "an earlier line" and len(lines) == 3
    assert not os.path.exists("/dev/stdout.progress")


def test_rate_refuses_to_write_over_its_input_and_quotes_its_csv(tmp_path, capsys):
    source = tmp_path / "in.txt"
    line = sudoku.format_lines(random_puzzles(1, seed=14))[0]
    source.write_text(f"{line};a, b\n")
    assert main(["rate", str(source), "-o", str(source)]) == EXIT_USAGE
    assert "is the input file" in capsys.readouterr().err
    assert source.read_text() == f"{line};a, b\n"
    out = tmp_path / "rated.csv"
    assert main(["rate", str(source), "-o", str(out), "--no-progress"]) == EXIT_OK
    import csv as csv_module

    rows = list(csv_module.reader(out.read_text().splitlines()))
    assert rows[0] == ["puzzle", "tries", "logic", "hardest"]
    assert rows[1][0] == f"{line};a, b" and len(rows[1]) == 4
    assert main(["rate", str(tmp_path)]) == EXIT_USAGE
    assert "is a directory" in capsys.readouterr().err
