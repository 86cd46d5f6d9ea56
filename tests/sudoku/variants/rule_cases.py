"""Random instances of the setters' rules, for the differential tests against SAT.

:func:`make_instance` takes a random solution grid (from the SAT oracle, under random
unit rules: boxes, a Latin square, jigsaw regions, sometimes a diagonal), reads clues of
one rule kind off it (sums, counts, lines whose digits obey the rule...), now and then
mixes in a second kind, now and then perturbs a clue (so some instances have no
solution), and shows some of the grid's digits as givens.
"""

from __future__ import annotations

import numpy as np

from numbadlx.sudoku import Rules

from .rule_check import SETTER_RULES, broken
from .sat_oracle import default_box, random_solution

#: The rule kinds the generator makes, one per test (two diagonal kinds).
KINDS = ("diagonal_main", "diagonal_anti", *SETTER_RULES)
_LINE_KINDS = (
    "whispers",
    "renbans",
    "palindromes",
    "between_lines",
    "region_sum_lines",
    "entropic_lines",
    "modular_lines",
    "zipper_lines",
    "lockout_lines",
)
_KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
_ORTHOGONAL = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def _pick(rng, items):
    return items[int(rng.integers(len(items)))]


def _walk(n, rng, length, steps=_KING, start=None):
    """A random path of distinct cells, each a step of ``steps`` from the last."""
    cell = int(rng.integers(n * n)) if start is None else start
    path = [cell]
    while len(path) < length:
        r, c = divmod(path[-1], n)
        nxt = [
            (r + dr) * n + c + dc
            for dr, dc in steps
            if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path
        ]
        if not nxt:
            break
        path.append(_pick(rng, nxt))
    return path


def _regions(n, rng, grid):
    """A jigsaw map that ``grid`` (a Sudoku grid) still fits: the boxes, then cells that
    hold the same digit swapped between regions (every region keeps n cells and every
    digit; not necessarily connected)."""
    r, c = default_box(n)
    ids = np.array([(i // n // r) * (n // c) + (i % n) // c for i in range(n * n)])
    for _ in range(int(rng.integers(1, 2 * n))):
        a = int(rng.integers(n * n))
        mates = [b for b in range(n * n) if grid[b] == grid[a] and ids[b] != ids[a]]
        if mates:
            b = _pick(rng, mates)
            ids[a], ids[b] = ids[b], ids[a]
    return ids


def _base(kind, n, rng):
    """The unit rules: boxes, a Latin square (always on 5x5 and 7x7) or regions."""
    roll = rng.random()
    diagonal = {"diagonal_main": "main", "diagonal_anti": "anti"}.get(kind)
    base = {} if diagonal is None else {"diagonals": diagonal}
    if n in (5, 7) or roll < 0.3:
        base["latin"] = True
    elif roll < 0.45:  # regions a grid fits, so that the jigsaw has a solution
        base["regions"] = _regions(n, rng, random_solution(n, Rules(**base), rng))
    return base


def _line_rule(kind, n, rng):
    """A random clue value of a line kind (its line filled in later)."""
    if kind == "whispers":
        return None if rng.random() < 0.6 else int(rng.integers(1, n))
    if kind == "modular_lines":
        return None if rng.random() < 0.5 else int(rng.integers(2, min(n, 5) + 1))
    return None


def _fitting_line(kind, n, grid, rng, base, tries=60):
    """A line of ``kind`` whose digits in ``grid`` obey it (None if none is found)."""
    for _ in range(tries):
        longest = int(rng.integers(2, min(n, 7) + 1))
        if kind in ("entropic_lines", "zipper_lines", "between_lines", "lockout_lines"):
            longest = max(longest, 3)
        path = _walk(n, rng, longest)
        for length in range(len(path), 1, -1):
            line = tuple(path[:length])
            if kind == "whispers" or kind == "modular_lines":
                number = _line_rule(kind, n, rng)
                value = line if number is None else (line, number)
            elif kind == "lockout_lines":
                gap = abs(grid[line[0]] - grid[line[-1]])
                if gap < 1:
                    continue
                value = (line, int(rng.integers(1, gap + 1)))
            else:
                value = line
            if not broken(grid, n, Rules(**base, **{kind: [value]})):
                return value
    return None


def _arrow(n, grid, rng):
    for _ in range(60):
        pill = 1 if rng.random() < 0.7 else int(rng.integers(2, 4))
        step = 1 if rng.random() < 0.5 else n
        start = int(rng.integers(n * n))
        bulb = [start + k * step for k in range(pill)]
        if bulb[-1] >= n * n or (step == 1 and bulb[-1] // n != start // n):
            continue
        target = int("".join(str(grid[c]) for c in bulb))
        path = _walk(n, rng, min(n * n - pill, target + 1), start=bulb[-1])[1:]
        path = [c for c in path if c not in bulb]
        total = 0
        for k, cell in enumerate(path):
            if k and max(abs(cell // n - path[k - 1] // n), abs(cell % n - path[k - 1] % n)) > 1:
                break
            total += grid[cell]
            if total == target and (pill > 1 or k + 1 <= n):
                return (tuple(bulb), tuple(path[: k + 1]))
            if total > target:
                break
    return None


def _diagonal(n, rng):
    r, c = int(rng.integers(n)), int(rng.integers(n))
    dr, dc = _pick(rng, [(1, 1), (1, -1), (-1, 1), (-1, -1)])
    cells = []
    while 0 <= r < n and 0 <= c < n:
        cells.append(r * n + c)
        r, c = r + dr, c + dc
    return cells


def _outside_line(n, rng):
    k = int(rng.integers(n))
    line = [k * n + c for c in range(n)] if rng.random() < 0.5 else [r * n + k for r in range(n)]
    return line[::-1] if rng.random() < 0.5 else line


def _seen(values):
    count, best = 0, 0
    for v in values:
        if v > best:
            count, best = count + 1, v
    return count


def _adjacent_pairs(n):
    out = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        if c + 1 < n:
            out.append((cell, cell + 1))
        if r + 1 < n:
            out.append((cell, cell + n))
    return out


def _neighbours(cell, n):
    r, c = divmod(cell, n)
    return [(r + dr) * n + c + dc for dr, dc in _ORTHOGONAL if 0 <= r + dr < n and 0 <= c + dc < n]


def _negative(n, grid, rng):
    kinds = [k for k in ("white", "black", "x", "v") if rng.random() < 0.5] or ["white"]
    out = {"negative": tuple(kinds)}
    marks = {"white_dots": [], "black_dots": [], "x_pairs": [], "v_pairs": []}
    for a, b in _adjacent_pairs(n):
        p, q = grid[a], grid[b]
        dots = []
        if abs(p - q) == 1:
            dots.append("white_dots")
        if p == 2 * q or q == 2 * p:
            dots.append("black_dots")
        if dots:  # a 1-2 pair gets one of its two dots
            marks[_pick(rng, dots)].append((a, b))
        if p + q == 10:
            marks["x_pairs"].append((a, b))
        if p + q == 5:
            marks["v_pairs"].append((a, b))
    for name, pairs in marks.items():
        if pairs:
            out[name] = pairs
    return out


def clues(kind, n, grid, rng, base):
    """Rules keywords of one ``kind`` read off ``grid`` (which obeys them), or {}."""
    count = int(rng.integers(1, 4))
    if kind.startswith("diagonal"):
        return {}
    if kind == "arrows":
        found = [a for a in (_arrow(n, grid, rng) for _ in range(count)) if a]
        return {"arrows": found} if found else {}
    if kind == "little_killers":
        return {
            "little_killers": [
                (d, sum(grid[c] for c in d)) for d in (_diagonal(n, rng) for _ in range(count))
            ]
        }
    if kind in ("sandwiches", "x_sums", "skyscrapers"):
        out = []
        for _ in range(count):
            line = _outside_line(n, rng)
            values = [grid[c] for c in line]
            if kind == "sandwiches":
                i, j = sorted((values.index(1), values.index(n)))
                out.append((line, sum(values[i + 1 : j])))
            elif kind == "x_sums":
                out.append((line, sum(values[: values[0]])))
            else:
                out.append((line, _seen(values)))
        return {kind: out}
    if kind in _LINE_KINDS:
        if kind == "entropic_lines" and n % 3:
            return {}
        found = [v for v in (_fitting_line(kind, n, grid, rng, base) for _ in range(count)) if v]
        return {kind: found} if found else {}
    if kind == "quadruples":
        out = []
        for _ in range(count):
            top = int(rng.integers(n - 1)) * n + int(rng.integers(n - 1))
            four = [top, top + 1, top + n, top + n + 1]
            values = [grid[c] for c in four]
            shown = sorted(values[k] for k in rng.permutation(4)[: int(rng.integers(1, 5))])
            out.append((four, shown))
        return {"quadruples": out}
    if kind == "greater":
        pairs = [_pick(rng, _adjacent_pairs(n)) for _ in range(count + 2)]
        return {"greater": [(a, b) if grid[a] > grid[b] else (b, a) for a, b in set(pairs)]}
    if kind in ("minimums", "maximums"):
        want = min if kind == "minimums" else max
        cells = [
            c
            for c in range(n * n)
            if grid[c] == want([grid[c]] + [grid[o] for o in _neighbours(c, n)])
            and all(grid[o] != grid[c] for o in _neighbours(c, n))
        ]
        picked = [int(c) for c in rng.permutation(cells)[:count]]
        return {kind: picked} if picked else {}
    if kind == "extra_regions":
        out = []
        for _ in range(count):
            size = int(rng.integers(2, n + 1))
            region = []
            for cell in _walk(n, rng, 3 * n, steps=_ORTHOGONAL):
                if all(grid[cell] != grid[c] for c in region):
                    region.append(cell)
                if len(region) == size:
                    break
            if len(region) >= 2 and not any(set(region) & set(r) for r in out):
                out.append(region)
        return {"extra_regions": out}
    if kind == "candidates":
        out = {}
        for cell in rng.choice(n * n, int(rng.integers(1, n + 1)), replace=False):
            others = [int(d) for d in rng.permutation(np.arange(1, n + 1)) if d != grid[cell]]
            out[int(cell)] = [grid[cell]] + others[: int(rng.integers(0, n - 1))]
        return {"candidates": out}
    if kind == "negative":
        return _negative(n, grid, rng)
    raise ValueError(kind)


def _perturb(kind, found, n, rng):
    """One clue of ``found`` changed at random (the grid may no longer obey it)."""
    if kind in ("little_killers", "sandwiches", "x_sums", "skyscrapers"):
        items = list(found[kind])
        k = int(rng.integers(len(items)))
        line, number = items[k]
        low, high = {
            "little_killers": (len(line), len(line) * n),
            "sandwiches": (0, n * (n - 1) // 2 - 1),
            "x_sums": (1, n * (n + 1) // 2),
            "skyscrapers": (1, n),
        }[kind]
        items[k] = (line, int(min(high, max(low, number + _pick(rng, [-2, -1, 1, 2])))))
        found[kind] = items
    elif kind == "greater" and found.get("greater"):
        a, b = found["greater"][0]
        found["greater"] = [(b, a)] + list(found["greater"][1:])
    elif kind == "arrows" and found.get("arrows"):
        bulb, line = found["arrows"][0]
        if len(line) > 1:  # one digit fewer on the line: the sum drops
            found["arrows"] = [(bulb, line[:-1])] + list(found["arrows"][1:])
    elif found.get(kind) and kind in _LINE_KINDS:  # one more line, not read off the grid
        line = tuple(_walk(n, rng, int(rng.integers(2, min(n, 6) + 1))))
        if len(line) >= 2:
            number = int(rng.integers(1, n)) if kind == "lockout_lines" else None
            value = line if number is None else (line, number)
            found[kind] = list(found[kind]) + [value]
    elif kind == "negative":  # a mark dropped: its pair now breaks the constraint
        marked = [
            name for name in ("white_dots", "black_dots", "x_pairs", "v_pairs") if found.get(name)
        ]
        if marked:
            name = _pick(rng, marked)
            pairs = list(found[name])
            del pairs[int(rng.integers(len(pairs)))]
            found[name] = pairs
    elif kind == "quadruples":  # a digit that may not be in the 2x2
        four, digits = found["quadruples"][0]
        found["quadruples"] = [(four, sorted([*digits[:3], int(rng.integers(1, n + 1))]))]
    elif kind in ("minimums", "maximums") and found.get(kind):
        found[kind] = sorted({*found[kind], int(rng.integers(n * n))})
    elif kind == "extra_regions":  # a region not read off the grid
        found[kind] = list(found[kind]) + [_walk(n, rng, int(rng.integers(2, n + 1)), _ORTHOGONAL)]
    elif kind == "candidates":
        cell = _pick(rng, list(found["candidates"]))
        found["candidates"][cell] = [int(rng.integers(1, n + 1))]
    return found


def make_instance(kind, n, rng, mix=0.3, perturb=0.15):
    """``(puzzle, rules)``: an ``n x n`` puzzle (uint8 array) under rules of ``kind``,
    with givens from a grid that obeys them (unless a clue was perturbed)."""
    base = _base(kind, n, rng)
    grid = random_solution(n, Rules(**base), rng)
    found = clues(kind, n, grid, rng, base)
    if rng.random() < mix:
        other = _pick(rng, [k for k in KINDS if k != kind and not k.startswith("diagonal")])
        for name, value in clues(other, n, grid, rng, base).items():
            if name not in found:
                found[name] = value
    if found and rng.random() < perturb:
        found = _perturb(kind, found, n, rng)
    rules = Rules(**base, **found)
    full = random_solution(n, rules, rng, tries=5) or grid
    share = rng.uniform(0.0, 0.5) if n < 7 else rng.uniform(0.3, 0.7)
    shown = rng.random(n * n) < share
    puzzle = np.where(shown, full, 0).astype(np.uint8)
    if shown.any() and rng.random() < perturb / 2:  # a given changed: often no solution
        puzzle[_pick(rng, list(np.flatnonzero(shown)))] = int(rng.integers(1, n + 1))
    return puzzle, rules


def instances(kind, count, seed, sizes=(4, 5, 6, 7, 8, 9)):
    """``count`` instances of ``kind``, grouped by size: ``{n: [(puzzle, rules), ...]}``."""
    rng = np.random.default_rng(seed)
    out = {}
    for _ in range(count):
        if kind == "entropic_lines":
            sizes = [s for s in sizes if s % 3 == 0]  # three equal runs of digits
        n = int(rng.choice(sizes))
        out.setdefault(n, []).append(make_instance(kind, n, rng))
    return out
