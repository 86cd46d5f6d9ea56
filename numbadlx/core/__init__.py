"""Generic exact cover: problems in, solutions out.

The data path, one module a stage:

* :mod:`~numbadlx.core.validate` checks every input (dense 0/1 matrices, option
  lists, CSR arrays) and turns it into CSR options;
* :mod:`~numbadlx.core.dlx_text` reads and writes Knuth's DLX text format, and
  :mod:`~numbadlx.core.names` reads options over named items;
  :mod:`~numbadlx.core.textfile` names a directory, a missing file or a binary file
  (one check for it and for the Sudoku puzzle readers);
* :mod:`~numbadlx.core.links` links the options into Knuth's DLX1 tables;
* :mod:`~numbadlx.core.kernels` holds the ``@njit`` search kernels (Algorithms X, C
  and M), driven by :mod:`~numbadlx.core.search`;
* :mod:`~numbadlx.core.problem` is the public face (:class:`ExactCover`; its
  one-call :func:`solve` and :func:`count` are in :mod:`~numbadlx.core.shortcuts`)
  and decodes solutions back to the caller's numbering;
* :mod:`~numbadlx.core.verification`, :mod:`~numbadlx.core.trace` and
  :mod:`~numbadlx.core.split` check solutions, record a search step by step and cut a
  search tree into independent parts;
* :mod:`~numbadlx.core.zdd` counts by memoised search (a ZDD of every solution, uniform
  samples), :mod:`~numbadlx.core.threads` counts on a thread pool and
  :mod:`~numbadlx.core.counting` picks the method;
* :mod:`~numbadlx.core.words` writes counts in messages (``1 puzzle``, ``2 puzzles``).

Nothing in this package imports Sudoku, display, Dask or the command line.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names

# the public names: _lazy reads these imports and runs each on the name's first use
if TYPE_CHECKING:
    from .problem import ExactCover
    from .search import BudgetExceeded, SearchStats
    from .shortcuts import count, solve
    from .verification import explain, verify
    from .zdd import ZDD, MemoryBudgetExceeded

__all__ = [
    "ExactCover",
    "SearchStats",
    "BudgetExceeded",
    "MemoryBudgetExceeded",
    "ZDD",
    "solve",
    "count",
    "verify",
    "explain",
]

__getattr__, __dir__ = lazy_names(__name__, __file__, __all__)
