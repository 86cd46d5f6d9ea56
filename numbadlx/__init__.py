"""numbadlx: Knuth's Dancing Links (Algorithm X) in NumPy + Numba.

Examples
--------
>>> import numbadlx
>>> numbadlx.count([[0, 1], [0], [1]])
2
"""

from .exact_cover import BudgetExceeded, ExactCover, SearchStats, count, solve
from .verify import explain, verify
from . import problems, sudoku  # noqa: E402  (submodules users reach as numbadlx.X)

__version__ = "0.1.0"

__all__ = ["ExactCover", "SearchStats", "BudgetExceeded", "solve", "count", "verify",
           "explain", "problems", "sudoku", "__version__"]
