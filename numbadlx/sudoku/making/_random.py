"""A small random generator (SplitMix64) for the making kernels.

Its state is one uint64 per puzzle, seeded from ``(seed, puzzle index)``
(:func:`seed_state`), so a puzzle's randomness never depends on the thread that drew it.
"""

import numpy as np
from numba import njit

from ._masks import ONE, inner_njit, lowest_bit, popcount


@njit(cache=True, nogil=True, inline="always")
def next_random(state):
    """SplitMix64: advance ``state[0]`` and return 64 random bits."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def random_below(state, k):
    """A random integer in ``0..k-1`` (the modulo bias is below 2**-58 here)."""
    return int(next_random(state) % np.uint64(k))


@inner_njit(cache=True, nogil=True, inline="always")
def seed_state(seed, index, state):
    """The generator state of puzzle ``index`` of a run with ``seed``."""
    state[0] = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03) + np.uint64(index)
    next_random(state)
    next_random(state)


def seed_value(seed, index):
    """:func:`seed_state` in Python (for loops run from Python): the state of puzzle
    ``index`` of a run with ``seed``, as a Python int (the two draws of
    :func:`seed_state` only add the SplitMix64 increment twice)."""
    return (int(seed) * 0xD1B54A32D192ED03 + int(index) + 2 * 0x9E3779B97F4A7C15) % 2**64


def splitmix_draws(state, bounds):
    """:func:`random_below` in NumPy, draw after draw from the state ``state[0]``: the
    integers in ``0..bounds[i]-1`` that ``random_below(state, bounds[i])`` gives for
    ``i = 0, 1, ...`` (a list), ``state[0]`` advanced past them. Each state is the seed
    plus a multiple of the increment, so all are computed at once."""
    steps = np.arange(1, len(bounds) + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):  # the arithmetic is modulo 2**64, as in the kernel
        z = state[0] + steps * np.uint64(0x9E3779B97F4A7C15)
        last = z[-1]
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    state[0] = last
    return ((z ^ (z >> np.uint64(31))) % np.asarray(bounds, dtype=np.uint64)).tolist()


@inner_njit(cache=True, nogil=True)
def shuffle(values, count, state):
    """Fisher-Yates shuffle of ``values[:count]``."""
    for i in range(count - 1, 0, -1):
        j = random_below(state, i + 1)
        t = values[i]
        values[i] = values[j]
        values[j] = t


@njit(cache=True, nogil=True, inline="always")
def random_bit(mask, state):
    """A set bit of ``mask`` chosen at random."""
    k = random_below(state, popcount(mask))
    for _ in range(k):
        mask &= mask - ONE
    return lowest_bit(mask)
