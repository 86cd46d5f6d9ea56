"""Sudoku text material the I/O tests share (re-exported by ``tests.helpers``).

Norvig's "hardest" puzzle 1 as a line and as a grid, random puzzle arrays, a CSV writer,
and a shortcut for the message of an expected ValueError.
"""

import csv

import numpy as np
import pytest

# Norvig's "hardest" puzzle 1, with '0' blanks, and its grid text
LINE9 = "850002400720000009004000000000107002305000900040000000000080070017000000000036040"
GRID9 = """\
8 5 . | . . 2 | 4 . .
7 2 . | . . . | . . 9
. . 4 | . . . | . . .
------+-------+------
. . . | 1 . 7 | . . 2
3 . 5 | . . . | 9 . .
. 4 . | . . . | . . .
------+-------+------
. . . | . 8 . | . 7 .
. 1 7 | . . . | . . .
. . . | . 3 6 | . 4 .
"""


def line_values(text: str) -> list[int]:
    return [0 if ch == "." else int(ch, 36) for ch in text]


def random_puzzles(n: int, count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed + n)
    return rng.integers(0, n + 1, size=(count, n * n)).astype(np.uint8)


def error_of(func, *args, **kwargs) -> str:
    with pytest.raises(ValueError) as info:
        func(*args, **kwargs)
    return str(info.value)


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
