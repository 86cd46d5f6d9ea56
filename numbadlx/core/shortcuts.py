"""One-call exact cover: :func:`solve` and :func:`count` of a matrix, option lists or an
:class:`~numbadlx.core.problem.ExactCover`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .problem import ExactCover

__all__ = ["solve", "count"]


def _problem(matrix, secondary, dense):
    if isinstance(matrix, ExactCover):
        if secondary is not None or dense is not None:
            raise ValueError(
                f"{'secondary' if secondary is not None else 'dense'} is given with an "
                f"ExactCover, which already settles it"
            )
        return matrix
    return ExactCover(matrix, secondary=secondary, dense=dense)


def solve(
    matrix: ArrayLike | Sequence[Sequence[int]] | ExactCover,
    secondary: int | ArrayLike | None = None,
    *,
    dense: bool | None = None,
    **budget: Any,
) -> NDArray[np.int64] | None:
    """Solve an exact-cover problem given as a dense 0/1 matrix or option lists
    (``dense`` as in :class:`ExactCover`); ``budget``: ``max_nodes``, ``timeout``.

    Examples
    --------
    >>> import numpy as np
    >>> solve(np.array([[1, 0], [0, 1], [1, 1]])).tolist()
    [0, 1]
    """
    return _problem(matrix, secondary, dense).solve(**budget)


def count(
    matrix: ArrayLike | Sequence[Sequence[int]] | ExactCover,
    secondary: int | ArrayLike | None = None,
    limit: int | None = None,
    *,
    dense: bool | None = None,
    **budget: Any,
) -> int:
    """Count the solutions of an exact-cover problem (up to ``limit``), given as in
    :func:`solve`.

    Examples
    --------
    >>> import numpy as np
    >>> count(np.array([[1, 0], [0, 1], [1, 1]]))
    2
    >>> count([[1, 0], [0, 1]], dense=True), count([[1, 0], [0, 1]], dense=False)
    (1, 2)
    """
    return _problem(matrix, secondary, dense).count(limit, **budget)
