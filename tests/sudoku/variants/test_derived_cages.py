"""The cages the sums imply (innies and outies of each unit), against a plain Python
twin written from the rule itself, on random cage layouts."""

import numpy as np
import pytest

from numbadlx.sudoku.engines._constraint_tables import _derived_cages


def _units(n, box_rows, box_cols):
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = []
    for br in range(0, n, box_rows):
        for bc in range(0, n, box_cols):
            boxes.append([(br + i) * n + bc + j for i in range(box_rows) for j in range(box_cols)])
    return np.array(rows + cols + boxes, dtype=np.int32)


def _random_cages(rng, n):
    """Cages of 1 to 4 orthogonally connected cells covering part of the grid, some
    without a total."""
    nn = n * n
    owner = [-1] * nn
    cages = []
    for start in rng.permutation(nn):
        if owner[start] >= 0 or rng.random() < 0.15:
            continue
        cells = [int(start)]
        owner[start] = len(cages)
        for _ in range(int(rng.integers(0, 4))):
            cell = cells[int(rng.integers(len(cells)))]
            r, c = divmod(cell, n)
            steps = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
            free = [a * n + b for a, b in steps if 0 <= a < n and 0 <= b < n]
            free = [x for x in free if owner[x] < 0]
            if free:
                pick = free[int(rng.integers(len(free)))]
                owner[pick] = len(cages)
                cells.append(pick)
        total = None if rng.random() < 0.1 else int(rng.integers(len(cells), 4 * n))
        cages.append((tuple(sorted(cells)), total))
    return cages


def _twin(units, cages, n):
    """Innies and outies, unit by unit (innies first), as the rule of 45 states them."""
    whole = n * (n + 1) // 2
    unit_sets = [set(u) for u in units.tolist()]
    cage_sets = [set(cells) for cells, _ in cages]
    found = []
    for unit in unit_sets:
        inside = [k for k, s in enumerate(cage_sets) if s <= unit and cages[k][1] is not None]
        innies = unit - set().union(*(cage_sets[k] for k in inside))
        innies_total = whole - sum(cages[k][1] for k in inside)
        touching = [k for k, s in enumerate(cage_sets) if s & unit]
        covered = all(any(cell in cage_sets[k] for k in touching) for cell in unit) and all(
            cages[k][1] is not None for k in touching
        )
        candidates = [(innies, innies_total)]
        if covered:
            outies = set().union(*(cage_sets[k] for k in touching)) - unit
            candidates.append((outies, sum(cages[k][1] for k in touching) - whole))
        else:
            candidates.append((set(), 0))
        for cells, total in candidates:
            if not 0 < len(cells) < n:
                continue
            if not any(cells <= u for u in unit_sets):
                continue
            if cells in cage_sets:
                continue
            key = tuple(sorted(cells))
            if any(key == f for f, _ in found):
                continue
            found.append((key, total))
    return found


@pytest.mark.parametrize("n, box", [(4, (2, 2)), (6, (2, 3)), (9, (3, 3))])
def test_derived_cages_match_the_rule_of_45(n, box):
    rng = np.random.default_rng(n)
    units = _units(n, *box)
    seen = 0
    for _ in range(150):
        cages = _random_cages(rng, n)
        got = _derived_cages(units, cages, n)
        assert got == _twin(units, cages, n), cages
        seen += len(got)
    assert seen > 50  # the layouts do imply cages
