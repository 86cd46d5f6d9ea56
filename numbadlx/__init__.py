"""numbadlx: Knuth's Dancing Links (Algorithms X, C and M) in NumPy + Numba.

The public face: :class:`ExactCover` with :func:`solve`, :func:`count`,
:func:`verify` and :func:`explain` for generic exact cover; :mod:`numbadlx.sudoku`
for bulk Sudoku; :mod:`numbadlx.problems` for a library of classic problems.
:mod:`numbadlx.plotting`, :mod:`numbadlx.display` and :mod:`numbadlx.dask` are
imported on request (they need the optional extras).

Importing the package is quick: each public name loads its modules when first used,
and Numba loads with the first module that holds a kernel.

Examples
--------
>>> import numbadlx
>>> numbadlx.count([[0, 1], [0], [1]])
2
"""

from typing import TYPE_CHECKING

# In this order, before any kernel module can load (every kernel module is inside this
# package, so it loads after these): importing _cache_dir points Numba's cache at a
# per-user folder of this version (unless NUMBA_CACHE_DIR is set); importing
# _kernel_cache then drops stale Numba caches there
from . import _cache_dir  # noqa: F401  # isort: skip
from . import _kernel_cache  # noqa: F401  # isort: skip
from ._lazy import lazy_names

# the public names: _lazy reads these imports and runs each on the name's first use
if TYPE_CHECKING:
    from . import problems, sudoku
    from ._version import __version__
    from .core import BudgetExceeded, ExactCover, SearchStats, count, explain, solve, verify

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

__getattr__, __dir__ = lazy_names(__name__, __file__, __all__)
