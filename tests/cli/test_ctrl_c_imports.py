"""Ctrl-C while the command imports its work (NumPy, Numba, the engines): raised once
the imports are done, never inside one.

Raised inside an import, it left a module half made, and the command ended with a
traceback and exit code 1 (a KeyboardInterrupt in a dataclass's ``__set_name__`` comes
out as a RuntimeError) or killed by the signal, instead of exit code 130: 2 of 40
Ctrl-Cs sent 0.9-1.5 s into ``numbadlx generate`` on an empty Numba cache.
"""

import signal
import sys

import pytest

from numbadlx import cli

posix_only = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")

INTERRUPTED_MODULE = """
import dataclasses, signal, threading, time
signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)  # Ctrl-C, mid-import
time.sleep(0.05)

@dataclasses.dataclass
class Made:
    cells: int = 81

DONE = True
"""


@posix_only
def test_ctrl_c_during_the_commands_imports_waits_for_them(tmp_path, monkeypatch):
    name = "numbadlx_test_interrupted_import"
    (tmp_path / f"{name}.py").write_text(INTERRUPTED_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        with pytest.raises(KeyboardInterrupt):
            cli._load_collector_paused([name])
        assert sys.modules[name].DONE  # the module was made whole
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        sys.modules.pop(name, None)
