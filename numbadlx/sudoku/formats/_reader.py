"""Reading a binary file as lines: :class:`PuzzleChunk`, the parse context (name
and size), start checks, block and record iteration with line numbers,
:func:`count_newlines` and :func:`line_ranges`.
"""

from __future__ import annotations

import io
import itertools
import math
import operator
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ...core.validate import check_integer
from ...core.words import plural
from ..shape import MAX_SIZE, MIN_BOXLESS_SIZE, MIN_SIZE, NO_BOXES, check_shape
from ._cells import _BOXLESS_ROW_COUNTS, _BOXLESS_SQUARES, _ROW_COUNTS, _SQUARES, _count_cells

__all__ = ["PUZZLE_COLUMNS", "SOLUTION_COLUMNS", "PuzzleChunk", "count_newlines", "line_ranges"]

#: Header names of a CSV's puzzle column (any case), the first found is used.
PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles", "unsolved", "question", "questions")
#: Header names of a CSV's solution column.
SOLUTION_COLUMNS = ("solutions", "solution", "solved", "answer", "answers")

_BOM = b"\xef\xbb\xbf"
#: The first bytes of a ``.npy`` file
_NPY_MAGIC = b"\x93NUMPY"
_READ_BLOCK = 1 << 20
#: Puzzle lines read to infer the size of a file
_SAMPLE_LINES = 64


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
    solution_errors : list of (int, str)
        ``(row index in this chunk, message)`` for each row whose solution field
        could not be read (its solution row is zeros; the puzzle is not ``bad``).
    rules : sequence of Rules or None
        The :class:`~numbadlx.sudoku.Rules` of each row when the source gives them,
        else None (the classic rules): for a killer CSV a
        :class:`~numbadlx.sudoku.variants.KillerRows`, the cages of every row held as
        arrays (a Rules made when a row is asked for), which
        :func:`~numbadlx.sudoku.solve` reads without a Rules per row.
    """

    puzzles: np.ndarray
    bad: np.ndarray
    errors: list
    line_numbers: np.ndarray
    end_byte: int
    raw: list
    solutions: np.ndarray | None = field(default=None)
    solution_errors: list = field(default_factory=list)
    rules: list | None = field(default=None)

    def __len__(self) -> int:
        return int(self.puzzles.shape[0])

    @property
    def n(self) -> int:
        """Size of the puzzles in this chunk."""
        return math.isqrt(self.puzzles.shape[1])

    def variant_rows(self, doing: str, name: str = "") -> None:
        """Raise ValueError when a row carries variant rules (a killer CSV's cages,
        an f-puzzles rule) and the caller, ``doing`` (e.g. "rate rates"), can only
        take classic puzzles: the rules are never dropped in silence."""
        if self.rules is None:
            return
        row = next((k for k, r in enumerate(self.rules) if r.kinds), None)
        if row is not None:
            kinds = ", ".join(sorted(self.rules[row].kinds))
            raise ValueError(
                f"{name + ':' if name else 'line '}{int(self.line_numbers[row])}: {doing} "
                f"classic puzzles, and this one has the rules {kinds} (sudoku.solve and "
                "numbadlx solve take them)"
            )


def _bad_text(chunk: PuzzleChunk) -> list[str]:
    """``chunk.raw`` with only the text of its unreadable rows kept."""
    text = [""] * len(chunk)
    for row, _ in chunk.errors:
        text[row] = chunk.raw[row]
    return text


class _Context:
    """Name of the source and the puzzle size once it is known."""

    def __init__(self, name: str, n: int | None, box):
        self.name = name
        self.box = box
        self.n = None
        self.origin = ""
        origin = f" (n={n} was given)"
        if n is None and box is not None and box is not NO_BOXES:
            try:
                n = operator.index(box[0]) * operator.index(box[1])
            except (TypeError, ValueError, IndexError):
                raise ValueError(
                    f"box must be a pair of integers (rows, columns), got {box!r}"
                ) from None
            origin = f" (box {box[0]}x{box[1]} was given)"
        if n is not None:
            check_shape(n, box)
            self.n = operator.index(n)
            self.origin = origin

    @property
    def given_box(self):
        """The box shape given (rows, columns), or None (none given, or no boxes)."""
        return None if self.box is NO_BOXES else self.box

    @property
    def squares(self) -> dict:
        """``{n * n: n}`` for the sizes this context may read."""
        return _BOXLESS_SQUARES if self.box is NO_BOXES else _SQUARES

    @property
    def row_counts(self) -> frozenset:
        """The row lengths (sizes ``n``) this context may read."""
        return _BOXLESS_ROW_COUNTS if self.box is NO_BOXES else _ROW_COUNTS

    @property
    def min_size(self) -> int:
        """The smallest size this context may read."""
        return MIN_BOXLESS_SIZE if self.box is NO_BOXES else MIN_SIZE

    def at(self, line: int, col0: int) -> str:
        return f"{self.name}:{line}:{col0 + 1}"

    def set_n(self, n: int, line: int, col0: int = 0, boxless: bool = False) -> None:
        """Set the size from ``line``; ``boxless``: its puzzle's rules have no boxes,
        so a size without a box shape is read too."""
        try:
            check_shape(n, NO_BOXES if boxless and self.box is None else self.box)
        except ValueError as exc:
            raise ValueError(f"{self.at(line, col0)}: {exc}") from None
        self.n = n
        self.origin = f" (the size {n}x{n} was set by line {line})"

    def infer_from_lines(self, items) -> None:
        """Set n from ``items`` = [(line, text)], the first puzzle lines: the cell count
        ``n*n`` that most of the first ``_SAMPLE_LINES`` have (the earliest on a tie),
        so that one mistyped line does not set the size of a whole file."""
        votes: dict[int, list[int]] = {}  # n -> [lines with n*n cells, first such line]
        first_problem = None
        seen = 0
        for line, text in itertools.islice(items, _SAMPLE_LINES):
            seen += 1
            count = _count_cells(text, self.squares, grid=False)
            k = self.squares.get(count)
            if k is not None:
                try:
                    check_shape(k, self.box)
                except ValueError as exc:
                    if first_problem is None:
                        first_problem = (
                            f"{self.at(line, 0)}: line has {plural(count, 'cell')}, but {exc}"
                        )
                    continue
                votes.setdefault(k, [0, line])[0] += 1
                continue
            if first_problem is None:
                first_problem = (
                    f"{self.at(line, len(text.rstrip()))}: line has {plural(count, 'cell')}; "
                    f"a puzzle line needs n*n cells for a size n from {self.min_size} to "
                    f"{MAX_SIZE} (16, 36, 64, 81, 100, 144, ...)"
                )
        if not votes:
            raise ValueError(first_problem or f"{self.name}: no puzzles found")
        k = max(votes, key=lambda size: (votes[size][0], -votes[size][1]))
        count, first = votes[k]
        self.set_n(k, first)
        if count > 1:
            self.origin = (
                f" (the size {k}x{k} was inferred from {count} of the first {seen} puzzle lines)"
            )

    def infer_from_rows(self, items) -> None:
        """Set n from ``items`` = [(line, text)], the first grid rows: the cell count
        most of them have (the earliest on a tie), as :meth:`infer_from_lines`."""
        counts = [(line, _count_cells(text, self.row_counts, grid=True)) for line, text in items]
        fitting = [count for _, count in counts if count in self.row_counts]
        if not fitting:
            line, count = counts[0]
            raise ValueError(
                f"{self.at(line, len(items[0][1]))}: grid row has {plural(count, 'cell')}; a row "
                f"needs n cells for a size n from {self.min_size} to {MAX_SIZE}"
            )
        k = max(fitting, key=lambda c: (fitting.count(c), -fitting.index(c)))
        votes = fitting.count(k)
        self.set_n(k, next(line for line, count in counts if count == k))
        if votes > 1:
            self.origin = (
                f" (the size {k}x{k} was inferred from {votes} of the first {len(counts)} "
                f"grid rows)"
            )


def _sample_lines(f, pos: int, line: int) -> list[tuple[int, str]]:
    """The first ``_SAMPLE_LINES`` puzzle lines from ``pos`` as ``(line, text)``,
    comments and blank lines skipped (the file position is left anywhere)."""
    sample = []
    for number, raw, _ in _iter_records(f, pos, line):
        content = _strip_comment(raw)
        if content:
            sample.append((number, content.decode("utf-8", "surrogateescape")))
            if len(sample) >= _SAMPLE_LINES:
                break
    return sample


def _check_start(f, name: str, start_byte: int, start_line: int | None) -> int:
    """Check that ``start_byte`` begins a line; return that line's number."""
    start_byte = check_integer(start_byte, "start_byte")
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
    return _count_byte(f, start, stop, b"\n")


def _count_byte(f, start: int, stop: int, byte: bytes) -> int:
    f.seek(start)
    found = 0
    left = stop - start
    while left > 0:
        block = f.read(min(left, _READ_BLOCK))
        if not block:
            break
        found += block.count(byte)
        left -= len(block)
    return found


def _line_end(f, pos: int, quotes: int | None) -> int | None:
    """The offset just after the first line end at or after ``pos``, or None at the end
    of the file. With ``quotes`` (the number of ``"`` bytes between the start of the
    range and ``pos``), only a line end outside a quoted CSV field counts: one with an
    even number of quotes before it."""
    f.seek(pos)
    while True:
        data = f.read(1 << 16)
        if not data:
            return None
        if quotes is None:
            cut = data.find(b"\n")
        else:
            codes = np.frombuffer(data, dtype=np.uint8)
            parity = (quotes + np.cumsum(codes == ord('"'))) % 2
            outside = np.flatnonzero((codes == ord("\n")) & (parity == 0))
            cut = int(outside[0]) if outside.size else -1
            quotes += int(np.count_nonzero(codes == ord('"')))
        if cut >= 0:
            return f.tell() - len(data) + cut + 1


def line_ranges(
    path, chunk_bytes: int, start_byte: int = 0, quoted: bool = False
) -> list[tuple[int, int, int]]:
    """Split a file into byte ranges of about ``chunk_bytes`` that start at lines.

    Returns a list of ``(start, stop, first_line)``: ``[start, stop)`` holds whole
    lines, the first of them line ``first_line`` (1-based) of the file. The ranges
    cover ``[start_byte, size)``; ``start_byte`` must begin a line.

    With ``quoted`` (for CSV files) a range ends only at a line end outside a quoted
    field, so a field that holds line breaks stays whole: the ranges hold whole
    rows. (A quote counts as opening or closing a field wherever it is, as in CSV
    written by spreadsheets and :mod:`csv`: a field is quoted whole or not at all.)

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
    chunk_bytes = check_integer(chunk_bytes, "chunk_bytes")
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
                # a range may end right after a newline at stop - 1
                quotes = _count_byte(f, start, stop - 1, b'"') if quoted else None
                stop = _line_end(f, stop - 1, quotes) or size
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
    # the blocks of a line longer than a block, joined once its end is read: a long line
    # costs its length, not its length squared over the block size
    held: list[bytes] = []
    at_start = pos == 0
    while True:
        block = f.read(_READ_BLOCK)
        if at_start:
            at_start = False
            if block.startswith(_BOM):
                block = block[len(_BOM) :]
                pos += len(_BOM)
        if not block:
            break
        cut = block.rfind(b"\n")
        if cut < 0:
            held.append(block)
            continue
        if held:
            cut += len(pending) + sum(map(len, held))
            data = b"".join([pending, *held, block])
            held = []
        else:
            cut += len(pending)
            data = pending + block if pending else block
        body, pending = data[:cut], data[cut + 1 :]
        pieces = body.split(b"\n")
        yield line, pos, body, pieces, True
        pos += len(body) + 1
        line += len(pieces)
    if held:
        pending = b"".join([pending, *held])
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


def _field_offset(line_text: str, row: list[str], index: int) -> int:
    if '"' not in line_text:
        return sum(len(cell) + 1 for cell in row[:index])
    found = line_text.find(row[index]) if row[index] else -1
    return max(found, 0)


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
