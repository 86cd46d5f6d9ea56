"""The resumable search driver: one run of a kernel over a private copy of the links.

:class:`Search` picks the kernel from the problem (Algorithm X, C or M), owns the
kernel's state arrays, and advances the search in slices of nodes so that a node
budget, a wall-clock deadline and Ctrl-C are all looked at between slices. Every
public search call of :class:`numbadlx.ExactCover` (``solve``, ``count``,
``solutions``, ``trace``) and :mod:`numbadlx.core.split` goes through it; the first
three are :func:`first_solution`, :func:`count_dlx` and :func:`iter_solutions`
below, which leave the effort in ``problem.stats``.

The budgets belong to the search, not to one call: ``max_nodes`` counts every node
the search enters and ``timeout`` fixes one deadline when the :class:`Search` is made,
so a search resumed many times (``solutions`` yields batch after batch) stops at the
same node count and the same moment as one that runs straight through.
"""

import threading
import time
from dataclasses import dataclass

import numpy as np

from .._compiling import first_use
from .._stopping import ctrl_c_count
from ._cells_links import build_cells
from .kernels import cells as _kernel_cells
from .kernels import cells_m as _kernel_cells_m
from .kernels import common as _kernel
from .kernels import m as _kernel_m
from .kernels.common import PC_DONE, RET_BUDGET, RET_DONE, RET_LIMIT
from .kernels.xc import search_c, search_x
from .links import DOWN as _DOWN
from .links import ITEM as _ITEM
from .links import LINK_DTYPE
from .validate import check_count, check_timeout
from .words import plural

__all__ = [
    "Search",
    "SearchStats",
    "BudgetExceeded",
    "decode_solution",
    "first_solution",
    "count_dlx",
    "iter_solutions",
    "RET_DONE",
    "RET_LIMIT",
    "RET_BUDGET",
    "ENGINES",
    "check_engine",
    "engine_for",
]

#: The values of ``ExactCover(engine=...)``.
ENGINES = ("dlx", "cells", "auto")

# Nodes the kernel runs, at first, between two looks at the clock (and at Ctrl-C).
_SLICE_NODES = 10_000


def check_engine(engine):
    """``engine`` if it is one of :data:`ENGINES`, else ValueError.

    Examples
    --------
    >>> check_engine("cells")
    'cells'
    """
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}")
    return engine


def engine_for(problem):
    """The engine that searches ``problem``: ``'dlx'`` or ``'cells'``.

    Its ``engine`` attribute (``'dlx'`` when it has none), with ``'auto'`` settled by
    the problem's shape (see :class:`numbadlx.ExactCover`), for Algorithm M
    (multiplicities) as for X and C.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> engine_for(ExactCover([[0, 1], [0], [1]], engine="cells"))
    'cells'
    """
    engine = check_engine(getattr(problem, "engine", "dlx"))
    if engine == "auto":
        engine = _auto_rule(problem)
    return engine


# engine='auto' picks cells for two shapes of problems without secondary items.
#
# Packings: options of at least _AUTO_OPTION_LENGTH items on average and items in at
# least _AUTO_OPTIONS_PER_ITEM options on average. Measured with benchmarks/knuth.py
# (CPU time of the search): cells takes 0.70 of DLX's time on pentominoes 6 x 10,
# about the same on queens, and 1.15-1.20 times DLX's on word squares and crosswords.
# The same rule holds for Algorithm M (multiplicities), measured with
# benchmarks/multiplicities.py: cells took 0.82-0.85 of DLX's time on pentomino packings
# with each piece an item of multiplicity 0..1, about the same on tetromino packings (a
# piece in some 50 options), and 1.2-1.35 times DLX's on k marks per row and column, n
# queens and domino tilings with a number of horizontal dominoes.
#
# Even triples (Algorithms X and C only): options of about three items, items in at
# least _AUTO_EVEN_DEGREE options on average and none in more than twice as many as the
# rarest. That
# is Langford pairs (a number and its two places; numbers in n - 1 to 2n - 2 options,
# places alike), where cells takes 0.76-0.82 of DLX's time (n = 9..12, whole counts),
# and Latin squares (cell, row-value, column-value; 0.58-0.63 over their first
# solutions). Polyomino tilings have short options too but corner cells in few of them
# (trominoes: 5 against 18; cells 1.4-1.5 times slower, whole counts of 5 x 6, 6 x 6 and
# 4 x 9 boards), and options of two items (dominoes, assignments: cells 1.2 times
# slower) or four (tetrominoes, Sudoku as exact cover) stay with DLX.
_AUTO_OPTION_LENGTH = 5
_AUTO_OPTIONS_PER_ITEM = 100
_AUTO_EVEN_DEGREE = 12


def _auto_rule(problem):
    """``'cells'`` or ``'dlx'`` for a problem, from its shape (see
    :class:`numbadlx.ExactCover`)."""
    nnz = problem.indices.size
    if problem.n_secondary or not problem.n_options or not problem.n_items:
        return "dlx"
    long_options = nnz >= _AUTO_OPTION_LENGTH * problem.n_options
    busy_items = nnz >= _AUTO_OPTIONS_PER_ITEM * problem.n_items
    if long_options and busy_items:
        return "cells"
    if problem.bounds is None and 2.5 * problem.n_options <= nnz <= 3.5 * problem.n_options:
        degrees = np.bincount(problem.indices, minlength=problem.n_items)
        rarest = int(degrees.min())
        if nnz >= _AUTO_EVEN_DEGREE * problem.n_items and int(degrees.max()) <= 2 * rarest:
            return "cells"
    return "dlx"


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
    """One resumable run of the kernel over a private copy of the link tables.

    Parameters
    ----------
    problem : ExactCover
        The problem to search (its link tables are copied, never changed).
    trace_rows : int, optional
        Rows of the kernel's event table (0: no trace).
    max_nodes : int, optional
        Node budget of the whole search: :meth:`run` stops once the search has entered
        this many nodes, over all its calls.
    timeout : float, optional
        Seconds from now: the deadline of the whole search, fixed here. :meth:`run`
        stops at it whenever it is called, so time spent between calls counts too.

    Attributes
    ----------
    stopped_by : str or None
        ``'max_nodes'`` or ``'timeout'`` once a budget has stopped :meth:`run`.
    """

    def __init__(self, problem, trace_rows=0, *, max_nodes=None, timeout=None):
        self.max_nodes = None if max_nodes is None else check_count(max_nodes, "max_nodes")
        self.timeout = check_timeout(timeout)
        self.n_items = problem.n_items
        bounds = getattr(problem, "bounds", None)
        self.state = np.zeros(3, dtype=np.int64)
        self.engine = "dlx" if trace_rows else engine_for(problem)
        if self.engine == "cells":
            self._setup_cells(problem, bounds)
        elif bounds is None:
            self.nodes = problem._nodes.copy()
            # Algorithm X, or C when there are colours: the same arguments
            coloured = getattr(problem, "colours", None) is not None
            self.kernel = search_c if coloured else search_x
            self.kernel_name = f"the Algorithm {'C' if coloured else 'X'} search"
            self.items = problem._items.copy()
            self.choice = np.zeros(problem.n_primary + 1, dtype=LINK_DTYPE)
            self.width = max(problem.n_primary, 1)
            self.extra = ()
        else:
            # Algorithm M: item table widened with (BOUND, SLACK); FT per level and the
            # stack of items M3 takes out (with its height per level); without colours
            # the same kernel compiled without the colour tests
            self.nodes = problem._nodes.copy()
            coloured = getattr(problem, "colours", None) is not None
            self.kernel = _kernel_m.search_m if coloured else _kernel_m.search_m_plain
            self.kernel_name = "the Algorithm M search"
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
        self.stats = np.zeros(_kernel.N_STATS, dtype=np.int64)
        self.trace = np.zeros((trace_rows, 5), dtype=np.int64)
        self.seconds = 0.0
        self.status = "not run"
        self.stopped_by = None
        # Slice length in nodes; kept from one run() to the next so a resumed search
        # does not have to learn again what a node costs.
        self._step = _SLICE_NODES
        # The one deadline: every run() compares the clock with this same moment.
        self.deadline = None if self.timeout is None else time.perf_counter() + self.timeout
        #: called with this search between slices (a progress report), or None
        self.on_slice = None

    def _setup_cells(self, problem, bounds):
        """The dancing-cells table and state (see :mod:`.kernels.cells`, and
        :mod:`.kernels.cells_m` with multiplicities)."""
        n_primary = problem.n_primary
        internal = problem._internal[problem.indices] if problem.indices.size else problem.indices
        colours = problem.colours
        self.nodes, self.items = build_cells(
            problem.indptr,
            internal,
            np.zeros(0) if colours is None else colours,
            self.n_items,
            n_primary,
        )
        if bounds is not None:
            kernel = _kernel_cells_m
            self.kernel = kernel.search_cells_m_plain if colours is None else kernel.search_cells_m
            self.kernel_name = "the Algorithm M search (cells engine)"
            self.width = max(min(int(bounds[:, 1].sum()), problem.n_options), 1)
            depth = self.width + n_primary + 1
            self.extra = (np.zeros(max(n_primary, 1), dtype=np.uint32),)
            self.extra[0][:n_primary] = kernel.set_bounds(self.nodes, bounds, self.n_items)
        else:
            kernel = _kernel_cells
            self.kernel = kernel.search_cells_x if colours is None else kernel.search_cells_c
            self.kernel_name = "the exact-cover search (cells engine)"
            self.width = max(n_primary, 1)
            depth = n_primary + 1
            self.extra = ()
        self.choice = np.zeros((depth, kernel.LEVEL_COLUMNS), dtype=np.uint32)
        self.state = kernel.fresh_state(self.items, self.n_items, n_primary)

    def budget_text(self):
        """The budget that stopped the search, as ``'timeout=0.3'`` or
        ``'max_nodes=5000'`` (empty before a budget stopped it)."""
        if self.stopped_by == "timeout":
            return f"timeout={self.timeout:g}"
        if self.stopped_by == "max_nodes":
            return f"max_nodes={self.max_nodes}"
        return ""

    def run(self, max_solutions, n_record):
        """Advance until ``max_solutions`` more solutions (0: all), the end, or a budget.

        Returns ``(code, found, record)``: ``code`` is RET_DONE, RET_LIMIT or
        RET_BUDGET, ``found`` the solutions seen by this call and ``record`` their first
        ``n_record`` as kernel rows (see :func:`decode_solution`). The node budget and
        the deadline are those of the search (see :class:`Search`); a call made after
        the deadline returns RET_BUDGET at once unless the search has already ended.
        """
        record = np.full((n_record, self.width), -1, dtype=np.int32)
        start = time.perf_counter()
        # off the main thread no KeyboardInterrupt comes between slices: the Ctrl-Cs
        # the signal watcher read are looked at instead
        away = threading.current_thread() is not threading.main_thread()
        ctrl_c = ctrl_c_count() if away else 0
        limit_nodes = 0 if self.max_nodes is None else self.max_nodes
        found_total = 0
        while True:
            # The clock is read before every slice, the first one of this call
            # included: a caller that takes solutions one at a time never gets a slice
            # that ends on RET_BUDGET, so a check only after such slices would never
            # stop it. A finished search still reports that it is done.
            now = time.perf_counter()
            if away and ctrl_c_count() != ctrl_c:
                raise KeyboardInterrupt
            if self.deadline is not None and now >= self.deadline and self.state[0] != PC_DONE:
                code = _kernel.RET_BUDGET
                self.stopped_by = "timeout"
                break
            # Run in slices so the clock (and Ctrl-C) are looked at between them; a
            # slice grows or shrinks to take about 10-50 ms whatever a node costs.
            slice_end = int(self.stats[_kernel.ST_NODES]) + self._step
            slice_nodes = slice_end if limit_nodes <= 0 else min(slice_end, limit_nodes)
            want = 0 if max_solutions <= 0 else max_solutions - found_total
            view = record[min(found_total, n_record) :]
            with first_use(self.kernel_name):
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
            if self.on_slice is not None:
                self.on_slice(self)
            if code != _kernel.RET_BUDGET:
                break
            if slice_nodes == limit_nodes:
                self.stopped_by = "max_nodes"
                break
            spent = time.perf_counter() - now
            if spent < 0.01:
                self._step = min(self._step * 2, 1 << 40)
            elif spent > 0.05:
                self._step = max(self._step // 2, 1000)
        self.seconds += time.perf_counter() - start
        self.status = {
            _kernel.RET_DONE: "done",
            _kernel.RET_LIMIT: "limit",
            _kernel.RET_BUDGET: "budget",
        }[code]
        return code, found_total, record

    def fraction_done(self):
        """The share of the search tree behind the current path, by the path's place
        in it: at each level ``j`` the option tried is the ``k_j``-th (from 0) of its
        item's ``d_j``, and the tree counts as done up to ``sum_j k_j / (d_1 ... d_j)``
        (as if the subtrees of a level were alike: Knuth's progress report). Rises
        from 0 to 1 as the search goes; None for the cells engine and Algorithm M."""
        if self.state[0] == PC_DONE:
            return 1.0
        if self.engine != "dlx" or self.extra:
            return None
        nodes = self.nodes
        done, weight = 0.0, 1.0
        for level in range(int(self.state[1])):
            x = int(self.choice[level])
            item = int(nodes[_ITEM, x]) if x > self.n_items else x
            degree = int(nodes[_ITEM, item])
            if degree == 0 or x <= self.n_items:
                break
            position, p = 0, int(nodes[_DOWN, item])
            while p != x:
                position += 1
                p = int(nodes[_DOWN, p])
            weight /= degree
            done += position * weight
        return done

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


# ----------------------------------------------- the searches of ExactCover
def _finish(problem, search, code, found, what):
    """Keep the search's effort in ``problem.stats``; raise BudgetExceeded if a budget
    stopped it (``what``: the call, for the message)."""
    problem.stats = search.summary()
    if code == RET_BUDGET:
        raise BudgetExceeded(
            f"{what} stopped at its budget ({search.budget_text()}) after "
            f"{plural(problem.stats.nodes, 'node')}, {plural(found, 'solution')} seen",
            found,
            problem.stats,
        )


def first_solution(problem, *, max_nodes=None, timeout=None):
    """``problem``'s first solution as sorted option indices, or None (the search of
    :meth:`numbadlx.ExactCover.solve`).

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> first_solution(ExactCover([[0, 1], [0], [1]])).tolist()
    [0]
    """
    search = Search(problem, max_nodes=max_nodes, timeout=timeout)
    code, found, record = search.run(1, 1)
    _finish(problem, search, code, found, "solve")
    return decode_solution(record[0]) if found else None


def count_dlx(problem, limit=None, *, max_nodes=None, timeout=None, progress=None):
    """``problem``'s solutions counted by plain DLX on this thread, up to ``limit`` (the
    search of :meth:`numbadlx.ExactCover.count` with its default method). ``progress``,
    if given, is called between slices of the search (every 10-50 ms) with the share
    of the tree done (:meth:`Search.fraction_done`, None where unknown), the nodes and
    the solutions so far.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> count_dlx(ExactCover([[0, 1], [0], [1]]))
    2
    """
    limit = None if limit is None else check_count(limit, "limit")
    search = Search(problem, max_nodes=max_nodes, timeout=timeout)
    if progress is not None:
        search.on_slice = lambda s: progress(
            s.fraction_done(), int(s.stats[_kernel.ST_NODES]), int(s.stats[_kernel.ST_SOLUTIONS])
        )
    code, found, _ = search.run(0 if limit is None else limit, 0)
    _finish(problem, search, code, found, "count")
    return found


def iter_solutions(problem, limit=None, *, max_nodes=None, timeout=None, batch=64):
    """An iterator over ``problem``'s solutions, one search resumed batch after batch
    (see :meth:`numbadlx.ExactCover.solutions`). The arguments are checked, and the
    deadline fixed, by this call, not at the first solution asked for.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> [s.tolist() for s in iter_solutions(ExactCover([[0, 1], [0], [1]]), batch=1)]
    [[0], [1, 2]]
    """
    limit = None if limit is None else check_count(limit, "limit")
    batch = check_count(batch, "batch")
    search = Search(problem, max_nodes=max_nodes, timeout=timeout)
    return _batches(problem, search, limit, batch)


def _batches(problem, search, limit, batch):
    produced = 0
    while limit is None or produced < limit:
        want = batch if limit is None else min(batch, limit - produced)
        code, found, record = search.run(want, want)
        problem.stats = search.summary()
        for row in record[:found]:
            yield decode_solution(row)
        produced += found
        if code == RET_DONE:
            return
        if code == RET_BUDGET:
            _finish(problem, search, code, produced, "solutions")
