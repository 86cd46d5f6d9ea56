"""The "bands" engine's kernel helpers against plain twins: the givens' start state and
row placement equal placing cells one by one, and propagation leaves no column rule
unapplied while the branch choice reads the digits the state allows."""

import numpy as np

from numbadlx.sudoku import random_puzzles
from tests.helpers import holed_puzzles


def _bands_start():
    """The "bands" engine's givens' state, callable from Python (the helper itself has
    no Python entry point: only kernels call it)."""
    from numba import njit

    from numbadlx.sudoku.engines import _band_moves as moves

    return njit(lambda puzzle, state: moves._start(puzzle, state))


def test_bands_start_equals_placing_the_givens_one_by_one():
    # the givens' state is built word by word; its naive twin places them one at a time
    from numbadlx.sudoku.engines import _band_moves as bands

    start = _bands_start()

    rng = np.random.default_rng(3)
    puzzles = np.concatenate([random_puzzles(30, seed=4), holed_puzzles(9, (3, 3), rng, 60)])
    clashes = puzzles[:20].copy()
    for k, puzzle in enumerate(clashes):  # a given repeated in its row, column or box
        cell = int(np.flatnonzero(puzzle)[0])
        r, c = divmod(cell, 9)
        other = [r * 9 + (c + 1) % 9, ((r + 4) % 9) * 9 + c, (r - r % 3 + (r + 1) % 3) * 9 + c][
            k % 3
        ]
        puzzle[other] = puzzle[cell]
    state = np.zeros(bands.STATE_WORDS, dtype=np.int64)
    invalid = 0
    for puzzle in np.concatenate([puzzles, clashes]):
        twin = np.zeros(bands.STATE_WORDS, dtype=np.int64)
        twin[:27] = (1 << 27) - 1
        clash = False
        for cell in np.flatnonzero(puzzle):
            digit = int(puzzle[cell]) - 1
            if bands._place(twin, digit, cell // 27, cell % 27) < 0:
                clash = True
                break
        dirty = start(puzzle, state)
        assert (dirty < 0) == clash
        invalid += clash
        if not clash:
            assert np.array_equal(state, twin)
    assert invalid == len(clashes)
    for value in (10, 255):  # a value above 9 anywhere, the first or the last cell too
        for cell in (0, 40, 80):
            puzzle = puzzles[0].copy()
            puzzle[cell] = value
            assert start(puzzle, state) == -1


def test_bands_row_placement_equals_placing_the_cells_one_by_one():
    # a word's row singles go in one pass; placed one at a time with _place they give
    # the same state and the same changed words
    from numbadlx.sudoku.engines import _band_moves as moves

    start = _bands_start()
    rng = np.random.default_rng(11)
    state = np.zeros(moves.STATE_WORDS, dtype=np.int64)
    tried = 0
    for puzzle in random_puzzles(40, seed=12):
        assert start(puzzle, state) >= 0
        for word in rng.permutation(27)[:6]:
            band, digit = divmod(int(word), 9)
            placed = int(state[27 + band])
            # one free cell of the word in each of some rows, boxes and columns distinct
            cells = 0
            boxes = set()
            columns = set()
            for row in rng.permutation(3):
                free = [
                    p
                    for p in range(9 * row, 9 * row + 9)
                    if (state[word] >> p) & 1
                    and not (placed >> p) & 1
                    and p % 9 // 3 not in boxes
                    and p % 9 not in columns
                ]
                if free and rng.random() < 0.8:
                    p = int(rng.choice(free))
                    cells |= 1 << p
                    boxes.add(p % 9 // 3)
                    columns.add(p % 9)
            if not cells:
                continue
            tried += 1
            # as the band rule finds them: each cell alone in its row of the word
            base = state.copy()
            rows = sum(511 << (9 * r) for r in range(3) if (cells >> (9 * r)) & 511)
            base[word] = (int(state[word]) & ~rows) | cells
            one_by_one = base.copy()
            changed = 0
            for p in range(27):
                if (cells >> p) & 1:
                    step = moves._place(one_by_one, digit, band, p)
                    assert step >= 0
                    changed |= step
            at_once = base.copy()
            assert moves._place_rows(at_once, digit, band, cells, base[word]) == changed
            assert np.array_equal(at_once, one_by_one)
            assert bin(cells).count("1") == one_by_one[30] - base[30]
    assert tried > 100


def _band_candidates(state):
    """The candidates of a "bands" state as a (digit, row, column) boolean cube."""
    cube = np.zeros((9, 9, 9), dtype=bool)
    for digit in range(9):
        for band in range(3):
            word = int(state[9 * band + digit])
            for position in range(27):
                if (word >> position) & 1:
                    cube[digit, 3 * band + position // 9, position % 9] = True
    return cube


def test_bands_propagation_ends_with_no_column_rule_left_and_choose_reads_the_digits():
    # checked naively on the candidate cube: once _propagate stops, no digit has a column
    # with one unplaced cell, and in every stack each band's columns lie on a
    # permutation of the bands over the stack's columns (the stack rule has nothing
    # left); _choose's digits are the chosen cell's candidates, and it picks a cell with
    # two when there is one
    from itertools import permutations

    from numba import njit

    from numbadlx.sudoku.engines import _bands as bands

    # the helpers have no Python entry point (only kernels call them): small kernels do
    start = _bands_start()
    propagate = njit(lambda state, dirty: bands._propagate(state, dirty))
    choose = njit(lambda state, hard: bands._choose(state, hard))

    rng = np.random.default_rng(21)
    puzzles = np.concatenate([random_puzzles(20, seed=22), holed_puzzles(9, (3, 3), rng, 120)])
    state = np.zeros(bands._WORK_WORDS, dtype=np.int64)
    open_states = 0
    for puzzle in puzzles:
        dirty = start(puzzle, state)
        if dirty < 0 or propagate(state, dirty) in (-1, 81):
            continue
        open_states += 1
        cube = _band_candidates(state)
        placed = np.zeros((9, 9), dtype=bool)
        for band in range(3):
            for position in range(27):
                if (int(state[27 + band]) >> position) & 1:
                    placed[3 * band + position // 9, position % 9] = True
        for digit in range(9):
            for column in range(9):
                rows = np.flatnonzero(cube[digit, :, column])
                assert len(rows) >= 1
                assert len(rows) > 1 or placed[rows[0], column]
            for stack in range(3):
                columns = range(3 * stack, 3 * stack + 3)
                held = [
                    [cube[digit, 3 * b : 3 * b + 3, c].any() for c in columns] for b in range(3)
                ]
                fits = [p for p in permutations(range(3)) if all(held[b][p[b]] for b in range(3))]
                for b in range(3):
                    for j in range(3):
                        assert not held[b][j] or any(p[b] == j for p in fits)
        cell, digits = choose(state, False)
        r = 3 * (int(cell) // 27) + (int(cell) % 27) // 9
        c = int(cell) % 27 % 9
        assert not placed[r, c]
        assert digits == sum(1 << d for d in range(9) if cube[d, r, c])
        counts = cube.sum(axis=0)[~placed]
        assert bin(digits).count("1") == (2 if (counts == 2).any() else counts.min())
    assert open_states > 20
