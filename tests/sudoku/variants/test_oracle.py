"""Every rule against the SAT oracle: random rule sets and puzzles (4x4 to 9x9, with and
without boxes), statuses and solutions of every engine that solves them and of the
exact-cover model searched by numbadlx.core, equal to the oracle's."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules
from numbadlx.sudoku.cover import decode_cover
from tests.helpers import bounds_checked

from .sat_oracle import is_solution, random_solution, solutions

TYPES = [
    "diagonals",
    "windoku",
    "disjoint",
    "anti_knight",
    "anti_king",
    "regions",
    "latin",
    "non_consecutive",
    "cages",
    "killer",
    "thermos",
    "white_dots",
    "black_dots",
    "x_pairs",
    "v_pairs",
    "odd_even",
    "mixed",
]
SIZES = (4, 6, 8, 9)


def _regions(n, rng):
    """A random region map: the boxes, then label swaps between cells (every region
    keeps n cells; not necessarily connected)."""
    from .sat_oracle import default_box

    r, c = default_box(n)
    ids = np.array([(i // n // r) * (n // c) + (i % n) // c for i in range(n * n)])
    for _ in range(int(rng.integers(1, 3 * n))):
        a, b = rng.choice(n * n, 2, replace=False)
        ids[a], ids[b] = ids[b], ids[a]
    return ids


def _adjacent(n):
    out = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        if c + 1 < n:
            out.append((cell, cell + 1))
        if r + 1 < n:
            out.append((cell, cell + n))
    return out


def _base(kind, n, rng):
    """The unit and peer rules of a case; without boxes a third of the time."""
    boxes = kind in ("disjoint", "regions") or rng.random() > 1 / 3
    base = {} if boxes else {"latin": True}
    if kind in ("diagonals", "windoku", "disjoint", "anti_knight", "anti_king"):
        base[kind] = True
    if kind == "regions":
        base = {"regions": _regions(n, rng)}
    if kind == "mixed":
        for flag in ("diagonals", "anti_king", "non_consecutive", "windoku"):
            if rng.random() < 0.3:
                base[flag] = True
    if kind == "non_consecutive":
        base[kind] = True
    if kind == "latin":
        base = {"latin": True}
    return base


def _constraints(kind, n, rng, grid):
    """Constraint rules read off a solution ``grid`` (so there is one), now and then a
    random one that may break it."""
    out = {}
    adjacent = _adjacent(n)
    if kind in ("cages", "killer", "mixed"):
        free = set(range(n * n))
        cages = []
        while free and (kind == "killer" or len(cages) < rng.integers(1, 5)):
            cell = int(rng.choice(sorted(free)))
            cage = [cell]
            free.discard(cell)
            for _ in range(int(rng.integers(0, 4))):
                options = [
                    b
                    for a in cage
                    for b in (a - 1, a + 1, a - n, a + n)
                    if b in free
                    and abs(b % n - a % n) <= 1
                    and grid[b] not in [grid[x] for x in cage]
                ]
                if not options:
                    break
                nxt = int(rng.choice(options))
                cage.append(nxt)
                free.discard(nxt)
            total = int(sum(grid[x] for x in cage))
            if rng.random() < 0.15:
                total = None
            cages.append((cage, total))
        out["cages"] = cages
    if kind in ("thermos", "mixed"):
        thermos = []
        for _ in range(int(rng.integers(1, 4))):
            cells = [int(x) for x in rng.choice(n * n, int(rng.integers(2, 5)), replace=False)]
            values = {}
            for cell in cells:
                values.setdefault(grid[cell], cell)
            thermo = [values[v] for v in sorted(values)]
            if rng.random() < 0.1:
                thermo = thermo[::-1]
            if len(thermo) >= 1:
                thermos.append(thermo)
        out["thermos"] = thermos
    tests = {
        "white_dots": lambda p, q: abs(p - q) == 1,
        "black_dots": lambda p, q: p == 2 * q or q == 2 * p,
        "x_pairs": lambda p, q: p + q == 10,
        "v_pairs": lambda p, q: p + q == 5,
    }
    for name, test in tests.items():
        if kind == name or (kind == "mixed" and rng.random() < 0.3):
            good = [p for p in adjacent if test(grid[p[0]], grid[p[1]])]
            k = int(rng.integers(0, 4))
            pairs = [good[i] for i in rng.permutation(len(good))[:k]]
            if rng.random() < 0.2:
                pairs.append(adjacent[int(rng.integers(len(adjacent)))])
            out[name] = pairs
    if kind in ("odd_even", "mixed"):
        cells = rng.choice(n * n, int(rng.integers(1, n + 1)), replace=False)
        out["odd"] = [int(c) for c in cells if grid[c] % 2]
        out["even"] = [int(c) for c in cells if grid[c] % 2 == 0]
    return out


def make_case(kind, n, rng):
    """``(puzzle, rules)``: a puzzle with givens from a random solution, or random
    givens when the rules have none."""
    base = _base(kind, n, rng)
    rules = Rules(**base)
    try:
        rules.checked(n)
    except ValueError:
        rules = Rules(**{**base, "latin": False})
    grid = random_solution(n, rules, rng)
    if grid is not None:
        rules = Rules(**base, **_constraints(kind, n, rng, grid))
        full = random_solution(n, rules, rng, tries=5) or grid
    else:
        full = [int(v) for v in rng.integers(1, n + 1, n * n)]
    share = rng.uniform(0.2, 0.6) if n < 9 else rng.uniform(0.45, 0.7)
    shown = rng.random(n * n) < share
    puzzle = np.where(shown, full, 0).astype(np.uint8)
    return puzzle, rules


def cases(kind, count, seed, sizes=SIZES):
    rng = np.random.default_rng(seed)
    by_size = {}
    for _ in range(count):
        n = int(rng.choice(sizes))
        by_size.setdefault(n, []).append(make_case(kind, n, rng))
    return by_size


def _expected(puzzle, n, rules):
    return solutions(puzzle, n, rules, limit=2)


def check_engine(engine, puzzles, rules_list, n, expected):
    try:
        result = sudoku.solve(puzzles, rules=rules_list, engine=engine, box=None)
    except ValueError as error:
        assert "does not solve the rules" in str(error) or "only" in str(error)
        return 0
    for k, found in enumerate(expected):
        status = sudoku.Status(result.status[k])
        where = f"{engine} {n}x{n} {rules_list[k]!r} {sudoku.format_line(puzzles[k])}"
        if len(found) == 0:
            assert status in (sudoku.Status.NO_SOLUTION, sudoku.Status.INVALID), where
        elif len(found) == 1:
            assert status == sudoku.Status.UNIQUE, where
            assert result.solutions[k].tolist() == found[0], where
        else:
            assert status == sudoku.Status.MULTIPLE, where
            assert is_solution(puzzles[k], n, rules_list[k], result.solutions[k]), where
    return 1


def check_cover(puzzle, n, rules, found):
    problem, cells, digits = sudoku.to_exact_cover(puzzle, rules=rules)
    got = [decode_cover(puzzle, s, cells, digits).tolist() for s in problem.solutions(limit=2)]
    where = f"cover {n}x{n} {rules!r} {sudoku.format_line(puzzle)}"
    assert len(got) == len(found), where
    if len(found) == 1:
        assert got == found, where
    for grid in got:
        assert is_solution(puzzle, n, rules, grid), where


def run_kind(kind, count, seed, sizes=SIZES):
    for n, group in cases(kind, count, seed, sizes).items():
        puzzles = np.stack([p for p, _ in group])
        rules_list = [r for _, r in group]
        expected = [_expected(p, n, r) for p, r in group]
        ran = sum(
            check_engine(engine, puzzles, rules_list, n, expected)
            for engine in ("auto", "bits", "dlx", "bands")
        )
        assert ran >= 1
        for (puzzle, rules), found in zip(group, expected):
            check_cover(puzzle, n, rules, found)


@pytest.mark.parametrize("kind", TYPES)
def test_rule_against_sat_4x4(kind):
    run_kind(kind, 6, seed=TYPES.index(kind), sizes=(4,))


@pytest.mark.slow
@pytest.mark.parametrize("kind", TYPES)
def test_rule_against_sat_quick(kind):
    run_kind(kind, 20, seed=100 + TYPES.index(kind))


# The many-case tier checks answers, not memory safety: the NUMBA_BOUNDSCHECK=1 run of
# the suite keeps the two tiers above and skips this one. It stays in the plain run (a
# quarter of that run's time) whatever NUMBADLX_ONCE_IN says: moved, it would make the
# bounds-checked run the longer one by far (tests/helpers.py, run_once).
@pytest.mark.slow
@pytest.mark.skipif(bounds_checked(), reason="run once, in the plain run of the suite")
@pytest.mark.parametrize("kind", TYPES)
def test_rule_against_sat_many(kind):
    # the mixed rule sets are the slowest to check by SAT (a third of the tier's time)
    run_kind(kind, 50 if kind == "mixed" else 100, seed=1000 + TYPES.index(kind))
