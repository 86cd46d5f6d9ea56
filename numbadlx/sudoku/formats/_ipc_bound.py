"""How far a compressed Arrow IPC file would inflate, learned before pyarrow reads it.

pyarrow decompresses a whole record batch (or dictionary batch) at once, so a few
kilobytes of zstd can become gigabytes before any value is measured. Each message's
metadata is a flatbuffer (Arrow's ``Message.fbs``: a Message whose header is a
RecordBatch or a DictionaryBatch, with the batch's row count, its buffers as
``(offset, length)`` in the message body, and a BodyCompression when the buffers are
compressed); a compressed buffer begins with its uncompressed length as a little-endian
int64 (-1: stored as it is). :func:`check_ipc` walks the messages (the footer's blocks
for the file format, one message after another for the stream format), reads those
lengths and nothing else, and refuses a batch that would grow past the bounds below.

The flatbuffer reader here knows just the tables it needs, and every offset it follows
is checked against the size of the bytes it reads from: a malformed file is a
ValueError, never a crash or a large allocation.
"""

from __future__ import annotations

import itertools
import struct

__all__ = ["check_ipc", "layout"]

#: Bytes a row may take beyond its values (offsets, validity bits, views).
ROW_SLACK = 64
#: A compressed batch may always decompress to this many bytes a column ...
SMALL_BATCH = 64 << 20
#: ... and past it to at most this many times its compressed size.
MOST_RATIO = 1000

_RECORD_BATCH, _DICTIONARY_BATCH = 3, 2
_BLOCK = struct.Struct("<qi4xq")  # Footer.recordBatches: offset, metaDataLength, bodyLength
_PAIR = struct.Struct("<qq")  # Buffer: offset, length


class _Malformed(Exception):
    """The file is not the IPC its first bytes promise (caught as a ValueError)."""


def _read(buf, fmt: str, at: int):
    size = struct.calcsize(fmt)
    if at < 0 or at + size > len(buf):
        raise _Malformed(f"an offset ({at}) past the end of the {len(buf)} bytes read")
    return struct.unpack_from(fmt, buf, at)[0]


class _Table:
    """One flatbuffer table in ``buf``: scalars, sub-tables and vectors by field slot."""

    __slots__ = ("buf", "pos", "vtable", "slots")

    def __init__(self, buf, pos: int):
        self.buf, self.pos = buf, pos
        self.vtable = pos - _read(buf, "<i", pos)
        size = _read(buf, "<H", self.vtable)
        if size < 4 or self.vtable + size > len(buf):
            raise _Malformed("a flatbuffer table whose field list runs past its bytes")
        self.slots = (size - 4) // 2

    def _at(self, slot: int) -> int | None:
        if slot >= self.slots:
            return None
        off = _read(self.buf, "<H", self.vtable + 4 + 2 * slot)
        return None if off == 0 else self.pos + off

    def scalar(self, slot: int, fmt: str, default=0):
        at = self._at(slot)
        return default if at is None else _read(self.buf, fmt, at)

    def table(self, slot: int) -> _Table | None:
        at = self._at(slot)
        return None if at is None else _Table(self.buf, at + _read(self.buf, "<I", at))

    def vector(self, slot: int, item: int) -> tuple[int, int]:
        """``(start, count)`` of a vector of ``item``-byte entries (``(0, 0)`` if absent)."""
        at = self._at(slot)
        if at is None:
            return 0, 0
        start = at + _read(self.buf, "<I", at)
        count = _read(self.buf, "<I", start)
        if start + 4 + count * item > len(self.buf):
            raise _Malformed("a flatbuffer vector runs past its bytes")
        return start + 4, count


def _root(buf) -> _Table:
    return _Table(buf, _read(buf, "<I", 0))


def layout(kind, pa, variadic) -> tuple[int, int]:
    """``(buffers, width)`` of an Arrow column of type ``kind`` in an IPC record batch:
    how many buffers it and its children take (in the order the batch lists them) and
    the widest value it stores, in bytes (1 for text). ``variadic`` yields the extra
    buffer count of each view column in turn.

    Examples
    --------
    >>> import pyarrow as pa
    >>> layout(pa.string(), pa, iter(())), layout(pa.list_(pa.int64()), pa, iter(()))
    ((3, 1), (4, 8))
    """
    t = pa.types
    if isinstance(kind, pa.BaseExtensionType):
        return layout(kind.storage_type, pa, variadic)
    if t.is_dictionary(kind):
        return 2, kind.index_type.bit_width // 8
    if t.is_null(kind):
        return 0, 1
    if t.is_string(kind) or t.is_large_string(kind) or t.is_binary(kind) or t.is_large_binary(kind):
        return 3, 1
    if _is(kind, t, "is_string_view", "is_binary_view"):
        extra = next(variadic, None)
        if extra is None or extra < 0:
            raise _Malformed("a view column without its count of data buffers")
        return 2 + extra, 1
    if _is(kind, t, "is_run_end_encoded"):
        children = [kind.run_end_type, kind.value_type]
        own = 0
    elif t.is_struct(kind):
        children = [kind.field(i).type for i in range(kind.num_fields)]
        own = 1
    elif t.is_union(kind):
        children = [kind.field(i).type for i in range(kind.num_fields)]
        own = 2 if kind.mode == "dense" else 1
    elif _is(kind, t, "is_list_view", "is_large_list_view"):
        children, own = [kind.value_type], 3
    elif t.is_fixed_size_list(kind):
        children, own = [kind.value_type], 1
    elif t.is_map(kind):
        children, own = [pa.struct([kind.key_field, kind.item_field])], 2
    elif t.is_list(kind) or t.is_large_list(kind):
        children, own = [kind.value_type], 2
    else:
        try:
            return 2, max(1, kind.bit_width // 8)
        except ValueError:
            raise _Malformed(f"a column of type {kind}, whose layout is not known") from None
    buffers, width = own, 1
    for child in children:
        more, wide = layout(child, pa, variadic)
        buffers, width = buffers + more, max(width, wide)
    return buffers, width


def _is(kind, types, *tests: str) -> bool:
    """Whether ``kind`` passes one of the ``pyarrow.types`` tests named (a test this
    pyarrow lacks is for a type it cannot read)."""
    return any(getattr(types, test, lambda _: False)(kind) for test in tests)


def _message(view, at: int, room: int) -> tuple[_Table | None, int]:
    """The Message flatbuffer framed at ``at`` (continuation marker optional) within
    ``room`` bytes, and where its body starts; None at an end-of-stream marker."""
    if at + 4 > len(view):
        return None, at
    length, start = _read(view, "<i", at), at + 4
    if length == -1:
        length, start = _read(view, "<i", at + 4), at + 8
    if length == 0:
        return None, start
    if length < 0 or start + length > min(len(view), at + room):
        raise _Malformed(f"a message at byte {at} runs past its end")
    return _root(view[start : start + length]), start + length


def _messages(view, stream: bool):
    """``(kind, header, body start, body length)`` of each record and dictionary batch."""
    size = len(view)
    if stream:
        at = 0
        while True:
            message, body = _message(view, at, size - at)
            if message is None:
                return
            end = _body_end(message, body, size)
            yield (*_header(message), body, end - body)
            at = end
    if size < 18 or bytes(view[-6:]) != b"ARROW1":
        raise _Malformed("no Arrow footer at the end")
    length = _read(view, "<i", size - 10)
    if not 0 < length <= size - 18:
        raise _Malformed("a footer length past the file's size")
    footer = _root(view[size - 10 - length : size - 10])
    for slot in (2, 3):  # dictionaries, then record batches, as the reader takes them
        start, count = footer.vector(slot, _BLOCK.size)
        for i in range(count):
            offset, meta, _ = _BLOCK.unpack_from(footer.buf, start + i * _BLOCK.size)
            if offset < 0 or meta <= 0 or offset + meta > size:
                raise _Malformed(f"a block at byte {offset} past the file's end")
            message, _ = _message(view, offset, meta)
            if message is None:
                raise _Malformed(f"an empty block at byte {offset}")
            body = offset + meta
            yield (*_header(message), body, _body_end(message, body, size) - body)


def _body_end(message: _Table, body: int, size: int) -> int:
    length = message.scalar(3, "<q")
    if length < 0 or body + length > size:
        raise _Malformed(f"a message body at byte {body} runs past the file's end")
    return body + length


def _header(message: _Table) -> tuple[int, _Table | None]:
    kind = message.scalar(1, "<B")
    return kind, message.table(2)


def _inflated(view, batch: _Table, body: int, length: int, first: int, count: int):
    """``(uncompressed, stored)`` bytes of buffers ``first .. first + count - 1`` of a
    compressed RecordBatch table whose body is ``length`` bytes at ``body``."""
    start, total = batch.vector(2, _PAIR.size)
    if first + count > total:
        raise _Malformed(f"a record batch of {total} buffers where more are due")
    grown = stored = 0
    for i in range(first, first + count):
        offset, size = _PAIR.unpack_from(batch.buf, start + i * _PAIR.size)
        if size == 0:
            continue
        if offset < 0 or size < 8 or offset + size > length:
            raise _Malformed(f"buffer {i} at {offset} (+{size}) outside its body")
        full = _read(view, "<q", body + offset)
        if full < -1:
            raise _Malformed(f"buffer {i} says it decompresses to {full} bytes")
        grown += size - 8 if full == -1 else full
        stored += size
    return grown, stored


def _refuse(name, what, grown, stored, rows, per_row, limit):
    """ValueError when ``grown`` bytes (``stored`` as they are in the file) are more than
    ``per_row`` a row (unless None), or past :data:`SMALL_BATCH` and :data:`MOST_RATIO`."""
    if per_row is not None and grown > (rows + 1) * per_row:
        raise ValueError(
            f"{name}: {what} would decompress to {grown:,} bytes for {rows:,} rows, more "
            f"than {limit:,} values a row: not a file of puzzles"
        )
    if grown > max(SMALL_BATCH, MOST_RATIO * stored):
        raise ValueError(
            f"{name}: {what} would decompress {stored:,} bytes to {grown:,}: past "
            f"{SMALL_BATCH:,}, more than {MOST_RATIO:,} times as many: not a file of puzzles"
        )


def check_ipc(view, schema, picked: list[int], stream: bool, name: str, limit: int, pa) -> None:
    """ValueError when a compressed record batch of the Arrow IPC bytes ``view`` (a
    file, or a stream if ``stream``) would decompress its columns ``picked`` (indices
    in ``schema``) to more than ``limit`` values a row (plus :data:`ROW_SLACK` bytes),
    or past :data:`SMALL_BATCH` bytes to more than :data:`MOST_RATIO` times their stored
    size; a dictionary batch is held to the same bounds by its own entries, and all the
    compressed dictionaries together (the reader holds them at once) to the last one.
    Uncompressed batches are passed over (they are read where they lie, memory-mapped).

    Examples
    --------
    >>> import pyarrow as pa
    >>> sink = pa.BufferOutputStream()
    >>> table = pa.table({"puzzle": ["0" * 50_000] * 100})
    >>> options = pa.ipc.IpcWriteOptions(compression="zstd")
    >>> with pa.ipc.new_stream(sink, table.schema, options=options) as writer:
    ...     writer.write_table(table)
    >>> data = memoryview(sink.getvalue())
    >>> try:
    ...     check_ipc(data, table.schema, [0], True, "bomb.arrows", 10_000, pa)
    ... except ValueError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    bomb.arrows: record batch 0, column puzzle would decompress to 5,000,404 bytes ...
    """
    try:
        _check(view, schema, picked, stream, name, limit, pa)
    except _Malformed as error:
        raise ValueError(f"{name}: not a readable Arrow IPC file ({error})") from None


def _check(view, schema, picked, stream, name, limit, pa):
    types = [field.type for field in schema]
    dictionary_width = max([_dictionary_width(kind, pa) for kind in types] or [1])
    batches = held = held_stored = 0
    last = max(picked)
    for kind, header, body, length in _messages(view, stream):
        if kind not in (_RECORD_BATCH, _DICTIONARY_BATCH) or header is None:
            continue
        batch = header if kind == _RECORD_BATCH else header.table(1)
        if batch is None or batch.table(3) is None:  # no BodyCompression: stored as it is
            batches += kind == _RECORD_BATCH
            continue
        rows = batch.scalar(0, "<q")
        if rows < 0:
            raise _Malformed(f"a batch of {rows} rows")
        if kind == _DICTIONARY_BATCH:
            grown, stored = _inflated(view, batch, body, length, 0, batch.vector(2, 16)[1])
            per_row = limit * dictionary_width + ROW_SLACK
            what = f"dictionary {header.scalar(0, '<q')}"
            _refuse(name, what, grown, stored, rows, per_row, limit)
            # the reader holds every dictionary (and their deltas) at once
            held, held_stored = held + grown, held_stored + stored
            _refuse(name, "the dictionaries", held, held_stored, 0, None, limit)
            continue
        counts = batch.vector(4, 8)
        variadic = iter([_read(batch.buf, "<q", counts[0] + 8 * i) for i in range(counts[1])])
        first = 0
        for index, kind_of in enumerate(types):
            count, width = layout(kind_of, pa, variadic)
            if index in picked:
                grown, stored = _inflated(view, batch, body, length, first, count)
                what = f"record batch {batches}, column {schema.names[index]}"
                _refuse(name, what, grown, stored, rows, limit * width + ROW_SLACK, limit)
            first += count
            if index == last:
                break
        batches += 1


def _dictionary_width(kind, pa) -> int:
    """The widest value of any dictionary inside a column of type ``kind``."""
    t = pa.types
    if isinstance(kind, pa.BaseExtensionType):
        return _dictionary_width(kind.storage_type, pa)
    if t.is_dictionary(kind):
        return max(
            layout(kind.value_type, pa, itertools.repeat(0))[1],
            _dictionary_width(kind.value_type, pa),
        )
    children = []
    if t.is_struct(kind) or t.is_union(kind):
        children = [kind.field(i).type for i in range(kind.num_fields)]
    elif t.is_map(kind):
        children = [kind.key_type, kind.item_type]
    elif hasattr(kind, "value_type"):
        children = [kind.value_type]
    return max([_dictionary_width(child, pa) for child in children] or [1])
