"""Budgets: ``max_nodes`` and the wall-clock ``timeout`` give BUDGET per puzzle and never
a hang, also on pathological inputs; a timeout leaves the results of the puzzles that
finish exactly as they are without one. For exact cover, a search's budgets are one
node budget and one deadline however often it is resumed."""

import time

import numpy as np
import pytest

from numbadlx import BudgetExceeded, problems, sudoku
from numbadlx.cli import EXIT_UNFINISHED, main
from numbadlx.core.search import RET_BUDGET, RET_DONE, Search
from numbadlx.sudoku import Status, random_grid, random_puzzles
from tests.helpers import grid_errors

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
    sudoku.warm_up()  # load every engine's kernels once: timed calls must not compile


@pytest.mark.slow
@pytest.mark.parametrize("engine, small_budget", [("dlx", 50), ("bits", 2)])
def test_finished_puzzles_match_a_run_without_timeout(engine, small_budget):
    puzzles = np.concatenate([random_puzzles(150, seed=21), random_puzzles(30, seed=22, keep=40)])
    puzzles[::9, :5] = 0  # some with several solutions
    puzzles[3, :2] = [1, 1]  # and one clash
    for max_nodes in (None, small_budget):
        plain = sudoku.solve(puzzles, limit=3, max_nodes=max_nodes, engine=engine)
        timed = sudoku.solve(puzzles, limit=3, max_nodes=max_nodes, timeout=60, engine=engine)
        for name in ("status", "counts", "solutions", "nodes", "guesses"):
            assert np.array_equal(getattr(plain, name), getattr(timed, name)), name
    assert Status.BUDGET in plain.status and Status.INVALID in plain.status


def test_timeout_gives_budget_to_the_hard_puzzle_and_finishes_the_easy_ones():
    easy = random_puzzles(200, seed=23)
    batch = np.concatenate([np.zeros((1, 81), dtype=np.uint8), easy])  # the hard one first
    result, seconds = _timed(sudoku.solve, batch, limit=NEVER_ENDS, timeout=1.0, engine="dlx")
    assert seconds < 1.25
    assert result.status[0] == Status.BUDGET
    assert result.counts[0] > 0  # it did find solutions, it only could not count them all
    assert grid_errors(batch[:1], result.solutions[:1], (3, 3)) == []
    assert np.all(result.status[1:] == Status.UNIQUE)
    assert grid_errors(easy, result.solutions[1:], (3, 3)) == []


@pytest.mark.slow
@pytest.mark.parametrize("seconds", [0.0, 0.3, 1.0])
def test_timeout_returns_on_time(seconds):
    batch = np.zeros((4, 81), dtype=np.uint8)
    result, took = _timed(sudoku.solve, batch, limit=NEVER_ENDS, timeout=seconds)
    assert took < seconds + 0.25  # a deadline: never late (it may stop a little early)
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
# a million nodes (checked below), so even limit=2 does not end in reasonable time for
# the DLX engine (the bit-mask engine finds two solutions at once: these run "dlx").
PATHOLOGICAL = [
    pytest.param(25, 0, 0, NEVER_ENDS, id="empty-25x25"),
    pytest.param(16, 0, 0, NEVER_ENDS, id="empty-16x16"),
    pytest.param(36, 30, 34, 2, id="36x36-30-givens"),
]


@pytest.mark.parametrize("n, givens, seed, limit", PATHOLOGICAL)
def test_pathological_grids_return_promptly_under_max_nodes(n, givens, seed, limit):
    puzzle = _few_givens(n, givens, seed)
    result, seconds = _timed(
        sudoku.solve, puzzle[None, :], limit=limit, max_nodes=100_000, engine="dlx"
    )
    assert seconds < 5.0
    assert result.status[0] == Status.BUDGET and result.nodes[0] == 100_000


@pytest.mark.slow
@pytest.mark.parametrize("n, givens, seed, limit", PATHOLOGICAL)
def test_pathological_grids_return_promptly_under_timeout(n, givens, seed, limit):
    puzzle = _few_givens(n, givens, seed)
    batch = np.stack([puzzle, puzzle])
    result, seconds = _timed(sudoku.solve, batch, limit=limit, timeout=1.0, engine="dlx")
    assert seconds < 1.25  # a deadline: never late (it may stop a little early)
    assert np.all(result.status == Status.BUDGET) and np.all(result.nodes > 0)
    found = result.counts > 0
    assert grid_errors(batch[found], result.solutions[found], sudoku.box_shape(n)) == []


def test_the_36x36_with_few_givens_is_really_hard():
    puzzle = _few_givens(36, 30, 34)
    result = sudoku.solve(puzzle[None, :], limit=2, max_nodes=1_000_000, engine="dlx")
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
        == EXIT_UNFINISHED
    )
    # the whole second is used (the search cannot end), then the output is written
    assert 1.0 <= time.perf_counter() - start < 2.5
    lines = out.read_text().splitlines()
    assert len(lines) == 21
    assert lines[10].endswith("solutions found; count not finished)")
    solved = sudoku.parse(lines[:10] + lines[11:])
    assert grid_errors(random_puzzles(20, seed=25), solved, (3, 3)) == []
    assert "BUDGET 1" in capsys.readouterr().err
    assert main(["solve", str(source), "--timeout", "-1"]) == 2


# ------------------------------------------------------------------ exact cover
# Pentominoes in a 6x10 box: 9,356 solutions, seconds to list them all, so any timeout
# below a second stops the enumeration long before its end.
PENTOMINO_SOLUTIONS = 9356
MARGIN = 0.25  # seconds past a deadline allowed: a timeout is a deadline


@pytest.fixture(scope="module")
def pentominoes():
    problem = problems.pentominoes(6, 10)
    problem.count(limit=1)  # compile or load the kernel before any timing
    return problem


def _listed_until_budget(problem, **kwargs):
    """Solutions taken one by one until BudgetExceeded: (yielded, error, seconds)."""
    yielded = 0
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded) as stop:
        for _ in problem.solutions(**kwargs):
            yielded += 1
    return yielded, stop.value, time.perf_counter() - start


@pytest.mark.slow
@pytest.mark.parametrize("batch", [1, 64])
def test_solutions_timeout_is_one_deadline_for_all_batches(pentominoes, batch):
    seconds = 0.5
    yielded, stop, took = _listed_until_budget(pentominoes, timeout=seconds, batch=batch)
    assert seconds <= took < seconds + MARGIN
    assert 0 < yielded == stop.found < PENTOMINO_SOLUTIONS
    assert stop.stats.status == "budget" and "timeout=0.5" in str(stop)


def test_count_timeout_stops_at_the_deadline_not_before(pentominoes):
    seconds = 0.5
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded) as stop:
        pentominoes.count(timeout=seconds)
    assert seconds <= time.perf_counter() - start < seconds + MARGIN
    assert 0 < stop.value.found < PENTOMINO_SOLUTIONS


def test_time_between_solutions_counts_against_the_deadline(pentominoes):
    listing = pentominoes.solutions(timeout=0.2, batch=1)
    next(listing)
    time.sleep(0.3)
    with pytest.raises(BudgetExceeded) as stop:
        next(listing)
    assert stop.value.found == 1


def test_solutions_node_budget_is_one_total_for_all_batches(pentominoes):
    with pytest.raises(BudgetExceeded) as whole:
        pentominoes.count(max_nodes=20_000)
    yielded, stop, _ = _listed_until_budget(pentominoes, max_nodes=20_000, batch=1)
    assert stop.stats.nodes == 20_000 and "max_nodes=20000" in str(stop)
    assert yielded == stop.found == whole.value.found > 1


def test_zero_timeout_searches_nothing(pentominoes):
    with pytest.raises(BudgetExceeded) as stop:
        pentominoes.count(timeout=0)
    assert stop.value.stats.nodes == 0 and stop.value.found == 0


@pytest.mark.parametrize(
    "budget, message",
    [
        ({"timeout": -1}, "timeout must be >= 0"),
        ({"timeout": float("nan")}, "timeout must be >= 0"),
        ({"timeout": "1"}, "timeout must be a number"),
        ({"max_nodes": 0}, "max_nodes must be a positive integer"),
        ({"max_nodes": 2.5}, "max_nodes must be a positive integer"),
        ({"max_nodes": True}, "max_nodes must be a positive integer"),
    ],
)
def test_bad_exact_cover_budgets_raise(budget, message):
    problem = problems.n_queens(4)
    with pytest.raises(ValueError, match=message):
        problem.count(**budget)
    with pytest.raises(ValueError, match=message):
        next(problem.solutions(**budget))


def test_search_deadline_is_fixed_when_the_search_is_made():
    problem = problems.n_queens(6)
    search = Search(problem, timeout=0.1)
    code, found, _ = search.run(1, 1)
    assert found == 1 and search.stopped_by is None
    time.sleep(0.15)
    code, found, _ = search.run(1, 1)
    assert (code, found, search.stopped_by) == (RET_BUDGET, 0, "timeout")
    finished = Search(problem, timeout=0.1)
    assert finished.run(0, 0)[:2] == (RET_DONE, 4)
    time.sleep(0.15)
    assert finished.run(0, 0)[:2] == (RET_DONE, 0)  # an ended search is not over budget


# ------------------------------------------------------------- CLI: count
def _pentomino_file(tmp_path):
    path = tmp_path / "pentominoes.dlx"
    path.write_text(problems.pentominoes(6, 10).to_dlx())
    return path


@pytest.mark.slow
def test_cli_count_timeout_is_one_deadline_with_show(tmp_path, capsys, pentominoes):
    path = _pentomino_file(tmp_path)
    seconds = 0.8
    for show in ("1", str(PENTOMINO_SOLUTIONS)):  # the count, or the --show part, runs out
        start = time.perf_counter()
        assert main(["count", str(path), "--show", show, "--timeout", str(seconds)]) == 3
        assert seconds <= time.perf_counter() - start < seconds + MARGIN
        assert "at least" in capsys.readouterr().out


def test_cli_count_max_nodes_covers_show_and_count(tmp_path, capsys, pentominoes):
    path = _pentomino_file(tmp_path)
    budget, show = 20_000, 3
    list(pentominoes.solutions(limit=show))
    show_nodes = pentominoes.stats.nodes
    with pytest.raises(BudgetExceeded) as rest:
        pentominoes.count(max_nodes=budget - show_nodes)
    assert main(["count", str(path), "--show", str(show), "--max-nodes", str(budget)]) == 3
    out = capsys.readouterr().out
    assert f"at least {max(show, rest.value.found)} solutions" in out
    assert f"{budget} nodes" in out
    # a budget the --show part uses up leaves nothing for the count
    assert main(["count", str(path), "--show", str(show), "--max-nodes", str(show_nodes)]) == 3
    assert f"at least {show} solutions (stopped at the budget: {show_nodes} nodes" in (
        capsys.readouterr().out
    )


def test_cli_count_does_not_search_twice_when_show_lists_all(tmp_path, capsys):
    path = tmp_path / "two.dlx"
    path.write_text("a b\na\nb\na b\n")
    assert main(["count", str(path), "--show", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count("solution ") == 2 and out.endswith("2 solutions\n")
    assert main(["count", str(path), "--show", "5", "--limit", "1"]) == 0
    assert capsys.readouterr().out.endswith("\n2 solutions\n")  # --show listed all: exact
    assert main(["count", str(path), "--limit", "1"]) == 0
    assert capsys.readouterr().out == "at least 1 solution (stopped at --limit 1)\n"
    assert main(["count", str(path), "--limit", "5"]) == 0
    assert capsys.readouterr().out == "2 solutions\n"  # a limit above the count: exact
    assert main(["count", str(path), "--timeout", "-1"]) == 2
    assert "--timeout must be >= 0" in capsys.readouterr().err
