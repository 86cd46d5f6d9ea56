"""The rater's bulk trace: every step replayed and checked by a naive reading of the
technique it names."""

import pytest

from numbadlx import sudoku
from numbadlx.sudoku import geometry


def _bits(mask):
    return [d + 1 for d in range(64) if int(mask) >> d & 1]


def _check_trace(puzzles, box=(3, 3)):
    ratings = sudoku.rate(puzzles, steps=True, box=box)
    solutions = sudoku.solve(puzzles, box=box).solutions
    trace = ratings.steps(masks=True)
    n = puzzles.shape[1] ** 0.5
    n = int(round(n))
    units = geometry.units(n, *box)
    masks = trace["masks"]
    checked = 0
    for s in range(len(trace["step"])):
        k = trace["puzzle"][s]
        cell = trace["row"][s] * n + trace["column"][s]
        digit, technique = trace["digit"][s], trace["technique"][s]
        before = masks[s]
        # no step ever loses the solution's digit
        assert all(int(before[c]) >> (int(solutions[k, c]) - 1) & 1 for c in range(n * n))
        if trace["removed"][s] == 0:
            assert digit == solutions[k, cell], (s, technique)
            assert int(before[cell]) >> (digit - 1) & 1
            if technique == "naked single":
                assert _bits(before[cell]) == [digit]
            elif technique.startswith("hidden single"):
                kinds = range(2 * n, 3 * n) if technique.endswith("(box)") else range(2 * n)
                open_cells = {c for c in range(n * n) if puzzles[k, c] == 0}
                assert any(
                    cell in units[u]
                    and [
                        c
                        for c in units[u]
                        if int(before[c]) >> (digit - 1) & 1
                        and _not_placed(c, s, trace, n, open_cells)
                    ]
                    == [cell]
                    for u in kinds
                ), (s, technique)
            checked += 1
        else:
            same_puzzle = s + 1 < len(trace["step"]) and trace["puzzle"][s + 1] == k
            if same_puzzle:
                lost = sum(len(_bits(a)) - len(_bits(b)) for a, b in zip(before, masks[s + 1]))
                assert lost == trace["removed"][s], (s, technique)
                checked += 1
    return checked


def _not_placed(cell, s, trace, n, open_cells):
    """Whether ``cell`` is still empty before step ``s`` of its puzzle."""
    if cell not in open_cells:
        return False
    k = trace["puzzle"][s]
    placed = (
        (trace["puzzle"][:s] == k)
        & (trace["removed"][:s] == 0)
        & (trace["row"][:s] * n + trace["column"][:s] == cell)
    )
    return not placed.any()


def test_every_step_of_the_built_in_sample_replays_and_is_forced():
    puzzles = sudoku.parse(sudoku.default_sample_path())[:25]
    assert _check_trace(puzzles) > 500


def test_hard_puzzles_replay_with_their_eliminations(datasets):
    puzzles = sudoku.parse(datasets / "top95.txt")[:6]
    assert _check_trace(puzzles) > 100


def test_trace_frames():
    ratings = sudoku.rate(["0200004034000000", "1" + "0" * 15], steps=True)
    frame = ratings.steps_to_pandas()
    assert list(frame.columns) == [
        "puzzle", "step", "technique", "rating", "row", "column", "digit", "removed",
    ]  # fmt: skip
    assert frame["puzzle"].tolist() == [0] * 12  # the second puzzle has many solutions
    pa = pytest.importorskip("pyarrow")
    table = ratings.steps_to_arrow(masks=True)
    assert isinstance(table, pa.Table) and table.num_rows == 12
    assert table.column("masks").type.list_size == 16
    with pytest.raises(ValueError, match="steps=True"):
        sudoku.rate(["0200004034000000"]).steps()
