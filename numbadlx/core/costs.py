"""Options with costs: the k cheapest exact covers, and searches below a cost.

DLX5's ideas (Knuth, *The Art of Computer Programming* 7.2.2.1, exercise on minimum-cost
covers), in integers:

* each primary item pays a **tax** (see :func:`taxes`) such that no option pays more
  tax than it costs; an option's **net cost** is its cost less its items' taxes
  (``>= 0``), and a solution costs the sum of all taxes plus its options' net costs
  (each primary item is covered once);
* the options are linked in increasing net cost inside every item's list, so the
  search (:mod:`numbadlx.core.kernels.cost`) cuts a level at the first option that goes
  past the threshold, and cuts a whole level when one item's cheapest option already
  does;
* the threshold is the k-th cheapest cost found so far (or ``max_cost``), lowered after
  each solution; a solution that ties it is still visited, so the k cheapest are exact
  with ties broken by the sorted option indices.

Algorithms X and C (colours); multiplicities raise ValueError.
"""

from __future__ import annotations

import time

import numpy as np

from .._compiling import first_use
from .kernels.common import PC_DONE, RET_BUDGET, RET_LIMIT, ST_NODES, ST_SOLUTIONS, ST_UPDATES
from .links import LINK_DTYPE, link_problem
from .search import BudgetExceeded, SearchStats, decode_solution
from .validate import MAX_TOTAL_COST, check_count, check_timeout, is_integer

__all__ = [
    "CostSearch",
    "cheapest",
    "cost_solutions",
    "cost_count",
    "taxes",
    "check_costs",
    "check_max_cost",
]

_SLICE_NODES = 20_000
#: Not empty once the kernel has run in this process (compiled or loaded): the search
#: stops at every solution that ties or beats the best so far, and announcing a compile
#: costs more than a short call of the kernel.
_loaded = []
#: Primary entries up to which :func:`taxes` runs on Python lists.
_SMALL_TAXES = 4096
#: Solutions one call of the kernel may record while it lowers the threshold itself.
_BATCH = 64
#: Past every option index (sorts last).
_PAST = np.iinfo(np.int64).max


def check_costs(costs, n_options, option_names=None):
    """One non-negative integer cost per option as an int64 array, or None.

    ``costs`` is a sequence with one cost per option, or a mapping from option index
    or option name (``option_names``) to cost, the options it leaves out costing 0.
    ValueError names a bad value, an unknown option, or a total past
    :data:`MAX_TOTAL_COST`.

    Examples
    --------
    >>> check_costs({"b": 3}, 2, ["a", "b"]).tolist()
    [0, 3]
    >>> check_costs([1, -1], 2)
    Traceback (most recent call last):
    ...
    ValueError: costs: option 1 costs -1; costs are non-negative integers
    """
    if costs is None:
        return None
    if (
        isinstance(costs, np.ndarray)
        and costs.dtype.kind in "iu"
        and costs.shape == (n_options,)
        and (not n_options or (costs.min() >= 0 and int(costs.max()) * n_options < MAX_TOTAL_COST))
    ):
        return costs.astype(np.int64)  # every check below passes: done at once
    out = np.zeros(n_options, dtype=np.int64)
    if isinstance(costs, dict):
        where = {name: k for k, name in enumerate(option_names or ())}
        pairs = []
        for key, value in costs.items():
            if isinstance(key, str):
                if key not in where:
                    raise ValueError(f"costs: no option named {key!r}")
                pairs.append((where[key], value, key))
            elif is_integer(key) and 0 <= key < n_options:
                pairs.append((int(key), value, key))
            else:
                raise ValueError(f"costs: {key!r} is no option (a name or an index)")
    else:
        if isinstance(costs, (str, bytes)):
            raise ValueError(f"costs: expected one integer per option, got {costs!r}")
        values = list(np.asarray(costs, dtype=object).reshape(-1)) if costs is not None else []
        if len(values) != n_options:
            raise ValueError(
                f"costs: expected {n_options} costs, one per option, got {len(values)}"
            )
        pairs = [(k, v, k) for k, v in enumerate(values)]
    for k, value, key in pairs:
        if not is_integer(value) or value < 0:
            raise ValueError(
                f"costs: option {key} costs {value!r}; costs are non-negative integers"
            )
        if value >= MAX_TOTAL_COST:
            raise ValueError(f"costs: option {key} costs {value}, more than 2**62")
        out[k] = int(value)
    if int(out.sum(dtype=object)) >= MAX_TOTAL_COST:
        raise ValueError("costs: the options' costs add up past 2**62")
    return out


def check_max_cost(value):
    """``value`` as an int if it is a non-negative integer, else ValueError; a value
    past :data:`MAX_TOTAL_COST`, which no solution reaches, is taken as that."""
    if not is_integer(value) or value < 0:
        raise ValueError(f"max_cost must be a non-negative integer, got {value!r}")
    return min(int(value), MAX_TOTAL_COST)


def taxes(problem):
    """``(tax per primary item, net cost per option)``, int64 (see the module).

    The items are taxed one by one, those with the fewest options first (ties by
    index): each pays the least of its options' remaining costs, which those options
    then lose. No option pays more than it costs, and the taxes add up to a lower bound
    on every solution's cost (each primary item is covered once). Measured against
    sharing each option's cost equally among its items, this takes more tax and cuts
    more (nodes to the cheapest cover with costs ``1 + (7919 k) % 100``: pentominoes
    6x10 144,133 instead of 181,023; Langford 12 4,943 instead of 8,741).

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0, 1], [0], [1]], costs=[5, 2, 4])
    >>> [t.tolist() for t in taxes(problem)]
    [[2, 3], [0, 0, 1]]
    """
    n_options = problem.n_options
    costs = problem.costs if problem.costs is not None else np.zeros(n_options, np.int64)
    rows = np.repeat(np.arange(n_options), np.diff(problem.indptr))
    primary_entry = ~problem.secondary[problem.indices]
    residual = costs.astype(np.int64).copy()
    tax = np.zeros(problem.n_items, dtype=np.int64)
    items = problem.indices[primary_entry]
    by_item = np.argsort(items, kind="stable")
    holders = rows[primary_entry][by_item]  # the options of each item, item by item
    counts = np.bincount(items, minlength=problem.n_items)
    ends, sizes = np.cumsum(counts).tolist(), counts.tolist()
    primary = np.flatnonzero(~problem.secondary).tolist()
    order = sorted(primary, key=lambda i: (sizes[i], i))
    if holders.size <= _SMALL_TAXES:  # a few entries: Python lists beat NumPy calls
        left, held = residual.tolist(), holders.tolist()
        for item in order:
            if sizes[item]:
                options = held[ends[item] - sizes[item] : ends[item]]
                paid = min(map(left.__getitem__, options))
                tax[item] = paid
                if paid:
                    for k in options:
                        left[k] -= paid
        return tax[~problem.secondary], np.array(left, dtype=np.int64)
    for item in order:
        if sizes[item]:
            options = holders[ends[item] - sizes[item] : ends[item]]
            tax[item] = residual[options].min()
            residual[options] -= tax[item]
    return tax[~problem.secondary], residual


class CostSearch:
    """One resumable bounded search of a problem with costs (see the module).

    ``run(threshold, stop_at_solutions)`` advances the search in slices of nodes until
    a solution (when ``stop_at_solutions``), the end, the node budget or the deadline.
    """

    def __init__(self, problem, *, max_nodes=None, timeout=None):
        if problem.bounds is not None:
            raise ValueError(
                "costs: the minimum-cost search runs Algorithms X and C; this problem has "
                "multiplicities (Algorithm M)"
            )
        self.max_nodes = None if max_nodes is None else check_count(max_nodes, "max_nodes")
        timeout = check_timeout(timeout)
        self.deadline = None if timeout is None else time.perf_counter() + timeout
        tax, net = taxes(problem)
        self.tax_total = int(tax.sum())
        self.costs = problem.costs if problem.costs is not None else np.zeros_like(net)
        # the options in increasing net cost (stable): item lists come out sorted
        self.order = np.argsort(net, kind="stable")
        lengths = np.diff(problem.indptr)[self.order]
        indptr = np.zeros(problem.n_options + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        # entry t of the sorted options is entry pick[t] of the problem's
        pick = np.arange(indptr[-1]) + np.repeat(problem.indptr[self.order] - indptr[:-1], lengths)
        colours = None if problem.colours is None else problem.colours[pick]
        _, _, self.nodes, self.items = link_problem(
            indptr, problem.indices[pick], colours, problem.secondary, problem.n_primary
        )
        # net cost of every node's option: spacers and headers 0
        # option k's nodes follow the item headers and k + 1 spacers
        node_net = np.zeros(self.nodes.shape[1], dtype=np.int64)
        option_of_entry = np.repeat(np.arange(problem.n_options), lengths)
        node_net[problem.n_items + 2 + np.arange(indptr[-1]) + option_of_entry] = np.repeat(
            net[self.order], lengths
        )
        self.node_net = node_net
        # net cost and index of each option in the search's order, and at index -1 (a
        # record's padding) 0 and past every index
        self._net_padded = np.append(net[self.order], 0)
        self._order_padded = np.append(self.order, _PAST)
        self.colours = problem.colours is not None
        self.n_items = problem.n_items
        depth = max(problem.n_primary, 1) + 1
        self.choice = np.zeros(depth, dtype=LINK_DTYPE)
        self.spent = np.zeros(depth + 1, dtype=np.int64)
        self.limits = np.zeros(2 * depth, dtype=np.int64)
        self.state = np.zeros(2, dtype=np.int64)
        self.stats = np.zeros(3, dtype=np.int64)
        # rows for a run of ever cheaper solutions (run_lowering), a few MB at most
        rows = max(1, min(_BATCH, (1 << 20) // depth))
        self.record = np.full((rows, depth), -1, dtype=np.int32)
        self.stopped_by = None
        self.seconds = 0.0

    @property
    def done(self):
        return self.state[0] == PC_DONE

    def run(self, max_cost, stop_at_solutions):
        """Search on; returns ``(solution or None, count)``: the next solution costing
        at most ``max_cost`` when ``stop_at_solutions``, else None and how many such
        solutions the rest of the search holds. Raises BudgetExceeded at a budget."""
        code, found = self._advance(max_cost, 1 if stop_at_solutions else 0, False)
        if code == RET_LIMIT:
            return self.order[decode_solution(self.record[0])], 1
        return None, found

    def run_lowering(self, max_cost):
        """Search on for the one cheapest solution: the kernel lowers the threshold to
        the cost of each solution it meets, so one call meets a run of ever cheaper (or
        tying) solutions. Returns the first of them in the order of :func:`cheapest`
        (cost, then sorted option indices), or None at the end of the search. The
        nodes visited are those of :meth:`run` with ``max_cost`` lowered to the best
        cost after each solution. Raises BudgetExceeded at a budget."""
        rows = self.record.shape[0]
        _, found = self._advance(max_cost, rows, True)
        if not found:
            return None
        met = self.record[: min(found, rows)]  # option indices padded with -1
        net = self._net_padded[met].sum(axis=1)
        # the cheapest rows' options sorted, then -1s: rows compare as tuples do
        options = self._order_padded[met[net == net.min()]]
        options.sort(axis=1)
        options[options == _PAST] = -1
        first = np.lexsort(options.T[::-1])[0] if options.shape[1] else 0
        return options[first][options[first] >= 0]

    def _advance(self, max_cost, max_solutions, lower):
        """Slices of the search until a solution limit, the end, or (``lower``) a slice
        that found solutions: the threshold it lowered is the caller's to pass next."""
        from .kernels.cost import search_cost

        threshold = max_cost - self.tax_total
        start = time.perf_counter()
        found = 0
        try:
            while True:
                if self.deadline is not None and time.perf_counter() >= self.deadline:
                    self.stopped_by = "timeout"
                    raise self._budget(found)
                limit = int(self.stats[ST_NODES]) + _SLICE_NODES
                if self.max_nodes is not None:
                    limit = min(limit, self.max_nodes)
                args = (
                    self.nodes,
                    self.items,
                    self.n_items,
                    self.choice,
                    self.spent,
                    self.limits,
                    self.state,
                    self.node_net,
                    threshold,
                    max_solutions,
                    limit,
                    self.record,
                    self.stats,
                    self.colours,
                    lower,
                )
                if _loaded:  # no compile left to announce: spare the reporter per call
                    code, got = search_cost(*args)
                else:
                    with first_use("the minimum-cost search"):
                        code, got = search_cost(*args)
                    _loaded.append(True)
                found += got
                if code != RET_BUDGET or (lower and got):
                    return code, found
                if self.max_nodes is not None and limit >= self.max_nodes:
                    self.stopped_by = "max_nodes"
                    raise self._budget(found)
        finally:
            self.seconds += time.perf_counter() - start

    def _budget(self, found):
        return BudgetExceeded(
            f"the minimum-cost search stopped at its {self.stopped_by} budget",
            found,
            self.summary(),
        )

    def cost_of(self, solution):
        return int(self.costs[solution].sum())

    def summary(self):
        return SearchStats(
            nodes=int(self.stats[ST_NODES]),
            updates=int(self.stats[ST_UPDATES]),
            solutions=int(self.stats[ST_SOLUTIONS]),
            status="budget" if self.stopped_by else ("done" if self.done else "limit"),
            seconds=self.seconds,
        )


def _no_costs(problem):
    return problem.costs is None or not problem.costs.any()


def cheapest(problem, k=1, *, max_nodes=None, timeout=None):
    """The ``k`` cheapest solutions as ``(cost, solution)`` pairs, cheapest first (see
    :meth:`numbadlx.ExactCover.cheapest`)."""
    k = check_count(k, "k")
    search = CostSearch(problem, max_nodes=max_nodes, timeout=timeout)
    best = []  # (cost, tuple of option indices), at most k, sorted
    ceiling = MAX_TOTAL_COST  # above every solution's cost (check_costs)
    try:
        while True:
            limit = best[-1][0] if len(best) == k else ceiling
            if k == 1:  # the kernel lowers the threshold itself: one call, many solutions
                solution = search.run_lowering(limit)
            else:
                solution, _ = search.run(limit, stop_at_solutions=True)
            if solution is None:
                break
            best.append((search.cost_of(solution), tuple(sorted(solution.tolist()))))
            best.sort()
            del best[k:]
    except BudgetExceeded as stop:
        stop.best = [(c, np.array(s, dtype=np.int64)) for c, s in best]
        raise
    finally:
        problem.stats = search.summary()
    return [(cost, np.array(s, dtype=np.int64)) for cost, s in best]


def cost_solutions(problem, max_cost, *, max_nodes=None, timeout=None):
    """A generator of the solutions costing at most ``max_cost`` (sorted option
    indices), in the search's order."""
    search = CostSearch(problem, max_nodes=max_nodes, timeout=timeout)
    try:
        while True:
            solution, _ = search.run(int(max_cost), stop_at_solutions=True)
            if solution is None:
                return
            yield np.sort(solution).astype(np.int64)
    finally:
        problem.stats = search.summary()


def cost_count(problem, max_cost, *, limit=None, max_nodes=None, timeout=None):
    """How many solutions cost at most ``max_cost`` (up to ``limit``)."""
    if limit is not None:
        found = 0
        for _ in cost_solutions(problem, max_cost, max_nodes=max_nodes, timeout=timeout):
            found += 1
            if found >= limit:
                break
        return found
    search = CostSearch(problem, max_nodes=max_nodes, timeout=timeout)
    try:
        _, found = search.run(int(max_cost), stop_at_solutions=False)
    finally:
        problem.stats = search.summary()
    return found
