"""A Sudoku as a generic exact-cover problem (the 0/1-matrix path), from the grid's
geometry (:mod:`~numbadlx.sudoku.geometry`)."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import geometry
from ._cover_rules import rules_cover
from .formats import parse
from .shape import box_shape
from .variants import Rules, reading_box

if TYPE_CHECKING:
    from ..core import ExactCover

__all__ = ["to_exact_cover", "decode_cover", "single_grid"]


def single_grid(
    grid: ArrayLike | str, box: tuple[int, int] | None = None, rules: Rules | None = None
) -> NDArray[np.uint8]:
    """One puzzle as an ``(n*n,)`` uint8 array: from text, a ``(1, n*n)`` or ``(n, n)``
    array or a flat one; ValueError for anything that is not one readable grid.
    ``rules`` without boxes (latin, regions) let sizes with no box shape be read.

    Examples
    --------
    >>> single_grid("1..." "..1." ".3.." "...4").tolist()[:6]
    [1, 0, 0, 0, 0, 0]
    """
    box = reading_box(box, rules)
    array = parse(grid, box=box) if not isinstance(grid, np.ndarray) else grid
    array = np.asarray(array)
    if array.ndim == 2 and array.shape[0] == 1:
        array = array[0]
    elif array.ndim == 2 and array.shape[0] == array.shape[1] and array.shape[0] > 1:
        array = array.ravel()
    if array.ndim != 1:
        raise ValueError(f"expected one grid, got an array of shape {np.shape(grid)}")
    return parse(array, box=box)[0]


def to_exact_cover(
    grid: ArrayLike | str, box: tuple[int, int] | None = None, rules: Rules | None = None
) -> tuple[ExactCover, NDArray[np.int64], NDArray[np.int64]]:
    """The puzzle as a generic :class:`~numbadlx.ExactCover` (the 0/1-matrix path).

    Options are ``(cell, digit)`` pairs that do not clash with a given (a given cell
    keeps only its own digit); all ``4 n^2`` items are kept: a cell's item, then one
    item per unit and digit (units numbered as in :mod:`~numbadlx.sudoku.geometry`).
    Returns ``(problem, option_cells, option_digits)`` so a solution's options decode
    to digits.

    Items and options are named for the trace and the matrix player, rows, columns
    and boxes counted from 0 and digits from 1: items ``r0c1`` (the cell holds a
    digit), ``r0#3``, ``c1#3`` and ``b0#3`` (row 0, column 1, box 0 hold digit 3),
    options ``r0c1#3`` (digit 3 in row 0, column 1).

    Examples
    --------
    >>> problem, cells, digits = to_exact_cover("0" * 16)
    >>> problem.n_items, problem.n_options
    (64, 64)
    >>> problem.option_names[5], problem.item_names[16]
    ('r0c1#2', 'r0#1')

    With ``rules`` (a :class:`~numbadlx.sudoku.Rules`), every rule is in the model
    (see :mod:`numbadlx.sudoku.variants`): a cage is one option per digit tuple over
    all its cells, thermometers, marked pairs, the other rules between two cells and
    the lines, arrows, little killers and quadruples are items whose options (their
    allowed digit tuples) colour the cells' value items (Algorithm C), links,
    non-consecutive neighbours and extra regions are secondary items. ValueError names
    the rules it cannot model: the outside clues (sandwiches, x-sums, skyscrapers) and
    any rule with too many digit assignments to enumerate. ``option_cells`` and
    ``option_digits`` are then ``(O, K)`` arrays, the cells each option fills (-1
    padding) and their digits; decode with :func:`decode_cover`.

    >>> from numbadlx.sudoku import Rules
    >>> rules = Rules(cages=[([0, 1], 3)], diagonals=True)
    >>> problem, cells, digits = to_exact_cover("0" * 16, rules=rules)
    >>> problem.algorithm, problem.count()
    ('X', 8)
    >>> chosen = problem.solve()
    >>> decode_cover("0" * 16, chosen, cells, digits).tolist()[:4]
    [1, 2, 3, 4]
    """
    if isinstance(box, Rules):
        raise TypeError(
            "to_exact_cover: box is a (rows, columns) pair; pass the rules by keyword: "
            "to_exact_cover(grid, rules=rules)"
        )
    if rules is not None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
        return _rules_exact_cover(grid, box, rules)
    from ..core import ExactCover  # the generic path loads the core only when asked

    puzzle = single_grid(grid, box)
    n = math.isqrt(puzzle.size)
    nn = n * n
    of_cell = geometry.cell_units(n, *box_shape(n, box))  # (n^2, 3) unit numbers
    cells, digits = np.divmod(np.arange(nn * n), n)
    given = puzzle[cells]
    own = given == digits + 1
    # a digit given anywhere in one of the cell's units is excluded (but for the given
    # cell's own digit)
    placed = np.zeros((3 * n, n), dtype=bool)
    g_cells = np.flatnonzero(puzzle)
    placed[of_cell[g_cells], puzzle[g_cells].astype(np.int64)[:, None] - 1] = True
    units_of = of_cell[cells]
    keep = ((given == 0) & ~placed[units_of, digits[:, None]].any(axis=1)) | own
    items = np.concatenate([cells[:, None], nn + units_of * n + digits[:, None]], axis=1)[keep]
    indptr = np.arange(0, 4 * items.shape[0] + 1, 4)
    names = [f"r{r}c{c}" for r in range(n) for c in range(n)]
    for kind in "rcb":
        names += [f"{kind}{u}#{d + 1}" for u in range(n) for d in range(n)]
    row, col = np.divmod(cells[keep], n)
    option_names = [
        f"r{r}c{c}#{d + 1}" for r, c, d in zip(row.tolist(), col.tolist(), digits[keep].tolist())
    ]
    problem = ExactCover.from_csr(
        indptr, items.ravel(), n_items=4 * nn, item_names=names, option_names=option_names
    )
    return problem, cells[keep], digits[keep] + 1


def _rules_exact_cover(grid, box, rules):
    from ..core import ExactCover

    puzzle = single_grid(grid, box, rules)
    n = math.isqrt(puzzle.size)
    if box is not None and rules.box is None:
        rules = dataclasses.replace(rules, box=tuple(box))
    (indptr, indices, colours, n_items, n_secondary, names, option_names, cells, digits) = (
        rules_cover(puzzle, n, rules.checked(n))
    )
    problem = ExactCover.from_csr(
        indptr,
        indices,
        n_items=n_items,
        secondary=n_secondary,
        item_names=names,
        option_names=option_names,
        colours=colours if colours.any() else None,
    )
    return problem, cells, digits


def decode_cover(
    grid: ArrayLike | str,
    chosen: ArrayLike,
    option_cells: NDArray[np.int64],
    option_digits: NDArray[np.int64],
    box: tuple[int, int] | None = None,
    rules: Rules | None = None,
) -> NDArray[np.uint8]:
    """The grid a solution of :func:`to_exact_cover`'s problem fills: the givens plus
    the digits of the ``chosen`` options (one cell per option, or ``(O, K)`` arrays
    with -1 padding, as ``rules=`` gives them). ``rules``: as given to
    :func:`to_exact_cover` (a grid without boxes, such as a 5x5 Latin square, needs
    them to be read).

    Examples
    --------
    >>> problem, cells, digits = to_exact_cover("1234" "3412" "2143" "0000")
    >>> decode_cover("1234" "3412" "2143" "0000", problem.solve(), cells, digits).tolist()[-4:]
    [4, 3, 2, 1]
    """
    out = single_grid(grid, box, rules).copy()
    chosen = np.asarray(chosen, dtype=np.int64)
    cells = np.asarray(option_cells)[chosen].reshape(len(chosen), -1)
    digits = np.asarray(option_digits)[chosen].reshape(len(chosen), -1)
    keep = cells >= 0
    out[cells[keep]] = digits[keep]
    return out
