"""Exact cover with colours (Algorithm C) and multiplicities (Algorithm M)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numbadlx import BudgetExceeded, ExactCover, explain, problems, verify
from numbadlx.core.dlx_text import parse_dlx
from numbadlx.core.search import Search
from tests.helpers import naive_solutions_xcc

# The coloured example of the xcover README (it is Knuth's toy XCC problem, TAOCP
# 7.2.2.1 (49)): primary p q r, secondary x y. The README states the single solution
# [[3, 1]]: options 1 = {p, r, x:A, y} and 3 = {q, x:A}, which share x with colour A.
XCOVER_PRIMARY = ["p", "q", "r"]
XCOVER_SECONDARY = ["x", "y"]
XCOVER_OPTIONS = [
    ["p", "q", "x", "y:A"],
    ["p", "r", "x:A", "y"],
    ["p", "x:B"],
    ["q", "x:A"],
    ["r", "y:B"],
]
XCOVER_SOLUTIONS = [[1, 3]]


def _as_lists(options, names):
    index = {name: k for k, name in enumerate(names)}
    colour_ids = {}
    items, colours = [], []
    for option in options:
        row, tint = [], []
        for token in option:
            name, _, colour = token.partition(":")
            row.append(index[name])
            tint.append(colour_ids.setdefault(colour, len(colour_ids) + 1) if colour else 0)
        items.append(row)
        colours.append(tint)
    return items, colours, list(colour_ids)


@pytest.mark.slow
def test_xcover_readme_coloured_example_from_lists():
    names = XCOVER_PRIMARY + XCOVER_SECONDARY
    options, colours, colour_names = _as_lists(XCOVER_OPTIONS, names)
    problem = ExactCover(
        options,
        n_items=5,
        secondary=2,
        colours=colours,
        item_names=names,
        colour_names=colour_names,
    )
    assert problem.algorithm == "C"
    found = [s.tolist() for s in problem.solutions()]
    assert found == XCOVER_SOLUTIONS
    assert problem.solve().tolist() == [1, 3]
    assert problem.count() == 1
    assert verify(problem, [1, 3])
    # x is covered by options 1 and 3 with colour A; y by 1 only
    assert explain(problem, [2, 3]) == "item r is covered 0 times"
    two = ExactCover(
        options + [[2]],
        n_items=5,
        secondary=2,
        colours=colours + [[0]],
        item_names=names,
        colour_names=colour_names,
    )
    assert explain(two, [0, 5]) is None  # p q x y:A and r
    assert explain(two, [2, 3, 5]) == ("secondary item x is covered 2 times, with colours A and B")


def test_xcover_readme_coloured_example_from_dlx():
    text = (
        "| the xcover README's coloured example\n"
        + " ".join(XCOVER_PRIMARY)
        + " | "
        + " ".join(XCOVER_SECONDARY)
        + "\n"
        + "\n".join(" ".join(option) for option in XCOVER_OPTIONS)
        + "\n"
    )
    problem = ExactCover.from_dlx(text)
    assert problem.colour_names == ["A", "B"]
    assert [s.tolist() for s in problem.solutions()] == XCOVER_SOLUTIONS
    again = ExactCover.from_dlx(problem.to_dlx())
    assert again.to_dlx() == problem.to_dlx()
    assert [s.tolist() for s in again.solutions()] == XCOVER_SOLUTIONS


# ------------------------------------------------------------------ property tests


@st.composite
def xcc_problems(draw, with_colours=True, with_bounds=True):
    n_items = draw(st.integers(1, 7))
    secondary = np.array(draw(st.lists(st.booleans(), min_size=n_items, max_size=n_items)))
    n_options = draw(st.integers(0, 12))
    options, colours = [], []
    for _ in range(n_options):
        row = draw(st.lists(st.integers(0, n_items - 1), min_size=1, max_size=4, unique=True))
        options.append(row)
        colours.append([draw(st.integers(0, 2)) if secondary[i] else 0 for i in row])
    n_primary = int((~secondary).sum())
    bounds = None
    if with_bounds:
        bounds = []
        for _ in range(n_primary):
            u = draw(st.integers(0, 2))
            bounds.append((u, draw(st.integers(max(u, 1), 3))))
    return options, n_items, secondary, (colours if with_colours else None), bounds


def _check_against_brute_force(case):
    options, n_items, secondary, colours, bounds = case
    problem = ExactCover(
        options, n_items=n_items, secondary=secondary, colours=colours, bounds=bounds, dense=False
    )
    expected = naive_solutions_xcc(
        problem.indptr, problem.indices, n_items, secondary, problem.colours, problem.bounds
    )
    assert problem.count() == len(expected)
    enumerated = [tuple(s.tolist()) for s in problem.solutions(batch=3)]
    assert len(enumerated) == len(set(enumerated)), "a solution was repeated"
    assert sorted(enumerated) == sorted(expected)
    for solution in enumerated:
        assert verify(problem, solution), explain(problem, solution)
    first = problem.solve()
    assert (first is None) == (not expected)
    if expected:
        assert tuple(first.tolist()) in set(expected)
        limit = max(1, len(expected) - 1)
        assert problem.count(limit=limit) == min(limit, len(expected))
    return problem


@settings(max_examples=250, deadline=None)
@given(xcc_problems(with_bounds=False))
def test_colours_match_brute_force(case):
    problem = _check_against_brute_force(case)
    assert problem.algorithm in "XC"


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(xcc_problems(with_colours=False))
def test_multiplicities_match_brute_force(case):
    _check_against_brute_force(case)


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(xcc_problems())
def test_colours_and_multiplicities_match_brute_force(case):
    _check_against_brute_force(case)


@settings(max_examples=100, deadline=None)
@given(xcc_problems())
def test_dlx_round_trip_keeps_colours_and_bounds(case):
    options, n_items, secondary, colours, bounds = case
    problem = ExactCover(
        options, n_items=n_items, secondary=secondary, colours=colours, bounds=bounds, dense=False
    )
    again = ExactCover.from_dlx(problem.to_dlx())
    # from_dlx lists the items primary first; map them back by name ("i<k>")
    order = [int(name[1:]) for name in again.item_names]
    assert np.array_equal(np.asarray(order)[again.indices], problem.indices)
    assert np.array_equal(again.indptr, problem.indptr)
    assert np.array_equal(problem.secondary[order], again.secondary)
    if problem.bounds is None:
        assert again.bounds is None
    else:
        assert np.array_equal(again.bounds, problem.bounds)
    if problem.colours is None:
        assert again.colours is None
    else:  # numbered by first appearance, named by the original number
        names = np.array([""] + again.colour_names)
        assert np.array_equal(
            names[again.colours], np.where(problem.colours > 0, problem.colours.astype(str), "")
        )
    assert again.count() == problem.count()


# ------------------------------------------------------------------ modes and budgets


@pytest.mark.slow
@pytest.mark.parametrize(
    "build",
    [lambda: problems.word_square(3), lambda: problems.k_per_row_and_column(5, 2)],
    ids=["C", "M"],
)
def test_solutions_resume_and_budgets(build):
    problem = build()
    total = problem.count()
    effort = problem.stats.nodes
    seen = set()
    for solution in problem.solutions(batch=7):
        assert verify(problem, solution)
        seen.add(tuple(solution))
    assert len(seen) == total
    assert problem.stats.nodes == effort  # one pass, never restarted
    assert problem.count(limit=5) == 5
    assert len(list(problem.solutions(limit=3))) == 3
    with pytest.raises(BudgetExceeded) as info:
        problem.count(max_nodes=500)
    assert info.value.stats.nodes == 500 and info.value.stats.status == "budget"
    assert 0 <= info.value.found < total
    with pytest.raises(BudgetExceeded):
        problem.solve(max_nodes=1)
    assert problem.count(max_nodes=effort) == total  # exactly enough


def test_timeout_for_colours_and_multiplicities():
    import time

    for problem in (
        problems.word_square(4, _random_words(4, 400, seed=1)),
        problems.k_per_row_and_column(9, 2),
    ):
        start = time.perf_counter()
        with pytest.raises(BudgetExceeded):
            problem.count(timeout=0.05)
        assert time.perf_counter() - start < 3.0


def test_trace_rows_for_c_and_m_kernels():
    for problem in (problems.crossword(["c..", ".#.", "..t"]), problems.k_per_row_and_column(3, 2)):
        search = Search(problem, trace_rows=200)
        search.run(1, 1)
        events = search.trace[: search.state[2]]
        assert len(events) > 0
        assert events[-1, 0] == 3  # EV_SOLUTION


def test_dispatch_and_trivial_extensions():
    assert ExactCover([[0], [1]], colours=[[0], [0]]).algorithm == "X"  # no colour used
    assert ExactCover([[0], [1]], bounds=[(1, 1), (1, 1)]).algorithm == "X"
    assert ExactCover([[0, 1]], secondary=1, colours=[[0, 2]]).algorithm == "C"
    assert ExactCover([[0, 1]], bounds={1: (0, 1)}).algorithm == "M"
    # no primary item: the empty solution, in every kernel
    assert ExactCover([[0]], secondary=1, colours=[[1]]).count() == 1
    # u = 0 everywhere: the empty set is a solution too
    assert ExactCover([[0], [1]], bounds=[(0, 1), (0, 1)]).count() == 4
    # options without primary items are never chosen (Knuth's convention)
    assert ExactCover([[0], [1]], secondary=np.array([False, True]), bounds=[(0, 2)]).count() == 2


def test_dense_and_csr_colours():
    dense = np.array([[1, 1], [1, 1], [1, 0]])
    tints = np.array([[0, 5], [0, 5], [0, 0]])
    a = ExactCover(dense, secondary=1, colours=tints, bounds=[(2, 2)])
    b = ExactCover.from_csr(
        [0, 2, 4, 5], [0, 1, 0, 1, 0], secondary=1, colours=[0, 5, 0, 5, 0], bounds=[(2, 2)]
    )
    assert (
        sorted(map(tuple, a.solutions()))
        == sorted(map(tuple, b.solutions()))
        == [(0, 1), (0, 2), (1, 2)]
    )
    assert a.option_colours(1).tolist() == [0, 5]


# ------------------------------------------------------------------ verify / explain


def test_verify_and_explain_colours_and_bounds():
    problem = ExactCover.from_dlx("1:2|a b | x\na x:r\na b x:r\nb x:g\nb x\n")
    assert problem.bounds.tolist() == [[1, 2], [1, 1]]
    assert verify(problem, [0, 1])
    assert explain(problem, [1, 2]) == ("item b is covered 2 times (needs 1..1)")
    assert explain(problem, [0, 2]) == ("secondary item x is covered 2 times, with colours r and g")
    assert explain(problem, [0, 3]) == (
        "secondary item x is covered 2 times, with colours none and r"
    )
    assert explain(problem, [2]) == "item a is covered 0 times (needs 1..2)"
    plain = ExactCover([[0, 1], [2, 1], [1]], secondary=np.array([False, True, False]))
    assert explain(plain, [0, 1]) == "secondary item 1 is covered 2 times"
    # as in the search, an option with no primary item is never part of a solution
    assert plain.count() == 0
    assert explain(plain, [0, 2]) == "option 2 has no primary item (such an option is never chosen)"


# ------------------------------------------------------------------ DLX syntax


def test_dlx_multiplicity_syntax():
    parsed = parse_dlx("2|a 0:3|b c | x y\na b x:1\nc\n")
    assert parsed.item_names == ["a", "b", "c", "x", "y"]
    assert parsed.bounds.tolist() == [[2, 2], [0, 3], [1, 1]]
    assert parsed.colours.tolist() == [0, 0, 1, 0]
    assert parsed.colour_names == ["1"]
    assert parse_dlx("a b\na b\n").bounds is None
    assert parse_dlx("a b\na b\n").colours is None


@pytest.mark.parametrize(
    "text, message",
    [
        ("a | x\na x:\n", "<string>:2:5: bad colour ''"),
        ("a | x\na:red x\n", "<string>:2:3: primary item 'a' has a colour"),
        ("a | x\na x:r:g\n", "<string>:2:5: bad colour 'r:g'"),
        ("a | x\na zz:r\n", "<string>:2:3: unknown item 'zz'"),
        ("3:2|a\na\n", "<string>:1:1: bad multiplicity in '3:2|a': need u <= v"),
        ("0|a\na\n", "<string>:1:1: bad multiplicity in '0|a'"),
        ("x|a\na\n", "<string>:1:1: bad multiplicity in 'x|a'"),
        ("1:2:3|a\na\n", "<string>:1:1: bad multiplicity in '1:2:3|a'"),
        ("b |a\na\n", "<string>:1:3: bad multiplicity in '|a'"),
        ("2|\na\n", "<string>:1:1: no item name in '2|'"),
        ("a | 2|x\na\n", "<string>:1:5: multiplicity on secondary item '2|x'"),
        ("a b:c\na\n", "<string>:1:3: item name 'b:c' contains ':'"),
        ("2|a 1|a\na\n", "<string>:1:7: item 'a' is named twice"),
    ],
)
def test_bad_dlx_colour_and_multiplicity_syntax(text, message):
    with pytest.raises(ValueError) as info:
        ExactCover.from_dlx(text)
    assert message in str(info.value)


# ------------------------------------------------------------------ API validation


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: ExactCover([[0, 1]], colours=[[0, 1]]), "primary item 1 has colour 1"),
        (lambda: ExactCover([[0, 1]], secondary=1, colours=[[0, -1]]), "colour -1"),
        (lambda: ExactCover([[0, 1]], secondary=1, colours=[[0, 1.5]]), "is not an integer"),
        (lambda: ExactCover([[0, 1]], secondary=1, colours=[[0]]), "colours[0] has 1 entry but"),
        (lambda: ExactCover([[0, 1]], secondary=1, colours=[[0, 1], [1]]), "2 entries for 1"),
        (lambda: ExactCover([[0, 1]], secondary=1, colours=[[0, 2**31]]), "larger than"),
        (lambda: ExactCover.from_csr([0, 2], [0, 1], secondary=1, colours=[1]), "parallel"),
        (
            lambda: ExactCover(np.ones((1, 2)), secondary=1, colours=np.ones((1, 3), int)),
            "colour matrix has shape",
        ),
        (
            lambda: ExactCover(np.eye(2), secondary=1, colours=np.array([[0, 1], [0, 0]])),
            "where the option has no item",
        ),
        (lambda: ExactCover([[0]], bounds=[(2, 1)]), "need 0 <= u <= v"),
        (lambda: ExactCover([[0]], bounds=[(0, 0)]), "v >= 1"),
        (
            lambda: ExactCover([[0]], bounds=[(1, 2), (1, 1)]),
            "2 rows but the problem has 1 primary item ",
        ),
        (lambda: ExactCover([[0]], bounds=[3]), "must be a pair"),
        (lambda: ExactCover([[0]], bounds=[(1, "b")]), "is not an integer"),
        (lambda: ExactCover([[0, 1]], secondary=1, bounds={1: (1, 2)}), "is secondary"),
        (lambda: ExactCover([[0]], bounds={5: (1, 2)}), "out of range"),
        (lambda: ExactCover([[0]], bounds={"zz": (1, 2)}), "unknown item 'zz'"),
        (
            lambda: ExactCover([[0, 1]], secondary=1, colours=[[0, 2]], colour_names=["a"]),
            "1 colour names but colours go up to 2",
        ),
    ],
)
def test_bad_colours_and_bounds(build, message):
    with pytest.raises(ValueError) as info:
        build()
    assert message in str(info.value)


def test_bounds_by_item_name():
    problem = ExactCover([[0], [0], [1]], item_names=["a", "b"], bounds={"a": (2, 2)})
    assert problem.bounds.tolist() == [[2, 2], [1, 1]]
    assert problem.count() == 1


def _random_words(length, count, seed):
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcde"))
    return sorted({"".join(rng.choice(letters, length)) for _ in range(count)})


@pytest.mark.parametrize("method", ["dlx", "auto"])
def test_threads_on_multiplicities_split_the_tree_of_m(method):
    problem = problems.k_per_row_and_column(4, 2)
    assert problem.count(threads=2, method=method) == 90
    assert problem.stats.solutions == 90 and problem.stats.status == "done"
    assert problem.count(threads=1, method=method) == 90
