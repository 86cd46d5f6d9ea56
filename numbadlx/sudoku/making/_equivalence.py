"""Canonical forms and classes of equivalent puzzles, in bulk.

Two puzzles are *equivalent* when one becomes the other by the transformations that keep
every Sudoku valid: relabelling the digits; permuting the rows inside each band and the
columns inside each stack; permuting the bands and the stacks; and, when the boxes are
square, transposing. (With ``r x c`` boxes, ``r != c``, there are ``c`` bands of ``r`` rows
and ``r`` stacks of ``c`` columns, and no transpose.) :func:`canonical` gives the smallest
equivalent puzzle in reading order, blanks (0) first; equivalent puzzles, and only they,
share it. :func:`equivalence_classes` numbers the classes of a batch.

A transformation is a :class:`Transform`: transpose first (if the flag is set), then
output row ``i`` is source row ``rows[i]``, output column ``j`` source column ``cols[j]``,
and a value ``v`` becomes ``digits[v]``. :func:`apply_transform` applies one per puzzle,
:func:`invert_transform` undoes it.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..._compiling import first_use
from ..formats import parse_chunk
from ..parallel import parallel_threads
from ..shape import box_shape
from ._canonical import CLASH, DONE, canonical_bulk, state_width

__all__ = [
    "Transform",
    "canonical_chunk",
    "canonical",
    "apply_transform",
    "invert_transform",
    "equivalence_classes",
]

#: The memory the partial transformations kept for one puzzle may take, per thread
#: (about 500,000 of them for 9x9). The empty 9x9 grid, the most symmetric puzzle, keeps
#: 15,552; highly symmetric large puzzles may reach the bound and are then reported.
STATE_BYTES = 256 << 20

#: Puzzles per call of the kernel: Ctrl-C is seen between two calls.
BLOCK = 1024


class Transform(NamedTuple):
    """One transformation per puzzle (see :func:`apply_transform`).

    Attributes
    ----------
    transpose : ndarray of bool, (N,)
        Transpose the grid first.
    rows : ndarray of uint8, (N, n)
        Output row ``i`` is row ``rows[i]`` (of the transposed grid if ``transpose``).
    cols : ndarray of uint8, (N, n)
        Output column ``j`` is column ``cols[j]``.
    digits : ndarray of uint8, (N, n + 1)
        Value ``v`` becomes ``digits[v]``; ``digits[0] == 0`` (blanks stay blank).
    """

    transpose: NDArray[np.bool_]
    rows: NDArray[np.uint8]
    cols: NDArray[np.uint8]
    digits: NDArray[np.uint8]


def canonical_chunk(puzzles, box=None, threads=None):
    """:func:`canonical` for the file jobs: the forms, the transforms, and the
    ``(row, message)`` of every row that could not be read or whose givens clash.

    Examples
    --------
    >>> forms, how, bad = canonical_chunk(["1234341221434321", "1100" + "0" * 12])
    >>> forms[1].tolist() == [0] * 16, bad
    (True, [(1, 'its givens clash (or a value is above n)')])
    """
    read = parse_chunk(puzzles, box=box, raw=False)
    read.variant_rows("canonical reads")
    n = read.n
    rows, cols = box_shape(n, box)
    bad = np.asarray(read.bad, dtype=bool)
    grid = np.ascontiguousarray(np.where(bad[:, None], 0, read.puzzles), dtype=np.uint8)
    count = grid.shape[0]
    perms = np.array(list(permutations(range(n // cols))), dtype=np.int16)
    out = np.zeros(grid.shape, dtype=np.uint8)
    trans = np.zeros((count, 3 * n + 2), dtype=np.int16)
    status = np.zeros(count, dtype=np.int8)
    limit = STATE_BYTES // (2 * (2 * int(state_width(n)) + 8))  # two tables of int16 + mask
    with parallel_threads(threads) as threads, first_use(f"the {n}x{n} canonical forms"):
        for start in range(0, count, BLOCK):
            stop = min(count, start + BLOCK)
            n_chunks = max(1, min(stop - start, threads * 8))
            canonical_bulk(
                grid[start:stop],
                n,
                rows,
                cols,
                perms,
                limit,
                out[start:stop],
                trans[start:stop],
                status[start:stop],
                n_chunks,
            )
    errors = dict(read.errors)
    for k in np.flatnonzero(status != DONE):
        k = int(k)
        if k not in errors:
            errors[k] = (
                "its givens clash (or a value is above n)"
                if status[k] == CLASH
                else f"too many symmetric ties (over {limit:,} partial transformations)"
            )
    bad_rows = np.zeros(count, dtype=bool)
    bad_rows[list(errors)] = True
    out[bad_rows] = 0
    trans[bad_rows] = 0
    trans[bad_rows, 1 : 1 + n] = np.arange(n)
    trans[bad_rows, 1 + n : 1 + 2 * n] = np.arange(n)
    trans[bad_rows, 1 + 2 * n :] = np.arange(n + 1)
    transform = Transform(
        trans[:, 0] != 0,
        trans[:, 1 : 1 + n].astype(np.uint8),
        trans[:, 1 + n : 1 + 2 * n].astype(np.uint8),
        trans[:, 1 + 2 * n :].astype(np.uint8),
    )
    return out, transform, sorted(errors.items())


def canonical(
    puzzles: ArrayLike | Any,
    *,
    return_transform: bool = False,
    box: tuple[int, int] | None = None,
    threads: int | None = None,
) -> NDArray[np.uint8] | tuple[NDArray[np.uint8], Transform]:
    """The canonical form of every puzzle (or full grid): the smallest equivalent one.

    Parameters
    ----------
    puzzles : array_like or str or path
        An (N, n*n) array or anything :func:`numbadlx.sudoku.parse` reads.
    return_transform : bool, default False
        Also return the :class:`Transform` that maps each puzzle to its form.
    box, threads
        As in :func:`numbadlx.sudoku.solve`.

    Returns
    -------
    forms : ndarray of uint8, (N, n*n)
        The lexicographically smallest puzzle (blanks as 0, so they come first) that
        relabelling, row and column moves inside bands and stacks, band and stack moves
        and (square boxes) transposing make of each puzzle. A row that could not be read
        or whose givens clash is all zeros (:func:`equivalence_classes` tells them apart).
    transform : Transform
        With ``return_transform``: ``apply_transform(puzzles, transform)`` equals
        ``forms`` (the identity for the zero rows).

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> grid = sudoku.random_grids(1, 9, seed=3)
    >>> image = sudoku.transform(grid, seed=4)
    >>> bool((sudoku.canonical(grid) == sudoku.canonical(image)).all())
    True
    >>> sudoku.format_line(sudoku.canonical(["1234341221434321"])[0])
    '1234341221434321'
    >>> forms, how = sudoku.canonical(image, return_transform=True)
    >>> bool((sudoku.apply_transform(image, how) == forms).all())
    True
    """
    out, transform, _ = canonical_chunk(puzzles, box, threads)
    return (out, transform) if return_transform else out


def _cells(n, transform):
    count = transform.rows.shape[0]
    index = transform.rows[:, :, None].astype(np.intp) * n + transform.cols[:, None, :]
    flipped = transform.rows[:, None, :].astype(np.intp) + transform.cols[:, :, None] * n
    return np.where(transform.transpose[:, None, None], flipped.transpose(0, 2, 1), index).reshape(
        count, n * n
    )


def apply_transform(puzzles: ArrayLike, transform: Transform) -> NDArray[np.uint8]:
    """Each puzzle moved by its transformation.

    Parameters
    ----------
    puzzles : array_like of int, (N, n*n)
        Puzzles or grids, values 0..n.
    transform : Transform
        One transformation per puzzle, as :func:`canonical` returns.

    Returns
    -------
    ndarray of uint8, (N, n*n)

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx import sudoku
    >>> grid = np.array([[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]], dtype=np.uint8)
    >>> move = sudoku.Transform(np.array([True]), np.array([[1, 0, 2, 3]], dtype=np.uint8),
    ...     np.array([[0, 1, 3, 2]], dtype=np.uint8), np.array([[0, 2, 1, 3, 4]], dtype=np.uint8))
    >>> moved = sudoku.apply_transform(grid, move)
    >>> sudoku.format_line(moved[0])
    '1432234132144123'
    >>> bool((sudoku.apply_transform(moved, sudoku.invert_transform(move)) == grid).all())
    True
    """
    grid = np.asarray(puzzles, dtype=np.uint8)
    if grid.ndim != 2:
        raise ValueError(f"puzzles must be an (N, n*n) array; got shape {grid.shape}")
    count, nn = grid.shape
    n = transform.rows.shape[1] if transform.rows.ndim == 2 else -1
    if n * n != nn or any(len(part) != count for part in transform):
        raise ValueError("the transform does not match the puzzles (one per puzzle, same n)")
    if grid.max(initial=0) > n:
        raise ValueError(f"values must be 0..{n}")
    moved = np.take_along_axis(grid, _cells(n, transform), axis=1)
    return np.take_along_axis(transform.digits, moved, axis=1).astype(np.uint8)


def invert_transform(transform: Transform) -> Transform:
    """The transformations that undo ``transform``, puzzle by puzzle.

    Parameters
    ----------
    transform : Transform

    Returns
    -------
    Transform
        ``apply_transform(apply_transform(p, t), invert_transform(t))`` is ``p``.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> puzzle = ["1...2.....3.....4" + "." * 64]
    >>> form, how = sudoku.canonical(puzzle, return_transform=True)
    >>> back = sudoku.apply_transform(form, sudoku.invert_transform(how))
    >>> sudoku.format_line(back[0]) == puzzle[0].replace(".", "0")
    True
    """
    flip, rows, cols, digits = (np.asarray(part) for part in transform)
    inverse_rows = np.argsort(rows, axis=1).astype(np.uint8)
    inverse_cols = np.argsort(cols, axis=1).astype(np.uint8)
    inverse_digits = np.argsort(digits, axis=1).astype(np.uint8)
    return Transform(
        flip.copy(),
        np.where(flip[:, None], inverse_cols, inverse_rows),
        np.where(flip[:, None], inverse_rows, inverse_cols),
        inverse_digits,
    )


def equivalence_classes(
    puzzles: ArrayLike | Any,
    *,
    box: tuple[int, int] | None = None,
    threads: int | None = None,
) -> NDArray[np.int64]:
    """A class number for every puzzle: equal for equivalent puzzles, and only for them.

    Parameters
    ----------
    puzzles : array_like or str or path
        An (N, n*n) array or anything :func:`numbadlx.sudoku.parse` reads.
    box, threads
        As in :func:`numbadlx.sudoku.solve`.

    Returns
    -------
    ndarray of int64, (N,)
        Classes numbered 0, 1, ... in the order of their first puzzle; -1 for a row that
        could not be read or whose givens clash.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> grids = sudoku.random_grids(2, 9, seed=5)
    >>> lines = sudoku.format_lines(grids) + sudoku.format_lines(sudoku.transform(grids, seed=6))
    >>> batch = lines + ["1" * 81]
    >>> sudoku.equivalence_classes(batch).tolist()
    [0, 1, 0, 1, -1]
    """
    forms, _, errors = canonical_chunk(puzzles, box, threads)
    return classes_of(forms, [row for row, _ in errors])


def classes_of(forms: NDArray[np.uint8], bad_rows) -> NDArray[np.int64]:
    """Class numbers of canonical forms, in order of first appearance; -1 for
    ``bad_rows``."""
    ids = np.full(forms.shape[0], -1, dtype=np.int64)
    good = np.ones(forms.shape[0], dtype=bool)
    good[list(bad_rows)] = False
    if good.any():
        _, first, inverse = np.unique(forms[good], axis=0, return_index=True, return_inverse=True)
        rank = np.empty(first.shape[0], dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(first.shape[0])
        ids[good] = rank[inverse.reshape(-1)]
    return ids
