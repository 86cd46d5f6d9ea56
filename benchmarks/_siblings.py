"""The sibling scripts of a benchmark that runs with this folder off ``sys.path``.

``exact_cover.py`` here has the name of the exact-cover peer's package, so the scripts
that may import the peers take this folder off ``sys.path`` (:func:`off_path`) before
anything imports by name, and load the scripts they use from their paths
(:func:`load`). Such a script imports this module first, while its own folder is
still on ``sys.path`` (or a sibling that loaded it already did).
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def off_path():
    """Take this folder off ``sys.path``."""
    here = os.path.normcase(HERE)
    sys.path[:] = [p for p in sys.path if os.path.normcase(os.path.abspath(p or os.curdir)) != here]


def load(name):
    """Import ``benchmarks/<name>.py`` by its path."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
