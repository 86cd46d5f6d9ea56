"""The package's version: one number, the ``version`` of pyproject.toml.

An installed package reads it from its metadata (written from pyproject.toml when the
package is built); a checkout that was never installed reads pyproject.toml itself.
"""

from __future__ import annotations

import re
from pathlib import Path

UNKNOWN = "0+unknown"


def from_pyproject(path: Path) -> str | None:
    """The ``version`` of the ``[project]`` table of numbadlx's pyproject.toml at
    ``path``; None when there is no such file, or it is another project's."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    table = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if table is None or not re.search(r'^name\s*=\s*"numbadlx"\s*$', table.group(1), re.M):
        return None
    found = re.search(r'^version\s*=\s*"([^"]+)"\s*$', table.group(1), re.M)
    return found.group(1) if found else None


def read_version(pyproject: Path | None = None) -> str:
    """The installed distribution's version; else the version in the checkout's
    pyproject.toml (``pyproject``, by default the one beside the package folder); else
    ``"0+unknown"``.

    Examples
    --------
    >>> read_version() != ""
    True
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numbadlx")
    except PackageNotFoundError:
        pass
    if pyproject is None:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    return from_pyproject(pyproject) or UNKNOWN


def __getattr__(name):
    """``__version__``, read on first use (importlib.metadata is slow to import; the
    package's import reads only this module's helpers)."""
    if name == "__version__":
        globals()["__version__"] = value = read_version()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
