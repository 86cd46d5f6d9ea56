"""An independent checker for exact-cover solutions.

It reads only the problem's CSR options, colours and bounds (never the link tables or
the kernels), counts how often each item is covered by the chosen options and compares
with the rules:

* a primary item is covered exactly once, or between ``u`` and ``v`` times when the
  problem has multiplicities (``problem.bounds``);
* a secondary item is covered at most once, or several times when every chosen option
  that covers it gives it the same non-zero colour.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .validate import check_option_indices

__all__ = ["verify", "explain"]


def explain(problem, solution: ArrayLike) -> str | None:
    """Why ``solution`` is not an exact cover of ``problem``, or None if it is one.

    Parameters
    ----------
    problem : ExactCover
    solution : sequence of int
        Option indices. Anything else (bools, floats, a string) raises ValueError.

    Notes
    -----
    As in the search, an option with no primary item is never part of a solution.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0], [1], [0, 1]])
    >>> explain(problem, [0, 2])
    'item 0 is covered 2 times'
    >>> explain(problem, [2]) is None
    True
    >>> coloured = ExactCover([[0, 2], [1, 2], [0, 1]], secondary=1,
    ...                       colours=[[0, 1], [0, 2], [0, 0]])
    >>> explain(coloured, [0, 1])
    'secondary item 2 is covered 2 times, with colours 1 and 2'
    >>> explain(ExactCover([[0], [0], [0]], bounds=[(1, 2)]), [0, 1, 2])
    'item 0 is covered 3 times (needs 1..2)'
    """
    chosen = check_option_indices(solution, problem.n_options)
    if chosen.size and (chosen.min() < 0 or chosen.max() >= problem.n_options):
        return f"option index out of range 0..{problem.n_options - 1}"
    if np.unique(chosen).size != chosen.size:
        return "an option is chosen twice"
    for k in chosen:
        # Knuth's convention, which the search follows too: an option with no primary
        # item is never part of a solution.
        if problem.secondary[problem.indices[problem.indptr[k] : problem.indptr[k + 1]]].all():
            return f"option {k} has no primary item (such an option is never chosen)"
    covered = np.zeros(problem.n_items, dtype=np.int64)
    colours = getattr(problem, "colours", None)
    bounds = getattr(problem, "bounds", None)
    # colours each secondary item receives, in the order of the chosen options
    given = [[] for _ in range(problem.n_items)]
    for k in chosen:
        start, stop = problem.indptr[k], problem.indptr[k + 1]
        covered[problem.indices[start:stop]] += 1
        if colours is not None:
            for item, colour in zip(problem.indices[start:stop], colours[start:stop]):
                given[item].append(int(colour))
    names = problem.item_names
    need = {}
    if bounds is not None:
        for row, item in enumerate(np.flatnonzero(~problem.secondary)):
            need[int(item)] = (int(bounds[row][0]), int(bounds[row][1]))
    for item in range(problem.n_items):
        name = names[item] if names is not None else item
        if problem.secondary[item]:
            if covered[item] <= 1:
                continue
            seen = given[item]
            if colours is None or not seen:
                return f"secondary item {name} is covered {covered[item]} times"
            if 0 in seen or len(set(seen)) > 1:
                distinct = sorted(set(seen))
                labels = [_colour_label(problem, c) for c in distinct]
                if len(labels) == 1:
                    return (
                        f"secondary item {name} is covered {covered[item]} times, without a colour"
                    )
                return (
                    f"secondary item {name} is covered {covered[item]} times, with "
                    f"colours {', '.join(labels[:-1])} and {labels[-1]}"
                )
        elif item in need:
            u, v = need[item]
            if not u <= covered[item] <= v:
                return f"item {name} is covered {covered[item]} times (needs {u}..{v})"
        elif covered[item] != 1:
            return f"item {name} is covered {covered[item]} times"
    return None


def _colour_label(problem, colour):
    if colour == 0:
        return "none"
    names = getattr(problem, "colour_names", None)
    if names is not None and colour <= len(names):
        return names[colour - 1]
    return str(colour)


def verify(problem, solution: ArrayLike) -> bool:
    """True if ``solution`` covers every primary item of ``problem`` exactly once (or
    within its bounds) and every secondary item at most once (or only with one colour).

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> verify(ExactCover([[0], [1], [0, 1]]), [0, 1])
    True
    """
    return explain(problem, solution) is None
