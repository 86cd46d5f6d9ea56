"""Matplotlib plots of grids, tilings, search effort and search trees.

The public name of the plots in :mod:`numbadlx.display.cover_plots` (exact cover) and
:mod:`numbadlx.display.sudoku_plots` (Sudoku), where the code lives.

Examples
--------
>>> from numbadlx.plotting import plot_queens
"""

from .display.cover_plots import plot_pentominoes, plot_queens, plot_search_tree
from .display.sudoku_plots import plot_effort, plot_grid

__all__ = ["plot_grid", "plot_queens", "plot_pentominoes", "plot_effort", "plot_search_tree"]
