"""Solving under variant rules: the part of :func:`~numbadlx.sudoku.solve` behind
``rules=``.

Puzzles are grouped by rule set (one group for one :class:`Rules`; a list of rules, one
per puzzle, makes a group per distinct set). Each group gets its engine (``"auto"``
picks per rule set; a named engine must solve the rules) and its table (the unit table
of the rules, or the one the engine builds from it), and runs through the same bulk
loop, budgets and deadline as classic puzzles; results go back to the input order.
Rules no registered engine solves run on :data:`~numbadlx.sudoku.engines.COVER`: each
puzzle's exact-cover model searched by the generic kernels of :mod:`numbadlx.core`.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._stopping import clock
from . import engines, geometry
from ._cover_rules import clashing_givens
from ._deadline import solve_by_deadline
from .cover import decode_cover, to_exact_cover
from .engines import COVER, MAX_ROWS_SIZE, REGISTRY, CageRows, cage_rows, pick_engine
from .engines import run as run_engine
from .variants import KillerRows, Rules

__all__ = ["rule_groups", "solve_rules"]


def rule_groups(rules, n_puzzles, n, box, rows_tables=False):
    """``[(checked rules, rows), ...]``: the puzzles of each distinct rule set, rows in
    increasing order, groups in order of first appearance. With ``rows_tables`` (for
    :func:`solve_rules` only), the rows of a :class:`KillerRows` that hold cages make
    one group under the rules of the first of them (each row's own cages are read from
    the arrays), where the grid is small enough for
    :func:`~.engines._cage_rows.cage_rows`."""
    if isinstance(rules, KillerRows):
        if len(rules) != n_puzzles:
            raise ValueError(f"rules: got {len(rules)} rule sets for {n_puzzles} puzzles")
        if rows_tables and n <= MAX_ROWS_SIZE and rules.valid.any():
            return _killer_groups(rules, n, box)
        rules = list(rules)
    if isinstance(rules, Rules):
        per_row = None
        distinct = [rules]
    else:
        try:
            per_row = list(rules)
        except TypeError:
            raise TypeError(
                f"rules must be a Rules or a sequence of Rules, got {type(rules).__name__}"
            ) from None
        if len(per_row) != n_puzzles:
            raise ValueError(f"rules: got {len(per_row)} rule sets for {n_puzzles} puzzles")
        for k, item in enumerate(per_row):
            if not isinstance(item, Rules):
                raise TypeError(f"rules[{k}] is a {type(item).__name__}, not a Rules")
        distinct = list(dict.fromkeys(per_row))
    checked = {}
    for item in distinct:
        shaped = item
        if box is not None and item.box is None:
            shaped = dataclasses.replace(item, box=tuple(box))
        checked[item] = shaped.checked(n)
    if per_row is None:
        return [(checked[rules], np.arange(n_puzzles))]
    index = {item: k for k, item in enumerate(distinct)}
    keys = np.array([index[item] for item in per_row], dtype=np.int64)
    return [(checked[item], np.flatnonzero(keys == index[item])) for item in distinct]


def _killer_groups(rules, n, box):
    """:func:`rule_groups` of a :class:`KillerRows`: its rows with cages, and the others
    (``Rules()``), in order of first appearance."""
    caged = np.flatnonzero(rules.valid)
    groups = [(rules[int(caged[0])].checked(n), caged)]
    others = np.flatnonzero(~rules.valid)
    if others.size:
        plain = Rules() if box is None else Rules(box=tuple(box))
        groups.insert(0 if others[0] < caged[0] else 1, (plain.checked(n), others))
    return groups


def _table(name, n, rules):
    table = geometry.unit_table(n, rules=rules)
    entry = REGISTRY.get(name)
    return table if entry is None else entry.table_for(table, rules)


def solve_rules(
    grid,
    rules,
    n,
    box,
    *,
    engine,
    limit,
    max_nodes,
    chunk,
    threads,
    deadline,
    progress,
    out,
    groups=None,
):
    """Solve every row of ``grid`` under ``rules`` into ``out = (solutions, status,
    counts, nodes, guesses)`` (rows INVALID on entry stay so); ``groups``: what
    :func:`rule_groups` gives for them, when the caller has it already. Returns
    ``(engine names, box)``: the engines that ran, in order, and the box shape of the
    first rule set."""
    if groups is None:
        groups = rule_groups(rules, grid.shape[0], n, box, rows_tables=True)
    names = []
    total = grid.shape[0]
    done = 0
    for checked, rows in groups:
        name = pick_engine(engine, n, checked.box, rules=checked)
        if name not in names:
            names.append(name)
        part = tuple(np.ascontiguousarray(array[rows]) for array in out)
        puzzles = np.ascontiguousarray(grid[rows])
        if name == COVER:
            _solve_cover(puzzles, checked, n, limit, max_nodes, deadline, part)
        else:
            if isinstance(rules, KillerRows) and checked.cages and name == "cages":
                table = _killer_table(rules, rows, checked)
            else:
                table = _table(name, n, checked)
            if deadline is not None:
                solve_by_deadline(
                    name, puzzles, table, limit, max_nodes, chunk, threads, deadline, part, None
                )
            else:
                block = max(chunk * threads * 16, 4096)
                for begin in range(0, len(rows), block):
                    end = min(len(rows), begin + block)
                    run_engine(
                        name,
                        puzzles[begin:end],
                        _rows_of(table, begin, end),
                        limit,
                        0 if max_nodes is None else int(max_nodes),
                        chunk,
                        threads,
                        tuple(array[begin:end] for array in part),
                    )
        for array, piece in zip(out, part):
            array[rows] = piece
        done += len(rows)
        if progress is not None:
            progress(done, total)
    return names, groups[0][0].box


def _killer_table(rules, rows, checked):
    """The :class:`~.engines._cage_rows.CageRows` of ``rows`` of ``rules`` (a
    :class:`KillerRows`): the tables of the rules they share (``checked`` less its
    cages), each row with its own cages."""
    n = rules.n
    shared = dataclasses.replace(checked, cages=())
    units = geometry.unit_table(n, rules=shared)
    row_first, cage_start, cage_cells, totals = rules.take(rows).cage_arrays()
    table = REGISTRY["cages"].table_for(units, shared)
    return cage_rows(table, units, row_first, cage_start, cage_cells, totals)


def _rows_of(table, begin, end):
    """The table of puzzles ``begin`` to ``end - 1``: ``table`` itself, or its rows
    where it holds one table per row."""
    return table.for_rows(slice(begin, end)) if isinstance(table, CageRows) else table


def _solve_cover(puzzles, rules, n, limit, max_nodes, deadline, out):
    """The :data:`COVER` engine: each puzzle's exact-cover model, searched by
    :class:`numbadlx.core.search.Search` up to ``limit`` solutions."""
    from ..core.search import Search, decode_solution  # the generic search, when needed

    solutions, status, counts, nodes, guesses = out
    table = geometry.unit_table(n, rules=rules)
    for k in range(puzzles.shape[0]):
        solutions[k] = 0
        counts[k] = nodes[k] = guesses[k] = 0
        if status[k] == engines.INVALID:
            continue
        puzzle = puzzles[k]
        if clashing_givens(puzzle, table):
            status[k] = engines.INVALID
            continue
        left = None if deadline is None else deadline - clock()
        if left is not None and left <= 0:
            status[k] = engines.BUDGET
            continue
        problem, cells, digits = to_exact_cover(puzzle, rules=rules)
        search = Search(problem, max_nodes=max_nodes, timeout=left)
        code, found, record = search.run(limit, 1)
        counts[k] = found
        nodes[k] = int(search.summary().nodes)
        if found:
            solutions[k] = decode_cover(
                puzzle, decode_solution(record[0]), cells, digits, rules=rules
            )
        if search.status == "budget":
            status[k] = engines.BUDGET
        elif found == 0:
            status[k] = engines.NO_SOLUTION
        elif found >= 2:
            status[k] = engines.MULTIPLE
        else:
            status[k] = engines.SOLVED if limit == 1 else engines.UNIQUE
