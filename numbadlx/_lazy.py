"""Public names that load on first use (PEP 562), for the package's ``__init__`` files.

A package's ``__init__.py`` writes its public imports once, under
``if TYPE_CHECKING:``, where type checkers, the documentation, import-linter and the
tests of the import graph read them, lists its public names in ``__all__``, and ends
with::

    __getattr__, __dir__ = lazy_names(__name__, __file__, __all__)

Those imports then run when a name is first used, not when the package is imported:
``import numbadlx`` loads neither Numba nor a kernel module, and ``numbadlx.sudoku.solve``
loads the modules that solving needs and no others. ``dir()`` of the package gives
``__all__``. A submodule not named in ``__all__`` still loads on attribute access, as
it did when the package imported it eagerly.

The table of imports is read from the ``__init__.py`` source itself (one small parse,
no Numba, no NumPy), so there is one list of imports to keep, not two.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys


def _guarded_imports(package: str, path: str) -> dict[str, tuple[str, str]]:
    """``{name: (module, attribute)}`` for each ``from X import name`` under
    ``if TYPE_CHECKING:`` in the source at ``path`` of package ``package``."""
    with open(path, encoding="utf-8") as file:
        tree = ast.parse(file.read(), path)
    table = {}
    for node in tree.body:
        if not (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom):
                raise TypeError(f"{path}: only 'from ... import' goes under TYPE_CHECKING")
            base = package.split(".")
            if statement.level:
                base = base[: len(base) - (statement.level - 1)]
            else:
                base = []
            module = ".".join(base + ([statement.module] if statement.module else []))
            for alias in statement.names:
                table[alias.asname or alias.name] = (module, alias.name)
    return table


def lazy_names(package: str, path: str, public: list[str]):
    """The ``__getattr__`` and ``__dir__`` of a package whose public imports are
    written under ``if TYPE_CHECKING:`` in its ``__init__.py`` at ``path``.

    Examples
    --------
    >>> import numbadlx.sudoku as sudoku
    >>> "solve" in dir(sudoku) and "engines" not in dir(sudoku)
    True
    >>> sudoku.box_shape(6)
    (2, 3)
    """
    table = _guarded_imports(package, path)
    unknown = sorted(set(public) - set(table))
    if unknown:
        raise ImportError(f"{package}.__all__ names {unknown}, which it does not import")
    names = list(public)

    def __getattr__(name: str):
        if name in table:
            module, attribute = table[name]
            if module == package:  # `from . import submodule`
                value = importlib.import_module(f"{package}.{attribute}")
            else:
                source = importlib.import_module(module)
                try:
                    value = getattr(source, attribute)
                except AttributeError:
                    value = importlib.import_module(f"{module}.{attribute}")
        elif not name.startswith("__") and importlib.util.find_spec(f"{package}.{name}"):
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)  # later uses skip this function
        return value

    def __dir__() -> list[str]:
        return list(names)

    return __getattr__, __dir__
