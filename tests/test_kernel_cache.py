"""The one guard against stale Numba caches (numbadlx/_kernel_cache.py).

Numba's cache watches a kernel's own file only. The guard's table says which other
files each kernel module compiles code from; these tests derive it again from the
source, check it against what the compiled kernels really call, and check that the
guard removes exactly the stale cache indexes.
"""

import hashlib
import importlib
import inspect
import os
from pathlib import Path

import numba
import pytest
from numba.core.registry import CPUDispatcher

from numbadlx import _kernel_cache

PACKAGE = Path(_kernel_cache.__file__).resolve().parent


def test_the_table_is_the_one_derived_from_the_source():
    derived = _kernel_cache.derive_dependencies()
    assert derived == _kernel_cache.DEPENDENCIES, (
        "numbadlx/_kernel_cache.py's DEPENDENCIES is out of date: paste the output of "
        "`python -m numbadlx._kernel_cache` over it"
    )
    # every module with a cached kernel and helpers elsewhere is in it
    assert {"core/kernels/xc.py", "core/kernels/m.py", "core/kernels/memo.py"} <= set(derived)
    # a name taken from a package is followed to the module that defines it, not to
    # everything the package's __init__ imports (making's search takes PLACED and
    # propagate through numbadlx.sudoku.engines, never the dlx engine)
    assert "sudoku/engines/_propagation.py" in derived["sudoku/making/_search.py"]
    assert "sudoku/engines/_dlx.py" not in derived["sudoku/making/_search.py"]
    assert "sudoku/engines/__init__.py" not in derived["sudoku/making/_search.py"]


def _code_names(code):
    """Global names a code object and the code objects nested in it use."""
    names = set(code.co_names)
    for const in code.co_consts:
        if inspect.iscode(const):
            names |= _code_names(const)
    return names


def _origin(value):
    """The source file of a kernel helper, an intrinsic or a module; None otherwise."""
    if isinstance(value, CPUDispatcher):
        return inspect.getfile(value.py_func)
    if isinstance(value, numba.core.extending._Intrinsic):
        return inspect.getfile(value._defn)
    if inspect.ismodule(value):
        return getattr(value, "__file__", None)
    return None


def undeclared(table):
    """``(kernel module, helper file)`` pairs: a kernel of a module with cached kernels
    calls a kernel, an intrinsic or a module of another package file the table does
    not list."""
    missing = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if "cache=True" not in path.read_text(encoding="utf-8"):
            continue
        name = "numbadlx." + relative[:-3].replace("/", ".").removesuffix(".__init__")
        module = importlib.import_module(name)
        for kernel in vars(module).values():
            if not isinstance(kernel, CPUDispatcher) or kernel.py_func.__module__ != name:
                continue
            scope = kernel.py_func.__globals__
            for used in _code_names(kernel.py_func.__code__):
                origin = _origin(scope.get(used))
                if origin is None:
                    continue
                origin = Path(origin).resolve()
                if PACKAGE not in origin.parents or origin == path.resolve():
                    continue
                other = origin.relative_to(PACKAGE).as_posix()
                if other not in table.get(relative, ()):
                    missing.add((relative, other))
    return missing


def test_every_helper_a_kernel_calls_from_another_file_is_in_the_table():
    assert undeclared(_kernel_cache.DEPENDENCIES) == set()


def test_the_check_fails_when_the_table_leaves_out_a_helper_file():
    table = dict(_kernel_cache.DEPENDENCIES)
    table["core/kernels/xc.py"] = ("core/links.py",)  # common.py left out
    assert ("core/kernels/xc.py", "core/kernels/common.py") in undeclared(table)


def _package(tmp_path):
    """A made-up package: kernel ``k.py`` uses ``helpers.py``; ``own.py`` uses nothing."""
    root = tmp_path / "pkg"
    (root / "__pycache__").mkdir(parents=True)
    for name in ("k.py", "helpers.py", "own.py"):
        (root / name).write_text("")
    os.utime(root / "helpers.py", (5_000, 5_000))
    return root, {"k.py": ("helpers.py",)}


def _index(folder, name, mtime):
    folder.mkdir(parents=True, exist_ok=True)
    index = folder / name
    index.write_text("")
    os.utime(index, (mtime, mtime))
    return index


def test_the_guard_removes_only_indexes_older_than_a_helper(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    root, table = _package(tmp_path)
    cache = root / "__pycache__"
    stale = _index(cache, "k.search-10.py311.nbi", 1_000)  # before helpers.py changed
    fresh = _index(cache, "k.other-20.py311.nbi", 9_000)  # after it
    data = _index(cache, "k.search-10.py311.1.nbc", 1_000)  # data files go with the index
    own = _index(cache, "own.run-5.py311.nbi", 1_000)  # not in the table: Numba's own check
    kin = _index(cache, "kk.search-10.py311.nbi", 1_000)  # another module, same prefix
    removed = _kernel_cache.drop_stale_caches(root, table)
    assert removed == [str(stale)]
    assert not stale.exists() and fresh.exists() and data.exists() and own.exists()
    assert kin.exists()
    assert _kernel_cache.drop_stale_caches(root, table) == []  # nothing left to drop
    assert _kernel_cache.drop_stale_caches(tmp_path / "nowhere", table) == []


def test_the_guard_looks_in_numba_cache_dir_and_the_user_cache(tmp_path, monkeypatch):
    root, table = _package(tmp_path)
    folder = Path(os.path.abspath(root))
    name = f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    in_dir = _index(tmp_path / "numba-cache" / name, "k.search-10.py311.nbi", 1_000)
    in_user = _index(tmp_path / "user" / "numba" / name, "k.search-10.py311.nbi", 1_000)
    removed = _kernel_cache.drop_stale_caches(root, table)
    assert sorted(removed) == sorted([str(in_dir), str(in_user)])
    assert not in_dir.exists() and not in_user.exists()


def test_numba_keeps_the_cache_where_the_guard_looks(tmp_path, monkeypatch):
    """The folder names come from Numba's own locator for a file in the package."""
    from numba.core.caching import UserProvidedCacheLocator

    source = PACKAGE / "core" / "kernels" / "xc.py"
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    locator = UserProvidedCacheLocator(lambda: None, str(source))
    assert Path(locator.get_cache_path()) in _kernel_cache.cache_folders(source)
    assert source.parent / "__pycache__" in _kernel_cache.cache_folders(source)


@pytest.mark.parametrize("module", sorted(_kernel_cache.DEPENDENCIES))
def test_every_file_in_the_table_exists(module):
    assert (PACKAGE / module).is_file()
    for other in _kernel_cache.DEPENDENCIES[module]:
        assert (PACKAGE / other).is_file()
