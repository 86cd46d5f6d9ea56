"""Canonical forms: against a naive twin that applies every transformation, against the
published counts of essentially different grids, and by their defining properties."""

import numpy as np
import pytest

from numbadlx import sudoku
from tests.helpers import (
    all_4x4_grids,
    data_dir,
    grids_with_first_row,
    naive_canonical,
)


def _blanked(grids, rng, keep):
    """Each grid with each cell kept with probability ``keep``."""
    return np.where(rng.random(grids.shape) < keep, grids, 0).astype(np.uint8)


def _dataset(name, count):
    path = data_dir() / name
    if not path.exists():
        pytest.skip(f"{name} is not in the data directory")
    return sudoku.parse(str(path))[:count]


def test_every_4x4_grid_matches_the_naive_twin_and_there_are_two_classes():
    grids = all_4x4_grids().astype(np.uint8)
    forms = sudoku.canonical(grids)
    for grid, form in zip(grids, forms):
        assert form.tolist() == naive_canonical(grid, (2, 2)).tolist()
    assert len(np.unique(forms, axis=0)) == 2  # published: 2 essentially different grids
    classes = sudoku.equivalence_classes(grids)
    assert classes.max() == 1 and classes[0] == 0


def test_4x4_puzzles_match_the_naive_twin():
    rng = np.random.default_rng(1)
    grids = all_4x4_grids()[rng.integers(0, 288, 300)]
    puzzles = _blanked(grids, rng, 0.4)
    forms = sudoku.canonical(puzzles)
    for puzzle, form in zip(puzzles, forms):
        assert form.tolist() == naive_canonical(puzzle, (2, 2)).tolist()


@pytest.mark.parametrize("box", [(2, 3), (3, 2)])
def test_6x6_puzzles_and_grids_match_the_naive_twin(box):
    rng = np.random.default_rng(2)
    grids = sudoku.random_grids(12, 6, box=box, seed=3)
    batch = np.vstack([grids, _blanked(grids, rng, 0.3), _blanked(grids, rng, 0.6)])
    forms, how = sudoku.canonical(batch, box=box, return_transform=True)
    for puzzle, form in zip(batch, forms):
        assert form.tolist() == naive_canonical(puzzle, box).tolist()
    assert not how.transpose.any()  # boxes that are not square are never transposed
    assert (sudoku.apply_transform(batch, how) == forms).all()
    assert (sudoku.apply_transform(forms, sudoku.invert_transform(how)) == batch).all()


def test_6x6_grids_fall_into_49_classes():
    """Published (Russell and Jarvis): 49 essentially different 2x3 grids. Every class
    has grids whose first row is 1..6, so canonicalising those finds every class."""
    grids = grids_with_first_row((2, 3))
    assert len(grids) == 28_200_960 // 720  # the published count of 6x6 grids over 6!
    forms = sudoku.canonical(grids, box=(2, 3))
    assert len(np.unique(forms, axis=0)) == 49


@pytest.mark.slow
@pytest.mark.parametrize(
    "source", ["sudoku17.txt", "top1465.txt", "kaggle_bryanpark_10k.csv", "grid"]
)
def test_9x9_matches_the_naive_twin_on_all_3359232_maps(source):
    if source == "grid":
        puzzle = sudoku.random_grids(1, 9, seed=7)[0]
    else:
        puzzle = _dataset(source, 1)[0]
    form = sudoku.canonical([puzzle])[0]
    assert form.tolist() == naive_canonical(puzzle, (3, 3)).tolist()


@pytest.mark.parametrize(
    "source", ["sudoku17.txt", "top1465.txt", "kaggle_bryanpark_10k.csv", "grid"]
)
def test_9x9_properties(source):
    if source == "grid":
        puzzles = sudoku.random_grids(40, 9, seed=8)
    else:
        puzzles = _dataset(source, 300)
    forms, how = sudoku.canonical(puzzles, return_transform=True, threads=2)
    images = sudoku.transform(puzzles, seed=9)
    assert (sudoku.canonical(images) == forms).all()  # a transformed puzzle: same form
    assert (sudoku.canonical(forms) == forms).all()  # the form of a form is itself
    assert (sudoku.apply_transform(puzzles, how) == forms).all()
    back = sudoku.apply_transform(forms, sudoku.invert_transform(how))
    assert (back == puzzles).all()
    # the same form is never larger than the puzzle itself, read as a string
    for puzzle, form in zip(puzzles[:50], forms[:50]):
        assert form.tobytes() <= puzzle.tobytes()
    assert (sudoku.equivalence_classes(np.vstack([puzzles, images]))[len(puzzles) :] >= 0).all()


def test_classes_are_numbered_by_first_appearance_and_bad_rows_flagged():
    grids = sudoku.random_grids(3, 9, seed=10)
    images = sudoku.transform(grids, seed=11)
    clash = "11" + "0" * 79
    line = sudoku.format_line
    batch = [line(grids[2]), clash, line(images[0]), line(grids[0]), "not a puzzle"]
    batch += [line(images[2]), line(grids[1])]
    assert sudoku.equivalence_classes(batch).tolist() == [0, -1, 1, 1, -1, 0, 2]
    forms = sudoku.canonical(batch)
    assert not forms[[1, 4]].any()
    assert (forms[0] == forms[5]).all() and (forms[2] == forms[3]).all()


def test_apply_transform_checks_its_input():
    form, how = sudoku.canonical(["1234341221434321"], return_transform=True)
    with pytest.raises(ValueError, match="does not match"):
        sudoku.apply_transform(np.zeros((2, 16), dtype=np.uint8), how)
    with pytest.raises(ValueError, match="values"):
        sudoku.apply_transform(np.full((1, 16), 7, dtype=np.uint8), how)


def test_published_minlex_grids_are_their_own_forms():
    """The smallest and the largest min-lex 9x9 grids, as published on the Sudoku
    Players' Forum ("Canonical form" thread, Red Ed, 2007)."""
    smallest = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    largest = "123456789457893612986217354274538196531964827698721435342685971715349268869172543"
    grids = sudoku.parse([smallest, largest])
    assert (sudoku.canonical(grids) == grids).all()
    images = sudoku.transform(np.repeat(grids, 5, axis=0), seed=12)
    assert (sudoku.canonical(images) == np.repeat(grids, 5, axis=0)).all()


@pytest.mark.slow
def test_royles_17_clue_puzzles_are_all_essentially_different():
    """Gordon Royle's list holds each 17-clue puzzle once up to equivalence: 49,158
    puzzles, 49,158 classes."""
    puzzles = _dataset("sudoku17.txt", None)
    classes = sudoku.equivalence_classes(puzzles)
    assert len(puzzles) == 49_158
    assert classes.max() + 1 == len(puzzles) and (classes >= 0).all()


def test_too_many_ties_is_reported_not_hidden():
    """The empty 16x16 grid ties under millions of moves: past the memory bound it is a
    bad row with its reason, and the other rows are unaffected."""
    from numbadlx.sudoku.making import canonical_chunk

    grid = sudoku.random_grids(1, 16, seed=13)[0]
    forms, _, bad = canonical_chunk(np.vstack([np.zeros(256, np.uint8), grid]))
    assert [row for row, _ in bad] == [0] and "too many symmetric ties" in bad[0][1]
    assert not forms[0].any() and (sudoku.canonical(forms[1:]) == forms[1:]).all()
