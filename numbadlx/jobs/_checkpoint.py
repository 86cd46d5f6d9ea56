"""The checkpoint of a file job (``OUTPUT.progress``), the lock on its output and what
may be replaced once it is held, and Ctrl-C held back while a commit runs."""

from __future__ import annotations

import json
import os
import signal
import threading
from dataclasses import dataclass

from ..core.words import plural

try:  # POSIX: an output file is locked while a job writes it
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

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


def open_locked(path):
    """Open ``path`` for reading and writing (created if missing, not truncated) and
    lock it, so that a second run writing the same output is refused instead of
    interleaving with this one."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise locked_error(path) from None
    return os.fdopen(fd, "r+b")


def is_stream(path: str) -> bool:
    """Whether ``path`` names a stream: a name under /dev or /proc (a terminal, a pipe,
    /dev/null, /dev/stdout), written as it comes, never checked, cut back, replaced or
    resumed, even when it leads to a file.

    Parameters
    ----------
    path : str
        An output's name.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_stream("/dev/stdout"), is_stream("results.csv")
    (True, False)
    """
    return os.path.abspath(path).startswith(("/dev/", "/proc/"))


def is_locked(path):
    """Whether another open file holds the lock of :func:`open_locked` on ``path`` (a
    run writing it); False where files cannot be locked or opened."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # (and the probe's own lock with it)
    return False


def locked_error(path):
    """The error of an output another run is writing."""
    return ValueError(
        f"{path} is being written by another run (it is locked); wait for that "
        f"run to end or choose another output"
    )


def refusal(path: str, size: int, *, resume: bool = False, overwrite: bool = False):
    """Why a run must not start writing the regular file ``path`` of ``size`` bytes
    (a message), or None when it may: an empty file holds nothing to lose; ``overwrite``
    allows any; ``resume`` carries on from a checkpoint (checked later) or, without
    one, starts from the beginning."""
    if not size or overwrite:
        return None
    checkpoint = checkpoint_path(path)
    if os.path.isfile(checkpoint):
        if resume:
            return None
        try:
            done = f"{plural(Checkpoint.read(checkpoint).puzzles, 'puzzle')} done"
        except ValueError:
            done = f"its checkpoint {checkpoint} is unreadable"
        return (
            f"{path} holds an interrupted run ({done}); run again with --resume to carry "
            f"on, or with --overwrite to start afresh"
        )
    if resume:
        return None
    return (
        f"{path} exists ({plural(size, 'byte')}); run again with --overwrite to replace "
        f"it, or choose another output"
    )


def check_locked(handle, path: str, *, resume: bool = False, overwrite: bool = False) -> None:
    """:func:`~numbadlx.jobs.check_replace` of the file ``path`` once its lock is held
    (``handle``, from :func:`open_locked`): the check another writer cannot race. Closes
    ``handle`` before raising."""
    why = refusal(path, os.fstat(handle.fileno()).st_size, resume=resume, overwrite=overwrite)
    if why is not None:
        handle.close()
        raise FileExistsError(why)


def hash_range(path, digest, begin, end):
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
    output_bytes : committed length of the output; ``output_sha256`` the SHA-256 of
        those bytes, which a resume checks before it appends.
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
    output_sha256: str | None = None

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
                output_sha256=saved.get("output_sha256"),
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
            "output_sha256": self.output_sha256,
        }


class DeferInterrupt:
    """Ctrl-C handling around commits: raise KeyboardInterrupt at once, except while a
    commit runs (``with guard:``), where it is held back until the commit is complete,
    so the output and the checkpoint always agree.

    A KeyboardInterrupt raised at once can still be lost: Python runs the handler
    between any two bytecodes of the main thread, also inside a finalizer
    (``__del__``) or a callback whose exceptions are printed and dropped (a Dask
    future's release did exactly that). So a Ctrl-C is also remembered, and the end of
    every later commit, and :meth:`stop_if_interrupted`, raise it again.
    """

    def __init__(self):
        self.holding = False
        self.requested = False
        self.previous = None

    def _handler(self, signum, frame):
        self.requested = True
        if not self.holding:
            raise KeyboardInterrupt

    def stop_if_interrupted(self):
        """Raise KeyboardInterrupt if Ctrl-C came since the guard was installed."""
        if self.requested:
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
        if exc[0] is None:
            self.stop_if_interrupted()
        return False
