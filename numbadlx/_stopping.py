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

A call without a deadline, of a compiled kernel that releases the GIL, made from the
main thread, runs on that thread instead (handing it to a helper and back cost about
0.3 ms a call, 4% of solving 10,000 easy Sudokus). Ctrl-C then reaches the kernel
through Python's signal wake-up descriptor (:func:`signal.set_wakeup_fd`): Python's
own C-level handler writes the signal's number to it at once, a watcher thread blocked
on its other end reads it and sets the flag, the kernel returns within one node, and
Python's handler raises KeyboardInterrupt as soon as the main thread runs Python code
again. This is used only where nothing else owns the descriptor (asyncio's loop sets
one for its signal handlers) and Ctrl-C has Python's default handler, or the one
``asyncio.run`` sets in its place (a handler of the user's own may not raise, and a
stopped call would then look finished); otherwise the call goes to a helper thread as
above.

Calls on other threads. A program may run a call on a thread of its own while the main
thread waits for it in code that is not ours (``await asyncio.to_thread(...)``,
``loop.run_in_executor``, a thread pool's ``submit(...).result()``): Ctrl-C raises
KeyboardInterrupt in the main thread, which then waits for the call to end. So once
set, our descriptor stays set (it is set when this module is imported on the main
thread, as a program's first use of a solver does, and at every call made there), and
at each SIGINT the watcher also sets every flag :func:`new_flag` made on other threads
(those calls then raise KeyboardInterrupt in their threads). It does so only when
Ctrl-C is to stop the program, as above. Not covered: a program whose first use of the
package is on another thread and that makes no call on the main thread (a call there,
even a small one, sets the descriptor), and one where other code owns the descriptor
(an asyncio loop with signal handlers of its own); there ``timeout=`` bounds a call.

A call on the main thread writes a marker byte to the socket as it starts, and the
watcher sets its flag only for a SIGINT read after that marker: with the descriptor
always set, a Ctrl-C that came between two calls (its KeyboardInterrupt raised and
maybe caught by a loop that goes on) is read late at times, and must not stop the next
call too.

A forked child unsets the descriptor (it is the parent's socket) and forgets the
watcher and the helper threads, none of which it has.

Deadlines are on :func:`clock`, which stands still while this process compiles
kernels: a timeout counts everything else.

    flag = [0]            0: run on      1: stop (at the next node)
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import signal
import socket
import sys
import threading
import time

import numpy as np

__all__ = [
    "LET_GO_SECONDS",
    "call_on_lanes",
    "call_stoppable",
    "clock",
    "ctrl_c_count",
    "join_for",
    "let_go",
    "new_flag",
    "stop_all",
]

_lock = threading.Lock()
_active: dict[int, np.ndarray] = {}
_away: dict[int, np.ndarray] = {}  # the flags of _active made on threads other than main
_let_go: list[tuple[threading.Thread, threading.Event]] = []
_idle: list[_Helper] = []
_ctrl_c = [0]  # the Ctrl-Cs the watcher has read that were to stop the program

#: Seconds a stopped call is waited for after Ctrl-C before it is let go.
LET_GO_SECONDS = 0.2

#: Seconds between two looks at the clock (and chances for Ctrl-C) while a call runs.
_POLL_SECONDS = 0.02


@contextlib.contextmanager
def new_flag():
    """A fresh stop flag (``np.zeros(1, int64)``), known to :func:`stop_all` while the
    ``with`` block lasts; made on a thread other than the main one, Ctrl-C sets it too
    (see the module's notes)."""
    flag = np.zeros(1, dtype=np.int64)
    away = threading.current_thread() is not threading.main_thread()
    with _lock:
        _active[id(flag)] = flag
        if away:
            _away[id(flag)] = flag
    try:
        yield flag
    finally:
        with _lock:
            _active.pop(id(flag), None)
            _away.pop(id(flag), None)


def ctrl_c_count() -> int:
    """How many Ctrl-Cs that were to stop the program the watcher has read so far: a
    search that runs Python between slices on a thread other than the main one (where
    no KeyboardInterrupt comes) looks at it between slices, and stops when it grows."""
    return _ctrl_c[0]


def stop_all() -> int:
    """Set every stop flag handed out by :func:`new_flag` and not yet returned; how many."""
    with _lock:
        flags = list(_active.values())
    for flag in flags:
        flag[0] = 1
    return len(flags)


def clock() -> float:
    """Seconds on the clock of every deadline (``timeout=``) in the package:
    ``time.monotonic()`` less the seconds this process has spent compiling the
    package's kernels, so that a deadline counts everything but compiling (a load from
    Numba's cache counts)."""
    from ._compiling import compile_seconds

    return time.monotonic() - compile_seconds()


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
    Ctrl-C or to ``deadline`` (a :func:`clock` value: compiling does not count),
    whichever comes first.

    Returns ``(value, timed_out)``. When the deadline passes the flag is set and the
    call is waited for at most :data:`LET_GO_SECONDS` more (a running kernel returns
    at its next search node; a call that does not is let go, and ``value`` is None;
    the clock stands still while a first call compiles). On Ctrl-C the same (a call
    still compiling is let go), then KeyboardInterrupt is raised again;
    a call stopped by :func:`stop_all` raises KeyboardInterrupt too. Without a
    deadline, a kernel that releases the GIL may run on the calling thread (see the
    module's notes); the outcome is the same.
    """
    if deadline is None and _runs_here(function):
        return _call_here(function, flag, args), False
    return _call_on_helper(function, flag, args, deadline)


def call_on_lanes(function, flag, lanes, *args, deadline: float | None = None, meanwhile=None):
    """``function(*args)`` on ``lanes`` threads at once, every call watching ``flag``:
    ``lanes - 1`` on helper threads, one through :func:`call_stoppable` (on this thread
    where it may run there); True if ``deadline`` stopped them.

    For a kernel that releases the GIL and shares its work between its calls (a
    counter among ``args`` that hands out units until none is left): the calls run
    in parallel without a parallel kernel. ``meanwhile`` (a function, or None) runs on
    this thread once the others have started, before its own call: work of the
    caller's that the calls do not wait for. When the first calls end, the rest are
    waited for in short waits. Ctrl-C or the deadline sets the flag: every call returns
    at its next node, each is waited for at most :data:`LET_GO_SECONDS` (then let go),
    and KeyboardInterrupt is raised again, as in :func:`call_stoppable`; so is an
    error raised by any call.

    Examples
    --------
    >>> import numpy as np
    >>> taken = []
    >>> with new_flag() as flag:
    ...     call_on_lanes(taken.append, flag, 3, "unit")
    False
    >>> taken
    ['unit', 'unit', 'unit']
    """
    others = [_start_lane(function, args) for _ in range(lanes - 1)]
    try:
        if meanwhile is not None:
            meanwhile()
        _, timed_out = call_stoppable(function, flag, *args, deadline=deadline)
        for thread, done, _ in others:
            timed_out = timed_out or _wait_lane(thread, done, flag, deadline)
    except BaseException:  # Ctrl-C: every lane stops at its next node
        flag[0] = 1
        for thread, done, _ in others:
            _wait_for(thread, done, LET_GO_SECONDS)
        raise
    for *_, outcome in others:
        if "error" in outcome:
            raise outcome["error"]
    if flag[0] != 0 and not timed_out:  # stopped by stop_all, or Ctrl-C on another thread
        raise KeyboardInterrupt
    return timed_out


def _start_lane(function, args):
    """``function(*args)`` handed to a helper thread: ``(thread, done, outcome)``."""
    outcome = {}
    done = threading.Event()

    def target():
        try:
            function(*args)
        except BaseException as error:  # raised again by call_on_lanes
            outcome["error"] = error
        finally:
            done.set()

    helper = _helper()
    helper.calls.put(target)
    return helper.thread, done, outcome


def _wait_lane(thread, done, flag, deadline):
    """Wait for one lane of :func:`call_on_lanes` in short waits (Ctrl-C comes between
    them); at ``deadline`` set the flag and wait at most :data:`LET_GO_SECONDS` more.
    True if the deadline passed."""
    while not done.is_set():
        wait = _POLL_SECONDS
        if deadline is not None:
            left = deadline - clock()
            if left <= 0:
                flag[0] = 1
                _wait_for(thread, done, LET_GO_SECONDS)
                return True
            wait = min(wait, left)
        done.wait(wait)
    return False


def _call_on_helper(function, flag, args, deadline):
    """:func:`call_stoppable` on a helper thread, this one waiting in short waits."""
    on_main = threading.current_thread() is threading.main_thread()
    if not _hooked and not on_main:
        _hook_shutdown()
    watcher = _watching(flag, on_main)
    try:
        return _wait_on_helper(function, flag, args, deadline)
    finally:
        if watcher is not None:
            watcher.forget(flag)


def _watching(flag, on_main):
    """On the main thread, the watcher that sets ``flag`` on Ctrl-C from now on (None
    if none does; asyncio's Ctrl-C handler does not raise, so Python's alone would not
    stop the call). Elsewhere None: a flag made there is set on Ctrl-C anyway."""
    if not on_main:
        return None
    watcher = _arm()
    if watcher is not None:
        watcher.watch_main(flag)
    return watcher


def _wait_on_helper(function, flag, args, deadline):
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
                left = deadline - clock()
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


class _Watcher:
    """The other end of this process's signal wake-up socket: a daemon thread blocked
    on reading it (no GIL held, no compiled code run) sets stop flags when SIGINT's
    number arrives and Ctrl-C is to stop the program (:func:`_stops_on_ctrl_c`): the
    flag of the call running on the main thread, and every flag made on other threads.

    Bytes are read in the order they were written. A call on the main thread writes a
    marker byte of its own when it starts, and its flag is set only by a SIGINT read
    after that marker: a Ctrl-C that came before the call (its KeyboardInterrupt already
    raised, maybe caught by a loop that goes on to the next call) does not stop it,
    however late this thread reads it."""

    def __init__(self):
        self.inbox, self.outbox = socket.socketpair()
        self.inbox.setblocking(False)  # Python writes to it from its signal handler
        self.flag = None  # the flag of the call running on the main thread, if any
        self.waiting = None  # (marker, flag) of that call until its marker is read
        self.marker = _MARKERS[0]
        self.reading = False  # bytes taken from the socket, not yet acted on
        thread = threading.Thread(target=self._loop, name="numbadlx-ctrl-c", daemon=True)
        thread.start()

    def _loop(self):
        while True:
            try:
                select.select([self.outbox], [], [])  # no byte taken while waiting
                self.reading = True
                numbers = self.outbox.recv(256)
            except (OSError, ValueError):  # closed (in a forked child)
                return
            try:
                self._act(numbers)
            finally:
                self.reading = False

    def _act(self, numbers):
        """Act on the bytes read, in order."""
        for number in numbers:
            if number == signal.SIGINT:
                if _stops_on_ctrl_c(signal.getsignal(signal.SIGINT)):
                    self._stop()
            elif number >= _MARKERS[0]:
                waiting = self.waiting
                if waiting is not None and waiting[0] == number:
                    self.flag = waiting[1]
                    self.waiting = None

    def _stop(self):
        _ctrl_c[0] += 1
        flag = self.flag
        if flag is not None:
            flag[0] = 1
        with _lock:
            away = list(_away.values())
        for flag in away:
            flag[0] = 1

    def watch_main(self, flag):
        """Have a Ctrl-C that comes from now on set ``flag``, the main thread's call's.

        With nothing unread on the socket nor being acted on, a SIGINT read from now on
        came from now on: the flag is watched at once. Otherwise a marker byte orders it
        after what came before (a marker at every call wakes the watcher each time:
        11-13 us of CPU more for a one-puzzle ``solve`` of 38 us, against 0-4 us)."""
        if not self.reading and not select.select([self.outbox], [], [], 0)[0]:
            self.waiting = None
            self.flag = flag
            return
        self.marker = _MARKERS[0] + (self.marker + 1 - _MARKERS[0]) % len(_MARKERS)
        self.flag = None
        self.waiting = (self.marker, flag)
        try:
            self.inbox.send(bytes([self.marker]))
        except OSError:  # full (the watcher is far behind): watched at once
            self.flag, self.waiting = flag, None

    def forget(self, flag):
        """The call of ``flag`` has ended: no Ctrl-C sets it any more."""
        if self.waiting is not None and self.waiting[1] is flag:
            self.waiting = None
        if self.flag is flag:
            self.flag = None


#: The bytes :meth:`_Watcher.watch_main` writes (no signal has a number this large).
_MARKERS = range(128, 256)


_watcher: list[_Watcher] = []


def _runs_here(function) -> bool:
    """Whether ``function`` may run on this thread with Ctrl-C still reaching it: a
    compiled kernel that releases the GIL, called from the main thread, where Ctrl-C
    has Python's default handler and no other code owns the wake-up descriptor."""
    options = getattr(function, "targetoptions", None)
    return (
        options is not None
        and options.get("nogil", False)
        and threading.current_thread() is threading.main_thread()
        and _stops_on_ctrl_c(signal.getsignal(signal.SIGINT))
    )


#: The SIGINT handler ipykernel sets while a cell with a top-level ``await`` runs (it
#: cancels the cell instead of raising KeyboardInterrupt).
_IPYKERNEL_ASYNC_CELL = "IPythonKernel._cancel_on_sigint.<locals>.handle_sigint"


def _stops_on_ctrl_c(handler) -> bool:
    """Whether ``handler``, SIGINT's Python handler, means Ctrl-C is to stop the
    program: Python's default, the one ``asyncio.run`` puts in its place while its
    main task runs (it cancels that task at the first Ctrl-C and raises at the second;
    a kernel it stopped raises KeyboardInterrupt, which ``asyncio.run`` passes on), or
    the one a Jupyter kernel (ipykernel) sets while a cell with ``await`` runs (it
    cancels the cell)."""
    if handler is signal.default_int_handler:
        return True
    if (
        getattr(handler, "__module__", None) == "ipykernel.ipkernel"
        and getattr(handler, "__qualname__", None) == _IPYKERNEL_ASYNC_CELL
    ):
        return True  # a Jupyter cell with ``await``: Ctrl-C cancels it
    runners = sys.modules.get("asyncio.runners")  # loaded if asyncio.run is running
    on_sigint = getattr(getattr(runners, "Runner", None), "_on_sigint", None)
    method = getattr(handler, "func", None)  # asyncio.run's is a functools.partial
    return on_sigint is not None and getattr(method, "__func__", None) is on_sigint


def _arm():
    """Make this process's socket the signal wake-up descriptor, on the main thread and
    where no other code owns it; the watcher if it is (None if not). The descriptor
    then stays ours: a SIGINT that comes while calls run on other threads, the main
    thread waiting for them in code of its own, reaches the watcher too."""
    if threading.current_thread() is not threading.main_thread():
        return None
    with _lock:
        if not _watcher:  # a forked child drops its parent's (_after_fork_in_child)
            _watcher[:] = [_Watcher()]
        watcher = _watcher[0]
    ours = watcher.inbox.fileno()
    try:
        before = signal.set_wakeup_fd(ours, warn_on_full_buffer=False)
    except (ValueError, OSError):  # not allowed here
        return None
    if before not in (-1, ours):  # asyncio's, or another's: give it back
        signal.set_wakeup_fd(before)
        return None
    return watcher


def _call_here(function, flag, args):
    """``function(*args)`` on this (the main) thread, with our socket as the signal
    wake-up descriptor; on a helper thread when another owns it."""
    watcher = _arm()
    if watcher is None:
        return _call_on_helper(function, flag, args, None)[0]
    watcher.watch_main(flag)
    try:
        value = function(*args)
    finally:
        watcher.forget(flag)
    if flag[0] != 0:  # stopped: by Ctrl-C (its KeyboardInterrupt is due now) or stop_all
        raise KeyboardInterrupt
    return value


_hooked: list[bool] = []


def _hook_shutdown():
    """Have :func:`_stop_if_ctrl_c_ended_main` run as Python shuts down, before it waits
    for the threads still running (once; on the first call from a thread other than the
    main one, so that it runs before a thread pool's own wait, registered earlier)."""
    with _lock:
        if _hooked:
            return
        _hooked.append(True)
    register = getattr(threading, "_register_atexit", None)  # Python 3.9+
    if register is not None:
        with contextlib.suppress(RuntimeError):  # shutdown has begun
            register(_stop_if_ctrl_c_ended_main)


def _stop_if_ctrl_c_ended_main():
    """When the main thread ended in KeyboardInterrupt, stop every kernel call still
    running: Python waits for its other threads before it exits, and one running an
    endless call (a thread pool's worker, say) held the exit until a second Ctrl-C. The
    calls stopped raise KeyboardInterrupt in their threads (see :func:`stop_all`)."""
    ended = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
    if isinstance(ended, KeyboardInterrupt):
        stop_all()


def _after_fork_in_child():
    """In a forked child: none of the parent's threads came along, so forget the idle
    helpers (a call handed to one would wait for ever) and the watcher; take a fresh
    lock (another thread may have held it at the fork); and unset our signal wake-up
    descriptor, the parent's socket (the child's Ctrl-C would otherwise stop the
    parent's calls). The child's next call on its main thread sets its own."""
    global _lock
    _lock = threading.Lock()
    _idle.clear()
    _let_go.clear()
    if _watcher:
        watcher = _watcher.pop()
        with contextlib.suppress(ValueError, OSError):
            before = signal.set_wakeup_fd(-1)
            if before != watcher.inbox.fileno():
                signal.set_wakeup_fd(before)  # not ours: left as it was
        watcher.inbox.close()
        watcher.outbox.close()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def let_go() -> list[threading.Thread]:
    """The threads this module let go that still run their call (compiling, most
    likely)."""
    with _lock:
        _let_go[:] = [(t, done) for t, done in _let_go if not done.is_set()]
        return [t for t, _ in _let_go]


def join_for(worker, seconds, done=None):
    """Wait up to ``seconds`` for ``worker`` (a thread) to end, through a second Ctrl-C
    too; True if it ended, else it is noted as let go (:func:`let_go`).

    ``done``, an Event the thread sets as its last act, is what to wait on when there
    is one: the thread's own state is not to be trusted after Ctrl-C. On Python 3.11
    (and older), a KeyboardInterrupt that interrupts ``Thread.join`` marks the thread
    as ended while it still runs (``is_alive()`` False): a thread still compiling was
    then not let go, and the command's exit tore the interpreter down beside LLVM,
    which crashed the process (SIGSEGV or SIGABRT) in 35 of 110 Ctrl-Cs sent at
    random moments of a first ``numbadlx generate --size 25`` on an empty cache.
    """
    return _wait_for(worker, _Ended(worker) if done is None else done, seconds)


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


_arm()  # imported on the main thread (as a program's first use does): Ctrl-C watched
