"""One Sudoku grid (and optionally its solution) as an object: text and Jupyter views.

Examples
--------
>>> grid = Grid("1000" "0010" "0000" "0000")
>>> grid
Grid(4x4, 2x2 boxes, 2 givens)
1 . | . .
. . | 1 .
----+----
. . | . .
. . | . .
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..core.words import plural
from .formats import format_grid, parse
from .shape import DIGITS, NO_BOXES, box_shape
from .variants import Rules

__all__ = ["Grid"]


def _symbol(value, n):
    """The text of one cell value, as the package writes it (base 36 up to 35)."""
    if value == 0:
        return ""
    return DIGITS[value] if n <= 35 else str(int(value))


def _one_grid(grid, box):
    """One puzzle as an (n*n,) uint8 array and its size (``box`` as the readers take
    it: a shape, None or NO_BOXES)."""
    array = parse(grid, box=box)
    if array.shape[0] != 1:
        raise ValueError(f"expected one grid, got {array.shape[0]}")
    return array[0], int(round(array.shape[1] ** 0.5))


class Grid:
    """A Sudoku grid (and optionally its solution) that Jupyter draws as a table.

    Givens are bold and black, digits a solution filled in are blue, a solution
    digit that contradicts a given is red; box borders are drawn thick. Any size
    from 4x4 to 36x36 (cells above 9 use the letters of the text format, A = 10).
    With ``rules``, Jupyter draws a picture of the variant instead of a table: region
    borders, diagonals, cages with their totals, thermometers, dots, X and V, odd and
    even cells, and the setters' rules (arrows, coloured lines, outside clues in a
    margin, quadruples, inequality signs, minimums and maximums, extra regions,
    candidates). Rules without boxes (``latin=True``, jigsaw ``regions=``) take any
    size from 2x2, prime sizes too (a 5x5 or 7x7 Latin square or jigsaw); such a grid
    has no box borders.

    Parameters
    ----------
    puzzle : array_like or str
        One puzzle: a string, an (n*n,) or (n, n) array, 0 = blank.
    solution : array_like or str, optional
        The filled grid.
    box : (rows, cols), optional
        Box shape when n is not a square (6 -> 2x3 is inferred).
    rules : Rules, optional
        A variant's rules, checked for the grid's size.

    Attributes
    ----------
    puzzle, solution : (n*n,) uint8 arrays (``solution`` may be None)
    n : int
    box : (rows, cols) or None
        None for a grid under rules without boxes whose size has no box shape (5x5).
    rules : Rules or None
        The rules checked for ``n``.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> from numbadlx.sudoku import Grid
    >>> puzzle = "1000" "0010" "0000" "0000"
    >>> grid = Grid(puzzle, sudoku.solve_one(puzzle))
    >>> grid.n, grid.box, int((grid.puzzle > 0).sum())
    (4, (2, 2), 2)
    >>> html = grid._repr_html_()
    >>> html.count('class="given"'), html.count('class="filled"')
    (2, 14)
    """

    def __init__(
        self,
        puzzle: ArrayLike | str,
        solution: ArrayLike | str | None = None,
        box: tuple[int, int] | None = None,
        rules: Rules | None = None,
    ) -> None:
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
        if rules is None:
            self.puzzle, self.n = _one_grid(puzzle, box)
            self.box = box_shape(self.n, box)
        else:
            # read any size, then the rules say whether it fits (naming a bad box, or
            # a size with no box shape under rules that need boxes)
            self.puzzle, self.n = _one_grid(puzzle, NO_BOXES if box is None else box)
            if box is not None and rules.box is None:
                rules = dataclasses.replace(rules, box=tuple(box))
            rules = rules.checked(self.n)
            self.box = rules.box
        self.rules = rules
        if solution is not None:
            solution, n = _one_grid(solution, self._text_box())
            if n != self.n:
                raise ValueError(f"the solution is {n}x{n} but the puzzle {self.n}x{self.n}")
        self.solution = solution

    @classmethod
    def from_result(cls, result: Any, index: int, rules: Rules | None = None) -> Grid:
        """Grid of puzzle ``index`` of a :class:`~numbadlx.sudoku.SudokuResult`, with its
        solution when one was found (and the ``rules`` it was solved with)."""
        solved = result.counts[index] > 0
        return cls(
            result.puzzles[index],
            result.solutions[index] if solved else None,
            box=result.box,
            rules=rules,
        )

    def cells(self) -> list[tuple[str, str]]:
        """Per cell, row by row: ``(text, kind)`` with kind ``'given'``, ``'filled'``,
        ``'blank'`` or ``'clash'``."""
        given = self.puzzle
        shown = given if self.solution is None else np.where(given > 0, given, self.solution)
        kinds = np.where(given > 0, "given", np.where(shown > 0, "filled", "blank"))
        if self.solution is not None:
            clash = (given > 0) & (self.solution > 0) & (self.solution != given)
            kinds = np.where(clash, "clash", kinds)
            shown = np.where(clash, self.solution, shown)
        return [(_symbol(int(v), self.n), str(k)) for v, k in zip(shown, kinds)]

    def _repr_html_(self):
        # Jupyter's hook; the drawing lives in the display layer, above this one
        from ..display.sudoku_html import grid_table

        return grid_table(self)

    def _text_box(self):
        """The box the text readers and writers take: the shape, or NO_BOXES for a
        grid whose rules have no boxes."""
        return self.box if self.rules is None or self.rules.has_boxes else NO_BOXES

    def summary(self, rules: bool = True) -> str:
        """One line: size, boxes, the rules' names (unless ``rules=False``), givens (and
        filled cells).

        Examples
        --------
        >>> from numbadlx.sudoku import Rules
        >>> grid = Grid("1000" "0010" "0000" "0000", rules=Rules(arrows=[(0, [1])]))
        >>> grid.summary(), grid.summary(rules=False)
        ('4x4, 2x2 boxes, arrows, 2 givens', '4x4, 2x2 boxes, 2 givens')
        """
        givens = int((self.puzzle > 0).sum())
        parts = [f"{self.n}x{self.n}"]
        if self.rules is None or self.rules.has_boxes:
            rows, cols = self.box
            parts.append(f"{rows}x{cols} boxes")
        if self.rules is not None and rules:
            parts += sorted(k.replace("_", " ") for k in self.rules.kinds)
        text = ", ".join(parts) + f", {plural(givens, 'given')}"
        if self.solution is not None:
            filled = int(((self.puzzle == 0) & (self.solution > 0)).sum())
            text += f", {filled} filled"
        return text

    def __repr__(self):
        head = f"Grid({self.summary()})"
        puzzle = format_grid(self.puzzle, self._text_box()).split("\n")
        if self.solution is None:
            return "\n".join([head] + puzzle)
        solution = format_grid(self.solution, self._text_box()).split("\n")
        width = max(len(line) for line in puzzle)
        lines = [f"{'puzzle'.ljust(width)}    solution"]
        lines += [f"{a.ljust(width)}    {b}" for a, b in zip(puzzle, solution)]
        return "\n".join([head] + lines)
