"""``timeout=T`` uses its T seconds: neither half of them, nor T plus the loading.

The searches here cannot end (the empty grid has 6.67e21 solutions, counted to 1e15),
so a call that returns before 0.8 T gave up early: a lower bound, not a timing race.
The upper bounds are loose (a loaded two-core machine).
"""

import time

import numpy as np
import pytest

from numbadlx import sudoku
from numbadlx.sudoku import Status

EMPTY = np.zeros((1, 81), dtype=np.uint8)
ALL = 10**15
LATE = 1.5  # seconds past the timeout allowed for the last node, threads and a loaded box


@pytest.fixture(scope="module")
def warm():
    sudoku.solve(EMPTY, limit=ALL, max_nodes=10, timeout=5)  # compiled or loaded


@pytest.mark.parametrize("timeout", [1.0, 2.0])
def test_a_timeout_is_used_to_its_end(warm, timeout):
    # the rounds double their node budget; a round that could not end in the time left
    # was not begun, which gave up at about half the timeout
    began = time.perf_counter()
    result = sudoku.solve(EMPTY, limit=ALL, timeout=timeout)
    took = time.perf_counter() - began
    assert result.status[0] == Status.BUDGET
    assert result.counts[0] > 0 and result.nodes[0] > 0
    assert 0.8 * timeout <= took < timeout + LATE, took


def test_a_timeout_of_rules_is_used_to_its_end():
    # the empty X-Sudoku counted: the same rounds, on the rules' engine
    rules = sudoku.Rules(diagonals=True)
    sudoku.solve(EMPTY, rules=rules, limit=ALL, max_nodes=10, timeout=5)  # warm
    began = time.perf_counter()
    result = sudoku.solve(EMPTY, rules=rules, limit=ALL, timeout=1.5)
    took = time.perf_counter() - began
    assert result.status[0] == Status.BUDGET
    assert 0.8 * 1.5 <= took < 1.5 + LATE, took


def test_loading_a_kernel_counts_against_the_timeout(warm, monkeypatch):
    # Loading kernels from Numba's cache (here: a load that takes 2.2 s) is part of the
    # call; only compiling is not. The deadline used to move by the whole load.
    from numbadlx.sudoku import _deadline

    real = _deadline.make_ready

    def slow_load(*args):  # as make_ready says of a load: the seconds it took
        time.sleep(2.2)
        return real(*args) + 2.2

    monkeypatch.setattr(_deadline, "make_ready", slow_load)
    began = time.perf_counter()
    result = sudoku.solve(EMPTY, limit=ALL, timeout=2.0)
    took = time.perf_counter() - began
    assert result.status[0] == Status.BUDGET
    assert took < 2.2 + 0.5, took  # the deadline passed during the load: no search after
