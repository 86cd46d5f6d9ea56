"""The entry points :func:`parse`, :func:`read_csv` and :func:`iter_chunks`, and
the dispatch from a source and a format to the chunk readers."""

from __future__ import annotations

import dataclasses
import errno
import io
import os
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.textfile import check_file, check_text_bytes
from ...core.validate import check_integer
from ..shape import MIN_BOXLESS_SIZE, MIN_SIZE, NO_BOXES
from ..variants import KillerRows, Rules, reading_box
from ._columnar import COLUMNAR_FORMATS, columnar_chunks, columnar_format
from ._csv import _csv_chunks
from ._fpuzzles_file import fpuzzles_chunks
from ._grid import _SEPARATOR_LINE_RE, _grid_chunks
from ._items import _item_row, _item_rows
from ._lines import _line_chunks
from ._npy import _array_chunk, _load_npy, _npy_chunks
from ._paths import _is_existing_file, _is_puzzle_line, _looks_like_path, _source_name
from ._reader import (
    PuzzleChunk,
    _bad_text,
    _check_start,
    _Context,
    _iter_records,
    _sample_lines,
    _StopAt,
)
from .detect import _check_format, _count_line_end, _path_format, _sniff_format

__all__ = ["iter_chunks", "parse", "parse_chunk", "read_csv"]

_PARSE_BATCH = 1 << 16
# More control bytes than this share of a file's first 64 KiB: not a text file
_BINARY_SHARE = 1 / 32


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
    column: str | int | None = None,
    items: bool = False,
) -> Iterator[PuzzleChunk]:
    """The chunks of a binary file; ``items``: its lines are the items of a list (no
    contest count line)."""
    ctx = _Context(name, n, box)
    if fmt is None:
        fmt = _sniff_format(f, ctx.n, ctx.box is NO_BOXES)
    if fmt in COLUMNAR_FORMATS:
        raise ValueError(f"{name}: {fmt} data is read from a file, by its path")
    if column is not None and fmt != "csv":
        raise ValueError(f"{name}: column= is for CSV input, and this is {fmt!r}")
    if fmt == "npy":
        yield from _npy_chunks(f, ctx, chunk_size, start_byte)
        return
    f.seek(0)
    head = f.read(1 << 16)
    # a binary file is refused whole; a stray control byte is one bad line
    check_text_bytes(head, name, share=_BINARY_SHARE)
    if fmt == "csv":
        yield from _csv_chunks(f, ctx, chunk_size, start_byte, start_line, solutions, column)
        return
    if fmt == "fpuzzles":
        yield from fpuzzles_chunks(f, ctx, chunk_size, start_byte, start_line)
        return
    if start_byte == 0 and not items:
        count_end = _count_line_end(head)
        if count_end is not None:  # a contest file's puzzle count: not a puzzle
            start_byte, start_line = count_end, None
    line = _check_start(f, name, start_byte, start_line)
    if fmt == "lines":
        if ctx.n is None:
            sample = _sample_lines(f, start_byte, line)
            if sample:
                ctx.infer_from_lines(sample)
        yield from _line_chunks(f, start_byte, line, ctx, chunk_size)
    else:
        if ctx.n is None:
            rows = [
                (number, text)
                for number, text in _sample_lines(f, start_byte, line)
                if not _SEPARATOR_LINE_RE.fullmatch(text)
            ]
            if rows:
                ctx.infer_from_rows(rows)
        yield from _grid_chunks(_iter_records(f, start_byte, line), ctx, chunk_size)


def _collect(chunks: Iterable[PuzzleChunk], ctx_n: int | None, name: str, solutions=False):
    parts, sols = [], []
    has_solutions = False
    for chunk in chunks:
        chunk.variant_rows("an array of grids holds", name)
        problems = chunk.errors + (chunk.solution_errors if solutions else [])
        if problems:
            raise ValueError(min(problems)[1])
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


def _sequence_chunks(items, n, box, fmt, column) -> Iterator[PuzzleChunk]:
    """The chunks of a list of puzzle strings: one row per item, always (a blank item,
    a comment or an item of several puzzles is an unreadable row, not skipped)."""
    strings = []
    for item in items:
        if isinstance(item, bytes):
            item = item.decode("utf-8", "surrogateescape")
        strings.append(item)
    if not any("\n" in s or "\r" in s for s in strings):
        text = "\n".join(strings).encode("utf-8", "surrogateescape")
        chunks = _binary_chunks(
            io.BytesIO(text),
            "<list>",
            fmt or "lines",
            n,
            box,
            _PARSE_BATCH,
            column=column,
            items=True,
        )
        if fmt not in (None, "lines"):  # the items are the lines of a grid or CSV text
            yield from chunks
            return
        chunks = list(chunks)
        if sum(len(chunk) for chunk in chunks) == len(strings):
            yield from chunks  # no item skipped: the rows are the items already
        elif chunks or n is not None or box not in (None, NO_BOXES):
            yield _item_rows(chunks, strings, _initial_n(n, box), "<list>")
        return
    # items of several lines (grids): each is read on its own, in the size of the first
    # that holds a puzzle; each must hold exactly one
    read = []
    for i, s in enumerate(strings):
        data = io.BytesIO(s.encode("utf-8", "surrogateescape"))
        name = f"<list item {i}>"
        parts = list(_binary_chunks(data, name, fmt, n, box, _PARSE_BATCH, column=column))
        if parts:
            n = parts[0].n
        read.append((name, s, parts))
    if n is None:
        raise ValueError("<list>: no puzzles found")
    for name, s, parts in read:
        found = sum(len(part) for part in parts)
        if found == 1:
            yield from parts
            continue
        yield _item_row(name, s, found, n)


def _source_chunks(source, n, box, fmt, column, solutions) -> Iterator[PuzzleChunk]:
    """The chunks of any source :func:`parse` reads, bad puzzles flagged (not raised)."""
    known = _initial_n(n, box)
    if isinstance(source, PuzzleChunk):
        yield source
        return
    if isinstance(source, np.ndarray) and source.dtype.kind in "US":
        source = source.ravel().tolist()
    if isinstance(source, np.ndarray):
        yield _array_chunk(source, known, box, "<array>", column)
        return
    if isinstance(source, (list, tuple)):
        if source and all(isinstance(item, (str, bytes)) for item in source):
            yield from _sequence_chunks(source, n, box, fmt, column)
        elif source:
            yield _array_chunk(np.asarray(source), known, box, "<list>", column)
        return
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = io.BytesIO(bytes(source))
        yield from _binary_chunks(
            data, "<bytes>", fmt, n, box, _PARSE_BATCH, solutions=solutions, column=column
        )
        return
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _is_existing_file(source)):
        path = os.fspath(source)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        fmt = columnar_format(check_file(path), _path_format(path, fmt))
        if fmt in COLUMNAR_FORMATS:
            yield from columnar_chunks(path, fmt, n, box, _PARSE_BATCH, 0, 0, column)
            return
        if fmt == "npy":
            with open(path, "rb") as f:
                arr, _ = _load_npy(f, path, mmap=False)
            yield _array_chunk(arr, known, box, path, column)
            return
        with open(path, "rb") as f:
            yield from _binary_chunks(
                f, path, fmt, n, box, _PARSE_BATCH, solutions=solutions, column=column
            )
        return
    if isinstance(source, str):
        if source.strip() and "\n" not in source and "\r" not in source:
            low = MIN_BOXLESS_SIZE if box is NO_BOXES else MIN_SIZE
            if not _is_puzzle_line(source, None, low):  # of any size: n is checked later
                raise FileNotFoundError(
                    errno.ENOENT, "no such file, and not a line of puzzle text either", source
                )
        data = io.BytesIO(source.encode("utf-8", "surrogateescape"))
        try:
            yield from _binary_chunks(
                data, "<string>", fmt, n, box, _PARSE_BATCH, solutions=solutions, column=column
            )
        except ValueError as exc:
            if _looks_like_path(source):
                raise ValueError(
                    f"{exc} (no file named {source.strip()!r} exists, so the string "
                    "was read as puzzle text)"
                ) from None
            raise
        return
    if hasattr(source, "__array__"):
        yield _array_chunk(np.asarray(source), known, box, "<array>", column)
        return
    raise TypeError(f"cannot read puzzles from a {type(source).__name__}")


def parse(
    source: Any,
    *,
    n: int | None = None,
    box: tuple[int, int] | None = None,
    format: str | None = None,
    column: str | int | None = None,
    rules: Any = None,
) -> NDArray[np.uint8]:
    """Read Sudoku puzzles from a file, text, strings or an array.

    Parameters
    ----------
    source : str, os.PathLike, bytes, list or tuple of str, or array_like
        A path (a ``str`` naming an existing file counts as a path; any
        other ``str`` is puzzle text), puzzle text, a sequence of puzzle
        strings (one puzzle each, so a blank or comment item is a row that
        cannot be read; line ``i`` in messages is item ``i``, 1-based), or an
        array of shape ``(N, n*n)``, ``(n*n,)``, ``(n, n)`` or ``(N, n, n)``
        holding integers or whole-number floats.  A 2-D ``(16, 16)`` or
        ``(36, 36)`` array is read as 16 (36) puzzles of size 4 (6), so that
        ``parse`` of its own output changes nothing; pass ``n`` (or a ``box``
        of that size) or a ``(1, k, k)`` array for one ``k x k`` grid.  Other
        square ``(k, k)`` arrays, ``(9, 9)`` and ``(25, 25)`` among them, are
        one grid.
    n : int, optional
        Puzzle size; inferred when omitted.
    box : tuple of int, optional
        Box shape ``(rows, columns)``; only validated here.
    format : {None, 'lines', 'grid', 'csv', 'npy', 'fpuzzles', 'parquet', 'arrow'}, optional
        Input format; None guesses it (see "Format auto-detection" in
        :mod:`numbadlx.sudoku.formats`).  For a CSV only the puzzle column is
        returned; see :func:`read_csv`.
    column : str or int, optional
        The puzzle column of a CSV source, as in :func:`read_csv`.
    rules : Rules or sequence of Rules, optional
        The :class:`~numbadlx.sudoku.Rules` the puzzles are for; only their box shape
        is used here. Rules without boxes (``latin=True``, jigsaw ``regions=``) let
        any size from 2 to 36 be read, prime sizes (5x5, 7x7...) too; without them a
        size with no box shape is an error.

    Returns
    -------
    numpy.ndarray
        ``(N, n*n)`` array of uint8, 0 for blanks.

    Raises
    ------
    ValueError
        For any malformed puzzle, with ``name:line:column:`` in the message; and
        for a source whose rows carry variant rules (a killer CSV, f-puzzles),
        which an array of grids cannot hold: :func:`parse_chunk` keeps them
        (``rules``), and :func:`numbadlx.sudoku.solve` takes the source as it is.

    Examples
    --------
    >>> p = parse("1.3.\\n" "....\\n" "..1.\\n" "4...\\n", format="grid")
    >>> p.shape
    (1, 16)
    >>> parse(["12" + "0" * 79, "." * 81]).shape
    (2, 81)
    >>> parse("12x4" + "0" * 12 + "\\n")
    Traceback (most recent call last):
    ...
    ValueError: <string>:1:3: invalid character 'x' (expected 0-4 or '.')

    A 5x5 Latin square has no boxes; its rules say so:

    >>> from numbadlx.sudoku import Rules
    >>> parse("1...." "....." "..3.." "....." "....5", rules=Rules(latin=True)).shape
    (1, 25)
    """
    fmt = _check_format(format)
    box = reading_box(box, rules)
    chunks = _source_chunks(source, n, box, fmt, column, solutions=False)
    return _collect(chunks, _initial_n(n, box), _source_name(source))


def parse_chunk(
    source: Any,
    *,
    n: int | None = None,
    box: tuple[int, int] | None = None,
    format: str | None = None,
    column: str | int | None = None,
    raw: bool = True,
    rules: Any = None,
) -> PuzzleChunk:
    """Read Sudoku puzzles like :func:`parse`, but a bad puzzle does not raise: it is
    flagged and described, as :func:`iter_chunks` does for files.

    Parameters
    ----------
    source, n, box, format, column, rules
        As in :func:`parse`; a :class:`PuzzleChunk` is returned as it is.
    raw : bool, default True
        Keep each puzzle's text in ``raw``; False keeps only the text of the rows
        that could not be read (the others are empty strings), which saves memory
        when only the values and the errors are needed.

    Returns
    -------
    PuzzleChunk
        All the puzzles: ``bad`` flags the rows that could not be read (all zeros in
        ``puzzles``), ``errors`` holds ``(row, message)`` with the message of
        :func:`parse` (``name:line:column: ...``), ``solutions`` the solution column
        of a CSV (None for other sources).

    Raises
    ------
    ValueError
        Only for what makes the whole source unreadable: no puzzles or no size, a CSV
        without a puzzle column, an array of the wrong shape, a binary file.

    Examples
    --------
    >>> chunk = parse_chunk(["12" + "0" * 14, "1x" + "0" * 14, "0" * 16])
    >>> chunk.bad.tolist()
    [False, True, False]
    >>> chunk.errors
    [(1, "<list>:2:2: invalid character 'x' (expected 0-4 or '.')")]
    """
    fmt = _check_format(format)
    box = reading_box(box, rules)
    parts = []
    for part in _source_chunks(source, n, box, fmt, column, solutions=True):
        parts.append(part if raw else dataclasses.replace(part, raw=_bad_text(part)))
    if len(parts) == 1:
        return parts[0]
    if not parts:
        known = _initial_n(n, box)
        if known is None:
            raise ValueError(f"{_source_name(source)}: no puzzles found")
        empty = np.zeros((0, known * known), dtype=np.uint8)
        return PuzzleChunk(
            puzzles=empty,
            bad=np.zeros(0, dtype=bool),
            errors=[],
            line_numbers=np.zeros(0, dtype=np.int64),
            end_byte=0,
            raw=[],
        )
    errors, solution_errors, raw, offset = [], [], [], 0
    for part in parts:
        errors.extend((offset + i, message) for i, message in part.errors)
        solution_errors.extend((offset + i, message) for i, message in part.solution_errors)
        raw.extend(part.raw)
        offset += len(part)
    with_solutions = any(part.solutions is not None for part in parts)
    return PuzzleChunk(
        puzzles=np.concatenate([part.puzzles for part in parts]),
        bad=np.concatenate([part.bad for part in parts]),
        errors=errors,
        line_numbers=np.concatenate([part.line_numbers for part in parts]),
        end_byte=parts[-1].end_byte,
        raw=raw,
        solutions=(
            np.concatenate(
                [
                    np.zeros_like(part.puzzles) if part.solutions is None else part.solutions
                    for part in parts
                ]
            )
            if with_solutions
            else None
        ),
        solution_errors=solution_errors,
        rules=_joined_rules(parts),
    )


def _joined_rules(parts):
    """The rules of the parts of one source, one after another (None: classic)."""
    if all(part.rules is None for part in parts):
        return None
    if all(isinstance(part.rules, KillerRows) for part in parts):
        return KillerRows.concatenate([part.rules for part in parts])
    return [r for part in parts for r in (part.rules or [Rules()] * len(part))]


def read_csv(
    path: str | os.PathLike,
    *,
    n: int | None = None,
    box: tuple[int, int] | None = None,
    column: str | int | None = None,
    rules: Any = None,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8] | None]:
    """Read the puzzles and (optional) solutions of a CSV file.

    Parameters
    ----------
    path : str or os.PathLike
        CSV file, with or without a header row (see "CSV columns" in
        :mod:`numbadlx.sudoku.formats`).
    n : int, optional
        Puzzle size; inferred from the first puzzles when omitted.
    box : tuple of int, optional
        Box shape, validated against ``n``.
    column : str or int, optional
        The puzzle column: a header name (any case) or a 0-based index; by default
        the first of :data:`PUZZLE_COLUMNS` in the header.
    rules : Rules or sequence of Rules, optional
        As in :func:`parse`: rules without boxes let sizes without a box shape be read.

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
    box = reading_box(box, rules)
    known = _initial_n(n, box)
    name = os.fspath(path)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    with open(check_file(name), "rb") as f:
        chunks = _binary_chunks(f, name, "csv", n, box, _PARSE_BATCH, solutions=True, column=column)
        return _collect(chunks, known, name, solutions=True)


def iter_chunks(
    path: str | os.PathLike,
    *,
    chunk_size: int = 65536,
    n: int | None = None,
    box: tuple[int, int] | None = None,
    format: str | None = None,
    start_byte: int = 0,
    start_line: int | None = None,
    stop_byte: int | None = None,
    column: str | int | None = None,
    rules: Any = None,
    start_row: int = 0,
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
        Puzzle size; inferred from the first puzzles when omitted (the size most
        of the first 64 puzzle lines have).
    box : tuple of int, optional
        Box shape, validated against ``n``.
    format : {None, 'lines', 'grid', 'csv', 'npy', 'fpuzzles', 'parquet', 'arrow'}, optional
        File format; None guesses it from the name and the start of the
        file (see "Format auto-detection" in :mod:`numbadlx.sudoku.formats`).
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
    column : str or int, optional
        The puzzle column of a CSV file, as in :func:`read_csv`.
    rules : Rules or sequence of Rules, optional
        As in :func:`parse`: rules without boxes let sizes without a box shape be read.
    start_row : int, default 0
        For Parquet and Arrow files: the 0-based row to start from (a resumed read:
        the puzzles already done); ``start_byte`` is then the ``end_byte`` of the chunk
        before it. Other formats ignore it.

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
    chunk_size = check_integer(chunk_size, "chunk_size")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
    box = reading_box(box, rules)
    _initial_n(n, box)  # validate early
    name = os.fspath(path)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    fmt = columnar_format(check_file(name), _path_format(name, fmt))
    if fmt in COLUMNAR_FORMATS:
        if stop_byte is not None:
            raise ValueError(f"{name}: stop_byte does not apply to {fmt} files")
        start_row = check_integer(start_row, "start_row")
        yield from columnar_chunks(name, fmt, n, box, chunk_size, start_byte, start_row, column)
        return
    with open(check_file(name), "rb") as f:
        if stop_byte is not None:
            f = _StopAt(f, check_integer(stop_byte, "stop_byte"), name)
        yield from _binary_chunks(
            f, name, fmt, n, box, chunk_size, start_byte, start_line, column=column
        )
