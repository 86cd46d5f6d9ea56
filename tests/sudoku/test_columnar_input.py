"""Parquet and Arrow IPC files, Arrow tables and Polars frames as puzzle input, and
SudokuResult.to_arrow: the same answers as the CSV they were made from, bad rows in
place, resumable row by row."""

import csv
import re

import numpy as np
import pytest

from numbadlx import sudoku

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture(scope="module")
def kaggle(datasets):
    with open(datasets / "kaggle_bryanpark_10k.csv") as handle:
        rows = list(csv.DictReader(handle))[:2000]
    return [r["quizzes"] for r in rows], [r["solutions"] for r in rows]


def _table(quizzes, solutions):
    return pa.table({"id": list(range(len(quizzes))), "question": quizzes, "answer": solutions})


def test_parquet_solves_as_the_published_solutions(kaggle, tmp_path):
    quizzes, solutions = kaggle
    path = tmp_path / "p.parquet"
    pq.write_table(_table(quizzes, solutions), path, row_group_size=333)
    result = sudoku.solve(path, column="question")
    assert result.status_counts() == {"UNIQUE": 2000}
    assert sudoku.format_lines(result.solutions) == solutions
    assert result.messages == {}  # the answer column was read and checked
    wrong = list(solutions)
    wrong[3] = wrong[4]
    pq.write_table(_table(quizzes, wrong), path)
    assert "solution column" in sudoku.solve(path, column="question").messages[3]


def test_bad_rows_keep_their_place_with_a_message(tmp_path):
    good = "1.....1..3.....4"
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"puzzle": [good, None, "12x", good]}), path)
    result = sudoku.solve(path)  # the "puzzle" column is found by its name
    assert result.status_names().tolist() == ["UNIQUE", "INVALID", "INVALID", "UNIQUE"]
    assert result.messages[1] == f"{path}:2:1: the puzzle is null"
    assert result.messages[2].startswith(f"{path}:3:")
    table = result.to_arrow()
    assert table.column("message").to_pylist()[0] is None
    assert table.column("status").to_pylist()[1] == "INVALID"
    assert table.column("solution").to_pylist()[3] == "1243341243212134"


def test_lists_of_integers_arrow_files_streams_and_tables(tmp_path):
    cells = [[1, 0, 0, 0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0, 0, 4], None, [1, 2]]
    table = pa.table({"quiz": pa.array(cells, pa.list_(pa.uint8()))})
    want = ["UNIQUE", "INVALID", "INVALID"]
    assert sudoku.solve(table).status_names().tolist() == want
    feather = tmp_path / "p.arrow"
    with pa.ipc.new_file(feather, table.schema) as writer:
        writer.write_table(table)
    assert sudoku.solve(feather).status_names().tolist() == want
    stream = tmp_path / "p.arrows"
    with pa.ipc.new_stream(stream, table.schema) as writer:
        writer.write_table(table)
    assert sudoku.solve(stream).status_names().tolist() == want
    assert sudoku.file_format(stream) == "arrow"


def test_polars_frames_and_series(kaggle):
    pl = pytest.importorskip("polars")
    quizzes, solutions = kaggle
    frame = pl.DataFrame({"question": quizzes[:50], "answer": solutions[:50]})
    by_frame = sudoku.solve(frame, column="question")
    by_series = sudoku.solve(frame["question"])
    assert sudoku.format_lines(by_frame.solutions) == solutions[:50]
    assert np.array_equal(by_frame.solutions, by_series.solutions)
    assert pl.from_arrow(by_frame.to_arrow()).height == 50


def test_missing_files_wrong_columns_and_types_raise(tmp_path):
    with pytest.raises(FileNotFoundError):
        sudoku.solve(tmp_path / "missing.parquet")
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"numbers": [1, 2]}), path)
    with pytest.raises(ValueError, match="no puzzle column"):
        sudoku.solve(path)
    with pytest.raises(ValueError, match="strings or lists of integers"):
        sudoku.solve(path, column="numbers")
    with pytest.raises(ValueError, match="no column 'nope'"):
        sudoku.solve(path, column="nope")
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(ValueError, match="not a readable Parquet file"):
        sudoku.solve(tmp_path / "bad.parquet")


def test_a_read_resumed_after_any_chunk_gives_the_rest(kaggle, tmp_path):
    quizzes, solutions = kaggle
    path = tmp_path / "p.parquet"
    pq.write_table(_table(quizzes[:500], solutions[:500]), path, row_group_size=120)
    chunks = list(sudoku.iter_chunks(path, chunk_size=50))
    assert all(len(c) <= 50 for c in chunks)
    assert sum(len(c) for c in chunks) == 500
    whole = np.concatenate([c.puzzles for c in chunks])
    ends = [c.end_byte for c in chunks]
    assert ends == sorted(ends) and ends[-1] < path.stat().st_size
    done = 0
    for k, chunk in enumerate(chunks[:-1]):
        done += len(chunk)
        rest = list(
            sudoku.iter_chunks(path, chunk_size=50, start_byte=chunk.end_byte, start_row=done)
        )
        assert rest[0].line_numbers[0] == done + 1, k
        assert np.array_equal(np.concatenate([c.puzzles for c in rest]), whole[done:]), k


def _peak_reading(path, **kwargs):
    """The chunks of ``path`` and the most bytes Arrow held at once while reading them."""
    pool = pa.proxy_memory_pool(pa.default_memory_pool())
    before = pa.default_memory_pool()
    pa.set_memory_pool(pool)
    try:
        chunks = list(sudoku.iter_chunks(path, **kwargs))
    finally:
        pa.set_memory_pool(before)
    return chunks, pool.max_memory()


def _repeated(value, rows, good):
    """A dictionary column: ``good`` first and last, ``value`` on the rows between (a
    small file however long ``value`` is)."""
    indices = pa.array([0] + [1] * rows + [0], pa.int32())
    return pa.DictionaryArray.from_arrays(indices, pa.array([good, value]))


def test_long_values_are_bad_rows_and_never_expanded(tmp_path):
    good = "1.....1..3.....4"
    column = _repeated("0" * 50_000, 1000, good)  # 50 MB of text in a few hundred bytes
    parquet, arrow = tmp_path / "p.parquet", tmp_path / "p.arrow"
    pq.write_table(pa.table({"puzzle": column}), parquet, compression="zstd")
    with pa.ipc.new_file(arrow, pa.schema([("puzzle", column.type)])) as writer:
        writer.write_table(pa.table({"puzzle": column}))
    for path in (parquet, arrow):
        chunks, peak = _peak_reading(path)
        assert peak < 5_000_000, path
        bad = np.concatenate([c.bad for c in chunks])
        assert bad.tolist() == [False] + [True] * 1000 + [False]
        assert "50000 long" in chunks[0].errors[0][1] and ":2:1:" in chunks[0].errors[0][1]
    lists = pa.array([[0] * 16, [0] * 20_000, [0] * 16], pa.list_(pa.int8()))
    pq.write_table(pa.table({"puzzle": lists}), parquet)
    assert sudoku.solve(parquet).status_names().tolist() == ["MULTIPLE", "INVALID", "MULTIPLE"]
    pq.write_table(pa.table({"puzzle": pa.array([[0] * 200_000] * 20, lists.type)}), parquet)
    with pytest.raises(ValueError, match="row group 0 holds 4,000,000 values"):
        list(sudoku.iter_chunks(parquet))
    # the column found by its place in the schema, whatever its name holds
    huge = pa.array([[0] * 200_000] * 20, lists.type)
    pq.write_table(pa.table({"a": [{"b": 1}] * 20, "my.puzzle": huge}), parquet)
    with pytest.raises(ValueError, match="holds 4,000,000 values of the column my.puzzle"):
        list(sudoku.iter_chunks(parquet, column="my.puzzle"))


def _peak_refusing(path):
    """The error reading ``path`` raised and the most bytes Arrow held at once before."""
    pool = pa.proxy_memory_pool(pa.default_memory_pool())
    before = pa.default_memory_pool()
    pa.set_memory_pool(pool)
    try:
        with pytest.raises(ValueError) as error:
            list(sudoku.iter_chunks(path))
    finally:
        pa.set_memory_pool(before)
    return str(error.value), pool.max_memory()


def _write_ipc(path, table, compression="zstd", stream=False, max_chunksize=None):
    options = pa.ipc.IpcWriteOptions(compression=compression)
    new = pa.ipc.new_stream if stream else pa.ipc.new_file
    with new(path, table.schema, options=options) as writer:
        writer.write_table(table, max_chunksize=max_chunksize)


@pytest.mark.parametrize("stream", [False, True])
def test_a_compressed_arrow_file_is_not_expanded(tmp_path, stream):
    path = tmp_path / "p.arrow"
    table = pa.table({"puzzle": ["0" * 50_000] * 1000})
    _write_ipc(path, table, stream=stream)
    del table
    assert path.stat().st_size < 100_000
    message, peak = _peak_refusing(path)
    assert peak < 5_000_000
    assert message == (
        f"{path}: record batch 0, column puzzle would decompress to 50,004,004 bytes for "
        f"1,000 rows, more than 10,000 values a row: not a file of puzzles"
    )


def test_compressed_arrow_files_and_streams_read_as_the_published_solutions(kaggle, tmp_path):
    feather = pytest.importorskip("pyarrow.feather")
    quizzes, solutions = kaggle
    table = _table(quizzes, solutions)
    lz4 = tmp_path / "p.feather"
    feather.write_feather(table, lz4, chunksize=300)  # version 2: lz4 by default
    assert pa.ipc.open_file(lz4).num_record_batches == 7
    zstd_file, zstd_stream = tmp_path / "p.arrow", tmp_path / "p.arrows"
    _write_ipc(zstd_file, table, max_chunksize=500)
    _write_ipc(zstd_stream, table, stream=True, max_chunksize=500)
    for path in (lz4, zstd_file, zstd_stream):
        result = sudoku.solve(path, column="question")
        assert result.status_counts() == {"UNIQUE": 2000}, path
        assert sudoku.format_lines(result.solutions) == solutions, path
        assert result.messages == {}, path  # the answer column was read and checked
        done = 700  # a read resumed inside the third batch
        rest = list(sudoku.iter_chunks(path, column="question", start_row=done))
        assert rest[0].line_numbers[0] == done + 1
        assert (
            sudoku.format_lines(np.concatenate([c.puzzles for c in rest]))[:3]
            == quizzes[done : done + 3]
        )
    # list columns compressed too; a long value in a compressed dictionary is a bad row
    good = "1.....1..3.....4"
    cells = pa.array([[1, 0, 0, 0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0, 0, 4]] * 3, pa.list_(pa.int64()))
    _write_ipc(zstd_file, pa.table({"puzzle": cells}), compression="lz4")
    assert sudoku.solve(zstd_file).status_names().tolist() == ["UNIQUE"] * 3
    column = _repeated("0" * 12_000, 1000, good)
    _write_ipc(zstd_file, pa.table({"puzzle": column}))
    chunks, peak = _peak_reading(zstd_file)
    assert peak < 5_000_000
    assert np.concatenate([c.bad for c in chunks]).tolist() == [False] + [True] * 1000 + [False]
    assert "12000 long" in chunks[0].errors[0][1]


def test_a_bomb_in_a_later_batch_or_another_column_is_never_expanded(tmp_path):
    good = "1.....1..3.....4"
    path = tmp_path / "p.arrow"
    batches = [pa.record_batch({"puzzle": [good] * 10}) for _ in range(3)]
    batches.append(pa.record_batch({"puzzle": [good] + ["1" * 1_000_000] * 9}))
    for stream in (False, True):
        _write_ipc(path, pa.Table.from_batches(batches), stream=stream)
        message, peak = _peak_refusing(path)
        assert peak < 5_000_000
        assert "record batch 3, column puzzle would decompress to 9,000,060 bytes for 10 rows" in (
            message
        )
    # a column that is not read is not decompressed; its dictionary would be, so it counts
    notes = pa.array(["n" * 5_000_000] * 10)
    _write_ipc(path, pa.table({"puzzle": [good] * 10, "notes": notes}))
    chunks, peak = _peak_reading(path)
    assert peak < 5_000_000 and sum(len(c) for c in chunks) == 10
    bomb = pa.DictionaryArray.from_arrays(pa.array([0] * 10, pa.int8()), pa.array(["n" * 10**7]))
    _write_ipc(path, pa.table({"puzzle": [good] * 10, "notes": bomb}))
    message, peak = _peak_refusing(path)
    assert peak < 5_000_000
    assert "dictionary 0 would decompress to 10,000,008 bytes for 1 rows" in message
    # dictionaries each within bounds, but held at once: 80 MB from a few kilobytes
    entries = pa.array(["0" * 10_000] * 2000)
    columns = {"puzzle": [good] * 10}
    for k in range(4):
        columns[f"d{k}"] = pa.DictionaryArray.from_arrays(pa.array([0] * 10, pa.int16()), entries)
    _write_ipc(path, pa.table(columns))
    assert path.stat().st_size < 100_000
    message, peak = _peak_refusing(path)
    assert peak < 5_000_000
    assert "the dictionaries would decompress" in message
    assert "to 80,032,016: past 67,108,864, more than 1,000 times as many" in message
    # an uncompressed file is read where it lies, however long its values
    _write_ipc(path, pa.table({"puzzle": [good, "0" * 10**6]}), compression=None)
    assert sudoku.solve(path).status_names().tolist() == ["UNIQUE", "INVALID"]


def _columns_of_every_layout():
    """Three rows of a column of each kind of Arrow layout (nested, views, unions)."""
    unions = [pa.array([1, 2, 3]), pa.array(["a", "b", "c"])]
    columns = {
        "null": pa.nulls(3),
        "bool": pa.array([True, None, False]),
        "decimal": pa.array([1, 2, 3], pa.decimal128(10, 2)),
        "fixed": pa.array([b"ab", b"cd", None], pa.binary(2)),
        "large": pa.array(["a", None, "c"], pa.large_string()),
        "list": pa.array([[1], None, [2, 3]], pa.large_list(pa.int64())),
        "fixed_list": pa.array([[1, 2], None, [2, 3]], pa.list_(pa.int16(), 2)),
        "struct": pa.array([{"a": 1, "b": "x"}, None, {"a": 2, "b": "yy"}]),
        "map": pa.array([[("k", 1)], None, []], pa.map_(pa.string(), pa.int32())),
        "dict": pa.array(["a", "b", "a"]).dictionary_encode(),
        "sparse": pa.UnionArray.from_sparse(pa.array([0, 1, 0], pa.int8()), unions),
        "dense": pa.UnionArray.from_dense(
            pa.array([0, 1, 0], pa.int8()), pa.array([0, 0, 1], pa.int32()), unions
        ),
    }
    if hasattr(pa, "string_view"):
        columns["view"] = pa.array(["a" * 20, None, "c" * 30], pa.string_view())
        columns["list_view"] = pa.array([[1], None, [2, 3]], pa.list_view(pa.int8()))
    if hasattr(pa, "RunEndEncodedArray"):
        runs = pa.array([2, 3], pa.int32())
        columns["runs"] = pa.RunEndEncodedArray.from_arrays(runs, pa.array(["x", "y"]))
    return columns


def test_the_puzzle_column_is_measured_after_columns_of_every_layout(tmp_path):
    # the buffers of the columns before it are counted as the writer lays them out: a
    # miscount would measure the wrong buffers and give another size, or none
    path = tmp_path / "p.arrows"
    for name, column in _columns_of_every_layout().items():
        table = pa.table({name: column, "puzzle": ["0" * 50_000] * 3})
        _write_ipc(path, table, stream=True)
        message, _ = _peak_refusing(path)
        assert "column puzzle would decompress to 150,016 bytes for 3 rows" in message, name


def _batch_body(path):
    """Where the first record batch's metadata and body start in the stream ``path``."""
    with pa.OSFile(str(path)) as source:
        reader = pa.ipc.MessageReader.open_stream(source)
        reader.read_next_message()  # the schema
        start = source.tell()
        message = reader.read_next_message()
    return start, start + len(message.serialize()) - message.body.size


def test_a_malformed_compressed_arrow_file_is_a_clear_error(tmp_path):
    path = tmp_path / "p.arrows"
    rows = 500
    _write_ipc(path, pa.table({"puzzle": ["1.....1..3.....4"] * rows}), stream=True)
    data = path.read_bytes()
    meta, body = _batch_body(path)
    # the offsets buffer comes first (no validity bitmap): it says its own length
    assert int.from_bytes(data[body : body + 8], "little") == 4 * (rows + 1)
    for prefix, want in (
        (2**40, "would decompress to 1,099,511,635,776 bytes for 500 rows"),
        (-5, "not a readable Arrow IPC file (buffer 1 says it decompresses to -5 bytes)"),
    ):
        patched = data[:body] + prefix.to_bytes(8, "little", signed=True) + data[body + 8 :]
        path.write_bytes(patched)
        with pytest.raises(ValueError, match=re.escape(want)):
            list(sudoku.iter_chunks(path))
    for at, value in ((meta + 8, 0x7FFFFFF0), (meta + 4, 0x7FFFFFF0)):
        path.write_bytes(data[:at] + value.to_bytes(4, "little") + data[at + 4 :])
        with pytest.raises(ValueError, match="not a readable Arrow IPC file"):
            list(sudoku.iter_chunks(path))
    path.write_bytes(data[: body + 40])  # cut inside the body
    with pytest.raises(ValueError, match="not a readable Arrow IPC file .*runs past"):
        list(sudoku.iter_chunks(path))
    arrow = tmp_path / "p.arrow"
    _write_ipc(arrow, pa.table({"puzzle": ["1.....1..3.....4"] * rows}))
    whole = arrow.read_bytes()
    arrow.write_bytes(whole[:-30])  # no footer
    with pytest.raises(ValueError, match="not a readable Arrow IPC file"):
        list(sudoku.iter_chunks(arrow))


def _read_damaged(path, rng, times, most_rows):
    """Damage one to three bytes of the file ``path`` holds, ``times`` times over (each
    time from the file as written): each damaged file reads to at most ``most_rows``
    rows or raises ValueError (ArrowInvalid is one, and so is every refusal), with Arrow
    holding under 5 MB at once."""
    data = np.frombuffer(path.read_bytes(), np.uint8)
    for _ in range(times):
        damaged = data.copy()
        at = rng.integers(0, len(data), size=rng.integers(1, 4))
        damaged[at] = rng.integers(0, 256, size=len(at))
        path.write_bytes(damaged.tobytes())
        pool = pa.proxy_memory_pool(pa.default_memory_pool())
        before = pa.default_memory_pool()
        pa.set_memory_pool(pool)
        try:
            rows = sum(len(c) for c in sudoku.iter_chunks(path))
        except ValueError:
            pass
        else:
            assert rows <= most_rows
        finally:
            pa.set_memory_pool(before)
        assert pool.max_memory() < 5_000_000


def test_random_damage_to_a_compressed_arrow_file_is_a_value_error_or_a_read(tmp_path):
    rng = np.random.default_rng(7)
    table = pa.table({"puzzle": ["1.....1..3.....4", None] * 50, "solution": ["1243"] * 100})
    for stream in (False, True):
        path = tmp_path / ("p.arrows" if stream else "p.arrow")
        _write_ipc(path, table, stream=stream, max_chunksize=40)
        _read_damaged(path, rng, 150, 10 * len(table))


def _understate(path, value):
    """Rewrite every footer varint of ``path`` that encodes ``value`` (a column chunk's
    size once decompressed, say) to say 100, in as many bytes: a footer that lies."""
    data = bytearray(path.read_bytes())
    length = int.from_bytes(data[-8:-4], "little")
    start, end = len(data) - 8 - length, len(data) - 8

    def varint(number, width=None):
        out = []
        while True:
            out.append(number & 0x7F)
            number >>= 7
            if not number and (width is None or len(out) >= width):
                break
        return bytes(b | 0x80 for b in out[:-1]) + bytes(out[-1:])

    said = varint(2 * value)  # zigzag
    at = data.find(said, start, end)
    assert at > 0
    while at > 0:
        data[at : at + len(said)] = varint(2 * 100, len(said))
        at = data.find(said, at + len(said), end)
    path.write_bytes(bytes(data))


def test_a_parquet_footer_that_understates_its_pages_is_not_believed(tmp_path, monkeypatch):
    from numbadlx.sudoku.formats import _parquet_bound

    path = tmp_path / "p.parquet"
    table = pa.table({"puzzle": ["1.....1..3.....4", "0" * 20_000_000]})
    pq.write_table(table, path, compression="zstd", use_dictionary=False)
    del table
    chunk = pq.ParquetFile(path).metadata.row_group(0).column(0)
    _understate(path, chunk.total_uncompressed_size)
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).total_uncompressed_size == 100
    assert path.stat().st_size < 50_000
    message, peak = _peak_refusing(path)
    assert peak < 5_000_000
    assert re.fullmatch(
        re.escape(f"{path}: row group 0, column puzzle, has pages that would decompress to ")
        + r"20,000,0\d\d bytes and 2 values for 2 rows, more than 10,000 a row: not a file "
        "of puzzles",
        message,
    ), message
    # a row count that lies too meets the bound on the ratio (past 1 MB here)
    data = path.read_bytes()

    def read(offset, size):
        return data[offset : offset + size]

    monkeypatch.setattr(_parquet_bound, "SMALL_CHUNK", 1 << 20)
    with pytest.raises(ValueError, match="past 1,048,576, more than 1,000 times as many"):
        _parquet_bound.check_pages(read, 4, chunk.total_compressed_size, 10**9, 10_000, "p")


def test_random_damage_to_a_parquet_file_is_a_value_error_or_a_read(tmp_path):
    # among these, a footer whose level histograms do not fit the schema: pyarrow's own
    # metadata objects stop the process on it (an uncaught C++ exception)
    rng = np.random.default_rng(2)
    table = pa.table({"puzzle": ["1.....1..3.....4", None] * 50, "solution": ["1243"] * 100})
    path = tmp_path / "p.parquet"
    for compression in ("zstd", "snappy"):
        pq.write_table(table, path, compression=compression, row_group_size=40)
        _read_damaged(path, rng, 250, len(table))


def _page_header(uncompressed, values, note=b""):
    """A Parquet data page header in Thrift's compact protocol, of no stored bytes,
    with a page statistic of ``note`` (a header as long as one likes)."""

    def varint(number):
        out = bytearray()
        while number > 0x7F:
            out.append(number & 0x7F | 0x80)
            number >>= 7
        return bytes(out) + bytes([number])

    statistics = b"\x18" + varint(len(note)) + note + b"\x00"  # field 1: binary
    data_page = b"\x15" + varint(2 * values) + b"\x4c" + statistics + b"\x00"
    return b"\x15\x00\x15" + varint(2 * uncompressed) + b"\x15\x00\x2c" + data_page + b"\x00"


def test_page_headers_long_short_and_nested_are_read_or_refused():
    from numbadlx.sudoku.formats._parquet_bound import MAX_HEADER, WINDOW, page_totals

    def reader(data):
        return lambda offset, size: data[offset : offset + size]

    small = _page_header(10, 3)
    long = _page_header(7, 2, b"x" * (3 * WINDOW))  # read again, longer
    data = small * 5000 + long + small
    assert page_totals(reader(data), 0, len(data)) == (10 * 5001 + 7, 3 * 5001 + 2, 5002)
    with pytest.raises(ValueError, match="runs past its chunk"):
        page_totals(reader(data[:-3]), 0, len(data))  # the file ends inside a header
    with pytest.raises(ValueError, match="runs past its chunk"):
        page_totals(reader(data), 0, len(data) - 3)  # so does the chunk
    huge = _page_header(1, 1, b"x" * MAX_HEADER)
    with pytest.raises(ValueError, match=f"longer than {MAX_HEADER:,} bytes"):
        page_totals(reader(huge), 0, len(huge))
    # more pages than the chunk's values allow: the walk stops there
    assert page_totals(reader(data), 0, len(data), most_pages=5002)[2] == 5002
    with pytest.raises(ValueError, match="more than 100 pages in a column chunk"):
        page_totals(reader(data), 0, len(data), most_pages=100)
    nested = b"\x1c" * 100_000  # structs in structs: refused, never a RecursionError
    with pytest.raises(ValueError, match="nested too deep"):
        page_totals(reader(nested), 0, len(nested))
    listed = b"\x19" * 100_000  # a field: a list of one list of one list ...
    with pytest.raises(ValueError, match="nested too deep"):
        page_totals(reader(listed), 0, len(listed))


def test_a_footer_field_nothing_reads_is_skipped_without_being_kept(tmp_path):
    import tracemalloc

    from numbadlx.sudoku.formats._parquet_bound import footer_chunks

    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"puzzle": ["1.....1..3.....4"] * 10}), path, row_group_size=4)
    data = path.read_bytes()
    length = int.from_bytes(data[-8:-4], "little")
    footer = data[-8 - length : -8]
    # a field 50 (long form) before the footer's end: a list of a million empty structs
    count = 1_000_000
    size = bytearray()
    rest = count
    while rest > 0x7F:
        size.append(rest & 0x7F | 0x80)
        rest >>= 7
    size.append(rest)
    padded = footer[:-1] + b"\x09\x64\xfc" + bytes(size) + b"\x00" * count + b"\x00"
    tracemalloc.start()
    try:
        got = footer_chunks(padded)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == footer_chunks(footer) and [rows for rows, _ in got] == [4, 4, 2]
    assert peak < 2_000_000  # about the footer's size, not a million decoded structs
