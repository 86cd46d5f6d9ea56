"""Candidate masks in bulk, against a naive twin written from the definitions."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import geometry


def _naive_after_givens(puzzle, n, box):
    peers = geometry.peers(n, *box)
    out = []
    for cell in range(n * n):
        if puzzle[cell]:
            out.append(1 << (int(puzzle[cell]) - 1))
            continue
        taken = {int(puzzle[p]) for p in peers[cell] if puzzle[p]}
        out.append(sum(1 << (d - 1) for d in range(1, n + 1) if d not in taken))
    return out


def _naive_singles(puzzle, n, box):
    """Naked and hidden singles placed until none is left, from scratch each time."""
    grid = [int(v) for v in puzzle]
    units = geometry.units(n, *box)
    while True:
        masks = _naive_after_givens(np.array(grid), n, box)
        placed = False
        for cell in range(n * n):
            if not grid[cell] and masks[cell] and masks[cell] & (masks[cell] - 1) == 0:
                grid[cell] = masks[cell].bit_length()
                placed = True
                break
        if not placed:
            for unit in units:
                for d in range(1, n + 1):
                    spots = [c for c in unit if not grid[c] and masks[c] >> (d - 1) & 1]
                    if len(spots) == 1 and d not in {grid[c] for c in unit}:
                        grid[spots[0]] = d
                        placed = True
                        break
                if placed:
                    break
        if not placed:
            return masks


@pytest.mark.parametrize("n, box", [(4, (2, 2)), (6, (2, 3)), (9, (3, 3))])
def test_masks_after_givens_and_singles_match_a_naive_twin(n, box):
    puzzles = sudoku.random_puzzles(30, n=n, box=box, seed=n)
    after = sudoku.candidates(puzzles, box=box)
    singles = sudoku.candidates(puzzles, logic="singles", box=box)
    assert after.dtype == np.uint16 and after.shape == puzzles.shape
    for k, puzzle in enumerate(puzzles):
        assert after[k].tolist() == _naive_after_givens(puzzle, n, box)
        assert singles[k].tolist() == _naive_singles(puzzle, n, box)


def test_a_technique_level_only_removes_candidates_and_keeps_the_solution():
    puzzles = sudoku.parse(sudoku.default_sample_path())[:40]
    solved = sudoku.solve(puzzles).solutions
    before = sudoku.candidates(puzzles, logic="singles")
    for level in ("pointing", "X-wing", "hidden quad", "forcing chain"):
        after = sudoku.candidates(puzzles, logic=level)
        assert not (after & ~before).any()  # never a candidate more
        held = (after >> (solved.astype(np.uint16) - 1)) & 1
        assert held.all()  # the solution's digit always kept
        before = after


def test_bad_rows_and_bad_levels():
    masks = sudoku.candidates(["11" + "." * 79, "." * 81])
    assert not masks[0].any() and (masks[1] == 0x1FF).all()
    with pytest.raises(ValueError, match="logic must be one of"):
        sudoku.candidates(["." * 81], logic="nishio")
