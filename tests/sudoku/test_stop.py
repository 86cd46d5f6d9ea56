"""Stopping the Sudoku engines on time: ``timeout=`` and Ctrl-C on one long search.

Every engine reads the stop flag of the engines' contract inside its search, so one
search that would run for seconds (an empty grid counted, here under a node budget of
about five seconds' work, so that a solver that did not stop would still end) ends
within a node of its deadline or of Ctrl-C. Ctrl-C is sent as the terminal does, to the
main thread (``_thread.interrupt_main``), while the search runs.
"""

import _thread
import signal
import threading
import time
import warnings

import numpy as np
import pytest

from numbadlx import BudgetExceeded, sudoku
from numbadlx.sudoku import Rules, Status
from tests.helpers import ctrl_c_after, foreign_wakeup_fd, grid_errors, real_sigint

# Slack for a loaded 2-core machine on top of a deadline (or of Ctrl-C)
SLACK = 1.0
# When Ctrl-C comes, after the call began
INTERRUPT_AFTER = 0.5
# Never reached: the searches count solutions of an empty grid (6.67e21 for 9x9)
ALL = 10**15
EMPTY = np.zeros((1, 81), dtype=np.uint8)
ENGINES = ("bands", "bits", "dlx", "cages")


def _solve(engine, **options):
    return sudoku.solve(EMPTY, engine=engine, limit=ALL, threads=1, **options)


@pytest.fixture(scope="module")
def long_search():
    """Per engine, a node budget that takes it about five seconds (the kernels
    compiled or loaded first: the tests time searches, not compiles)."""
    budgets = {}
    for engine in ENGINES:
        _solve(engine, max_nodes=10)
        nodes = 20_000
        while True:
            began = time.perf_counter()
            _solve(engine, max_nodes=nodes)
            took = time.perf_counter() - began
            if took > 0.05:
                break
            nodes *= 4
        budgets[engine] = int(nodes * 5.0 / took)
    return budgets


def _interrupted_after(seconds, call, send=_thread.interrupt_main):
    """Run ``call()`` with Ctrl-C sent ``seconds`` after it began (by ``send``: as
    Python's ``interrupt_main``, or a real SIGINT); the seconds from Ctrl-C until
    KeyboardInterrupt reached the caller (fails if it never did)."""
    timer, sent = ctrl_c_after(seconds, send)
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_timeout_ends_one_long_search_on_time(engine, long_search):
    began = time.monotonic()
    result = _solve(engine, max_nodes=long_search[engine], timeout=0.5)
    took = time.monotonic() - began
    assert took < 0.5 + SLACK, took
    # unfinished: BUDGET, with the solutions counted so far and the first of them kept
    assert result.status[0] == Status.BUDGET
    assert 0 < result.counts[0] < ALL and 0 < result.nodes[0] < long_search[engine]
    assert grid_errors(EMPTY, result.solutions[:1], (3, 3)) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_ctrl_c_ends_one_long_search_at_once(engine, long_search):
    took = _interrupted_after(
        INTERRUPT_AFTER, lambda: _solve(engine, max_nodes=long_search[engine])
    )
    assert took < SLACK, took


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_ends_a_bulk_call_between_and_inside_puzzles(threads, long_search):
    # many long searches on two threads (and on one): none runs on
    many = np.zeros((8, 81), dtype=np.uint8)
    budget = long_search["bits"]
    took = _interrupted_after(
        INTERRUPT_AFTER,
        lambda: sudoku.solve(many, engine="bits", limit=ALL, max_nodes=budget, threads=threads),
    )
    assert took < SLACK, took


def test_count_solutions_keeps_its_timeout(long_search):
    began = time.monotonic()
    with pytest.raises(BudgetExceeded, match="timeout=0.5"):
        sudoku.count_solutions(
            "0" * 81, limit=ALL, engine="bits", timeout=0.5, max_nodes=long_search["bits"]
        )
    assert time.monotonic() - began < 0.5 + SLACK


def test_a_stopped_call_leaves_the_puzzles_it_did_not_reach_unsearched(long_search):
    from numbadlx._stopping import clock
    from numbadlx.sudoku.engines import BUDGET, NOT_RUN, make_ready, run
    from numbadlx.sudoku.geometry import unit_table

    puzzles = np.zeros((3, 81), dtype=np.uint8)
    out = (
        np.zeros_like(puzzles),
        np.zeros(3, dtype=np.uint8),
        np.zeros(3, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
    )
    budget = long_search["bands"]
    make_ready("bands", puzzles, unit_table(9), ALL, budget, 1, 1, out)  # time no compile
    began = time.monotonic()
    # a deadline is a value of the package's clock (which stands still while compiling)
    deadline = clock() + 0.3
    stopped = run("bands", puzzles, unit_table(9), ALL, budget, 1, 1, out, deadline)
    assert stopped and time.monotonic() - began < 0.3 + SLACK
    assert out[1].tolist() == [BUDGET, NOT_RUN, NOT_RUN]
    assert out[2][0] > 0 and out[2][1:].tolist() == [0, 0]
    assert grid_errors(puzzles[:1], out[0][:1], (3, 3)) == []


# ------------------------------------------------------------ making killers
@pytest.fixture(scope="module")
def warm_killers():
    sudoku.generate_killer(1, 4, seed=1)  # the cages engine compiled or loaded


@pytest.mark.slow
def test_generate_killer_returns_what_it_made_by_its_timeout(warm_killers):
    began = time.monotonic()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = sudoku.generate_killer(3, 16, seed=3, timeout=1.0)
    assert time.monotonic() - began < 1.0 + SLACK
    assert len(made.puzzles) == len(made.rules) == len(made.solutions) < 3
    assert any("timeout" in str(w.message) and "of 3" in str(w.message) for w in caught)
    if len(made.puzzles):  # each made puzzle has its grid as only solution
        result = sudoku.solve(made.puzzles, rules=made.rules, limit=2)
        assert result.status_counts() == {"UNIQUE": len(made.puzzles)}
        assert (result.solutions == made.solutions).all()


def test_generate_killer_timeout_makes_the_same_puzzles(warm_killers):
    full = sudoku.generate_killer(6, 6, seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert len(sudoku.generate_killer(6, 6, seed=4, timeout=0).puzzles) == 0
    timed = sudoku.generate_killer(6, 6, seed=4, timeout=60)
    assert (timed.solutions == full.solutions).all()
    assert [r.cages for r in timed.rules] == [r.cages for r in full.rules]
    for bad in (-1, True, "1", float("nan")):
        with pytest.raises(ValueError, match="timeout"):
            sudoku.generate_killer(1, 4, timeout=bad)


@pytest.mark.slow
def test_ctrl_c_ends_generate_killer_at_once(warm_killers):
    took = _interrupted_after(INTERRUPT_AFTER, lambda: sudoku.generate_killer(3, 16, seed=3))
    assert took < SLACK, took


def test_rules_solve_keeps_a_timeout_too(long_search):
    # a rule set the "bits" engine solves, through the rules path
    rules = Rules(diagonals=True)
    # what the rules path compiles or loads first is not the search under test
    sudoku.solve(EMPTY, rules=rules, engine="bits", limit=ALL, max_nodes=10)
    began = time.monotonic()
    result = sudoku.solve(
        EMPTY, rules=rules, engine="bits", limit=ALL, timeout=0.5, max_nodes=long_search["bits"]
    )
    assert time.monotonic() - began < 0.5 + SLACK
    assert result.status[0] == Status.BUDGET and result.counts[0] > 0


# ------------------------------------------------- a kernel on the main thread
# A call without a deadline runs its kernel on the calling (main) thread; Ctrl-C reaches
# it through Python's signal wake-up descriptor. These tests pin down that path and the
# cases that must keep the helper thread.
posix_only = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")


@pytest.fixture
def helper_calls(monkeypatch):
    """The calls that went to a helper thread (the rest ran on this one)."""
    from numbadlx import _stopping

    calls = []
    on_helper = _stopping._call_on_helper

    def counted(*args):
        calls.append(args[0])
        return on_helper(*args)

    monkeypatch.setattr(_stopping, "_call_on_helper", counted)
    return calls


@posix_only
@pytest.mark.parametrize("how", ["signal", "interrupt_main"])
def test_ctrl_c_stops_a_kernel_running_on_the_main_thread(how, long_search, helper_calls):
    send = real_sigint if how == "signal" else _thread.interrupt_main
    took = _interrupted_after(
        INTERRUPT_AFTER, lambda: _solve("bands", max_nodes=long_search["bands"]), send
    )
    assert took < SLACK, took
    assert helper_calls == []  # it ran here
    # no descriptor but this package's own is left set once the call is over
    assert foreign_wakeup_fd() is None
    # and a call after it runs to its end, with its answer
    result = sudoku.solve(EMPTY, engine="bands", limit=3, threads=1)
    assert result.counts.tolist() == [3] and helper_calls == []
    assert grid_errors(EMPTY, result.solutions, (3, 3)) == []


@posix_only
def test_a_wakeup_descriptor_of_another_owner_is_kept(long_search, helper_calls):
    # as asyncio's loop sets one for its signal handlers: the call goes to a helper
    # thread, Ctrl-C still stops it, and the owner still hears of the signal
    import socket

    inbox, outbox = socket.socketpair()
    inbox.setblocking(False)
    previous = signal.set_wakeup_fd(inbox.fileno())
    try:
        took = _interrupted_after(
            INTERRUPT_AFTER, lambda: _solve("bands", max_nodes=long_search["bands"]), real_sigint
        )
        assert signal.set_wakeup_fd(previous) == inbox.fileno()
    finally:
        signal.set_wakeup_fd(previous)
    assert took < SLACK, took
    assert len(helper_calls) == 1
    outbox.settimeout(1.0)
    assert signal.SIGINT in outbox.recv(64)
    inbox.close()
    outbox.close()


@posix_only
def test_a_ctrl_c_handler_of_the_users_own_is_kept(long_search, helper_calls):
    # a handler that is not Python's default may not raise: the call goes to a helper
    # thread, whose waiting loop runs the handler; this one raises its own exception
    class Stop(Exception):
        pass

    def handler(number, frame):
        raise Stop

    previous = signal.signal(signal.SIGINT, handler)
    began = time.monotonic()
    timer, _ = ctrl_c_after(INTERRUPT_AFTER)
    try:
        with pytest.raises(Stop):
            _solve("bands", max_nodes=long_search["bands"])
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - began < INTERRUPT_AFTER + SLACK
    assert len(helper_calls) == 1


def test_a_call_from_another_thread_goes_to_a_helper(helper_calls):
    # only the main thread may set the wake-up descriptor
    results = []
    worker = threading.Thread(
        target=lambda: results.append(sudoku.solve(EMPTY, engine="bands", limit=2, threads=1))
    )
    worker.start()
    worker.join(60)
    assert results and results[0].status[0] == Status.MULTIPLE
    assert len(helper_calls) == 1
