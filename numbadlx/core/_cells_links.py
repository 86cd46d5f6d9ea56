"""Build the dancing-cells table of :mod:`numbadlx.core.kernels.cells` from validated
sparse options (the second engine for Algorithms X and C).

Where DLX keeps each item's options in a doubly linked list and unlinks them one by
one, dancing cells (Knuth's sparse-set structure for exact cover with colours, as in
his SSXC programs) keeps them in a *sparse set*: a block of one array holding the
item's option nodes, of which the first ``SIZE`` are the ones still available. An
option leaves the set by being swapped with the last available node and the size
going down by one; undoing that is only putting the size back, because later swaps
happen below the new size and never touch the nodes left above it. The active items
are kept the same way.

Layout: everything lives in one ``uint32`` array ``mem`` (:data:`CELLS_DTYPE`), and
every reference stored in it is a position in ``mem`` itself, so the kernel indexes a
single array with unsigned offsets and keeps no base address but one in a register.
Its regions, in order (their starts are returned in ``layout``):

* items: item ``i`` (internal number, primary items first) is the record at
  ``4 * i``: ``+ BASE`` where its block of ``sets`` begins, ``+ SIZE`` how many of its
  nodes are available, ``+ POS`` where it sits in ``act`` (``+ 3`` is unused). An
  item is referred to by ``4 * i``;
* ``act`` (``layout[ACT]``): the items, the active ones first;
* nodes (``layout[NODES]``, a multiple of 4 so that no record straddles a cache
  line): one record of four per CSR entry, ``+ ITM`` its item, ``+ LOC`` where it
  sits in ``sets``, ``+ FIRST`` and ``+ END`` the first node of its option and the
  one just past its last. A node is referred to by its record's position ``w``; the
  search reads an option's bounds from the record of any of its nodes, with no
  detour through a table of options;
* ``sets`` (``layout[SETS]``): the items' blocks, item after item, each in option
  order at first;
* colours (``layout[COLOURS]``): node ``w``'s colour (0 = none) is
  ``mem[layout[COLOURS] + (w >> 2)]``; the region holds one entry per node, and its
  start is shifted down by ``layout[NODES] // 4`` (a base, not an entry);
* option numbers (``layout[OPTION]``): node ``w``'s option is
  ``mem[layout[OPTION] + (w >> 2)]`` (the same shifted base), read only to report a
  solution;
* spread (``layout[SPREAD]``): item ``4 * i``'s entry ``mem[layout[SPREAD] + i]`` is
  1 when the item sits at three or more different places in its options (its node
  is the first of its option in some, the third in others, and so on), else 0: the
  kernel walks such an item's options another way (see
  :mod:`numbadlx.core.kernels.cells`);
* the trail (``layout[TRAIL]``): room for the kernel's stack of items whose sizes
  went down (at most one entry per node on any path).

``layout`` also holds ``4 * n_primary`` (``layout[PRIMARY_END]``): an item ``4 * i``
is primary when below it.
"""

import numpy as np

__all__ = [
    "CELLS_DTYPE",
    "WIDTH",
    "ITM",
    "LOC",
    "FIRST",
    "END",
    "BASE",
    "SIZE",
    "POS",
    "ACT",
    "NODES",
    "SETS",
    "COLOURS",
    "OPTION",
    "TRAIL",
    "PRIMARY_END",
    "SPREAD",
    "build_cells",
]

#: dtype of the dancing-cells table.
CELLS_DTYPE = np.uint32

#: Fields of a node and of an item record (unsigned, so index arithmetic stays so).
WIDTH = np.uint32(4)
ITM = np.uint32(0)
LOC = np.uint32(1)
FIRST = np.uint32(2)
END = np.uint32(3)
BASE = np.uint32(0)
SIZE = np.uint32(1)
POS = np.uint32(2)

# entries of ``layout``
ACT = 0
NODES = 1
SETS = 2
COLOURS = 3
TRAIL = 4
PRIMARY_END = 5
OPTION = 6
SPREAD = 7

#: An item is "spread" (see the module) when it sits at this many places or more.
SPREAD_PLACES = 3


def build_cells(indptr, indices, colours, n_items, n_primary):
    """Return ``(mem, layout)`` for CSR options (see the module for the layout).

    Parameters
    ----------
    indptr : int array (n_options + 1,)
    indices : int array (nnz,), internal 0-based item indices (primary items first).
    colours : int array (nnz,) parallel to ``indices`` (0 = none), or empty.
    n_items, n_primary : int

    Raises ValueError if the table would not fit 32-bit offsets.

    Examples
    --------
    >>> import numpy as np
    >>> mem, layout = build_cells(np.array([0, 2, 3]), np.array([0, 1, 1]), [], 2, 2)
    >>> mem[SIZE:8:4].tolist()  # the sizes of items 0 and 1
    [1, 2]
    """
    indptr = np.asarray(indptr, dtype=np.int64)
    indices = np.asarray(indices, dtype=np.int64)
    nnz = indices.size
    n_options = indptr.size - 1
    act0 = 4 * n_items
    nodes0 = -(-(act0 + n_items) // 4) * 4  # rounded up to a whole record
    sets0 = nodes0 + 4 * nnz
    colours0 = sets0 + nnz
    option0 = colours0 + nnz
    spread0 = option0 + nnz
    trail0 = spread0 + n_items
    total = trail0 + nnz + 1
    if total >= 2**32 - 8:
        raise ValueError(f"too large for the dancing-cells engine ({total} table entries)")
    mem = np.zeros(total, dtype=np.int64)
    # each item's block holds its nodes in option order (a stable sort by item)
    order = np.argsort(indices, kind="stable")
    sizes = np.bincount(indices, minlength=n_items)
    base = np.zeros(n_items, dtype=np.int64)
    base[1:] = np.cumsum(sizes)[:-1]
    mem[0:act0:4] = sets0 + base
    mem[1:act0:4] = sizes
    mem[2:act0:4] = act0 + np.arange(n_items)
    mem[act0 : act0 + n_items] = 4 * np.arange(n_items)
    node_at = nodes0 + 4 * np.arange(nnz)
    mem[node_at + ITM] = 4 * indices
    mem[node_at[order] + LOC] = sets0 + np.arange(nnz)
    lengths = np.diff(indptr)
    mem[node_at + FIRST] = np.repeat(nodes0 + 4 * indptr[:-1], lengths)
    mem[node_at + END] = np.repeat(nodes0 + 4 * indptr[1:], lengths)
    if len(colours) == nnz and nnz:
        mem[colours0 : colours0 + nnz] = colours
    mem[option0 : option0 + nnz] = np.repeat(np.arange(n_options), lengths)
    mem[sets0:colours0] = node_at[order]
    # the places (0 = first) each item takes in its options, counted without repeats
    places = np.arange(nnz) - np.repeat(indptr[:-1], lengths)
    width = int(places.max()) + 1 if nnz else 1
    pairs = np.unique(indices * width + places)
    spread = np.bincount(pairs // width, minlength=n_items)
    mem[spread0 : spread0 + n_items] = spread >= SPREAD_PLACES
    shift = nodes0 // 4
    layout = np.array(
        [act0, nodes0, sets0, colours0 - shift, trail0, 4 * n_primary, option0 - shift, spread0],
        dtype=np.int64,
    )
    return mem.astype(CELLS_DTYPE), layout
