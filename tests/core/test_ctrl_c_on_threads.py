"""Ctrl-C (a real SIGINT) stops a generic search on a worker thread the main thread
waits for: its slices run Python in between, where no KeyboardInterrupt comes off the
main thread, so the search looks at the Ctrl-Cs the signal watcher read."""

import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from numbadlx import problems
from tests.helpers import ctrl_c_after

posix_only = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")
SLACK = 1.0  # seconds allowed on a loaded 2-core machine


@posix_only
def test_ctrl_c_stops_a_count_waited_for_in_a_thread_pool():
    queens = problems.n_queens(16)  # 14,772,512 solutions: minutes to count
    queens.count(limit=1)  # compiled or loaded, on the main thread (as a program does)
    futures = []
    timer, sent = ctrl_c_after(0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            with ThreadPoolExecutor(1) as pool:
                futures.append(pool.submit(queens.count, timeout=8))  # bounds the test
                futures[0].result()
        took = time.monotonic() - sent[0]
    finally:
        timer.cancel()
    assert took < SLACK, took
    assert isinstance(futures[0].exception(timeout=0), KeyboardInterrupt)
