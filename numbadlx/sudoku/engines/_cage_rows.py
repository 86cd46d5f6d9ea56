"""Constraint tables for many rows at once: rows that share every rule but their cages.

A file of Killer Sudokus gives each row its own cages and nothing else of its own.
Building a :class:`~._constraint_tables.ConstraintTable` per row in Python costs more
than solving the row; here the cages of all rows are packed in one go into
:class:`CageRows`: the shared table (units, peers, every other rule) and the cage
fields of all rows concatenated, row ``k``'s cages (its own, then the innies and
outies its sums imply) being ``first[k]`` to ``last[k] - 1``. Offsets in
``cage_start`` and ``combo_start`` point into the whole ``cage_cells`` and ``combos``,
so that row ``k``'s table is the shared one with its cage fields replaced by slices
(:func:`row_table`): the same arrays, cage by cage and combination by combination, as
:func:`~._constraint_tables.constraint_table` builds for that row's rules alone.

The kernel :func:`solve_units` takes a :class:`CageRows` where the "cages" engine's own
takes one table, and runs the same work-unit loop (:mod:`._loop`) with the same
``solve_one``: each row is searched under its own table.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from numba import njit

from . import _cages
from ._constraint_tables import ConstraintTable, _derive, _subsets
from ._loop import take_units_of

__all__ = ["CageRows", "MAX_ROWS_SIZE", "cage_rows", "row_table", "solve_units"]

#: The largest grid whose cage combinations come from one table of every digit set
#: (``2 ** n`` of them); larger grids take one table per row.
MAX_ROWS_SIZE = 16


class CageRows(NamedTuple):
    """The constraint tables of many rows that differ in their cages only.

    ``table`` is the shared :class:`~._constraint_tables.ConstraintTable` (its own cage
    fields unused); row ``k``'s cages are ``first[k]`` to ``last[k] - 1`` of the cage
    fields, whose offsets point into the whole ``cage_cells`` and ``combos`` (see the
    module docstring). Read-only arrays.
    """

    table: ConstraintTable
    first: np.ndarray  # (N,) int64
    last: np.ndarray  # (N,) int64
    cage_start: np.ndarray  # (C + 1,) int32
    cage_cells: np.ndarray  # int32
    combo_start: np.ndarray  # (C + 1,) int32
    combos: np.ndarray  # uint64
    cage_total: np.ndarray  # (C,) int32

    @property
    def n(self) -> int:
        """The grid's size."""
        return self.table.n

    def for_rows(self, rows) -> CageRows:
        """The tables of ``rows`` (an index array or a slice) of these, in that order."""
        return self._replace(first=self.first[rows], last=self.last[rows])


@functools.cache
def _combo_lookup(n: int):
    """Every digit set of 1..n by (size, total): ``(starts, masks)``, the sets of key
    ``size * (whole + 1) + total`` being ``masks[starts[key]:starts[key + 1]]`` in
    increasing order (as :func:`~._constraint_tables.cage_combos` gives them)."""
    masks, sizes, sums = _subsets(n)
    whole = n * (n + 1) // 2
    keys = sizes * (whole + 1) + sums
    order = np.argsort(keys, kind="stable")
    starts = np.searchsorted(keys[order], np.arange((n + 1) * (whole + 1) + 1))
    return starts.astype(np.int64), masks[order].astype(np.uint64)


@njit(cache=True, nogil=True)
def _pack(n, units, row_first, cage_start, cage_cells, totals, lookup_start, lookup):
    """Each row's cages, then the cages its sums imply (:func:`_derive`), with their
    digit sets. Returns ``(first, cage_start, cage_cells, combo_start, combos,
    cage_total)`` of :class:`CageRows` (``first`` with one more entry, the end)."""
    rows = row_first.shape[0] - 1
    given = row_first[rows]
    whole = n * (n + 1) // 2
    most = given + rows * 2 * units.shape[0]
    first = np.empty(rows + 1, dtype=np.int64)
    out_start = np.empty(most + 1, dtype=np.int32)
    out_cells = np.empty(cage_start[given] + rows * 2 * units.shape[0] * n, dtype=np.int32)
    out_total = np.empty(most, dtype=np.int32)
    sets = 0
    at = 0
    out_start[0] = 0
    for r in range(rows):
        first[r] = sets
        b = row_first[r]
        e = row_first[r + 1]
        for c in range(b, e):
            for j in range(cage_start[c], cage_start[c + 1]):
                out_cells[at] = cage_cells[j]
                at += 1
            out_total[sets] = totals[c]
            sets += 1
            out_start[sets] = at
        if e > b:
            found, sizes, sums = _derive(
                n,
                units,
                cage_start[b : e + 1] - cage_start[b],
                cage_cells[cage_start[b] : cage_start[e]],
                totals[b:e],
            )
            for d in range(found.shape[0]):
                for j in range(sizes[d]):
                    out_cells[at] = found[d, j]
                    at += 1
                out_total[sets] = sums[d]
                sets += 1
                out_start[sets] = at
    first[rows] = sets
    combo_start = np.empty(sets + 1, dtype=np.int32)
    combo_start[0] = 0
    count = 0
    for s in range(sets):
        size = out_start[s + 1] - out_start[s]
        total = out_total[s]
        if 0 <= total <= whole and size <= n:
            key = size * (whole + 1) + total
            count += lookup_start[key + 1] - lookup_start[key]
        combo_start[s + 1] = count
    combos = np.empty(count, dtype=np.uint64)
    for s in range(sets):
        size = out_start[s + 1] - out_start[s]
        total = out_total[s]
        if combo_start[s + 1] > combo_start[s]:
            key = size * (whole + 1) + total
            begin = lookup_start[key]
            for j in range(combo_start[s + 1] - combo_start[s]):
                combos[combo_start[s] + j] = lookup[begin + j]
    return first, out_start[: sets + 1], out_cells[:at], combo_start, combos, out_total[:sets]


def _readonly(array):
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


def cage_rows(table: ConstraintTable, units, row_first, cage_start, cage_cells, totals) -> CageRows:
    """The :class:`CageRows` of rows whose rules are those of ``table`` (a constraint
    table without cages) and their own cages, each with a total: row ``k``'s cages are
    ``row_first[k]`` to ``row_first[k + 1] - 1``, cage ``c``'s cells (in increasing
    order) ``cage_cells[cage_start[c]:cage_start[c + 1]]`` and its total
    ``totals[c]``. ``units``: the rules' unit table (innies and outies are found in
    its units, as :func:`~._constraint_tables.constraint_table` finds them). Grids up
    to :data:`MAX_ROWS_SIZE`.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx.sudoku import Rules, geometry
    >>> from numbadlx.sudoku.engines import constraint_table
    >>> units = geometry.unit_table(4)
    >>> shared = constraint_table(units, Rules().checked(4))
    >>> rows = cage_rows(shared, units, np.array([0, 1, 2]), np.array([0, 2, 4]),
    ...                  np.array([0, 1, 0, 4]), np.array([3, 4]))
    >>> rows.first.tolist(), rows.last.tolist(), rows.cage_total.tolist()
    ([0, 3], [3, 6], [3, 7, 7, 4, 6, 6])
    """
    n = table.n
    if n > MAX_ROWS_SIZE:
        raise ValueError(f"cage rows: grids up to {MAX_ROWS_SIZE}x{MAX_ROWS_SIZE}, got {n}x{n}")
    lookup_start, lookup = _combo_lookup(n)
    first, start, cells, combo_start, combos, totals = _pack(
        n,
        units.units,
        np.ascontiguousarray(row_first, dtype=np.int64),
        np.ascontiguousarray(cage_start, dtype=np.int64),
        np.ascontiguousarray(cage_cells, dtype=np.int64),
        np.ascontiguousarray(totals, dtype=np.int64),
        lookup_start,
        lookup,
    )
    return CageRows(
        table=table,
        first=_readonly(first[:-1]),
        last=_readonly(first[1:]),
        cage_start=_readonly(start),
        cage_cells=_readonly(cells),
        combo_start=_readonly(combo_start),
        combos=_readonly(combos),
        cage_total=_readonly(totals),
    )


@njit(cache=True, nogil=True, inline="always")
def row_table(rows, k):
    """Row ``k``'s :class:`~._constraint_tables.ConstraintTable`: the shared one with
    the row's cage fields."""
    t = rows.table
    b = rows.first[k]
    e = rows.last[k]
    return ConstraintTable(
        t.n,
        t.box_rows,
        t.box_cols,
        t.units,
        t.peers,
        t.cell_units,
        t.locked,
        t.allowed,
        rows.cage_start[b : e + 1],
        rows.cage_cells,
        rows.combo_start[b : e + 1],
        rows.combos,
        rows.cage_total[b:e],
        t.thermo_start,
        t.thermo_cells,
        t.pair_a,
        t.pair_b,
        t.pair_rel,
        t.relation,
        t.pair_back,
        t.sum_start,
        t.sum_cells,
        t.sum_coef,
        t.sum_group,
        t.sum_total,
        t.sum_exact,
        t.tri_mid,
        t.tri_a,
        t.tri_b,
        t.tri_ra,
        t.tri_rb,
        t.line_kind,
        t.line_number,
        t.line_start,
        t.line_cells,
        t.line_need,
        t.line_sets,
        t.line_set_start,
        t.total_line,
        t.total_seg,
        t.total_cells,
    )


@njit(cache=True, nogil=True)
def allocate_work(rows):
    """One thread's buffers (the "cages" engine's, for the shared table: what they hold
    per table, the rule links and ordering groups, comes from relations and
    thermometers, which the rows share)."""
    return _cages.allocate_work(rows.table)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def solve_units(
    puzzles,
    rows,
    limit,
    max_nodes,
    stop,
    chunk,
    next_unit,
    solutions,
    status,
    counts,
    nodes,
    guesses,
):
    """The rows of ``puzzles``, row ``k`` under its own table of ``rows``, in units of
    ``chunk`` rows taken from the shared counter ``next_unit`` until none is left, on
    the calling thread; calls made at once on several threads with one counter share
    the rows (see :mod:`._loop`)."""
    work = allocate_work(rows)
    take_units_of(
        _cages.solve_one,
        row_table,
        work,
        next_unit,
        chunk,
        puzzles,
        rows,
        limit,
        max_nodes,
        stop,
        solutions,
        status,
        counts,
        nodes,
        guesses,
    )
