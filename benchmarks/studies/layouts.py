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
from numba import njit  # noqa: E402

import numbadlx  # noqa: E402
from numbadlx import problems  # noqa: E402

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

_KERNELS = {}


def dlx1_kernels(dt):
    """Counting kernels for DLX1 tables of dtype ``dt``: (aos, soa, tr)."""
    key = ("dlx1", np.dtype(dt).name)
    if key in _KERNELS:
        return _KERNELS[key]
    ONE = dt(1)

    # ---- (Z, 4) row table, 2-D indexing, like the production kernel before this study
    @njit(inline="always")
    def a_hide(nodes, p):
        updates = 0
        q = p + ONE
        while q != p:
            x = nodes[q, 2]
            u = nodes[q, 0]
            if x == 0:
                q = u
            else:
                d = nodes[q, 1]
                nodes[u, 1] = d
                nodes[d, 0] = u
                nodes[x, 2] -= ONE
                updates += 1
                q += ONE
        return updates

    @njit(inline="always")
    def a_unhide(nodes, p):
        q = p - ONE
        while q != p:
            x = nodes[q, 2]
            d = nodes[q, 1]
            if x == 0:
                q = d
            else:
                u = nodes[q, 0]
                nodes[u, 1] = q
                nodes[d, 0] = q
                nodes[x, 2] += ONE
                q -= ONE

    @njit(inline="always")
    def a_cover(nodes, items, i):
        updates = 1
        p = nodes[i, 1]
        while p != i:
            updates += a_hide(nodes, p)
            p = nodes[p, 1]
        left = items[i, 0]
        right = items[i, 1]
        items[left, 1] = right
        items[right, 0] = left
        return updates

    @njit(inline="always")
    def a_uncover(nodes, items, i):
        left = items[i, 0]
        right = items[i, 1]
        items[left, 1] = i
        items[right, 0] = i
        p = nodes[i, 0]
        while p != i:
            a_unhide(nodes, p)
            p = nodes[p, 0]

    @njit
    def aos(nodes, items, n_items, choice):
        level = 0
        n_nodes = 0
        updates = 0
        solutions = 0
        leave = False
        x = nodes[0, 1]
        while True:
            if not leave:
                # X2
                n_nodes += 1
                if items[0, 1] == 0:
                    solutions += 1
                    leave = True
                else:
                    # X3: MRV, first of equals, stop at 0
                    i = items[0, 1]
                    best = nodes[i, 2]
                    p = items[i, 1]
                    while p != 0 and best > 0:
                        length = nodes[p, 2]
                        if length < best:
                            best = length
                            i = p
                        p = items[p, 1]
                    updates += a_cover(nodes, items, i)  # X4
                    x = nodes[i, 1]
                    choice[level] = x
            if leave:
                # X8, then X6
                if level == 0:
                    break
                level -= 1
                x = choice[level]
                p = x - ONE
                while p != x:
                    j = nodes[p, 2]
                    if j == 0:
                        p = nodes[p, 1]
                    else:
                        a_uncover(nodes, items, j)
                        p -= ONE
                x = nodes[x, 1]
                choice[level] = x
                leave = False
            # X5
            if x <= n_items:
                a_uncover(nodes, items, x)  # X7
                leave = True
                continue
            p = x + ONE
            while p != x:
                j = nodes[p, 2]
                if j == 0:
                    p = nodes[p, 0]
                else:
                    updates += a_cover(nodes, items, j)
                    p += ONE
            level += 1
        return solutions, n_nodes, updates

    # ---- the same table transposed: nodes (4, Z), items (2, n + 2), 2-D indexing
    @njit(inline="always")
    def t_hide(nodes, p):
        updates = 0
        q = p + ONE
        while q != p:
            x = nodes[2, q]
            u = nodes[0, q]
            if x == 0:
                q = u
            else:
                d = nodes[1, q]
                nodes[1, u] = d
                nodes[0, d] = u
                nodes[2, x] -= ONE
                updates += 1
                q += ONE
        return updates

    @njit(inline="always")
    def t_unhide(nodes, p):
        q = p - ONE
        while q != p:
            x = nodes[2, q]
            d = nodes[1, q]
            if x == 0:
                q = d
            else:
                u = nodes[0, q]
                nodes[1, u] = q
                nodes[0, d] = q
                nodes[2, x] += ONE
                q -= ONE

    @njit(inline="always")
    def t_cover(nodes, items, i):
        updates = 1
        p = nodes[1, i]
        while p != i:
            updates += t_hide(nodes, p)
            p = nodes[1, p]
        left = items[0, i]
        right = items[1, i]
        items[1, left] = right
        items[0, right] = left
        return updates

    @njit(inline="always")
    def t_uncover(nodes, items, i):
        left = items[0, i]
        right = items[1, i]
        items[1, left] = i
        items[0, right] = i
        p = nodes[0, i]
        while p != i:
            t_unhide(nodes, p)
            p = nodes[0, p]

    @njit
    def tr(nodes, items, n_items, choice):
        level = 0
        n_nodes = 0
        updates = 0
        solutions = 0
        leave = False
        x = nodes[1, 0]
        while True:
            if not leave:
                # X2
                n_nodes += 1
                if items[1, 0] == 0:
                    solutions += 1
                    leave = True
                else:
                    # X3: MRV, first of equals, stop at 0
                    i = items[1, 0]
                    best = nodes[2, i]
                    p = items[1, i]
                    while p != 0 and best > 0:
                        length = nodes[2, p]
                        if length < best:
                            best = length
                            i = p
                        p = items[1, p]
                    updates += t_cover(nodes, items, i)  # X4
                    x = nodes[1, i]
                    choice[level] = x
            if leave:
                # X8, then X6
                if level == 0:
                    break
                level -= 1
                x = choice[level]
                p = x - ONE
                while p != x:
                    j = nodes[2, p]
                    if j == 0:
                        p = nodes[1, p]
                    else:
                        t_uncover(nodes, items, j)
                        p -= ONE
                x = nodes[1, x]
                choice[level] = x
                leave = False
            # X5
            if x <= n_items:
                t_uncover(nodes, items, x)  # X7
                leave = True
                continue
            p = x + ONE
            while p != x:
                j = nodes[2, p]
                if j == 0:
                    p = nodes[0, p]
                else:
                    updates += t_cover(nodes, items, j)
                    p += ONE
            level += 1
        return solutions, n_nodes, updates

    # ---- struct of arrays: up, down, item (length in headers); prev, next
    @njit(inline="always")
    def s_hide(up, down, item, p):
        updates = 0
        q = p + ONE
        while q != p:
            x = item[q]
            u = up[q]
            if x == 0:
                q = u
            else:
                d = down[q]
                down[u] = d
                up[d] = u
                item[x] -= ONE
                updates += 1
                q += ONE
        return updates

    @njit(inline="always")
    def s_unhide(up, down, item, p):
        q = p - ONE
        while q != p:
            x = item[q]
            d = down[q]
            if x == 0:
                q = d
            else:
                u = up[q]
                down[u] = q
                up[d] = q
                item[x] += ONE
                q -= ONE

    @njit(inline="always")
    def s_cover(up, down, item, prev, nxt, i):
        updates = 1
        p = down[i]
        while p != i:
            updates += s_hide(up, down, item, p)
            p = down[p]
        left = prev[i]
        right = nxt[i]
        nxt[left] = right
        prev[right] = left
        return updates

    @njit(inline="always")
    def s_uncover(up, down, item, prev, nxt, i):
        left = prev[i]
        right = nxt[i]
        nxt[left] = i
        prev[right] = i
        p = up[i]
        while p != i:
            s_unhide(up, down, item, p)
            p = up[p]

    @njit
    def soa(up, down, item, prev, nxt, n_items, choice):
        level = 0
        n_nodes = 0
        updates = 0
        solutions = 0
        leave = False
        x = down[0]
        while True:
            if not leave:
                n_nodes += 1
                if nxt[0] == 0:
                    solutions += 1
                    leave = True
                else:
                    i = nxt[0]
                    best = item[i]
                    p = nxt[i]
                    while p != 0 and best > 0:
                        length = item[p]
                        if length < best:
                            best = length
                            i = p
                        p = nxt[p]
                    updates += s_cover(up, down, item, prev, nxt, i)
                    x = down[i]
                    choice[level] = x
            if leave:
                if level == 0:
                    break
                level -= 1
                x = choice[level]
                p = x - ONE
                while p != x:
                    j = item[p]
                    if j == 0:
                        p = down[p]
                    else:
                        s_uncover(up, down, item, prev, nxt, j)
                        p -= ONE
                x = down[x]
                choice[level] = x
                leave = False
            if x <= n_items:
                s_uncover(up, down, item, prev, nxt, x)
                leave = True
                continue
            p = x + ONE
            while p != x:
                j = item[p]
                if j == 0:
                    p = up[p]
                else:
                    updates += s_cover(up, down, item, prev, nxt, j)
                    p += ONE
            level += 1
        return solutions, n_nodes, updates

    _KERNELS[key] = (aos, soa, tr)
    return _KERNELS[key]


def ud_kernel(dt):
    """The DLX1 counting kernel with (up, down) pairs interleaved in one 1-D array
    (``ud[2 * p]``, ``ud[2 * p + 1]``: 8-byte rows at u32, an x86 addressing scale)
    and the item / length column and the item list links as separate 1-D arrays."""
    key = ("ud", np.dtype(dt).name)
    if key in _KERNELS:
        return _KERNELS[key]
    ONE = dt(1)
    TWO = dt(2)

    @njit(inline="always")
    def u_hide(ud, item, p):
        updates = 0
        q = p + ONE
        while q != p:
            x = item[q]
            u = ud[TWO * q]
            if x == 0:
                q = u
            else:
                d = ud[TWO * q + ONE]
                ud[TWO * u + ONE] = d
                ud[TWO * d] = u
                item[x] -= ONE
                updates += 1
                q += ONE
        return updates

    @njit(inline="always")
    def u_unhide(ud, item, p):
        q = p - ONE
        while q != p:
            x = item[q]
            d = ud[TWO * q + ONE]
            if x == 0:
                q = d
            else:
                u = ud[TWO * q]
                ud[TWO * u + ONE] = q
                ud[TWO * d] = q
                item[x] += ONE
                q -= ONE

    @njit(inline="always")
    def u_cover(ud, item, prev, nxt, i):
        updates = 1
        p = ud[TWO * i + ONE]
        while p != i:
            updates += u_hide(ud, item, p)
            p = ud[TWO * p + ONE]
        left = prev[i]
        right = nxt[i]
        nxt[left] = right
        prev[right] = left
        return updates

    @njit(inline="always")
    def u_uncover(ud, item, prev, nxt, i):
        left = prev[i]
        right = nxt[i]
        nxt[left] = i
        prev[right] = i
        p = ud[TWO * i]
        while p != i:
            u_unhide(ud, item, p)
            p = ud[TWO * p]

    @njit
    def kernel(ud, item, prev, nxt, n_items, choice):
        level = 0
        n_nodes = 0
        updates = 0
        solutions = 0
        leave = False
        x = ud[ONE]
        while True:
            if not leave:
                n_nodes += 1
                if nxt[0] == 0:
                    solutions += 1
                    leave = True
                else:
                    i = nxt[0]
                    best = item[i]
                    p = nxt[i]
                    while p != 0 and best > 0:
                        length = item[p]
                        if length < best:
                            best = length
                            i = p
                        p = nxt[p]
                    updates += u_cover(ud, item, prev, nxt, i)
                    x = ud[TWO * i + ONE]
                    choice[level] = x
            if leave:
                if level == 0:
                    break
                level -= 1
                x = choice[level]
                p = x - ONE
                while p != x:
                    j = item[p]
                    if j == 0:
                        p = ud[TWO * p + ONE]
                    else:
                        u_uncover(ud, item, prev, nxt, j)
                        p -= ONE
                x = ud[TWO * x + ONE]
                choice[level] = x
                leave = False
            if x <= n_items:
                u_uncover(ud, item, prev, nxt, x)
                leave = True
                continue
            p = x + ONE
            while p != x:
                j = item[p]
                if j == 0:
                    p = ud[TWO * p]
                else:
                    updates += u_cover(ud, item, prev, nxt, j)
                    p += ONE
            level += 1
        return solutions, n_nodes, updates

    _KERNELS[key] = kernel
    return kernel


def flat_kernel(dt, width):
    """The DLX1 counting kernel on 1-D views of row tables ``width`` entries wide."""
    key = ("flat", np.dtype(dt).name, width)
    if key in _KERNELS:
        return _KERNELS[key]
    ONE = dt(1)
    ZERO = dt(0)
    W = dt(width)  # nodes row width (a compile-time constant)
    IW = dt(2)  # items row width
    UPC, DOWNC, ITEMC = dt(0), dt(1), dt(2)

    @njit(inline="always")
    def f_hide(nodes, p):
        updates = 0
        q = p + ONE
        while q != p:
            x = nodes[W * q + ITEMC]
            u = nodes[W * q + UPC]
            if x == ZERO:
                q = u
            else:
                d = nodes[W * q + DOWNC]
                nodes[W * u + DOWNC] = d
                nodes[W * d + UPC] = u
                nodes[W * x + ITEMC] -= ONE
                updates += 1
                q += ONE
        return updates

    @njit(inline="always")
    def f_unhide(nodes, p):
        q = p - ONE
        while q != p:
            x = nodes[W * q + ITEMC]
            d = nodes[W * q + DOWNC]
            if x == ZERO:
                q = d
            else:
                u = nodes[W * q + UPC]
                nodes[W * u + DOWNC] = q
                nodes[W * d + UPC] = q
                nodes[W * x + ITEMC] += ONE
                q -= ONE

    @njit(inline="always")
    def f_cover(nodes, items, i):
        updates = 1
        p = nodes[W * i + DOWNC]
        while p != i:
            updates += f_hide(nodes, p)
            p = nodes[W * p + DOWNC]
        left = items[IW * i]
        right = items[IW * i + ONE]
        items[IW * left + ONE] = right
        items[IW * right] = left
        return updates

    @njit(inline="always")
    def f_uncover(nodes, items, i):
        left = items[IW * i]
        right = items[IW * i + ONE]
        items[IW * left + ONE] = i
        items[IW * right] = i
        p = nodes[W * i + UPC]
        while p != i:
            f_unhide(nodes, p)
            p = nodes[W * p + UPC]

    @njit
    def flat(nodes, items, n_items, choice):
        level = 0
        n_nodes = 0
        updates = 0
        solutions = 0
        leave = False
        x = nodes[DOWNC]
        while True:
            if not leave:
                n_nodes += 1
                if items[ONE] == ZERO:
                    solutions += 1
                    leave = True
                else:
                    i = items[ONE]
                    best = nodes[W * i + ITEMC]
                    p = items[IW * i + ONE]
                    while p != ZERO and best > ZERO:
                        length = nodes[W * p + ITEMC]
                        if length < best:
                            best = length
                            i = p
                        p = items[IW * p + ONE]
                    updates += f_cover(nodes, items, i)
                    x = nodes[W * i + DOWNC]
                    choice[level] = x
            if leave:
                if level == 0:
                    break
                level -= 1
                x = choice[level]
                p = x - ONE
                while p != x:
                    j = nodes[W * p + ITEMC]
                    if j == ZERO:
                        p = nodes[W * p + DOWNC]
                    else:
                        f_uncover(nodes, items, j)
                        p -= ONE
                x = nodes[W * x + DOWNC]
                choice[level] = x
                leave = False
            if x <= n_items:
                f_uncover(nodes, items, x)
                leave = True
                continue
            p = x + ONE
            while p != x:
                j = nodes[W * p + ITEMC]
                if j == ZERO:
                    p = nodes[W * p + UPC]
                else:
                    updates += f_cover(nodes, items, j)
                    p += ONE
            level += 1
        return solutions, n_nodes, updates

    _KERNELS[key] = flat
    return flat


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


# ----------------------------------------------------------------------------------
# Variant: classic Dancing Links (Knuth 2000) with separate L, R, U, D, C, S arrays
# ----------------------------------------------------------------------------------


def plain_kernels(dt):
    """(build, count) for classic DLX with link dtype ``dt``."""
    key = ("plain", np.dtype(dt).name)
    if key in _KERNELS:
        return _KERNELS[key]
    ONE = dt(1)

    @njit
    def build(indptr, indices, n_items, n_primary):
        n_options = indptr.shape[0] - 1
        size = n_items + 1 + indices.shape[0]
        L = np.empty(size, dtype=dt)
        R = np.empty(size, dtype=dt)
        U = np.empty(size, dtype=dt)
        D = np.empty(size, dtype=dt)
        C = np.empty(size, dtype=dt)
        S = np.zeros(n_items + 1, dtype=dt)
        # root 0 and the column headers 1..n_items
        for c in range(n_items + 1):
            U[c] = c
            D[c] = c
            C[c] = c
            L[c] = c
            R[c] = c
        # the root's list holds the primary columns only
        for c in range(n_primary + 1):
            R[c] = c + 1 if c < n_primary else 0
            L[c] = c - 1 if c > 0 else n_primary
        p = n_items + 1
        for k in range(n_options):
            first = p
            last = p + (indptr[k + 1] - indptr[k]) - 1
            for t in range(indptr[k], indptr[k + 1]):
                c = indices[t] + 1
                C[p] = c
                U[p] = U[c]
                D[p] = c
                D[U[c]] = p
                U[c] = p
                S[c] += 1
                L[p] = p - 1 if p > first else last
                R[p] = p + 1 if p < last else first
                p += 1
        return L, R, U, D, C, S

    @njit(inline="always")
    def cover(L, R, U, D, C, S, c):
        updates = 1
        left = L[c]
        right = R[c]
        R[left] = right
        L[right] = left
        i = D[c]
        while i != c:
            j = R[i]
            while j != i:
                u = U[j]
                d = D[j]
                D[u] = d
                U[d] = u
                S[C[j]] -= ONE
                updates += 1
                j = R[j]
            i = D[i]
        return updates

    @njit(inline="always")
    def uncover(L, R, U, D, C, S, c):
        i = U[c]
        while i != c:
            j = L[i]
            while j != i:
                S[C[j]] += ONE
                D[U[j]] = j
                U[D[j]] = j
                j = L[j]
            i = U[i]
        left = L[c]
        right = R[c]
        R[left] = c
        L[right] = c

    @njit
    def count(L, R, U, D, C, S, n_items, choice):
        level = 0
        n_nodes = 0
        updates = 0
        solutions = 0
        leave = False
        r = D[0]
        while True:
            if not leave:
                n_nodes += 1
                if R[0] == 0:
                    solutions += 1
                    leave = True
                else:
                    # MRV: first column of minimum size, stop at 0
                    c = R[0]
                    best = S[c]
                    p = R[c]
                    while p != 0 and best > 0:
                        s = S[p]
                        if s < best:
                            best = s
                            c = p
                        p = R[p]
                    updates += cover(L, R, U, D, C, S, c)
                    r = D[c]
                    choice[level] = r
            if leave:
                if level == 0:
                    break
                level -= 1
                r = choice[level]
                j = L[r]
                while j != r:
                    uncover(L, R, U, D, C, S, C[j])
                    j = L[j]
                r = D[r]
                choice[level] = r
                leave = False
            if r <= n_items:
                # back at the column header: every row of it was tried
                uncover(L, R, U, D, C, S, r)
                leave = True
                continue
            j = R[r]
            while j != r:
                updates += cover(L, R, U, D, C, S, C[j])
                j = R[j]
            level += 1
        return solutions, n_nodes, updates

    _KERNELS[key] = (build, count)
    return _KERNELS[key]


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
