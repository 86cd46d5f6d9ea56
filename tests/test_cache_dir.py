"""Numba's cache of numbadlx's kernels lives in a per-user folder of numbadlx's version
(a reinstall keeps it), unless NUMBA_CACHE_DIR says otherwise or the folder cannot be
written. Each case runs in a fresh interpreter (the choice is made at import)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from numbadlx._cache_dir import package_version

ROOT = Path(__file__).resolve().parents[1]

_SHOW = """
import os, sys
import numbadlx
import numba
print(os.environ.get("NUMBA_CACHE_DIR"))
print(numba.config.CACHE_DIR)
"""


def _python(code, tmp_path, **env):
    environ = {
        k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")
    }
    environ.update(HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT), **env)
    run = subprocess.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout.splitlines()


def test_the_cache_goes_to_a_per_user_folder_of_the_version(tmp_path):
    folder = tmp_path / "xdg" / "numbadlx" / package_version()
    assert _python(_SHOW, tmp_path, XDG_CACHE_HOME=str(tmp_path / "xdg")) == [str(folder)] * 2
    assert folder.is_dir()
    # Numba imported first: its settings are read already, and still follow
    first = "import numba\n" + _SHOW
    assert _python(first, tmp_path, XDG_CACHE_HOME=str(tmp_path / "xdg")) == [str(folder)] * 2
    # without XDG_CACHE_HOME: ~/.cache
    home = tmp_path / "home" / ".cache" / "numbadlx" / package_version()
    assert _python(_SHOW, tmp_path) == [str(home)] * 2


def test_a_numba_cache_dir_of_the_users_wins(tmp_path):
    mine = str(tmp_path / "mine")
    got = _python(_SHOW, tmp_path, NUMBA_CACHE_DIR=mine, XDG_CACHE_HOME=str(tmp_path / "x"))
    assert got == [mine, mine] and not (tmp_path / "x").exists()


def test_an_unwritable_folder_leaves_numbas_default(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")  # no folder can be made under a file
    got = _python(_SHOW, tmp_path, XDG_CACHE_HOME=str(blocked))
    assert got[0] == "None" and got[1] == ""


@pytest.mark.slow
def test_kernels_compiled_once_are_kept_in_that_folder(tmp_path):
    """A kernel compiled in one process is cached in the per-user folder and loaded
    from it in the next (where a reinstall's fresh package folder would have none)."""
    code = "import numbadlx; print(numbadlx.count([[0, 1], [0], [1]]))"
    xdg = str(tmp_path / "xdg")
    assert _python(code, tmp_path, XDG_CACHE_HOME=xdg) == ["2"]
    folder = tmp_path / "xdg" / "numbadlx" / package_version()
    indexes = sorted(p.name for p in folder.rglob("*.nbi"))
    assert indexes, f"no cached kernel under {folder}"
    assert _python(code, tmp_path, XDG_CACHE_HOME=xdg) == ["2"]
    assert sorted(p.name for p in folder.rglob("*.nbi")) == indexes
