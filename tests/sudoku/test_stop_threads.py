"""Ctrl-C (a real SIGINT) while the main thread waits for a call on a worker thread.

The three ways programs do that: ``await asyncio.to_thread(...)`` under
``asyncio.run``, ``loop.run_in_executor``, and a thread pool's ``submit(...).result()``.
The first Ctrl-C used to raise KeyboardInterrupt in the main thread only, which then
waited for the worker's kernel to run to its end. Each call here has a node budget of
several seconds' work, so a call that is not stopped ends the test late instead of
hanging it; each Ctrl-C is timed.
"""

import asyncio
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from numbadlx import sudoku
from tests.helpers import ctrl_c_after

posix_only = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")
EMPTY = np.zeros((1, 81), dtype=np.uint8)
ALL = 10**15  # never reached: the empty grid has 6.67e21 solutions
SLACK = 1.0  # seconds allowed on a loaded 2-core machine


@pytest.fixture(scope="module")
def endless():
    """Keyword arguments of a solve that takes about 8 s (a node budget measured here),
    with the kernel compiled and a call made on the main thread (as a program's import
    of the package does: it sets this package's signal wake-up descriptor)."""
    sudoku.solve(EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=10)
    nodes = 200_000
    while True:
        began = time.perf_counter()
        sudoku.solve(EMPTY, engine="bands", limit=ALL, threads=1, max_nodes=nodes)
        took = time.perf_counter() - began
        if took > 0.05:
            break
        nodes *= 4
    return dict(engine="bands", limit=ALL, threads=1, max_nodes=int(nodes / took * 8))


def _stopped_within(run):
    """Run ``run()`` with a Ctrl-C 0.5 s in: the seconds from the Ctrl-C to the end of
    the KeyboardInterrupt it raised (the main thread waits for the worker's call)."""
    timer, sent = ctrl_c_after(0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            run()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()


@posix_only
def test_ctrl_c_stops_a_call_awaited_through_asyncio_to_thread(endless):
    async def main():
        return await asyncio.to_thread(sudoku.solve, EMPTY, **endless)

    took = _stopped_within(lambda: asyncio.run(main()))
    assert took < SLACK, took
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@posix_only
def test_ctrl_c_stops_a_call_awaited_through_run_in_executor(endless):
    async def main():
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: sudoku.solve(EMPTY, **endless))

    took = _stopped_within(lambda: asyncio.run(main()))
    assert took < SLACK, took


@posix_only
def test_ctrl_c_stops_a_call_waited_for_in_a_thread_pool(endless):
    futures = []

    def run():
        with ThreadPoolExecutor(1) as pool:
            futures.append(pool.submit(sudoku.solve, EMPTY, **endless))
            futures[0].result()

    took = _stopped_within(run)
    assert took < SLACK, took
    # the worker's call was stopped, not left to run: it raised KeyboardInterrupt too
    assert isinstance(futures[0].exception(timeout=0), KeyboardInterrupt)


@posix_only
def test_a_program_that_handles_ctrl_c_itself_keeps_its_worker_calls(endless):
    # a SIGINT handler of the program's own does not raise: Ctrl-C is the program's,
    # and a call on a worker runs to its end (here: its node budget, cut short)
    heard = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: heard.append(number))
    budget = endless["max_nodes"] // 8  # about one second
    try:
        timer, _ = ctrl_c_after(0.3)
        with ThreadPoolExecutor(1) as pool:
            result = pool.submit(sudoku.solve, EMPTY, **dict(endless, max_nodes=budget)).result()
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert heard == [signal.SIGINT]
    assert result.nodes[0] == budget and result.counts[0] > 0
