"""Writing an array of puzzles to a file (:func:`save_puzzles`), under the lock every
file job takes and with its rule on replacing a file that holds something."""

from __future__ import annotations

import io
import os
import sys

import numpy as np
from numpy.typing import ArrayLike

from .. import sudoku as _sudoku
from ._checkpoint import check_locked, open_locked


def save_puzzles(
    path: str | os.PathLike | None,
    puzzles: ArrayLike,
    *,
    csv: bool | None = None,
    overwrite: bool = False,
) -> None:
    """Write puzzles to ``path``: ``.npy`` (any case; not with ``csv=True``) as an
    array, CSV (``*.csv`` or ``csv=True``) with a ``puzzle`` column, else one line per
    puzzle. None or ``"-"``: standard output
    (lines or CSV). A file is locked while it is written, as the output of every file
    job is (ValueError if another job is writing it). A regular file that is not empty
    is replaced only with ``overwrite`` (else FileExistsError, checked under the lock,
    nothing written); a new or empty file and a device are written either way.

    Examples
    --------
    >>> save_puzzles(None, [[1, 0, 0, 0] * 4])
    1000100010001000
    """
    array = _sudoku.parse(puzzles) if not isinstance(puzzles, np.ndarray) else puzzles
    with _PuzzleOutput(path, csv, overwrite) as out:
        out.write(array)


def _puzzle_text(array, as_csv):
    lines = _sudoku.format_lines(array) if len(array) else []
    return ("puzzle\n" if as_csv else "") + "".join(line + "\n" for line in lines)


class _PuzzleOutput:
    """Where :func:`save_puzzles` writes: standard output, a device (written as it is),
    or a regular file, locked from opening to closing and emptied only when written
    (a new file that gets nothing is removed again)."""

    def __init__(self, path, csv, overwrite=False):
        self.overwrite = overwrite
        self.name = None if path is None or str(path) == "-" else os.fspath(path)
        self.npy = self.name is not None and self.name.lower().endswith(".npy")
        if self.npy and csv:
            raise ValueError(f"cannot write CSV to {self.name}: a .npy output is an array")
        self.csv = (
            csv if csv is not None else bool(self.name and self.name.lower().endswith(".csv"))
        )
        self.handle = None
        self.created = None
        self.written = False

    def __enter__(self):
        name = self.name
        if name is not None and (os.path.isfile(name) or not os.path.exists(name)):
            # the file made here, if any: where a dangling link leads (the link stays)
            self.created = None if os.path.exists(name) else os.path.realpath(name)
            handle = open_locked(name)
            check_locked(handle, name, overwrite=self.overwrite)  # closes it if refused
            self.handle = handle
        return self

    def write(self, array):
        if self.npy:
            array = np.ascontiguousarray(array, dtype=np.uint8)
            if self.handle is not None:
                self.handle.truncate(0)
                np.save(self.handle, array)
            else:  # a device or a pipe, which numpy cannot write as it is named
                # (it adds ".npy" to a name in other case) nor seek in
                buffer = io.BytesIO()
                np.save(buffer, array)
                with open(self.name, "wb") as device:
                    device.write(buffer.getvalue())
        elif self.name is None:
            sys.stdout.write(_puzzle_text(array, self.csv))
        elif self.handle is None:
            with open(self.name, "w", encoding="ascii") as device:
                device.write(_puzzle_text(array, self.csv))
        else:
            self.handle.truncate(0)
            self.handle.write(_puzzle_text(array, self.csv).encode("ascii"))
        self.written = True

    def __exit__(self, *exc):
        if self.handle is not None:
            self.handle.close()
            if self.created and not self.written:
                os.remove(self.created)
        return False
