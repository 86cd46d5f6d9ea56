"""Input checks for exact-cover problems: everything a kernel receives passes here first.

Numba does not check bounds, so each function below either returns arrays that are
safe to link (item indices in range, no empty option, no repeated item in an option,
sizes that fit the 32-bit link tables) or raises :class:`ValueError` saying what is
wrong and where.
"""

import numbers

import numpy as np

#: Largest node index the 32-bit link tables may hold (kept signed-safe on purpose).
MAX_LINK_INDEX = 2**31 - 1


def check_link_size(n_items, n_options, nnz):
    """Raise ValueError if the link tables would not fit 32-bit indices."""
    n_nodes = int(n_items) + 1 + int(nnz) + int(n_options) + 1
    if n_nodes > MAX_LINK_INDEX or int(n_items) + 2 > MAX_LINK_INDEX:
        raise ValueError(
            f"problem too large for 32-bit links: {n_items} items, {n_options} options "
            f"and {nnz} option entries need {n_nodes} nodes (limit {MAX_LINK_INDEX})"
        )


def _first_true(mask):
    return int(np.flatnonzero(mask)[0])


def dense_to_csr(matrix):
    """Validate a dense 0/1 matrix (options x items); return ``(indptr, indices, n_items)``."""
    array = np.asarray(matrix)
    if array.dtype == object:
        raise ValueError("matrix has dtype object; expected a numeric or boolean 0/1 array")
    if array.ndim != 2:
        raise ValueError(f"matrix must be 2-D (options x items), got {array.ndim}-D with "
                         f"shape {array.shape}")
    if array.dtype != np.bool_:
        if not (np.issubdtype(array.dtype, np.number)):
            raise ValueError(f"matrix has dtype {array.dtype}; expected bool or numbers 0/1")
        if np.iscomplexobj(array):
            raise ValueError("matrix is complex; expected bool or numbers 0/1")
        if np.issubdtype(array.dtype, np.floating):
            nan = np.isnan(array)
            if nan.any():
                row, col = np.argwhere(nan)[0]
                raise ValueError(f"matrix has NaN at row {row}, item {col}")
        bad = (array != 0) & (array != 1)
        if bad.any():
            row, col = np.argwhere(bad)[0]
            raise ValueError(f"matrix value {array[row, col]!r} at row {row}, item {col} "
                             f"is not 0 or 1")
    present = array != 0
    n_options, n_items = present.shape
    row_len = present.sum(axis=1)
    if n_options and (row_len == 0).any():
        raise ValueError(f"option (row) {_first_true(row_len == 0)} is empty: "
                         f"every option must contain at least one item")
    check_link_size(n_items, n_options, int(row_len.sum()))
    indptr = np.zeros(n_options + 1, dtype=np.int64)
    np.cumsum(row_len, out=indptr[1:])
    indices = np.nonzero(present)[1].astype(np.int32)
    return indptr, indices, n_items


def _as_index_array(values, what):
    array = np.asarray(values)
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        if np.issubdtype(array.dtype, np.floating) and np.all(np.isfinite(array)) \
                and np.all(array == np.round(array)):
            return array.astype(np.int64)
        raise ValueError(f"{what} must hold integers, got dtype {array.dtype}")
    return array.astype(np.int64)


def options_to_csr(options, n_items=None):
    """Validate a sequence of item-index lists; return ``(indptr, indices, n_items)``."""
    lengths = []
    flat = []
    for k, option in enumerate(options):
        if isinstance(option, (str, bytes)) or not hasattr(option, "__len__"):
            raise ValueError(f"option {k} must be a list of item indices, got "
                             f"{type(option).__name__}")
        for t, value in enumerate(option):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
                raise ValueError(f"option {k}, entry {t}: item index {value!r} is not an "
                                 f"integer")
        lengths.append(len(option))
        flat.extend(int(v) for v in option)
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    if lengths:
        np.cumsum(lengths, out=indptr[1:])
    indices = np.asarray(flat, dtype=np.int64)
    return check_csr(indptr, indices, n_items)


def check_csr(indptr, indices, n_items=None):
    """Validate CSR options; return ``(indptr int64, indices int32, n_items)``."""
    indptr = _as_index_array(indptr, "indptr")
    indices = _as_index_array(indices, "indices")
    if indptr.ndim != 1 or indices.ndim != 1:
        raise ValueError("indptr and indices must be 1-D arrays")
    if indptr.size == 0:
        raise ValueError("indptr must have at least one entry (n_options + 1)")
    if indptr[0] != 0:
        raise ValueError(f"indptr[0] must be 0, got {indptr[0]}")
    if indptr[-1] != indices.size:
        raise ValueError(f"indptr[-1] = {indptr[-1]} does not match len(indices) = "
                         f"{indices.size}")
    lengths = np.diff(indptr)
    if (lengths < 0).any():
        raise ValueError(f"indptr decreases at position {_first_true(lengths < 0)}")
    n_options = lengths.size
    if n_options and (lengths == 0).any():
        raise ValueError(f"option {_first_true(lengths == 0)} is empty: every option must "
                         f"contain at least one item")
    rows = np.repeat(np.arange(n_options), lengths)
    if indices.size and indices.min() < 0:
        t = _first_true(indices < 0)
        raise ValueError(f"option {rows[t]}: item index {indices[t]} is negative")
    if n_items is None:
        n_items = int(indices.max()) + 1 if indices.size else 0
    else:
        if isinstance(n_items, (bool, np.bool_)) or not isinstance(n_items, numbers.Integral) \
                or n_items < 0:
            raise ValueError(f"n_items must be a non-negative integer, got {n_items!r}")
        n_items = int(n_items)
        if indices.size and indices.max() >= n_items:
            t = _first_true(indices >= n_items)
            raise ValueError(f"option {rows[t]}: item index {indices[t]} is out of range "
                             f"(n_items = {n_items})")
    check_link_size(n_items, n_options, indices.size)
    if indices.size:
        order = np.lexsort((indices, rows))
        sorted_rows = rows[order]
        sorted_items = indices[order]
        dup = (sorted_rows[1:] == sorted_rows[:-1]) & (sorted_items[1:] == sorted_items[:-1])
        if dup.any():
            t = _first_true(dup)
            raise ValueError(f"option {sorted_rows[t]} contains item {sorted_items[t]} more "
                             f"than once")
    return indptr, indices.astype(np.int32), n_items


def secondary_mask(secondary, n_items):
    """Turn ``secondary`` (None, a count of trailing items, or a boolean mask) into a mask."""
    mask = np.zeros(n_items, dtype=bool)
    if secondary is None:
        return mask
    if isinstance(secondary, (bool, np.bool_)):
        raise ValueError("secondary must be a count of trailing items or a boolean mask, "
                         "not a bool")
    if isinstance(secondary, numbers.Integral):
        if not 0 <= secondary <= n_items:
            raise ValueError(f"secondary = {secondary} is outside 0..{n_items} (the number "
                             f"of items)")
        if secondary:
            mask[n_items - int(secondary):] = True
        return mask
    array = np.asarray(secondary)
    if array.dtype != np.bool_:
        raise ValueError(f"secondary mask must be boolean, got dtype {array.dtype} (give a "
                         f"count of trailing items as an int)")
    if array.shape != (n_items,):
        raise ValueError(f"secondary mask has shape {array.shape}, expected ({n_items},)")
    return array.copy()
