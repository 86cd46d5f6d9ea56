"""Small and large ``rate`` calls: a small call runs the ladder (rung by rung) and its
uniqueness and ``tries`` loop from Python over compiled pieces, a large one compiled
chunks; both must rate every puzzle the same."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Status

NO_SOLUTION_9 = "123456780" + "000000009" + "0" * 63  # r1c9 has no digit left
# a hard puzzle of the "forum hardest" kind (its logic rating needs trials or search)
HARD_9 = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


@pytest.mark.slow
def test_small_calls_check_uniqueness_as_an_engine_does(monkeypatch):
    """A small call checks uniqueness with the rater's own search, a large one with an
    engine: the same statuses and ratings either way (here both on one thread)."""
    from numbadlx.sudoku.making import _rate

    unique = sudoku.generate(3, 9, seed=21)
    clash = np.zeros(81, dtype=np.uint8)
    clash[:2] = 5
    few = unique[0].copy()
    few[10:] = 0  # a few givens: many solutions
    hard = sudoku.parse(HARD_9)
    puzzles = np.vstack([unique, few, sudoku.parse(NO_SOLUTION_9), clash, hard])
    small = sudoku.rate(puzzles, steps=True, threads=1)
    monkeypatch.setattr(_rate, "_SERIAL_UP_TO", 0)  # every call "large": an engine checks
    monkeypatch.setattr(_rate, "_STEPWISE_SECONDS", 0.0)
    large = sudoku.rate(puzzles, steps=True, threads=1)
    names = ["UNIQUE"] * 3 + ["MULTIPLE", "NO_SOLUTION", "INVALID", "UNIQUE"]
    assert small.status_names().tolist() == large.status_names().tolist() == names
    for field in ("tries", "logic"):
        assert np.array_equal(getattr(small, field), getattr(large, field), equal_nan=True)
    for field in ("hardest", "n_steps", "solved_by_logic", "step_table"):
        assert np.array_equal(getattr(small, field), getattr(large, field))
    # the hard one needs the trial rungs (rated in a second pass) or search
    assert small.hardest[-1] >= sudoku.TECHNIQUES.index(("nishio", 7.5))


@pytest.mark.slow
def test_small_calls_run_the_ladder_rung_by_rung(monkeypatch):
    """A small call drives the ladder from Python over the compiled singles and rungs
    (sizes and flags as values), a large one runs the compiled ladder (the rungs
    compiled for each size and flag): the same ratings and steps on puzzles that reach
    every rung below the trials and beyond. Once the second is loaded, small calls
    take it too (none compiles the ladder twice)."""
    from numbadlx.sudoku.making import _bodies, _ladder, _rate, _stepwise

    driven = []
    stepwise = _stepwise.logic_solve_stepwise

    def counted(*args):
        driven.append(args[8])  # the top rung of each run
        return stepwise(*args)

    puzzles = np.vstack([sudoku.parse(sudoku.default_sample_path())[:120], sudoku.parse(HARD_9)])
    monkeypatch.setattr(_rate, "_fast_ladder_loaded", lambda: False)
    monkeypatch.setattr(_stepwise, "logic_solve_stepwise", counted)
    small = sudoku.rate(puzzles, steps=True)
    # every unique puzzle on the ladder below the trials, the stuck ones on all of it
    below, whole = _ladder.T_FIRST_TRIAL, _ladder.T_SEARCH
    assert driven.count(below) >= len(puzzles) and whole in driven
    monkeypatch.setattr(_rate, "_SERIAL_UP_TO", 0)  # every call "large"
    monkeypatch.setattr(_rate, "_STEPWISE_SECONDS", 0.0)
    large = sudoku.rate(puzzles, steps=True, threads=1)
    assert _bodies.rate_chunk.signatures  # the compiled ladder, in its rating loop
    for field in ("tries", "logic"):
        assert np.array_equal(getattr(small, field), getattr(large, field), equal_nan=True)
    for field in ("status", "hardest", "n_steps", "solved_by_logic", "step_table"):
        assert np.array_equal(getattr(small, field), getattr(large, field))
    # the mix reaches the chains, the trials and search (HARD_9)
    assert small.hardest[-1] >= sudoku.TECHNIQUES.index(("nishio", 7.5))
    assert np.count_nonzero(small.hardest >= sudoku.TECHNIQUES.index(("X-chain", 6.6))) > 1
    assert small.n_steps.max() > 0 and small.step_table[-1, 0, 0] > 0
    monkeypatch.undo()
    assert _rate._fast_ladder_loaded()
    driven.clear()
    monkeypatch.setattr(_stepwise, "logic_solve_stepwise", counted)
    again = sudoku.rate(puzzles[:3], steps=True)
    assert not driven  # the compiled ladder, now loaded
    assert np.array_equal(again.step_table, large.step_table[:3])


class _Large(Exception):
    """Raised where a large call starts (the engine's uniqueness check)."""


def test_a_first_call_of_moderate_work_rates_stepwise(monkeypatch):
    """A call of a thousand puzzles (a second's work) runs the ladder driven from
    Python while the compiled ladder is neither loaded nor in Numba's cache (no
    compile of it, 20-30 s, before a second's work), and the compiled ladder once it
    is there, or when the expected work is larger."""
    from numbadlx.sudoku.making import _rate

    def large(*args):
        raise _Large

    monkeypatch.setattr(_rate, "run", large)
    puzzles = sudoku.parse(sudoku.default_sample_path())
    assert len(puzzles) * _rate._ROW_SECONDS <= _rate._STEPWISE_SECONDS
    monkeypatch.setattr(_rate, "_compiled_ladder_cached", lambda: False)
    ratings = sudoku.rate(puzzles, logic=False, threads=2)
    assert ratings.status_names().tolist() == ["UNIQUE"] * len(puzzles)
    assert np.isfinite(ratings.tries).all()
    monkeypatch.setattr(_rate, "_compiled_ladder_cached", lambda: True)
    with pytest.raises(_Large):
        sudoku.rate(puzzles, logic=False, threads=2)
    monkeypatch.setattr(_rate, "_compiled_ladder_cached", lambda: False)
    monkeypatch.setattr(_rate, "_STEPWISE_SECONDS", len(puzzles) * _rate._ROW_SECONDS / 2)
    with pytest.raises(_Large):
        sudoku.rate(puzzles, logic=False, threads=2)


def test_warm_up_takes_the_compiled_ladder_for_calls_past_the_small_ones(monkeypatch):
    """Within compiled_ladder() (what ``numbadlx warm-up --all`` uses), a call of more
    than the small calls' puzzles takes the compiled ladder though it is not cached; a
    small call still runs stepwise; after the block, the first rule again."""
    from numbadlx.sudoku.making import _rate

    def large(*args):
        raise _Large

    monkeypatch.setattr(_rate, "run", large)
    monkeypatch.setattr(_rate, "_compiled_ladder_cached", lambda: False)
    puzzles = sudoku.parse(sudoku.default_sample_path())[: _rate._SERIAL_UP_TO + 1]
    with _rate.compiled_ladder():
        with pytest.raises(_Large):
            sudoku.rate(puzzles, logic=False, threads=2)
        small = sudoku.rate(puzzles[:-1], logic=False, threads=2)
    assert np.isfinite(small.tries).all()
    assert np.isfinite(sudoku.rate(puzzles, logic=False, threads=2).tries).all()


@pytest.mark.slow
def test_large_calls_rate_the_same_on_threads_as_on_one(monkeypatch):
    """A large call on two threads (the compiled chunks run from Python threads) rates
    every puzzle as on one, the trial rungs' second pass included."""
    from numbadlx.sudoku.making import _rate

    monkeypatch.setattr(_rate, "_SERIAL_UP_TO", 0)
    monkeypatch.setattr(_rate, "_STEPWISE_SECONDS", 0.0)
    puzzles = np.vstack([sudoku.parse(sudoku.default_sample_path())[:150], sudoku.parse(HARD_9)])
    one = sudoku.rate(puzzles, steps=True, threads=1, chunk=8)
    two = sudoku.rate(puzzles, steps=True, threads=2, chunk=8)
    assert two.threads == 2
    for field in ("tries", "logic"):
        assert np.array_equal(getattr(one, field), getattr(two, field), equal_nan=True)
    for field in ("status", "hardest", "n_steps", "solved_by_logic", "step_table"):
        assert np.array_equal(getattr(one, field), getattr(two, field))
    assert one.hardest[-1] >= sudoku.TECHNIQUES.index(("nishio", 7.5))


def test_the_compiled_ladder_counts_as_cached_by_its_index_file(monkeypatch, tmp_path):
    from types import SimpleNamespace

    from numbadlx.sudoku.making import _rate

    index = tmp_path / "rate_chunk.nbi"
    cache = SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(index)))
    monkeypatch.setattr(_rate, "rate_chunk", SimpleNamespace(signatures=[], _cache=cache))
    assert not _rate._compiled_ladder_cached()
    index.write_bytes(b"")
    assert _rate._compiled_ladder_cached()
    monkeypatch.setattr(_rate, "rate_chunk", SimpleNamespace(signatures=["loaded"], _cache=None))
    assert _rate._compiled_ladder_cached()


_EASY_ONLY = """
import numpy as np
from numbadlx import sudoku
from numbadlx.sudoku.making import _chains, _ladder, _techniques
puzzles = sudoku.parse(sudoku.default_sample_path())[:200]
easy = puzzles[sudoku.rate(puzzles, logic=False).tries == 0][:5]
_ = [f.signatures for f in (_chains.chains, _ladder.logic_solve)]
ratings = sudoku.rate(easy, steps=True)
assert len(easy) == 5 and (ratings.hardest <= 3).all(), ratings.hardest
print(len(_chains.chains.signatures), len(_chains.nishio.signatures),
      len(_techniques.fish.signatures), len(_ladder.logic_solve.signatures),
      len(_ladder.place_singles.signatures))
"""


def test_small_calls_of_easy_puzzles_reach_no_rung():
    """A small call whose puzzles singles solve runs (so compiles or loads) the singles
    and none of the rungs, nor the compiled ladder: a rung is compiled when a puzzle of
    the call first reaches it."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _EASY_ONLY], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "0", "0", "0", "1"]


@pytest.mark.slow
@pytest.mark.parametrize("n, box", [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4))])
def test_small_calls_rate_every_box_shape_as_large_ones(monkeypatch, n, box):
    """The small calls' Python loop of uniqueness and ``tries`` (isomorphs drawn from
    its own seeding, square and non-square boxes) gives what the compiled chunk of a
    large call gives."""
    from numbadlx.sudoku.making import _rate

    puzzles = sudoku.generate(6, n, box=box, seed=4)
    puzzles = np.vstack([puzzles, np.zeros((1, n * n), dtype=np.uint8)])  # + a MULTIPLE
    small = sudoku.rate(puzzles, box=box, threads=1, seed=9)
    monkeypatch.setattr(_rate, "_SERIAL_UP_TO", 0)
    monkeypatch.setattr(_rate, "_STEPWISE_SECONDS", 0.0)
    large = sudoku.rate(puzzles, box=box, threads=1, seed=9)
    assert small.status_names().tolist() == ["UNIQUE"] * 6 + ["MULTIPLE"]
    for field in ("tries", "logic"):
        assert np.array_equal(getattr(small, field), getattr(large, field), equal_nan=True)
    assert np.array_equal(small.hardest, large.hardest)
    # past 4x4 (whose minimal puzzles singles solve) some need a search: isomorphs drawn
    assert n == 4 or np.nanmax(small.tries) > 0


def test_small_loop_takes_a_status_that_came_with_the_puzzles():
    """Rows whose status an engine already gave (UNIQUE) get the same ``tries`` from
    the small calls' loop as rows it checks itself (NOT_RUN)."""
    from numbadlx.sudoku.geometry import unit_tables
    from numbadlx.sudoku.making import _loops
    from numbadlx.sudoku.making._masks import full_mask

    puzzles = np.vstack([sudoku.parse(HARD_9), sudoku.generate(1, 9, seed=3)])
    units, peers, _ = unit_tables(9, 3, 3)
    results = []
    for given in (Status.NOT_RUN, Status.UNIQUE):
        status = np.full(2, int(given), dtype=np.uint8)
        solutions = np.zeros_like(puzzles)
        if given == Status.UNIQUE:
            solutions[:] = sudoku.solve(puzzles).solutions
        tries, logic = np.zeros(2), np.zeros(2)
        outcome = np.zeros(2, dtype=np.uint8)
        _loops._tries_serial(
            puzzles, 9, 3, 3, units, peers, full_mask(9), 8, 0, 0,
            tries, logic, outcome, status, solutions,
        )  # fmt: skip
        assert status.tolist() == [int(Status.UNIQUE)] * 2
        assert (solutions == sudoku.solve(puzzles).solutions).all()
        results.append(tries)
    assert results[0].tolist() == results[1].tolist() and results[0][0] > 0


@pytest.mark.parametrize(
    "n, box", [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (9, (3, 3))]
)
def test_python_twins_of_the_isomorph_and_candidate_kernels(n, box):
    """The small calls' loop draws isomorphs and candidates in Python and NumPy: the
    same isomorphs, generator states and candidates as the kernels, and the same
    refusals of clashing givens or values above n."""
    from numbadlx.sudoku.geometry import unit_tables
    from numbadlx.sudoku.making._isomorphs import (
        isomorphs_from_python,
        transform_one,
        transform_work,
    )
    from numbadlx.sudoku.making._masks import candidates_from_python, candidates_of, full_mask

    rows, cols = box
    _, peers, _ = unit_tables(n, rows, cols)
    full = full_mask(n)
    seeds = np.random.default_rng(n * rows).integers(0, 2**63, 12, dtype=np.int64)
    for puzzle in sudoku.generate(2, n, box=box, seed=5):
        for seed in seeds:
            state, twin_state = np.array([seed], dtype=np.uint64), np.array([seed], dtype=np.uint64)
            images = isomorphs_from_python(puzzle, n, rows, cols, twin_state, 3)
            for twin in images:  # the kernel's isomorphs, one after another
                image = np.zeros(n * n, dtype=np.uint8)
                transform_one(puzzle, n, rows, cols, state, image, *transform_work(n))
                assert np.array_equal(image, twin)
                assert sorted(np.bincount(image, minlength=n + 1)[1:]) == sorted(
                    np.bincount(puzzle, minlength=n + 1)[1:]
                )
            assert state[0] == twin_state[0]
        cand, twin = np.zeros((3, n * n), dtype=np.uint64), np.ones((3, n * n), dtype=np.uint64)
        for k in range(3):
            assert candidates_of(images[k], cand[k], peers, full)
        assert candidates_from_python(images, twin, peers, full)  # rows at once
        assert np.array_equal(cand, twin)
        clash = puzzle.copy()
        clash[: cols + 1] = 0
        clash[0] = clash[cols] = 1  # the same digit twice in the first row
        high = puzzle.copy()
        high[-1] = n + 1
        for grid, valid in ((puzzle, True), (image, True), (clash, False), (high, False)):
            cand, twin = np.zeros(n * n, dtype=np.uint64), np.ones(n * n, dtype=np.uint64)
            assert candidates_of(grid, cand, peers, full) == valid
            assert candidates_from_python(grid, twin, peers, full) == valid
            if valid:
                assert np.array_equal(cand, twin)
