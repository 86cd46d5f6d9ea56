"""A job's call still running after Ctrl-C is let go, and known as such.

On Python 3.11, a KeyboardInterrupt that interrupts ``Thread.join`` marks the thread as
ended while it still runs. The file jobs waited for their helper thread in short joins,
so after Ctrl-C a call still compiling (which no stop flag ends) looked finished: it
was not let go, the command did not leave at once, and the interpreter's teardown ran
beside LLVM's compile, which crashed the process (SIGSEGV or SIGABRT) instead of
exiting with 130. Here the call is a wait no stop flag ends, as a compile.
"""

import signal
import threading
import time

import pytest

from numbadlx import _stopping
from numbadlx.jobs import _executors
from tests.helpers import ctrl_c_after

posix_only = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")


@posix_only
def test_a_call_that_ctrl_c_cannot_stop_is_let_go():
    release = threading.Event()
    timer, _ = ctrl_c_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            _executors._interruptible(release.wait, 5.0)  # as a compile: no stop flag
        left = _stopping.let_go()
        assert any(thread.name == "numbadlx-job" for thread in left), left
    finally:
        timer.cancel()
        release.set()
    # once the call ends, nothing is let go any more
    deadline = time.monotonic() + 5
    while _stopping.let_go() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _stopping.let_go() == []
