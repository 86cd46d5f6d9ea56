"""The checkpointed output of a file job: commits, resume, clean-up, and the summary
of a run."""

from __future__ import annotations

import hashlib
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ._checkpoint import (
    Checkpoint,
    DeferInterrupt,
    check_locked,
    checkpoint_path,
    fsync_file,
    hash_range,
    is_stream,
    open_locked,
    write_checkpoint,
)
from ._lines import TALLY_SIZE, tally_dict


@dataclass
class FileSummary:
    """What a file job did (:func:`~numbadlx.jobs.solve_file`,
    :func:`~numbadlx.jobs.rate_file`, :func:`~numbadlx.jobs.generate_file`,
    :func:`numbadlx.dask.solve_file`).

    Attributes
    ----------
    puzzles : puzzles written in all, with those of an earlier run it resumed
        (``resumed_puzzles`` of them).
    tally : ``{status name: count}`` over all ``puzzles`` (statuses that occur).
    ranges : pieces solved and written in this run (chunks locally, byte ranges on
        Dask).
    start_byte : where this run started reading; ``end_byte`` where it stopped (the
        last commit), of ``input_size`` bytes.
    seconds : wall time; ``solve_seconds`` the job's own time in the solver or the
        rater, compiling left out (summed over the tasks on Dask, so it may exceed
        ``seconds`` there) and ``startup_seconds`` compiling or loading the solver
        (first, and any kernel compiled for a later chunk; local runs; 0 on Dask);
        ``compile_seconds`` the part of ``seconds`` this process spent compiling
        kernels (0 once Numba's cache holds them; 0 on Dask).
    interrupted : stopped by Ctrl-C (KeyboardInterrupt): the output holds whole lines
        for the first ``puzzles`` puzzles and the checkpoint says where to carry on.
    messages : notes on the run (resuming, no checkpoint found).
    unreadable : puzzles that could not be read (rate jobs; a solve counts them as
        INVALID in ``tally``).
    seed : the seed of a generate run (the one drawn when none was given); None for
        the other jobs.
    n : the grid size of the puzzles (None when none was read).
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
    compile_seconds: float = 0.0
    unreadable: int = 0
    seed: int | None = None
    n: int | None = None


def _standard_output():
    """Standard output as a binary file: its buffer, or for a text-only stream (a
    doctest's) a small writer that decodes."""
    buffer = getattr(sys.stdout, "buffer", None)
    return buffer if buffer is not None else _TextWriter(sys.stdout)


class _TextWriter:
    def __init__(self, stream):
        self.stream = stream

    def write(self, data):
        self.stream.write(data.decode("utf-8", "replace"))

    def flush(self):
        self.stream.flush()

    def close(self):
        pass


class CheckpointedOutput:
    """The output of a file job, committed a chunk (or a range) at a time.

    Opening it starts a fresh output (removing a stale checkpoint; an output that
    holds something only with ``overwrite``), or with ``resume``
    and a checkpoint, validates the checkpoint against the input and ``options``,
    checks that the output still begins with the bytes the checkpoint vouches for (their
    length and SHA-256), cuts the output back to that length and carries on from there
    (``start_byte``, ``puzzles``, ``tally``, ``n``). Ctrl-C is held back during
    commits from then until :meth:`close`.

    Parameters
    ----------
    output : path or None
        The output file; None writes to standard output and ``os.devnull`` nowhere
        (neither keeps a checkpoint).
    input : path or None
        The input file (recorded and checked by path, size, mtime and the SHA-256 of
        the bytes already solved); None for a job that reads none (generate), whose
        ``options`` are then its whole fingerprint and whose "bytes read" count the
        puzzles made. A new output of such a job that fails before its first commit
        is removed again.
    options : dict
        :func:`output_options` of the run (the job's ``options``).
    resume : bool
        Carry on from ``OUTPUT.progress`` if it exists (else start afresh).
    overwrite : bool
        Start afresh in an output that holds something: without it a regular file that
        is not empty is refused (FileExistsError, checked once its lock is held; one
        with a checkpoint is named as an interrupted run), unless ``resume`` carries it
        on. An empty file, a new one and a stream are written either way.
    header : bytes, optional
        Written before the first line when the run starts at the beginning.
    log : callable, optional
        Called with each message as it arises (they are also kept in ``messages``).
    """

    def __init__(
        self, output, input, options, *, resume=False, overwrite=False, header=None, log=None
    ):
        self.output = None if output is None else os.fspath(output)
        self.input = None if input is None else os.fspath(input)
        info = os.stat(self.input) if self.input is not None else None
        self.input_size = info.st_size if info is not None else 0
        self.input_mtime_ns = info.st_mtime_ns if info is not None else None
        self._digest = hashlib.sha256()  # of the input bytes read so far
        self._written = hashlib.sha256()  # of the output bytes committed so far
        self.options = options
        # Only a regular file (or a new one) gets a checkpoint: a terminal, a pipe,
        # /dev/stdout or /dev/null cannot be cut back or resumed. Names under /dev and
        # /proc are streams even when they lead to a file (/dev/stdout >> log).
        self.durable = (
            self.output is not None
            and not is_stream(self.output)
            and (os.path.isfile(self.output) or not os.path.exists(self.output))
        )
        self.checkpoint = checkpoint_path(self.output) if self.durable else None
        # the file this run makes, if it makes one: where a dangling link leads (the
        # link is the user's and stays)
        self._created = (
            os.path.realpath(self.output)
            if self.durable and not os.path.exists(self.output)
            else None
        )
        self.start_byte = 0
        self.puzzles = 0
        self.tally = np.zeros(TALLY_SIZE, dtype=np.int64)
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
            self._file = _standard_output()
        elif not self.durable:
            # append, never truncate: /dev/stdout may lead to a file (>> log) that
            # "wb" would empty
            self._file = open(self.output, "ab")
        else:
            self._file = open_locked(self.output)
            # after the lock is taken: no other run can write or cut it meanwhile
            check_locked(self._file, self.output, resume=resume, overwrite=overwrite)
        try:
            if self.checkpoint and resume and os.path.exists(self.checkpoint):
                self._resume_from(Checkpoint.read(self.checkpoint), header)
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
        self._interrupts = DeferInterrupt()
        self._interrupts.install()

    def store_checkpoint(self, record):
        """Replace the checkpoint file with ``record`` (:func:`write_checkpoint`)."""
        write_checkpoint(self.checkpoint, record)

    def _note(self, message):
        self.messages.append(message)
        if self._log is not None:
            self._log(message)

    def _resume_from(self, saved, header):
        if self.input is None or saved.input is None:
            self._resume_without_input(saved, header)
            return
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
            hash_range(self.input, self._digest, 0, saved.end_byte)
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
        self._cut_back(saved, header)
        self._note(
            f"resuming {self.input} at byte {self.start_byte} ({self.puzzles} "
            f"puzzles already written)"
        )

    def _check_header(self, header, saved):
        """Refuse to resume an output whose header is not the one this version writes
        (an older layout of the columns): its new lines would not match its old ones."""
        if not header or not saved.output_bytes:
            return
        self._file.seek(0)
        first = self._file.read(len(header))
        if first != header:
            found = first.split(b"\n", 1)[0].decode(errors="replace")
            raise ValueError(
                f"{self.output} begins with the header {found!r}, and this version writes "
                f"{header.decode().strip()!r}: resuming would mix two layouts of the "
                f"columns; finish it with the version that started it, or drop --resume "
                f"to start again"
            )

    def _resume_without_input(self, saved, header):
        """Resume a job that reads no input: its options are the whole fingerprint."""
        if saved.input != self.input:
            mine = "reads no input" if self.input is None else f"reads {self.input}"
            theirs = "no input" if saved.input is None else saved.input
            raise ValueError(
                f"{self.checkpoint} belongs to a run of another job (its input: "
                f"{theirs}), and this one {mine}; remove it or drop --resume"
            )
        if saved.options != self.options:
            changed = ", ".join(
                f"{key} {saved.options.get(key)!r}, now {value!r}"
                for key, value in self.options.items()
                if (saved.options or {}).get(key) != value
            )
            raise ValueError(
                f"{self.checkpoint} was written with other options ({changed}); resume "
                f"with the same options (-n, --size, --box, --minimal, --symmetry, "
                f"--clues, --rating, --seed, --attempts and output type), or drop --resume"
            )
        self._cut_back(saved, header)
        self._note(
            f"resuming {self.output} after puzzle {self.puzzles} ({self.puzzles} "
            f"puzzles already written)"
        )

    def _cut_back(self, saved, header):
        """Check the output begins with the bytes ``saved`` vouches for (their length
        and hash) and with this version's ``header``, cut it there and take up the
        count."""
        have = os.path.getsize(self.output)
        if have < saved.output_bytes:
            raise ValueError(
                f"{self.output} has {have} bytes but the checkpoint "
                f"{self.checkpoint} says {saved.output_bytes} were written; the "
                f"output was changed since, so the run cannot be resumed "
                f"(drop --resume)"
            )
        if saved.output_sha256 is None:
            raise ValueError(
                f"the checkpoint {self.checkpoint} has no hash of the output (an older "
                f"version wrote it), so {self.output} cannot be checked before more is "
                f"appended: drop --resume to start again"
            )
        hash_range(self.output, self._written, 0, saved.output_bytes)
        if self._written.hexdigest() != saved.output_sha256:
            raise ValueError(
                f"{self.output} changed since {self.checkpoint} was written (its first "
                f"{saved.output_bytes} bytes are not those the run wrote); resuming would "
                f"append to other content: drop --resume to start again"
            )
        self._check_header(header, saved)
        self._file.truncate(saved.output_bytes)  # drop a part-written chunk
        self.start_byte = saved.end_byte
        self.puzzles = saved.puzzles
        self.tally[: len(saved.tally)] = saved.tally[:TALLY_SIZE]
        self.n = saved.n

    def stop_if_interrupted(self):
        """Raise KeyboardInterrupt if Ctrl-C came during the run, also one that was
        raised and then lost (see :class:`DeferInterrupt`)."""
        self._interrupts.stop_if_interrupted()

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
                self._written.update(data)
                length = self._file.tell()
                if self.input is not None:
                    hash_range(self.input, self._digest, self.end_byte, int(end_byte))
                self.store_checkpoint(
                    Checkpoint(
                        input=None if self.input is None else os.path.abspath(self.input),
                        input_size=None if self.input is None else self.input_size,
                        end_byte=int(end_byte),
                        puzzles=total,
                        output_bytes=length,
                        tally=tuple(int(v) for v in tally),
                        n=n,
                        options=self.options,
                        input_mtime_ns=self.input_mtime_ns,
                        input_sha256=None if self.input is None else self._digest.hexdigest(),
                        output_sha256=self._written.hexdigest(),
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
                    if self.input is None and self._created and not self.commits:
                        os.remove(self._created)  # nothing made: leave no file behind
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
            tally=tally_dict(self.tally),
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
