"""The resumable search driver: one run of a kernel over a private copy of the links.

:class:`Search` picks the kernel from the problem (Algorithm X, C or M), owns the
kernel's state arrays, and advances the search in slices of nodes so that a node
budget, a wall-clock deadline and Ctrl-C are all looked at between slices. Every
public search call of :class:`numbadlx.ExactCover` (``solve``, ``count``,
``solutions``, ``trace``) and :mod:`numbadlx.core.split` goes through it.
"""

import time
from dataclasses import dataclass

import numpy as np

from .kernels import common as _kernel
from .kernels import m as _kernel_m
from .kernels.common import RET_BUDGET, RET_DONE, RET_LIMIT
from .kernels.xc import search_c, search_x
from .links import LINK_DTYPE

__all__ = [
    "Search",
    "SearchStats",
    "BudgetExceeded",
    "decode_solution",
    "RET_DONE",
    "RET_LIMIT",
    "RET_BUDGET",
]

# Nodes the kernel runs, at first, between two looks at the clock (and at Ctrl-C).
_SLICE_NODES = 10_000


class BudgetExceeded(RuntimeError):
    """The search stopped at its ``max_nodes`` or ``timeout`` budget before finishing.

    Attributes
    ----------
    found : int
        Solutions seen before the budget ran out (a lower bound on the count).
    stats : SearchStats
        Effort spent.
    """

    def __init__(self, message, found, stats):
        super().__init__(message)
        self.found = found
        self.stats = stats


@dataclass
class SearchStats:
    """Effort of one search: ``nodes`` entered, link ``updates``, ``solutions`` seen,
    ``status`` (``'done'``, ``'limit'`` or ``'budget'``) and wall ``seconds``."""

    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    status: str = "not run"
    seconds: float = 0.0


class Search:
    """One resumable run of the kernel over a private copy of the link tables."""

    def __init__(self, problem, trace_rows=0):
        self.nodes = problem._nodes.copy()
        self.n_items = problem.n_items
        bounds = getattr(problem, "bounds", None)
        if bounds is None:
            # Algorithm X, or C when there are colours: the same arguments
            self.kernel = search_c if getattr(problem, "colours", None) is not None else search_x
            self.items = problem._items.copy()
            self.choice = np.zeros(problem.n_primary + 1, dtype=LINK_DTYPE)
            self.width = max(problem.n_primary, 1)
            self.extra = ()
        else:
            # Algorithm M: item table widened with (BOUND, SLACK); FT per level and the
            # stack of items M3 takes out (with its height per level); without colours
            # the same kernel compiled without the colour tests
            coloured = getattr(problem, "colours", None) is not None
            self.kernel = _kernel_m.search_m if coloured else _kernel_m.search_m_plain
            self.items = np.zeros((4, problem.n_items + 2), dtype=LINK_DTYPE)
            self.items[:2] = problem._items
            rows = slice(1, problem.n_primary + 1)  # internal primary items, caller order
            self.items[_kernel_m.BOUND, rows] = bounds[:, 1]
            self.items[_kernel_m.SLACK, rows] = bounds[:, 1] - bounds[:, 0]
            self.width = max(min(int(bounds[:, 1].sum()), problem.n_options), 1)
            depth = self.width + problem.n_primary + 1
            self.choice = np.zeros(depth, dtype=LINK_DTYPE)
            self.extra = (
                problem.n_primary,
                np.zeros(depth, dtype=LINK_DTYPE),
                np.zeros(max(problem.n_primary, 1), dtype=LINK_DTYPE),
                np.zeros(depth + 1, dtype=np.int64),
            )
        self.state = np.zeros(3, dtype=np.int64)
        self.stats = np.zeros(_kernel.N_STATS, dtype=np.int64)
        self.trace = np.zeros((trace_rows, 5), dtype=np.int64)
        self.seconds = 0.0
        self.status = "not run"

    def run(self, max_solutions, n_record, max_nodes=None, timeout=None):
        """Advance; return ``(code, found, record)``. Budgets are totals for this search."""
        record = np.full((n_record, self.width), -1, dtype=np.int32)
        start = time.perf_counter()
        limit_nodes = 0 if max_nodes is None else int(max_nodes)
        found_total = 0
        step = _SLICE_NODES
        while True:
            # Run in slices so the clock (and Ctrl-C) are looked at between them; a
            # slice grows or shrinks to take about 10-50 ms whatever a node costs.
            slice_start = time.perf_counter()
            slice_end = int(self.stats[_kernel.ST_NODES]) + step
            slice_nodes = slice_end if limit_nodes <= 0 else min(slice_end, limit_nodes)
            want = 0 if max_solutions <= 0 else max_solutions - found_total
            view = record[min(found_total, n_record) :]
            code, found = self.kernel(
                self.nodes,
                self.items,
                self.n_items,
                self.choice,
                self.state,
                want,
                slice_nodes,
                view,
                self.stats,
                self.trace,
                *self.extra,
            )
            found_total += found
            if code != _kernel.RET_BUDGET or slice_nodes == limit_nodes:
                break
            spent = time.perf_counter() - slice_start
            if spent < 0.01:
                step = min(step * 2, 1 << 40)
            elif spent > 0.05:
                step = max(step // 2, 1000)
            if timeout is not None and time.perf_counter() - start >= timeout:
                break
        self.seconds += time.perf_counter() - start
        self.status = {
            _kernel.RET_DONE: "done",
            _kernel.RET_LIMIT: "limit",
            _kernel.RET_BUDGET: "budget",
        }[code]
        return code, found_total, record

    def summary(self):
        return SearchStats(
            nodes=int(self.stats[_kernel.ST_NODES]),
            updates=int(self.stats[_kernel.ST_UPDATES]),
            solutions=int(self.stats[_kernel.ST_SOLUTIONS]),
            status=self.status,
            seconds=self.seconds,
        )


def decode_solution(row):
    """A kernel's record row (option indices padded with -1) as sorted option indices."""
    chosen = row[row >= 0].astype(np.int64)
    chosen.sort()
    return chosen
