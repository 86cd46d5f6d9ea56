"""What each file job computes on a chunk of puzzles, written once for every executor.

A job is a small picklable object (it travels to Dask workers) with the options that
shape its output; its ``run_chunk(chunk, first_index)`` turns a
:class:`~numbadlx.sudoku.PuzzleChunk` into ``(bytes to write, tally, seconds)``. A job
that reads no input (:class:`GenerateJob`) has ``run_block(begin, end)`` instead, for a
block of puzzle indices. Jobs call the Sudoku layer through its public names only.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from .. import sudoku as _sudoku
from ..core.validate import check_integer, is_integer
from ..sudoku.variants import KillerRows
from ._columnar import batch_bytes, header_bytes
from ._extras import csv_cells, extra_names, extra_values
from ._lines import (
    CSV_HEADER,
    RATE_HEADER,
    TALLY_SIZE,
    count_statuses,
    rate_text,
    result_lines,
    result_text,
    solutions_header,
    solutions_text,
)
from ._steps import (
    ratings_batch,
    ratings_schema,
    step_columns,
    steps_batch,
    steps_header,
    steps_schema,
    steps_text,
)


def output_options(
    *,
    limit,
    max_nodes=None,
    csv=False,
    box=None,
    format=None,
    timeout=None,
    grid=False,
    column=None,
    engine="auto",
    all_solutions=None,
    columnar=None,
    extras=(),
    candidates=None,
):
    """What shapes the output lines of a solve, as a checkpoint records it: a resumed run
    must use the same (``box`` is ``(rows, cols)`` or None; ``timeout`` is recorded
    because budgeted and unbudgeted results must not be mixed, ``engine`` because the
    node counts of CSV rows depend on it)."""
    return {
        "limit": int(limit),
        "max_nodes": None if max_nodes is None else int(max_nodes),
        "csv": bool(csv),
        "box": None if box is None else f"{box[0]}x{box[1]}",
        "format": format,
        "timeout": None if timeout is None else float(timeout),
        # recorded only when used, so that older checkpoints still match
        **({"grid": True} if grid else {}),
        **({"column": column} if column is not None else {}),
        **({"engine": engine} if engine != "auto" else {}),
        **({"all_solutions": int(all_solutions)} if all_solutions else {}),
        **({"columnar": columnar} if columnar else {}),
        **({"extras": list(extras)} if extras else {}),
        **({"candidates": candidates} if candidates else {}),
    }


@dataclass(frozen=True)
class SolveJob:
    """Solve each puzzle (:func:`numbadlx.sudoku.solve`) and write its result line
    (:func:`~numbadlx.jobs.result_lines`); with ``all_solutions`` K, up to K solutions
    of each (:func:`numbadlx.sudoku.solutions`) as :func:`~numbadlx.jobs.solutions_text`
    writes them; with ``columnar`` ("parquet" or "arrow"), a record batch per chunk
    (:mod:`numbadlx.jobs._columnar`). ``canonical``, ``candidates`` (a logic level of
    :func:`numbadlx.sudoku.candidates`) and ``backtracks`` add those columns to CSV and
    columnar rows (:mod:`numbadlx.jobs._extras`)."""

    limit: int = 2
    max_nodes: int | None = None
    box: tuple[int, int] | None = None
    format: str | None = None
    column: str | int | None = None
    timeout: float | None = None
    engine: str = "auto"
    csv: bool = False
    grid: bool = False
    threads: int | None = None
    all_solutions: int | None = None
    columnar: str | None = None
    canonical: bool = False
    candidates: str | None = None
    backtracks: bool = False

    numbered = False  # the lines do not depend on where a puzzle is in the file

    @property
    def options(self):
        return output_options(
            limit=self.limit,
            max_nodes=self.max_nodes,
            csv=self.csv,
            box=self.box,
            format=self.format,
            timeout=self.timeout,
            grid=self.grid,
            column=self.column,
            engine=self.engine,
            all_solutions=self.all_solutions,
            columnar=self.columnar,
            extras=self.extras,
            candidates=self.candidates,
        )

    @property
    def extras(self):
        """The names of the extra columns asked for, in their order."""
        return extra_names(self.canonical, self.candidates, self.backtracks)

    @property
    def header(self):
        if self.columnar:
            return header_bytes(self.all_solutions, self.extras)
        if not self.csv:
            return None
        if self.all_solutions:
            return (solutions_header(self.all_solutions) + "\n").encode()
        return (",".join((CSV_HEADER,) + self.extras) + "\n").encode()

    def warm(self, n, puzzles=None, rules=None):
        """Compile or load the kernels a chunk of ``puzzles`` puzzles of this size needs
        (one per engine, whatever the threads); ``rules``: the chunk's rules, one per
        row (a killer CSV, an f-puzzles file), whose engines are warmed instead of the
        classic one."""
        if rules is None:
            engine = _sudoku.pick_engine(self.engine, n, self.box)
            _sudoku.warm_up((engine,), puzzles=puzzles, threads=self.threads)
            return
        # an empty grid under the first rule set of each engine the rows take, a node
        # of search: its tables and kernel compile or load here
        if isinstance(rules, KillerRows):
            # killer rows run together, each under its own table: a few of them warm that
            caged = np.flatnonzero(rules.valid)[:17]
            if caged.size:
                _sudoku.solve(
                    np.zeros((caged.size, n * n), dtype=np.uint8),
                    rules=rules.take(caged),
                    engine=self.engine,
                    box=self.box,
                    limit=1,
                    max_nodes=1,
                    threads=self.threads,
                )
            if caged.size == len(rules):
                return
            rules = [_sudoku.Rules()]  # the rows without cages: classic
        sizes = Counter(rules)
        first = {}
        for item in sizes:
            name = _sudoku.pick_engine(self.engine, n, self.box, rules=item)
            first.setdefault(name, item)
        rows = min(max(sizes.values()), 17)
        for item in first.values():
            _sudoku.solve(
                np.zeros((rows, n * n), dtype=np.uint8),
                rules=item,
                engine=self.engine,
                box=self.box,
                limit=1,
                max_nodes=1,
                threads=self.threads,
            )

    def run_chunk(self, chunk, first_index=0):
        """``chunk`` solved and written: ``(bytes to write, tally, seconds)``."""
        return self.write_chunk(chunk, self.solve_chunk(chunk, first_index))

    def solve_chunk(self, chunk, first_index=0):
        """``chunk`` solved: its :class:`~numbadlx.sudoku.SudokuResult` (the part of
        :meth:`run_chunk` that runs in the kernels, which release the GIL); with
        ``all_solutions``, what :func:`numbadlx.sudoku.solutions` returns; with extra
        columns, the pair of that and their ``(values, notes, seconds)``."""
        if self.extras:
            result = replace(self, canonical=False, candidates=None, backtracks=False)
            result = result.solve_chunk(chunk, first_index)
            started = time.perf_counter()
            values, notes = extra_values(
                chunk,
                result,
                self.extras,
                candidates=self.candidates,
                box=self.box,
                threads=self.threads,
            )
            return result, (values, notes, time.perf_counter() - started)
        if self.all_solutions:
            return _sudoku.solutions(
                chunk,
                self.all_solutions,
                threads=self.threads,
                max_nodes=self.max_nodes,
                box=self.box,
                engine=self.engine,
            )
        return _sudoku.solve(
            chunk,  # with its unreadable rows and any solution column to check
            limit=self.limit,
            threads=self.threads,
            max_nodes=self.max_nodes,
            box=self.box,
            invalid=chunk.bad,
            timeout=self.timeout,
            engine=self.engine,
        )

    def write_chunk(self, chunk, result):
        """The lines of ``chunk`` solved as ``result``: ``(bytes to write, tally,
        seconds)``."""
        if self.extras:
            result, (values, notes, spent) = result
            if notes:  # a column's reason on a row that keeps its status
                result = replace(result, messages={**result.messages, **notes})
            if self.columnar:
                data = batch_bytes(chunk, result, None, (self.extras, values))
            else:
                lines = result_lines(chunk, result, True)
                cells = csv_cells(values, self.extras, len(chunk))
                text = "".join(line + extra + "\n" for line, extra in zip(lines, cells))
                data = text.encode("utf-8", "replace")
            return data, count_statuses(result.status), result.seconds + spent
        if self.columnar:
            found = result.result if self.all_solutions else result
            grids = tuple(result) if self.all_solutions else None
            data = batch_bytes(chunk, found, grids)
            return data, count_statuses(found.status), found.seconds
        if self.all_solutions:
            text = solutions_text(chunk, result, self.csv)
            return text, count_statuses(result.status), result.result.seconds
        text = result_text(chunk, result, self.csv, self.grid)
        return text, count_statuses(result.status), result.seconds


@dataclass(frozen=True)
class RateJob:
    """Rate each puzzle (:func:`numbadlx.sudoku.rate`) into a CSV row
    (:func:`~numbadlx.jobs.rate_text`). Puzzle ``k`` of the file draws its isomorphs
    from ``(seed, k)``, so the job is numbered: every unit is told the index of its
    first puzzle. Its tally counts the unreadable puzzles, as INVALID. With ``steps``,
    it writes the trace of every puzzle instead (:mod:`numbadlx.jobs._steps`, with the
    candidate masks before each step when ``masks``); with ``columnar`` ("parquet",
    "arrow"), record batches instead of CSV."""

    isomorphs: int = 8
    seed: int = 0
    logic: bool = True
    box: tuple[int, int] | None = None
    format: str | None = None
    column: str | int | None = None
    threads: int | None = None
    steps: bool = False
    masks: bool = False
    columnar: str | None = None

    numbered = True

    @property
    def options(self):
        return {
            "job": "rate",
            "isomorphs": int(self.isomorphs),
            "seed": int(self.seed),
            "logic": bool(self.logic),
            "box": None if self.box is None else f"{self.box[0]}x{self.box[1]}",
            "format": self.format,
            **({"column": self.column} if self.column is not None else {}),
            **({"steps": True} if self.steps else {}),
            **({"masks": True} if self.masks else {}),
            **({"columnar": self.columnar} if self.columnar else {}),
        }

    @property
    def header(self):
        if self.columnar:
            schema = steps_schema(self.masks) if self.steps else ratings_schema()
            return schema.serialize().to_pybytes()
        if self.steps:
            return (steps_header(self.masks) + "\n").encode()
        return (RATE_HEADER + "\n").encode()

    def warm(self, n, puzzles=None, rules=None):
        """Nothing to do: the rater compiles on its first call."""

    def run_chunk(self, chunk, first_index=0):
        """``chunk`` rated and written: ``(bytes to write, tally, seconds)``."""
        return self.write_chunk(chunk, self.solve_chunk(chunk, first_index))

    def solve_chunk(self, chunk, first_index=0):
        """``chunk`` rated: its :class:`~numbadlx.sudoku.Ratings` and ``first_index``
        (the part of :meth:`run_chunk` that runs in the kernels)."""
        chunk.variant_rows("the rater rates")
        return _sudoku.rate(
            chunk.puzzles,
            isomorphs=self.isomorphs,
            seed=self.seed,
            logic=self.logic,
            box=self.box,
            threads=self.threads,
            first_index=first_index,
            steps=self.steps,
        ), first_index

    def write_chunk(self, chunk, rated):
        """The rows of ``chunk`` rated as ``rated`` (what :meth:`solve_chunk` gave):
        ``(bytes to write, tally, seconds)``."""
        ratings, first_index = rated
        tally = np.zeros(TALLY_SIZE, dtype=np.int64)
        tally[int(_sudoku.Status.INVALID)] = int(np.count_nonzero(chunk.bad))
        if self.steps:
            started = time.perf_counter()
            columns = step_columns(chunk, ratings, first_index, self.masks)
            if self.columnar:
                data = steps_batch(columns, self.masks)
            else:
                data = steps_text(columns)
            spent = time.perf_counter() - started if self.masks else 0.0  # the replay
            return data, tally, float(ratings.seconds) + spent
        if self.columnar:
            data = ratings_batch(chunk, ratings, self.logic)
        else:
            data = rate_text(chunk, ratings, self.logic)
        return data, tally, float(ratings.seconds)


def _pair(bounds, kind):
    return None if bounds is None else [kind(bounds[0]), kind(bounds[1])]


@dataclass(frozen=True)
class GenerateJob:
    """Make ``count`` puzzles (:func:`numbadlx.sudoku.generate`) into a file, a block of
    puzzle indices at a time: puzzle ``k`` depends on ``(seed, k)`` only, so the blocks
    join into the output of one call, whatever their size or the executor. It reads no
    input; its options (all that shapes the output, ``seed`` included) are its
    fingerprint in the checkpoint.

    ``output_format`` is ``"lines"`` (one puzzle a line), ``"csv"`` (a ``puzzle``
    column) or ``"npy"`` (the ``.npy`` header of the whole ``(count, size*size)`` array
    first, then each block's rows: the finished file is what :func:`numpy.save` writes).
    ``seed`` None is settled before the run (:meth:`settle`): the seed a checkpoint
    recorded when resuming, else a fresh one.
    """

    count: int
    size: int = 9
    box: tuple[int, int] | None = None
    minimal: bool | str = True
    symmetry: str | None = None
    clues: tuple[int, int] | None = None
    rating: tuple[float, float] | None = None
    seed: int | None = None
    attempts: int = 1000
    output_format: str = "lines"
    threads: int | None = None

    numbered = True

    @property
    def options(self):
        return {
            "job": "generate",
            "count": int(self.count),
            "size": int(self.size),
            "box": None if self.box is None else f"{self.box[0]}x{self.box[1]}",
            "minimal": self.minimal,
            "symmetry": self.symmetry,
            "clues": _pair(self.clues, int),
            "rating": _pair(self.rating, float),
            "seed": None if self.seed is None else int(self.seed),
            "attempts": int(self.attempts),
            "output": self.output_format,
        }

    @property
    def header(self):
        if self.output_format == "csv":
            return b"puzzle\n"
        if self.output_format == "npy":
            import io

            shape = (int(self.count), int(self.size) ** 2)
            header = {"descr": "|u1", "fortran_order": False, "shape": shape}
            buffer = io.BytesIO()
            np.lib.format.write_array_header_1_0(buffer, header)
            return buffer.getvalue()
        return None

    def settle(self, saved_options=None):
        """This job with its seed settled: kept when given, else the one of
        ``saved_options`` (a checkpoint's, when resuming a generate run), else fresh."""
        if self.seed is not None:
            return self
        if saved_options and saved_options.get("job") == "generate":
            seed = saved_options.get("seed")
            if is_integer(seed):
                return replace(self, seed=seed)
        return replace(self, seed=int(np.random.default_rng().integers(2**63)))

    def check(self):
        """Validate every option (ValueError, TypeError) before the output is opened:
        a call that makes no puzzle checks them all."""
        if self.output_format not in ("lines", "csv", "npy"):
            raise ValueError(f"output_format must be lines, csv or npy, not {self.output_format!r}")
        check_integer(self.count, "count")
        if self.count < 0:
            raise ValueError(f"count must be at least 0, got {self.count}")
        self._make(0, 0 if self.seed is None else self.seed, 0)

    def _make(self, count, seed, first_index):
        return _sudoku.generate(
            count,
            self.size,
            self.box,
            minimal=self.minimal,
            symmetry=self.symmetry,
            clues=self.clues,
            rating=self.rating,
            seed=seed,
            threads=self.threads,
            attempts=self.attempts,
            first_index=first_index,
        )

    def run_block(self, begin, end):
        """Puzzles ``begin`` to ``end - 1``: ``(bytes to write, tally, seconds)``."""
        started = time.perf_counter()
        puzzles = self._make(end - begin, self.seed, begin)
        if self.output_format == "npy":
            data = np.ascontiguousarray(puzzles, dtype=np.uint8).tobytes()
        else:
            data = "".join(line + "\n" for line in _sudoku.format_lines(puzzles)).encode("ascii")
        tally = np.zeros(TALLY_SIZE, dtype=np.int64)
        return data, tally, time.perf_counter() - started
