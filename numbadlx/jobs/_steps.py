"""The rows of a rate job written as a trace (``numbadlx rate --steps``), and a rate
job's rows as Arrow record batches (Parquet and Arrow outputs).

A trace has a row per step of the rater's logic ladder (:meth:`numbadlx.sudoku.Ratings.steps`):
``puzzle`` (the puzzle's row in the input, from 0), ``step`` (from 0), ``technique``,
``rating``, ``row`` and ``column`` (from 0), ``digit``, ``removed`` (0 for a placement,
else the candidates the step removed; the cell and digit are then those of the first
removal), ``status`` and ``message``, and with masks the candidate masks before the step
(``masks``: in CSV the numbers separated by spaces, one a cell). A puzzle that has no
step (unreadable, clashing givens, several solutions or none; a full grid) still has one
row, its step fields empty, with its status and the reason as its message: nothing is
dropped.
"""

from __future__ import annotations

import numpy as np

from ._lines import csv_field, rate_columns

#: The columns of a trace, in order (``masks`` last, when asked for).
STEP_COLUMNS = (
    "puzzle", "step", "technique", "rating", "row", "column", "digit", "removed",
    "status", "message",
)  # fmt: skip
_NUMBERS = ("step", "row", "column", "digit", "removed")
_REASONS = {
    "MULTIPLE": "multiple solutions",
    "NO_SOLUTION": "no solution",
    "INVALID": "givens clash",
}


def steps_header(masks: bool = False) -> str:
    """The first line of a trace's CSV.

    Examples
    --------
    >>> steps_header()
    'puzzle,step,technique,rating,row,column,digit,removed,status,message'
    """
    return ",".join(STEP_COLUMNS + (("masks",) if masks else ()))


def step_columns(chunk, ratings, first_index=0, masks=False):
    """The trace of ``chunk`` rated as ``ratings`` (with ``steps=True``): a dict of
    columns, one row a step and one for each puzzle without a step (its step fields
    None), puzzle by puzzle in input order; ``puzzle`` counts from ``first_index``."""
    trace = ratings.steps(masks=masks)
    size = len(chunk)
    counts = np.bincount(np.asarray(trace["puzzle"], dtype=np.intp), minlength=size)[:size]
    names = ratings.status_names()
    reasons = dict(chunk.errors)
    status, message = [], []
    for k in range(size):
        if chunk.bad[k]:
            status.append("INVALID")
            message.append(reasons.get(k, "unreadable").replace("\n", " "))
        else:
            status.append(str(names[k]))
            message.append(_REASONS.get(status[-1]) if not counts[k] else None)
    rows = np.maximum(counts, 1)  # a row at least for every puzzle
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])) if size else counts
    out = {
        "puzzle": np.repeat(np.arange(first_index, first_index + size), rows).tolist(),
        "status": np.repeat(np.array(status, dtype=object), rows).tolist(),
        "message": np.repeat(np.array(message, dtype=object), rows).tolist(),
    }
    # where each output row takes its step from (-1: the row of a puzzle without steps)
    source = np.full(int(rows.sum()), -1, dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(rows)[:-1])) if size else rows
    for k in np.flatnonzero(counts).tolist():
        source[offsets[k] : offsets[k] + counts[k]] = np.arange(starts[k], starts[k] + counts[k])
    empty = source < 0
    for name in ("technique", "rating") + _NUMBERS:
        column = np.asarray(trace[name])
        values = column[np.maximum(source, 0)].tolist() if len(column) else [None] * len(source)
        out[name] = [None if gap else v for v, gap in zip(values, empty.tolist())]
    if masks:
        grid = np.asarray(trace["masks"]).astype(np.uint32)
        out["masks"] = [None if s < 0 else grid[s] for s in source.tolist()]
    return {name: out[name] for name in STEP_COLUMNS + (("masks",) if masks else ())}


def steps_text(columns) -> bytes:
    """The CSV rows of a trace (:func:`step_columns`), each ended by ``\\n``."""
    names = list(columns)
    rows = []
    for values in zip(*(columns[name] for name in names)):
        fields = []
        for name, value in zip(names, values):
            if value is None:
                fields.append("")
            elif name == "masks":
                fields.append(" ".join(map(str, value.tolist())))
            elif name == "rating":
                fields.append(f"{value:g}")
            else:
                fields.append(csv_field(str(value)))
        rows.append(",".join(fields))
    return "".join(row + "\n" for row in rows).encode("utf-8", "replace")


def _pyarrow():
    from ..sudoku.formats import require_pyarrow

    return require_pyarrow("a Parquet or Arrow output")


def steps_schema(masks: bool = False):
    """The Arrow schema of a trace."""
    pa = _pyarrow()
    fields = [
        ("puzzle", pa.int64()),
        ("step", pa.int32()),
        ("technique", pa.string()),
        ("rating", pa.float64()),
        ("row", pa.int32()),
        ("column", pa.int32()),
        ("digit", pa.int32()),
        ("removed", pa.int32()),
        ("status", pa.string()),
        ("message", pa.string()),
    ]
    if masks:
        fields.append(("masks", pa.list_(pa.uint32())))
    return pa.schema(fields)


def steps_batch(columns, masks: bool = False) -> bytes:
    """The record batch message of a trace (:func:`step_columns`)."""
    pa = _pyarrow()
    schema = steps_schema(masks)
    arrays = []
    for field in schema:
        values = columns[field.name]
        if field.name == "masks":
            values = [None if v is None else v.tolist() for v in values]
        arrays.append(pa.array(values, field.type))
    return pa.record_batch(arrays, schema=schema).serialize().to_pybytes()


def ratings_schema():
    """The Arrow schema of a rate job's rows: the columns of its CSV, typed."""
    pa = _pyarrow()
    return pa.schema(
        [
            ("puzzle", pa.string()),
            ("tries", pa.float64()),
            ("logic", pa.float64()),
            ("hardest", pa.string()),
        ]
    )


def ratings_batch(chunk, ratings, logic=True) -> bytes:
    """The record batch message of ``chunk`` rated as ``ratings``: the columns of
    :func:`~numbadlx.jobs.rate_text`, an empty rating a null."""
    pa = _pyarrow()
    puzzles, tries, values, hardest = rate_columns(chunk, ratings, logic)
    arrays = [
        pa.array(puzzles, pa.string()),
        pa.array(tries, pa.float64(), from_pandas=True),
        pa.array(values, pa.float64(), from_pandas=True),
        pa.array([h or None for h in hardest], pa.string()),
    ]
    return pa.record_batch(arrays, schema=ratings_schema()).serialize().to_pybytes()
