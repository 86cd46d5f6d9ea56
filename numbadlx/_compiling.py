"""Say when a call compiles kernels, and for how long: never a silent wait.

The first call of a kernel compiles it (seconds to tens of seconds); Numba then keeps
it in its disk cache, and later runs load it in a fraction of a second. Numba announces
every real compile (not a load from the cache) as a ``numba:compile`` event; a listener
here follows the compiles of this package's kernels, and every public entry point that
may compile runs inside :func:`first_use`, which turns them into one message:

* on a terminal or in Jupyter, a spinner on standard error once a compile has run for
  half a second (a load from the cache never shows it), then one line
  ``numbadlx: compiled <what> in N s ...``;
* elsewhere (a pipe, a log file) only that line.

Nothing is printed when the compiles of a call took less than half a second in all,
nor at all with the environment variable ``NUMBADLX_QUIET`` set to ``1`` (read at each
call, so ``os.environ["NUMBADLX_QUIET"] = "1"`` works in a running notebook).
:func:`compile_seconds` is the running total, which the file jobs subtract from the
time their rates are computed on.

This module imports Numba only when a call first enters :func:`first_use`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
import time

#: A compile shorter than this shows no spinner, and calls whose compiles took less in
#: all say nothing (loading from the cache takes 0.1-0.5 s and is never announced).
SHOW_AFTER = 0.5
_FRAMES = "|/-\\"
_PACKAGE = __name__.rpartition(".")[0] + "."

_lock = threading.RLock()
_state = {
    "installed": False,
    "depth": 0,  # nesting of this package's compile events (callees compile inside)
    "burst": 0.0,  # when the outermost compile now running began
    "total": 0.0,  # seconds of finished outermost compiles
    "reporter": None,  # the active first_use context, if any
}


def quiet() -> bool:
    """Whether messages are off (environment variable ``NUMBADLX_QUIET`` set to 1)."""
    return os.environ.get("NUMBADLX_QUIET", "").strip().lower() in ("1", "true", "yes")


def compile_seconds() -> float:
    """Seconds this process has spent compiling the package's kernels so far (loads
    from Numba's cache not counted), counted from the first call of this function or
    of :func:`first_use` on."""
    with _lock:
        _install()
        running = time.perf_counter() - _state["burst"] if _state["depth"] else 0.0
        return _state["total"] + running


def interactive(stream) -> bool:
    """A terminal, or a Jupyter kernel's stream (it draws ``\\r`` as a terminal does)."""
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError):
        return False
    return type(stream).__name__ == "OutStream" and "ipykernel" in sys.modules


def _ours(event) -> bool:
    function = getattr(event.data.get("dispatcher"), "py_func", None)
    return getattr(function, "__module__", "").startswith(_PACKAGE)


def _install():
    """Listen to Numba's compile events (once per process)."""
    if _state["installed"]:
        return
    from numba.core import event

    class _Listener(event.Listener):
        def on_start(self, ev):
            if not _ours(ev):
                return
            with _lock:
                _state["depth"] += 1
                if _state["depth"] > 1:
                    return
                _state["burst"] = time.perf_counter()
                if _state["reporter"] is None:
                    # a compile outside any first_use call: announced on its own
                    name = ev.data["dispatcher"].py_func.__qualname__
                    _state["reporter"] = _Reporter(f"kernel {name}", standalone=True)
                _state["reporter"].spin()

        def on_end(self, ev):
            if not _ours(ev):
                return
            done = None
            with _lock:
                _state["depth"] -= 1
                if _state["depth"] == 0:
                    _state["total"] += time.perf_counter() - _state["burst"]
                    reporter = _state["reporter"]
                    if reporter is not None:
                        reporter.clear()  # at once: the call may print next
                    if reporter is not None and reporter.standalone:
                        done = reporter
                        _state["reporter"] = None
            if done is not None:
                done.finish()

    event.register("numba:compile", _Listener())
    _state["installed"] = True


class _Reporter:
    """The spinner and the closing line of one call."""

    def __init__(self, what, standalone=False, say_done=True, spin=True):
        self.what = what
        self.spins = spin
        self.say_done = say_done
        self.standalone = standalone
        self.stream = sys.stderr
        self.started = compile_seconds()
        self.stop = None  # the spinner's stop event, made with the spinner
        self.thread = None
        self.drawn = 0  # width of the spinner line on screen (0: none)

    def spin(self):
        """Start the spinner (once; on a terminal or in Jupyter only): it shows while
        a compile has run for :data:`SHOW_AFTER` seconds."""
        if self.thread is not None or not self.spins or quiet() or not interactive(self.stream):
            return
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._spin, name="numbadlx-compiling", daemon=True)
        self.thread.start()

    def _write(self, text):
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def _spin(self):
        frame = 0
        while not self.stop.wait(0.1):
            with _lock:  # the listener clears the line under the same lock
                compiling = _state["depth"] > 0
                if compiling and time.perf_counter() - _state["burst"] >= SHOW_AFTER:
                    seconds = compile_seconds() - self.started
                    line = (
                        f"numbadlx: compiling {self.what} (first use; Numba caches it) "
                        f"{_FRAMES[frame % len(_FRAMES)]} {seconds:.0f} s"
                    )
                    self._write("\r" + line.ljust(self.drawn))
                    self.drawn = len(line)
                    frame += 1
                elif self.drawn:
                    self.clear()

    def clear(self):
        """Take the spinner's line off the screen (when one is drawn)."""
        if self.drawn:
            self._write("\r" + " " * self.drawn + "\r")
            self.drawn = 0

    def finish(self):
        """Stop the spinner and say how long the compiles of this call took."""
        if self.thread is not None:
            self.stop.set()
            if self.thread is not threading.current_thread():
                self.thread.join()
        with _lock:
            self.clear()
        seconds = compile_seconds() - self.started
        if self.say_done and seconds >= SHOW_AFTER and not quiet():
            self._write(
                f"numbadlx: compiled {self.what} in {seconds:.1f} s (first use; Numba "
                "caches it for later runs)\n"
            )


@contextlib.contextmanager
def first_use(what: str, say_done: bool = True, spin: bool = True):
    """Run the body, announcing any kernel it compiles as ``what`` ("the Sudoku solver
    (bands engine)"): the spinner (unless ``spin`` is False: the caller shows its own),
    then (with ``say_done``) the closing line, which a body stopped by Ctrl-C does not
    get.

    Reentrant and shared between threads: only the outermost call reports, once.
    """
    with _lock:
        _install()
        outermost = _state["reporter"] is None
        if outermost:
            reporter = _Reporter(what, say_done=say_done, spin=spin)
            _state["reporter"] = reporter
    if not outermost:
        yield
        return
    try:
        yield
    except KeyboardInterrupt:
        # stopped, perhaps in the middle of a compile (let go, see numbadlx._stopping):
        # nothing to announce as compiled
        reporter.say_done = False
        raise
    finally:
        with _lock:
            if _state["reporter"] is reporter:
                _state["reporter"] = None
        reporter.finish()


def inner_njit(**options):
    """``numba.njit(**options)`` for a helper that only other kernels call.

    Numba then builds no Python or C entry point for it: each entry point is code of
    its own to generate and optimise on first use (about a tenth of the first-use
    compile time of ``rate`` over the making helpers; the bits engine's helpers and the
    exact-cover link primitives use it too). Called from Python, such a helper raises
    TypeError (a plain Numba dispatcher would jump to the missing entry point); its
    ``.py_func`` runs it in Python.

    Numba compiles NumPy's own functions (``np.zeros``, ``np.empty``) once for each
    set of compile options of their callers, so helpers that allocate the larger work
    arrays stay plain ``njit``: with both kinds allocating the same arrays, those
    functions would be compiled twice. The cages engine's propagators are the
    exception that pays: some allocate a small array, but each takes the constraint
    table, whose entry point would unpack its forty arrays (about 2.5 CPU s of first
    use over the engine, against a few tenths for the allocators compiled again).

    Examples
    --------
    >>> from numba import njit
    >>> @inner_njit(nogil=True)
    ... def twice(x):
    ...     return 2 * x
    >>> @njit
    ... def caller(x):
    ...     return twice(x) + 1
    >>> caller(20), twice.py_func(3)
    (41, 6)
    """
    from numba import njit  # here, not at the top: importing this module stays light
    from numba.core.registry import CPUDispatcher

    compile_ = njit(no_cpython_wrapper=True, no_cfunc_wrapper=True, **options)

    def decorate(function):
        dispatcher = compile_(function)
        if isinstance(dispatcher, CPUDispatcher):  # not with NUMBA_DISABLE_JIT
            dispatcher.__class__ = _kernel_only(CPUDispatcher)
        return dispatcher

    return decorate


def light_cache_load(kernel):
    """Let ``kernel`` (a cached ``@njit`` kernel) load from Numba's disk cache without
    readying Numba's compiler first; returns ``kernel``.

    Before it reads its cache, a Numba kernel installs every typing and lowering
    registry of Numba (about sixty modules: strings, dictionaries, cffi and the rest):
    about 0.15 CPU s the first time in a process, most of a warm cold start of the
    command line. Code loaded from the cache needs none of it, only Numba's runtime,
    which is set up here instead. When the cache has nothing for the call, Numba
    compiles as it always does, and its compiler installs the registries itself before
    it types anything.

    Kernels without a disk cache, and other Numba versions whose cache lacks the
    methods used here, are left as they are.

    Examples
    --------
    >>> from numba import njit
    >>> @light_cache_load  # a kernel of a module file would have cache=True
    ... @njit
    ... def triple(x):
    ...     return 3 * x
    >>> triple(14)
    42
    """
    cache = getattr(kernel, "_cache", None)
    if all(
        hasattr(cache, name)
        for name in ("_load_overload", "_guard_against_spurious_io_errors", "load_overload")
    ):
        cache.__class__ = _light_cache(type(cache))
    return kernel


@functools.cache
def _light_cache(cache_class):
    """The cache class of :func:`light_cache_load`'s kernels (made once per class)."""
    from numba.core.runtime import rtsys

    class LightCache(cache_class):
        def load_overload(self, sig, target_context):
            # Numba's own load refreshes target_context first; the loaded code only
            # calls the runtime (a compile after a miss refreshes it itself)
            rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)

    return LightCache


@functools.cache
def _kernel_only(dispatcher_class):
    """The dispatcher class of :func:`inner_njit`'s helpers (made once, on first use)."""

    class KernelOnly(dispatcher_class):
        def __call__(self, *args, **kwargs):
            raise TypeError(
                f"{self.py_func.__module__}.{self.py_func.__qualname__} has no Python "
                "entry point: only other kernels call it (its .py_func runs it in Python)"
            )

    return KernelOnly
