"""Files of made and rated puzzles (what ``numbadlx generate`` and ``numbadlx rate`` do).

* :func:`save_puzzles` writes puzzles in the formats ``numbadlx solve`` reads: one
  line per puzzle (the default), CSV with a ``puzzle`` column (``*.csv``) or ``.npy``;
* :func:`rate_file` reads a puzzle file chunk by chunk (any format
  :func:`~numbadlx.sudoku.iter_chunks` reads) and writes a CSV line per puzzle:
  ``puzzle,tries,logic,hardest``.

Examples
--------
>>> import pathlib, tempfile
>>> from numbadlx import sudoku
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> save_puzzles(folder / "p.txt", sudoku.generate(2, 4, seed=0))
>>> summary = rate_file(folder / "p.txt", folder / "r.csv")
>>> summary.puzzles, (folder / "r.csv").read_text().splitlines()[0]
(2, 'puzzle,tries,logic,hardest')
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .formats import format_lines, iter_chunks, parse
from .making import rate
from .stream import check_output, csv_field, input_file

__all__ = ["save_puzzles", "rate_file", "RateSummary", "RATE_HEADER"]

#: The header of :func:`rate_file`'s CSV.
RATE_HEADER = "puzzle,tries,logic,hardest"


def save_puzzles(
    path: str | os.PathLike | None, puzzles: ArrayLike, *, csv: bool | None = None
) -> None:
    """Write puzzles to ``path``: ``.npy`` as an array, CSV (``*.csv`` or ``csv=True``)
    with a ``puzzle`` column, else one line per puzzle. None or ``"-"``: standard output
    (lines or CSV).

    Examples
    --------
    >>> save_puzzles(None, [[1, 0, 0, 0] * 4])
    1000100010001000
    """
    array = parse(puzzles) if not isinstance(puzzles, np.ndarray) else puzzles
    name = None if path is None or str(path) == "-" else os.fspath(path)
    if name is not None and name.lower().endswith(".npy"):
        np.save(name, np.ascontiguousarray(array, dtype=np.uint8))
        return
    as_csv = csv if csv is not None else bool(name and name.lower().endswith(".csv"))
    lines = format_lines(array) if len(array) else []
    text = ("puzzle\n" if as_csv else "") + "".join(line + "\n" for line in lines)
    if name is None:
        sys.stdout.write(text)
    else:
        with open(name, "w", encoding="ascii") as handle:
            handle.write(text)


@dataclass
class RateSummary:
    """What :func:`rate_file` did: puzzles rated (unreadable ones included), the
    unreadable ones, and the seconds spent."""

    puzzles: int
    unreadable: int
    seconds: float


def rate_file(
    input: str | os.PathLike,
    output: str | os.PathLike | None = None,
    *,
    isomorphs: int = 8,
    seed: int = 0,
    logic: bool = True,
    box: tuple[int, int] | None = None,
    format: str | None = None,
    chunk_size: int = 16384,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RateSummary:
    """Rate every puzzle of a file (:func:`numbadlx.sudoku.rate`) into a CSV:
    ``puzzle,tries,logic,hardest``, one line per puzzle in input order. An unreadable
    puzzle keeps its text and gets empty ratings and ``hardest`` = the reason.

    Puzzle ``k`` of the file (from 0) draws its isomorphs from ``(seed, k)``, so the
    ratings do not depend on ``chunk_size`` or ``threads``. ``progress(end_byte,
    puzzles)`` is called after each chunk, as by the solve command.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "p.txt"
    >>> _ = path.write_text("0200004034000000\\n")
    >>> _ = rate_file(path)
    puzzle,tries,logic,hardest
    0200004034000000,0,1.2,hidden single (box)
    """
    start = time.perf_counter()
    input = input_file(input)
    out = sys.stdout if output is None or str(output) == "-" else None
    if out is None:
        check_output(input, os.fspath(output))  # never over the input, never .npy
    handle = out or open(output, "w", encoding="utf-8")
    done = 0
    unreadable = 0
    try:
        handle.write(RATE_HEADER + "\n")
        for chunk in iter_chunks(input, chunk_size=chunk_size, box=box, format=format):
            ratings = rate(
                chunk.puzzles,
                isomorphs=isomorphs,
                seed=seed,
                logic=logic,
                box=box,
                threads=threads,
                first_index=done,
            )
            reasons = dict(chunk.errors)
            names = ratings.hardest_names()
            rows = []
            for k, text in enumerate(chunk.raw):
                field = text.replace("\n", " ")
                if chunk.bad[k]:
                    rows.append(f"{csv_field(field)},,,{csv_field(reasons.get(k, 'unreadable'))}")
                    continue
                tries = _number(ratings.tries[k])
                value = _number(ratings.logic[k]) if logic else ""
                hardest = names[k] if logic and np.isfinite(ratings.logic[k]) else ""
                if not np.isfinite(ratings.tries[k]):
                    hardest = "invalid or no solution"
                rows.append(f"{csv_field(field)},{tries},{value},{csv_field(hardest)}")
            handle.write("".join(row + "\n" for row in rows))
            handle.flush()
            done += len(chunk.raw)
            unreadable += int(np.count_nonzero(chunk.bad))
            if progress is not None:
                progress(chunk.end_byte, done)
    finally:
        if out is None:
            handle.close()
    return RateSummary(done, unreadable, time.perf_counter() - start)


def _number(value):
    if not np.isfinite(value):
        return ""
    return f"{value:.4f}".rstrip("0").rstrip(".")
