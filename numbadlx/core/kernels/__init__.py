"""The ``@njit`` search kernels. They take and return plain arrays only and are driven
by :mod:`numbadlx.core.search`.

* :mod:`.xc`: Algorithm X (:func:`~.xc.search_x`) and Algorithm C with colours
  (:func:`~.xc.search_c`), one search body compiled twice;
* :mod:`.m`: Algorithm M with multiplicities (and colours);
* :mod:`.common`: what they share: constants, link primitives, the MRV choice, trace rows
  and solution recording.
"""
