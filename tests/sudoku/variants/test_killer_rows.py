"""Killer rows in bulk: the rules a Killer CSV's reader keeps as arrays (KillerRows)
are the Rules that Rules.killer makes of each row, the cage tables packed for all rows
at once (CageRows) are the tables built for each row alone, and solving a file through
them gives what solving each row under its own Rules gives."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.completion import cage_errors
from numbadlx.sudoku.engines import cage_rows, constraint_table
from numbadlx.sudoku.formats import parse_chunk
from numbadlx.sudoku.variants import KillerRows
from tests.helpers import all_4x4_grids, data_dir

KILLER_CSV = "killer_krazydad_vol1.csv"
FIELDS = (
    "cage_start",
    "cage_cells",
    "combo_start",
    "combos",
    "cage_total",
)


def killer_file():
    path = data_dir() / KILLER_CSV
    if not path.exists():
        pytest.skip(f"data file {path} not found (set NUMBADLX_DATA to the data folder)")
    return path


def random_maps(rng, n, count):
    """Cage maps of random letters (cages of any shape and size, often too big) and
    sums, some right for their cages, some one off, some with a sum missing."""
    maps, sums = [], []
    for _ in range(count):
        letters = rng.choice(list("ABCDEFGHIJKLMNOPabc"), size=n * n)
        text = "".join(letters)
        totals = []
        for letter in dict.fromkeys(text):
            size = text.count(letter)
            low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
            if rng.random() < 0.02 or size > n:  # out of reach
                totals.append(int(rng.choice([low - 1, max(low, high) + 1])))
            else:
                totals.append(int(rng.integers(low, high + 1)))
        if rng.random() < 0.1:
            totals = totals[:-1]
        maps.append(text)
        sums.append(totals)
    return maps, sums


def killer_rules(text, totals, n):
    try:
        return Rules.killer(text, totals).checked(n)
    except ValueError:
        return None


@pytest.mark.parametrize("n", [4, 6, 9])
def test_rows_that_fit_are_those_rules_killer_accepts_and_equal_its_rules(n):
    rng = np.random.default_rng(n)
    maps, sums = random_maps(rng, n, 300)
    expected = [killer_rules(m, s, n) for m, s in zip(maps, sums)]
    fits = KillerRows.fits(maps, sums, n)
    assert 0 < fits.sum() < len(maps)
    assert fits.tolist() == [rules is not None for rules in expected]
    kept = np.flatnonzero(fits).tolist()
    rows = KillerRows.from_maps(
        [maps[k] for k in kept], [sums[k] for k in kept], n, at=kept, rows=len(maps)
    )
    assert len(rows) == len(maps)
    for k, want in enumerate(expected):
        assert rows[k] == (want if want is not None else Rules())


def test_the_reader_keeps_the_rules_rules_killer_makes():
    chunk = parse_chunk(killer_file())
    assert isinstance(chunk.rules, KillerRows) and chunk.rules.valid.all()
    text = killer_file().read_text().splitlines()[1:]
    import csv

    for k, row in enumerate(csv.reader(text[:50])):
        want = Rules.killer(row[4][1:], [int(v) for v in row[5].split(",")]).checked(9)
        assert chunk.rules[k] == want


def cage_rows_of(rules_list, n):
    base = Rules().checked(n)
    units = geometry.unit_table(n, rules=base)
    row_first, cage_start, cage_cells, totals = [0], [0], [], []
    for rules in rules_list:
        for cells, total in rules.cages:
            cage_cells.extend(cells)
            cage_start.append(len(cage_cells))
            totals.append(total)
        row_first.append(len(totals))
    shared = constraint_table(units, base)
    return cage_rows(shared, units, row_first, cage_start, cage_cells, totals)


def test_cage_rows_are_the_tables_each_rows_rules_make():
    chunk = parse_chunk(killer_file())
    picked = list(range(0, 800, 5))
    rules_list = [chunk.rules[k] for k in picked]
    rows = cage_rows_of(rules_list, 9)
    for k, rules in enumerate(rules_list):
        alone = constraint_table(geometry.unit_table(9, rules=rules), rules)
        b, e = int(rows.first[k]), int(rows.last[k])
        starts = rows.cage_start[b : e + 1]
        combo = rows.combo_start[b : e + 1]
        mine = {
            "cage_start": starts - starts[0],
            "cage_cells": rows.cage_cells[starts[0] : starts[-1]],
            "combo_start": combo - combo[0],
            "combos": rows.combos[combo[0] : combo[-1]],
            "cage_total": rows.cage_total[b:e],
        }
        for field in FIELDS:
            theirs = getattr(alone, field)
            assert theirs.dtype == mine[field].dtype
            assert theirs.tolist() == mine[field].tolist(), (k, field)
        for field in alone._fields:
            if field not in FIELDS:
                shared = getattr(rows.table, field)
                if isinstance(shared, np.ndarray):
                    assert np.array_equal(shared, getattr(alone, field)), field
                else:
                    assert shared == getattr(alone, field), field


def givens_file(tmp_path, count=40):
    """The first ``count`` shared killers with some of their digits as givens, a wrong
    given now and then, and cages merged (two sums added: often several solutions)."""
    import csv

    rng = np.random.default_rng(5)
    lines = killer_file().read_text().splitlines()
    out = ["cages,sums,givens,solution"]
    for k, row in enumerate(csv.reader(lines[1 : count + 1])):
        cage_map, totals, solution = row[4][1:], [int(v) for v in row[5].split(",")], row[6]
        givens = ["0"] * 81
        for cell in rng.choice(81, int(rng.integers(0, 12)), replace=False):
            givens[cell] = solution[cell]
        if k % 7 == 3:
            givens[int(rng.integers(81))] = str(int(rng.integers(1, 10)))
        if k % 5 == 1:
            letters = list(dict.fromkeys(cage_map))
            a, b = letters[2], letters[3]
            totals[2] += totals[3]
            del totals[3]
            cage_map = cage_map.replace(b, a)
        out.append(f'{cage_map},"{",".join(map(str, totals))}",{"".join(givens)},{solution}')
    path = tmp_path / "killers.csv"
    path.write_text("\n".join(out) + "\n")
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"limit": 2, "threads": 1},
        {"limit": 1, "threads": 1},
        {"limit": 3, "threads": 2},
        {"limit": 2, "threads": 1, "max_nodes": 3},
        {"limit": 2, "threads": 1, "timeout": 60.0},
    ],
)
def test_a_file_solved_in_bulk_gives_what_each_row_under_its_rules_gives(tmp_path, options):
    path = givens_file(tmp_path)
    chunk = parse_chunk(path)
    bulk = sudoku.solve(path, **options)
    alone = sudoku.solve(chunk.puzzles, rules=list(chunk.rules), invalid=chunk.bad, **options)
    assert bulk.engine == alone.engine and bulk.engine.startswith("cages")
    names = set(bulk.status_names().tolist())
    assert "INVALID" in names and names & {"UNIQUE", "SOLVED"}
    for field in ("status", "counts", "solutions", "nodes", "guesses"):
        assert getattr(bulk, field).tolist() == getattr(alone, field).tolist(), field


def test_cage_errors_read_from_the_arrays_are_those_of_the_rules():
    rules = parse_chunk(killer_file()).rules
    rng = np.random.default_rng(1)
    solutions = parse_chunk(killer_file()).solutions.copy()
    broken = rng.choice(800, 40, replace=False)
    for k in broken:
        a, b = rng.choice(81, 2, replace=False)
        solutions[k, a], solutions[k, b] = solutions[k, b], solutions[k, a]
    rows = np.arange(0, 800, 3)
    from_arrays = cage_errors(solutions, rules, rows)
    from_rules = cage_errors(solutions, [rules[k] for k in range(800)], rows)
    assert from_arrays == from_rules and from_arrays


def pairs_file(tmp_path):
    """4x4 killers of two-cell cages (across, then down) whose sums come from different
    grids: each row's cages its own, many rows with several solutions."""
    grids = all_4x4_grids()[::23]
    maps = ("aabbccddeeffgghh", "abcdabcdefghefgh")
    out = ["cages,sums"]
    for k, grid in enumerate(grids):
        cage_map = maps[k % 2]
        sums = {}
        for cell, letter in enumerate(cage_map):
            sums[letter] = sums.get(letter, 0) + int(grid[cell])
        out.append(f'{cage_map},"{",".join(map(str, sums.values()))}"')
    path = tmp_path / "pairs.csv"
    path.write_text("\n".join(out) + "\n")
    return path


def test_solutions_of_a_killer_file_keep_each_rows_cages(tmp_path):
    path = pairs_file(tmp_path)
    rules = parse_chunk(path).rules
    found = sudoku.solutions(path, 4)
    alone = sudoku.solve(np.zeros((len(rules), 16), np.uint8), rules=list(rules), limit=4)
    assert found.counts.tolist() == alone.counts.tolist()
    many = np.flatnonzero(found.counts >= 2)
    assert many.size
    for row in many.tolist():
        for k in range(int(found.counts[row])):
            assert cage_errors(found.grids[row, k][None], [rules[row]]) == {}
