"""Slow, obviously correct references used only by the tests."""

import itertools

import numpy as np


def naive_solutions(indptr, indices, n_items, secondary_mask):
    """Every exact cover, by trying every subset of options.

    Follows Knuth's convention that an option made only of secondary items is never
    chosen (Algorithm X only picks options through their primary items).
    """
    n_options = len(indptr) - 1
    options = [set(int(v) for v in indices[indptr[k] : indptr[k + 1]]) for k in range(n_options)]
    primary = {i for i in range(n_items) if not secondary_mask[i]}
    usable = [k for k in range(n_options) if options[k] & primary]
    found = []
    for size in range(len(usable) + 1):
        for subset in itertools.combinations(usable, size):
            seen = {}
            ok = True
            for k in subset:
                for item in options[k]:
                    if item in seen:
                        ok = False
                        break
                    seen[item] = k
                if not ok:
                    break
            if ok and primary <= set(seen):
                found.append(tuple(subset))
    return found


def naive_count_dense(matrix, n_secondary=0):
    matrix = np.asarray(matrix, dtype=bool)
    rows, cols = np.nonzero(matrix)
    indptr = np.concatenate([[0], np.cumsum(matrix.sum(axis=1))])
    mask = np.zeros(matrix.shape[1], dtype=bool)
    if n_secondary:
        mask[-n_secondary:] = True
    return naive_solutions(indptr, cols, matrix.shape[1], mask)


def naive_solutions_xcc(indptr, indices, n_items, secondary_mask, colours=None, bounds=None):
    """Every solution of an exact cover with colours and multiplicities, by trying
    every subset of the options that hold a primary item.

    ``colours`` is parallel to ``indices`` (0 = none) or None; ``bounds`` one ``(u, v)``
    per primary item in item order, or None for ``(1, 1)``. A subset is a solution when
    each primary item is covered between ``u`` and ``v`` times and each secondary item
    at most once, or several times all with one non-zero colour.
    """
    n_options = len(indptr) - 1
    entries = []
    for k in range(n_options):
        start, stop = int(indptr[k]), int(indptr[k + 1])
        entries.append(
            [
                (int(indices[t]), int(colours[t]) if colours is not None else 0)
                for t in range(start, stop)
            ]
        )
    primary = [i for i in range(n_items) if not secondary_mask[i]]
    limits = {i: (1, 1) for i in primary}
    if bounds is not None:
        for row, i in enumerate(primary):
            limits[i] = (int(bounds[row][0]), int(bounds[row][1]))
    usable = [k for k in range(n_options) if any(i in limits for i, _ in entries[k])]
    found = []
    for size in range(len(usable) + 1):
        for subset in itertools.combinations(usable, size):
            times = {}
            tints = {}
            for k in subset:
                for item, colour in entries[k]:
                    times[item] = times.get(item, 0) + 1
                    tints.setdefault(item, set()).add(colour)
            ok = all(lo <= times.get(i, 0) <= hi for i, (lo, hi) in limits.items())
            for item, count in times.items():
                if ok and item not in limits and count > 1:
                    ok = len(tints[item]) == 1 and 0 not in tints[item]
            if ok:
                found.append(tuple(subset))
    return found
