"""Frozen copies of the DLX1 counting kernel for the layout study.

Three layouts: the row table, a struct of arrays and the transposed table.

Made for ``layouts.py`` in this folder and kept unchanged so that its result can be
reproduced; not used by numbadlx. Each factory compiles its kernels once per link dtype.
"""

import numpy as np
from numba import njit

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
