"""Interrupting a Jupyter kernel whose cell awaits a call on a worker thread.

``await asyncio.to_thread(sudoku.solve, ...)`` in a cell: ipykernel sets a SIGINT
handler of its own while such a cell runs (it cancels the cell), which the package
did not count as Ctrl-C stopping the program, so the worker's kernel ran on and the
kernel stayed busy to the end of the call. A real kernel, a real interrupt.
"""

import os
import signal
import time
from pathlib import Path

import pytest

from tests.helpers import plain_env, run_once

jupyter_client = pytest.importorskip("jupyter_client", reason="the test extra has it")
pytest.importorskip("ipykernel", reason="the test extra has it")

ROOT = Path(__file__).resolve().parents[2]
WARM = """
import asyncio, time
import numpy as np
from numbadlx import sudoku
E = np.zeros((1, 81), dtype=np.uint8)
sudoku.solve(E, engine="bands", limit=2, threads=1)
nodes = 200_000
while True:
    began = time.perf_counter()
    sudoku.solve(E, engine="bands", limit=10**15, threads=1, max_nodes=nodes)
    took = time.perf_counter() - began
    if took > 0.05:
        break
    nodes *= 4
budget = int(nodes / took * 12)  # about 12 s of search
"""
AWAIT = (
    "r = await asyncio.to_thread("
    "sudoku.solve, E, engine='bands', limit=10**15, threads=1, max_nodes=budget)"
)


def _execute(client, code, timeout):
    """Run ``code`` in the kernel; the seconds until the kernel is idle again, and the
    names of the errors it reported."""
    msg_id = client.execute(code)
    began, errors = time.monotonic(), []
    while True:
        message = client.get_iopub_msg(timeout=timeout)
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        if message["msg_type"] == "error":
            errors.append(message["content"]["ename"])
        if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
            return time.monotonic() - began, errors


@run_once
@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name == "nt", reason="POSIX signals")
def test_interrupting_a_cell_that_awaits_a_worker_call_ends_the_call():
    env = plain_env()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    manager = jupyter_client.KernelManager(kernel_name="python3")
    manager.start_kernel(env=env)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        _, errors = _execute(client, WARM, timeout=300)
        assert errors == []
        msg_id = client.execute(AWAIT)
        time.sleep(1.0)
        sent = time.monotonic()
        manager.interrupt_kernel()
        errors = []
        while True:
            message = client.get_iopub_msg(timeout=60)
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            if message["msg_type"] == "error":
                errors.append(message["content"]["ename"])
            if message["msg_type"] == "status":
                if message["content"]["execution_state"] == "idle":
                    break
        took = time.monotonic() - sent
        assert errors, "the cell was not interrupted"
        assert took < 3.0, took  # the call ended: the kernel is idle, not busy 12 s
        # and the kernel goes on: the next cell runs at once
        seconds, errors = _execute(client, "1 + 1", timeout=30)
        assert errors == [] and seconds < 3.0
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
