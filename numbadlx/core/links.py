"""Build Knuth's DLX1 link tables from validated sparse options (njit only).

Layout (after Knuth, *The Art of Computer Programming* 7.2.2.1, program DLX1):

``nodes`` is one ``(4, n_nodes)`` table of unsigned 32-bit integers (:data:`LINK_DTYPE`),
one contiguous row per field and one column per node (stored this way, "transposed",
because a kernel walking the links reads one field of many nodes; Numba indexes it
faster than ``(n_nodes, 4)``):

* row ``UP`` / ``DOWN``: the vertical links of the item's circular list;
* row ``ITEM``: for an option node, the item it belongs to (``1..n_items``); for an
  item's header node (columns ``1..n_items``) the item's current *length* (how many
  active options still contain it); ``0`` for a spacer;
* row ``AUX``: a node's colour (Algorithm C, ``0`` = none); for a spacer, the index
  of the option that *follows* it, so any node decodes to its option by walking left
  to the nearest spacer.

Node 0 is unused. Options are stored one after another with a spacer before each and
one after the last, so the next node of an option is ``p + 1``; a spacer's ``UP`` is
the first node of the option before it and its ``DOWN`` the last node of the option
after it, which is how a walk wraps around inside one option.

``items`` is a ``(2, n_items + 2)`` table: row ``0`` the ``PREV`` and row ``1`` the
``NEXT`` links. Root ``0`` heads the circular list of primary items ``1..n_primary``;
secondary items ``n_primary+1..n_items`` form their own circular list headed by
``n_items + 1``.

Everything here assumes its input was validated by :mod:`numbadlx.core.validate`: item
indices in range, no empty option, no item twice in one option.
"""

import numpy as np
from numba import njit

from .._cleared import cleared_rows
from .._compiling import first_use

UP = 0
DOWN = 1
ITEM = 2
AUX = 3

#: dtype of every link table (the kernels' ``nodes``, ``items`` and ``choice``).
LINK_DTYPE = np.uint32


@njit(cache=True, nogil=True)
def build_links(indptr, indices, colours, n_items, n_primary):
    """Return ``(nodes, items)`` DLX1 tables for CSR options, of dtype :data:`LINK_DTYPE`.

    Parameters
    ----------
    indptr : int64 array (n_options + 1,)
    indices : int32 array (nnz,), 0-based item indices.
    colours : int32 array (nnz,) parallel to ``indices`` (0 = no colour), or empty.
    n_items, n_primary : int

    Returns
    -------
    nodes : (4, n_nodes) array, rows ``UP, DOWN, ITEM, AUX`` (see the module).
    items : (2, n_items + 2) array, rows ``PREV, NEXT``.
    """
    n_options = indptr.shape[0] - 1
    nnz = indices.shape[0]
    n_nodes = n_items + 1 + nnz + n_options + 1
    # np.empty and a clearing loop: np.zeros compiles two more NumPy functions
    nodes = cleared_rows(np.empty((4, n_nodes), dtype=LINK_DTYPE))
    items = cleared_rows(np.empty((2, n_items + 2), dtype=LINK_DTYPE))

    # Item lists: root 0 for primaries, n_items + 1 for secondaries.
    for i in range(n_items + 2):
        items[0, i] = i - 1 if i > 0 else n_primary
        items[1, i] = i + 1 if i < n_items + 1 else 0
    items[0, 0] = n_primary
    items[1, n_primary] = 0
    head2 = n_items + 1
    if n_primary < n_items:
        items[1, head2] = n_primary + 1
        items[0, n_primary + 1] = head2
        items[0, head2] = n_items
        items[1, n_items] = head2
    else:
        items[0, head2] = head2
        items[1, head2] = head2

    # Headers: empty circular lists, length 0.
    for i in range(1, n_items + 1):
        nodes[UP, i] = i
        nodes[DOWN, i] = i
        nodes[ITEM, i] = 0

    p = n_items + 1  # first spacer
    prev_first = 0
    has_colours = colours.shape[0] == nnz and nnz > 0
    for k in range(n_options):
        spacer = p
        nodes[ITEM, spacer] = 0
        nodes[UP, spacer] = prev_first
        nodes[AUX, spacer] = k
        first = p + 1
        for t in range(indptr[k], indptr[k + 1]):
            p += 1
            x = indices[t] + 1
            last = nodes[UP, x]
            nodes[UP, p] = last
            nodes[DOWN, p] = x
            nodes[DOWN, last] = p
            nodes[UP, x] = p
            nodes[ITEM, p] = x
            nodes[ITEM, x] += 1
            if has_colours:
                nodes[AUX, p] = colours[t]
        nodes[DOWN, spacer] = p  # last node of the option after this spacer
        prev_first = first
        p += 1
    # final spacer
    nodes[ITEM, p] = 0
    nodes[UP, p] = prev_first
    nodes[DOWN, p] = 0
    nodes[AUX, p] = n_options
    return nodes, items


def link_problem(indptr, indices, colours, secondary, n_primary):
    """The internal item numbering and the DLX1 tables of a validated problem.

    Internally the primary items come first, then the secondary ones, each group in
    the caller's order. Returns ``(order, internal, nodes, items)``: ``order[k]`` is
    the caller's index of internal item ``k``, ``internal`` its inverse, and the
    tables those of :func:`build_links` (``colours``: parallel to ``indices``, or None).

    Examples
    --------
    >>> order, internal, nodes, items = link_problem(
    ...     np.array([0, 2, 3]), np.array([0, 1, 1]), None, np.array([True, False]), 1)
    >>> order.tolist(), internal.tolist(), nodes.shape
    ([1, 0], [1, 0], (4, 9))
    """
    n_items = secondary.size
    order = np.concatenate([np.flatnonzero(~secondary), np.flatnonzero(secondary)])
    order = order.astype(np.int32)
    internal = np.empty(n_items, dtype=np.int32)
    internal[order] = np.arange(n_items, dtype=np.int32)
    internal_indices = internal[indices] if indices.size else indices
    with first_use("the link-table builder"):
        nodes, items = build_links(
            indptr,
            internal_indices.astype(np.int32),
            colours if colours is not None else np.zeros(0, dtype=np.int32),
            n_items,
            n_primary,
        )
    return order, internal, nodes, items
