"""The ``@njit`` search kernels. They take and return plain arrays only and are driven
by :mod:`numbadlx.core.search`.

* :mod:`.xc`: Algorithm X (:func:`~.xc.search_x`) and Algorithm C with colours
  (:func:`~.xc.search_c`), one search body compiled twice;
* :mod:`.m`: Algorithm M with multiplicities (and colours);
* :mod:`.memo`: memoised Algorithms X and C that build a ZDD of every solution (driven
  by :mod:`numbadlx.core.zdd`);
* :mod:`.common`: what they share: constants, link primitives, the MRV choice, trace rows
  and solution recording.
"""

from pathlib import Path

# Modules whose kernels compile helpers from other files of the package.
_DEPENDS_ON = {
    "xc": ("common.py", "../links.py"),
    "m": ("common.py", "../links.py"),
    "memo": ("common.py", "../links.py"),
}


def drop_stale_caches(folder=Path(__file__).parent):
    """Remove Numba's cache index of a kernel module older than a file it depends on.

    Numba's on-disk cache (``cache=True``) notices changes to a kernel's own source file
    only; :mod:`.xc` and :mod:`.m` also compile the helpers of :mod:`.common` (and the
    constants of :mod:`numbadlx.core.links`) into their kernels, so after an edit there
    they would load stale machine code. Run on import, before those modules load; a
    cache in ``NUMBA_CACHE_DIR`` elsewhere, or a folder that cannot be written, is left
    alone. Returns the names of the index files removed.
    """
    removed = []
    cache = folder / "__pycache__"
    try:
        indexes = list(cache.glob("*.nbi"))
        for module, sources in _DEPENDS_ON.items():
            newest = max((folder / source).stat().st_mtime for source in sources)
            for index in indexes:
                if index.name.startswith(module + ".") and index.stat().st_mtime < newest:
                    index.unlink()
                    removed.append(index.name)
    except OSError:
        pass
    return removed


drop_stale_caches()
