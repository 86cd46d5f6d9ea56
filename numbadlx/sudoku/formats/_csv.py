"""The CSV format: a header row naming the puzzle (and solution) column, then one
puzzle per row."""

from __future__ import annotations

import csv
from collections.abc import Iterator

import numpy as np

from ._cells import _parse_line_batch
from ._reader import PuzzleChunk, _check_start, _Context, _iter_records

__all__ = ["PUZZLE_COLUMNS", "SOLUTION_COLUMNS"]

PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles")
SOLUTION_COLUMNS = ("solutions", "solution")


class _LineFeeder:
    """Feed decoded lines to :func:`csv.reader` and remember where we are."""

    def __init__(self, records, first_line: int):
        self._records = records
        self.line = first_line - 1
        self.end = 0
        self.lines: list[str] = []

    def __iter__(self):
        return self

    def __next__(self) -> str:
        line, raw, end = next(self._records)
        self.line = line
        self.end = end
        text = raw.decode("utf-8", "surrogateescape")
        self.lines.append(text)
        return text + "\n"


def _pick_column(names: list[str], wanted: tuple[str, ...]) -> int | None:
    for w in wanted:
        if w in names:
            return names.index(w)
    return None


def _csv_header(f, name: str):
    """Return ``(puzzle_col, solution_col, header_line, header_end)``."""
    feeder = _LineFeeder(_iter_records(f, 0, 1), 1)
    reader = csv.reader(feeder)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ValueError(f"{name}:{feeder.line}:1: malformed CSV header: {exc}") from None
        if any(cell.strip() for cell in row):
            names = [cell.strip().lower() for cell in row]
            pcol = _pick_column(names, PUZZLE_COLUMNS)
            if pcol is None:
                raise ValueError(
                    f"{name}:{feeder.line}:1: CSV header has no puzzle column "
                    f"(expected one of {', '.join(PUZZLE_COLUMNS)}; found "
                    f"{', '.join(repr(c) for c in row)})"
                )
            return pcol, _pick_column(names, SOLUTION_COLUMNS), feeder.line, feeder.end
    raise ValueError(f"{name}: empty CSV file (no header row)")


def _field_offset(line_text: str, row: list[str], index: int) -> int:
    if '"' not in line_text:
        return sum(len(cell) + 1 for cell in row[:index])
    found = line_text.find(row[index]) if row[index] else -1
    return max(found, 0)


def _csv_chunks(
    f, ctx: _Context, chunk_size: int, start_byte: int, start_line: int | None, solutions: bool
) -> Iterator[PuzzleChunk]:
    pcol, scol, header_line, header_end = _csv_header(f, ctx.name)
    if not solutions:
        scol = None
    if start_byte <= header_end:
        begin, line = header_end, header_line + 1
    else:
        line = _check_start(f, ctx.name, start_byte, start_line)
        begin = start_byte
    feeder = _LineFeeder(_iter_records(f, begin, line), line)
    reader = csv.reader(feeder)
    batch = []
    while True:
        row_line = feeder.line + 1
        feeder.lines = []
        problem = None
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            row, problem = [], f"{ctx.at(row_line, 0)}: malformed CSV row: {exc}"
        if problem is None:
            if not any(cell.strip() for cell in row):
                continue
            if pcol >= len(row):
                problem = (
                    f"{ctx.at(row_line, len(feeder.lines[0]) if feeder.lines else 0)}: "
                    f"row has {len(row)} fields, so the puzzle column {pcol + 1} is missing"
                )
        first = feeder.lines[0] if feeder.lines else ""
        if problem is None:
            puzzle = row[pcol].rstrip()
            poff = _field_offset(first, row, pcol)
        else:
            puzzle, poff = "", 0
        if scol is not None and problem is None and scol < len(row):
            sol = row[scol].rstrip()
            soff = _field_offset(first, row, scol)
        else:
            sol, soff = "", 0
        batch.append((row_line, feeder.end, puzzle, poff, sol, soff, problem))
        if len(batch) >= chunk_size:
            yield _csv_chunk(batch, ctx, scol is not None)
            batch = []
    if batch:
        yield _csv_chunk(batch, ctx, scol is not None)


def _csv_chunk(batch, ctx: _Context, with_solutions: bool) -> PuzzleChunk:
    k = len(batch)
    if ctx.n is None:
        ctx.infer_from_lines((b[0], b[2]) for b in batch if b[6] is None)
    messages: dict[int, str] = {i: b[6] for i, b in enumerate(batch) if b[6] is not None}
    contents = [b[2].encode("utf-8", "surrogateescape") for b in batch]
    puzzles, errs = _parse_line_batch(contents, ctx.n, "puzzle", ctx.origin)
    for i, col0, msg in errs:
        messages.setdefault(i, f"{ctx.at(batch[i][0], batch[i][3] + col0)}: {msg}")
    sols = None
    if with_solutions:
        size = ctx.n * ctx.n
        sols = np.zeros((k, size), dtype=np.uint8)
        filled = [i for i, b in enumerate(batch) if b[4]]
        if filled:
            values, serrs = _parse_line_batch(
                [batch[i][4].encode("utf-8", "surrogateescape") for i in filled],
                ctx.n,
                "solution",
                ctx.origin,
            )
            sols[filled] = values
            for j, col0, msg in serrs:
                i = filled[j]
                messages.setdefault(
                    i, f"{ctx.at(batch[i][0], batch[i][5] + col0)}: solution: {msg}"
                )
    bad = np.zeros(k, dtype=bool)
    errors = []
    for i in sorted(messages):
        bad[i] = True
        puzzles[i] = 0
        if sols is not None:
            sols[i] = 0
        errors.append((i, messages[i]))
    return PuzzleChunk(
        puzzles=puzzles,
        bad=bad,
        errors=errors,
        line_numbers=np.array([b[0] for b in batch], dtype=np.int64),
        end_byte=batch[-1][1],
        raw=[b[2] for b in batch],
        solutions=sols,
    )
