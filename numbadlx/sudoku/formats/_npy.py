"""The ``.npy`` format: loading (memory-mapped when possible) and chunks of rows."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Sequence

import numpy as np

from ..shape import NO_BOXES, check_shape
from ._arrays import _array_matrix, _check_values
from ._reader import _NPY_MAGIC, PuzzleChunk, _Context
from .write import format_lines


def _load_npy(f, name: str, mmap: bool):
    """Load a ``.npy`` array; return it and the byte offset of its data."""
    path = getattr(f, "name", None)
    f.seek(0)
    if f.read(len(_NPY_MAGIC)) != _NPY_MAGIC:
        raise ValueError(
            f"{name}: not an .npy file (it does not begin with the .npy signature); "
            f"read it in its own format (lines, grid or csv), or name none to detect it"
        )
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
    matrix, n = _array_matrix(arr, ctx.n, ctx.name, prefer_batch=True, boxless=ctx.box is NO_BOXES)
    check_shape(n, ctx.box)
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


class _ArrayText(Sequence):
    """The ``raw`` text of puzzles given as an array, made only for the rows asked for
    (a result line of a bad row shows its values, of a good one the puzzle)."""

    def __init__(self, block: np.ndarray, values: np.ndarray, bad: np.ndarray):
        self._block, self._values, self._bad = block, values, bad

    def __len__(self) -> int:
        return int(self._values.shape[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if self._bad[index]:
            return " ".join(str(v) for v in self._block[index].tolist())
        return format_lines(self._values[index : index + 1])[0]


def _array_chunk(arr, n: int | None, box, name: str, column=None) -> PuzzleChunk:
    """An array source as one chunk: rows with a bad value flagged, not raised."""
    if column is not None:
        raise ValueError(f"{name}: column= is for CSV input, not for an array")
    arr = np.asarray(arr)
    try:
        matrix, n = _array_matrix(arr, n, name, prefer_batch=True, boxless=box is NO_BOXES)
    except ValueError as error:  # say which box set the size
        given = "" if box in (None, NO_BOXES) else f" (box {box[0]}x{box[1]} was given)"
        raise ValueError(f"{error}{given}") from None
    check_shape(n, box)
    values, bad, errors = _check_values(matrix, n, name, 0)
    count = values.shape[0]
    return PuzzleChunk(
        puzzles=np.ascontiguousarray(values),
        bad=bad,
        errors=errors,
        line_numbers=np.arange(1, count + 1, dtype=np.int64),
        end_byte=0,
        raw=_ArrayText(matrix, values, bad),
    )
