"""What is wrong when a Killer cage map and its list of sums do not fit together.

A cage map names its cages by letters, numbered in order of first appearance, and the
sums are given in that order. A letter left out of the map (a typo that merged two
cages, a map cut one character short) shifts every later cage against its sum; the
checks then see only a count that differs or a total no cage of that size reaches.
:func:`disagreement` names the place instead: the letter missing from the run of
letters the map uses, the cages that have no sum, or the first cage whose sum does not
fit it, with the cell where that cage starts.
"""

from __future__ import annotations

import string

import numpy as np

__all__ = ["disagreement"]

# Runs of letters that cage maps number their cages with (A-Z then a-z is the
# krazydad booklets' order); a gap in the run the map uses names a missing letter.
_RUNS = (
    string.ascii_uppercase + string.ascii_lowercase,
    string.ascii_lowercase + string.ascii_uppercase,
    string.digits + string.ascii_uppercase + string.ascii_lowercase,
    string.digits + string.ascii_lowercase + string.ascii_uppercase,
)


def _where(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def _run_of(letters: list[str]) -> str | None:
    """The first of :data:`_RUNS` that holds all of ``letters``, or None."""
    return next((run for run in _RUNS if all(c in run for c in letters)), None)


def _count_message(order: dict, sums, n: int) -> str:
    letters = list(order)
    text = f"the map has {len(letters)} cages but {len(sums)} sums were given"
    run = _run_of(letters)
    if run is not None and len(sums) > len(letters):
        places = sorted(run.index(c) for c in letters)
        span = run[places[0] : places[-1] + 1]
        missing = [c for c in span if c not in order]
        if missing and len(missing) == len(sums) - len(letters):
            names = ", ".join(repr(c) for c in missing)
            many = len(missing) > 1
            text += (
                f"; letter{'s' if many else ''} {names} {'are' if many else 'is'} missing "
                f"from the map's letters ({span[0]!r} to {span[-1]!r})"
            )
            gap = run.index(missing[0])
            after = [c for c in letters if run.index(c) > gap]
            if after:
                text += (
                    f", so from cage {after[0]!r} (first at {_where(order[after[0]][0], n)})"
                    " on each cage would take the sum meant for the cage before it"
                )
            return text
    if len(letters) > len(sums):
        extra = letters[len(sums) :]
        where = _where(order[extra[0]][0], n)
        rest = " and the cages after it have" if len(extra) > 1 else " has"
        return f"{text}; cage {extra[0]!r} (first at {where}){rest} no sum"
    return f"{text}; the last {len(sums) - len(letters)} sums have no cage"


def disagreement(order: dict, sums, n: int) -> str | None:
    """Why the cages of a map (``order``: each letter's cells, in order of first
    appearance) and ``sums`` (one per cage, in that order) disagree on an ``n x n``
    grid, or None when each cage has a sum its size can reach.

    Examples
    --------
    >>> order = {}
    >>> for cell, letter in enumerate("AABB" "CCCC" "EEFF" "GGHH"):
    ...     order.setdefault(letter, []).append(cell)
    >>> print(disagreement(order, [3, 7, 4, 6, 5, 5, 4, 6], 4))
    the cage map and the sums disagree: the map has 7 cages but 8 sums were given; \
letter 'D' is missing from the map's letters ('A' to 'H'), so from cage 'E' (first at \
r3c1) on each cage would take the sum meant for the cage before it
    """
    head = "the cage map and the sums disagree: "
    if len(sums) != len(order):
        return head + _count_message(order, sums, n)
    for k, (letter, total) in enumerate(zip(order, sums)):
        size = len(order[letter])
        if not isinstance(total, (int, np.integer)) or isinstance(total, bool) or size > n:
            continue  # a total that is no integer is the Rules checks' to name
        low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
        if not low <= total <= high:
            return (
                f"{head}cage {letter!r} (cage {k + 1} of {len(order)}, {size} "
                f"cell{'s' if size > 1 else ''}, first "
                f"at {_where(order[letter][0], n)}) cannot total {total} (sum {k + 1}), only "
                f"{low} to {high}: is a letter missing or out of place in the map, or a sum "
                "out of order?"
            )
    return None
