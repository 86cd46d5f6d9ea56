"""The columnar formats: Parquet and Arrow IPC files, read a row group (Parquet) or a
record batch (Arrow) at a time, with pyarrow (an optional dependency).

The puzzle column holds strings (one puzzle line each, read as a CSV field is) or lists
of integers (the cells, 0 for a blank). It is the one ``column=`` names (a column name,
or a 0-based index), else the first of :data:`PUZZLE_COLUMNS` present; a solution column
of :data:`SOLUTION_COLUMNS` is read too, for checking. A null, a bad value or a list of
the wrong length is an unreadable row, with a message ``name:row:column: ...`` (rows
counted from 1), in its place.

Positions: a chunk never spans two row groups, and its ``end_byte`` is the byte offset
where the row groups it finished end (for Parquet; Arrow files report 0 until the last
chunk, then the file size), so a checkpoint's hash covers whole row groups read. A
resumed read starts at row ``start_row`` (the puzzles already written), which lies in
the row group beginning at ``start_byte`` (or after it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from ._csv import PUZZLE_COLUMNS, SOLUTION_COLUMNS, _csv_chunk
from ._ipc_bound import check_ipc
from ._parquet_bound import check_pages, footer_chunks
from ._reader import PuzzleChunk, _Context

__all__ = [
    "COLUMNAR_FORMATS",
    "PARQUET_MAGIC",
    "ARROW_MAGIC",
    "require_pyarrow",
    "array_chunk",
    "columnar_chunk",
]

COLUMNAR_FORMATS = ("parquet", "arrow")
PARQUET_MAGIC = b"PAR1"
ARROW_MAGIC = b"ARROW1"
#: The longest puzzle value read (characters of a string, cells of a list): a longer one
#: is an unreadable row, never copied; a Parquet row group whose puzzle column would
#: decompress to more than this a row (on average) is refused before it is read, and
#: so is a compressed Arrow record batch (see :mod:`._ipc_bound`).
VALUE_LIMIT = 10_000


def require_pyarrow(what: str):
    """The ``pyarrow`` module, or ImportError saying how to get it (``what``: the
    feature that needs it, for the message).

    Examples
    --------
    >>> require_pyarrow("reading Parquet").__name__
    'pyarrow'
    """
    try:
        import pyarrow  # noqa: F401 - optional: numbadlx[arrow]
    except ImportError as error:
        raise ImportError(
            f"{what} needs pyarrow ({error}); install it with pip install 'numbadlx[arrow]'"
        ) from None
    import pyarrow

    return pyarrow


def _pick(names: list[str], column, name: str) -> tuple[int, int | None]:
    """``(puzzle column, solution column or None)`` by index among ``names``."""
    lower = [str(c).strip().lower() for c in names]
    found = ", ".join(repr(c) for c in names)
    if isinstance(column, str):
        want = column.strip().lower()
        if want not in lower:
            raise ValueError(f"{name}: no column {column!r} (found {found})")
        pcol = lower.index(want)
    elif column is not None:
        index = int(column)
        if not 0 <= index < len(names):
            raise ValueError(
                f"{name}: column {index} was asked for, but the file has {len(names)} "
                f"columns (counted from 0)"
            )
        pcol = index
    else:
        pcol = next((lower.index(w) for w in PUZZLE_COLUMNS if w in lower), None)
        if pcol is None:
            raise ValueError(
                f"{name}: no puzzle column (expected one of {', '.join(PUZZLE_COLUMNS)}, "
                f"or choose one with column=; found {found})"
            )
    scol = next((lower.index(w) for w in SOLUTION_COLUMNS if w in lower), None)
    return pcol, (None if scol == pcol else scol)


def _bounded(array, pa):
    """``array`` with every value longer than :data:`VALUE_LIMIT` (characters, bytes or
    cells) made null, and ``{row: length}`` of those values: the long values are never
    copied (a dictionary's long entries are dropped before it is expanded)."""
    import pyarrow.compute as pc

    kind = array.type
    if pa.types.is_dictionary(kind):
        entries = _lengths(array.dictionary, pc, pa)
        if entries is None or not len(array):
            return array, {}
        lengths = entries.take(array.indices)
        too_long = pc.greater(entries, VALUE_LIMIT)
        if pc.any(too_long).as_py():
            kept = pc.if_else(too_long, pa.nulls(len(entries), kind.value_type), array.dictionary)
            array = pa.DictionaryArray.from_arrays(array.indices, kept)
    else:
        lengths = _lengths(array, pc, pa)
        if lengths is None or not len(array):
            return array, {}
    over = pc.fill_null(pc.greater(lengths, VALUE_LIMIT), False)
    if not pc.any(over).as_py():
        return array, {}
    rows = np.flatnonzero(over.to_numpy(zero_copy_only=False))
    found = {int(i): int(lengths[int(i)].as_py()) for i in rows}
    if not pa.types.is_dictionary(array.type):
        array = pc.if_else(over, pa.nulls(len(array), array.type), array)
    return array, found


def _lengths(values, pc, pa):
    """The length of each value (characters of a string, bytes, list cells), or None
    for a type that has none."""
    kind = values.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return pc.utf8_length(values)
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        return pc.binary_length(values)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return pc.list_value_length(values)
    return None


def _texts(array, pa) -> tuple[list, dict]:
    """The values of an Arrow column as puzzle texts: strings as they are, lists of
    integers joined by commas, None for a null; TypeError for any other type. Also
    ``{row: length}`` of the values longer than :data:`VALUE_LIMIT`, which are None
    too (see :func:`_bounded`)."""
    array, too_long = _bounded(array, pa)
    kind = array.type
    if pa.types.is_dictionary(kind):
        array = array.cast(kind.value_type)
        kind = array.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return array.to_pylist(), too_long
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        return [
            None if v is None else v.decode("utf-8", "surrogateescape") for v in array.to_pylist()
        ], too_long
    if (
        pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind)
    ) and pa.types.is_integer(kind.value_type):
        texts = [None if v is None else ",".join(map(str, v)) for v in array.to_pylist()]
        return texts, too_long
    raise TypeError(f"a puzzle column holds strings or lists of integers, not {kind}")


def _chunks_of_batch(batch_columns, first_row, end_byte, ctx, chunk_size, scol, pa):
    """Chunks of at most ``chunk_size`` rows of one row group (or record batch):
    ``batch_columns`` its puzzle column (and solution column), ``first_row`` the
    0-based file row of its first row; every chunk but the group's last ends at the
    group's start (``end_byte`` is the group's own end)."""
    puzzles = batch_columns[0]
    solutions = batch_columns[1] if scol is not None else None
    rows = len(puzzles)
    for begin in range(0, rows, chunk_size):
        stop = min(rows, begin + chunk_size)
        try:
            texts, too_long = _texts(puzzles.slice(begin, stop - begin), pa)
        except TypeError as error:
            raise ValueError(f"{ctx.name}: {error}") from None
        sols = None
        if solutions is not None:
            try:
                sols, long_solutions = _texts(solutions.slice(begin, stop - begin), pa)
            except TypeError:
                sols = None
            else:
                for i, length in long_solutions.items():
                    sols[i] = f"({length} long)"  # unreadable: the row says so
        batch = []
        for i, text in enumerate(texts):
            line = first_row + begin + i + 1
            problem = None
            if i in too_long:
                problem = (
                    f"{ctx.at(line, 0)}: the puzzle is {too_long[i]} long (characters or "
                    f"cells), past the {VALUE_LIMIT:,} a value may have"
                )
                text = ""
            elif text is None:
                problem = f"{ctx.at(line, 0)}: the puzzle is null"
                text = ""
            sol = "" if sols is None or sols[i] is None else sols[i]
            batch.append((line, 0, text.rstrip(), 0, sol.rstrip(), 0, problem))
        chunk = _csv_chunk(batch, ctx, sols is not None)
        chunk.raw = [b[2] for b in batch]
        chunk.end_byte = end_byte[1] if stop == rows else end_byte[0]
        yield chunk


def _start(chunk: dict) -> int:
    """Where pyarrow starts reading a column chunk: its dictionary page, if any and
    first, else its first data page."""
    first = chunk["dictionary_page"]
    return first if first is not None and 0 < first < chunk["data_page"] else chunk["data_page"]


def _parquet_group_spans(groups) -> list[tuple[int, int]]:
    """``(start, end)`` byte offsets of each row group's column chunks (``groups`` from
    :func:`._parquet_bound.footer_chunks`)."""
    spans = []
    for _, chunks in groups:
        starts = [_start(chunk) for chunk in chunks]
        ends = [start + chunk["compressed"] for start, chunk in zip(starts, chunks)]
        spans.append((min(starts), max(ends)) if starts else (4, 4))
    return spans


def _is_text(kind, pa) -> bool:
    return any(
        test(kind)
        for test in (
            pa.types.is_string,
            pa.types.is_large_string,
            pa.types.is_binary,
            pa.types.is_large_binary,
        )
    )


def _leaf_count(kind, pa) -> int:
    """How many Parquet leaf columns an Arrow column of type ``kind`` is stored in."""
    if pa.types.is_struct(kind):
        return sum(_leaf_count(kind.field(i).type, pa) for i in range(kind.num_fields))
    if pa.types.is_map(kind):
        return _leaf_count(kind.key_type, pa) + _leaf_count(kind.item_type, pa)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return _leaf_count(kind.value_type, pa)
    return 1


def _leaf_columns(schema, picked: list[int], pa) -> list[int]:
    """The Parquet leaf columns holding the Arrow columns ``picked`` (indices in the
    file's Arrow ``schema``: its leaves are stored in field order)."""
    starts = [0]
    for field in schema:
        starts.append(starts[-1] + _leaf_count(field.type, pa))
    return [leaf for i in picked for leaf in range(starts[i], starts[i + 1])]


def _group_chunks(groups, g: int, leaves: list[int], paths, name: str):
    """``(column chunk, its path)`` of the leaves ``leaves`` of row group ``g``."""
    chunks = groups[g][1]
    if leaves and max(leaves) >= len(chunks):
        raise ValueError(
            f"{name}: not a readable Parquet file (row group {g} has {len(chunks)} columns "
            f"where the schema has {max(leaves) + 1} or more)"
        )
    return [(chunks[leaf], paths[leaf]) for leaf in leaves]


def _check_group_size(groups, g, leaves, paths, rows, name) -> None:
    """ValueError when row group ``g`` would decompress (values or bytes) to more than
    :data:`VALUE_LIMIT` a row on average: a few bytes of a compressed file must not
    become gigabytes in memory. A dictionary stays encoded (see :func:`parquet_chunks`),
    so its size is the stored one."""
    most = (rows + 1) * VALUE_LIMIT
    for chunk, path in _group_chunks(groups, g, leaves, paths, name):
        for what, size in (("values", chunk["values"]), ("bytes", chunk["uncompressed"])):
            if size > most:
                raise ValueError(
                    f"{name}: row group {g} holds {size:,} {what} of the column "
                    f"{path} for {rows:,} rows, more than {VALUE_LIMIT:,} "
                    f"a row: not a file of puzzles"
                )


def _check_group_pages(source, groups, g, leaves, paths, rows, name) -> None:
    """:func:`._parquet_bound.check_pages` of the column chunks ``leaves`` of row group
    ``g``, over the bytes pyarrow reads for each (from its dictionary page, if any, for
    its stated compressed size): the footer's sizes are checked by
    :func:`_check_group_size`, the pages' own here (a footer may understate them)."""

    def read(offset, size):
        source.seek(offset)
        return source.read(size)

    for chunk, path in _group_chunks(groups, g, leaves, paths, name):
        what = f"{name}: row group {g}, column {path},"
        try:
            check_pages(
                read, _start(chunk), chunk["compressed"], rows, VALUE_LIMIT, what, chunk["values"]
            )
        except ValueError as error:
            if "not a file of puzzles" in str(error):
                raise
            raise ValueError(f"{name}: not a readable Parquet file ({error})") from None


def _footer(source, name: str):
    """The row groups of the Parquet file open as ``source`` (see
    :func:`._parquet_bound.footer_chunks`); ValueError naming ``name``."""
    size = source.seek(0, os.SEEK_END)
    source.seek(max(0, size - 8))
    tail = source.read(8)
    length = int.from_bytes(tail[:4], "little")
    if size < 12 or tail[4:] != PARQUET_MAGIC or length > size - 12:
        raise ValueError(f"{name}: not a readable Parquet file (no footer at its end)")
    source.seek(size - 8 - length)
    try:
        return footer_chunks(source.read(length))
    except ValueError as error:
        raise ValueError(f"{name}: not a readable Parquet file ({error})") from None


def _parquet_batches(handle, g: int, wanted: list, size: int, name: str, pa) -> Iterator:
    """The record batches of row group ``g`` (columns ``wanted``, ``size`` rows at a
    time), each checked in full; a damaged one is a ValueError naming the file."""
    batches = handle.iter_batches(
        batch_size=size, row_groups=[g], columns=wanted, use_threads=False
    )
    while True:
        try:
            batch = next(batches)
            # the decoder checks sizes only: dictionary indices out of range would be
            # followed blindly by the compute kernels
            batch.validate(full=True)
        except StopIteration:
            return
        except (pa.ArrowException, OSError) as error:
            raise ValueError(
                f"{name}: not a readable Parquet file (row group {g}: {error})"
            ) from None
        yield batch


def parquet_chunks(
    path: str, ctx: _Context, chunk_size: int, start_byte: int, start_row: int, column
) -> Iterator[PuzzleChunk]:
    """The chunks of a Parquet file, a row group at a time (see the module notes)."""
    pa = require_pyarrow("reading Parquet")
    import pyarrow.parquet as pq

    try:
        handle = pq.ParquetFile(path)
        names = handle.schema_arrow.names
    except (pa.ArrowException, OSError) as error:
        raise ValueError(f"{ctx.name}: not a readable Parquet file ({error})") from None
    with handle:
        pcol, scol = _pick(names, column, ctx.name)
        wanted = [names[pcol]] + ([names[scol]] if scol is not None else [])
        # strings kept dictionary-encoded as stored: a value repeated on many rows is
        # then measured once, never expanded past VALUE_LIMIT (see _bounded)
        schema = handle.schema_arrow
        picked = [pcol] + ([scol] if scol is not None else [])
        textual = [names[i] for i in picked if _is_text(schema.field(i).type, pa)]
    handle = pq.ParquetFile(path, read_dictionary=textual or None)
    with handle, open(path, "rb") as source:
        # the footer is read here, not through handle.metadata's column chunks: pyarrow
        # stops the process on some damaged ones instead of raising
        groups = _footer(source, ctx.name)
        if len(groups) != handle.metadata.num_row_groups:
            raise ValueError(f"{ctx.name}: not a readable Parquet file (its row groups)")
        try:
            parquet_schema = handle.metadata.schema
            paths = [parquet_schema.column(i).path for i in range(len(parquet_schema))]
        except (pa.ArrowException, OSError) as error:
            raise ValueError(f"{ctx.name}: not a readable Parquet file ({error})") from None
        spans = _parquet_group_spans(groups)
        leaves = _leaf_columns(schema, picked, pa)
        row = 0
        for g, (rows, _) in enumerate(groups):
            if row + rows <= start_row or rows == 0:
                row += rows
                continue
            _check_group_size(groups, g, leaves, paths, rows, ctx.name)
            _check_group_pages(source, groups, g, leaves, paths, rows, ctx.name)
            if spans[g][1] <= start_byte:
                raise ValueError(
                    f"{ctx.name}: a resumed read starts at row {start_row + 1} and byte "
                    f"{start_byte}, which are not in one row group"
                )
            # a batch of at most chunk_size rows at a time: memory stays within a chunk
            # however large the row group
            at = row
            for batch in _parquet_batches(handle, g, wanted, chunk_size, ctx.name, pa):
                count = batch.num_rows
                skip = min(count, max(0, start_row - at))
                columns = [batch.column(0).slice(skip)]
                if scol is not None:
                    columns.append(batch.column(1).slice(skip))
                last = at + count >= row + rows
                ends = (spans[g][0], spans[g][1] if last else spans[g][0])
                if count > skip:
                    yield from _chunks_of_batch(columns, at + skip, ends, ctx, chunk_size, scol, pa)
                at += count
            row += rows


def _open_ipc(source, pa, name: str, options=None):
    """``(reader, is_stream)`` for the Arrow IPC file or stream ``source``."""
    source.seek(0)
    try:
        return pa.ipc.open_file(source, options=options), False
    except (pa.ArrowException, OSError):
        source.seek(0)
        try:
            return pa.ipc.open_stream(source, options=options), True
        except (pa.ArrowException, OSError) as error:
            raise ValueError(f"{name}: not a readable Arrow IPC file ({error})") from None


def _ipc_batches(reader, stream: bool, name: str, pa) -> Iterator:
    """The record batches of an IPC ``reader``; a damaged one is a ValueError naming it."""
    count = None if stream else reader.num_record_batches
    index = 0
    while count is None or index < count:
        try:
            batch = reader.read_next_batch() if stream else reader.get_batch(index)
            # the reader checks buffer sizes only: offsets or indices out of range would
            # be followed blindly by the compute kernels
            batch.validate(full=True)
        except StopIteration:
            return
        except (pa.ArrowException, OSError) as error:
            raise ValueError(
                f"{name}: not a readable Arrow IPC file (record batch {index}: {error})"
            ) from None
        yield batch
        index += 1


def arrow_chunks(
    path: str, ctx: _Context, chunk_size: int, start_row: int, column
) -> Iterator[PuzzleChunk]:
    """The chunks of an Arrow IPC file (or stream), a record batch at a time, the file
    memory-mapped; only the puzzle (and solution) column is read, and a compressed batch
    is measured before it is decompressed (see :mod:`._ipc_bound`)."""
    pa = require_pyarrow("reading Arrow IPC")
    size = os.path.getsize(path)
    with pa.memory_map(path, "r") as source:
        reader, stream = _open_ipc(source, pa, ctx.name)
        schema = reader.schema
        pcol, scol = _pick(schema.names, column, ctx.name)
        picked = sorted({pcol} if scol is None else {pcol, scol})
        source.seek(0)
        whole = source.read_buffer(size)  # memory-mapped: no copy
        check_ipc(memoryview(whole), schema, picked, stream, ctx.name, VALUE_LIMIT, pa)
        del whole
        options = pa.ipc.IpcReadOptions(included_fields=picked)
        reader, _ = _open_ipc(source, pa, ctx.name, options)
        batches = _ipc_batches(reader, stream, ctx.name, pa)
        pcol = picked.index(pcol)
        scol = None if scol is None else picked.index(scol)
        row = 0
        held = None  # the last chunk, held back until it is known whether it ends the file
        for batch in batches:
            rows = batch.num_rows
            if row + rows <= start_row or rows == 0:
                row += rows
                continue
            skip = max(0, start_row - row)
            columns = [batch.column(pcol).slice(skip)]
            if scol is not None:
                columns.append(batch.column(scol).slice(skip))
            for chunk in _chunks_of_batch(columns, row + skip, (0, 0), ctx, chunk_size, scol, pa):
                if held is not None:
                    yield held
                held = chunk
            row += rows
        if held is not None:
            held.end_byte = size
            yield held


def is_columnar_path(path: str) -> str | None:
    """The columnar format a file name says (``.parquet``, ``.arrow``, ``.feather``,
    ``.ipc``, ``.arrows``), or None."""
    lower = path.lower()
    if lower.endswith((".parquet", ".pq")):
        return "parquet"
    if lower.endswith((".arrow", ".feather", ".ipc", ".arrows")):
        return "arrow"
    return None


def sniff_columnar(head: bytes) -> str | None:
    """The columnar format the first bytes of a file say, or None."""
    if head.startswith(PARQUET_MAGIC):
        return "parquet"
    if head.startswith(ARROW_MAGIC):
        return "arrow"
    return None


def array_chunk(array, name: str, n: int | None, box) -> PuzzleChunk:
    """One chunk of the puzzles of an Arrow array (or chunked array) of strings or
    integer lists, as from a Polars Series or an Arrow table's column: a null or an
    unreadable value is a bad row in its place."""
    pa = require_pyarrow("reading an Arrow column")
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    ctx = _Context(name, n, box)
    rows = len(array)
    chunks = list(_chunks_of_batch([array], 0, (0, 0), ctx, max(rows, 1), None, pa))
    if chunks:
        return chunks[0]
    size = (ctx.n or 9) ** 2
    return _csv_chunk_empty(size)


def _csv_chunk_empty(size: int) -> PuzzleChunk:
    return PuzzleChunk(
        puzzles=np.zeros((0, size), dtype=np.uint8),
        bad=np.zeros(0, dtype=bool),
        errors=[],
        line_numbers=np.zeros(0, dtype=np.int64),
        end_byte=0,
        raw=[],
    )


def columnar_format(path: str, fmt: str | None) -> str | None:
    """``fmt``, or for a file of no known format one whose first bytes say Parquet or
    Arrow."""
    if fmt is not None:
        return fmt
    with open(path, "rb") as f:
        return sniff_columnar(f.read(8)) or None


def columnar_chunks(path, fmt, n, box, chunk_size, start_byte, start_row, column):
    """The chunks of a Parquet or Arrow file (:mod:`._columnar`)."""
    ctx = _Context(path, n, box)
    if fmt == "parquet":
        yield from parquet_chunks(path, ctx, chunk_size, start_byte, start_row, column)
    else:
        yield from arrow_chunks(path, ctx, chunk_size, start_row, column)


def columnar_chunk(obj: Any, column: Any = None, box: Any = None) -> Any:
    """The puzzles of a Polars or Arrow object as one
    :class:`~numbadlx.sudoku.PuzzleChunk`: a Series or array holds them itself, a
    DataFrame, table or record batch in ``column`` (a name or a 0-based index; default:
    the first of the usual puzzle column names). Strings or lists of integers; a null
    or an unreadable value is an INVALID row with its message, in its place.

    Examples
    --------
    >>> import pyarrow as pa
    >>> chunk = columnar_chunk(pa.array(["1..." "..1." ".3.." "...4", None]))
    >>> chunk.bad.tolist(), chunk.errors[0][1]
    ([False, True], '<arrow>:2:1: the puzzle is null')
    """
    kind = type(obj).__name__
    polars = type(obj).__module__.startswith("polars")
    name = "<polars>" if polars else "<arrow>"
    if kind in ("DataFrame", "Table", "RecordBatch"):
        names = list(obj.columns) if polars else list(obj.schema.names)
        pcol, _ = _pick(names, column, name)
        data = obj[names[pcol]] if polars else obj.column(pcol)
    else:
        if column is not None:
            raise ValueError(f"column={column!r} is for a table; a {kind} holds the puzzles")
        data = obj
    if polars:
        data = data.to_arrow()
    return array_chunk(data, name, None, box)
