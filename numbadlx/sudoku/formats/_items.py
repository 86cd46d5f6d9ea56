"""Lists of puzzle strings: every item is one row, so that no result moves to
another item (a blank item, a comment or an item of several puzzles is a row that
cannot be read, with its message)."""

from __future__ import annotations

import numpy as np

from ._reader import PuzzleChunk

#: Why a list item that is not exactly one puzzle is an unreadable row
_ONE_EACH = "each item of a list is one puzzle"


def _empty_item(text: str) -> str:
    return f"item is {'a comment' if text.strip() else 'blank'}, not a puzzle ({_ONE_EACH})"


def _item_rows(chunks: list[PuzzleChunk], strings: list[str], n: int | None, name) -> PuzzleChunk:
    """One row per item of a list: ``chunks`` read the items as lines (line ``i + 1`` is
    item ``i``), and an item they skipped (blank, or only a comment) is an unreadable
    row here, so that no later row moves up."""
    count = len(strings)
    size = (chunks[0].n if chunks else n) ** 2
    puzzles = np.zeros((count, size), dtype=np.uint8)
    bad = np.ones(count, dtype=bool)
    read = np.zeros(count, dtype=bool)
    errors = []
    for chunk in chunks:
        rows = chunk.line_numbers - 1
        puzzles[rows] = chunk.puzzles
        bad[rows] = chunk.bad
        read[rows] = True
        errors.extend((int(rows[i]), message) for i, message in chunk.errors)
    for i in np.flatnonzero(~read).tolist():
        errors.append((i, f"{name}:{i + 1}:1: {_empty_item(strings[i])}"))
    errors.sort()
    return PuzzleChunk(
        puzzles=puzzles,
        bad=bad,
        errors=errors,
        line_numbers=np.arange(1, count + 1, dtype=np.int64),
        end_byte=chunks[-1].end_byte if chunks else 0,
        raw=list(strings),
    )


def _item_row(name: str, text: str, found: int, n: int) -> PuzzleChunk:
    """The unreadable row of a multi-line item that holds ``found`` puzzles, not one."""
    why = f"item holds {found} puzzles, not one ({_ONE_EACH})" if found else _empty_item(text)
    return PuzzleChunk(
        puzzles=np.zeros((1, n * n), dtype=np.uint8),
        bad=np.ones(1, dtype=bool),
        errors=[(0, f"{name}:1:1: {why}")],
        line_numbers=np.ones(1, dtype=np.int64),
        end_byte=len(text.encode("utf-8", "surrogateescape")),
        raw=[text],
    )
