"""f-puzzles JSON: every rule read (plain and lz-string packed), unknown rules and bad input
refused with clear errors, a classic puzzle solving as from text."""

import json

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules, read_fpuzzles
from numbadlx.sudoku.formats._lzstring import decompress_base64
from tests.helpers import CLASSIC, X_LINK, compress_base64, grid_json

# A real link with two killer cages (and the "activeConstraints" list f-puzzles adds).
KILLER_LINK = (
    "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1p7"
    "rjtn/nQaCR3PgIm9hk0UM6zR4rssX0QAawgAbLTAwBjAIZo48QiH0wdYfCABKARgDCDkKjsAmFyDUA3Q1oArqYgiCA"
    "UFlZaNmb2zh5ucU4AzImeTgnuXqnuyRk+qP5BIcmpRGqG+gAuEL4wTgD2AHZgVRiGEE1VMXggANLauhgABE7GcLREQA="
)


def puzzle(n=9, **keys):
    data = {"size": n, "grid": grid_json(n)}
    data.update(keys)
    return data


def both(data):
    """Read ``data`` as JSON text and packed: both readings must agree."""
    text = json.dumps(data)
    plain = read_fpuzzles(text)
    packed = read_fpuzzles(compress_base64(text))
    assert np.array_equal(plain[0], packed[0]) and plain[1] == packed[1]
    assert read_fpuzzles(data)[1] == plain[1]
    return plain


def test_lzstring_round_trip():
    texts = ["", "a", "hello hello", "aaaaaaaaaaaaaaaaaaaa", "snow \u2603 and \U0001f600"]
    rng = np.random.default_rng(5)
    texts += ["".join(rng.choice(list('ab{}":,R1C'), rng.integers(1, 400))) for _ in range(100)]
    for text in texts:
        assert decompress_base64(compress_base64(text)) == text


def test_lzstring_agrees_with_its_slow_twin():
    """The string-slicing reader against the bit-by-bit one of tests/helpers.py, on
    random texts (long ones, characters above 255 and outside the BMP, runs that make
    the dictionary's self-referring code) and on a real f-puzzles link."""
    from tests.helpers import naive_lz_decompress

    rng = np.random.default_rng(11)
    letters = list('ab{}":,R1C\u00e9\u2603') + ["\U0001f600"]
    texts = ["x" * 5000, "ab" * 3000]
    texts += ["".join(rng.choice(letters, rng.integers(1, 3000))) for _ in range(30)]
    for text in texts:
        packed = compress_base64(text)
        assert naive_lz_decompress(packed) == text
        assert decompress_base64(packed) == text
    payload = X_LINK.split("load=")[1]
    assert decompress_base64(payload) == naive_lz_decompress(payload)
    assert json.loads(decompress_base64(payload))["size"] == 9


def test_lzstring_refuses_garbage():
    with pytest.raises(ValueError, match="not a base64 character"):
        decompress_base64("N4Ig*")
    with pytest.raises(ValueError, match="ends in the middle"):
        decompress_base64(compress_base64("hello hello")[:3])


def test_real_link_is_an_x_sudoku():
    grid, rules = read_fpuzzles(X_LINK)
    assert rules == Rules(diagonals=True).checked(9)
    assert grid[2] == 7 and grid[7] == 3 and int((grid > 0).sum()) > 17
    # the same with only the packed part, and with "+" turned into spaces
    packed = X_LINK.split("load=")[1]
    assert read_fpuzzles(packed)[1] == rules
    assert read_fpuzzles(X_LINK.replace("+", "%2B"))[1] == rules
    assert read_fpuzzles(X_LINK.replace("+", " "))[1] == rules
    result = sudoku.solve(grid, rules=rules)
    assert result.status_counts() == {"UNIQUE": 1}
    solution = result.solutions[0].reshape(9, 9)
    assert len(set(np.diagonal(solution))) == 9 == len(set(np.diagonal(solution[:, ::-1])))


def test_real_link_with_killer_cages():
    grid, rules = read_fpuzzles(KILLER_LINK)
    assert not grid.any()
    assert rules == Rules(cages=[([0, 9], 9), ([1, 2, 10, 11, 19], 33)]).checked(9)


def test_classic_solves_as_from_text(tmp_path):
    data = {"size": 9, "grid": grid_json(9, CLASSIC), "title": "classic", "author": "<b>"}
    grid, rules = both(data)
    assert np.array_equal(grid, sudoku.parse(CLASSIC)[0])
    assert rules == Rules().checked(9)
    path = tmp_path / "classic.json"
    path.write_text(json.dumps(data))
    assert np.array_equal(read_fpuzzles(path)[0], grid)
    assert np.array_equal(read_fpuzzles(str(path))[0], grid)
    from_json = sudoku.solve(grid, rules=rules)
    from_text = sudoku.solve(CLASSIC)
    assert from_json.status_counts() == {"UNIQUE": 1}
    assert np.array_equal(from_json.solutions, from_text.solutions)


def test_flags():
    _, rules = both(
        puzzle(
            **{
                "diagonal+": True,
                "diagonal-": True,
                "antiknight": True,
                "antiking": True,
                "nonconsecutive": True,
                "disjointgroups": True,
            }
        )
    )
    assert rules.kinds == {
        "diagonals",
        "anti_knight",
        "anti_king",
        "non_consecutive",
        "disjoint",
    }
    _, rules = both(puzzle(antiknight=False, **{"diagonal+": False}))
    assert rules.kinds == frozenset()


@pytest.mark.parametrize("key, diagonal", [("diagonal+", "anti"), ("diagonal-", "main")])
def test_one_diagonal(key, diagonal):
    # f-puzzles' "diagonal+" rises from the bottom-left corner: Rules' "anti"
    assert both(puzzle(**{key: True}))[1].diagonals == diagonal


def test_cages():
    _, rules = both(
        puzzle(
            killercage=[{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R9C9"]}],
            cage=[{"cells": ["R2C1", "R3C1", "R3C2"], "value": 24}],
        )
    )
    assert rules.cages == (((0, 1), 3), ((80,), None), ((9, 18, 19), 24))
    with pytest.raises(ValueError, match="cages: cage .* cannot total 30"):
        read_fpuzzles(puzzle(killercage=[{"cells": ["R1C1", "R1C2"], "value": "30"}]))
    with pytest.raises(ValueError, match="killercage: expected a whole number"):
        read_fpuzzles(puzzle(killercage=[{"cells": ["R1C1"], "value": "x"}]))


def test_thermometers():
    _, rules = both(
        puzzle(
            thermometer=[
                {"lines": [["R1C1", "R1C2", "R1C3"], ["R1C1", "R2C1"]]},
                {"lines": [["R9C9", "R8C8"]]},
            ]
        )
    )
    assert rules.thermos == ((0, 1, 2), (0, 9), (80, 70))


def test_dots_and_xv():
    _, rules = both(
        puzzle(
            difference=[{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C1", "R2C2"], "value": "1"}],
            ratio=[{"cells": ["R3C3", "R4C3"], "value": ""}],
            xv=[
                {"cells": ["R5C5", "R5C6"], "value": "X"},
                {"cells": ["R6C6", "R7C6"], "value": "v"},
            ],
        )
    )
    assert rules.white_dots == ((0, 1), (9, 10))
    assert rules.black_dots == ((20, 29),)
    assert rules.x_pairs == ((40, 41),) and rules.v_pairs == ((50, 59),)
    with pytest.raises(ValueError, match="difference: only the value 1"):
        read_fpuzzles(puzzle(difference=[{"cells": ["R1C1", "R1C2"], "value": "2"}]))
    with pytest.raises(ValueError, match="ratio: only the value 2"):
        read_fpuzzles(puzzle(ratio=[{"cells": ["R1C1", "R1C2"], "value": 3}]))
    with pytest.raises(ValueError, match="xv: expected two cells and X or V"):
        read_fpuzzles(puzzle(xv=[{"cells": ["R1C1", "R1C2"], "value": "Y"}]))
    with pytest.raises(ValueError, match="difference: a dot joins two cells"):
        read_fpuzzles(puzzle(difference=[{"cells": ["R1C1"]}]))


def test_odd_even():
    _, rules = both(puzzle(odd=[{"cell": "R1C1"}, {"cell": "r2c2"}], even=[{"cell": "R9C1"}]))
    assert rules.odd == (0, 10) and rules.even == (72,)
    with pytest.raises(ValueError, match="odd: cell 0 is both odd and even"):
        read_fpuzzles(puzzle(odd=[{"cell": "R1C1"}], even=[{"cell": "R1C1"}]))


def test_jigsaw_regions():
    regions = [
        [0, 0, 1, 1],
        [0, 2, 1, 1],
        [0, 2, 3, 3],
        [2, 2, 3, 3],
    ]
    data = {"size": 4, "grid": grid_json(4, regions=regions)}
    _, rules = both(data)
    assert rules.regions.tolist() == np.array(regions).ravel().tolist()
    # regions that are the boxes are no rule
    boxes = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]
    assert both({"size": 4, "grid": grid_json(4, regions=boxes)})[1] == Rules().checked(4)
    # a 5x5 jigsaw: no boxes, every cell's region given
    five = [[(r + c // 5) % 5 for c in range(5)] for r in range(5)]
    _, rules = both({"size": 5, "grid": grid_json(5, regions=five)})
    assert rules.regions is not None and rules.box is None
    # a cell without a region on a grid without boxes is in its row's region, as
    # f-puzzles draws it (a 5x5 without regions is a Latin square)
    partial = [[(r + c // 5) % 5 if r >= 3 else r for c in range(5)] for r in range(5)]
    rows = grid_json(5, regions=partial)
    for r in range(3):
        for cell in rows[r]:
            del cell["region"]
    assert both({"size": 5, "grid": rows})[1].regions.tolist() == sum(partial, [])
    assert both({"size": 5, "grid": grid_json(5)})[1].regions.tolist() == [
        c // 5 for c in range(25)
    ]
    bad = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 0]]
    with pytest.raises(ValueError, match="regions: expected 4 regions of 4 cells"):
        read_fpuzzles({"size": 4, "grid": grid_json(4, regions=bad)})


def test_windoku_extra_regions():
    windows = [
        [f"R{r + 1}C{c + 1}" for r in range(top, top + 3) for c in range(left, left + 3)]
        for top in (1, 5)
        for left in (1, 5)
    ]
    _, rules = both(puzzle(extraregion=[{"cells": w} for w in windows]))
    assert rules.kinds == {"windoku"}
    # other extra regions are extra regions
    _, rules = both(puzzle(extraregion=[{"cells": w} for w in windows[:3]]))
    assert rules.kinds == {"extra_regions"} and len(rules.extra_regions) == 3


@pytest.mark.parametrize(
    "key", ["littlekiller", "clone", "nabner", "slowthermometer", "columnindexer", "somethingnew"]
)
def test_unknown_rules_refused(key):
    with pytest.raises(ValueError, match=f"the rule '{key}' is not supported"):
        read_fpuzzles(puzzle(**{key: [{"cells": ["R1C1", "R1C2"]}]}))
    # an empty list of them constrains nothing
    assert read_fpuzzles(puzzle(**{key: []}))[1] == Rules().checked(9)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"size": "9"}', "size must be an integer"),
        ('{"size": 3}', "size 3 is outside"),
        ('{"size": 4, "grid": []}', "grid must be a list of 4 rows"),
        ('{"size": 4, "grid": [[], [], [], []]}', "grid row 1 must be a list of 4 cells"),
        ("not a puzzle!", "expected a JSON object, an lz-string"),
    ],
)
def test_malformed_json_refused(text, message):
    with pytest.raises(ValueError, match=message):
        read_fpuzzles(text)


@pytest.mark.parametrize(
    "cell, message",
    [
        ("R0C1", "outside the 9x9 grid"),
        ("R10C1", "outside the 9x9 grid"),
        ("A1", "a cell is written R<row>C<column>"),
        (11, "a cell is written R<row>C<column>"),
        ("R1C1R2", "a cell is written R<row>C<column>"),
    ],
)
def test_malformed_cells_refused(cell, message):
    with pytest.raises(ValueError, match=f"killercage: .*{message}"):
        read_fpuzzles(puzzle(killercage=[{"cells": [cell], "value": "5"}]))


def test_malformed_grid_cells_refused():
    data = puzzle()
    data["grid"][0][0] = {"value": 10, "given": True}
    with pytest.raises(ValueError, match="grid R1C1: a given must be a digit from 1 to 9"):
        read_fpuzzles(data)
    for marks in ([0, 2], [1, True], "12", [10]):
        data["grid"][0][0] = {"givenPencilMarks": marks}
        with pytest.raises(ValueError, match="givenPencilMarks must be a list of digits"):
            read_fpuzzles(data)
    for given in ("no", 1, None, "true"):
        data["grid"][0][0] = {"value": 5, "given": given}
        with pytest.raises(ValueError, match="R1C1: given must be true or false"):
            read_fpuzzles(data)
    for region in (-1, 9, 10**30, "0", None):
        data["grid"][0][0] = {"region": region}
        with pytest.raises(ValueError, match="region must be an integer from 0 to 8"):
            read_fpuzzles(data)
    data["grid"][0][0] = {"value": 5}  # a digit the solver typed is no given
    assert read_fpuzzles(data)[0][0] == 0
    with pytest.raises(ValueError, match="thermometer: each entry needs lines"):
        read_fpuzzles(puzzle(thermometer=[{"cells": ["R1C1"]}]))
    with pytest.raises(ValueError, match="antiknight must be true or false"):
        read_fpuzzles(puzzle(antiknight="yes"))
    with pytest.raises(ValueError, match="killercage must be a list"):
        read_fpuzzles(puzzle(killercage={"cells": ["R1C1"]}))


def test_six_by_six_boxes_are_no_regions():
    boxes = [[(r // 2) * 2 + c // 3 for c in range(6)] for r in range(6)]
    _, rules = both({"size": 6, "grid": grid_json(6, regions=boxes)})
    assert rules == Rules().checked(6) and rules.box == (2, 3)


def test_deep_json_refused():
    with pytest.raises(ValueError, match="nested too deeply"):
        read_fpuzzles('{"size": 9, "grid": ' + "[" * 100_000 + "]" * 100_000 + "}")


GARBAGE = [None, True, 0, -1, 3.5, 10**30, "", "x", "R1C1", "R99C1", [], [None], {}, {"a": 1}]


def _mutations(rng, value, depth=0):
    """``value`` with one part replaced by garbage, at a random depth."""
    if isinstance(value, dict) and value and depth < 4 and rng.random() < 0.7:
        key = list(value)[rng.integers(len(value))]
        return {**value, key: _mutations(rng, value[key], depth + 1)}
    if isinstance(value, list) and value and depth < 4 and rng.random() < 0.7:
        k = int(rng.integers(len(value)))
        return value[:k] + [_mutations(rng, value[k], depth + 1)] + value[k + 1 :]
    return GARBAGE[rng.integers(len(GARBAGE))]


def test_fuzzed_json_is_read_or_refused_with_a_value_error():
    base = puzzle(
        killercage=[{"cells": ["R1C1", "R1C2"], "value": "3"}],
        thermometer=[{"lines": [["R2C1", "R2C2"]]}],
        difference=[{"cells": ["R3C1", "R3C2"]}],
        ratio=[{"cells": ["R4C1", "R4C2"]}],
        xv=[{"cells": ["R5C1", "R5C2"], "value": "X"}],
        odd=[{"cell": "R6C1"}],
        even=[{"cell": "R6C2"}],
        extraregion=[],
        antiknight=True,
    )
    base["grid"][0][0] = {"value": 5, "given": True, "region": 0}
    rng = np.random.default_rng(24)
    refused = 0
    for _ in range(600):
        data = _mutations(rng, base)
        try:
            grid, rules = read_fpuzzles(json.dumps(data))
        except ValueError:
            refused += 1
            continue
        assert grid.shape == (81,) and isinstance(rules, Rules)
    assert 0 < refused < 600


def test_fuzzed_packed_text_is_refused_with_a_value_error():
    rng = np.random.default_rng(7)
    packed = compress_base64(json.dumps(puzzle(antiking=True)))
    alphabet = list("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    for _ in range(300):
        text = list(packed)
        for k in rng.integers(0, len(text), 3):
            text[k] = alphabet[rng.integers(len(alphabet))]
        try:
            read_fpuzzles("".join(text))
        except ValueError:
            pass


def test_a_file_naming_itself_is_refused_not_followed(tmp_path, monkeypatch):
    # the text of a file is read as puzzle text, never as the name of another file
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop.txt").write_text("loop.txt\n")
    with pytest.raises(ValueError, match="f-puzzles: expected a JSON object"):
        read_fpuzzles(tmp_path / "loop.txt")
    with pytest.raises(ValueError, match="f-puzzles: expected a JSON object"):
        read_fpuzzles("loop.txt")
