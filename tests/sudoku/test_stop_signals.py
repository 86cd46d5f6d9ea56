"""Ctrl-C from outside, as users send it, against the kernel calls of ``_stopping``.

The cases ``test_stop.py`` leaves out: a forked child whose parent solved before the
fork, or forked while the parent's main thread ran a kernel; a Ctrl-C that lands in the
instant the signal wake-up descriptor is swapped; ``asyncio.run``, whose own Ctrl-C
handler does not raise, and a loop that handles Ctrl-C itself. Each answer is checked on its
own (grids by ``grid_errors``), each Ctrl-C is timed.
"""

import multiprocessing
import signal
import threading
import time

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Status
from tests.helpers import ctrl_c_after, foreign_wakeup_fd, grid_errors

posix_only = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")
EMPTY = np.zeros((1, 81), dtype=np.uint8)
SLACK = 1.0  # seconds allowed on a loaded 2-core machine


def _three_ways():
    """Solve the empty grid (limit 2) on the main thread, with a deadline (a helper
    thread) and from a thread of its own; the grids found."""
    found = [sudoku.solve(EMPTY, engine="bands", limit=2, threads=1)]
    found.append(sudoku.solve(EMPTY, engine="bands", limit=2, threads=1, timeout=30))
    worker = threading.Thread(
        target=lambda: found.append(sudoku.solve(EMPTY, engine="bands", limit=2, threads=1))
    )
    worker.start()
    worker.join(30)
    return found


def _child(answers):
    results = _three_ways()
    answers.put([(int(r.status[0]), r.solutions[0].tolist()) for r in results])


FORK_WARNING = "ignore:.*fork.*:DeprecationWarning"  # Python 3.12+: fork with threads


@posix_only
@pytest.mark.slow
@pytest.mark.filterwarnings(FORK_WARNING)
def test_a_forked_child_solves_after_its_parent_used_a_helper_thread():
    # The parent leaves an idle helper thread behind; the child has none of its
    # parent's threads, so a call handed to that helper would wait for ever (a call
    # with a deadline came back after it, unsearched).
    assert len(_three_ways()) == 3
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    child = context.Process(target=_child, args=(answers,))
    began = time.monotonic()
    child.start()
    child.join(20)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail("the forked child hung in a kernel call")
    assert child.exitcode == 0
    results = answers.get(timeout=5)
    assert time.monotonic() - began < 20
    assert [status for status, _ in results] == [Status.MULTIPLE] * 3
    grids = np.array([grid for _, grid in results], dtype=np.uint8)
    assert grid_errors(np.repeat(EMPTY, 3, axis=0), grids, (3, 3)) == []


@posix_only
def test_ctrl_c_as_the_descriptor_is_swapped_leaves_none_set(monkeypatch):
    # Python runs a pending Ctrl-C handler as soon as set_wakeup_fd returns; its
    # KeyboardInterrupt must not leave this module's socket as the descriptor.
    from numbadlx import _stopping

    sudoku.solve(EMPTY, engine="bands", limit=2, threads=1)  # compiled, watcher made

    class Interrupted:
        """``signal`` with a Ctrl-C arriving during the swap to our descriptor."""

        def __getattr__(self, name):
            return getattr(signal, name)

        @staticmethod
        def set_wakeup_fd(fd, **options):
            before = signal.set_wakeup_fd(fd, **options)
            if fd != -1:
                raise KeyboardInterrupt
            return before

    monkeypatch.setattr(_stopping, "signal", Interrupted())
    with pytest.raises(KeyboardInterrupt):
        sudoku.solve(EMPTY, engine="bands", limit=2, threads=1)
    monkeypatch.undo()
    assert foreign_wakeup_fd() is None
    # and the next call runs to its end on the main thread, with its answer
    result = sudoku.solve(EMPTY, engine="bands", limit=2, threads=1)
    assert result.status[0] == Status.MULTIPLE
    assert grid_errors(EMPTY, result.solutions, (3, 3)) == []


# --------------------------------------------------------------------------- asyncio
ALL = 10**15  # never reached: the empty grid has 6.67e21 solutions


@pytest.fixture(scope="module")
def nodes_per_second():
    """Search nodes a second of the "bands" engine on the empty grid, here and now."""
    sudoku.solve(EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=10)
    nodes = 200_000
    while True:
        began = time.perf_counter()
        sudoku.solve(EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=nodes)
        took = time.perf_counter() - began
        if took > 0.05:
            return nodes / took
        nodes *= 4


@posix_only
def test_the_first_ctrl_c_in_asyncio_run_stops_a_call_at_once(nodes_per_second):
    # asyncio.run replaces Python's Ctrl-C handler with one that cancels its main task
    # and does not raise; a call on the main thread must still stop, and raise
    import asyncio

    finished = []

    async def main():
        finished.append(
            sudoku.solve(
                EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=int(nodes_per_second * 5)
            )
        )

    timer, sent = ctrl_c_after(0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            asyncio.run(main())
        took = time.monotonic() - sent[0]
    finally:
        timer.cancel()
    assert finished == [] and took < SLACK, took
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert foreign_wakeup_fd() is None


@posix_only
def test_a_loop_that_handles_ctrl_c_itself_gets_it_and_the_call_its_whole_answer(
    nodes_per_second,
):
    # loop.add_signal_handler(SIGINT): the program owns Ctrl-C, so the call runs to its
    # end (its node budget) and the loop's handler still hears of the signal
    import asyncio

    heard = []
    budget = int(nodes_per_second * 1.0)

    async def main():
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, heard.append, "ctrl-c")
        result = sudoku.solve(EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=budget)
        await asyncio.sleep(0.2)  # the loop reads its wake-up descriptor
        return result

    timer, _ = ctrl_c_after(0.3)
    try:
        result = asyncio.run(main())
    finally:
        timer.cancel()
    assert heard == ["ctrl-c"]
    assert result.status[0] == Status.BUDGET and result.nodes[0] == budget
    assert result.counts[0] > 0
    assert grid_errors(EMPTY, result.solutions, (3, 3)) == []
    assert foreign_wakeup_fd() is None


@posix_only
@pytest.mark.slow
@pytest.mark.filterwarnings(FORK_WARNING)
def test_a_child_forked_during_a_main_thread_call_cannot_stop_it(nodes_per_second):
    # The fork copies the signal wake-up descriptor, this process's socket: a Ctrl-C
    # the child gets must not reach the parent's watcher and stop the parent's call.
    import os

    budget = int(nodes_per_second * 1.5)
    children = []

    def fork_and_interrupt_the_child():
        time.sleep(0.3)
        pid = os.fork()
        if pid == 0:  # the child: Ctrl-C for itself, then gone
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.5)
            finally:
                os._exit(0)
        children.append(os.waitpid(pid, 0)[1])

    forker = threading.Thread(target=fork_and_interrupt_the_child)
    forker.start()
    try:
        result = sudoku.solve(EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=budget)
    finally:
        forker.join(10)
    assert children == [0]
    assert result.status[0] == Status.BUDGET and result.nodes[0] == budget
    assert grid_errors(EMPTY, result.solutions, (3, 3)) == []


# ------------------------------------------------------- one Ctrl-C, one interrupt
def _interrupts_from_one_ctrl_c(delay, nodes):
    """Short calls in a row, each KeyboardInterrupt caught, one SIGINT sent ``delay``
    seconds in; how many calls the one Ctrl-C interrupted (calls go on for 0.2 s after
    the first interrupt)."""
    import os

    # to the process, as a terminal sends it: any thread may take the signal
    timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    interrupts, first = 0, None
    give_up = time.monotonic() + 20  # a Ctrl-C lost fails the test instead of hanging it
    try:
        while (first is None and time.monotonic() < give_up) or (
            first is not None and time.monotonic() - first < 0.2
        ):
            try:
                sudoku.solve(EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=nodes)
            except KeyboardInterrupt:
                interrupts += 1
                first = first or time.monotonic()
    finally:
        timer.cancel()
    return interrupts


@posix_only
@pytest.mark.slow
def test_one_ctrl_c_interrupts_one_call_of_many_short_ones():
    # A Ctrl-C late in a short call is raised as it returns; its byte on the wake-up
    # socket, read late by the watcher, once stopped the next call as well (nearly
    # always when another thread took the signal): a loop that skips an interrupted
    # item lost two.
    # Python's own handler, whatever an earlier test of the session left installed
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sudoku.solve(EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=10)
    rng = np.random.default_rng(7)
    counts = [_interrupts_from_one_ctrl_c(rng.uniform(0.02, 0.1), 200) for _ in range(8)]
    assert counts == [1] * 8


# ------------------------------------------------------ calls on threads of the user's
WORKERS_AND_MAIN = """
import sys, threading
from concurrent.futures import ThreadPoolExecutor
import numpy as np
from numbadlx import sudoku

EMPTY = np.zeros((1, 81), dtype=np.uint8)
endless = dict(engine="bands", limit=10**15, threads=1)
sudoku.solve(EMPTY, engine="bands", limit=2, threads=1)  # compiled or loaded
pool = ThreadPoolExecutor(1)
pool.submit(sudoku.solve, EMPTY, **endless)
threading.Thread(target=sudoku.solve, args=(EMPTY,), kwargs=endless).start()
print("READY", flush=True)
sudoku.solve(EMPTY, **endless)
"""


@posix_only
@pytest.mark.slow
def test_ctrl_c_ends_a_program_whose_threads_also_run_endless_calls():
    # Ctrl-C stops the main thread's call; Python then waits for its other threads
    # (a thread pool's worker, a plain thread), whose endless calls held the exit
    # until a second Ctrl-C. They are stopped too, and the program ends.
    import subprocess
    import sys

    child = subprocess.Popen(
        [sys.executable, "-c", WORKERS_AND_MAIN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "READY"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, errors = child.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == -signal.SIGINT, errors[-2000:]
    assert errors.rstrip().endswith("KeyboardInterrupt"), errors[-2000:]
    assert took < SLACK + 1.0, took  # the call stopped, then the interpreter's teardown
