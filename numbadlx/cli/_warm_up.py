"""``numbadlx warm-up``: compile (or load) the kernels ahead, one named group at a time,
the groups shared out between worker processes (Numba compiles on one thread)."""

import os
import queue
import signal
import sys
import threading
import time
import traceback

from ._common import EXIT_OK

# Small problems in Knuth's DLX text: plain, with colours, with a multiplicity.
_PLAIN = "a b c\na b\nc\na\nb c\n"
_COLOURED = "p q | x\np x:red\nq x:red\nq x:blue\n"
_MULTIPLE = "2|p q | x\np x:red\np q x:red\nq\n"


def _variant(sudoku, rows, threads, rules, engine="auto"):
    """Solve ``rows`` empty 4x4 grids under ``rules`` (a 4x4 rule set that ``sudoku``'s
    Rules builds from its arguments): the tables and kernels of that rule kind."""
    import numpy as np

    kind, arguments = rules
    made = sudoku.Rules.killer(*arguments) if kind == "killer" else sudoku.Rules(**arguments)
    grid = np.zeros((rows, 16), dtype=np.uint8)
    return sudoku.solve(grid, rules=made, engine=engine, threads=threads, limit=2)


# 4x4 rule sets whose solving compiles what a file of their kind needs: a Killer
# Sudoku (cage tables with innies and outies, the "cages" engine) and a grid with an
# extra unit and extra peers (the rule tables of "bits" and "dlx").
_KILLER = ("killer", ("aabbcddecfgehfgg", [3, 7, 5, 5, 5, 4, 7, 4]))
_X_KNIGHT = ("rules", {"diagonals": True, "anti_knight": True})


def _priced_text():
    """DLX text long enough for the compiled scanner, with costs."""
    options = "".join(f"{item} |{k}\n" for k in range(1500) for item in "ab")
    return "a b\n" + options


def _groups(everything):
    """``(name, function)`` for each group of kernels, the common paths first."""
    from .. import sudoku
    from ..core import ExactCover

    sample = sudoku.parse(sudoku.default_sample_path())[:300]

    def cover(text):
        return ExactCover.from_dlx(text)

    def both(call):
        """A call of one puzzle and one of more, on more threads."""
        return lambda: (call(1, 1), call(300, None))

    def compiled_rater(k, threads):
        """A large call's compiled ladder (a first call of moderate work runs the
        stepwise one until this is in the cache)."""
        from ..sudoku.making import compiled_ladder

        with compiled_ladder():
            return sudoku.rate(sample[:k], threads=threads)

    groups = [
        ("Sudoku solver, 9x9 (bands engine)", lambda: sudoku.warm_up(("bands",))),
        (
            "Sudoku rater (logic ladder and tries)",
            both(lambda k, threads: sudoku.rate(sample[:k], threads=threads)),
        ),
        # (more threads run the same compiled functions: one call compiles them)
        ("Sudoku generator", lambda: sudoku.generate(2, 4, seed=0, threads=1)),
        ("exact cover: links and Algorithm X", lambda: cover(_PLAIN).count()),
        ("exact cover: Algorithm C (colours)", lambda: cover(_COLOURED).count()),
    ]
    if everything:
        groups += [
            (
                "Sudoku rater, compiled ladder (large calls)",
                lambda: compiled_rater(300, None),
            ),
            ("Sudoku solver, every size (bits engine)", lambda: sudoku.warm_up(("bits",))),
            ("Sudoku solver, every size (dlx engine)", lambda: sudoku.warm_up(("dlx",))),
            (
                "Sudoku variants: cages, thermos, pairs (cages engine and its tables)",
                lambda: _variant(sudoku, 1, 1, _KILLER),
            ),
            (
                "Sudoku variants: regions and peers (rule tables of bits and dlx)",
                lambda: [_variant(sudoku, 1, 1, _X_KNIGHT, engine) for engine in ("bits", "dlx")],
            ),
            (
                "Sudoku generator with a rating bound",
                lambda: sudoku.generate(2, 4, seed=0, rating=(0, 20), threads=1),
            ),
            ("random grids and isomorphs", lambda: sudoku.transform(sudoku.random_grids(1, 4))),
            ("exact cover: Algorithm M (multiplicities)", lambda: cover(_MULTIPLE).count()),
            (
                "exact cover: memoised count and ZDD",
                lambda: (cover(_PLAIN).count(method="memo"), cover(_COLOURED).zdd().sample(1)),
            ),
            ("exact cover: threaded count", lambda: cover(_PLAIN).count(threads=2)),
            (
                "exact cover: large DLX text and the cheapest cover",
                lambda: cover(_priced_text()).cheapest(),
            ),
        ]
    return groups


#: Roughly how long a run takes on an empty Numba cache, said before it starts, by
#: ``(--all, more than one process)``: one after another the common groups took 18 CPU
#: s, --all 85 CPU s on a two-core machine (compiling runs on one thread, so on an
#: idle machine wall time is about CPU time); two processes share out nearly the same
#: CPU time between the two cores. A cache that holds the kernels makes it seconds; a
#: busy machine, longer.
ABOUT_MINUTES = {
    (False, False): "0.5-1",
    (True, False): "1.5-2",
    (False, True): "0.25-0.5",
    (True, True): "1-1.5",
}


class _Showing:
    """One group's line on standard error: on a terminal ``[k/N] name |`` with a spinner
    and the seconds so far, redrawn until the group is done; elsewhere the line once, as
    the group starts. :meth:`done` ends it with what the group took."""

    FRAMES = "|/-\\"

    def __init__(self, head, stream, live):
        self.head, self.stream, self.live = head, stream, live
        self.begin = time.perf_counter()
        self.stop = threading.Event()
        self.thread = None
        if live:
            self.thread = threading.Thread(target=self._spin, daemon=True)
            self.thread.start()
        else:
            self._write(f"{head} ...\n")

    def _write(self, text):
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def _spin(self):
        frame = 0
        while not self.stop.wait(0.1 if frame else 0.0):
            seconds = time.perf_counter() - self.begin
            self._write(f"\r{self.head} {self.FRAMES[frame % 4]} {seconds:.0f} s")
            frame += 1

    def done(self, how):
        """End the line: ``how`` ("compiled", ...) and the seconds; the seconds."""
        seconds = time.perf_counter() - self.begin
        if self.thread is not None:
            self.stop.set()
            self.thread.join()
            self._write("\r\x1b[K")  # the spinner's line cleared
        self._write(f"{self.head}: {how} in {seconds:.1f} s\n")
        return seconds


def processes_available() -> int:
    """The CPUs this process may run on: how many groups compile at once by default.

    Examples
    --------
    >>> processes_available() >= 1
    True
    """
    if not _can_fork():
        return 1
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _can_fork() -> bool:
    """Whether workers can be forked here (Linux: they share this process's modules;
    elsewhere the groups compile one after another)."""
    import multiprocessing

    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


#: Seconds each group took to compile, one after another, on a busy two-core machine:
#: the largest are handed out first, so that the workers finish about together.
_SECONDS = {
    "Sudoku variants: cages, thermos, pairs (cages engine and its tables)": 37.8,
    "Sudoku rater, compiled ladder (large calls)": 29.6,
    "Sudoku rater (logic ladder and tries)": 9.3,
    "Sudoku solver, every size (bits engine)": 8.5,
    "Sudoku variants: regions and peers (rule tables of bits and dlx)": 8.2,
    "Sudoku solver, every size (dlx engine)": 6.0,
    "Sudoku generator with a rating bound": 5.6,
    "exact cover: large DLX text and the cheapest cover": 5.1,
    "Sudoku solver, 9x9 (bands engine)": 4.7,
    "random grids and isomorphs": 4.2,
    "exact cover: memoised count and ZDD": 3.3,
    "exact cover: links and Algorithm X": 3.2,
    "Sudoku generator": 2.9,
    "exact cover: Algorithm M (multiplicities)": 2.6,
}


#: Groups run one after the other in one worker, in this order: the stepwise rater
#: before the compiled ladder (a process that holds the compiled ladder rates small
#: calls with it too, and would compile no stepwise rung), and the bits engine before
#: the rule tables it is compiled for again.
_TOGETHER = (
    ("Sudoku rater (logic ladder and tries)", "Sudoku rater, compiled ladder (large calls)"),
    (
        "Sudoku solver, every size (bits engine)",
        "Sudoku variants: regions and peers (rule tables of bits and dlx)",
    ),
)


def _bundles(names):
    """The groups ``names`` (by number) in bundles a worker runs one after another:
    those of :data:`_TOGETHER` together, the rest alone; the largest first."""
    bundles = {k: [k] for k in range(len(names))}
    for first, then in _TOGETHER:
        if first in names and then in names:
            bundles[names.index(first)].append(names.index(then))
            del bundles[names.index(then)]
    return sorted(
        (tuple(bundle) for bundle in bundles.values()),
        key=lambda bundle: -sum(_SECONDS.get(names[k], 1.0) for k in bundle),
    )


def _end_with(parent):
    """Have the kernel kill this process when its parent (``parent``, its process id)
    ends, however it ends (Linux: ``prctl(PR_SET_PDEATHSIG)``; elsewhere nothing)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (AttributeError, OSError):
        return
    if os.getppid() != parent:  # it ended before the call
        os._exit(1)


def _work(everything, tasks, results, parent):
    """A worker process: run the bundles of groups (their numbers) from ``tasks`` until
    ``None``, putting ``("start", k)``, then ``("done", k, compiled, seconds)`` or
    ``("failed", k, error, text)`` on ``results``. Ctrl-C is the parent's to handle: it
    kills the workers, and a worker whose parent ended (killed) ends too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with(parent)
    from .._compiling import compile_seconds, first_use

    groups = _groups(everything)
    while (bundle := tasks.get()) is not None:
        for number in bundle:
            name, run = groups[number]
            results.put(("start", number))
            compiled, begin = compile_seconds(), time.perf_counter()
            try:
                with first_use(name, say_done=False, spin=False):
                    run()
            except BaseException as error:  # noqa: BLE001 (handed to the parent)
                text = traceback.format_exc()
                try:
                    results.put(("failed", number, error, text))
                except Exception:  # noqa: BLE001 (an error that does not pickle)
                    results.put(("failed", number, None, text))
                return
            compiled = compile_seconds() - compiled > 0
            results.put(("done", number, compiled, time.perf_counter() - begin))


def _in_parallel(everything, names, processes, write, live):
    """Run the groups ``names`` in ``processes`` worker processes (forked: they see
    this process's modules), writing each group's line as it starts and as it ends; on a
    terminal a status line below them. Ctrl-C, or a group's error, kills the workers."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    tasks, results = context.SimpleQueue(), context.Queue()
    for bundle in _bundles(names):
        tasks.put(bundle)
    workers = [
        context.Process(target=_work, args=(everything, tasks, results, os.getpid()), daemon=True)
        for _ in range(processes)
    ]
    for worker in workers:
        tasks.put(None)
        worker.start()
    running, left = {}, len(names)
    head = [f"[{k + 1}/{len(names)}] {name}" for k, name in enumerate(names)]
    started = time.perf_counter()
    status = ""
    try:
        while left:
            try:
                message = results.get(timeout=0.1)
            except queue.Empty:
                if not any(worker.is_alive() for worker in workers):
                    raise RuntimeError("a warm-up worker process ended early") from None
                if live:
                    seconds = time.perf_counter() - started
                    now = f"\r({len(running)} groups running, {seconds:.0f} s)"
                    if now != status:  # a second more: drawn once
                        status = now
                        write(status)
                continue
            if status:
                write("\r\x1b[K")
                status = ""
            kind, number = message[:2]
            if kind == "start":
                running[number] = time.perf_counter()
                write(f"{head[number]} ...\n")
            elif kind == "done":
                how = "compiled" if message[2] else "loaded from the cache"
                write(f"{head[number]}: {how} in {message[3]:.1f} s\n")
                running.pop(number, None)
                left -= 1
            else:
                write(f"{head[number]}: stopped\n")
                error, text = message[2], message[3]
                if isinstance(error, KeyboardInterrupt):
                    raise KeyboardInterrupt
                if isinstance(error, Exception):
                    raise error from RuntimeError(text)
                raise RuntimeError(text)
    except BaseException:
        if status:
            write("\r\x1b[K")
        for number in running:
            write(f"{head[number]}: stopped\n")
        raise
    finally:
        for worker in workers:
            worker.kill()
        for worker in workers:
            worker.join()


def warm_up_command(args):
    """Run every group, in ``args.processes`` worker processes at once (default: the
    CPUs available; 1: in this process, one after another), saying what each took:
    compiled, or loaded from the cache; on a terminal a spinner or a status line shows
    while groups run."""
    from .._compiling import compile_seconds, first_use, interactive, quiet

    groups = _groups(args.all)
    stream = sys.stderr
    live = interactive(stream) and not quiet()
    processes = min(getattr(args, "processes", None) or processes_available(), len(groups))
    if not _can_fork():
        processes = 1
    about = {every: ABOUT_MINUTES[every, processes > 1] for every in (False, True)}
    others = "" if args.all else f"; --all, every engine and kernel, {about[True]}"
    print(
        f"numbadlx: warming up {len(groups)} kernel groups: about {about[args.all]} "
        f"minutes on an empty cache, seconds once they are cached (an idle machine{others})",
        file=stream,
    )
    started = time.perf_counter()
    if processes > 1:

        def write(text):
            try:
                stream.write(text)
                stream.flush()
            except (OSError, ValueError):
                pass

        names = [name for name, _ in groups]
        _in_parallel(args.all, names, processes, write, live)
    for number, (name, run) in enumerate(groups if processes == 1 else [], 1):
        compiled = compile_seconds()
        showing = _Showing(f"[{number}/{len(groups)}] {name}", stream, live)
        try:
            with first_use(name, say_done=False, spin=False):
                run()
        except BaseException:
            showing.done("stopped")
            raise
        showing.done("compiled" if compile_seconds() - compiled > 0 else "loaded from the cache")
    print(
        f"numbadlx: {len(groups)} kernel groups ready in {time.perf_counter() - started:.1f} s"
        f"{f' ({processes} processes at once)' if processes > 1 else ''}"
        f"{'' if args.all else ' (--all: every engine and kernel)'}",
        file=stream,
    )
    return EXIT_OK
