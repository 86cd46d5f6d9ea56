"""Input checks for exact-cover problems: everything a kernel receives passes here first.

Numba does not check bounds, so each function below either returns arrays that are
safe to link (item indices in range, no empty option, no repeated item in an option,
sizes that fit the 32-bit link tables) or raises :class:`ValueError` saying what is
wrong and where.
"""

import numbers
import operator
from collections.abc import Sequence

import numpy as np

from .words import plural

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
        raise ValueError(
            f"matrix must be 2-D (options x items), got {array.ndim}-D with shape {array.shape}"
        )
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
            raise ValueError(
                f"matrix value {array[row, col]!r} at row {row}, item {col} is not 0 or 1"
            )
    present = array != 0
    n_options, n_items = present.shape
    row_len = present.sum(axis=1)
    if n_options and (row_len == 0).any():
        raise ValueError(
            f"option (row) {_first_true(row_len == 0)} is empty: "
            f"every option must contain at least one item"
        )
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
        if (
            np.issubdtype(array.dtype, np.floating)
            and np.all(np.isfinite(array))
            and np.all(array == np.round(array))
        ):
            return array.astype(np.int64)
        raise ValueError(f"{what} must hold integers, got dtype {array.dtype}")
    return array.astype(np.int64)


def options_to_csr(options, n_items=None):
    """Validate a sequence of item-index lists; return ``(indptr, indices, n_items)``."""
    lengths = []
    flat = []
    for k, option in enumerate(options):
        if isinstance(option, (str, bytes)) or not hasattr(option, "__len__"):
            raise ValueError(
                f"option {k} must be a list of item indices, got {type(option).__name__}"
            )
        for t, value in enumerate(option):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
                raise ValueError(f"option {k}, entry {t}: item index {value!r} is not an integer")
            if not -MAX_LINK_INDEX <= value <= MAX_LINK_INDEX:  # would not fit int64
                raise ValueError(f"option {k}, entry {t}: item index {value} is out of range")
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
        raise ValueError(f"indptr[-1] = {indptr[-1]} does not match len(indices) = {indices.size}")
    lengths = np.diff(indptr)
    if (lengths < 0).any():
        raise ValueError(f"indptr decreases at position {_first_true(lengths < 0)}")
    n_options = lengths.size
    if n_options and (lengths == 0).any():
        raise ValueError(
            f"option {_first_true(lengths == 0)} is empty: every option must "
            f"contain at least one item"
        )
    rows = np.repeat(np.arange(n_options), lengths)
    if indices.size and indices.min() < 0:
        t = _first_true(indices < 0)
        raise ValueError(f"option {rows[t]}: item index {indices[t]} is negative")
    if n_items is None:
        n_items = int(indices.max()) + 1 if indices.size else 0
    else:
        if (
            isinstance(n_items, (bool, np.bool_))
            or not isinstance(n_items, numbers.Integral)
            or n_items < 0
        ):
            raise ValueError(f"n_items must be a non-negative integer, got {n_items!r}")
        n_items = int(n_items)
        if indices.size and indices.max() >= n_items:
            t = _first_true(indices >= n_items)
            raise ValueError(
                f"option {rows[t]}: item index {indices[t]} is out of range (n_items = {n_items})"
            )
    check_link_size(n_items, n_options, indices.size)
    if indices.size:
        order = np.lexsort((indices, rows))
        sorted_rows = rows[order]
        sorted_items = indices[order]
        dup = (sorted_rows[1:] == sorted_rows[:-1]) & (sorted_items[1:] == sorted_items[:-1])
        if dup.any():
            t = _first_true(dup)
            raise ValueError(
                f"option {sorted_rows[t]} contains item {sorted_items[t]} more than once"
            )
    return indptr, indices.astype(np.int32), n_items


def secondary_mask(secondary, n_items):
    """Turn ``secondary`` (None, a count of trailing items, or a boolean mask) into a mask."""
    mask = np.zeros(n_items, dtype=bool)
    if secondary is None:
        return mask
    if isinstance(secondary, (bool, np.bool_)):
        raise ValueError(
            "secondary must be a count of trailing items or a boolean mask, not a bool"
        )
    if isinstance(secondary, numbers.Integral):
        if not 0 <= secondary <= n_items:
            raise ValueError(
                f"secondary = {secondary} is outside 0..{n_items} (the number of items)"
            )
        if secondary:
            mask[n_items - int(secondary) :] = True
        return mask
    array = np.asarray(secondary)
    if array.dtype != np.bool_:
        raise ValueError(
            f"secondary mask must be boolean, got dtype {array.dtype} (give a "
            f"count of trailing items as an int)"
        )
    if array.shape != (n_items,):
        raise ValueError(f"secondary mask has shape {array.shape}, expected ({n_items},)")
    return array.copy()


#: Largest colour number a node may carry (the kernels reserve 2**32 - 1 as a mark).
MAX_COLOUR = 2**31 - 1
#: Largest multiplicity bound ``v`` (kept within the 32-bit item table).
MAX_BOUND = 2**31 - 1
#: Largest sum of all options' costs: any solution's cost then fits in int64.
MAX_TOTAL_COST = 2**62


def _colour_values(values, where):
    array = np.asarray(values)
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        if array.dtype == object:
            for t, value in enumerate(array.ravel()):
                if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
                    raise ValueError(f"{where}, entry {t}: colour {value!r} is not an integer")
            array = array.astype(np.int64)
        elif (
            np.issubdtype(array.dtype, np.floating)
            and np.all(np.isfinite(array))
            and np.all(array == np.round(array))
        ):
            array = array.astype(np.int64)
        else:
            raise ValueError(f"{where}: colours must be integers, got dtype {array.dtype}")
    return array.astype(np.int64)


def colours_from_lists(colours, indptr):
    """Flatten per-option colour lists (parallel to the options; ``None`` = no colours
    in that option) into an array parallel to the CSR ``indices``."""
    n_options = indptr.size - 1
    if isinstance(colours, (str, bytes)) or not hasattr(colours, "__len__"):
        raise ValueError(
            f"colours must be a list of lists parallel to the options, got {type(colours).__name__}"
        )
    if len(colours) != n_options:
        raise ValueError(
            f"colours has {plural(len(colours), 'entry', 'entries')} for "
            f"{plural(n_options, 'option')}"
        )
    flat = np.zeros(int(indptr[-1]), dtype=np.int64)
    for k, row in enumerate(colours):
        length = int(indptr[k + 1] - indptr[k])
        if row is None:
            continue
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise ValueError(f"colours[{k}] must be a list of colours, got {type(row).__name__}")
        if len(row) != length:
            raise ValueError(
                f"colours[{k}] has {plural(len(row), 'entry', 'entries')} but option {k} has "
                f"{plural(length, 'item')}"
            )
        for t, value in enumerate(row):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
                raise ValueError(f"option {k}, entry {t}: colour {value!r} is not an integer")
        flat[indptr[k] : indptr[k + 1]] = row
    return flat


def check_colours(colours, indptr, indices, secondary):
    """Validate colours parallel to ``indices``; return int32 colours, or None if all 0.

    Colours are non-negative integers (0 = no colour, at most :data:`MAX_COLOUR`) and
    only secondary items may have one.
    """
    if colours is None:
        return None
    array = _colour_values(colours, "colours")
    if array.ndim != 1 or array.size != indices.size:
        raise ValueError(
            f"colours must be parallel to the option entries: expected "
            f"{indices.size} values, got shape {array.shape}"
        )
    if not array.size or not array.any():
        return None
    rows = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
    if array.min() < 0:
        t = _first_true(array < 0)
        raise ValueError(f"option {rows[t]}: colour {array[t]} of item {indices[t]} is negative")
    if array.max() > MAX_COLOUR:
        t = _first_true(array > MAX_COLOUR)
        raise ValueError(
            f"option {rows[t]}: colour {array[t]} of item {indices[t]} is larger than {MAX_COLOUR}"
        )
    on_primary = (array != 0) & ~secondary[indices]
    if on_primary.any():
        t = _first_true(on_primary)
        raise ValueError(
            f"option {rows[t]}: primary item {indices[t]} has colour "
            f"{array[t]} (only secondary items may have a colour)"
        )
    return array.astype(np.int32)


def check_bounds(bounds, n_items, secondary, item_names=None):
    """Validate multiplicities; return an int64 ``(n_primary, 2)`` array of ``(u, v)``
    (rows in the order of the primary items), or None when every item is ``(1, 1)``.

    ``bounds`` is either such an array-like, one row per primary item in the caller's
    item order, or a dict ``item -> (u, v)`` (an item index, or a name when
    ``item_names`` is given); items missing from the dict keep ``(1, 1)``.
    Each item needs ``0 <= u <= v`` and ``v >= 1``.
    """
    if bounds is None:
        return None
    primary = np.flatnonzero(~secondary)
    n_primary = primary.size
    position = np.full(n_items, -1, dtype=np.int64)
    position[primary] = np.arange(n_primary)
    result = np.ones((n_primary, 2), dtype=np.int64)
    if isinstance(bounds, dict):
        lookup = {name: k for k, name in enumerate(item_names)} if item_names else {}
        for key, pair in bounds.items():
            if isinstance(key, str) and key in lookup:
                item = lookup[key]
            elif isinstance(key, numbers.Integral) and not isinstance(key, (bool, np.bool_)):
                item = int(key)
                if not 0 <= item < n_items:
                    raise ValueError(f"bounds: item {item} is out of range (n_items = {n_items})")
            else:
                raise ValueError(f"bounds: unknown item {key!r}")
            if secondary[item]:
                raise ValueError(
                    f"bounds: item {key!r} is secondary; multiplicities are only for primary items"
                )
            result[position[item]] = _bound_pair(pair, f"bounds[{key!r}]")
    else:
        if isinstance(bounds, (str, bytes)):
            raise ValueError("bounds must be an array of (u, v) pairs or a dict")
        rows = list(bounds)
        if len(rows) != n_primary:
            raise ValueError(
                f"bounds has {plural(len(rows), 'row')} but the problem has "
                f"{plural(n_primary, 'primary item')} (give one (u, v) per primary item, or a "
                f"dict)"
            )
        for k, pair in enumerate(rows):
            result[k] = _bound_pair(pair, f"bounds[{k}] (item {primary[k]})")
    if (result == 1).all():
        return None
    return result


def _bound_pair(pair, where):
    try:
        u, v = pair
    except (TypeError, ValueError):
        raise ValueError(f"{where} must be a pair (u, v), got {pair!r}") from None
    for value in (u, v):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
            raise ValueError(f"{where}: {value!r} is not an integer")
    u, v = int(u), int(v)
    if not 0 <= u <= v or v < 1:
        raise ValueError(f"{where} = ({u}, {v}): need 0 <= u <= v and v >= 1")
    if v > MAX_BOUND:
        raise ValueError(f"{where}: v = {v} is larger than {MAX_BOUND}")
    return u, v


def is_integer(value):
    """True for an int or a NumPy integer that is not a bool: what every count, index,
    seed and size must be (``True`` is not one puzzle, one thread or one solution).

    Examples
    --------
    >>> is_integer(3), is_integer(np.int8(3)), is_integer(True), is_integer(3.0)
    (True, True, False, False)
    """
    return isinstance(value, (numbers.Integral, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    )


def check_integer(value, name):
    """``value`` as an int if it is an integer (an int or a NumPy integer, as
    :func:`operator.index` takes, but never a bool); TypeError naming ``name`` else.
    Used for sizes, byte offsets and seeds whose range each caller checks.

    Examples
    --------
    >>> check_integer(np.int64(7), "chunk_size")
    7
    >>> check_integer(True, "chunk_size")
    Traceback (most recent call last):
    ...
    TypeError: chunk_size must be an integer, got True
    """
    if not is_integer(value):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    return operator.index(value)


def check_count(value, name):
    """``value`` as an int if it is a positive integer (not a bool, see
    :func:`is_integer`); else ValueError naming ``name``. Used for solution limits,
    node budgets, thread counts and chunk sizes everywhere."""
    if not is_integer(value) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if value > MAX_COUNT:
        raise ValueError(f"{name} must be at most 2**63 - 1, got {value!r}")
    return int(value)


#: Largest solution limit or node budget: the kernels count in int64.
MAX_COUNT = 2**63 - 1


def check_option_indices(solution, n_options):
    """``solution`` (option indices) as an int64 array; ValueError unless it is a
    1-D sequence of integers (bools, floats and strings are refused)."""
    if solution is None:
        return np.zeros(0, dtype=np.int64)
    if isinstance(solution, (str, bytes)) or not hasattr(solution, "__len__"):
        raise ValueError(f"solution must be a sequence of option indices, got {solution!r}")
    if not isinstance(solution, np.ndarray):
        # entry by entry first: NumPy would turn [0, True] into integers
        for position, value in enumerate(solution):
            if isinstance(value, (bool, np.bool_)) or not isinstance(
                value, (numbers.Integral, np.integer)
            ):
                if isinstance(value, (list, tuple, np.ndarray)):
                    break  # nested: the shape check below says so
                raise ValueError(
                    f"solution entry {position} is {value!r}, not an option index (an integer)"
                )
    array = np.asarray(solution)
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.ndim != 1:
        raise ValueError(f"solution must be 1-D (option indices), got shape {array.shape}")
    if array.dtype.kind in "iu":
        if array.dtype.kind == "u" and array.max() > MAX_LINK_INDEX:
            raise ValueError(f"option index {array.max()} out of range 0..{n_options - 1}")
        return array.astype(np.int64)
    for position, value in enumerate(solution):
        if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (numbers.Integral, np.integer)
        ):
            raise ValueError(
                f"solution entry {position} is {value!r}, not an option index (an integer)"
            )
        if not -MAX_LINK_INDEX <= value <= MAX_LINK_INDEX:
            raise ValueError(f"option index {value} out of range 0..{n_options - 1}")
    return np.asarray([int(value) for value in solution], dtype=np.int64)


def check_timeout(timeout):
    """``timeout`` (seconds, or None) as a float, None for no deadline (None or
    infinity); ValueError unless a number >= 0."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (numbers.Real, np.floating)):
        raise ValueError(f"timeout must be a number of seconds, got {timeout!r}")
    if not timeout >= 0:  # NaN fails this too
        raise ValueError(f"timeout must be >= 0 seconds, got {timeout!r}")
    return None if timeout == float("inf") else float(timeout)


# ------------------------------------------------ the input forms of ExactCover
def to_csr(options, n_items=None, colours=None, dense=None):
    """Read the ``options`` of ``ExactCover(options, ...)``, a dense 0/1 matrix or
    option lists (``dense`` as there; by default :func:`reads_as_dense` decides), with
    their ``colours`` in the same form; return ``(indptr, indices, n_items,
    colours)``, the colours parallel to ``indices`` (None without colours).

    Examples
    --------
    >>> indptr, indices, n_items, colours = to_csr([[0, 1], [1]])
    >>> indptr.tolist(), indices.tolist(), n_items, colours
    ([0, 2, 3], [0, 1, 1], 2, None)
    """
    if not isinstance(options, (np.ndarray, Sequence)):
        options = list(options)  # an iterator: read once, used twice below
    if dense is None:
        dense = reads_as_dense(options)
    if dense:
        indptr, indices, width = dense_to_csr(options)
        if n_items is not None and n_items != width:
            raise ValueError(f"n_items = {n_items} but the matrix has {width} columns")
        if colours is not None:
            colours = dense_colours(colours, options)
    else:
        indptr, indices, width = options_to_csr(options, n_items)
        if colours is not None:
            colours = colours_from_lists(colours, indptr)
    return indptr, indices, width, colours


def reads_as_dense(options):
    """The default of ``ExactCover(options, dense=None)``: True for a matrix, False for
    option lists, ValueError when a list of rows reads both ways.

    A NumPy array is a matrix, and so is a list of equal-length rows of bools, or of
    0/1 rows, each with a 1, that could not be option lists (a row repeats an index).

    Examples
    --------
    >>> reads_as_dense([[True, False], [False, True]]), reads_as_dense([[0, 2], [1]])
    (True, False)
    """
    if isinstance(options, np.ndarray):
        return True
    try:
        rows = [list(row) for row in options]
    except TypeError:
        return False  # not a sequence of sequences: options_to_csr says what is wrong
    if not rows or any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        return False
    if all(isinstance(v, (bool, np.bool_)) for row in rows for v in row):
        return True
    if not all(
        isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and v in (0, 1)
        for row in rows
        for v in row
    ):
        return False
    as_options = all(len(set(row)) == len(row) for row in rows)
    as_matrix = all(1 in row for row in rows) and (len(rows) > 1 or not as_options)
    if as_options and as_matrix:
        raise ValueError(
            f"options {rows[:2]}{'...' if len(rows) > 2 else ''} read both as a 0/1 "
            f"matrix and as lists of item indices: pass dense=True or dense=False, a "
            f"NumPy array (always a matrix), or use ExactCover.from_dense / from_options"
        )
    return as_matrix


def dense_colours(colours, matrix):
    """Colours given as a dense matrix of the options' shape: the entries of the
    non-zero cells, in the order :func:`dense_to_csr` lists them (an int64 array).

    Examples
    --------
    >>> dense_colours([[0, 3], [0, 0]], [[1, 1], [1, 0]]).tolist()
    [0, 3, 0]
    """
    present = np.asarray(matrix) != 0
    array = np.asarray(colours)
    if array.shape != present.shape:
        raise ValueError(
            f"colour matrix has shape {array.shape}, expected {present.shape} "
            f"(the shape of the options matrix)"
        )
    if not (np.issubdtype(array.dtype, np.integer) and array.dtype != np.bool_):
        raise ValueError(f"colour matrix must hold integers, got dtype {array.dtype}")
    stray = (array != 0) & ~present
    if stray.any():
        row, col = np.argwhere(stray)[0]
        raise ValueError(
            f"colour {array[row, col]} at row {row}, item {col}, where the option has no item"
        )
    return array[present].astype(np.int64)


def check_names(names, count, what):
    """``names`` as a list of ``count`` strings (None stays None); ``what`` (``'item'``
    or ``'option'``) names them in the error.

    Examples
    --------
    >>> check_names("ab", 2, "item")
    ['a', 'b']
    """
    if names is None:
        return None
    names = [str(name) for name in names]
    if len(names) != count:
        raise ValueError(f"{len(names)} {what} names for {count} {what}s")
    return names


def check_colour_names(names, colours):
    """Names of colours ``1, 2, ...`` as a list of strings, at least one per colour
    used in ``colours`` (None stays None).

    Examples
    --------
    >>> check_colour_names(["red", "blue"], np.array([0, 2, 1]))
    ['red', 'blue']
    """
    if names is None:
        return None
    names = [str(name) for name in names]
    largest = int(colours.max()) if colours is not None else 0
    if len(names) < largest:
        raise ValueError(f"{len(names)} colour names but colours go up to {largest}")
    return names
