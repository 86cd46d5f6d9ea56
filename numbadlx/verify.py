"""An independent checker for exact-cover solutions.

It reads only the problem's CSR options (never the link tables or the kernel), counts
how often each item is covered by the chosen options and compares with the rules.
"""

import numpy as np

__all__ = ["verify", "explain"]


def explain(problem, solution):
    """Why ``solution`` is not an exact cover of ``problem``, or None if it is one.

    Parameters
    ----------
    problem : ExactCover
    solution : sequence of int
        Option indices.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0], [1], [0, 1]])
    >>> explain(problem, [0, 2])
    'item 0 is covered 2 times'
    >>> explain(problem, [2]) is None
    True
    """
    chosen = np.asarray(solution if solution is not None else [], dtype=np.int64).ravel()
    if chosen.size and (chosen.min() < 0 or chosen.max() >= problem.n_options):
        return f"option index out of range 0..{problem.n_options - 1}"
    if np.unique(chosen).size != chosen.size:
        return "an option is chosen twice"
    covered = np.zeros(problem.n_items, dtype=np.int64)
    for k in chosen:
        covered[problem.indices[problem.indptr[k]:problem.indptr[k + 1]]] += 1
    names = problem.item_names
    for item in range(problem.n_items):
        name = names[item] if names is not None else item
        if problem.secondary[item]:
            if covered[item] > 1:
                return f"secondary item {name} is covered {covered[item]} times"
        elif covered[item] != 1:
            return f"item {name} is covered {covered[item]} times"
    return None


def verify(problem, solution):
    """True if ``solution`` covers every primary item of ``problem`` exactly once and
    every secondary item at most once.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> verify(ExactCover([[0], [1], [0, 1]]), [0, 1])
    True
    """
    return explain(problem, solution) is None
