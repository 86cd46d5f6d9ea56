"""Making puzzles: random full grids, and puzzles with exactly one solution, in bulk.

A full grid comes from a randomised search (:func:`random_grids`). A puzzle is made
from one by blanking cells in random order, keeping each blank only while the puzzle
stays unique (:func:`generate`); with a symmetry, the cells a symmetry maps onto each
other are blanked together. Every uniqueness check is a proof: a complete search finds
no solution with another digit in a blanked cell.

Every puzzle ``k`` of a call draws its randomness from ``(seed, k)`` only, so the same
seed gives the same puzzles whatever the number of threads (puzzles are made in
parallel with ``prange``).

Examples
--------
>>> from numbadlx import sudoku
>>> grids = sudoku.random_grids(2, 4, seed=1)
>>> grids.shape, sorted(grids[0, :4].tolist())
((2, 16), [1, 2, 3, 4])
>>> puzzles = sudoku.generate(2, 4, seed=0)
>>> sudoku.solve(puzzles).status_counts()
{'UNIQUE': 2}
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ..._compiling import first_use
from ..._stopping import call_on_lanes, clock, new_flag
from ...core.validate import check_count, check_integer, check_timeout, is_integer
from ...core.words import plural
from ..engines import REGISTRY, UNIQUE
from ..geometry import unit_table, unit_tables
from ..parallel import check_threads, parallel_threads
from ..shape import box_shape
from ..variants import Rules
from ._bodies import NO_GRID, make_puzzle, make_rated_puzzle
from ._loops import generate_share, random_grids_bulk
from ._masks import full_mask
from ._rate import LOGIC_RATINGS, _check_seed
from ._variant_generate import blank_by_solving, checked_rules, variant_tables

__all__ = ["SYMMETRIES", "random_grids", "generate", "random_grid", "random_puzzles"]

#: The clue-pattern symmetries :func:`generate` knows: 180-degree rotation, reflection
#: in the main diagonal, left-right mirror, and all eight rotations and reflections.
SYMMETRIES = ("rotational", "diagonal", "mirror", "dihedral")

# Fewest clues a unique puzzle can have, where it is known (9x9: McGuire, Tugemann and
# Civario 2012; 4x4: by exhaustion).
_FEWEST_CLUES = {4: 4, 9: 17}
# Puzzles per kernel call (between progress reports).
_BLOCK = 256


def random_grids(
    n: int,
    size: int = 9,
    box: tuple[int, int] | None = None,
    *,
    seed: int | None = None,
    threads: int | None = None,
) -> NDArray[np.uint8]:
    """``n`` random full grids of ``size x size``, as an (n, size*size) uint8 array.

    Each grid comes from a depth-first search over the empty grid that fills singles
    as soon as they appear, branches on a cell with fewest candidates (ties broken at
    random) and tries its digits in random order, restarting with a fresh random stream
    (and a doubled budget) after too many dead ends.

    **Not uniform.** A grid's chance is the product of the random choices on its path,
    which depends on how many candidates each choice had, so grids reached through
    narrower choices are more likely. On 4x4 (288 grids), 288,000 draws gave every
    grid, with counts from 0.69 to 1.21 times the mean (a uniform sampler gave 0.91 to
    1.11 in the same test); for larger grids the bias is not measured. Use it for
    variety, not for statistics over all grids.

    Parameters
    ----------
    n : int
        How many grids.
    size : int, default 9
        Grid size (4 to 36).
    box : (rows, cols), optional
        Box shape (default: as square as possible, e.g. 3x4 for 12).
    seed : int, optional
        Grid ``k`` depends on ``(seed, k)`` only; None draws a fresh seed.
    threads : int, optional
        Threads for the parallel loop (the grids do not depend on it).

    Returns
    -------
    ndarray of uint8, shape (n, size*size)

    Examples
    --------
    >>> grids = random_grids(3, 6, seed=7)
    >>> grids.shape, sorted(grids[0, :6].tolist())
    ((3, 36), [1, 2, 3, 4, 5, 6])
    """
    count = _check_number(n)
    rows, cols = box_shape(size, box)
    seed = _check_seed(_fresh_seed() if seed is None else seed)
    units, peers, _ = unit_tables(size, rows, cols)
    out = np.zeros((count, size * size), dtype=np.uint8)
    with parallel_threads(threads) as threads, first_use("the random grid maker"):
        random_grids_bulk(out, units, peers, full_mask(size), seed, 0)
    return out


def generate(
    n: int,
    size: int = 9,
    box: tuple[int, int] | None = None,
    *,
    minimal: bool | str = True,
    symmetry: str | None = None,
    clues: tuple[int, int] | None = None,
    rating: tuple[float, float] | None = None,
    seed: int | None = None,
    threads: int | None = None,
    attempts: int = 1000,
    progress: Callable[[int, int], None] | None = None,
    first_index: int = 0,
    timeout: float | None = None,
    rules: Rules | None = None,
) -> NDArray[np.uint8]:
    """``n`` puzzles with exactly one solution, as an (n, size*size) uint8 array.

    Parameters
    ----------
    n : int
        How many puzzles.
    size : int, default 9
        Grid size (4 to 36).
    box : (rows, cols), optional
        Box shape (default: as square as possible).
    minimal : {True, 'symmetric', False}, default True
        True: removing any one clue of the result gives a puzzle with more than one
        solution. With a ``symmetry`` such puzzles are rare (every symmetric group of
        clues must be needed clue by clue): on 9x9, rotational, diagonal and mirror
        puzzles took up to a few hundred grids each here, dihedral ones were not found
        in 1000. 'symmetric': no symmetric group of clues can go (the usual meaning for
        symmetric puzzles; the same as True without a symmetry). False: stop blanking
        at a clue count drawn at random from ``clues`` (which is then required).
    symmetry : {None, 'rotational', 'diagonal', 'mirror', 'dihedral'}
        Symmetry of the pattern of clues: 180-degree rotation, reflection in the main
        diagonal, left-right mirror, or all eight rotations and reflections.
    clues : (lo, hi), optional
        Keep only puzzles with ``lo`` to ``hi`` clues.
    rating : (lo, hi), optional
        Keep only puzzles whose ``logic`` rating (see :func:`numbadlx.sudoku.rate`) is
        within ``lo..hi``.
    seed : int, optional
        Puzzle ``k`` depends on ``(seed, k)`` only: the same seed gives the same
        puzzles for any ``threads``. None draws a fresh seed.
    threads : int, optional
        Threads for the parallel loop.
    attempts : int, default 1000
        Grids tried per puzzle before giving up on the bounds.
    progress : callable, optional
        Called as ``progress(done, total)`` after each block of puzzles.
    first_index : int, default 0
        Index of the first puzzle: the call makes puzzles ``first_index`` to
        ``first_index + n - 1`` of the seed's sequence, so a long run can be made in
        pieces (a non-negative integer).
    timeout : float, optional
        Seconds, counted from the call's start, compiling kernels on a first use
        excepted: the call returns soon after them (the searches stop at their next
        node) with the puzzles made by then, the first ``k`` of the ``n`` asked for
        (``k`` may be 0; a ``RuntimeWarning`` says how many). They are the same as
        without a timeout, so ``first_index=k`` with the same seed makes the rest.
    rules : Rules, optional
        Make variant puzzles, unique and minimal under these rules (see
        :class:`~numbadlx.sudoku.Rules`; None or ``Rules()``: classic). Rules on units
        and peers (regions, latin, diagonals, windoku, disjoint, anti-knight,
        anti-king) run through the classic making kernels, with the rules' units and
        peers. Rules on digits (non-consecutive, thermometers, cages, dots, X/V, odd,
        even) run a slower path: grids grown by random givens and cells blanked one by
        one, each step a search by the engine that solves the rules (``limit=2``, for
        all puzzles of a block at once; under a timeout in budgeted slices). Both
        give the same puzzles for the same seed whatever ``threads``. ``rating`` is
        for classic puzzles only. Minimal puzzles under strong rules have few clues
        and hard last searches: a minimal non-consecutive 9x9 puzzle (5 to 8 clues)
        took seconds here, where ``minimal=False, clues=(22, 26)`` took 0.3 s.

    Returns
    -------
    ndarray of uint8, shape (n, size*size), or (k, size*size) after a timeout

    Ctrl-C (KeyboardInterrupt) stops the call as soon, on every size: the searches
    run on a helper thread that is told to stop.

    Notes
    -----
    Cost grows fast with the size: a minimal puzzle takes one search per cell, and the
    searches near the end get hard. On this project's shared 2-core machine a minimal
    9x9 puzzle took about 0.4 ms of CPU time, a 16x16 one about 0.25 s, and a 25x25 one
    more than two minutes (not measured further).

    Raises
    ------
    ValueError
        For bounds that cannot be met (more clues than cells, fewer than the known
        minimum, ``lo > hi``), an unknown symmetry, and when some puzzle was not found
        within ``attempts`` (the message names the bounds to widen); for bad ``rules``
        (naming the rule) and ``rating`` with rules.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> puzzles = generate(2, 9, symmetry="rotational", seed=3)
    >>> bool(((puzzles > 0) == (puzzles[:, ::-1] > 0)).all())   # 180 degrees
    True
    >>> sudoku.solve(puzzles).status_counts()
    {'UNIQUE': 2}

    Made in two pieces, the same puzzles:

    >>> bool((generate(4, seed=1)[2:] == generate(2, seed=1, first_index=2)).all())
    True

    X-Sudoku, unique under its rules:

    >>> from numbadlx.sudoku import Rules
    >>> x = Rules(diagonals=True)
    >>> sudoku.solve(generate(2, seed=5, rules=x), rules=x).status_counts()
    {'UNIQUE': 2}
    """
    count = _check_number(n)
    first_index = _check_index(first_index, count)
    variant = checked_rules(rules, size, box)
    if variant is None and rules is not None and box is None:
        box = rules.box  # the classic rules with a box shape
    if variant is not None:
        if rating is not None:
            raise ValueError("rating: the logic ratings are for classic puzzles (rules=None)")
    # (a latin or jigsaw grid of prime size has no box shape: the kernels do not read it)
    rows, cols = box_shape(size, box) if variant is None else (variant.box or (1, size))
    nn = size * size
    if minimal not in (True, False, "symmetric"):
        raise ValueError(f"minimal must be True, False or 'symmetric', got {minimal!r}")
    seed = _check_seed(_fresh_seed() if seed is None else seed)
    attempts = check_count(attempts, "attempts")
    orbits, orbit_sizes = _orbits(size, symmetry)
    clue_lo, clue_hi = _clue_bounds(clues, size, minimal, classic=variant is None)
    rate_lo, rate_hi = _rating_bounds(rating)
    timeout = check_timeout(timeout)
    deadline = None if timeout is None else clock() + timeout  # compiling not counted
    threads = check_threads(threads)
    if variant is not None and variant.constraint_rules:
        return blank_by_solving(
            count,
            size,
            variant,
            orbits=orbits,
            orbit_sizes=orbit_sizes,
            minimal=minimal is not False,
            strict=minimal is True and symmetry is not None,
            clue_lo=clue_lo,
            clue_hi=clue_hi,
            seed=seed,
            first_index=first_index,
            attempts=attempts,
            threads=threads,
            progress=progress,
            deadline=deadline,
            timeout=timeout,
        )
    if variant is None:
        units, peers, where = unit_tables(size, rows, cols)
    else:
        units, peers, where = variant_tables(size, variant)
    out = np.zeros((count, nn), dtype=np.uint8)
    used = np.zeros(count, dtype=np.int64)
    # the logic ladder is compiled only when a rating is asked; more threads run the
    # same compiled function, each making the puzzles it takes next
    if rate_hi >= 0:
        make, rated = make_rated_puzzle, (rate_lo, rate_hi, LOGIC_RATINGS)
    else:
        make, rated = make_puzzle, ()
    label = f"the {size}x{size} puzzle generator"
    with new_flag() as stop, first_use(label):
        for begin in range(0, count, _BLOCK):
            end = min(count, begin + _BLOCK)
            timed_out = call_on_lanes(
                generate_share,
                stop,
                max(1, min(threads, end - begin)),
                itertools.count(),  # the rows' numbers, taken in turn by the threads
                make,
                out[begin:end],
                used[begin:end],
                size,
                rows,
                cols,
                units,
                peers,
                where,
                full_mask(size),
                orbits,
                orbit_sizes,
                minimal is not False,
                minimal is True and symmetry is not None,
                clue_lo,
                clue_hi,
                *rated,
                attempts,
                seed,
                first_index + begin,
                stop,
                deadline=deadline,
            )
            if timed_out:  # (rows still being made by a call let go count as unfinished)
                return _made_by_deadline(out, used, count, timeout, begin)
            if (used[begin:end] == NO_GRID).any():  # a complete search found no grid
                kinds = sorted(variant.kinds) if variant is not None else []
                raise ValueError(f"no grid meets the rules {kinds}")
            failed = np.flatnonzero(used[begin:end] < 0)
            if failed.size:
                raise ValueError(
                    f"no puzzle {first_index + begin + int(failed[0])} found in "
                    f"{plural(attempts, 'attempt')} (size {size}, minimal={minimal}, "
                    f"symmetry={symmetry!r}, clues={clues}, rating={rating}): widen the bounds "
                    f"or raise attempts"
                )
            if progress is not None:
                progress(end, count)
    return out


def random_grid(
    n: int = 9, box: tuple[int, int] | None = None, seed: int | None = None
) -> NDArray[np.uint8]:
    """One full n x n grid as an (n*n,) uint8 array, from the pattern
    ``(c * (row % r) + row // r + col) % n`` shuffled by relabelling digits and
    permuting bands, rows inside bands, stacks and columns inside stacks: only the
    pattern's class of grids, far from uniform. Kept because the built-in sample was
    made with :func:`random_puzzles`, which uses it; new code should use
    :func:`random_grids`.

    Examples
    --------
    >>> grid = random_grid(9, seed=1)
    >>> sorted(grid[:9].tolist()) == list(range(1, 10))
    True
    """
    rows, cols = box_shape(n, box)
    rng = np.random.default_rng(seed)
    r, c = np.divmod(np.arange(n * n), n)
    pattern = (cols * (r % rows) + r // rows + c) % n
    grid = pattern.reshape(n, n)
    # rows inside each band (a band is `rows` rows), then the bands
    bands = np.arange(n // rows)
    rng.shuffle(bands)
    row_order = np.concatenate([b * rows + rng.permutation(rows) for b in bands])
    stacks = np.arange(n // cols)
    rng.shuffle(stacks)
    col_order = np.concatenate([s * cols + rng.permutation(cols) for s in stacks])
    grid = grid[row_order][:, col_order]
    digits = rng.permutation(n) + 1
    return digits[grid].astype(np.uint8).ravel()


def random_puzzles(
    count: int,
    n: int = 9,
    box: tuple[int, int] | None = None,
    seed: int | None = None,
    keep: int = 0,
) -> NDArray[np.uint8]:
    """``count`` puzzles with a unique solution, made by removing givens from
    :func:`random_grid` grids until no further given can go (or only ``keep`` are
    left), one at a time in Python. Kept because the built-in sample (and its test)
    was made with it; new code should use :func:`generate`, which is parallel and
    much faster.

    Returns an (count, n*n) uint8 array.

    Examples
    --------
    >>> random_puzzles(2, n=4, seed=0).shape
    (2, 16)
    """
    rows, cols = box_shape(n, box)
    count = check_integer(count, "count")
    if count < 0:
        raise ValueError(f"count must be at least 0, got {count}")
    rng = np.random.default_rng(None if seed is None else _check_seed(seed))
    dlx = REGISTRY["dlx"]
    table = unit_table(n, (rows, cols))
    work = dlx.allocate_work(table)
    solution = np.zeros(n * n, dtype=np.uint8)
    out = np.zeros((count, n * n), dtype=np.uint8)
    never = np.zeros(1, dtype=np.int64)  # a stop flag never set: Ctrl-C comes between calls
    for k in range(count):
        puzzle = random_grid(n, (rows, cols), seed=rng.integers(2**63))
        filled = n * n
        for cell in rng.permutation(n * n):
            if filled <= keep:
                break
            digit = puzzle[cell]
            puzzle[cell] = 0
            status = dlx.solve_one(puzzle, table, 2, 0, never, work, solution)[0]
            if status != UNIQUE:
                puzzle[cell] = digit
            else:
                filled -= 1
        out[k] = puzzle
    return out


def _made_by_deadline(out, used, count, timeout, begin):
    """The puzzles made before the deadline passed: the rows before the first one left
    unfinished (rows from ``begin`` on may belong to a call let go and still running:
    they are read once, as they are), with a warning that says how many."""
    done = used[begin:].copy() > 0
    made = begin + (int(np.argmin(done)) if not done.all() else len(done))
    if made < count:
        warnings.warn(
            f"timeout: {made} of {count} puzzles made in {timeout:g} s",
            RuntimeWarning,
            stacklevel=3,
        )
    return out[:made].copy()


def _fresh_seed():
    return int(np.random.default_rng().integers(2**63))


def _check_number(value):
    """How many grids or puzzles: an integer (not a bool), 0 or more."""
    if not is_integer(value):
        raise TypeError(f"n must be an integer, got {value!r}")
    value = int(value)
    if value < 0:
        raise ValueError(f"n must be at least 0, got {value}")
    return value


def _check_index(value, count):
    """``first_index`` as a non-negative int whose puzzles stay numbered below 2**63."""
    if not is_integer(value):
        raise TypeError(f"first_index must be an integer, got {value!r}")
    if not 0 <= int(value) <= 2**63 - 1 - count:
        raise ValueError(f"first_index must be in 0..2**63-1-n, got {value}")
    return int(value)


def _orbits(size, symmetry):
    """Groups of cells mapped onto each other by ``symmetry``: an ``(groups, 8)`` table
    padded with -1, and the size of each group."""
    if symmetry is not None and symmetry not in SYMMETRIES:
        raise ValueError(f"symmetry must be None or one of {SYMMETRIES}, got {symmetry!r}")
    last = size - 1
    maps = {
        None: [],
        "rotational": [lambda r, c: (last - r, last - c)],
        "diagonal": [lambda r, c: (c, r)],
        "mirror": [lambda r, c: (r, last - c)],
        "dihedral": [lambda r, c: (c, last - r), lambda r, c: (c, r)],
    }[symmetry]
    seen = np.full(size * size, False)
    groups = []
    for start in range(size * size):
        if seen[start]:
            continue
        group = {start}
        frontier = [start]
        while frontier:
            cell = frontier.pop()
            for move in maps:
                image = move(*divmod(cell, size))
                other = image[0] * size + image[1]
                if other not in group:
                    group.add(other)
                    frontier.append(other)
        seen[list(group)] = True
        groups.append(sorted(group))
    table = np.full((len(groups), 8), -1, dtype=np.int64)
    for k, group in enumerate(groups):
        table[k, : len(group)] = group
    return table, np.array([len(g) for g in groups], dtype=np.int64)


def _clue_bounds(clues, size, minimal, classic=True):
    nn = size * size
    if clues is None:
        if minimal is False:
            raise ValueError("minimal=False needs clues=(lo, hi): where to stop blanking")
        return 0, nn
    try:
        lo, hi = clues
    except (TypeError, ValueError):
        lo = hi = None
    if not (is_integer(lo) and is_integer(hi)):
        raise ValueError(f"clues must be a pair of integers (lo, hi), got {clues!r}")
    lo, hi = int(lo), int(hi)
    if not 0 <= lo <= hi <= nn:
        raise ValueError(f"clues must satisfy 0 <= lo <= hi <= {nn}, got {clues!r}")
    fewest = _FEWEST_CLUES.get(size) if classic else None
    if fewest is not None and hi < fewest:
        raise ValueError(
            f"no {size}x{size} puzzle with fewer than {fewest} clues has a unique "
            f"solution, so clues={clues!r} cannot be met"
        )
    return lo, hi


def _rating_bounds(rating):
    if rating is None:
        return 0.0, -1.0
    try:
        lo, hi = (float(v) for v in rating)
    except (TypeError, ValueError):
        raise ValueError(f"rating must be a pair of numbers (lo, hi), got {rating!r}") from None
    if not 0 <= lo <= hi:
        raise ValueError(f"rating must satisfy 0 <= lo <= hi, got {rating!r}")
    return lo, hi
