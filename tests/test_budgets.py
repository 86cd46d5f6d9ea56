"""Budgets: ``max_nodes`` and the wall-clock ``timeout`` give BUDGET per puzzle and never
a hang, also on pathological inputs; a timeout leaves the results of the puzzles that
finish exactly as they are without one."""

import time

import numpy as np
import pytest
from test_sudoku import grid_errors

from numbadlx import sudoku
from numbadlx.cli import main
from numbadlx.sudoku import Status, random_grid, random_puzzles

NEVER_ENDS = 10**12  # a count limit the empty 9x9 grid takes hours to reach


def _timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def _few_givens(n, givens, seed):
    grid = random_grid(n, seed=seed)
    puzzle = np.zeros(n * n, dtype=np.uint8)
    cells = np.random.default_rng(seed).choice(n * n, givens, replace=False)
    puzzle[cells] = grid[cells]
    return puzzle


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    sudoku.solve(np.zeros((1, 16), dtype=np.uint8), timeout=10)  # load the kernel once


def test_finished_puzzles_match_a_run_without_timeout():
    puzzles = np.concatenate([random_puzzles(150, seed=21), random_puzzles(30, seed=22, keep=40)])
    puzzles[::9, :5] = 0  # some with several solutions
    puzzles[3, :2] = [1, 1]  # and one clash
    for max_nodes in (None, 50):
        plain = sudoku.solve(puzzles, limit=3, max_nodes=max_nodes)
        timed = sudoku.solve(puzzles, limit=3, max_nodes=max_nodes, timeout=60)
        for name in ("status", "counts", "solutions", "nodes"):
            assert np.array_equal(getattr(plain, name), getattr(timed, name)), name
    assert Status.BUDGET in plain.status and Status.INVALID in plain.status


def test_timeout_gives_budget_to_the_hard_puzzle_and_finishes_the_easy_ones():
    easy = random_puzzles(200, seed=23)
    batch = np.concatenate([np.zeros((1, 81), dtype=np.uint8), easy])  # the hard one first
    result, seconds = _timed(sudoku.solve, batch, limit=NEVER_ENDS, timeout=1.0)
    assert seconds < 3.0
    assert result.status[0] == Status.BUDGET
    assert result.counts[0] > 0  # it did find solutions, it only could not count them all
    assert grid_errors(batch[:1], result.solutions[:1], (3, 3)) == []
    assert np.all(result.status[1:] == Status.UNIQUE)
    assert grid_errors(easy, result.solutions[1:], (3, 3)) == []


@pytest.mark.parametrize("seconds", [0.0, 0.3, 1.0])
def test_timeout_returns_on_time(seconds):
    batch = np.zeros((4, 81), dtype=np.uint8)
    result, took = _timed(sudoku.solve, batch, limit=NEVER_ENDS, timeout=seconds)
    assert seconds <= took < seconds + 1.0
    assert np.all(result.status == Status.BUDGET)
    if seconds == 0:
        assert np.all(result.nodes == 0) and np.all(result.counts == 0)


def test_timeout_keeps_invalid_rows_and_reports_progress():
    batch = random_puzzles(5, seed=24)
    batch[1, :2] = [7, 7]
    seen = []
    result = sudoku.solve(
        batch, timeout=30, progress=lambda done, total: seen.append((done, total))
    )
    assert result.status_names().tolist() == ["UNIQUE", "INVALID", "UNIQUE", "UNIQUE", "UNIQUE"]
    assert seen and seen[-1] == (5, 5)


@pytest.mark.parametrize("bad", [-1, float("nan"), "1", True])
def test_bad_timeouts_raise(bad):
    with pytest.raises(ValueError, match="timeout"):
        sudoku.solve(random_puzzles(1, seed=1), timeout=bad)


def test_one_puzzle_helpers_take_a_timeout():
    from numbadlx import BudgetExceeded

    with pytest.raises(BudgetExceeded, match="timeout=0.3") as stop:
        sudoku.count_solutions("0" * 81, timeout=0.3)
    assert stop.value.found > 0
    assert sudoku.count_solutions("0" * 16, timeout=10) == 288
    assert sudoku.solve_one("0" * 81, timeout=10) is not None


# ------------------------------------------------------------ pathological inputs
# (n, givens kept from a random grid, seed, count limit): counting every solution of an
# empty grid never ends; this 36x36 with 30 givens has no second solution found within
# a million nodes (checked below), so even limit=2 does not end in reasonable time.
PATHOLOGICAL = [
    pytest.param(25, 0, 0, NEVER_ENDS, id="empty-25x25"),
    pytest.param(16, 0, 0, NEVER_ENDS, id="empty-16x16"),
    pytest.param(36, 30, 34, 2, id="36x36-30-givens"),
]


@pytest.mark.parametrize("n, givens, seed, limit", PATHOLOGICAL)
def test_pathological_grids_return_promptly_under_max_nodes(n, givens, seed, limit):
    puzzle = _few_givens(n, givens, seed)
    result, seconds = _timed(sudoku.solve, puzzle[None, :], limit=limit, max_nodes=100_000)
    assert seconds < 5.0
    assert result.status[0] == Status.BUDGET and result.nodes[0] == 100_000


@pytest.mark.parametrize("n, givens, seed, limit", PATHOLOGICAL)
def test_pathological_grids_return_promptly_under_timeout(n, givens, seed, limit):
    puzzle = _few_givens(n, givens, seed)
    batch = np.stack([puzzle, puzzle])
    result, seconds = _timed(sudoku.solve, batch, limit=limit, timeout=1.0)
    assert 1.0 <= seconds < 3.0
    assert np.all(result.status == Status.BUDGET)
    found = result.counts > 0
    assert grid_errors(batch[found], result.solutions[found], sudoku.box_shape(n)) == []


def test_the_36x36_with_few_givens_is_really_hard():
    puzzle = _few_givens(36, 30, 34)
    result = sudoku.solve(puzzle[None, :], limit=2, max_nodes=1_000_000)
    assert result.status[0] == Status.BUDGET


def test_empty_grids_under_limit_two_finish():
    for n in (16, 25):
        result = sudoku.solve(np.zeros((1, n * n), dtype=np.uint8), limit=2, max_nodes=1_000_000)
        assert result.status[0] == Status.MULTIPLE
        assert grid_errors(result.puzzles, result.solutions, sudoku.box_shape(n)) == []


# ------------------------------------------------------------------------- CLI
def test_cli_timeout_marks_the_endless_puzzle_budget(tmp_path, capsys):
    easy = sudoku.format_lines(random_puzzles(20, seed=25))
    source = tmp_path / "in.txt"
    source.write_text("\n".join(easy[:10] + ["0" * 81] + easy[10:]) + "\n")
    out = tmp_path / "out.txt"
    start = time.perf_counter()
    assert (
        main(["solve", str(source), "-o", str(out), "--limit", str(NEVER_ENDS), "--timeout", "1"])
        == 0
    )
    assert time.perf_counter() - start < 4.0
    lines = out.read_text().splitlines()
    assert len(lines) == 21
    assert lines[10].endswith("# BUDGET (a solution; count not finished)")
    solved = sudoku.parse(lines[:10] + lines[11:])
    assert grid_errors(random_puzzles(20, seed=25), solved, (3, 3)) == []
    assert "BUDGET 1" in capsys.readouterr().err
    assert main(["solve", str(source), "--timeout", "-1"]) == 2
