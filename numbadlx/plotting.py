"""Matplotlib plots of grids, tilings, search effort and search trees.

The public name of :mod:`numbadlx.display.plotting`, where the code lives.

Examples
--------
>>> from numbadlx.plotting import plot_queens
"""

from .display.plotting import *  # noqa: F401,F403  (the same names)
from .display.plotting import __all__  # noqa: F401
