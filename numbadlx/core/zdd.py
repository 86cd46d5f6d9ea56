"""Memoised counting: a decision diagram (ZDD) of every solution, exact counts and
uniform samples.

:class:`MemoSearch` drives the memoised kernels of :mod:`numbadlx.core.kernels.memo`
(Algorithms X and C; each subproblem, keyed by the exact set of open items and the
secondary items' colour state, is searched once). It owns their tables, grows them
within a memory budget in bytes and keeps to one deadline and one node budget, as
:class:`numbadlx.core.search.Search` does for the plain kernels.
:func:`build_zdd` runs it to the end and returns a :class:`ZDD`; ``ExactCover.zdd()``
and ``ExactCover.count(method='memo')`` go through it, and ``method='auto'`` races it
briefly against plain DLX (:func:`numbadlx.core.counting.count_by_method`).

Memoisation pays when many branches of the search meet in the same subproblem (tilings of
boards: the part of the board still open is all that matters); it does not when nearly every
subproblem is new (N queens, pentominoes), where it only adds the cost of keys and tables.

Examples
--------
>>> from numbadlx import problems
>>> zdd = problems.domino_tilings(8, 8).zdd()
>>> zdd.count()
12988816
>>> solution = zdd.sample(1, seed=1)[0]
>>> problems.domino_tilings(8, 8).verify(solution)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import numpy as np

from ._dot import _dot_string
from .kernels import memo as _memo
from .search import BudgetExceeded, SearchStats
from .validate import check_count, check_timeout
from .words import plural

__all__ = [
    "ZDD",
    "MemoSearch",
    "MemoryBudgetExceeded",
    "build_zdd",
    "DEFAULT_MAX_BYTES",
]

#: Memory budget of a memoised search when none is given: 2 GiB.
DEFAULT_MAX_BYTES = 2 << 30

# Subproblems entered per kernel call at first (the slice grows or shrinks to take
# 10-50 ms, as in Search).
_SLICE_NODES = 10_000


class MemoryBudgetExceeded(BudgetExceeded):
    """A memoised search needed more memory than its budget (``max_bytes``).

    A :class:`~numbadlx.BudgetExceeded` with ``found = 0``: a memoised search knows no
    solution count until it is done.

    Examples
    --------
    >>> from numbadlx import problems
    >>> try:
    ...     problems.domino_tilings(12, 12).zdd(max_bytes=100_000)
    ... except MemoryBudgetExceeded as stop:
    ...     print(stop.found, "max_bytes=100000" in str(stop))
    0 True
    """


def check_max_bytes(max_bytes):
    """``max_bytes`` as an int: a positive integer (None: :data:`DEFAULT_MAX_BYTES`),
    else ValueError.

    Examples
    --------
    >>> check_max_bytes(None) == DEFAULT_MAX_BYTES, check_max_bytes(4096)
    (True, 4096)
    """
    if max_bytes is None:
        return DEFAULT_MAX_BYTES
    return check_count(max_bytes, "max_bytes")


class MemoSearch:
    """One memoised search of a problem without multiplicities (Algorithms X and C).

    Parameters
    ----------
    problem : ExactCover
        Its link tables are copied, never changed.
    max_nodes : int, optional
        Budget of subproblems entered (cache hits included), over all calls.
    timeout : float, optional
        Seconds from now: one deadline for the whole search.
    max_bytes : int, optional
        Memory the cache and the diagram may take, in bytes (default
        :data:`DEFAULT_MAX_BYTES`). :meth:`run` raises :class:`MemoryBudgetExceeded`
        rather than grow past it.

    Examples
    --------
    >>> from numbadlx import problems
    >>> search = MemoSearch(problems.domino_tilings(8, 8))
    >>> search.run(until_nodes=100), search.run()
    (False, True)
    >>> search.result().count()
    12988816
    """

    def __init__(self, problem, *, max_nodes=None, timeout=None, max_bytes=None):
        if getattr(problem, "bounds", None) is not None:
            raise ValueError(
                "memoised search supports Algorithms X and C; this problem has "
                "multiplicities (Algorithm M): use method='dlx'"
            )
        self.max_nodes = None if max_nodes is None else check_count(max_nodes, "max_nodes")
        self.timeout = check_timeout(timeout)
        self.max_bytes = check_max_bytes(max_bytes)
        self.deadline = None if self.timeout is None else time.perf_counter() + self.timeout
        self.problem = problem
        self.coloured = getattr(problem, "colours", None) is not None
        self.kernel = _memo.memo_c if self.coloured else _memo.memo_x
        n_primary = int(problem.n_primary)
        n_secondary = int(problem.n_items) - n_primary
        self.n_items = int(problem.n_items)
        self.n_primary = n_primary
        self.words_primary = (n_primary + 63) // 64
        words_secondary = (n_secondary + 1) // 2 if self.coloured else (n_secondary + 63) // 64
        self.n_words = max(self.words_primary + words_secondary, 1)
        self.margin = int(problem.n_options) + 2
        self.nodes = problem._nodes.copy()
        self.items = problem._items.copy()
        depth = n_primary + 1
        self.choice = np.zeros(depth, dtype=self.nodes.dtype)
        self.level_entry = np.zeros(depth, dtype=np.int64)
        self.pending_start = np.zeros(depth, dtype=np.int64)
        self.pending = np.zeros((2, problem.n_options + 1), dtype=np.int64)
        self.sec_colour = np.zeros(max(n_secondary, 1), dtype=np.uint32)
        self.key = np.zeros(self.n_words, dtype=np.uint64)
        self.state = np.zeros(_memo.N_STATE, dtype=np.int64)
        self.state[_memo.S_ZDD] = 2
        self.stats = np.zeros(_memo.N_MSTATS, dtype=np.int64)
        self._allocate_entries(1024)
        self._allocate_zdd(max(4096, 2 * self.margin))
        self.status = "not run"
        self.stopped_by = None
        self.seconds = 0.0
        self._step = _SLICE_NODES

    # ------------------------------------------------------------------ tables
    def _entry_bytes(self, capacity):
        # hashes + values + key words per entry, two hash slots per entry
        return capacity * (8 + 8 + 8 * self.n_words) + 2 * capacity * 8

    def _zdd_bytes(self, capacity):
        return capacity * (3 * 8 + 2 * 8)

    def _fixed_bytes(self):
        return self.nodes.nbytes + self.items.nbytes + self.pending.nbytes

    @property
    def nbytes(self):
        """Bytes held by the link copy, the cache and the diagram."""
        return (
            self._fixed_bytes()
            + self._entry_bytes(self.keys.shape[0])
            + self._zdd_bytes(self.zdd.shape[1])
        )

    def _check_room(self, entries, zdd_nodes):
        need = self._fixed_bytes() + self._entry_bytes(entries) + self._zdd_bytes(zdd_nodes)
        if need > self.max_bytes:
            self.status = "budget"
            self.stopped_by = "max_bytes"
            raise MemoryBudgetExceeded(
                f"memoised search needs more than max_bytes={self.max_bytes} bytes of memory "
                f"(cache of {plural(int(self.state[_memo.S_ENTRIES]), 'subproblem')}, "
                f"{plural(int(self.state[_memo.S_ZDD]), 'diagram node')}, {need} bytes after "
                "growing); "
                "raise max_bytes or count with method='dlx'",
                0,
                self.summary(),
            )

    def _allocate_entries(self, capacity):
        n = int(self.state[_memo.S_ENTRIES])
        old = getattr(self, "keys", None)
        keys = np.zeros((capacity, self.n_words), dtype=np.uint64)
        hashes = np.zeros(capacity, dtype=np.uint64)
        values = np.zeros(capacity, dtype=np.int64)
        if old is not None:
            keys[:n] = old[:n]
            hashes[:n] = self.hashes[:n]
            values[:n] = self.values[:n]
        self.keys, self.hashes, self.values = keys, hashes, values
        self.slots = np.full(2 * capacity, -1, dtype=np.int64)
        if n:  # (none to place on the first allocation: no kernel to compile yet)
            _memo.rehash(self.hashes, n, self.slots)

    def _allocate_zdd(self, capacity):
        n = int(self.state[_memo.S_ZDD])
        zdd = np.zeros((3, capacity), dtype=np.int64)
        counts = np.zeros((2, capacity), dtype=np.uint64)
        old = getattr(self, "zdd", None)
        if old is None:
            zdd[0, :2] = -1
            counts[0, 1] = 1  # node 1 ("top") holds one solution: the empty one
        else:
            zdd[:, :n] = old[:, :n]
            counts[:, :n] = self.counts[:, :n]
        self.zdd, self.counts = zdd, counts

    def _grow(self):
        entries = self.keys.shape[0]
        zdd_nodes = self.zdd.shape[1]
        n_entries = int(self.state[_memo.S_ENTRIES])
        grow_entries = n_entries >= entries or 2 * (n_entries + 1) > self.slots.shape[0]
        new_entries = entries * 2 if grow_entries else entries
        grow_zdd = int(self.state[_memo.S_ZDD]) + self.margin > zdd_nodes
        new_zdd = zdd_nodes * 2 if grow_zdd else zdd_nodes
        self._check_room(new_entries, new_zdd)
        if grow_entries:
            self._allocate_entries(new_entries)
        if grow_zdd:
            self._allocate_zdd(new_zdd)

    # ------------------------------------------------------------------ search
    @property
    def done(self):
        return self.state[_memo.S_PC] == _memo.PC_DONE

    def budget_text(self):
        """The budget that stopped the search (``'timeout=0.3'``, ...) or ''."""
        if self.stopped_by == "timeout":
            return f"timeout={self.timeout:g}"
        if self.stopped_by == "max_nodes":
            return f"max_nodes={self.max_nodes}"
        if self.stopped_by == "max_bytes":
            return f"max_bytes={self.max_bytes}"
        return ""

    def run(self, until_nodes=None):
        """Search until done, a budget, or (if given) ``until_nodes`` subproblems.

        Returns True when the search is done, False when it stopped at
        ``until_nodes``; raises :class:`~numbadlx.BudgetExceeded` at ``max_nodes`` or
        the deadline and :class:`MemoryBudgetExceeded` at ``max_bytes``.
        """
        start = time.perf_counter()
        try:
            while not self.done:
                now = time.perf_counter()
                if self.deadline is not None and now >= self.deadline:
                    self.stopped_by = "timeout"
                    break
                seen = int(self.stats[_memo.M_NODES])
                stop = seen + self._step
                if until_nodes is not None:
                    if seen >= until_nodes:
                        return False
                    stop = min(stop, until_nodes)
                if self.max_nodes is not None:
                    if seen >= self.max_nodes:
                        self.stopped_by = "max_nodes"
                        break
                    stop = min(stop, self.max_nodes)
                code = self.kernel(
                    self.nodes,
                    self.items,
                    self.n_items,
                    self.n_primary,
                    self.words_primary,
                    self.margin,
                    self.choice,
                    self.level_entry,
                    self.pending_start,
                    self.pending,
                    self.sec_colour,
                    self.key,
                    self.slots,
                    self.hashes,
                    self.keys,
                    self.values,
                    self.zdd,
                    self.counts,
                    self.state,
                    self.stats,
                    stop,
                )
                if code == _memo.RET_GROW:
                    self._grow()
                    continue
                spent = time.perf_counter() - now
                if spent < 0.01:
                    self._step = min(self._step * 2, 1 << 40)
                elif spent > 0.05:
                    self._step = max(self._step // 2, 1000)
        finally:
            self.seconds += time.perf_counter() - start
        if self.done:
            self.status = "done"
            return True
        self.status = "budget"
        raise BudgetExceeded(
            f"memoised count stopped at its budget ({self.budget_text()}) after "
            f"{plural(int(self.stats[_memo.M_NODES]), 'subproblem')}",
            0,
            self.summary(),
        )

    def solutions_so_far(self):
        """Solutions in the part of the search tree finished so far: the counts of the
        finished subtrees hanging off the current path. Plain DLX, which walks the
        same tree in the same order, has counted exactly these when it reaches the
        same place, so the two searches' progress can be compared."""
        n = int(self.state[_memo.S_PENDING])
        if self.done:
            return self.result().count()
        if self.state[_memo.S_OVERFLOW]:
            return 1 << 128  # a finished subtree passed 2**128 (a lower bound is enough)
        low = self.counts[0, self.pending[1, :n]].tolist()
        high = self.counts[1, self.pending[1, :n]].tolist()
        return sum((h << 64) | v for v, h in zip(low, high))

    @property
    def hit_share(self):
        """Cache hits per subproblem entered so far."""
        seen = int(self.stats[_memo.M_NODES])
        return int(self.stats[_memo.M_HITS]) / seen if seen else 0.0

    def summary(self):
        """A :class:`~numbadlx.SearchStats`: ``nodes`` are subproblems entered (cache
        hits included), ``solutions`` the count once done."""
        solutions = 0
        if self.done:
            solutions = self.result().count()
        return SearchStats(
            nodes=int(self.stats[_memo.M_NODES]),
            updates=int(self.stats[_memo.M_UPDATES]),
            solutions=solutions,
            status=self.status,
            seconds=self.seconds,
        )

    def result(self):
        """The :class:`ZDD` of a finished search."""
        if not self.done:
            raise RuntimeError("the memoised search has not finished")
        n = int(self.state[_memo.S_ZDD])
        return ZDD(
            self.zdd[:, :n].copy(),
            self.counts[:, :n].copy(),
            int(self.state[_memo.S_ROOT]),
            overflow=bool(self.state[_memo.S_OVERFLOW]),
            option_names=getattr(self.problem, "option_names", None),
            subproblems=int(self.state[_memo.S_ENTRIES]),
        )


def build_zdd(problem, *, max_nodes=None, timeout=None, max_bytes=None):
    """Run a memoised search of ``problem`` to the end and return its :class:`ZDD`.

    See :meth:`numbadlx.ExactCover.zdd`.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> build_zdd(ExactCover([[0, 1], [0], [1]])).count()
    2
    """
    search = MemoSearch(problem, max_nodes=max_nodes, timeout=timeout, max_bytes=max_bytes)
    search.run()
    problem.stats = search.summary()
    return search.result()


class ZDD:
    """A zero-suppressed decision diagram of every solution of an exact-cover problem.

    Built by :meth:`numbadlx.ExactCover.zdd`. Node ``0`` is the empty family (no
    solution), node ``1`` the family of the empty set; node ``z > 1`` stands for
    ``lo[z]``'s solutions together with ``hi[z]``'s solutions with option
    ``option[z]`` added. Each subproblem the search met is one chain of nodes (one per
    option of its chosen item with any completion), shared by every branch that led
    to it. The diagram is not reduced to a canonical form.

    Attributes
    ----------
    root : int
        The node holding every solution.
    subproblems : int
        Distinct subproblems the search met (cache entries).

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> zdd = ExactCover([[0, 1], [0], [1]]).zdd()
    >>> zdd.count(), zdd.size
    (2, 3)
    >>> sorted(s.tolist() for s in zdd.solutions())
    [[0], [1, 2]]
    """

    def __init__(self, table, counts, root, *, overflow=False, option_names=None, subproblems=0):
        self._table = table
        self._counts = counts
        self.root = int(root)
        self._overflow = overflow
        self._exact = None
        self.option_names = option_names
        self.subproblems = subproblems

    # ------------------------------------------------------------------ shape
    @property
    def size(self) -> int:
        """Number of decision nodes (the two terminals not included)."""
        return self._table.shape[1] - 2

    @property
    def nodes(self) -> np.ndarray:
        """The node table: an int64 array of shape ``(size + 2, 3)``, columns option,
        lo, hi (rows 0 and 1 are the terminals, option -1)."""
        return self._table.T.copy()

    def __len__(self) -> int:
        return self.size

    def __repr__(self):
        return f"ZDD({plural(self.size, 'node')}, {plural(self.count(), 'solution')})"

    def _repr_html_(self):
        """Jupyter view: the numbers, and a picture of a small diagram (see
        :mod:`numbadlx.display.zdd_html`)."""
        from ..display.zdd_html import zdd_html

        return zdd_html(self)

    # ------------------------------------------------------------------ counts
    def node_counts(self) -> list[int]:
        """Solutions of every node, as Python ints (exact at any size).

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> ExactCover([[0], [0]]).zdd().node_counts()
        [0, 1, 1, 2]
        """
        if self._exact is None:
            if not self._overflow:
                low = self._counts[0].tolist()
                high = self._counts[1].tolist()
                self._exact = [(h << 64) | v for v, h in zip(low, high)]
            else:
                # a 128-bit count overflowed: add up again with Python integers
                lo = self._table[1].tolist()
                hi = self._table[2].tolist()
                exact = [0, 1] + [0] * (len(lo) - 2)
                for z in range(2, len(lo)):
                    exact[z] = exact[lo[z]] + exact[hi[z]]
                self._exact = exact
        return self._exact

    def count(self) -> int:
        """The number of solutions, an exact Python int (even past 2**64).

        Examples
        --------
        >>> from numbadlx import problems
        >>> problems.tromino_tilings(3, 200, "I").zdd().count() > 2**64
        True
        """
        if not self._overflow:
            return (int(self._counts[1, self.root]) << 64) | int(self._counts[0, self.root])
        return self.node_counts()[self.root]

    # ------------------------------------------------------------------ solutions
    def solutions(self) -> Iterator[np.ndarray]:
        """Yield every solution once, as sorted option indices (int64 arrays), in the
        order the search met them.

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> [s.tolist() for s in ExactCover([[0, 1], [0], [1]]).zdd().solutions()]
        [[0], [1, 2]]
        """
        option = self._table[0].tolist()
        lo = self._table[1].tolist()
        hi = self._table[2].tolist()
        path: list[int] = []
        stack = [(self.root, 0, -1)]
        while stack:
            z, depth, chosen = stack.pop()
            del path[depth:]
            if chosen >= 0:
                path.append(chosen)
            if z == 0:
                continue
            if z == 1:
                yield np.sort(np.array(path, dtype=np.int64))
                continue
            stack.append((lo[z], len(path), -1))
            stack.append((hi[z], len(path), option[z]))

    def sample(self, k: int = 1, *, seed: int | None = None) -> list[np.ndarray]:
        """``k`` solutions drawn uniformly at random (independently, with repetition).

        Each step from node ``z`` takes ``hi`` with probability
        ``count(hi) / count(z)``, computed with exact integers, so every solution has
        probability exactly ``1 / count()``.

        Examples
        --------
        >>> from numbadlx import problems
        >>> board = problems.domino_tilings(4, 4)
        >>> picks = board.zdd().sample(3, seed=7)
        >>> all(board.verify(s) for s in picks)
        True
        """
        k = check_count(k, "k")
        exact = self.node_counts()
        if exact[self.root] == 0:
            raise ValueError("the problem has no solution to sample")
        rng = random.Random(seed)
        option = self._table[0].tolist()
        lo = self._table[1].tolist()
        hi = self._table[2].tolist()
        drawn = []
        for _ in range(k):
            z = self.root
            chosen = []
            while z > 1:
                if rng.randrange(exact[z]) < exact[hi[z]]:
                    chosen.append(option[z])
                    z = hi[z]
                else:
                    z = lo[z]
            drawn.append(np.sort(np.array(chosen, dtype=np.int64)))
        return drawn

    # ------------------------------------------------------------------ picture
    def to_dot(self, max_nodes: int = 200) -> str:
        r"""The diagram in Graphviz's dot language (solid: with the option, dashed:
        without it). ValueError beyond ``max_nodes`` decision nodes.

        Each label is one quoted dot string that shows the option's name as written:
        backslashes and quotes are escaped, line ends become line breaks and other
        control characters their visible symbols (U+2400 onwards).

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> print(ExactCover([[0], [0]]).zdd().to_dot())
        digraph zdd {
          node [shape=circle];
          t0 [shape=box, label="0"];
          t1 [shape=box, label="1"];
          n2 [label="1"];
          n2 -> t0 [style=dashed];
          n2 -> t1;
          n3 [label="0"];
          n3 -> n2 [style=dashed];
          n3 -> t1;
        }
        >>> names = ['say "hi"\\', "two\nlines"]
        >>> dot = ExactCover([[0], [0]], option_names=names).zdd().to_dot()
        >>> for line in dot.splitlines()[4:8:3]:
        ...     print(line)
          n2 [label="two\nlines"];
          n3 [label="say \"hi\"\\"];
        """
        if self.size > max_nodes:
            raise ValueError(
                f"the diagram has {plural(self.size, 'node')}, more than max_nodes={max_nodes}"
            )
        names = self.option_names
        lines = ["digraph zdd {", "  node [shape=circle];"]
        lines += [f"  t{z} [shape=box, label={_dot_string(str(z))}];" for z in (0, 1)]

        def ref(z):
            return f"t{z}" if z < 2 else f"n{z}"

        for z in range(2, self._table.shape[1]):
            option, lo, hi = (int(v) for v in self._table[:, z])
            label = str(option) if names is None else names[option]
            lines.append(f"  n{z} [label={_dot_string(label)}];")
            lines.append(f"  n{z} -> {ref(lo)} [style=dashed];")
            lines.append(f"  n{z} -> {ref(hi)};")
        lines.append("}")
        return "\n".join(lines)


# Graphviz ends a quoted string at the first quote not after a backslash, and shows
# "\\" in a label as one backslash and "\n" as a line break; a raw line end or NUL
# in the string is not what a name means either.
