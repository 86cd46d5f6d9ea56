"""The explorer's tools of :class:`~numbadlx.ExactCover`, beside its searches: the
search step by step (trace, player), the memoised diagram of every solution, the
cheapest solutions, estimates of its size, preprocessing, a shuffled
option order, SAT export.

A mixin, so that :mod:`numbadlx.core.problem` keeps to building, viewing and searching
a problem; each method here is a thin face over a module of its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ExplorerTools", "shuffled"]


def shuffled(problem, seed):
    """``(copy, order)``: ``problem`` with its options in a random order drawn from
    ``seed``, and ``order[k]``, the original index of the copy's option ``k``."""
    from .validate import check_integer

    if isinstance(seed, (bool, np.bool_)):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    check_integer(seed, "seed")
    order = np.random.default_rng(seed).permutation(problem.n_options)
    p = problem
    rows = [p.indices[p.indptr[k] : p.indptr[k + 1]].tolist() for k in order.tolist()]
    colours = None
    if p.colours is not None:
        colours = [p.colours[p.indptr[k] : p.indptr[k + 1]].tolist() for k in order.tolist()]
    copy = type(problem)(
        rows,
        n_items=p.n_items,
        secondary=p.secondary,
        item_names=p.item_names,
        option_names=None if p.option_names is None else [p.option_names[k] for k in order],
        colours=colours,
        bounds=None if p.bounds is None else p.bounds.tolist(),
        colour_names=p.colour_names,
        dense=False,
        engine=p.engine,
    )
    return copy, order.astype(np.int64)


class ExplorerTools:
    """Methods of :class:`~numbadlx.ExactCover` for exploring a problem before (or
    instead of) searching it all."""

    def trace(
        self,
        *,
        max_events: int | None = None,
        limit: int | None = None,
        as_frame: bool | None = None,
    ) -> Any:
        """Record the search step by step: chosen items, options tried, backtracks and
        solutions, as a table (a pandas DataFrame, or a structured array without
        pandas). The same kernel runs with its trace table switched on; see
        :func:`numbadlx.core.trace.trace` for the columns and limits.

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> problem = ExactCover([[0, 1], [0], [1]])
        >>> events = problem.trace(as_frame=False)["event"]
        >>> " ".join(events)
        'choose try solution try choose try solution backtrack backtrack'
        """
        from . import trace as _trace

        return _trace.trace(self, max_events=max_events, limit=limit, as_frame=as_frame)

    def play(self, *, max_events: int | None = None, limit: int | None = None) -> Any:
        """Watch the search step by step: a self-contained HTML/JavaScript player of
        the 0/1 matrix (chosen option red, covered items blue, clashing options
        purple), shown by Jupyter and saved with ``.save("dance.html")``. For small
        problems without multiplicities; see :func:`numbadlx.display.player.play`.

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> problem = ExactCover([[0, 1], [0], [1]])
        >>> player = problem.play()
        >>> [step.kind for step in player.steps[:3]]
        ['choose', 'try', 'cover']
        """
        from ..display.player import play

        return play(self, max_events=max_events, limit=limit)

    def zdd(
        self,
        *,
        max_nodes: int | None = None,
        timeout: float | None = None,
        max_bytes: int | None = None,
    ) -> Any:
        """A decision diagram (ZDD) of every solution, from the memoised search.

        Each distinct subproblem (the open items, and the colour state of the secondary
        items) is searched once; see :mod:`numbadlx.core.zdd`. The result counts its
        solutions exactly (:meth:`~numbadlx.core.zdd.ZDD.count`, a Python int),
        lists them (``solutions()``) and draws uniform samples (``sample(k, seed=)``).
        Algorithms X and C only (ValueError with multiplicities). Raises
        :class:`BudgetExceeded` at ``max_nodes`` subproblems or ``timeout`` seconds,
        and :class:`~numbadlx.core.zdd.MemoryBudgetExceeded` past ``max_bytes``.

        Examples
        --------
        >>> from numbadlx import problems
        >>> zdd = problems.domino_tilings(10, 10).zdd()
        >>> zdd.count()
        258584046368
        >>> len(zdd.sample(2, seed=0))
        2
        """
        from .zdd import build_zdd

        return build_zdd(self, max_nodes=max_nodes, timeout=timeout, max_bytes=max_bytes)

    def cheapest(
        self, k: int = 1, *, max_nodes: int | None = None, timeout: float | None = None
    ) -> list[tuple[int, np.ndarray]]:
        """The ``k`` cheapest solutions as ``(cost, solution)`` pairs, cheapest first.

        ``cost`` is an int, ``solution`` sorted option indices as :meth:`solve` gives;
        ties are broken by the option indices (lexicographically), so the answer is
        exact and the same every time. A problem without costs costs 0 everywhere
        (any k solutions). Fewer than ``k`` pairs when there are fewer solutions.
        Colours allowed (Algorithm C); multiplicities raise ValueError. The search is
        DLX5's (see :mod:`numbadlx.core.costs`): item taxes, options in increasing net
        cost, cut-offs against the k-th best. ``max_nodes`` and ``timeout`` raise
        :class:`~numbadlx.core.search.BudgetExceeded`, whose ``.best`` holds the best
        found so far; Ctrl-C stops it between slices.

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> problem = ExactCover.from_dlx("a b c\\na b |5\\nc |1\\na |2\\nb c |3\\nb |1\\n")
        >>> [(cost, s.tolist()) for cost, s in problem.cheapest(2)]
        [(4, [1, 2, 4]), (5, [2, 3])]
        """
        from .costs import cheapest

        return cheapest(self, k, max_nodes=max_nodes, timeout=timeout)

    def estimate(
        self, samples: int = 1000, *, seed: int | None = None, timeout: float | None = None
    ) -> Any:
        """Knuth's random-path estimates of the full search's nodes and solutions.

        Returns an :class:`~numbadlx.core.estimate.Estimate` with ``.nodes``,
        ``.solutions`` and their standard errors (``.nodes_error``,
        ``.solutions_error``); unbiased, often with a wide spread. See
        :func:`numbadlx.core.estimate.estimate`.

        Examples
        --------
        >>> from numbadlx import problems
        >>> guess = problems.langford(7).estimate(500, seed=2)
        >>> guess.solutions > 0, guess.samples
        (True, 500)
        """
        from .estimate import estimate

        return estimate(self, samples, seed=seed, timeout=timeout)

    def reduced(self) -> tuple[Any, np.ndarray]:
        """An equivalent, smaller problem: ``(smaller, option_map)``.

        Options that can never be chosen (no primary item; or they block a primary
        item: every option of that item clashes with them) and items implied by others
        are removed (see :mod:`numbadlx.core.reduce`); ``option_map[k]`` is the index
        here of the smaller problem's option ``k``, so its solutions map back as
        ``option_map[solution]``, and the counts are equal. What was removed, and why:
        ``smaller.reduction`` (a :class:`~numbadlx.core.reduce.Reduction`).

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> problem = ExactCover([[0, 1], [0, 2], [1, 2], [2]])
        >>> smaller, option_map = problem.reduced()
        >>> option_map.tolist(), smaller.count(), problem.count()
        ([0, 3], 1, 1)
        >>> smaller.reduction.options
        [(2, 'blocks item 0'), (1, 'blocks item 1')]
        >>> smaller.reduction.items
        [(1, 'implied by item 0')]
        """
        from .reduce import reduce_problem

        smaller, option_map, report = reduce_problem(self)
        smaller.reduction = report
        return smaller, option_map

    def to_cnf(self) -> str:
        """This problem as DIMACS CNF text for a SAT solver: variable ``k + 1`` is
        option ``k`` (see :mod:`numbadlx.core.cnf` for the clauses).

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> ExactCover([[0, 1], [0], [1]]).to_cnf().splitlines()[1]
        'p cnf 3 4'
        """
        from .cnf import to_cnf

        return to_cnf(self)
