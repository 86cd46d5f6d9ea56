"""The ``@njit`` search kernels. They take and return plain arrays only and are driven
by :mod:`numbadlx.core.search`.

* :mod:`.xc`: Algorithm X (:func:`~.xc.search_x`) and Algorithm C with colours
  (:func:`~.xc.search_c`), one search body compiled twice;
* :mod:`.m`: Algorithm M with multiplicities (and colours);
* :mod:`.cells_m`: Algorithm M on dancing cells (the ``cells`` engine's M);
* :mod:`.memo`: memoised Algorithms X and C that build a ZDD of every solution (driven
  by :mod:`numbadlx.core.zdd`);
* :mod:`.common`: what they share: constants, link primitives, the MRV choice, trace rows
  and solution recording.

Numba's cache watches a kernel's own file only; the package's one guard,
``numbadlx._kernel_cache``, drops the cache of a kernel whose helpers changed.
"""
