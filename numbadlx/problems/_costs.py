"""Problems with costs on their options: the cheapest covers are the answer."""

from __future__ import annotations

import numpy as np

from ..core.problem import ExactCover

__all__ = ["assignment"]


def assignment(costs) -> ExactCover:
    """The assignment problem: give each of ``n`` workers one of ``n`` jobs, each job
    to one worker, at the least total cost.

    Items ``w0..`` (workers) and ``j0..`` (jobs), all primary; option ``wI jJ`` costs
    ``costs[I][J]``. ``cheapest()`` finds an optimal assignment (Kuhn's Hungarian
    method solves the same problem in polynomial time: a check on the search).

    Parameters
    ----------
    costs : (n, n) array of non-negative int
        What worker ``I`` costs on job ``J``.

    Examples
    --------
    >>> problem = assignment([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    >>> cost, solution = problem.cheapest()[0]
    >>> cost, problem.names(solution)
    (5, ['w0 j1', 'w1 j0', 'w2 j2'])
    """
    matrix = np.asarray(costs)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.dtype.kind not in "iu":
        raise ValueError("assignment: costs must be a square matrix of integers")
    n = matrix.shape[0]
    options = {f"w{i} j{j}": [f"w{i}", f"j{j}"] for i in range(n) for j in range(n)}
    return ExactCover.from_names(
        options,
        primary=[f"w{i}" for i in range(n)] + [f"j{j}" for j in range(n)],
        costs={f"w{i} j{j}": int(matrix[i, j]) for i in range(n) for j in range(n)},
    )
