"""Published f-puzzles puzzles (tests/sudoku/variants/fpuzzles, with their sources): each
is read into the rules its setter drew or refused naming the key numbadlx lacks; every
published solution keeps every rule read (checked from the rules' definitions, apart
from the engines); and where the engines take the rules, sudoku.solve finds it."""

import json
from pathlib import Path

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import read_fpuzzles
from tests.helpers import broken_rule

FOLDER = Path(__file__).parent / "fpuzzles"
PUBLISHED = json.loads((FOLDER / "published.json").read_text())
READ = [p for p in PUBLISHED if "kinds" in p]
IDS = [p["title"] for p in PUBLISHED]


def _source(entry):
    """The puzzle: its packed link text or its f-puzzles JSON file as published, or the
    f-puzzles JSON written for it (``json``)."""
    if "json" in entry:
        return json.dumps(entry["json"])
    return FOLDER / entry["file"] if "file" in entry else entry["packed"]


def _digits(entry):
    """The published solution as digits (None on grids over 9: written without spaces)."""
    return [int(ch) for ch in entry["solution"]] if entry["size"] <= 9 else None


@pytest.mark.parametrize("entry", PUBLISHED, ids=IDS)
def test_read_or_refused_by_name(entry):
    if "refused" in entry:
        with pytest.raises(ValueError, match=f"'{entry['refused']}' is not supported"):
            read_fpuzzles(_source(entry))
        return
    puzzle, rules = read_fpuzzles(_source(entry))
    assert sorted(rules.kinds) == entry["kinds"]
    assert puzzle.shape == (entry["size"] ** 2,)


def test_every_new_rule_family_is_in_the_material():
    kinds = set().union(*(p["kinds"] for p in READ))
    for kind in (
        "arrows",
        "little_killers",
        "x_sums",
        "skyscrapers",
        "whispers",
        "renbans",
        "palindromes",
        "between_lines",
        "region_sum_lines",
        "entropic_lines",
        "zipper_lines",
        "quadruples",
        "minimums",
        "maximums",
        "greater",
        "negative",
        "diagonals",
        "sandwiches",
        "lockout_lines",
        "modular_lines",
        "candidates",
        "white_dots",
        "black_dots",
        "cages",
        "thermos",
    ):
        assert kind in kinds, kind


@pytest.mark.parametrize("entry", [p for p in READ if p["size"] <= 9], ids=lambda p: p["title"])
def test_the_published_solution_keeps_every_rule_read(entry):
    puzzle, rules = read_fpuzzles(_source(entry))
    grid, n = _digits(entry), entry["size"]
    assert all(g == 0 or g == s for g, s in zip(puzzle.tolist(), grid))
    assert broken_rule(grid, n, rules) is None


def test_the_rule_check_bites():
    # read the outside clues from the wrong side, or a little killer on the other
    # diagonal, and the published solution breaks them
    bitten = 0
    for entry in READ:
        if entry["size"] > 9:
            continue
        _, rules = read_fpuzzles(_source(entry))
        grid = _digits(entry)
        for name in ("x_sums", "skyscrapers", "little_killers"):
            clues = getattr(rules, name)
            if not clues:
                continue
            flipped = [(line[::-1], total) for line, total in clues]
            if name == "little_killers":
                n = entry["size"]
                flipped = [([(c // n) * n + n - 1 - c % n for c in cells], t) for cells, t in clues]
            wrong = sudoku.Rules(**{name: flipped}).checked(entry["size"])
            assert broken_rule(grid, entry["size"], wrong) == name
            bitten += 1
    assert bitten >= 5
    entry = next(p for p in READ if p["title"] == "Fortress Sudoku")
    grid = _digits(entry)
    cells = [c for pair in read_fpuzzles(_source(entry))[1].greater for c in pair[:1]]
    # f-puzzles' maxima compare only with neighbours that are no maxima: read as
    # Rules' maximums (every neighbour) the published solution breaks them
    assert broken_rule(grid, 9, sudoku.Rules(maximums=cells).checked(9)) == "maximums"


@pytest.mark.parametrize("entry", READ, ids=lambda p: p["title"])
def test_solve_finds_the_published_solution(entry):
    puzzle, rules = read_fpuzzles(_source(entry))
    try:
        result = sudoku.solve(puzzle, rules=rules, timeout=60)
    except ValueError as error:
        pytest.skip(f"the engines do not take these rules yet: {error}")
    assert result.status_names()[0] == "UNIQUE"
    found = result.solutions[0].tolist()
    if entry["size"] <= 9:
        assert found == _digits(entry)
    else:
        assert "".join(map(str, found)) == entry["solution"]
    assert np.all((puzzle == 0) | (puzzle == result.solutions[0]))
