"""Options with costs: the k cheapest covers and the searches below a cost, against a
brute force that prices every exact cover."""

import numpy as np
import pytest

from numbadlx import ExactCover, problems
from numbadlx.core import BudgetExceeded
from numbadlx.core.costs import CostSearch
from tests.helpers import naive_solutions_xcc, random_xcc


def _priced(problem):
    """Every solution with its cost, cheapest first, ties by option indices."""
    found = naive_solutions_xcc(
        problem.indptr, problem.indices, problem.n_items, problem.secondary, problem.colours
    )
    costs = problem.costs if problem.costs is not None else np.zeros(problem.n_options, int)
    return sorted((int(costs[list(s)].sum()), tuple(sorted(s))) for s in found)


@pytest.mark.parametrize("seed", range(10))
def test_k_cheapest_and_max_cost_match_brute_force(seed):
    rng = np.random.default_rng(700 + seed)
    for _ in range(20):
        kwargs = random_xcc(rng, colours=seed % 2 == 1, max_options=11)
        kwargs["costs"] = rng.integers(0, 12, len(kwargs["options"])).tolist()
        problem = ExactCover(**kwargs)
        expected = _priced(problem)
        for k in (1, 2, 5):
            got = [(c, tuple(s.tolist())) for c, s in problem.cheapest(k)]
            assert got == expected[:k]
        for ceiling in (0, 5, 11, 30):
            below = sorted(s for c, s in expected if c <= ceiling)
            assert problem.count(max_cost=ceiling) == len(below)
            listed = sorted(tuple(s.tolist()) for s in problem.solutions(max_cost=ceiling))
            assert listed == below
            assert problem.count(limit=1, max_cost=ceiling) == min(1, len(below))


def test_ties_are_broken_by_option_indices_and_zero_costs_give_any_k():
    queens = problems.n_queens(6)
    pairs = queens.cheapest(10)
    assert len(pairs) == 4  # six queens have four solutions
    assert [c for c, _ in pairs] == [0, 0, 0, 0]
    assert [tuple(s) for _, s in pairs] == sorted(tuple(s) for s in queens.solutions())
    tied = ExactCover([[0], [1], [0, 1]], costs=[1, 1, 2])
    assert [(c, s.tolist()) for c, s in tied.cheapest(2)] == [(2, [0, 1]), (2, [2])]


def test_costs_past_2_to_the_61_are_found_and_any_max_cost_is_taken():
    # every total the problem accepts (all costs together below 2**62) is within reach
    half, single = 2**60 + 1, 2**61 - 10
    problem = ExactCover([[0], [1], [0, 1]], costs=[half, half, single])
    pairs = [(c, s.tolist()) for c, s in problem.cheapest(2)]
    assert pairs == [(single, [2]), (2 * half, [0, 1])]
    for ceiling in (single - 1, single, 2 * half, 2**62, 2**63, 10**30):
        count = problem.count(max_cost=ceiling)
        assert count == (ceiling >= single) + (ceiling >= 2 * half)
        assert len(list(problem.solutions(max_cost=ceiling))) == count


def test_dlx_text_costs_round_trip_and_add_up():
    text = "a b | x\na b |2 |3\na x:red |1\nb x:red\nb x:blue |4\n"
    problem = ExactCover.from_dlx(text)
    assert problem.costs.tolist() == [5, 1, 0, 4]
    assert problem.option_names[0] == "a b"
    again = ExactCover.from_dlx(problem.to_dlx())
    assert again.costs.tolist() == [5, 1, 0, 4]
    assert [(c, s.tolist()) for c, s in again.cheapest(5)] == [(1, [1, 2]), (5, [0])]
    named = ExactCover.from_names({"A": ["a", "b"], "B": ["a"], "C": ["b"]}, costs={"A": 3})
    assert named.costs.tolist() == [3, 0, 0]
    assert named.cheapest()[0][0] == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ("a\na |x\n", "bad cost '|x'"),
        ("a\na |-1\n", "bad cost '|-1'"),
        ("a\na |1.5\n", "bad cost"),
        ("a\na |\n", "bad cost '|'"),
    ],
)
def test_bad_dlx_costs(text, message):
    with pytest.raises(ValueError, match=message):
        ExactCover.from_dlx(text)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"costs": [1]}, "expected 2 costs"),
        ({"costs": [1, -2]}, "option 1 costs -2"),
        ({"costs": [True, 1]}, "option 0 costs True"),
        ({"costs": [1.0, 1]}, "option 0 costs 1.0"),
        ({"costs": {"zz": 1}}, "no option named 'zz'"),
        ({"costs": [2**62, 0]}, "more than 2\\*\\*62"),
        ({"costs": [2**61, 2**61]}, "add up past 2\\*\\*62"),
        ({"costs": "12"}, "one integer per option"),
    ],
)
def test_bad_costs(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ExactCover([[0], [0]], **kwargs)


def test_budgets_keep_the_best_so_far_and_multiplicities_are_refused():
    pent = problems.pentominoes(6, 10)
    costs = [1 + (7919 * k) % 100 for k in range(pent.n_options)]
    priced = ExactCover(
        [pent.option(k) for k in range(pent.n_options)],
        n_items=pent.n_items,
        costs=costs,
    )
    with pytest.raises(BudgetExceeded) as stop:
        priced.cheapest(1, max_nodes=2000)
    assert priced.stats.status == "budget"
    assert all(cost >= 0 for cost, _ in stop.value.best)
    with pytest.raises(ValueError, match="max_cost must be a non-negative integer"):
        priced.count(max_cost=-1)
    with pytest.raises(ValueError, match="multiplicities"):
        ExactCover([[0], [0]], bounds=[(1, 2)], costs=[1, 2]).cheapest()


def test_cheapest_of_knuths_baseline_table():
    # the baseline of the issue: option k costs 1 + (7919 * k) % 100 in file order
    queens = problems.n_queens(12)
    costs = [1 + (7919 * k) % 100 for k in range(queens.n_options)]
    priced = ExactCover.from_dlx(queens.to_dlx())
    priced = ExactCover(
        [priced.option(k) for k in range(priced.n_options)],
        n_items=priced.n_items,
        secondary=priced.secondary,
        costs=costs,
    )
    best = priced.cheapest(4)
    assert [c for c, _ in best] == [214] * 4
    for _, solution in best:
        assert priced.verify(solution)


@pytest.mark.parametrize("seed", range(5))
def test_assignment_finds_the_cheapest_permutation(seed):
    import itertools

    rng = np.random.default_rng(900 + seed)
    matrix = rng.integers(0, 50, (6, 6))
    best = min(
        sum(matrix[i, j] for i, j in enumerate(perm)) for perm in itertools.permutations(range(6))
    )
    problem = problems.assignment(matrix)
    cost, solution = problem.cheapest()[0]
    assert cost == best
    assert problem.verify(solution)
    with pytest.raises(ValueError, match="square matrix"):
        problems.assignment([[1, 2, 3]])


def _one_by_one(problem, max_nodes=None):
    """The one cheapest as a search that stops at each solution finds it: ``(best, nodes,
    stopped by a budget)``."""
    search = CostSearch(problem, max_nodes=max_nodes)
    best = None
    try:
        while True:
            limit = best[0] if best else 2**60
            solution, _ = search.run(limit, stop_at_solutions=True)
            if solution is None:
                return best, search.summary().nodes, False
            entry = (search.cost_of(solution), tuple(sorted(solution.tolist())))
            best = entry if best is None else min(best, entry)
    except BudgetExceeded:
        return best, search.summary().nodes, True


@pytest.mark.parametrize(
    "name, costs",
    [
        ("queens8", lambda k: 0),  # 92 ties: more than one run of the kernel
        ("langford8", lambda k: k % 3),
        ("langford8", lambda k: 1 + (7919 * k) % 100),
        ("pentominoes3x20", lambda k: (k * 37) % 11),
    ],
)
def test_the_cheapest_in_runs_of_solutions_is_the_search_stopping_at_each(name, costs):
    build = {
        "queens8": lambda: problems.n_queens(8),
        "langford8": lambda: problems.langford(8),
        "pentominoes3x20": lambda: problems.pentominoes(3, 20),
    }[name]()
    problem = ExactCover(
        [build.option(k) for k in range(build.n_options)],
        n_items=build.n_items,
        secondary=build.secondary,
        costs=[costs(k) for k in range(build.n_options)],
    )
    best, nodes, _ = _one_by_one(problem)
    ((cost, solution),) = problem.cheapest(1)
    assert (cost, tuple(solution.tolist())) == best
    assert problem.stats.nodes == nodes
    for budget in (1, 50, nodes // 3, nodes - 1):
        expected, _, stopped = _one_by_one(problem, max_nodes=budget)
        assert stopped
        with pytest.raises(BudgetExceeded) as stop:
            problem.cheapest(1, max_nodes=budget)
        got = [(c, tuple(s.tolist())) for c, s in stop.value.best]
        assert got == ([] if expected is None else [expected])


@pytest.mark.parametrize("seed", range(3))
def test_taxes_on_lists_and_on_arrays_agree(seed, monkeypatch):
    from numbadlx.core import costs as cost_module

    rng = np.random.default_rng(seed)
    for base in (problems.langford(9), problems.word_square(3, problems.WORDS3[:80])):
        problem = ExactCover(
            [base.option(k) for k in range(base.n_options)],
            n_items=base.n_items,
            secondary=base.secondary,
            colours=[base.option_colours(k) for k in range(base.n_options)]
            if base.colours is not None
            else None,
            costs=rng.integers(1, 50, base.n_options).tolist(),
        )
        on_lists = cost_module.taxes(problem)
        monkeypatch.setattr(cost_module, "_SMALL_TAXES", -1)
        on_arrays = cost_module.taxes(problem)
        monkeypatch.undo()
        for a, b in zip(on_lists, on_arrays):
            assert a.dtype == b.dtype == np.int64 and a.tolist() == b.tolist()
        assert (on_lists[1] >= 0).all() and on_lists[0].sum() > 0


def _covers_by_subsets(options, n_primary, costs):
    """Every cover of ``options`` (lists of ``(item, colour)``, items ``0..n_primary-1``
    primary) with its cost, by trying every subset: each primary item exactly once, a
    secondary item in one option or in several that give it the same colour; an option
    with no primary item never (Knuth's convention)."""
    usable = [k for k, row in enumerate(options) if any(i < n_primary for i, _ in row)]
    found = []
    for mask in range(1 << len(usable)):
        chosen = [k for j, k in enumerate(usable) if mask >> j & 1]
        seen, ok = {}, True
        for k in chosen:
            for item, colour in options[k]:
                if item in seen and (item < n_primary or colour == 0 or seen[item] != colour):
                    ok = False
                seen[item] = colour
        if ok and all(i in seen for i in range(n_primary)):
            found.append((sum(costs[k] for k in chosen), tuple(chosen)))
    return sorted(found)


def _messy_dlx(rng, options, n_primary, n_items, costs):
    """``options`` as DLX text with odd blanks, costs split over several tokens,
    comments, blank lines and a line end of either kind; padded past the compiled
    scanner's threshold with a comment block half the time."""
    names = [f"p{i}\u00e9" if i < n_primary else f"s{i}" for i in range(n_items)]
    end = "\r\n" if rng.random() < 0.3 else "\n"
    blanks = [" ", " ", "\t", "  ", "\f"]
    lines = ["| a problem", " ".join(names[:n_primary]) + " | " + " ".join(names[n_primary:])]
    for row, cost in zip(options, costs):
        tokens = [names[i] + (f":c{c}" if c else "") for i, c in row]
        rng.shuffle(tokens)
        parts = [cost // 3, cost - cost // 3] if cost and rng.random() < 0.5 else [cost]
        tokens += [f"|{part}" for part in parts if part or rng.random() < 0.5]
        lines.append("".join(str(rng.choice(blanks)) + t for t in tokens)[1:])
        if rng.random() < 0.2:
            lines.append(str(rng.choice(["", "| note |3", "   "])))
    if rng.random() < 0.5:
        lines += ["| padding " + "x" * 70] * 250  # about 20 KiB
    return end.join(lines) + end


@pytest.mark.parametrize("seed", range(6))
def test_cheapest_of_dlx_text_matches_subsets(seed):
    rng = np.random.default_rng(900 + seed)
    huge = 2**62 // 16  # costs near the bound: twelve options stay below it
    for _ in range(12):
        n_primary = int(rng.integers(1, 5))
        n_items = n_primary + int(rng.integers(0, 3))
        options = []
        for _ in range(int(rng.integers(1, 12))):
            size = int(rng.integers(1, min(3, n_items) + 1))
            items = sorted(rng.choice(n_items, size, replace=False).tolist())
            options.append([(i, int(rng.integers(0, 3)) if i >= n_primary else 0) for i in items])
        top = huge if rng.random() < 0.4 else 9
        costs = [int(c) for c in rng.integers(0, top, len(options))]
        problem = ExactCover.from_dlx(_messy_dlx(rng, options, n_primary, n_items, costs))
        assert problem.costs.tolist() == costs
        expected = _covers_by_subsets(options, n_primary, costs)
        for k in (1, 3, 50):
            got = [(c, tuple(s.tolist())) for c, s in problem.cheapest(k)]
            assert got == expected[:k]
