"""Checking given solutions (a CSV's solution column) against their puzzles, and
against the cages of their rules (a killer CSV's).

A solution is right when it is a *completion* of its puzzle: it keeps every given,
fills every cell with ``1..n`` and has each digit once in every row, column and box.
For a puzzle with one solution that is the same as being equal to it; for a puzzle
with several, any of them passes. The test is vectorised over the whole batch; only
the rows that fail get a message, written by :func:`completion_error`.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike

from . import geometry
from .formats import parse
from .shape import box_shape
from .variants import KillerRows

__all__ = [
    "cage_column_messages",
    "cage_errors",
    "completion_error",
    "completion_errors",
    "first_clash",
    "solution_column_messages",
    "unit_clash",
]


def _units(grids: np.ndarray, n: int, rows: int, cols: int) -> np.ndarray:
    """``(k, 3n, n)``: the values of every unit (rows, columns, boxes) of ``(k, n, n)``
    grids."""
    return grids.reshape(grids.shape[0], n * n)[:, geometry.units(n, rows, cols)]


def completion_error(puzzle: ArrayLike, solution: ArrayLike, box=None) -> str | None:
    """Why ``solution`` is not a completion of ``puzzle`` (both ``(n*n,)`` values), or
    None when it is one.

    Examples
    --------
    >>> completion_error("1234341221434321", "1234341221434321") is None
    True
    >>> completion_error("1000000000000000", "2134341212434321")
    'it changes the given 1 at row 1, column 1 to 2'
    """
    puzzle = np.asarray(parse(puzzle, box=box)[0] if isinstance(puzzle, str) else puzzle)
    solution = np.asarray(
        parse(solution, box=box)[0] if isinstance(solution, str) else solution
    ).ravel()
    puzzle = puzzle.ravel()
    n = int(round(puzzle.size**0.5))
    rows, cols = box_shape(n, box)
    changed = np.flatnonzero((puzzle != 0) & (puzzle != solution))
    if changed.size:
        r, c = divmod(int(changed[0]), n)
        return (
            f"it changes the given {int(puzzle[changed[0]])} at row {r + 1}, column {c + 1} "
            f"to {int(solution[changed[0]])}"
        )
    outside = np.flatnonzero((solution < 1) | (solution > n))
    if outside.size:
        r, c = divmod(int(outside[0]), n)
        return f"row {r + 1}, column {c + 1} is {int(solution[outside[0]])}, not a digit 1..{n}"
    units = _units(solution.reshape(1, n, n).astype(np.int64), n, rows, cols)[0]
    for index, unit in enumerate(units):
        seen = np.bincount(unit, minlength=n + 1)
        if (seen[1:] != 1).any():
            digit = int(np.flatnonzero(seen[1:] > 1)[0]) + 1
            kind = ("row", "column", "box")[index // n]
            return f"digit {digit} appears {int(seen[digit])} times in {kind} {index % n + 1}"
    return None


def completion_errors(puzzles: ArrayLike, solutions: ArrayLike, box=None) -> dict[int, str]:
    """``{row: why}`` for the rows where ``solutions`` is not a completion of
    ``puzzles`` (both ``(N, n*n)`` arrays); rows whose solution is all zeros (none
    given) are skipped.

    Examples
    --------
    >>> import numpy as np
    >>> puzzles = np.array([[0] * 16, [0] * 16, [0] * 16])
    >>> solutions = np.array([[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1],
    ...                       [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 1, 2],
    ...                       [0] * 16])
    >>> completion_errors(puzzles, solutions)
    {1: 'digit 1 appears 2 times in column 3'}
    """
    puzzles = np.asarray(puzzles)
    solutions = np.asarray(solutions)
    if puzzles.shape != solutions.shape or puzzles.ndim != 2:
        raise ValueError(
            f"puzzles {puzzles.shape} and solutions {solutions.shape} must be two (N, n*n) "
            f"arrays of the same shape"
        )
    k, size = puzzles.shape
    n = int(round(size**0.5))
    rows, cols = box_shape(n, box)
    given = solutions.any(axis=1)
    bad = given & ((puzzles != 0) & (puzzles != solutions)).any(axis=1)
    bad |= given & ((solutions < 1) | (solutions > n)).any(axis=1)
    check = np.flatnonzero(given & ~bad)
    if check.size:
        grids = solutions[check].reshape(check.size, n, n).astype(np.int64)
        units = np.sort(_units(grids, n, rows, cols), axis=2)
        wrong = (units != np.arange(1, n + 1)).any(axis=(1, 2))
        bad[check[wrong]] = True
    return {
        int(i): completion_error(puzzles[i], solutions[i], (rows, cols))
        for i in np.flatnonzero(bad)
    }


def _cage_error(solution: np.ndarray, cages, n: int) -> str | None:
    """Why the filled grid ``solution`` breaks one of ``cages``, or None."""
    for number, (cells, total) in enumerate(cages, 1):
        digits = solution[list(cells)].astype(np.int64)
        r, c = divmod(int(cells[0]), n)
        where = f"cage {number} (from row {r + 1}, column {c + 1})"
        seen = np.bincount(digits, minlength=n + 1)
        if (seen > 1).any():
            digit = int(np.flatnonzero(seen > 1)[0])
            return f"digit {digit} appears {int(seen[digit])} times in {where}"
        if total is not None and int(digits.sum()) != total:
            return f"{where} sums to {int(digits.sum())}, not {total}"
    return None


def cage_errors(solutions: ArrayLike, rules, rows=None) -> dict[int, str]:
    """``{row: why}`` for the rows whose filled grid breaks a cage of its rules: a digit
    twice in a cage, or a cage that does not reach its total. ``solutions`` is
    ``(N, n*n)`` (each a grid of digits ``1..n``), ``rules`` one
    :class:`~numbadlx.sudoku.Rules` per row; ``rows``: only these rows (default all).

    The whole batch is tested at once (one sum and one sort over every cage of every
    row); only the rows that fail are walked cage by cage for their message.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> grid = np.array([[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]])
    >>> cage_errors(grid, [Rules(cages=[([0, 1], 3), ([2, 3], 7)])])
    {}
    >>> cage_errors(grid, [Rules(cages=[([0, 1], 4)])])
    {0: 'cage 1 (from row 1, column 1) sums to 3, not 4'}
    """
    solutions = np.asarray(solutions)
    size = solutions.shape[1]
    n = int(round(size**0.5))
    rows = np.arange(len(rules)) if rows is None else np.asarray(rows, dtype=np.int64)
    if isinstance(rules, KillerRows):
        rows_of, owners, cells, totals = _killer_cages(rules, rows)
    else:
        rows_of, owners, cells, totals = _listed_cages(rules, rows)
    if not totals.size:
        return {}
    digits = solutions[rows_of[owners], cells].astype(np.int64)
    sums = np.bincount(owners, weights=digits, minlength=totals.size).astype(np.int64)
    wrong = (totals >= 0) & (sums != totals)
    keys = np.sort(owners * (n + 1) + digits)  # a digit twice in a cage: a key twice
    wrong[keys[1:][keys[1:] == keys[:-1]] // (n + 1)] = True
    failing = np.unique(rows_of[wrong])
    return {int(row): _cage_error(solutions[row], rules[row].cages, n) for row in failing}


def _listed_cages(rules, rows):
    """``(row of each cage, cage of each cell, cells, totals (-1: none))`` of the cages
    of ``rules[row]`` for each of ``rows``."""
    cages = [rules[row].cages for row in rows.tolist()]
    flat = list(itertools.chain.from_iterable(cages))
    rows_of = np.repeat(rows, [len(c) for c in cages])
    sizes = np.fromiter((len(cells) for cells, _ in flat), dtype=np.int64, count=len(flat))
    owners = np.repeat(np.arange(len(flat)), sizes)
    cells = np.fromiter(itertools.chain.from_iterable(cells for cells, _ in flat), dtype=np.int64)
    totals = np.array([-1 if total is None else total for _, total in flat], dtype=np.int64)
    return rows_of, owners, cells, totals


def _killer_cages(rules, rows):
    """:func:`_listed_cages` from the arrays of a :class:`KillerRows`."""
    row_first, cage_start, cage_cells, every_total = rules.cage_arrays()
    counts = row_first[rows + 1] - row_first[rows]
    picked = np.repeat(row_first[rows] - np.cumsum(counts) + counts, counts) + np.arange(
        counts.sum()
    )
    sizes = cage_start[picked + 1] - cage_start[picked]
    begins = np.repeat(cage_start[picked] - np.cumsum(sizes) + sizes, sizes)
    cells = cage_cells[begins + np.arange(sizes.sum())]
    owners = np.repeat(np.arange(picked.size), sizes)
    return np.repeat(rows, counts), owners, cells, every_total[picked]


def cage_column_messages(chunk, rules, messages: dict) -> None:
    """Add to ``messages`` (by row) a message for each row of ``chunk`` (a
    :class:`~numbadlx.sudoku.PuzzleChunk`) whose solution column, a filled grid of
    digits, breaks a cage of its rules (``rules``: one Rules, or one per row); rows
    that have a message already are passed over. Used by
    :func:`~numbadlx.sudoku.solve`, which keeps the row's status the solver's."""
    if chunk.solutions is None or not len(chunk):
        return
    n = chunk.n
    filled = ((chunk.solutions >= 1) & (chunk.solutions <= n)).all(axis=1)
    if isinstance(rules, KillerRows):
        per_row = rules
        caged = rules.valid
    else:
        per_row = [rules] * len(chunk) if hasattr(rules, "cages") else list(rules)
        caged = np.array([bool(r.cages) for r in per_row], dtype=bool)
    rows = [k for k in np.flatnonzero(filled & caged).tolist() if k not in messages]
    for row, why in cage_errors(chunk.solutions, per_row, rows).items():
        messages[row] = f"line {int(chunk.line_numbers[row])}: solution column: {why}"


def first_clash(puzzle: np.ndarray, units, n: int, third: str = "box") -> str | None:
    """Where the first two equal givens of ``puzzle`` (``(n*n,)`` values) share one of
    ``units`` (rows of cells: ``n`` rows, then ``n`` columns, then boxes or, with
    ``third="region"``, jigsaw regions), or None. The one wording of a clash, for
    :func:`~numbadlx.sudoku.check_grid` and :func:`unit_clash`.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx.sudoku import geometry
    >>> first_clash(np.array([1] + [0] * 4 + [1] + [0] * 10), geometry.units(4, 2, 2), 4)
    'digit 1 appears twice in the box at cells (1,1) and (2,2)'
    """
    for index, members in enumerate(np.asarray(units).tolist()):
        seen = {}
        for cell in members:
            v = int(puzzle[cell])
            if v and v in seen:
                (r1, c1), (r2, c2) = divmod(seen[v], n), divmod(cell, n)
                kind = ("row", "column", third)[index // n]
                if kind == "row":
                    where = f"row {r1 + 1} (columns {c1 + 1} and {c2 + 1})"
                elif kind == "column":
                    where = f"column {c1 + 1} (rows {r1 + 1} and {r2 + 1})"
                elif kind == "box":
                    where = f"the box at cells ({r1 + 1},{c1 + 1}) and ({r2 + 1},{c2 + 1})"
                else:
                    where = (
                        f"region {index - 2 * n + 1} (cells ({r1 + 1},{c1 + 1}) and "
                        f"({r2 + 1},{c2 + 1}))"
                    )
                return f"digit {v} appears twice in {where}"
            seen.setdefault(v, cell)
    return None


def unit_clash(puzzle: np.ndarray, rules) -> str | None:
    """Where two equal givens of ``puzzle`` (``(n*n,)`` values) share a row, a column
    or a jigsaw region of ``rules`` without boxes (latin, jigsaw), or None (also for
    a clash in the units or links other rules add: diagonals, anti-knight...).

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx.sudoku import Rules
    >>> unit_clash(np.array([1, 0, 0, 0, 0, 0, 0, 0, 1]), Rules(latin=True))
    >>> unit_clash(np.array([1, 0, 0, 1, 0, 0, 0, 0, 0]), Rules(latin=True))
    'digit 1 appears twice in column 1 (rows 1 and 2)'
    """
    n = int(round(puzzle.size**0.5))
    table = geometry.unit_table(n, rules=rules)
    named = 3 * n if rules.regions is not None else 2 * n
    return first_clash(puzzle, table.units[:named], n, "region")


def solution_column_messages(chunk, box, messages: dict) -> None:
    """Add to ``messages`` (by row) a message for each row of ``chunk`` (a
    :class:`~numbadlx.sudoku.PuzzleChunk`) whose solution column could not be read or
    is not a solution of its puzzle under boxes of ``box``; rows that have a message
    already are passed over. Used by :func:`~numbadlx.sudoku.solve`, which keeps the
    row's status the solver's.

    Examples
    --------
    >>> from numbadlx.sudoku import parse_chunk
    >>> chunk = parse_chunk(b"puzzle,solution\\n1...........1...,1234341221434321\\n")
    >>> messages = {}
    >>> solution_column_messages(chunk, (2, 2), messages)
    >>> messages[0]
    'line 2: solution column: it changes the given 1 at row 4, column 1 to 4'
    """
    for row, message in chunk.solution_errors:
        messages.setdefault(row, message)
    if chunk.solutions is None:
        return
    for row, why in completion_errors(chunk.puzzles, chunk.solutions, box).items():
        if row not in messages:
            where = f"line {int(chunk.line_numbers[row])}"
            messages[row] = f"{where}: solution column: {why}"
