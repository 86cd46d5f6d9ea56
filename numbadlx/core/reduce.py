"""Preprocessing before the search (after Knuth's DLX-PRE): :func:`reduce_problem`.

Three rules, applied in rounds until none removes anything; each keeps the solutions
(mapped back through the option map) and their number:

* an option with no primary item is never chosen (Knuth's convention), so it goes;
* an option **blocks** a primary item it does not hold when every option of that item
  clashes with it (shares a primary item, or a secondary item without agreeing on a
  colour): choosing it would leave the item uncoverable, so it goes;
* when every option of primary item ``i`` holds item ``j`` too (``j`` primary, or
  secondary without colours), ``j`` is covered exactly when ``i`` is: the options that
  hold ``j`` but not ``i`` clash with whichever option covers ``i`` and go, and then
  ``j`` itself, **implied by** ``i``, is taken out of the options.

Algorithms X and C (multiplicities change what "blocks" means: ValueError). The work is
about the number of entries times the options an entry clashes with, per round.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Reduction", "reduce_problem"]


@dataclass
class Reduction:
    """What :meth:`~numbadlx.ExactCover.reduced` removed, and why.

    Attributes
    ----------
    options : list of (int, str)
        Each removed option (its index in the original problem) and the reason:
        ``"no primary item"``, ``"blocks item NAME"`` or ``"clashes with item NAME,
        which implies ITEM"``.
    items : list of (int, str)
        Each removed item (original index) and the reason, ``"implied by item NAME"``.
    rounds : int
        Rounds until nothing more was removed.
    """

    options: list = field(default_factory=list)
    items: list = field(default_factory=list)
    rounds: int = 0

    def __repr__(self):
        return (
            f"Reduction({len(self.options)} options and {len(self.items)} items removed "
            f"in {self.rounds} rounds)"
        )


def _name(problem, item):
    names = problem.item_names
    return names[item] if names is not None else str(item)


class _State:
    """Options as item arrays (with colours), alive flags, and each item's options."""

    def __init__(self, problem):
        self.problem = problem
        p = problem
        self.rows = [p.indices[p.indptr[k] : p.indptr[k + 1]] for k in range(p.n_options)]
        if p.colours is None:
            self.tints = [np.zeros(r.size, dtype=np.int32) for r in self.rows]
        else:
            self.tints = [p.colours[p.indptr[k] : p.indptr[k + 1]] for k in range(p.n_options)]
        self.alive = np.ones(p.n_options, dtype=bool)
        self.items_alive = np.ones(p.n_items, dtype=bool)
        self.secondary = p.secondary

    def holders(self):
        """Alive options of each item, as arrays, with the colour each gives it."""
        out = [[] for _ in range(self.problem.n_items)]
        tint = [[] for _ in range(self.problem.n_items)]
        for k in np.flatnonzero(self.alive).tolist():
            for item, colour in zip(self.rows[k].tolist(), self.tints[k].tolist()):
                out[item].append(k)
                tint[item].append(colour)
        return [np.array(o, dtype=np.int64) for o in out], [np.array(t) for t in tint]

    def clashing(self, k, holders, tints):
        """The alive options that clash with option ``k`` (``k`` included)."""
        parts = []
        for item, colour in zip(self.rows[k].tolist(), self.tints[k].tolist()):
            if not self.items_alive[item]:
                continue
            others = holders[item]
            if self.secondary[item] and colour:
                others = others[tints[item] != colour]
            parts.append(others)
        parts.append(np.array([k]))
        return np.unique(np.concatenate(parts))


def _drop_options(state, report, ks, why):
    for k in ks:
        if state.alive[k]:
            state.alive[k] = False
            report.options.append((int(k), why))


def _round(state, report):
    """One round of the three rules. Returns whether anything was removed."""
    problem = state.problem
    before = (int(state.alive.sum()), int(state.items_alive.sum()))
    primary = ~state.secondary
    for k in np.flatnonzero(state.alive).tolist():
        held = state.rows[k][state.items_alive[state.rows[k]]]
        if not primary[held].any():
            _drop_options(state, report, [k], "no primary item")
    holders, tints = state.holders()
    live_primary = [i for i in np.flatnonzero(primary & state.items_alive).tolist()]
    # blocking: count, for every option, the options of item i it clashes with
    for i in live_primary:
        members = holders[i][state.alive[holders[i]]]
        if members.size == 0:
            continue
        hits = np.zeros(problem.n_options, dtype=np.int64)
        for p in members.tolist():
            hits[state.clashing(p, holders, tints)] += 1
        blocked = np.flatnonzero((hits == members.size) & state.alive)
        blocked = blocked[~np.isin(blocked, members)]
        _drop_options(state, report, blocked.tolist(), f"blocks item {_name(problem, i)}")
    # implied items
    holders, tints = state.holders()
    for i in live_primary:
        members = holders[i]
        if members.size == 0 or not state.items_alive[i]:
            continue
        common = set(state.rows[members[0]].tolist())
        for p in members[1:].tolist():
            common &= set(state.rows[p].tolist())
        common.discard(i)
        for j in sorted(common):
            if not state.items_alive[j]:
                continue
            if state.secondary[j] and tints[j].size and tints[j].any():
                continue
            extra = holders[j][~np.isin(holders[j], members)]
            why = f"clashes with item {_name(problem, i)}, which implies {_name(problem, j)}"
            _drop_options(state, report, extra.tolist(), why)
            state.items_alive[j] = False
            report.items.append((int(j), f"implied by item {_name(problem, i)}"))
        if common:
            holders, tints = state.holders()
    return before != (int(state.alive.sum()), int(state.items_alive.sum()))


def reduce_problem(problem):
    """``(smaller, option_map, report)``: see :meth:`~numbadlx.ExactCover.reduced`."""
    if problem.bounds is not None:
        raise ValueError(
            "reduced: preprocessing covers Algorithms X and C; this problem has "
            "multiplicities (Algorithm M)"
        )
    state = _State(problem)
    report = Reduction()
    while True:
        report.rounds += 1
        if not _round(state, report):
            break
    option_map = np.flatnonzero(state.alive).astype(np.int64)
    kept_items = np.flatnonzero(state.items_alive)
    renumber = np.full(problem.n_items, -1, dtype=np.int64)
    renumber[kept_items] = np.arange(kept_items.size)
    rows, colours = [], []
    for k in option_map.tolist():
        keep = state.items_alive[state.rows[k]]
        rows.append(renumber[state.rows[k][keep]].tolist())
        colours.append(state.tints[k][keep].tolist())
    names = problem.item_names
    smaller = type(problem)(
        rows,
        n_items=int(kept_items.size),
        secondary=problem.secondary[kept_items],
        item_names=None if names is None else [names[i] for i in kept_items.tolist()],
        option_names=(
            None
            if problem.option_names is None
            else [problem.option_names[k] for k in option_map.tolist()]
        ),
        colours=colours if problem.colours is not None else None,
        colour_names=problem.colour_names,
        dense=False,
        engine=problem.engine,
    )
    return smaller, option_map, report
