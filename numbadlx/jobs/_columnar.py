"""Parquet and Arrow IPC outputs of a solve: each chunk one record batch, spooled with
the checkpoints of every file job, then written out as the file asked for.

A columnar file cannot be appended to line by line: its metadata (Parquet's footer, the
Arrow file's index) comes last and names every row group. So a solve into
``out.parquet`` (or ``out.arrow``) writes an Arrow IPC *stream* into ``out.parquet.part``
instead: the schema first (the job's header), then one record batch per chunk, each
committed, fsynced and checkpointed (``out.parquet.part.progress``) as a text output's
lines are, and resumed the same way (the stream's bytes are hashed and cut back like
any output's). When the run is complete the stream is read back a batch at a time and
written to ``out.parquet``, one row group per batch (or to the Arrow IPC file, one
record batch per batch), under the output's lock; then the spool is removed. Memory
stays within one batch.

The columns are those of the CSV output, typed: ``puzzle``, ``solution`` (null where
none was found), ``status``, ``count``, ``nodes``, ``guesses``, ``message`` (null where
there is none), and with every solution asked for, ``solutions``, a list of strings;
then the extra columns asked for (:mod:`numbadlx.jobs._extras`): ``canonical`` (a
string), ``candidates`` (a list of uint32 masks, one a cell) and ``backtracks`` (int64),
null where a row has no value.
"""

from __future__ import annotations

import os

from ..sudoku import format_lines
from ._checkpoint import check_locked, fsync_file, open_locked

__all__ = ["columnar_kind", "spool_path", "result_schema", "batch_bytes", "finish_output"]

_SUFFIXES = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "arrow",
    ".feather": "arrow",
    ".ipc": "arrow",
    ".arrows": "arrows",
}


def _pyarrow():
    from ..sudoku.formats import require_pyarrow

    return require_pyarrow("a Parquet or Arrow output")


def columnar_kind(output: str | None) -> str | None:
    """``"parquet"``, ``"arrow"`` (an Arrow IPC file) or ``"arrows"`` (an Arrow IPC
    stream) for an output named so (``.parquet``, ``.pq``; ``.arrow``, ``.feather``,
    ``.ipc``; ``.arrows``), else None.

    Examples
    --------
    >>> columnar_kind("out.parquet"), columnar_kind("out.csv")
    ('parquet', None)
    """
    if output is None:
        return None
    return _SUFFIXES.get(os.path.splitext(os.fspath(output))[1].lower())


def spool_path(output: str) -> str:
    """Where the record batches of ``output`` are spooled while the run goes on.

    Examples
    --------
    >>> spool_path("out.parquet")
    'out.parquet.part'
    """
    return os.fspath(output) + ".part"


def _extra_type(pa, name):
    return {
        "canonical": pa.string(),
        "candidates": pa.list_(pa.uint32()),
        "backtracks": pa.int64(),
    }[name]


def result_schema(all_solutions: int | None = None, extras: tuple = ()):
    """The Arrow schema of a solve's output rows (``extras``: the names of the extra
    columns)."""
    pa = _pyarrow()
    fields = [
        ("puzzle", pa.string()),
        ("solution", pa.string()),
        ("status", pa.string()),
        ("count", pa.int64()),
        ("nodes", pa.int64()),
        ("guesses", pa.int64()),
        ("message", pa.string()),
    ]
    if all_solutions:
        fields.append(("solutions", pa.list_(pa.string())))
    fields.extend((name, _extra_type(pa, name)) for name in extras)
    return pa.schema(fields)


def header_bytes(all_solutions: int | None = None, extras: tuple = ()) -> bytes:
    """The stream's first bytes: its schema message."""
    return result_schema(all_solutions, extras).serialize().to_pybytes()


def batch_bytes(chunk, result, grids=None, extras=None) -> bytes:
    """The record batch message of ``chunk`` solved as ``result`` (with ``grids``, the
    ``(grids, counts)`` of every solution asked for; with ``extras``, the pair of the
    extra columns' names and their values, as :func:`~._extras.extra_values` gives
    them)."""
    pa = _pyarrow()
    size = len(chunk)
    names = result.status_names().tolist()
    solved = (result.counts > 0).tolist()
    solutions = format_lines(result.solutions) if size else []
    reasons = dict(chunk.errors)
    puzzles = [str(chunk.raw[k]).strip() for k in range(size)]
    messages = [
        reasons.get(k, "givens clash") if names[k] == "INVALID" else result.messages.get(k)
        for k in range(size)
    ]
    guesses = result.guesses if result.guesses is not None else [0] * size
    columns = [
        pa.array(puzzles, pa.string()),
        pa.array([t if ok else None for t, ok in zip(solutions, solved)], pa.string()),
        pa.array(names, pa.string()),
        pa.array(result.counts, pa.int64()),
        pa.array(result.nodes, pa.int64()),
        pa.array(guesses, pa.int64()),
        pa.array(messages, pa.string()),
    ]
    if grids is not None:
        blocks, counts = grids
        every = [format_lines(blocks[k, : counts[k]]) if counts[k] else [] for k in range(size)]
        columns.append(pa.array(every, pa.list_(pa.string())))
    names = ()
    if extras is not None:
        names, values = extras
        for name in names:
            if name == "candidates":
                columns.append(_mask_lists(pa, values[name]))
            else:
                columns.append(pa.array(values[name], _extra_type(pa, name)))
    schema = result_schema(blocks.shape[1] if grids is not None else None, names)
    return pa.record_batch(columns, schema=schema).serialize().to_pybytes()


def _mask_lists(pa, column):
    """A list<uint32> array of ``column``'s masks (an array or None a row), built from
    one flat array."""
    import numpy as np

    width = next((len(v) for v in column if v is not None), 0)
    flat = np.zeros((len(column), width), dtype=np.uint32)
    present = np.zeros(len(column), dtype=bool)
    for k, value in enumerate(column):
        if value is not None:
            flat[k], present[k] = value, True
    offsets = pa.array(np.arange(len(column) + 1, dtype=np.int32) * width, pa.int32())
    values = pa.array(flat.ravel(), pa.uint32())
    return pa.ListArray.from_arrays(offsets, values, mask=pa.array(~present))


def finish_output(spool: str, output: str, kind: str, *, overwrite: bool = False) -> None:
    """Write the finished stream ``spool`` to ``output`` as a Parquet file (one row group
    per batch), an Arrow IPC file or an Arrow IPC stream, a batch at a time, under the
    output's lock; then remove the spool. An empty run (no batch) writes a file of the
    schema alone. An ``output`` that holds something once the lock is taken (one that
    appeared during the run) is replaced only with ``overwrite``; else FileExistsError,
    and the spool is kept."""
    pa = _pyarrow()
    import pyarrow.parquet as pq

    with pa.OSFile(spool, "rb") as source:
        reader = pa.ipc.open_stream(source)
        with open_locked(output) as handle:
            try:
                check_locked(handle, output, overwrite=overwrite)
            except FileExistsError as error:
                raise FileExistsError(f"{error} (the finished rows are kept in {spool})") from None
            handle.truncate(0)
            if kind == "parquet":
                writer = pq.ParquetWriter(handle, reader.schema)
            elif kind == "arrows":
                writer = pa.ipc.new_stream(handle, reader.schema)
            else:
                writer = pa.ipc.new_file(handle, reader.schema)
            with writer:
                for batch in reader:
                    if kind == "parquet":
                        writer.write_table(pa.Table.from_batches([batch]))
                    else:
                        writer.write_batch(batch)
            fsync_file(handle)
    os.remove(spool)
