"""One puzzle at a time: :func:`solve_one`, :func:`count_solutions` and
:func:`check_grid`, faces over the bulk :func:`~numbadlx.sudoku.solve` of a batch of
one, with a single puzzle's errors (a clash named, a budget as an exception)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.words import plural
from . import geometry
from .bulk import Status, solve
from .completion import first_clash, unit_clash
from .cover import single_grid
from .shape import box_shape
from .variants import Rules

__all__ = ["check_grid", "solve_one", "count_solutions"]


def check_grid(grid: ArrayLike | str, box: tuple[int, int] | None = None) -> str | None:
    """Describe the first clash among a grid's givens, or None if there is none.

    Examples
    --------
    >>> check_grid("11" + "0" * 14)
    'digit 1 appears twice in row 1 (columns 1 and 2)'
    """
    grid = single_grid(grid, box)
    n = math.isqrt(grid.size)
    return first_clash(grid, geometry.units(n, *box_shape(n, box)), n)


def _solve_single(grid, limit, box, max_nodes, timeout=None, engine="auto", rules=None):
    puzzle = single_grid(grid, box, rules)
    result = solve(
        puzzle[None, :],
        limit=limit,
        box=box,
        threads=1,
        max_nodes=max_nodes,
        timeout=timeout,
        engine=engine,
        rules=rules,
    )
    status = Status(result.status[0])
    if status == Status.INVALID:
        keeps = rules is None or rules.has_boxes
        why = check_grid(puzzle, box) if keeps else unit_clash(puzzle, rules)
        raise ValueError(f"invalid puzzle: {why or 'two equal givens clash under the rules'}")
    if status == Status.BUDGET:
        from ..core import BudgetExceeded, SearchStats

        stats = SearchStats(
            nodes=int(result.nodes[0]),
            solutions=int(result.counts[0]),
            status="budget",
            seconds=result.seconds,
        )
        budgets = ", ".join(
            f"{name}={value}"
            for name, value in (("max_nodes", max_nodes), ("timeout", timeout))
            if value is not None
        )
        raise BudgetExceeded(
            f"stopped at its budget ({budgets}) with "
            f"{plural(int(result.counts[0]), 'solution')} seen",
            int(result.counts[0]),
            stats,
        )
    return result


def solve_one(
    grid: ArrayLike | str,
    *,
    box: tuple[int, int] | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    engine: str = "auto",
    rules: Rules | None = None,
) -> NDArray[np.uint8] | None:
    """Solve one puzzle; return its solution as an (n*n,) uint8 array, or None.

    Raises ValueError if the givens clash (saying where), and
    :class:`~numbadlx.BudgetExceeded` if ``max_nodes`` or ``timeout`` (seconds) run out
    first. ``engine`` and ``rules`` are as in :func:`solve`.

    Examples
    --------
    >>> from numbadlx.sudoku import format_line
    >>> format_line(solve_one("0200" "0040" "3400" "0000"))
    '4213134234212134'
    """
    result = _solve_single(grid, 1, box, max_nodes, timeout, engine, rules)
    return result.solutions[0].copy() if result.counts[0] else None


def count_solutions(
    grid: ArrayLike | str,
    limit: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    engine: str = "auto",
    rules: Rules | None = None,
) -> int:
    """Count the solutions of one puzzle, stopping at ``limit`` if given.

    Raises :class:`~numbadlx.BudgetExceeded` (with ``.found``, a lower bound) if
    ``max_nodes`` or ``timeout`` (seconds) run out first. ``engine`` and ``rules`` are
    as in :func:`solve`.

    Examples
    --------
    >>> count_solutions("0" * 16)   # the empty 4x4 grid
    288
    """
    if limit is None:
        limit = np.iinfo(np.int64).max
    return int(_solve_single(grid, limit, box, max_nodes, timeout, engine, rules).counts[0])
