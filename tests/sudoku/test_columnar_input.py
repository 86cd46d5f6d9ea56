"""Parquet and Arrow IPC files, Arrow tables and Polars frames as puzzle input, and
SudokuResult.to_arrow: the same answers as the CSV they were made from, bad rows in
place, resumable row by row."""

import csv

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


@pytest.mark.xfail(
    strict=True,
    reason="an Arrow IPC file with compressed buffers is decompressed a whole record batch "
    "at a time before any value is measured",
)
def test_a_compressed_arrow_file_is_not_expanded(tmp_path):
    path = tmp_path / "p.arrow"
    table = pa.table({"puzzle": ["0" * 50_000] * 1000})
    options = pa.ipc.IpcWriteOptions(compression="zstd")
    with pa.ipc.new_file(path, table.schema, options=options) as writer:
        writer.write_table(table)
    del table
    assert path.stat().st_size < 100_000
    _, peak = _peak_reading(path)
    assert peak < 5_000_000
