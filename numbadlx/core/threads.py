"""Count with several threads: the search tree split by :mod:`numbadlx.core.split`
(by :mod:`numbadlx.core.split_m` for a problem with multiplicities), its subtrees
counted by the ``nogil`` kernels in a thread pool.

The prefixes of :func:`~numbadlx.core.split.split_prefixes` cut the tree into
disjoint subtrees; each is searched by its own :class:`~numbadlx.core.search.Search`
on a reduced problem, on ``threads`` Python threads (the kernels release the GIL, so
the threads run on as many cores). The budgets stay those of one count:

* ``timeout`` is one deadline, fixed when the count starts; every subtree search
  stops at that same moment;
* ``max_nodes`` is one pool of nodes shared by all threads: a search takes a grant
  from the pool before each stretch of work and gives back what it did not use, so the
  nodes of all subtrees together never pass the budget.

Examples
--------
>>> from numbadlx import problems
>>> count_threaded(problems.langford(8), 2)
300
"""

from __future__ import annotations

import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait

from .search import BudgetExceeded, Search, SearchStats
from .split import _reduce, _Tables, split_prefixes
from .split_m import split_m
from .validate import check_count, check_timeout
from .words import plural

__all__ = ["count_threaded"]

# Nodes a subtree search takes from a shared node budget at a time.
_GRANT = 1_000_000
# Seconds between two looks for Ctrl-C while the threads count
_POLL_SECONDS = 0.05


class _NodePool:
    """The node budget shared by the threads (None: unlimited)."""

    def __init__(self, total):
        self.left = total
        self.lock = threading.Lock()

    def take(self, want):
        if self.left is None:
            return want
        with self.lock:
            got = min(want, self.left)
            self.left -= got
            return got

    def give_back(self, unused):
        if self.left is not None and unused > 0:
            with self.lock:
                self.left += unused


def _depth_for(problem, threads):
    """A split depth giving a few dozen subtrees per thread."""
    depth = 1
    while depth < 4 and len(split_prefixes(problem, depth)) < 16 * threads:
        depth += 1
    return depth


def count_threaded(problem, threads, *, max_nodes=None, timeout=None, depth=None, started=None):
    """Count every solution of ``problem`` on ``threads`` threads.

    Parameters
    ----------
    problem : ExactCover
        Algorithms X and C are split by prefixes of chosen options, Algorithm M
        (multiplicities) by the states of its branches (:func:`.split_m.split_m`).
    threads : int
        Threads of the pool (1 counts in this thread).
    max_nodes : int, optional
        Node budget of all subtree searches together.
    timeout : float, optional
        Seconds: one deadline for the whole count.
    started : float, optional
        The ``time.perf_counter()`` at which the count began, if before this call
        (the deadline is ``started + timeout``).
    depth : int, optional
        Split depth (default: the smallest of 1..4 giving at least 16 subtrees a
        thread, or 4).

    Raises :class:`~numbadlx.BudgetExceeded` (``found``: the solutions of the subtrees
    finished so far) when a budget stops the count; ``problem.stats`` then holds the
    nodes of all subtrees.

    Examples
    --------
    >>> from numbadlx import problems
    >>> count_threaded(problems.n_queens(8), 2, depth=1)
    92
    """
    threads = check_count(threads, "threads")
    max_nodes = None if max_nodes is None else check_count(max_nodes, "max_nodes")
    timeout = check_timeout(timeout)
    start = time.perf_counter() if started is None else started
    deadline = None if timeout is None else start + timeout
    if getattr(problem, "bounds", None) is not None:
        jobs = split_m(problem, threads, depth=depth)

        def reduce_job(job):
            return job

    else:
        if depth is None:
            depth = _depth_for(problem, threads)
        tables = _Tables(problem)
        jobs = split_prefixes(problem, depth)

        def reduce_job(prefix):
            reduced, _, known = _reduce(tables, prefix)
            return reduced, known

    pool = _NodePool(max_nodes)
    stop = threading.Event()
    lock = threading.Lock()
    totals = {"found": 0, "nodes": 0, "updates": 0, "budget": None}
    running = set()  # the searches of the subtrees now counted (Ctrl-C ends them)

    def count_one(job):
        if stop.is_set():
            return
        reduced, known = reduce_job(job)
        if reduced is None:
            with lock:
                totals["found"] += known
            return
        search = Search(reduced, timeout=timeout)
        search.deadline = deadline  # the count's one deadline, not one per subtree
        with lock:
            if stop.is_set():
                return
            running.add(search)
        found = 0
        while True:
            grant = pool.take(_GRANT)
            if grant <= 0:
                with lock:
                    totals["budget"] = f"max_nodes={max_nodes}"
                stop.set()
                break
            search.max_nodes = int(search.stats[0]) + grant
            code, more, _ = search.run(0, 0)
            found += more
            used = int(search.stats[0]) - (search.max_nodes - grant)
            pool.give_back(grant - used)
            if search.status != "budget" or stop.is_set():
                break
            if search.stopped_by == "timeout":
                with lock:
                    totals["budget"] = f"timeout={timeout:g}"
                stop.set()
                break
            if stop.is_set():
                break
        with lock:
            running.discard(search)
            totals["found"] += found
            totals["nodes"] += int(search.stats[0])
            totals["updates"] += int(search.stats[1])

    if threads == 1:
        for job in jobs:
            count_one(job)
    else:
        with ThreadPoolExecutor(max_workers=threads) as executor:
            futures = [executor.submit(count_one, job) for job in jobs]
            try:
                for future in futures:
                    # short waits: Ctrl-C is seen between them even where it does not
                    # wake a blocked wait (a signal that reached another thread)
                    while not future.done():
                        wait([future], timeout=_POLL_SECONDS)
                    future.result()
            except BaseException:
                # Ctrl-C (or an error) while the threads count: subtrees not begun
                # never are, and those being searched end at their next slice (their
                # deadline moved to now), so leaving this block does not wait for them
                with lock:
                    stop.set()
                    for search in running:
                        search.deadline = -math.inf
                for future in futures:
                    future.cancel()
                raise
    problem.stats = SearchStats(
        nodes=totals["nodes"],
        updates=totals["updates"],
        solutions=totals["found"],
        status="budget" if totals["budget"] else "done",
        seconds=time.perf_counter() - start,
    )
    if totals["budget"]:
        raise BudgetExceeded(
            f"count stopped at its budget ({totals['budget']}) after "
            f"{plural(problem.stats.nodes, 'node')}, {plural(totals['found'], 'solution')} seen",
            totals["found"],
            problem.stats,
        )
    return totals["found"]
