"""The line table of the "cages" engine: outside clues, lines and quadruples as rows.

One row per rule instance, in flat arrays (:class:`LineTable`), read by the
propagators of :mod:`._line_rules`: its kind, its number (a total, a count seen, a gap),
its cells (the line in order, or the quadruple's four cells in reading order), and for
a quadruple the digits it lists, once and twice.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import numpy as np

__all__ = ["LineTable", "LINE_RULES", "line_table", "no_lines"]

#: Row kinds of a line table (``LineTable.kind``), as :mod:`._line_rules` reads them.
SANDWICH = 0
X_SUM = 1
SKYSCRAPER = 2
BETWEEN = 3
LOCKOUT = 4
QUADRUPLE = 5
RENBAN = 6
#: A rule no grid meets (a quadruple listing a digit three times).
NEVER = 7


#: The rule kinds a line table holds.
LINE_RULES = frozenset(
    {"sandwiches", "x_sums", "skyscrapers", "between_lines", "lockout_lines", "quadruples",
     "renbans"}
)  # fmt: skip


class LineTable(NamedTuple):
    """Rows of line rules (read-only arrays), ``L`` of them: fields of the engine's
    :class:`~._constraint_tables.ConstraintTable` too (Numba's parallel kernels take no
    tuple nested in their table).

    Attributes
    ----------
    line_kind : (L,) int32
        The row's rule (:data:`SANDWICH` ... :data:`NEVER`).
    line_number : (L,) int32
        The total (sandwich, x-sum), the count seen (skyscraper), the gap (lockout).
    line_start, line_cells : (L + 1,) int32, int32
        Row ``r``'s cells are ``line_cells[line_start[r]:line_start[r + 1]]``.
    line_need : (L, 2) uint64
        A quadruple's listed digits (bit ``d - 1``): listed at least once, at least
        twice; for a between or lockout line, ``[k, 0]``: ``k`` of its middle cells
        share a row, column or box (or region), so they need ``k`` distinct digits;
        zero for other rows.
    line_sets, line_set_start : uint64, int32
        On grids up to 12x12 with sums on lines (sandwiches, x-sums): every digit set
        (bit ``d - 1``), by size and sum: those of ``k`` digits summing to ``s`` are
        ``line_sets[line_set_start[k * w + s]:line_set_start[k * w + s + 1]]``, ``w``
        being ``n * (n + 1) // 2 + 1``; else none (``line_set_start`` is ``[0]``).
    """

    line_kind: np.ndarray
    line_number: np.ndarray
    line_start: np.ndarray
    line_cells: np.ndarray
    line_need: np.ndarray
    line_sets: np.ndarray
    line_set_start: np.ndarray


def _readonly(values, dtype, shape=None):
    array = np.array(values, dtype=dtype)
    if shape is not None:
        array = array.reshape(shape)
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


#: The largest grid whose digit sets a line table lists (4096 sets).
MAX_SET_SIZE = 12


def _digit_sets(n):
    """Every digit set of 1..n, ordered by size then sum, and where each (size, sum)
    starts (see :class:`LineTable`)."""
    width = n * (n + 1) // 2 + 1
    masks = np.arange(1 << n, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(n)) & 1
    keys = bits.sum(axis=1) * width + bits @ np.arange(1, n + 1)
    order = np.argsort(keys, kind="stable")
    start = np.searchsorted(keys[order], np.arange((n + 1) * width + 1))
    return masks[order], start


def _table(rows, sets=()) -> LineTable:
    start = [0]
    flat = []
    for _, _, cells, _ in rows:
        flat.extend(cells)
        start.append(len(flat))
    return LineTable(
        line_kind=_readonly([r[0] for r in rows], np.int32),
        line_number=_readonly([r[1] for r in rows], np.int32),
        line_start=_readonly(start, np.int32),
        line_cells=_readonly(flat, np.int32),
        line_need=_readonly([r[3] for r in rows], np.uint64, (len(rows), 2)),
        line_sets=_readonly(sets[0] if sets else [], np.uint64),
        line_set_start=_readonly(sets[1] if sets else [0], np.int32),
    )


def no_lines() -> LineTable:
    """The table of rules without line rules (no rows)."""
    return _table([])


def _quadruple_row(cells, digits):
    counts = Counter(digits)
    once = sum(1 << (d - 1) for d in counts)
    twice = sum(1 << (d - 1) for d, k in counts.items() if k >= 2)
    # rows and columns hold distinct digits: a 2x2 square holds a digit twice at most
    kind = NEVER if max(counts.values()) > 2 else QUADRUPLE
    return kind, 0, tuple(cells), (once, twice)


def _spread(middles, n, rules):
    """The most cells of ``middles`` in one row, column, box or region."""
    keys = [lambda c: c // n, lambda c: c % n]
    if rules.regions is not None:
        regions = rules.regions.ravel()
        keys.append(lambda c: int(regions[c]))
    elif rules.has_boxes and rules.box is not None:
        r, c = rules.box
        keys.append(lambda x: (x // n // r, x % n // c))
    counts = [Counter(map(key, middles)) for key in keys]
    return max((max(count.values()) for count in counts if count), default=0)


def line_table(n, rules) -> LineTable:
    """The :class:`LineTable` of ``n x n`` grids under ``rules`` (a
    :class:`~numbadlx.sudoku.Rules` checked for ``n``). A between line of two cells has
    no inside and no row.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> rules = Rules(sandwiches=[([0, 1, 2, 3], 0)], quadruples=[([5, 6, 9, 10], [1, 1])])
    >>> table = line_table(4, rules.checked(4))
    >>> table.line_kind.tolist(), table.line_cells.tolist(), table.line_need.tolist()
    ([0, 5], [0, 1, 2, 3, 5, 6, 9, 10], [[0, 0], [1, 1]])
    """
    zero = (0, 0)
    rows = []
    for kind, name in ((SANDWICH, "sandwiches"), (X_SUM, "x_sums"), (SKYSCRAPER, "skyscrapers")):
        rows += [(kind, number, line, zero) for line, number in getattr(rules, name)]
    rows += [
        (BETWEEN, 0, line, (_spread(line[1:-1], n, rules), 0))
        for line in rules.between_lines
        if len(line) > 2
    ]
    rows += [
        (LOCKOUT, gap, line, (_spread(line[1:-1], n, rules), 0))
        for line, gap in rules.lockout_lines
    ]
    rows += [_quadruple_row(cells, digits) for cells, digits in rules.quadruples]
    rows += [(RENBAN, 0, line, zero) for line in rules.renbans]
    sums = rules.sandwiches or rules.x_sums
    return _table(rows, _digit_sets(n) if sums and n <= MAX_SET_SIZE else ())
