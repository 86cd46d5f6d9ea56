"""The package's shape, checked from its source: private names stay inside their package.

import-linter (``lint-imports`` in CI, contracts in pyproject.toml) checks which layer
may import which. This test checks what it cannot: a name with a leading underscore,
or a private module such as ``_reader.py``, is used only inside the package that holds
it (a module directly under ``numbadlx/`` counts as a package of its own). Code
elsewhere that needs such a name must be given a public one.
"""

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "numbadlx"


def _is_private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _spec(name):
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def _is_package(name):
    spec = _spec(name)
    return spec is not None and spec.submodule_search_locations is not None


def _unit(module):
    """The package whose private names ``module``'s private names are shared with."""
    if _is_package(module):
        return module
    parent = module.rpartition(".")[0]
    return module if parent == "numbadlx" else parent


def _private_owner(module):
    """For a module name with a private component (``a.b._c.d``), the package that may
    import it (``a.b``); None when every component is public."""
    parts = module.split(".")
    for k, part in enumerate(parts):
        if _is_private(part) and k > 0:
            return ".".join(parts[:k])
    return None


def crossings(module, is_package, text):
    """Lines of ``text`` (the source of ``module``) where a private name crosses."""
    home = module if is_package else module.rpartition(".")[0]
    me = module if home == "numbadlx" and not is_package else home

    def inside(package):
        return me == package or me.startswith(package + ".")

    found = []
    modules = {}  # local name -> the numbadlx module it is bound to

    def check_module(name, line):
        owner = _private_owner(name)
        if owner is not None and not inside(owner):
            found.append(f"line {line}: imports the private module {name}")

    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("numbadlx"):
                    check_module(alias.name, node.lineno)
                    if alias.asname:
                        modules[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = home.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("numbadlx"):
                continue
            check_module(target, node.lineno)
            for alias in node.names:
                full = f"{target}.{alias.name}"
                if _spec(full) is not None:
                    check_module(full, node.lineno)
                    modules[alias.asname or alias.name] = full
                elif _is_private(alias.name) and not inside(_unit(target)):
                    found.append(f"line {node.lineno}: imports {alias.name} from {target}")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and _is_private(node.attr)
        ):
            target = modules[node.value.id]
            if not inside(_unit(target)):
                found.append(f"line {node.lineno}: uses {node.value.id}.{node.attr} of {target}")
    return found


def _module_of(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


SOURCES = sorted(ROOT.rglob("*.py"))


def test_every_module_is_checked():
    """An empty list would turn the check below into no test at all."""
    names = {str(path.relative_to(ROOT)) for path in SOURCES}
    assert {"cli/__init__.py", "dask.py", "core/search.py", "jobs/_runner.py"} <= names
    assert len(names) > 30


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_crosses_a_package_boundary(path):
    module, is_package = _module_of(path)
    assert crossings(module, is_package, path.read_text()) == []


def test_the_check_catches_each_kind_of_crossing():
    """The checker itself, on a made-up display module reaching into lower layers."""
    text = (
        "from ..core import search as engine\n"
        "from ..core.search import _hidden\n"
        "from ..sudoku.formats import _reader\n"
        "import numbadlx.sudoku.formats._reader\n"
        "from . import _own_helper\n"
        "from ..sudoku import solve\n"
        "x = engine._private_table\n"
    )
    found = crossings("numbadlx.display.html", False, text)
    assert [line.split(":")[0] for line in found] == ["line 2", "line 3", "line 4", "line 7"], found
    # the same lines inside the packages that own those names are fine
    assert crossings("numbadlx.core.problem", False, "from .search import _hidden\n") == []
    assert crossings("numbadlx.sudoku.formats.csv", False, "from . import _reader\n") == []


def test_no_module_is_over_600_lines():
    """One job per module: a file past 600 lines is doing more than one."""
    long = {
        str(path.relative_to(ROOT)): n
        for path in SOURCES
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert long == {}, f"split these modules by job: {long}"


def _test_file_imports(path):
    """The test files (``test_*`` modules) that the test file at ``path`` imports."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [f"{node.module or ''}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [n for n in names if any(p.startswith("test_") for p in n.split("."))]
    return found


def test_no_test_file_imports_another():
    """Tests share their helpers through tests/helpers.py, never by importing a test file
    (which would collect and run the imported file's tests under a second name)."""
    tests = Path(__file__).resolve().parent
    found = {
        str(path.relative_to(tests)): names
        for path in sorted(tests.rglob("test_*.py"))
        if (names := _test_file_imports(path))
    }
    assert found == {}, f"move what these share into tests/helpers.py: {found}"


def test_the_check_catches_each_way_of_importing_a_test_file(tmp_path):
    path = tmp_path / "test_x.py"
    path.write_text(
        "from .test_oracle import make_case\n"
        "import tests.cli.test_cli\n"
        "from tests.sudoku import test_engines\n"
        "from tests.helpers import data_dir\n"
    )
    assert _test_file_imports(path) == [
        "test_oracle",
        "test_oracle.make_case",
        "tests.cli.test_cli",
        "tests.sudoku.test_engines",
    ]
