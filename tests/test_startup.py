"""Starting up: importing the package loads no Numba, public names load on first use,
``dir()`` shows the public API only, and the version is the package metadata's.

The imports are checked in fresh interpreters (this test process has loaded Numba
long ago); the names are checked here.
"""

import importlib
import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import numbadlx
from numbadlx import _version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
LAZY_PACKAGES = ["numbadlx", "numbadlx.core", "numbadlx.sudoku", "numbadlx.problems"]


def _fresh(code, *args, **env):
    """Run ``code`` with ``args`` in a new interpreter that imports this checkout, with
    ``env`` added to the environment (a value None takes a variable out); its stdout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={name: value for name, value in env.items() if value is not None},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _pyproject_version():
    found = re.search(r'^version\s*=\s*"([^"]+)"', PYPROJECT.read_text(encoding="utf-8"), re.M)
    assert found, "pyproject.toml has no version"
    return found.group(1)


def test_importing_the_packages_loads_no_numba():
    out = _fresh(
        "import sys\n"
        "import numbadlx, numbadlx.core, numbadlx.sudoku, numbadlx.problems\n"
        "from numbadlx import sudoku, core\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('numba.')))\n"
        "print('numbadlx._kernel_cache' in sys.modules)\n"
    )
    assert out.split("\n")[:2] == ["[]", "True"], out


def test_the_help_of_the_command_loads_no_numba():
    out = _fresh(
        "import sys\n"
        "from numbadlx.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('numba' in sys.modules, 'numbadlx.sudoku.bulk' in sys.modules)\n"
    )
    assert "usage: numbadlx" in out
    assert out.rstrip().splitlines()[-1] == "False False", out


def test_the_stale_cache_guard_runs_before_a_kernel_module_loads():
    # a kernel module imported first thing still loads after the guard, which is part
    # of importing the top package; the guard itself loads no Numba
    out = _fresh(
        "import sys\n"
        "import numbadlx._kernel_cache\n"
        "print('numba' in sys.modules)\n"
        "import numbadlx.sudoku.engines\n"
        "names = list(sys.modules)\n"
        "print(names.index('numbadlx._kernel_cache') < names.index('numba'))\n"
    )
    assert out.split() == ["False", "True"], out


def test_a_name_loads_on_first_use_and_only_what_it_needs():
    out = _fresh(
        "import sys\n"
        "import numbadlx\n"
        "print(numbadlx.sudoku.box_shape(6))\n"
        "print('numba' in sys.modules)\n"
        "from numbadlx import ExactCover\n"
        "print(ExactCover([[0, 1], [0], [1]]).count())\n"
    )
    assert out.split("\n")[:3] == ["(2, 3)", "False", "2"], out


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_every_public_name_resolves(name):
    package = importlib.import_module(name)
    for public in package.__all__:
        assert getattr(package, public) is not None, f"{name}.{public}"
    with pytest.raises(AttributeError, match="no_such_name"):
        package.no_such_name  # noqa: B018


def test_public_names_are_the_objects_of_their_modules():
    from numbadlx import ExactCover, sudoku
    from numbadlx.core.problem import ExactCover as defined
    from numbadlx.sudoku.bulk import solve

    assert ExactCover is defined and numbadlx.ExactCover is defined
    assert sudoku.solve is solve and numbadlx.sudoku is sudoku
    # a module that is not in __all__ still loads on attribute access
    assert numbadlx.core.split.count_split.__module__ == "numbadlx.core.split"
    assert not hasattr(numbadlx.sudoku, "bands")


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_dir_lists_the_public_api_only(name):
    package = importlib.import_module(name)
    numbadlx.sudoku.solve(["0200004034000000"])  # loads the engines and the kernels
    assert dir(package) == sorted(package.__all__)
    assert len(set(package.__all__)) == len(package.__all__)


def test_dir_of_sudoku_hides_engines_and_kernels():
    listed = set(dir(numbadlx.sudoku))
    assert {"solve", "parse", "Grid", "rate", "generate", "Status"} <= listed
    hidden = {"bands", "kernel", "kernels", "parallel", "engines", "bulk", "making", "formats"}
    assert not hidden & listed
    assert not [name for name in listed if name.startswith("_")]


def test_the_version_is_the_metadata_one():
    try:
        installed = importlib.metadata.version("numbadlx")
    except importlib.metadata.PackageNotFoundError:
        installed = None
    assert installed in (None, numbadlx.__version__)
    assert numbadlx.__version__ == _pyproject_version(), (
        f"the installed metadata says {installed}, pyproject.toml {_pyproject_version()}: "
        "install the checkout again (pip install -e .)"
    )


def test_the_version_of_a_checkout_never_installed(monkeypatch, tmp_path):
    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert _version.read_version() == _pyproject_version()
    assert _version.read_version(tmp_path / "pyproject.toml") == "0+unknown"
    other = tmp_path / "other.toml"
    other.write_text('[project]\nname = "other"\nversion = "9.9"\n', encoding="utf-8")
    assert _version.read_version(other) == "0+unknown"
    ours = tmp_path / "ours.toml"
    ours.write_text(
        '[build-system]\nrequires = []\n\n[project]\nname = "numbadlx"\nversion = "1.2.3"\n'
        '\n[tool.x]\nversion = "0"\n',
        encoding="utf-8",
    )
    assert _version.read_version(ours) == "1.2.3"


def test_only_the_command_skips_the_collection_at_exit(monkeypatch, capsys):
    import atexit
    import gc

    from numbadlx.cli import main

    registered = []
    monkeypatch.setattr(atexit, "register", registered.append)
    with pytest.raises(SystemExit):
        main(["--version"])  # a call from Python: its process goes on
    assert registered == []
    monkeypatch.setattr(sys, "argv", ["numbadlx", "--version"])
    with pytest.raises(SystemExit):
        main()  # the command itself
    assert registered == [gc.freeze]
    assert capsys.readouterr().out == f"numbadlx {numbadlx.__version__}\n" * 2


_BLAS_THREADS = (
    "import os, sys\n"
    "from numbadlx.cli import main\n"
    "sys.argv = ['numbadlx', '--version']\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "import numpy\n"
    "tasks = len(os.listdir('/proc/self/task')) if os.path.isdir('/proc/self/task') else -1\n"
    "print(os.environ.get('OPENBLAS_NUM_THREADS'), tasks)\n"
)
_NO_BLAS_SETTING = {name: None for name in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS")}


def test_the_command_starts_no_blas_threads_unless_the_user_asks():
    from numbadlx.cli import BLAS_THREAD_VARIABLES

    assert set(_NO_BLAS_SETTING) | {"OMP_NUM_THREADS"} == set(BLAS_THREAD_VARIABLES)
    setting, tasks = _fresh(_BLAS_THREADS, **_NO_BLAS_SETTING, OMP_NUM_THREADS=None).split()[-2:]
    assert setting == "1"
    assert int(tasks) in (1, -1)  # NumPy loaded on the main thread alone
    # a count the user set is left as it is, whichever variable holds it
    setting, tasks = _fresh(_BLAS_THREADS, OPENBLAS_NUM_THREADS="2", OMP_NUM_THREADS=None).split()[
        -2:
    ]
    assert setting == "2"
    assert int(tasks) in (2, -1)  # the one thread of OpenBLAS's pool that the user asked for
    setting, _ = _fresh(_BLAS_THREADS, **_NO_BLAS_SETTING, OMP_NUM_THREADS="3").split()[-2:]
    assert setting == "None"


def test_a_call_from_python_leaves_the_blas_setting_alone(monkeypatch):
    from numbadlx.cli import main

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    with pytest.raises(SystemExit):
        main(["--version"])
    assert "OPENBLAS_NUM_THREADS" not in os.environ


def test_the_command_loads_its_work_with_the_collector_paused():
    out = _fresh(
        "import gc, sys\n"
        "from numbadlx import cli\n"
        "from numbadlx.cli import _parser\n"
        "passes = []\n"
        "gc.callbacks.append(lambda phase, info: passes.append(phase))\n"
        "cli._load_collector_paused(_parser.JOB_MODULES)\n"
        "print(len(passes), gc.isenabled(), gc.get_freeze_count() > 10000)\n"
        "print(all(name in sys.modules for name in _parser.JOB_MODULES), 'numba' in sys.modules)\n"
    )
    assert out.split() == ["0", "True", "True", "True", "True"], out


def test_a_call_from_python_loads_nothing_ahead(monkeypatch, tmp_path):
    from numbadlx import cli

    loaded = []
    monkeypatch.setattr(cli, "_load_collector_paused", loaded.append)
    source = tmp_path / "one.txt"
    source.write_text("0200004034000000\n")
    assert cli.main(["solve", str(source), "-o", str(tmp_path / "out.txt")]) == cli.EXIT_OK
    assert loaded == []
    monkeypatch.setattr(sys, "argv", ["numbadlx", "solve", str(source), "-o", str(tmp_path / "o2")])
    monkeypatch.setattr(cli, "_skip_the_collection_at_exit", lambda: None)
    monkeypatch.setattr(cli, "_one_blas_thread", lambda: None)
    assert cli.main() == cli.EXIT_OK  # the command itself
    assert loaded == [("numbadlx.jobs",)]
    assert (tmp_path / "o2").read_text() == (tmp_path / "out.txt").read_text()
