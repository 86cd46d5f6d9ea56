"""The local executor's pipeline (a chunk solved while the one before is written and the
next one read) and the vectorised paths it leans on: the output lines built as one byte
array, the line parser's digit rows."""

import threading

import numpy as np
import pytest

from numbadlx import jobs, sudoku
from numbadlx.sudoku import random_puzzles


def _puzzle_file(path, count=60, seed=9):
    puzzles = random_puzzles(count, seed=seed)
    puzzles[::5, :4] = 0  # some with several solutions
    path.write_text("\n".join(sudoku.format_lines(puzzles)) + "\n")
    return path


def _job_threads():
    return [t for t in threading.enumerate() if t.name == "numbadlx-job" and t.is_alive()]


def test_a_chunk_is_solved_while_the_one_before_is_committed(tmp_path, monkeypatch):
    """When chunk k is committed, chunk k + 1 is already being solved (a serial run
    would start it only after the commit, and the wait below would time out). The lines
    come out in input order, one commit per chunk, as without the pipeline."""
    source = _puzzle_file(tmp_path / "in.txt")
    full = tmp_path / "full.txt"
    jobs.solve_file(source, full, chunk_size=10, threads=1)
    started = [threading.Event() for _ in range(6)]
    committed, missed = [], []
    real = sudoku.solve

    def solve(chunk, **kwargs):
        started[int(chunk.line_numbers[0]) // 10].set()
        return real(chunk, **kwargs)

    def progress(end_byte, puzzles):
        committed.append(puzzles)
        following = puzzles // 10  # the chunk after the one just committed
        if following < 6 and not started[following].wait(30):
            missed.append(following)

    out = tmp_path / "out.txt"
    with monkeypatch.context() as patch:
        patch.setattr(sudoku, "solve", solve)
        summary = jobs.solve_file(source, out, chunk_size=10, threads=1, progress=progress)
    assert missed == []
    assert committed == [10, 20, 30, 40, 50, 60] and summary.ranges == 6
    assert out.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("name", ["out.txt", "out.csv"])
def test_ctrl_c_while_a_chunk_is_written_stops_the_next_and_resume_completes(
    tmp_path, monkeypatch, name
):
    """Ctrl-C during a commit (here from the progress call after it) while the next
    chunk is being solved: that solve is stopped, no job thread stays behind, the output
    holds the committed chunks only, and resuming gives the bytes of a full run."""
    source = _puzzle_file(tmp_path / "in.txt")
    full = tmp_path / ("full" + name[3:])
    jobs.solve_file(source, full, chunk_size=10)
    solving = threading.Event()
    release = threading.Event()
    real = sudoku.solve

    def solve(chunk, **kwargs):
        if int(chunk.line_numbers[0]) // 10 == 3:  # the fourth chunk: held until released
            solving.set()
            release.wait(30)
        return real(chunk, **kwargs)

    def progress(end_byte, puzzles):
        if puzzles == 30:
            assert solving.wait(30)  # chunk 4 is being solved while chunk 3 is committed
            raise KeyboardInterrupt

    out = tmp_path / name
    with monkeypatch.context() as patch:
        patch.setattr(sudoku, "solve", solve)
        timer = threading.Timer(0.5, release.set)  # the stop waits a moment, then lets go
        timer.start()
        try:
            summary = jobs.solve_file(source, out, chunk_size=10, progress=progress)
        finally:
            release.set()
            timer.cancel()
    assert summary.interrupted and summary.puzzles == 30 and summary.ranges == 3
    assert full.read_bytes().startswith(out.read_bytes())
    assert len(out.read_text().splitlines()) == 30 + name.endswith(".csv")  # the header
    for thread in _job_threads():
        thread.join(30)
    assert _job_threads() == []
    summary = jobs.solve_file(source, out, chunk_size=10, resume=True)
    assert summary.puzzles == 60 and out.read_bytes() == full.read_bytes()


def test_an_error_in_a_solve_ends_the_run_after_the_chunks_before_it(tmp_path, monkeypatch):
    source = _puzzle_file(tmp_path / "in.txt")
    full = tmp_path / "full.txt"
    jobs.solve_file(source, full, chunk_size=10)
    real = sudoku.solve

    def solve(chunk, **kwargs):
        if int(chunk.line_numbers[0]) // 10 == 4:
            raise MemoryError
        return real(chunk, **kwargs)

    out = tmp_path / "out.txt"
    with monkeypatch.context() as patch:
        patch.setattr(sudoku, "solve", solve)
        with pytest.raises(MemoryError):
            jobs.solve_file(source, out, chunk_size=10)
    assert out.read_bytes() == b"".join(full.read_bytes().splitlines(keepends=True)[:40])


# ------------------------------------------------------------ the vectorised paths


def _text_lines(chunk, result):
    lines = jobs.result_lines(chunk, result)
    return ("\n".join(lines) + "\n").encode("utf-8", "replace") if lines else b""


@pytest.mark.parametrize("n", [4, 9, pytest.param(16, marks=pytest.mark.slow)])
def test_result_text_is_the_joined_result_lines(tmp_path, n):
    """Every status, a note on a solved row, unreadable rows: the bytes built from the
    solutions array are those of the lines one by one."""
    puzzles = random_puzzles(40 if n < 16 else 12, n=n, seed=n)
    puzzles[::4, : n + 1] = 0  # several solutions
    puzzles[1::9, :2] = puzzles[1::9, 2:3]  # a clash
    lines = sudoku.format_lines(puzzles)
    lines[5] = lines[5][:-3]  # too short
    lines[7] = lines[7].replace("0", ".")
    lines[9] = "\u00e9" + lines[9][1:]  # not ASCII
    source = tmp_path / "in.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for limit, max_nodes in ((2, None), (1, None), (3, 4)):
        for chunk in sudoku.iter_chunks(source, chunk_size=16):
            result = sudoku.solve(chunk, limit=limit, max_nodes=max_nodes, invalid=chunk.bad)
            result.messages[3] = "a note\u2028on two lines"
            assert jobs.result_text(chunk, result) == _text_lines(chunk, result)
            assert jobs.result_text(chunk, result, csv=True).count(b"\n") == len(chunk)


def test_digit_rows_parse_as_the_lookup_table_reads_them(tmp_path):
    """Rows of digits are read by a subtraction, the others through the table: mixed
    files read as before, with the same errors."""
    rng = np.random.default_rng(3)
    rows = []
    for k in range(300):
        cells = rng.choice(list("0123456789.*-ab\xff"), 81, p=[0.09] * 10 + [0.02] * 5 + [0.0])
        if k % 3:
            cells = rng.choice(list("0123456789"), 81)
        if k % 50 == 7:
            cells[4] = "\xff"
        rows.append("".join(cells))
    source = tmp_path / "mixed.txt"
    source.write_bytes("\n".join(rows).encode("latin-1") + b"\n")
    chunk = next(iter(sudoku.iter_chunks(source, chunk_size=1000)))
    assert len(chunk) == 300
    for k, row in enumerate(rows):
        if chunk.bad[k]:
            continue
        want = [0 if ch in ".*-0" else int(ch) for ch in row]
        assert chunk.puzzles[k].tolist() == want
    bad = {k for k, row in enumerate(rows) if any(ch in "ab\xff" for ch in row)}
    assert set(np.flatnonzero(chunk.bad).tolist()) == bad
    assert all(
        "invalid character" in text or "undecodable byte" in text for _, text in chunk.errors
    )
