"""The checks of :class:`~._rules.Rules` against a grid size: :func:`checked`.

Cells in range, regions of the right size, totals the digits can reach, lines whose
steps join neighbouring cells, outside clues on a whole row or column, and the
defaults that depend on the size (the whispers' gap, the modular lines' modulus)
filled in. Every error is a ``ValueError`` that names the rule and the value.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ..shape import MIN_BOXLESS_SIZE, MIN_SIZE, box_shape, check_size
from ._fields import fail

__all__ = ["checked", "whisper_gap", "LINE_RULES", "OUTSIDE_RULES"]

#: Rules whose lines run through neighbouring cells (a king's step apart).
LINE_RULES = (
    "whispers",
    "renbans",
    "palindromes",
    "between_lines",
    "region_sum_lines",
    "entropic_lines",
    "modular_lines",
    "zipper_lines",
    "lockout_lines",
)
#: Rules whose clue stands outside the grid and reads a whole row or column.
OUTSIDE_RULES = ("sandwiches", "x_sums", "skyscrapers")


def whisper_gap(n: int) -> int:
    """The default least difference of neighbours on a whisper line: ``ceil(n / 2)``
    (5 on a 9x9 grid, the German whispers).

    Examples
    --------
    >>> whisper_gap(9), whisper_gap(6)
    (5, 3)
    """
    return (n + 1) // 2


def _in_range(rule, cells, n):
    for cell in cells:
        if cell >= n * n:
            fail(rule, f"cell {cell} is out of range for a {n}x{n} grid (0 to {n * n - 1})")


def _adjacent(rule, line, n):
    for a, b in zip(line, line[1:]):
        (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
        if max(abs(ra - rb), abs(ca - cb)) != 1:
            fail(rule, f"line {list(line)}: cells {a} and {b} are not neighbours")


def _diagonal(rule, cells, n):
    steps = {(b // n - a // n, b % n - a % n) for a, b in zip(cells, cells[1:])}
    if len(steps) > 1 or (steps and next(iter(steps)) not in ((1, 1), (1, -1), (-1, 1), (-1, -1))):
        fail(rule, f"cells {list(cells)} are not one diagonal, read in one direction")


def _whole_line(rule, line, n):
    """A whole row or column, read from one end."""
    if len(line) == n:
        rows = {c // n for c in line}
        cols = {c % n for c in line}
        for fixed, moving in ((rows, [c % n for c in line]), (cols, [c // n for c in line])):
            if len(fixed) == 1 and moving in (list(range(n)), list(range(n - 1, -1, -1))):
                return
    fail(rule, f"line {list(line)} is not a whole row or column read from one end")


def _sum_bounds(rule, what, total, low, high, n):
    if not low <= total <= high:
        fail(rule, f"{what} cannot total {total} on a {n}x{n} grid (from {low} to {high})")


def _check_regions(rules, n):
    regions = rules.regions
    if regions.size != n * n:
        fail("regions", f"expected {n * n} cells for a {n}x{n} grid, got {regions.size}")
    sizes = np.bincount(regions)
    if len(sizes) != n or (sizes != n).any():
        bad = int(np.flatnonzero(sizes != n)[0]) if len(sizes) else 0
        fail(
            "regions",
            f"expected {n} regions of {n} cells each, got {len(sizes)} regions "
            f"(region {bad} has {int(sizes[bad]) if len(sizes) else 0} cells)",
        )


def _check_cages(rules, n):
    for cells, total in rules.cages:
        _in_range("cages", cells, n)
        k = len(cells)
        if k > n:
            fail("cages", f"cage {list(cells)} has {k} cells: more than {n} distinct digits")
        if total is not None:
            low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
            _sum_bounds("cages", f"cage {list(cells)} of {k} cells", total, low, high, n)
    for thermo in rules.thermos:
        _in_range("thermos", thermo, n)
        if len(thermo) > n:
            fail(
                "thermos",
                f"thermometer {list(thermo)} has {len(thermo)} cells: more than {n} "
                "increasing digits",
            )


def _check_sums(rules, n):
    for bulb, shaft in rules.arrows:
        _in_range("arrows", bulb + shaft, n)
        _adjacent("arrows", shaft, n)
        if len(bulb) == 1 and len(shaft) > n:
            fail("arrows", f"arrow {list(shaft)}: {len(shaft)} digits sum to more than {n}")
    for cells, total in rules.little_killers:
        _in_range("little_killers", cells, n)
        _diagonal("little_killers", cells, n)
        k = len(cells)
        _sum_bounds("little_killers", f"diagonal {list(cells)}", total, k, k * n, n)
    for rule in OUTSIDE_RULES:
        for line, number in getattr(rules, rule):
            _in_range(rule, line, n)
            _whole_line(rule, line, n)
            if rule == "sandwiches":
                _sum_bounds(rule, f"sandwich {list(line)}", number, 0, n * (n - 1) // 2 - 1, n)
            elif rule == "x_sums":
                _sum_bounds(rule, f"x-sum {list(line)}", number, 1, n * (n + 1) // 2, n)
            elif not 1 <= number <= n:
                fail(rule, f"line {list(line)}: {number} seen is not from 1 to {n}")


def _check_lines(rules, n):
    for rule in LINE_RULES:
        for value in getattr(rules, rule):
            line = value[0] if isinstance(value[0], tuple) else value
            _in_range(rule, line, n)
            _adjacent(rule, line, n)
    for line in rules.renbans:
        if len(line) > n:
            fail("renbans", f"line {list(line)} has {len(line)} cells: more than {n} digits")
    if rules.entropic_lines and n % 3:
        fail("entropic_lines", f"a {n}x{n} grid's digits do not split into three equal sets")
    for line, gap in rules.whispers:
        if gap is not None and not 1 <= gap <= n - 1:
            fail("whispers", f"line {list(line)}: a gap of {gap} is not from 1 to {n - 1}")
    for line, m in rules.modular_lines:
        if m is not None and not 2 <= m <= n:
            fail("modular_lines", f"line {list(line)}: modulus {m} is not from 2 to {n}")
    for line, gap in rules.lockout_lines:
        if not 1 <= gap <= n - 1:
            fail("lockout_lines", f"line {list(line)}: a gap of {gap} is not from 1 to {n - 1}")


def _check_cells(rules, n):
    for rule in (
        "odd",
        "even",
        "minimums",
        "maximums",
        "white_dots",
        "black_dots",
        "x_pairs",
        "v_pairs",
        "greater",
    ):
        for value in getattr(rules, rule):
            _in_range(rule, value if isinstance(value, tuple) else (value,), n)
    for region in rules.extra_regions:
        _in_range("extra_regions", region, n)
        if len(region) > n:
            fail("extra_regions", f"region {list(region)} has more than {n} cells")
    for four, digits in rules.quadruples:
        _in_range("quadruples", four, n)
        top = four[0]
        if top % n == n - 1 or four != (top, top + 1, top + n, top + n + 1):
            fail("quadruples", f"cells {list(four)} are not a 2x2 square")
        if digits[-1] > n:
            fail("quadruples", f"digit {digits[-1]} is above {n}")
    for cell, digits in rules.candidates:
        _in_range("candidates", (cell,), n)
        if digits[-1] > n:
            fail("candidates", f"cell {cell}: digit {digits[-1]} is above {n}")


def _defaults(rules, n):
    """The size-dependent defaults filled in: the whispers' gap, the modulus 3."""
    changes = {}
    if any(gap is None for _, gap in rules.whispers):
        gap = whisper_gap(n)
        changes["whispers"] = tuple((line, gap if d is None else d) for line, d in rules.whispers)
    if any(m is None for _, m in rules.modular_lines):
        changes["modular_lines"] = tuple(
            (line, 3 if m is None else m) for line, m in rules.modular_lines
        )
    for line, m in changes.get("modular_lines", ()):
        if m > n:
            fail("modular_lines", f"line {list(line)}: modulus {m} is above {n}")
    return changes


@functools.lru_cache(maxsize=4096)
def checked(rules, n: int):
    """``rules`` checked for ``n x n`` grids (see :meth:`Rules.checked`)."""
    check_size(n, MIN_SIZE if rules.has_boxes or rules.box is not None else MIN_BOXLESS_SIZE)
    try:
        box = box_shape(n, rules.box)
    except ValueError as error:
        if rules.box is not None or rules.has_boxes:
            raise ValueError(f"box: {error}") from None
        box = None
    if box is None:
        for name in ("windoku", "disjoint"):
            if getattr(rules, name):
                fail(name, f"a {n}x{n} grid has no box shape to place its cells by")
    if rules.disjoint and not rules.has_boxes:
        fail("disjoint", "disjoint groups need boxes (not latin or regions)")
    if rules.regions is not None:
        _check_regions(rules, n)
    _check_cages(rules, n)
    _check_sums(rules, n)
    _check_lines(rules, n)
    _check_cells(rules, n)
    changes = _defaults(rules, n)
    if box != rules.box:
        changes["box"] = box
    return dataclasses.replace(rules, **changes) if changes else rules
