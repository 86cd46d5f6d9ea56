"""The allowed digit tuples of the rules on a few cells, for the exact-cover model.

Each rule of these kinds becomes one *relation* of :mod:`._cover_rules`: a primary item
covered by one option per allowed tuple of digits of its cells, the option colouring
the cells' value items with its digits (Algorithm C), so it must agree with the
options that give the cells their digits. A rule between two cells (a sign, a
minimum's or maximum's neighbour, neighbours on a whisper or an entropic or modular
line, the two ends of a palindrome's pair, unmarked neighbours under the negative
constraint) is a relation of two cells; a rule of a whole line or cage (an arrow, a
little killer, a renban, between, lockout, zipper and region-sum lines, a quadruple) is
one relation over all its cells, whose tuples are enumerated depth first from the
cells' candidates, pruned by the rule's bounds and by digits repeated among peers.
The enumeration is bounded (:data:`MAX_STEPS` digits tried a rule): a rule with more
assignments than that is refused with a ValueError naming it.

Outside clues (sandwiches, x-sums, skyscrapers) read a whole row or column: their
tuples are most of the row's permutations, so they have no such model.
"""

from __future__ import annotations

__all__ = ["MAX_STEPS", "LINE_KINDS", "line_relations"]

#: Digits tried at most while enumerating one rule's tuples.
MAX_STEPS = 200_000

#: The rule kinds :func:`line_relations` models.
LINE_KINDS = frozenset(
    {
        "arrows", "little_killers", "whispers", "renbans", "palindromes", "between_lines",
        "region_sum_lines", "entropic_lines", "modular_lines", "zipper_lines",
        "lockout_lines", "quadruples", "greater", "minimums", "maximums", "negative",
    }
)  # fmt: skip

_MARKS = {
    "white": lambda x, y: abs(x - y) == 1,
    "black": lambda x, y: x == 2 * y or y == 2 * x,
    "x": lambda x, y: x + y == 10,
    "v": lambda x, y: x + y == 5,
}


def _neighbour_pairs(n):
    """Orthogonal neighbours ``(a, b)``, ``a < b``."""
    out = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        if c + 1 < n:
            out.append((cell, cell + 1))
        if r + 1 < n:
            out.append((cell, cell + n))
    return out


def _pair_rules(n, rules):
    """``(name, a, b, ok)`` for every two-cell rule: ``ok(x, y)`` with ``x`` in ``a``."""
    out = [(f"gt{k}", a, b, lambda x, y: x > y) for k, (a, b) in enumerate(rules.greater)]
    near = _neighbour_pairs(n)
    for short, cells, low in (("mn", rules.minimums, True), ("mx", rules.maximums, False)):
        for k, cell in enumerate(cells):
            others = [b if a == cell else a for a, b in near if cell in (a, b)]
            for j, other in enumerate(others):
                test = (lambda x, y: x < y) if low else (lambda x, y: x > y)
                out.append((f"{short}{k}.{j}", cell, other, test))
    for k, (line, gap) in enumerate(rules.whispers):
        for j, (a, b) in enumerate(zip(line, line[1:])):
            out.append((f"wh{k}.{j}", a, b, lambda x, y, g=gap: abs(x - y) >= g))
    for k, line in enumerate(rules.palindromes):
        for j in range(len(line) // 2):
            out.append((f"pa{k}.{j}", line[j], line[-1 - j], lambda x, y: x == y))
    third = n // 3
    for k, line in enumerate(rules.entropic_lines):
        for j, (a, b, apart) in enumerate(_window(line, 3)):
            same = apart == 3
            out.append(
                (
                    f"en{k}.{j}",
                    a,
                    b,
                    lambda x, y, s=same: ((x - 1) // third == (y - 1) // third) == s,
                )
            )
    for k, (line, m) in enumerate(rules.modular_lines):
        for j, (a, b, apart) in enumerate(_window(line, m)):
            same = apart == m
            out.append((f"mo{k}.{j}", a, b, lambda x, y, s=same, m=m: (x % m == y % m) == s))
    if rules.negative:
        dots = {frozenset(p) for p in rules.white_dots + rules.black_dots}
        xv = {frozenset(p) for p in rules.x_pairs + rules.v_pairs}
        for j, (a, b) in enumerate(near):
            marks = []
            if frozenset((a, b)) not in dots:
                marks += [_MARKS[k] for k in ("white", "black") if k in rules.negative]
            if frozenset((a, b)) not in xv:
                marks += [_MARKS[k] for k in ("x", "v") if k in rules.negative]
            if marks:
                out.append((f"ng{j}", a, b, lambda x, y, ms=marks: not any(m(x, y) for m in ms)))
    return out


def _window(line, width):
    """``(a, b, apart)`` for the cells of a line at most ``width`` apart (on a line
    shorter than a window, every pair, all fewer than ``width`` apart)."""
    return [
        (line[i], line[j], j - i)
        for i in range(len(line))
        for j in range(i + 1, min(len(line), i + width + 1))
    ]


def _regions_of(n, rules):
    """Each cell's box (or jigsaw region); None for a grid without either."""
    if rules.regions is not None:
        return [int(v) for v in rules.regions]
    if not rules.has_boxes or rules.box is None:
        return None
    r, c = rules.box
    return [(cell // n // r) * (n // c) + (cell % n) // c for cell in range(n * n)]


def _pieces(line, region_of):
    """A line cut at region borders: runs of consecutive cells in one region."""
    pieces = [[line[0]]]
    for prev, cell in zip(line, line[1:]):
        if region_of[cell] == region_of[prev]:
            pieces[-1].append(cell)
        else:
            pieces.append([cell])
    return pieces


class _Enumeration:
    """Depth-first enumeration of a rule's tuples over ``cells`` (in that order):
    ``ok(digits, i)`` is asked each time the first ``i`` digits are set, and must be
    True for a full tuple to be kept; a digit that a peer earlier in the order holds is
    never tried."""

    def __init__(self, rule, what, candidates, peer_sets):
        self.rule, self.what = rule, what
        self.candidates, self.peer_sets = candidates, peer_sets

    def run(self, cells, ok):
        k = len(cells)
        before = [[j for j in range(i) if cells[j] in self.peer_sets[cells[i]]] for i in range(k)]
        digits = [0] * k
        out = []
        steps = 0
        # an explicit stack: (position, candidates left to try there)
        stack = [(0, list(self.candidates[cells[0]]))] if k else []
        while stack:
            i, left = stack[-1]
            if not left:
                stack.pop()
                continue
            d = left.pop(0)
            steps += 1
            if steps > MAX_STEPS:
                raise ValueError(
                    f"{self.rule}: no exact-cover model for {self.what}: too many digit "
                    f"assignments (over {MAX_STEPS:,} tried); solve it with sudoku.solve"
                )
            if any(digits[j] == d for j in before[i]):
                continue
            digits[i] = d
            if not ok(digits, i + 1):
                continue
            if i + 1 == k:
                out.append(tuple(digits))
            else:
                stack.append((i + 1, list(self.candidates[cells[i + 1]])))
        return out


def _number(digits):
    """The number a pill's digits form, read in order."""
    value = 0
    for d in digits:
        value = 10 * value + d
    return value


def _bounds(cells, candidates):
    """``(low, high)``: for each position, the least and most the cells from there on
    can add up to."""
    low, high = [0], [0]
    for cell in reversed(cells):
        low.append(low[-1] + min(candidates[cell], default=0))
        high.append(high[-1] + max(candidates[cell], default=0))
    return low[::-1], high[::-1]


def _sum_ok(head, cells, candidates, target):
    """``ok`` for the cells after the first ``head`` summing to ``target(digits)`` (read
    from the first ``head`` digits)."""
    low, high = _bounds(cells, candidates)

    def ok(digits, i):
        if i < head:
            return True
        want = target(digits)
        part = sum(digits[head:i])
        return part + low[i] <= want <= part + high[i]

    return ok


def _equal_sums_ok(groups, candidates):
    """``ok`` for cells ordered group by group, every group summing to what the first
    does."""
    cells = [c for g in groups for c in g]
    low, high = _bounds(cells, candidates)
    ends = []  # for each position: the start and end of its group
    for g in groups:
        start = len(ends)
        ends += [(start, start + len(g))] * len(g)
    first = len(groups[0])

    def ok(digits, i):
        if i <= first:
            return True
        target = sum(digits[:first])
        start, end = ends[i - 1]
        part = sum(digits[start:i])
        # the group so far, with what its open cells can still add
        rest_low = low[i] - low[end]
        rest_high = high[i] - high[end]
        return part + rest_low <= target <= part + rest_high

    return cells, ok


def _renban_ok(k):
    def ok(digits, i):
        seen = digits[:i]
        return len(set(seen)) == i and max(seen) - min(seen) <= k - 1

    return ok


def _between_ok(digits, i):
    if i <= 2:
        return True
    low, high = sorted(digits[:2])
    return low < digits[i - 1] < high


def _lockout_ok(gap):
    def ok(digits, i):
        if i < 2:
            return True
        low, high = sorted(digits[:2])
        if high - low < gap:
            return False
        return i == 2 or not low <= digits[i - 1] <= high

    return ok


def _quadruple_ok(need):
    def ok(digits, i):
        short = sum(max(0, c - digits[:i].count(d)) for d, c in need.items())
        return short <= 4 - i

    return ok


def line_relations(n, rules, candidates, peer_sets):
    """The relations of the rules of :data:`LINE_KINDS`: ``(name, cells, tuples)``, the
    allowed digit tuples of ``cells`` (a list of tuples, in the order of ``cells``)
    given each cell's ``candidates`` (sorted lists). ``peer_sets[cell]`` are the cells
    that may not share its digit. ValueError for a rule whose tuples take more than
    :data:`MAX_STEPS` digits to enumerate, naming it.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> rules = Rules(arrows=[(0, [1, 2])], greater=[(3, 4)]).checked(4)
    >>> digits = [[1, 2, 3, 4]] * 16
    >>> [(name, cells, len(tuples)) for name, cells, tuples in
    ...  line_relations(4, rules, digits, [set()] * 16)]
    [('gt0', [3, 4], 6), ('ar0', [0, 1, 2], 6)]
    """
    out = []
    for name, a, b, test in _pair_rules(n, rules):
        tuples = [(x, y) for x in candidates[a] for y in candidates[b] if test(x, y)]
        if b in peer_sets[a]:
            tuples = [(x, y) for x, y in tuples if x != y]
        out.append((name, [a, b], tuples))

    def each(rule, what):
        return _Enumeration(rule, what, candidates, peer_sets)

    for k, (bulb, line) in enumerate(rules.arrows):
        cells = list(bulb) + list(line)
        head = len(bulb)
        ok = _sum_ok(head, cells, candidates, lambda ds, h=head: _number(ds[:h]))
        tuples = each("arrows", f"the arrow with bulb {list(bulb)}").run(cells, ok)
        out.append((f"ar{k}", cells, tuples))
    for k, (cells, total) in enumerate(rules.little_killers):
        ok = _sum_ok(0, list(cells), candidates, lambda ds, t=total: t)
        tuples = each("little_killers", f"the diagonal {list(cells)}").run(list(cells), ok)
        out.append((f"lk{k}", list(cells), tuples))
    for k, line in enumerate(rules.renbans):
        tuples = each("renbans", f"the line {list(line)}").run(list(line), _renban_ok(len(line)))
        out.append((f"rb{k}", list(line), tuples))
    for k, line in enumerate(rules.between_lines):
        cells = [line[0], line[-1], *line[1:-1]]
        tuples = each("between_lines", f"the line {list(line)}").run(cells, _between_ok)
        out.append((f"bt{k}", cells, tuples))
    for k, (line, gap) in enumerate(rules.lockout_lines):
        cells = [line[0], line[-1], *line[1:-1]]
        tuples = each("lockout_lines", f"the line {list(line)}").run(cells, _lockout_ok(gap))
        out.append((f"lo{k}", cells, tuples))
    for k, line in enumerate(rules.zipper_lines):
        half = len(line) // 2
        pairs = [[line[i], line[-1 - i]] for i in range(half)]
        groups = ([[line[half]]] if len(line) % 2 else []) + pairs
        if len(groups) < 2:
            continue
        cells, ok = _equal_sums_ok(groups, candidates)
        out.append((f"zp{k}", cells, each("zipper_lines", f"the line {list(line)}").run(cells, ok)))
    region_of = _regions_of(n, rules)
    for k, line in enumerate(rules.region_sum_lines if region_of is not None else ()):
        groups = _pieces(line, region_of)
        if len(groups) < 2:
            continue
        cells, ok = _equal_sums_ok(groups, candidates)
        what = f"the line {list(line)}"
        out.append((f"rs{k}", cells, each("region_sum_lines", what).run(cells, ok)))
    for k, (four, digits) in enumerate(rules.quadruples):
        need = {d: digits.count(d) for d in set(digits)}
        tuples = each("quadruples", f"the quadruple {list(four)}").run(
            list(four), _quadruple_ok(need)
        )
        out.append((f"q{k}", list(four), tuples))
    return out
