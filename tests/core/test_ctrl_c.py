"""Ctrl-C ends every generic exact-cover search within a second: ``solve``, ``count``
(plain, memoised, automatic, on threads) and ``solutions``.

The searches count the 18-queens solutions (666 million: never finished here) under a
node budget of about five seconds' work, so that a search that did not stop would still
end (and fail the test) instead of hanging it. Ctrl-C is a real SIGINT sent to the main
thread, as a terminal sends it.
"""

import os
import signal
import threading
import time

import pytest

from numbadlx import BudgetExceeded, problems

SLACK = 1.0
INTERRUPT_AFTER = 0.5


@pytest.fixture(scope="module")
def five_seconds():
    """Nodes of about five seconds of search (the kernels compiled or loaded first)."""
    small = problems.n_queens(8)
    small.count(method="dlx")
    small.count(method="memo")
    small.count(threads=2)
    problem = problems.n_queens(13)
    began = time.perf_counter()
    problem.count(method="dlx")
    return int(problem.stats.nodes * 5.0 / (time.perf_counter() - began))


def _interrupted_after(seconds, call):
    """Run ``call()`` with SIGINT sent to the main thread ``seconds`` after it began;
    the seconds from the signal until KeyboardInterrupt reached the caller."""
    sent = []
    main = threading.main_thread().ident

    def interrupt():
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Timer(seconds, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            try:
                call()
            except BudgetExceeded:  # the budget ran out: the search was not stopped
                pytest.fail("the search ran to its node budget: Ctrl-C did not stop it")
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a thread is POSIX")
@pytest.mark.parametrize(
    "how",
    [
        {"method": "dlx"},
        {"method": "memo"},
        {"method": "auto"},
        {"method": "dlx", "threads": 2},
    ],
    ids=["dlx", "memo", "auto", "threads"],
)
def test_ctrl_c_ends_a_long_count(how, five_seconds):
    problem = problems.n_queens(18)
    took = _interrupted_after(INTERRUPT_AFTER, lambda: problem.count(max_nodes=five_seconds, **how))
    assert took < SLACK, took


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a thread is POSIX")
def test_ctrl_c_ends_a_long_walk_through_the_solutions(five_seconds):
    problem = problems.n_queens(18)
    took = _interrupted_after(
        INTERRUPT_AFTER, lambda: sum(1 for _ in problem.solutions(max_nodes=five_seconds))
    )
    assert took < SLACK, took
