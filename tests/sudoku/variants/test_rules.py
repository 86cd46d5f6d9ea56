"""Rules: normalisation, identity, and every validation error naming its rule."""

import numpy as np
import pytest

from numbadlx.sudoku import Rules
from numbadlx.sudoku.variants import CONSTRAINT_RULES, PEER_RULES, RULE_KINDS, UNIT_RULES

JIGSAW_4 = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]


def test_classic_is_empty():
    rules = Rules()
    assert rules.kinds == frozenset()
    assert not rules.unit_rules and not rules.peer_rules and not rules.constraint_rules
    assert rules.has_boxes
    assert repr(rules) == "Rules()"
    assert rules.checked(9).box == (3, 3)
    assert rules.checked(12).box == (3, 4)
    assert rules.checked(9).checked(9) == rules.checked(9)


def test_lists_become_tuples_and_rules_hash():
    a = Rules(cages=[([0, 1], 3)], thermos=[[2, 3]], white_dots=[[4, 5]], odd=[7, 6, 7])
    b = Rules(cages=(((0, 1), 3),), thermos=((2, 3),), white_dots=((4, 5),), odd=(6, 7))
    assert a == b and hash(a) == hash(b)
    assert a.cages == (((0, 1), 3),) and a.odd == (6, 7)
    assert a != Rules() and a != "rules"
    assert {a: 1}[b] == 1


def test_regions_normalised():
    a = Rules(regions=np.array(JIGSAW_4) + 5)
    b = Rules(regions=np.array(JIGSAW_4).reshape(-1))
    assert a == b and hash(a) == hash(b)
    assert a.regions.dtype == np.int64 and a.regions.shape == (16,)
    assert not a.regions.flags.writeable
    assert a.kinds == {"regions"} and a.unit_rules and not a.has_boxes
    assert "regions=" in repr(a)
    # regions on a prime size: no box shape, no error
    five = np.arange(25) // 5
    assert Rules(regions=five).checked(5).box is None
    assert Rules(latin=True).checked(7).box is None


def test_kind_groups():
    assert UNIT_RULES | PEER_RULES | CONSTRAINT_RULES == RULE_KINDS
    rules = Rules(
        diagonals=True,
        anti_king=True,
        x_pairs=[(0, 1)],
        even=[3],
    )
    assert rules.kinds == {"diagonals", "anti_king", "x_pairs", "even"}
    assert rules.unit_rules and rules.peer_rules and rules.constraint_rules
    assert Rules(non_consecutive=True).constraint_rules


def test_killer():
    rules = Rules.killer("aabb\nccdd\neeff\ngghh", [3, 7, 4, 6, 5, 5, 4, 6], diagonals=True)
    assert rules.cages[0] == ((0, 1), 3) and rules.cages[-1] == ((14, 15), 6)
    assert rules.diagonals
    # numbered by first appearance, not alphabetically
    rules = Rules.killer("zzaa" + "bbcc" * 3, [3, 7, None, 9, 9, 9, 9, 9][:4])
    assert rules.cages[0] == ((0, 1), 3) and rules.cages[1] == ((2, 3), 7)
    assert rules.cages[2][1] is None


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(box=3), "box: expected a pair"),
        (dict(box=("a", 3)), "box: expected a pair"),
        (dict(latin=1), "latin: expected True or False"),
        (dict(diagonals="yes"), 'diagonals: expected True, False, "main" or "anti"'),
        (dict(windoku=None), "windoku: expected True or False"),
        (dict(disjoint=0), "disjoint: expected True or False"),
        (dict(anti_knight=1), "anti_knight: expected True or False"),
        (dict(anti_king=1.0), "anti_king: expected True or False"),
        (dict(non_consecutive=[]), "non_consecutive: expected True or False"),
        (dict(regions="abc"), "regions: expected an"),
        (dict(regions=[[0.5, 1]]), "regions: expected an"),
        (dict(regions=np.zeros((2, 2, 2), int)), "regions: expected an"),
        (dict(regions=np.zeros((2, 8), int)), "regions: a 2-d region map must be square"),
        (dict(cages=5), "cages: expected a sequence"),
        (dict(cages="ab"), "cages: expected a sequence"),
        (dict(cages=[[0, 1, 2]]), r"cages: a cage is a pair \(cells, total\)"),
        (dict(cages=[(5, 3)]), "cages: expected a sequence of cells"),
        (dict(cages=[((), 3)]), "cages: a cage needs at least one cell"),
        (dict(cages=[((0, 0), 3)]), "cages: cage .* holds cell 0 twice"),
        (dict(cages=[((0, 1.5), 3)]), "cages: a cell must be an integer"),
        (dict(cages=[((0, -1), 3)]), "cages: cell -1 is negative"),
        (dict(cages=[((0, 1), 3.5)]), "cages: a cage total must be an integer or None"),
        (dict(cages=[((0, 1), 3), ((1, 2), 4)]), "cages: cell 1 is in two cages"),
        (dict(thermos=[[]]), "thermos: a thermometer needs at least one cell"),
        (dict(thermos=[[0, 1, 0]]), "thermos: thermometer .* holds cell 0 twice"),
        (dict(thermos=[3]), "thermos: expected a sequence of cells"),
        (dict(white_dots=[(0, 1, 2)]), "white_dots: a pair is two cells"),
        (dict(black_dots=[(3, 3)]), "black_dots: a pair needs two different cells"),
        (dict(x_pairs=[("a", 1)]), "x_pairs: a cell must be an integer"),
        (dict(v_pairs=[(0,)]), "v_pairs: a pair is two cells"),
        (dict(odd=[1, -2]), "odd: cell -2 is negative"),
        (dict(even=["x"]), "even: a cell must be an integer"),
        (dict(odd=[1, 2], even=[2]), "odd: cell 2 is both odd and even"),
        (dict(latin=True, regions=JIGSAW_4), "latin: .* exclude each other"),
        # a bool is no cell and no total
        (dict(odd=[True]), "odd: a cell must be an integer .* got True"),
        (dict(cages=[((0, 1), True)]), "cages: a cage total must be an integer or None"),
        (dict(little_killers=[((0, 10), False)]), "little_killers: a diagonal total must be"),
        (dict(greater=[(0, np.True_)]), "greater: a cell must be an integer"),
        # the rules setters use
        (dict(diagonals="both ways"), 'diagonals: expected True, False, "main" or "anti"'),
        (dict(arrows=[(0, [1, 0])]), "arrows: cell 0 is both in the bulb"),
        (dict(arrows=[([0, 1, 2, 3], [4])]), "arrows: a bulb holds 1 to 3 cells"),
        (dict(arrows=[([0], [])]), "arrows: a line needs at least 1 cells"),
        (dict(whispers=[[0, 1, 0]]), "whispers: line .* holds cell 0 twice"),
        (dict(whispers=[([0, 1], "five")]), "whispers: the gap must be an integer"),
        (dict(renbans=[[0]]), "renbans: a line needs at least 2 cells"),
        (dict(sandwiches=[[0, 1, 2]]), r"sandwiches: expected a pair \(line, total\)"),
        (dict(skyscrapers=[(range(9), 2.5)]), "skyscrapers: the count seen must be an integer"),
        (dict(quadruples=[([0, 1, 9], [1])]), "quadruples: a quadruple needs four cells"),
        (dict(quadruples=[([0, 1, 9, 10], [])]), "quadruples: a quadruple lists 1 to 4 digits"),
        (dict(quadruples=[([0, 1, 9, 10], [0])]), "quadruples: digit 0 is below 1"),
        (dict(candidates={0: []}), "candidates: cell 0 has no digit"),
        (dict(candidates=[(0, [1]), (0, [2])]), "candidates: cell 0 is given twice"),
        (dict(negative=("white", "grey")), "negative: 'grey' is not one of"),
        (dict(minimums=[4], maximums=[4]), "minimums: cell 4 is both minimums and maximums"),
        (dict(extra_regions=[[]]), "extra_regions: a line needs at least 1 cells"),
    ],
)
def test_construction_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Rules(**kwargs)


def test_positional_arguments_refused():
    with pytest.raises(TypeError):
        Rules((3, 3))


@pytest.mark.parametrize(
    "rules, n, match",
    [
        (Rules(), 3, "unsupported puzzle size 3x3"),
        (Rules(), 7, "box: unsupported puzzle size 7x7: 7 is prime"),
        (Rules(box=(2, 3)), 9, "box: box 2x3 does not fit"),
        (Rules(box=(1, 9)), 9, "box: box 1x9 is not supported"),
        (Rules(latin=True, windoku=True), 7, "windoku: a 7x7 grid has no box shape"),
        (Rules(latin=True, disjoint=True), 7, "disjoint: a 7x7 grid has no box shape"),
        (Rules(latin=True, disjoint=True), 9, "disjoint: disjoint groups need boxes"),
        (Rules(regions=JIGSAW_4, disjoint=True), 4, "disjoint: disjoint groups need boxes"),
        (Rules(regions=JIGSAW_4), 9, "regions: expected 81 cells for a 9x9 grid, got 16"),
        (
            Rules(regions=[0] * 8 + [1] * 8),
            4,
            r"regions: expected 4 regions of 4 cells each, got 2 regions \(region 0 has 8",
        ),
        (
            Rules(regions=[0] * 5 + [1] * 3 + [2] * 4 + [3] * 4),
            4,
            r"regions: expected 4 regions .* \(region 0 has 5 cells\)",
        ),
        (Rules(cages=[((0, 16), None)]), 4, "cages: cell 16 is out of range for a 4x4 grid"),
        (Rules(cages=[(tuple(range(5)), None)]), 4, "cages: cage .* has 5 cells: more than 4"),
        (Rules(cages=[((0, 1), 2)]), 4, r"cages: cage \[0, 1\] of 2 cells cannot total 2"),
        (Rules(cages=[((0, 1), 8)]), 4, r"cages: .* cannot total 8 on a 4x4 grid \(from 3 to 7\)"),
        (Rules(cages=[((0,), 0)]), 9, "cages: .* cannot total 0"),
        (Rules(thermos=[(0, 99)]), 9, "thermos: cell 99 is out of range"),
        (Rules(thermos=[tuple(range(5))]), 4, "thermos: thermometer .* more than 4 increasing"),
        (Rules(white_dots=[(0, 16)]), 4, "white_dots: cell 16 is out of range"),
        (Rules(black_dots=[(16, 0)]), 4, "black_dots: cell 16 is out of range"),
        (Rules(x_pairs=[(0, 81)]), 9, "x_pairs: cell 81 is out of range"),
        (Rules(v_pairs=[(0, 81)]), 9, "v_pairs: cell 81 is out of range"),
        (Rules(odd=[16]), 4, "odd: cell 16 is out of range"),
        (Rules(even=[81]), 9, "even: cell 81 is out of range"),
        (Rules(arrows=[((0,), (1, 81))]), 9, "arrows: cell 81 is out of range"),
        (Rules(arrows=[((0,), (1, 3))]), 9, "arrows: line .* cells 1 and 3 are not neighbours"),
        (Rules(arrows=[((0,), (1, 2, 3, 7, 6))]), 4, "arrows: .* 5 digits sum to more than 4"),
        (Rules(little_killers=[((0, 1, 2), 6)]), 9, "little_killers: .* are not one diagonal"),
        (Rules(little_killers=[((0, 10), 19)]), 9, r"little_killers: .* \(from 2 to 18\)"),
        (Rules(sandwiches=[(range(8), 5)]), 9, "sandwiches: .* not a whole row or column"),
        (Rules(sandwiches=[(range(9), 36)]), 9, r"sandwiches: .* \(from 0 to 35\)"),
        (Rules(x_sums=[(range(0, 81, 9), 0)]), 9, r"x_sums: .* cannot total 0"),
        (Rules(x_sums=[((0, 2, 1, 3), 4)]), 4, "x_sums: .* not a whole row or column"),
        (Rules(skyscrapers=[(range(3, -1, -1), 5)]), 4, "skyscrapers: .* 5 seen is not from 1"),
        (Rules(whispers=[((0, 1), 9)]), 9, "whispers: .* a gap of 9 is not from 1 to 8"),
        (Rules(renbans=[(0, 1, 2, 3, 7)]), 4, "renbans: .* more than 4 digits"),
        (Rules(palindromes=[(0, 10, 3)]), 9, "palindromes: .* cells 10 and 3 are not"),
        (Rules(entropic_lines=[(0, 1, 2)]), 4, "entropic_lines: a 4x4 grid's digits do not"),
        (Rules(modular_lines=[((0, 1, 2), 5)]), 4, "modular_lines: .* modulus 5 is not from"),
        (Rules(lockout_lines=[((0, 1), 0)]), 9, "lockout_lines: .* a gap of 0 is not"),
        (Rules(quadruples=[((3, 4, 7, 8), (1,))]), 4, r"quadruples: .* not a 2x2 square"),
        (Rules(quadruples=[((0, 1, 4, 5), (5,))]), 4, "quadruples: digit 5 is above 4"),
        (Rules(candidates={3: (1, 5)}), 4, "candidates: cell 3: digit 5 is above 4"),
        (Rules(extra_regions=[range(5)]), 4, "extra_regions: region .* more than 4 cells"),
        (Rules(greater=[(0, 16)]), 4, "greater: cell 16 is out of range"),
        (Rules(maximums=[16]), 4, "maximums: cell 16 is out of range"),
    ],
)
def test_checked_errors(rules, n, match):
    with pytest.raises(ValueError, match=match):
        rules.checked(n)


def test_checked_fills_the_size_defaults():
    rules = Rules(whispers=[(0, 1), ((1, 2), 3)], modular_lines=[(0, 9, 18)])
    assert rules.checked(9).whispers == (((0, 1), 5), ((1, 2), 3))
    assert Rules(whispers=[(0, 1)]).checked(6).whispers == (((0, 1), 3),)
    assert rules.checked(9).modular_lines == (((0, 9, 18), 3),)
    assert Rules(diagonals="anti").checked(9).anti_diagonal
    assert not Rules(diagonals="anti").main_diagonal
    # a pill's cells are kept in reading order, the order its digits are read in
    assert Rules(arrows=[((10, 1), (2,))]).arrows == (((1, 10), (2,)),)
    assert Rules(arrows=[(5, (6,))]) == Rules(arrows=[((5,), [6])])


def test_checked_accepts_limits():
    assert Rules(cages=[((0, 1), 3), ((2, 3), 17)]).checked(9)
    assert Rules(cages=[(tuple(range(9)), 45)]).checked(9)
    assert Rules(thermos=[tuple(range(9))]).checked(9)
    assert Rules(latin=True, box=(3, 3), windoku=True).checked(9).box == (3, 3)
    assert Rules(latin=True, windoku=True).checked(6).box == (2, 3)
    with pytest.raises(TypeError):
        Rules().checked(9.0)


@pytest.mark.parametrize(
    "args, match",
    [
        ((5, [1]), "cages: a cage map is a string"),
        (("abc", [1]), "cages: a cage map needs n [*] n characters"),
        (("a" * 9, [9]), "cages: a cage map needs n [*] n characters"),
        (("aabb" * 4, [3]), "cages: the cage map and the sums disagree: the map has 2 cages but 1"),
        (("aabb" * 4, "37"), "cages: sums must be a sequence"),
        (("a" * 16, [10]), "cages: .* has 16 cells: more than 4"),
    ],
)
def test_killer_errors(args, match):
    with pytest.raises(ValueError, match=match):
        Rules.killer(*args).checked(4)


GARBAGE = [
    None,
    True,
    1,
    -1,
    1.5,
    "ab",
    b"ab",
    [],
    [[]],
    [None],
    [1.5],
    [(0, 1, 2)],
    [[0, 1], 3],
    [("x", 3)],
    [((0, 1), "3")],
    [((0, 1), None, 2)],
    [(np.int64(3), np.int64(4))],
    np.array([[0, 1], [1, 2]]),
    np.array([0.5, 1.5]),
    np.zeros((0, 2), dtype=int),
    {"a": 1},
    {1, 2},
    [[-5, 2]],
    [[10**20, 1]],
    object(),
]
FIELDS = [
    "box",
    "regions",
    "latin",
    "diagonals",
    "windoku",
    "disjoint",
    "anti_knight",
    "anti_king",
    "non_consecutive",
    "cages",
    "thermos",
    "white_dots",
    "black_dots",
    "x_pairs",
    "v_pairs",
    "odd",
    "even",
    "arrows",
    "little_killers",
    "sandwiches",
    "x_sums",
    "skyscrapers",
    "whispers",
    "renbans",
    "palindromes",
    "between_lines",
    "region_sum_lines",
    "entropic_lines",
    "modular_lines",
    "zipper_lines",
    "lockout_lines",
    "quadruples",
    "greater",
    "minimums",
    "maximums",
    "extra_regions",
    "candidates",
    "negative",
]


@pytest.mark.parametrize("field", FIELDS)
def test_fuzz_every_rule_with_garbage(field):
    """Garbage in any field is a ValueError naming that field, or accepted and then
    checked (again ValueError only) for every size."""
    for value in GARBAGE:
        try:
            rules = Rules(**{field: value})
        except ValueError as error:
            assert str(error).startswith(f"{field}:") or field in str(error), (field, value)
            continue
        for n in (4, 6, 9, 16):
            try:
                rules.checked(n)
            except ValueError:
                pass


def test_a_killer_map_with_a_letter_missing_names_the_letter_and_where():
    # the cage of 'D' merged into that of 'C' by a typo: 7 cages, 8 sums
    with pytest.raises(ValueError) as caught:
        Rules.killer("AABBCCCCEEFFGGHH", [3, 7, 4, 6, 5, 5, 4, 6])
    message = str(caught.value)
    assert message.startswith("cages: the cage map and the sums disagree")
    assert "7 cages but 8 sums" in message
    assert "letter 'D' is missing" in message
    assert "cage 'E' (first at r3c1)" in message


def test_a_killer_map_and_sums_shifted_name_the_first_cage_that_cannot_take_its_sum():
    # same count, but the sums are one cage off from cage 'b' on: 'c' (2 cells) gets 17
    with pytest.raises(ValueError) as caught:
        Rules.killer("aabbccddeeffgghh", [3, 4, 17, 6, 5, 5, 4, 6]).checked(4)
    message = str(caught.value)
    assert "the cage map and the sums disagree" in message
    assert "cage 'b'" not in message
    assert "cage 'c' (cage 3 of 8, 2 cells, first at r2c1) cannot total 17" in message
    assert "3 to 7" in message


def test_a_killer_map_with_cages_beyond_the_sums_names_the_first_without_one():
    with pytest.raises(ValueError, match=r"cage 'h' \(first at r4c3\) has no sum"):
        Rules.killer("aabbccddeeffgghh", [3, 7, 4, 6, 5, 5, 4])
