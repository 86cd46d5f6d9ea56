"""Split the search of a problem with multiplicities (Algorithm M) into independent parts.

For Algorithms X and C a part is a prefix of chosen options (:mod:`numbadlx.core.split`):
choosing an option settles everything it touches, so the options chosen say what is
left. For Algorithm M they do not. M branches on an item ``i`` that may take several
options, over "the first of ``i``'s options in the solution is ``x``" (one branch per
option ``x``, the options before ``x`` *passed over* for the rest of the branch) and,
when ``i`` needs no more covers, "none of them is". Two branches can hold the same
chosen options and leave different problems (in one, an option was passed over; in the
other, it is still free), so a prefix of choices is not a part.

Here a part is the state of a branch itself: the options still free and the bounds
``(u, v)`` still open for each primary item. Choosing ``x`` takes one off the bounds of
its primary items (an item whose ``v`` reaches 0 takes its other options with it) and
removes the options that clash with ``x`` on a secondary item (all of them when ``x``
gives it no colour, those of another colour, or none, when it gives colour ``c``).
The branches of a node partition its solutions (each solution has one first option of
``i``, or none), so the counts of the parts add up to the count of the problem; each
part is a smaller problem with multiplicities, counted by the kernels like any other.
Items are chosen by Algorithm M's rule (:mod:`numbadlx.core.kernels.m`).

Examples
--------
>>> from numbadlx import problems
>>> problem = problems.k_per_row_and_column(5, 2)
>>> parts = split_m(problem, 2)
>>> len(parts), sum(known if part is None else part.count() for part, known in parts)
(76, 2040)
"""

from __future__ import annotations

import numpy as np

from .split import _check_depth

__all__ = ["split_m"]


class _Bounded:
    """Read-only tables of a problem with multiplicities, for replaying branches."""

    def __init__(self, problem):
        self.problem = problem
        self.indptr = np.asarray(problem.indptr, dtype=np.int64)
        self.indices = np.asarray(problem.indices, dtype=np.int64)
        self.n_items = int(problem.n_items)
        self.n_options = int(problem.n_options)
        self.primary = ~np.asarray(problem.secondary, dtype=bool)
        colours = problem.colours
        self.colours = None if colours is None else np.asarray(colours, dtype=np.int64)
        self.entry_option = np.repeat(
            np.arange(self.n_options, dtype=np.int64), np.diff(self.indptr)
        )
        order = np.argsort(self.indices, kind="stable")
        self.item_ptr = np.zeros(self.n_items + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.indices, minlength=self.n_items), out=self.item_ptr[1:])
        self.item_entries = order  # each item's entries, in option order
        self.lo = np.zeros(self.n_items, dtype=np.int64)
        self.hi = np.zeros(self.n_items, dtype=np.int64)
        self.lo[self.primary] = problem.bounds[:, 0]
        self.hi[self.primary] = problem.bounds[:, 1]

    def root(self):
        """``(free options, lo, hi)`` before any branch."""
        return np.ones(self.n_options, dtype=bool), self.lo.copy(), self.hi.copy()

    def options_of(self, free, item):
        entries = self.item_entries[self.item_ptr[item] : self.item_ptr[item + 1]]
        options = self.entry_option[entries]
        return options[free[options]]

    def choose(self, state, k):
        """The state after choosing option ``k`` (``k`` leaves the free options)."""
        free, lo, hi = state[0].copy(), state[1].copy(), state[2].copy()
        free[k] = False
        for t in range(self.indptr[k], self.indptr[k + 1]):
            item = self.indices[t]
            entries = self.item_entries[self.item_ptr[item] : self.item_ptr[item + 1]]
            if self.primary[item]:
                lo[item] = max(lo[item] - 1, 0)
                hi[item] -= 1
                if hi[item] == 0:
                    free[self.entry_option[entries]] = False
                continue
            colour = 0 if self.colours is None else self.colours[t]
            clash = entries if colour == 0 else entries[self.colours[entries] != colour]
            free[self.entry_option[clash]] = False
        return free, lo, hi

    def branches(self, state):
        """The item M3 chooses and the states of its branches; ``(None, [])`` at a
        solution (no item left to branch on) and ``(item, [])`` at a dead end."""
        free, lo, hi = state
        live = free[self.entry_option]
        length = np.bincount(self.indices[live], minlength=self.n_items)
        best, best_key = None, None
        for item in np.flatnonzero(self.primary & (hi > 0)).tolist():
            b, s = int(hi[item]), int(min(hi[item] - lo[item], hi[item]))
            if length[item] == 0 and s == b:
                continue  # needs nothing more, can get nothing
            theta = int(length[item]) + s - b + 1
            key = (theta, s, -int(length[item]), item)
            if best_key is None or key < best_key:
                best, best_key = item, key
        if best is None:
            return None, []
        if best_key[0] <= 0:
            return best, []
        parts = []
        passed = free.copy()
        for k in self.options_of(free, best).tolist():
            parts.append(self.choose((passed, lo, hi), k))
            passed = passed.copy()
            passed[k] = False
        if lo[best] == 0:  # "none": the item takes no more of its options
            hi_none = hi.copy()
            hi_none[best] = 0
            parts.append((passed, lo, hi_none))
        return best, parts

    def part(self, state):
        """``(problem, None)`` for a state, or ``(None, count)`` when it is settled."""
        free, lo, hi = state
        item, parts = self.branches(state)
        if item is None:
            return None, 1
        if not parts:
            return None, 0
        keep_entry = free[self.entry_option]
        used = np.zeros(self.n_items, dtype=bool)
        used[self.indices[keep_entry]] = True
        keep_item = (self.primary & (hi > 0)) | (~self.primary & used)
        new_index = np.full(self.n_items, -1, dtype=np.int64)
        new_index[keep_item] = np.arange(int(keep_item.sum()))
        option_map = np.flatnonzero(free)
        indptr = np.zeros(option_map.size + 1, dtype=np.int64)
        np.cumsum(np.diff(self.indptr)[option_map], out=indptr[1:])
        indices = new_index[self.indices[keep_entry]]
        if (indices < 0).any():  # a free option never holds a settled item
            raise AssertionError("a free option holds a settled item")
        kept_primary = np.flatnonzero(keep_item & self.primary)
        bounds = np.stack([lo[kept_primary], hi[kept_primary]], axis=1)
        problem = self.problem
        names = problem.item_names
        option_names = problem.option_names
        reduced = type(problem).from_csr(
            indptr,
            indices,
            n_items=int(keep_item.sum()),
            secondary=~self.primary[keep_item],
            item_names=None if names is None else [names[i] for i in np.flatnonzero(keep_item)],
            option_names=None
            if option_names is None
            else [option_names[k] for k in option_map.tolist()],
            colours=None if self.colours is None else self.colours[keep_entry],
            bounds=bounds,
            colour_names=problem.colour_names,
        )
        reduced.engine = problem.engine
        return reduced, None


def split_m(problem, threads, *, depth=None, per_thread=16, max_depth=4):
    """Cut ``problem``'s Algorithm M search into parts for ``threads`` threads.

    Levels of M's tree are expanded, all branches at once, until there are at least
    ``per_thread * threads`` parts or ``depth`` (default: up to ``max_depth``) levels.

    Returns a list of ``(part, known)``: ``part`` an :class:`~numbadlx.ExactCover`
    (with multiplicities, unless none are left) and ``known`` None, or ``part`` None and
    ``known`` the count of a branch settled while splitting (1: a solution, 0: a dead
    end). The counts of the parts add up to ``problem.count()``.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0], [0], [0]], bounds=[(1, 2)])
    >>> [(None if part is None else part.count(), known) for part, known in
    ...  split_m(problem, 1, depth=1)]
    [(3, None), (2, None), (None, 1)]
    """
    tables = _Bounded(problem)
    states = [tables.root()]
    settled = 0
    levels = max_depth if depth is None else _check_depth(depth)
    for _ in range(levels):
        if depth is None and len(states) >= per_thread * threads:
            break
        grown = []
        for state in states:
            item, parts = tables.branches(state)
            if item is None:
                settled += 1
            else:
                grown += parts
        states = grown
    parts = [tables.part(state) for state in states]
    if settled:
        parts.append((None, settled))
    return parts
