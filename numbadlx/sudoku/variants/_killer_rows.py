"""Killer Sudoku rules for many rows, held as arrays: :class:`KillerRows`.

A file of Killer Sudokus gives each row a cage map and its sums. Made one
:class:`~._rules.Rules` at a time, the rules of a row cost more than solving it; here
the maps of a whole batch are numbered at once with NumPy (cages by first appearance,
as :meth:`Rules.killer <numbadlx.sudoku.Rules.killer>` numbers them), checked at once
against their sums, and kept as a cage number per cell and a list of totals. The
object is a sequence of :class:`~._rules.Rules`, one per row, made when a row is
asked for; :func:`~numbadlx.sudoku.solve` reads the arrays instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from ._rules import Rules

__all__ = ["KillerRows", "cage_numbers"]


def cage_numbers(maps: Sequence[str], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's cage of each of ``maps`` (strings of ``n * n`` characters, cells
    with the same character in one cage), cages numbered from 0 in order of first
    appearance. Returns ``(numbers (B, n*n) int16, cages (B,) int64)``, ``cages`` the
    count of each map.

    Examples
    --------
    >>> numbers, cages = cage_numbers(["aabbccddaabbccdd", "zzzzyyyyxxxxwwww"], 4)
    >>> numbers[0].tolist()[:8], cages.tolist()
    ([0, 0, 1, 1, 2, 2, 3, 3], [4, 4])
    """
    nn = n * n
    rows = len(maps)
    if rows == 0:
        return np.zeros((0, nn), dtype=np.int16), np.zeros(0, dtype=np.int64)
    text = "".join(maps).encode("utf-32-le", "surrogatepass")
    codes = np.frombuffer(text, dtype=np.uint32).astype(np.int64).reshape(rows, nn)
    keys = codes | (np.arange(rows, dtype=np.int64)[:, None] << 32)
    _, first, inverse = np.unique(keys.ravel(), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # the cages in reading order, row by row
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    cages = np.bincount(first[order] // nn, minlength=rows)
    starts = np.concatenate([[0], np.cumsum(cages)[:-1]])
    numbers = rank[inverse.ravel()].reshape(rows, nn) - starts[:, None]
    return numbers.astype(np.int16), cages.astype(np.int64)


class KillerRows(Sequence):
    """The :class:`~._rules.Rules` of a batch of Killer Sudokus, one per row, held as
    arrays: a sequence of Rules (each made when asked for, equal to what
    :meth:`Rules.killer <numbadlx.sudoku.Rules.killer>` makes of the row's map and
    sums, checked for the grid's size).

    Parameters
    ----------
    base : Rules
        The rules every row shares besides its cages, checked for ``n`` (a box shape).
    numbers : (N, n*n) int16 array
        Each cell's cage in its row, numbered from 0 in order of first appearance; a
        row of -1: no cages, the row's rules are ``Rules()`` (a row that could not be
        read).
    totals : (C,) int64 array
        The cages' totals, row by row, in that order.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx.sudoku import Rules
    >>> sums = [3, 7, 4, 6, 5, 5, 4, 6]
    >>> rows = KillerRows.from_maps(["aabbccddeeffgghh"], [sums], 4)
    >>> len(rows), rows[0] == Rules.killer("aabbccddeeffgghh", sums).checked(4)
    (1, True)
    """

    def __init__(self, base: Rules, numbers: np.ndarray, totals: np.ndarray):
        self.base = base
        self.numbers = numbers
        self.totals = totals
        self.n = int(round(numbers.shape[1] ** 0.5))
        self.valid = numbers[:, 0] >= 0
        cages = np.where(self.valid, numbers.max(axis=1, initial=-1) + 1, 0)
        self.row_first = np.concatenate([[0], np.cumsum(cages)]).astype(np.int64)
        if self.row_first[-1] != totals.size:
            raise ValueError(f"{totals.size} totals for {self.row_first[-1]} cages")
        self._made = {}
        self._cages = None

    @classmethod
    def from_maps(cls, maps, sums, n: int, box=None, at=None, rows=None) -> KillerRows:
        """The rows of cage ``maps`` (strings of ``n * n`` characters) and their
        ``sums`` (a list of totals each, in the cages' order), with boxes of ``box``;
        every row must pass :meth:`fits`. ``at``: each map's row among ``rows`` rows
        (the others have no cages: their rules are ``Rules()``); None: row by row.

        Examples
        --------
        >>> sums = [3, 7, 4, 6, 5, 5, 4, 6]
        >>> rows = KillerRows.from_maps(["aabbccddeeffgghh"], [sums], 4, at=[1], rows=2)
        >>> rows.valid.tolist(), rows[0].kinds, rows[1].kinds
        ([False, True], frozenset(), frozenset({'cages'}))
        """
        base = Rules(box=box).checked(n) if len(maps) else Rules()
        numbers, _ = cage_numbers(maps, n)
        if at is not None:
            every = np.full((rows, n * n), -1, dtype=np.int16)
            every[np.asarray(at, dtype=np.int64)] = numbers
            numbers = every
        flat = [t for totals in sums for t in totals]
        return cls(base, numbers, np.array(flat, dtype=np.int64))

    @staticmethod
    def fits(maps, sums, n: int) -> np.ndarray:
        """Which rows' ``maps`` and ``sums`` make valid rules on ``n x n`` grids (a
        bool per row): as many sums as cages, no cage of more than ``n`` cells, each
        total one that the cage's digits reach. A row that does not fit gets its
        message from :meth:`Rules.killer <numbadlx.sudoku.Rules.killer>`.

        Examples
        --------
        >>> sums = [[3, 7, 4, 6, 5, 5, 4, 6], [3, 7], [2, 7, 4, 6, 5, 5, 4, 7]]
        >>> KillerRows.fits(["aabbccddeeffgghh"] * 3, sums, 4)
        array([ True, False, False])
        """
        numbers, cages = cage_numbers(maps, n)
        counted = cages == np.array([len(s) for s in sums], dtype=np.int64)
        ok = counted.copy()
        rows = np.flatnonzero(counted)
        if rows.size:
            first = np.concatenate([[0], np.cumsum(cages[rows])])
            own = numbers[rows].astype(np.int64) + first[:-1, None]
            sizes = np.bincount(own.ravel(), minlength=int(first[-1]))
            totals = np.array([t for k in rows.tolist() for t in sums[k]], dtype=np.int64)
            low = sizes * (sizes + 1) // 2
            high = sizes * (2 * n - sizes + 1) // 2
            wrong = (sizes > n) | (totals < low) | (totals > high)
            cage_row = np.repeat(np.arange(rows.size), cages[rows])
            ok[rows[np.unique(cage_row[wrong])]] = False
        return ok

    # -- the sequence of Rules -------------------------------------------------

    def __len__(self) -> int:
        return self.numbers.shape[0]

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        k = range(len(self))[index]  # an IndexError out of range, negative from the end
        made = self._made.get(k)
        if made is None:
            made = self._made[k] = self._rules(k)
        return made

    def _rules(self, k: int) -> Rules:
        if not self.valid[k]:
            return Rules()
        numbers = self.numbers[k]
        order = np.argsort(numbers, kind="stable")
        ends = np.cumsum(np.bincount(numbers)).tolist()
        cells = order.tolist()
        totals = self.totals[self.row_first[k] : self.row_first[k + 1]].tolist()
        begins = [0, *ends[:-1]]
        cages = tuple((tuple(cells[b:e]), t) for b, e, t in zip(begins, ends, totals))
        return dataclasses.replace(self.base, cages=cages)

    def __eq__(self, other):
        if isinstance(other, (KillerRows, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None

    def __repr__(self):
        n = self.n
        return f"KillerRows({len(self)} rows of {n}x{n} cages, {int(self.valid.sum())} valid)"

    def shape_of_rows(self):
        """The box shape a reader takes for these rows (see
        :func:`~numbadlx.sudoku.variants.reading_box`): the rows' own when every row
        has cages, else None (a row without cages has the default ``Rules()``)."""
        return self.base.box if len(self) and self.valid.all() else None

    # -- arrays ----------------------------------------------------------------

    def cage_arrays(self):
        """The cages of every row as flat arrays: ``(row_first (N+1,), cage_start
        (C+1,), cage_cells, totals (C,))``, row ``k``'s cages ``row_first[k]`` to
        ``row_first[k + 1] - 1``, each cage's cells in increasing order.

        Examples
        --------
        >>> rows = KillerRows.from_maps(["aabbccddeeffgghh"], [[3, 7, 4, 6, 5, 5, 4, 6]], 4)
        >>> [a.tolist()[:5] for a in rows.cage_arrays()]
        [[0, 8], [0, 2, 4, 6, 8], [0, 1, 2, 3, 4], [3, 7, 4, 6, 5]]
        """
        if self._cages is None:
            nn = self.numbers.shape[1]
            valid = np.flatnonzero(self.valid)
            own = self.numbers[valid].astype(np.int64) + self.row_first[valid][:, None]
            order = np.argsort(own.ravel(), kind="stable")
            sizes = np.bincount(own.ravel(), minlength=self.totals.size)
            start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
            self._cages = (self.row_first, start, (order % nn).astype(np.int64), self.totals)
        return self._cages

    def take(self, rows) -> KillerRows:
        """The rows ``rows`` (an index array) of these, in that order.

        Examples
        --------
        >>> rows = KillerRows.from_maps(["aabbccddeeffgghh"] * 2, [[3, 7, 4, 6, 5, 5, 4, 6]] * 2, 4)
        >>> len(rows.take([1])), rows.take([1])[0] == rows[0]
        (1, True)
        """
        rows = np.asarray(rows, dtype=np.int64)
        first = self.row_first
        pieces = [self.totals[first[k] : first[k + 1]] for k in rows.tolist()]
        totals = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
        return KillerRows(self.base, self.numbers[rows], totals.astype(np.int64))

    @classmethod
    def concatenate(cls, parts) -> KillerRows:
        """The rows of ``parts`` (KillerRows of one size and base: that of the parts
        with cages), one after another."""
        parts = list(parts)
        based = [p.base for p in parts if p.valid.any()]
        return cls(
            based[0] if based else parts[0].base,
            np.concatenate([p.numbers for p in parts]),
            np.concatenate([p.totals for p in parts]),
        )
