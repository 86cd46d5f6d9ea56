"""The four peers' input conversions, used by ``peers.py``.

Each ``_prep_<peer>(module, indptr, items, colours, n_primary, n_items, bounds)`` takes
the peer's imported package and a problem as CSR arrays (see ``peers.py``) and returns
``(count, first, reset, note)``: the callables a ``Prepared`` object wraps. Raises
NotImplementedError when the peer cannot run the problem. This module imports no peer
and no numbadlx: ``peers.py`` imports the peers and passes them in.
"""

from __future__ import annotations

import numpy as np

# ---- xcover --------------------------------------------------------------
#
# Every _prep_<peer> takes the problem as CSR arrays: option k covers
# ``items[indptr[k]:indptr[k + 1]]`` (int64), ``colours`` is None or parallel to
# ``items``, ``bounds`` is None or a list of (u, v) per primary item.


def _prep_xcover(xc, indptr, items, colours, n_primary, n_items, bnds):
    if bnds is not None:
        raise NotImplementedError(
            "xcover implements Algorithm C (exact cover with colours) only; "
            "it has no multiplicities (Algorithm M)"
        )
    ptr = np.asarray(indptr, dtype=np.uint32)
    flat = np.asarray(items, dtype=np.uint32)
    colarr = (
        np.zeros(len(flat), dtype=np.uint32)
        if colours is None
        else np.asarray(colours, dtype=np.uint32)
    )
    n_sec = n_items - n_primary
    algo = xc.algorithm_c  # xcover's documented direct entry point

    def gen():
        # Same call that xcover.covers() makes after converting its input;
        # items are 0..n_items-1 with the secondary ones last, as ours are.
        return algo(flat, ptr, colarr, n_items, n_sec)

    def count(limit):
        c = 0
        if limit is None:
            for _ in gen():
                c += 1
        else:
            for _ in gen():
                c += 1
                if c >= limit:
                    break
        return c

    def first():
        for sol in gen():
            return sorted(int(j) for j in sol)
        return None

    return count, first, (lambda: None), ""


# ---- exact-cover -----------------------------------------------------------

# get_all_solutions(limit) allocates limit x n_rows int32 up front; above this
# size a limited count falls back to a full count and clamps the result.
_EC_LIMIT_BUFFER_BYTES = 64 << 20


def _prep_exact_cover(ec, indptr, items, colours, n_primary, n_items, bnds):
    if bnds is not None:
        raise NotImplementedError(
            "exact-cover implements plain Algorithm X only; no multiplicities"
        )
    if colours is not None and np.any(colours):
        raise NotImplementedError(
            "exact-cover implements plain Algorithm X on a 0/1 matrix; it "
            "has no colours (Algorithm C)"
        )
    from exact_cover.error import NoSolution

    n_options = len(indptr) - 1
    option_of_node = np.repeat(np.arange(n_options), np.diff(indptr))
    n_sec = n_items - n_primary
    note = ""
    if n_sec:
        # Options with no primary item are never chosen under XCC semantics,
        # but would become choosable once secondary items turn primary.
        has_primary = np.zeros(n_options, dtype=bool)
        has_primary[option_of_node[items < n_primary]] = True
        keep = np.flatnonzero(has_primary)
        note = (
            f"secondary items emulated: {n_sec} slack rows added, "
            f"{n_options - len(keep)} primary-less options dropped"
        )
    else:
        keep = np.arange(n_options)
    n_real = len(keep)
    n_rows = n_real + n_sec
    row_of_option = np.full(n_options, -1, dtype=np.int64)
    row_of_option[keep] = np.arange(n_real)
    rows = row_of_option[option_of_node]
    mat = np.zeros((n_rows, n_items), dtype=np.bool_)
    mat[rows[rows >= 0], items[rows >= 0]] = True
    # a slack row for each secondary item
    mat[n_real + np.arange(n_sec), n_primary + np.arange(n_sec)] = True
    row_to_opt = np.concatenate([keep, np.full(n_sec, -1, dtype=np.int64)])

    def count(limit):
        if n_rows == 0:
            return 0
        if limit is not None and limit * max(n_rows, 1) * 4 <= _EC_LIMIT_BUFFER_BYTES:
            try:
                sols = ec.get_all_solutions(mat, max_count=int(limit))
            except NoSolution:
                return 0
            return min(len(sols), int(limit))
        c = int(ec.get_solution_count(mat))
        if c < 0:
            raise OverflowError("exact-cover's solution count overflowed its 32-bit C int")
        return c if limit is None else min(c, int(limit))

    def first():
        if n_rows == 0:
            return None
        try:
            rows = ec.get_exact_cover(mat)
        except NoSolution:
            return None
        return sorted(int(row_to_opt[r]) for r in rows if r < n_real)

    return count, first, (lambda: None), note


# ---- miniexact -------------------------------------------------------------


def _prep_miniexact(mx, indptr, items, colours, n_primary, n_items, bnds):
    # its API takes one option at a time, as Python lists of item ids
    starts = indptr.tolist()
    flat = items.tolist()
    opts = [flat[a:b] for a, b in zip(starts, starts[1:])]
    cols = None
    if colours is not None:
        flat_colours = np.asarray(colours).tolist()
        cols = [flat_colours[a:b] for a, b in zip(starts, starts[1:])]
    if bnds is not None:
        cls, kind = mx.miniexacts_m, "M"
    elif cols is not None:
        cls, kind = mx.miniexacts_c, "C"
    else:
        cls, kind = mx.miniexacts_x, "X"

    def build():
        s = cls()
        ids = []
        for i in range(n_primary):
            if bnds is None:
                ids.append(s.primary(f"i{i}"))
            else:
                u, v = bnds[i]
                ids.append(s.primary(f"i{i}", u, v))
        for i in range(n_primary, n_items):
            ids.append(s.secondary(f"i{i}"))
        ret = []  # miniexact option index (1-based) returned by add()
        if cols is None:
            for o in opts:
                ret.append(s.add([ids[i] for i in o]))
        else:
            cid = {}
            for o, c in zip(opts, cols):
                for i, x in zip(o, c):
                    if x:
                        if x not in cid:
                            cid[x] = s.color(f"c{x}")
                        s.add(ids[i], cid[x])
                    else:
                        s.add(ids[i])
                ret.append(s.add(0))
        if any(r == 0 for r in ret):
            raise RuntimeError("miniexact rejected the problem (see its stderr)")
        back = {r: k for k, r in enumerate(ret)}
        return s, back

    state = {"s": None, "back": None}

    def reset():
        state["s"], state["back"] = build()

    def take():
        if state["s"] is None:
            reset()
        s, back = state["s"], state["back"]
        state["s"] = None  # each enumeration consumes the solver
        return s, back

    def count(limit):
        s, _ = take()
        c = 0
        solve = s.solve
        if limit is None:
            while True:
                r = solve()
                if r != 10:
                    break
                c += 1
        else:
            while c < limit:
                r = solve()
                if r != 10:
                    break
                c += 1
            else:
                return c
        if r != 20:
            raise RuntimeError(f"miniexact solve() returned {r} (error state)")
        return c

    def first():
        s, back = take()
        r = s.solve()
        if r == 10:
            return sorted(back[int(j)] for j in s.selected_options())
        if r != 20:
            raise RuntimeError(f"miniexact solve() returned {r} (error state)")
        return None

    reset()
    return count, first, reset, f"miniexact Algorithm {kind}"


# ---- pyxcc -----------------------------------------------------------------


def _prep_pyxcc(xcc, indptr, items, colours, n_primary, n_items, bnds):
    """pyxcc (Rust, dancing cells) takes items and options by name and returns every
    solution as a list of option labels; its count is the length of that list. An
    empty colour is its "no colour"; it wants every primary item in some option (a
    problem with an item in none has no solution, answered here without it) and no
    secondary item in none (such items are left out)."""
    if bnds is not None:
        raise NotImplementedError("pyxcc implements Algorithm C only; no multiplicities")
    names = [f"i{i}" for i in range(n_items)]
    flat = items.tolist()
    flat_colours = None if colours is None else np.asarray(colours).tolist()
    options = []
    for k, (a, b) in enumerate(zip(indptr.tolist(), indptr.tolist()[1:])):
        primary = [names[i] for i in flat[a:b] if i < n_primary]
        secondary = [
            (names[i], "" if flat_colours is None or not flat_colours[t] else f"c{flat_colours[t]}")
            for t, i in zip(range(a, b), flat[a:b])
            if i >= n_primary
        ]
        options.append(xcc.Option(f"o{k}", primary, secondary))
    covered = set(i for i in flat if i < n_primary)
    used = sorted(set(i for i in flat if i >= n_primary))  # it panics on an unused one
    problem = xcc.Problem(names[:n_primary], [names[i] for i in used], options)
    solvable = len(covered) == n_primary and n_primary > 0

    def count(limit):
        if not solvable:
            return 0
        found = xcc.solve(problem, limit != 1).count()
        return found if limit is None else min(found, limit)

    def first():
        if not solvable:
            return None
        solutions = xcc.solve(problem, False)
        if not solutions.count():
            return None
        return sorted(int(label[1:]) for label in solutions.first())

    return count, first, (lambda: None), ""


PREP = {
    "xcover": _prep_xcover,
    "exact-cover": _prep_exact_cover,
    "miniexact": _prep_miniexact,
    "pyxcc": _prep_pyxcc,
}
