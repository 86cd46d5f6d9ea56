"""The SAT oracle's clauses for the setters' rules (arrows, lines, outside clues...).

Written from the definitions in the :class:`~numbadlx.sudoku.Rules` docstring, apart
from the package's engines and exact-cover model. ``x(cell, d)`` is the variable
"cell holds d" (exactly one per cell, set up by :class:`sat_oracle.Model`).

Sums, where digits may repeat, go through :meth:`Clauses.running_sums`: one variable per
reachable partial sum after each cell, forced both ways (a partial sum holds exactly
when the cells so far add up to it), so "the line sums to t" is one unit clause.
"""

from __future__ import annotations

import itertools
import math

#: The negative constraint's exemptions: a neighbour pair with any dot (white or black)
#: is exempt from the dots' negative constraint, one with an X or a V from the sums'.
NEGATIVE_MARKS = {
    "white": ("white_dots", "black_dots"),
    "black": ("white_dots", "black_dots"),
    "x": ("x_pairs", "v_pairs"),
    "v": ("x_pairs", "v_pairs"),
}
NEGATIVE_TESTS = {
    "white": lambda p, q: abs(p - q) == 1,
    "black": lambda p, q: p == 2 * q or q == 2 * p,
    "x": lambda p, q: p + q == 10,
    "v": lambda p, q: p + q == 5,
}


def orthogonal_pairs(n):
    """Every pair of orthogonal neighbours ``(a, b)``, ``a < b``."""
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                out.append((r * n + c, r * n + c + 1))
            if r + 1 < n:
                out.append((r * n + c, (r + 1) * n + c))
    return out


def pieces(line, region_of):
    """The runs of consecutive cells of ``line`` inside one region (``region_of[cell]``)."""
    out = [[line[0]]]
    for cell in line[1:]:
        if region_of[cell] == region_of[out[-1][-1]]:
            out[-1].append(cell)
        else:
            out.append([cell])
    return out


class Clauses:
    """Adds the clauses of the setters' rules to a :class:`sat_oracle.Model`."""

    def __init__(self, model, n):
        self.model = model
        self.n = n
        self.x = model.x
        self.add = model.clauses.append
        self.digits = range(1, n + 1)
        self.true = self.new()
        self.add([self.true])

    def new(self):
        self.model.top += 1
        return self.model.top

    # -- building blocks ------------------------------------------------------

    def forbid_pairs(self, a, b, bad):
        """No ``a = p, b = q`` with ``bad(p, q)``."""
        for p in self.digits:
            for q in self.digits:
                if bad(p, q):
                    self.add([-self.x(a, p), -self.x(b, q)])

    def distinct(self, cells):
        for a, b in itertools.combinations(cells, 2):
            self.forbid_pairs(a, b, lambda p, q: p == q)

    def digit_terms(self, cell, weight=1):
        return [(self.x(cell, d), weight * d) for d in self.digits]

    def running_sums(self, terms):
        """``terms``: lists of ``(literal, value)``, exactly one literal of each list
        true. Returns one dict per prefix (the empty prefix first): value -> a variable
        true exactly when the prefix's chosen values add up to it."""
        states = {0: self.true}
        out = [states]
        for options in terms:
            grown = {}
            for total in states:
                for _, value in options:
                    if total + value not in grown:
                        grown[total + value] = self.new()
            for total, var in states.items():
                for lit, value in options:
                    self.add([-var, -lit, grown[total + value]])
            for total, var in grown.items():
                for lit, value in options:
                    before = states.get(total - value)
                    self.add([-var, -lit] + ([before] if before is not None else []))
            states = grown
            out.append(states)
        return out

    def sums_to(self, cells, total):
        final = self.running_sums([self.digit_terms(c) for c in cells])[-1]
        self.add([final[total]] if total in final else [])

    def equal_sums(self, first, second):
        """Two sum indicators (value -> variable, exactly one true) hold one value."""
        for value, var in first.items():
            self.add([-var] + ([second[value]] if value in second else []))

    def sum_of(self, cells):
        return self.running_sums([self.digit_terms(c) for c in cells])[-1]

    # -- the rules --------------------------------------------------------------

    def arrows(self, arrows):
        for bulb, line in arrows:
            line_sum = self.sum_of(line)
            for digits in itertools.product(self.digits, repeat=len(bulb)):
                number = int("".join(str(d) for d in digits)) if len(bulb) > 1 else digits[0]
                clause = [-self.x(c, d) for c, d in zip(sorted(bulb), digits)]
                if number in line_sum:
                    clause.append(line_sum[number])
                self.add(clause)

    def little_killers(self, clues):
        for cells, total in clues:
            self.sums_to(cells, total)

    def sandwiches(self, clues):
        n = self.n
        for line, total in clues:
            for i, j in itertools.combinations(range(len(line)), 2):
                inside = self.sum_of(line[i + 1 : j])
                for low, high in ((1, n), (n, 1)):
                    clause = [-self.x(line[i], low), -self.x(line[j], high)]
                    if total in inside:
                        clause.append(inside[total])
                    self.add(clause)

    def x_sums(self, clues):
        for line, total in clues:
            prefixes = self.running_sums([self.digit_terms(c) for c in line])
            for count in self.digits:
                clause = [-self.x(line[0], count)]
                if count < len(prefixes) and total in prefixes[count]:
                    clause.append(prefixes[count][total])
                self.add(clause)

    def _at_least(self, cell, d):
        """A variable true exactly when ``cell`` holds ``d`` or more."""
        var = self.new()
        higher = [self.x(cell, e) for e in self.digits if e >= d]
        self.add([-var] + higher)
        for lit in higher:
            self.add([-lit, var])
        return var

    def skyscrapers(self, clues):
        for line, seen in clues:
            # reached[d]: some digit before the current cell is d or more
            reached = {d: None for d in self.digits}
            visible = []
            for cell in line:
                see = self.new()
                for d in self.digits:
                    lit = self.x(cell, d)
                    if reached[d] is None:  # nothing before: always seen
                        self.add([-lit, see])
                    else:
                        self.add([-lit, -see, -reached[d]])
                        self.add([-lit, see, reached[d]])
                visible.append(see)
                for d in self.digits:
                    now = self._at_least(cell, d)
                    if reached[d] is None:
                        reached[d] = now
                    else:
                        both = self.new()  # both <-> reached[d] or now
                        self.add([-both, reached[d], now])
                        self.add([-reached[d], both])
                        self.add([-now, both])
                        reached[d] = both
            final = self.running_sums([[(v, 1), (-v, 0)] for v in visible])[-1]
            self.add([final[seen]] if seen in final else [])

    def whispers(self, lines):
        for line, gap in lines:
            gap = math.ceil(self.n / 2) if gap is None else gap
            for a, b in zip(line, line[1:]):
                self.forbid_pairs(a, b, lambda p, q, g=gap: abs(p - q) < g)

    def renbans(self, lines):
        for line in lines:
            self.distinct(line)
            k = len(line)
            runs = []
            for start in range(1, self.n - k + 2):
                run = self.new()
                runs.append(run)
                for cell in line:
                    self.add([-run] + [self.x(cell, d) for d in range(start, start + k)])
            self.add(runs)

    def palindromes(self, lines):
        for line in lines:
            for a, b in zip(line, reversed(line)):
                if a != b:
                    self.forbid_pairs(a, b, lambda p, q: p != q)

    def between_lines(self, lines):
        for line in lines:
            a, b = line[0], line[-1]
            for p in self.digits:
                for q in self.digits:
                    low, high = min(p, q), max(p, q)
                    for cell in line[1:-1]:
                        for e in self.digits:
                            if not low < e < high:
                                self.add([-self.x(a, p), -self.x(b, q), -self.x(cell, e)])

    def region_sum_lines(self, lines, region_of):
        for line in lines:
            parts = pieces(line, region_of)
            sums = [self.sum_of(part) for part in parts]
            for other in sums[1:]:
                self.equal_sums(sums[0], other)

    def entropic_lines(self, lines):
        third = self.n // 3
        group = {d: (d - 1) // third for d in self.digits}
        for line in lines:
            for k in range(max(1, len(line) - 2)):  # a shorter line is one window
                for a, b in itertools.combinations(line[k : k + 3], 2):
                    self.forbid_pairs(a, b, lambda p, q: group[p] == group[q])

    def modular_lines(self, lines):
        for line, m in lines:
            m = 3 if m is None else m
            for k in range(max(1, len(line) - m + 1)):  # a shorter line is one window
                for a, b in itertools.combinations(line[k : k + m], 2):
                    self.forbid_pairs(a, b, lambda p, q, m=m: p % m == q % m)

    def zipper_lines(self, lines):
        for line in lines:
            k = len(line)
            sums = [self.sum_of([line[i], line[k - 1 - i]]) for i in range(k // 2)]
            if k % 2:
                sums.insert(0, self.sum_of([line[k // 2]]))
            for other in sums[1:]:
                self.equal_sums(sums[0], other)

    def lockout_lines(self, lines):
        for line, gap in lines:
            a, b = line[0], line[-1]
            for p in self.digits:
                for q in self.digits:
                    if abs(p - q) < gap:
                        self.add([-self.x(a, p), -self.x(b, q)])
                        continue
                    low, high = min(p, q), max(p, q)
                    for cell in line[1:-1]:
                        for e in range(low, high + 1):
                            self.add([-self.x(a, p), -self.x(b, q), -self.x(cell, e)])

    def quadruples(self, clues):
        for four, digits in clues:
            for d in set(digits):
                times = digits.count(d)
                # at least `times` of the four hold d: every 5 - times of them hold one
                for some in itertools.combinations(four, len(four) - times + 1):
                    self.add([self.x(c, d) for c in some])

    def greater(self, pairs):
        for a, b in pairs:
            self.forbid_pairs(a, b, lambda p, q: p <= q)

    def extremes(self, cells, smaller):
        n = self.n
        for cell in cells:
            r, c = divmod(cell, n)
            for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= r2 < n and 0 <= c2 < n:
                    other = r2 * n + c2
                    if smaller:
                        self.forbid_pairs(cell, other, lambda p, q: p >= q)
                    else:
                        self.forbid_pairs(cell, other, lambda p, q: p <= q)

    def candidates(self, allowed):
        for cell, digits in allowed:
            for d in self.digits:
                if d not in digits:
                    self.add([-self.x(cell, d)])

    def negative(self, rules):
        for kind in rules.negative:
            marked = set()
            for name in NEGATIVE_MARKS[kind]:
                marked.update(frozenset(p) for p in getattr(rules, name))
            for a, b in orthogonal_pairs(self.n):
                if frozenset((a, b)) not in marked:
                    self.forbid_pairs(a, b, NEGATIVE_TESTS[kind])


def add_setter_rules(model, n, rules, region_of):
    """Every setters' rule of ``rules`` as clauses of ``model``; ``region_of[cell]``
    is the cell's box (or jigsaw region), for the region-sum lines."""
    out = Clauses(model, n)
    out.arrows(rules.arrows)
    out.little_killers(rules.little_killers)
    out.sandwiches(rules.sandwiches)
    out.x_sums(rules.x_sums)
    out.skyscrapers(rules.skyscrapers)
    out.whispers(rules.whispers)
    out.renbans(rules.renbans)
    out.palindromes(rules.palindromes)
    out.between_lines(rules.between_lines)
    out.region_sum_lines(rules.region_sum_lines, region_of)
    out.entropic_lines(rules.entropic_lines)
    out.modular_lines(rules.modular_lines)
    out.zipper_lines(rules.zipper_lines)
    out.lockout_lines(rules.lockout_lines)
    out.quadruples(rules.quadruples)
    out.greater(rules.greater)
    out.extremes(rules.minimums, smaller=True)
    out.extremes(rules.maximums, smaller=False)
    for region in rules.extra_regions:
        out.distinct(region)
    out.candidates(rules.candidates)
    out.negative(rules)
