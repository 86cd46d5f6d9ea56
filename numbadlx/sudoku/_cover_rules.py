"""A variant Sudoku as a generic exact-cover problem (Algorithm C), every rule included.

Primary items: each cell (holds one digit), each unit and digit (rows, columns, boxes or
regions, diagonals, windoku windows, disjoint groups: once each), each thermometer, each
marked pair (dots, X, V) and each relation of :mod:`._cover_lines` (the other rules on a
few cells): covered once, by one allowed tuple of digits.

Options that *own* cells, giving them their digits: "digit d in cell c" for a cell in
no cage, and one option per allowed digit tuple of each cage (Knuth's way with Killer
Sudoku: distinct digits reaching the total, matching the givens and odd/even), which
covers all the cage's cells at once.

Secondary items:

* a link (anti-knight, anti-king) and a digit: held, without colour, by the owners
  giving that digit to either cell, so at most one of them is chosen;
* an extra region and a digit: held by the owners giving that digit to one of its
  cells;
* a non-consecutive neighbour pair and a forbidden assignment (``a = d, b = d + 1`` or
  ``a = d + 1, b = d``): held by the two owners that would make it;
* a cell's value, for cells in thermometers and marked pairs: every owner colours it
  with the digit it gives, and the thermometer's (pair's) option with the digit its
  tuple gives, so both must agree (Algorithm C).

An owner option that would hold one secondary item twice (a cage whose tuple breaks
a relation between two of its own cells) is dropped. Given cells keep only their digit;
digits given to a peer (same unit or link) or not among a cell's given candidates are
left out of its options.
"""

from __future__ import annotations

import itertools

import numpy as np

from . import geometry
from ._cover_lines import _MARKS, LINE_KINDS, _neighbour_pairs, line_relations

__all__ = ["rules_cover", "cage_tuples", "clashing_givens", "MODELLED", "check_modelled"]

#: The rule kinds the cover model encodes (all but the outside clues: sandwiches, x-sums
#: and skyscrapers).
MODELLED = (
    frozenset(
        {
            "regions", "latin", "diagonals", "windoku", "disjoint", "anti_knight", "anti_king",
            "non_consecutive", "cages", "thermos", "white_dots", "black_dots", "x_pairs",
            "v_pairs", "odd", "even", "extra_regions", "candidates",
        }
    )
    | LINE_KINDS
)  # fmt: skip


def check_modelled(rules):
    """Raise a ValueError naming the rules of ``rules`` the cover model cannot encode."""
    missing = sorted(rules.kinds - MODELLED)
    if missing:
        raise ValueError(
            f"to_exact_cover: no exact-cover model for the rules {', '.join(missing)} "
            '(solve them with sudoku.solve, engine "cages" or "auto")'
        )


_MAX_TUPLES = 1_000_000


def _candidates(puzzle, n, rules, table):
    """Each cell's possible digits, as a list of sorted lists (empty when none is
    left). A given is its cell's only candidate, and the cell's own rules (odd, even)
    still apply to it: a given that breaks them leaves the cell no digit."""
    odd, even = set(rules.odd), set(rules.even)
    allowed = dict(rules.candidates)
    out = []
    for cell in range(n * n):
        given = int(puzzle[cell])
        if given:
            digits = [given]
        else:
            taken = {int(puzzle[p]) for p in table.peers[cell]}
            digits = [d for d in range(1, n + 1) if d not in taken]
        if cell in odd:
            digits = [d for d in digits if d % 2]
        if cell in even:
            digits = [d for d in digits if d % 2 == 0]
        if cell in allowed:
            digits = [d for d in digits if d in allowed[cell]]
        out.append(digits)
    return out


def clashing_givens(puzzle, table) -> bool:
    """Whether two equal givens share a unit or a link (or a given is above n)."""
    n = table.n
    if (puzzle > n).any():
        return True
    for members in table.units:
        values = puzzle[members]
        values = values[values > 0]
        if len(np.unique(values)) != len(values):
            return True
    for a, b in table.links:
        if puzzle[a] and puzzle[a] == puzzle[b]:
            return True
    return False


def cage_tuples(candidates, total):
    """The digit tuples of a cage, ``(m, k)`` int64: one digit per cell from its
    candidates, all distinct, summing to ``total`` (None: any sum). Built a cell at a
    time with numpy, pruning partial sums that can no longer reach the total.

    Examples
    --------
    >>> cage_tuples([[1, 2, 3], [1, 2, 3]], 4).tolist()
    [[1, 3], [3, 1]]
    """
    k = len(candidates)
    if not all(candidates):  # a cell with no digit left: no tuple
        return np.zeros((0, k), dtype=np.int64)
    tuples = np.zeros((1, 0), dtype=np.int64)
    for j, digits in enumerate(candidates):
        rest = candidates[j + 1 :]
        low = sum(min(d) for d in rest) if rest else 0
        high = sum(max(d) for d in rest) if rest else 0
        parts = []
        for d in digits:
            fresh = tuples[(tuples != d).all(axis=1)]
            grown = np.concatenate([fresh, np.full((len(fresh), 1), d)], axis=1)
            if total is not None:
                s = grown.sum(axis=1)
                grown = grown[(s + low <= total) & (s + high >= total)]
            parts.append(grown)
        tuples = np.concatenate(parts) if parts else np.zeros((0, j + 1), dtype=np.int64)
        if len(tuples) > _MAX_TUPLES:
            raise ValueError(
                f"cages: a cage of {k} cells has over {_MAX_TUPLES:,} digit tuples, too "
                "many for the exact-cover model"
            )
    if total is not None:
        tuples = tuples[tuples.sum(axis=1) == total]
    order = np.lexsort(tuples.T[::-1]) if tuples.size else np.arange(len(tuples))
    return tuples[order].reshape(-1, k)


_PAIR_TESTS = {
    "white_dots": _MARKS["white"],
    "black_dots": _MARKS["black"],
    "x_pairs": _MARKS["x"],
    "v_pairs": _MARKS["v"],
}
_adjacent = _neighbour_pairs  # orthogonal neighbour pairs (a, b), a < b, by a


def rules_cover(puzzle, n, rules):
    """The exact-cover model of one puzzle (``(n*n,)`` uint8) under checked ``rules``.

    Returns ``(indptr, indices, colours, n_items, n_secondary, item_names,
    option_names, option_cells, option_digits)``: CSR arrays of the options, their
    colours, the item counts (secondary items last) and names, and for each option the
    cells it owns and their digits, ``(O, K)`` arrays padded with -1 and 0.
    """
    check_modelled(rules)
    table = geometry.unit_table(n, rules=rules)
    nn = n * n
    units = [sorted(set(row)) for row in table.cell_units.tolist()]
    candidates = _candidates(puzzle, n, rules, table)
    # -- item numbering
    names = [f"r{r}c{c}" for r in range(n) for c in range(n)]
    kinds = _unit_names(n, rules)
    names += [f"{kind}#{d}" for kind in kinds for d in range(1, n + 1)]
    relations = [
        (f"t{k}", list(cells), _relation_tuples(cells, None, candidates, n))
        for k, cells in enumerate(rules.thermos)
    ]
    for rule, test in _PAIR_TESTS.items():
        short = {"white_dots": "w", "black_dots": "k", "x_pairs": "x", "v_pairs": "v"}[rule]
        relations += [
            (f"{short}{k}", list(cells), _relation_tuples(cells, test, candidates, n))
            for k, cells in enumerate(getattr(rules, rule))
        ]
    peer_sets = [set(row) for row in table.peers.tolist()]
    relations += line_relations(n, rules, candidates, peer_sets)
    first_relation = len(names)
    names += [name for name, _, _ in relations]
    n_primary = len(names)
    links = table.links.tolist()
    first_link = len(names)
    names += [f"link{k}#{d}" for k in range(len(links)) for d in range(1, n + 1)]
    # extra regions: a secondary item per region and digit (at most one of its cells
    # holds the digit; a region of n cells then holds every digit)
    first_extra = len(names)
    names += [f"x{k}#{d}" for k in range(len(rules.extra_regions)) for d in range(1, n + 1)]
    cell_extras = [[] for _ in range(nn)]
    for k, region in enumerate(rules.extra_regions):
        for cell in region:
            cell_extras[cell].append(k)
    adjacent = _adjacent(n) if rules.non_consecutive else []
    first_pair = len(names)
    names += [f"nc{j}{s}#{d}" for j in range(len(adjacent)) for s in "ab" for d in range(1, n)]
    valued = sorted({cell for _, cells, _ in relations for cell in cells})
    value_item = {cell: len(names) + k for k, cell in enumerate(valued)}
    names += [f"{names[cell]}=" for cell in valued]
    cell_links = [[] for _ in range(nn)]
    for k, (a, b) in enumerate(links):
        cell_links[a].append(k)
        cell_links[b].append(k)
    cell_pairs = [[] for _ in range(nn)]
    for j, (a, b) in enumerate(adjacent):
        cell_pairs[a].append((j, True))
        cell_pairs[b].append((j, False))

    memo = {}

    def owner_items(cell, d):
        """(items, colours) of giving digit d to cell, made once per pair."""
        key = cell * (n + 1) + d
        if key not in memo:
            memo[key] = _owner_items(cell, d)
        return memo[key]

    def _owner_items(cell, d):
        items = [cell] + [nn + u * n + d - 1 for u in units[cell]]
        items += [first_link + k * n + d - 1 for k in cell_links[cell]]
        items += [first_extra + k * n + d - 1 for k in cell_extras[cell]]
        for j, is_a in cell_pairs[cell]:
            base = first_pair + 2 * j * (n - 1)
            # s = 0: a = e, b = e + 1; s = 1: a = e + 1, b = e (e from 1 to n - 1)
            up, down = (0, 1) if is_a else (1, 0)
            if d < n:
                items.append(base + up * (n - 1) + d - 1)
            if d > 1:
                items.append(base + down * (n - 1) + d - 2)
        colours = [0] * len(items)
        if cell in value_item:
            items.append(value_item[cell])
            colours.append(d)
        return items, colours

    indptr, indices, colours, option_names, owned = [0], [], [], [], []

    def add(items, cols, name, cells_digits):
        if len(set(items)) != len(items):
            return  # the option breaks a relation between two of its own cells
        indices.extend(items)
        colours.extend(cols)
        indptr.append(len(indices))
        option_names.append(name)
        owned.append(cells_digits)

    in_cage = set()
    cage_options = []
    for k, (cells, total) in enumerate(rules.cages):
        in_cage.update(cells)
        cage_options.append((k, cells, cage_tuples([candidates[c] for c in cells], total)))
    for cell in range(nn):
        if cell in in_cage:
            continue
        for d in candidates[cell]:
            items, cols = owner_items(cell, d)
            add(items, cols, f"{names[cell]}#{d}", [(cell, d)])
    for k, cells, tuples in cage_options:
        for digits in tuples.tolist():
            items, cols = [], []
            for cell, d in zip(cells, digits):
                more, more_cols = owner_items(cell, d)
                items.extend(more)
                cols.extend(more_cols)
            add(items, cols, f"cage{k}:{''.join(map(str, digits))}", list(zip(cells, digits)))
    for r, (name, cells, tuples) in enumerate(relations):
        for digits in tuples:
            items = [first_relation + r] + [value_item[c] for c in cells]
            add(items, [0, *digits], f"{name}:{''.join(map(str, digits))}", [])
    width = max((len(o) for o in owned), default=1) or 1
    option_cells = np.full((len(owned), width), -1, dtype=np.int64)
    option_digits = np.zeros((len(owned), width), dtype=np.int64)
    for o, pairs in enumerate(owned):
        for j, (cell, d) in enumerate(pairs):
            option_cells[o, j] = cell
            option_digits[o, j] = d
    return (
        np.array(indptr, dtype=np.int64),
        np.array(indices, dtype=np.int64),
        np.array(colours, dtype=np.int64),
        len(names),
        len(names) - n_primary,
        names,
        option_names,
        option_cells,
        option_digits,
    )


def _relation_tuples(cells, test, candidates, n):
    """Allowed digit tuples of a thermometer (``test`` None: strictly increasing) or a
    marked pair (``test(x, y)``), from the cells' candidates."""
    if not all(candidates[c] for c in cells):  # a cell with no digit left: no tuple
        return []
    if test is None:
        out = []
        for digits in itertools.combinations(range(1, n + 1), len(cells)):
            if all(d in candidates[c] for c, d in zip(cells, digits)):
                out.append(digits)
            if digits[0] > max(candidates[cells[0]]):
                break
        return out
    a, b = cells
    return [(x, y) for x in candidates[a] for y in candidates[b] if test(x, y)]


def _unit_names(n, rules):
    """A short name for every unit of the rules' table, in its order."""
    out = [f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)]
    if rules.regions is not None:
        out += [f"g{k}" for k in range(n)]
    elif not rules.latin:
        out += [f"b{k}" for k in range(n)]
    out += ["d0"] * rules.main_diagonal + ["d1"] * rules.anti_diagonal
    units = geometry.rule_units(n, rules)
    extra = len(units) - len(out)
    windows = extra - (n if rules.disjoint else 0)
    out += [f"w{k}" for k in range(windows)]
    if rules.disjoint:
        out += [f"j{k}" for k in range(n)]
    return out
