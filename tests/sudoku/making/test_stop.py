"""Stopping ``generate`` on time: ``timeout=`` and Ctrl-C, in the library and the CLI.

The searches read a stop flag at every node (numbadlx._stopping); these tests check
that a call really ends near its deadline, that what it returns is right (the same
puzzles as an untimed call, each with one solution), and that Ctrl-C ends even a 25x25
run at once, with exit code 130 and no crash in the teardown.
"""

import os
import signal
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx._stopping import call_stoppable, new_flag, stop_all

# Slack for a loaded 2-core machine on top of a deadline: the stop itself takes a node.
SLACK = 1.5


@pytest.fixture(scope="module")
def warm():
    """Compile (or load) the generator first: a deadline is about the search."""
    sudoku.generate(1, 16, seed=1)


@pytest.mark.slow
def test_a_timeout_returns_the_puzzles_made_by_then(warm):
    started = time.monotonic()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = sudoku.generate(40, 16, seed=5, timeout=1.0)
    took = time.monotonic() - started
    assert took < 1.0 + SLACK, took
    assert 0 <= len(made) < 40  # 16x16 puzzles take a quarter of a second or more each
    assert any("timeout" in str(w.message) and "of 40" in str(w.message) for w in caught)
    if len(made):
        # the same puzzles as without a deadline, each with exactly one solution
        assert (made == sudoku.generate(len(made), 16, seed=5)).all()
        assert sudoku.solve(made).status_counts() == {"UNIQUE": len(made)}


@pytest.mark.slow
def test_a_deadline_is_kept_even_for_a_25x25_puzzle(warm):
    started = time.monotonic()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        made = sudoku.generate(1, 25, seed=2, timeout=0.5)
    assert time.monotonic() - started < 0.5 + SLACK
    assert made.shape == (0, 625)


def test_timeout_zero_makes_nothing_and_bad_timeouts_are_refused(warm):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert sudoku.generate(3, 16, seed=1, timeout=0).shape == (0, 256)
    assert sudoku.generate(3, 4, seed=1, timeout=60).shape == (3, 16)
    for bad in (-1, True, "1", float("nan")):
        with pytest.raises(ValueError, match="timeout"):
            sudoku.generate(1, 4, timeout=bad)


def test_call_stoppable_raises_keyboard_interrupt_when_stopped_from_elsewhere():
    """stop_all (the jobs' Ctrl-C) stops a call waiting on another thread, which then
    raises KeyboardInterrupt rather than handing back a part result as if finished."""

    def wait_for_stop(flag):
        while flag[0] == 0:
            time.sleep(0.001)
        return "stopped"

    with new_flag() as flag:
        value, timed_out = call_stoppable(wait_for_stop, flag, flag, deadline=time.monotonic())
        assert (value, timed_out) == ("stopped", True)
    with new_flag() as flag:
        started = time.monotonic()
        import threading

        threading.Timer(0.2, stop_all).start()
        with pytest.raises(KeyboardInterrupt):
            call_stoppable(wait_for_stop, flag, flag)
        assert time.monotonic() - started < 0.2 + SLACK


_CHILD = """
import sys, time
from numbadlx import sudoku
sudoku.generate(1, 9, seed=1)   # compiled or loaded: the 25x25 call searches at once
print("started", flush=True)
try:
    sudoku.generate(1, 25, seed=3)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(7)
"""


def _sigint_child(command, ready, **kwargs):
    """Start ``command``; once ``ready(line)`` holds for a line of its stdout (or
    stderr, merged), wait a moment (the search is running) and send Ctrl-C. Returns
    (seconds from the signal to the exit, return code, output)."""
    run = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env=dict(os.environ, PYTHONFAULTHANDLER="1"),
        **kwargs,
    )
    seen = []
    for line in run.stdout:
        seen.append(line)
        if ready(line):
            break
    else:
        pytest.fail(f"the run ended before it could be interrupted: {''.join(seen)}")
    time.sleep(2.0)
    sent = time.monotonic()
    run.send_signal(signal.SIGINT)
    try:
        rest = run.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        run.send_signal(signal.SIGABRT)
        pytest.fail("Ctrl-C did not stop the run:\n" + run.communicate(timeout=30)[0])
    return time.monotonic() - sent, run.returncode, "".join(seen) + rest


@pytest.mark.slow
def test_ctrl_c_stops_a_25x25_generate_in_the_library():
    took, code, output = _sigint_child(
        [sys.executable, "-c", _CHILD], lambda line: line.startswith("started")
    )
    assert code == 7 and "interrupted" in output, output
    assert took < 1.0 + SLACK, took


@pytest.mark.slow
def test_ctrl_c_stops_a_25x25_generate_on_the_command_line(tmp_path):
    sudoku.generate(1, 9, seed=1)  # the kernel compiled, or loaded from the cache
    out = tmp_path / "big.txt"
    command = [sys.executable, "-m", "numbadlx", "generate", "-n", "1", "--size", "25"]
    took, code, output = _sigint_child(
        command + ["-o", str(out), "--no-progress"], lambda line: "seed" in line
    )
    assert code == 130, output  # not a crash (a negative code) in the teardown
    assert took < 1.0 + SLACK, took
    assert "interrupted" in output
    assert not out.exists() or np.size(sudoku.parse(out)) == 0
