"""Reading and writing Sudoku puzzles.

A puzzle of size ``n`` is an ``n x n`` grid split into boxes of ``r`` rows
and ``c`` columns, with ``n == r * c`` and ``4 <= n <= 36``.  Cell values are
``0`` for a blank and ``1..n`` for a given.  In memory a batch of puzzles is
a ``(N, n*n)`` array of ``uint8`` in row-major order.

Text alphabet
-------------
One character per cell (usable for ``n <= 35``): ``0`` or ``.`` is a blank,
``1``-``9`` are 1-9 and ``A``-``Z`` (either case) are 10-35, i.e. the
``int(ch, 36)`` digits.  For any size, and necessarily for ``n == 36``, a
puzzle may instead be written as integers separated by whitespace or commas
(``0`` or ``.`` is a blank).

Formats
-------
``'lines'``
    One puzzle per line.  Blank lines, ``#`` comments (a whole line or the
    rest of a line), a UTF-8 byte order mark, CR line ends and trailing
    whitespace are ignored.  ``n`` comes from the first line whose cell
    count is ``n*n`` for a supported ``n``; every puzzle line must then have
    that many cells.
``'grid'``
    ``n`` lines of ``n`` cells per puzzle.  Cells may be separated by
    spaces; the box-drawing characters ``|``, ``+`` and ``-`` are ignored and
    lines made only of them are skipped.  Puzzles may follow each other
    directly or be separated by blank lines, but a blank line inside a
    puzzle is an error.
``'csv'``
    A header row, then one puzzle per row.  The puzzle column is the first
    of ``quizzes``, ``quiz``, ``puzzle``, ``puzzles`` present (any case) and
    the optional solution column the first of ``solutions``, ``solution``.
``'npy'``
    A NumPy ``.npy`` file holding an integer (or whole-number float) array
    in any of the shapes :func:`parse` accepts for arrays.

Format auto-detection (``format=None``)
---------------------------------------
1. A file name ending in ``.npy`` or ``.csv`` selects that format; so does
   the ``.npy`` magic number at the start of the data.
2. Otherwise the first data line (not blank, not a comment) decides:

   * it is a CSV header if one of its comma-separated fields is a puzzle
     column name listed above;
   * it is grid format if it contains ``|`` or ``+`` or consists only of
     box-drawing characters;
   * if ``n`` was given: grid format if the line has ``n`` cells, else line
     format;
   * a cell count equal to ``k*k`` for ``4 <= k <= 36`` means line format,
     except for the ambiguous counts 16 and 36 (``4*4`` and ``6*6`` puzzles,
     or rows of ``16x16`` and ``36x36`` grids): these are rows of a grid
     when some value on the line is too large for a ``4x4`` (resp. ``6x6``)
     puzzle and the text has at least 16 (resp. 36) data lines, and puzzle
     lines otherwise;
   * any other count from 4 to 36 means grid format, and everything else
     line format (which then reports the bad line).

   Pass ``format`` or ``n`` to override the guess.

Cells of one line
-----------------
Runs of characters other than whitespace and commas are *tokens*.  If there
are several tokens, at least one is longer than one character, all are
decimal integers (or ``.``) and their number is the expected cell count,
each token is one cell -- unless some number is too large for the size and
reading every character as a cell gives the expected count instead.
Otherwise every character of every token is one cell, so the grid row
``"530 070 000"`` has nine cells, and a line of nine 9-digit groups is one
``9x9`` puzzle.

Errors
------
Malformed input raises :class:`ValueError` with a message of the form
``name:line:column: what is wrong``, where ``name`` is the file name (or
``<string>``, ``<bytes>``, ``<list>``) and line and column are 1-based.
Arrays are reported as ``name[index]: row r, column c: ...``.  Clashing
givens are *not* parse errors.
"""

from __future__ import annotations

import csv
import io
import math
import operator
import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import numpy as np

from ..shape import DIGITS as _DIGITS
from ..shape import MAX_SIZE, MIN_SIZE, box_shape

__all__ = [
    "FORMATS",
    "MAX_SIZE",
    "MIN_SIZE",
    "PUZZLE_COLUMNS",
    "PuzzleChunk",
    "SOLUTION_COLUMNS",
    "box_shape",
    "file_format",
    "format_grid",
    "format_line",
    "format_lines",
    "iter_chunks",
    "line_ranges",
    "parse",
    "read_csv",
]

FORMATS = ("lines", "grid", "csv", "npy")
PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles")
SOLUTION_COLUMNS = ("solutions", "solution")

_BAD = 255  # lookup-table marker for "not a cell character"


def _build_lookup() -> np.ndarray:
    table = np.full(256, _BAD, dtype=np.uint8)
    for value, ch in enumerate(_DIGITS):
        table[ord(ch)] = value
        table[ord(ch.lower())] = value
    table[ord(".")] = 0
    return table


_LOOKUP = _build_lookup()
_OUT_CHARS = np.frombuffer(_DIGITS.encode("ascii"), dtype=np.uint8)
_SQUARES = {k * k: k for k in range(MIN_SIZE, MAX_SIZE + 1)}
_ROW_COUNTS = frozenset(range(MIN_SIZE, MAX_SIZE + 1))
_ANY_COUNT = frozenset(_SQUARES) | _ROW_COUNTS
_TOKEN_RE = re.compile(r"[^\s,]+")
_SEPARATOR_LINE_RE = re.compile(r"[\s|+\-]*[|+\-][\s|+\-]*")
_GRID_BLANKING = str.maketrans("|+-", "   ")
_BOM = b"\xef\xbb\xbf"
_NPY_MAGIC = b"\x93NUMPY"
_PARSE_BATCH = 1 << 16
_READ_BLOCK = 1 << 20


# ---------------------------------------------------------------------------
# sizes
# ---------------------------------------------------------------------------


def _alphabet(n: int) -> str:
    if n <= 9:
        return f"0-{n} or '.'"
    if n == 10:
        return "0-9, A or '.'"
    if n <= 35:
        return f"0-9, A-{_DIGITS[n]} or '.'"
    return "0-9, A-Z or '.', or integers 0-36 separated by spaces or commas"


def _char_error(ch: str, n: int) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # byte kept by 'surrogateescape'
        return f"undecodable byte 0x{code - 0xDC00:02X} (the text is not valid UTF-8)"
    value = int(_LOOKUP[code]) if code < 128 else _BAD
    if value == _BAD or (value >= 10 and n < 10):
        return f"invalid character {ch!r} (expected {_alphabet(n)})"
    return f"value {ch!r} ({value}) is too large for a {n}x{n} puzzle (max {n})"


# ---------------------------------------------------------------------------
# cells of one line
# ---------------------------------------------------------------------------


def _is_number_token(tok: str) -> bool:
    return tok == "." or (tok.isascii() and tok.isdigit())


def _token_value(tok: str) -> int:
    if tok == ".":
        return 0
    digits = tok.lstrip("0")
    if len(digits) > 3:
        return 10_000  # too large for any size; avoids converting huge strings
    return int(digits) if digits else 0


def _split_cells(
    text: str, expected: int | None, valid: Iterable[int], grid: bool, n: int | None = None
):
    """Split one line into cells (see "Cells of one line" in the module docs).

    ``expected`` is the required cell count (None while sniffing, when any
    count in ``valid`` will do) and ``n`` the largest allowed value.

    Returns ``(kind, cells, columns, numbers)``: ``kind`` is ``'chars'``
    (``cells`` is a str, one cell per character) or ``'ints'`` (``cells`` is a
    list of number tokens); ``columns`` holds the 0-based column of each
    cell; ``numbers`` is the token count when the line could also have been
    read as separated numbers, else None.
    """
    if grid:
        text = text.translate(_GRID_BLANKING)
    spans = [(m.start(), m.group()) for m in _TOKEN_RE.finditer(text)]
    numbers = None
    if (
        len(spans) > 1
        and any(len(t) > 1 for _, t in spans)
        and all(_is_number_token(t) for _, t in spans)
    ):
        count = len(spans)
        fits = count == expected if expected is not None else count in valid
        if fits:
            if n is not None:
                limit = n
            else:
                limit = count if count <= MAX_SIZE else math.isqrt(count)
            n_chars = sum(len(t) for _, t in spans)
            chars_fit = n_chars == expected if expected is not None else n_chars in valid
            # "850002400 720000009 ..." is nine groups of digits, not nine numbers
            if not chars_fit or all(_token_value(t) <= limit for _, t in spans):
                return "ints", [t for _, t in spans], [p for p, _ in spans], count
        numbers = count
    if len(spans) == 1:
        start, tok = spans[0]
        return "chars", tok, range(start, start + len(tok)), numbers
    chars = "".join(t for _, t in spans)
    columns = [p + i for p, t in spans for i in range(len(t))]
    return "chars", chars, columns, numbers


def _count_cells(text: str, valid: Iterable[int], grid: bool) -> int:
    return len(_split_cells(text, None, valid, grid)[1])


def _parse_cells(text: str, expected: int, n: int, what: str, note: str, grid: bool = False):
    """Parse one line of ``expected`` cells with values ``0..n``.

    Returns ``(values, None)`` or ``(None, (column0, message))``.
    """
    kind, cells, columns, numbers = _split_cells(text, expected, (), grid, n)
    count = len(cells)
    if count != expected:
        if count < expected:
            col0 = len(text.rstrip())
        else:
            col0 = columns[expected]
        if numbers is not None:
            msg = (
                f"{what} has {count} cells ({numbers} if read as separated "
                f"numbers), expected {expected}"
            )
        else:
            msg = f"{what} has {count} cells, expected {expected}"
        valid = _ROW_COUNTS if grid else _SQUARES
        if count in valid or (numbers is not None and numbers in valid):
            msg += note
        return None, (col0, msg)
    if kind == "chars":
        if cells.isascii():
            values = _LOOKUP[np.frombuffer(cells.encode("ascii"), dtype=np.uint8)]
        else:
            values = np.array(
                [_LOOKUP[ord(ch)] if ord(ch) < 128 else _BAD for ch in cells],
                dtype=np.uint8,
            )
        wrong = np.flatnonzero(values > n)
        if wrong.size:
            j = int(wrong[0])
            return None, (columns[j], _char_error(cells[j], n))
        return values, None
    values = np.zeros(count, dtype=np.uint8)
    for j, tok in enumerate(cells):
        if tok == ".":
            continue
        if _token_value(tok) > n:
            shown = tok if len(tok) <= 12 else tok[:12] + "..."
            return None, (
                columns[j],
                f"value {shown} is too large for a {n}x{n} puzzle (max {n})",
            )
        values[j] = _token_value(tok)
    return values, None


def _parse_line_batch(contents: list[bytes], n: int, what: str, note: str):
    """Parse many one-puzzle lines (bytes, already stripped of comments).

    Lines of exactly ``n*n`` bytes are converted together through the lookup
    table; the others (and the bad ones, to describe the error) go through
    :func:`_parse_cells`.  Returns ``(values, errors)`` where ``errors`` is a
    sorted list of ``(row, column0, message)``.
    """
    size = n * n
    k = len(contents)
    out = np.zeros((k, size), dtype=np.uint8)
    slow = [i for i, c in enumerate(contents) if len(c) != size]
    if len(slow) < k:
        if not slow:
            fast = np.arange(k)
            joined = b"".join(contents)
        else:
            skip = set(slow)
            fast = np.array([i for i in range(k) if i not in skip], dtype=np.intp)
            joined = b"".join([contents[i] for i in fast])
        codes = np.frombuffer(joined, dtype=np.uint8).reshape(fast.size, size)
        values = _LOOKUP[codes]
        row_bad = (values > n).any(axis=1)
        if row_bad.any():
            out[fast[~row_bad]] = values[~row_bad]
            slow.extend(fast[row_bad].tolist())
        elif fast.size == k:
            out = values
        else:
            out[fast] = values
    errors = []
    for i in slow:
        text = contents[i].decode("utf-8", "surrogateescape")
        values, err = _parse_cells(text, size, n, what, note)
        if err is None:
            out[i] = values
        else:
            errors.append((i, err[0], err[1]))
    errors.sort()
    return out, errors


# ---------------------------------------------------------------------------
# chunks
# ---------------------------------------------------------------------------


@dataclass
class PuzzleChunk:
    """A block of puzzles read by :func:`iter_chunks`.

    Attributes
    ----------
    puzzles : numpy.ndarray
        ``(k, n*n)`` uint8 puzzles; rows that could not be read are all zero.
    bad : numpy.ndarray
        ``(k,)`` bool, True for the rows that could not be read.
    errors : list of (int, str)
        ``(row index in this chunk, message)`` for each bad row; messages
        start with ``name:line:column:``.
    line_numbers : numpy.ndarray
        ``(k,)`` int64, 1-based line of each puzzle (its first line for grid
        format and multi-line CSV rows; the 1-based row for ``.npy``).
    end_byte : int
        Byte offset just after the last line used by this chunk; pass it as
        ``start_byte`` to resume reading after this chunk.
    raw : list of str
        The original text of each puzzle without the line end: the whole
        line (line format), the puzzle field (CSV), the rows joined with
        ``\\n`` (grid format) or the values as text (``.npy``).
    solutions : numpy.ndarray or None
        ``(k, n*n)`` uint8 solutions when a CSV has a solution column (an
        empty field gives zeros), else None.
    """

    puzzles: np.ndarray
    bad: np.ndarray
    errors: list
    line_numbers: np.ndarray
    end_byte: int
    raw: list
    solutions: np.ndarray | None = field(default=None)

    def __len__(self) -> int:
        return int(self.puzzles.shape[0])

    @property
    def n(self) -> int:
        """Size of the puzzles in this chunk."""
        return math.isqrt(self.puzzles.shape[1])


class _Context:
    """Name of the source and the puzzle size once it is known."""

    def __init__(self, name: str, n: int | None, box):
        self.name = name
        self.box = box
        self.n = None
        self.origin = ""
        origin = f" (n={n} was given)"
        if n is None and box is not None:
            try:
                n = operator.index(box[0]) * operator.index(box[1])
            except (TypeError, ValueError, IndexError):
                raise ValueError(
                    f"box must be a pair of integers (rows, columns), got {box!r}"
                ) from None
            origin = f" (box {box[0]}x{box[1]} was given)"
        if n is not None:
            box_shape(n, box)
            self.n = operator.index(n)
            self.origin = origin

    def at(self, line: int, col0: int) -> str:
        return f"{self.name}:{line}:{col0 + 1}"

    def set_n(self, n: int, line: int, col0: int = 0) -> None:
        try:
            box_shape(n, self.box)
        except ValueError as exc:
            raise ValueError(f"{self.at(line, col0)}: {exc}") from None
        self.n = n
        self.origin = f" (the size {n}x{n} was set by line {line})"

    def infer_from_lines(self, items) -> None:
        """Set n from the first of ``items`` = [(line, text)] with n*n cells."""
        first_problem = None
        for line, text in items:
            count = _count_cells(text, _SQUARES, grid=False)
            k = _SQUARES.get(count)
            if k is not None:
                try:
                    box_shape(k, self.box)
                except ValueError as exc:
                    if first_problem is None:
                        first_problem = f"{self.at(line, 0)}: line has {count} cells, but {exc}"
                    continue
                self.set_n(k, line)
                return
            if first_problem is None:
                first_problem = (
                    f"{self.at(line, len(text.rstrip()))}: line has {count} cells; "
                    f"a puzzle line needs n*n cells for a size n from {MIN_SIZE} to "
                    f"{MAX_SIZE} (16, 36, 64, 81, 100, 144, ...)"
                )
        raise ValueError(first_problem or f"{self.name}: no puzzles found")


def _check_start(f, name: str, start_byte: int, start_line: int | None) -> int:
    """Check that ``start_byte`` begins a line; return that line's number."""
    start_byte = operator.index(start_byte)
    if start_byte < 0:
        raise ValueError(f"{name}: start_byte must be >= 0, got {start_byte}")
    if start_byte == 0:
        return 1 if start_line is None else start_line
    size = f.seek(0, io.SEEK_END)
    if start_byte > size:
        raise ValueError(
            f"{name}: start_byte {start_byte} is past the end of the file ({size} bytes)"
        )
    if start_byte < size:
        f.seek(start_byte - 1)
        if f.read(1) != b"\n":
            raise ValueError(f"{name}: start_byte {start_byte} is not at the start of a line")
    if start_line is not None:
        return start_line
    return count_newlines(f, 0, start_byte) + 1


def count_newlines(f, start: int, stop: int) -> int:
    """Number of ``\\n`` bytes in ``[start, stop)`` of the binary file ``f``, read in
    blocks (the file position is left at ``stop`` or at the end of the file)."""
    f.seek(start)
    newlines = 0
    left = stop - start
    while left > 0:
        block = f.read(min(left, _READ_BLOCK))
        if not block:
            break
        newlines += block.count(b"\n")
        left -= len(block)
    return newlines


def line_ranges(path, chunk_bytes: int, start_byte: int = 0) -> list[tuple[int, int, int]]:
    """Split a file into byte ranges of about ``chunk_bytes`` that start at lines.

    Returns a list of ``(start, stop, first_line)``: ``[start, stop)`` holds whole
    lines, the first of them line ``first_line`` (1-based) of the file. The ranges
    cover ``[start_byte, size)``; ``start_byte`` must begin a line.

    Examples
    --------
    >>> import os, tempfile
    >>> NL = bytes([10])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "three.txt")
    ...     with open(path, "wb") as f:
    ...         _ = f.write(b"aaaa" + NL + b"bb" + NL + b"cccccc" + NL)
    ...     line_ranges(path, 6)
    [(0, 8, 1), (8, 15, 3)]
    """
    chunk_bytes = operator.index(chunk_bytes)
    if chunk_bytes < 1:
        raise ValueError(f"chunk_bytes must be positive, got {chunk_bytes}")
    size = os.path.getsize(path)
    ranges = []
    with open(path, "rb") as f:
        line = count_newlines(f, 0, start_byte) + 1
        start = start_byte
        while start < size:
            stop = min(size, start + chunk_bytes)
            if stop < size:
                f.seek(stop - 1)  # a range may end right after a newline at stop - 1
                while True:
                    data = f.read(1 << 16)
                    if not data:
                        stop = size
                        break
                    cut = data.find(b"\n")
                    if cut >= 0:
                        stop = f.tell() - len(data) + cut + 1
                        break
            ranges.append((start, stop, line))
            line += count_newlines(f, start, stop)
            start = stop
    return ranges


def _iter_blocks(f, pos: int, line: int):
    """Read whole lines from ``pos`` in large blocks.

    Yields ``(first_line, start_offset, body, pieces, terminated)``: ``body``
    is a run of complete lines without its final LF, ``pieces`` its lines
    (CRs kept), and ``terminated`` is False only for a last line without LF.
    A byte order mark at the very start of the file is skipped.
    """
    f.seek(pos)
    pending = b""
    at_start = pos == 0
    while True:
        block = f.read(_READ_BLOCK)
        if at_start:
            at_start = False
            if block.startswith(_BOM):
                block = block[len(_BOM):]
                pos += len(_BOM)
        if not block:
            break
        data = pending + block if pending else block
        cut = data.rfind(b"\n")
        if cut < 0:
            pending = data
            continue
        body, pending = data[:cut], data[cut + 1 :]
        pieces = body.split(b"\n")
        yield line, pos, body, pieces, True
        pos += len(body) + 1
        line += len(pieces)
    if pending:
        yield line, pos, pending, [pending], False


def _iter_records(f, pos: int, line: int) -> Iterator[tuple[int, bytes, int]]:
    """Yield ``(line_number, line_without_eol, end_offset)`` from ``pos``.

    A CR before the LF is dropped.  ``end_offset`` is the byte offset just
    after the line's LF (the file size for a last line without one).
    """
    for first, start, _, pieces, terminated in _iter_blocks(f, pos, line):
        end = start
        for i, piece in enumerate(pieces):
            end += len(piece) + 1
            if piece.endswith(b"\r"):
                piece = piece[:-1]
            yield first + i, piece, end if terminated else end - 1


def _strip_comment(raw: bytes) -> bytes:
    if b"#" in raw:
        raw = raw.split(b"#", 1)[0]
    return raw.rstrip()


def _decode_many(pieces: list[bytes]) -> list[str]:
    return b"\n".join(pieces).decode("utf-8", "replace").split("\n") if pieces else []


def _line_chunks(f, pos: int, line: int, ctx: _Context, chunk_size: int):
    """Yield line-format chunks; clean blocks are split without a per-line loop."""
    raws: list[bytes] = []
    contents: list[bytes] = []
    numbers: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    held = 0
    for first, start, body, pieces, terminated in _iter_blocks(f, pos, line):
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        block_ends = start + np.cumsum(lengths + 1)
        if not terminated:
            block_ends[-1] -= 1
        if not any(mark in body for mark in (b"\r", b"#", b" ", b"\t")):
            keep = np.flatnonzero(lengths > 0)
            if keep.size == len(pieces):
                block_raw = pieces
            else:
                block_raw = [pieces[i] for i in keep.tolist()]
            block_content = block_raw
        else:
            kept, block_raw, block_content = [], [], []
            for i, piece in enumerate(pieces):
                if piece.endswith(b"\r"):
                    piece = piece[:-1]
                content = _strip_comment(piece)
                if content:
                    kept.append(i)
                    block_raw.append(piece)
                    block_content.append(content)
            keep = np.array(kept, dtype=np.intp)
        if not block_raw:
            continue
        raws.extend(block_raw)
        contents.extend(block_content)
        numbers.append(first + keep.astype(np.int64))
        ends.append(block_ends[keep])
        held += len(block_raw)
        if held < chunk_size:
            continue
        all_numbers = np.concatenate(numbers)
        all_ends = np.concatenate(ends)
        used = 0
        while held - used >= chunk_size:
            stop = used + chunk_size
            yield _line_chunk(
                all_numbers[used:stop], raws[used:stop], contents[used:stop],
                int(all_ends[stop - 1]), ctx,
            )
            used = stop
        raws, contents = raws[used:], contents[used:]
        numbers, ends = [all_numbers[used:]], [all_ends[used:]]
        held -= used
    if held:
        yield _line_chunk(
            np.concatenate(numbers), raws, contents, int(np.concatenate(ends)[-1]), ctx
        )


def _line_chunk(numbers, raws, contents, end_byte: int, ctx: _Context) -> PuzzleChunk:
    if ctx.n is None:
        ctx.infer_from_lines(
            (int(line), text.decode("utf-8", "surrogateescape"))
            for line, text in zip(numbers, contents)
        )
    puzzles, errs = _parse_line_batch(contents, ctx.n, "line", ctx.origin)
    bad = np.zeros(len(contents), dtype=bool)
    errors = []
    for i, col0, msg in errs:
        bad[i] = True
        errors.append((i, f"{ctx.at(int(numbers[i]), col0)}: {msg}"))
    return PuzzleChunk(
        puzzles=puzzles,
        bad=bad,
        errors=errors,
        line_numbers=np.asarray(numbers, dtype=np.int64),
        end_byte=end_byte,
        raw=_decode_many(raws),
    )


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
                    f"{ctx.at(start, 0)}: puzzle has only {len(rows)} rows, expected "
                    f"{ctx.n} (a blank line at line {line} ends it)"
                )
        elif _SEPARATOR_LINE_RE.fullmatch(text):
            if rows:
                raws.append(raw.decode("utf-8", "replace"))
        else:
            if ctx.n is None:
                count = _count_cells(text, _ROW_COUNTS, grid=True)
                if count not in _ROW_COUNTS:
                    raise ValueError(
                        f"{ctx.at(line, len(text))}: grid row has {count} cells; a row "
                        f"needs n cells for a size n from {MIN_SIZE} to {MAX_SIZE}"
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
            f"{ctx.at(start, 0)}: puzzle has only {len(rows)} rows, expected "
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


# ---------------------------------------------------------------------------
# arrays
# ---------------------------------------------------------------------------


def _array_matrix(arr: np.ndarray, n: int | None, name: str, prefer_batch: bool):
    """Reshape an array source to ``(N, n*n)``; return it and ``n``.

    A 2-D ``(k, k)`` array is ambiguous when ``k`` is 16 or 36 (``k`` puzzles
    of size 4 or 6, or one ``k x k`` grid) and ``n`` is not given:
    ``prefer_batch`` chooses the first reading.
    """
    kind = arr.dtype.kind
    if kind not in "iuf":
        raise ValueError(
            f"{name}: array of dtype {arr.dtype} cannot hold puzzles "
            "(use integers, or floats with whole values)"
        )
    shape = arr.shape

    def bad_shape(why: str):
        return ValueError(f"{name}: array of shape {shape} {why}")

    if arr.ndim == 1:
        size = shape[0]
        k = _SQUARES.get(size)
        if k is None or (n is not None and k != n):
            raise bad_shape(
                f"is not one puzzle: its length must be n*n"
                + (f" = {n * n}" if n is not None else " for n from 4 to 36")
            )
        return arr.reshape(1, size), k
    if arr.ndim == 2:
        rows, cols = shape
        if n is not None:
            if cols == n * n:
                return arr, n
            if rows == cols == n:
                return arr.reshape(1, n * n), n
            raise bad_shape(f"does not hold {n}x{n} puzzles: expected (N, {n * n}) or ({n}, {n})")
        if cols in _SQUARES and (prefer_batch or rows != cols):
            return arr, _SQUARES[cols]
        if rows == cols and cols in _ROW_COUNTS:
            return arr.reshape(1, rows * cols), rows
        raise bad_shape("is neither (N, n*n) nor (n, n) for a size n from 4 to 36")
    if arr.ndim == 3:
        count, rows, cols = shape
        if rows == cols and cols in _ROW_COUNTS and (n is None or n == cols):
            return arr.reshape(count, rows * cols), cols
        raise bad_shape("is not (N, n, n)" + (f" with n = {n}" if n is not None else ""))
    raise bad_shape("has the wrong number of dimensions (expected 1, 2 or 3)")


def _check_values(block: np.ndarray, n: int, name: str, base: int):
    """Validate a ``(k, n*n)`` block; return ``(uint8, bad, errors)``."""
    if block.dtype.kind in "iu" and (block.size == 0 or (block.min() >= 0 and block.max() <= n)):
        return block.astype(np.uint8, copy=False), np.zeros(block.shape[0], dtype=bool), []
    if block.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            wrong = ~np.isfinite(block) | (block != np.trunc(block)) | (block < 0) | (block > n)
    else:
        wrong = (block < 0) | (block > n)
    row_bad = wrong.any(axis=1)
    errors = []
    if row_bad.any():
        for i in np.flatnonzero(row_bad):
            j = int(np.argmax(wrong[i]))
            value = block[i, j]
            r, c = divmod(j, n)
            if block.dtype.kind == "f" and np.isnan(value):
                what = "NaN is not a cell value"
            elif block.dtype.kind == "f" and not np.isfinite(value):
                what = f"{value} is not a cell value"
            elif block.dtype.kind == "f" and value != np.trunc(value):
                what = f"value {value} is not a whole number"
            else:
                shown = int(value) if block.dtype.kind != "f" else value
                what = f"value {shown} is out of range 0..{n}"
            errors.append(
                (int(i), f"{name}[{base + int(i)}]: row {r + 1}, column {c + 1}: {what}")
            )
        block = np.where(row_bad[:, None], 0, block)
    return block.astype(np.uint8), row_bad, errors


def _parse_array(arr, n: int | None, box, name: str) -> np.ndarray:
    arr = np.asarray(arr)
    if arr.dtype.kind in "US":
        return _parse_sequence(arr.ravel().tolist(), n, box, None)
    matrix, n = _array_matrix(arr, n, name, prefer_batch=True)
    box_shape(n, box)
    values, bad, errors = _check_values(matrix, n, name, 0)
    if errors:
        raise ValueError(errors[0][1])
    return np.ascontiguousarray(values)


# ---------------------------------------------------------------------------
# text and files
# ---------------------------------------------------------------------------


def _check_format(format: str | None) -> str | None:
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)} or None")
    return format


def _detect_format(head: bytes, n: int | None) -> str:
    """Guess the text format from the first data line (see module docs)."""
    if head.startswith(_BOM):
        head = head[len(_BOM):]
    decoded = (_strip_comment(raw).decode("utf-8", "replace") for raw in head.split(b"\n"))
    data_lines = [line for line in decoded if line.strip()]
    for text in data_lines[:1]:
        if "," in text:
            try:
                names = [cell.strip().lower() for cell in next(csv.reader([text]))]
            except csv.Error:  # e.g. a lone CR inside the line: not a CSV header
                names = []
            if _pick_column(names, PUZZLE_COLUMNS) is not None:
                return "csv"
        if "|" in text or "+" in text or _SEPARATOR_LINE_RE.fullmatch(text):
            return "grid"
        kind, cells, _, _ = _split_cells(text, None, _ANY_COUNT, grid=False)
        count = len(cells)
        if n is not None:
            return "grid" if count == n else "lines"
        if count in _SQUARES:
            if count in (16, 36):
                # values possible only as a row of a count x count grid
                if kind == "chars":
                    values = [int(_LOOKUP[ord(ch)]) for ch in cells if ord(ch) < 128]
                else:
                    values = [int(t) for t in cells if t != "." and len(t) < 4]
                if len(data_lines) >= count and any(math.isqrt(count) < v <= count for v in values):
                    return "grid"
            return "lines"
        if count in _ROW_COUNTS:
            return "grid"
        return "lines"
    return "lines"


def _binary_chunks(
    f,
    name: str,
    fmt: str | None,
    n: int | None,
    box,
    chunk_size: int,
    start_byte: int = 0,
    start_line: int | None = None,
    solutions: bool = True,
) -> Iterator[PuzzleChunk]:
    ctx = _Context(name, n, box)
    if fmt is None:
        f.seek(0)
        head = f.read(1 << 18)
        fmt = "npy" if head.startswith(_NPY_MAGIC) else _detect_format(head, ctx.n)
    if fmt == "npy":
        yield from _npy_chunks(f, ctx, chunk_size, start_byte)
        return
    if fmt == "csv":
        yield from _csv_chunks(f, ctx, chunk_size, start_byte, start_line, solutions)
        return
    line = _check_start(f, name, start_byte, start_line)
    if fmt == "lines":
        yield from _line_chunks(f, start_byte, line, ctx, chunk_size)
    else:
        yield from _grid_chunks(_iter_records(f, start_byte, line), ctx, chunk_size)


def _load_npy(f, name: str, mmap: bool):
    """Load a ``.npy`` array; return it and the byte offset of its data."""
    path = getattr(f, "name", None)
    arr = None
    try:
        if mmap and isinstance(path, str) and os.path.isfile(path):
            try:
                arr = np.load(path, mmap_mode="r", allow_pickle=False)
            except ValueError:
                arr = None  # e.g. an empty array cannot be memory-mapped
        if arr is None:
            f.seek(0)
            arr = np.load(f, allow_pickle=False)
    except (ValueError, EOFError) as exc:  # EOFError: an empty or cut-off file
        raise ValueError(f"{name}: cannot read .npy data: {exc}") from None
    size = f.seek(0, io.SEEK_END)
    offset = arr.offset if isinstance(arr, np.memmap) else size - arr.nbytes
    return arr, int(offset)


def _npy_chunks(f, ctx: _Context, chunk_size: int, start_byte: int) -> Iterator[PuzzleChunk]:
    arr, offset = _load_npy(f, ctx.name, mmap=True)
    matrix, n = _array_matrix(arr, ctx.n, ctx.name, prefer_batch=True)
    box_shape(n, ctx.box)
    row_bytes = matrix.shape[1] * matrix.dtype.itemsize
    first = 0
    if start_byte > offset:
        first = (start_byte - offset) // row_bytes
    total = matrix.shape[0]
    for s in range(first, total, chunk_size):
        block = np.asarray(matrix[s : s + chunk_size])
        values, bad, errors = _check_values(block, n, ctx.name, s)
        k = block.shape[0]
        raw = format_lines(values)
        for i in np.flatnonzero(bad):
            raw[i] = " ".join(str(v) for v in block[i].tolist())
        yield PuzzleChunk(
            puzzles=values,
            bad=bad,
            errors=errors,
            line_numbers=np.arange(s + 1, s + k + 1, dtype=np.int64),
            end_byte=int(offset + (s + k) * row_bytes),
            raw=raw,
        )


def _collect(chunks: Iterable[PuzzleChunk], ctx_n: int | None, name: str, solutions=False):
    parts, sols = [], []
    has_solutions = False
    for chunk in chunks:
        if chunk.errors:
            raise ValueError(chunk.errors[0][1])
        parts.append(chunk.puzzles)
        if chunk.solutions is not None:
            has_solutions = True
            sols.append(chunk.solutions)
    if not parts:
        if ctx_n is None:
            raise ValueError(f"{name}: no puzzles found")
        empty = np.zeros((0, ctx_n * ctx_n), dtype=np.uint8)
        return (empty, (empty.copy() if has_solutions else None)) if solutions else empty
    puzzles = parts[0] if len(parts) == 1 else np.concatenate(parts)
    if not solutions:
        return puzzles
    if not has_solutions:
        return puzzles, None
    return puzzles, (sols[0] if len(sols) == 1 else np.concatenate(sols))


def _initial_n(n, box):
    return _Context("", n, box).n


def _is_existing_file(text: str) -> bool:
    if "\n" in text or "\r" in text or len(text) > 4096:
        return False
    try:
        return os.path.isfile(text)
    except (OSError, ValueError):
        return False


def _looks_like_path(text: str) -> bool:
    stripped = text.strip()
    if "\n" in stripped:
        return False
    has_suffix = re.search(r"\.[A-Za-z]\w{0,4}$", stripped) is not None
    return "/" in stripped or "\\" in stripped or has_suffix


def _path_format(path: str, fmt: str | None) -> str | None:
    if fmt is not None:
        return fmt
    lower = path.lower()
    if lower.endswith(".npy"):
        return "npy"
    if lower.endswith(".csv"):
        return "csv"
    return None


def file_format(path, format: str | None = None, n: int | None = None) -> str:
    """The format of the puzzle file at ``path``: ``format`` when given, else from the
    file name's extension, the ``.npy`` magic number, or the first data line (see
    "Format auto-detection" in the module notes).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "puzzles.txt")
    ...     with open(path, "w") as f:
    ...         _ = f.write("0" * 81)
    ...     file_format(path)
    'lines'
    """
    format = _check_format(_path_format(os.fspath(path), format))
    if format is not None:
        return format
    with open(path, "rb") as f:
        head = f.read(1 << 18)
    return "npy" if head.startswith(_NPY_MAGIC) else _detect_format(head, n)


def _parse_sequence(items, n, box, fmt) -> np.ndarray:
    known = _initial_n(n, box)
    strings = []
    for item in items:
        if isinstance(item, bytes):
            item = item.decode("utf-8", "surrogateescape")
        strings.append(item)
    if any("\n" in s or "\r" in s for s in strings):
        parts = []
        for i, s in enumerate(strings):
            data = io.BytesIO(s.encode("utf-8", "surrogateescape"))
            part = _collect(
                _binary_chunks(data, f"<list item {i}>", fmt, n, box, _PARSE_BATCH),
                known,
                f"<list item {i}>",
            )
            if n is None:
                n = known = math.isqrt(part.shape[1])
            parts.append(part)
        if not parts:
            return _collect([], known, "<list>")
        return np.concatenate(parts)
    text = "\n".join(strings).encode("utf-8", "surrogateescape")
    return _collect(
        _binary_chunks(io.BytesIO(text), "<list>", fmt or "lines", n, box, _PARSE_BATCH),
        known,
        "<list>",
    )


def parse(source, *, n: int | None = None, box=None, format: str | None = None) -> np.ndarray:
    """Read Sudoku puzzles from a file, text, strings or an array.

    Parameters
    ----------
    source : str, os.PathLike, bytes, list or tuple of str, or array_like
        A path (a ``str`` naming an existing file counts as a path; any
        other ``str`` is puzzle text), puzzle text, a sequence of puzzle
        strings (one puzzle each; line ``i`` in messages is item ``i``,
        1-based), or an array of shape ``(N, n*n)``, ``(n*n,)``, ``(n, n)``
        or ``(N, n, n)`` holding integers or whole-number floats.  A 2-D
        ``(16, 16)`` or ``(36, 36)`` array is read as 16 (36) puzzles of
        size 4 (6), so that ``parse`` of its own output changes nothing;
        pass ``n`` or a ``(1, k, k)`` array for one ``k x k`` grid.  Other
        square ``(k, k)`` arrays are one grid.
    n : int, optional
        Puzzle size; inferred when omitted.
    box : tuple of int, optional
        Box shape ``(rows, columns)``; only validated here.
    format : {None, 'lines', 'grid', 'csv', 'npy'}, optional
        Input format; None guesses it (see the module documentation).  For a
        CSV only the puzzle column is returned; see :func:`read_csv`.

    Returns
    -------
    numpy.ndarray
        ``(N, n*n)`` array of uint8, 0 for blanks.

    Raises
    ------
    ValueError
        For any malformed puzzle, with ``name:line:column:`` in the message.

    Examples
    --------
    >>> p = parse("1.3.\\n" "....\\n" "..1.\\n" "4...\\n", format="grid")
    >>> p.shape
    (1, 16)
    >>> parse(["12" + "0" * 79, "." * 81]).shape
    (2, 81)
    >>> parse("12x4" + "0" * 12)
    Traceback (most recent call last):
    ...
    ValueError: <string>:1:3: invalid character 'x' (expected 0-4 or '.')
    """
    fmt = _check_format(format)
    known = _initial_n(n, box)
    if isinstance(source, np.ndarray):
        return _parse_array(source, known, box, "<array>")
    if isinstance(source, (list, tuple)):
        if all(isinstance(item, (str, bytes)) for item in source) and source:
            return _parse_sequence(source, n, box, fmt)
        if not source:
            return _collect([], known, "<list>")
        return _parse_array(np.asarray(source), known, box, "<list>")
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = io.BytesIO(bytes(source))
        chunks = _binary_chunks(data, "<bytes>", fmt, n, box, _PARSE_BATCH, solutions=False)
        return _collect(chunks, known, "<bytes>")
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _is_existing_file(source)):
        path = os.fspath(source)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        fmt = _path_format(path, fmt)
        if fmt == "npy":
            with open(path, "rb") as f:
                arr, _ = _load_npy(f, path, mmap=False)
            return _parse_array(arr, known, box, path)
        with open(path, "rb") as f:
            chunks = _binary_chunks(f, path, fmt, n, box, _PARSE_BATCH, solutions=False)
            return _collect(chunks, known, path)
    if isinstance(source, str):
        data = io.BytesIO(source.encode("utf-8", "surrogateescape"))
        try:
            return _collect(
                _binary_chunks(data, "<string>", fmt, n, box, _PARSE_BATCH, solutions=False),
                known,
                "<string>",
            )
        except ValueError as exc:
            if _looks_like_path(source):
                raise ValueError(
                    f"{exc} (no file named {source.strip()!r} exists, so the string "
                    "was read as puzzle text)"
                ) from None
            raise
    if hasattr(source, "__array__"):
        return _parse_array(np.asarray(source), known, box, "<array>")
    raise TypeError(f"cannot read puzzles from a {type(source).__name__}")


def read_csv(path, *, n: int | None = None, box=None):
    """Read the puzzles and (optional) solutions of a CSV file.

    Parameters
    ----------
    path : str or os.PathLike
        CSV file with a header row.  The puzzle column is the first of
        ``quizzes``, ``quiz``, ``puzzle``, ``puzzles`` present (any case), the
        solution column the first of ``solutions``, ``solution``.
    n : int, optional
        Puzzle size; inferred from the first puzzle when omitted.
    box : tuple of int, optional
        Box shape, validated against ``n``.

    Returns
    -------
    puzzles : numpy.ndarray
        ``(N, n*n)`` uint8.
    solutions : numpy.ndarray or None
        ``(N, n*n)`` uint8 (an empty field gives a zero row), or None when
        there is no solution column.

    Raises
    ------
    ValueError
        For a missing puzzle column or any malformed puzzle or solution.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> row = "0" * 81 + "," + "123456789" * 9
    >>> _ = (d / "p.csv").write_text("quizzes,solutions\\n" + row + "\\n")
    >>> puzzles, solutions = read_csv(d / "p.csv")
    >>> puzzles.shape, solutions[0, :3].tolist()
    ((1, 81), [1, 2, 3])
    """
    known = _initial_n(n, box)
    name = os.fspath(path)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    with open(name, "rb") as f:
        chunks = _binary_chunks(f, name, "csv", n, box, _PARSE_BATCH, solutions=True)
        return _collect(chunks, known, name, solutions=True)


def iter_chunks(
    path,
    *,
    chunk_size: int = 65536,
    n: int | None = None,
    box=None,
    format: str | None = None,
    start_byte: int = 0,
    start_line: int | None = None,
    stop_byte: int | None = None,
) -> Iterator[PuzzleChunk]:
    """Read a puzzle file in chunks, with bounded memory.

    Unlike :func:`parse`, a bad puzzle does not stop the reading: its row is
    all zeros, flagged in ``bad`` and described in ``errors``.  Errors that
    make the whole file unreadable (unknown size, missing CSV column, bad
    ``.npy`` header) still raise :class:`ValueError`.

    Parameters
    ----------
    path : str or os.PathLike
        File to read (line, grid, CSV or ``.npy`` format).
    chunk_size : int, default 65536
        Maximum number of puzzles per chunk.
    n : int, optional
        Puzzle size; inferred from the first well-sized puzzle when omitted.
    box : tuple of int, optional
        Box shape, validated against ``n``.
    format : {None, 'lines', 'grid', 'csv', 'npy'}, optional
        File format; None guesses it from the name and the start of the
        file (see the module documentation).
    start_byte : int, default 0
        Byte offset to start from, normally the ``end_byte`` of a previous
        chunk; it must be the start of a line.  A CSV header is always read
        from the start of the file.
    start_line : int, optional
        1-based line number at ``start_byte``; counted from the file when
        omitted.
    stop_byte : int, optional
        Read as if the file ended here (normally the start of a line), so
        that byte ranges ``[start_byte, stop_byte)`` can be read
        independently; not for ``.npy`` files.

    Yields
    ------
    PuzzleChunk
        Non-empty chunks in file order.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "p.txt").write_text("1" + "0" * 15 + "\\n" + "x" * 16 + "\\n" + "0" * 16 + "\\n")
    >>> chunk = next(iter_chunks(d / "p.txt"))
    >>> chunk.bad.tolist(), chunk.line_numbers.tolist()
    ([False, True, False], [1, 2, 3])
    >>> chunk.errors[0][1].endswith("p.txt:2:1: invalid character 'x' (expected 0-4 or '.')")
    True
    """
    fmt = _check_format(format)
    chunk_size = operator.index(chunk_size)
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
    _initial_n(n, box)  # validate early
    name = os.fspath(path)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    fmt = _path_format(name, fmt)
    with open(name, "rb") as f:
        if stop_byte is not None:
            f = _StopAt(f, operator.index(stop_byte), name)
        yield from _binary_chunks(f, name, fmt, n, box, chunk_size, start_byte, start_line)


class _StopAt:
    """A binary file that seems to end at ``stop`` (for :func:`iter_chunks`)."""

    def __init__(self, f, stop: int, name: str):
        if f.read(len(_NPY_MAGIC)) == _NPY_MAGIC:
            raise ValueError(f"{name}: stop_byte does not apply to .npy files")
        self._f = f
        self._stop = min(stop, f.seek(0, io.SEEK_END))
        self.name = name
        f.seek(0)

    def read(self, size: int = -1) -> bytes:
        left = max(0, self._stop - self._f.tell())
        return self._f.read(left if size is None or size < 0 else min(size, left))

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_END:
            return self._f.seek(self._stop + offset)
        return self._f.seek(offset, whence)

    def tell(self) -> int:
        return self._f.tell()


# ---------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------


def _output_matrix(puzzles, n: int | None = None, prefer_batch: bool = True):
    arr = np.asarray(puzzles)
    matrix, n = _array_matrix(arr, n, "<array>", prefer_batch)
    values, _, errors = _check_values(matrix, n, "<array>", 0)
    if errors:
        raise ValueError(errors[0][1])
    return values, n


def _check_blank(blank: str) -> str:
    if blank not in ("0", "."):
        raise ValueError(f"blank must be '0' or '.', got {blank!r}")
    return blank


def format_lines(puzzles, *, blank: str = "0") -> list[str]:
    """Write puzzles as one-line strings.

    Parameters
    ----------
    puzzles : array_like
        ``(N, n*n)``, ``(n*n,)``, ``(n, n)`` or ``(N, n, n)`` values ``0..n``.
    blank : {'0', '.'}, default '0'
        Character for blank cells.

    Returns
    -------
    list of str
        One base-36 character per cell for ``n <= 35``; for ``n == 36``
        the values as integers separated by single spaces.

    Examples
    --------
    >>> import numpy as np
    >>> format_lines(np.array([[1, 0, 3, 4] + [0] * 12]))
    ['1034000000000000']
    >>> format_lines(np.arange(16).reshape(1, 16) % 5, blank='.')
    ['.1234.1234.1234.']
    """
    blank = _check_blank(blank)
    values, n = _output_matrix(puzzles)
    count, size = values.shape
    if n > 35:
        words = np.array([blank] + [str(v) for v in range(1, n + 1)], dtype=object)
        return [" ".join(words[row]) for row in values]
    table = _OUT_CHARS.copy()
    table[0] = ord(blank)
    buf = np.empty((count, size + 1), dtype=np.uint8)
    buf[:, :size] = table[values]
    buf[:, size] = ord("\n")
    return buf.tobytes().decode("ascii").split("\n")[:-1]


def format_line(grid, n: int | None = None, *, blank: str = "0") -> str:
    """Write one puzzle as a one-line string.

    Parameters
    ----------
    grid : array_like
        One puzzle, shape ``(n*n,)``, ``(n, n)`` or ``(1, n*n)``.
    n : int, optional
        Puzzle size, to check the shape (or to read ``(n*n,)`` vs
        ``(n, n)`` unambiguously).
    blank : {'0', '.'}, default '0'
        Character for blank cells.

    Returns
    -------
    str

    Examples
    --------
    >>> format_line([[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0, 4]], blank='.')
    '1....2....3....4'
    """
    values, n = _output_matrix(grid, n, prefer_batch=False)
    if values.shape[0] != 1:
        raise ValueError(
            f"format_line takes one puzzle, got {values.shape[0]}; use format_lines"
        )
    return format_lines(values, blank=blank)[0]


def format_grid(grid, box=None, *, blank: str = ".") -> str:
    """Write one puzzle as a readable grid with box separators.

    Parameters
    ----------
    grid : array_like
        One puzzle, shape ``(n*n,)``, ``(n, n)`` or ``(1, n*n)``.  Several
        puzzles ``(N, n*n)`` give their grids separated by blank lines.
    box : tuple of int, optional
        Box shape ``(rows, columns)``; the default comes from
        :func:`box_shape`.
    blank : {'.', '0'}, default '.'
        Character for blank cells.

    Returns
    -------
    str
        Rows of cells separated by spaces, ``|`` between boxes and a
        ``-+-`` line between bands of boxes; no trailing newline.  The text
        can be read back with :func:`parse`.

    Examples
    --------
    >>> print(format_grid([1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4]))
    1 . | . .
    . 2 | . .
    ----+----
    . . | 3 .
    . . | . 4
    """
    blank = _check_blank(blank)
    if box is not None:
        r, c = box_shape(int(box[0]) * int(box[1]), box)
        values, n = _output_matrix(grid, r * c, prefer_batch=False)
    else:
        values, n = _output_matrix(grid, prefer_batch=False)
        r, c = box_shape(n)
    if n > 35:
        words = [blank.rjust(2)] + [str(v).rjust(2) for v in range(1, n + 1)]
    else:
        words = [blank] + list(_DIGITS[1 : n + 1])
    grids = []
    for puzzle in values:
        cells = [[words[v] for v in row] for row in puzzle.reshape(n, n).tolist()]
        lines = []
        separator = None
        for i, row in enumerate(cells):
            groups = [" ".join(row[j : j + c]) for j in range(0, n, c)]
            if separator is None:
                separator = "-+-".join("-" * len(g) for g in groups)
            if i and i % r == 0:
                lines.append(separator)
            lines.append(" | ".join(groups))
        grids.append("\n".join(lines))
    return "\n\n".join(grids)
