"""Counting by method: plain DLX, memoised (:mod:`numbadlx.core.zdd`) or the faster of
the two after a short race, on one thread or several (:mod:`numbadlx.core.threads`).

:meth:`numbadlx.ExactCover.count` runs plain DLX on one thread itself and hands
every other combination of ``method`` and ``threads`` to :func:`count_by_method`.

How ``method='auto'`` chooses
-----------------------------
Plain DLX and the memoised search walk the same search tree in the same order (the
same item rule, the options in the same order); the memoised one only skips the
subtrees it has met before. So after running each for the same CPU time, the one
that has counted more solutions (DLX: the solutions it has seen; memo: the counts
of the finished subtrees off its current path) is further along the same road.
``auto`` runs DLX for about 10 ms, then the memoised search for the same CPU time,
and carries on with the memoised search only if it has counted at least twice as
many solutions (and some), else with DLX, which resumes where its probe stopped.
The loser's probe is the only work lost. A problem either side finishes during the
probe is answered at once; multiplicities (Algorithm M) and a memoised search that
runs out of memory go to DLX.
"""

from __future__ import annotations

import time

from .._compiling import compile_seconds, first_use
from .kernels.common import ST_NODES, ST_SOLUTIONS
from .search import BudgetExceeded, Search, SearchStats
from .threads import count_threaded
from .validate import check_count, check_timeout
from .words import plural
from .zdd import MemoryBudgetExceeded, MemoSearch

__all__ = ["METHODS", "count_by_method", "check_method"]

#: The values of ``count(method=...)``.
METHODS = ("auto", "dlx", "memo")

# auto: wall seconds of the DLX probe; subproblems per memo probe step; how many times
# more solutions the memoised search must have counted to be kept.
_PROBE_SECONDS = 0.01
_MEMO_STEP = 1000
_MEMO_LEAD = 2


def check_method(method):
    """``method`` if it is one of :data:`METHODS`, else ValueError.

    Examples
    --------
    >>> check_method("memo")
    'memo'
    """
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    return method


def count_by_method(
    problem, limit=None, *, max_nodes=None, timeout=None, method="auto", threads=1, max_bytes=None
):
    """Count ``problem``'s solutions with ``method`` on ``threads`` threads.

    * ``'dlx'``: plain Algorithm X, C or M; with ``threads > 1`` the search tree is
      split and its parts counted on a thread pool (see :mod:`numbadlx.core.threads`).
    * ``'memo'``: the memoised search (X and C; ValueError for multiplicities, and
      with ``limit`` or ``threads > 1``, which it does not support); raises
      :class:`~numbadlx.core.zdd.MemoryBudgetExceeded` past ``max_bytes``.
    * ``'auto'``: the faster of the two after a short race (see the module); always
      ``'dlx'`` with a ``limit`` or multiplicities. With ``threads > 1``, DLX's part
      runs on the thread pool and the race is run on one thread.

    ``timeout`` is one deadline for the whole count and ``max_nodes`` one budget for
    the nodes of every search it runs (the race's included). ``problem.stats``
    describes the search that gave the answer (for ``'auto'``, its ``nodes`` include
    the probe of the other side). Returns the count as an int (a Python int past
    2**63).

    Examples
    --------
    >>> from numbadlx import problems
    >>> count_by_method(problems.domino_tilings(6, 6), method="memo")
    6728
    >>> count_by_method(problems.n_queens(8), method="dlx", threads=2)
    92
    """
    with first_use("the counting kernels"):
        return _count_by_method(problem, limit, max_nodes, timeout, method, threads, max_bytes)


def _count_by_method(problem, limit, max_nodes, timeout, method, threads, max_bytes):
    method = check_method(method)
    threads = check_count(threads, "threads")
    limit = None if limit is None else check_count(limit, "limit")
    max_nodes = None if max_nodes is None else check_count(max_nodes, "max_nodes")
    timeout = check_timeout(timeout)
    start = time.perf_counter()
    if method == "memo":
        if limit is not None:
            raise ValueError("method='memo' counts every solution: drop limit or use 'dlx'")
        if threads > 1:
            raise ValueError("method='memo' runs on one thread: drop threads or use 'dlx'")
        search = MemoSearch(problem, max_nodes=max_nodes, timeout=timeout, max_bytes=max_bytes)
        try:
            search.run()
        finally:
            problem.stats = search.summary()
        return problem.stats.solutions
    if threads > 1 and limit is not None:
        raise ValueError("threads > 1 count every solution: drop limit or use one thread")
    if method == "auto" and limit is None and getattr(problem, "bounds", None) is None:
        return _count_auto(problem, max_nodes, timeout, max_bytes, threads, start)
    return _count_dlx(problem, limit, max_nodes, timeout, threads, start)


def _count_dlx(problem, limit, max_nodes, timeout, threads, start, search=None, other_nodes=0):
    """Plain DLX on ``threads`` threads, within the budgets of a count begun at
    ``start`` (``search``: a DLX search to resume; ``other_nodes``: nodes already
    spent by another search of this count)."""
    if max_nodes is not None and max_nodes <= other_nodes:
        _out_of_nodes(problem, max_nodes, other_nodes)
    left = None if max_nodes is None else max_nodes - other_nodes
    if threads > 1:
        try:
            return count_threaded(problem, threads, max_nodes=left, timeout=timeout, started=start)
        finally:
            problem.stats.nodes += other_nodes
    if search is None:
        search = Search(problem, timeout=timeout)
    search.max_nodes = left
    search.deadline = None if timeout is None else start + timeout
    _, found, _ = search.run(0 if limit is None else limit, 0)
    if limit is None:
        found = int(search.stats[ST_SOLUTIONS])  # a resumed search: its probe's too
    problem.stats = search.summary()
    problem.stats.nodes += other_nodes
    if search.status == "budget":
        what = (
            f"timeout={timeout:g}" if search.stopped_by == "timeout" else f"max_nodes={max_nodes}"
        )
        raise BudgetExceeded(
            f"count stopped at its budget ({what}) after {plural(problem.stats.nodes, 'node')}, "
            f"{plural(found, 'solution')} seen",
            found,
            problem.stats,
        )
    return found


def _budget_text(search, timeout, max_nodes):
    """The count's budget that stopped ``search`` (its own are parts of the count's)."""
    return f"timeout={timeout:g}" if search.stopped_by == "timeout" else f"max_nodes={max_nodes}"


def _out_of_nodes(problem, max_nodes, used):
    problem.stats = SearchStats(nodes=used, status="budget")
    raise BudgetExceeded(
        f"count stopped at its budget (max_nodes={max_nodes}) after {plural(used, 'node')}",
        0,
        problem.stats,
    )


def _count_auto(problem, max_nodes, timeout, max_bytes, threads, start):
    deadline = None if timeout is None else start + timeout
    # 1. DLX for about _PROBE_SECONDS (it resumes later if it wins)
    dlx = Search(problem, max_nodes=max_nodes, timeout=timeout)
    probe_end = time.perf_counter() + _PROBE_SECONDS
    dlx.deadline = probe_end if deadline is None else min(deadline, probe_end)
    cpu = time.thread_time()
    dlx.run(0, 0)
    dlx_cpu = time.thread_time() - cpu
    if (
        dlx.status == "done"
        or dlx.stopped_by == "max_nodes"
        or (deadline is not None and time.perf_counter() >= deadline)
    ):
        return _count_dlx(problem, None, max_nodes, timeout, 1, start, search=dlx)
    dlx_nodes = int(dlx.stats[ST_NODES])
    # 2. the memoised search for the same CPU time
    memo = MemoSearch(
        problem,
        max_nodes=None if max_nodes is None else max_nodes - dlx_nodes,
        timeout=timeout,
        max_bytes=max_bytes,
    )
    memo.deadline = deadline
    # (compiling the memoised kernel, on a first use, is not part of its race)
    cpu = time.thread_time() - compile_seconds()
    try:
        while not memo.done and time.thread_time() - compile_seconds() - cpu < dlx_cpu:
            memo.run(until_nodes=int(memo.stats[0]) + _MEMO_STEP)
        memo_ahead = memo.done or memo.solutions_so_far() >= max(
            _MEMO_LEAD * int(dlx.stats[ST_SOLUTIONS]), 1
        )
    except MemoryBudgetExceeded:
        memo_ahead = False
    except BudgetExceeded:
        memo_ahead = True  # out of nodes or time: memo reports it with every node counted
    memo_nodes = int(memo.stats[0])
    if not memo_ahead:
        return _count_dlx(
            problem, None, max_nodes, timeout, threads, start, search=dlx, other_nodes=memo_nodes
        )
    # 3. the memoised search to the end
    try:
        memo.run()
    except MemoryBudgetExceeded:
        return _count_dlx(
            problem, None, max_nodes, timeout, threads, start, search=dlx, other_nodes=memo_nodes
        )
    except BudgetExceeded as stop:
        problem.stats = memo.summary()
        problem.stats.nodes += dlx_nodes
        what = _budget_text(memo, timeout, max_nodes)
        raise BudgetExceeded(
            f"count stopped at its budget ({what}) after {plural(problem.stats.nodes, 'node')}",
            0,
            problem.stats,
        ) from stop
    problem.stats = memo.summary()
    problem.stats.nodes += dlx_nodes
    return problem.stats.solutions
