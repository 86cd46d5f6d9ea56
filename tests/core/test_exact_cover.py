import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numbadlx
from numbadlx import BudgetExceeded, ExactCover, explain, problems, verify
from numbadlx.core.dlx_text import parse_dlx
from tests.helpers import naive_count_dense

# The tutorial example: A={1,4,7}, B={1,4}, C={4,5,7}, D={3,5,6}, E={2,3,6,7}, F={2,7}
TUTORIAL = [[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]]
KNUTH_DLX = """| Knuth's example from "Dancing Links" (arXiv cs/0011047)
a b c d e f g
c e
a d g
b c f
a d f
b g
d e g
"""


def test_tutorial_example_dense_lists_and_csr():
    dense = np.zeros((6, 7), dtype=np.int8)
    for k, option in enumerate(TUTORIAL):
        dense[k, option] = 1
    for problem in (
        ExactCover(dense),
        ExactCover(TUTORIAL),
        ExactCover(dense.astype(bool)),
        ExactCover(dense.astype(float)),
        ExactCover.from_csr(*_csr(TUTORIAL), n_items=7),
    ):
        solution = problem.solve()
        assert solution.tolist() == [1, 3, 5]  # B, D, F
        assert problem.count() == 1
        assert verify(problem, solution)
    assert numbadlx.solve(dense).tolist() == [1, 3, 5]
    assert numbadlx.count(dense) == 1


def _csr(options):
    indptr = np.concatenate([[0], np.cumsum([len(o) for o in options])])
    return indptr, np.concatenate(options)


def test_knuth_example_from_dlx_text_and_file(tmp_path):
    problem = ExactCover.from_dlx(KNUTH_DLX)
    assert problem.item_names == list("abcdefg")
    solutions = list(problem.solutions())
    assert len(solutions) == 1
    chosen = [" ".join(problem.item_names[i] for i in problem.option(k)) for k in solutions[0]]
    assert sorted(chosen) == ["a d f", "b g", "c e"]
    path = tmp_path / "knuth.dlx"
    path.write_text(KNUTH_DLX)
    assert ExactCover.from_dlx(path).solve().tolist() == solutions[0].tolist()
    assert ExactCover.from_dlx(str(path)).count() == 1


def test_secondary_items_from_dlx():
    problem = ExactCover.from_dlx("a b | x\na x\nb x\na\nb\n")
    assert problem.n_primary == 2 and problem.n_secondary == 1
    found = sorted(tuple(s) for s in problem.solutions())
    assert found == [(0, 3), (1, 2), (2, 3)]


def test_secondary_mask_and_count_agree():
    # item 1 secondary given as a mask in the middle of the items
    options = [[0, 1], [2, 1], [0], [2]]
    by_mask = ExactCover(options, secondary=np.array([False, True, False]))
    assert by_mask.n_primary == 2
    assert sorted(tuple(s) for s in by_mask.solutions()) == [(0, 3), (1, 2), (2, 3)]
    for solution in by_mask.solutions():
        assert verify(by_mask, solution)
    assert not verify(by_mask, [0, 1])  # secondary item 1 covered twice
    assert explain(by_mask, [0, 1]) == "secondary item 1 is covered 2 times"
    assert explain(by_mask, [2]) == "item 2 is covered 0 times"


@st.composite
def small_problems(draw):
    n_options = draw(st.integers(0, 14))
    n_items = draw(st.integers(1, 8))
    rows = []
    for _ in range(n_options):
        row = draw(st.lists(st.booleans(), min_size=n_items, max_size=n_items))
        if not any(row):
            row[draw(st.integers(0, n_items - 1))] = True
        rows.append(row)
    matrix = np.array(rows, dtype=bool).reshape(n_options, n_items)
    n_secondary = draw(st.integers(0, n_items))
    return matrix, n_secondary


@settings(max_examples=300, deadline=None)
@given(small_problems())
def test_matches_brute_force(case):
    matrix, n_secondary = case
    expected = naive_count_dense(matrix, n_secondary)
    problem = ExactCover(matrix, secondary=n_secondary)
    assert problem.count() == len(expected)
    enumerated = [tuple(s.tolist()) for s in problem.solutions(batch=3)]
    assert len(enumerated) == len(set(enumerated)), "a solution was repeated"
    assert sorted(enumerated) == sorted(expected)
    for solution in enumerated:
        assert verify(problem, solution)
    first = problem.solve()
    assert (first is None) == (not expected)
    if expected:
        assert tuple(first.tolist()) in set(expected)
        limit = max(1, len(expected) - 1)
        assert problem.count(limit=limit) == min(limit, len(expected))


@pytest.mark.parametrize(
    "n, expected", list(enumerate([1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200], start=1))
)
def test_n_queens_counts_oeis_a000170(n, expected):
    problem = problems.n_queens(n)
    assert problem.count() == expected
    if expected:
        assert verify(problem, problem.solve())


@pytest.mark.parametrize(
    "n, expected", [(1, 0), (2, 0), (3, 2), (4, 2), (5, 0), (6, 0), (7, 52), (8, 300), (11, 35584)]
)
def test_langford_counts_twice_oeis_a014552(n, expected):
    problem = problems.langford(n)
    assert problem.count() == expected
    for solution in problem.solutions(limit=5):
        assert verify(problem, solution)
        slots = np.zeros(2 * n, dtype=int)
        for k in solution:
            number, i, j = problem.option_names[k].split()
            slots[int(i[1:]) - 1] = slots[int(j[1:]) - 1] = int(number)
        for number in range(1, n + 1):
            where = np.flatnonzero(slots == number)
            assert where[1] - where[0] == number + 1


def test_pentomino_orientations():
    counts = {
        name: len(problems.orientations(cells)) for name, cells in problems.PENTOMINOES.items()
    }
    assert counts == {
        "F": 8,
        "I": 2,
        "L": 8,
        "N": 8,
        "P": 8,
        "T": 4,
        "U": 4,
        "V": 4,
        "W": 4,
        "X": 1,
        "Y": 8,
        "Z": 4,
    }


@pytest.mark.slow
@pytest.mark.parametrize("rows, cols, expected", [(3, 20, 8), (6, 10, 9356)])
def test_pentomino_counts(rows, cols, expected):
    # 2 and 2339 up to symmetry; a rectangle has 4 symmetries
    problem = problems.pentominoes(rows, cols)
    assert problem.count() == expected
    solution = problem.solve()
    assert verify(problem, solution) and len(solution) == 12


def test_solutions_resume_without_searching_twice():
    problem = problems.n_queens(8)
    problem.count()
    full_effort = problem.stats.nodes
    seen = set()
    for solution in problem.solutions(batch=1):
        assert verify(problem, solution)
        seen.add(tuple(solution))
    assert len(seen) == 92
    assert problem.stats.nodes == full_effort  # one pass, never restarted
    first_five = [tuple(s) for s in problem.solutions(limit=5, batch=2)]
    assert len(first_five) == 5 and set(first_five) <= seen


def test_generators_are_independent():
    problem = problems.n_queens(6)
    first, second = problem.solutions(batch=1), problem.solutions(batch=1)
    a = next(first)
    assert next(second).tolist() == a.tolist()
    rest = [s.tolist() for s in first]
    assert len(rest) == 3 and a.tolist() not in rest


def test_max_nodes_budget_stops_and_reports():
    problem = problems.pentominoes(6, 10)
    with pytest.raises(BudgetExceeded) as info:
        problem.count(max_nodes=5000)
    assert info.value.stats.nodes == 5000
    assert info.value.stats.status == "budget"
    assert 0 <= info.value.found < 9356
    with pytest.raises(BudgetExceeded):
        problem.solve(max_nodes=3)
    assert problems.n_queens(8).count(max_nodes=10_000) == 92  # enough budget: no error


def test_timeout_stops_promptly():
    import time

    problem = problems.pentominoes(6, 10)
    problem.count(limit=1)  # compile and load the kernel before timing
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded) as info:
        problem.count(timeout=0.05)
    assert time.perf_counter() - start < 1.0  # a full count takes several seconds
    assert 0 < info.value.stats.nodes < 3_637_261


def test_uncovered_primary_item_means_no_solution_at_once():
    problem = ExactCover([[0], [1], [0, 1]], n_items=3)
    assert problem.count() == 0
    assert problem.solve() is None
    assert problem.stats.nodes == 1


def test_no_primary_items_has_the_empty_solution():
    problem = ExactCover([[0], [1]], secondary=2)
    assert problem.count() == 1
    assert problem.solve().tolist() == []
    assert ExactCover(np.zeros((0, 3), dtype=bool)).count() == 0


def test_dlx_round_trip():
    problem = problems.n_queens(5)
    again = ExactCover.from_dlx(problem.to_dlx())
    assert again.item_names == problem.item_names
    assert np.array_equal(again.secondary, problem.secondary)
    assert np.array_equal(again.indices, problem.indices)
    assert np.array_equal(again.indptr, problem.indptr)
    assert again.count() == 10
    unnamed = ExactCover([[0, 2], [1]], secondary=1)
    text = unnamed.to_dlx()
    assert text.splitlines()[0] == "i0 i1 | i2"
    assert ExactCover.from_dlx(text).count() == 1
    only_secondary = ExactCover([[0]], secondary=1)
    assert ExactCover.from_dlx(only_secondary.to_dlx()).n_secondary == 1


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: ExactCover(np.zeros(5)), "must be 2-D"),
        (lambda: ExactCover(np.array([[0, 2], [1, 0]])), "row 0, item 1 is not 0 or 1"),
        (lambda: ExactCover(np.array([[0.0, np.nan]])), "NaN at row 0, item 1"),
        (lambda: ExactCover(np.array([[1, 0], [0, 0]])), "option (row) 1 is empty"),
        (lambda: ExactCover([[0, 1], []]), "option 1 is empty"),
        (lambda: ExactCover([[0, 5]], n_items=3), "option 0: item index 5 is out of range"),
        (lambda: ExactCover([[0, -1]]), "option 0: item index -1 is negative"),
        (lambda: ExactCover([[0], [1, 2, 1]]), "option 1 contains item 1 more than once"),
        (lambda: ExactCover([[0, "a"]]), "option 0, entry 1"),
        (lambda: ExactCover([[0.5]]), "option 0, entry 0"),
        (lambda: ExactCover([[0]], secondary=3), "outside 0..1"),
        (lambda: ExactCover([[0]], secondary=np.array([1])), "must be boolean"),
        (lambda: ExactCover.from_csr([0, 2, 1], [0, 1]), "indptr[-1] = 1"),
        (lambda: ExactCover.from_csr([0, 2, 1, 3], [0, 1, 2]), "indptr decreases at position 1"),
        (lambda: ExactCover.from_csr([1, 2], [0, 1]), "indptr[0] must be 0"),
        (lambda: ExactCover.from_dlx("a b\na c\n"), "<string>:2:3: unknown item 'c'"),
        (lambda: ExactCover.from_dlx("a b\nb a b\n"), "<string>:2:5: item 'b' appears twice"),
        (lambda: ExactCover.from_dlx("a a\n"), "<string>:1:3: item 'a' is named twice"),
        (lambda: ExactCover.from_dlx("| only a comment\n"), "no item line"),
        (lambda: ExactCover.from_dlx("a | b | c\n"), "a second '|'"),
    ],
)
def test_bad_input_messages(build, message):
    with pytest.raises(ValueError) as info:
        build()
    assert message in str(info.value)


def test_size_beyond_int32_is_refused():
    from numbadlx.core.validate import check_link_size

    with pytest.raises(ValueError, match="too large for 32-bit links"):
        check_link_size(10, 2**30, 2**30)
    check_link_size(10, 1000, 5000)  # fine


def test_dlx_file_error_names_the_file(tmp_path):
    path = tmp_path / "bad.dlx"
    path.write_text("a b\n| comment\na zz\n")
    with pytest.raises(ValueError, match=r"bad\.dlx:3:3: unknown item 'zz'"):
        parse_dlx(path)


@pytest.mark.parametrize("name", ["missing.dlx", "PROBLEM.DLX", "no/such/dir/problem", "./x"])
def test_a_missing_dlx_file_is_not_read_as_text(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match=f"no such file: '{re.escape(name)}'"):
        ExactCover.from_dlx(name)
    with pytest.raises(FileNotFoundError):
        ExactCover.from_dlx(tmp_path / name)  # a Path is always a file


def test_dlx_text_has_a_newline_and_a_string_without_one_names_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for text in ("a b", "a b | x", "a.b c"):
        with pytest.raises(FileNotFoundError, match="a string without a newline names a file"):
            ExactCover.from_dlx(text)
    for text in ("a b\n", "a b | x\n", "a.b c\n"):
        problem = ExactCover.from_dlx(text)
        assert problem.n_options == 0 and problem.count() == 0
    (tmp_path / "knuth.dlx").write_text(KNUTH_DLX)
    assert ExactCover.from_dlx("knuth.dlx").count() == 1  # a file that is there: read


def test_cli_count_of_a_missing_file_is_an_error(tmp_path, monkeypatch, capsys):
    from numbadlx.cli import main

    monkeypatch.chdir(tmp_path)
    for name in ("missing.dlx", "missing"):
        assert main(["count", name]) == 2
        captured = capsys.readouterr()
        assert captured.err.startswith("numbadlx: error: ") and "no such file" in captured.err
        assert name in captured.err and captured.out == ""
    (tmp_path / "a b").write_text(KNUTH_DLX)  # a file name that is also DLX text
    assert main(["count", "a b"]) == 0
    assert capsys.readouterr().out == "1 solution\n"


def test_link_tables_follow_dlx1_layout():
    problem = ExactCover(TUTORIAL)
    nodes, items = problem.links()
    n = problem.n_items
    # header lengths
    assert nodes[1 : n + 1, 2].tolist() == [2, 2, 2, 3, 2, 2, 4]
    # a spacer (item 0) before every option and after the last
    spacers = np.flatnonzero(nodes[n + 1 :, 2] == 0) + n + 1
    assert len(spacers) == problem.n_options + 1
    # walking right from any node with p + 1 (wrapping at spacers) gives its option
    for k in range(problem.n_options):
        first = spacers[k] + 1
        p, seen = first, []
        while True:
            seen.append(int(nodes[p, 2]) - 1)
            p += 1
            if nodes[p, 2] == 0:
                p = nodes[p, 0]
            if p == first:
                break
        assert seen == TUTORIAL[k]
    # primary list is circular through root 0
    walk, p = [], items[0, 1]
    while p != 0:
        walk.append(int(p))
        p = items[p, 1]
    assert walk == list(range(1, n + 1))
