"""Command line: ``numbadlx solve`` (Sudoku files), ``numbadlx count`` (DLX files),
``numbadlx generate`` / ``numbadlx rate`` (make puzzles, rate them) and ``numbadlx dedup``
(one puzzle of each class of equivalent puzzles).

``numbadlx solve [INPUT] [-o OUTPUT]`` streams a puzzle file in chunks (bounded
memory), solves each chunk with the parallel bulk solver and writes one line per
puzzle, in input order:

* the solution, in the input's alphabet, when the puzzle has exactly one (UNIQUE) or
  one was asked for (SOLVED, ``--limit 1``);
* otherwise the solution found or the puzzle itself, then ``  # STATUS`` (MULTIPLE,
  NO_SOLUTION, INVALID with the reason, BUDGET).

With ``-o name.csv`` the output is CSV: ``puzzle,solution,status,count,nodes,message``
(the message: the INVALID reason, or what is wrong with a CSV input's solution column); with
``--output-format grid`` each puzzle is ``n`` lines of space-separated values and a
blank line (the shape of contest files; a note line ``# STATUS`` after an unsolved
one). ``--column NAME`` picks the puzzle column of a CSV input.
Without INPUT it solves the sample puzzles shipped in the package.

Output goes to a file chunk by chunk, each chunk flushed and fsynced before a small
checkpoint file (``OUTPUT.progress``) records how far the input was read, so an
interrupted run (Ctrl-C, a kill, a crash) loses nothing: ``--resume`` cuts the output
back to the last checkpoint and carries on from there.

What an interruption leaves:

* Ctrl-C (SIGINT) stops within a fraction of a second even in the middle of a long
  search (the solver runs on a helper thread; the main thread waits for it in a way a
  signal can break). The output is cut back to the last checkpoint, so it holds
  complete lines for a prefix of the input, and the message says how many puzzles that
  is. Exit code 130.
* A kill (SIGKILL, a crash, a power cut) cannot clean up: the output holds complete
  lines up to the checkpoint's ``output_bytes``, and possibly part of the chunk being
  written after them. ``--resume`` cuts that tail and carries on; the final output is
  byte for byte the one an uninterrupted run writes.
* The checkpoint also records the input's fingerprint (size, mtime and a SHA-256 of
  the bytes already solved) and the options that shape the output (``--limit``,
  ``--max-nodes``, ``--timeout``, ``--box``, ``--format``, ``--column``, ``--engine``,
  the output kind and the puzzle size) and a SHA-256 of the output bytes committed,
  and ``--resume`` refuses a changed input, other options or a changed output. The
  output is locked while a run writes it.
* An output that holds something (a regular file that is not empty) is never replaced
  without ``--overwrite``: the command stops before any work (exit code 2), and names
  a file with a checkpoint as an interrupted run, to carry on with ``--resume`` or
  start afresh with ``--overwrite``. ``dedup`` takes ``--overwrite`` too.

``--timeout SECONDS`` limits the wall-clock time spent on each chunk of
``--chunk-size`` puzzles (``timeout`` of :func:`numbadlx.sudoku.solve`): puzzles of
the chunk that are not finished by then get BUDGET, the hardest ones last.

``numbadlx rate`` runs through the same checkpointed output (``--resume``, standard
input, ``--dask``), and so does ``numbadlx generate`` (``--resume``), a block of
``--chunk-size`` puzzles at a time, with its options and seed as the fingerprint.

This package parses the arguments and prints; the work is done by the file jobs of
:mod:`numbadlx.jobs` (:func:`~numbadlx.jobs.solve_file`,
:func:`~numbadlx.jobs.rate_file`, :func:`~numbadlx.jobs.generate_file`), on their
local executor or, with ``--dask``, their Dask executor: both write the same output
and checkpoints, and take every option.
"""

import os
import sys

from ._common import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_NO_ANSWER,
    EXIT_OK,
    EXIT_UNFINISHED,
    EXIT_USAGE,
    os_error_text,
)
from ._parser import build_parser

__all__ = [
    "main",
    "EXIT_OK",
    "EXIT_NO_ANSWER",
    "EXIT_USAGE",
    "EXIT_UNFINISHED",
    "EXIT_INTERRUPTED",
    "EXIT_BROKEN_PIPE",
    "build_parser",
]


def main(argv=None):
    """Entry point of the ``numbadlx`` command."""
    if argv is None:  # the process is the command: it ends when this returns
        _skip_the_collection_at_exit()
        _one_blas_thread()
    code = _main(argv, command=argv is None)
    if argv is None:
        _leave_now_if_compiling(code)
    return code


def _leave_now_if_compiling(code):
    """After Ctrl-C a kernel call may have been let go while Numba still compiled it on
    a helper thread (it cannot be stopped). The interpreter's teardown would then run
    beside LLVM's and can crash: leave at once instead, with the command's exit code,
    once what was written is flushed (the outputs are closed already)."""
    from .._stopping import let_go

    if let_go():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _main(argv, command=False):
    args = build_parser().parse_args(argv)
    if getattr(args, "resume", False) and args.output in (None, "-"):
        print("numbadlx: error: --resume needs -o OUTPUT (a file)", file=sys.stderr)
        return EXIT_USAGE
    try:
        if command:
            _load_collector_paused(getattr(args, "loads", ()))
        return args.run(args)
    except KeyboardInterrupt:
        # Ctrl-C outside the solve loop (reading stdin, checking a resume): nothing
        # was written yet that needs cutting back
        print("numbadlx: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # e.g. `numbadlx solve big.txt | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except (ValueError, OSError) as error:
        print(f"numbadlx: error: {os_error_text(error)}", file=sys.stderr)
        return EXIT_USAGE


#: The variables OpenBLAS reads its thread count from; a user's setting of any wins.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _one_blas_thread():
    """Let NumPy's OpenBLAS start no thread pool of its own in this process (and in the
    worker processes it starts), unless the user set a thread count for it.

    OpenBLAS starts its threads when NumPy is imported, and each spins on a core a
    while before it sleeps: about 0.05 CPU s of a one-puzzle solve on two cores (a
    tenth of it), for a command that does no linear algebra. Once NumPy is loaded the
    count is fixed, so this does nothing then.
    """
    if "numpy" in sys.modules or any(os.environ.get(name) for name in BLAS_THREAD_VARIABLES):
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"


def _load_collector_paused(modules):
    """Import ``modules`` (the work of the command: NumPy, Numba and the engines) with
    the garbage collector paused, then move what they made out of its reach
    (``gc.freeze``): those imports make some 90,000 objects that live as long as the
    process, and the collector's passes over them while they were made (about 150 of
    them) cost some 0.03 CPU s of a one-puzzle solve. The few hundred objects of
    garbage they leave are kept, not freed. Modules already loaded cost nothing.

    A Ctrl-C during these imports is raised once they are done (a second or two): one
    raised inside an import left a module half made, and the command then ended with a
    traceback (a KeyboardInterrupt in a dataclass's ``__set_name__`` comes out as a
    RuntimeError) or killed by the signal, not with exit code 130."""
    import gc

    if all(name in sys.modules for name in modules):
        return
    pressed = []
    deferred = False
    gc.disable()  # before the imports below too: they make objects as well
    try:
        import importlib
        import signal
        import threading

        deferred = (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        )
        if deferred:
            signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
        for name in modules:
            importlib.import_module(name)
    finally:
        gc.freeze()
        gc.enable()
        if deferred:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    if pressed:
        raise KeyboardInterrupt


def _skip_the_collection_at_exit():
    """At exit, move every object out of the garbage collector's reach (``gc.freeze``):
    its last walk over Numba's compiled-code objects took a third of the CPU time of
    a one-puzzle solve, to free memory the process is about to give back anyway. Exit
    handlers still run (this one after those registered during the command), every file
    of ours is closed by then (``with`` blocks), and ``weakref.finalize`` callbacks
    still run."""
    import atexit
    import gc

    atexit.register(gc.freeze)


if __name__ == "__main__":
    sys.exit(main())
