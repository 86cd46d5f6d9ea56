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

from ..shape import MAX_SIZE, MIN_SIZE, NO_BOXES
from . import _fields as fields
from ._cage_map import disagreement
from ._fields import fail
from ._sized import checked

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
    "windoku",
    "disjoint",
    "anti_knight",
    "anti_king",
    "non_consecutive",
)
_PAIRS = ("white_dots", "black_dots", "x_pairs", "v_pairs", "greater")
_CELL_SETS = ("odd", "even", "minimums", "maximums")
#: lines of plain cells
_LINES = (
    "thermos",
    "renbans",
    "palindromes",
    "between_lines",
    "region_sum_lines",
    "entropic_lines",
    "zipper_lines",
)
#: (line, number) pairs: what the number is
_LINE_NUMBERS = {
    "sandwiches": "total",
    "x_sums": "total",
    "skyscrapers": "count seen",
    "lockout_lines": "gap",
}
#: a line or (line, number); the number's default depends on the grid size
_LINE_DEFAULTS = {"whispers": "gap", "modular_lines": "modulus"}
#: every sequence field, in the order of the class's fields
_SEQUENCES = (
    "cages",
    *_LINES[:1],
    *_PAIRS[:4],
    *_CELL_SETS[:2],
    "arrows",
    "little_killers",
    *_LINE_NUMBERS,
    *_LINE_DEFAULTS,
    *_LINES[1:],
    "quadruples",
    "greater",
    *_CELL_SETS[2:],
    "extra_regions",
)

#: Rules that add or replace units (sets of cells holding distinct digits).
UNIT_RULES = frozenset({"regions", "latin", "diagonals", "windoku", "disjoint"})
#: Rules that add peers (cells that may not share a digit) but no unit.
PEER_RULES = frozenset({"anti_knight", "anti_king"})
#: Rules on the digits of a few cells: sums, orders, relations, parities, lines,
#: outside clues and the cells' own candidates.
CONSTRAINT_RULES = frozenset({"non_consecutive", "candidates", "negative", *_SEQUENCES})
#: Every rule kind, the names :attr:`Rules.kinds` holds.
RULE_KINDS = UNIT_RULES | PEER_RULES | CONSTRAINT_RULES


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
    diagonals : bool or {"main", "anti"}
        True: both main diagonals hold distinct digits (X-Sudoku); ``"main"`` only the
        one from the top-left to the bottom-right corner, ``"anti"`` only the one from
        the bottom-left to the top-right corner.
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
    arrows : sequence of (bulb, line)
        The digits on ``line`` sum to the bulb: a bulb of one cell is its digit; a bulb
        of 2 or 3 cells (a pill) is the number its digits form, read in reading order
        (left to right, top to bottom). Digits may repeat on a line.
    little_killers : sequence of (cells, total)
        The digits on the diagonal ``cells`` sum to ``total`` (digits may repeat).
    sandwiches : sequence of (line, total)
        ``line`` is a whole row or column; the digits strictly between its 1 and its
        ``n`` sum to ``total`` (0 when they are neighbours).
    x_sums : sequence of (line, total)
        ``line`` is a whole row or column read from its first cell; its first X digits
        sum to ``total``, X being the first cell's digit.
    skyscrapers : sequence of (line, seen)
        ``line`` is a whole row or column read from its first cell; ``seen`` of its
        digits are larger than every digit before them.
    whispers : sequence of line or (line, gap)
        Neighbours on the line differ by at least ``gap`` (default ``ceil(n / 2)``: 5
        on a 9x9 grid).
    renbans : sequence of lines
        Distinct digits forming a run of consecutive numbers, in any order.
    palindromes : sequence of lines
        The line reads the same from both ends.
    between_lines : sequence of lines
        The digits inside the line lie strictly between the digits of its two ends.
    region_sum_lines : sequence of lines
        The line's pieces inside each box (or region) all sum to the same total: box
        (region) borders cut the line into segments, so a line that leaves a box and
        comes back makes two pieces there. Without boxes or regions: no constraint.
    entropic_lines : sequence of lines
        Every three consecutive cells hold one low, one middle and one high digit
        (1-3, 4-6, 7-9 on a 9x9 grid; the digits split in three equal runs). A line
        of two cells holds digits of two different runs (as setters' solvers read it).
    modular_lines : sequence of line or (line, m)
        Every ``m`` consecutive cells (default 3) hold digits distinct modulo ``m``;
        on a line shorter than ``m``, all its digits are distinct modulo ``m``.
    zipper_lines : sequence of lines
        Cells equally far from the line's centre sum to the same total; on a line of
        odd length that total is the centre's digit.
    lockout_lines : sequence of (line, gap)
        The two ends differ by at least ``gap``; no other digit on the line lies
        between them or equals one of them.
    quadruples : sequence of (four cells, digits)
        Four cells of a 2x2 square; each listed digit appears there at least as often
        as it is listed.
    greater : sequence of (cell, cell)
        The first cell's digit is larger than the second's (an inequality sign).
    minimums, maximums : sequence of cells
        The cell's digit is smaller (larger) than each of its orthogonal neighbours'.
    extra_regions : sequence of cells
        Each group of cells holds distinct digits (up to ``n`` cells; a region of
        ``n`` cells holds every digit).
    candidates : mapping of cell to digits
        The digits a cell may hold (pencil-mark puzzles).
    negative : subset of ("white", "black", "x", "v"), or True for all four
        The negative constraint: orthogonal neighbours with no dot at all between
        them are not consecutive ("white") and not one twice the other ("black");
        neighbours with neither an X nor a V do not sum to 10 ("x") or to 5 ("v").

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
    diagonals: bool | str = False
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
    arrows: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()
    little_killers: tuple[tuple[tuple[int, ...], int], ...] = ()
    sandwiches: tuple[tuple[tuple[int, ...], int], ...] = ()
    x_sums: tuple[tuple[tuple[int, ...], int], ...] = ()
    skyscrapers: tuple[tuple[tuple[int, ...], int], ...] = ()
    lockout_lines: tuple[tuple[tuple[int, ...], int], ...] = ()
    whispers: tuple[tuple[tuple[int, ...], int | None], ...] = ()
    modular_lines: tuple[tuple[tuple[int, ...], int | None], ...] = ()
    renbans: tuple[tuple[int, ...], ...] = ()
    palindromes: tuple[tuple[int, ...], ...] = ()
    between_lines: tuple[tuple[int, ...], ...] = ()
    region_sum_lines: tuple[tuple[int, ...], ...] = ()
    entropic_lines: tuple[tuple[int, ...], ...] = ()
    zipper_lines: tuple[tuple[int, ...], ...] = ()
    quadruples: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()
    greater: tuple[tuple[int, int], ...] = ()
    minimums: tuple[int, ...] = ()
    maximums: tuple[int, ...] = ()
    extra_regions: tuple[tuple[int, ...], ...] = ()
    candidates: tuple[tuple[int, tuple[int, ...]], ...] = ()
    negative: tuple[str, ...] = ()

    def __post_init__(self):
        put = functools.partial(object.__setattr__, self)
        if self.box is not None:
            try:
                r, c = (operator.index(v) for v in self.box)
            except (TypeError, ValueError):
                fail("box", f"expected a pair of integers (rows, columns), got {self.box!r}")
            put("box", (r, c))
        for name in _FLAGS:
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                fail(name, f"expected True or False, got {value!r}")
            put(name, bool(value))
        put("diagonals", fields.diagonals(self.diagonals))
        if self.regions is not None:
            put("regions", fields.regions(self.regions))
        for name in _SEQUENCES:
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
                fail(name, f"expected a sequence, got {value!r}")
        cages = tuple(fields.cage(v) for v in self.cages)
        seen = {}
        for cells, _ in cages:
            for cell in cells:
                if cell in seen:
                    fail("cages", f"cell {cell} is in two cages")
                seen[cell] = True
        put("cages", cages)
        thermos = tuple(fields.cells("thermos", v) for v in self.thermos)
        for thermo in thermos:
            if not thermo:
                fail("thermos", "a thermometer needs at least one cell")
            fields.distinct("thermos", thermo, "thermometer")
        put("thermos", thermos)
        for name in _LINES[1:]:
            put(name, tuple(fields.line(name, v) for v in getattr(self, name)))
        for name, what in _LINE_NUMBERS.items():
            put(name, tuple(fields.line_and_number(name, v, what) for v in getattr(self, name)))
        for name, what in _LINE_DEFAULTS.items():
            put(name, tuple(fields.line_with_default(name, v, what) for v in getattr(self, name)))
        put("arrows", tuple(fields.arrow(v) for v in self.arrows))
        put(
            "little_killers",
            tuple(
                fields.cage(v, "little_killers", "diagonal", optional_total=False)
                for v in self.little_killers
            ),
        )
        put("quadruples", tuple(fields.quadruple(v) for v in self.quadruples))
        for name in _PAIRS:
            put(name, tuple(fields.pair(name, v) for v in getattr(self, name)))
        for name in _CELL_SETS:
            put(name, tuple(sorted(set(fields.cells(name, getattr(self, name))))))
        put(
            "extra_regions",
            tuple(fields.line("extra_regions", v, least=1) for v in self.extra_regions),
        )
        put("candidates", fields.candidates(self.candidates))
        put("negative", fields.negative(self.negative))
        for first, second in (("odd", "even"), ("minimums", "maximums")):
            both = sorted(set(getattr(self, first)) & set(getattr(self, second)))
            if both:
                fail(first, f"cell {both[0]} is both {first} and {second}")
        if self.latin and self.regions is not None:
            fail("latin", "latin (no boxes) and regions (boxes replaced) exclude each other")

    # -- identity -------------------------------------------------------------

    def _key(self):
        # made once: a Rules is frozen, and every dict or cache lookup hashes it
        key = self.__dict__.get("_identity")
        if key is None:
            regions = None if self.regions is None else self.regions.tobytes()
            key = tuple(
                regions if f.name == "regions" else getattr(self, f.name)
                for f in dataclasses.fields(self)
            )
            object.__setattr__(self, "_identity", key)
        return key

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
        if self.diagonals:
            out.add("diagonals")
        out.update(name for name in (*_SEQUENCES, "candidates", "negative") if getattr(self, name))
        return frozenset(out)

    @property
    def main_diagonal(self) -> bool:
        """Whether the diagonal from the top-left corner holds distinct digits."""
        return self.diagonals is True or self.diagonals == "main"

    @property
    def anti_diagonal(self) -> bool:
        """Whether the diagonal from the bottom-left corner holds distinct digits."""
        return self.diagonals is True or self.diagonals == "anti"

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
        lines, dots, pairs, outside clues, parities, candidates: see
        :data:`CONSTRAINT_RULES`)."""
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
        return checked(self, operator.index(n))

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
            fail("cages", f"a cage map is a string, one character per cell, got {cage_map!r}")
        letters = "".join(cage_map.split())
        n = math.isqrt(len(letters))
        if n * n != len(letters) or not MIN_SIZE <= n <= MAX_SIZE:
            fail(
                "cages",
                f"a cage map needs n * n characters (n from {MIN_SIZE} to {MAX_SIZE}), "
                f"got {len(letters)}",
            )
        order = {}
        for cell, letter in enumerate(letters):
            order.setdefault(letter, []).append(cell)
        if isinstance(sums, (str, bytes)) or not isinstance(sums, (Sequence, np.ndarray)):
            fail("cages", f"sums must be a sequence, one per cage, got {sums!r}")
        problem = disagreement(order, list(sums), n)
        if problem is not None:
            fail("cages", problem)
        cages = tuple((tuple(cells), total) for cells, total in zip(order.values(), sums))
        return cls(cages=cages, **rules)


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
    shape_of_rows = getattr(rules, "shape_of_rows", None)  # a KillerRows: no Rules per row
    if shape_of_rows is not None:
        return shape_of_rows()
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
