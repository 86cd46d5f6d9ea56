"""One guard against stale Numba caches, for every kernel in the package.

Numba's on-disk cache (``@njit(cache=True)``) keys a kernel on its own source file
only. A kernel that compiles a helper or a constant from another file of the package
would, after that file changed, load machine code built from the old helper. So, before
any kernel module loads, :func:`drop_stale_caches` removes the cache index (``.nbi``)
of every kernel module older than a file it depends on; Numba then compiles it again.

Importing this module runs the guard (``numbadlx/__init__.py`` imports it first).
The table of those dependencies, :data:`DEPENDENCIES`, is derived from the source by
:func:`derive_dependencies` (the package's own imports, followed transitively, from
every module that defines a cached kernel) and written here as a literal, so that the
import costs a few ``stat`` calls and no parsing. The tests derive it again and fail
when the literal is out of date; ``python -m numbadlx._kernel_cache`` prints the
literal to paste.

Where a cache lives (Numba's rules, for a kernel in ``pkg/mod.py``):

* ``pkg/__pycache__/`` when that folder is writable (the default);
* ``$NUMBA_CACHE_DIR/<pkg>_<sha1 of the folder's path>/`` when that variable is set;
* the user-wide cache folder under the same name when ``pkg/`` is read-only (here:
  ``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``; other systems' user-wide folders
  are not searched).
"""

from __future__ import annotations

import ast
import hashlib
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent

#: For each module (path relative to the package folder) that defines a cached kernel
#: and imports other files of the package: those files, transitively. Regenerate with
#: ``python -m numbadlx._kernel_cache`` after moving a kernel or a helper.
DEPENDENCIES = {
    "core/kernels/cells.py": (
        "_cleared.py",
        "_compiling.py",
        "core/_cells_links.py",
        "core/kernels/common.py",
        "core/links.py",
    ),
    "core/kernels/cells_m.py": (
        "_cleared.py",
        "_compiling.py",
        "core/_cells_links.py",
        "core/kernels/common.py",
        "core/links.py",
    ),
    "core/kernels/commit.py": (
        "_cleared.py",
        "_compiling.py",
        "core/kernels/common.py",
        "core/links.py",
    ),
    "core/kernels/common.py": ("_cleared.py", "_compiling.py", "core/links.py"),
    "core/kernels/cost.py": (
        "_cleared.py",
        "_compiling.py",
        "core/kernels/commit.py",
        "core/kernels/common.py",
        "core/links.py",
    ),
    "core/kernels/estimate.py": (
        "_cleared.py",
        "_compiling.py",
        "core/kernels/commit.py",
        "core/kernels/common.py",
        "core/links.py",
    ),
    "core/kernels/m.py": (
        "_cleared.py",
        "_compiling.py",
        "core/kernels/common.py",
        "core/links.py",
    ),
    "core/kernels/memo.py": (
        "_cleared.py",
        "_compiling.py",
        "core/kernels/common.py",
        "core/links.py",
    ),
    "core/kernels/xc.py": (
        "_cleared.py",
        "_compiling.py",
        "core/kernels/common.py",
        "core/links.py",
    ),
    "core/links.py": ("_cleared.py", "_compiling.py"),
    "sudoku/engines/_band_choose.py": (
        "_compiling.py",
        "sudoku/engines/_band_moves.py",
        "sudoku/engines/_band_tables.py",
        "sudoku/engines/_contract.py",
    ),
    "sudoku/engines/_band_moves.py": (
        "_compiling.py",
        "sudoku/engines/_band_tables.py",
        "sudoku/engines/_contract.py",
    ),
    "sudoku/engines/_bands.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_band_choose.py",
        "sudoku/engines/_band_columns.py",
        "sudoku/engines/_band_moves.py",
        "sudoku/engines/_band_tables.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_loop.py",
    ),
    "sudoku/engines/_bits.py": (
        "_compiling.py",
        "sudoku/engines/_bits_choose.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_loop.py",
        "sudoku/engines/_propagation.py",
    ),
    "sudoku/engines/_bits_choose.py": ("_compiling.py", "sudoku/engines/_contract.py"),
    "sudoku/engines/_cage_pass.py": ("_compiling.py", "sudoku/engines/_contract.py"),
    "sudoku/engines/_cage_rows.py": (
        "_compiling.py",
        "sudoku/engines/_cage_pass.py",
        "sudoku/engines/_cages.py",
        "sudoku/engines/_constraint_tables.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_line_common.py",
        "sudoku/engines/_line_rules.py",
        "sudoku/engines/_line_sums.py",
        "sudoku/engines/_line_tables.py",
        "sudoku/engines/_line_totals.py",
        "sudoku/engines/_loop.py",
        "sudoku/engines/_ordering.py",
        "sudoku/engines/_probing.py",
        "sudoku/engines/_propagation.py",
        "sudoku/engines/_relations.py",
        "sudoku/engines/_rule_tables.py",
        "sudoku/engines/_sums.py",
        "sudoku/shape.py",
        "sudoku/variants/_cage_map.py",
        "sudoku/variants/_fields.py",
        "sudoku/variants/_rules.py",
        "sudoku/variants/_sized.py",
    ),
    "sudoku/engines/_cages.py": (
        "_compiling.py",
        "sudoku/engines/_cage_pass.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_line_common.py",
        "sudoku/engines/_line_rules.py",
        "sudoku/engines/_line_sums.py",
        "sudoku/engines/_line_tables.py",
        "sudoku/engines/_line_totals.py",
        "sudoku/engines/_loop.py",
        "sudoku/engines/_ordering.py",
        "sudoku/engines/_probing.py",
        "sudoku/engines/_propagation.py",
        "sudoku/engines/_relations.py",
        "sudoku/engines/_sums.py",
    ),
    "sudoku/engines/_constraint_tables.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_line_tables.py",
        "sudoku/engines/_line_totals.py",
        "sudoku/engines/_propagation.py",
        "sudoku/engines/_rule_tables.py",
        "sudoku/engines/_sums.py",
        "sudoku/shape.py",
        "sudoku/variants/_cage_map.py",
        "sudoku/variants/_fields.py",
        "sudoku/variants/_rules.py",
        "sudoku/variants/_sized.py",
    ),
    "sudoku/engines/_dlx.py": (
        "_cleared.py",
        "_compiling.py",
        "core/links.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_loop.py",
    ),
    "sudoku/engines/_dlx_all.py": (
        "_cleared.py",
        "_compiling.py",
        "core/links.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_dlx.py",
        "sudoku/engines/_loop.py",
    ),
    "sudoku/engines/_line_common.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
    ),
    "sudoku/engines/_line_rules.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_line_common.py",
        "sudoku/engines/_line_sums.py",
        "sudoku/engines/_line_tables.py",
        "sudoku/engines/_propagation.py",
    ),
    "sudoku/engines/_line_sums.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_line_common.py",
        "sudoku/engines/_propagation.py",
    ),
    "sudoku/engines/_line_totals.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
        "sudoku/engines/_sums.py",
    ),
    "sudoku/engines/_ordering.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
    ),
    "sudoku/engines/_probing.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_ordering.py",
        "sudoku/engines/_propagation.py",
    ),
    "sudoku/engines/_propagation.py": ("_compiling.py", "sudoku/engines/_contract.py"),
    "sudoku/engines/_relations.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
    ),
    "sudoku/engines/_sums.py": (
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
    ),
    "sudoku/making/_bodies.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
        "sudoku/making/_chains.py",
        "sudoku/making/_isomorphs.py",
        "sudoku/making/_ladder.py",
        "sudoku/making/_masks.py",
        "sudoku/making/_random.py",
        "sudoku/making/_search.py",
        "sudoku/making/_techniques.py",
    ),
    "sudoku/making/_candidates.py": (
        "_cleared.py",
        "_compiling.py",
        "_stopping.py",
        "core/links.py",
        "core/textfile.py",
        "core/validate.py",
        "core/words.py",
        "sudoku/engines/__init__.py",
        "sudoku/engines/_band_choose.py",
        "sudoku/engines/_band_columns.py",
        "sudoku/engines/_band_moves.py",
        "sudoku/engines/_band_tables.py",
        "sudoku/engines/_bands.py",
        "sudoku/engines/_bits.py",
        "sudoku/engines/_bits_choose.py",
        "sudoku/engines/_cage_pass.py",
        "sudoku/engines/_cage_rows.py",
        "sudoku/engines/_cages.py",
        "sudoku/engines/_constraint_tables.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_crossings.py",
        "sudoku/engines/_dlx.py",
        "sudoku/engines/_dlx_all.py",
        "sudoku/engines/_line_common.py",
        "sudoku/engines/_line_rules.py",
        "sudoku/engines/_line_sums.py",
        "sudoku/engines/_line_tables.py",
        "sudoku/engines/_line_totals.py",
        "sudoku/engines/_loop.py",
        "sudoku/engines/_ordering.py",
        "sudoku/engines/_probing.py",
        "sudoku/engines/_propagation.py",
        "sudoku/engines/_registry.py",
        "sudoku/engines/_relations.py",
        "sudoku/engines/_rule_tables.py",
        "sudoku/engines/_sums.py",
        "sudoku/formats/_api.py",
        "sudoku/formats/_arrays.py",
        "sudoku/formats/_cells.py",
        "sudoku/formats/_columnar.py",
        "sudoku/formats/_csv.py",
        "sudoku/formats/_fpuzzles.py",
        "sudoku/formats/_fpuzzles_file.py",
        "sudoku/formats/_fpuzzles_rules.py",
        "sudoku/formats/_fpuzzles_text.py",
        "sudoku/formats/_grid.py",
        "sudoku/formats/_ipc_bound.py",
        "sudoku/formats/_items.py",
        "sudoku/formats/_killer.py",
        "sudoku/formats/_lines.py",
        "sudoku/formats/_lzstring.py",
        "sudoku/formats/_npy.py",
        "sudoku/formats/_parquet_bound.py",
        "sudoku/formats/_paths.py",
        "sudoku/formats/_reader.py",
        "sudoku/formats/detect.py",
        "sudoku/formats/write.py",
        "sudoku/geometry.py",
        "sudoku/making/_bodies.py",
        "sudoku/making/_chains.py",
        "sudoku/making/_isomorphs.py",
        "sudoku/making/_ladder.py",
        "sudoku/making/_loops.py",
        "sudoku/making/_masks.py",
        "sudoku/making/_random.py",
        "sudoku/making/_rate.py",
        "sudoku/making/_search.py",
        "sudoku/making/_stepwise.py",
        "sudoku/making/_techniques.py",
        "sudoku/making/_trace.py",
        "sudoku/parallel.py",
        "sudoku/shape.py",
        "sudoku/variants/_cage_map.py",
        "sudoku/variants/_fields.py",
        "sudoku/variants/_killer_rows.py",
        "sudoku/variants/_rules.py",
        "sudoku/variants/_sized.py",
    ),
    "sudoku/making/_chains.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
        "sudoku/making/_masks.py",
        "sudoku/making/_random.py",
        "sudoku/making/_search.py",
        "sudoku/making/_techniques.py",
    ),
    "sudoku/making/_isomorphs.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/making/_masks.py",
        "sudoku/making/_random.py",
    ),
    "sudoku/making/_ladder.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
        "sudoku/making/_chains.py",
        "sudoku/making/_masks.py",
        "sudoku/making/_random.py",
        "sudoku/making/_search.py",
        "sudoku/making/_techniques.py",
    ),
    "sudoku/making/_loops.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
        "sudoku/making/_bodies.py",
        "sudoku/making/_chains.py",
        "sudoku/making/_isomorphs.py",
        "sudoku/making/_ladder.py",
        "sudoku/making/_masks.py",
        "sudoku/making/_random.py",
        "sudoku/making/_search.py",
        "sudoku/making/_stepwise.py",
        "sudoku/making/_techniques.py",
    ),
    "sudoku/making/_masks.py": ("_cleared.py", "_compiling.py", "sudoku/engines/_contract.py"),
    "sudoku/making/_random.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/making/_masks.py",
    ),
    "sudoku/making/_search.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/engines/_propagation.py",
        "sudoku/making/_masks.py",
        "sudoku/making/_random.py",
    ),
    "sudoku/making/_techniques.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/making/_masks.py",
    ),
    "sudoku/making/_variant_grids.py": (
        "_cleared.py",
        "_compiling.py",
        "sudoku/engines/_contract.py",
        "sudoku/making/_masks.py",
        "sudoku/making/_random.py",
    ),
}


def _defines_cached_kernel(tree: ast.Module) -> bool:
    """True if a function of the module is decorated ``@njit(..., cache=True, ...)``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call) and any(
                keyword.arg == "cache"
                and isinstance(keyword.value, ast.Constant)
                and keyword.value.value is True
                for keyword in decorator.keywords
            ):
                return True
    return False


def _module_file(package_dir: Path, parts: list[str]) -> Path | None:
    """The file of the package module ``parts`` (``["core", "links"]``), or None."""
    base = package_dir.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if parts and candidate.is_file():
            return candidate
    return None


def _statements(package_dir: Path, path: Path, tree: ast.Module):
    """``(module parts, imported names)`` of every import of the package in ``tree``
    (at any depth of its code); ``import numbadlx.x`` gives no names."""
    here = list(path.relative_to(package_dir).with_suffix("").parts)
    home = here[:-1]  # the package that holds the module (for a package: itself)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE_DIR.name:
                    yield alias.name.split(".")[1:], []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = node.level - 1
                if up > len(home):
                    continue
                base = home[: len(home) - up] if up else list(home)
                module = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == PACKAGE_DIR.name:
                module = node.module.split(".")[1:]
            else:
                continue
            yield module, [alias.name for alias in node.names]


def _provider(package_dir: Path, init: Path, name: str, trees: dict) -> Path:
    """The file a package's ``__init__.py`` takes ``name`` from (the ``__init__.py``
    itself when it defines the name or the name is not found among its imports)."""
    for module, names in _statements(package_dir, init, trees[init]):
        if name in names:
            found = _module_file(package_dir, module + [name]) or _module_file(package_dir, module)
            return found or init
    return init


def _imported_files(package_dir: Path, path: Path, trees: dict) -> set[Path]:
    """Files of the package that ``path`` imports. A name taken from a package goes
    to the module the package's ``__init__.py`` takes it from, not to every module
    that ``__init__.py`` imports."""
    found = set()
    for module, names in _statements(package_dir, path, trees[path]):
        own = _module_file(package_dir, module)
        if not names:
            found.add(own)
        for name in names:
            file = _module_file(package_dir, module + [name])
            if file is None and own is not None and own.name == "__init__.py":
                file = _provider(package_dir, own, name, trees)
            found.add(file or own)
    found.discard(None)
    found.discard(path)
    return found


def derive_dependencies(package_dir: Path = PACKAGE_DIR) -> dict[str, tuple[str, ...]]:
    """The dependency table from the source: for each module that defines a cached
    kernel, every file of the package it imports, directly or through the files it
    imports (modules with none are left out).

    Examples
    --------
    >>> table = derive_dependencies()
    >>> "core/links.py" in table["core/kernels/xc.py"]
    True
    """
    package_dir = Path(package_dir)
    paths = package_dir.rglob("*.py")
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in paths}
    direct = {path: _imported_files(package_dir, path, trees) for path in trees}
    table = {}
    for path in sorted(trees):
        if not _defines_cached_kernel(trees[path]):
            continue
        seen, todo = set(), list(direct[path])
        while todo:
            file = todo.pop()
            if file in seen or file == path:
                continue
            seen.add(file)
            todo.extend(direct.get(file, ()))
        if seen:
            key = path.relative_to(package_dir).as_posix()
            table[key] = tuple(sorted(file.relative_to(package_dir).as_posix() for file in seen))
    return table


def cache_folders(source: Path) -> list[Path]:
    """The folders where Numba may keep the cache of kernels defined in ``source``."""
    folder = Path(os.path.abspath(source)).parent
    name = f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    folders = [folder / "__pycache__"]
    if os.environ.get("NUMBA_CACHE_DIR"):
        folders.append(Path(os.environ["NUMBA_CACHE_DIR"]) / name)
    user = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folders.append(Path(user) / "numba" / name)
    return folders


def drop_stale_caches(package_dir: Path = PACKAGE_DIR, table: dict | None = None) -> list[str]:
    """Remove the Numba cache index of every kernel module older than a file it
    depends on (``table``, by default :data:`DEPENDENCIES`). Folders that do not exist
    or cannot be written are left alone. Returns the paths of the index files removed.

    Each file is looked at once and each folder listed once (the modules share their
    dependencies and folders): this runs at every start of the package.
    """
    removed = []
    mtimes = {}
    listings = {}
    folders = {}  # by the folder of a module: its cache folders

    def mtime(path):
        if path not in mtimes:
            try:
                mtimes[path] = os.stat(path).st_mtime
            except OSError:
                mtimes[path] = None
        return mtimes[path]

    def indexes(folder):
        if folder not in listings:
            try:
                listings[folder] = [e for e in os.scandir(folder) if e.name.endswith(".nbi")]
            except OSError:
                listings[folder] = []
        return listings[folder]

    package_dir = os.fspath(package_dir)
    for module, sources in (DEPENDENCIES if table is None else table).items():
        times = [mtime(os.path.join(package_dir, other)) for other in sources]
        if not times or None in times:
            continue
        newest = max(times)
        source = Path(package_dir) / module
        prefix = source.stem + "."
        if source.parent not in folders:
            folders[source.parent] = cache_folders(source)
        for folder in folders[source.parent]:
            for entry in indexes(folder):
                try:
                    if entry.name.startswith(prefix) and entry.stat().st_mtime < newest:
                        os.unlink(entry.path)
                        removed.append(entry.path)
                except OSError:
                    pass
    return removed


# on import, which numbadlx/__init__.py does before loading any kernel module
drop_stale_caches()

if __name__ == "__main__":  # pragma: no cover - a maintenance command
    print("DEPENDENCIES = {")
    for key, value in derive_dependencies().items():
        print(f"    {key!r}: {value!r},")
    print("}")
