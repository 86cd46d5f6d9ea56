"""Algorithm M's tree cut into parts (numbadlx.core.split_m), and threaded counts of
problems with multiplicities: the parts add up to the brute-force count on random
problems, to the published counts on the package's problems, on both engines."""

import numpy as np
import pytest

from numbadlx import BudgetExceeded, ExactCover, problems
from numbadlx.core.split_m import split_m
from tests.helpers import naive_solutions_xcc, random_xcc


def _parts_total(parts):
    return sum(known if part is None else part.count() for part, known in parts)


@pytest.mark.parametrize("seed", range(3))
def test_parts_add_up_to_the_brute_force_count(seed):
    rng = np.random.default_rng(2000 + seed)
    checked = 0
    for trial in range(120):
        kwargs = random_xcc(rng, colours=trial % 2 == 1, bounds=True, max_items=7, max_options=11)
        problem = ExactCover(**kwargs)
        if problem.bounds is None:
            continue
        expected = len(
            naive_solutions_xcc(
                problem.indptr,
                problem.indices,
                problem.n_items,
                problem.secondary,
                problem.colours,
                problem.bounds,
            )
        )
        for depth in (0, 1, 2, 3):
            parts = split_m(problem, 1, depth=depth)
            assert _parts_total(parts) == expected, (depth, kwargs)
            for part, known in parts:
                assert (part is None) != (known is None)
        checked += 1
    assert checked > 80


def test_a_part_keeps_names_colours_and_what_is_left_of_the_bounds():
    problem = ExactCover.from_names(
        {"a": ["p", "x:red"], "b": ["p", "q", "x:red"], "c": ["p", "x:blue"], "d": ["q"]},
        secondary=["x"],
        bounds={"p": (1, 2), "q": (0, 1)},
    )
    # M3: p and q both have theta 3 and slack 1; p has the longer list. Its branches:
    # a first (c clashes on x's colour): b and d left, p and q each 0..1;
    # b first (a passed over; q full, so d goes; c clashes): nothing left, a solution;
    # c first (a and b passed over): d left. No "none": p needs a cover.
    parts = split_m(problem, 1, depth=1)
    assert [None if part is None else part.option_names for part, _ in parts] == [
        ["b", "d"],
        None,
        ["d"],
    ]
    assert parts[1] == (None, 1)
    first, third = parts[0][0], parts[2][0]
    assert first.item_names == ["p", "q", "x"] and first.bounds.tolist() == [[0, 1], [0, 1]]
    assert first.colour_names[int(first.colours[first.indices == 2][0]) - 1] == "red"
    assert third.item_names == ["p", "q"] and third.bounds.tolist() == [[0, 1], [0, 1]]
    assert (first.count(), third.count()) == (3, 2)
    assert problem.count() == 6 == _parts_total(parts)


@pytest.mark.parametrize("engine", ["dlx", "cells"])
@pytest.mark.parametrize(
    "build, expected",
    [
        (lambda: problems.k_per_row_and_column(5, 2), 2040),  # OEIS A001499
        (lambda: problems.k_per_row_and_column(8, 1, max_per_diagonal=1), 92),  # A000170
        (lambda: problems.domino_tilings(4, 4, horizontal=4), 16),
    ],
)
def test_threaded_counts_of_multiplicities(build, expected, engine):
    problem = build()
    problem.engine = engine
    assert problem.count(threads=2) == expected
    assert problem.stats.solutions == expected and problem.stats.nodes > 0
    assert problem.count(threads=3, method="auto") == expected


def test_threaded_counts_of_multiplicities_keep_their_budgets():
    problem = problems.k_per_row_and_column(6, 2)
    with pytest.raises(BudgetExceeded) as stopped:
        problem.count(threads=2, max_nodes=2000)
    assert stopped.value.found < 67950 and problem.stats.nodes <= 2000
    with pytest.raises(BudgetExceeded):
        problem.count(threads=2, timeout=0.0)
    with pytest.raises(ValueError, match="threads > 1 count every solution"):
        problem.count(threads=2, limit=5)
