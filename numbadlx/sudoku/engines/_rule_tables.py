"""The rules of a :class:`~numbadlx.sudoku.Rules` as the generic tables of the "cages"
engine, made in Python once per rule set.

Most variant rules reduce to three kinds of constraint, which the engine propagates
with one piece of code each:

* **relations** between two cells: a table of the digits one cell may hold beside each
  digit of the other (``greater``, ``minimums``, ``maximums``, ``whispers``,
  ``palindromes``, ``entropic_lines``, ``modular_lines``, ``negative``), kept arc
  consistent by :func:`~._cages._pairs`;
* **linear sums** ``sum(coef_i * digit_i) == total`` (``arrows``, ``little_killers``,
  ``region_sum_lines``, ``zipper_lines``), kept bounds consistent, with exact support
  for short ones, by :func:`~._sums.propagate_sums`;
* **distinct groups** (``extra_regions``): their cells become peers, and a group of
  ``n`` cells a unit (hidden singles); ``candidates`` narrow the digits a cell may hold,
  as odd and even cells do.

Each builder returns plain Python data; :func:`~._constraint_tables.build` packs it.

What the propagation leaves to search: a relation is reasoned about one pair at a time
(and two at a time through a middle cell, :mod:`._relations`), never a whole line at
once (a modular line's residues as a set, a palindrome's halves as a whole); a sum
with more than a few hundred combinations of open digits gets bounds only; a
region-sum line's segments share a total through :mod:`._line_totals`, whose segments
of distinct digits are enumerated only while small; an extra region of fewer than
``n`` cells gets naked singles, not hidden ones.
"""

from __future__ import annotations

import functools

import numpy as np

from ._line_totals import by_totals

__all__ = [
    "relation_pairs",
    "relation_rows",
    "relation_triples",
    "linear_sums",
    "total_segments",
    "sum_groups",
    "extra_units",
    "candidate_masks",
    "neighbours",
]


def neighbours(n):
    """Every pair of orthogonally adjacent cells, lower cell first."""
    cells = np.arange(n * n).reshape(n, n)
    across = np.stack([cells[:, :-1].ravel(), cells[:, 1:].ravel()], axis=1)
    down = np.stack([cells[:-1, :].ravel(), cells[1:, :].ravel()], axis=1)
    return tuple(map(tuple, np.concatenate([across, down]).tolist()))


# -- relations ------------------------------------------------------------------------

_MARKS = {
    "white": lambda d, e: abs(d - e) == 1,
    "black": lambda d, e: d == 2 * e or e == 2 * d,
    "x": lambda d, e: d + e == 10,
    "v": lambda d, e: d + e == 5,
}


_CLASSIC = {
    "white_dots": _MARKS["white"],
    "black_dots": _MARKS["black"],
    "x_pairs": _MARKS["x"],
    "v_pairs": _MARKS["v"],
    "non_consecutive": lambda d, e: abs(d - e) != 1,
}


def _test(key):
    """The test ``ok(d, e)`` of a relation key: digit ``d`` in the first cell, ``e`` in
    the second."""
    kind = key[0]
    if kind == "distinct":
        inner = _test(key[1])
        return lambda d, e: d != e and inner(d, e)
    if kind in _CLASSIC:
        return _CLASSIC[kind]
    if kind == "greater":
        return lambda d, e: d > e
    if kind == "equal":
        return lambda d, e: d == e
    if kind == "gap":
        return lambda d, e: abs(d - e) >= key[1]
    if kind in ("third", "same_third"):
        size = key[1]
        same = kind == "same_third"
        return lambda d, e: ((d - 1) // size == (e - 1) // size) == same
    if kind in ("residue", "same_residue"):
        m = key[1]
        same = kind == "same_residue"
        return lambda d, e: (d % m == e % m) == same
    if kind == "negative":
        marks = [_MARKS[k] for k in key[1]]
        return lambda d, e: not any(mark(d, e) for mark in marks)
    raise ValueError(f"unknown relation {key!r}")


@functools.lru_cache(maxsize=256)
def _rows_of(n, key):
    """The two rows of relation ``key`` on digits 1..n: ``forward[e - 1]`` the digits
    the first cell may hold beside ``e`` in the second, ``backward[d - 1]`` the digits
    the second may hold beside ``d`` in the first."""
    ok = _test(key)
    digits = range(1, n + 1)
    forward = tuple(sum(1 << (d - 1) for d in digits if ok(d, e)) for e in digits)
    backward = tuple(sum(1 << (e - 1) for e in digits if ok(d, e)) for d in digits)
    return forward, backward


def relation_rows(n, pairs):
    """The engine's relation rows and the pairs' row indices, from ``pairs``, a list of
    ``(a, b, key)`` (a key of :func:`_test`). Returns ``(relation (R, n) uint64, a, b,
    forward, backward)``, equal rows stored once.

    Examples
    --------
    >>> rel, a, b, fwd, back = relation_rows(4, [(0, 1, ("greater",))])
    >>> [bin(int(v)) for v in rel[fwd[0]]], [bin(int(v)) for v in rel[back[0]]]
    (['0b1110', '0b1100', '0b1000', '0b0'], ['0b0', '0b1', '0b11', '0b111'])
    """
    rows = []
    index = {}

    def row_index(row):
        if row not in index:
            index[row] = len(rows)
            rows.append(row)
        return index[row]

    a, b, fwd, back = [], [], [], []
    for x, y, key in pairs:
        forward, backward = _rows_of(n, key)
        a.append(x)
        b.append(y)
        fwd.append(row_index(forward))
        back.append(row_index(backward))
    relation = np.array(rows, dtype=np.uint64).reshape(len(rows), n)
    return relation, a, b, fwd, back


def relation_triples(n, relation, a, b, forward, backward, peer_sets):
    """The triples ``(m, x, y, row_x, row_y)`` of :mod:`._relations`: two relations
    that meet in cell ``m``, towards peers ``x`` and ``y``, each allowing at most
    ``n / 2`` digits beside a digit of ``m`` on average (``row_x``: the row of the
    digits ``x`` may hold beside ``m``'s).

    Examples
    --------
    >>> rel, a, b, fwd, back = relation_rows(4, [(0, 1, ("equal",)), (1, 2, ("equal",))])
    >>> relation_triples(4, rel, a, b, fwd, back, [{1, 2, 3}, {0, 2, 3}, {0, 1, 3}])
    [(1, 0, 2, 0, 0)]
    """
    dense = [sum(bin(int(v)).count("1") for v in row) > n * n / 2 for row in relation]
    around = {}
    for x, y, f, k in zip(a, b, forward, backward):
        if not dense[f] and not dense[k]:
            around.setdefault(y, []).append((x, f))  # x's digits beside y's: row f
            around.setdefault(x, []).append((y, k))
    out = []
    for m, ends in around.items():
        for i, (x, rx) in enumerate(ends):
            for y, ry in ends[i + 1 :]:
                if x != y and y in peer_sets[x]:
                    out.append((m, x, y, rx, ry))
    return out


def _window_pairs(line, width, differ, same):
    """Pairs of a line's cells less than ``width`` apart (``differ``: they share a
    window of ``width`` consecutive cells) and exactly ``width`` apart (``same``). On a
    line shorter than a window every pair differs, as setters' solvers read it."""
    out = []
    for i in range(len(line)):
        for j in range(i + 1, min(len(line), i + width + 1)):
            out.append((line[i], line[j], differ if j - i < width else same))
    return out


def relation_pairs(n, rules):
    """Every ``(a, b, key)`` relation the rules make (see :func:`_test` for the keys).

    Entropic lines: cells one or two apart hold digits of different thirds (so three in
    a row hold one of each), cells three apart the same third. Modular lines: cells
    fewer than ``m`` apart differ modulo ``m``, cells ``m`` apart agree. A line shorter
    than its window (two cells of an entropic line) has every pair differ. Negative: a
    neighbour pair without a dot is neither consecutive nor 1:2 (for the kinds asked),
    without X or V does not sum to 10 or 5.

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> relation_pairs(4, Rules(palindromes=[[0, 1, 2]], minimums=[0]).checked(4))
    [(1, 0, ('greater',)), (4, 0, ('greater',)), (0, 2, ('equal',))]
    """
    out = [(a, b, ("greater",)) for a, b in rules.greater]
    near = neighbours(n)
    for cell in rules.minimums:
        out += [(b if a == cell else a, cell, ("greater",)) for a, b in near if cell in (a, b)]
    for cell in rules.maximums:
        out += [(cell, b if a == cell else a, ("greater",)) for a, b in near if cell in (a, b)]
    for line, gap in rules.whispers:
        out += [(x, y, ("gap", gap)) for x, y in zip(line, line[1:])]
    for line in rules.palindromes:
        out += [(line[i], line[-1 - i], ("equal",)) for i in range(len(line) // 2)]
    third = n // 3
    for line in rules.entropic_lines:
        out += _window_pairs(line, 3, ("third", third), ("same_third", third))
    for line, m in rules.modular_lines:
        out += _window_pairs(line, m, ("residue", m), ("same_residue", m))
    if rules.negative:
        dots = {frozenset(p) for p in rules.white_dots + rules.black_dots}
        xv = {frozenset(p) for p in rules.x_pairs + rules.v_pairs}
        for a, b in near:
            kinds = []
            if frozenset((a, b)) not in dots:
                kinds += [k for k in ("white", "black") if k in rules.negative]
            if frozenset((a, b)) not in xv:
                kinds += [k for k in ("x", "v") if k in rules.negative]
            if kinds:
                out.append((a, b, ("negative", tuple(kinds))))
    return out


# -- linear sums ----------------------------------------------------------------------


def _segments(line, region_of):
    """The runs of a line's consecutive cells in one region (box borders cut it)."""
    pieces = [[line[0]]]
    for prev, cell in zip(line, line[1:]):
        if region_of[cell] == region_of[prev]:
            pieces[-1].append(cell)
        else:
            pieces.append([cell])
    return pieces


def _regions_of(n, rules):
    """Each cell's box (or jigsaw region); None for a grid without either."""
    if rules.regions is not None:
        return [int(v) for v in rules.regions]
    if not rules.has_boxes or rules.box is None:
        return None
    r, c = rules.box
    return [(cell // n // r) * (n // c) + (cell % n) // c for cell in range(n * n)]


def total_segments(n, rules):
    """The region-sum lines :mod:`._line_totals` takes, each as its segments (lists of
    cells; see :func:`~._line_totals.by_totals`).

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> total_segments(4, Rules(region_sum_lines=[[0, 1, 2, 6], [0, 1]]).checked(4))
    [[[0, 1], [2, 6]]]
    """
    region_of = _regions_of(n, rules)
    out = []
    for line in rules.region_sum_lines if region_of is not None else ():
        pieces = _segments([int(c) for c in line], region_of)
        if by_totals(n, list(map(len, pieces))):
            out.append(pieces)
    return out


def linear_sums(n, rules):
    """Every linear sum the rules make: a list of ``(terms, total)``, ``terms`` a list of
    ``(cell, coefficient)`` (a cell at most once), meaning
    ``sum(coefficient * digit) == total``.

    Arrows: the line's digits less the bulb's number (a pill's digits weigh 100, 10, 1
    in reading order) make 0. Little killers: the diagonal's digits make the total.
    Region-sum lines: box (region) borders cut the line into segments, and each segment
    less the first makes 0 (unless :mod:`._line_totals` enumerates every segment).
    Zipper lines: each pair of cells equally far from the
    centre less the centre digit makes 0 (odd length), or less the end pair (even).

    Examples
    --------
    >>> from numbadlx.sudoku import Rules
    >>> linear_sums(9, Rules(arrows=[((0, 1), (2, 3))]).checked(9))
    [([(2, 1), (3, 1), (0, -10), (1, -1)], 0)]
    >>> linear_sums(4, Rules(zipper_lines=[[0, 1, 2]]).checked(4))
    [([(0, 1), (2, 1), (1, -1)], 0)]
    """
    out = []
    for bulb, line in rules.arrows:
        weights = [10**k for k in range(len(bulb) - 1, -1, -1)]
        out.append(([(c, 1) for c in line] + [(c, -w) for c, w in zip(bulb, weights)], 0))
    for cells, total in rules.little_killers:
        out.append(([(c, 1) for c in cells], total))
    region_of = _regions_of(n, rules)
    for line in rules.region_sum_lines if region_of is not None else ():
        pieces = _segments(line, region_of)
        if by_totals(n, list(map(len, pieces))) == 2:
            continue  # the totals pass is stronger and needs no sums (see _line_totals)
        for piece in pieces[1:]:
            out.append(([(c, 1) for c in piece] + [(c, -1) for c in pieces[0]], 0))
    for line in rules.zipper_lines:
        half = len(line) // 2
        pairs = [(line[i], line[-1 - i]) for i in range(half)]
        if len(line) % 2:
            centre = line[half]
            out += [([(a, 1), (b, 1), (centre, -1)], 0) for a, b in pairs]
        else:
            (c, d) = pairs[0]
            out += [([(a, 1), (b, 1), (c, -1), (d, -1)], 0) for a, b in pairs[1:]]
    return out


def sum_groups(terms, peer_sets, grouped=True):
    """The terms of one sum ordered in groups: terms of equal coefficient whose cells
    are all peers of each other (so hold distinct digits), greedily. Returns
    ``(cells, coefs, groups)`` with each group's terms together; ``grouped`` False puts
    each term in a group of its own."""
    merged = {}
    for cell, coef in terms:
        merged[cell] = merged.get(cell, 0) + coef
    groups = []
    for cell, coef in merged.items():
        if coef == 0:
            continue
        for group in groups if grouped else ():
            if group[0] == coef and all(other in peer_sets[cell] for other in group[1]):
                group[1].append(cell)
                break
        else:
            groups.append((coef, [cell]))
    cells, coefs, ids = [], [], []
    for k, (coef, members) in enumerate(groups):
        cells += members
        coefs += [coef] * len(members)
        ids += [k] * len(members)
    return cells, coefs, ids


# -- distinct groups and candidates ---------------------------------------------------


def _padded(rows, fill):
    width = max((len(row) for row in rows), default=0)
    out = np.empty((len(rows), width), dtype=np.int32)
    for k, row in enumerate(rows):
        out[k, : len(row)] = row
        out[k, len(row) :] = fill(row)
    out.flags.writeable = False
    return out


def extra_units(table, regions):
    """``(units, peers, cell_units)`` of the unit table ``table`` with the cells of each
    extra region made peers, and each region of ``n`` cells added as a unit.

    Examples
    --------
    >>> from numbadlx.sudoku.geometry import unit_table
    >>> units, peers, _ = extra_units(unit_table(4), [(0, 5, 10, 15), (3, 6)])  # row padded
    >>> units.shape, peers[3].tolist()
    ((13, 4), [0, 1, 2, 6, 7, 11, 15, 15, 15])
    """
    n = table.n
    full = [tuple(sorted(r)) for r in regions if len(r) == n]
    units = np.concatenate([table.units, np.array(full, dtype=np.int32).reshape(-1, n)])
    units = np.ascontiguousarray(units, dtype=np.int32)
    units.flags.writeable = False
    peer_sets = [set(int(p) for p in row) - {cell} for cell, row in enumerate(table.peers)]
    for region in regions:
        for cell in region:
            peer_sets[cell].update(c for c in region if c != cell)
    of_cell = [[] for _ in range(n * n)]
    for u, members in enumerate(units.tolist()):
        for cell in members:
            of_cell[cell].append(u)
    peers = _padded([sorted(s) for s in peer_sets], lambda row: row[-1])
    return units, peers, _padded(of_cell, lambda row: row[0])


def candidate_masks(allowed, candidates):
    """``allowed`` (a mask per cell) narrowed to the ``candidates`` pairs ``(cell,
    digits)``."""
    if not candidates:
        return allowed
    out = allowed.copy()
    for cell, digits in candidates:
        out[cell] &= np.uint64(sum(1 << (d - 1) for d in digits))
    out.flags.writeable = False
    return out
