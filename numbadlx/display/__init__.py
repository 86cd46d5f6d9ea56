"""Seeing problems and searches: HTML views for Jupyter (:mod:`.html`), Matplotlib
plots (:mod:`.plotting`, also reachable as :mod:`numbadlx.plotting`), the search
tree rebuilt from a trace (:mod:`.tree`) and the step-by-step matrix player
(:mod:`.player`, behind :meth:`numbadlx.ExactCover.play`).

This layer sits above :mod:`numbadlx.core` and :mod:`numbadlx.sudoku`; their objects'
``_repr_html_`` hooks call into :mod:`.html` when Jupyter asks for them.
"""

from .html import (
    MATRIX_MAX_ITEMS,
    MATRIX_MAX_OPTIONS,
    CoverMatrix,
    exact_cover_html,
    grid_html,
    grid_table,
    sudoku_result_html,
)
from .player import MatrixPlayer, play
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
