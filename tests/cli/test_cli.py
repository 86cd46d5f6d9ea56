import hashlib
import json
import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.cli import (
    EXIT_INTERRUPTED,
    EXIT_NO_ANSWER,
    EXIT_OK,
    EXIT_UNFINISHED,
    EXIT_USAGE,
    main,
)
from numbadlx.sudoku import Status, random_puzzles
from tests.helpers import grid_errors


def _exit_code(statuses):
    """The exit code the CLI documents for a run whose puzzles got these statuses."""
    if {Status.INVALID, Status.NO_SOLUTION} & set(statuses):
        return EXIT_NO_ANSWER
    return EXIT_UNFINISHED if Status.BUDGET in statuses else EXIT_OK


def _write_puzzles(path, puzzles, extra=()):
    lines = sudoku.format_lines(puzzles) + list(extra)
    path.write_text("\n".join(lines) + "\n")
    return lines


def test_solve_file_to_text_in_input_order(tmp_path, capsys):
    puzzles = random_puzzles(40, seed=5)
    source = tmp_path / "in.txt"
    _write_puzzles(source, puzzles)
    out = tmp_path / "out.txt"
    assert main(["solve", str(source), "-o", str(out), "--chunk-size", "7"]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 40
    solutions = sudoku.parse(lines)
    assert grid_errors(puzzles, solutions, (3, 3)) == []
    err = capsys.readouterr().err
    assert "40 puzzles" in err and "UNIQUE 40" in err
    assert not (tmp_path / "out.txt.progress").exists()


def test_bad_lines_get_a_status_and_the_rest_is_solved(tmp_path):
    puzzles = random_puzzles(5, seed=6)
    clash = sudoku.format_line(puzzles[0])
    clash = clash[0] + clash[0] + clash[2:] if clash[0] != "0" else "11" + clash[2:]
    lines = sudoku.format_lines(puzzles)
    source = tmp_path / "mixed.txt"
    source.write_text("\n".join([lines[0], "12x4", lines[1], clash, lines[2]]) + "\n")
    out = tmp_path / "out.txt"
    assert main(["solve", str(source), "-o", str(out)]) == EXIT_NO_ANSWER  # bad lines
    got = out.read_text().splitlines()
    assert len(got) == 5
    assert "# INVALID" in got[1] and "mixed.txt:2" in got[1]
    assert got[3].endswith("# INVALID: givens clash")
    good = sudoku.parse([got[0], got[2], got[4]])
    assert grid_errors(puzzles[:3], good, (3, 3)) == []


def test_csv_output(tmp_path):
    puzzles = random_puzzles(3, seed=8)
    puzzles[2, :] = 0
    source = tmp_path / "in.txt"
    _write_puzzles(source, puzzles)
    out = tmp_path / "out.csv"
    assert main(["solve", str(source), "-o", str(out), "--limit", "2"]) == 0
    rows = out.read_text().splitlines()
    assert rows[0] == "puzzle,solution,status,count,nodes,message"
    assert [r.split(",")[2] for r in rows[1:]] == ["UNIQUE", "UNIQUE", "MULTIPLE"]


def test_resume_after_an_interruption_gives_identical_output(tmp_path):
    puzzles = random_puzzles(60, seed=9)
    source = tmp_path / "in.txt"
    _write_puzzles(source, puzzles)
    full = tmp_path / "full.txt"
    assert main(["solve", str(source), "-o", str(full), "--chunk-size", "10"]) == 0
    # Simulate a run killed after three chunks: output has 30 lines plus half a line,
    # and a checkpoint saying 30 lines were committed.
    part = tmp_path / "part.txt"
    text = full.read_text()
    lines = text.splitlines(keepends=True)
    committed = "".join(lines[:30])
    part.write_text(committed + lines[30][:20])
    raw = source.read_bytes()
    end_byte = len(b"".join(raw.splitlines(keepends=True)[:30]))
    (tmp_path / "part.txt.progress").write_text(
        json.dumps(
            {
                "input": str(source.resolve()),
                "input_size": len(raw),
                "end_byte": end_byte,
                "puzzles": 30,
                "output_bytes": len(committed.encode()),
                "tally": [0, 30, 0, 0, 0, 0, 0],
                # the input's fingerprint: its mtime and the hash of the bytes solved
                "input_mtime_ns": os.stat(source).st_mtime_ns,
                "input_sha256": hashlib.sha256(raw[:end_byte]).hexdigest(),
                # and the hash of the output bytes it vouches for
                "output_sha256": hashlib.sha256(committed.encode()).hexdigest(),
            }
        )
    )
    assert main(["solve", str(source), "-o", str(part), "--resume", "--chunk-size", "10"]) == 0
    assert part.read_bytes() == full.read_bytes()


def test_resume_refuses_a_checkpoint_of_another_input(tmp_path):
    source = tmp_path / "in.txt"
    _write_puzzles(source, random_puzzles(2, seed=1))
    (tmp_path / "o.txt").write_text("")
    (tmp_path / "o.txt.progress").write_text(
        json.dumps(
            {
                "input": "/elsewhere.txt",
                "input_size": 1,
                "end_byte": 0,
                "puzzles": 0,
                "output_bytes": 0,
                "tally": [0] * 7,
            }
        )
    )
    assert main(["solve", str(source), "-o", str(tmp_path / "o.txt"), "--resume"]) == 2


def test_default_sample_and_errors(capsys):
    assert main(["solve", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "1000 puzzles" in err and "UNIQUE 1000" in err
    assert main(["solve", "/no/such/file.txt"]) == 2
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "--limit", "0"])


@pytest.mark.parametrize(
    "argv, command, hint",
    [
        (["solve", "f", "--output-fmt", "csv"], "solve", "did you mean --output-format?"),
        (["rate", "f", "--isomorps=3"], "rate", "did you mean --isomorphs?"),
        (["count", "f", "--zzz"], "count", None),
    ],
)
def test_a_wrong_option_gets_its_commands_usage_and_the_nearest_option(argv, command, hint, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"usage: numbadlx {command} [-h]"), err
    assert f"numbadlx {command}: error: unrecognized arguments: {argv[2]}" in err
    assert (hint in err) if hint else "did you mean" not in err


def test_a_run_stopped_while_compiling_gives_no_rate_and_no_compiled_line(
    tmp_path, capsys, monkeypatch
):
    from numbadlx.jobs import _jobs

    def stopped(self, n, puzzles=None, rules=None):
        raise KeyboardInterrupt  # Ctrl-C while the kernels compile, before any solving

    monkeypatch.setattr(_jobs.SolveJob, "warm", stopped)
    source = tmp_path / "in.txt"
    source.write_text("\n".join(sudoku.format_lines(random_puzzles(3, seed=1))) + "\n")
    code = main(["solve", str(source), "-o", str(tmp_path / "out.txt"), "--no-progress"])
    assert code == EXIT_INTERRUPTED
    err = capsys.readouterr().err
    assert "interrupted" in err and "puzzles/s" not in err and "compiled" not in err, err


def test_count_dlx(tmp_path, capsys):
    path = tmp_path / "knuth.dlx"
    path.write_text("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
    assert main(["count", str(path), "--show", "1"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\n1 solution\n") and "a d f" in out
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na q\n")
    assert main(["count", str(bad)]) == 2
    assert "bad.dlx:2:3: unknown item 'q'" in capsys.readouterr().err
    from numbadlx import problems

    queens = tmp_path / "q.dlx"
    queens.write_text(problems.pentominoes(6, 10).to_dlx())
    assert main(["count", str(queens), "--max-nodes", "1000"]) == 3
    assert "at least" in capsys.readouterr().out


def test_python_m_entry_point(tmp_path):
    source = tmp_path / "in.txt"
    _write_puzzles(source, random_puzzles(2, seed=2))
    done = subprocess.run(
        [sys.executable, "-m", "numbadlx", "solve", str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    solutions = sudoku.parse(done.stdout.splitlines())
    assert solutions.shape == (2, 81) and np.all(solutions > 0)


# ------------------------------------------------ the library under the CLI: jobs
def test_stream_solve_file_writes_what_the_cli_writes(tmp_path, capsys):
    from numbadlx import jobs

    puzzles = random_puzzles(30, seed=21)
    puzzles[::4, :4] = 0  # some MULTIPLE
    source = tmp_path / "in.txt"
    _write_puzzles(source, puzzles, extra=["12x4"])
    for name in ("cli.txt", "cli.csv"):
        assert (
            main(
                [
                    "solve",
                    str(source),
                    "-o",
                    str(tmp_path / name),
                    "--chunk-size",
                    "7",
                    "--no-progress",
                ]
            )
            == EXIT_NO_ANSWER  # the bad line
        )
    capsys.readouterr()
    calls = []
    summary = jobs.solve_file(
        source,
        tmp_path / "lib.txt",
        chunk_size=7,
        progress=lambda end, done: calls.append((end, done)),
    )
    assert (tmp_path / "lib.txt").read_bytes() == (tmp_path / "cli.txt").read_bytes()
    assert isinstance(summary, jobs.FileSummary) and not summary.interrupted
    assert summary.puzzles == 31 and summary.ranges == 5 and summary.resumed_puzzles == 0
    assert summary.tally["INVALID"] == 1 and sum(summary.tally.values()) == 31
    assert list(summary.tally) == [s.name for s in sudoku.Status if s.name in summary.tally]
    assert summary.end_byte == summary.input_size == source.stat().st_size
    assert [done for _, done in calls] == [7, 14, 21, 28, 31]  # after each commit
    jobs.solve_file(source, tmp_path / "lib.csv", chunk_size=7)  # CSV from the name
    assert (tmp_path / "lib.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    assert not list(tmp_path.glob("*.progress"))
    with pytest.raises(ValueError, match="no such file"):
        jobs.solve_file(tmp_path / "missing.txt", tmp_path / "x.txt")


def test_result_lines_name_every_status(tmp_path):
    from numbadlx import jobs
    from numbadlx.sudoku import Status, iter_chunks

    source = tmp_path / "in.txt"
    lines_in = ["0200004034000000", "1100000000000000", "0" * 16, "12x4", "0230000010004000"]
    source.write_text("\n".join(lines_in) + "\n")
    chunk = next(iter_chunks(source, chunk_size=10))
    result = sudoku.solve(chunk.puzzles, limit=2, invalid=chunk.bad)
    lines = jobs.result_lines(chunk, result, csv=False)
    assert lines[0] == "4213134234212134"
    assert lines[1] == "1100000000000000  # INVALID: givens clash"
    assert lines[2].endswith("  # MULTIPLE (first of at least 2)")
    assert lines[3].startswith("12x4  # INVALID: ") and "in.txt:4" in lines[3]
    assert lines[4] == "0230000010004000  # NO_SOLUTION"
    rows = jobs.result_lines(chunk, result, csv=True)
    assert [row.split(",")[2] for row in rows] == [
        Status.UNIQUE.name,
        Status.INVALID.name,
        Status.MULTIPLE.name,
        Status.INVALID.name,
        Status.NO_SOLUTION.name,
    ]
    assert jobs.CSV_HEADER == "puzzle,solution,status,count,nodes,message"
    assert jobs.result_text(chunk, result) == ("\n".join(lines) + "\n").encode()
    assert jobs.count_statuses(result.status).tolist() == [0, 1, 0, 1, 1, 2, 0]


def test_cli_writes_the_documented_line_for_every_status(tmp_path, capsys):
    """Every status a run can write (all but NOT_RUN), each from an input that really
    gets it, as the exact text line and CSV row of ``numbadlx solve``."""
    from numbadlx.sudoku import Status, iter_chunks

    first = sudoku.format_line(sudoku.solve(["0" * 16], limit=1).solutions[0])
    assert grid_errors(sudoku.parse(["0" * 16]), sudoku.parse([first]), (2, 2)) == []
    empty9 = "0" * 81
    # (options, [(input line, status, text line)]), one run each
    runs = [
        (
            [],
            [
                ("0200004034000000", Status.UNIQUE, "4213134234212134"),
                ("0" * 16, Status.MULTIPLE, f"{first}  # MULTIPLE (first of at least 2)"),
                ("0230000010004000", Status.NO_SOLUTION, "0230000010004000  # NO_SOLUTION"),
                (
                    "1100000000000000",
                    Status.INVALID,
                    "1100000000000000  # INVALID: givens clash",
                ),
                (
                    "12x4",
                    Status.INVALID,
                    f"12x4  # INVALID: {tmp_path / 'in.txt'}:5:5: line has 4 cells, expected 16",
                ),
            ],
        ),
        (
            ["--limit", "1"],
            [
                ("0200004034000000", Status.SOLVED, "4213134234212134"),
                ("0" * 16, Status.SOLVED, first),
            ],
        ),
        (["--max-nodes", "1"], [(empty9, Status.BUDGET, f"{empty9}  # BUDGET")]),
        (
            ["--limit", "1000", "--max-nodes", "30"],
            [
                (
                    "0" * 16,
                    Status.BUDGET,
                    f"{first}  # BUDGET (not unique: 13 solutions found; count not finished)",
                )
            ],
        ),
        (
            ["--limit", "1000", "--max-nodes", "8"],
            [("0" * 16, Status.BUDGET, f"{first}  # BUDGET (a solution; count not finished)")],
        ),
    ]
    seen = set()
    for options, cases in runs:
        source = tmp_path / "in.txt"
        source.write_text("\n".join(line for line, _, _ in cases) + "\n")
        for name in ("out.txt", "out.csv"):
            command = ["solve", str(source), "-o", str(tmp_path / name), "--no-progress"]
            command.append("--overwrite")  # the file of the run before is replaced
            assert main(command + options) == _exit_code([status for _, status, _ in cases])
        capsys.readouterr()
        # count and nodes of the CSV rows: those of the library on the same puzzles
        chunk = next(iter_chunks(source, chunk_size=10))
        budget = dict(zip(options[::2], map(int, options[1::2])))
        result = sudoku.solve(
            chunk.puzzles,
            limit=budget.get("--limit", 2),
            max_nodes=budget.get("--max-nodes"),
            invalid=chunk.bad,
        )
        assert [Status(s) for s in result.status] == [status for _, status, _ in cases]
        text = (tmp_path / "out.txt").read_text().splitlines()
        assert text == [line for _, _, line in cases]
        rows = (tmp_path / "out.csv").read_text().splitlines()
        assert rows[0] == "puzzle,solution,status,count,nodes,message"
        for k, (line, status, text) in enumerate(cases):
            count = int(result.counts[k])
            solution = sudoku.format_line(result.solutions[k]) if count else ""
            reason = text.partition("  # INVALID: ")[2]  # the text line's reason
            if "," in reason:
                reason = f'"{reason}"'
            assert rows[1 + k] == (
                f"{line},{solution},{status.name},{count},{result.nodes[k]},{reason}"
            )
            seen.add(status)
    assert seen == set(Status) - {Status.NOT_RUN}


def test_progress_bar_is_tqdm(tmp_path, capsys):
    pytest.importorskip("tqdm")
    source = tmp_path / "in.txt"
    _write_puzzles(source, random_puzzles(20, seed=3))
    assert (
        main(
            ["solve", str(source), "-o", str(tmp_path / "o.txt"), "--progress", "--chunk-size", "5"]
        )
        == 0
    )
    err = capsys.readouterr().err
    # it counts puzzles, with a rate and an ETA
    assert "solving: 100%" in err and "20/20" in err and "puzzles/s" in err
    assert main(["solve", str(source), "-o", str(tmp_path / "o2.txt"), "--no-progress"]) == 0
    assert "solving" not in capsys.readouterr().err


@pytest.mark.parametrize("name", ["X.NPY", "made.Npy"])
def test_generate_writes_exactly_the_npy_file_it_names(name, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["generate", "-n", "3", "--size", "4", "--seed", "1", "-o", name, "--no-progress"]
    assert main(args) == EXIT_OK
    assert sorted(os.listdir(tmp_path)) == [name]  # no NAME.npy beside it
    np.testing.assert_array_equal(np.load(name), sudoku.generate(3, 4, seed=1))
    assert f"wrote {name}\n" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [["--csv"], ["-o", "out.csv"]])
@pytest.mark.parametrize("kind", ["grid", "text"])
def test_csv_with_another_output_format_is_refused(extra, kind, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_text("0200004034000000\n")
    args = ["solve", "in.txt", "--output-format", kind, *extra, "--no-progress"]
    if extra == ["--csv"]:
        assert main(args) == EXIT_USAGE
        captured = capsys.readouterr()
        assert "--csv" in captured.err and kind in captured.err and not captured.out
    else:  # a .csv name with an explicit format: the format says what is written
        assert main(args) == EXIT_OK
        assert "," not in (tmp_path / "out.csv").read_text()
    assert sorted(os.listdir(tmp_path)) == ["in.txt"] + (["out.csv"] if extra != ["--csv"] else [])


def test_csv_and_grid_are_refused_together_by_the_file_job(tmp_path):
    from numbadlx import jobs

    source = tmp_path / "in.txt"
    source.write_text("0200004034000000\n")
    with pytest.raises(ValueError, match="grid"):
        jobs.solve_file(source, tmp_path / "out.txt", csv=True, grid=True)
    with pytest.raises(ValueError, match="grid"):
        jobs.solve_file(source, tmp_path / "out.csv", grid=True)
    assert sorted(os.listdir(tmp_path)) == ["in.txt"]


@pytest.mark.parametrize("command", ["solve", "rate"])
def test_format_npy_on_a_text_file_says_it_is_not_an_npy_file(command, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("0200004034000000\n")
    assert main([command, str(source), "--format", "npy", "--no-progress"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "not an .npy file" in err and str(source) in err
    assert "allow_pickle" not in err and "pickle" not in err


def test_messages_say_one_puzzle_one_option(tmp_path, capsys):
    assert main(["generate", "-n", "1", "--size", "4", "--seed", "1", "--no-progress"]) == 0
    err = capsys.readouterr().err
    # (a rate such as "661 puzzles/s" holds "1 puzzles" too: a count stands alone)
    assert "1 puzzle of 4x4" in err and not re.search(r"(?<![\d.,])1 puzzles", err)
    path = tmp_path / "one.dlx"
    path.write_text("a | b\na\n")
    assert main(["count", str(path)]) == 0
    err = capsys.readouterr().err
    assert "1 option, 1 primary and 1 secondary item" in err
    assert "2 nodes, 1 update," in err
    source = tmp_path / "in.txt"
    _write_puzzles(source, random_puzzles(1, 4, seed=2))
    assert main(["solve", str(source), "-o", str(tmp_path / "o.txt"), "--threads", "1"]) == 0
    err = capsys.readouterr().err
    assert "1 puzzle from" in err and ", 1 thread)" in err and "threads 1" not in err


@pytest.mark.parametrize(
    ("command", "codes", "foreign"),
    [
        ("count", {"0", "2", "3", "130"}, ["INVALID", "--resume", "--dask", "--chunk-size"]),
        ("rate", {"0", "1", "2", "130"}, ["BUDGET", "DLX", "--max-nodes"]),
        ("generate", {"0", "2", "130"}, ["INVALID", "BUDGET", "DLX", "--max-nodes"]),
        ("solve", {"0", "1", "2", "3", "130"}, ["DLX", "the count"]),
    ],
)
def test_each_help_lists_its_own_exit_codes_and_options(command, codes, foreign, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    listed = text.split("exit codes:\n", 1)[1]
    assert {line.split()[0] for line in listed.splitlines() if line[:3].strip()} == codes
    for word in foreign:
        assert word not in text, word


def _warm_up_with(monkeypatch, groups, live, processes=1):
    """``numbadlx warm-up`` over ``groups`` (name, function), its standard error a
    terminal or not (``live``), on ``processes``: what it wrote."""
    import io
    import types

    from numbadlx import _compiling
    from numbadlx.cli import _warm_up

    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(_warm_up, "_groups", lambda everything: groups(stream))
    monkeypatch.setattr(_compiling, "interactive", lambda _: live)
    monkeypatch.delenv("NUMBADLX_QUIET", raising=False)
    args = types.SimpleNamespace(all=False, processes=processes)
    assert _warm_up.warm_up_command(args) == EXIT_OK
    return stream.getvalue()


def test_warm_up_says_how_long_up_front_and_each_group_as_it_starts(monkeypatch):
    text = _warm_up_with(monkeypatch, lambda _: [("first", lambda: None), ("second", int)], False)
    lines = text.splitlines()
    assert re.match(r"numbadlx: warming up 2 kernel groups: about [\d.-]+ minutes", lines[0])
    assert "--all, every engine and kernel, " in lines[0]
    assert lines[1] == "[1/2] first ..."
    assert re.fullmatch(r"\[1/2\] first: loaded from the cache in \d+\.\d s", lines[2])
    assert lines[3] == "[2/2] second ..." and "\r" not in text


def test_warm_up_spins_on_a_terminal_while_a_group_runs(monkeypatch):
    def groups(stream):
        def slow():  # runs until the spinner has drawn its line once
            deadline = time.monotonic() + 30
            while "\r[1/1] slow |" not in stream.getvalue() and time.monotonic() < deadline:
                time.sleep(0.01)

        return [("slow", slow)]

    text = _warm_up_with(monkeypatch, groups, True)
    assert "\r[1/1] slow | 0 s" in text
    assert re.search(r"\r\x1b\[K\[1/1\] slow: loaded from the cache in \d+\.\d s\n", text), text


def test_warm_up_runs_groups_at_once_in_worker_processes(monkeypatch):
    def groups(_):
        return [(name, lambda: time.sleep(0.3)) for name in ("first", "second", "third")]

    text = _warm_up_with(monkeypatch, groups, False, processes=3)
    lines = text.splitlines()
    for k, name in enumerate(("first", "second", "third"), 1):
        assert f"[{k}/3] {name} ..." in lines, text
        assert any(
            re.fullmatch(rf"\[{k}/3\] {name}: loaded from the cache in 0\.\d s", x) for x in lines
        ), text
    assert "kernel groups ready" in lines[-1] and "(3 processes at once)" in lines[-1], text


def test_warm_up_in_processes_shows_a_status_line_on_a_terminal(monkeypatch):
    def groups(_):
        return [(name, lambda: time.sleep(1.5)) for name in ("first", "second")]

    text = _warm_up_with(monkeypatch, groups, True, processes=2)
    assert re.search(r"\r\([12] groups running, \d+ s\)", text), text
    assert re.search(r"\r\x1b\[K\[\d/2\] \w+: loaded from the cache in \d\.\d s\n", text), text


def test_warm_up_stops_every_worker_when_a_group_fails(monkeypatch):
    import io
    import types

    from numbadlx.cli import _warm_up

    def fails():
        time.sleep(0.2)
        raise ValueError("no such kernel")

    groups = [("hangs", lambda: time.sleep(600)), ("fails", fails)]
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    monkeypatch.setattr(_warm_up, "_groups", lambda everything: groups)
    begin = time.monotonic()
    with pytest.raises(ValueError, match="no such kernel"):
        _warm_up.warm_up_command(types.SimpleNamespace(all=False, processes=2))
    assert time.monotonic() - begin < 60  # the hanging worker was killed, not waited for
    text = sys.stderr.getvalue()
    assert "[1/2] hangs: stopped" in text and "[2/2] fails: stopped" in text, text


def test_solve_says_which_boxes_a_size_with_a_choice_got(tmp_path, capsys):
    source = tmp_path / "ten.txt"
    _write_puzzles(source, np.zeros((2, 100), dtype=np.uint8))
    assert main(["solve", str(source), "--limit", "1", "--no-progress", "-o", os.devnull]) == 0
    assert "2 puzzles of 10x10 with boxes of 2 rows by 5 columns from " in capsys.readouterr().err
    argv = ["solve", str(source), "--limit", "1", "--box", "5x2", "--no-progress"]
    assert main([*argv, "-o", os.devnull]) == 0
    assert "with boxes of 5 rows by 2 columns" in capsys.readouterr().err
    nine = tmp_path / "nine.txt"
    _write_puzzles(nine, np.zeros((1, 81), dtype=np.uint8))
    assert main(["solve", str(nine), "--limit", "1", "--no-progress", "-o", os.devnull]) == 0
    assert "1 puzzle from " in capsys.readouterr().err


def test_warm_up_orders_and_weighs_its_groups_by_their_names():
    # the workers' bundles and their order are keyed by group name: a renamed group
    # would silently lose its place (the stepwise rater must compile before the ladder)
    from numbadlx.cli import _warm_up

    names = [name for name, _ in _warm_up._groups(True)]
    assert set(_warm_up._SECONDS) <= set(names)
    for first, then in _warm_up._TOGETHER:
        assert first in names and then in names
        bundle = next(b for b in _warm_up._bundles(names) if names.index(first) in b)
        assert bundle.index(names.index(first)) < bundle.index(names.index(then))
