"""Classic exact-cover problems with published solution counts.

Each function returns an :class:`~numbadlx.ExactCover` with item and option names.

================================  =====================================================
problem                           published count (all solutions, no symmetry cut)
================================  =====================================================
``n_queens(8)``                   92 (OEIS A000170)
``langford(7)``                   52 = 2 x 26 (OEIS A014552 counts up to reversal)
``pentominoes(6, 10)``            9356 = 4 x 2339 (2339 up to the rectangle's symmetry)
``k_per_row_and_column``          (6, 2): 67950 (OEIS A001499); (8, 1, 1): 92 (A000170)
``domino_tilings(6, 6)``          6728 (OEIS A004003; 12 x 12: 53060477521960000)
``tromino_tilings(3, n, 'I')``    A000930(n) (OEIS)
``tetromino_tilings(4, n, 'I')``  A003269(n + 1) (OEIS)
================================  =====================================================

Tilings (:func:`domino_tilings`, :func:`tromino_tilings`, :func:`tetromino_tilings`,
:func:`polyomino_tilings`) are where ``count(method="memo")`` pays.

Costs (the cheapest covers): :func:`assignment`.

Colours (Algorithm C): :func:`crossword`, :func:`word_square` on the built-in
:data:`WORDS3`. Multiplicities (Algorithm M): :func:`k_per_row_and_column`,
:func:`domino_tilings` with a number of horizontal dominoes.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names

# the public names: _lazy reads these imports and runs each on the name's first use
if TYPE_CHECKING:
    from ._bounds import domino_tilings, k_per_row_and_column
    from ._costs import assignment
    from ._placement import PENTOMINOES, langford, n_queens, orientations, pentominoes
    from ._tilings import (
        TETROMINOES,
        TROMINOES,
        polyomino_tilings,
        tetromino_tilings,
        tromino_tilings,
    )
    from ._words import WORDS3, crossword, crossword_grid, word_square

__all__ = [
    "n_queens",
    "langford",
    "pentominoes",
    "PENTOMINOES",
    "orientations",
    "WORDS3",
    "crossword",
    "word_square",
    "crossword_grid",
    "k_per_row_and_column",
    "domino_tilings",
    "polyomino_tilings",
    "tromino_tilings",
    "tetromino_tilings",
    "TROMINOES",
    "TETROMINOES",
    "assignment",
]

__getattr__, __dir__ = lazy_names(__name__, __file__, __all__)
