"""An independent oracle: a SAT solver (python-sat, used only here) enumerates the
solutions of random exact-cover problems and random Sudokus, and numbadlx must agree on
the number of solutions (up to a limit) and, where all are listed, on the solutions.

The CNF encodings are written out here from the definitions, sharing no code with
numbadlx: a variable per option (per (cell, digit) for Sudoku); exactly one chosen
option per primary item, at most one per secondary item (or, with colours, only options
agreeing on a non-zero colour together; with multiplicities, between u and v per primary
item). Models are enumerated with blocking clauses over the option variables.
"""

import itertools
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numbadlx import ExactCover, sudoku
from numbadlx.sudoku import random_grid
from tests.helpers import grid_errors

pysat_solvers = pytest.importorskip("pysat.solvers", reason="needs python-sat")
from pysat.card import CardEnc, EncType  # noqa: E402
from pysat.formula import IDPool  # noqa: E402


def _at_most_one(literals):
    return [[-a, -b] for a, b in itertools.combinations(literals, 2)]


def _enumerate(clauses, variables, limit, top):
    """Up to ``limit`` distinct assignments of ``variables`` (as sets of the true ones)
    extendable to a model of ``clauses``."""
    found = []
    with pysat_solvers.Solver(name="minisat22", bootstrap_with=clauses) as solver:
        while len(found) < limit and solver.solve():
            model = solver.get_model()
            value = {abs(v): v > 0 for v in model}
            true = frozenset(v for v in variables if value.get(v, False))
            found.append(true)
            # block this assignment of the option variables (auxiliaries are free)
            solver.add_clause([-v if v in true else v for v in variables])
    return found


def exact_cover_cnf(options, n_items, secondary, colours=None, bounds=None):
    """Clauses over variables 1..len(options) (option k is variable k + 1)."""
    pool = IDPool(start_from=len(options) + 1)
    clauses = []
    holders = [[] for _ in range(n_items)]  # (variable, colour) of options with item i
    for k, option in enumerate(options):
        for t, item in enumerate(option):
            colour = 0 if colours is None or colours[k] is None else colours[k][t]
            holders[item].append((k + 1, colour))
        if not any(not secondary[item] for item in option):
            clauses.append([-(k + 1)])  # options are chosen through a primary item
    primary_row = 0
    for item in range(n_items):
        literals = [v for v, _ in holders[item]]
        if secondary[item]:
            for (a, ca), (b, cb) in itertools.combinations(holders[item], 2):
                if ca == 0 or cb == 0 or ca != cb:
                    clauses.append([-a, -b])
            continue
        low, high = (1, 1) if bounds is None else bounds[primary_row]
        primary_row += 1
        if low > len(literals):
            clauses.append([])  # cannot be covered often enough
            continue
        if low > 0:
            clauses.extend(
                CardEnc.atleast(
                    literals, bound=low, vpool=pool, encoding=EncType.seqcounter
                ).clauses
            )
        if high < len(literals):
            clauses.extend(
                CardEnc.atmost(
                    literals, bound=high, vpool=pool, encoding=EncType.seqcounter
                ).clauses
            )
    return clauses, list(range(1, len(options) + 1)), pool.top


def sat_solutions(options, n_items, secondary, limit, colours=None, bounds=None):
    clauses, variables, top = exact_cover_cnf(options, n_items, secondary, colours, bounds)
    if any(len(clause) == 0 for clause in clauses):
        return []
    return [
        tuple(sorted(v - 1 for v in found)) for found in _enumerate(clauses, variables, limit, top)
    ]


# ------------------------------------------------------------------ exact cover
@st.composite
def problems(draw, colours=False, bounds=False):
    n_items = draw(st.integers(1, 16))
    n_secondary = draw(st.integers(0, min(4, n_items)))
    secondary = [False] * (n_items - n_secondary) + [True] * n_secondary
    n_options = draw(st.integers(0, 30))
    options = []
    for _ in range(n_options):
        size = draw(st.integers(1, min(4, n_items)))
        options.append(
            sorted(
                draw(
                    st.lists(st.integers(0, n_items - 1), min_size=size, max_size=size, unique=True)
                )
            )
        )
    colour_lists = None
    if colours:
        colour_lists = [
            [draw(st.integers(0, 2)) if secondary[i] else 0 for i in option] for option in options
        ]
    bound_rows = None
    if bounds:
        bound_rows = []
        for _ in range(n_items - n_secondary):
            low = draw(st.integers(0, 2))
            bound_rows.append((low, draw(st.integers(max(low, 1), 3))))
    return options, n_items, secondary, colour_lists, bound_rows


def _satisfies(chosen, options, n_items, secondary, colour_lists, bound_rows):
    """Check a solution straight from the definitions (no CNF, no numbadlx)."""
    covered = [[] for _ in range(n_items)]
    for k in chosen:
        for t, item in enumerate(options[k]):
            covered[item].append(0 if colour_lists is None else colour_lists[k][t])
    if any(all(secondary[i] for i in options[k]) for k in chosen):
        return False
    row = 0
    for item in range(n_items):
        if secondary[item]:
            if len(covered[item]) > 1 and (0 in covered[item] or len(set(covered[item])) > 1):
                return False
            continue
        low, high = (1, 1) if bound_rows is None else bound_rows[row]
        row += 1
        if not low <= len(covered[item]) <= high:
            return False
    return True


LIMIT = 60
EXAMPLES = int(os.environ.get("NUMBADLX_FUZZ_EXAMPLES", "120"))  # more for a bug hunt
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _compare(options, n_items, secondary, colour_lists=None, bound_rows=None, engine="dlx"):
    expected = sat_solutions(options, n_items, secondary, LIMIT + 1, colour_lists, bound_rows)
    problem = ExactCover(
        options,
        dense=False,
        n_items=n_items,
        secondary=np.array(secondary),
        colours=colour_lists,
        bounds=bound_rows,
        engine=engine,
    )
    assert problem.count(LIMIT) == min(len(expected), LIMIT)
    listed = [tuple(s.tolist()) for s in problem.solutions(limit=LIMIT + 1, batch=7)]
    assert len(listed) == len(set(listed)), "a solution was listed twice"
    for solution in listed:
        assert _satisfies(solution, options, n_items, secondary, colour_lists, bound_rows)
    assert len(listed) == len(expected)
    if len(expected) <= LIMIT:  # the SAT solver listed them all: the same sets
        assert set(listed) == set(expected)


@SETTINGS
@given(problems())
def test_exact_cover_with_secondary_items_matches_sat(case):
    options, n_items, secondary, _, _ = case
    _compare(options, n_items, secondary)


@SETTINGS
@given(problems(colours=True))
def test_colours_match_sat(case):
    options, n_items, secondary, colour_lists, _ = case
    _compare(options, n_items, secondary, colour_lists=colour_lists)


@SETTINGS
@given(problems(bounds=True))
def test_multiplicities_match_sat(case):
    options, n_items, secondary, _, bound_rows = case
    if not any(not s for s in secondary):
        bound_rows = None
    _compare(options, n_items, secondary, bound_rows=bound_rows)


@SETTINGS
@given(problems(colours=True, bounds=True))
def test_multiplicities_and_colours_on_dancing_cells_match_sat(case):
    options, n_items, secondary, colour_lists, bound_rows = case
    if not any(not s for s in secondary):
        bound_rows = None
    _compare(options, n_items, secondary, colour_lists, bound_rows, engine="cells")


def test_the_oracle_itself_on_known_counts():
    # 6 queens: 4 solutions, diagonals secondary; Knuth's example: 1 solution
    from numbadlx import problems as library

    queens = library.n_queens(6)
    options = [queens.option(k).tolist() for k in range(queens.n_options)]
    assert len(sat_solutions(options, queens.n_items, queens.secondary.tolist(), 10)) == 4
    knuth = [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]]
    assert sat_solutions(knuth, 7, [False] * 7, 10) == [(0, 3, 4)]
    # a secondary item shared with one colour is allowed, with two colours it is not
    assert (
        len(sat_solutions([[0, 2], [1, 2]], 3, [False, False, True], 5, colours=[[0, 1], [0, 1]]))
        == 1
    )
    assert (
        sat_solutions([[0, 2], [1, 2]], 3, [False, False, True], 5, colours=[[0, 1], [0, 2]]) == []
    )


# ----------------------------------------------------------------------- Sudoku
def sudoku_cnf(puzzle, n, box):
    rows, cols = box

    def var(cell, digit):  # digit 0..n-1
        return cell * n + digit + 1

    clauses = []
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    units += [
        [(r0 + i) * n + c0 + j for i in range(rows) for j in range(cols)]
        for r0 in range(0, n, rows)
        for c0 in range(0, n, cols)
    ]
    for cell in range(n * n):
        literals = [var(cell, d) for d in range(n)]
        clauses.append(literals)
        clauses.extend(_at_most_one(literals))
        if puzzle[cell]:
            clauses.append([var(cell, int(puzzle[cell]) - 1)])
    for unit in units:
        for d in range(n):
            literals = [var(cell, d) for cell in unit]
            clauses.append(literals)
            clauses.extend(_at_most_one(literals))
    return clauses, var


def sat_sudoku(puzzle, n, box, limit):
    clauses, var = sudoku_cnf(puzzle, n, box)
    variables = [var(cell, d) for cell in range(n * n) if not puzzle[cell] for d in range(n)]
    grids = []
    for true in _enumerate(clauses, variables, limit, n * n * n):
        grid = np.array(puzzle, dtype=np.uint8)
        for v in true:
            cell, digit = divmod(v - 1, n)
            grid[cell] = digit + 1
        grids.append(grid)
    return grids


SHAPES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (9, (3, 3))]
SUDOKU_LIMIT = 12


@pytest.mark.parametrize("n, box", SHAPES)
def test_random_sudokus_match_sat(n, box):
    rng = np.random.default_rng(1000 + n * 10 + box[0])
    puzzles = []
    for k in range(12 if n < 9 else 8):
        grid = random_grid(n, box=box, seed=int(rng.integers(1 << 31)))
        puzzle = grid.copy()
        # from a few blanks (unique) to most blanks (many solutions)
        share = [0.3, 0.5, 0.6, 0.7, 0.8, 0.9][k % 6] if n < 9 else [0.45, 0.55, 0.62, 0.7][k % 4]
        puzzle[rng.random(n * n) < share] = 0
        puzzles.append(puzzle)
    # and some that are not completions of a grid: random givens that do not clash
    for _ in range(4):
        grid = random_grid(n, box=box, seed=int(rng.integers(1 << 31)))
        other = random_grid(n, box=box, seed=int(rng.integers(1 << 31)))
        mixed = np.where(rng.random(n * n) < 0.5, grid, other)
        mixed[rng.random(n * n) < 0.75] = 0
        if sudoku.check_grid(mixed, box) is None:
            puzzles.append(mixed)
    puzzles = np.array(puzzles, dtype=np.uint8)
    result = sudoku.solve(puzzles, box=box, limit=SUDOKU_LIMIT)
    statuses = set()
    for k, puzzle in enumerate(puzzles):
        expected = sat_sudoku(puzzle, n, box, SUDOKU_LIMIT + 1)
        assert result.counts[k] == min(len(expected), SUDOKU_LIMIT), k
        name = sudoku.Status(result.status[k]).name
        statuses.add(name)
        assert name == {0: "NO_SOLUTION", 1: "UNIQUE"}.get(len(expected), "MULTIPLE")
        if expected:
            solution = result.solutions[k]
            assert grid_errors(puzzle[None], solution[None], box) == []
            if len(expected) <= SUDOKU_LIMIT:  # all listed: it must be one of them
                assert any(np.array_equal(solution, grid) for grid in expected)
        else:
            assert not result.solutions[k].any()
    assert {"UNIQUE", "MULTIPLE"} <= statuses


@pytest.mark.slow
@settings(SETTINGS, max_examples=max(1, EXAMPLES // 2))
@given(st.sampled_from(SHAPES), st.integers(0, 2**31 - 1), st.floats(0.0, 1.0))
def test_hypothesis_sudokus_match_sat(shape, seed, share):
    n, box = shape
    rng = np.random.default_rng(seed)
    puzzle = random_grid(n, box=box, seed=seed)
    puzzle[rng.random(n * n) < share] = 0
    result = sudoku.solve(puzzle[None], box=box, limit=SUDOKU_LIMIT)
    expected = sat_sudoku(puzzle, n, box, SUDOKU_LIMIT + 1)
    assert result.counts[0] == min(len(expected), SUDOKU_LIMIT)
    if expected:
        assert grid_errors(puzzle[None], result.solutions[:1], box) == []
    if 0 < len(expected) <= SUDOKU_LIMIT:
        assert any(np.array_equal(result.solutions[0], grid) for grid in expected)
