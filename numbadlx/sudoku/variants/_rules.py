"""The :class:`Rules` of a Sudoku variant: what a grid demands beyond rows and columns.

A :class:`Rules` is plain data, checked twice: once when it is made (types, cells that
are no integers, a cage that holds a cell twice, two cages that share a cell), and once
for a grid size by :meth:`Rules.checked` (cells out of range, regions of the wrong size,
cage totals no digits reach, thermometers longer than the grid). Every error is a
``ValueError`` that names the rule and the offending value.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
from collections.abc import Sequence

import numpy as np

from ..shape import MAX_SIZE, MIN_BOXLESS_SIZE, MIN_SIZE, NO_BOXES, box_shape, check_size
from ._cage_map import disagreement

__all__ = [
    "Rules",
    "RULE_KINDS",
    "UNIT_RULES",
    "PEER_RULES",
    "CONSTRAINT_RULES",
    "reading_box",
]

_FLAGS = (
    "latin",
    "diagonals",
    "windoku",
    "disjoint",
    "anti_knight",
    "anti_king",
    "non_consecutive",
)
_PAIRS = ("white_dots", "black_dots", "x_pairs", "v_pairs")

#: Rules that add or replace units (sets of cells holding distinct digits).
UNIT_RULES = frozenset({"regions", "latin", "diagonals", "windoku", "disjoint"})
#: Rules that add peers (cells that may not share a digit) but no unit.
PEER_RULES = frozenset({"anti_knight", "anti_king"})
#: Rules on the digits of a few cells: sums, orders, relations and parities.
CONSTRAINT_RULES = frozenset({"cages", "thermos", "non_consecutive", "odd", "even", *_PAIRS})
#: Every rule kind, the names :attr:`Rules.kinds` holds.
RULE_KINDS = UNIT_RULES | PEER_RULES | CONSTRAINT_RULES


def _fail(rule, message):
    raise ValueError(f"{rule}: {message}")


def _cell(rule, value):
    try:
        cell = operator.index(value)
    except TypeError:
        _fail(rule, f"a cell must be an integer (row * n + column), got {value!r}")
    if cell < 0:
        _fail(rule, f"cell {cell} is negative")
    return cell


def _cells(rule, values):
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        _fail(rule, f"expected a sequence of cells, got {values!r}")
    return tuple(_cell(rule, v) for v in values)


def _distinct(rule, cells, what):
    if len(set(cells)) != len(cells):
        twice = sorted({c for c in cells if cells.count(c) > 1})
        _fail(rule, f"{what} {list(cells)} holds cell {twice[0]} twice")


def _cage(value):
    try:
        cells, total = value
    except (TypeError, ValueError):
        _fail("cages", f"a cage is a pair (cells, total), got {value!r}")
    cells = _cells("cages", cells)
    if not cells:
        _fail("cages", "a cage needs at least one cell")
    _distinct("cages", cells, "cage")
    if total is not None:
        try:
            total = operator.index(total)
        except TypeError:
            _fail("cages", f"a cage total must be an integer or None, got {total!r}")
    return cells, total


def _pair(rule, value):
    cells = _cells(rule, value)
    if len(cells) != 2:
        _fail(rule, f"a pair is two cells, got {value!r}")
    if cells[0] == cells[1]:
        _fail(rule, f"a pair needs two different cells, got {list(cells)}")
    return cells


def _regions(value):
    try:
        array = np.asarray(value)
    except Exception:  # noqa: BLE001 - anything numpy cannot read is named below
        array = None
    if array is None or array.dtype.kind not in "iu" or array.ndim not in (1, 2):
        _fail("regions", "expected an (n, n) or (n * n,) array of integer region ids")
    if array.ndim == 2 and array.shape[0] != array.shape[1]:
        _fail("regions", f"a 2-d region map must be square, got shape {array.shape}")
    flat = array.reshape(-1).astype(np.int64)
    # region ids renumbered by first appearance, so equal maps compare equal
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))
    out = order[inverse.reshape(-1)].astype(np.int64)
    out.flags.writeable = False
    return out


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class Rules:
    """The rules of a Sudoku variant: the constraints of a grid beyond rows and columns.

    Cells are flat indices in reading order, ``row * n + column``. Without arguments,
    ``Rules()`` is the classic Sudoku. Lists given are stored as tuples, so a Rules is
    hashable and two equal rule sets compare equal.

    Parameters
    ----------
    box : (int, int), optional
        Rows and columns of one box; None: inferred from the size as for classic grids.
        With ``latin`` or ``regions`` it only shapes the windoku windows.
    regions : array of int, optional
        Jigsaw regions: the region id of every cell, an ``(n, n)`` or ``(n * n,)``
        array; every region holds ``n`` cells (not necessarily connected). The regions
        replace the boxes.
    latin : bool
        Rows and columns only, no boxes (a Latin square). With ``latin`` or
        ``regions`` the grid needs no box shape: any size from 2 to 36, primes too.
    diagonals : bool
        Both main diagonals hold distinct digits (X-Sudoku).
    windoku : bool
        Extra windows of the box's shape hold distinct digits: windows start one cell
        in from the top-left corner, one cell apart, as many as fit (four on a 9x9).
    disjoint : bool
        The cells at the same position in every box hold distinct digits.
    anti_knight, anti_king : bool
        Two cells a chess knight's (king's) move apart never hold the same digit.
    non_consecutive : bool
        Orthogonally adjacent cells never hold digits that differ by 1.
    cages : sequence of (cells, total)
        Each cage's cells hold distinct digits summing to ``total`` (None: distinct
        only). Cages may not share cells.
    thermos : sequence of cells
        Digits strictly increase along each thermometer, from its bulb (first cell).
    white_dots, black_dots : sequence of (cell, cell)
        The two cells' digits differ by 1 (white) or one is twice the other (black).
    x_pairs, v_pairs : sequence of (cell, cell)
        The two cells' digits sum to 10 (X) or 5 (V).
    odd, even : sequence of cells
        Cells holding odd (even) digits.

    Raises
    ------
    ValueError
        Naming the rule: a flag that is not a bool, a cell that is no non-negative
        integer, a cage or thermometer holding a cell twice, two cages sharing a cell, a
        pair of one cell, a cell both odd and even. :meth:`checked` checks the rest
        against a grid size.

    Notes
    -----
    Pairs may be any two different cells, adjacent or not; only the pairs listed are
    constrained (no negative constraint on unmarked neighbours).

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> Rules(diagonals=True, cages=[([0, 1], 3)])
    Rules(diagonals=True, cages=(((0, 1), 3),))
    >>> sorted(Rules(anti_knight=True, thermos=[[0, 1, 2]]).kinds)
    ['anti_knight', 'thermos']
    >>> Rules(cages=[([0, 1], 3), ([1, 2], 4)])
    Traceback (most recent call last):
    ...
    ValueError: cages: cell 1 is in two cages

    A 5x5 Latin square has no box shape; its rules need none:

    >>> from numbadlx import sudoku
    >>> sudoku.count_solutions("0" * 25, rules=Rules(latin=True))
    161280
    """

    box: tuple[int, int] | None = None
    regions: np.ndarray | None = None
    latin: bool = False
    diagonals: bool = False
    windoku: bool = False
    disjoint: bool = False
    anti_knight: bool = False
    anti_king: bool = False
    non_consecutive: bool = False
    cages: tuple[tuple[tuple[int, ...], int | None], ...] = ()
    thermos: tuple[tuple[int, ...], ...] = ()
    white_dots: tuple[tuple[int, int], ...] = ()
    black_dots: tuple[tuple[int, int], ...] = ()
    x_pairs: tuple[tuple[int, int], ...] = ()
    v_pairs: tuple[tuple[int, int], ...] = ()
    odd: tuple[int, ...] = ()
    even: tuple[int, ...] = ()

    def __post_init__(self):
        put = functools.partial(object.__setattr__, self)
        if self.box is not None:
            try:
                r, c = (operator.index(v) for v in self.box)
            except (TypeError, ValueError):
                _fail("box", f"expected a pair of integers (rows, columns), got {self.box!r}")
            put("box", (r, c))
        for name in _FLAGS:
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                _fail(name, f"expected True or False, got {value!r}")
            put(name, bool(value))
        if self.regions is not None:
            put("regions", _regions(self.regions))
        for name in ("cages", "thermos", "odd", "even", *_PAIRS):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
                _fail(name, f"expected a sequence, got {value!r}")
        cages = tuple(_cage(v) for v in self.cages)
        seen = {}
        for cells, _ in cages:
            for cell in cells:
                if cell in seen:
                    _fail("cages", f"cell {cell} is in two cages")
                seen[cell] = True
        put("cages", cages)
        thermos = tuple(_cells("thermos", v) for v in self.thermos)
        for thermo in thermos:
            if not thermo:
                _fail("thermos", "a thermometer needs at least one cell")
            _distinct("thermos", thermo, "thermometer")
        put("thermos", thermos)
        for name in _PAIRS:
            put(name, tuple(_pair(name, v) for v in getattr(self, name)))
        for name in ("odd", "even"):
            put(name, tuple(sorted(set(_cells(name, getattr(self, name))))))
        both = sorted(set(self.odd) & set(self.even))
        if both:
            _fail("odd", f"cell {both[0]} is both odd and even")
        if self.latin and self.regions is not None:
            _fail("latin", "latin (no boxes) and regions (boxes replaced) exclude each other")

    # -- identity -------------------------------------------------------------

    def _key(self):
        regions = None if self.regions is None else self.regions.tobytes()
        return tuple(
            regions if f.name == "regions" else getattr(self, f.name)
            for f in dataclasses.fields(self)
        )

    def __eq__(self, other):
        if not isinstance(other, Rules):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        parts = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "regions":
                if value is not None:
                    parts.append(f"regions={value.tolist()!r}")
            elif value != f.default:
                parts.append(f"{f.name}={value!r}")
        return f"Rules({', '.join(parts)})"

    # -- what is set ----------------------------------------------------------

    @property
    def kinds(self) -> frozenset[str]:
        """The names of the rules set (a subset of :data:`RULE_KINDS`; ``box`` is no
        rule); empty for the classic Sudoku."""
        out = {name for name in _FLAGS if getattr(self, name)}
        if self.regions is not None:
            out.add("regions")
        out.update(
            name for name in ("cages", "thermos", "odd", "even", *_PAIRS) if getattr(self, name)
        )
        return frozenset(out)

    @property
    def unit_rules(self) -> bool:
        """Whether a rule adds or replaces units (regions, latin, diagonals, windoku,
        disjoint)."""
        return bool(self.kinds & UNIT_RULES)

    @property
    def peer_rules(self) -> bool:
        """Whether a rule adds peers (anti-knight, anti-king)."""
        return bool(self.kinds & PEER_RULES)

    @property
    def constraint_rules(self) -> bool:
        """Whether a rule constrains digits beyond distinctness (cages, thermometers,
        non-consecutive, dots, X/V pairs, odd, even)."""
        return bool(self.kinds & CONSTRAINT_RULES)

    @property
    def has_boxes(self) -> bool:
        """Whether the grid keeps its boxes (neither ``latin`` nor ``regions``)."""
        return not self.latin and self.regions is None

    # -- checking against a size ----------------------------------------------

    def checked(self, n: int) -> Rules:
        """These rules checked for ``n x n`` grids: a copy with the box shape resolved.

        Returns
        -------
        Rules
            Equal to ``self`` except ``box``: the box shape of the grid (inferred from
            ``n`` when None), or None for a grid without boxes whose size has no box
            shape (a prime ``n`` with ``latin`` or ``regions``).

        Raises
        ------
        ValueError
            Naming the rule: a cell out of range, a box that does not fit, regions of
            the wrong size or count, a cage larger than ``n`` or with a total no distinct
            digits reach, a thermometer longer than ``n``, windoku or disjoint on a grid
            without a box shape, disjoint without boxes.

        Examples
        --------
        >>> from numbadlx.sudoku import Rules
        >>> Rules(diagonals=True).checked(9).box
        (3, 3)
        >>> Rules(cages=[([0, 1], 18)]).checked(9)
        Traceback (most recent call last):
        ...
        ValueError: cages: cage [0, 1] of 2 cells cannot total 18 on a 9x9 grid (from 3 to 17)
        """
        return _checked(self, operator.index(n))

    # -- constructors ---------------------------------------------------------

    @classmethod
    def killer(cls, cage_map: str, sums: Sequence[int | None], **rules) -> Rules:
        """The rules of a Killer Sudoku from a cage map and the cage sums.

        Parameters
        ----------
        cage_map : str
            One character per cell in reading order (``n * n`` of them, whitespace
            ignored); cells with the same character form one cage. Cages are numbered
            in order of first appearance.
        sums : sequence of int or None
            The total of each cage, in that order (None: distinct digits only).
        **rules
            Other rules (``box=``, ``diagonals=True``...), as :class:`Rules` takes them.

        Examples
        --------
        >>> from numbadlx.sudoku import Rules
        >>> rules = Rules.killer("aabb" "ccdd" "eeff" "gghh", [3, 7, 4, 6, 5, 5, 4, 6])
        >>> rules.cages[:2]
        (((0, 1), 3), ((2, 3), 7))
        """
        if not isinstance(cage_map, str):
            _fail("cages", f"a cage map is a string, one character per cell, got {cage_map!r}")
        letters = "".join(cage_map.split())
        n = math.isqrt(len(letters))
        if n * n != len(letters) or not MIN_SIZE <= n <= MAX_SIZE:
            _fail(
                "cages",
                f"a cage map needs n * n characters (n from {MIN_SIZE} to {MAX_SIZE}), "
                f"got {len(letters)}",
            )
        order = {}
        for cell, letter in enumerate(letters):
            order.setdefault(letter, []).append(cell)
        if isinstance(sums, (str, bytes)) or not isinstance(sums, (Sequence, np.ndarray)):
            _fail("cages", f"sums must be a sequence, one per cage, got {sums!r}")
        problem = disagreement(order, list(sums), n)
        if problem is not None:
            _fail("cages", problem)
        cages = tuple((tuple(cells), total) for cells, total in zip(order.values(), sums))
        return cls(cages=cages, **rules)


def _check_cells(rule, cells, n):
    for cell in cells:
        if cell >= n * n:
            _fail(rule, f"cell {cell} is out of range for a {n}x{n} grid (0 to {n * n - 1})")


@functools.lru_cache(maxsize=4096)
def _checked(rules: Rules, n: int) -> Rules:
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
                _fail(name, f"a {n}x{n} grid has no box shape to place its cells by")
    if rules.disjoint and not rules.has_boxes:
        _fail("disjoint", "disjoint groups need boxes (not latin or regions)")
    if rules.regions is not None:
        regions = rules.regions
        if regions.size != n * n:
            _fail("regions", f"expected {n * n} cells for a {n}x{n} grid, got {regions.size}")
        sizes = np.bincount(regions)
        if len(sizes) != n or (sizes != n).any():
            bad = int(np.flatnonzero(sizes != n)[0]) if len(sizes) else 0
            _fail(
                "regions",
                f"expected {n} regions of {n} cells each, got {len(sizes)} regions "
                f"(region {bad} has {int(sizes[bad]) if len(sizes) else 0} cells)",
            )
    for cells, total in rules.cages:
        _check_cells("cages", cells, n)
        k = len(cells)
        if k > n:
            _fail("cages", f"cage {list(cells)} has {k} cells: more than {n} distinct digits")
        if total is not None:
            low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
            if not low <= total <= high:
                _fail(
                    "cages",
                    f"cage {list(cells)} of {k} cells cannot total {total} on a {n}x{n} grid "
                    f"(from {low} to {high})",
                )
    for thermo in rules.thermos:
        _check_cells("thermos", thermo, n)
        if len(thermo) > n:
            _fail(
                "thermos",
                f"thermometer {list(thermo)} has {len(thermo)} cells: more than {n} "
                "increasing digits",
            )
    for name in ("odd", "even", *_PAIRS):
        for value in getattr(rules, name):
            _check_cells(name, value if isinstance(value, tuple) else (value,), n)
    if box == rules.box:
        return rules
    return dataclasses.replace(rules, box=box)


def reading_box(box, rules):
    """The ``box`` a puzzle reader takes for puzzles under ``rules`` (a
    :class:`Rules`, a sequence of them, or None): ``box`` when given, else the rules'
    box shape, else :data:`~numbadlx.sudoku.shape.NO_BOXES` when no rule set has boxes
    (latin squares, jigsaws: any size from 2 to 36 is read, primes too), else None.

    Examples
    --------
    >>> reading_box(None, Rules(latin=True)), reading_box(None, Rules()), reading_box((2, 3), None)
    (NO_BOXES, None, (2, 3))
    """
    if box is not None or rules is None:
        return box
    sets = [rules] if isinstance(rules, Rules) else rules
    try:
        sets = list(sets)
    except TypeError:
        raise TypeError(
            f"rules must be a Rules or a sequence of Rules, got {type(rules).__name__}"
        ) from None
    for k, item in enumerate(sets):
        if not isinstance(item, Rules):
            raise TypeError(f"rules[{k}] is a {type(item).__name__}, not a Rules")
    shapes = {item.box for item in sets}
    if len(shapes) == 1 and None not in shapes:
        return shapes.pop()
    if sets and not any(item.has_boxes for item in sets):
        return NO_BOXES
    return None
