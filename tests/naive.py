"""Slow, obviously correct references used only by the tests."""

import itertools

import numpy as np


def naive_solutions(indptr, indices, n_items, secondary_mask):
    """Every exact cover, by trying every subset of options.

    Follows Knuth's convention that an option made only of secondary items is never
    chosen (Algorithm X only picks options through their primary items).
    """
    n_options = len(indptr) - 1
    options = [set(int(v) for v in indices[indptr[k]:indptr[k + 1]]) for k in range(n_options)]
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
