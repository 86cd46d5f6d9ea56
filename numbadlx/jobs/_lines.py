"""The output lines of the file jobs: one per puzzle, text or CSV (solve), or a CSV row
per puzzle (rate), and the tally of statuses a checkpoint keeps."""

from __future__ import annotations

import csv as _csv
import io
import re
from typing import TYPE_CHECKING

import numpy as np

from ..sudoku import PuzzleChunk, Status, SudokuResult, format_grid_rows, format_lines
from ..sudoku.shape import DIGITS

if TYPE_CHECKING:  # an annotation only: rating's modules load when a job rates
    from ..sudoku import Ratings

#: First line of a CSV output.
CSV_HEADER = "puzzle,solution,status,count,nodes,message"

TALLY_SIZE = max(Status) + 1
_NAMES = [""] * TALLY_SIZE
for _status in Status:
    _NAMES[_status] = _status.name
_UNIQUE, _SOLVED, _MULTIPLE = int(Status.UNIQUE), int(Status.SOLVED), int(Status.MULTIPLE)
_INVALID, _BUDGET = int(Status.INVALID), int(Status.BUDGET)
# the character of each cell value in a solution line (format_lines's, for n <= 35)
_CELL_CHARS = np.frombuffer(DIGITS.encode("ascii"), dtype=np.uint8)


# --------------------------------------------------------------------------- result lines

# Characters that end a line for str.splitlines() or a CSV reader: never inside one
# output line (a grid puzzle's rows are joined with "/").
_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

# An unreadable line longer than this is echoed cut short (CSV readers refuse fields
# over 128 KiB; any real puzzle line is far shorter).
_ECHO_LIMIT = 10_000


def _capped(raw):
    """The text of an unreadable puzzle as it is echoed: cut short past the limit."""
    if len(raw) > _ECHO_LIMIT:
        return f"{raw[:80]}... ({len(raw)} characters)"
    return raw


def _no_breaks(raw):
    """``raw`` with every line break but ``\n`` written as its escape."""
    if _LINE_BREAKS.search(raw):
        raw = _LINE_BREAKS.sub(lambda m: ascii(m.group())[1:-1], raw)
    return raw


def _one_line(raw, invalid=False):
    if invalid:
        raw = _capped(raw)
    return _no_breaks(raw.strip().replace("\n", "/"))


def csv_field(text: str) -> str:
    """``text`` as one CSV field (quoted when it holds a comma or a quote)."""
    if "," not in text and '"' not in text:
        return text
    buffer = io.StringIO()
    _csv.writer(buffer, lineterminator="").writerow([text])
    return buffer.getvalue()


def result_lines(
    chunk: PuzzleChunk, result: SudokuResult, csv: bool = False, grid: bool = False
) -> list[str]:
    """One output line per puzzle of ``chunk`` (a :class:`~numbadlx.sudoku.PuzzleChunk`)
    solved as ``result`` (a :class:`~numbadlx.sudoku.SudokuResult`), in order.

    Text: the solution for UNIQUE and SOLVED; else the solution found or the puzzle
    itself, then ``  # STATUS`` (MULTIPLE, NO_SOLUTION, INVALID with the reason,
    BUDGET); a note of ``result.messages`` on a solved row (a wrong solution column)
    follows as ``  # STATUS; note``. CSV: ``puzzle,solution,status,count,nodes,message``
    rows (no header: see :data:`CSV_HEADER`), the message the INVALID reason or that
    note (empty on other rows). No line holds a line break, except with ``grid``: then each
    puzzle is a block of ``n`` lines of space-separated values
    (:func:`~numbadlx.sudoku.format_grid_rows`, the shape of contest files), the text
    line's ``# STATUS`` note on a line of its own after it, and an empty line after
    the block.
    """
    solutions = format_lines(result.solutions)
    messages = dict(chunk.errors)
    lines = [_line(k, chunk, result, solutions[k], messages, csv) for k in range(len(chunk))]
    return _grid_blocks(chunk, result, lines) if grid and not csv else lines


def _line(k, chunk, result, solution, messages, csv):
    """The output line of puzzle ``k`` (:func:`result_lines`), ``solution`` the text of
    its solution row and ``messages`` the reasons of the chunk's unreadable rows."""
    status = int(result.status[k])
    raw = _one_line(chunk.raw[k], invalid=status == _INVALID)
    count = result.counts[k]
    if csv:
        solution = csv_field(solution) if count else ""
        if status == _INVALID:
            note = messages.get(k, "givens clash")
        else:  # e.g. a CSV solution column that is unreadable or not a solution
            note = result.messages.get(k, "")
        note = csv_field(_one_line(note)) if note else ""
        return f"{csv_field(raw)},{solution},{_NAMES[status]},{count},{result.nodes[k]},{note}"
    if status in (_UNIQUE, _SOLVED):
        line = solution
    elif status == _MULTIPLE:
        line = f"{solution}  # MULTIPLE (first of at least {count})"
    elif status == _INVALID:
        line = f"{raw}  # INVALID: {messages.get(k, 'givens clash')}"
    elif status == _BUDGET and count == 1:
        line = f"{solution}  # BUDGET (a solution; count not finished)"
    elif status == _BUDGET and count:
        # at least two solutions are known: not unique, though the count is open
        line = f"{solution}  # BUDGET (not unique: {count} solutions found; count not finished)"
    else:
        line = f"{raw}  # {_NAMES[status]}"
    note = result.messages.get(k) if status != _INVALID else None
    if note:
        # e.g. a CSV solution column that is not a solution of its puzzle
        joiner = "; " if "  # " in line else f"  # {_NAMES[status]}; "
        line += joiner + _one_line(note)
    return line


def _grid_blocks(chunk, result, lines):
    """The text ``lines`` of :func:`result_lines` as grid blocks (its ``grid`` form)."""
    shown = np.where(result.counts[:, None] > 0, result.solutions, chunk.puzzles)
    blocks = format_grid_rows(shown)
    for k, line in enumerate(lines):
        note = line.partition("  # ")[2]
        if note:
            blocks[k] += "\n# " + note
        blocks[k] += "\n"
    return blocks


def result_text(
    chunk: PuzzleChunk, result: SudokuResult, csv: bool = False, grid: bool = False
) -> bytes:
    """:func:`result_lines` as the bytes to write: UTF-8, each line ended by ``\\n``
    (empty for an empty chunk)."""
    if not csv and not grid and len(chunk):
        size = result.solutions.shape[1]
        if size <= (len(_CELL_CHARS) - 1) ** 2:  # one character a cell (n <= 35)
            return _text_bytes(chunk, result, size)
    lines = result_lines(chunk, result, csv, grid)
    if not lines:
        return b""
    return ("\n".join(lines) + "\n").encode("utf-8", "replace")


def _text_bytes(chunk, result, size):
    """The text lines of :func:`result_text` built as one byte array: the solution of
    every UNIQUE or SOLVED row without a note straight from the solutions, each other
    row through :func:`_line`."""
    plain = np.isin(result.status, (_UNIQUE, _SOLVED))
    for k in result.messages:
        plain[k] = False
    rows = np.empty((len(plain), size + 1), dtype=np.uint8)
    if size <= 81:  # values 0-9: their digits by an addition, cheaper than a lookup
        np.add(result.solutions, np.uint8(ord("0")), out=rows[:, :size], dtype=np.uint8)
    else:
        np.take(_CELL_CHARS, result.solutions, out=rows[:, :size])
    rows[:, size] = ord("\n")
    others = np.flatnonzero(~plain)
    if not len(others):
        return rows.tobytes()
    messages = dict(chunk.errors)
    parts, start = [], 0
    for k in others.tolist():
        solution = rows[k, :size].tobytes().decode("ascii")
        parts.append(rows[start:k].tobytes())
        parts.append(
            (_line(k, chunk, result, solution, messages, False) + "\n").encode("utf-8", "replace")
        )
        start = k + 1
    parts.append(rows[start:].tobytes())
    return b"".join(parts)


def count_statuses(status):
    """How many puzzles have each :class:`~numbadlx.sudoku.Status`: an int64 array
    indexed by the status code (the ``tally`` of a checkpoint)."""
    return np.bincount(np.asarray(status, dtype=np.intp), minlength=TALLY_SIZE).astype(np.int64)


def tally_dict(tally):
    return {_NAMES[k]: int(v) for k, v in enumerate(tally) if v}


#: First line of a rate job's CSV.
RATE_HEADER = "puzzle,tries,logic,hardest"


def rate_text(chunk: PuzzleChunk, ratings: Ratings, logic: bool = True) -> bytes:
    """The CSV rows of ``chunk`` rated as ``ratings`` (a :class:`~numbadlx.sudoku.Ratings`):
    ``puzzle,tries,logic,hardest`` (no header: see :data:`RATE_HEADER`), each ended by
    ``\\n``. An unreadable puzzle keeps its text (cut short past 10,000 characters, as
    :func:`result_lines` does), with empty ratings and the reason as ``hardest``; so does
    a puzzle that is not rated, with ``multiple solutions`` or ``invalid or no
    solution``; ``logic`` False leaves the logic columns empty."""
    puzzles, tries, values, hardest = rate_columns(chunk, ratings, logic)
    rows = [
        f"{csv_field(p)},{_number(t)},{_number(v)},{csv_field(h)}"
        for p, t, v, h in zip(puzzles, tries.tolist(), values.tolist(), hardest)
    ]
    return "".join(row + "\n" for row in rows).encode("utf-8", "replace")


def rate_columns(chunk: PuzzleChunk, ratings: Ratings, logic: bool = True):
    """The columns of :func:`rate_text` before they are written: the puzzles' texts, the
    tries and logic ratings (float64, NaN where empty) and the hardest techniques or
    reasons (``""`` where empty)."""
    reasons = dict(chunk.errors)
    names = ratings.hardest_names()
    size = len(chunk)
    tries = np.where(chunk.bad[:size], np.nan, ratings.tries[:size]).astype(np.float64)
    values = np.full(size, np.nan)
    if logic:
        values = np.where(chunk.bad[:size], np.nan, ratings.logic[:size]).astype(np.float64)
    puzzles, hardest = [], []
    for k, text in enumerate(chunk.raw):
        field = _no_breaks((_capped(text) if chunk.bad[k] else text).replace("\n", " "))
        puzzles.append(field)
        if chunk.bad[k]:
            reason = _no_breaks(_capped(reasons.get(k, "unreadable")).replace("\n", " "))
            hardest.append(reason)
            continue
        named = names[k] if logic and np.isfinite(ratings.logic[k]) else ""
        if ratings.status[k] == Status.MULTIPLE:
            named = "multiple solutions"
        elif not np.isfinite(ratings.tries[k]):
            named = "invalid or no solution"
        hardest.append(named)
    return puzzles, tries, values, hardest


def _number(value):
    if not np.isfinite(value):
        return ""
    return f"{value:.4f}".rstrip("0").rstrip(".")


# ------------------------------------------------------------------- every solution


def solutions_header(limit: int) -> str:
    """First line of a CSV output of every solution (``--all-solutions K``):
    ``puzzle,status,count,nodes,message,solution_1,...,solution_K``."""
    return "puzzle,status,count,nodes,message," + ",".join(
        f"solution_{j}" for j in range(1, limit + 1)
    )


def solutions_text(chunk: PuzzleChunk, found, csv: bool = False) -> bytes:
    """The output of ``chunk`` enumerated as ``found`` (what
    :func:`numbadlx.sudoku.solutions` returns), each line ended by ``\\n``.

    CSV: one row per puzzle, the columns of :func:`solutions_header`, the solutions
    past the count empty. Text: one line per solution, the solutions of a puzzle on
    consecutive lines; a UNIQUE (or SOLVED) puzzle's line is its solution alone, each
    line of a puzzle with several is followed by ``  # MULTIPLE j/c`` (solution ``j``
    of the ``c`` found, ``c+`` when the limit stopped the count, BUDGET instead of
    MULTIPLE when ``max_nodes`` did), and a puzzle with none gets its one line of
    :func:`result_lines` (``puzzle  # NO_SOLUTION``, ``# INVALID: reason``, ...).
    """
    grids, counts = found
    result = found.result
    limit = grids.shape[1]
    messages = dict(chunk.errors)
    out = []
    for k in range(len(chunk)):
        count = int(counts[k])
        status = int(result.status[k])
        texts = format_lines(grids[k, :count]) if count else []
        if csv:
            raw = _one_line(chunk.raw[k], invalid=status == _INVALID)
            if status == _INVALID:
                note = messages.get(k, "givens clash")
            else:
                note = result.messages.get(k, "")
            note = csv_field(_one_line(note)) if note else ""
            cells = texts + [""] * (limit - count)
            out.append(
                f"{csv_field(raw)},{_NAMES[status]},{count},{result.nodes[k]},{note},"
                + ",".join(cells)
            )
        elif count == 0 or (status in (_UNIQUE, _SOLVED) and k not in result.messages):
            if count:
                out.append(texts[0])
            else:
                solution = format_lines(result.solutions[k : k + 1])[0]
                out.append(_line(k, chunk, result, solution, messages, False))
        else:
            name = _NAMES[status]
            more = "+" if count == limit or status == _BUDGET else ""
            note = result.messages.get(k)
            tail = f"; {_one_line(note)}" if note else ""
            out += [f"{text}  # {name} {j}/{count}{more}{tail}" for j, text in enumerate(texts, 1)]
    return "".join(line + "\n" for line in out).encode("utf-8", "replace")
