"""Study (finished): link-table layout and index dtype of the Algorithm X kernel.

Conclusion
----------
Every variant below walks the same search tree (nodes and updates checked equal);
only the storage differs. Unsigned 32-bit links beat int32 by 1.3-1.5x in Numba
(signed indices pay for negative-index wrapping); uint16 and 64-bit links gained
nothing. Knuth's DLX1 node table stored transposed, ``(4, Z)`` with one contiguous
row per field, is 21-27% faster than the ``(Z, 4)`` row table (Numba multiplies by the
run-time row stride on every link followed) and within 4% of plain L/R/U/D arrays on
N-queens 12 and pentominoes 6x10 (plain arrays still won on Langford 11, whose
three-item options make the spacer steps count). numbadlx adopted uint32 links in
``(4, Z)`` tables. Those ratios come from a loaded 2-core machine, rounds interleaved.

This file is kept so that the result can be reproduced. It is not maintained as a
benchmark: it reaches numbadlx only through its public API (:class:`numbadlx.ExactCover`,
``count()``, ``stats`` and ``links()``), and its kernels are frozen copies made for
the study.

Run by hand (not in CI), from the repository's root::

    python benchmarks/studies/layouts.py
    python benchmarks/studies/layouts.py --quick                 # smoke run
    python benchmarks/studies/layouts.py --problems queens12,pentominoes6x10

Two design claims are checked here instead of being taken on trust:

1. Knuth's DLX1 layout (one node table with spacers between options, so "next node of
   this option" is ``p + 1``, and an item's length kept in its header node) against the
   classic Dancing Links of Knuth's 2000 paper: separate 1-D arrays ``L, R, U, D``, ``C``
   (the column of each node) and ``S`` (column sizes);
2. unsigned against signed link dtypes.

Every variant counts all solutions of the same problems with the same rule for
choosing an item (minimum remaining values, the first of equal lengths in list
order, stop looking at a length of 0), the same item order (primary items first)
and the same option order, so every variant walks the same search tree: the script
checks that nodes, updates and the count agree exactly, and only the time differs.

Variants (``<kernel>-<dtype>``):

``prod``
    numbadlx's production search through its public driver: ``ExactCover.count()``,
    nodes and updates read from ``problem.stats`` (a ``(4, Z)`` table, one contiguous
    row per field: up, down, item, aux; a ``(2, n + 2)`` item table). Its links are
    uint32 only (``prod-u32``); the timer also covers the driver's copy of the links
    and its Python loop over slices of nodes (about 0.1 ms a call: it dominates the
    ``--quick`` problems, not the default ones). Until this study
    the production kernel used the ``(Z, 4)`` row table that ``aos`` keeps; ``tr`` is
    the frozen copy on the layout it adopted, at any dtype.
``aos``
    a copy of the earlier production kernel in this file, stripped to counting (no
    resume, trace or record), on ``(Z, 4)`` and ``(n + 2, 2)`` row tables (from
    ``ExactCover.links()``, cast to the variant's dtype): the control for the
    variants below.
``flat``
    the same copy indexing the same tables through 1-D views, ``nodes[4 * p + k]``,
    with the row width a compile-time constant (Numba's 2-D indexing multiplies by
    the run-time row length, an ``imul`` on every link followed).
``flat3``
    as ``flat`` on rows of three (up, down, item; no aux column): 12 bytes a node
    instead of 16.
``ud``
    the same copy with each node's (up, down) pair side by side in one 1-D array
    (8 bytes a node at u32) and the item column on its own.
``tr``
    the same copy on the same tables transposed, ``nodes`` of shape ``(4, Z)`` and
    ``items`` ``(2, n + 2)``, C order, indexed ``nodes[UP, p]``: one array, but each
    column is contiguous.
``soa``
    the same copy on separate 1-D arrays ``up``, ``down``, ``item`` (the length in a
    header's ``item``) and ``prev``, ``next`` (struct of arrays).
``plain``
    classic DLX (Knuth 2000): ``L, R, U, D, C`` per node, ``S`` per column, rows as
    circular L/R lists, iterative with an explicit stack of chosen nodes.

The copies and the plain kernel take typed constants (``np.uint32(1)`` and so on)
from a factory per dtype, as the production kernel did with ``_ONE``, so no int64
literal widens the arithmetic. Link tables are copied before each run, outside the
timer (except for ``prod``, whose driver copies them inside ``count()``). Rounds are
interleaved across variants (one run of each per round).
"""

import argparse
import gc
import os
import statistics
import sys
import time

# benchmarks/machine.py lives one folder up. Append that folder (not prepend it):
# benchmarks/exact_cover.py must not shadow the exact-cover peer's package.
sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import machine  # noqa: E402
import numpy as np  # noqa: E402

import numbadlx  # noqa: E402
from numbadlx import problems  # noqa: E402

# the frozen kernels live beside this script
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
from _layouts_dlx1 import dlx1_kernels  # noqa: E402
from _layouts_others import flat_kernel, plain_kernels, ud_kernel  # noqa: E402

LONG_RUN_SECONDS = 2.0

DTYPES = {"u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "i32": np.int32, "i64": np.int64}


# ----------------------------------------------------------------------------------
# Problems in internal numbering (primary items first, then secondary)
# ----------------------------------------------------------------------------------


class Csr:
    """A problem's options renumbered primary items first, plus the same problem rebuilt
    from them (``self.problem``), whose internal numbering is then the identity."""

    def __init__(self, problem):
        secondary = np.asarray(problem.secondary, dtype=bool)
        order = np.concatenate([np.flatnonzero(~secondary), np.flatnonzero(secondary)])
        new_index = np.empty(problem.n_items, dtype=np.int32)
        new_index[order] = np.arange(problem.n_items, dtype=np.int32)
        self.indptr = np.asarray(problem.indptr, dtype=np.int64)
        self.indices = new_index[np.asarray(problem.indices)].astype(np.int32)
        self.n_items = int(problem.n_items)
        self.n_primary = int((~secondary).sum())
        self.n_options = self.indptr.size - 1
        self.nnz = self.indices.size
        self.max_node = self.n_items + 1 + self.nnz + self.n_options + 1  # DLX1 table rows
        self.problem = numbadlx.ExactCover.from_csr(
            self.indptr, self.indices, n_items=self.n_items, secondary=self.n_items - self.n_primary
        )


PROBLEMS = {
    "queens12": (lambda: problems.n_queens(12), 14200),
    "queens13": (lambda: problems.n_queens(13), 73712),
    "langford11": (lambda: problems.langford(11), 35584),
    "pentominoes5x12": (lambda: problems.pentominoes(5, 12), 4040),
    "pentominoes6x10": (lambda: problems.pentominoes(6, 10), 9356),
    # --quick
    "queens8": (lambda: problems.n_queens(8), 92),
    "langford7": (lambda: problems.langford(7), 52),
    "pentominoes3x20": (lambda: problems.pentominoes(3, 20), 8),
}
DEFAULT_PROBLEMS = "queens13,langford11,pentominoes5x12"
QUICK_PROBLEMS = "queens8,langford7,pentominoes3x20"


# ----------------------------------------------------------------------------------
# Variant: the production kernel
# ----------------------------------------------------------------------------------


def production_dtype(csr):
    """The dtype of numbadlx's own link tables (uint32 when this study was made)."""
    return csr.problem.links()[0].dtype


def prod_variant(csr, dt):
    """numbadlx's search through its public driver; only at its own link dtype."""
    problem = csr.problem
    if np.dtype(dt) != production_dtype(csr):
        raise ValueError(
            f"prod runs numbadlx's own {production_dtype(csr)} links, not "
            f"{np.dtype(dt)}; use tr-<dtype> for that layout at other dtypes"
        )

    def setup():
        return problem

    def run(problem):
        found = problem.count()
        return found, problem.stats.nodes, problem.stats.updates

    return setup, run


# ----------------------------------------------------------------------------------
# Variants: copies of the DLX1 kernel (counting only) on three table layouts
# ----------------------------------------------------------------------------------


def _dlx1_tables(csr, dt):
    """The DLX1 tables as row tables, ``(Z, 4)`` nodes and ``(n + 2, 2)`` items (the
    layout the production kernel used before it switched to the transposed one), from
    the public ``ExactCover.links()``, cast to ``dt`` (``_fits`` checks it is wide
    enough; every entry is a non-negative node, item, length or option index)."""
    nodes, items = csr.problem.links()
    return (
        np.ascontiguousarray(nodes.astype(dt, copy=False)),
        np.ascontiguousarray(items.astype(dt, copy=False)),
    )


def aos_variant(csr, dt):
    nodes, items = _dlx1_tables(csr, dt)
    kernel = dlx1_kernels(dt)[0]
    n_items = dt(csr.n_items)

    def setup():
        return nodes.copy(), items.copy(), np.zeros(csr.n_primary + 1, dtype=dt)

    def run(args):
        return kernel(args[0], args[1], n_items, args[2])

    return setup, run


def tr_variant(csr, dt):
    nodes, items = _dlx1_tables(csr, dt)
    kernel = dlx1_kernels(dt)[2]
    n_items = dt(csr.n_items)
    nodes_t = np.ascontiguousarray(nodes.T)
    items_t = np.ascontiguousarray(items.T)

    def setup():
        return nodes_t.copy(), items_t.copy(), np.zeros(csr.n_primary + 1, dtype=dt)

    def run(args):
        return kernel(args[0], args[1], n_items, args[2])

    return setup, run


def flat_variant(csr, dt, width=4):
    nodes, items = _dlx1_tables(csr, dt)
    kernel = flat_kernel(dt, width)
    n_items = dt(csr.n_items)
    table = np.zeros((nodes.shape[0], width), dtype=dt)
    table[:, :3] = nodes[:, :3]  # up, down, item (aux only with width >= 4)
    if width >= 4:
        table[:, 3] = nodes[:, 3]

    def setup():
        return (
            table.copy().reshape(-1),
            items.copy().reshape(-1),
            np.zeros(csr.n_primary + 1, dtype=dt),
        )

    def run(args):
        return kernel(args[0], args[1], n_items, args[2])

    return setup, run


def soa_variant(csr, dt):
    nodes, items = _dlx1_tables(csr, dt)
    kernel = dlx1_kernels(dt)[1]
    n_items = dt(csr.n_items)
    columns = [np.ascontiguousarray(nodes[:, k]) for k in range(3)]
    links = [np.ascontiguousarray(items[:, k]) for k in range(2)]

    def setup():
        return (
            [c.copy() for c in columns]
            + [c.copy() for c in links]
            + [np.zeros(csr.n_primary + 1, dtype=dt)]
        )

    def run(args):
        up, down, item, prev, nxt, choice = args
        return kernel(up, down, item, prev, nxt, n_items, choice)

    return setup, run


def ud_variant(csr, dt):
    nodes, items = _dlx1_tables(csr, dt)
    kernel = ud_kernel(dt)
    n_items = dt(csr.n_items)
    ud = np.ascontiguousarray(nodes[:, :2]).reshape(-1)
    item = np.ascontiguousarray(nodes[:, 2])
    links = [np.ascontiguousarray(items[:, k]) for k in range(2)]

    def setup():
        return (
            [ud.copy(), item.copy()]
            + [c.copy() for c in links]
            + [np.zeros(csr.n_primary + 1, dtype=dt)]
        )

    def run(args):
        ud_, item_, prev, nxt, choice = args
        return kernel(ud_, item_, prev, nxt, n_items, choice)

    return setup, run


def plain_variant(csr, dt):
    build, kernel = plain_kernels(dt)
    tables = build(csr.indptr, csr.indices, csr.n_items, csr.n_primary)
    n_items = dt(csr.n_items)

    def setup():
        return [t.copy() for t in tables] + [np.zeros(csr.n_primary + 1, dtype=dt)]

    def run(args):
        L, R, U, D, C, S, choice = args
        return kernel(L, R, U, D, C, S, n_items, choice)

    return setup, run


KINDS = {
    "prod": prod_variant,
    "aos": aos_variant,
    "flat": flat_variant,
    "flat3": lambda csr, dt: flat_variant(csr, dt, 3),
    "ud": ud_variant,
    "tr": tr_variant,
    "soa": soa_variant,
    "plain": plain_variant,
}
DEFAULT_VARIANTS = (
    "prod-u32,tr-u32,tr-i32,tr-u16,tr-u64,tr-i64,"
    "aos-u32,flat-u32,flat3-u32,ud-u32,soa-u32,soa-i32,soa-u16,"
    "plain-u32,plain-i32,plain-u16,plain-i64"
)


def _fits(kind, dtname, csr):
    info = np.iinfo(DTYPES[dtname])
    largest = csr.max_node if kind != "plain" else csr.n_items + 1 + csr.nnz
    return largest <= info.max


# ----------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------


def _timed(run, args):
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        result = run(args)
        seconds = time.perf_counter() - start
    finally:
        gc.enable()
    return result, seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--problems",
        default=DEFAULT_PROBLEMS,
        help=f"comma-separated, from {','.join(PROBLEMS)} (default {DEFAULT_PROBLEMS})",
    )
    parser.add_argument(
        "--variants",
        default=DEFAULT_VARIANTS,
        help=f"comma-separated <kernel>-<dtype>, kernel in {list(KINDS)}, "
        f"dtype in {list(DTYPES)} (default {DEFAULT_VARIANTS})",
    )
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--long-repeats",
        type=int,
        default=3,
        help=f"repeats when the first run took > {LONG_RUN_SECONDS:g} s",
    )
    parser.add_argument("--quick", action="store_true", help=f"problems {QUICK_PROBLEMS}")
    parser.add_argument(
        "--baseline",
        default="prod-u32",
        help="variant the ratios are taken against (default prod-u32)",
    )
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args(argv)

    names = QUICK_PROBLEMS if args.quick else args.problems
    names = [n.strip() for n in names.split(",") if n.strip()]
    for n in names:
        if n not in PROBLEMS:
            parser.error(f"unknown problem {n!r}")
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        kind, _, dtname = v.partition("-")
        if kind not in KINDS or dtname not in DTYPES:
            parser.error(f"bad variant {v!r}")
    if args.baseline not in variants:
        variants.insert(0, args.baseline)
    tiny = Csr(problems.n_queens(5))
    prod_dt = production_dtype(tiny)
    for v in variants:
        kind, _, dtname = v.partition("-")
        if kind == "prod" and np.dtype(DTYPES[dtname]) != prod_dt:
            parser.error(
                f"{v}: the production driver has {prod_dt} links only; "
                f"tr-{dtname} is the same layout at {dtname}"
            )

    print(
        machine.describe(
            "numbadlx layout / dtype study: count ALL solutions, same search tree for every variant"
        )
    )
    print(
        f"# median of {args.repeats} runs ({args.long_repeats} when the first run took "
        f"> {LONG_RUN_SECONDS:g} s), rounds interleaved; ratio = variant / "
        f"{args.baseline} (> 1: slower than it)"
    )

    # Compile everything on a tiny problem first (not timed).
    for v in variants:
        kind, _, dtname = v.partition("-")
        setup, run = KINDS[kind](tiny, DTYPES[dtname])
        run(setup())

    rows = []
    for name in names:
        build, expected = PROBLEMS[name]
        problem = build()
        csr = Csr(problem)
        print(f"# {name}: {problem!r}; DLX1 table {csr.max_node} rows", flush=True)
        runners = {}
        skipped = []
        for v in variants:
            kind, _, dtname = v.partition("-")
            if not _fits(kind, dtname, csr):
                skipped.append(v)
                continue
            runners[v] = KINDS[kind](csr, DTYPES[dtname])
        times = {v: [] for v in runners}
        target = {}
        result = {}
        round_no = 0
        while True:
            pending = [v for v in runners if v not in target or len(times[v]) < target[v]]
            if not pending:
                break
            # rotate the order each round so no variant always runs first
            shift = round_no % len(pending)
            for v in pending[shift:] + pending[:shift]:
                setup, run = runners[v]
                state = setup()
                (found, n_nodes, updates), seconds = _timed(run, state)
                found, n_nodes, updates = int(found), int(n_nodes), int(updates)
                if found != expected:
                    raise AssertionError(f"{name} {v}: {found} solutions, expected {expected}")
                if v in result and result[v] != (found, n_nodes, updates):
                    raise AssertionError(f"{name} {v}: runs disagree")
                result[v] = (found, n_nodes, updates)
                times[v].append(seconds)
                if v not in target:
                    target[v] = (
                        args.repeats
                        if seconds <= LONG_RUN_SECONDS
                        else min(args.repeats, args.long_repeats)
                    )
                if args.verbose:
                    print(f"  {name} {v} {seconds:.4f}", file=sys.stderr, flush=True)
            round_no += 1
        trees = set(result.values())
        if len(trees) != 1:
            raise AssertionError(f"{name}: variants walked different trees: {result}")
        base = statistics.median(times[args.baseline])
        base_min = min(times[args.baseline])
        for v in runners:
            med = statistics.median(times[v])
            found, n_nodes, updates = result[v]
            rows.append(
                (
                    name,
                    v,
                    len(times[v]),
                    med,
                    min(times[v]),
                    max(times[v]),
                    found,
                    n_nodes,
                    updates,
                    updates / med / 1e6,
                    med / base,
                    min(times[v]) / base_min,
                )
            )
        for v in skipped:
            rows.append((name, v, 0) + (None,) * 9)

    print()
    head = (
        f"{'problem':16s} {'variant':10s} {'reps':>4s} {'median s':>9s} "
        f"{'min-max s':>19s} {'solutions':>9s} {'nodes':>10s} {'updates':>13s} "
        f"{'Mupd/s':>7s} {'ratio':>6s} {'min ratio':>9s}"
    )
    print(head)
    print("-" * len(head))
    previous = None
    for row in rows:
        name, v, reps, med, lo, hi, found, n_nodes, updates, rate, ratio, min_ratio = row
        if previous is not None and name != previous:
            print()
        previous = name
        if med is None:
            print(f"{name:16s} {v:10s} {'-':>4s} {'(dtype too narrow for this problem)':>40s}")
            continue
        print(
            f"{name:16s} {v:10s} {reps:4d} {med:#9.4g} {lo:#9.4g}-{hi:#9.4g} {found:9d} "
            f"{n_nodes:10d} {updates:13d} {rate:7.1f} {ratio:6.2f} {min_ratio:9.2f}"
        )
    print()
    print("All variants of a problem agree on solutions, nodes and updates (checked).")
    print(
        f"ratio = median / median of {args.baseline}; min ratio = fastest run / fastest "
        f"run of {args.baseline} (less sensitive to load from other processes)."
    )
    print(f"# load avg at end: {machine.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
