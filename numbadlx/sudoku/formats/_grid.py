"""The grid format: ``n`` rows of ``n`` cells per puzzle, box-drawing characters
ignored."""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from ...core.words import plural
from ..shape import MAX_SIZE
from ._cells import _count_cells, _parse_cells
from ._reader import PuzzleChunk, _Context, _strip_comment

_SEPARATOR_LINE_RE = re.compile(r"[\s|+\-]*[|+\-][\s|+\-]*")


def _grid_chunks(records, ctx: _Context, chunk_size: int) -> Iterator[PuzzleChunk]:
    done = []  # (line, raw, end, values or None, message or None)
    rows: list = []
    raws: list = []
    problem = None
    start = 0

    def close(extra: str | None = None):
        nonlocal rows, raws, problem
        message = problem
        if extra is not None and message is None:
            message = extra
        if message is None:
            values = np.concatenate(rows)
        else:
            values = None
        done.append((start, "\n".join(raws), last_end, values, message))
        rows, raws, problem = [], [], None

    last_end = 0
    last_line = 0
    for line, raw, end in records:
        text = _strip_comment(raw).decode("utf-8", "surrogateescape")
        if not text.strip():
            if rows:
                close(
                    f"{ctx.at(start, 0)}: puzzle has only {plural(len(rows), 'row')}, expected "
                    f"{ctx.n} (a blank line at line {line} ends it)"
                )
        elif _SEPARATOR_LINE_RE.fullmatch(text):
            if rows:
                raws.append(raw.decode("utf-8", "replace"))
        else:
            if ctx.n is None:
                count = _count_cells(text, ctx.row_counts, grid=True)
                if count not in ctx.row_counts:
                    raise ValueError(
                        f"{ctx.at(line, len(text))}: grid row has {plural(count, 'cell')}; a row "
                        f"needs n cells for a size n from {ctx.min_size} to {MAX_SIZE}"
                    )
                ctx.set_n(count, line)
            if not rows:
                start = line
            raws.append(raw.decode("utf-8", "replace"))
            values, err = _parse_cells(text, ctx.n, ctx.n, "row", ctx.origin, grid=True)
            if err is not None:
                values = np.zeros(ctx.n, dtype=np.uint8)
                if problem is None:
                    problem = f"{ctx.at(line, err[0])}: {err[1]}"
            rows.append(values)
            last_end = end
            last_line = line
            if len(rows) == ctx.n:
                close()
                if len(done) >= chunk_size:
                    yield _grid_chunk(done, ctx)
                    done = []
    if rows:
        close(
            f"{ctx.at(start, 0)}: puzzle has only {plural(len(rows), 'row')}, expected "
            f"{ctx.n} (the file ends after line {last_line})"
        )
    if done:
        yield _grid_chunk(done, ctx)


def _grid_chunk(done, ctx: _Context) -> PuzzleChunk:
    k = len(done)
    puzzles = np.zeros((k, ctx.n * ctx.n), dtype=np.uint8)
    bad = np.zeros(k, dtype=bool)
    errors = []
    for i, (_, _, _, values, message) in enumerate(done):
        if message is None:
            puzzles[i] = values
        else:
            bad[i] = True
            errors.append((i, message))
    return PuzzleChunk(
        puzzles=puzzles,
        bad=bad,
        errors=errors,
        line_numbers=np.array([d[0] for d in done], dtype=np.int64),
        end_byte=done[-1][2],
        raw=[d[1] for d in done],
    )
