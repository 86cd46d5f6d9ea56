"""The ``@njit`` search kernels: Algorithm X (:mod:`.x`), C with colours (:mod:`.c`)
and M with multiplicities (:mod:`.m`). They take and return plain arrays only and are
driven by :mod:`numbadlx.core.search`."""
