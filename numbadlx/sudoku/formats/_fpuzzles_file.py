"""Files of f-puzzles puzzles as chunks: one JSON object (a ``.json`` file), or one
puzzle per line (its lz-string packing, an f-puzzles link or one-line JSON).

Each row carries its :class:`~numbadlx.sudoku.Rules` in the chunk's ``rules``. A file
that is one JSON object is one puzzle: anything wrong with it (a rule numbadlx lacks,
malformed JSON) raises :class:`ValueError`, as an unreadable file does. In a file of
lines, a line that cannot be read is a bad row with its message, as in other files,
and the rest are solved.
"""

from __future__ import annotations

import json

import numpy as np

from ..variants import Rules
from ._fpuzzles import _read
from ._fpuzzles_text import WHOLE_LIMIT as _WHOLE_LIMIT
from ._reader import PuzzleChunk, _Context, _iter_records

__all__ = ["fpuzzles_chunks"]


def _one_object(f) -> str | None:
    """The text of the file when it is a single JSON object, else None."""
    f.seek(0)
    head = f.read(_WHOLE_LIMIT + 1)
    if len(head) > _WHOLE_LIMIT:
        return None
    text = head.decode("utf-8-sig", "surrogateescape").strip()
    if not text.startswith("{"):
        return None
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        # several objects, a line each, when the first line is one by itself; else
        # one object, broken (read again for the error's message)
        first = text.split("\n", 1)[0].strip()
        try:
            json.loads(first)
        except (ValueError, RecursionError):
            return text
        return None
    return text


def _row(ctx: _Context, line: int, text: str):
    """``(puzzle, rules, problem)`` of one puzzle's text."""
    try:
        puzzle, rules = _read(text, paths=False)  # a line is a puzzle, never a path
    except ValueError as error:
        return None, None, f"{ctx.at(line, 0)}: {error}"
    n = int(round(len(puzzle) ** 0.5))
    if ctx.n is None:
        # a jigsaw of a size without boxes (5x5, 7x7) has its units from its regions
        ctx.set_n(n, line, boxless=not rules.has_boxes)
    if n != ctx.n:
        return (
            None,
            None,
            (f"{ctx.at(line, 0)}: a {n}x{n} grid, expected {ctx.n}x{ctx.n}{ctx.origin}"),
        )
    return puzzle, rules, None


def fpuzzles_chunks(f, ctx: _Context, chunk_size: int, start_byte: int, start_line: int | None):
    """The chunks of an f-puzzles file (see the module's docstring)."""
    whole = _one_object(f)
    if whole is not None:
        if start_byte > 0:
            return  # its one puzzle was read before
        puzzle, rules, problem = _row(ctx, 1, whole)
        if problem is not None:
            raise ValueError(problem)
        end = f.seek(0, 2)
        compact = json.dumps(json.loads(whole), separators=(",", ":"))
        yield _chunk([(1, end, compact, puzzle, rules, None)], ctx)
        return
    line = start_line if start_line is not None else 1
    if start_byte > 0 and start_line is None:
        f.seek(0)
        line = f.read(start_byte).count(b"\n") + 1
    batch = []
    for number, raw, end in _iter_records(f, start_byte, line):
        text = raw.decode("utf-8", "surrogateescape").strip()
        if not text or text.startswith("#"):
            continue
        batch.append((number, end, text, *_row(ctx, number, text)))
        if len(batch) >= chunk_size:
            yield _chunk(batch, ctx)
            batch = []
    if batch:
        yield _chunk(batch, ctx)


def _chunk(batch, ctx: _Context) -> PuzzleChunk:
    n = ctx.n if ctx.n is not None else 9  # a file of bad rows only: any size
    puzzles = np.zeros((len(batch), n * n), dtype=np.uint8)
    errors = []
    for i, (_, _, _, puzzle, _, problem) in enumerate(batch):
        if problem is None:
            puzzles[i] = puzzle
        else:
            errors.append((i, problem))
    bad = np.zeros(len(batch), dtype=bool)
    bad[[i for i, _ in errors]] = True
    return PuzzleChunk(
        puzzles=puzzles,
        bad=bad,
        errors=errors,
        line_numbers=np.array([b[0] for b in batch], dtype=np.int64),
        end_byte=batch[-1][1],
        raw=[b[2] for b in batch],
        rules=[Rules() if b[4] is None else b[4] for b in batch],
    )
