"""Problems with multiplicities (Algorithm M): k per row and column, domino tilings."""

from __future__ import annotations

import numpy as np

from ..core import ExactCover
from ..core.validate import check_count, is_integer

__all__ = ["k_per_row_and_column", "domino_tilings"]


def k_per_row_and_column(n: int, k: int = 2, max_per_diagonal: int | None = None) -> ExactCover:
    """Mark ``k`` squares in every row and every column of an ``n x n`` board.

    Items: rows ``r0..`` and columns ``c0..``, primary with multiplicity ``k``; with
    ``max_per_diagonal = d``, also the diagonals ``a0..`` (``r + c``) and anti-diagonals
    ``b0..`` (``r - c + n - 1``), primary with multiplicity ``0..d``. Option
    ``r * n + c`` marks ``(r, c)``.

    * ``k = 2`` without a diagonal limit counts the n x n 0/1 matrices with all row and
      column sums 2 (OEIS A001499: 1, 0, 1, 6, 90, 2040, 67950, ...);
    * ``k = 1, max_per_diagonal = 1`` is the n-queens problem (OEIS A000170).

    Examples
    --------
    >>> k_per_row_and_column(4, 2).count()
    90
    >>> k_per_row_and_column(8, 1, max_per_diagonal=1).count()
    92
    """
    n, k = check_count(n, "n"), check_count(k, "k")
    if k > n:
        raise ValueError(f"k = {k} marks per row do not fit on {n} columns")
    rows, cols = np.divmod(np.arange(n * n), n)
    parts = [rows, n + cols]
    names = [f"r{v}" for v in range(n)] + [f"c{v}" for v in range(n)]
    bounds = [(k, k)] * (2 * n)
    if max_per_diagonal is not None:
        d = check_count(max_per_diagonal, "max_per_diagonal")
        parts += [2 * n + rows + cols, 2 * n + (2 * n - 1) + rows - cols + n - 1]
        names += [f"a{v}" for v in range(2 * n - 1)] + [f"b{v}" for v in range(2 * n - 1)]
        bounds += [(0, int(d))] * (2 * (2 * n - 1))
    options = np.stack(parts, axis=1)
    indptr = np.arange(0, options.size + 1, options.shape[1])
    return ExactCover.from_csr(
        indptr,
        options.ravel(),
        n_items=len(names),
        item_names=names,
        bounds=bounds,
        option_names=[f"r{r} c{c}" for r, c in zip(rows, cols)],
    )


def domino_tilings(
    rows: int, cols: int, horizontal: int | tuple[int, int] | None = None
) -> ExactCover:
    """Tile a ``rows x cols`` rectangle with dominoes, optionally with a given number of
    horizontal ones.

    Items: the squares ``r{r}c{c}`` (primary) and, when ``horizontal`` is given (an
    int ``h`` or a range ``(lo, hi)``), an item ``H`` in every horizontal domino,
    primary with multiplicity ``h`` (or ``lo..hi``). Options are ``'h r c'`` (squares
    ``(r, c), (r, c + 1)``) and ``'v r c'`` (squares ``(r, c), (r + 1, c)``).

    Without ``horizontal`` the counts are the classical ones (OEIS A004003 for 2n x 2n:
    1, 2, 36, 6728, 12988816; A099390 in general).

    Examples
    --------
    >>> domino_tilings(4, 4).count()
    36
    >>> [domino_tilings(4, 4, horizontal=h).count() for h in range(0, 9, 2)]
    [1, 9, 16, 9, 1]
    """
    rows, cols = check_count(rows, "rows"), check_count(cols, "cols")
    bounds = None
    if horizontal is not None:
        if is_integer(horizontal):
            pair = (horizontal, horizontal)
        else:
            pair = tuple(horizontal) if hasattr(horizontal, "__len__") else ()
        if len(pair) != 2 or not all(is_integer(v) for v in pair):
            raise ValueError(
                f"horizontal must be h >= 0 or (lo, hi) with 0 <= lo <= hi, got {horizontal!r}"
            )
        lo, hi = int(pair[0]), int(pair[1])
        if not 0 <= lo <= hi:
            raise ValueError(
                f"horizontal must be h >= 0 or (lo, hi) with 0 <= lo <= hi, got {horizontal!r}"
            )
    n_squares = rows * cols
    with_h = horizontal is not None and hi > 0
    options, option_names = [], []
    for r in range(rows):
        for c in range(cols):
            here = r * cols + c
            if c + 1 < cols and (horizontal is None or hi > 0):
                options.append([here, here + 1] + ([n_squares] if with_h else []))
                option_names.append(f"h {r} {c}")
            if r + 1 < rows:
                options.append([here, here + cols])
                option_names.append(f"v {r} {c}")
    names = [f"r{r}c{c}" for r in range(rows) for c in range(cols)] + (["H"] if with_h else [])
    if with_h:  # (horizontal = 0 simply leaves the horizontal dominoes out)
        bounds = {"H": (lo, hi)}
    return ExactCover.from_options(
        options, n_items=len(names), item_names=names, option_names=option_names, bounds=bounds
    )
