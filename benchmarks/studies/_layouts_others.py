"""Frozen counting kernels for the layout study.

Interleaved up/down pairs, flat rows, and classic Dancing Links (Knuth 2000).

Made for ``layouts.py`` in this folder and kept unchanged so that its result can be
reproduced; not used by numbadlx. Each factory compiles its kernels once per link dtype.
"""

import numpy as np
from numba import njit

_KERNELS = {}


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
