"""The rules of the Sudoku variants as they read, for the tests: random variant cases
(:func:`make_case`), and plain checks of a full grid against the rules
(:func:`broken_rule`, :func:`line_rule_holds`), each written from the definitions in
:class:`~numbadlx.sudoku.Rules`, apart from the engines. Tests import them through
:mod:`tests.helpers`."""

from collections import Counter

import numpy as np

from numbadlx.sudoku import Rules


def _regions(n, rng):
    """A random region map: the boxes, then label swaps between cells (every region
    keeps n cells; not necessarily connected)."""
    from tests.sudoku.variants.sat_oracle import default_box

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
    """A random variant case of rule ``kind`` (a name of the SAT oracle's test list:
    "diagonals", "killer", "mixed", ...) on an ``n`` x ``n`` grid: ``(puzzle, rules)``,
    a puzzle with givens from a random solution (found by the SAT oracle), or random
    givens when the rules have none."""
    from tests.sudoku.variants.sat_oracle import random_solution

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


def broken_rule(grid, n, rules):
    """The name of the first rule a full ``grid`` (n*n digits) breaks, or None: each
    rule checked from its definition in :class:`~numbadlx.sudoku.Rules`, written apart
    from the engines, for checking published solutions against the rules read."""
    g = [int(d) for d in grid]
    rows, cols = (rules.box or (n, 1)) if rules.regions is None else (n, 1)
    if rules.regions is not None:
        region = [int(r) for r in rules.regions]
    else:
        region = [(c // n // rows) * (n // cols) + (c % n) // cols for c in range(n * n)]
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    if not rules.latin:
        units += [[c for c in range(n * n) if region[c] == k] for k in set(region)]
    if rules.main_diagonal:
        units.append([k * n + k for k in range(n)])
    if rules.anti_diagonal:
        units.append([(n - 1 - k) * n + k for k in range(n)])
    units += [list(cells) for cells in rules.extra_regions]
    for unit in units:
        if len({g[c] for c in unit}) != len(unit):
            return f"units {unit}"

    def neighbours(c, steps):
        r, k = divmod(c, n)
        return [(r + a) * n + k + b for a, b in steps if 0 <= r + a < n and 0 <= k + b < n]

    orth = [(0, 1), (1, 0), (0, -1), (-1, 0)]
    knight = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
    king = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]
    for name, steps in (("anti_knight", knight), ("anti_king", king)):
        if getattr(rules, name) and any(
            g[c] == g[d] for c in range(n * n) for d in neighbours(c, steps)
        ):
            return name
    if rules.non_consecutive and any(
        abs(g[c] - g[d]) == 1 for c in range(n * n) for d in neighbours(c, orth)
    ):
        return "non_consecutive"
    for cells, total in rules.cages:
        if len({g[c] for c in cells}) != len(cells) or (
            total is not None and sum(g[c] for c in cells) != total
        ):
            return "cages"
    checks = {
        "thermos": [all(g[a] < g[b] for a, b in zip(t, t[1:])) for t in rules.thermos],
        "white_dots": [abs(g[a] - g[b]) == 1 for a, b in rules.white_dots],
        "black_dots": [g[a] == 2 * g[b] or g[b] == 2 * g[a] for a, b in rules.black_dots],
        "x_pairs": [g[a] + g[b] == 10 for a, b in rules.x_pairs],
        "v_pairs": [g[a] + g[b] == 5 for a, b in rules.v_pairs],
        "greater": [g[a] > g[b] for a, b in rules.greater],
        "odd": [g[c] % 2 == 1 for c in rules.odd],
        "even": [g[c] % 2 == 0 for c in rules.even],
        "minimums": [all(g[c] < g[d] for d in neighbours(c, orth)) for c in rules.minimums],
        "maximums": [all(g[c] > g[d] for d in neighbours(c, orth)) for c in rules.maximums],
        "candidates": [g[c] in digits for c, digits in rules.candidates],
        "arrows": [
            sum(g[c] for c in line) == int("".join(str(g[c]) for c in bulb))
            if len(bulb) == 1 or n <= 9
            else True
            for bulb, line in rules.arrows
        ],
        "little_killers": [sum(g[c] for c in cells) == t for cells, t in rules.little_killers],
        "whispers": [
            all(abs(g[a] - g[b]) >= gap for a, b in zip(line, line[1:]))
            for line, gap in rules.whispers
        ],
        "renbans": [
            len({g[c] for c in line}) == len(line)
            and max(g[c] for c in line) - min(g[c] for c in line) == len(line) - 1
            for line in rules.renbans
        ],
        "palindromes": [[g[c] for c in p] == [g[c] for c in p[::-1]] for p in rules.palindromes],
        "between_lines": [
            all(min(g[b[0]], g[b[-1]]) < g[c] < max(g[b[0]], g[b[-1]]) for c in b[1:-1])
            for b in rules.between_lines
        ],
        "zipper_lines": [
            len(
                {g[z[k]] + g[z[-1 - k]] for k in range(len(z) // 2)}
                | ({2 * g[z[len(z) // 2]]} if len(z) % 2 else set())
            )
            == 1
            if len(z) % 2 == 0
            else {g[z[k]] + g[z[-1 - k]] for k in range(len(z) // 2)} == {g[z[len(z) // 2]]}
            for z in rules.zipper_lines
        ],
        "quadruples": [
            all(sum(g[c] == d for c in four) >= list(ds).count(d) for d in ds)
            for four, ds in rules.quadruples
        ],
    }
    third = n // 3 if n % 3 == 0 else None
    checks["entropic_lines"] = [
        all(
            len({(g[c] - 1) // third for c in line[k : k + 3]}) == len(line[k : k + 3])
            for k in range(max(1, len(line) - 2))
        )
        for line in rules.entropic_lines
    ]
    checks["modular_lines"] = [
        all(
            len({g[c] % m for c in line[k : k + m]}) == len(line[k : k + m])
            for k in range(max(1, len(line) - m + 1))
        )
        for line, m in rules.modular_lines
    ]
    sums = []
    for line in rules.region_sum_lines:
        pieces = [[line[0]]]
        for a, b in zip(line, line[1:]):
            if region[a] == region[b]:
                pieces[-1].append(b)
            else:
                pieces.append([b])
        sums.append(len({sum(g[c] for c in piece) for piece in pieces}) == 1)
    checks["region_sum_lines"] = sums
    seen = []
    for line, count in rules.skyscrapers:
        top, visible = 0, 0
        for c in line:
            if g[c] > top:
                top, visible = g[c], visible + 1
        seen.append(visible == count)
    checks["skyscrapers"] = seen
    checks["x_sums"] = [sum(g[c] for c in line[: g[line[0]]]) == t for line, t in rules.x_sums]
    inner = []
    for line, total in rules.sandwiches:
        ends = sorted(k for k, c in enumerate(line) if g[c] in (1, n))
        inner.append(sum(g[c] for c in line[ends[0] + 1 : ends[1]]) == total)
    checks["sandwiches"] = inner
    marked = {
        "white": {frozenset(p) for p in rules.white_dots + rules.black_dots},
        "black": {frozenset(p) for p in rules.white_dots + rules.black_dots},
        "x": {frozenset(p) for p in rules.x_pairs + rules.v_pairs},
        "v": {frozenset(p) for p in rules.x_pairs + rules.v_pairs},
    }
    meets = {
        "white": lambda a, b: abs(a - b) == 1,
        "black": lambda a, b: a == 2 * b or b == 2 * a,
        "x": lambda a, b: a + b == 10,
        "v": lambda a, b: a + b == 5,
    }
    checks["negative"] = [
        not any(
            meets[kind](g[c], g[d]) and frozenset((c, d)) not in marked[kind]
            for c in range(n * n)
            for d in neighbours(c, orth)
        )
        for kind in rules.negative
    ]
    for name, results in checks.items():
        if not all(results):
            return name
    return None


# -- outside clues, lines and quadruples, from the Rules docstring ---------------------

#: The rule kinds :func:`line_rule_holds` checks.
LINE_KINDS = (
    "sandwiches",
    "x_sums",
    "skyscrapers",
    "between_lines",
    "lockout_lines",
    "quadruples",
    "renbans",
)


def line_rule_holds(kind, value, grid, n):
    """Whether the full ``grid`` (flat digits) meets one rule ``value`` of ``kind``."""
    if kind in ("sandwiches", "x_sums", "skyscrapers"):
        line, number = value
        digits = [int(grid[c]) for c in line]
        if kind == "sandwiches":
            a, b = sorted((digits.index(1), digits.index(n)))
            return sum(digits[a + 1 : b]) == number
        if kind == "x_sums":
            return sum(digits[: digits[0]]) == number
        tallest, seen = 0, 0
        for d in digits:
            if d > tallest:
                tallest, seen = d, seen + 1
        return seen == number
    if kind == "quadruples":
        four, listed = value
        have = Counter(int(grid[c]) for c in four)
        return all(have[d] >= k for d, k in Counter(listed).items())
    if kind == "lockout_lines":
        line, gap = value
        digits = [int(grid[c]) for c in line]
        low, high = sorted((digits[0], digits[-1]))
        return high - low >= gap and all(d < low or d > high for d in digits[1:-1])
    digits = [int(grid[c]) for c in value]
    if kind == "between_lines":
        low, high = sorted((digits[0], digits[-1]))
        return all(low < d < high for d in digits[1:-1])
    # renbans: distinct, consecutive
    return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1


def line_rules_hold(rules, grid, n):
    return all(
        line_rule_holds(kind, value, grid, n)
        for kind in LINE_KINDS
        for value in getattr(rules, kind)
    )
