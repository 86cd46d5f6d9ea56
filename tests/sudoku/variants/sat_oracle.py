"""An independent oracle for variant Sudokus: a SAT model per rule (python-sat).

Written apart from the package's geometry and exact-cover code: one boolean variable per
(cell, digit), every rule as clauses, cages and thermometers as tables of allowed digit
tuples (an auxiliary variable per tuple, one of them true); the setters' rules (arrows,
lines, outside clues, inequalities...) are in :mod:`.sat_rules`. Solutions are counted
up to a limit with blocking clauses.
"""

from __future__ import annotations

import itertools

from pysat.solvers import Minisat22

from .sat_rules import add_setter_rules

KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def default_box(n):
    r = max(d for d in range(1, int(n**0.5) + 1) if n % d == 0)
    return r, n // r


def groups(n, rules):
    """Every set of cells that holds distinct digits (n cells each), from the rules."""
    cells = [[r * n + c for c in range(n)] for r in range(n)]
    out = [list(row) for row in cells]
    out += [[cells[r][c] for r in range(n)] for c in range(n)]
    br, bc = rules.box if rules.box is not None else default_box(n)
    box_of = {}
    for r in range(n):
        for c in range(n):
            box_of[r * n + c] = (r // br) * (n // bc) + c // bc
    boxes = [[cell for cell in range(n * n) if box_of[cell] == b] for b in range(n)]
    if rules.regions is not None:
        ids = [int(v) for v in rules.regions]
        for k in sorted(set(ids)):
            out.append([cell for cell in range(n * n) if ids[cell] == k])
    elif not rules.latin:
        out += boxes
    if rules.diagonals in (True, "main"):  # top-left to bottom-right
        out.append([i * n + i for i in range(n)])
    if rules.diagonals in (True, "anti"):  # bottom-left to top-right
        out.append([i * n + (n - 1 - i) for i in range(n)])
    if rules.windoku:
        top = 1
        while top + br <= n:
            left = 1
            while left + bc <= n:
                out.append([(top + i) * n + left + j for i in range(br) for j in range(bc)])
                left += bc + 1
            top += br + 1
    if rules.disjoint:
        for pos in range(n):
            out.append([box[pos] for box in boxes])
    return out


def region_map(n, rules):
    """Each cell's jigsaw region, else its box (of the rules' box shape or the default
    one): what the region-sum lines are cut by. A Latin square has neither: one region
    of every cell (a region-sum line is one piece, no constraint)."""
    if rules.regions is not None:
        return [int(v) for v in rules.regions]
    if rules.latin:
        return [0] * (n * n)
    br, bc = rules.box if rules.box is not None else default_box(n)
    return [(cell // n // br) * (n // bc) + cell % n // bc for cell in range(n * n)]


def neighbours(n, steps):
    pairs = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < n and 0 <= c2 < n:
                    a, b = r * n + c, r2 * n + c2
                    pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


class Model:
    """The clauses of one puzzle under one rule set."""

    def __init__(self, puzzle, n, rules):
        self.n = n
        self.clauses = []
        self.top = n * n * n
        puzzle = [int(v) for v in puzzle]

        def x(cell, d):
            return cell * n + d

        self.x = x
        for cell in range(n * n):
            self.clauses.append([x(cell, d) for d in range(1, n + 1)])
            for d, e in itertools.combinations(range(1, n + 1), 2):
                self.clauses.append([-x(cell, d), -x(cell, e)])
            if puzzle[cell]:
                if puzzle[cell] > n:
                    self.clauses.append([])
                else:
                    self.clauses.append([x(cell, puzzle[cell])])
        for group in groups(n, rules):
            self._distinct(group)
            if len(group) == n:
                for d in range(1, n + 1):
                    self.clauses.append([x(cell, d) for cell in group])
        steps = (KNIGHT if rules.anti_knight else []) + (KING if rules.anti_king else [])
        for a, b in neighbours(n, steps):
            for d in range(1, n + 1):
                self.clauses.append([-x(a, d), -x(b, d)])
        if rules.non_consecutive:
            for a, b in neighbours(n, [(0, 1), (1, 0)]):
                for d in range(1, n):
                    self.clauses.append([-x(a, d), -x(b, d + 1)])
                    self.clauses.append([-x(a, d + 1), -x(b, d)])
        digits = range(1, n + 1)
        for cells, total in rules.cages:
            self._distinct(cells)
            allowed = [
                t
                for t in itertools.permutations(digits, len(cells))
                if total is None or sum(t) == total
            ]
            self._table(cells, allowed)
        for cells in rules.thermos:
            self._table(cells, list(itertools.combinations(digits, len(cells))))
        tests = {
            "white_dots": lambda p, q: abs(p - q) == 1,
            "black_dots": lambda p, q: p == 2 * q or q == 2 * p,
            "x_pairs": lambda p, q: p + q == 10,
            "v_pairs": lambda p, q: p + q == 5,
        }
        for name, test in tests.items():
            for a, b in getattr(rules, name):
                for p in digits:
                    for q in digits:
                        if not test(p, q):
                            self.clauses.append([-x(a, p), -x(b, q)])
        for cell in rules.odd:
            self.clauses += [[-x(cell, d)] for d in digits if d % 2 == 0]
        for cell in rules.even:
            self.clauses += [[-x(cell, d)] for d in digits if d % 2 == 1]
        add_setter_rules(self, n, rules, region_map(n, rules))

    def _distinct(self, cells):
        n = self.n
        self.clauses.extend(
            [-(a * n + d), -(b * n + d)]
            for a, b in itertools.combinations(cells, 2)
            for d in range(1, n + 1)
        )

    def _table(self, cells, allowed):
        chosen = []
        for t in allowed:
            self.top += 1
            chosen.append(self.top)
            for cell, d in zip(cells, t):
                self.clauses.append([-self.top, self.x(cell, d)])
        self.clauses.append(chosen)

    def grid(self, model):
        values = [0] * (self.n * self.n)
        true = {v for v in model if v > 0}
        for cell in range(self.n * self.n):
            for d in range(1, self.n + 1):
                if self.x(cell, d) in true:
                    values[cell] = d
        return values


def solutions(puzzle, n, rules, limit=2, assumptions=()):
    """Up to ``limit`` solutions (lists of digits) of ``puzzle`` under ``rules``."""
    model = Model(puzzle, n, rules)
    if any(len(c) == 0 for c in model.clauses):
        return []
    found = []
    with Minisat22(bootstrap_with=model.clauses) as solver:
        while len(found) < limit and solver.solve(assumptions=list(assumptions)):
            grid = model.grid(solver.get_model())
            found.append(grid)
            solver.add_clause([-model.x(cell, d) for cell, d in enumerate(grid)])
    return found


def is_solution(puzzle, n, rules, grid):
    """Whether ``grid`` completes ``puzzle`` under ``rules``."""
    model = Model(puzzle, n, rules)
    if any(len(c) == 0 for c in model.clauses):
        return False
    with Minisat22(bootstrap_with=model.clauses) as solver:
        return solver.solve(assumptions=[model.x(cell, int(d)) for cell, d in enumerate(grid)])


def random_solution(n, rules, rng, tries=20):
    """A random solution under ``rules`` (None if there is none): random cells fixed to
    random digits while the model stays satisfiable."""
    model = Model([0] * (n * n), n, rules)
    with Minisat22(bootstrap_with=model.clauses) as solver:
        if not solver.solve():
            return None
        fixed = []
        for _ in range(tries):
            cell = int(rng.integers(n * n))
            d = int(rng.integers(1, n + 1))
            if solver.solve(assumptions=fixed + [model.x(cell, d)]):
                fixed.append(model.x(cell, d))
        solver.solve(assumptions=fixed)
        return model.grid(solver.get_model())
