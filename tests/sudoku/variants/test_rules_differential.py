"""Every setters' rule against the SAT oracle on every engine that takes it.

Random instances of each rule kind (``rule_cases``: 4x4 to 9x9, boxes, Latin squares and
jigsaw regions, kinds mixed, some clues perturbed) are solved with ``limit=2`` by the
engines "cages", "auto", "bits" and "dlx" and through the exact-cover model
(``to_exact_cover``); statuses (UNIQUE, MULTIPLE, NO_SOLUTION) and solutions must equal
the oracle's. An engine that refuses a rule (a ``ValueError`` naming it as unsupported)
is left out for that instance; a kind no engine takes yet is skipped, so these tests
bite as soon as an engine takes it.
"""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku.cover import decode_cover
from tests.helpers import bounds_checked

from .rule_cases import KINDS, instances
from .sat_oracle import is_solution, solutions

ENGINES = ("cages", "auto", "bits", "dlx")
REFUSED = ("does not solve the rules", "no exact-cover model")
Status = sudoku.Status


def _refused(error):
    return any(words in str(error) for words in REFUSED)


def _check_result(where, status, grid, puzzle, n, rules, found):
    status = Status(status)
    if len(found) == 0:
        assert status in (Status.NO_SOLUTION, Status.INVALID), where
    elif len(found) == 1:
        assert status == Status.UNIQUE, where
        assert grid == found[0], where
    else:
        assert status == Status.MULTIPLE, where
        assert is_solution(puzzle, n, rules, grid), where


def _run_engine(engine, n, group, expected):
    """Solve the group on ``engine`` (one call; one call per puzzle when the engine
    refuses some rule set) and check; the indices of the instances it solved."""
    puzzles = np.stack([p for p, _ in group])
    rules = [r for _, r in group]
    try:
        # (N, n, n): a 2-D (25, 25) array would read as one 25x25 grid, not 25 5x5 ones
        grids = puzzles.reshape(len(group), n, n)
        result = sudoku.solve(grids, rules=rules, engine=engine, box=None, limit=2)
        outcomes = [(k, result.status[k], result.solutions[k]) for k in range(len(group))]
    except ValueError as error:
        if not _refused(error):
            raise
        outcomes = []
        for k in range(len(group)):
            try:
                one = sudoku.solve(
                    puzzles[k : k + 1], rules=rules[k], engine=engine, box=None, limit=2
                )
            except ValueError as error:
                if not _refused(error):
                    raise
                continue
            outcomes.append((k, one.status[0], one.solutions[0]))
    for k, status, grid in outcomes:
        where = f"{engine} {n}x{n} {rules[k]!r} {sudoku.format_line(puzzles[k])}"
        _check_result(where, status, grid.tolist(), puzzles[k], n, rules[k], expected[k])
    return {k for k, _, _ in outcomes}


def _run_cover(n, group, expected):
    done = set()
    for k, (puzzle, rules) in enumerate(group):
        try:
            problem, cells, digits = sudoku.to_exact_cover(puzzle, rules=rules)
        except ValueError as error:
            if not _refused(error):
                raise
            continue
        got = [
            decode_cover(puzzle, s, cells, digits, rules=rules).tolist()
            for s in problem.solutions(limit=2)
        ]
        where = f"cover {n}x{n} {rules!r} {sudoku.format_line(puzzle)}"
        assert len(got) == len(expected[k]), where
        if len(got) == 1:
            assert got == expected[k], where
        for grid in got:
            assert is_solution(puzzle, n, rules, grid), where
        done.add(k)
    return done


def run_kind(kind, count, seed, sizes):
    """Check ``count`` instances of ``kind``; ``{engine: how many instances with a rule
    of that kind it solved}`` (instances where the clues came out empty check too)."""
    ran = {}
    rule = "diagonals" if kind.startswith("diagonal") else kind
    for n, group in instances(kind, count, seed, sizes).items():
        expected = [solutions(p, n, r, limit=2) for p, r in group]
        having = {k for k, (_, r) in enumerate(group) if rule in r.kinds}
        for engine in ENGINES:
            done = _run_engine(engine, n, group, expected)
            ran[engine] = ran.get(engine, 0) + len(done & having)
        ran["cover"] = ran.get("cover", 0) + len(_run_cover(n, group, expected) & having)
    if not any(ran.values()):
        pytest.skip(f"no engine takes {kind} yet")
    return ran


@pytest.mark.parametrize("kind", KINDS)
def test_rule_against_sat(kind):
    run_kind(kind, 10, seed=KINDS.index(kind), sizes=(4, 5, 6))


@pytest.mark.slow
@pytest.mark.skipif(bounds_checked(), reason="run once, in the plain run of the suite")
@pytest.mark.parametrize("kind", KINDS)
def test_rule_against_sat_many(kind):
    run_kind(kind, 200, seed=500 + KINDS.index(kind), sizes=(4, 5, 6, 7, 8, 9))
