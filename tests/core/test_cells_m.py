"""Algorithm M on dancing cells (``engine='cells'`` with multiplicities): the solutions
of a brute force on random problems and of the DLX engine on the package's problems,
the tree of the X and C cells kernel when no item has a real multiplicity, budgets and
resuming, how ``engine='auto'`` chooses, and why memoised counts stay refused."""

import os

import numpy as np
import pytest

from numbadlx import BudgetExceeded, ExactCover, problems
from numbadlx.core.kernels import cells_m
from numbadlx.core.search import engine_for
from numbadlx.core.zdd import MemoSearch
from tests.helpers import ctrl_c_after, naive_solutions_xcc, random_xcc


def _solutions(problem, engine, batch=64):
    problem.engine = engine
    found = [tuple(s.tolist()) for s in problem.solutions(batch=batch)]
    assert len(found) == len(set(found)), f"{engine} repeated a solution"
    return set(found), problem.stats


@pytest.mark.parametrize("seed", range(4))
def test_random_problems_match_brute_force_on_both_engines(seed):
    rng = np.random.default_rng(1000 + seed)
    algorithms = set()
    for trial in range(100):
        kwargs = random_xcc(rng, colours=trial % 2 == 0, bounds=True, max_items=7, max_options=11)
        problem = ExactCover(**kwargs)
        algorithms.add(problem.algorithm)
        expected = set(
            naive_solutions_xcc(
                problem.indptr,
                problem.indices,
                problem.n_items,
                problem.secondary,
                problem.colours,
                problem.bounds,
            )
        )
        for engine in ("dlx", "cells"):
            found, stats = _solutions(problem, engine, batch=int(rng.integers(1, 4)))
            assert found == expected, (engine, kwargs)
            assert stats.solutions == len(expected)
            assert problem.count() == len(expected)
            first = problem.solve()
            assert (first is None) == (not expected)
            if expected:
                assert tuple(first.tolist()) in expected
                limit = max(1, len(expected) - 1)
                assert problem.count(limit=limit) == limit
    assert "M" in algorithms


# problems of the package that use multiplicities (small sizes)
PROBLEMS = {
    "two-per-line-5": lambda: problems.k_per_row_and_column(5, 2),
    "three-per-line-5": lambda: problems.k_per_row_and_column(5, 3),
    "queens-as-m-8": lambda: problems.k_per_row_and_column(8, 1, max_per_diagonal=1),
    "two-per-line-diagonals-6": lambda: problems.k_per_row_and_column(6, 2, max_per_diagonal=2),
    "dominoes-4x4-h2..6": lambda: problems.domino_tilings(4, 4, horizontal=(2, 6)),
    "dominoes-4x5-h6": lambda: problems.domino_tilings(4, 5, horizontal=6),
    "tetrominoes-twice-5x8": lambda: problems.polyomino_tilings(
        5, 8, problems.TETROMINOES, copies=2
    ),
    "pentominoes-0..1-4x5": lambda: problems.polyomino_tilings(
        4, 5, problems.PENTOMINOES, copies=(0, 1)
    ),
}
# published counts: OEIS A001499 (2040), its complement for k = 3, A000170 (92); the
# rest are checked against DLX only
PUBLISHED = {"two-per-line-5": 2040, "three-per-line-5": 2040, "queens-as-m-8": 92}


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_cells_and_links_agree_on_the_package_problems(name):
    problem = PROBLEMS[name]()
    assert problem.algorithm == "M"
    dlx, _ = _solutions(problem, "dlx")
    found, stats = _solutions(problem, "cells", batch=5)
    assert found == dlx
    assert stats.solutions == len(dlx)
    if name in PUBLISHED:
        assert len(found) == PUBLISHED[name]
    problem.engine = "cells"
    assert problem.count() == len(dlx)
    first = problem.solve()
    if dlx:
        assert problem.verify(first)


def _with_a_slack_item(problem):
    """``problem`` (X or C) as an Algorithm M problem: every item ``(1, 1)``, and one
    more primary item, in no option, of multiplicity ``0..1``."""
    secondary = np.concatenate([[False], problem.secondary])
    bounds = [(0, 1)] + [(1, 1)] * problem.n_primary
    return ExactCover.from_csr(
        problem.indptr,
        problem.indices + 1,
        n_items=problem.n_items + 1,
        secondary=secondary,
        colours=problem.colours,
        bounds=bounds,
    )


@pytest.mark.parametrize(
    "build",
    [
        lambda: problems.pentominoes(3, 20),
        lambda: problems.n_queens(8),
        lambda: problems.langford(8),
        lambda: problems.word_square(3, problems.WORDS3[:120]),
    ],
    ids=["pentominoes", "queens", "langford", "word-square"],
)
def test_without_real_multiplicities_the_tree_is_that_of_cells_x_and_c(build):
    # every item needs exactly one cover, so M's branches are X's and C's: the M
    # kernel must walk the very tree of the X/C cells kernel (same item rule, same
    # order of options, same dead ends), node for node
    plain = build()
    bounded = _with_a_slack_item(plain)
    assert bounded.algorithm == "M"
    plain_found, plain_stats = _solutions(plain, "cells")
    found, stats = _solutions(bounded, "cells")
    assert found == plain_found
    assert stats.nodes == plain_stats.nodes


def test_budgets_resume_and_limits():
    problem = problems.k_per_row_and_column(5, 2)
    problem.engine = "cells"
    whole = [tuple(s.tolist()) for s in problem.solutions()]
    one_by_one = [tuple(s.tolist()) for s in problem.solutions(batch=1)]
    assert one_by_one == whole and len(whole) == 2040
    with pytest.raises(BudgetExceeded) as stopped:
        problem.count(max_nodes=500)
    assert 0 < stopped.value.found < 2040 and problem.stats.nodes == 500
    assert problem.count(limit=17) == 17
    stream = problem.solutions(limit=30, batch=4)
    assert [tuple(s.tolist()) for s in stream] == whole[:30]
    with pytest.raises(BudgetExceeded):
        problem.count(timeout=0.0)
    # a long search stops at its deadline, between slices of the kernel
    long = problems.k_per_row_and_column(12, 2)
    long.engine = "cells"
    with pytest.raises(BudgetExceeded, match="timeout"):
        long.count(timeout=0.3)
    assert long.stats.nodes > 0 and long.stats.status == "budget"


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a thread is POSIX")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_ends_a_long_count(threads):
    problem = problems.k_per_row_and_column(14, 2)  # never finished here
    problem.engine = "cells"
    problem.count(limit=1)  # compiled or loaded before the clock starts
    timer, _ = ctrl_c_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            # a deadline far off: should Ctrl-C not stop the count, it ends there and
            # BudgetExceeded, not KeyboardInterrupt, fails the test
            problem.count(threads=threads, timeout=60)
    finally:
        timer.cancel()


def test_knuths_convention_and_trivial_problems():
    # an option without a primary item is never chosen; no primary item: one solution
    problem = ExactCover([[0, 1], [1]], n_items=2, secondary=1, bounds=[(0, 2)], engine="cells")
    assert sorted(tuple(s.tolist()) for s in problem.solutions()) == [(), (0,)]
    need_two = ExactCover([[0], [0, 1]], n_items=2, secondary=1, bounds=[(2, 3)], engine="cells")
    assert [s.tolist() for s in need_two.solutions()] == [[0, 1]]
    too_few = ExactCover([[0], [1]], bounds=[(2, 2), (1, 1)], engine="cells")
    assert too_few.count() == 0 and too_few.solve() is None


@pytest.mark.parametrize("copies", [0, True, (2, 1), "x"])
def test_bad_copies_are_refused(copies):
    with pytest.raises(ValueError, match="copies="):
        problems.polyomino_tilings(2, 2, {"domino": [(0, 0), (0, 1)]}, copies=copies)


def test_auto_picks_per_problem_as_for_x_and_c():
    for build, engine in [
        (lambda: problems.polyomino_tilings(5, 9, problems.PENTOMINOES, copies=(0, 1)), "cells"),
        (lambda: problems.polyomino_tilings(5, 8, problems.TETROMINOES, copies=2), "dlx"),
        (lambda: problems.k_per_row_and_column(7, 2), "dlx"),
        (lambda: problems.domino_tilings(6, 6, horizontal=8), "dlx"),
        # options of three items in even numbers: the rule for X and C only
        (
            lambda: ExactCover(
                [[i, 12 + j, 24 + (i + j) % 12] for i in range(12) for j in range(12)],
                bounds=[(1, 12)] * 12 + [(1, 1)] * 24,
            ),
            "dlx",
        ),
    ]:
        problem = build()
        assert problem.algorithm == "M"
        problem.engine = "auto"
        assert engine_for(problem) == engine
        problem.engine = "cells"
        assert engine_for(problem) == "cells"


def _count(options, bounds):
    problem = ExactCover(options, n_items=1, bounds=bounds, dense=False)
    return len(
        naive_solutions_xcc(
            problem.indptr, problem.indices, 1, problem.secondary, None, problem.bounds
        )
    )


def test_memo_stays_refused_and_why():
    # Item 0 takes 1..2 of three options a, b, c (all [0]). M's root branches on
    # "the first of item 0's options chosen is a", "... is b", "... is c". Below the
    # first two branches item 0 is in the same state (open, one more cover allowed,
    # none needed), which is all the memo key records; but a's branch may still add b
    # or c, and b's branch only c (a was tweaked out): the completions differ, so a key
    # of the items' states would merge subproblems with different counts.
    options = [[0], [0], [0]]
    problem = ExactCover(options, bounds=[(1, 2)], dense=False)
    below_a = _count([[0], [0]], [(0, 1)])  # b, c left, item 0 needing 0..1 more
    below_b = _count([[0]], [(0, 1)])  # c left
    assert (below_a, below_b) == (3, 2)
    for engine in ("dlx", "cells"):
        problem.engine = engine
        assert problem.count() == 6 == below_a + below_b + 1
    with pytest.raises(ValueError, match=r"multiplicities \(Algorithm M\)"):
        MemoSearch(problem)
    with pytest.raises(ValueError, match=r"multiplicities \(Algorithm M\)"):
        problem.count(method="memo")
    problem.engine = "cells"
    assert problem.count(method="auto") == 6  # auto counts M with the search itself


def test_the_kernels_release_the_gil():
    for kernel in (cells_m.search_cells_m, cells_m.search_cells_m_plain):
        assert kernel.targetoptions.get("nogil") is True
