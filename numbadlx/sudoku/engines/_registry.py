"""The registry of engines: name -> :class:`Engine`, what ``engine="auto"`` reads."""

from __future__ import annotations

import math
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._compiling import light_cache_load
from ..._stopping import call_on_lanes, call_stoppable, new_flag
from ..shape import box_shape
from ..variants import RULE_KINDS
from . import _bands, _bits, _cage_rows, _cages, _dlx
from ._constraint_tables import constraint_table
from ._crossings import crossing_table
from ._line_tables import LINE_RULES


@dataclass(frozen=True)
class Engine:
    """One Sudoku engine: its kernels (every one with the contract's signature, see
    :mod:`numbadlx.sudoku.engines`) and the shapes it supports.

    Attributes
    ----------
    name : str
        The name ``solve(engine=...)`` takes.
    summary : str
        One line on how it searches.
    allocate_work, solve_one, solve_units : Numba kernels
        The contract's three kernels.
    shapes : str
        The shapes it supports, in words ("every shape", "9x9 with 3x3 boxes").
    fits : callable
        ``fits(n, (box_rows, box_cols))``: whether it solves that shape.
    auto_rank : int or None
        Order of preference for ``engine="auto"`` among the engines that fit a shape
        (lowest first); None for an engine "auto" never picks.
    row_seconds : callable
        ``row_seconds(n)``: a rough, rather high guess of one thread's time for a
        typical ``n x n`` puzzle, from which :meth:`serial_up_to` follows.
    node_seconds : callable
        ``node_seconds(n)``: a deadline planner's deliberately high guess of one search
        node's cost on ``n x n`` grids.
    rules : frozenset of str
        The variant rule kinds it solves (names of
        :data:`~numbadlx.sudoku.variants.RULE_KINDS`); empty: classic grids only.
    rules_table : callable or None
        ``rules_table(unit_table, rules)``: the table its kernels take for puzzles
        under ``rules`` (checked), built from the unit table of those rules; None: the
        unit table itself.
    unit_rules_table : callable or None
        ``unit_rules_table(unit_table, rules)``: the table its kernels take for puzzles
        under rules that add or replace units or add peers (a classic call never builds
        it); None: the unit table itself.
    """

    name: str
    summary: str
    allocate_work: Callable
    solve_one: Callable
    solve_units: Callable
    shapes: str
    fits: Callable[[int, tuple[int, int]], bool]
    auto_rank: int | None
    row_seconds: Callable[[int], float]
    node_seconds: Callable[[int], float]
    rules: frozenset = frozenset()
    rules_table: Callable | None = None
    unit_rules_table: Callable | None = None

    def serial_up_to(self, n: int) -> int:
        """The most ``n x n`` puzzles a call runs on the calling thread alone: those
        whose expected work (:attr:`row_seconds` each) is at most
        :data:`SERIAL_SECONDS`; calls with one thread always do. At least one.

        Examples
        --------
        >>> REGISTRY["bands"].serial_up_to(9), REGISTRY["bits"].serial_up_to(16)
        (100, 4)
        """
        return max(1, round(SERIAL_SECONDS / self.row_seconds(n)))

    def solves(self, kinds) -> bool:
        """Whether it solves puzzles under rules of these kinds (a set of names)."""
        return frozenset(kinds) <= self.rules

    def table_for(self, unit_table, rules):
        """The table its kernels take for puzzles under ``rules`` (checked), whose unit
        table is ``unit_table``."""
        if self.rules_table is not None:
            return self.rules_table(unit_table, rules)
        if self.unit_rules_table is not None and (rules.unit_rules or rules.peer_rules):
            return self.unit_rules_table(unit_table, rules)
        return unit_table


# The rules the unit table carries: any unit of n cells, and links between cells
_TABLE_RULES = frozenset(
    {"regions", "latin", "diagonals", "windoku", "disjoint", "anti_knight", "anti_king"}
)

# The rules the "cages" engine propagates (every kind of RULE_KINDS it takes)
_CONSTRAINT_ENGINE_RULES = _TABLE_RULES | frozenset(
    {"non_consecutive", "cages", "thermos", "white_dots", "black_dots", "x_pairs", "v_pairs",
     "odd", "even", "extra_regions", "candidates", "negative", "greater", "minimums",
     "maximums", "whispers", "palindromes", "entropic_lines", "modular_lines", "arrows",
     "little_killers", "region_sum_lines", "zipper_lines"}
) | LINE_RULES  # fmt: skip
assert _CONSTRAINT_ENGINE_RULES <= RULE_KINDS

#: The expected work, in seconds, up to which a call runs on the calling thread alone
#: (see :meth:`Engine.serial_up_to`): a second thread saves at most half of it, and
#: handing it work costs tens of microseconds (more on a busy machine).
SERIAL_SECONDS = 0.001

#: What ``engine="auto"`` runs for rules no registered engine solves: the puzzles'
#: exact-cover models (:func:`~numbadlx.sudoku.to_exact_cover`) searched one by one by
#: the generic kernels of :mod:`numbadlx.core` (correct for every rule, not fast).
COVER = "cover"


def _classic(n, box):
    return n == 9 and tuple(box) == (3, 3)


def _entry(name, module, **fields):
    # the kernels called from Python load from Numba's cache without readying its
    # compiler (see light_cache_load): most of a warm first call's time
    return Engine(
        name=name,
        allocate_work=module.allocate_work,
        solve_one=module.solve_one,
        solve_units=light_cache_load(module.solve_units),
        **fields,
    )


# What "auto" runs, from benchmarks/engines.py: "bands" on 9x9 with 3x3 boxes (1.7-3.7x
# "bits" and 1.6-6.3x "dlx" on every public 9x9 set); "bits" on every other shape. On
# random grids with holes (easy, many solutions) "bits" is 0.95-3.3x "dlx" from 4x4 to
# 36x36, closest (about even) on 10x10 to 16x16; on the hard 16x16 set it is 11x "dlx",
# and the third 25x25 puzzle, past 5M "dlx" nodes, takes it 125.
#
# Under the unit and peer rules (diagonals, windoku, disjoint groups, regions,
# anti-knight, anti-king) "auto" takes "bits" before "cages": on minimal puzzles made
# by sudoku.generate (150 per rule set, 9x9, limit 2, one thread) "cages" took 1.5 to
# 5.2 times its CPU time (X 3.0x, anti-knight 3.5x, anti-knight plus diagonals 3.9x,
# diagonals plus windoku 5.2x, disjoint groups 1.5x), and 1.1 to 2.0x on puzzles with
# 22-26 givens. "bits" was weak only where few givens leave many solutions, which its
# branch on cells alone under these rules fixed (see _bits_choose._UNITS_WEIGHED_UP_TO):
# the empty 9x9 under anti-knight and both diagonals, 10,532 nodes (0.03 s) on "bits",
# 102,255 (0.17-0.26 s) on "cages"; the digit branch takes turns with it (see
# _bits._FIRST_RUN) for grids with no solution such as the empty 9x9 under
# anti-knight, anti-king and both diagonals (16,549 nodes on "bits").
#
# Small calls run on the calling thread alone: a second thread saves at most half of
# their work, and handing it its share costs tens of microseconds. A call is small
# when its puzzles' expected work, each at the engine's row_seconds (from the rates
# of benchmarks/engines.py, on the high side: "bands" solves 9x9 sets at 1-9 us a
# puzzle on average, 80 us on the hardest; "bits" at 3-55 us on 9x9 and 250 us on the
# hard 16x16 ones; "dlx" 2-11x "bits"), is at most SERIAL_SECONDS. Larger calls run the
# same kernel on more threads (see run): there is no second kernel to compile.
REGISTRY = types.MappingProxyType(
    {
        "dlx": _entry(
            "dlx",
            _dlx,
            summary="Dancing Links (Algorithm X) over the pruned exact cover",
            shapes="every shape",
            fits=lambda n, box: True,
            auto_rank=None,
            row_seconds=lambda n: 3e-6 * n * n,
            node_seconds=lambda n: 2e-8 * n,  # a node is one item chosen
            rules=_TABLE_RULES,
        ),
        "bits": _entry(
            "bits",
            _bits,
            summary="candidate bit masks: singles, locked candidates, a stack of copies",
            shapes="every shape",
            fits=lambda n, box: True,
            auto_rank=1,
            row_seconds=lambda n: 1e-6 * n * n,
            node_seconds=lambda n: 4e-8 * n * n,  # a node is a whole propagation
            rules=_TABLE_RULES,
            unit_rules_table=crossing_table,
        ),
        "bands": _entry(
            "bands",
            _bands,
            summary="per-digit band masks and a permutation rule",
            shapes="9x9 puzzles with 3x3 boxes",
            fits=_classic,
            auto_rank=0,
            row_seconds=lambda n: 1e-5,
            node_seconds=lambda n: 4e-8 * n * n,
        ),
        "cages": _entry(
            "cages",
            _cages,
            summary="candidate bit masks with sums, relations, thermos and lines",
            shapes="every shape",
            fits=lambda n, box: True,
            auto_rank=2,  # after "bands" and "bits": "auto" takes it for what they lack
            row_seconds=lambda n: 2e-6 * n * n,
            node_seconds=lambda n: 8e-8 * n * n,
            rules=_CONSTRAINT_ENGINE_RULES,
            rules_table=constraint_table,
        ),
    }
)

# The "cages" engine's kernel for a table per row (rows that differ in their cages)
_ROW_KERNEL = light_cache_load(_cage_rows.solve_units)

#: Engine names: ``"dlx"`` is Dancing Links (Algorithm X on the pruned exact cover),
#: ``"bits"`` candidate bit masks with locked candidates, for every shape, ``"bands"``
#: the per-digit band masks of 9x9 puzzles with 3x3 boxes, ``"cages"`` candidate bit
#: masks with the constraint rules of variants (cages, thermometers, pairs, parity);
#: ``"auto"`` picks the fastest for the shape and rules (see :data:`REGISTRY`).
ENGINES = ("auto", *REGISTRY)


def pick_engine(engine: str, n: int, box: tuple[int, int] | None = None, rules: Any = None) -> str:
    """The engine that ``engine`` means for ``n x n`` puzzles with boxes of ``box``
    (rows, columns; None: the default shape of :func:`~numbadlx.sudoku.box_shape`)
    under ``rules`` (a :class:`~numbadlx.sudoku.Rules`; None: classic):
    ``"dlx"``, ``"bits"``, ``"bands"`` or another registered engine, or
    :data:`COVER` when ``engine="auto"`` finds no engine for the rules.

    Raises ValueError for a name not in :data:`ENGINES`, a size or box
    :func:`~numbadlx.sudoku.box_shape` does not support, or an engine that does not
    solve that shape (``"bands"`` for a shape other than 9x9 with 3x3 boxes) or those
    rules.

    Examples
    --------
    >>> pick_engine("auto", 9), pick_engine("auto", 25), pick_engine("dlx", 9)
    ('bands', 'bits', 'dlx')
    >>> from numbadlx.sudoku import Rules
    >>> pick_engine("auto", 9, rules=Rules(diagonals=True))
    'bits'
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    kinds = frozenset() if rules is None else rules.kinds
    if kinds:
        box = rules.checked(n).box if box is None else box_shape(n, box)
    else:
        box = box_shape(n, box)  # the size and box must exist
    shape = box if box is not None else (1, n)
    if engine == "auto":
        ranked = [
            e
            for e in REGISTRY.values()
            if e.auto_rank is not None and e.solves(kinds) and e.fits(n, shape)
        ]
        if not ranked:
            return COVER
        return min(ranked, key=lambda e: e.auto_rank).name
    entry = REGISTRY[engine]
    if not entry.solves(kinds):
        missing = ", ".join(sorted(kinds - entry.rules))
        able = [e.name for e in REGISTRY.values() if e.solves(kinds)]
        hint = f'engine="{able[0]}" or "auto"' if able else 'engine="auto"'
        raise ValueError(f'engine "{engine}" does not solve the rules {missing} (use {hint})')
    if not entry.fits(n, shape):
        raise ValueError(
            f'engine "{engine}" solves {entry.shapes} only; got {n}x{n} with '
            f'{box[0]}x{box[1]} boxes (use engine="bits" or "auto")'
        )
    return engine


def work_unit(chunk: int, rows: int, threads: int) -> int:
    """Puzzles per work unit for one kernel call of ``rows`` puzzles: ``chunk``, or fewer
    so that each thread gets at least 64 units (a small set of hard puzzles in a few
    big units leaves one thread waiting for the other's last unit)."""
    return max(1, min(chunk, -(-rows // (64 * threads))))


def run(
    engine, puzzles, table, limit, max_nodes, chunk, threads, out, deadline=None, meanwhile=None
):
    """Solve every row of ``puzzles`` with engine ``engine``'s kernel into
    ``out = (solutions, status, counts, nodes, guesses)``; True if ``deadline`` stopped
    it first.

    ``max_nodes`` 0 is no budget; ``chunk`` bounds the rows of a work unit (see
    :func:`work_unit`); ``threads`` is the thread count. With one thread, or a call of
    at most the engine's :meth:`Engine.serial_up_to` puzzles, the kernel runs once,
    alone; otherwise it runs on ``threads`` threads at once
    (:func:`numbadlx._stopping.call_on_lanes`), the calls taking units of rows from
    one shared counter: the same kernel, so a call on two threads compiles nothing
    more than a call on one.

    The kernel runs with a fresh stop flag through
    :func:`numbadlx._stopping.call_stoppable` (on a helper thread, or without a
    deadline on the calling main thread): Ctrl-C sets the flag, the kernel
    returns within a search node and KeyboardInterrupt is raised here; at ``deadline``
    (a :func:`numbadlx._stopping.clock` value, which stands still while kernels
    compile; None: none) the flag is set too, and the call returns with the puzzle
    being searched as BUDGET and the rows not reached as they were (NOT_RUN). Call
    :func:`make_ready` first to compile or load the kernel outside the call.

    ``meanwhile``, a function, runs on the calling thread while the other threads
    solve (before the kernel on one thread): work of the caller's that the search
    does not wait for, done in its shadow.
    """
    with new_flag() as stop:
        kernel, lanes, args = _kernel_call(
            engine, puzzles, table, limit, max_nodes, stop, chunk, threads, out
        )
        if lanes == 1:
            if meanwhile is not None:
                meanwhile()
            return call_stoppable(kernel, stop, *args, deadline=deadline)[1]
        return call_on_lanes(kernel, stop, lanes, *args, deadline=deadline, meanwhile=meanwhile)


def make_ready(engine, puzzles, table, limit, max_nodes, chunk, threads, out):
    """Compile (or load from Numba's cache) the kernel that :func:`run` would call with
    these arguments; the seconds it took (0.0 if this process has it already).

    A caller with a deadline calls it before :func:`run`, so that the call it times
    does not compile (the deadline's clock stands still while kernels compile; a
    load from the cache counts). Ctrl-C raises KeyboardInterrupt (the compile is let
    go).
    """
    from numba import typeof

    began = time.monotonic()
    with new_flag() as stop:
        kernel, _, args = _kernel_call(
            engine, puzzles, table, limit, max_nodes, stop, chunk, threads, out
        )
        signature = tuple(typeof(arg) for arg in args)
        if signature in kernel.overloads:
            return 0.0
        call_stoppable(kernel.compile, stop, signature)
    return time.monotonic() - began


def _kernel_call(engine, puzzles, table, limit, max_nodes, stop, chunk, threads, out):
    """The kernel that runs these puzzles, on how many threads, and its arguments (with
    a fresh counter of work units): the "cages" engine's per-row kernel for a
    :class:`~._cage_rows.CageRows`."""
    entry = REGISTRY[engine]
    kernel = entry.solve_units
    if isinstance(table, _cage_rows.CageRows):
        if engine != "cages":
            raise ValueError(f'a table per row is the "cages" engine\'s, not "{engine}"\'s')
        kernel = _ROW_KERNEL
    rows, cells = puzzles.shape
    if threads <= 1 or rows <= entry.serial_up_to(math.isqrt(cells)):
        lanes, unit = 1, max(1, rows)
    else:
        unit = work_unit(chunk, rows, threads)
        lanes = max(1, min(threads, -(-rows // unit)))  # no more threads than units
    next_unit = np.zeros(1, dtype=np.int64)
    return kernel, lanes, (puzzles, table, limit, max_nodes, stop, unit, next_unit, *out)
