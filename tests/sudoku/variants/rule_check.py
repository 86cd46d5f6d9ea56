"""A plain-Python check of completed grids against the setters' rules, and brute force.

Each rule is read straight from its definition in the :class:`~numbadlx.sudoku.Rules`
docstring and evaluated on a finished grid (no clauses, no propagation), so that the
SAT oracle (:mod:`.sat_rules`) can be checked against it on every grid of a small size:
:func:`latin_squares` lists them all, :func:`completions` every completion of a puzzle.
"""

from __future__ import annotations

import itertools
import math

#: The rules :func:`broken` reads (besides rows, columns, boxes, regions, diagonals).
SETTER_RULES = (
    "arrows",
    "little_killers",
    "sandwiches",
    "x_sums",
    "skyscrapers",
    "whispers",
    "renbans",
    "palindromes",
    "between_lines",
    "region_sum_lines",
    "entropic_lines",
    "modular_lines",
    "zipper_lines",
    "lockout_lines",
    "quadruples",
    "greater",
    "minimums",
    "maximums",
    "extra_regions",
    "candidates",
    "negative",
)


def _box_shape(n, rules):
    if rules.box is not None:
        return rules.box
    r = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    return r, n // r


def region_of(n, rules):
    """The region (jigsaw region, else box; none on a Latin square: 0) of every cell."""
    if rules.regions is not None:
        return [int(v) for v in rules.regions]
    if rules.latin:
        return [0] * (n * n)
    rows, cols = _box_shape(n, rules)
    return [(cell // n) // rows * (n // cols) + (cell % n) // cols for cell in range(n * n)]


def _neighbours(cell, n):
    r, c = divmod(cell, n)
    return [
        r2 * n + c2
        for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= r2 < n and 0 <= c2 < n
    ]


def _units_ok(g, n, rules):
    rows = [[g[r * n + c] for c in range(n)] for r in range(n)]
    units = rows + [list(col) for col in zip(*rows)]
    if not rules.latin:
        where = region_of(n, rules)
        units += [[g[c] for c in range(n * n) if where[c] == k] for k in range(n)]
    if rules.diagonals in (True, "main"):
        units.append([g[i * n + i] for i in range(n)])
    if rules.diagonals in (True, "anti"):
        units.append([g[(n - 1 - i) * n + i] for i in range(n)])
    return all(sorted(u) == list(range(1, n + 1)) for u in units)


def _number(digits):
    value = 0
    for d in digits:
        value = 10 * value + d
    return value


def _seen(values):
    count, best = 0, 0
    for v in values:
        if v > best:
            count, best = count + 1, v
    return count


def _sandwich(values, n):
    i, j = sorted((values.index(1), values.index(n)))
    return sum(values[i + 1 : j])


def _between(values):
    low, high = sorted((values[0], values[-1]))
    return all(low < v < high for v in values[1:-1])


def _region_pieces_equal(line, g, where):
    sums, last = [], None
    for cell in line:
        if last is not None and where[cell] == where[last]:
            sums[-1] += g[cell]
        else:
            sums.append(g[cell])
        last = cell
    return len(set(sums)) == 1


def _zipper(values):
    k = len(values)
    sums = {values[i] + values[k - 1 - i] for i in range(k // 2)}
    if k % 2:
        sums.add(values[k // 2])
    return len(sums) <= 1


def _lockout(values, gap):
    low, high = sorted((values[0], values[-1]))
    if high - low < gap:
        return False
    return all(v < low or v > high for v in values[1:-1])


def _quadruple(values, digits):
    return all(values.count(d) >= digits.count(d) for d in digits)


def _negative_ok(g, n, rules):
    dots = {frozenset(p) for p in rules.white_dots + rules.black_dots}
    sums = {frozenset(p) for p in rules.x_pairs + rules.v_pairs}
    for cell in range(n * n):
        for other in _neighbours(cell, n):
            if other < cell:
                continue
            p, q = g[cell], g[other]
            pair = frozenset((cell, other))
            if pair not in dots:
                if "white" in rules.negative and abs(p - q) == 1:
                    return False
                if "black" in rules.negative and (p == 2 * q or q == 2 * p):
                    return False
            if pair not in sums:
                if "x" in rules.negative and p + q == 10:
                    return False
                if "v" in rules.negative and p + q == 5:
                    return False
    return True


def broken(grid, n, rules):
    """The names of the rules a completed ``grid`` breaks ("units" for a row, column,
    box, region or diagonal that does not hold every digit once)."""
    g = [int(v) for v in grid]
    out = []
    if not _units_ok(g, n, rules):
        out.append("units")

    def values(cells):
        return [g[c] for c in cells]

    def check(name, ok):
        if not ok:
            out.append(name)

    where = region_of(n, rules)
    half = (n + 1) // 2  # ceil(n / 2)
    third = n // 3 if n % 3 == 0 else None
    check(
        "arrows",
        all(_number(values(bulb)) == sum(values(line)) for bulb, line in rules.arrows),
    )
    check("little_killers", all(sum(values(c)) == t for c, t in rules.little_killers))
    check("sandwiches", all(_sandwich(values(c), n) == t for c, t in rules.sandwiches))
    check("x_sums", all(sum(values(c)[: g[c[0]]]) == t for c, t in rules.x_sums))
    check("skyscrapers", all(_seen(values(c)) == s for c, s in rules.skyscrapers))
    check(
        "whispers",
        all(
            abs(g[a] - g[b]) >= (half if gap is None else gap)
            for line, gap in rules.whispers
            for a, b in zip(line, line[1:])
        ),
    )
    check(
        "renbans",
        all(
            len(set(values(line))) == len(line)
            and max(values(line)) - min(values(line)) == len(line) - 1
            for line in rules.renbans
        ),
    )
    check("palindromes", all(values(line) == values(line)[::-1] for line in rules.palindromes))
    check(
        "between_lines",
        all(_between(values(line)) for line in rules.between_lines),
    )
    check(
        "region_sum_lines",
        all(_region_pieces_equal(line, g, where) for line in rules.region_sum_lines),
    )
    check(
        "entropic_lines",
        all(
            len({(v - 1) // third for v in values(line[k : k + 3])}) == len(line[k : k + 3])
            for line in rules.entropic_lines
            for k in range(max(1, len(line) - 2))  # a shorter line is one window
        ),
    )
    check(
        "modular_lines",
        all(
            len({v % (m or 3) for v in values(line[k : k + (m or 3)])})
            == len(line[k : k + (m or 3)])
            for line, m in rules.modular_lines
            for k in range(max(1, len(line) - (m or 3) + 1))  # a shorter line is one window
        ),
    )
    check("zipper_lines", all(_zipper(values(line)) for line in rules.zipper_lines))
    check("lockout_lines", all(_lockout(values(c), gap) for c, gap in rules.lockout_lines))
    check("quadruples", all(_quadruple(values(c), list(d)) for c, d in rules.quadruples))
    check("greater", all(g[a] > g[b] for a, b in rules.greater))
    check(
        "minimums",
        all(g[c] < g[o] for c in rules.minimums for o in _neighbours(c, n)),
    )
    check(
        "maximums",
        all(g[c] > g[o] for c in rules.maximums for o in _neighbours(c, n)),
    )
    check(
        "extra_regions",
        all(len(set(values(cells))) == len(cells) for cells in rules.extra_regions),
    )
    check("candidates", all(g[c] in digits for c, digits in rules.candidates))
    check("negative", _negative_ok(g, n, rules))
    # the marks the negative constraint reads are rules of their own
    check("white_dots", all(abs(g[a] - g[b]) == 1 for a, b in rules.white_dots))
    check("black_dots", all(g[a] in (2 * g[b], g[b] / 2) for a, b in rules.black_dots))
    check("x_pairs", all(g[a] + g[b] == 10 for a, b in rules.x_pairs))
    check("v_pairs", all(g[a] + g[b] == 5 for a, b in rules.v_pairs))
    # and the older rules on digits
    check("odd", all(g[c] % 2 == 1 for c in rules.odd))
    check("even", all(g[c] % 2 == 0 for c in rules.even))
    check(
        "cages",
        all(
            len(set(values(c))) == len(c) and (t is None or sum(values(c)) == t)
            for c, t in rules.cages
        ),
    )
    check("thermos", all(values(t) == sorted(set(values(t))) for t in rules.thermos))
    check(
        "non_consecutive",
        not rules.non_consecutive
        or all(abs(g[c] - g[o]) != 1 for c in range(n * n) for o in _neighbours(c, n)),
    )
    return out


def latin_squares(n):
    """Every ``n x n`` Latin square, as flat lists (576 for n = 4), by brute force."""
    rows = list(itertools.permutations(range(1, n + 1)))
    found = []

    def grow(done):
        if len(done) == n:
            found.append([v for row in done for v in row])
            return
        for row in rows:
            if all(row[c] != other[c] for other in done for c in range(n)):
                grow(done + [row])

    grow([])
    return found


def completions(puzzle, n, rules, limit=None):
    """Every completion of ``puzzle`` (flat digits, 0 empty) whose rows and columns hold
    distinct digits and that :func:`broken` finds nothing wrong with, by trying every
    digit in every empty cell in reading order."""
    g = [int(v) for v in puzzle]
    empty = [c for c in range(n * n) if g[c] == 0]
    found = []

    def fits(cell, d):
        r, c = divmod(cell, n)
        return all(g[r * n + k] != d for k in range(n)) and all(g[k * n + c] != d for k in range(n))

    def grow(k):
        if limit is not None and len(found) >= limit:
            return
        if k == len(empty):
            if not broken(g, n, rules):
                found.append(list(g))
            return
        cell = empty[k]
        for d in range(1, n + 1):
            if fits(cell, d):
                g[cell] = d
                grow(k + 1)
                g[cell] = 0

    grow(0)
    return found
