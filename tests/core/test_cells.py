"""The dancing-cells engine (``engine='cells'``): the same solutions as DLX on the
problems of the package and as a brute-force search on random instances, budgets,
streaming, Knuth's convention, and how ``engine`` is chosen."""

import numpy as np
import pytest

from numbadlx import BudgetExceeded, ExactCover, problems
from numbadlx.core import _cells_links
from numbadlx.core.kernels import cells
from numbadlx.core.search import Search, engine_for
from tests.helpers import naive_solutions_xcc

WORDS = ["bad", "ago", "tee", "bat", "age", "doe", "ate", "tea", "eat", "dot", "toe", "oat"]

# problems of the package, small sizes, Algorithms X and C
PROBLEMS = {
    "queens6": lambda: problems.n_queens(6),
    "queens8": lambda: problems.n_queens(8),
    "langford7": lambda: problems.langford(7),
    "langford8": lambda: problems.langford(8),
    "pentominoes3x20": lambda: problems.pentominoes(3, 20),
    "dominoes4x5": lambda: problems.domino_tilings(4, 5),
    "trominoes3x6": lambda: problems.tromino_tilings(3, 6),
    "tetrominoes4x6": lambda: problems.tetromino_tilings(4, 6),
    "word_square3": lambda: problems.word_square(3, problems.WORDS3[:120]),
    "word_square3_repeats": lambda: problems.word_square(3, WORDS, distinct=False),
    "crossword": lambda: problems.crossword(["...", ".#.", "..."], problems.WORDS3[:150]),
}


def _solutions(problem, engine, batch=64):
    problem.engine = engine
    found = [tuple(s.tolist()) for s in problem.solutions(batch=batch)]
    assert len(found) == len(set(found)), f"{engine} repeated a solution"
    return set(found), problem.stats


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_same_solutions_and_counts_as_dlx_on_the_package_problems(name):
    problem = PROBLEMS[name]()
    dlx, dlx_stats = _solutions(problem, "dlx")
    found, stats = _solutions(problem, "cells", batch=7)
    assert found == dlx
    assert stats.solutions == len(dlx)
    # the same tree, less the options cells rejects without entering a level
    assert 0 < stats.nodes <= dlx_stats.nodes
    problem.engine = "cells"
    assert problem.count() == len(dlx)
    first = problem.solve()
    assert (first is None) == (not dlx)
    if dlx:
        assert tuple(first.tolist()) in dlx
        assert problem.verify(first)
        assert problem.count(limit=max(1, len(dlx) - 1)) == max(1, len(dlx) - 1)


def _random_problem(rng, coloured):
    n_items = int(rng.integers(1, 8))
    n_secondary = int(rng.integers(0, n_items + 1))
    options, colours = [], []
    for _ in range(int(rng.integers(0, 10))):
        items = sorted(rng.choice(n_items, int(rng.integers(1, n_items + 1)), replace=False))
        options.append([int(i) for i in items])
        colours.append(
            [int(rng.integers(0, 3)) if i >= n_items - n_secondary else 0 for i in items]
        )
    coloured = coloured and n_secondary > 0 and options
    return options, n_items, n_secondary, colours if coloured else None


@pytest.mark.parametrize("coloured", [False, True], ids=["X", "C"])
def test_random_instances_agree_with_brute_force(coloured):
    rng = np.random.default_rng(2024 + coloured)
    for _ in range(300):
        options, n_items, n_secondary, colours = _random_problem(rng, coloured)
        problem = ExactCover(
            options,
            n_items=n_items,
            secondary=n_secondary or None,
            colours=colours,
            dense=False,
            engine="cells",
        )
        mask = problem.secondary
        indptr, indices = problem.indptr, problem.indices
        expected = set(naive_solutions_xcc(indptr, indices, n_items, mask, problem.colours))
        batch = int(rng.integers(1, 4))
        found = [tuple(s.tolist()) for s in problem.solutions(batch=batch)]
        assert len(found) == len(set(found))
        assert set(found) == expected, (options, n_secondary, colours)
        assert problem.count() == len(expected)


@pytest.mark.parametrize("places", [1, 10**9], ids=["every-item-spread", "none-spread"])
@pytest.mark.parametrize("coloured", [False, True], ids=["X", "C"])
def test_both_ways_of_covering_an_item_agree_with_brute_force(monkeypatch, coloured, places):
    # X5 walks the set of an item found at many places in its options another way
    # (each option leaves that set too); force that walk on every item, then on none
    monkeypatch.setattr(_cells_links, "SPREAD_PLACES", places)
    rng = np.random.default_rng(77 + coloured)
    for _ in range(150):
        options, n_items, n_secondary, colours = _random_problem(rng, coloured)
        problem = ExactCover(
            options,
            n_items=n_items,
            secondary=n_secondary or None,
            colours=colours,
            dense=False,
            engine="cells",
        )
        expected = set(
            naive_solutions_xcc(
                problem.indptr, problem.indices, n_items, problem.secondary, problem.colours
            )
        )
        found = [tuple(s.tolist()) for s in problem.solutions(batch=int(rng.integers(1, 4)))]
        assert len(found) == len(set(found))
        assert set(found) == expected, (options, n_secondary, colours)


def test_both_ways_of_covering_an_item_walk_the_same_tree(monkeypatch):
    nodes = []
    for places in (1, 10**9):
        monkeypatch.setattr(_cells_links, "SPREAD_PLACES", places)
        problem = problems.pentominoes(3, 20)
        problem.engine = "cells"
        assert problem.count() == 8  # 2 tilings, each in 4 orientations
        nodes.append(problem.stats.nodes)
    assert nodes[0] == nodes[1]


def test_an_option_without_primary_items_is_never_chosen():
    # option 1 holds only the secondary item 1: Algorithm X never tries it
    problem = ExactCover([[0], [1], [0, 1]], secondary=1, engine="cells")
    assert sorted(tuple(s.tolist()) for s in problem.solutions()) == [(0,), (2,)]
    assert ExactCover([[1]], n_items=2, secondary=1, engine="cells").count() == 0
    assert ExactCover([[0]], n_items=1, secondary=1, engine="cells").count() == 1  # empty


def test_node_budget_stops_with_the_budget_status():
    problem = ExactCover(problems.pentominoes(3, 20).to_dense(), engine="cells")
    with pytest.raises(BudgetExceeded) as info:
        problem.count(max_nodes=500)
    assert info.value.stats.status == "budget"
    assert info.value.stats.nodes == 500
    with pytest.raises(BudgetExceeded):
        problem.solve(max_nodes=3)
    assert problem.count(max_nodes=10**7) == 8


def test_a_budget_stops_a_stream_and_the_stream_resumes_where_it_stopped():
    problem = problems.n_queens(8)
    problem.engine = "cells"
    stream = problem.solutions(batch=1)
    seen = [tuple(next(stream).tolist()) for _ in range(5)]
    seen += [tuple(s.tolist()) for s in stream]
    assert len(seen) == len(set(seen)) == 92
    with pytest.raises(BudgetExceeded) as info:
        list(problem.solutions(max_nodes=200, batch=4))
    assert info.value.stats.status == "budget" and info.value.found < 92


def test_a_search_resumed_in_slices_sees_every_solution_once():
    problem = problems.langford(8)
    problem.engine = "cells"
    search = Search(problem)
    total = 0
    while True:
        search.max_nodes = int(search.stats[0]) + 37  # a handful of nodes at a time
        code, found, _ = search.run(0, 0)
        total += found
        if search.status == "done":
            break
    assert total == 300


def test_engine_choice_and_refusals():
    with pytest.raises(ValueError, match="engine must be one of"):
        ExactCover([[0]], engine="links")
    bounded = ExactCover([[0], [0, 1], [0]], bounds=[(2, 2), (0, 1)], engine="cells")
    assert engine_for(bounded) == "cells" and bounded.count() == 3  # Algorithm M too
    bounded.engine = "auto"
    assert engine_for(bounded) == "dlx" and bounded.count() == 3
    # auto: cells for big packings of long options and for even triples, DLX elsewhere
    for build, engine in [
        (lambda: problems.pentominoes(6, 10), "cells"),
        (lambda: problems.pentominoes(3, 20), "cells"),
        (lambda: problems.tetromino_tilings(4, 6), "dlx"),
        (lambda: problems.n_queens(8), "dlx"),
        (lambda: problems.word_square(3), "dlx"),
        # even triples: Langford pairs from n = 9 (12 options an item), not tilings
        (lambda: problems.langford(11), "cells"),
        (lambda: problems.langford(9), "cells"),
        (lambda: problems.langford(8), "dlx"),
        (lambda: problems.tromino_tilings(6, 6), "dlx"),
        (lambda: problems.tromino_tilings(15, 15), "dlx"),
        (lambda: problems.domino_tilings(8, 8), "dlx"),
        (lambda: problems.assignment(np.ones((12, 12), dtype=int)), "dlx"),
        (lambda: problems.k_per_row_and_column(14, 1), "dlx"),
    ]:
        problem = build()
        problem.engine = "auto"
        assert engine_for(problem) == engine
    assert engine_for(problems.langford(5)) == "dlx"  # no engine given: DLX
    from_csr = ExactCover.from_csr([0, 1, 2], [0, 1], n_items=2)
    assert from_csr.engine == "dlx"
    from_csr.engine = "cells"
    assert from_csr.count() == 1 and engine_for(from_csr) == "cells"


def test_threads_and_trace_with_the_cells_engine():
    problem = problems.n_queens(8)
    problem.engine = "cells"
    assert problem.count(threads=2) == 92
    events = problem.trace(limit=1, as_frame=False)["event"]  # the trace is DLX's
    assert "solution" in list(events)


def test_the_kernels_release_the_gil():
    for kernel in (cells.search_cells_x, cells.search_cells_c):
        assert kernel.targetoptions.get("nogil") is True
