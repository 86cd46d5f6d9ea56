"""Grids without boxes (Latin squares and jigsaws) of every size, prime sizes too, on
every layer: parsing, solving on every engine that takes unit tables, counting, the
exact cover, Grid, plot_grid, f-puzzles and the command line.

Answers are checked independently: Latin square counts against published numbers
(OEIS A002860 and A000315), random 5x5 and 7x7 puzzles against the SAT oracle and a
brute-force twin, and every solution against its rows, columns and regions here."""

import itertools
import json

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.cli import EXIT_OK, main
from numbadlx.sudoku import Grid, Rules
from numbadlx.sudoku.shape import NO_BOXES

from .sat_oracle import is_solution, solutions

ENGINES = ("dlx", "bits", "cages")
LATIN = Rules(latin=True)

# a 5x5 jigsaw with regions of five cells each, connected
JIGSAW5 = np.array(
    [
        [0, 0, 0, 1, 1],
        [0, 0, 1, 1, 1],
        [2, 2, 2, 3, 3],
        [2, 4, 2, 3, 3],
        [4, 4, 4, 4, 3],
    ]
)


def _units(n, rules):
    """Rows, columns and the rules' regions, written out here from the definition."""
    out = [[r * n + c for c in range(n)] for r in range(n)]
    out += [[r * n + c for r in range(n)] for c in range(n)]
    if rules.regions is not None:
        ids = np.asarray(rules.regions).ravel().tolist()
        out += [[cell for cell in range(n * n) if ids[cell] == k] for k in sorted(set(ids))]
    return out


def _completes(puzzle, grid, n, rules):
    """Whether ``grid`` keeps the givens and has each digit once in every unit."""
    puzzle, grid = np.asarray(puzzle).ravel(), np.asarray(grid).ravel()
    if ((puzzle > 0) & (puzzle != grid)).any():
        return False
    digits = set(range(1, n + 1))
    return all({int(grid[cell]) for cell in unit} == digits for unit in _units(n, rules))


def _clashes(puzzle, n, rules):
    """Whether two equal givens share a row, a column or a region."""
    puzzle = np.asarray(puzzle).ravel()
    for unit in _units(n, rules):
        given = [int(puzzle[c]) for c in unit if puzzle[c]]
        if len(given) != len(set(given)):
            return True
    return False


def _brute_count(puzzle, n, rules, limit=None):
    """Completions of ``puzzle`` counted by plain backtracking over the blanks."""
    grid = [int(v) for v in np.asarray(puzzle).ravel()]
    units = _units(n, rules)
    of_cell = [[u for u in units if cell in u] for cell in range(n * n)]
    for unit in units:
        given = [grid[c] for c in unit if grid[c]]
        if len(given) != len(set(given)):
            return 0
    blanks = [cell for cell in range(n * n) if not grid[cell]]
    count = 0

    def fill(k):
        nonlocal count
        if limit is not None and count >= limit:
            return
        if k == len(blanks):
            count += 1
            return
        cell = blanks[k]
        used = {grid[c] for unit in of_cell[cell] for c in unit}
        for d in range(1, n + 1):
            if d not in used:
                grid[cell] = d
                fill(k + 1)
                grid[cell] = 0

    fill(0)
    return count


def _random_regions(n, rng):
    """A random region map: ``n`` regions of ``n`` cells (not necessarily connected)."""
    return rng.permutation(np.repeat(np.arange(n), n))


def _random_latin(n, rng):
    """A random Latin square: a cyclic one with rows, columns and symbols shuffled."""
    base = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
    square = base[rng.permutation(n)][:, rng.permutation(n)]
    return rng.permutation(n)[square] + 1


# ------------------------------------------------------------------ counting


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("n", "published"), [(2, 2), (3, 12), (4, 576), (5, 161_280)])
def test_latin_squares_are_counted_as_published(engine, n, published):
    # OEIS A002860: Latin squares of order 2, 3, 4 and 5 (order 2 found no solution on
    # "dlx", whose option layout then looked classic)
    assert sudoku.count_solutions("0" * (n * n), rules=LATIN, engine=engine) == published


@pytest.mark.parametrize("engine", ENGINES)
def test_reduced_latin_squares_of_order_6(engine):
    # OEIS A000315: 9,408 reduced Latin squares of order 6 (first row and column 1..6)
    puzzle = np.zeros((6, 6), dtype=np.uint8)
    puzzle[0, :] = puzzle[:, 0] = np.arange(1, 7)
    assert sudoku.count_solutions(puzzle.ravel(), rules=LATIN, engine=engine) == 9408


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_partial_reduced_latin_square_of_order_7_against_brute_force(engine):
    # the 16,942,080 reduced squares of order 7 are too many: a reduced square with a
    # second row given too, counted by brute force
    puzzle = np.zeros((7, 7), dtype=np.uint8)
    puzzle[0, :] = puzzle[:, 0] = np.arange(1, 8)
    puzzle[1, :] = [2, 3, 1, 5, 7, 4, 6]
    expected = _brute_count(puzzle, 7, LATIN)
    assert expected > 100
    assert sudoku.count_solutions(puzzle.ravel(), rules=LATIN, engine=engine) == expected


def test_counts_agree_with_brute_force_on_a_jigsaw():
    rules = Rules(regions=JIGSAW5)
    puzzle = np.zeros(25, dtype=np.uint8)
    puzzle[[0, 6, 12]] = [1, 2, 3]
    expected = _brute_count(puzzle, 5, rules)
    assert expected > 1
    for engine in ENGINES:
        assert sudoku.count_solutions(puzzle, rules=rules, engine=engine) == expected
    problem, _, _ = sudoku.to_exact_cover(puzzle, rules=rules)
    assert problem.count() == expected


# ------------------------------------------------- random puzzles vs the oracle


def _cases(n, count, seed):
    """Random puzzles of size ``n``: latin and jigsaw, unique or not, now and then with
    two clashing givens (INVALID) or a wrong given (often no solution)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        rules = LATIN if k % 2 == 0 else Rules(regions=_random_regions(n, rng))
        found = solutions([0] * (n * n), n, rules, limit=1)
        if not found:
            continue
        grid = np.array(found[0] if k % 4 else _random_latin(n, rng).ravel())
        if not is_solution([0] * (n * n), n, rules, grid):
            grid = np.array(found[0])
        keep = rng.random(n * n) < rng.uniform(0.35, 0.75)
        puzzle = np.where(keep, grid, 0).astype(np.uint8)
        if k % 7 == 3:  # a clash in row 0
            puzzle[0], puzzle[1] = 1, 1
        elif k % 7 == 5:  # a given changed: often no solution
            cell = int(rng.integers(n * n))
            puzzle[cell] = puzzle[cell] % n + 1
        out.append((puzzle, rules))
    return out


@pytest.mark.parametrize(("n", "count"), [(5, 24), pytest.param(7, 16, marks=pytest.mark.slow)])
def test_random_puzzles_match_the_sat_oracle_on_every_engine(n, count):
    cases = _cases(n, count, seed=n)
    statuses = set()
    for puzzle, rules in cases:
        expected = solutions(puzzle.tolist(), n, rules, limit=2)
        for engine in ENGINES + ("auto",):
            result = sudoku.solve(puzzle[None, :], rules=rules, engine=engine, limit=2)
            status = sudoku.Status(result.status[0])
            statuses.add(status.name)
            if _clashes(puzzle, n, rules):
                assert status == sudoku.Status.INVALID, engine
                continue
            if not expected:
                assert status == sudoku.Status.NO_SOLUTION, engine
            elif len(expected) == 1:
                assert status == sudoku.Status.UNIQUE, engine
                assert result.solutions[0].tolist() == expected[0], engine
            else:
                assert status == sudoku.Status.MULTIPLE, engine
            if expected:
                assert _completes(puzzle, result.solutions[0], n, rules), engine
                assert is_solution(puzzle.tolist(), n, rules, result.solutions[0].tolist())
    assert {"UNIQUE", "MULTIPLE", "INVALID"} <= statuses


def test_a_batch_with_one_rule_set_per_puzzle():
    cases = _cases(5, 12, seed=11)
    puzzles = np.stack([puzzle for puzzle, _ in cases])
    rules = [rule for _, rule in cases]
    result = sudoku.solve(puzzles, rules=rules, engine="bits", threads=2)
    assert result.box is None and result.n == 5
    for k, (puzzle, rule) in enumerate(cases):
        one = sudoku.solve(puzzle[None, :], rules=rule, engine="dlx")
        assert result.status[k] == one.status[0]
        assert result.counts[k] == one.counts[0]
        if result.counts[k] == 1:
            assert _completes(puzzle, result.solutions[k], 5, rule)


# ------------------------------------------------------------------ every layer


def test_parse_reads_prime_sizes_only_with_rules_without_boxes():
    text = "1.....2.....3.....4.....5"
    assert sudoku.parse(text, rules=LATIN).shape == (1, 25)
    assert sudoku.parse([text, text], rules=Rules(regions=JIGSAW5)).shape == (2, 25)
    grid_text = "\n".join(text[i : i + 5] for i in range(0, 25, 5))
    assert sudoku.parse(grid_text, rules=LATIN, format="grid").tolist() == (
        sudoku.parse(text, rules=LATIN).tolist()
    )
    assert sudoku.parse(np.zeros((5, 5)), rules=LATIN).shape == (1, 25)
    with pytest.raises(ValueError, match=r"5x5: 5 is prime.*Rules\(latin=True\)"):
        sudoku.parse(text)
    # a size with a box shape under classic rules is no wrong guess of a prime one
    with pytest.raises(ValueError, match="unsupported puzzle size 7x7"):
        sudoku.parse("0" * 49)
    # without rules a 5x5 line among 4x4 ones is INVALID, never read with a guessed box
    result = sudoku.solve(["0" * 16, "0" * 25, "1" + "0" * 15], limit=1)
    assert result.status_names().tolist() == ["SOLVED", "INVALID", "SOLVED"]
    assert "line has 25 cells, expected 16" in result.messages[1]


def test_classic_rules_on_a_prime_size_say_what_to_pass():
    for call in (
        lambda: sudoku.solve(["0" * 25]),
        lambda: sudoku.solve(["0" * 49], rules=Rules()),
        lambda: sudoku.count_solutions("0" * 25),
        lambda: sudoku.to_exact_cover("0" * 49),
        lambda: Grid("0" * 25),
        lambda: Grid("0" * 49, rules=Rules(diagonals=True)),
    ):
        with pytest.raises(ValueError, match=r"(5x5|7x7).*prime.*Rules\(latin=True\).*regions"):
            call()


def test_bad_inputs_get_clear_errors():
    with pytest.raises(ValueError, match="regions: expected 5 regions of 5 cells"):
        sudoku.solve(["0" * 25], rules=Rules(regions=np.arange(25) % 4))
    with pytest.raises(ValueError, match="regions: expected 25 cells for a 5x5 grid"):
        sudoku.solve(["0" * 25], rules=Rules(regions=np.repeat(np.arange(4), 4)))
    with pytest.raises(ValueError, match="regions"):
        sudoku.solve(["0" * 49], rules=Rules(regions=_random_regions(5, np.random.default_rng(1))))
    # a line of the wrong length among good ones: INVALID, with its message
    result = sudoku.solve(["1" + "0" * 24, "0" * 24, "6" + "0" * 24], rules=LATIN)
    assert result.status_names().tolist() == ["MULTIPLE", "INVALID", "INVALID"]
    assert "24 cells" in result.messages[1] and "too large" in result.messages[2]
    with pytest.raises(ValueError, match=r"shape \(24,\) is not one puzzle"):
        sudoku.count_solutions(np.zeros(24, np.uint8), rules=LATIN)
    # sizes the engines do not take: 1x1 (below 2) and 37x37 (above 36)
    for n in (1, 37):
        with pytest.raises(ValueError, match="for a size n from 2 to 36"):
            sudoku.solve(np.zeros((1, n * n), np.uint8), rules=LATIN)
    with pytest.raises(ValueError, match="unsupported puzzle size 1x1: n must be from 2 to 36"):
        LATIN.checked(1)
    with pytest.raises(ValueError, match=r"3x3: n must be from 4 to 36 \(from 2 without boxes"):
        Rules().checked(3)
    with pytest.raises(ValueError, match="invalid puzzle"):
        sudoku.solve_one("11" + "0" * 23, rules=LATIN)


def test_bands_is_for_classic_grids_and_auto_picks_another_engine():
    with pytest.raises(ValueError, match='"bands" does not solve the rules latin'):
        sudoku.solve(["0" * 25], rules=LATIN, engine="bands")
    with pytest.raises(ValueError, match='"bands" does not solve the rules regions'):
        sudoku.solve(["0" * 25], rules=Rules(regions=JIGSAW5), engine="bands")
    latin9 = sudoku.solve(["123456789" + "0" * 72], rules=LATIN, limit=1)
    assert latin9.engine != "bands"
    assert _completes(latin9.puzzles[0], latin9.solutions[0], 9, LATIN)


def test_solve_one_and_exact_cover_take_the_rules():
    puzzle = "123452....3....4....5...."
    solution = sudoku.solve_one(puzzle, rules=LATIN)
    assert _completes(sudoku.parse(puzzle, rules=LATIN)[0], solution, 5, LATIN)
    problem, cells, digits = sudoku.to_exact_cover(puzzle, rules=LATIN)
    chosen = problem.solve()
    decoded = sudoku.decode_cover(puzzle, chosen, cells, digits, rules=LATIN)
    assert _completes(sudoku.parse(puzzle, rules=LATIN)[0], decoded, 5, LATIN)
    assert problem.count() == _brute_count(sudoku.parse(puzzle, rules=LATIN)[0], 5, LATIN)
    with pytest.raises(TypeError, match="rules=rules"):
        sudoku.to_exact_cover(puzzle, LATIN)


def test_grid_and_plot_draw_no_boxes_and_the_jigsaw_regions():
    import matplotlib

    matplotlib.use("Agg")
    from numbadlx.plotting import plot_grid

    puzzle = "1.....2.....3.....4.....5"
    latin = Grid(puzzle, sudoku.solve_one(puzzle, rules=LATIN), rules=LATIN)
    assert latin.box is None and "boxes" not in latin.summary()
    assert "|" not in repr(latin) and "-+-" not in repr(latin)
    assert 'class="border"' not in latin._repr_html_()
    jigsaw = Grid(puzzle, rules=Rules(regions=JIGSAW5))
    html = jigsaw._repr_html_()
    # one thick segment for each pair of side-by-side cells in different regions
    ids = JIGSAW5
    between = int((ids[:, 1:] != ids[:, :-1]).sum() + (ids[1:, :] != ids[:-1, :]).sum())
    assert html.count('class="border"') == between
    fig = plot_grid(puzzle, rules=Rules(regions=JIGSAW5))
    assert sorted(t.get_text() for t in fig.axes[0].texts) == ["1", "2", "3", "4", "5"]
    fig = plot_grid(puzzle, latin.solution, rules=LATIN)
    assert len(fig.axes[0].texts) == 25


def _fpuzzles_jigsaw(n, regions, givens):
    grid = [
        [
            {"region": int(regions[r][c]), **({"value": givens[r * n + c], "given": True})}
            if givens[r * n + c]
            else {"region": int(regions[r][c])}
            for c in range(n)
        ]
        for r in range(n)
    ]
    return json.dumps({"size": n, "grid": grid})


@pytest.mark.slow
def test_fpuzzles_jigsaws_of_prime_sizes_on_the_command_line(tmp_path):
    rng = np.random.default_rng(5)
    for n in (5, 7):
        found = []
        while not found:  # a random region map may have no solution: draw again
            regions = JIGSAW5 if n == 5 else _random_regions(7, rng).reshape(7, 7)
            rules = Rules(regions=regions)
            found = solutions([0] * (n * n), n, rules, limit=1)
        grid = np.array(found[0])
        givens = np.where(rng.random(n * n) < 0.6, grid, 0).tolist()
        path = tmp_path / f"jigsaw{n}.json"
        path.write_text(_fpuzzles_jigsaw(n, regions, givens))
        puzzle, read = sudoku.read_fpuzzles(path)
        assert read == rules and puzzle.tolist() == givens
        out = tmp_path / f"out{n}.txt"
        assert main(["solve", str(path), "-o", str(out), "--no-progress"]) == EXIT_OK
        line = out.read_text().split()[0]
        solved = [int(ch, 36) for ch in line]
        assert _completes(givens, solved, n, rules)
    # on a prime size a cell without a region is in its row's region (f-puzzles' default)
    path = tmp_path / "rows.json"
    path.write_text(json.dumps({"size": 5, "grid": [[{}] * 5] * 5}))
    assert sudoku.read_fpuzzles(path)[1].regions.tolist() == [c // 5 for c in range(25)]


def test_all_latin_squares_of_order_3_are_found_and_valid():
    # every 3x3 Latin square, by brute force over all 9-digit grids, against the count
    squares = [
        grid
        for grid in itertools.product(range(1, 4), repeat=9)
        if _completes([0] * 9, grid, 3, LATIN)
    ]
    assert len(squares) == 12
    for grid in squares[:4]:
        puzzle = np.array(grid, dtype=np.uint8)
        puzzle[[1, 2, 5]] = 0
        for engine in ENGINES:
            result = sudoku.solve(puzzle[None, :], rules=LATIN, engine=engine)
            assert result.counts[0] == _brute_count(puzzle, 3, LATIN)
            assert _completes(puzzle, result.solutions[0], 3, LATIN)


@pytest.mark.parametrize(
    ("n", "rules"), [(5, LATIN), (7, LATIN), (5, Rules(regions=JIGSAW5)), (3, LATIN), (2, LATIN)]
)
def test_generated_puzzles_round_trip_through_text_and_every_engine(n, rules):
    puzzles = sudoku.generate(2, size=n, rules=rules, seed=7)
    lines = sudoku.format_lines(puzzles)
    read = sudoku.parse(lines, rules=rules)
    assert read.tolist() == puzzles.tolist()
    for puzzle in puzzles:
        assert _brute_count(puzzle, n, rules, limit=2) == 1
    for engine in ENGINES:
        result = sudoku.solve(lines, rules=rules, engine=engine)
        assert result.status_names().tolist() == ["UNIQUE", "UNIQUE"]
        for puzzle, solution in zip(puzzles, result.solutions):
            assert _completes(puzzle, solution, n, rules)


@pytest.mark.slow
def test_fuzzed_regions_and_lines_raise_value_errors_or_solve_correctly():
    rng = np.random.default_rng(2026)
    for _ in range(40):
        n = int(rng.choice([5, 7]))
        cells = n * n + int(rng.choice([0, 0, -1, 1, -n]))
        ids = rng.integers(0, n + int(rng.integers(0, 2)), size=cells)
        if rng.random() < 0.3:
            ids = rng.permutation(np.repeat(np.arange(n), n))  # a good map now and then
        try:
            rules = Rules(regions=ids)
            result = sudoku.solve(["0" * (n * n)], rules=rules, engine="bits", limit=1)
        except ValueError as error:
            assert str(error).startswith("regions: ")
            continue
        assert np.bincount(ids).tolist() == [n] * n  # only a good map gets here
        if result.counts[0]:
            assert _completes([0] * (n * n), result.solutions[0], n, rules)
        else:
            assert not solutions([0] * (n * n), n, rules, limit=1)
    # lines of the wrong length or with a bad character: INVALID with a message
    lines = ["0" * 24, "0" * 26, "x" + "0" * 24, "8" + "0" * 24, "0" * 25]
    result = sudoku.solve(lines, rules=LATIN, limit=1)
    assert result.status_names().tolist() == ["INVALID"] * 4 + ["SOLVED"]
    assert sorted(result.messages) == [0, 1, 2, 3]


def test_files_of_prime_sizes_are_read_with_rules(tmp_path):
    puzzles = sudoku.generate(3, size=7, rules=LATIN, seed=3)
    lines = sudoku.format_lines(puzzles)
    text = tmp_path / "latin7.txt"
    text.write_text("\n".join(lines) + "\n")
    chunks = list(sudoku.iter_chunks(text, rules=LATIN, chunk_size=2))
    assert [len(chunk) for chunk in chunks] == [2, 1]
    assert np.concatenate([c.puzzles for c in chunks]).tolist() == puzzles.tolist()
    with pytest.raises(ValueError, match="7 is prime"):
        list(sudoku.iter_chunks(text))
    result = sudoku.solve(text, rules=LATIN)
    assert result.status_names().tolist() == ["UNIQUE"] * 3
    table = tmp_path / "latin7.csv"
    rows = [f"{p},{sudoku.format_line(s)}" for p, s in zip(lines, result.solutions)]
    table.write_text("puzzle,solution\n" + "\n".join(rows) + "\n")
    read, solved = sudoku.read_csv(table, rules=LATIN)
    assert read.tolist() == puzzles.tolist()
    assert solved.tolist() == result.solutions.tolist()
    for puzzle, solution in zip(read, solved):
        assert _completes(puzzle, solution, 7, LATIN)
    grid = tmp_path / "latin7_grid.txt"
    grid.write_text(sudoku.format_grid(puzzles[0], NO_BOXES) + "\n")
    assert sudoku.parse(grid, rules=LATIN).tolist() == puzzles[:1].tolist()


def test_clashing_givens_are_named_by_row_column_or_region():
    blank = np.zeros(25, dtype=np.uint8)
    cases = [
        ((0, 3), LATIN, r"digit 2 appears twice in row 1 \(columns 1 and 4\)"),
        ((1, 21), LATIN, r"digit 2 appears twice in column 2 \(rows 1 and 5\)"),
        # cells 3 and 9 are both in region 1 of JIGSAW5 (rows 1-2, columns 4 and 5)
        ((3, 9), Rules(regions=JIGSAW5), r"twice in region 2 \(cells \(1,4\) and \(2,5\)\)"),
        ((0, 24), Rules(latin=True, diagonals=True), "clash under the rules"),
    ]
    for (a, b), rules, message in cases:
        puzzle = blank.copy()
        puzzle[[a, b]] = 2
        assert _clashes(puzzle, 5, rules) or rules.diagonals
        with pytest.raises(ValueError, match=message):
            sudoku.solve_one(puzzle, rules=rules)
