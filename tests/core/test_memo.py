"""Memoised counting (ZDD), uniform sampling, count(method=...) and count(threads=...).

Every memoised count is checked against plain DLX, brute force (tests/naive.py), an
independent tiling counter written here, or a published sequence; every sample and
every solution the diagram lists is checked as a cover item by item.
"""

import functools
import math
import time
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numbadlx import BudgetExceeded, ExactCover, count, problems, verify
from numbadlx.core.threads import count_threaded
from numbadlx.core.zdd import MemoryBudgetExceeded, MemoSearch
from tests.helpers import naive_solutions_xcc

# OEIS A004003: domino tilings of a 2n x 2n board, n = 0, 1, 2, ...
A004003 = [
    1,
    2,
    36,
    6728,
    12988816,
    258584046368,
    53060477521960000,
    112202208776036178000000,
]


def covers_exactly(problem, solution):
    """Each primary item covered once, each secondary at most once or all in one
    non-zero colour: counted here from the CSR arrays, apart from numbadlx.verify."""
    uses = {}
    for k in solution:
        start, stop = problem.indptr[k], problem.indptr[k + 1]
        colours = (
            problem.colours[start:stop] if problem.colours is not None else [0] * (stop - start)
        )
        for item, colour in zip(problem.indices[start:stop].tolist(), list(colours)):
            uses.setdefault(item, []).append(int(colour))
    for item in range(problem.n_items):
        got = uses.get(item, [])
        if not problem.secondary[item]:
            if len(got) != 1:
                return False
        elif len(got) > 1 and (0 in got or len(set(got)) > 1):
            return False
    return True


# ------------------------------------------------------------------ published counts
@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 8))
def test_domino_tilings_of_square_boards_match_a004003(n):
    board = problems.domino_tilings(2 * n, 2 * n)
    assert board.count(method="memo") == A004003[n]
    assert board.zdd().count() == A004003[n]


def test_domino_count_past_int64_is_a_python_int():
    value = problems.domino_tilings(14, 14).count(method="memo")
    assert isinstance(value, int) and value == A004003[7] and value > 2**63


@functools.cache
def _tiling_count(rows, cols, shapes, filled):
    """Tilings counted by filling the first empty square (row-major) in every way:
    memoised on the bitmask of filled squares. Independent of numbadlx's search."""
    full = (1 << (rows * cols)) - 1
    if filled == full:
        return 1
    first = (~filled & (filled + 1)).bit_length() - 1
    r0, c0 = divmod(first, cols)
    total = 0
    for shape in shapes:
        # anchor the shape's first cell (row-major) on the first empty square
        ar, ac = shape[0]
        mask = 0
        for r, c in shape:
            rr, cc = r - ar + r0, c - ac + c0
            if not (0 <= rr < rows and 0 <= cc < cols):
                break
            bit = 1 << (rr * cols + cc)
            if filled & bit:
                break
            mask |= bit
        else:
            total += _tiling_count(rows, cols, shapes, filled | mask)
    return total


def _free_shapes(pieces):
    shapes = set()
    for cells in pieces.values():
        for flip in (1, -1):
            turned = [(r, flip * c) for r, c in cells]
            for _ in range(4):
                turned = [(c, -r) for r, c in turned]
                r_min = min(r for r, _ in turned)
                c_min = min(c for _, c in turned)
                shapes.add(tuple(sorted((r - r_min, c - c_min) for r, c in turned)))
    return tuple(sorted(shapes))


@pytest.mark.parametrize(
    "build, pieces, rows, cols",
    [
        (problems.tromino_tilings, problems.TROMINOES, 2, 9),
        (problems.tromino_tilings, problems.TROMINOES, 3, 8),
        (problems.tromino_tilings, problems.TROMINOES, 4, 6),
        (problems.tetromino_tilings, problems.TETROMINOES, 4, 6),
        (problems.tetromino_tilings, problems.TETROMINOES, 4, 8),
    ],
)
def test_tromino_and_tetromino_tilings_match_an_independent_counter(build, pieces, rows, cols):
    board = build(rows, cols)
    expected = _tiling_count(rows, cols, _free_shapes(pieces), 0)
    assert expected > 0
    assert board.count(method="memo") == expected == board.count()


def test_straight_trominoes_and_tetrominoes_match_oeis():
    # A000930: 3 x n strips with straight trominoes, a(n) = a(n-1) + a(n-3)
    a000930 = [1, 1, 1, 2, 3, 4, 6, 9, 13, 19, 28, 41, 60, 88, 129, 189, 277, 406, 595, 872]
    for n in range(1, len(a000930)):
        assert problems.tromino_tilings(3, n, "I").count(method="memo") == a000930[n]
    # A003269 (offset 0: 0, 1, 1, 1, 1, 2, ...): 4 x n strips with straight tetrominoes
    a003269 = [0, 1, 1, 1, 1, 2, 3, 4, 5, 7, 10, 14, 19, 26, 36, 50, 69, 95, 131, 181, 250]
    for n in range(1, len(a003269) - 1):
        assert problems.tetromino_tilings(4, n, "I").count(method="memo") == a003269[n + 1]
    # and a long strip, far past enumeration: the recurrence in Python integers
    values = [1, 1, 1]
    for _ in range(3, 301):
        values.append(values[-1] + values[-3])
    assert problems.tromino_tilings(3, 300, "I").count(method="memo") == values[300] > 2**64


def test_tiling_arguments_are_checked():
    with pytest.raises(ValueError, match="tromino kinds"):
        problems.tromino_tilings(3, 3, "X")
    with pytest.raises(ValueError, match="rows must be a positive integer"):
        problems.tetromino_tilings(0, 4)


# ------------------------------------------------------------------ memo equals DLX
@pytest.mark.slow
@pytest.mark.parametrize(
    "build",
    [
        lambda: problems.n_queens(7),
        lambda: problems.n_queens(9),
        lambda: problems.langford(8),
        lambda: problems.pentominoes(3, 20),
        lambda: problems.domino_tilings(5, 6),
        lambda: problems.word_square(3, problems.WORDS3[:200]),
        lambda: problems.crossword(["...", ".#.", "..."], problems.WORDS3[:100]),
        lambda: ExactCover([[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]]),
        lambda: ExactCover.from_options([[0], [1]], n_items=3),  # an item no option holds
        lambda: ExactCover.from_options([[0, 1]], n_items=2, secondary=2),  # no primary item
    ],
)
def test_memo_count_and_solutions_equal_dlx(build):
    problem = build()
    expected = problem.count()
    assert problem.count(method="memo") == expected
    assert problem.count(method="auto") == expected
    zdd = problem.zdd()
    listed = [tuple(s.tolist()) for s in zdd.solutions()]
    assert len(listed) == len(set(listed)) == expected
    assert sorted(listed) == sorted(tuple(s.tolist()) for s in problem.solutions())
    for solution in listed[:200]:
        assert covers_exactly(problem, solution) and verify(problem, solution)


@st.composite
def coloured_problems(draw, max_items=12, max_options=24):
    n_items = draw(st.integers(1, max_items))
    secondary = np.array(draw(st.lists(st.booleans(), min_size=n_items, max_size=n_items)))
    options, colours = [], []
    for _ in range(draw(st.integers(0, max_options))):
        row = draw(st.lists(st.integers(0, n_items - 1), min_size=1, max_size=4, unique=True))
        options.append(row)
        colours.append([draw(st.integers(0, 3)) if secondary[i] else 0 for i in row])
    coloured = draw(st.booleans())
    return ExactCover.from_options(
        options,
        n_items=n_items,
        secondary=secondary,
        colours=colours if coloured else None,
    )


@settings(max_examples=300, deadline=None)
@given(coloured_problems())
def test_memo_equals_dlx_on_random_problems_with_secondary_items_and_colours(problem):
    expected = problem.count()
    zdd = problem.zdd()
    assert zdd.count() == expected == problem.count(method="memo")
    listed = sorted(tuple(s.tolist()) for s in zdd.solutions())
    assert listed == sorted(tuple(s.tolist()) for s in problem.solutions())


@settings(max_examples=200, deadline=None)
@given(coloured_problems(max_items=7, max_options=12))
def test_memo_equals_brute_force(problem):
    expected = naive_solutions_xcc(
        problem.indptr, problem.indices, problem.n_items, problem.secondary, problem.colours
    )
    zdd = problem.zdd()
    assert sorted(tuple(s.tolist()) for s in zdd.solutions()) == sorted(expected)


def test_counts_past_two_to_the_64_and_128_are_exact():
    # n independent items with two options each: 2**n solutions
    for n in (70, 130):
        options = [[i] for i in range(n) for _ in range(2)]
        problem = ExactCover.from_options(options, n_items=n)
        zdd = problem.zdd()
        assert zdd.count() == 2**n
        assert zdd.node_counts()[zdd.root] == 2**n
        assert covers_exactly(problem, zdd.sample(1, seed=3)[0])


# ------------------------------------------------------------------ sampling
def test_samples_are_valid_covers():
    board = problems.domino_tilings(12, 12)
    for solution in board.zdd().sample(20, seed=11):
        assert solution.size == 72
        assert covers_exactly(board, solution) and verify(board, solution)
    words = problems.word_square(3, problems.WORDS3[:200])
    for solution in words.zdd().sample(20, seed=2):
        assert covers_exactly(words, solution) and verify(words, solution)


def test_samples_are_uniform_by_chi_square():
    board = problems.domino_tilings(4, 4)  # 36 tilings
    zdd = board.zdd()
    all_tilings = sorted(tuple(s.tolist()) for s in zdd.solutions())
    draws = 36 * 200
    seen = Counter(tuple(s.tolist()) for s in zdd.sample(draws, seed=12345))
    assert set(seen) <= set(all_tilings)
    expected = draws / len(all_tilings)
    statistic = sum((seen.get(t, 0) - expected) ** 2 / expected for t in all_tilings)
    # critical value of chi-square with 35 degrees of freedom at p = 0.001, by the
    # Wilson-Hilferty approximation (about 66.6; tables give 66.62)
    df, z = len(all_tilings) - 1, 3.0902
    critical = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    assert 66 < critical < 67.5
    assert statistic < critical
    # and a sampler that is not uniform fails the same test: always the lower half
    biased = Counter(all_tilings[i % 18] for i in range(draws))
    assert sum((biased.get(t, 0) - expected) ** 2 / expected for t in all_tilings) > critical


def test_sample_arguments_and_empty_problems():
    zdd = ExactCover.from_options([[0]], n_items=2).zdd()
    assert zdd.count() == 0 and list(zdd.solutions()) == []
    with pytest.raises(ValueError, match="no solution"):
        zdd.sample(1)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        problems.domino_tilings(2, 2).zdd().sample(0)


def test_zdd_shape_and_picture():
    problem = ExactCover([[0, 1], [0], [1]], option_names=["ab", "a", "b"])
    zdd = problem.zdd()
    table = zdd.nodes
    assert table.shape == (zdd.size + 2, 3) and len(zdd) == zdd.size
    assert (table[2:, 1:] < np.arange(2, zdd.size + 2)[:, None]).all()  # children first
    dot = zdd.to_dot()
    assert dot.startswith("digraph") and '"ab"' in dot and dot.count("->") == 2 * zdd.size
    with pytest.raises(ValueError, match="max_nodes"):
        problems.domino_tilings(6, 6).zdd().to_dot(max_nodes=10)
    page = zdd._repr_html_()
    assert "2 solutions, 3 nodes" in page and page.count("<circle") == zdd.size
    assert page.count("<line") == 2 * zdd.size and "stroke-dasharray" in page
    big = problems.domino_tilings(6, 6).zdd()._repr_html_()
    assert "6,728 solutions" in big and "<svg" not in big


# ------------------------------------------------------------------ method, budgets
def test_method_argument_is_checked():
    queens = problems.n_queens(6)
    with pytest.raises(ValueError, match="method must be one of"):
        queens.count(method="fast")
    with pytest.raises(ValueError, match="drop limit"):
        queens.count(limit=2, method="memo")
    assert queens.count(limit=2, method="auto") == 2
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        queens.count(threads=0)
    assert count(problems.domino_tilings(4, 4), method="memo") == 36


def test_multiplicities_refuse_memo_and_auto_falls_back():
    board = problems.domino_tilings(4, 4, horizontal=4)
    with pytest.raises(ValueError, match="Algorithm M"):
        board.count(method="memo")
    with pytest.raises(ValueError, match="Algorithm M"):
        board.zdd()
    assert board.count(method="auto") == 16 == board.count()


def test_memory_budget_raises_or_falls_back():
    board = problems.domino_tilings(14, 14)
    with pytest.raises(MemoryBudgetExceeded, match="max_bytes=200000"):
        board.count(method="memo", max_bytes=200_000)
    small = problems.domino_tilings(6, 8)
    with pytest.raises(ValueError, match="max_bytes must be a positive integer"):
        small.zdd(max_bytes=0)
    # auto: the probe runs out of memory, plain DLX counts instead
    assert small.count(method="auto", max_bytes=50_000) == small.count() == 167089
    assert small.stats.nodes > 167089  # the DLX search, not the memoised one


def test_auto_chooses_memo_only_where_it_pays():
    board = problems.domino_tilings(14, 14)
    assert board.count(method="auto") == A004003[7]
    assert board.stats.solutions == A004003[7]  # the memoised search answered
    queens = problems.n_queens(12)
    assert queens.count(method="auto") == 14200
    assert queens.stats.nodes >= 327_813  # plain DLX walked its whole tree


def test_memoised_search_counts_what_dlx_has_counted_at_the_same_place():
    queens = problems.n_queens(9)
    search = MemoSearch(queens)
    seen = []
    while not search.run(until_nodes=int(search.stats[0]) + 50):
        seen.append(search.solutions_so_far())
    assert seen == sorted(seen) and seen[-1] < 352 == search.solutions_so_far()


def test_memo_deadline_and_node_budget():
    pentominoes = problems.pentominoes(6, 10)
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="timeout=0.3"):
        pentominoes.count(method="memo", timeout=0.3)
    assert time.perf_counter() - start < 0.3 + 0.25
    with pytest.raises(BudgetExceeded, match="max_nodes=5000"):
        pentominoes.count(method="memo", max_nodes=5000)
    assert pentominoes.stats.nodes == 5000
    # auto: both probes' nodes count against the budget of the whole count
    with pytest.raises(BudgetExceeded, match="max_nodes=50000") as stop:
        pentominoes.count(method="auto", max_nodes=50_000)
    assert pentominoes.stats.nodes == 50_000 == stop.value.stats.nodes
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded):
        pentominoes.count(method="auto", timeout=0.3)
    assert time.perf_counter() - start < 0.3 + 0.25


def test_memo_search_resumes_after_a_budget():
    board = problems.domino_tilings(10, 10)
    search = MemoSearch(board)
    assert search.run(until_nodes=1000) is False
    assert search.run() is True
    assert search.result().count() == A004003[5]


# ------------------------------------------------------------------ threads
@pytest.mark.parametrize(
    "build",
    [
        lambda: problems.n_queens(8),
        lambda: problems.langford(8),
        lambda: problems.pentominoes(3, 20),
        lambda: problems.word_square(3, problems.WORDS3[:200]),
        lambda: problems.domino_tilings(4, 6),
    ],
)
def test_threaded_counts_equal_one_thread(build):
    problem = build()
    expected = problem.count()
    assert problem.count(threads=2) == expected
    assert count_threaded(problem, 3, depth=2) == expected
    assert problem.count(threads=2, method="auto") == expected


def test_threaded_budgets_hold_for_the_whole_count():
    pentominoes = problems.pentominoes(6, 10)
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="timeout=0.3"):
        pentominoes.count(threads=2, timeout=0.3)
    assert time.perf_counter() - start < 0.3 + 0.25
    with pytest.raises(BudgetExceeded, match="max_nodes=200000") as stop:
        pentominoes.count(threads=2, max_nodes=200_000)
    assert stop.value.stats.nodes <= 200_000
    # multiplicities are split too (by the states of Algorithm M's branches)
    assert problems.domino_tilings(4, 4, horizontal=2).count(threads=2) == 9


# ------------------------------------------------------------------ command line
def test_cli_count_method_memo_and_sample(tmp_path, capsys):
    from numbadlx.cli import main

    path = tmp_path / "dominoes.dlx"
    board = problems.domino_tilings(6, 6)
    path.write_text(board.to_dlx())
    assert main(["count", str(path), "--method", "memo"]) == 0
    assert capsys.readouterr().out.strip() == "6728 solutions"
    assert main(["count", str(path), "--sample", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "6728 solutions" and out.count("sample 1:") == 1
    # every sample is 18 dominoes covering the 36 squares once (read back from the text)
    samples = "\n".join(out[:-1]).split("sample ")[1:]
    assert len(samples) == 3
    for text in samples:
        squares = [word for line in text.splitlines()[1:] for word in line.split()]
        assert len(squares) == 36 and len(set(squares)) == 36
    bounded = tmp_path / "bounded.dlx"
    bounded.write_text(problems.domino_tilings(4, 4, horizontal=2).to_dlx())
    assert main(["count", str(bounded), "--method", "memo"]) == 2
    assert "Algorithm M" in capsys.readouterr().err
    assert main(["count", str(bounded), "--method", "auto"]) == 0
    assert capsys.readouterr().out.strip() == "9 solutions"
