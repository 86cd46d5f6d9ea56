"""Writes the pictures of docs/variants.md: one small SVG per rule, drawn by numbadlx
itself (``Grid`` under the rule, the picture Jupyter shows without its caption).

Run from the repository's root after a change to the drawing:

    python docs/variant_pictures.py

tests/display/test_variant_pictures.py checks that the committed files are what this
script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from numbadlx.display._sudoku_svg import svg_picture
from numbadlx.sudoku import Grid, Rules

FOLDER = Path(__file__).resolve().parent / "pictures"

#: file name (without .svg) -> (puzzle, rules); 6x6 grids with 2x3 boxes, cells numbered
#: row * 6 + column, the same rules as the examples on the page
PICTURES = {
    "diagonal-anti": ("0" * 36, Rules(diagonals="anti")),
    "arrows": ("0" * 36, Rules(arrows=[(0, [7, 14]), ([3, 4], [10, 16, 22])])),
    "little-killers": ("0" * 36, Rules(little_killers=[([1, 8, 15, 22, 29], 17), ([30], 4)])),
    "sandwiches": (
        "0" * 36,
        Rules(sandwiches=[(list(range(6)), 5), ([5, 11, 17, 23, 29, 35], 0)]),
    ),
    "x-sums": ("0" * 36, Rules(x_sums=[(list(range(6)), 10), ([30, 24, 18, 12, 6, 0], 6)])),
    "skyscrapers": (
        "0" * 36,
        Rules(skyscrapers=[(list(range(11, 5, -1)), 3), ([2, 8, 14, 20, 26, 32], 4)]),
    ),
    "whispers": ("0" * 36, Rules(whispers=[[6, 7, 13, 19], ([27, 28, 29], 2)])),
    "renbans": ("0" * 36, Rules(renbans=[[0, 1, 2], [20, 26, 32, 33]])),
    "palindromes": ("0" * 36, Rules(palindromes=[[6, 13, 20, 27, 34]])),
    "between-lines": ("0" * 36, Rules(between_lines=[[0, 7, 8, 9, 4]])),
    "region-sum-lines": ("0" * 36, Rules(region_sum_lines=[[12, 13, 14, 15, 16]])),
    "entropic-lines": ("0" * 36, Rules(entropic_lines=[[6, 7, 8, 14, 20]])),
    "modular-lines": ("0" * 36, Rules(modular_lines=[[0, 7, 14, 21, 28]])),
    "zipper-lines": ("0" * 36, Rules(zipper_lines=[[24, 18, 12, 13, 14, 20, 26]])),
    "lockout-lines": ("0" * 36, Rules(lockout_lines=[([7, 8, 15, 22, 21], 3)])),
    "quadruples": (
        "0" * 36,
        Rules(quadruples=[((0, 1, 6, 7), (1, 2)), ((15, 16, 21, 22), (3, 3, 6))]),
    ),
    "greater": ("0" * 36, Rules(greater=[(0, 1), (7, 1), (14, 15), (22, 16)])),
    "minimums-maximums": ("0" * 36, Rules(minimums=[7, 28], maximums=[16])),
    "extra-regions": ("0" * 36, Rules(extra_regions=[[7, 8, 13, 14, 19, 20], [27, 28, 33, 34]])),
    "candidates": ("0" * 35 + "6", Rules(candidates={0: [1, 2], 7: [3, 4, 5], 35: [5, 6]})),
    "negative": ("0" * 36, Rules(negative=("white",), white_dots=[(0, 1), (7, 13)])),
}


def pictures():
    """``{file name: SVG text}`` of every picture."""
    return {
        f"{name}.svg": svg_picture(Grid(puzzle, rules=rules)) + "\n"
        for name, (puzzle, rules) in PICTURES.items()
    }


def main(folder=FOLDER):
    folder.mkdir(exist_ok=True)
    for name, text in pictures().items():
        (folder / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(PICTURES)} pictures to {folder.name}/", file=sys.stderr)


if __name__ == "__main__":
    main()
