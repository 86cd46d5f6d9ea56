"""Where Numba keeps numbadlx's compiled kernels: a per-user cache folder, one per
version of numbadlx, so that reinstalling the package (``pip install ".[jupyter]"``
to add an extra) keeps them.

By default Numba writes a kernel's cache beside its source, in ``__pycache__`` inside
``site-packages``, which every reinstall replaces: the first use would compile again.
So, when the package is imported (importing this module runs it) and the variable
``NUMBA_CACHE_DIR`` is not set, :func:`use_user_cache` sets it to
:func:`user_cache_dir` (where the compiled
kernels of this version go), before Numba is imported (or into Numba's configuration
when it already is). A ``NUMBA_CACHE_DIR`` the user set wins; when the folder cannot be
made or written, Numba's default stays. The variable is set for the whole process (and
the processes it starts), so other Numba code run there caches into the same folder.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def package_version(package_dir: Path = PACKAGE_DIR) -> str:
    """numbadlx's version, found without importlib.metadata (slow to import): the
    checkout's pyproject.toml, else the installed distribution's ``.dist-info`` folder
    beside the package, else the metadata.

    Examples
    --------
    >>> import numbadlx
    >>> package_version() == numbadlx.__version__
    True
    """
    from ._version import from_pyproject, read_version

    found = from_pyproject(package_dir.parent / "pyproject.toml")
    if found:
        return found
    try:
        with os.scandir(package_dir.parent) as entries:
            for entry in entries:
                named = re.fullmatch(r"numbadlx-([^-]+)\.dist-info", entry.name)
                if named:
                    return named.group(1)
    except OSError:
        pass
    return read_version()


def user_cache_dir(version: str | None = None, environ=None, platform: str = sys.platform):
    """The per-user folder for the compiled kernels of numbadlx ``version``:
    ``$XDG_CACHE_HOME/numbadlx/VERSION`` (``~/.cache/numbadlx/VERSION``) on Linux,
    ``~/Library/Caches/numbadlx/VERSION`` on macOS, ``%LOCALAPPDATA%\\numbadlx\\Cache\\VERSION``
    on Windows.

    Examples
    --------
    >>> str(user_cache_dir("1.2", {"XDG_CACHE_HOME": "/c", "HOME": "/h"}, "linux"))
    '/c/numbadlx/1.2'
    >>> str(user_cache_dir("1.2", {"HOME": "/h"}, "darwin"))
    '/h/Library/Caches/numbadlx/1.2'
    """
    environ = os.environ if environ is None else environ
    version = package_version() if version is None else version
    home = environ.get("HOME") or os.path.expanduser("~")
    if platform.startswith("win"):
        base = environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return Path(base) / "numbadlx" / "Cache" / version
    if platform == "darwin":
        return Path(home) / "Library" / "Caches" / "numbadlx" / version
    base = environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    return Path(base) / "numbadlx" / version


def use_user_cache(environ=None) -> Path | None:
    """Point Numba's cache at :func:`user_cache_dir` unless ``NUMBA_CACHE_DIR`` is set;
    the folder now in use (None: Numba's default, as that folder cannot be written).

    Examples
    --------
    >>> use_user_cache({"NUMBA_CACHE_DIR": "/mine"})  # the user's choice wins
    PosixPath('/mine')
    """
    environ = os.environ if environ is None else environ
    if environ.get("NUMBA_CACHE_DIR"):
        return Path(environ["NUMBA_CACHE_DIR"])
    folder = user_cache_dir(environ=environ)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return None
    environ["NUMBA_CACHE_DIR"] = str(folder)
    config = sys.modules.get("numba.core.config")
    if config is not None and environ is os.environ:
        config.CACHE_DIR = str(folder)  # Numba read its settings before this ran
    return folder


use_user_cache()
