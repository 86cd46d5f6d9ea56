"""Killer Sudoku CSVs: cage maps and sums read into one Rules per row, bad rows named,
and the shared set of 800 killers solved by the "cages" engine."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, geometry
from numbadlx.sudoku.engines import INVALID, REGISTRY, UNIQUE, constraint_table
from numbadlx.sudoku.formats import parse_chunk
from tests.helpers import data_dir

KILLER_CSV = "killer_krazydad_vol1.csv"
# a 4x4 killer: cages by letter, sums in order of first appearance
MAP_4 = "aabbcddecfgehfgg"
NEVER = np.zeros(1, dtype=np.int64)  # a stop flag nobody sets
SOLUTION_4 = "1234341221434321"


def killer_4x4_sums():
    digits = [int(c) for c in SOLUTION_4]
    sums = {}
    for cell, letter in enumerate(MAP_4):
        sums[letter] = sums.get(letter, 0) + digits[cell]
    return list(sums.values())


def solve_rows(chunk, limit=2):
    """Each row of ``chunk`` by the "cages" engine under its own rules."""
    engine = REGISTRY["cages"]
    rows, size = chunk.puzzles.shape
    out = (
        np.zeros((rows, size), dtype=np.uint8),
        np.where(chunk.bad, INVALID, 0).astype(np.uint8),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
    )
    n = int(round(size**0.5))
    for k in range(rows):
        rules = chunk.rules[k]
        table = constraint_table(geometry.unit_table(n, rules=rules), rules)
        engine.solve_units(
            chunk.puzzles[k : k + 1],
            table,
            limit,
            0,
            NEVER,
            1,
            np.zeros(1, np.int64),
            *(a[k : k + 1] for a in out),
        )
    return out


def write(tmp_path, rows, header="ptitle,puzz_color,puzz_hint,solved"):
    path = tmp_path / "killer.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return path


def test_a_small_killer_csv_reads_and_solves(tmp_path):
    sums = ",".join(map(str, killer_4x4_sums()))
    path = write(tmp_path, [f'one,K{MAP_4},"{sums}",{SOLUTION_4}', f'two,{MAP_4},"{sums}",'])
    chunk = parse_chunk(path)
    assert chunk.puzzles.shape == (2, 16) and not chunk.puzzles.any()
    assert not chunk.bad.any()
    want = Rules.killer(MAP_4, killer_4x4_sums()).checked(4)
    assert chunk.rules == [want, want]
    assert chunk.solutions[0].tolist() == [int(c) for c in SOLUTION_4]
    assert not chunk.solutions[1].any()
    # an array of grids cannot hold the cages: parse and rate refuse, naming them
    with pytest.raises(ValueError, match=r"killer\.csv:2: .*has the rules cages"):
        sudoku.parse(path)
    with pytest.raises(ValueError, match=r"rate rates classic puzzles.*cages"):
        sudoku.rate(path)
    solutions, status, *_ = solve_rows(chunk, limit=10)
    assert solutions[0].tolist() == [int(c) for c in SOLUTION_4]


def test_sums_may_be_spaced_and_columns_found_by_name(tmp_path):
    sums = " ".join(map(str, killer_4x4_sums()))
    path = write(tmp_path, [f"{sums},{MAP_4}"], header="Sums,Cage_Map")
    chunk = parse_chunk(path)
    assert not chunk.bad.any() and chunk.solutions is None
    assert chunk.rules[0].cages[0] == ((0, 1), 3)


@pytest.mark.parametrize(
    "row, message",
    [
        ("x,KAB,1,", "a cage map needs n * n cells, got 3"),
        (f'x,{MAP_4},"1,2",', "the cage map and the sums disagree: the map has 8 cages but 2"),
        (f'x,{MAP_4},"1,2,3,4,5,6,7,z",', "cage sums: 'z' is not a whole number"),
        # an empty field would shift every later total onto the wrong cage
        (f'x,{MAP_4},"3,7,,5,5,5,4,7",', "cage sums: field 3 of 8 is empty"),
        (
            f'x,{MAP_4},"3,7,5,5,5,4,7,99",',
            "cage 'h' (cage 8 of 8, 1 cell, first at r4c1) cannot total 99",
        ),
        ("x", "row has 1 fields"),
    ],
)
def test_a_bad_row_is_a_bad_row_not_an_error(tmp_path, row, message):
    sums = ",".join(map(str, killer_4x4_sums()))
    path = write(tmp_path, [f'ok,{MAP_4},"{sums}",{SOLUTION_4}', row])
    chunk = parse_chunk(path)
    assert chunk.bad.tolist() == [False, True]
    assert message in chunk.errors[0][1]
    assert chunk.errors[0][1].startswith(f"{path}:3:")
    assert chunk.rules[1] == Rules()


def test_givens_are_read_from_a_givens_column_by_name(tmp_path):
    sums = ",".join(map(str, killer_4x4_sums()))
    kept = SOLUTION_4[:3] + "." * 12 + SOLUTION_4[-1]
    wrong = "2" + "." * 15  # the solution has 1 there
    header = "Givens,ptitle,puzz_color,puzz_hint,solved"
    rows = [f'{kept},a,{MAP_4},"{sums}",', f'{wrong},b,{MAP_4},"{sums}",', f',c,{MAP_4},"{sums}",']
    chunk = parse_chunk(write(tmp_path, rows, header=header))
    assert not chunk.bad.any()
    assert chunk.puzzles[0].tolist() == [int(c) if c != "." else 0 for c in kept]
    assert chunk.puzzles[1].tolist() == [2] + [0] * 15 and not chunk.puzzles[2].any()
    result = sudoku.solve(write(tmp_path, rows, header=header))
    assert result.status_counts() == {"UNIQUE": 2, "NO_SOLUTION": 1}
    assert result.status_names()[1] == "NO_SOLUTION"
    assert result.solutions[0].tolist() == [int(c) for c in SOLUTION_4]


def test_a_puzzle_column_is_givens_when_it_holds_grids_and_a_label_otherwise(tmp_path):
    sums = ",".join(map(str, killer_4x4_sums()))
    grids = write(tmp_path, [f'1{"0" * 15},{MAP_4},"{sums}"'], header="puzzle,cages,sums")
    chunk = parse_chunk(grids)
    assert chunk.puzzles[0].tolist() == [1] + [0] * 15 and not chunk.bad.any()
    # the published killer files number their puzzles in a "puzzle" column
    numbers = write(tmp_path, [f'1,{MAP_4},"{sums}"', f'2,{MAP_4},"{sums}"'], "puzzle,cages,sums")
    chunk = parse_chunk(numbers)
    assert not chunk.puzzles.any() and not chunk.bad.any()


def test_a_bad_givens_field_is_a_bad_row_with_its_message(tmp_path):
    sums = ",".join(map(str, killer_4x4_sums()))
    rows = [f'{"0" * 16},{MAP_4},"{sums}"', f'12,{MAP_4},"{sums}"', f'{"9" * 16},{MAP_4},"{sums}"']
    path = write(tmp_path, rows, header="givens,cages,sums")
    chunk = parse_chunk(path)
    assert chunk.bad.tolist() == [False, True, True]
    assert [k for k, _ in chunk.errors] == [1, 2]
    assert all("givens column: " in message for _, message in chunk.errors)
    assert chunk.errors[0][1].startswith(f"{path}:3:")
    assert not chunk.puzzles.any()


def test_a_map_of_another_size_is_a_bad_row(tmp_path):
    sums = ",".join(map(str, killer_4x4_sums()))
    path = write(tmp_path, [f'ok,{MAP_4},"{sums}",', f'big,{"a" * 81},"405",'])
    chunk = parse_chunk(path)
    assert chunk.bad.tolist() == [False, True]
    assert "cage map of 9x9 cells, expected 4x4" in chunk.errors[0][1]


def killer_file():
    path = data_dir() / KILLER_CSV
    if not path.exists():
        pytest.skip(f"data file {path} not found (set NUMBADLX_DATA to the data folder)")
    return path


@pytest.mark.slow
def test_the_800_shared_killers_are_unique_and_match_their_solutions():
    chunk = parse_chunk(killer_file())
    assert chunk.puzzles.shape == (800, 81) and not chunk.bad.any()
    solutions, status, counts, nodes, guesses = solve_rows(chunk)
    assert (status == UNIQUE).all()
    assert (solutions == chunk.solutions).all()
    assert (counts == 1).all()


@pytest.mark.slow
def test_solve_of_the_killer_file_takes_each_rows_rules():
    result = sudoku.solve(killer_file(), threads=1)
    assert result.engine == "cages"
    assert (result.status == UNIQUE).all()
    assert (result.solutions == parse_chunk(killer_file()).solutions).all()


def test_solve_of_a_small_killer_file(tmp_path):
    sums = ",".join(map(str, killer_4x4_sums()))
    path = write(tmp_path, [f'one,{MAP_4},"{sums}",{SOLUTION_4}', 'two,KAB,"3",'])
    result = sudoku.solve(path, limit=50)
    assert result.status.tolist()[1] == INVALID
    assert "a cage map needs n * n cells" in result.messages[1]
    want = sudoku.solve(np.zeros(16, np.uint8), rules=Rules.killer(MAP_4, killer_4x4_sums()))
    assert result.counts[0] == want.counts[0]
    assert result.solutions[0].tolist() == want.solutions[0].tolist()


def test_the_cli_solves_a_killer_file(tmp_path):
    from numbadlx.cli import main

    sums = ",".join(map(str, killer_4x4_sums()))
    path = write(tmp_path, [f'one,{MAP_4},"{sums}",{SOLUTION_4}'] * 3)
    out = tmp_path / "out.txt"
    assert main(["solve", str(path), "-o", str(out), "--limit", "1", "--chunk-size", "2"]) == 0
    rules = Rules.killer(MAP_4, killer_4x4_sums())
    first = sudoku.solve(np.zeros(16, np.uint8), rules=rules, limit=1).solutions[0]
    assert out.read_text().split() == ["".join(map(str, first))] * 3


def _cage_problem(grid, rules):
    """The first broken cage of a filled grid, by a plain walk (the tests' own check)."""
    for number, (cells, total) in enumerate(rules.cages, 1):
        digits = [int(grid[c]) for c in cells]
        if len(set(digits)) < len(digits):
            return number, "twice"
        if total is not None and sum(digits) != total:
            return number, "sum"
    return None


def test_a_solution_that_breaks_its_cages_gets_a_message(tmp_path):
    sums = killer_4x4_sums()
    sums[0] += 1  # cage "a" (row 1, columns 1-2) no longer sums to the solution's digits
    text = ",".join(map(str, sums))
    right = ",".join(map(str, killer_4x4_sums()))
    path = write(
        tmp_path, [f'one,{MAP_4},"{right}",{SOLUTION_4}', f'two,{MAP_4},"{text}",{SOLUTION_4}']
    )
    result = sudoku.solve(path, limit=2)
    assert 0 not in result.messages
    assert result.messages[1] == (
        "line 3: solution column: cage 1 (from row 1, column 1) sums to 3, not 4"
    )


def test_the_cli_writes_the_cage_message_on_the_row(tmp_path):
    from numbadlx.cli import main

    sums = killer_4x4_sums()
    sums[1] -= 1  # cage 2 holds 3 and 4
    path = write(tmp_path, [f'one,{MAP_4},"{",".join(map(str, sums))}",{SOLUTION_4}'])
    out = tmp_path / "out.txt"
    code = main(["solve", str(path), "-o", str(out), "--no-progress"])
    line = out.read_text().strip()
    assert "solution column: cage 2 (from row 1, column 3) sums to 7, not 6" in line
    assert code == (0 if "NO_SOLUTION" not in line else 1)


def test_cage_errors_name_a_repeated_digit_and_a_wrong_sum():
    from numbadlx.sudoku.completion import cage_errors

    grid = np.array([[int(c) for c in SOLUTION_4]] * 3)
    grid[1, 1] = 1  # cage 1 holds 1 and 1
    rules = Rules.killer(MAP_4, killer_4x4_sums())
    assert cage_errors(grid, [rules] * 3) == {
        1: "digit 1 appears 2 times in cage 1 (from row 1, column 1)"
    }
    assert cage_errors(grid, [rules] * 3, rows=[0, 2]) == {}
    assert cage_errors(grid, [Rules()] * 3) == {}
    distinct_only = Rules(cages=[([0, 1], None)])
    assert cage_errors(grid, [distinct_only] * 3) == {
        1: "digit 1 appears 2 times in cage 1 (from row 1, column 1)"
    }


def test_cage_errors_agree_with_a_plain_walk_on_the_shared_killers():
    from numbadlx.sudoku.completion import cage_errors

    chunk = parse_chunk(killer_file())
    rng = np.random.default_rng(7)
    grids = chunk.solutions.copy()
    for row in rng.choice(len(grids), 200, replace=False):
        a, b = rng.choice(81, 2, replace=False)  # a swap, or a digit changed
        if rng.random() < 0.5:
            grids[row, [a, b]] = grids[row, [b, a]]
        else:
            grids[row, a] = rng.integers(1, 10)
    found = cage_errors(grids, chunk.rules)
    for row in range(len(grids)):
        want = _cage_problem(grids[row], chunk.rules[row])
        assert (row in found) == (want is not None), row
        if want is not None:
            number, kind = want
            assert f"cage {number} " in found[row]
            assert ("appears" in found[row]) == (kind == "twice")


def test_a_prefixed_map_one_letter_short_is_named(tmp_path):
    """``K`` + a map one letter short has n * n characters: the prefix is read as a
    cell, the cages and sums disagree, and the message says so."""
    sums = ",".join(map(str, killer_4x4_sums()))
    short = "K" + MAP_4[:-1]  # 16 characters, the last cell's letter lost
    path = write(tmp_path, [f'ok,K{MAP_4},"{sums}",{SOLUTION_4}', f'short,{short},"{sums}",'])
    chunk = parse_chunk(path)
    assert chunk.bad.tolist() == [False, True]
    message = chunk.errors[0][1]
    assert message.startswith(f"{path}:3:")
    assert "the cage map and the sums disagree" in message
    assert "if that is the 'K' prefix, the map has 15 cells, one short of 16" in message
