import csv

import numba
import numpy as np
import pytest

from numbadlx import BudgetExceeded, sudoku
from numbadlx.sudoku import Status, random_grid, random_puzzles
from tests.helpers import all_4x4_grids, grid_errors, plain_env

EXAMPLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
EXAMPLE_SOLUTION = (
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)


def test_example_and_checker():
    result = sudoku.solve([EXAMPLE])
    assert result.status_names().tolist() == ["UNIQUE"]
    assert sudoku.format_line(result.solutions[0]) == EXAMPLE_SOLUTION
    assert grid_errors(result.puzzles, result.solutions, (3, 3)) == []
    broken = result.solutions.copy()
    broken[0, [0, 1]] = broken[0, [1, 0]]  # swap two cells: rows stay fine, columns break
    assert grid_errors(result.puzzles, broken, (3, 3)) == [(0, "columns")]


def test_limit_one_gives_solved_and_budget_gives_budget():
    result = sudoku.solve([EXAMPLE], limit=1)
    assert result.status[0] == Status.SOLVED and result.counts[0] == 1
    hard = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
    result = sudoku.solve([hard], max_nodes=3, engine="dlx")
    assert result.status[0] == Status.BUDGET and result.nodes[0] == 3
    with pytest.raises(BudgetExceeded):
        sudoku.count_solutions(hard, max_nodes=3, engine="dlx")


def test_4x4_counts_match_brute_force():
    grids = all_4x4_grids()
    assert len(grids) == 288
    assert sudoku.count_solutions("0" * 16) == 288
    rng = np.random.default_rng(7)
    puzzles = []
    for _ in range(60):
        grid = grids[rng.integers(len(grids))].copy()
        grid[rng.random(16) < rng.uniform(0.3, 0.9)] = 0
        puzzles.append(grid)
    puzzles = np.array(puzzles, dtype=np.uint8)
    result = sudoku.solve(puzzles, limit=1000)
    for k, puzzle in enumerate(puzzles):
        matches = np.all((puzzle == 0) | (grids == puzzle), axis=1)
        assert result.counts[k] == matches.sum()
        assert any(np.array_equal(result.solutions[k], g) for g in grids[matches])
        expected = Status.UNIQUE if matches.sum() == 1 else Status.MULTIPLE
        assert result.status[k] == expected


@pytest.mark.parametrize(
    "n, box",
    [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (10, (2, 5)), (12, (3, 4)), (16, (4, 4))],
)
def test_generated_puzzles_of_every_shape(n, box):
    puzzles = random_puzzles(3, n=n, box=box, seed=n)
    result = sudoku.solve(puzzles, box=box, limit=2)
    assert result.status_counts() == {"UNIQUE": 3}
    assert result.box == box
    assert grid_errors(puzzles, result.solutions, box) == []


def test_box_shape_inferred_and_given():
    assert sudoku.solve(random_puzzles(1, n=6, seed=3)).box == (2, 3)
    # the 6x6 with 3x2 boxes is a different puzzle family
    grid = random_grid(6, box=(3, 2), seed=1)
    assert sudoku.solve(grid[None, :], box=(3, 2)).status[0] == Status.UNIQUE
    with pytest.raises(ValueError):
        sudoku.solve(grid[None, :], box=(4, 2))


def test_36x36_full_grid_and_one_blank():
    grid = random_grid(36, seed=5)
    puzzle = grid.copy()
    puzzle[[0, 100, 1000]] = 0
    result = sudoku.solve(puzzle[None, :])
    assert result.status[0] == Status.UNIQUE
    assert np.array_equal(result.solutions[0], grid)


def test_fast_path_matches_generic_exact_cover_path():
    rng = np.random.default_rng(11)
    for n, box in [(4, (2, 2)), (6, (2, 3)), (9, (3, 3))]:
        for _ in range(8):
            grid = random_grid(n, box=box, seed=rng.integers(1 << 30))
            puzzle = grid.copy()
            puzzle[rng.random(n * n) < (0.75 if n < 9 else 0.55)] = 0
            problem, cells, digits = sudoku.to_exact_cover(puzzle, box=box)
            generic = set()
            for solution in problem.solutions(limit=200):
                out = puzzle.copy()
                out[cells[solution]] = digits[solution]
                generic.add(out.tobytes())
            # the generic search meets solutions in the DLX kernel's order
            fast = sudoku.solve(puzzle[None, :], box=box, limit=200, engine="dlx")
            assert fast.counts[0] == len(generic)
            assert fast.solutions[0].tobytes() in generic


def test_clashes_and_bad_values_get_invalid_without_stopping_the_batch():
    good = np.frombuffer(EXAMPLE.encode(), dtype=np.uint8) - 48
    clash = good.copy()
    clash[1] = 5  # a second 5 in row 1
    too_big = good.copy()
    too_big[2] = 10
    batch = np.stack([good, clash, too_big, good]).astype(np.int64)
    negative = batch.copy()
    negative[3, 4] = -1
    result = sudoku.solve(negative)
    assert result.status_names().tolist() == ["UNIQUE", "INVALID", "INVALID", "INVALID"]
    assert np.all(result.solutions[1:] == 0)
    floats = batch.astype(float)
    floats[0, 3] = np.nan
    assert sudoku.solve(floats).status_names().tolist() == [
        "INVALID",
        "INVALID",
        "INVALID",
        "UNIQUE",
    ]
    assert sudoku.check_grid(clash) == "digit 5 appears twice in row 1 (columns 1 and 2)"
    with pytest.raises(ValueError, match="appears twice in row 1"):
        sudoku.solve_one(clash)
    marked = sudoku.solve(batch[[0, 3]], invalid=[True, False])
    assert marked.status_names().tolist() == ["INVALID", "UNIQUE"]


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="limit"):
        sudoku.solve([EXAMPLE], limit=0)
    with pytest.raises(ValueError, match=r"shape \(2, 80\) is neither \(N, n\*n\)"):
        sudoku.solve(np.zeros((2, 80), dtype=np.uint8))
    with pytest.raises(ValueError, match="max_nodes"):
        sudoku.solve([EXAMPLE], max_nodes=0)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 threads")
def test_results_do_not_depend_on_threads_or_chunks(monkeypatch):
    from numbadlx.sudoku.engines import _registry

    # every call of more than one puzzle on two threads (a call of this size would run
    # on the calling thread alone)
    monkeypatch.setattr(_registry, "SERIAL_SECONDS", 0.0)
    puzzles = np.concatenate([random_puzzles(150, seed=3), random_puzzles(50, seed=4, keep=60)])
    puzzles[::7, :3] = 0  # some with several solutions
    one = sudoku.solve(puzzles, threads=1, chunk=64, limit=3)
    two = sudoku.solve(puzzles, threads=2, chunk=5, limit=3)
    for name in ("solutions", "status", "counts", "nodes"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
    assert two.threads == 2


@pytest.mark.parametrize("threads", [1, 2])
def test_the_result_keeps_its_own_givens(threads, monkeypatch):
    # a uint8 array passed in is the caller's: the result keeps a copy (made while the
    # second thread solves), and the caller's later writes do not reach it
    from numbadlx.sudoku.engines import _registry

    monkeypatch.setattr(_registry, "SERIAL_SECONDS", 0.0)  # two threads for 2+ rows
    if threads > numba.config.NUMBA_NUM_THREADS:
        pytest.skip("needs 2 threads")
    for puzzles in (random_puzzles(40, seed=8), np.zeros((0, 81), dtype=np.uint8)):
        before = puzzles.copy()
        result = sudoku.solve(puzzles, threads=threads)
        assert not np.shares_memory(result.puzzles, puzzles)
        puzzles[:] = 0
        assert np.array_equal(result.puzzles, before)
        if len(before):
            assert (result.status != Status.NOT_RUN).all()


def test_solve_one_and_count_solutions():
    solution = sudoku.solve_one(EXAMPLE)
    assert sudoku.format_line(solution) == EXAMPLE_SOLUTION
    unsolvable = "1200000000300040"  # cell (1, 3) has no digit left
    assert sudoku.solve_one(unsolvable) is None
    assert sudoku.count_solutions(unsolvable) == 0
    assert sudoku.count_solutions("0" * 16, limit=10) == 10


# ----------------------------------------------------------------- public datasets
UNIQUE_SETS = [
    "sudoku17.txt",
    "top1465.txt",
    "top95.txt",
    "hardest.txt",
    "forum_hardest_1106.txt",
    "easy50_projecteuler96.txt",
]


@pytest.mark.parametrize("name", UNIQUE_SETS)
def test_public_unique_datasets(datasets, name):
    puzzles = sudoku.parse(datasets / name)
    result = sudoku.solve(puzzles, limit=2)
    assert result.status_counts() == {"UNIQUE": len(puzzles)}
    assert grid_errors(puzzles, result.solutions, (3, 3)) == []


def test_serg_benchmark_puzzles_have_several_solutions(datasets):
    # The issue expected UNIQUE here, but these puzzles are not unique: our count and
    # the generic exact-cover path (an independent search over the 0/1 matrix) agree.
    puzzles = sudoku.parse(datasets / "serg_benchmark.txt")
    result = sudoku.solve(puzzles, limit=2)
    assert result.status_counts() == {"MULTIPLE": len(puzzles)}
    assert grid_errors(puzzles, result.solutions, (3, 3)) == []
    for puzzle in puzzles[:: len(puzzles) // 20]:
        problem, _, _ = sudoku.to_exact_cover(puzzle)
        assert problem.count(limit=2) == 2


@pytest.mark.parametrize("name", ["kaggle_bryanpark_10k.csv", "radcliffe_3m_sample_7034.csv"])
def test_public_csv_datasets_match_their_solution_column(datasets, name):
    from numbadlx.sudoku import read_csv

    puzzles, solutions = read_csv(datasets / name)
    result = sudoku.solve(puzzles, limit=2)
    assert result.status_counts() == {"UNIQUE": len(puzzles)}
    assert np.array_equal(result.solutions, solutions)


def test_large_known_solutions(datasets):
    with open(datasets / "sudoku_large_known_solutions.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["size"] for row in rows} == {"16", "25"}
    for row in rows:
        result = sudoku.solve([row["puzzle"]], limit=2)
        assert result.status[0] == Status.UNIQUE
        assert sudoku.format_line(result.solutions[0]) == row["solution"]


def test_16x16_and_25x25_files(datasets):
    result = sudoku.solve(datasets / "sudoku16x16_100.txt", limit=2)
    assert result.n == 16 and len(result) == 100
    assert result.status_counts() == {"UNIQUE": 100}
    assert grid_errors(result.puzzles, result.solutions, (4, 4)) == []
    singles = sudoku.solve(datasets / "sudoku16x16_singles.txt", limit=2)
    assert singles.status_counts() == {"UNIQUE": 2}
    big = sudoku.solve(datasets / "sudoku25x25.txt", limit=2, max_nodes=200_000, engine="dlx")
    # lines 1 and 2 are unique (SOURCES.md); line 3 needs more than this budget with DLX
    assert big.status_names().tolist() == ["UNIQUE", "UNIQUE", "BUDGET"]
    assert grid_errors(big.puzzles[:2], big.solutions[:2], (5, 5)) == []
    # the bit-mask engine (locked candidates) proves all three unique
    bits = sudoku.solve(datasets / "sudoku25x25.txt", limit=2, engine="bits")
    assert bits.status_names().tolist() == ["UNIQUE", "UNIQUE", "UNIQUE"]
    assert grid_errors(bits.puzzles, bits.solutions, (5, 5)) == []
    assert np.array_equal(bits.solutions[:2], big.solutions[:2])


def test_special_cases(datasets):
    with open(datasets / "sudoku_special_cases.csv") as handle:
        rows = list(csv.DictReader(handle))
    puzzles = sudoku.parse([row["puzzle"] for row in rows])
    result = sudoku.solve(puzzles, limit=1001)
    for k, row in enumerate(rows):
        expected = int(row["solution_count"]) if row["solution_count"].isdigit() else None
        status = Status(result.status[k]).name
        clash = sudoku.check_grid(puzzles[k]) is not None
        if clash:
            assert status == "INVALID", row["name"]
            assert expected == 0
            continue
        if expected is None:  # "more than 1000"
            assert result.counts[k] == 1001, row["name"]
            continue
        assert result.counts[k] == expected, row["name"]
        assert status == {0: "NO_SOLUTION", 1: "UNIQUE"}.get(expected, "MULTIPLE"), row["name"]
        if expected:
            assert grid_errors(puzzles[k : k + 1], result.solutions[k : k + 1], (3, 3)) == []
    names = {Status(s).name for s in result.status}
    assert names == {"INVALID", "NO_SOLUTION", "UNIQUE", "MULTIPLE"}


@pytest.mark.slow
def test_built_in_sample_is_what_its_header_says():
    """The shipped sample is reproducible: its header names the call that made it, and
    every puzzle in it is unique (checked by the solver and by the generic path on a
    few)."""
    path = sudoku.default_sample_path()
    with open(path) as handle:
        header = handle.readline()
    assert "random_puzzles(1000, seed=20261121)" in header
    shipped = sudoku.parse(path)
    np.testing.assert_array_equal(shipped, random_puzzles(1000, seed=20261121))
    result = sudoku.solve(shipped, limit=2)
    assert result.status_counts() == {"UNIQUE": 1000}
    for k in (0, 499, 999):
        problem, _, _ = sudoku.to_exact_cover(shipped[k])
        assert problem.count() == 1


@pytest.mark.slow
def test_a_serial_solve_leaves_numba_threading_layer_unstarted():
    # a few puzzles run on the calling thread: no thread count to set, no threading layer
    # to load; a larger call then runs on the threads asked for
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import numba\n"
        "from numbadlx import sudoku\n"
        "from numbadlx.sudoku.parallel import check_threads\n"
        f"one = sudoku.solve(['{EXAMPLE}'])\n"
        "try:\n"
        "    numba.threading_layer()\n"
        "    started = True\n"
        "except ValueError:\n"
        "    started = False\n"
        "print(started, check_threads(None) == numba.config.NUMBA_NUM_THREADS)\n"
        "print(one.status[0], ''.join(map(str, one.solutions[0])))\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=root,
        env=dict(plain_env(), PYTHONPATH=str(root)),
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.split("\n")[:2]
    assert first == "False True"
    status, solution = second.split()
    assert int(status) == Status.UNIQUE
    digits = [[int(c) for c in EXAMPLE], [int(c) for c in solution]]
    assert grid_errors(digits[:1], digits[1:], (3, 3)) == []


@pytest.mark.slow
def test_big_array_is_one_kernel_call_without_progress(monkeypatch):
    # 40,000 puzzles: a pattern grid with a third of its cells blanked at random
    rng = np.random.default_rng(7)
    r, c = np.divmod(np.arange(81), 9)
    grid = ((r * 3 + r // 3 + c) % 9 + 1).astype(np.uint8)
    puzzles = np.where(rng.random((40000, 81)) < 0.33, 0, grid).astype(np.uint8)
    puzzles[5, :2] = 7  # a clash: INVALID in both calls
    from numbadlx.sudoku import bulk

    calls = []
    real = bulk.run_engine

    def counting(engine, grid_rows, *args, **options):
        calls.append(grid_rows.shape[0])
        return real(engine, grid_rows, *args, **options)

    monkeypatch.setattr(bulk, "run_engine", counting)
    whole = sudoku.solve(puzzles, threads=2)
    assert calls == [40000]
    calls.clear()
    seen = []
    blocks = sudoku.solve(puzzles, threads=2, progress=lambda done, total: seen.append(done))
    assert calls == [32768, 40000 - 32768] and seen == [32768, 40000]
    for one in (whole, blocks):
        assert one.status[5] == Status.INVALID and one.counts[5] == 0
        good = np.flatnonzero(one.status != Status.INVALID)
        assert good.size == 39999 and (one.counts[good] >= 1).all()
        unique = one.status[good] == Status.UNIQUE
        assert unique.any() and (one.counts[good][unique] == 1).all()
        assert grid_errors(puzzles[good], one.solutions[good], (3, 3)) == []
    for name in ("status", "counts", "solutions", "nodes", "guesses"):
        assert np.array_equal(getattr(whole, name), getattr(blocks, name)), name


def test_a_slow_result_gives_its_rate_not_zero_puzzles_a_second():
    import dataclasses

    result = sudoku.solve("." * 81, limit=1)
    slow = dataclasses.replace(result, seconds=16.0)
    assert "0.062 puzzles/s" in repr(slow), repr(slow)
    assert "0 puzzles/s" not in repr(slow)


def test_ratings_of_unrated_puzzles_show_without_a_warning():
    import warnings

    ratings = sudoku.rate(["1" * 81, "2" * 81])  # both INVALID: nothing rated
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = repr(ratings)
    assert "median tries -, median logic -" in text, text


def test_a_result_says_which_boxes_a_grid_size_with_a_choice_got():
    ten = sudoku.solve(np.zeros((1, 100), dtype=np.uint8), limit=1)
    assert ten.box == (2, 5) and "10x10 with boxes of 2 rows by 5 columns" in repr(ten)
    assert "boxes" not in repr(sudoku.solve("." * 81, limit=1))
