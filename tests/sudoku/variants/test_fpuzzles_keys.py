"""f-puzzles keys of the newer rules read into Rules (shapes as f-puzzles and its add-ons
write them), SudokuPad links, the lz-string bound against decompression bombs, and
lenient input refused."""

import json
import urllib.parse

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, read_fpuzzles
from numbadlx.sudoku.formats._lzstring import MAX_PACKED, MAX_TEXT, decompress_base64
from tests.helpers import compress_base64, lz_bomb, naive_lz_decompress


def _puzzle(n=9, **keys):
    return {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)], **keys}


def _read(n=9, **keys):
    return read_fpuzzles(json.dumps(_puzzle(n, **keys)))[1]


def test_arrows_start_at_their_bulb():
    rules = _read(
        arrow=[
            {"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C3"], ["R1C1", "R1C2"]]},
            {"cells": ["R5C5", "R5C6"], "lines": [["R5C6", "R6C7", "R7C7"]]},
            {"cells": ["R9C9"], "lines": [["R9C9"]]},  # a bulb alone sums nothing
        ]
    )
    assert rules.arrows == (((0,), (10, 20)), ((0,), (1,)), ((40, 41), (51, 60)))
    with pytest.raises(ValueError, match="arrow: a line must start in its bulb"):
        _read(arrow=[{"cells": ["R1C1"], "lines": [["R2C2", "R3C3"]]}])


def test_little_killers_follow_their_diagonal_from_outside():
    rules = _read(
        littlekillersum=[
            {"cell": "R0C4", "direction": "DL", "value": "17"},
            {"cell": "R10C5", "direction": "UL", "value": "12"},
            {"cell": "R3C10", "direction": "UL", "value": "7"},
            {"cell": "R1C0", "direction": "UR", "value": ""},  # empty: no clue
        ]
    )
    assert rules.little_killers == (
        ((2, 10, 18), 17),
        ((75, 65, 55, 45), 12),
        ((17, 7), 7),
    )
    with pytest.raises(ValueError, match="direction must be UL, UR, DL or DR"):
        _read(littlekillersum=[{"cell": "R0C4", "direction": "D", "value": "5"}])
    with pytest.raises(ValueError, match="meets no cell"):
        _read(littlekillersum=[{"cell": "R0C9", "direction": "UR", "value": "5"}])
    with pytest.raises(ValueError, match="more than one step outside"):
        _read(littlekillersum=[{"cell": "R0C11", "direction": "DL", "value": "5"}])


def test_outside_clues_read_their_row_or_column_from_their_side():
    rules = _read(
        n=4,
        sandwichsum=[{"cell": "R0C2", "value": "0"}],
        xsum=[{"cell": "R2C5", "value": "7"}],
        skyscraper=[{"cell": "R5C1", "value": "2"}, {"cell": "R1C0", "value": ""}],
    )
    assert rules.sandwiches == (((1, 5, 9, 13), 0),)
    assert rules.x_sums == (((7, 6, 5, 4), 7),)
    assert rules.skyscrapers == (((12, 8, 4, 0), 2),)
    for cell in ("R0C0", "R2C2", "R5C5"):
        with pytest.raises(ValueError, match="must stand outside the grid"):
            _read(n=4, xsum=[{"cell": cell, "value": "3"}])


def test_lines():
    line = [["R1C1", "R1C2", "R2C3"]]
    rules = _read(
        renban=[{"lines": line}],
        palindrome=[{"lines": line}],
        betweenline=[{"lines": line}],
        regionsumline=[{"lines": line}],
        entropicline=[{"lines": line}],
        zipperline=[{"lines": line}],
        modularline=[{"lines": line}],
        whispers=[{"lines": line}, {"lines": line, "value": "4"}],
        dutchwhispers=[{"lines": line}],
        lockout=[{"lines": line}],
    )
    cells = (0, 1, 11)
    for name in (
        "renbans",
        "palindromes",
        "between_lines",
        "region_sum_lines",
        "entropic_lines",
        "zipper_lines",
    ):
        assert getattr(rules, name) == (cells,), name
    assert rules.modular_lines == ((cells, 3),)
    assert rules.whispers == ((cells, 5), (cells, 4), (cells, 4))
    assert rules.lockout_lines == ((cells, 4),)


def test_cells_markers_and_regions():
    grid = _puzzle()["grid"]
    grid[0][0] = {"givenPencilMarks": [3, 1]}
    grid[0][1] = {"parity": "Odd"}
    grid[0][2] = {"parity": "even", "givenPencilMarks": None}
    rules = read_fpuzzles(
        {
            "size": 9,
            "grid": grid,
            "minimum": [{"cell": "R5C5"}],
            "maximum": [{"cell": "R9C9"}, {"cell": "R1C9"}],
            "quadruple": [{"cells": ["R2C2", "R2C1", "R1C2", "R1C1"], "values": [1, 1, 2]}],
            "extraregion": [{"cells": ["R1C1", "R5C5", "R9C9"]}],
            "diagonal+": True,
        }
    )[1]
    assert rules.candidates == ((0, (1, 3)),)
    assert rules.odd == (1,) and rules.even == (2,)
    assert rules.minimums == (40,) and rules.maximums == (8, 80)
    assert rules.quadruples == (((0, 1, 9, 10), (1, 1, 2)),)
    assert rules.extra_regions == ((0, 40, 80),) and rules.diagonals == "anti"
    # touching maxima compare only with the neighbours that are no maxima
    rules = _read(n=4, maximum=[{"cell": "R1C1"}, {"cell": "R1C2"}])
    assert rules.maximums == () and set(rules.greater) == {(0, 4), (1, 2), (1, 5)}
    with pytest.raises(ValueError, match="parity must be Odd or Even"):
        grid[0][1] = {"parity": "odd-ish"}
        read_fpuzzles({"size": 9, "grid": grid})


def test_negative_constraint():
    dots = {"difference": [{"cells": ["R1C1", "R1C2"]}], "ratio": [{"cells": ["R2C1", "R2C2"]}]}
    assert _read(negative=["ratio"], **dots).negative == ("black",)
    assert _read(negative=["xv"]).negative == ("x", "v")
    kropki = _read(negative=["ratio"], nonconsecutive=True, **dots)
    assert kropki.negative == ("white", "black") and not kropki.non_consecutive
    # no dot at all: plain non-consecutive
    assert _read(nonconsecutive=True).non_consecutive
    with pytest.raises(ValueError, match="negative: 'difference' is not supported"):
        _read(negative=["difference"])


def test_drawings_of_a_rule_are_skipped_others_refused():
    line = [["R1C1", "R1C2"]]
    drawn = {"lines": line, "outlineC": "#C060C0", "fromConstraint": "Renban"}
    assert _read(renban=[{"lines": line}], line=[drawn]).renbans == ((0, 1),)
    # an undecorated drawing of the same line is the rule's drawing too
    assert _read(renban=[{"lines": line}], line=[{"lines": line}]).renbans == ((0, 1),)
    for key, entry in (
        ("line", {"lines": [["R5C5", "R5C6"]]}),
        ("text", {"cells": ["R1C1", "R2C1"], "value": ">"}),  # a sign across its cells
        ("text", {"cells": ["R1C1", "R1C2"], "value": ">", "angle": 45}),
        ("text", {"cells": ["R1C1"], "value": ">"}),
        ("text", {"cells": ["R1C1", "R1C2"], "value": "12"}),
        ("circle", {"cells": ["R1C1"]}),
    ):
        with pytest.raises(ValueError, match=f"the drawing '{key}' is not supported"):
            _read(**{key: [entry]})


def test_lenient_input_is_refused():
    grid = _puzzle()["grid"]
    grid[0][0] = {"value": 5, "given": "no"}
    with pytest.raises(ValueError, match="given must be true or false"):
        read_fpuzzles({"size": 9, "grid": grid})
    # digits of other scripts are no cell and no total
    with pytest.raises(ValueError, match="a cell is written R<row>C<column>"):
        _read(killercage=[{"cells": ["R\u0661C\u0663"], "value": "5"}])
    with pytest.raises(ValueError, match="expected a whole number"):
        _read(killercage=[{"cells": ["R1C3"], "value": "\u0665"}])
    with pytest.raises(ValueError, match="expected a whole number"):
        _read(killercage=[{"cells": ["R1C3", "R1C4"], "value": "1_0"}])


def test_sudokupad_links():
    data = json.dumps(_puzzle(arrow=[{"cells": ["R1C1"], "lines": [["R1C1", "R1C2"]]}]))
    packed = compress_base64(data)
    expected = read_fpuzzles(data)
    quoted = urllib.parse.quote(packed, safe="")
    for link in (
        f"https://sudokupad.app/fpuzzles{packed}",
        f"https://sudokupad.app/fpuz{packed}",
        f"https://sudokupad.app/?puzzleid=fpuz{quoted}&setting-x=1",
        f"https://crackingthecryptic.com/sudoku/?puzzleid=fpuzzles{quoted}",
        f"fpuz{packed}",
    ):
        puzzle, rules = read_fpuzzles(link)
        assert np.array_equal(puzzle, expected[0]) and rules == expected[1], link
    with pytest.raises(ValueError, match="SudokuPad link whose puzzle id is not f-puzzles"):
        read_fpuzzles("https://sudokupad.app/sclN4IgzglgXgpiBcA")
    with pytest.raises(ValueError, match="SudokuPad link whose puzzle id is not f-puzzles"):
        read_fpuzzles("https://sudokupad.app/rangsk/some-puzzle")
    assert sudoku.formats.detect._is_fpuzzles(f"https://sudokupad.app/fpuz{packed}")


def test_a_decompression_bomb_is_refused_early():
    # every code the newest dictionary entry: 20,000 codes (45 KB packed) would
    # inflate to 200 million characters
    bomb = lz_bomb(20_000)
    assert len(bomb) < 50_000
    with pytest.raises(ValueError, match="inflates past 8,388,608 characters"):
        decompress_base64(bomb)
    for link in (f"https://www.f-puzzles.com/?load={bomb}", f"https://sudokupad.app/fpuz{bomb}"):
        with pytest.raises(ValueError, match="decompression bomb"):
            read_fpuzzles(link)
    # under the bound the same stream is read, and agrees with the slow twin
    small = lz_bomb(60)
    assert decompress_base64(small) == naive_lz_decompress(small)
    assert len(decompress_base64(small)) == 1 + sum(range(2, 62))
    assert len(decompress_base64(lz_bomb(3000))) < MAX_TEXT
    with pytest.raises(ValueError, match="packed text has"):
        decompress_base64("A" * (MAX_PACKED + 1))


def test_box_named_when_an_array_does_not_fit_it():
    with pytest.raises(ValueError, match=r"box 2x5 was given"):
        sudoku.solve(np.zeros((1, 81), np.uint8), rules=Rules(box=(2, 5)))
    with pytest.raises(ValueError, match=r"box 2x5 was given"):
        sudoku.parse(np.zeros(81, np.uint8), box=(2, 5))


def test_input_sizes_are_bounded():
    n = 4
    with pytest.raises(ValueError, match="entries are more than a 4x4 grid can hold"):
        _read(n, odd=[{"cell": "R1C1"}] * (4 * n * n + 1))
    with pytest.raises(ValueError, match="longer than the 16 cells of the grid"):
        _read(n, renban=[{"lines": [["R1C1", "R1C2"] * 9]}])
    with pytest.raises(ValueError, match="an entry of 17 lines is too many"):
        _read(n, renban=[{"lines": [["R1C1", "R1C2"]] * 17}])
    with pytest.raises(ValueError, match="xsum: two clues at R0C1"):
        _read(n, xsum=[{"cell": "R0C1", "value": "3"}] * 2)
    big = json.dumps(_puzzle(n, title="x" * MAX_TEXT))
    with pytest.raises(ValueError, match="JSON text of .* characters is no puzzle"):
        read_fpuzzles(big)
    # a repeated cell in a long line is named without a quadratic search
    with pytest.raises(ValueError, match="holds cell 1 twice"):
        Rules(renbans=[[1, 2] * 50_000])


def test_inequality_signs_written_as_text():
    def greater(value, cells, angle=None):
        entry = {"cells": cells, "value": value, "fontC": "#000000"}
        if angle is not None:
            entry["angle"] = angle
        return _read(text=[entry]).greater

    assert greater(">", ["R1C1", "R1C2"]) == ((0, 1),)
    assert greater(">", ["R1C2", "R1C1"]) == ((0, 1),)
    assert greater("<", ["R1C1", "R1C2"]) == ((1, 0),)
    assert greater("^", ["R1C1", "R2C1"]) == ((9, 0),)
    assert greater("v", ["R1C1", "R2C1"]) == ((0, 9),)
    # turned a quarter clockwise, ">" points down: the upper cell is larger
    assert greater(">", ["R2C3", "R1C3"], angle=90) == ((2, 11),)
    assert greater(">", ["R1C1", "R1C2"], angle=180) == ((1, 0),)
    assert greater("<", ["R1C1", "R2C1"], angle=270) == ((0, 9),)  # points down


_JUNK = [None, True, 0, -1, 3.5, float("nan"), 10**30, "", "x", "R1C1", "R0C0", "R99C1", "UL"]
_JUNK += [[], [None], [["ratio"]], {}, {"a": 1}, "\u0665", ">", "fromConstraint"]


def _garbled(rng, value, depth=0):
    """``value`` with one part replaced by junk, at a random depth."""
    if isinstance(value, dict) and value and depth < 5 and rng.random() < 0.75:
        key = list(value)[rng.integers(len(value))]
        return {**value, key: _garbled(rng, value[key], depth + 1)}
    if isinstance(value, list) and value and depth < 5 and rng.random() < 0.75:
        k = int(rng.integers(len(value)))
        return value[:k] + [_garbled(rng, value[k], depth + 1)] + value[k + 1 :]
    return _JUNK[rng.integers(len(_JUNK))]


def test_fuzzed_new_keys_are_read_or_refused_with_a_value_error():
    line = {"lines": [["R1C1", "R1C2", "R1C3"]]}
    base = _puzzle(
        arrow=[{"cells": ["R5C5"], "lines": [["R5C5", "R5C6", "R5C7"]]}],
        littlekillersum=[{"cell": "R0C1", "direction": "DR", "value": "20"}],
        sandwichsum=[{"cell": "R0C2", "value": "10"}],
        xsum=[{"cell": "R3C0", "value": "15"}],
        skyscraper=[{"cell": "R10C4", "value": "3"}],
        whispers=[{"lines": [["R9C1", "R9C2"]], "value": "5"}],
        renban=[line],
        palindrome=[{"lines": [["R2C1", "R2C2", "R2C3"]]}],
        betweenline=[{"lines": [["R3C1", "R3C2", "R3C3"]]}],
        regionsumline=[{"lines": [["R4C3", "R4C4"]]}],
        entropicline=[{"lines": [["R6C1", "R6C2", "R6C3"]]}],
        modularline=[{"lines": [["R7C1", "R7C2", "R7C3"]]}],
        zipperline=[{"lines": [["R8C1", "R8C2", "R8C3"]]}],
        lockout=[{"lines": [["R8C5", "R8C6", "R8C7"]]}],
        quadruple=[{"cells": ["R1C8", "R1C9", "R2C8", "R2C9"], "values": [1, 2]}],
        minimum=[{"cell": "R4C8"}],
        maximum=[{"cell": "R6C8"}],
        negative=["xv"],
        extraregion=[{"cells": ["R9C9", "R8C8"]}],
        text=[{"cells": ["R3C8", "R3C9"], "value": ">", "angle": 0}],
        line=[{**line, "fromConstraint": "Renban"}],
    )
    base["grid"][0][0] = {"givenPencilMarks": [1, 2], "parity": "Odd"}
    assert read_fpuzzles(base)[1].kinds >= {"arrows", "lockout_lines", "greater", "candidates"}
    rng = np.random.default_rng(35)
    refused = 0
    for _ in range(1500):
        data = _garbled(rng, base)
        try:
            grid, rules = read_fpuzzles(json.dumps(data))
        except ValueError:
            refused += 1
            continue
        assert grid.shape == (81,) and isinstance(rules, Rules)
    assert 0 < refused < 1500
