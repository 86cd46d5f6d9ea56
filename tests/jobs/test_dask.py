"""numbadlx.dask on a real dask.distributed LocalCluster with worker processes."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import dask  # noqa: E402
import dask.array as da  # noqa: E402

import numbadlx  # noqa: E402
from numbadlx import BudgetExceeded, ExactCover, cli, problems, sudoku  # noqa: E402
from numbadlx import dask as ndask  # noqa: E402
from numbadlx.sudoku import parse  # noqa: E402
from tests.helpers import random_xcc  # noqa: E402


def _warm():
    """Load (or compile) the cached kernels in this process."""
    from numbadlx import problems as p
    from numbadlx import sudoku as s
    from numbadlx.core.split import count_prefix

    s.solve(np.zeros((2, 81), dtype=np.uint8), threads=1)
    count_prefix(p.n_queens(5), [0])
    return os.getpid()


@pytest.fixture(scope="module")
def client():
    _warm()  # compile here first, so the workers only load the cache
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    client.run(_warm)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def sudoku17(datasets):
    return datasets / "sudoku17.txt"


@pytest.fixture(scope="module")
def part17(sudoku17, tmp_path_factory):
    """The first 12 000 puzzles of sudoku17 (a public dataset), for the longer runs."""
    path = tmp_path_factory.mktemp("data") / "sudoku17-12000.txt"
    with open(sudoku17, "rb") as f:
        path.write_bytes(b"".join(f.readline() for _ in range(12000)))
    return path


@pytest.fixture(scope="module")
def hard_file(datasets, tmp_path_factory):
    """forum_hardest_1106 (a public dataset) 16 times over: about 6,000 puzzles that take
    a second or more on one thread, so that a worker still holds tasks when one is
    killed (sudoku17's ranges now finish in about a millisecond each)."""
    path = tmp_path_factory.mktemp("data") / "forum16.txt"
    lines = (datasets / "forum_hardest_1106.txt").read_bytes().splitlines()
    path.write_bytes(b"".join(line + b"\n" for line in lines) * 16)
    return path


_REFERENCE = {}


def _local_cli(source, output, *extra):
    """Output of the local CLI (``numbadlx solve``), computed once per input."""
    key = (str(source), os.path.splitext(str(output))[1], extra)
    if key not in _REFERENCE:
        code = cli.main(["solve", str(source), "-o", str(output), "--no-progress", *extra])
        assert code in (cli.EXIT_OK, cli.EXIT_NO_ANSWER, cli.EXIT_UNFINISHED)
        _REFERENCE[key] = output.read_bytes()
    return _REFERENCE[key]


# --------------------------------------------------------------------------- basics


def test_real_dask_is_imported_and_the_core_never_imports_it():
    # the property, not a path string (the checkout folder may well be called numbadlx)
    assert ndask._dask.__name__ == "dask" and hasattr(ndask._dask, "delayed")
    package = Path(numbadlx.__file__).resolve().parent
    assert package not in Path(ndask._dask.__file__).resolve().parents
    code = (
        "import sys, numbadlx, numbadlx.sudoku, numbadlx.cli, numbadlx.core.split, "
        "numbadlx.problems; print(sorted(m for m in sys.modules if m == 'dask' "
        "or m.startswith(('dask.', 'distributed'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_array_solve_threads_equals_local():
    grid = np.zeros((40, 16), dtype=np.int64)
    grid[:, 0] = np.arange(40) % 4 + 1
    grid[5, :2] = [1, 1]  # clashing givens: INVALID
    grid[7, 3] = 9  # out of range: INVALID
    lazy = ndask.solve(da.from_array(grid, chunks=(7, 8)), limit=5)
    assert lazy.status.chunks == ((7, 7, 7, 7, 7, 5),)
    got = lazy.compute(scheduler="threads")
    want = sudoku.solve(grid, limit=5)
    for name in ("puzzles", "solutions", "status", "counts", "nodes"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name), name)
    assert lazy.status_counts(scheduler="threads") == want.status_counts()
    with pytest.raises(ValueError, match="limit"):
        ndask.solve(grid, limit=0)
    with pytest.raises(ValueError, match="square"):
        ndask.solve(da.zeros((3, 17), dtype=np.uint8))


def test_each_block_is_solved_once(monkeypatch):
    calls = []
    real = ndask._solve_block

    def counted(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(ndask, "_solve_block", counted)
    lazy = ndask.solve(da.zeros((12, 16), dtype=np.uint8, chunks=(4, 16)), limit=1)
    result = lazy.compute(scheduler="threads")
    assert len(calls) == 3 and (result.status == sudoku.Status.SOLVED).all()


# --------------------------------------------------------------------------- cluster


@pytest.mark.slow
def test_array_solve_on_cluster_equals_local(client, datasets):
    grid = parse(datasets / "sudoku17.txt")[:6000]
    hard = parse(datasets / "hardest.txt")
    grid = np.concatenate([grid, hard])
    lazy = ndask.solve(da.from_array(grid, chunks=(500, 81)))
    got = lazy.compute()  # the active distributed client
    want = sudoku.solve(grid)
    for name in ("puzzles", "solutions", "status", "counts", "nodes"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name), name)
    kept = lazy.persist()
    assert dask.compute(kept.counts.sum())[0] == want.counts.sum()


@pytest.mark.slow
def test_split_count_on_cluster(client):
    assert ndask.count(problems.n_queens(12), depth=3, client=client) == 14200
    pentominoes = problems.pentominoes(6, 10)
    assert ndask.count(pentominoes, depth=2, client=client) == 9356


def test_solve_file_on_cluster_equals_local_cli(client, sudoku17, tmp_path):
    want = _local_cli(sudoku17, tmp_path / "local.txt")
    out = tmp_path / "dask.txt"
    summary = ndask.solve_file(sudoku17, out, scheduler=client, chunk_bytes=300_000)
    assert summary.ranges == len(ndask.line_ranges(sudoku17, 300_000)) > 10
    assert summary.puzzles == 49158 and summary.tally == {"UNIQUE": 49158}
    assert out.read_bytes() == want
    assert not os.path.exists(str(out) + ".progress")


def test_messy_file_and_csv_equal_local_cli(client, tmp_path):
    lines = [
        "# comment line",
        "1" + "0" * 15,
        "",
        "x" * 16,
        "0" * 16 + "  # tail",
        "12" + "0" * 14,
        "11" + "0" * 14,
        "1234" * 3 + "0" * 5,
    ] * 40
    source = tmp_path / "messy.txt"
    source.write_text("\r\n".join(lines))  # CR LF line ends, no final newline
    for name in ("out.txt", "out.csv"):
        want = _local_cli(source, tmp_path / f"local-{name}", "--limit", "3")
        out = tmp_path / name
        ndask.solve_file(source, out, scheduler=client, chunk_bytes=250, limit=3)
        assert out.read_bytes() == want, name
    rows = ["quizzes,solutions"] + [f"{'0' * 80}{k % 9 + 1}," for k in range(300)]
    csv_source = tmp_path / "in.csv"
    csv_source.write_text("\n".join(rows) + "\n")
    want = _local_cli(csv_source, tmp_path / "local-in.txt", "--limit", "1")
    out = tmp_path / "in-dask.txt"
    ndask.solve_file(csv_source, out, scheduler=client, chunk_bytes=2000, limit=1)
    assert out.read_bytes() == want


def test_interrupt_and_resume(client, part17, tmp_path):
    want = _local_cli(part17, tmp_path / "local.txt")
    out = tmp_path / "dask.txt"
    checkpoint = str(out) + ".progress"

    def stop_after_three(end_byte, done):
        if done >= 3 * 700:
            raise KeyboardInterrupt

    summary = ndask.solve_file(
        part17, out, scheduler=client, chunk_bytes=60_000, progress=stop_after_three
    )
    assert summary.interrupted
    saved = json.load(open(checkpoint))
    assert saved["output_bytes"] == out.stat().st_size
    assert want.startswith(out.read_bytes()) and 0 < len(out.read_bytes()) < len(want)
    with pytest.raises(ValueError, match="other options"):
        ndask.solve_file(part17, out, scheduler=client, limit=1, resume=True)
    # carry on on the cluster
    summary = ndask.solve_file(part17, out, scheduler=client, chunk_bytes=45_000, resume=True)
    assert summary.start_byte == saved["end_byte"] and summary.puzzles == 12000
    assert out.read_bytes() == want
    assert not os.path.exists(checkpoint)
    # the checkpoint is the local CLI's: a Dask run resumes locally too
    ndask.solve_file(
        part17, out, scheduler=client, chunk_bytes=60_000, progress=stop_after_three,
        overwrite=True,
    )  # fmt: skip
    assert cli.main(["solve", str(part17), "-o", str(out), "--resume", "--no-progress"]) == 0
    assert out.read_bytes() == want


def test_cli_dask_option(client, part17, tmp_path):
    want = _local_cli(part17, tmp_path / "local.csv")
    out = tmp_path / "dask.csv"
    address = client.scheduler.address
    assert (
        cli.main(
            [
                "solve",
                str(part17),
                "-o",
                str(out),
                "--dask",
                address,
                "--dask-chunk-bytes",
                "500000",
                "--no-progress",
            ]
        )
        == 0
    )
    assert out.read_bytes() == want


@pytest.mark.slow
def test_cli_dask_local_cluster(tmp_path, datasets):
    source = datasets / "top95.txt"
    want = _local_cli(source, tmp_path / "local.txt")
    out = tmp_path / "dask.txt"
    assert (
        cli.main(
            [
                "solve",
                str(source),
                "-o",
                str(out),
                "--dask",
                "local:1",
                "--dask-chunk-bytes",
                "2000",
                "--no-progress",
            ]
        )
        == 0
    )
    assert out.read_bytes() == want


@pytest.mark.slow
def test_worker_killed_mid_run(client, hard_file, tmp_path):
    want = _local_cli(hard_file, tmp_path / "local.txt")
    before = client.run(os.getpid)
    victim = sorted(before.values())[0]
    killed = []

    address = next(a for a, pid in before.items() if pid == victim)

    def kill_one(end_byte, done):
        if not killed:
            # kill it while it holds tasks: wait (briefly) for the scheduler to show
            # some on it rather than kill an idle worker
            busy, deadline = 0, time.monotonic() + 10
            while not busy and time.monotonic() < deadline:
                busy = len(client.processing().get(address, ()))
                time.sleep(0.002)
            os.kill(victim, signal.SIGKILL)
            killed.append(busy)

    out = tmp_path / "dask.txt"
    summary = ndask.solve_file(
        hard_file, out, scheduler=client, chunk_bytes=12_000, progress=kill_one
    )
    assert killed[0] > 0 and summary.ranges > 30  # it held tasks when it died
    assert out.read_bytes() == want
    client.wait_for_workers(2, timeout=60)
    after = client.run(os.getpid)
    assert victim not in after.values()


@pytest.mark.slow
def test_ctrl_c_on_the_cli_then_resume(client, part17, tmp_path):
    want = _local_cli(part17, tmp_path / "local.txt")
    out = tmp_path / "dask.txt"
    checkpoint = tmp_path / "dask.txt.progress"
    command = [
        sys.executable,
        "-m",
        "numbadlx",
        "solve",
        str(part17),
        "-o",
        str(out),
        "--dask",
        client.scheduler.address,
        "--dask-chunk-bytes",
        "8000",
        "--no-progress",
    ]
    # faulthandler: a run that does not stop is made to print where its threads are
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    run = subprocess.Popen(
        command, stderr=subprocess.PIPE, text=True, start_new_session=True, env=env
    )
    deadline = time.monotonic() + 60
    while not checkpoint.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    run.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        stderr = run.communicate(timeout=30)[1]
    except subprocess.TimeoutExpired:
        run.send_signal(signal.SIGABRT)
        pytest.fail("Ctrl-C did not stop the run:\n" + run.communicate(timeout=30)[1])
    # the stop itself takes well under a second; the slack is for a loaded machine
    assert time.monotonic() - sent < 10, stderr
    assert run.returncode == 130, stderr
    assert "--resume" in stderr
    assert json.loads(checkpoint.read_text())["output_bytes"] == out.stat().st_size
    assert want.startswith(out.read_bytes()) and out.stat().st_size < len(want)
    assert cli.main(command[3:] + ["--resume"]) == 0
    assert out.read_bytes() == want


def test_one_checkpointed_output_for_local_and_dask(tmp_path, monkeypatch):
    """A local run stopped half way resumes on Dask (threads) with the runner's notes and
    progress, and both return the runner's FileSummary."""
    from numbadlx import jobs
    from numbadlx.sudoku import random_puzzles

    assert ndask.FileSummary is jobs.FileSummary
    puzzles = random_puzzles(50, seed=31)
    puzzles[::7, :5] = 0
    source = tmp_path / "in.txt"
    source.write_text("\n".join(sudoku.format_lines(puzzles)) + "\n")
    want = _local_cli(source, tmp_path / "local.csv", "--chunk-size", "10")
    out = tmp_path / "out.csv"

    def stop(end_byte, done):
        if done >= 20:
            raise KeyboardInterrupt

    summary = jobs.solve_file(source, out, chunk_size=10, progress=stop)
    assert summary.interrupted and summary.puzzles == 20
    saved = json.loads((tmp_path / "out.csv.progress").read_text())
    calls, notes = [], []
    summary = ndask.solve_file(
        source,
        out,
        scheduler="threads:2",
        chunk_bytes=900,
        resume=True,
        progress=lambda *a: calls.append(a),
        log=notes.append,
    )
    assert isinstance(summary, jobs.FileSummary) and not summary.interrupted
    assert calls[0] == (saved["end_byte"], 20) and calls[-1] == (source.stat().st_size, 50)
    assert notes == summary.messages and "already written" in notes[0]
    assert summary.resumed_puzzles == 20 and summary.puzzles == 50
    assert out.read_bytes() == want  # one CSV header, nothing lost or repeated


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
@pytest.mark.parametrize(
    "build, expected",
    [
        (lambda: problems.k_per_row_and_column(5, 2), 2040),  # OEIS A001499
        (lambda: problems.domino_tilings(4, 4, horizontal=4), 16),
    ],
)
def test_split_count_of_multiplicities(build, expected, depth):
    problem = build()
    assert problem.bounds is not None
    assert ndask.count(problem, depth=depth, scheduler="threads") == problem.count() == expected


def test_split_count_of_random_multiplicities_is_the_plain_count():
    rng = np.random.default_rng(37)
    bounded = 0
    for trial in range(80):
        kwargs = random_xcc(rng, colours=trial % 2 == 1, bounds=True, max_items=6, max_options=10)
        problem = ExactCover(**kwargs)
        if problem.bounds is None:
            continue
        bounded += 1
        for depth in (1, 2):
            got = ndask.count(problem, depth=depth, scheduler="synchronous", tasks=3)
            assert got == problem.count(), (kwargs, depth)
    assert bounded >= 40


def test_split_count_of_multiplicities_budgets_each_part_and_prefixes_refuse_it():
    problem = problems.k_per_row_and_column(6, 2)
    with pytest.raises(BudgetExceeded):
        ndask.count(problem, depth=1, max_nodes=50, scheduler="threads")
    with pytest.raises(ValueError, match="depth must be a non-negative integer"):
        ndask.count(problem, depth=-1, scheduler="threads")
    with pytest.raises(ValueError, match="multiplicities.*numbadlx.dask.count"):
        ndask.count_prefixes(problem, [()], scheduler="synchronous")
