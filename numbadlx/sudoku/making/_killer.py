"""Making Killer Sudokus: random cage layouts over random full grids, made unique.

A layout is grown over a random full grid (:func:`~numbadlx.sudoku.random_grids`):
cells taken in random order each start a cage of a random size, which grows into
random orthogonal neighbours not yet caged whose digits are not yet in it. The sums
come from the grid. Then, in rounds over all the puzzles not yet unique, each is
searched with ``limit=2`` under its cages; a puzzle with a second solution has a cell
where that solution differs from the grid split off its cage as a cage of its own (the
rest of the cage split into its connected parts; a neighbour whose digit sums with
the cell's differently in that solution goes with it), which rules that solution out. The
other solution is the first one the engine finds, or the first one it finds with the
digits mirrored (``d -> n + 1 - d``, cage sums mirrored too), which walks the same
search tree in the opposite order.

A one-cell cage is a given in disguise, so none is drawn (a cell where growth got
stuck joins a neighbouring cage when one has room for its digit), and the unique
layouts then have each of their one-cell cages (left by the splits) joined to a
neighbouring cage without its digit, where the puzzle stays unique: in rounds of one
try per puzzle, each a search with ``limit=2``.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..._compiling import first_use
from ..._stopping import clock
from ...core.validate import check_timeout
from ..engines import BUDGET, MULTIPLE, SOLVED, UNIQUE
from ..geometry import unit_tables
from ..parallel import check_threads, parallel_threads
from ..shape import box_shape
from ..variants import Rules
from ._generate import _check_index, _check_number, _fresh_seed
from ._loops import random_grids_bulk
from ._masks import full_mask
from ._rate import _check_seed

__all__ = ["Killers", "generate_killer"]

# Rounds of cage splitting before a layout is given up (each round splits at least one
# cage of every puzzle still not unique, so n * n rounds always end in unique puzzles).
_SPLIT_ROUNDS_PER_CELL = 1


class Killers(NamedTuple):
    """Killer Sudokus made by :func:`generate_killer`.

    Attributes
    ----------
    puzzles : (count, n * n) uint8
        The puzzles: no givens, all zeros.
    rules : list of Rules
        The cages of each puzzle (each with its total), in reading order of their
        first cells; ``sudoku.solve(killers.puzzles, rules=killers.rules)`` solves them.
    solutions : (count, n * n) uint8
        The solution of each puzzle (its only one).
    """

    puzzles: NDArray[np.uint8]
    rules: list
    solutions: NDArray[np.uint8]


def generate_killer(
    count: int,
    size: int = 9,
    box: tuple[int, int] | None = None,
    *,
    max_cage: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    first_index: int = 0,
    timeout: float | None = None,
) -> Killers:
    """``count`` Killer Sudokus with exactly one solution and no givens.

    Each has a random cage layout over a random full grid: cages of 2 to ``max_cage``
    orthogonally connected cells with distinct digits, their sums from the grid.
    Layouts that leave more than one solution get cages split until the solution is
    unique, each check a search under the cages with ``limit=2``; then the one-cell
    cages the splits left (givens in disguise) join neighbouring cages wherever the
    solution stays unique, so that few remain (about 0.4 per 9x9 puzzle, against 3.6 before).

    Parameters
    ----------
    count : int
        How many puzzles.
    size : int, default 9
        Grid size (4 to 16; the grid keeps its boxes).
    box : (rows, cols), optional
        Box shape (default: as square as possible).
    max_cage : int, optional
        Most cells in a cage when the layout is drawn (2 to ``size``; default 5, or
        ``size`` on a 4x4 grid).
    seed : int, optional
        Puzzle ``k`` depends on ``(seed, first_index + k)`` only: the same seed gives
        the same puzzles for any ``threads``. None draws a fresh seed.
    threads : int, optional
        Threads for the random grids and the searches.
    first_index : int, default 0
        Index of the first puzzle in the seed's sequence (make a long run in pieces).
    timeout : float, optional
        Seconds, counted from the call's start, compiling kernels on a first use
        excepted: the call returns soon after them (the searches stop at their next
        node) with the puzzles made by then, the first ``k`` of the ``count`` asked for
        (``k`` may be 0; a ``RuntimeWarning`` says how many). They are the same as
        without a timeout, so ``first_index=k`` with the same seed makes the rest. A
        16x16 killer can take minutes; Ctrl-C stops the call within a second, with or
        without a timeout.

    Returns
    -------
    Killers
        ``(puzzles, rules, solutions)``: all-zero puzzles, the :class:`Rules` of each
        (its cages), and the solutions; ``k`` rows each after a timeout.

    Raises
    ------
    ValueError
        For a size outside 4..16, a ``max_cage`` outside 2..size, a bad box, seed or
        timeout.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> killers = sudoku.generate_killer(2, seed=1)
    >>> killers.puzzles.shape, int(killers.puzzles.max())
    ((2, 81), 0)
    >>> result = sudoku.solve(killers.puzzles, rules=killers.rules)
    >>> result.status_counts(), bool((result.solutions == killers.solutions).all())
    ({'UNIQUE': 2}, True)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", RuntimeWarning)
    ...     len(sudoku.generate_killer(3, 16, seed=1, timeout=0).puzzles)
    0
    """
    count = _check_number(count)
    timeout = check_timeout(timeout)
    deadline = None if timeout is None else clock() + timeout  # compiling not counted
    first_index = _check_index(first_index, count)
    if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or not 4 <= size <= 16:
        raise ValueError(f"size must be an integer from 4 to 16, got {size!r}")
    size = int(size)
    rows_, cols_ = box_shape(size, box)
    if max_cage is None:
        max_cage = min(5, size)
    if not isinstance(max_cage, (int, np.integer)) or isinstance(max_cage, bool):
        raise ValueError(f"max_cage must be an integer from 2 to {size}, got {max_cage!r}")
    if not 2 <= max_cage <= size:
        raise ValueError(f"max_cage must be an integer from 2 to {size}, got {max_cage!r}")
    seed = _check_seed(_fresh_seed() if seed is None else seed)
    threads = check_threads(threads)
    nn = size * size
    shape = Rules(box=(rows_, cols_))
    grids = np.zeros((count, nn), dtype=np.uint8)
    units, peers, _ = unit_tables(size, rows_, cols_)
    with parallel_threads(threads), first_use("the random grid maker"):
        random_grids_bulk(grids, units, peers, full_mask(size), seed, first_index)
    rngs = [np.random.default_rng([seed, first_index + k, 1]) for k in range(count)]
    layouts = [_layout(grids[k], size, max_cage, rngs[k]) for k in range(count)]
    made = _make_unique(grids, layouts, size, shape, rngs, threads, deadline)
    made = _merge_singles(grids, layouts, size, shape, rngs, threads, made, deadline)
    if made < count:
        warnings.warn(
            f"timeout: {made} of {count} killer puzzles made in {timeout:g} s",
            RuntimeWarning,
            stacklevel=2,
        )
    rules = [_rules(grid, cages, shape) for grid, cages in zip(grids[:made], layouts[:made])]
    return Killers(np.zeros((made, nn), dtype=np.uint8), rules, grids[:made].copy())


def _neighbours(cell, size):
    r, c = divmod(cell, size)
    if r > 0:
        yield cell - size
    if r < size - 1:
        yield cell + size
    if c > 0:
        yield cell - 1
    if c < size - 1:
        yield cell + 1


def _layout(grid, size, max_cage, rng):
    """Cages (lists of cells) over ``grid``: connected, distinct digits."""
    nn = size * size
    sizes = np.arange(2, max_cage + 1)
    weights = np.array([float(max_cage + 2 - s) for s in sizes])
    weights /= weights.sum()
    cage_of = np.full(nn, -1)
    cages = []
    for start in rng.permutation(nn).tolist():
        if cage_of[start] >= 0:
            continue
        target = int(rng.choice(sizes, p=weights))
        cage = [start]
        cage_of[start] = len(cages)
        digits = {int(grid[start])}
        while len(cage) < target:
            frontier = sorted(
                {
                    other
                    for cell in cage
                    for other in _neighbours(cell, size)
                    if cage_of[other] < 0 and int(grid[other]) not in digits
                }
            )
            if not frontier:
                break
            cell = frontier[int(rng.integers(len(frontier)))]
            cage.append(cell)
            cage_of[cell] = len(cages)
            digits.add(int(grid[cell]))
        cages.append(cage)
    # cells left alone where growth got stuck join a neighbouring cage with room for
    # their digit (a one-cell cage is a given in disguise)
    for k, cage in enumerate(cages):
        if len(cage) != 1:
            continue
        cell = cage[0]
        near = sorted(
            {
                int(cage_of[other])
                for other in _neighbours(cell, size)
                if len(cages[cage_of[other]]) < max_cage
                and int(grid[cell]) not in {int(grid[c]) for c in cages[cage_of[other]]}
            }
        )
        if near:
            into = near[int(rng.integers(len(near)))]
            cages[into].append(cell)
            cage_of[cell] = into
            cages[k] = []
    return [cage for cage in cages if cage]


def _rules(grid, cages, shape, mirror=False):
    n = shape.box[0] * shape.box[1]
    out = []
    for cage in sorted(cages, key=min):
        cells = tuple(sorted(cage))
        total = int(grid[list(cells)].astype(np.int64).sum())
        if mirror:
            total = len(cells) * (n + 1) - total
        out.append((cells, total))
    return Rules(cages=out, box=shape.box)


def _parts(cells, size):
    """The orthogonally connected parts of a set of cells."""
    left = set(cells)
    parts = []
    while left:
        start = min(left)
        part = [start]
        left.discard(start)
        frontier = [start]
        while frontier:
            cell = frontier.pop()
            for other in _neighbours(cell, size):
                if other in left:
                    left.discard(other)
                    part.append(other)
                    frontier.append(other)
        parts.append(part)
    return parts


def _split(cages, cell, size, grid, other, rng):
    """Cell ``cell`` split off its cage, the rest of the cage in connected parts. With
    ``other`` (a solution that differs from ``grid`` in ``cell``), a neighbour in the
    cage goes with the cell when their two digits sum differently in ``other``, so the
    new pair's sum rules ``other`` out as the cell alone would."""
    for k, cage in enumerate(cages):
        if cell in cage:
            piece = [cell]
            if other is not None and len(cage) > 2:
                near = [
                    c
                    for c in _neighbours(cell, size)
                    if c in cage
                    and int(other[c]) + int(other[cell]) != int(grid[c]) + int(grid[cell])
                ]
                if near:
                    piece.append(near[int(rng.integers(len(near)))])
            rest = [c for c in cage if c not in piece]
            return cages[:k] + [piece] + _parts(rest, size) + cages[k + 1 :]
    raise AssertionError("a cell in no cage")  # pragma: no cover


def _seconds_left(deadline):
    """Seconds to ``deadline`` (a ``clock()`` value), at least 0; None: none."""
    return None if deadline is None else max(0.0, deadline - clock())


def _make_unique(grids, layouts, size, shape, rngs, threads, deadline=None):
    """Split cages until each layout's only solution is its grid (in place). Returns
    how many puzzles, from the first, are made: all of them, or fewer when ``deadline``
    (a ``clock()`` value) passed first (each puzzle's layout depends on its
    own searches only, so those are the puzzles a call without a deadline makes)."""
    from ..bulk import solve  # the public solver: it groups the puzzles by rules

    nn = size * size
    pending = np.arange(len(layouts))
    for _ in range(_SPLIT_ROUNDS_PER_CELL * nn + 1):
        if not pending.size:
            return len(layouts)
        if deadline is not None and clock() >= deadline:
            return int(pending[0])
        zeros = np.zeros((pending.size, nn), dtype=np.uint8)
        rules = [_rules(grids[k], layouts[k], shape) for k in pending]
        result = solve(
            zeros, rules=rules, limit=2, threads=threads, timeout=_seconds_left(deadline)
        )
        status = np.asarray(result.status)
        if (status == BUDGET).any():  # out of time: the first puzzle not yet unique
            return int(pending[status != UNIQUE][0])
        if not np.isin(status, (UNIQUE, MULTIPLE)).all():  # pragma: no cover
            raise RuntimeError("a killer layout over a full grid was not solved")
        many = pending[status == MULTIPLE]
        firsts = np.asarray(result.solutions)[status == MULTIPLE]
        if many.size:
            mirrored = [_rules(grids[k], layouts[k], shape, mirror=True) for k in many]
            back = solve(
                np.zeros((many.size, nn), np.uint8),
                rules=mirrored,
                limit=1,
                threads=threads,
                timeout=_seconds_left(deadline),
            )
            if (np.asarray(back.status) == BUDGET).any():
                return int(many[0])
            if not (np.asarray(back.status) == SOLVED).all():  # pragma: no cover
                raise RuntimeError("a mirrored killer layout was not solved")
            lasts = size + 1 - np.asarray(back.solutions).astype(np.int64)
        for j, k in enumerate(many.tolist()):
            rng = rngs[k]
            other = firsts[j]
            differ = np.flatnonzero(other != grids[k])
            if not differ.size:
                other = lasts[j]
                differ = np.flatnonzero(other != grids[k])
            if differ.size:
                cell = int(differ[rng.integers(differ.size)])
            else:  # both searches found the grid first: split a cage at random
                other = None
                cell = int(rng.choice([c for cage in layouts[k] if len(cage) > 1 for c in cage]))
            layouts[k] = _split(layouts[k], cell, size, grids[k], other, rng)
        pending = many
    raise RuntimeError("killer layouts not made unique")  # pragma: no cover


def _merges(layout, grid, size, rng):
    """The layouts to try, one at a time, each with one more one-cell cage joined to
    a neighbouring cage that does not hold its digit; sent True when the last one
    kept the puzzle unique (it is then the layout the next tries start from). Each
    one-cell cage is tried once, its neighbouring cages in random order."""
    tried = set()
    while True:
        singles = [cage[0] for cage in layout if len(cage) == 1 and cage[0] not in tried]
        if not singles:
            return
        cell = singles[int(rng.integers(len(singles)))]
        tried.add(cell)
        cage_of = {c: i for i, cage in enumerate(layout) for c in cage}
        near = sorted(
            {
                cage_of[other]
                for other in _neighbours(cell, size)
                if len(layout[cage_of[other]]) < size
                and int(grid[cell]) not in {int(grid[c]) for c in layout[cage_of[other]]}
            }
        )
        for into in rng.permutation(near).tolist() if near else []:
            merged = [
                cage + [cell] if i == into else cage
                for i, cage in enumerate(layout)
                if cage != [cell]
            ]
            if (yield merged):
                layout = merged
                break


def _merge_singles(grids, layouts, size, shape, rngs, threads, count, deadline=None):
    """Join the one-cell cages of the first ``count`` unique layouts to neighbouring
    cages where the puzzle stays unique (in place): rounds of one try per puzzle, each
    a search with ``limit=2``, until every one-cell cage has been tried. Returns how
    many puzzles, from the first, are finished: ``count``, or fewer when ``deadline``
    (a ``clock()`` value) passed first; those are the puzzles a call without
    a deadline makes, since each puzzle's tries depend on its own searches only."""
    from ..bulk import solve

    nn = size * size
    tries = {k: _merges(layouts[k], grids[k], size, rngs[k]) for k in range(count)}
    trial = {}
    for k, gen in tries.items():
        layout = next(gen, None)
        if layout is not None:
            trial[k] = layout
    while trial:
        order = sorted(trial)
        if deadline is not None and clock() >= deadline:
            return order[0]
        rules = [_rules(grids[k], trial[k], shape) for k in order]
        zeros = np.zeros((len(order), nn), dtype=np.uint8)
        result = solve(
            zeros, rules=rules, limit=2, threads=threads, timeout=_seconds_left(deadline)
        )
        status = np.asarray(result.status)
        if (status == BUDGET).any():  # out of time in this round: its puzzles unfinished
            return order[0]
        following = {}
        for k, st in zip(order, status.tolist()):
            unique = st == UNIQUE
            if unique:
                layouts[k] = trial[k]
            try:
                following[k] = tries[k].send(unique)
            except StopIteration:
                pass
        trial = following
    return count
