import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

DATA_ENV = "NUMBADLX_DATA"

# Numba's on-disk cache (cache=True) does not record NUMBA_BOUNDSCHECK: a bounds-checked
# run would load kernels compiled without checks from __pycache__ (checking nothing), and
# a run compiling first would leave checked, slower kernels for normal use. So a run
# with NUMBA_BOUNDSCHECK=1 gets a cache of its own (set before numba is imported; the
# CLI subprocesses inherit it).
if os.environ.get("NUMBA_BOUNDSCHECK", "0") not in ("", "0") and \
        "NUMBA_CACHE_DIR" not in os.environ:
    _boundscheck_cache = tempfile.mkdtemp(prefix="numbadlx-boundscheck-cache-")
    os.environ["NUMBA_CACHE_DIR"] = _boundscheck_cache
    atexit.register(shutil.rmtree, _boundscheck_cache, True)


def data_dir():
    """The public puzzle datasets: $NUMBADLX_DATA, else ../shared/data beside the repo."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def datasets():
    folder = data_dir()
    if not folder.is_dir():
        pytest.skip(f"public datasets not found at {folder} (set {DATA_ENV} to the folder "
                    f"holding sudoku17.txt etc.)")
    return folder
