"""Compiling is never silent: a call that compiles says so once, with the time it took;
rates exclude it; ``numbadlx warm-up`` compiles ahead, so later calls say nothing.

The subprocess tests start from an empty Numba cache of their own (compiling is slow,
so they are few and share that cache, in order)."""

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from numbadlx import _compiling
from tests.helpers import plain_env, run_once

ROOT = Path(__file__).resolve().parents[1]


class _FakeKernel:
    """What a ``numba:compile`` event carries: a dispatcher with its ``py_func``."""

    def __init__(self, module):
        def kernel():
            pass

        kernel.__module__ = module
        self.py_func = kernel


def _compile_event(module, seconds):
    from numba.core import event

    with event.trigger_event("numba:compile", data={"dispatcher": _FakeKernel(module)}):
        time.sleep(seconds)


def _reported(monkeypatch, module, seconds, quiet=""):
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setenv("NUMBADLX_QUIET", quiet)
    before = _compiling.compile_seconds()
    with _compiling.first_use("the test kernels"):
        with _compiling.first_use("an inner call"):  # only the outermost reports
            _compile_event(module, seconds)
            _compile_event(module, seconds)
    return stream.getvalue(), _compiling.compile_seconds() - before


def test_a_call_that_compiles_says_so_once_with_its_time(monkeypatch):
    text, spent = _reported(monkeypatch, "numbadlx.fake", 0.3)
    assert spent >= 0.6
    assert text.count("\n") == 1, text
    assert re.fullmatch(r"numbadlx: compiled the test kernels in \d+\.\d s .*\n", text), text


def test_quiet_short_and_foreign_compiles_say_nothing(monkeypatch):
    assert _reported(monkeypatch, "numbadlx.fake", 0.3, quiet="1")[0] == ""
    assert _reported(monkeypatch, "numbadlx.fake", 0.01)[0] == ""  # as fast as a load
    text, spent = _reported(monkeypatch, "somebody.else", 0.3)
    assert text == "" and spent == 0


def _run(cache, *args):
    env = dict(plain_env(), NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    env.pop("NUMBADLX_QUIET", None)
    done = subprocess.run(
        [sys.executable, "-m", "numbadlx", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


# The subprocess tests compile the user's (unchecked) kernels into a fresh cache: they
# test what a user sees, not memory safety, so they run in one of CI's two runs.
@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("numba-cache")


@pytest.mark.slow
@run_once
def test_first_generate_says_compiled_once_and_its_rate_excludes_it(cache):
    err = _run(cache, "generate", "-n", "4", "--size", "4", "--seed", "1", "--no-progress")
    assert err.count("numbadlx: compiled") == 1, err
    compiled = float(re.search(r"compiled .* in (\d+\.\d) s", err).group(1))
    total, rate = re.search(r"in (\d+\.\d+) s \(([\d,.]+) puzzles?/s\)", err).groups()
    assert compiled > 0.5
    # with the compile counted the rate would be 4 / total
    assert float(rate.replace(",", "")) > 4 / (float(total) - compiled * 0.9), err
    assert re.search(r"puzzles?/s\), \d+\.\d+ s of it compiling \(not in the rate\)", err), err


@pytest.mark.slow
@run_once
def test_warm_up_compiles_ahead_and_later_calls_say_nothing(cache):
    err = _run(cache, "warm-up")
    lines = [line for line in err.splitlines() if line.startswith("[")]
    assert len([line for line in lines if line.endswith(" ...")]) == 5, err
    lines = [line for line in lines if not line.endswith(" ...")]  # what each took
    assert len(lines) == 5, err
    assert all(re.search(r": (compiled|loaded from the cache) in \d+\.\d s$", x) for x in lines)
    assert "kernel groups ready" in err
    puzzle = ROOT / "numbadlx" / "sudoku" / "data" / "sample_puzzles.txt"
    later = _run(cache, "solve", str(puzzle), "--no-progress", "-o", os.devnull)
    later += _run(cache, "count", str(ROOT / "examples" / "knuth.dlx"))
    later += _run(cache, "generate", "-n", "2", "--no-progress")
    assert "numbadlx: compil" not in later, later


_LIGHT_KERNEL = """
import numpy as np
from numba import njit

from numbadlx._compiling import light_cache_load


@light_cache_load
@njit(cache=True)
def total(a):
    return a.sum() + np.empty(3).shape[0]  # an allocation: Numba's runtime
"""

_LIGHT_CALL = """
import sys
import numpy as np
import light_kernel
value = light_kernel.total(np.arange(5))
loaded = sum(light_kernel.total.stats.cache_hits.values())
readied = "numba.misc.gdb_hook" in sys.modules  # loaded only to ready the compiler
from numba import njit

@njit
def shout(word):  # a compile after a light load: Numba readies itself
    return (word + "!").upper()

print(value, loaded, readied, shout("ok"))
"""


@pytest.mark.slow
def test_a_light_cache_load_skips_readying_numba_and_compiles_still_work(tmp_path):
    (tmp_path / "light_kernel.py").write_text(_LIGHT_KERNEL)
    env = dict(
        plain_env(),
        NUMBA_CACHE_DIR=str(tmp_path / "cache"),
        PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
    )

    def run():
        done = subprocess.run(
            [sys.executable, "-c", _LIGHT_CALL],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    # first a miss (compiled, Numba readied for it), then a hit from the disk cache
    assert run() == ["13", "0", "True", "OK!"]
    assert run() == ["13", "1", "False", "OK!"]


def test_a_call_stopped_by_ctrl_c_while_compiling_says_nothing_compiled(monkeypatch):
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.delenv("NUMBADLX_QUIET", raising=False)
    with pytest.raises(KeyboardInterrupt):
        with _compiling.first_use("the test kernels"):
            _compile_event("numbadlx.fake", 0.6)
            raise KeyboardInterrupt
    assert "compiled" not in stream.getvalue()


def test_each_solver_kernel_has_one_name_wherever_it_compiles(monkeypatch):
    """sudoku.solve and warm_up (the command line's) announce a kernel by one name,
    whatever the grid size and the threads (one kernel serves one thread and two)."""
    import contextlib

    import numpy as np

    from numbadlx import sudoku
    from numbadlx.sudoku import bulk
    from numbadlx.sudoku.engines import REGISTRY

    names = []

    @contextlib.contextmanager
    def recorded(what, say_done=True):
        names.append(what)
        yield

    monkeypatch.setattr(bulk, "first_use", recorded)
    empty = np.zeros((1, 16), dtype=np.uint8)
    sudoku.solve(empty, engine="bits", limit=1, threads=1)
    big = REGISTRY["bits"].serial_up_to(4) + 1  # the most puzzles one thread runs, and one
    sudoku.solve(np.zeros((big, 16), dtype=np.uint8), engine="bits", limit=1, threads=2)
    sudoku.solve(np.zeros((1, 81), dtype=np.uint8), engine="bits", limit=1)
    solved = names[:]
    names.clear()
    sudoku.warm_up(("bits",))
    assert solved == ["the Sudoku solver (bits engine)"] * 3
    assert names == solved[:1]
