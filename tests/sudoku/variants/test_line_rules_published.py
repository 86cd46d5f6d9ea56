"""Published puzzles of the outside clues, lines and quadruples, solved by the "cages"
engine to their setters' solutions (which the plain checks of the rules' definitions,
in tests.helpers, accept too)."""

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Rules
from tests.helpers import line_rules_hold as all_hold

UNIQUE = sudoku.Status.UNIQUE


def run(puzzle, rules):
    """``(solution, status)`` of one puzzle on the "cages" engine."""
    result = sudoku.solve(np.asarray(puzzle, dtype=np.uint8), rules=rules, engine="cages")
    return result.solutions[0].tolist(), result.status[0]


def around_the_clock(clues, n):
    """Skyscraper clues listed clockwise from the top-left corner (the top from left to
    right, the right side downwards, the bottom from right to left, the left side
    upwards; 0 for none), as ``(line, seen)`` pairs."""
    lines = []
    for k in range(n):
        lines.append([r * n + k for r in range(n)])  # top, looking down
    for k in range(n):
        lines.append([k * n + c for c in range(n - 1, -1, -1)])  # right, looking left
    for k in range(n):
        col = n - 1 - k
        lines.append([r * n + col for r in range(n - 1, -1, -1)])  # bottom, looking up
    for k in range(n):
        row = n - 1 - k
        lines.append([row * n + c for c in range(n)])  # left, looking right
    return [(line, seen) for line, seen in zip(lines, clues) if seen]


# Skyscraper puzzles of the codewars katas "4 By 4 Skyscrapers", "6 By 6 Skyscrapers"
# and "7x7 Skyscrapers" (the latter taken from Conceptis Puzzles): Latin squares with
# clues around the grid, each with its published unique solution.
SKYSCRAPERS = [
    (
        [2, 2, 1, 3, 2, 2, 3, 1, 1, 2, 2, 3, 3, 2, 1, 3],
        [[1, 3, 4, 2], [4, 2, 1, 3], [3, 4, 2, 1], [2, 1, 3, 4]],
    ),
    (
        [0, 0, 0, 2, 2, 0, 0, 0, 0, 6, 3, 0, 0, 4, 0, 0, 0, 0, 4, 4, 0, 3, 0, 0],
        [
            [5, 6, 1, 4, 3, 2],
            [4, 1, 3, 2, 6, 5],
            [2, 3, 6, 1, 5, 4],
            [6, 5, 4, 3, 2, 1],
            [1, 2, 5, 6, 4, 3],
            [3, 4, 2, 5, 1, 6],
        ],
    ),
    (
        [7, 0, 0, 0, 2, 2, 3, 0, 0, 3, 0, 0, 0, 0, 3, 0, 3, 0, 0, 5, 0, 0, 0, 0, 0, 5, 0, 4],
        [
            [1, 5, 6, 7, 4, 3, 2],
            [2, 7, 4, 5, 3, 1, 6],
            [3, 4, 5, 6, 7, 2, 1],
            [4, 6, 3, 1, 2, 7, 5],
            [5, 3, 1, 2, 6, 4, 7],
            [6, 2, 7, 3, 1, 5, 4],
            [7, 1, 2, 4, 5, 6, 3],
        ],
    ),
    (
        [0, 2, 3, 0, 2, 0, 0, 5, 0, 4, 5, 0, 4, 0, 0, 4, 2, 0, 0, 0, 6, 5, 2, 2, 2, 2, 4, 1],
        [
            [7, 6, 2, 1, 5, 4, 3],
            [1, 3, 5, 4, 2, 7, 6],
            [6, 5, 4, 7, 3, 2, 1],
            [5, 1, 7, 6, 4, 3, 2],
            [4, 2, 1, 3, 7, 6, 5],
            [3, 7, 6, 2, 1, 5, 4],
            [2, 4, 3, 5, 6, 1, 7],
        ],
    ),
    (
        [3, 3, 2, 1, 2, 2, 3, 4, 3, 2, 4, 1, 4, 2, 2, 4, 1, 4, 5, 3, 2, 3, 1, 4, 2, 5, 2, 3],
        [
            [2, 1, 4, 7, 6, 5, 3],
            [6, 4, 7, 3, 5, 1, 2],
            [1, 2, 3, 6, 4, 7, 5],
            [5, 7, 6, 2, 3, 4, 1],
            [4, 3, 5, 1, 2, 6, 7],
            [7, 6, 2, 5, 1, 3, 4],
            [3, 5, 1, 4, 7, 2, 6],
        ],
    ),
]


@pytest.mark.parametrize("clues, solution", SKYSCRAPERS)
def test_published_skyscrapers(clues, solution):
    n = len(solution)
    rules = Rules(latin=True, skyscrapers=around_the_clock(clues, n))
    want = np.array(solution).ravel()
    assert all_hold(rules, want, n)
    solution, status = run(np.zeros(n * n), rules)
    assert status == UNIQUE
    assert solution == want.tolist()


def test_published_sandwich():
    # Cracking the Cryptic's sandwich sudoku of https://www.youtube.com/watch?v=qUZnq5nP0zI
    # (as transcribed with its solution in Timwi's PuzzleSolvers tests)
    columns = [15, 9, 26, 8, 8, 12, 0, 12, 6]
    rows = [7, 14, 20, 2, 8, 26, 10, 31, 16]
    givens = "............9......1............9...............8............5......5............"
    solution = "389251476457968123216374985648539217935127648721846539894613752162785394573492861"
    rules = Rules(
        sandwiches=[([r * 9 + c for c in range(9)], total) for r, total in enumerate(rows)]
        + [([r * 9 + c for r in range(9)], total) for c, total in enumerate(columns)]
    )
    puzzle = np.array([0 if ch == "." else int(ch) for ch in givens], dtype=np.uint8)
    want = np.array([int(ch) for ch in solution])
    assert all_hold(rules, want, 9)
    solution, status = run(puzzle, rules)
    assert status == UNIQUE
    assert solution == want.tolist()


def _cell(text):
    r, c = text[1:].split("C")
    return (int(r) - 1) * 9 + int(c) - 1


def _line(which):
    """A whole row ("R3") or column ("C3") of a 9x9 grid, read from its top or left."""
    k = int(which[1:]) - 1
    return [k * 9 + c for c in range(9)] if which[0] == "R" else [r * 9 + k for r in range(9)]


def read_published(text):
    """``(puzzle, Rules)`` of a 9x9 puzzle written as "." separated pieces: givens
    ``~R1C2_5``, and the rules this file needs (the notation of the example list the
    puzzles below were transcribed from)."""
    puzzle = [0] * 81
    rules = {}
    for piece in filter(None, text.split(".")):
        kind, *args = piece.split("~")
        add = rules.setdefault
        if kind == "":
            for given in args:
                cell, digit = given.split("_")
                puzzle[_cell(cell)] = int(digit)
        elif kind == "Sandwich":
            add("sandwiches", []).append((_line(args[1]), int(args[0])))
        elif kind in ("XSum", "Skyscraper"):
            name = "x_sums" if kind == "XSum" else "skyscrapers"
            line = _line(args[0])
            for clue, cells in zip(args[1:], (line, line[::-1])):
                if clue:
                    add(name, []).append((cells, int(clue)))
        elif kind == "Renban":
            add("renbans", []).append([_cell(c) for c in args])
        elif kind == "Between":
            add("between_lines", []).append([_cell(c) for c in args])
        elif kind == "Lockout":
            add("lockout_lines", []).append(([_cell(c) for c in args[1:]], int(args[0])))
        elif kind == "Quad":
            top = _cell(args[0])
            four = [top, top + 1, top + 9, top + 10]
            add("quadruples", []).append((four, [int(d) for d in args[1:]]))
        elif kind == "BlackDot":
            add("black_dots", []).append((_cell(args[0]), _cell(args[1])))
        elif kind == "Diagonal":
            rules["diagonals"] = True
        else:
            raise AssertionError(kind)
    return puzzle, Rules(**rules)


# Published puzzles with their published solutions, each from the page or video named
# (transcribed in that notation in an open-source solver's list of example puzzles).
PUBLISHED = {
    # Cracking the Cryptic, "Between 1 and 9", https://www.youtube.com/watch?v=2wfR6QIvNn4
    "sandwiches": (
        ".Sandwich~8~C1.Sandwich~4~C2.Sandwich~17~C3.Sandwich~35~C4.Sandwich~14~C5"
        ".Sandwich~13~C6.Sandwich~3~C7.Sandwich~10~C8.Sandwich~25~C9.Sandwich~4~R1"
        ".Sandwich~33~R2.Sandwich~20~R3.Sandwich~17~R4.Sandwich~26~R5.Sandwich~10~R6"
        ".Sandwich~16~R7.Sandwich~24~R8.Sandwich~0~R9.~R3C3_1~R5C5_5~R7C7_9",
        "236941875954378612871625439182439756397856124645217398413562987569783241728194563",
    ),
    # Cracking the Cryptic, https://www.youtube.com/watch?v=rLlZA5ZND00
    "skyscrapers": (
        ".~R1C1_1~R1C6_2~R1C9_8~R3C1_3~R3C4_6~R3C7_4~R5C1_5~R5C3_2~R5C6_3~R7C1_7~R7C4_8"
        "~R7C7_2~R9C9_6~R9C6_4~R9C1_9.Skyscraper~C5~5.Skyscraper~R2~2.Skyscraper~R4~4"
        ".Skyscraper~R6~6.Skyscraper~R8~8",
        "147932658826145937359678412678419325592783164413256789765891243234567891981324576",
    ),
    # Tom Collyer's x-sums sudoku, Cracking the Cryptic,
    # https://www.youtube.com/watch?v=fnCzYnsC4Ow
    "x_sums": (
        ".XSum~C2~27~27.XSum~C4~11~11.XSum~C6~21~.XSum~C7~16~16.XSum~R2~8~8.XSum~R4~17~17"
        ".XSum~R6~30~30.XSum~R8~28~28.",
        "856214379341975862792863541417529683985631724623487195274156938539748216168392457",
    ),
    # "'Leven", Cracking the Cryptic, https://www.youtube.com/watch?v=XouRUgRsVSA
    "renbans": (
        ".Renban~R4C8~R4C9~R5C9~R6C9.Renban~R7C9~R8C9~R9C9~R9C8.Renban~R6C7~R7C7~R8C7~R8C6"
        ".Renban~R2C6~R1C6~R1C5~R1C4.Renban~R2C1~R1C1~R1C2~R1C3.Renban~R2C3~R2C4~R3C4~R4C4"
        ".Renban~R5C5~R5C6~R6C6~R7C6.Renban~R5C4~R5C3~R6C3~R7C3.Renban~R3C1~R4C1~R5C1~R5C2"
        ".Renban~R7C1~R8C1~R9C1~R9C2.Renban~R7C4~R8C4~R9C4~R9C3.~R3C7_1.BlackDot~R2C9~R3C9"
        ".BlackDot~R1C7~R1C8.BlackDot~R3C6~R3C5.BlackDot~R4C7~R5C7",
        "132769845496518723758342196815473269963285417274196358521937684389624571647851932",
    ),
    # Sudoku Variants Series (173), Between Lines Sudoku,
    # https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?chlang=en&id=0002KO
    "between_lines": (
        ".Between~R9C5~R8C6~R7C7~R6C8~R5C9.Between~R9C3~R8C4~R7C5~R6C6~R5C7~R4C8~R3C9"
        ".Between~R1C9~R2C8~R3C7~R4C6~R5C5~R6C4~R7C3~R8C2~R9C1.Between~R5C1~R4C2~R3C3~R2C4"
        "~R1C5.Between~R7C1~R6C2~R5C3~R4C4~R3C5~R2C6~R1C7.~R1C2_9~R2C1_2~R2C7_1~R4C3_6"
        "~R4C5_7~R4C8_5~R5C2_3~R5C8_8~R6C5_5~R6C7_2~R8C3_9~R8C9_8~R9C8_1",
        "697531842258497163314862579846273951532149786971658234125386497469715328783924615",
    ),
    # Lockout Lines (DSM 23 Quali Training),
    # https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=000CM1
    "lockout_lines": (
        ".Lockout~4~R1C2~R2C2~R3C2~R4C2.Lockout~4~R4C2~R3C3~R2C3~R1C2"
        ".Lockout~4~R2C5~R2C4~R3C4~R3C5~R4C5~R4C4.Lockout~4~R4C6~R3C6~R2C6~R1C6~R2C7~R1C8"
        "~R2C8~R3C8~R4C8.Lockout~4~R6C3~R6C4~R7C4~R7C3~R8C3~R8C4"
        ".Lockout~4~R8C5~R8C6~R8C7~R7C6~R6C7~R6C6~R6C5.~R3C1_2~R3C9_8~R5C4_5~R6C1_3~R9C7_9"
        "~R9C2_1",
        "563814729489752316271693548627189453148536297395427861934271685752968134816345972",
    ),
    # Quadruple X, https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=00040T
    "quadruples": (
        ".Diagonal~1.Diagonal~-1.Quad~R1C1~1~4~6~7.Quad~R5C1~2~3.Quad~R6C1~1~2"
        ".Quad~R3C3~1~2~4~8.Quad~R6C3~3~5~8~9.Quad~R2C4~6~7.Quad~R7C5~3~6.Quad~R3C6~4~5~8~9"
        ".Quad~R6C6~2~3~6~7.Quad~R3C8~1~2.Quad~R4C8~1~5.Quad~R8C8~2~3~4~5",
        "762384591415729368398165427654278913837691245129543786543812679971436852286957134",
    ),
}


@pytest.mark.parametrize("kind", sorted(PUBLISHED))
def test_published_puzzles(kind):
    text, solution = PUBLISHED[kind]
    puzzle, rules = read_published(text)
    assert getattr(rules, kind)
    want = [int(ch) for ch in solution]
    assert all_hold(rules, want, 9)  # the plain checks agree with the setter's solution
    solution, status = run(puzzle, rules)
    assert status == UNIQUE
    assert solution == want


def test_published_in_bulk_on_two_threads():
    # every published puzzle in one call, each with its own rules: "auto" takes the
    # "cages" engine, two threads solve them, in input order
    read = [read_published(PUBLISHED[kind][0]) for kind in sorted(PUBLISHED)]
    puzzles = np.array([puzzle for puzzle, _ in read] * 2, dtype=np.uint8)
    rules = [r for _, r in read] * 2
    result = sudoku.solve(puzzles, rules=rules, threads=2)
    assert result.status.tolist() == [UNIQUE] * len(rules)
    want = [[int(ch) for ch in PUBLISHED[kind][1]] for kind in sorted(PUBLISHED)] * 2
    assert result.solutions.tolist() == want
    assert "cages" in result.engine
    # a node budget ends a search as BUDGET, the contract's way (the between lines
    # puzzle, first, takes 3 nodes)
    few = sudoku.solve(puzzles[:1], rules=rules[:1], max_nodes=1, engine="cages")
    assert few.status.tolist() == [sudoku.Status.BUDGET]
