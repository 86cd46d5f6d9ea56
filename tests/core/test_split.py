"""Splitting an exact-cover search tree into prefixes (numbadlx.core.split, no Dask)."""

import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numbadlx import ExactCover, problems
from numbadlx.core.split import (
    count_prefix,
    count_prefixes,
    count_split,
    split_prefixes,
    subproblem,
)


def _total(problem, depth):
    prefixes = split_prefixes(problem, depth)
    return int(count_prefixes(problem, prefixes).sum()), prefixes


@pytest.mark.parametrize("n", [8, 9, 10])
@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_queens_split_adds_up(n, depth):
    problem = problems.n_queens(n)
    total, prefixes = _total(problem, depth)
    assert total == problem.count() == {8: 92, 9: 352, 10: 724}[n]
    assert all(len(p) == depth for p in prefixes)
    assert len(set(prefixes)) == len(prefixes)


@pytest.mark.parametrize("depth", range(0, 7))
def test_langford_split_adds_up(depth):
    problem = problems.langford(8)
    assert count_split(problem, depth) == problem.count() == 300


def test_prefixes_follow_the_kernel_order():
    """Counting the prefixes in order and listing the solutions of each in turn gives
    the kernel's own order of solutions."""
    problem = problems.n_queens(6)
    expected = [s.tolist() for s in problem.solutions()]
    seen = []
    for prefix in split_prefixes(problem, 2):
        reduced, option_map = subproblem(problem, prefix)
        if reduced is None:
            continue
        for solution in reduced.solutions():
            seen.append(sorted(list(prefix) + option_map[solution].tolist()))
    assert seen == expected


def test_mrv_picks_the_first_shortest_item():
    # item 1 has two options, item 0 three, item 2 two: MRV takes item 1 (first of equals)
    problem = ExactCover([[0, 1], [0, 2], [0], [1], [2]])
    assert split_prefixes(problem, 1) == [(0,), (3,)]


def test_short_prefixes_and_dead_branches():
    # MRV takes item 0: options 0 and 1 each leave an item with no option (dead
    # branches); option 3 covers every item at once (a prefix shorter than depth)
    problem = ExactCover([[0, 1], [0, 2], [1, 2], [0, 1, 2]])
    assert split_prefixes(problem, 3) == [(3,)]
    assert count_prefix(problem, (3,)) == 1
    assert count_prefix(problem, (0,)) == 0
    assert subproblem(problem, (0,))[0] is None
    assert count_split(problem, 3) == problem.count() == 1


def test_all_secondary_problem_counts_one():
    problem = ExactCover([[0, 1], [1]], secondary=2)
    assert problem.count() == 1
    assert split_prefixes(problem, 2) == [()]
    assert count_prefix(problem, ()) == 1
    assert count_split(problem, 2) == 1


def test_count_prefix_is_the_solutions_holding_the_prefix():
    problem = problems.n_queens(8)
    solutions = [set(s.tolist()) for s in problem.solutions()]
    for prefix in [(0,), (3, 8), (2,)]:
        expected = sum(1 for s in solutions if set(prefix) <= s)
        assert count_prefix(problem, prefix) == expected


def test_subproblem_keeps_names_and_kinds():
    problem = problems.n_queens(5)
    reduced, option_map = subproblem(problem, [0])
    assert reduced.n_primary == 8  # r1..r4, c1..c4
    assert "r0" not in reduced.item_names and "a0" not in reduced.item_names
    assert all(reduced.option_names[j] == problem.option_names[k] for j, k in enumerate(option_map))
    assert reduced.count() == count_prefix(problem, [0])


def test_bad_prefixes_and_bounds_raise():
    problem = problems.n_queens(4)
    with pytest.raises(ValueError, match="clashes"):
        count_prefix(problem, [0, 1])  # two queens on rank 0
    with pytest.raises(ValueError, match="out of range"):
        count_prefix(problem, [99])
    with pytest.raises(ValueError, match="depth"):
        split_prefixes(problem, -1)
    bounded = ExactCover([[0], [0, 1], [0]], bounds=[(2, 2), (0, 1)])
    with pytest.raises(ValueError, match="multiplicities"):
        split_prefixes(bounded, 1)


def test_problems_pickle_without_numba_state():
    problem = problems.pentominoes(6, 10)
    copy = pickle.loads(pickle.dumps(problem))
    assert copy.n_options == problem.n_options
    assert count_prefix(copy, split_prefixes(copy, 1)[0]) == count_prefix(
        problem, split_prefixes(problem, 1)[0]
    )


def test_split_module_does_not_import_dask():
    code = (
        "import sys, numbadlx.core.split, numbadlx.cli, numbadlx.sudoku; "
        "print(any(m == 'dask' or m.startswith('dask.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@st.composite
def _problems(draw):
    n_items = draw(st.integers(1, 7))
    n_secondary = draw(st.integers(0, n_items))
    secondary = np.zeros(n_items, dtype=bool)
    secondary[n_items - n_secondary :] = True
    coloured = draw(st.booleans()) and n_secondary > 0
    options, colours = [], []
    for _ in range(draw(st.integers(1, 14))):
        items = draw(
            st.lists(st.integers(0, n_items - 1), min_size=1, max_size=n_items, unique=True)
        )
        options.append(items)
        colours.append([draw(st.integers(0, 2)) if secondary[i] and coloured else 0 for i in items])
    return ExactCover(
        options,
        n_items=n_items,
        secondary=secondary,
        colours=colours if coloured else None,
        dense=False,
    )


@settings(max_examples=300, deadline=None)
@given(_problems(), st.integers(0, 5))
def test_random_problems_split_adds_up(problem, depth):
    assert count_split(problem, depth) == problem.count()
