"""Seeing problems and searches: HTML views for Jupyter, Matplotlib plots (reachable as
:mod:`numbadlx.plotting`), the search tree rebuilt from a trace (:mod:`.tree`) and the
step-by-step matrix player (:mod:`.player`, behind :meth:`numbadlx.ExactCover.play`).

Exact-cover views import only :mod:`numbadlx.core`: :mod:`.cover_html`,
:mod:`.zdd_html`, :mod:`.player` (its script and styles are the package files
``assets/player.js`` and ``assets/player.css``), :mod:`.tree` and
:mod:`.cover_plots`. The Sudoku views sit apart, in :mod:`.sudoku_html` and
:mod:`.sudoku_plots`.

This layer sits above :mod:`numbadlx.core` and :mod:`numbadlx.sudoku`; their objects'
``_repr_html_`` hooks (and :meth:`numbadlx.ExactCover.play`) import from it inside the
hook only, when Jupyter asks for a picture.
"""

from .cover_html import MATRIX_MAX_ITEMS, MATRIX_MAX_OPTIONS, CoverMatrix, exact_cover_html
from .player import MatrixPlayer, play
from .sudoku_html import grid_html, grid_table, sudoku_result_html
from .tree import SearchTree, search_tree

__all__ = [
    "CoverMatrix",
    "exact_cover_html",
    "grid_html",
    "grid_table",
    "sudoku_result_html",
    "MATRIX_MAX_OPTIONS",
    "MATRIX_MAX_ITEMS",
    "SearchTree",
    "search_tree",
    "MatrixPlayer",
    "play",
]
