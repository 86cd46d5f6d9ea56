"""The Sudoku engines: one contract, one bulk loop, one registry.

An engine is a private module of this package with three ``@njit`` kernels of the same
signatures (``work`` is the engine's own tuple of buffers; everything else is the
same arrays for every engine)::

    allocate_work(table) -> work                   one thread's buffers, reused per puzzle
    solve_one(grid, table, limit, max_nodes, stop, work, solution)
        -> (status, count, nodes, guesses)         one puzzle; first solution into solution
    solve_units(puzzles, table, limit, max_nodes, stop, chunk, next_unit,
                solutions, status, counts, nodes, guesses)
                                                   units of chunk rows, taken from the
                                                   shared counter next_unit (int64[1])

The batch kernel is the engine's entry point into the one bulk loop (``_loop.py``): it
solves the unit of ``chunk`` rows that ``next_unit`` hands out next until none is left,
so one call with a fresh counter (zero) solves every row, and calls made at once on
several threads with one counter share the rows (:func:`run` does so; the kernels
release the GIL). Rows whose ``status`` is INVALID on entry are cleared, not searched;
every other row gets its status, count (up to ``limit``), nodes and guesses, and its
first solution (zeros if none). ``max_nodes`` 0 means no budget.

``stop`` is a stop flag, an int64 array of one element (see :mod:`numbadlx._stopping`),
which another thread sets to non-zero to end the call early. Every engine reads it with
:func:`stop_requested` (an atomic load) inside its search, at every node ("dlx", whose
nodes are a few links each: at one node in 64), and the bulk loop reads it before
each puzzle and each work unit. Once it is set, the puzzle being searched ends as
BUDGET, as when ``max_nodes`` runs out (its nodes and any solution found so far are
kept), and the rows not yet begun are left as they came in (NOT_RUN; INVALID rows not
yet cleared). :func:`run` calls the batch kernel this way: Ctrl-C and a deadline set
the flag.

``table`` is the grid's :class:`~numbadlx.sudoku.geometry.UnitTable`, built once per
shape in Python (:func:`~numbadlx.sudoku.geometry.unit_table`); the engines never
work out rows, columns or boxes themselves::

    grid (n*n,) uint8            table: UnitTable
    +---+---+---+---+            n, box_rows, box_cols   4, 2, 2
    | 0 | 1 | 2 | 3 |            units      (U, n)       u0 = [0 1 2 3]   (rows,
    +---+---+---+---+                                    u4 = [0 4 8 12]   columns,
    | 4 | 5 | 6 | 7 |                                    u8 = [0 1 4 5]    boxes)
    +---+---+---+---+            peers      (n*n, P)     cell 5 -> [0 1 4 6 7 9 13]
    | 8 | 9 |10 |11 |
    +---+---+---+---+            cell_units (n*n, K)     cell 5 -> [u1 u5 u8]
    |12 |13 |14 |15 |            links (L, 2), cell_links (n*n, Q), has_boxes
    +---+---+---+---+
                                 results, row k of each: solutions (N, n*n) uint8,
                                 status (N,) uint8, counts, nodes, guesses (N,) int64

A variant's :class:`~numbadlx.sudoku.Rules` change the table, not the kernels: more
units (regions instead of boxes, diagonals, windows), so a cell may be in more units
than three (short rows of ``cell_units`` and ``peers`` repeat an entry), and links,
pairs of cells that share no unit but may not share a digit (anti-knight, anti-king).
Each registry entry says which rule kinds its engine solves (:attr:`Engine.rules`).

``nodes`` counts the engine's own steps (items chosen for "dlx", states propagated for
"bits" and "bands"); ``guesses`` counts branch points, search levels with two or more
candidates, in every engine.

Beside the kernels, the package exports the propagation on candidate masks that the
"bits" engine searches with, for the other kernels of the package that search Sudoku
grids (the making kernels): :func:`place`, :func:`queue_singles` and
:func:`propagate` (naked and hidden singles, with or without locked candidates) and
:func:`settle_singles` (singles only: a caller of it never compiles locked candidates).

Beside the contract, :func:`record_serial` and :func:`record_bulk` (module
``_dlx_all``) link puzzles as the "dlx" engine does and record up to ``limit`` solutions
of each, for :func:`numbadlx.sudoku.solutions`.

The engines themselves are private modules (``_dlx``, ``_bits``, ``_bands``,
``_cages``); code outside this package reaches them through :data:`REGISTRY` (or
:func:`run`). Adding an engine is one more module with these four kernels and one more
registry entry. An engine whose kernels need more than the unit table says how to build
its table from it (``Engine.rules_table``): the "cages" engine, which solves the
constraint rules of a :class:`~numbadlx.sudoku.Rules` (cage sums, thermometers, dots,
X/V, non-consecutive, odd/even), takes a :class:`ConstraintTable` made by
:func:`constraint_table`. The "bits" engine takes, for rules that add or replace units
or link cells, a :class:`CrossTable` (:func:`crossing_table`): the unit table with the
pairs of units that cross in two or more cells, for locked candidates between any two
units, and each cell's peers as a bit set (:func:`peer_bits`), for the digits' common
peers (:func:`propagate_crossing`). Rows that share every rule but their cages (a file
of Killer Sudokus) take one :class:`CageRows` (:func:`cage_rows`) instead of a table
each: the shared table and every row's cages, packed at once; :func:`run` hands it to
the "cages" engine's per-row kernels (``_cage_rows``), which search each row under its
own table in the same bulk loop.

Examples
--------
>>> import numpy as np
>>> from numbadlx.sudoku.engines import REGISTRY, UNIQUE
>>> from numbadlx.sudoku.geometry import unit_table
>>> table = unit_table(4)
>>> engine = REGISTRY["bits"]
>>> grid = np.array([0, 2, 0, 0, 0, 0, 4, 0, 3, 4, 0, 0, 0, 0, 0, 0], dtype=np.uint8)
>>> solution = np.zeros(16, dtype=np.uint8)
>>> status, count, nodes, guesses = engine.solve_one(
...     grid, table, 2, 0, np.zeros(1, np.int64), engine.allocate_work(table), solution)
>>> status == UNIQUE, solution.tolist()[:4]
(True, [4, 2, 1, 3])
"""

from ._cage_rows import MAX_ROWS_SIZE, CageRows, cage_rows
from ._constraint_tables import ConstraintTable, constraint_table
from ._contract import (
    BUDGET,
    INVALID,
    MULTIPLE,
    NO_SOLUTION,
    NOT_RUN,
    PLACED,
    SOLVED,
    UNIQUE,
    clear_result,
    fetch_add,
    final_status,
    popcount,
    stop_requested,
)
from ._crossings import CrossTable, crossing_table, peer_bits
from ._dlx_all import record_bulk, record_serial
from ._propagation import place, propagate, propagate_crossing, queue_singles, settle_singles
from ._registry import (
    COVER,
    ENGINES,
    REGISTRY,
    Engine,
    make_ready,
    pick_engine,
    run,
    work_unit,
)

__all__ = [
    "Engine",
    "REGISTRY",
    "ENGINES",
    "COVER",
    "pick_engine",
    "run",
    "make_ready",
    "work_unit",
    "NOT_RUN",
    "UNIQUE",
    "SOLVED",
    "MULTIPLE",
    "NO_SOLUTION",
    "INVALID",
    "BUDGET",
    "PLACED",
    "final_status",
    "clear_result",
    "popcount",
    "fetch_add",
    "stop_requested",
    "place",
    "queue_singles",
    "propagate",
    "settle_singles",
    "propagate_crossing",
    "ConstraintTable",
    "constraint_table",
    "CageRows",
    "cage_rows",
    "MAX_ROWS_SIZE",
    "CrossTable",
    "crossing_table",
    "peer_bits",
    "record_serial",
    "record_bulk",
]
