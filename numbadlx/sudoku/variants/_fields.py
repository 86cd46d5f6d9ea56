"""How each field of :class:`~._rules.Rules` is read: the checks that need no grid size.

Every reader takes the value a user gave and returns it in the one stored form (tuples
of ints, so a Rules is hashable and equal rule sets compare equal), or raises a
``ValueError`` that names the rule and the value. The checks against a grid size (cells
in range, lines of adjacent cells, totals the digits reach) are in :mod:`._sized`.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = [
    "NEGATIVE_KINDS",
    "fail",
    "cell",
    "cells",
    "distinct",
    "cage",
    "pair",
    "regions",
    "diagonals",
    "line",
    "line_and_number",
    "line_with_default",
    "arrow",
    "quadruple",
    "candidates",
    "negative",
]

#: The marks the negative constraint may cover, in their stored order.
NEGATIVE_KINDS = ("white", "black", "x", "v")


def fail(rule, message):
    raise ValueError(f"{rule}: {message}")


def _integer(rule, value, what, alternative=""):
    # a bool is an int to Python, but True is no cell and no total
    message = f"{what} must be an integer{alternative}, got {value!r}"
    if isinstance(value, (bool, np.bool_)):
        fail(rule, message)
    try:
        return operator.index(value)
    except TypeError:
        fail(rule, message)
    raise AssertionError("unreachable")


def cell(rule, value):
    if isinstance(value, (bool, np.bool_)):
        fail(rule, f"a cell must be an integer (row * n + column), got {value!r}")
    try:
        out = operator.index(value)
    except TypeError:
        fail(rule, f"a cell must be an integer (row * n + column), got {value!r}")
    if out < 0:
        fail(rule, f"cell {out} is negative")
    return out


def _is_sequence(value):
    return not isinstance(value, (str, bytes)) and isinstance(value, (Sequence, np.ndarray))


def cells(rule, values):
    if type(values) in (tuple, list) and all(type(v) is int and v >= 0 for v in values):
        return tuple(values)  # plain non-negative ints (a bool's type is not int)
    if not _is_sequence(values):
        fail(rule, f"expected a sequence of cells, got {values!r}")
    return tuple(cell(rule, v) for v in values)


def distinct(rule, values, what):
    if len(set(values)) != len(values):
        seen = set()
        twice = sorted({c for c in values if c in seen or seen.add(c)})
        fail(rule, f"{what} {list(values)} holds cell {twice[0]} twice")


def cage(value, rule="cages", what="cage", optional_total=True):
    """``(cells, total)``: distinct cells, at least one; the total an int (or None
    where ``optional_total``)."""
    try:
        group, total = value
    except (TypeError, ValueError):
        fail(rule, f"a {what} is a pair (cells, total), got {value!r}")
    group = cells(rule, group)
    if not group:
        fail(rule, f"a {what} needs at least one cell")
    distinct(rule, group, what)
    if total is not None or not optional_total:
        total = _integer(rule, total, f"a {what} total", " or None" * optional_total)
    return group, total


def pair(rule, value):
    two = cells(rule, value)
    if len(two) != 2:
        fail(rule, f"a pair is two cells, got {value!r}")
    if two[0] == two[1]:
        fail(rule, f"a pair needs two different cells, got {list(two)}")
    return two


def regions(value):
    try:
        array = np.asarray(value)
    except Exception:  # noqa: BLE001 - anything numpy cannot read is named below
        array = None
    if array is None or array.dtype.kind not in "iu" or array.ndim not in (1, 2):
        fail("regions", "expected an (n, n) or (n * n,) array of integer region ids")
    if array.ndim == 2 and array.shape[0] != array.shape[1]:
        fail("regions", f"a 2-d region map must be square, got shape {array.shape}")
    flat = array.reshape(-1).astype(np.int64)
    # region ids renumbered by first appearance, so equal maps compare equal
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))
    out = order[inverse.reshape(-1)].astype(np.int64)
    out.flags.writeable = False
    return out


def diagonals(value):
    """True (both), False, ``"main"`` or ``"anti"``; ``"both"`` reads as True."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, str) and value in ("main", "anti", "both"):
        return True if value == "both" else value
    fail("diagonals", f'expected True, False, "main" or "anti", got {value!r}')


def line(rule, value, least=2):
    """An ordered line of distinct cells, at least ``least`` of them."""
    out = cells(rule, value)
    if len(out) < least:
        fail(rule, f"a line needs at least {least} cells, got {list(out)}")
    distinct(rule, out, "line")
    return out


def line_and_number(rule, value, what, least=2):
    """``(line, number)``: a line and an integer (a total, a count, a gap)."""
    try:
        cells_of, number = value
    except (TypeError, ValueError):
        fail(rule, f"expected a pair (line, {what}), got {value!r}")
    return line(rule, cells_of, least), _integer(rule, number, f"the {what}")


def line_with_default(rule, value, what):
    """A line, or ``(line, number)``: the number None when not given."""
    # a line's items are cells; a sequence first is the line of a (line, number) pair
    if _is_sequence(value) and len(value) == 2 and _is_sequence(value[0]):
        return line_and_number(rule, value, what)
    return line(rule, value), None


def arrow(value):
    """``(bulb, line)``: a bulb of 1 to 3 cells (kept in reading order, the order its
    digits are read in) and a line of at least one cell, none of them twice."""
    try:
        bulb, shaft = value
    except (TypeError, ValueError):
        fail("arrows", f"an arrow is a pair (bulb, line), got {value!r}")
    if _is_sequence(bulb):
        bulb = cells("arrows", bulb)
    else:
        bulb = (cell("arrows", bulb),)
    if not 1 <= len(bulb) <= 3:
        fail("arrows", f"a bulb holds 1 to 3 cells, got {list(bulb)}")
    distinct("arrows", bulb, "bulb")
    shaft = line("arrows", shaft, least=1)
    both = sorted(set(bulb) & set(shaft))
    if both:
        fail("arrows", f"cell {both[0]} is both in the bulb {list(bulb)} and on its line")
    return tuple(sorted(bulb)), shaft


def quadruple(value):
    """``(four cells, digits)``: four distinct cells and one to four digits, sorted."""
    try:
        four, digits = value
    except (TypeError, ValueError):
        fail("quadruples", f"a quadruple is a pair (four cells, digits), got {value!r}")
    four = cells("quadruples", four)
    if len(four) != 4:
        fail("quadruples", f"a quadruple needs four cells, got {list(four)}")
    distinct("quadruples", four, "quadruple")
    if not _is_sequence(digits):
        fail("quadruples", f"the digits must be a sequence, got {digits!r}")
    digits = tuple(sorted(_integer("quadruples", d, "a digit") for d in digits))
    if not 1 <= len(digits) <= 4:
        fail("quadruples", f"a quadruple lists 1 to 4 digits, got {list(digits)}")
    if digits[0] < 1:
        fail("quadruples", f"digit {digits[0]} is below 1")
    return tuple(sorted(four)), digits


def candidates(value):
    """``{cell: digits}`` (or pairs ``(cell, digits)``) as sorted ``(cell, digits)``
    pairs, each cell once, each digit list sorted, distinct and not empty."""
    if isinstance(value, Mapping):
        items = list(value.items())
    elif _is_sequence(value):
        items = list(value)
    else:
        fail("candidates", f"expected a mapping {{cell: digits}}, got {value!r}")
    out = {}
    for item in items:
        try:
            where, digits = item
        except (TypeError, ValueError):
            fail("candidates", f"expected (cell, digits), got {item!r}")
        where = cell("candidates", where)
        if where in out:
            fail("candidates", f"cell {where} is given twice")
        if not _is_sequence(digits):
            fail("candidates", f"cell {where}: the digits must be a sequence, got {digits!r}")
        kept = sorted({_integer("candidates", d, "a digit") for d in digits})
        if not kept:
            fail("candidates", f"cell {where} has no digit it may hold")
        if kept[0] < 1:
            fail("candidates", f"cell {where}: digit {kept[0]} is below 1")
        out[where] = tuple(kept)
    return tuple(sorted(out.items()))


def negative(value):
    """A subset of :data:`NEGATIVE_KINDS`, in that order; True means all four."""
    if isinstance(value, (bool, np.bool_)):
        return NEGATIVE_KINDS if value else ()
    if isinstance(value, str):
        value = (value,)
    if not _is_sequence(value):
        fail("negative", f"expected a subset of {NEGATIVE_KINDS}, got {value!r}")
    wrong = [v for v in value if not isinstance(v, str) or v not in NEGATIVE_KINDS]
    if wrong:
        fail("negative", f"{wrong[0]!r} is not one of {', '.join(NEGATIVE_KINDS)}")
    return tuple(k for k in NEGATIVE_KINDS if k in value)
