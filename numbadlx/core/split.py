"""Split an exact-cover search tree into independent subproblems.

The first ``depth`` levels of Algorithm X's search tree are walked in plain
Python/NumPy, choosing items by the kernel's own rule (minimum remaining values, the
first of equals among the active primary items) and trying their options in the
kernel's order. Each branch that reaches ``depth`` (or covers every primary item
sooner) becomes a *prefix*: a tuple of option indices. The subtrees below the prefixes
are disjoint and together hold every solution, so

    sum(count_prefix(problem, p) for p in split_prefixes(problem, depth))
        == problem.count()

and each term can be counted on its own: in another thread, process or machine (see
:func:`numbadlx.dask.count`). Nothing here imports Dask.

Cover semantics of a prefix: choosing an option covers its items, which removes every
other option sharing a primary item with it, and every option using one of its
secondary items differently (any other use when the chosen option gives the item no
colour; another colour, or none, when it gives colour ``c``: Knuth's Algorithm C). A
primary item left with no option ends the branch (it holds no solutions).

Problems with multiplicities (``bounds``, Algorithm M) are not split here: a prefix of
chosen options does not say what is left of an M problem (see
:mod:`numbadlx.core.split_m`, which splits them by the states of their branches, for
threaded counts and :func:`numbadlx.dask.count`).

Examples
--------
>>> from numbadlx import problems
>>> from numbadlx.core.split import split_prefixes, count_prefix
>>> queens = problems.n_queens(8)
>>> prefixes = split_prefixes(queens, 2)
>>> len(prefixes), prefixes[0]
(42, (0, 10))
>>> sum(count_prefix(queens, p) for p in prefixes)
92
"""

from __future__ import annotations

import numpy as np

from .words import plural

__all__ = ["split_prefixes", "count_prefix", "count_prefixes", "subproblem", "count_split"]


class _Tables:
    """Read-only views of a problem for replaying choices: CSR options plus, per item,
    the options that hold it (in option order, as the kernel's item lists keep them)."""

    def __init__(self, problem):
        if getattr(problem, "bounds", None) is not None:
            raise ValueError(
                "prefixes of chosen options split Algorithms X and C (no multiplicities); "
                "this problem has bounds (Algorithm M), whose branches are split by their "
                "states instead: count it with numbadlx.dask.count or count(threads=...)"
            )
        self.problem = problem
        self.indptr = np.asarray(problem.indptr, dtype=np.int64)
        self.indices = np.asarray(problem.indices, dtype=np.int64)
        self.n_items = int(problem.n_items)
        self.n_options = int(problem.n_options)
        self.primary = ~np.asarray(problem.secondary, dtype=bool)
        colours = getattr(problem, "colours", None)
        self.colours = None if colours is None else np.asarray(colours, dtype=np.int64)
        # option of each entry, and the entries of each item (stable: option order)
        self.entry_option = np.repeat(
            np.arange(self.n_options, dtype=np.int64), np.diff(self.indptr)
        )
        order = np.argsort(self.indices, kind="stable")
        self.item_ptr = np.zeros(self.n_items + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.indices, minlength=self.n_items), out=self.item_ptr[1:])
        self.item_entries = order
        self.is_primary_entry = self.primary[self.indices]

    def entries_of_item(self, item):
        return self.item_entries[self.item_ptr[item] : self.item_ptr[item + 1]]

    def initial_state(self):
        """``(active options, covered primary items)`` before any choice."""
        return (np.ones(self.n_options, dtype=bool), np.zeros(self.n_items, dtype=bool))

    def choose(self, state, k):
        """The state after choosing option ``k`` (a new pair of arrays)."""
        active, covered = state
        active = active.copy()
        covered = covered.copy()
        for t in range(self.indptr[k], self.indptr[k + 1]):
            item = self.indices[t]
            entries = self.entries_of_item(item)
            if self.primary[item]:
                covered[item] = True
                active[self.entry_option[entries]] = False
                continue
            colour = 0 if self.colours is None else self.colours[t]
            if colour == 0:
                clash = entries
            else:
                clash = entries[self.colours[entries] != colour]
            active[self.entry_option[clash]] = False
        active[k] = False
        return active, covered

    def lengths(self, active):
        """Active options per item (the kernel's LEN)."""
        live = active[self.entry_option]
        return np.bincount(self.indices[live], minlength=self.n_items)

    def mrv_item(self, state):
        """The item the kernel chooses next, or -1 when every primary item is covered."""
        active, covered = state
        open_primary = np.flatnonzero(self.primary & ~covered)
        if open_primary.size == 0:
            return -1
        length = self.lengths(active)[open_primary]
        return int(open_primary[int(np.argmin(length))])  # argmin: first of equals

    def options_of(self, state, item):
        active = state[0]
        options = self.entry_option[self.entries_of_item(item)]
        return options[active[options]]


def split_prefixes(problem, depth: int) -> list[tuple[int, ...]]:
    """Prefixes of choices that split ``problem``'s search tree at ``depth`` levels.

    Parameters
    ----------
    problem : ExactCover
        Without multiplicities (Algorithm X, or C with colours).
    depth : int
        Levels to expand (0 gives the single empty prefix: the whole problem).

    Returns
    -------
    list of tuple of int
        Option indices in the caller's numbering, in the order the kernel meets them.
        A prefix is shorter than ``depth`` when it already covers every primary item
        (its subtree is one solution); branches that die above ``depth`` are left out.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0, 1], [0], [1], [2]])
    >>> split_prefixes(problem, 1)      # item 2 has one option: MRV takes it first
    [(3,)]
    >>> split_prefixes(problem, 2)
    [(3, 0), (3, 1)]
    """
    depth = _check_depth(depth)
    tables = _Tables(problem)
    prefixes: list[tuple[int, ...]] = []
    # explicit stack of (prefix, state); children pushed in reverse to keep kernel order
    stack = [((), tables.initial_state())]
    while stack:
        prefix, state = stack.pop()
        item = -1 if len(prefix) == depth else tables.mrv_item(state)
        if item < 0:
            prefixes.append(prefix)
            continue
        options = tables.options_of(state, item)
        for k in options[::-1].tolist():
            stack.append((prefix + (k,), tables.choose(state, k)))
    return prefixes


def _check_depth(depth):
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
    return int(depth)


def _replay(tables: _Tables, prefix):
    state = tables.initial_state()
    for k in prefix:
        k = int(k)
        if not 0 <= k < tables.n_options:
            raise ValueError(f"option {k} out of range ({plural(tables.n_options, 'option')})")
        if not state[0][k]:
            raise ValueError(
                f"option {k} of the prefix {tuple(prefix)} clashes with an earlier option of it"
            )
        state = tables.choose(state, k)
    return state


def subproblem(problem, prefix):
    """The problem left after choosing the options of ``prefix``.

    Returns ``(reduced, option_map)``: ``reduced`` is an :class:`ExactCover` over the
    items not yet covered (primary items stay primary, secondary items stay secondary,
    each keeping its name and colours), with the options that do not clash with the
    prefix; ``option_map[j]`` is the original index of its option ``j``. ``reduced`` is
    None when the prefix covers every primary item (exactly one completion: the empty
    one) or leaves a primary item without options (no completion); tell them apart
    with :func:`count_prefix`.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0, 1], [0], [1], [2]])
    >>> reduced, option_map = subproblem(problem, [3])
    >>> reduced, option_map.tolist()
    (ExactCover(3 options, 2 primary + 0 secondary items, 4 entries), [0, 1, 2])
    """
    reduced, option_map, _ = _reduce(_Tables(problem), prefix)
    return reduced, option_map


def _reduce(tables: _Tables, prefix):
    """``(reduced problem or None, option_map, count when reduced is None)``."""
    active, covered = _replay(tables, prefix)
    open_primary = tables.primary & ~covered
    empty_map = np.zeros(0, dtype=np.int64)
    if not open_primary.any():
        return None, empty_map, 1
    if (tables.lengths(active)[open_primary] == 0).any():
        return None, empty_map, 0
    problem = tables.problem
    # keep options that are still active and hold an open item (an option made only of
    # secondary items can never be chosen, so dropping it changes nothing)
    keep_entry = active[tables.entry_option]
    used = np.zeros(tables.n_items, dtype=bool)
    used[tables.indices[keep_entry]] = True
    keep_item = open_primary | (~tables.primary & used)
    new_index = np.full(tables.n_items, -1, dtype=np.int64)
    new_index[keep_item] = np.arange(int(keep_item.sum()))
    option_map = np.flatnonzero(active)
    lengths = np.diff(tables.indptr)[option_map]
    indptr = np.zeros(option_map.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    entries = keep_entry  # every item of an active option is open or a usable secondary
    indices = new_index[tables.indices[entries]]
    if (indices < 0).any():  # cannot happen: an active option never holds a covered item
        raise AssertionError("an active option holds a covered item")
    colours = None if tables.colours is None else tables.colours[entries]
    names = problem.item_names
    option_names = problem.option_names
    # the problem's own class builds the reduced one: this module stays below problem.py,
    # which counts on threads through it
    reduced = type(problem).from_csr(
        indptr,
        indices,
        n_items=int(keep_item.sum()),
        secondary=~tables.primary[keep_item],
        item_names=None if names is None else [names[i] for i in np.flatnonzero(keep_item)],
        option_names=None
        if option_names is None
        else [option_names[k] for k in option_map.tolist()],
        colours=colours,
        colour_names=getattr(problem, "colour_names", None),
    )
    reduced.engine = getattr(problem, "engine", "dlx")  # the parts run the same engine
    return reduced, option_map, None


def count_prefix(problem, prefix, *, max_nodes=None, timeout=None) -> int:
    """Number of solutions of ``problem`` that contain every option of ``prefix``.

    ``prefix`` is any sequence of option indices that do not clash (ValueError
    otherwise); for the prefixes of :func:`split_prefixes` the counts add up to
    ``problem.count()``. The reduced problem is counted by the kernel; ``max_nodes`` and
    ``timeout`` are passed on (:class:`~numbadlx.BudgetExceeded` if hit).

    Examples
    --------
    >>> from numbadlx import problems
    >>> count_prefix(problems.n_queens(6), [1])      # a queen on (0, 1)
    1
    """
    reduced, _, known = _reduce(_Tables(problem), prefix)
    if reduced is None:
        return known
    return int(reduced.count(max_nodes=max_nodes, timeout=timeout))


def count_prefixes(problem, prefixes, *, max_nodes=None, timeout=None) -> np.ndarray:
    """:func:`count_prefix` for each of ``prefixes`` (the problem's tables are built
    once); an int64 array. ``max_nodes`` and ``timeout`` apply to each prefix."""
    tables = _Tables(problem)
    counts = np.zeros(len(prefixes), dtype=np.int64)
    for j, prefix in enumerate(prefixes):
        reduced, _, known = _reduce(tables, prefix)
        counts[j] = (
            known if reduced is None else reduced.count(max_nodes=max_nodes, timeout=timeout)
        )
    return counts


def count_split(problem, depth: int, **budget) -> int:
    """Count ``problem`` by splitting it at ``depth`` and adding the prefix counts
    (one after another, in this process: a reference for the distributed version).

    Examples
    --------
    >>> from numbadlx import problems
    >>> count_split(problems.langford(7), 2)
    52
    """
    return int(count_prefixes(problem, split_prefixes(problem, depth), **budget).sum())
