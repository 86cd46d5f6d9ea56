"""Stopping a long kernel call from outside: on Ctrl-C or at a deadline.

Python runs a signal handler only between bytecodes of the main thread, so Ctrl-C
cannot reach a compiled kernel while it runs, and no Python code runs inside it to
check a clock. A kernel that may run long therefore takes a *stop flag*, an int64
array of one element that it reads at every search node; :func:`call_stoppable`
runs the call on a helper thread (the kernels release the GIL), waits in short
waits, and sets the flag on Ctrl-C or when the deadline passes. The kernel then
returns within one node, the helper thread goes back to wait for the next call (a
queue, not compiled code), and the caller sees what was finished. No thread is left
running inside a kernel: a process that exits while a thread still runs compiled code
(or compiles it) can crash in its teardown.

Every flag handed out is also set by :func:`stop_all`, which the file jobs call when
Ctrl-C reaches them while a kernel runs on a thread of their own.

    flag = [0]            0: run on      1: stop (at the next node)
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time

import numpy as np

__all__ = ["LET_GO_SECONDS", "call_stoppable", "join_for", "let_go", "new_flag", "stop_all"]

_lock = threading.Lock()
_active: dict[int, np.ndarray] = {}
_let_go: list[tuple[threading.Thread, threading.Event]] = []
_idle: list[_Helper] = []

#: Seconds a stopped call is waited for after Ctrl-C before it is let go.
LET_GO_SECONDS = 0.2

#: Seconds between two looks at the clock (and chances for Ctrl-C) while a call runs.
_POLL_SECONDS = 0.02


@contextlib.contextmanager
def new_flag():
    """A fresh stop flag (``np.zeros(1, int64)``), known to :func:`stop_all` while the
    ``with`` block lasts."""
    flag = np.zeros(1, dtype=np.int64)
    with _lock:
        _active[id(flag)] = flag
    try:
        yield flag
    finally:
        with _lock:
            _active.pop(id(flag), None)


def stop_all() -> int:
    """Set every stop flag handed out by :func:`new_flag` and not yet returned; how many."""
    with _lock:
        flags = list(_active.values())
    for flag in flags:
        flag[0] = 1
    return len(flags)


class _Helper:
    """A helper thread that runs one call after another: starting a thread per call
    cost about 50 us of CPU, as much as a whole small Sudoku call. It waits (in a
    queue, not in compiled code) between calls, and goes back to :data:`_idle` after
    each; a call let go keeps its helper until it ends."""

    def __init__(self):
        self.calls = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, name="numbadlx-kernel", daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            call = self.calls.get()
            call()
            with _lock:
                _idle.append(self)


def _helper():
    with _lock:
        if _idle:
            return _idle.pop()
    return _Helper()


def call_stoppable(function, flag, *args, deadline: float | None = None):
    """``function(*args)``, a kernel call that watches ``flag``, run to its end, to
    Ctrl-C or to ``deadline`` (a ``time.monotonic()`` value), whichever comes first.

    Returns ``(value, timed_out)``. When the deadline passes the flag is set and the
    call is waited for at most :data:`LET_GO_SECONDS` more (a running kernel returns
    at its next search node; a first call may still be compiling: it is let go, and
    ``value`` is None). On Ctrl-C the same, then KeyboardInterrupt is raised again;
    a call stopped by :func:`stop_all` raises KeyboardInterrupt too.
    """
    outcome = {}
    done = threading.Event()

    def target():
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # handed to the waiting thread below
            outcome["error"] = error
        finally:
            done.set()

    helper = _helper()
    helper.calls.put(target)
    try:
        while not done.is_set():
            wait = _POLL_SECONDS
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    flag[0] = 1
                    _wait_for(helper.thread, done, LET_GO_SECONDS)
                    return outcome.get("value"), True
                wait = min(wait, left)
            done.wait(wait)
    except BaseException:  # Ctrl-C while waiting: stop the kernel, then let go
        flag[0] = 1
        _wait_for(helper.thread, done, LET_GO_SECONDS)
        raise
    if "error" in outcome:
        raise outcome["error"]
    if flag[0] != 0:  # stopped by stop_all: Ctrl-C reached the thread that waits for ours
        raise KeyboardInterrupt
    return outcome["value"], False


def let_go() -> list[threading.Thread]:
    """The threads this module let go that still run their call (compiling, most
    likely)."""
    with _lock:
        _let_go[:] = [(t, done) for t, done in _let_go if t.is_alive() and not done.is_set()]
        return [t for t, _ in _let_go]


def join_for(worker, seconds):
    """Wait up to ``seconds`` for ``worker`` (a thread) to end, through a second Ctrl-C
    too; True if it ended."""
    return _wait_for(worker, _Ended(worker), seconds)


class _Ended:
    """A thread's end, as an Event's ``is_set`` and ``wait``."""

    def __init__(self, thread):
        self.thread = thread

    def is_set(self):
        return not self.thread.is_alive()

    def wait(self, seconds):
        self.thread.join(seconds)


def _wait_for(thread, done, seconds):
    """Wait up to ``seconds`` for ``done`` (the call ``thread`` runs), through a second
    Ctrl-C too; True if it ended, else the thread is noted as let go."""
    end = time.monotonic() + seconds
    while not done.is_set() and time.monotonic() < end:
        try:
            done.wait(_POLL_SECONDS)
        except KeyboardInterrupt:
            continue
    if not done.is_set():
        with _lock:
            _let_go.append((thread, done))
        return False
    return True
