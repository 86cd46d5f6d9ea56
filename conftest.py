"""pytest set-up shared by the tests (tests/) and the package's doctests (numbadlx/)."""

import atexit
import os
import shutil
import signal
import tempfile

import pytest

# Numba's on-disk cache (cache=True) does not record NUMBA_BOUNDSCHECK: a bounds-checked
# run would load kernels compiled without checks from the usual cache folder (checking
# nothing; numbadlx/_cache_dir.py leaves a NUMBA_CACHE_DIR set here alone), and
# a run compiling first would leave checked, slower kernels for normal use. So a run
# with NUMBA_BOUNDSCHECK=1 gets a cache of its own (set here, before numba is imported;
# the CLI subprocesses the tests start inherit it).
if (
    os.environ.get("NUMBA_BOUNDSCHECK", "0") not in ("", "0")
    and "NUMBA_CACHE_DIR" not in os.environ
):
    _boundscheck_cache = tempfile.mkdtemp(prefix="numbadlx-boundscheck-cache-")
    os.environ["NUMBA_CACHE_DIR"] = _boundscheck_cache
    atexit.register(shutil.rmtree, _boundscheck_cache, True)

# `python -m numbadlx` runs the command line when imported: not a module to doctest
collect_ignore = ["numbadlx/__main__.py"]


@pytest.fixture(autouse=True)
def _sigint_raises_keyboard_interrupt():
    """Give each test Python's own Ctrl-C handler. A shell without job control starts
    a background command with SIGINT ignored, and Python then installs no handler: the
    tests that send themselves SIGINT would see nothing (and a search they expect to
    stop would run on). The suite behaves the same wherever it is started."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
