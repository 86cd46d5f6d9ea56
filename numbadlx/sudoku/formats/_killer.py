"""Killer Sudoku CSVs: a cage-map column and a cage-sums column, one puzzle per row.

A row's cage map gives one character per cell in reading order (cells with the same
character form a cage, cages numbered by first appearance), optionally after a one-letter
prefix ``K`` (``K`` + 81 letters); its sums field lists the cage totals in that order,
separated by commas or spaces. Without givens the puzzle is all zeros; its
:class:`~numbadlx.sudoku.Rules` (from :meth:`Rules.killer
<numbadlx.sudoku.Rules.killer>`) goes into the chunk's ``rules``. A solution column is
read as in other CSVs. Givens, when the file has them, come from a ``givens`` column
(or ``given``), or from a puzzle column (a name of ``PUZZLE_COLUMNS``: ``puzzle``,
``quizzes``, ...) whose first row holds as many cells as its cage map: a puzzle column
of labels or numbers (``puzzle`` = 1, 2, ...) is left alone. A row whose map or sums
cannot be read, whose sums do not match its cages, or whose givens cannot be read, is a
bad row with its message.
"""

from __future__ import annotations

import contextlib
import csv

import numpy as np

from ..variants import KillerRows, Rules
from ._cells import _SQUARES, _parse_line_batch
from ._reader import (
    PUZZLE_COLUMNS,
    SOLUTION_COLUMNS,
    PuzzleChunk,
    _check_start,
    _Context,
    _field_offset,
    _iter_records,
    _LineFeeder,
)

__all__ = ["KILLER_GIVEN_COLUMNS", "KILLER_MAP_COLUMNS", "KILLER_SUM_COLUMNS"]

#: Header names of the cage-map column (any case), the first found is used.
KILLER_MAP_COLUMNS = ("cage_map", "cages", "puzz_color")
#: Header names of the cage-sums column.
KILLER_SUM_COLUMNS = ("cage_sums", "sums", "puzz_hint")
#: Header names of a givens column (always read as the puzzle's givens).
KILLER_GIVEN_COLUMNS = ("givens", "given")


def _find(names, wanted):
    return next((names.index(w) for w in wanted if w in names), None)


def killer_columns(f, name: str):
    """``(map, sums, solution, givens, data line, data byte)`` when the first non-blank
    row of the CSV ``f`` is a header naming a cage-map and a cage-sums column, else None
    (``solution`` and ``givens``: a column index or None)."""
    feeder = _LineFeeder(_iter_records(f, 0, 1), 1)
    reader = csv.reader(feeder)
    while True:
        try:
            row = next(reader)
        except (StopIteration, csv.Error):
            return None
        if any(cell.strip() for cell in row):
            break
    names = [cell.strip().lower() for cell in row]
    cages, sums = _find(names, KILLER_MAP_COLUMNS), _find(names, KILLER_SUM_COLUMNS)
    if cages is None or sums is None:
        return None
    data_line, data_start = feeder.line + 1, feeder.end
    givens = _find(names, KILLER_GIVEN_COLUMNS)
    if givens is None:
        givens = _find(names, PUZZLE_COLUMNS)
        if givens is not None and not _first_row_is_a_grid(reader, cages, givens):
            givens = None
    return cages, sums, _find(names, SOLUTION_COLUMNS), givens, data_line, data_start


def _first_row_is_a_grid(reader, cages: int, puzzle: int) -> bool:
    """Whether the first data row's ``puzzle`` field holds as many cells as its cage map
    (a grid of givens), not a label or a number."""
    for row in reader:
        if any(cell.strip() for cell in row):
            if max(cages, puzzle) >= len(row):
                return False
            cells = "".join(row[puzzle].split())
            return len(cells) > 1 and len(cells) == len(_cage_map(row[cages]))
    return False


def _cage_map(text: str) -> str:
    """The map's letters, without a one-letter ``K`` prefix."""
    letters = "".join(text.split())
    if len(letters) not in _SQUARES and len(letters) - 1 in _SQUARES and letters[0] in "Kk":
        return letters[1:]
    return letters


def _sums(text: str) -> list[int]:
    """The cage totals of a sums field: separated by commas or by white space; an empty
    field between two commas is an error, never skipped (the totals would shift)."""
    if "," in text:
        fields = [v.strip() for v in text.strip().split(",")]
        if "" in fields:
            at = fields.index("") + 1
            raise ValueError(f"cage sums: field {at} of {len(fields)} is empty")
    else:
        fields = text.split()
    try:
        return [int(v) for v in fields]
    except ValueError:
        bad = next(v for v in fields if not v.lstrip("-").isdigit())
        raise ValueError(f"cage sums: {bad!r} is not a whole number") from None


def _read_row(ctx: _Context, line: int, row: list[str], first: str, columns):
    """``(rules, map field, solution field, its offset, problem, givens field, its
    offset)`` of one data row."""
    givens = columns[3]
    given, goff = "", 0
    if givens is not None and givens < len(row):
        given, goff = row[givens].strip(), _field_offset(first, row, givens)
    return (*_read_cages(ctx, line, row, first, columns[:3]), given, goff)


def _read_cages(ctx: _Context, line: int, row: list[str], first: str, columns):
    """``(rules, map field, solution field, its offset, problem)`` of one data row."""
    cages, sums, solution = columns
    if max(cages, sums) >= len(row):
        return (
            None,
            "",
            "",
            0,
            f"{ctx.at(line, 0)}: row has {len(row)} fields, so the "
            + (f"cage map (column {cages + 1}) or sums (column {sums + 1}) are missing"),
        )
    text = row[cages].strip()
    sol, soff = "", 0
    if solution is not None and solution < len(row):
        sol, soff = row[solution].strip(), _field_offset(first, row, solution)
    where = ctx.at(line, _field_offset(first, row, cages))
    letters = _cage_map(text)
    k = _SQUARES.get(len(letters))
    if k is None:
        return None, text, sol, soff, f"{where}: a cage map needs n * n cells, got {len(letters)}"
    if ctx.n is None:
        ctx.set_n(k, line)
    if k != ctx.n:
        return (
            None,
            text,
            sol,
            soff,
            (f"{where}: cage map of {k}x{k} cells, expected {ctx.n}x{ctx.n}{ctx.origin}"),
        )
    try:
        totals = _sums(row[sums])
    except ValueError:
        return None, text, sol, soff, _slow_rules(ctx, where, letters, row[sums], k)[1]
    return (letters, totals, where), text, sol, soff, None


def _slow_rules(ctx: _Context, where: str, letters: str, sums, k: int):
    """``(rules, problem)`` of one row by :meth:`Rules.killer`: what a row that does not
    fit (:meth:`KillerRows.fits`) gets, its message naming what is wrong."""
    try:
        totals = _sums(sums) if isinstance(sums, str) else sums
        return Rules.killer(letters, totals, box=ctx.given_box).checked(k), None
    except ValueError as exc:
        hint = ""
        if letters[0] in "Kk":  # a prefix read as a cell: the map is one letter short?
            hint = (
                f" (the map starts with {letters[0]!r}: if that is the 'K' prefix, the map "
                f"has {len(letters) - 1} cells, one short of {len(letters)})"
            )
        return None, f"{where}: {exc}{hint}"


def killer_chunks(
    f,
    ctx: _Context,
    chunk_size: int,
    start_byte: int,
    start_line: int | None,
    solutions: bool,
    found,
):
    """The chunks of a killer CSV whose header :func:`killer_columns` found."""
    cages, sums, solution, givens, data_line, data_start = found
    if not solutions:
        solution = None
    if start_byte <= data_start:
        begin, line = data_start, data_line
    else:
        line = _check_start(f, ctx.name, start_byte, start_line)
        begin = start_byte
    feeder = _LineFeeder(_iter_records(f, begin, line), line)
    reader = csv.reader(feeder)
    batch = []
    while True:
        row_line = feeder.line + 1
        feeder.lines = []
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            problem = f"{ctx.at(row_line, 0)}: malformed CSV row: {exc}"
            batch.append((row_line, feeder.end, None, "", "", 0, problem, "", 0))
        else:
            if not any(cell.strip() for cell in row):
                continue
            first = feeder.lines[0] if feeder.lines else ""
            parts = _read_row(ctx, row_line, row, first, (cages, sums, solution, givens))
            batch.append((row_line, feeder.end, *parts))
        if len(batch) >= chunk_size:
            yield _chunk(batch, ctx, solution is not None)
            batch = []
    if batch:
        yield _chunk(batch, ctx, solution is not None)


def _rules(batch, ctx: _Context, n: int):
    """The :class:`KillerRows` of a batch's rows, and the problems of the rows whose map
    and sums do not fit (by row)."""
    specs = [(i, b[2]) for i, b in enumerate(batch) if b[2] is not None]
    problems = {}
    fits = np.zeros(len(specs), dtype=bool)
    if specs:
        maps = [spec[0] for _, spec in specs]
        with contextlib.suppress(ValueError):  # a box that does not fit: every row says so
            Rules(box=ctx.given_box).checked(n)
            fits = KillerRows.fits(maps, [spec[1] for _, spec in specs], n)
    for j in np.flatnonzero(~fits).tolist():
        i, (letters, totals, where) = specs[j]
        rules, problem = _slow_rules(ctx, where, letters, totals, n)
        if problem is None:
            fits[j] = True  # what Rules.killer makes of it, the arrays hold as well
        else:
            problems[i] = problem
    kept = [spec for spec, ok in zip(specs, fits.tolist()) if ok]
    rules = KillerRows.from_maps(
        [spec[0] for _, spec in kept],
        [spec[1] for _, spec in kept],
        n,
        box=ctx.given_box if kept else None,
        at=[i for i, _ in kept],
        rows=len(batch),
    )
    return rules, problems


def _chunk(batch, ctx: _Context, with_solutions: bool) -> PuzzleChunk:
    k = len(batch)
    n = ctx.n if ctx.n is not None else 9  # a file of bad rows only: any size
    puzzles = np.zeros((k, n * n), dtype=np.uint8)
    rules, problems = _rules(batch, ctx, n)
    batch = [b if i not in problems else (*b[:6], problems[i], *b[7:]) for i, b in enumerate(batch)]
    errors = [(i, b[6]) for i, b in enumerate(batch) if b[6] is not None]
    given = [i for i, b in enumerate(batch) if b[7] and b[6] is None]
    if given:
        values, problems = _parse_line_batch(
            [batch[i][7].encode("utf-8", "surrogateescape") for i in given],
            n,
            "givens",
            ctx.origin,
        )
        puzzles[given] = values
        for j, col0, message in problems:
            i = given[j]
            puzzles[i] = 0
            where = ctx.at(batch[i][0], batch[i][8] + col0)
            errors.append((i, f"{where}: givens column: {message}"))
        errors.sort()
    bad = np.zeros(k, dtype=bool)
    bad[[i for i, _ in errors]] = True
    sols, solution_errors = None, []
    if with_solutions:
        sols = np.zeros((k, n * n), dtype=np.uint8)
        filled = [i for i, b in enumerate(batch) if b[4] and not bad[i]]
        if filled:
            values, problems = _parse_line_batch(
                [batch[i][4].encode("utf-8", "surrogateescape") for i in filled],
                n,
                "solution",
                ctx.origin,
            )
            sols[filled] = values
            for j, col0, message in problems:
                i = filled[j]
                sols[i] = 0
                where = ctx.at(batch[i][0], batch[i][5] + col0)
                solution_errors.append((i, f"{where}: solution column: {message}"))
    return PuzzleChunk(
        puzzles=puzzles,
        bad=bad,
        errors=errors,
        line_numbers=np.array([b[0] for b in batch], dtype=np.int64),
        end_byte=batch[-1][1],
        raw=[b[3] for b in batch],
        solutions=sols,
        solution_errors=solution_errors,
        rules=rules,
    )
