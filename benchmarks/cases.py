"""Problems more than one benchmark times, built one way for all of them."""

import numpy as np

from numbadlx import problems

#: The 5x5 crossword pattern of the colour benchmarks ('#' black, '.' to fill).
CROSSWORD = ["...#.", ".....", ".....", ".....", ".#..."]


def random_words(lengths, per_length, seed, letters="abcde"):
    """``per_length`` distinct random words of each length (seeded, reproducible)."""
    rng = np.random.default_rng(seed)
    alphabet = np.array(list(letters))
    found = set()
    for length in lengths:
        have = 0
        while have < per_length:
            word = "".join(rng.choice(alphabet, length))
            if word not in found:
                found.add(word)
                have += 1
    return sorted(found)


def word_squares(size, how_many, seed=1):
    """Double word squares over ``how_many`` random words of ``size`` letters."""
    return problems.word_square(size, random_words([size], how_many, seed))


def crossword(per_length, seed=7):
    """The :data:`CROSSWORD` filled from ``per_length`` random words of lengths 3-5."""
    return problems.crossword(CROSSWORD, random_words([3, 4, 5], per_length, seed))
