"""The explorer's tools of ExactCover: SAT export, preprocessing, estimates, seeds,
each against a brute force or a SAT solver written apart from the kernels."""

import math

import numpy as np
import pytest

from numbadlx import ExactCover, problems
from tests.helpers import naive_solutions_xcc, random_xcc

pysat = pytest.importorskip("pysat.solvers")


def _brute_force(problem):
    return naive_solutions_xcc(
        problem.indptr,
        problem.indices,
        problem.n_items,
        problem.secondary,
        problem.colours,
        problem.bounds,
    )


def _sat_models(cnf_text, n_options):
    """Every model of the DIMACS text, projected on variables 1..n_options."""
    lines = [line for line in cnf_text.splitlines() if line and line[0] not in "cp"]
    clauses = [[int(v) for v in line.split()[:-1]] for line in lines]
    assert all(line.split()[-1] == "0" for line in lines)
    found = set()
    with pysat.Glucose4(bootstrap_with=clauses) as solver:
        while solver.solve():
            true = {v for v in solver.get_model() if v > 0}
            chosen = tuple(k for k in range(n_options) if k + 1 in true)
            found.add(chosen)
            solver.add_clause([-(k + 1) if k in chosen else k + 1 for k in range(n_options)])
    return found


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["X", "C", "M"])
def test_cnf_models_are_the_solutions(kind, seed):
    rng = np.random.default_rng([seed, ord(kind)])
    for _ in range(25):
        problem = ExactCover(**random_xcc(rng, colours=kind != "X", bounds=kind == "M"))
        text = problem.to_cnf()
        header = [line for line in text.splitlines() if line.startswith("p cnf ")]
        n_vars, n_clauses = map(int, header[0].split()[2:])
        assert n_vars >= problem.n_options
        body = [line for line in text.splitlines() if line[:1] not in ("c", "p")]
        assert n_clauses == len(body) and all(line.endswith(" 0") or line == "0" for line in body)
        assert _sat_models(text, problem.n_options) == set(_brute_force(problem))


def test_cnf_of_queens_counts_92_and_an_option_without_primary_item_is_never_chosen():
    queens = problems.n_queens(8)
    text = queens.to_cnf()
    assert len(_sat_models(text, queens.n_options)) == 92
    lonely = ExactCover([[0], [1]], secondary=1)
    assert "-2 0" in lonely.to_cnf().splitlines()
    assert _sat_models(lonely.to_cnf(), 2) == {(0,)}


@pytest.mark.parametrize("seed", range(8))
def test_reduced_keeps_every_solution(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(25):
        problem = ExactCover(**random_xcc(rng, colours=seed % 2 == 1))
        smaller, option_map = problem.reduced()
        assert smaller.n_options <= problem.n_options
        mapped = {tuple(sorted(option_map[list(s)].tolist())) for s in _brute_force(smaller)}
        assert mapped == set(_brute_force(problem))
        report = smaller.reduction
        assert len(report.options) == problem.n_options - smaller.n_options
        assert len(report.items) == problem.n_items - smaller.n_items
        assert sorted(k for k, _ in report.options) == sorted(
            set(range(problem.n_options)) - set(option_map.tolist())
        )


def test_reduced_removes_what_dlx_pre_would_and_says_why():
    # option 3 has no primary item; option 2 clashes with both options of item a,
    # and option 1 then with item b's only one; item a's one option holds b (implied)
    problem = ExactCover([[0, 1], [0, 2], [1, 2], [3]], secondary=1, item_names="abcs")
    smaller, option_map = problem.reduced()
    assert option_map.tolist() == [0]
    assert dict(smaller.reduction.options) == {
        3: "no primary item",
        2: "blocks item a",
        1: "blocks item b",
    }
    assert smaller.reduction.items == [(1, "implied by item a")]
    assert smaller.item_names == ["a", "c", "s"]
    assert problem.count() == smaller.count() == 0
    # pentominoes: counts equal after reduction
    pent = problems.pentominoes(3, 20)
    small, _ = pent.reduced()
    assert small.n_options < pent.n_options
    assert small.count() == pent.count() == 8


def test_reduced_refuses_multiplicities():
    with pytest.raises(ValueError, match="multiplicities"):
        ExactCover([[0], [0]], bounds=[(1, 2)]).reduced()


@pytest.mark.parametrize("name, size", [("n_queens", 6), ("langford", 7), ("n_queens", 7)])
def test_estimates_are_unbiased(name, size):
    problem = getattr(problems, name)(size)
    count = problem.count()
    nodes = problem.stats.nodes
    guess = problem.estimate(20_000, seed=11)
    # the mean of many paths lies within a few standard errors of the truth
    assert abs(guess.nodes - nodes) <= 4 * guess.nodes_error + 1e-9
    assert abs(guess.solutions - count) <= 4 * guess.solutions_error + 1e-9
    assert guess.samples == 20_000
    assert guess.nodes_error > 0 or guess.nodes == nodes


def test_estimate_is_exact_on_a_tree_without_choices_and_reproducible():
    chain = ExactCover([[0], [1], [2]])
    guess = chain.estimate(50, seed=0)
    chain.count()
    assert guess.nodes == chain.stats.nodes == 4
    assert guess.solutions == 1 and guess.nodes_error == 0
    # the paths of a long estimate are summed batch by batch, not kept
    assert chain.estimate(10_000, seed=0).nodes == 4
    queens = problems.n_queens(8)
    assert queens.estimate(300, seed=5) == queens.estimate(300, seed=5)
    assert queens.estimate(300, seed=5) != queens.estimate(300, seed=6)
    coloured = ExactCover.from_names(
        [["a", "x:red"], ["b", "x:red"], ["a", "b", "x:blue"]], secondary=["x"]
    )
    guess = coloured.estimate(4000, seed=3)
    assert abs(guess.solutions - coloured.count()) <= 4 * guess.solutions_error
    assert not math.isnan(guess.nodes)


def test_estimate_refuses_bad_input():
    with pytest.raises(ValueError, match="multiplicities"):
        ExactCover([[0], [0]], bounds=[(1, 2)]).estimate()
    with pytest.raises(ValueError, match="samples must be a positive integer"):
        problems.n_queens(4).estimate(0)


def test_seed_gives_valid_and_reproducible_solutions_in_original_numbering():
    queens = problems.n_queens(8)
    firsts = {tuple(queens.solve(seed=s).tolist()) for s in range(12)}
    assert len(firsts) > 1
    for first in firsts:
        assert queens.verify(first)
    assert queens.solve(seed=4).tolist() == queens.solve(seed=4).tolist()
    everything = {tuple(s.tolist()) for s in queens.solutions(seed=9)}
    assert everything == {tuple(s.tolist()) for s in queens.solutions()}
    assert len(everything) == 92
    assert ExactCover([[0, 1], [1, 2]]).solve(seed=1) is None
    with pytest.raises(TypeError):
        queens.solve(seed=True)


def test_count_progress_reports_a_rising_share_that_ends_at_one():
    seen = []
    queens = problems.n_queens(12)
    assert queens.count(progress=lambda *row: seen.append(row)) == 14200
    shares = [share for share, _, _ in seen]
    assert len(seen) > 3 and shares == sorted(shares) and shares[-1] == 1.0
    assert seen[-1][1:] == (queens.stats.nodes, 14200)
    # the share tracks the nodes: a uniform-subtree estimate, within a factor here
    middle = seen[len(seen) // 2]
    assert 0.3 < middle[0] / (middle[1] / queens.stats.nodes) < 3
