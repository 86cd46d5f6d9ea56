"""The exact-cover model of the setters' rules (``to_exact_cover(puzzle, rules=)``).

Every rule kind with a natural encoding is modelled: DLX over the model (Algorithm C)
finds what the SAT oracle finds, on random instances of each kind and on published
puzzles; the outside clues (sandwiches, x-sums, skyscrapers) and rules with too many
digit assignments are refused with a ValueError naming them; ``engine="auto"``'s
fallback through the models (the "cover" engine) solves them too.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, read_fpuzzles
from numbadlx.sudoku import _rules_solve as rules_solve
from numbadlx.sudoku._cover_rules import MODELLED
from numbadlx.sudoku.cover import decode_cover
from numbadlx.sudoku.engines import COVER

from .rule_cases import KINDS, instances
from .sat_oracle import is_solution, solutions

OUTSIDE = ("sandwiches", "x_sums", "skyscrapers")
MODELLED_KINDS = [k for k in KINDS if k not in OUTSIDE]
FOLDER = Path(__file__).parent / "fpuzzles"
PUBLISHED = {
    (p["title"], p["size"]): p for p in json.loads((FOLDER / "published.json").read_text())
}
# published puzzles whose models DLX solves within a second (on others, with arrows or
# long thermometers, the generic search takes minutes)
QUICK = [
    ("Bird in a storm", 9),  # anti-knight, negative, palindromes, white dots
    ("Black Kropki X", 9),  # little killers, negative, diagonals, black dots
    ("Fortress Sudoku", 9),  # greater
    ("Fortress", 9),  # maximums
    ("Entropic Lines 101", 9),
    ("Between lines", 9),
    ("Palindromes", 9),
    ("Modular lines", 9),  # and cages
    ("Pencilmark sudoku", 9),  # candidates
    ("Sudoku X", 9),
    ("GW Test 1", 6),  # whispers
    ("Quad? Bike!", 6),  # quadruples
    ("6x6 Extreme Killer", 6),  # minimums, maximums, cages
    ("Peak Sudoku", 4),  # little killers, V pairs
]


def _cover_grids(puzzle, rules, limit=2):
    problem, cells, digits = sudoku.to_exact_cover(puzzle, rules=rules)
    return [
        decode_cover(puzzle, s, cells, digits, rules=rules).tolist()
        for s in problem.solutions(limit=limit)
    ]


def test_modelled_kinds():
    assert set(MODELLED_KINDS) - {"diagonal_main", "diagonal_anti"} <= MODELLED
    assert not set(OUTSIDE) & MODELLED


@pytest.mark.parametrize("kind", MODELLED_KINDS)
def test_cover_model_agrees_with_sat(kind):
    modelled = 0
    total = 0
    for n, group in instances(kind, 12, seed=900 + KINDS.index(kind), sizes=(4, 5, 6)).items():
        for puzzle, rules in group:
            total += 1
            expected = solutions(puzzle, n, rules, limit=2)
            where = f"{n}x{n} {rules!r} {sudoku.format_line(puzzle)}"
            try:
                got = _cover_grids(puzzle, rules)
            except ValueError as error:
                # a clue of another kind mixed in that has no model, or a rule too large
                assert "no exact-cover model" in str(error), where
                continue
            modelled += 1
            assert len(got) == len(expected), where
            if len(got) == 1:
                assert got == expected, where
            for grid in got:
                assert is_solution(puzzle, n, rules, grid), where
    assert modelled >= total * 2 // 3, (modelled, total)


@pytest.mark.parametrize("kind", OUTSIDE)
def test_outside_clues_are_refused_by_name(kind):
    line = tuple(range(9))
    rules = Rules(**{kind: [(line, 3)]}, arrows=[(9, (10, 11))])
    with pytest.raises(ValueError, match=f"no exact-cover model for the rules {kind} "):
        sudoku.to_exact_cover("0" * 81, rules=rules)


def test_a_rule_with_too_many_assignments_is_refused_by_name():
    # a three-cell pill over a long line: the line's digits reach hundreds in too many ways
    rules = Rules(arrows=[((0, 1, 2), tuple(range(9, 81, 9)) + tuple(range(73, 81)))])
    with pytest.raises(ValueError, match=r"arrows: no exact-cover model for the arrow with bulb"):
        sudoku.to_exact_cover("0" * 81, rules=rules)
    # a short arrow is modelled
    assert sudoku.to_exact_cover("0" * 81, rules=Rules(arrows=[(0, (1, 2))]))[0].n_options > 0


def test_extra_regions_and_candidates_are_items_and_options():
    problem, _, _ = sudoku.to_exact_cover(
        "0" * 16, rules=Rules(extra_regions=[[0, 5, 10, 15]], candidates={0: [3]})
    )
    assert "x0#3" in problem.item_names
    assert not [name for name in problem.option_names if name.startswith("r0c0#")][1:]
    grids = _cover_grids("0" * 16, Rules(extra_regions=[[0, 5, 10]], candidates={0: [3]}), None)
    assert grids and all(g[0] == 3 and len({g[0], g[5], g[10]}) == 3 for g in grids)
    assert len(grids) == sudoku.count_solutions(
        "0" * 16, rules=Rules(extra_regions=[[0, 5, 10]], candidates={0: [3]})
    )


@pytest.mark.parametrize("key", QUICK, ids=[title for title, _ in QUICK])
def test_published_puzzles_through_the_model(key):
    entry = PUBLISHED[key]
    source = json.dumps(entry["json"]) if "json" in entry else entry.get("packed")
    if "file" in entry:
        source = FOLDER / entry["file"]
    puzzle, rules = read_fpuzzles(source)
    assert rules.kinds <= MODELLED
    got = _cover_grids(puzzle, rules)
    assert len(got) == 1
    assert "".join(map(str, got[0])) == entry["solution"]


def test_the_cover_engine_fallback(monkeypatch):
    # "auto" runs the models when no registered engine takes the rules: made to here
    monkeypatch.setattr(rules_solve, "pick_engine", lambda *args, **kwargs: COVER)
    rng = np.random.default_rng(7)
    for kind in ("arrows", "renbans", "greater", "negative", "quadruples"):
        for n, group in instances(kind, 4, seed=int(rng.integers(1000)), sizes=(4,)).items():
            for puzzle, rules in group:
                if rules.kinds - MODELLED:
                    continue
                expected = solutions(puzzle, n, rules, limit=2)
                result = sudoku.solve([puzzle], rules=rules, box=None, limit=2)
                assert result.engine == COVER
                status = sudoku.Status(result.status[0])
                if not expected:
                    assert status in (sudoku.Status.NO_SOLUTION, sudoku.Status.INVALID)
                elif len(expected) == 1:
                    assert status == sudoku.Status.UNIQUE
                    assert result.solutions[0].tolist() == expected[0]
                else:
                    assert status == sudoku.Status.MULTIPLE
