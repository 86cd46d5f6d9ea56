"""The search kernels themselves: one source for X and C, Algorithm M's item choice,
and the GIL released by every kernel (two threads searching at once)."""

import re
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
import pytest
from numba import types

from numbadlx import ExactCover, problems
from numbadlx.core import links
from numbadlx.core.kernels import common, m, xc
from numbadlx.core.search import Search
from numbadlx.sudoku.engines import _bands, _bits, _dlx


def _dispatchers(module):
    return [
        (name, value)
        for name, value in vars(module).items()
        if isinstance(value, numba.core.registry.CPUDispatcher)
    ]


@pytest.mark.parametrize(
    "module", [common, xc, m, links, _dlx, _bits, _bands], ids=lambda module: module.__name__
)
def test_every_kernel_releases_the_gil(module):
    found = _dispatchers(module)
    assert found
    for name, dispatcher in found:
        assert dispatcher.targetoptions.get("nogil") is True, f"{module.__name__}.{name}"


# ----------------------------------------------------------- two threads at once


def _count(build):
    return build().count()


# (problem, published count): 9 and 10 queens (OEIS A000170); Langford pairs n = 7 and
# 8 (OEIS A014552: 26 and 150 up to reversal, so twice that); 8 queens as an Algorithm
# M problem; 2 marks in every row and column of 5x5 (OEIS A001499)
_CONCURRENT = [
    (lambda: problems.n_queens(9), 352),
    (lambda: problems.n_queens(10), 724),
    (lambda: problems.langford(7), 2 * 26),
    (lambda: problems.langford(8), 2 * 150),
    (lambda: problems.k_per_row_and_column(8, 1, max_per_diagonal=1), 92),
    (lambda: problems.k_per_row_and_column(5, 2), 2040),
]


def test_two_threads_counting_at_once_get_the_published_counts():
    builds = [build for build, _ in _CONCURRENT]
    expected = [count for _, count in _CONCURRENT]
    for _ in range(2):
        with ThreadPoolExecutor(max_workers=2) as pool:
            assert list(pool.map(_count, builds)) == expected
        # the same problem in both threads at once
        with ThreadPoolExecutor(max_workers=2) as pool:
            assert list(pool.map(_count, [builds[1], builds[1]])) == [724, 724]


def test_two_threads_share_one_problem_object():
    problem = problems.langford(8)
    coloured = problems.word_square(3, problems.WORDS3[:120])
    alone = coloured.count()
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda p: p.count(), [problem, coloured, problem, coloured]))
    assert results == [300, alone, 300, alone]


# ----------------------------------------------------------- X and C from one body


def _run(problem, kernel, trace_rows=0, n_record=0):
    search = Search(problem, trace_rows=trace_rows)
    search.kernel = kernel
    _, found, record = search.run(0, n_record)
    summary = search.summary()
    return (
        summary.nodes,
        summary.updates,
        summary.solutions,
        found,
        search.trace[: search.state[2]].tolist(),
        record.tolist(),
    )


@pytest.mark.parametrize(
    "build",
    [
        lambda: problems.n_queens(7),
        lambda: problems.langford(5),
        lambda: problems.pentominoes(3, 20),
    ],
    ids=["queens7", "langford5", "pentominoes3x20"],
)
def test_algorithm_c_without_colours_walks_exactly_like_algorithm_x(build):
    problem = build()
    assert problem.algorithm == "X"
    assert _run(problem, xc.search_x, 3000, 50) == _run(problem, xc.search_c, 3000, 50)


def test_x_and_c_node_counts_are_pinned():
    # effort of today's kernels, identical to the separate X and C kernels they replaced
    assert _run(problems.n_queens(8), xc.search_x)[:3] == (1199, 21375, 92)
    assert _run(problems.langford(9), xc.search_x)[:3] == (10797, 168205, 0)
    assert _run(problems.word_square(3, problems.WORDS3[:150]), xc.search_c)[:3] == (
        1572,
        671061,
        32,
    )


def _literal_flag_signature(dispatcher, flag):
    for signature in dispatcher.signatures:
        last = signature[-1]
        if isinstance(last, types.Literal) and last.literal_value is flag:
            return signature
    return None


@pytest.mark.slow
def test_the_colour_flag_is_a_compile_time_constant():
    """Each entry point runs its own copy of the body, compiled for a literal flag, and
    Algorithm X's copy has no colour test left in it."""
    search = Search(problems.n_queens(5))
    record = np.zeros((0, search.width), dtype=np.int32)
    arguments = (
        search.nodes,
        search.items,
        search.n_items,
        search.choice,
        search.state,
        0,
        0,
        record,
        search.stats,
        search.trace,
    )
    entry_types = tuple(numba.typeof(value) for value in arguments)
    marks = {}
    for entry, flag in ((xc.search_x, False), (xc.search_c, True)):
        # Fresh copies, compiled here: cached code can be run but not inspected.
        numba.njit(nogil=True)(entry.py_func).compile(entry_types)
        signature = _literal_flag_signature(xc._search, flag)
        assert signature is not None  # the entry point called the body with a literal
        body = numba.njit(nogil=True)(xc._search.py_func)
        body.compile(signature)
        # tests against the colour mark 0xFFFFFFFF (i32 -1 in LLVM IR)
        ir = body.inspect_llvm(signature)
        marks[flag] = len(re.findall(r"icmp (?:eq|ne) i32 [^,\n]+, -1\b", ir))
    assert marks[True] > 0  # the count finds C's mark tests...
    assert marks[False] == 0  # ...and X has none


# ----------------------------------------------------------- Algorithm M's choice

# Nodes visited counting all solutions: ours, and those of Knuth's DLX3 (built from
# dlx3.w and run on problem.to_dlx(), measured once; see benchmarks/kernels.py --dlx3).
# With the same item choice as DLX3, ours differ only by the one-branch nodes that the
# M3 shortcut leaves out (numbadlx.core.kernels.m), so never more.
_M_NODES = [
    ("queens8-M", lambda: problems.k_per_row_and_column(8, 1, max_per_diagonal=1), 92, 2243, 3033),
    ("2-per-line-5", lambda: problems.k_per_row_and_column(5, 2), 2040, 6150, 6150),
    ("2-per-line-6-diag2", lambda: problems.k_per_row_and_column(6, 2, 2), 1097, 16182, 24838),
    ("dominoes4x6-h2-4", lambda: problems.domino_tilings(4, 6, horizontal=(2, 4)), 82, 458, 473),
    ("dominoes6x6-h8", lambda: problems.domino_tilings(6, 6, horizontal=8), 1988, 12661, 12661),
]


@pytest.mark.parametrize(
    "name, build, count, nodes, dlx3_nodes", _M_NODES, ids=[case[0] for case in _M_NODES]
)
def test_algorithm_m_visits_no_more_nodes_than_dlx3(name, build, count, nodes, dlx3_nodes):
    problem = build()
    assert problem.algorithm == "M"
    assert problem.count() == count
    assert problem.stats.nodes <= dlx3_nodes  # never more than DLX3 visits
    assert problem.stats.nodes == nodes  # and exactly what this rule visited when pinned


def test_algorithm_m_without_colours_runs_the_plain_copy():
    plain = problems.k_per_row_and_column(5, 2)
    assert Search(plain).kernel is m.search_m_plain
    coloured = ExactCover(
        [[0, 1], [0, 1], [0]], secondary=1, colours=[[0, 5], [0, 5], [0]], bounds=[(2, 2)]
    )
    assert Search(coloured).kernel is m.search_m
    assert coloured.count() == 3
    # both copies agree on a problem without colours
    assert _run(plain, m.search_m, 500, 20) == _run(plain, m.search_m_plain, 500, 20)


def test_links_tables_have_the_link_dtype_and_layout():
    problem = ExactCover([[0, 1], [1, 2]], secondary=1)
    nodes, items = links.build_links(
        problem.indptr, problem.indices.astype(np.int32), np.zeros(0, dtype=np.int32), 3, 2
    )
    assert nodes.dtype == items.dtype == links.LINK_DTYPE
    assert nodes.shape == (4, 3 + 1 + 4 + 2 + 1) and items.shape == (2, 3 + 2)
    assert nodes[links.ITEM, 1:4].tolist() == [1, 2, 1]  # the item lengths
