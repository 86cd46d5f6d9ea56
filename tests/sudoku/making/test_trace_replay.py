"""Every trace replayed by a slow naive twin: the candidates kept as Python sets, from
the givens, and each step checked at the state it is taken in.

A placement must be legal (the digit still a candidate of an empty cell, no peer holding
it) and forced by the technique it names (a naked single: the cell's only candidate; a
hidden single: the only place of the digit in a box, or in a row or column). An
elimination must remove exactly the count recorded, its recorded cell and digit among
them, and every candidate it removes must be one the named technique removes at that
state, found here by brute force over the technique's definition (the locked candidates,
the naked and hidden subsets, the fish, the XY- and XYZ-wings); the chains and trials,
whose naive twins are tried position by position in the ladder's tests, are checked to
remove no candidate of the solution. The trace's candidate masks before each step must
equal the twin's sets, so the masks are checked too.
"""

from itertools import combinations

import pytest

from numbadlx import sudoku
from tests.helpers import data_dir

N = 9
ROWS = [[r * N + c for c in range(N)] for r in range(N)]
COLS = [[r * N + c for r in range(N)] for c in range(N)]
BOXES = [
    [(3 * (b // 3) + i) * N + 3 * (b % 3) + j for i in range(3) for j in range(3)] for b in range(N)
]
UNITS = ROWS + COLS + BOXES
PEERS = [set().union(*(u for u in UNITS if k in u)) - {k} for k in range(N * N)]
SIZES = {"pair": 2, "triple": 3, "quad": 4}
FISH = {"X-wing": 2, "swordfish": 3, "jellyfish": 4}


class Board:
    """Candidates as sets of digits and the placed cells."""

    def __init__(self, puzzle):
        self.placed = {k: int(d) for k, d in enumerate(puzzle) if d}
        self.sets = []
        for k in range(N * N):
            if k in self.placed:
                self.sets.append({self.placed[k]})
            else:
                seen = {self.placed.get(p) for p in PEERS[k]}
                self.sets.append(set(range(1, N + 1)) - seen)

    def places(self, unit, d):
        """Empty cells of ``unit`` where ``d`` may go (None once it is placed there)."""
        if any(self.placed.get(k) == d for k in unit):
            return None
        return [k for k in unit if k not in self.placed and d in self.sets[k]]

    def place(self, cell, d):
        self.placed[cell] = d
        self.sets[cell] = {d}
        for p in PEERS[cell]:
            if p not in self.placed:
                self.sets[p].discard(d)

    def masks(self):
        return [sum(1 << (d - 1) for d in s) for s in self.sets]


def locked(board, pointing):
    """Pointing (a box's digit confined to a line) or claiming (a line's to a box)."""
    gone = set()
    for box in BOXES:
        for line in ROWS + COLS:
            inside = set(box) & set(line)
            if not inside:
                continue
            here, there = (box, line) if pointing else (line, box)
            for d in range(1, N + 1):
                places = board.places(here, d)
                if places and set(places) <= inside:
                    gone |= {(k, d) for k in there if k not in inside and k not in board.placed
                             and d in board.sets[k]}  # fmt: skip
    return gone


def naked(board, size):
    gone = set()
    for unit in UNITS:
        free = [k for k in unit if k not in board.placed and len(board.sets[k]) <= size]
        for cells in combinations(free, size):
            digits = set().union(*(board.sets[k] for k in cells))
            if len(digits) == size:
                gone |= {(k, d) for k in unit if k not in cells and k not in board.placed
                         for d in digits & board.sets[k]}  # fmt: skip
    return gone


def hidden(board, size):
    gone = set()
    for unit in UNITS:
        spots = {d: board.places(unit, d) for d in range(1, N + 1)}
        open_digits = [d for d in spots if spots[d] is not None]
        for digits in combinations(open_digits, size):
            cells = set().union(*(spots[d] for d in digits))
            if len(cells) == size:
                gone |= {(k, d) for k in cells for d in board.sets[k] - set(digits)}
    return gone


def fish(board, size):
    gone = set()
    for lines, across in ((ROWS, COLS), (COLS, ROWS)):
        for d in range(1, N + 1):
            spots = {}
            for i, line in enumerate(lines):
                places = board.places(line, d)
                if places:
                    spots[i] = {next(j for j, a in enumerate(across) if k in a) for k in places}
            for base in combinations(spots, size):
                cover = set().union(*(spots[i] for i in base))
                if len(cover) == size:
                    inside = {k for i in base for k in lines[i]}
                    gone |= {(k, d) for j in cover for k in across[j] if k not in inside
                             and k not in board.placed and d in board.sets[k]}  # fmt: skip
    return gone


def wings(board, xyz):
    """XY-wing (a pivot {a, b}, pincers {a, c} and {b, c}: c leaves the cells seeing both
    pincers) and XYZ-wing (a pivot {a, b, c}: c leaves the cells seeing all three)."""
    gone = set()
    free = [k for k in range(N * N) if k not in board.placed]
    for pivot in free:
        if len(board.sets[pivot]) != (3 if xyz else 2):
            continue
        pincers = [k for k in PEERS[pivot] if k not in board.placed and len(board.sets[k]) == 2]
        for one, two in combinations(pincers, 2):
            a, b = board.sets[one], board.sets[two]
            shared = a & b
            if len(shared) != 1 or a == b:
                continue
            (c,) = shared
            if (a | b) - {c} != board.sets[pivot] - ({c} if xyz else set()):
                continue
            if xyz and c not in board.sets[pivot]:
                continue
            seeing = PEERS[one] & PEERS[two] - {pivot}
            if xyz:
                seeing &= PEERS[pivot]
            gone |= {(k, c) for k in seeing if k not in board.placed and c in board.sets[k]}
    return gone


def twin(technique, board):
    """What ``technique`` may remove at ``board`` by its definition, or None for the
    chains and trials."""
    if technique in ("pointing", "claiming"):
        return locked(board, technique == "pointing")
    kind, _, size = technique.partition(" ")
    if kind in ("naked", "hidden") and size in SIZES:
        return (naked if kind == "naked" else hidden)(board, SIZES[size])
    if technique in FISH:
        return fish(board, FISH[technique])
    if technique in ("XY-wing", "XYZ-wing"):
        return wings(board, technique == "XYZ-wing")
    return None


def replay(puzzles):
    """Replay every step of every puzzle; how many steps each check covered."""
    ratings = sudoku.rate(puzzles, steps=True)
    solutions = sudoku.solve(puzzles).solutions
    trace = ratings.steps(masks=True)
    covered = {"placements": 0, "by definition": 0, "sound": 0}
    techniques = set()
    board = None
    total = len(trace["step"])
    for s in range(total):
        k = int(trace["puzzle"][s])
        if trace["step"][s] == 0:
            board = Board(puzzles[k])
        cell = int(trace["row"][s]) * N + int(trace["column"][s])
        digit, technique = int(trace["digit"][s]), str(trace["technique"][s])
        assert [int(m) for m in trace["masks"][s]] == board.masks(), (k, s, technique)
        assert all(solutions[k, c] in board.sets[c] for c in range(N * N)), (k, s)
        if trace["removed"][s] == 0:
            assert cell not in board.placed and digit in board.sets[cell], (k, s, technique)
            assert all(board.placed.get(p) != digit for p in PEERS[cell])
            if technique == "naked single":
                assert board.sets[cell] == {digit}
            elif technique.startswith("hidden single"):
                kinds = BOXES if technique.endswith("(box)") else ROWS + COLS
                assert any(cell in u and board.places(u, digit) == [cell] for u in kinds)
            else:
                assert digit == solutions[k, cell]
            board.place(cell, digit)
            covered["placements"] += 1
            continue
        last = s + 1 == total or trace["puzzle"][s + 1] != k
        after = None if last else trace["masks"][s + 1]
        if after is None:
            continue  # a puzzle's last step removes: nothing after it shows what went
        removed = {
            (c, d)
            for c in range(N * N)
            for d in board.sets[c]
            if c not in board.placed and not int(after[c]) >> (d - 1) & 1
        }
        assert len(removed) == trace["removed"][s] and (cell, digit) in removed, (k, s)
        allowed = twin(technique, board)
        if allowed is None:
            assert all(solutions[k, c] != d for c, d in removed), (k, s, technique)
            covered["sound"] += 1
        else:
            assert removed <= allowed, (k, s, technique, removed - allowed)
            covered["by definition"] += 1
            techniques.add(technique)
        for c, d in removed:
            board.sets[c].discard(d)
    return covered, techniques


def test_the_built_in_sample_replays_step_by_step():
    puzzles = sudoku.parse(sudoku.default_sample_path())[:40]
    covered, techniques = replay(puzzles)
    assert covered["placements"] > 1000 and covered["by definition"] > 50
    assert {"pointing", "naked pair", "X-wing"} <= techniques


def test_hard_published_puzzles_replay_with_every_technique_checked(datasets):
    path = data_dir() / "top95.txt"
    if not path.exists():
        pytest.skip("top95.txt is not in the data directory")
    covered, techniques = replay(sudoku.parse(str(path)))
    assert covered["by definition"] > 500 and covered["sound"] > 100
    assert {
        "pointing", "claiming", "naked pair", "hidden pair", "naked triple", "hidden triple",
        "X-wing", "swordfish", "XY-wing", "XYZ-wing",
    } <= techniques  # fmt: skip
