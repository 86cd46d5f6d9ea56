"""How far a Parquet column chunk would inflate, learned from its page headers before
pyarrow reads it.

A row group's metadata (in the file's footer) states each column chunk's size once
decompressed, but pyarrow decompresses page by page as each page's own header says:
a file whose footer understates the size (a few kilobytes of zstd that say "100 bytes"
and hold a page of a gigabyte) passes a check of the footer and is then inflated in
full. So :func:`check_pages` reads the page headers themselves, over the bytes pyarrow
will read for the chunk, and adds up what they would become: the bytes of every page
and the values of every data page.

A page header is a Thrift struct in the compact protocol (Parquet's ``PageHeader``:
type, uncompressed and compressed sizes, then a header by page type whose first field
is the count of values). The reader here knows just those fields and skips every
other; every length it follows is checked against the bytes it has, and a header it
cannot read is a ValueError, never a crash, a loop or a large allocation.
"""

from __future__ import annotations

__all__ = ["check_pages", "footer_chunks", "page_totals"]

#: A decompressed chunk may always take this many bytes (or values, 8 bytes each) ...
SMALL_CHUNK = 64 << 20
#: ... and past it at most this many times its stored size.
MOST_RATIO = 1000
#: The longest page header read (pyarrow's own default limit).
MAX_HEADER = 16 << 20
#: Bytes of a column chunk read at a time for the page headers.
WINDOW = 1 << 20
#: Structs nested deeper than this in a page header are refused.
MAX_DEPTH = 32

_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE = range(8)
_BINARY, _LIST, _SET, _MAP, _STRUCT = range(8, 13)
#: PageHeader fields holding a header by page type: data page, dictionary page, data
#: page v2 (the index page header holds no count).
_COUNTED = (5, 7, 8)
_DICTIONARY_PAGE = 2


class _Short(Exception):
    """The header runs past the bytes read (read more, or the chunk ends)."""


class _Bad(Exception):
    """Not a page header."""


class _Reader:
    __slots__ = ("buf", "at")

    def __init__(self, buf, at=0):
        self.buf, self.at = buf, at

    def byte(self) -> int:
        if self.at >= len(self.buf):
            raise _Short
        value = self.buf[self.at]
        self.at += 1
        return value

    def varint(self) -> int:
        value = shift = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7
            if shift > 63:
                raise _Bad("a varint longer than 64 bits")

    def zigzag(self) -> int:
        value = self.varint()
        return (value >> 1) ^ -(value & 1)

    def skip(self, count: int) -> None:
        if count < 0:
            raise _Bad("a negative length")
        if self.at + count > len(self.buf):
            raise _Short
        self.at += count

    def list_head(self) -> tuple[int, int]:
        """``(size, element type)`` of a list or set: a byte, and a varint for 15 or
        more elements."""
        head = self.byte()
        size, element = head >> 4, head & 0x0F
        if size == 15:
            size = self.varint()
        return size, element

    def value(self, kind: int, depth: int) -> int | None:
        """Read (an integer) or skip (anything else, None) one value of ``kind``."""
        if depth > MAX_DEPTH:
            raise _Bad("values nested too deep")
        if kind in (_TRUE, _FALSE):
            return None
        if kind == _BYTE:
            self.skip(1)
        elif kind in (_I16, _I32, _I64):
            return self.zigzag()
        elif kind == _DOUBLE:
            self.skip(8)
        elif kind == _BINARY:
            self.skip(self.varint())
        elif kind in (_LIST, _SET):
            size, element = self.list_head()
            self._elements(size, [element], depth + 1)
        elif kind == _MAP:
            size = self.varint()
            if size:
                head = self.byte()
                self._elements(size, [head >> 4, head & 0x0F], depth + 1)
        elif kind == _STRUCT:
            self.struct(depth + 1)
        else:
            raise _Bad(f"a field of unknown type {kind}")
        return None

    def _elements(self, size: int, kinds: list[int], depth: int) -> None:
        if size > len(self.buf) - self.at:  # every element takes a byte at least
            raise _Short
        for _ in range(size):
            for kind in kinds:
                if kind in (_TRUE, _FALSE):  # a bool element is a byte
                    self.skip(1)
                else:
                    self.value(kind, depth)

    def struct(self, depth: int, numbers=(), structs=()) -> dict:
        """Read a struct: ``{field: integer}`` of its integer fields in ``numbers`` and
        ``{field: {1: integer}}`` of its struct fields in ``structs`` (their field 1, if
        an integer); every other field, or one of another type, is skipped."""
        got = {}
        for field, kind in _fields(self, depth):
            if kind == _STRUCT and field in structs:
                got[field] = self.struct(depth + 1, (1,))
            else:
                value = self.value(kind, depth)
                if field in numbers and value is not None:
                    got[field] = value
        return got


def _fields(reader: _Reader, depth: int):
    """The ``(field, type)`` of each field of a struct, to its end: the caller reads or
    skips each field's value before it asks for the next."""
    if depth > MAX_DEPTH:
        raise _Bad("structs nested too deep")
    field = 0
    while True:
        head = reader.byte()
        kind = head & 0x0F
        if kind == _STOP:
            return
        delta = head >> 4
        field = field + delta if delta else reader.zigzag()
        yield field, kind


def _structs(reader: _Reader, what: str) -> int:
    """The length of a list of structs (its head read); ValueError for another list."""
    size, element = reader.list_head()
    if size > len(reader.buf) - reader.at:  # every element takes a byte at least
        raise _Bad("a list longer than its bytes")
    if element != _STRUCT:
        raise ValueError(f"a footer without {what}")
    return size


def _row_groups(reader: _Reader) -> list[tuple[int, list[dict]]]:
    """The row groups of a FileMetaData struct (field 4); every other field is skipped,
    nothing of it kept."""
    groups = None
    for field, kind in _fields(reader, 0):
        if field == 4 and kind == _LIST:
            groups = [_row_group(reader) for _ in range(_structs(reader, "row groups"))]
        else:
            reader.value(kind, 1)
    return _typed(groups, list, "row groups")


def _row_group(reader: _Reader) -> tuple[int, list[dict]]:
    """``(rows, column chunks)`` of a RowGroup struct (fields 3 and 1)."""
    rows = chunks = None
    for field, kind in _fields(reader, 1):
        if field == 1 and kind == _LIST:
            size = _structs(reader, "a row group's columns")
            chunks = [_column_chunk(reader) for _ in range(size)]
        elif field == 3 and kind in (_I16, _I32, _I64):
            rows = reader.zigzag()
        else:
            reader.value(kind, 2)
    rows = _typed(rows, int, "a row group's count of rows")
    if rows < 0:
        raise ValueError(f"a row group of {rows} rows")
    return rows, _typed(chunks, list, "a row group's columns")


def _column_chunk(reader: _Reader) -> dict:
    """The sizes of a ColumnChunk struct's metadata (field 3: ColumnMetaData's values,
    sizes and page offsets)."""
    stated = None
    for field, kind in _fields(reader, 2):
        if field == 3 and kind == _STRUCT:
            stated = reader.struct(3, (5, 6, 7, 9, 11))
        else:
            reader.value(kind, 3)
    stated = _typed(stated, dict, "column sizes")
    sizes = {
        key: _typed(stated.get(field), int, f"a column chunk's {key} size")
        for key, field in (("values", 5), ("uncompressed", 6), ("compressed", 7),
                           ("data_page", 9))
    }  # fmt: skip
    if min(sizes.values()) < 0:
        raise ValueError("a column chunk of a negative size or offset")
    sizes["dictionary_page"] = stated.get(11)
    return sizes


def footer_chunks(footer: bytes) -> list[tuple[int, list[dict]]]:
    """``(rows, [column chunk, ...])`` of each row group of the Parquet footer
    ``footer`` (the FileMetaData struct): each column chunk as ``{"values",
    "uncompressed", "compressed", "data_page", "dictionary_page"}`` (the last None when
    the chunk has no dictionary page). Read here rather than through pyarrow's metadata
    objects, which stop the process (a C++ exception it does not catch) on some damaged
    footers; only those fields are decoded, every other skipped without being kept
    (a footer may carry fields of any size), and ValueError for a footer that is not
    one, or a chunk whose sizes are not stated in it (an encrypted column, say).

    Examples
    --------
    >>> import io, pyarrow as pa, pyarrow.parquet as pq
    >>> sink = io.BytesIO()
    >>> pq.write_table(pa.table({"p": ["0" * 81] * 10}), sink, row_group_size=6)
    >>> data = sink.getvalue()
    >>> size = int.from_bytes(data[-8:-4], "little")
    >>> [(rows, len(chunks)) for rows, chunks in footer_chunks(data[-8 - size : -8])]
    [(6, 1), (4, 1)]
    """
    try:
        return _row_groups(_Reader(footer))
    except _Short:
        raise ValueError("a footer that runs past its end") from None
    except _Bad as error:
        raise ValueError(f"an unreadable footer ({error})") from None


def _typed(value, kind, what: str):
    if not isinstance(value, kind):
        raise ValueError(f"a footer without {what}")
    return value


def page_totals(
    read, start: int, length: int, most_pages: int | None = None
) -> tuple[int, int, int]:
    """``(decompressed bytes, values, pages)`` of the column chunk of ``length`` bytes at
    ``start``; ``read(offset, size)`` gives the file's bytes there (fewer at its end).
    ValueError for a header that cannot be read, a page past the chunk's end, or more
    than ``most_pages`` pages (None: no bound; a chunk of ``v`` values holds at most
    ``v`` data pages and a dictionary page, and the walk stops there rather than read
    millions of empty headers).

    Examples
    --------
    >>> import io, pyarrow as pa, pyarrow.parquet as pq
    >>> sink = io.BytesIO()
    >>> pq.write_table(pa.table({"p": ["0" * 81] * 10}), sink, compression="zstd")
    >>> chunk = pq.ParquetFile(io.BytesIO(sink.getvalue())).metadata.row_group(0).column(0)
    >>> data = sink.getvalue()
    >>> def read(offset, size):
    ...     return data[offset : offset + size]
    >>> grown, values, pages = page_totals(read, 4, chunk.total_compressed_size)
    >>> values, pages  # a dictionary page of one value, a data page of ten
    (11, 2)
    """
    grown = values = pages = 0
    at, end = start, start + length
    # the chunk's bytes are read a window at a time (a window holds many small pages'
    # headers), and a header that runs past its window is read again, longer
    window, window_at = b"", start
    while at < end:
        if not window_at <= at < window_at + len(window) - (1 << 12) or not window:
            window, window_at = read(at, min(end - at, WINDOW)), at
        while True:
            reader = _Reader(window, at - window_at)
            try:
                header = reader.struct(0, (2, 3), _COUNTED)
                break
            except _Short:
                have = window_at + len(window) - at
                if have >= MAX_HEADER:
                    raise ValueError(
                        f"a page header at byte {at} longer than {MAX_HEADER:,} bytes"
                    ) from None
                if have >= end - at or window_at + len(window) >= end:
                    raise ValueError(f"a page header at byte {at} runs past its chunk") from None
                window, window_at = read(at, min(end - at, MAX_HEADER, 4 * max(have, 1))), at
                if len(window) <= have:  # the file ends before the chunk does
                    raise ValueError(f"a page header at byte {at} runs past its chunk") from None
            except (_Bad, RecursionError) as error:
                raise ValueError(f"an unreadable page header at byte {at} ({error})") from None
        used = reader.at - (at - window_at)
        full, stored = header.get(2, -1), header.get(3, -1)
        if full < 0 or stored < 0 or at + used + stored > end:
            raise ValueError(f"a page at byte {at} of sizes {full} and {stored} past its chunk")
        for field in _COUNTED:
            count = header.get(field, {}).get(1, 0)
            if count < 0:
                raise ValueError(f"a page at byte {at} of {count} values")
            values += count
        grown += full
        pages += 1
        if most_pages is not None and pages > most_pages:
            raise ValueError(
                f"more than {most_pages:,} pages in a column chunk: more than its values"
            )
        at += used + stored
    return grown, values, pages


def check_pages(
    read, start: int, length: int, rows: int, limit: int, what: str, values: int | None = None
) -> None:
    """ValueError when the column chunk of ``length`` bytes at ``start`` (see
    :func:`page_totals`) holds pages that would decompress to more than ``limit`` bytes or
    values a row of its ``rows``, or to more than :data:`SMALL_CHUNK` bytes (values
    counting 8 bytes each) and :data:`MOST_RATIO` times its stored size, or more pages
    than its ``values`` (as its footer states them; None: not checked) allow. ``what``
    names the chunk in the message.

    Examples
    --------
    >>> import io, pyarrow as pa, pyarrow.parquet as pq
    >>> sink = io.BytesIO()
    >>> pq.write_table(pa.table({"p": ["0" * 81] * 10}), sink, compression="zstd")
    >>> data = sink.getvalue()
    >>> def read(offset, size):
    ...     return data[offset : offset + size]
    >>> meta = pq.ParquetFile(io.BytesIO(data)).metadata
    >>> length = meta.row_group(0).column(0).total_compressed_size
    >>> check_pages(read, 4, length, 10, 10_000, "p.parquet: row group 0")
    >>> check_pages(read, 4, length, 10, 5, "p.parquet: row group 0")
    Traceback (most recent call last):
    ...
    ValueError: p.parquet: row group 0 has pages that would decompress to ... bytes and ...
    """
    most_pages = None if values is None else values + 2
    grown, values, _ = page_totals(read, start, length, most_pages)
    most = (rows + 1) * limit
    if grown > most or values > most:
        raise ValueError(
            f"{what} has pages that would decompress to {grown:,} bytes and {values:,} "
            f"values for {rows:,} rows, more than {limit:,} a row: not a file of puzzles"
        )
    size = max(grown, 8 * values)
    if size > max(SMALL_CHUNK, MOST_RATIO * length):
        raise ValueError(
            f"{what} has pages that would decompress {length:,} bytes to {size:,}: past "
            f"{SMALL_CHUNK:,}, more than {MOST_RATIO:,} times as many: not a file of puzzles"
        )
