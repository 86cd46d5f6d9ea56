"""Ctrl-C (a real SIGINT) stops a generic search on a worker thread the main thread
waits for: its slices run Python in between, where no KeyboardInterrupt comes off the
main thread, so the search looks at the Ctrl-Cs the signal watcher read.

The test runs in a fresh process of its own: a Ctrl-C is process-wide state, and one
that another test of the session left pending must not be the one this test sees."""

import os
import signal
import subprocess
import sys

import pytest

posix_only = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")
SLACK = 1.0  # seconds allowed on a loaded 2-core machine

_PROGRAM = """
import signal, threading, time
from concurrent.futures import ThreadPoolExecutor
from numbadlx import problems

queens = problems.n_queens(16)  # 14,772,512 solutions: minutes to count
queens.count(limit=1)  # compiled or loaded, on the main thread (as a program does)
sent = []

def interrupt():
    sent.append(time.monotonic())
    signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

timer = threading.Timer(0.5, interrupt)
timer.start()
futures = []
try:
    with ThreadPoolExecutor(1) as pool:
        futures.append(pool.submit(queens.count, timeout=8))  # bounds the test
        futures[0].result()
    print("finished without an interrupt")
except KeyboardInterrupt:
    took = time.monotonic() - sent[0] if sent else -1.0
    print("interrupted", took, type(futures[0].exception(timeout=0)).__name__)
"""


@posix_only
def test_ctrl_c_stops_a_count_waited_for_in_a_thread_pool():
    run = subprocess.run(
        [sys.executable, "-c", _PROGRAM],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
    )
    assert run.returncode == 0, run.stderr[-3000:]
    words = run.stdout.split()
    assert words[0] == "interrupted", run.stdout
    took, raised = float(words[1]), words[2]
    assert 0 <= took < SLACK, took  # -1: interrupted before the Ctrl-C was sent
    assert raised == "KeyboardInterrupt"
