"""The rater's steps as a bulk trace: one row a step, candidate masks on request.

:func:`rate` with ``steps=True`` keeps every step the logic ladder took for every
puzzle (technique, cell, digit, candidates removed). :func:`trace_columns` lays them
out as columns, one row a step, puzzle by puzzle (what :meth:`Ratings.steps_to_pandas`
and :meth:`Ratings.steps_to_arrow` hand over), and with ``masks=True`` adds the
candidate masks of the grid *before* each step: the ladder's run is replayed from the
givens, a placement by placing its digit, an elimination by applying the technique it
names to the state before it (the ladder is deterministic, so the same candidates go;
the count is checked against the one recorded).
"""

from __future__ import annotations

import numpy as np

from ..geometry import unit_tables
from ..shape import box_shape
from ._ladder import T_POINTING, T_SEARCH, logic_work
from ._masks import ONE, PLACED, candidates_from_python, full_mask
from ._stepwise import ladder_rungs

__all__ = ["trace_columns"]

#: The columns of a trace, in order (``masks`` comes last when asked for).
TRACE_COLUMNS = ("puzzle", "step", "technique", "rating", "row", "column", "digit", "removed")


def _replay_masks(puzzle, rows, n, box):
    """The candidate masks before each of ``rows`` (one puzzle's steps), (S, n*n)."""
    units, peers, where = unit_tables(n, *box)
    full = full_mask(n)
    cand = np.zeros(n * n, dtype=np.uint64)
    if not candidates_from_python(puzzle, cand, peers, full):
        raise ValueError("the givens clash: no steps to replay")
    work = logic_work(n)
    rungs = ladder_rungs(units, peers, where, full, work)
    first = np.zeros(2, dtype=np.int64)
    out = np.zeros((len(rows), n * n), dtype=np.uint64)
    for s, (technique, cell, digit, removed) in enumerate(rows):
        out[s] = cand & ~PLACED
        if removed == 0:  # a placement: a single, or the solution's digit past the ladder
            bit = ONE << np.uint64(digit - 1)
            around = peers[cell]
            if not cand[cell] & bit or (cand[around] & (bit | PLACED) == bit | PLACED).any():
                raise AssertionError(f"step {s}: {digit} cannot go in cell {cell}")
            cand[cell] = bit | PLACED
            cand[around] &= ~bit
            continue
        if not T_POINTING <= technique < T_SEARCH:
            raise AssertionError(f"step {s}: technique {technique} removes nothing")
        first[0], first[1] = -1, 0
        if rungs[technique](cand, first) != removed:
            raise AssertionError(f"step {s}: the replay removed another count")
    return out


def trace_columns(ratings, techniques, masks=False):
    """The steps of every rated puzzle of ``ratings`` as a dict of columns (see the
    module): ``puzzle`` (row in the batch), ``step`` (from 0), ``technique`` (name, from
    ``techniques``, the ladder's ``(name, rating)`` pairs), ``rating``, ``row`` and
    ``column`` (from 0), ``digit``, ``removed`` (0 for a placement), and with ``masks`` a
    ``(S, n*n)`` uint64 array ``masks``."""
    if ratings.step_table is None:
        raise ValueError("no steps kept: call rate(..., steps=True)")
    n = int(round(ratings.puzzles.shape[1] ** 0.5))
    counts = np.asarray(ratings.n_steps, dtype=np.int64)
    counts = np.minimum(counts, ratings.step_table.shape[1])
    pieces = [ratings.step_table[k, : counts[k]] for k in range(len(counts))]
    table = np.concatenate(pieces) if pieces else np.zeros((0, 4), dtype=np.int32)
    names = np.array([t[0] for t in techniques], dtype=object)
    values = np.array([t[1] for t in techniques])
    out = {
        "puzzle": np.repeat(np.arange(len(counts)), counts),
        "step": np.concatenate([np.arange(c) for c in counts]) if len(counts) else counts,
        "technique": names[table[:, 0]],
        "rating": values[table[:, 0]],
        "row": table[:, 1] // n,
        "column": table[:, 1] % n,
        "digit": table[:, 2].astype(np.int64),
        "removed": table[:, 3].astype(np.int64),
    }
    if masks:
        box = box_shape(n)
        # a puzzle without steps (not rated: clashing givens, several solutions) has
        # nothing to replay
        out["masks"] = np.concatenate(
            [
                _replay_masks(ratings.puzzles[k], pieces[k], n, box)
                for k in range(len(counts))
                if counts[k]
            ]
            or [np.zeros((0, n * n), dtype=np.uint64)]
        )
    return out
