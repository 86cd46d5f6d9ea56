"""The "cages" engine's linear sums (arrows) on one state, against a naive twin.

For one arrow and random candidates, the twin lists every assignment of the arrow's
cells (itertools, the digits of each group of peers distinct) and computes what the
engine's sum step must leave: each cell the digits of some assignment, and the cells
that see every open cell of a group without the digits all assignments put there (a
cell the step places leaves its peers later, with the singles: where the step places
one, the twin checks only that the step removed no digit it keeps)."""

import itertools

import numpy as np
import pytest

from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.engines import PLACED, constraint_table
from numbadlx.sudoku.engines._sums import propagate_sums

N = 9
DIGITS = (1 << N) - 1


def _step(table, masks):
    """The engine's sum step on ``masks`` (a copy): ``(state, masks)``."""
    masks = masks.copy()
    queue = np.empty(masks.shape[0], dtype=np.int32)
    _, state = propagate_sums(
        masks,
        table.peers,
        table.sum_start,
        table.sum_cells,
        table.sum_coef,
        table.sum_group,
        table.sum_total,
        table.sum_exact,
        queue,
        0,
    )
    return state, masks


def _twin(table, masks, parts=False):
    """What the sum step leaves, or None for a contradiction (one sum in ``table``);
    with ``parts``, the digits every assignment puts into any two or more cells of a
    group leave the cells that see those (sound too, and stronger: the engine uses the
    group's open cells only)."""
    cells = table.sum_cells.tolist()
    coef = table.sum_coef.tolist()
    group = table.sum_group.tolist()
    total = int(table.sum_total[0])
    options = [[d for d in range(1, N + 1) if masks[c] >> (d - 1) & 1] for c in cells]
    support = [0] * len(cells)
    need = {}
    for digits in itertools.product(*options):
        if sum(k * d for k, d in zip(coef, digits)) != total:
            continue
        used = {}
        for g, d in zip(group, digits):
            used.setdefault(g, []).append(d)
        if any(len(set(ds)) < len(ds) for ds in used.values()):
            continue
        for i, d in enumerate(digits):
            support[i] |= 1 << (d - 1)
        for g, ds in used.items():
            members = tuple(c for c, h in zip(cells, group) if h == g)
            for k in range(2, len(ds) + 1):
                for part in itertools.combinations(range(len(ds)), k):
                    if k < len(ds) and not parts:
                        continue
                    bits = sum(1 << (ds[i] - 1) for i in part)
                    key = tuple(members[i] for i in part)
                    need[key] = need.get(key, bits) & bits
    if not any(support):
        return None
    out = masks.copy()
    for i, c in enumerate(cells):
        out[c] &= np.uint64(support[i])
    peers = [set(row) for row in table.peers.tolist()]
    for members, bits in need.items():
        for p in range(N * N):
            if p not in members and all(p in peers[m] for m in members):
                out[p] &= np.uint64(DIGITS & ~bits)
    if any(out[c] == 0 for c in range(N * N)):
        return None
    return out


def _arrow(rng):
    """A bulb and a line of two or three cells, a king's walk inside one box (the line
    one group of peers)."""
    box = int(rng.integers(9))
    r0, c0 = 3 * (box // 3), 3 * (box % 3)
    walk = [(int(rng.integers(3)), int(rng.integers(3)))]
    while len(walk) < int(rng.integers(3, 5)):
        r, c = walk[-1]
        steps = [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if 0 <= r + dr < 3 and 0 <= c + dc < 3 and (r + dr, c + dc) not in walk
        ]
        walk.append(steps[int(rng.integers(len(steps)))])
    cells = [(r0 + r) * N + c0 + c for r, c in walk]
    return Rules(arrows=[((cells[0],), tuple(cells[1:]))]).checked(N)


@pytest.mark.parametrize("seed", range(6))
def test_sum_step_equals_the_naive_twin(seed):
    rng = np.random.default_rng(seed)
    bitten = equal = 0
    for _ in range(60):
        rules = _arrow(rng)
        table = constraint_table(geometry.unit_table(N, rules=rules), rules, sum_exact=10**6)
        masks = np.full(N * N, DIGITS, dtype=np.uint64)
        for c in range(N * N):
            if rng.random() < 0.5:
                m = int(rng.integers(1, DIGITS + 1))
                if m & (m - 1):  # no placed cells: several digits
                    masks[c] = m
        state, got = _step(table, masks)
        want = _twin(table, masks)
        if want is None:
            assert state == -1
            continue
        assert state >= 0
        digits = got & ~PLACED
        # sound: every digit the stronger twin keeps stays; as strong as the twin:
        # equal, unless the step placed a cell (it leaves its peers later, with the
        # singles)
        strong = _twin(table, masks, parts=True)
        assert strong is None or ((digits & strong) == strong).all()
        if not (got & PLACED).any():
            assert digits.tolist() == want.tolist()
            equal += 1
        # the needed digits left a cell outside the arrow now and then
        outside = [c for c in range(N * N) if c not in set(table.sum_cells.tolist())]
        bitten += any(int(got[c] & ~PLACED) != int(masks[c]) for c in outside)
    assert bitten > 0 and equal > 20


def test_a_forced_line_leaves_its_box():
    # a bulb of 6 over three cells of one box: they hold 1, 2 and 3 (in some order),
    # which leave the box's other cells and the bulb's candidates stay 6
    rules = Rules(arrows=[((0,), (10, 11, 19))]).checked(N)
    table = constraint_table(geometry.unit_table(N, rules=rules), rules)
    masks = np.full(N * N, DIGITS, dtype=np.uint64)
    masks[0] = 1 << 5
    state, got = _step(table, masks)
    assert state == 1
    assert [int(got[c]) for c in (10, 11, 19)] == [0b111] * 3
    for c in (1, 2, 9, 18, 20):
        assert int(got[c]) == DIGITS & ~0b111
    assert int(got[40]) == DIGITS
