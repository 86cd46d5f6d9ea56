"""numbadlx: Knuth's Dancing Links (Algorithms X, C and M) in NumPy + Numba.

The public face: :class:`ExactCover` with :func:`solve`, :func:`count`,
:func:`verify` and :func:`explain` for generic exact cover; :mod:`numbadlx.sudoku`
for bulk Sudoku; :mod:`numbadlx.problems` for a library of classic problems.
:mod:`numbadlx.plotting`, :mod:`numbadlx.display` and :mod:`numbadlx.dask` are
imported on request (they need the optional extras).

Examples
--------
>>> import numbadlx
>>> numbadlx.count([[0, 1], [0], [1]])
2
"""

# _kernel_cache comes first: importing it drops stale Numba caches before any kernel loads
from . import _kernel_cache, problems, sudoku  # noqa: F401
from .core import BudgetExceeded, ExactCover, SearchStats, count, explain, solve, verify

__version__ = "0.1.0"

__all__ = [
    "ExactCover",
    "SearchStats",
    "BudgetExceeded",
    "solve",
    "count",
    "verify",
    "explain",
    "problems",
    "sudoku",
    "__version__",
]
