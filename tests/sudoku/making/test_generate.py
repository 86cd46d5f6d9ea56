"""Making, transforming and rating puzzles (numbadlx.sudoku.generate / transform / rate).

Every puzzle made is re-checked by the exact-cover solver (``sudoku.solve``), which
shares no code with the generator's own search: unique, minimal (each clue removed in
turn gives MULTIPLE), symmetric, within its bounds. Full grids are checked cell by cell
against the rules. The logic solver's steps are checked against the solution: every
placement is the solution's digit and no elimination removes it.
"""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Status

SHAPES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (9, (3, 3)), (10, (2, 5))]
SHAPES += [(12, (3, 4)), (12, (4, 3)), (16, (4, 4)), (25, (5, 5))]


def is_full_grid(grid, n, box):
    """Every row, column and box holds 1..n exactly once (written out, no solver)."""
    rows, cols = box
    cells = np.asarray(grid, dtype=int).reshape(n, n)
    want = list(range(1, n + 1))
    lines = [cells[i] for i in range(n)] + [cells[:, j] for j in range(n)]
    lines += [
        cells[r : r + rows, c : c + cols].ravel()
        for r in range(0, n, rows)
        for c in range(0, n, cols)
    ]
    return all(sorted(line.tolist()) == want for line in lines)


def check_minimal_unique(puzzles, box, groups=None):
    """Unique by the exact-cover solver, and every single clue needed (or, given
    ``groups(cell)``, every symmetric group of clues)."""
    result = sudoku.solve(puzzles, box=box)
    assert (result.status == Status.UNIQUE).all(), result.status_counts()
    assert ((puzzles == 0) | (puzzles == result.solutions)).all()
    fewer = []
    for puzzle in puzzles:
        for cell in np.flatnonzero(puzzle):
            one_less = puzzle.copy()
            one_less[cell if groups is None else groups(cell)] = 0
            fewer.append(one_less)
    again = sudoku.solve(np.array(fewer), box=box)
    assert (again.status == Status.MULTIPLE).all(), again.status_counts()
    return result


# ---------------------------------------------------------------- full grids


@pytest.mark.slow
@pytest.mark.parametrize("n, box", SHAPES, ids=lambda v: str(v))
def test_random_grids_are_valid_for_every_box_shape(n, box):
    grids = sudoku.random_grids(6, n, box, seed=11)
    assert grids.shape == (6, n * n) and grids.dtype == np.uint8
    assert all(is_full_grid(grid, n, box) for grid in grids)
    assert len({grid.tobytes() for grid in grids}) == 6


def test_random_grids_depend_on_seed_and_index_only():
    one = sudoku.random_grids(40, 9, seed=5, threads=1)
    two = sudoku.random_grids(40, 9, seed=5, threads=2)
    assert (one == two).all()
    assert (sudoku.random_grids(10, 9, seed=5) == one[:10]).all()
    assert not (sudoku.random_grids(10, 9, seed=6) == one[:10]).all()


def test_seed_value_is_the_kernels_seed_state():
    """The Python twin of ``seed_state`` (the small rate calls' loop seeds from it) gives
    the state the kernels' own seeding gives, at the ends of the seed range too."""
    from numba import njit

    from numbadlx.sudoku.making._random import next_random, seed_state, seed_value

    @njit
    def seeded(seed, index):
        state = np.zeros(1, dtype=np.uint64)
        seed_state(seed, index, state)
        return state[0], next_random(state)

    for seed, index in [(0, 0), (5, 3), (2**63 - 1, 2**63 - 1), (123456789, 10**12)]:
        state, draw = seeded(seed, index)
        mine = np.array([seed_value(seed, index)], dtype=np.uint64)
        assert int(state) == int(mine[0])
        assert int(draw) == int(next_random(mine))
    assert seed_value(0, 1) != seed_value(0, 0) != seed_value(1, 0)


def test_random_grids_reach_every_4x4_grid():
    grids = sudoku.random_grids(5000, 4, seed=3)
    assert len({grid.tobytes() for grid in grids}) == 288  # all 4x4 Sudoku grids


# ---------------------------------------------------------------- puzzles


@pytest.mark.slow
@pytest.mark.parametrize(
    "n, box, count",
    [(4, (2, 2), 30), (6, (2, 3), 20), (6, (3, 2), 10), (9, (3, 3), 20), (12, (3, 4), 4)],
    ids=lambda v: str(v),
)
def test_generate_minimal_unique(n, box, count):
    puzzles = sudoku.generate(count, n, box, seed=1)
    assert puzzles.shape == (count, n * n) and puzzles.dtype == np.uint8
    check_minimal_unique(puzzles, box)


def test_generate_16x16_unique_and_minimal():
    puzzles = sudoku.generate(1, 16, seed=2)
    check_minimal_unique(puzzles, (4, 4))


SYMMETRY_IMAGES = {
    # cell (r, c) -> the cells the symmetry maps it to
    "rotational": lambda r, c, m: [(m - r, m - c)],
    "diagonal": lambda r, c, m: [(c, r)],
    "mirror": lambda r, c, m: [(r, m - c)],
    "dihedral": lambda r, c, m: [
        (c, m - r),
        (m - r, m - c),
        (m - c, r),
        (c, r),
        (m - c, m - r),
        (r, m - c),
        (m - r, c),
    ],
}


@pytest.mark.parametrize("symmetry", sorted(SYMMETRY_IMAGES))
@pytest.mark.parametrize("n, box", [(9, (3, 3)), (6, (2, 3))], ids=lambda v: str(v))
def test_generate_keeps_its_symmetry(symmetry, n, box):
    def group(cell):
        r, c = divmod(int(cell), n)
        return [cell] + [rr * n + cc for rr, cc in SYMMETRY_IMAGES[symmetry](r, c, n - 1)]

    puzzles = sudoku.generate(4, n, box, symmetry=symmetry, minimal="symmetric", seed=4)
    check_minimal_unique(puzzles, box, group)
    if symmetry != "dihedral":  # strictly minimal: every single clue needed
        check_minimal_unique(sudoku.generate(2, n, box, symmetry=symmetry, seed=4), box)
    for puzzle in puzzles:
        given = puzzle.reshape(n, n) > 0
        for r in range(n):
            for c in range(n):
                for rr, cc in SYMMETRY_IMAGES[symmetry](r, c, n - 1):
                    assert given[r, c] == given[rr, cc], (symmetry, r, c)


def test_generate_clue_bounds_minimal_and_not():
    minimal = sudoku.generate(8, 9, clues=(24, 25), seed=5)
    counts = (minimal > 0).sum(axis=1)
    assert ((counts >= 24) & (counts <= 25)).all()
    check_minimal_unique(minimal, (3, 3))
    loose = sudoku.generate(8, 9, minimal=False, clues=(34, 36), seed=5)
    counts = (loose > 0).sum(axis=1)
    assert ((counts >= 34) & (counts <= 36)).all()
    assert (sudoku.solve(loose).status == Status.UNIQUE).all()


@pytest.mark.slow
def test_generate_rating_bounds():
    puzzles = sudoku.generate(6, 9, rating=(2.6, 4.4), seed=6)
    ratings = sudoku.rate(puzzles)
    assert ((ratings.logic >= 2.6) & (ratings.logic <= 4.4)).all(), ratings.logic
    assert (sudoku.solve(puzzles).status == Status.UNIQUE).all()


def test_generate_same_seed_same_puzzles_for_any_threads():
    one = sudoku.generate(12, 9, seed=9, threads=1)
    two = sudoku.generate(12, 9, seed=9, threads=2)
    assert (one == two).all()
    assert (sudoku.generate(3, 9, seed=9) == one[:3]).all()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(clues=(10, 16)), "fewer than 17 clues"),
        (dict(clues=(30, 20)), "lo <= hi"),
        (dict(clues=(0, 82)), "lo <= hi <= 81"),
        (dict(clues="many"), "pair of integers"),
        (dict(symmetry="spiral"), "symmetry must be"),
        (dict(minimal=False), "needs clues"),
        (dict(rating=(3, 2)), "lo <= hi"),
        (dict(rating=(5.3, 5.3), attempts=2), "no puzzle 0 found in 2 attempts"),
        (dict(seed=-1), "seed"),
        (dict(minimal="yes"), "minimal must be"),
    ],
)
def test_generate_bad_bounds_say_what(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sudoku.generate(1, 9, **kwargs)


def test_generate_bad_arguments():
    with pytest.raises(TypeError, match="n must be an integer"):
        sudoku.generate(1.5)
    with pytest.raises(ValueError, match="n must be at least 0"):
        sudoku.generate(-1)
    with pytest.raises(ValueError, match="prime"):
        sudoku.generate(1, 7)
    assert sudoku.generate(0).shape == (0, 81)


# ---------------------------------------------------------------- isomorphs


@pytest.mark.slow
def test_transform_keeps_solution_counts_and_grids():
    puzzles = sudoku.generate(20, 9, seed=12)
    # puzzles with several solutions too: drop a few clues of each
    rng = np.random.default_rng(0)
    loose = puzzles.copy()
    for row in loose:
        row[rng.choice(np.flatnonzero(row), 3, replace=False)] = 0
    both = np.concatenate([puzzles, loose])
    images = sudoku.transform(both, seed=1)
    assert not (images == both).all(axis=1).any()
    assert ((images > 0).sum(axis=1) == (both > 0).sum(axis=1)).all()
    before = sudoku.solve(both, limit=1000)
    after = sudoku.solve(images, limit=1000)
    assert (before.counts == after.counts).all()
    assert (before.counts[20:] > 1).any()
    grids = sudoku.transform(sudoku.random_grids(20, 6, (2, 3), seed=1), seed=4, box=(2, 3))
    assert all(is_full_grid(grid, 6, (2, 3)) for grid in grids)


@pytest.mark.parametrize("n, box, transposes", [(4, (2, 2), True), (6, (2, 3), False)])
def test_transform_transposes_square_boxes_only(n, box, transposes):
    # two givens in one row: a transpose puts them into one column
    puzzle = np.zeros((300, n * n), dtype=np.uint8)
    puzzle[:, 0], puzzle[:, 1] = 1, 2
    images = sudoku.transform(puzzle, seed=2, box=box)
    first = np.array([divmod(int(np.flatnonzero(image)[0]), n) for image in images])
    second = np.array([divmod(int(np.flatnonzero(image)[1]), n) for image in images])
    same_row = first[:, 0] == second[:, 0]
    same_col = first[:, 1] == second[:, 1]
    assert (same_row ^ same_col).all()
    assert same_col.any() == transposes and same_row.any()
    assert len({tuple(image[np.flatnonzero(image)]) for image in images}) > 1  # relabelled
    assert (
        sudoku.transform(images, seed=3, box=box) == sudoku.transform(images, seed=3, box=box)
    ).all()


def test_transform_keeps_the_rating_distribution():
    puzzles = sudoku.generate(120, 9, seed=13)
    images = sudoku.transform(puzzles, seed=5)
    before = sudoku.rate(puzzles, isomorphs=8)
    after = sudoku.rate(images, isomorphs=8, seed=1)
    # the ladder sees the same structure: the same hardest technique (up to the order
    # in which equal steps are found); past the ladder, the number of digits taken from
    # the solution depends on which cell comes first, so only the distribution agrees
    assert np.mean(before.hardest == after.hardest) >= 0.97
    solved = before.solved_by_logic & after.solved_by_logic
    assert np.mean(before.logic[solved] == after.logic[solved]) >= 0.97
    assert abs(np.median(before.logic) - np.median(after.logic)) <= 0.1
    assert abs(np.mean(before.logic) - np.mean(after.logic)) <= 0.1
    # mean tries over random isomorphs: the same distribution, within noise
    assert abs(np.mean(before.tries) - np.mean(after.tries)) <= 0.25 * max(
        np.mean(before.tries), 0.2
    )
    assert ((before.tries == 0) == (after.tries == 0)).all()


def test_transform_rejects_bad_input():
    with pytest.raises(ValueError):
        sudoku.transform(np.full((1, 16), 7, dtype=np.uint8))
    with pytest.raises(TypeError, match="seed"):
        sudoku.transform(np.zeros((1, 16), dtype=np.uint8), seed="x")


# ---------------------------------------------------------------- ratings


def test_logic_steps_agree_with_the_solution():
    puzzles = np.concatenate(
        [
            sudoku.generate(60, 9, seed=14),
            sudoku.generate(30, 9, symmetry="dihedral", minimal="symmetric", seed=2),
        ]
    )
    solutions = sudoku.solve(puzzles).solutions
    ratings = sudoku.rate(puzzles, steps=True)
    techniques = set()
    for k in range(len(puzzles)):
        grid = puzzles[k].astype(int).copy()
        for step in ratings.path(k):
            r, c = step.cell
            cell = r * 9 + c
            techniques.add(step.technique)
            if step.removed:
                assert step.digit != solutions[k, cell], (k, step)
            else:
                assert grid[cell] == 0 and step.digit == solutions[k, cell], (k, step)
                grid[cell] = step.digit
        assert (grid == solutions[k]).all()
    # the ladder gets used beyond singles, up to chains and trials, on random minimal puzzles
    assert {"hidden single (box)", "naked single", "pointing", "X-chain"} <= techniques
    assert {"forcing chain", "nishio", "dynamic forcing chain"} <= techniques


def test_tries_zero_exactly_when_singles_solve():
    puzzles = sudoku.generate(150, 9, seed=15)
    ratings = sudoku.rate(puzzles)
    singles = np.isin(ratings.hardest, [0, 1, 2, 3])
    assert ((ratings.tries == 0) == singles).all()
    assert (ratings.logic[singles] <= 2.3).all() and (ratings.logic[~singles] >= 2.6).all()
    # the rating is the hardest step's, stretched by the share of the grid still empty
    # when singles first ran out (none for singles alone)
    base = np.array([t.rating for t in sudoku.TECHNIQUES])[ratings.hardest]
    assert (ratings.logic[singles] == base[singles]).all()
    stretch = ratings.logic[~singles] / base[~singles]
    assert ((stretch > 1) & (stretch < 2)).all()
    searched = ratings.hardest == len(sudoku.TECHNIQUES) - 1
    assert (ratings.solved_by_logic == ~searched).all()


def test_making_is_where_the_public_names_live():
    from numbadlx.sudoku import making

    assert set(making.__all__) <= set(sudoku.__all__)
    for name in making.__all__:
        assert getattr(sudoku, name) is getattr(making, name)


def test_ratings_are_reproducible_and_handle_odd_puzzles():
    puzzles = sudoku.generate(30, 9, seed=16)
    one = sudoku.rate(puzzles, threads=1, seed=3)
    two = sudoku.rate(puzzles, threads=2, seed=3)
    assert np.array_equal(one.tries, two.tries) and np.array_equal(one.logic, two.logic)
    odd = np.zeros((3, 81), dtype=np.uint8)
    odd[1, :2] = 5  # clash
    odd[2, 0] = 10  # out of range
    ratings = sudoku.rate(odd)
    # the empty grid has many solutions: not rated (it was once rated as "needs search")
    assert ratings.status_names().tolist() == ["MULTIPLE", "INVALID", "INVALID"]
    assert np.isnan(ratings.tries).all() and np.isnan(ratings.logic).all()
    with pytest.raises(ValueError, match="isomorphs"):
        sudoku.rate(puzzles, isomorphs=0)
    with pytest.raises(ValueError, match="no steps kept"):
        one.path(0)


NO_SOLUTION_9 = "123456780" + "000000009" + "0" * 63  # r1c9 has no digit left
# a hard puzzle of the "forum hardest" kind (its logic rating needs trials or search)
HARD_9 = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


def test_rate_rates_only_puzzles_with_one_solution():
    unique = sudoku.generate(2, 9, seed=16)
    clash = np.zeros(81, dtype=np.uint8)
    clash[:2] = 5
    puzzles = np.vstack([unique, np.zeros(81, np.uint8), sudoku.parse(NO_SOLUTION_9), clash])
    puzzles[2, :10] = unique[0, :10]  # a few givens, still many solutions
    ratings = sudoku.rate(puzzles, steps=True)
    names = ["UNIQUE", "UNIQUE", "MULTIPLE", "NO_SOLUTION", "INVALID"]
    assert ratings.status_names().tolist() == names
    assert (ratings.status == [int(getattr(Status, name)) for name in names]).all()
    assert np.isfinite(ratings.tries[:2]).all() and np.isfinite(ratings.logic[:2]).all()
    assert np.isnan(ratings.tries[2:]).all() and np.isnan(ratings.logic[2:]).all()
    assert not ratings.solved_by_logic[2:].any() and (ratings.n_steps[2:] == 0).all()
    assert ratings.path(2) == []
    # the unique puzzles are rated as alone (their isomorphs come from their index)
    alone = sudoku.rate(unique, steps=True)
    assert np.array_equal(alone.tries, ratings.tries[:2])
    assert np.array_equal(alone.logic, ratings.logic[:2])
    assert alone.path(1) == ratings.path(1)
    # the empty grids of every size, and puzzles read from text
    for n, box in [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4))]:
        empty = sudoku.rate(np.zeros((1, n * n), np.uint8), box=box, logic=False)
        assert empty.status_names().tolist() == ["MULTIPLE"] and np.isnan(empty.tries[0])
    assert sudoku.rate(["0" * 16, "0200004034000000"]).status_names().tolist() == [
        "MULTIPLE",
        "UNIQUE",
    ]


def test_rate_file_says_multiple_solutions(tmp_path):
    from numbadlx.jobs import rate_file

    source = tmp_path / "p.txt"
    source.write_text("0200004034000000\n0000000000000000\n1100000000000000\n1234000000000000\n")
    rate_file(source, tmp_path / "r.csv")
    lines = (tmp_path / "r.csv").read_text().splitlines()
    assert lines[1].startswith("0200004034000000,0,1.2,")
    assert lines[2] == "0000000000000000,,,multiple solutions"
    assert lines[3] == "1100000000000000,,,invalid or no solution"
    assert lines[4] == "1234000000000000,,,multiple solutions"


def test_rate_other_sizes():
    for n, box in [(4, (2, 2)), (6, (2, 3)), (12, (3, 4))]:
        puzzles = sudoku.generate(5, n, box, seed=1)
        ratings = sudoku.rate(puzzles, box=box, steps=True)
        assert np.isfinite(ratings.tries).all() and np.isfinite(ratings.logic).all()
        solutions = sudoku.solve(puzzles, box=box).solutions
        for k in range(5):
            for step in ratings.path(k):
                if not step.removed:
                    assert step.digit == solutions[k, step.cell[0] * n + step.cell[1]]


# ---------------------------------------------------------------- command line


def test_cli_generate_then_rate(tmp_path, capsys):
    from numbadlx.cli import main

    made = tmp_path / "made.txt"
    code = main(
        ["generate", "-n", "12", "--size", "6", "--box", "2x3", "--seed", "3", "-o", str(made)]
    )
    assert code == 0
    puzzles = sudoku.parse(made)
    assert (puzzles == sudoku.generate(12, 6, (2, 3), seed=3)).all()
    assert (sudoku.solve(puzzles, box=(2, 3)).status == Status.UNIQUE).all()
    rated = tmp_path / "rated.csv"
    assert main(["rate", str(made), "-o", str(rated), "--box", "2x3", "--no-progress"]) == 0
    lines = rated.read_text().splitlines()
    assert lines[0] == "puzzle,tries,logic,hardest" and len(lines) == 13
    ratings = sudoku.rate(puzzles, box=(2, 3))
    for line, tries, logic, name in zip(
        lines[1:], ratings.tries, ratings.logic, ratings.hardest_names()
    ):
        fields = line.split(",")
        assert float(fields[1]) == pytest.approx(tries) and fields[3] == name
        assert float(fields[2]) == pytest.approx(logic, abs=1e-4)
    # CSV and .npy outputs read back as the same puzzles
    for name in ("made.csv", "made.npy"):
        assert main(["generate", "-n", "3", "--seed", "4", "-o", str(tmp_path / name)]) == 0
        assert (sudoku.parse(tmp_path / name) == sudoku.generate(3, seed=4)).all()


def test_cli_generate_and_rate_errors(tmp_path, capsys):
    from numbadlx.cli import main

    assert main(["generate", "-n", "1", "--clues", "30"]) == 2
    assert "--clues must be LO,HI" in capsys.readouterr().err
    assert main(["generate", "-n", "1", "--clues", "5,6"]) == 2
    assert "fewer than 17 clues" in capsys.readouterr().err
    assert main(["rate", str(tmp_path / "missing.txt")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("0200004034000000\n02x0004034000000\n1100000000000000\n")
    assert main(["rate", str(bad), "-o", str(tmp_path / "r.csv")]) == 1
    lines = (tmp_path / "r.csv").read_text().splitlines()
    assert lines[1].startswith("0200004034000000,0,1.2,")
    assert "invalid character" in lines[2] and lines[3].endswith(",,,invalid or no solution")


# ---------------------------------------------------------------- public datasets


def _spearman(a, b):
    """Spearman correlation with NumPy ranks (ties share their mean rank)."""

    def ranks(values):
        values = np.asarray(values, dtype=np.float64)
        ranked = np.empty(values.size)
        ranked[np.argsort(values, kind="stable")] = np.arange(1, values.size + 1)
        _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
        return np.bincount(inverse, weights=ranked)[inverse] / counts[inverse]

    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def test_spearman_helper_matches_a_hand_count():
    assert _spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert _spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # ties: ranks (1.5, 1.5, 3) against (1, 2, 3): Pearson of the ranks
    assert _spearman([5, 5, 7], [1, 2, 3]) == pytest.approx(np.sqrt(3) / 2)


@pytest.mark.slow
def test_ratings_order_the_public_datasets(datasets):
    sets = {
        "kaggle": sudoku.read_csv(datasets / "kaggle_bryanpark_10k.csv")[0][:2000],
        "top95": sudoku.parse(datasets / "top95.txt"),
        "top1465": sudoku.parse(datasets / "top1465.txt")[::3],
        "forum_hardest_1106": sudoku.parse(datasets / "forum_hardest_1106.txt"),
    }
    medians = {}
    for name, puzzles in sets.items():
        ratings = sudoku.rate(puzzles)
        assert np.isfinite(ratings.tries).all() and np.isfinite(ratings.logic).all()
        medians[name] = (np.median(ratings.tries), np.median(ratings.logic))
    for k in range(2):
        assert medians["kaggle"][k] < min(medians["top95"][k], medians["top1465"][k])
        assert max(medians["top95"][k], medians["top1465"][k]) < medians["forum_hardest_1106"][k]


@pytest.mark.slow
def test_ratings_follow_the_radcliffe_difficulty(datasets):
    import csv

    with open(datasets / "radcliffe_3m_sample_7034.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    puzzles = sudoku.parse([row["puzzle"] for row in rows])
    difficulty = np.array([float(row["difficulty"]) for row in rows])
    ratings = sudoku.rate(puzzles)
    # the choices in `logic` were made looking at the even data rows only: the odd rows
    # are held out (benchmarks/generate.py prints all three); `tries` tuned nothing
    held_out = np.arange(len(rows)) % 2 == 1
    tries = _spearman(ratings.tries[held_out], difficulty[held_out])
    logic = _spearman(ratings.logic[held_out], difficulty[held_out])
    print(f"Spearman, Radcliffe held-out rows: tries {tries:.3f}, logic {logic:.3f}")
    assert tries >= 0.9  # measured 0.912
    assert logic >= 0.75  # measured 0.769
    assert _spearman(ratings.logic, difficulty) >= 0.75  # whole sample: measured 0.773


@pytest.mark.slow
def test_every_logic_step_on_public_puzzles_agrees_with_the_solution(datasets):
    puzzles = np.concatenate(
        [sudoku.parse(datasets / "sudoku17.txt")[:1500], sudoku.parse(datasets / "top1465.txt")]
    )
    solutions = sudoku.solve(puzzles).solutions
    ratings = sudoku.rate(puzzles, isomorphs=1, steps=True)
    used = set()
    for k in range(len(puzzles)):
        rows = ratings.step_table[k, : ratings.n_steps[k]]
        techniques, cells, digits, removed = rows.T
        # a placement puts the solution's digit; an elimination never removes it
        assert ((digits == solutions[k, cells]) == (removed == 0)).all(), k
        used.update(techniques.tolist())
    ladder = set(range(1, len(sudoku.TECHNIQUES)))
    missing = [sudoku.TECHNIQUES[t].name for t in sorted(ladder - used)]
    # hidden quads and jellyfish are rare (once and ten times in 21,465 such puzzles), and
    # the trial rungs solve all of these (forum_hardest_1106 is where search is needed)
    assert set(missing) <= {"hidden quad", "jellyfish", "naked quad", "needs search"}, missing
