"""The CSV format: a header row naming the puzzle (and solution) column, then one
puzzle per row."""

from __future__ import annotations

import csv
import operator
from collections.abc import Iterator

import numpy as np

from ._cells import _SQUARES, _parse_cells, _parse_line_batch
from ._killer import killer_chunks, killer_columns
from ._reader import (
    _SAMPLE_LINES,
    PUZZLE_COLUMNS,
    SOLUTION_COLUMNS,
    PuzzleChunk,
    _check_start,
    _Context,
    _field_offset,
    _iter_records,
    _LineFeeder,
)

__all__ = ["PUZZLE_COLUMNS", "SOLUTION_COLUMNS"]


def _pick_column(names: list[str], wanted: tuple[str, ...]) -> int | None:
    for w in wanted:
        if w in names:
            return names.index(w)
    return None


def _is_puzzle_field(text: str) -> bool:
    """True if a CSV field reads as one puzzle line (a headerless CSV's first row)."""
    text = text.strip()
    k = _SQUARES.get(len(text))
    return k is not None and _parse_cells(text, k * k, k, "", "")[1] is None


def _columns(row: list[str], column, name: str, line: int):
    """``(puzzle_col, solution_col, has_header)`` for the first row of a CSV."""
    names = [cell.strip().lower() for cell in row]
    puzzle_like = [i for i, cell in enumerate(row) if _is_puzzle_field(cell)]
    if puzzle_like and not isinstance(column, str):
        # no header: the first row is data
        pcol = puzzle_like[0] if column is None else column
        if pcol >= len(row):
            raise ValueError(
                f"{name}:{line}:1: column {pcol} was asked for, but the first row has "
                f"{len(row)} fields (columns count from 0)"
            )
        size = len(row[pcol].strip())
        later = [i for i in puzzle_like if i > pcol and len(row[i].strip()) == size]
        return pcol, (later[0] if later else None), False
    found = ", ".join(repr(c) for c in row)
    if isinstance(column, str):
        pcol = _pick_column(names, (column.strip().lower(),))
        if pcol is None:
            raise ValueError(
                f"{name}:{line}:1: CSV header has no column {column!r} (found {found})"
            )
    elif column is not None:
        if column >= len(row):
            raise ValueError(
                f"{name}:{line}:1: column {column} was asked for, but the header has "
                f"{len(row)} fields (columns count from 0)"
            )
        pcol = column
    else:
        pcol = _pick_column(names, PUZZLE_COLUMNS)
        if pcol is None:
            raise ValueError(
                f"{name}:{line}:1: CSV header has no puzzle column "
                f"(expected one of {', '.join(PUZZLE_COLUMNS)}, or choose one with "
                f"column=; found {found})"
            )
    scol = _pick_column(names, SOLUTION_COLUMNS)
    return pcol, (None if scol == pcol else scol), True


def _check_column(column):
    if column is None or isinstance(column, str):
        return column
    try:
        index = operator.index(column)
    except TypeError:
        raise TypeError(
            f"column must be a header name or a 0-based index, got {column!r}"
        ) from None
    if index < 0:
        raise ValueError(f"column must be >= 0 (columns count from 0), got {index}")
    return index


def _csv_header(f, name: str, column=None):
    """Return ``(puzzle_col, solution_col, data_line, data_start)``: the columns, and
    the line and byte where the data rows start (after the header, if there is one)."""
    column = _check_column(column)
    feeder = _LineFeeder(_iter_records(f, 0, 1), 1)
    reader = csv.reader(feeder)
    while True:
        start, line = feeder.end, feeder.line + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ValueError(f"{name}:{feeder.line}:1: malformed CSV header: {exc}") from None
        if any(cell.strip() for cell in row):
            pcol, scol, has_header = _columns(row, column, name, line)
            if has_header:
                return pcol, scol, feeder.line + 1, feeder.end
            return pcol, scol, line, start
    raise ValueError(f"{name}: empty CSV file (no header row)")


def _sample_fields(f, begin: int, line: int, pcol: int) -> list[tuple[int, str]]:
    """``(line, puzzle field)`` of the first ``_SAMPLE_LINES`` rows from ``begin``."""
    feeder = _LineFeeder(_iter_records(f, begin, line), line)
    sample = []
    try:
        for row in csv.reader(feeder):
            if pcol < len(row) and row[pcol].strip():
                sample.append((feeder.line, row[pcol].rstrip()))
                if len(sample) >= _SAMPLE_LINES:
                    break
    except csv.Error:
        pass  # the reading proper reports it
    return sample


def _csv_chunks(
    f,
    ctx: _Context,
    chunk_size: int,
    start_byte: int,
    start_line: int | None,
    solutions: bool,
    column=None,
) -> Iterator[PuzzleChunk]:
    if column is None:
        found = killer_columns(f, ctx.name)
        if found is not None:
            yield from killer_chunks(f, ctx, chunk_size, start_byte, start_line, solutions, found)
            return
    pcol, scol, data_line, data_start = _csv_header(f, ctx.name, column)
    if not solutions:
        scol = None
    if start_byte <= data_start:
        begin, line = data_start, data_line
    else:
        line = _check_start(f, ctx.name, start_byte, start_line)
        begin = start_byte
    if ctx.n is None:
        sample = _sample_fields(f, begin, line, pcol)
        if sample:
            ctx.infer_from_lines(sample)
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
    solution_errors = []
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
                # a bad solution field is reported on its row; the puzzle stays readable
                i = filled[j]
                sols[i] = 0
                if i not in messages:
                    where = ctx.at(batch[i][0], batch[i][5] + col0)
                    solution_errors.append((i, f"{where}: solution column: {msg}"))
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
        solution_errors=solution_errors,
    )
