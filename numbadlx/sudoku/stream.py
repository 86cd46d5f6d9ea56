"""Chunked file solving with checkpoints: used by the command line and by Dask alike.

A puzzle file is read, solved and written a chunk at a time (bounded memory). Each
chunk's result lines go to the output in one *commit*: written, flushed and fsynced,
then a small checkpoint file (``OUTPUT.progress``) is replaced atomically to record how
far the input was read and how long the output is. So an interrupted run loses nothing:

* Ctrl-C (KeyboardInterrupt) cuts the output back to the last commit (whole lines for
  a prefix of the input); a Ctrl-C arriving during a commit is held until the commit is
  complete, so the output and the checkpoint always agree;
* a kill or a crash leaves the committed prefix plus perhaps part of one chunk, which
  ``resume=True`` cuts off before carrying on; the final output is byte for byte the
  one of an uninterrupted run;
* the checkpoint also records the input (path, size, mtime and a SHA-256 of the bytes
  already solved) and the options that shape the output, and resuming refuses a
  checkpoint of another or a changed input, or of other options; the output is locked
  while a run writes it.

The pieces, each in one copy:

* :func:`result_lines` / :func:`result_text`: one output line per puzzle (text or CSV,
  :data:`CSV_HEADER`), :func:`count_statuses` their tally;
* :class:`Checkpoint`, :func:`write_checkpoint`, :func:`fsync_file`: the record;
* :class:`CheckpointedOutput`: an output file with commits, resume and clean-up;
  :func:`open_output` opens it for a file solve (input check, CSV or text, options);
* :func:`solve_file`: the local solve loop (``numbadlx solve``), returning a
  :class:`FileSummary`. :func:`numbadlx.dask.solve_file` runs the same commits with
  the chunks solved as Dask tasks, so a run of either kind resumes with the other.

Examples
--------
>>> import os, tempfile
>>> from numbadlx.sudoku import stream
>>> folder = tempfile.mkdtemp()
>>> source = os.path.join(folder, "in.txt")
>>> with open(source, "w") as f:
...     _ = f.write("0200004034000000\\n1100000000000000\\n")
>>> summary = stream.solve_file(source, os.path.join(folder, "out.txt"))
>>> summary.puzzles, summary.tally
(2, {'UNIQUE': 1, 'INVALID': 1})
>>> print(open(os.path.join(folder, "out.txt")).read(), end="")
4213134234212134
1100000000000000  # INVALID: givens clash
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import csv as _csv
import hashlib
import io
import json
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

try:  # POSIX: an output file is locked while a run writes it
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

from .bulk import Status, SudokuResult, pick_engine, solve, warm_up
from .formats import PuzzleChunk, format_grid_rows, format_lines, iter_chunks

__all__ = [
    "CSV_HEADER",
    "result_lines",
    "result_text",
    "count_statuses",
    "Checkpoint",
    "checkpoint_path",
    "write_checkpoint",
    "fsync_file",
    "output_options",
    "CheckpointedOutput",
    "input_file",
    "check_output",
    "csv_field",
    "open_output",
    "FileSummary",
    "solve_file",
]

#: First line of a CSV output.
CSV_HEADER = "puzzle,solution,status,count,nodes"

_TALLY_SIZE = max(Status) + 1
_NAMES = [""] * _TALLY_SIZE
for _status in Status:
    _NAMES[_status] = _status.name
_UNIQUE, _SOLVED, _MULTIPLE = int(Status.UNIQUE), int(Status.SOLVED), int(Status.MULTIPLE)
_INVALID, _BUDGET = int(Status.INVALID), int(Status.BUDGET)


# --------------------------------------------------------------------------- result lines

# Characters that end a line for str.splitlines() or a CSV reader: never inside one
# output line (a grid puzzle's rows are joined with "/").
_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

# An unreadable line longer than this is echoed cut short (CSV readers refuse fields
# over 128 KiB; any real puzzle line is far shorter).
_ECHO_LIMIT = 10_000


def _one_line(raw, invalid=False):
    if invalid and len(raw) > _ECHO_LIMIT:
        raw = f"{raw[:80]}... ({len(raw)} characters)"
    raw = raw.strip().replace("\n", "/")
    if _LINE_BREAKS.search(raw):
        raw = _LINE_BREAKS.sub(lambda m: ascii(m.group())[1:-1], raw)
    return raw


def csv_field(text: str) -> str:
    """``text`` as one CSV field (quoted when it holds a comma or a quote)."""
    if "," not in text and '"' not in text:
        return text
    buffer = io.StringIO()
    _csv.writer(buffer, lineterminator="").writerow([text])
    return buffer.getvalue()


def result_lines(
    chunk: PuzzleChunk, result: SudokuResult, csv: bool = False, grid: bool = False
) -> list[str]:
    """One output line per puzzle of ``chunk`` (a :class:`~numbadlx.sudoku.PuzzleChunk`)
    solved as ``result`` (a :class:`~numbadlx.sudoku.SudokuResult`), in order.

    Text: the solution for UNIQUE and SOLVED; else the solution found or the puzzle
    itself, then ``  # STATUS`` (MULTIPLE, NO_SOLUTION, INVALID with the reason,
    BUDGET); a note of ``result.messages`` on a solved row (a wrong solution column)
    follows as ``  # STATUS; note``. CSV: ``puzzle,solution,status,count,nodes`` rows
    (no header: see :data:`CSV_HEADER`). No line holds a line break, except with ``grid``: then each
    puzzle is a block of ``n`` lines of space-separated values
    (:func:`~numbadlx.sudoku.format_grid_rows`, the shape of contest files), the text
    line's ``# STATUS`` note on a line of its own after it, and an empty line after
    the block.
    """
    solutions = format_lines(result.solutions)
    lines = []
    messages = dict(chunk.errors)
    for k in range(len(chunk)):
        status = int(result.status[k])
        raw = _one_line(chunk.raw[k], invalid=status == _INVALID)
        if csv:
            solution = csv_field(solutions[k]) if result.counts[k] else ""
            lines.append(
                f"{csv_field(raw)},{solution},{_NAMES[status]},{result.counts[k]},{result.nodes[k]}"
            )
        elif status in (_UNIQUE, _SOLVED):
            lines.append(solutions[k])
        elif status == _MULTIPLE:
            lines.append(f"{solutions[k]}  # MULTIPLE (first of at least {result.counts[k]})")
        elif status == _INVALID:
            lines.append(f"{raw}  # INVALID: {messages.get(k, 'givens clash')}")
        elif status == _BUDGET and result.counts[k] == 1:
            lines.append(f"{solutions[k]}  # BUDGET (a solution; count not finished)")
        elif status == _BUDGET and result.counts[k]:
            # at least two solutions are known: not unique, though the count is open
            lines.append(
                f"{solutions[k]}  # BUDGET (not unique: {result.counts[k]} solutions found; "
                f"count not finished)"
            )
        else:
            lines.append(f"{raw}  # {_NAMES[status]}")
        note = result.messages.get(k) if status != _INVALID else None
        if note and not csv:
            # e.g. a CSV solution column that is not a solution of its puzzle
            joiner = "; " if "  # " in lines[-1] else f"  # {_NAMES[status]}; "
            lines[-1] += joiner + _one_line(note)
    return _grid_blocks(chunk, result, lines) if grid and not csv else lines


def _grid_blocks(chunk, result, lines):
    """The text ``lines`` of :func:`result_lines` as grid blocks (its ``grid`` form)."""
    shown = np.where(result.counts[:, None] > 0, result.solutions, chunk.puzzles)
    blocks = format_grid_rows(shown)
    for k, line in enumerate(lines):
        note = line.partition("  # ")[2]
        if note:
            blocks[k] += "\n# " + note
        blocks[k] += "\n"
    return blocks


def result_text(
    chunk: PuzzleChunk, result: SudokuResult, csv: bool = False, grid: bool = False
) -> bytes:
    """:func:`result_lines` as the bytes to write: UTF-8, each line ended by ``\\n``
    (empty for an empty chunk)."""
    lines = result_lines(chunk, result, csv, grid)
    if not lines:
        return b""
    return ("\n".join(lines) + "\n").encode("utf-8", "replace")


def count_statuses(status):
    """How many puzzles have each :class:`~numbadlx.sudoku.Status`: an int64 array
    indexed by the status code (the ``tally`` of a checkpoint)."""
    return np.bincount(np.asarray(status, dtype=np.intp), minlength=_TALLY_SIZE).astype(np.int64)


def _tally_dict(tally):
    return {_NAMES[k]: int(v) for k, v in enumerate(tally) if v}


# --------------------------------------------------------------------------- checkpoint


def checkpoint_path(output):
    """The checkpoint file of ``output``: ``OUTPUT.progress``."""
    return os.fspath(output) + ".progress"


def fsync_file(handle):
    """Flush a file object and fsync it: what was written is on disk."""
    handle.flush()
    os.fsync(handle.fileno())


def write_checkpoint(path, record):
    """Write ``record`` (a JSON-able dict) to ``path`` atomically and durably: into
    ``path.tmp``, fsynced, then renamed over ``path``."""
    tmp = os.fspath(path) + ".tmp"
    with open(tmp, "w") as handle:
        json.dump(record, handle)
        fsync_file(handle)
    os.replace(tmp, path)


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
):
    """What shapes the output lines, as a checkpoint records it: a resumed run must use
    the same (``box`` is ``(rows, cols)`` or None; ``timeout`` is recorded because
    budgeted and unbudgeted results must not be mixed, ``engine`` because the node
    counts of CSV rows depend on it)."""
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
    }


def _open_locked(path):
    """Open ``path`` for reading and writing (created if missing, not truncated) and
    lock it, so that a second run writing the same output is refused instead of
    interleaving with this one."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ValueError(
                f"{path} is being written by another run (it is locked); wait for that "
                f"run to end or choose another output"
            ) from None
    return os.fdopen(fd, "r+b")


def _hash_range(path, digest, begin, end):
    """Feed bytes ``begin:end`` of the file at ``path`` to ``digest``."""
    with open(path, "rb") as handle:
        handle.seek(begin)
        left = end - begin
        while left > 0:
            block = handle.read(min(left, 1 << 20))
            if not block:
                break
            digest.update(block)
            left -= len(block)
    return digest


@dataclass(frozen=True)
class Checkpoint:
    """The record of ``OUTPUT.progress``: the input was read to ``end_byte`` and its
    ``puzzles`` first puzzles are the first ``output_bytes`` bytes of the output.

    Attributes
    ----------
    input : absolute path of the input; ``input_size`` its size in bytes,
        ``input_mtime_ns`` its modification time and ``input_sha256`` the SHA-256 of
        its first ``end_byte`` bytes: together its fingerprint.
    end_byte : where to carry on reading the input.
    puzzles : puzzles written; ``tally`` how many of each status (indexed by code).
    output_bytes : committed length of the output.
    n : puzzle size of the file (None: not recorded).
    options : :func:`output_options` of the run (None: not recorded, not checked).
    """

    input: str
    input_size: int
    end_byte: int
    puzzles: int
    output_bytes: int
    tally: tuple
    n: int | None = None
    options: dict | None = None
    input_mtime_ns: int | None = None
    input_sha256: str | None = None

    @classmethod
    def read(cls, path):
        """Read ``path``; ValueError if it is not a readable checkpoint."""
        try:
            with open(path) as handle:
                saved = json.load(handle)
            return cls(
                input=saved.get("input"),
                input_size=saved.get("input_size"),
                end_byte=int(saved["end_byte"]),
                puzzles=int(saved["puzzles"]),
                output_bytes=int(saved["output_bytes"]),
                tally=tuple(int(v) for v in saved["tally"]),
                n=saved.get("n"),
                options=saved.get("options"),
                input_mtime_ns=saved.get("input_mtime_ns"),
                input_sha256=saved.get("input_sha256"),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise ValueError(
                f"cannot read the checkpoint {path} ({error}); remove it and "
                f"run again without --resume"
            ) from None

    def as_dict(self):
        """The JSON record."""
        return {
            "input": self.input,
            "input_size": self.input_size,
            "end_byte": self.end_byte,
            "puzzles": self.puzzles,
            "output_bytes": self.output_bytes,
            "tally": list(self.tally),
            "n": self.n,
            "options": self.options,
            "input_mtime_ns": self.input_mtime_ns,
            "input_sha256": self.input_sha256,
        }


class _DeferInterrupt:
    """Ctrl-C handling around commits: raise KeyboardInterrupt at once, except while a
    commit runs (``with guard:``), where it is held back until the commit is complete,
    so the output and the checkpoint always agree."""

    def __init__(self):
        self.holding = False
        self.pending = False
        self.previous = None

    def _handler(self, signum, frame):
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def install(self):
        if threading.current_thread() is not threading.main_thread():
            return
        current = signal.getsignal(signal.SIGINT)
        if current is signal.default_int_handler:  # not when SIGINT is ignored
            self.previous = current
            signal.signal(signal.SIGINT, self._handler)

    def restore(self):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None

    def __enter__(self):
        self.holding = True
        return self

    def __exit__(self, *exc):
        self.holding = False
        if self.pending and exc[0] is None:
            self.pending = False
            raise KeyboardInterrupt
        return False


@dataclass
class FileSummary:
    """What a file solve did (:func:`solve_file`, :func:`numbadlx.dask.solve_file`).

    Attributes
    ----------
    puzzles : puzzles written in all, with those of an earlier run it resumed
        (``resumed_puzzles`` of them).
    tally : ``{status name: count}`` over all ``puzzles`` (statuses that occur).
    ranges : pieces solved and written in this run (chunks locally, byte ranges on
        Dask).
    start_byte : where this run started reading; ``end_byte`` where it stopped (the
        last commit), of ``input_size`` bytes.
    seconds : wall time; ``solve_seconds`` of it in the solver and
        ``startup_seconds`` compiling or loading it (local runs; 0 on Dask).
    interrupted : stopped by Ctrl-C (KeyboardInterrupt): the output holds whole lines
        for the first ``puzzles`` puzzles and the checkpoint says where to carry on.
    messages : notes on the run (resuming, no checkpoint found).
    """

    puzzles: int
    tally: dict
    ranges: int
    start_byte: int
    seconds: float
    interrupted: bool = False
    messages: list = field(default_factory=list)
    end_byte: int = 0
    input_size: int = 0
    resumed_puzzles: int = 0
    solve_seconds: float = 0.0
    startup_seconds: float = 0.0


class CheckpointedOutput:
    """The output of a chunked file solve, committed a chunk at a time.

    Opening it starts a fresh output (removing a stale checkpoint), or with ``resume``
    and a checkpoint, validates the checkpoint against the input and ``options``, cuts
    the output back to its committed length and carries on from there
    (``start_byte``, ``puzzles``, ``tally``, ``n``). Ctrl-C is held back during
    commits from then until :meth:`close`.

    Parameters
    ----------
    output : path or None
        The output file; None writes to standard output and ``os.devnull`` nowhere
        (neither keeps a checkpoint).
    input : path
        The input file (recorded and checked by path, size, mtime and the SHA-256 of
        the bytes already solved).
    options : dict
        :func:`output_options` of the run.
    resume : bool
        Carry on from ``OUTPUT.progress`` if it exists (else start afresh).
    header : bytes, optional
        Written before the first line when the run starts at the beginning.
    log : callable, optional
        Called with each message as it arises (they are also kept in ``messages``).
    """

    def __init__(self, output, input, options, *, resume=False, header=None, log=None):
        self.output = None if output is None else os.fspath(output)
        self.input = os.fspath(input)
        info = os.stat(self.input)
        self.input_size = info.st_size
        self.input_mtime_ns = info.st_mtime_ns
        self._digest = hashlib.sha256()  # of the input bytes read so far
        self.options = options
        # Only a regular file (or a new one) gets a checkpoint: a terminal, a pipe,
        # /dev/stdout or /dev/null cannot be cut back or resumed. Names under /dev and
        # /proc are streams even when they lead to a file (/dev/stdout >> log).
        self.durable = (
            self.output is not None
            and not os.path.abspath(self.output).startswith(("/dev/", "/proc/"))
            and (os.path.isfile(self.output) or not os.path.exists(self.output))
        )
        self.checkpoint = checkpoint_path(self.output) if self.durable else None
        self.start_byte = 0
        self.puzzles = 0
        self.tally = np.zeros(_TALLY_SIZE, dtype=np.int64)
        self.n = None
        self.messages = []
        self.commits = 0
        self._log = log
        self._file = None
        if resume and not self.durable:
            raise ValueError(
                f"cannot resume into {self.output or 'standard output'}: only a regular "
                f"file keeps a checkpoint"
            )
        if self.output is None:
            self._file = sys.stdout.buffer
        elif not self.durable:
            # append, never truncate: /dev/stdout may lead to a file (>> log) that
            # "wb" would empty
            self._file = open(self.output, "ab")
        else:
            self._file = _open_locked(self.output)
        try:
            if self.checkpoint and resume and os.path.exists(self.checkpoint):
                self._resume_from(Checkpoint.read(self.checkpoint))
            else:
                if self.checkpoint and resume:
                    self._note(f"no checkpoint {self.checkpoint}; starting from the beginning")
                if self.checkpoint and os.path.exists(self.checkpoint):
                    os.remove(self.checkpoint)  # a stale one would describe some other output
                if self.durable:
                    self._file.truncate(0)
        except BaseException:
            self._file.close()
            raise
        if self.durable:
            self._file.seek(0, os.SEEK_END)
        self.resumed_puzzles = self.puzzles
        self.end_byte = self.start_byte
        self._header = header if header and self.start_byte == 0 else b""
        self._committed = self._file.tell() if self.durable else 0
        self._interrupts = _DeferInterrupt()
        self._interrupts.install()

    def _note(self, message):
        self.messages.append(message)
        if self._log is not None:
            self._log(message)

    def _resume_from(self, saved):
        if saved.input != os.path.abspath(self.input):
            raise ValueError(
                f"{self.checkpoint} belongs to another input ({saved.input}); "
                f"remove it or drop --resume"
            )
        changed = None
        if saved.input_sha256 is None or saved.input_mtime_ns is None:
            changed = "the checkpoint has no fingerprint of it (an older version wrote it)"
        elif saved.input_size != self.input_size:
            changed = f"its size is {self.input_size} bytes, not {saved.input_size}"
        elif saved.input_mtime_ns != self.input_mtime_ns:
            changed = "it was modified after the checkpoint was written"
        else:
            _hash_range(self.input, self._digest, 0, saved.end_byte)
            if self._digest.hexdigest() != saved.input_sha256:
                changed = f"its first {saved.end_byte} bytes are not those already solved"
        if changed:
            raise ValueError(
                f"{self.input} changed since {self.checkpoint} was written ({changed}); "
                f"resuming would mix results of two inputs: drop --resume to start again"
            )
        if saved.options is not None and saved.options != self.options:
            raise ValueError(
                f"{self.checkpoint} was written with other options "
                f"({saved.options}, now {self.options}); resume with the same "
                f"--limit, --max-nodes, --timeout, --box, --format, --column, --engine "
                f"and output type, or drop --resume"
            )
        have = os.path.getsize(self.output)
        if have < saved.output_bytes:
            raise ValueError(
                f"{self.output} has {have} bytes but the checkpoint "
                f"{self.checkpoint} says {saved.output_bytes} were written; the "
                f"output was changed since, so the run cannot be resumed "
                f"(drop --resume)"
            )
        self._file.truncate(saved.output_bytes)  # drop a part-written chunk
        self.start_byte = saved.end_byte
        self.puzzles = saved.puzzles
        self.tally[: len(saved.tally)] = saved.tally[:_TALLY_SIZE]
        self.n = saved.n
        self._note(
            f"resuming {self.input} at byte {self.start_byte} ({self.puzzles} "
            f"puzzles already written)"
        )

    def commit(self, data, end_byte, puzzles, tally, n=None):
        """Append ``data`` (the lines of ``puzzles`` more puzzles, whose statuses are
        counted in ``tally``, the input read to ``end_byte``) and make it durable:
        flush and fsync the output, then replace the checkpoint. All of it or none: a
        Ctrl-C arriving meanwhile is raised once the commit is complete."""
        with self._interrupts:
            data = self._header + data
            self._file.write(data)
            self._header = b""
            total = self.puzzles + int(puzzles)
            tally = self.tally + np.asarray(tally, dtype=np.int64)
            n = self.n if n is None else int(n)
            if self.checkpoint:
                fsync_file(self._file)
                length = self._file.tell()
                _hash_range(self.input, self._digest, self.end_byte, int(end_byte))
                write_checkpoint(
                    self.checkpoint,
                    Checkpoint(
                        input=os.path.abspath(self.input),
                        input_size=self.input_size,
                        end_byte=int(end_byte),
                        puzzles=total,
                        output_bytes=length,
                        tally=tuple(int(v) for v in tally),
                        n=n,
                        options=self.options,
                        input_mtime_ns=self.input_mtime_ns,
                        input_sha256=self._digest.hexdigest(),
                    ).as_dict(),
                )
                self._committed = length
            else:
                self._file.flush()
            self.puzzles, self.tally, self.n = total, tally, n
            self.end_byte = int(end_byte)
            self.commits += 1

    def close(self, ok):
        """Finish: when ``ok``, write a header still due and remove the checkpoint (the
        output is complete); else cut the output back to the last commit, so it holds
        whole lines only, and keep the checkpoint for a resume. Restores Ctrl-C."""
        try:
            if self._file is None:
                return
            if ok and self._header:
                self._file.write(self._header)
                self._header = b""
            if ok and self.checkpoint and os.path.exists(self.checkpoint):
                # while the output is still locked, so a run that takes the lock next
                # never sees (or loses) a stale checkpoint
                os.remove(self.checkpoint)
            if self.output is None:
                self._file.flush()
            else:
                if not ok and self.durable:
                    self._file.flush()
                    self._file.truncate(self._committed)
                self._file.close()
            self._file = None
        finally:
            self._interrupts.restore()

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        self.close(ok=kind is None)
        return False

    def summary(self, started, interrupted, **more):
        """A :class:`FileSummary` of the run so far (``started``: its
        ``time.perf_counter()`` at the start; ``more``: further fields)."""
        return FileSummary(
            puzzles=self.puzzles,
            tally=_tally_dict(self.tally),
            ranges=self.commits,
            start_byte=self.start_byte,
            seconds=time.perf_counter() - started,
            interrupted=interrupted,
            messages=list(self.messages),
            end_byte=self.end_byte,
            input_size=self.input_size,
            resumed_puzzles=self.resumed_puzzles,
            **more,
        )


def input_file(input: str | os.PathLike) -> str:
    """``input`` as a path string, checked to be a readable file (ValueError naming it
    otherwise: no such file, a directory, unreadable): what the file solvers do before
    they touch anything."""
    path = os.fspath(input)
    if os.path.isdir(path):
        raise ValueError(f"{path} is a directory, not a puzzle file")
    if not os.path.exists(path):
        raise ValueError(f"no such file: {path}")
    if not os.path.isfile(path):
        raise ValueError(f"{path} is not a regular file (a pipe or a device cannot be resumed)")
    if not os.access(path, os.R_OK):
        raise ValueError(f"cannot read {path}: permission denied")
    return path


def open_output(
    input: str | os.PathLike,
    output: str | os.PathLike | None = None,
    *,
    limit: int,
    max_nodes: int | None = None,
    box: tuple[int, int] | None = None,
    format: str | None = None,
    csv: bool | None = None,
    timeout: float | None = None,
    resume: bool = False,
    header: bool = True,
    log: Callable[[str], None] | None = None,
    grid: bool = False,
    column: str | int | None = None,
    engine: str = "auto",
) -> tuple[CheckpointedOutput, bool]:
    """Open the checkpointed output of a file solve: the start shared by
    :func:`solve_file` and :func:`numbadlx.dask.solve_file`.

    Checks the input (:func:`input_file`), settles text or CSV, records the
    :func:`output_options` of the run and opens a :class:`CheckpointedOutput` (fresh, or
    resumed from its checkpoint) with the CSV header due when writing CSV.

    Parameters
    ----------
    input : path
        The puzzle file; ValueError if it is not a file.
    output : path, optional
        Where to write; None is standard output, ``os.devnull`` nowhere.
    limit, max_nodes, box, format, timeout, grid, column, engine : the options that
        shape the output lines, checked against the checkpoint when resuming.
    csv : bool, optional
        Write CSV; by default when ``output`` is named ``*.csv``.
    resume : bool
        Carry on from ``OUTPUT.progress`` if it exists (ValueError if it does not fit).
    header : bool
        Write :data:`CSV_HEADER` first when writing CSV from the start of the input.
    log : callable, optional
        Called with each note on the run as it arises.

    Returns
    -------
    (CheckpointedOutput, bool)
        The open output (close it, or use it in a ``with`` block) and whether it is CSV.
    """
    path = input_file(input)
    output = None if output is None else os.fspath(output)
    check_output(path, output)
    if csv is None:
        csv = bool(output) and output.lower().endswith(".csv")
    options = output_options(
        limit=limit,
        max_nodes=max_nodes,
        csv=csv,
        box=box,
        format=format,
        timeout=timeout,
        grid=grid,
        column=column,
        engine=engine,
    )
    sink = CheckpointedOutput(
        output,
        path,
        options,
        resume=resume,
        header=(CSV_HEADER + "\n").encode() if csv and header else None,
        log=log,
    )
    return sink, csv


def check_output(input: str, output: str | None) -> None:
    """Refuse (ValueError) an output that would destroy the input, or that is not text;
    ``output`` None is standard output, refused when it is the input file (as with
    ``numbadlx solve in.txt >> in.txt``, which would read its own results forever)."""
    if output is None:
        try:
            out, source = os.fstat(sys.stdout.fileno()), os.stat(input)
        except (OSError, ValueError, AttributeError):
            return  # no real standard output (a test's capture): nothing to compare
        if (out.st_dev, out.st_ino) == (source.st_dev, source.st_ino):
            raise ValueError(
                f"standard output is the input file {input}: writing it would read the "
                f"results back as puzzles; write elsewhere"
            )
        return
    if os.path.exists(output) and os.path.samefile(input, output):
        raise ValueError(
            f"the output {output} is the input file {input}: writing it would destroy the "
            f"puzzles; choose another output"
        )
    if output.lower().endswith(".npy"):
        raise ValueError(
            f"cannot write {output}: file solves write text or CSV lines, not .npy; name "
            f"the output .txt or .csv, or use numbadlx.sudoku.solve and numpy.save"
        )


# --------------------------------------------------------------------------- local solve


def _interruptible(function, *args, **kwargs):
    """Call ``function`` on a helper thread and wait for it so that Ctrl-C gets through.

    Python runs signal handlers only between bytecodes of the main thread, so a long
    compiled search called from the main thread would hold Ctrl-C back until it ends.
    The Sudoku kernel releases the GIL, so here the main thread waits in short joins and
    a KeyboardInterrupt reaches it at once; the helper thread is then abandoned (the
    caller is expected to exit soon after). Off the main thread, ``function`` is simply
    called.
    """
    if threading.current_thread() is not threading.main_thread():
        return function(*args, **kwargs)
    outcome = {}

    def target():
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # handed to the main thread below
            outcome["error"] = error

    worker = threading.Thread(target=target, name="numbadlx-solve", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def solve_file(
    input: str | os.PathLike,
    output: str | os.PathLike | None = None,
    *,
    limit: int = 2,
    max_nodes: int | None = None,
    box: tuple[int, int] | None = None,
    format: str | None = None,
    csv: bool | None = None,
    chunk_size: int = 16384,
    threads: int | None = None,
    timeout: float | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    log: Callable[[str], None] | None = None,
    engine: str = "auto",
    grid: bool = False,
    column: str | int | None = None,
) -> FileSummary:
    """Solve a puzzle file chunk by chunk in this process and write one result line per
    puzzle (:func:`result_lines`), in input order, with checkpoints.

    Parameters
    ----------
    input : path
        A puzzle file in any format :func:`~numbadlx.sudoku.iter_chunks` reads.
    output : path, optional
        Where to write (CSV when named ``*.csv`` or ``csv=True``), committed chunk by
        chunk with an ``OUTPUT.progress`` checkpoint; None writes to standard output,
        ``os.devnull`` nowhere.
    limit, max_nodes, box, threads : as in :func:`numbadlx.sudoku.solve`.
    format : input format (inferred when omitted).
    chunk_size : int
        Puzzles read, solved and written at a time.
    timeout : float, optional
        Seconds per chunk (``timeout`` of :func:`numbadlx.sudoku.solve`).
    resume : bool
        Carry on from ``OUTPUT.progress`` if it exists (else start afresh); ValueError
        if it belongs to another input, other options, or the output is shorter than
        it says.
    progress : callable, optional
        Called as ``progress(end_byte, puzzles_written)`` after each chunk is written,
        and first with the starting point when resuming.
    log : callable, optional
        Called with each note on the run (resuming, no checkpoint found) as it arises.
    engine : {"auto", "dlx", "bits", "bands"}
        The search engine, as in :func:`numbadlx.sudoku.solve`.
    grid : bool
        Write each result as a grid block (``grid`` of :func:`result_lines`, the shape
        of contest files) instead of a line; not with CSV.
    column : str or int, optional
        The puzzle column of a CSV input (``column`` of
        :func:`~numbadlx.sudoku.iter_chunks`).

    Returns
    -------
    FileSummary
        ``interrupted`` is True after Ctrl-C (KeyboardInterrupt): the solver runs on a
        helper thread so that Ctrl-C stops even a long search at once. Any other error
        propagates, the output cut back to the last commit.
    """
    started = time.perf_counter()
    sink, csv = open_output(
        input,
        output,
        limit=limit,
        max_nodes=max_nodes,
        box=box,
        format=format,
        csv=csv,
        timeout=timeout,
        resume=resume,
        log=log,
        grid=grid,
        column=column,
        engine=engine,
    )
    solve_seconds = startup = 0.0
    interrupted = ok = False
    try:
        if progress is not None and sink.start_byte:
            progress(sink.start_byte, sink.puzzles)
        warmed = False
        for chunk in iter_chunks(
            sink.input,
            chunk_size=chunk_size,
            box=box,
            format=format,
            start_byte=sink.start_byte,
            n=sink.n,
            column=column,
        ):
            if len(chunk) == 0:
                continue
            if not warmed:
                # compile or load the one kernel this file needs before the first chunk,
                # so that solve_seconds is the solver's
                begin = time.perf_counter()
                warm_up((pick_engine(engine, chunk.n, box),))
                startup = time.perf_counter() - begin
                warmed = True
            result = _interruptible(
                solve,  # the module's name, found at each call (tests replace it)
                chunk,  # with its unreadable rows and any solution column to check
                limit=limit,
                threads=threads,
                max_nodes=max_nodes,
                box=box,
                invalid=chunk.bad,
                timeout=timeout,
                engine=engine,
            )
            solve_seconds += result.seconds
            sink.commit(
                result_text(chunk, result, csv, grid),
                chunk.end_byte,
                len(chunk),
                count_statuses(result.status),
                n=chunk.n,
            )
            if progress is not None:
                progress(chunk.end_byte, sink.puzzles)
        ok = True
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sink.close(ok)
    return sink.summary(started, interrupted, solve_seconds=solve_seconds, startup_seconds=startup)
