"""The self-test of the peer adapters (``python benchmarks/peers.py --selftest``).

Known counts (Knuth's example, N queens, a Sudoku) and random small problems with
colours and multiplicities, each checked against a brute force written here, on every
peer that is importable.
"""

from __future__ import annotations

import time

import numpy as np


def _queens(n):
    """N queens: rows and columns primary, diagonals secondary."""
    opts = []
    nd = 2 * n - 1
    for r in range(n):
        for c in range(n):
            opts.append([r, n + c, 2 * n + r + c, 2 * n + nd + (r - c + n - 1)])
    return opts, 2 * n, 2 * n + 2 * nd


def _brute(opts, n_primary, n_items, cols=None, bnds=None):
    """Count solutions by trying every subset of options (tiny problems)."""
    cols = cols or [[0] * len(o) for o in opts]
    bnds = bnds or [(1, 1)] * n_primary
    usable = [k for k, o in enumerate(opts) if any(i < n_primary for i in o)]
    total = 0
    for mask in range(1 << len(usable)):
        cnt = [0] * n_primary
        seen = [[] for _ in range(n_items)]  # colours used on secondary items
        for b, k in enumerate(usable):
            if mask >> b & 1:
                for i, x in zip(opts[k], cols[k]):
                    if i < n_primary:
                        cnt[i] += 1
                    else:
                        seen[i].append(x)
        if not all(bnds[i][0] <= cnt[i] <= bnds[i][1] for i in range(n_primary)):
            continue
        # a secondary item: used at most once, or only with one non-zero colour
        if all(len(c) <= 1 or (0 not in c and len(set(c)) == 1) for c in seen):
            total += 1
    return total


def _valid_solution(sol, opts, n_primary, n_items):
    cnt = [0] * n_items
    for k in sol:
        for i in opts[k]:
            cnt[i] += 1
    return all(c == 1 for c in cnt[:n_primary]) and all(c <= 1 for c in cnt[n_primary:])


def _random_problem(rng, coloured=False, multiplicity=False):
    n_primary = int(rng.integers(2, 5))
    n_sec = int(rng.integers(0, 4))
    n_items = n_primary + n_sec
    n_opts = int(rng.integers(4, 12))
    opts, cols = [], []
    for _ in range(n_opts):
        size = int(rng.integers(1, min(3, n_items) + 1))
        o = sorted(int(i) for i in rng.choice(n_items, size=size, replace=False))
        opts.append(o)
        cols.append([int(rng.integers(0, 3)) if (coloured and i >= n_primary) else 0 for i in o])
    bnds = None
    if multiplicity:
        bnds = []
        for _ in range(n_primary):
            u = int(rng.integers(0, 3))
            v = int(rng.integers(max(u, 1), 4))
            bnds.append((u, v))
    return opts, n_primary, n_items, (cols if coloured else None), bnds


SUDOKU_PUZZLE = "004300209005009001070060043006002087190007400050083000600000105003508690042910300"
SUDOKU_SOLUTION = (
    "864371259325849761971265843436192587198657432257483916689734125713528694542916378"
)


def _time(prep, repeats=3):
    best = float("inf")
    result = None
    for _ in range(repeats):
        prep.reset()
        t0 = time.perf_counter()
        result = prep()
        best = min(best, time.perf_counter() - t0)
    return result, best


def selftest(adapters, verbose: bool = True) -> int:
    """Check every available peer of ``adapters`` (the ``peers.py`` module); count failures."""
    failures = 0

    def check(ok, msg):
        nonlocal failures
        if not ok:
            failures += 1
        if verbose:
            print(("ok    " if ok else "FAIL  ") + msg)

    print("peer versions:", adapters.peer_versions())
    print("available:", adapters.AVAILABLE)
    for p, e in adapters.IMPORT_ERRORS.items():
        print(f"  {p} import error: {e}")
    peers = [p for p in adapters.PEERS if adapters.AVAILABLE[p]]
    t0 = time.perf_counter()
    adapters.warmup(peers)
    print(f"warm-up {time.perf_counter() - t0:.2f}s")

    # Knuth's example: items a..g = 0..6
    knuth_expected = [0, 3, 4]  # c e, a d f, b g
    for p in peers:
        n = adapters.count_solutions(p, adapters._KNUTH_OPTIONS, 7, 7)
        check(n == 1, f"{p}: Knuth example count = {n} (expect 1)")
        s = adapters.first_solution(p, adapters._KNUTH_OPTIONS, 7, 7)
        check(s == knuth_expected, f"{p}: Knuth example solution = {s} (expect {knuth_expected})")
        # unsatisfiable: drop option 'a d f'
        opts = [o for k, o in enumerate(adapters._KNUTH_OPTIONS) if k != 3]
        n0 = adapters.count_solutions(p, opts, 7, 7)
        s0 = adapters.first_solution(p, opts, 7, 7)
        check(n0 == 0 and s0 is None, f"{p}: no-solution case count={n0} first={s0}")

    # N queens, diagonals secondary
    timings = {}
    for nq, expect in ((8, 92), (10, 724)):
        opts, npri, nitems = _queens(nq)
        for p in peers:
            prep = adapters.prepare(p, opts, npri, nitems)
            n, dt = _time(prep)
            timings[(p, nq)] = dt
            check(
                n == expect,
                f"{p}: {nq}-queens count = {n} (expect {expect}); best {dt * 1e3:.2f} ms",
            )
            prep.reset()
            lim = prep(limit=10)
            check(lim == 10, f"{p}: {nq}-queens count(limit=10) = {lim}")
            s = prep.first()
            check(
                s is not None and len(s) == nq and _valid_solution(s, opts, npri, nitems),
                f"{p}: {nq}-queens first solution valid {s}",
            )

    # Sudoku
    grid = np.frombuffer(SUDOKU_PUZZLE.encode(), dtype=np.uint8) - ord("0")
    want = np.frombuffer(SUDOKU_SOLUTION.encode(), dtype=np.uint8) - ord("0")
    # the same puzzle with 6 givens removed (several solutions; counts must agree)
    loose = grid.copy()
    loose[np.flatnonzero(loose)[:6]] = 0
    for p in peers:
        t = time.perf_counter()
        sol = adapters.sudoku_solve(p, grid)
        dt = time.perf_counter() - t
        check(
            sol is not None and np.array_equal(sol, want),
            f"{p}: sudoku solved correctly ({dt * 1e3:.1f} ms incl. conversion)",
        )
        opts, _ = adapters.sudoku_options(grid)
        n = adapters.count_solutions(p, opts, 324, 324)
        check(n == 1, f"{p}: sudoku has {n} solution(s) (expect 1)")
        prep, decode = adapters.prepare_sudoku(p, grid, pruned=True)
        check(
            np.array_equal(decode(prep.first()), want),
            f"{p}: sudoku solved correctly from the pruned encoding",
        )
        naive, _ = adapters.prepare_sudoku(p, loose)
        pruned, decode = adapters.prepare_sudoku(p, loose, pruned=True)
        n_naive, n_pruned = naive(), pruned()
        pruned.reset()
        found = decode(pruned.first())
        check(
            n_naive == n_pruned > 1
            and np.all(found[loose > 0] == loose[loose > 0])
            and np.all(np.sort(found.reshape(9, 9), axis=1) == np.arange(1, 10))
            and np.all(np.sort(found.reshape(9, 9), axis=0) == np.arange(1, 10)[:, None]),
            f"{p}: a 6-givens-fewer puzzle: {n_naive} solutions naive, {n_pruned} pruned",
        )

    # Random tiny problems against brute force
    rng = np.random.default_rng(12345)
    for trial_kind in ("exact", "coloured", "multiplicity"):
        bad = {p: 0 for p in peers}
        ran = {p: 0 for p in peers}
        for _ in range(150):
            opts, npri, nitems, cols, bnds = _random_problem(
                rng, coloured=trial_kind == "coloured", multiplicity=trial_kind == "multiplicity"
            )
            want_n = _brute(opts, npri, nitems, cols, bnds)
            for p in peers:
                try:
                    prep = adapters.prepare(p, opts, npri, nitems, colours=cols, bounds=bnds)
                except NotImplementedError:
                    continue
                ran[p] += 1
                got = prep()
                if got != want_n:
                    bad[p] += 1
                    if bad[p] <= 3:
                        print(
                            f"      mismatch {p} {trial_kind}: got {got} want {want_n}: "
                            f"{opts} npri={npri} nitems={nitems} cols={cols} bnds={bnds}"
                        )
                if trial_kind == "exact":
                    s = prep.first()
                    if (s is None) != (want_n == 0) or (
                        s is not None and not _valid_solution(s, opts, npri, nitems)
                    ):
                        bad[p] += 1
        for p in peers:
            if ran[p]:
                extra = (
                    " (only those with no colour used)"
                    if (trial_kind == "coloured" and adapters.SUPPORTS[p]["colours"] is False)
                    else ""
                )
                check(
                    bad[p] == 0, f"{p}: {ran[p]} random {trial_kind} problems vs brute force{extra}"
                )
            else:
                print(f"skip  {p}: {trial_kind} not supported (NotImplementedError)")

    if timings:
        print("\nN-queens counting (search only, best of 3):")
        print(f"  {'peer':12s} {'8-queens':>10s} {'10-queens':>10s}")
        for p in peers:
            print(f"  {p:12s} {timings[(p, 8)] * 1e3:8.2f}ms {timings[(p, 10)] * 1e3:8.2f}ms")
    print(f"\nselftest: {failures} failure(s)")
    return failures
