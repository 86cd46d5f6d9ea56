"""What the tests share, in one module (no test file imports another).

* :func:`data_dir`: where the public datasets are (:func:`need_data`: one file, or skip);
* Sudoku text material for the I/O tests (``tests/_io_material.py``): :data:`LINE9`,
  :data:`GRID9`, :func:`random_puzzles`, :func:`write_csv`, :func:`error_of`;
* :func:`grid_errors`: an independent check of completed Sudoku grids; :func:`holed_puzzles`:
  random grids with holes (unique, several-solution and no-solution puzzles);
* :func:`line_rule_holds` and :func:`line_rules_hold`: plain checks of full grids
  against outside clues, lines and quadruples, written from the Rules docstring;
* the slow, obviously correct twins of the search (``naive_*``): every subset of
  options tried, for brute-force agreement tests;
* :func:`ctrl_c_after`: Ctrl-C sent to the main thread by a timer; :func:`foreign_wakeup_fd`,
  a signal wake-up descriptor left set that is not numbadlx's own;
* :func:`make_case`: random variant puzzles with their rules (solutions from the SAT
  oracle, ``tests/sudoku/variants/sat_oracle.py``);
* f-puzzles material: :func:`compress_base64` (lz-string packing, the twin of the
  reader), :func:`grid_json`, a real link (:data:`X_LINK`) and a classic (:data:`CLASSIC`);
* :data:`FUZZ` and :data:`FEW`: the fuzz tests' Hypothesis settings, and
  :func:`check_built_problem`, what every exact-cover problem a fuzzed builder makes must do;
* :data:`run_once` and :func:`plain_env`: the tests of the user's path that one of CI's
  two runs of the suite takes (the plain one, or the bounds-checked one), and the
  environment their subprocesses get.
"""

import atexit
import itertools
import os
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from tests._compiled import call_inner  # noqa: F401 - shared through this module
from tests._io_material import (  # noqa: F401 - shared through this module
    GRID9,
    LINE9,
    error_of,
    line_values,
    random_puzzles,
    write_csv,
)
from tests._rule_checks import (  # noqa: F401 - shared through this module
    LINE_KINDS,
    broken_rule,
    line_rule_holds,
    line_rules_hold,
    make_case,
)

DATA_ENV = "NUMBADLX_DATA"

# Where the tests of the user's path run (README examples, compile messages, in
# subprocesses on the unchecked build): they test what a user sees, not memory safety,
# so running them in both of CI's runs of the suite adds time and no checking. "plain"
# (the default: a single `python -m pytest` runs them) or "boundscheck" (CI sets it for
# both runs, so they run beside the plain run instead of after it, see .ci/run).
ONCE_ENV = "NUMBADLX_ONCE_IN"


def bounds_checked(env=None):
    """Whether this process (or one started with ``env``) runs Numba kernels with bounds
    checks (NUMBA_BOUNDSCHECK)."""
    return (os.environ if env is None else env).get("NUMBA_BOUNDSCHECK", "0") not in ("", "0")


def _once_here():
    wanted = os.environ.get(ONCE_ENV, "plain")
    if wanted not in ("plain", "boundscheck"):
        raise ValueError(f"{ONCE_ENV}={wanted!r}: expected 'plain' or 'boundscheck'")
    return (wanted == "boundscheck") == bounds_checked()


def _once_reason():
    other = "plain" if bounds_checked() else "NUMBA_BOUNDSCHECK=1"
    return f"run once, in the {other} run of the suite ({ONCE_ENV})"


run_once = pytest.mark.skipif(not _once_here(), reason=_once_reason())

_plain_cache = []


def plain_env(env=None):
    """The environment for a subprocess of a :data:`run_once` test: the user's build.

    In a bounds-checked run the subprocess gets no NUMBA_BOUNDSCHECK and a Numba cache
    of plain kernels shared by this session (Numba's cache does not record the flag, so
    the two builds never share a folder); in a plain run *env* is returned as it is.
    """
    env = dict(os.environ if env is None else env)
    if not bounds_checked(env):
        return env
    del env["NUMBA_BOUNDSCHECK"]
    if not _plain_cache:
        _plain_cache.append(tempfile.mkdtemp(prefix="numbadlx-plain-cache-"))
        atexit.register(shutil.rmtree, _plain_cache[0], True)
    env["NUMBA_CACHE_DIR"] = _plain_cache[0]
    return env


def data_dir():
    """The public puzzle datasets: $NUMBADLX_DATA, else ../shared/data beside the repo."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "data"


def need_data(name: str) -> Path:
    """The dataset file ``name``, or skip the test when it is absent."""
    path = data_dir() / name
    if not path.is_file():
        pytest.skip(f"data file {path} not found (set NUMBADLX_DATA to the data folder)")
    return path


def grid_errors(puzzles, solutions, box):
    """Independent check of completed grids: a list of (row, reason) for failures.

    Every row, column and box must hold 1..n once each, and every given must be kept.
    """
    puzzles = np.asarray(puzzles, dtype=np.int64)
    solutions = np.asarray(solutions, dtype=np.int64)
    count, cells = solutions.shape
    n = int(round(cells**0.5))
    rows, cols = box
    grids = solutions.reshape(count, n, n)
    boxes = grids.reshape(count, n // rows, rows, n // cols, cols).transpose(0, 1, 3, 2, 4)
    boxes = boxes.reshape(count, n, n)
    want = np.arange(1, n + 1)
    failures = []
    ok_rows = np.all(np.sort(grids, axis=2) == want, axis=(1, 2))
    ok_cols = np.all(np.sort(grids.transpose(0, 2, 1), axis=2) == want, axis=(1, 2))
    ok_boxes = np.all(np.sort(boxes, axis=2) == want, axis=(1, 2))
    kept = np.all((puzzles == 0) | (puzzles == solutions), axis=1)
    for k in np.flatnonzero(~(ok_rows & ok_cols & ok_boxes & kept)):
        failures.append(
            (
                int(k),
                "rows"
                if not ok_rows[k]
                else "columns"
                if not ok_cols[k]
                else "boxes"
                if not ok_boxes[k]
                else "givens changed",
            )
        )
    return failures


def all_4x4_grids():
    """Every completed 4x4 Sudoku grid with 2x2 boxes, by brute force (288 of them)."""
    grids = []
    for cells in itertools.product(itertools.permutations(range(1, 5)), repeat=4):
        grid = np.array(cells).reshape(4, 4)
        if all(len(set(grid[:, c])) == 4 for c in range(4)) and all(
            len(set(grid[r : r + 2, c : c + 2].ravel())) == 4 for r in (0, 2) for c in (0, 2)
        ):
            grids.append(grid.ravel())
    return np.array(grids)


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


def naive_lz_decompress(text):
    """lz-string's base64 unpacking read bit by bit, with the dictionary as lists of
    UTF-16 code units: the slow twin of ``numbadlx.sudoku.formats._lzstring``."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
    values = [alphabet.index(ch) & 63 for ch in text.strip()]
    stream = [(v >> (5 - k)) & 1 for v in values for k in range(6)]
    at = 0

    def read(width):
        nonlocal at
        if at + width > len(stream):
            raise ValueError("ends in the middle")
        code = sum(stream[at + k] << k for k in range(width))
        at += width
        return code

    first = read(2)
    if first == 2:
        return ""
    units = [read(8 if first == 0 else 16)]
    dictionary = [None, None, None, units[:]]
    previous = units[:]
    width, room = 3, 4
    while True:
        code = read(width)
        if code == 2:
            break
        if code in (0, 1):
            dictionary.append([read(8 if code == 0 else 16)])
            code = len(dictionary) - 1
            room -= 1
            if room == 0:
                room, width = 1 << width, width + 1
        entry = dictionary[code] if code < len(dictionary) else previous + previous[:1]
        units.extend(entry)
        dictionary.append(previous + entry[:1])
        previous = entry
        room -= 1
        if room == 0:
            room, width = 1 << width, width + 1
    raw = b"".join(u.to_bytes(2, "little") for u in units)
    return raw.decode("utf-16-le", errors="surrogatepass")


_LZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


def compress_base64(text):
    """lz-string base64 packing of ``text``, written to mirror the reader's state: each
    step emits the longest dictionary string that starts here, or a new character."""
    units = list(text.encode("utf-16-le"))
    units = [units[k] | units[k + 1] << 8 for k in range(0, len(units), 2)]
    bits = []

    def put(code, width):
        bits.extend((code >> k) & 1 for k in range(width))

    if not units:
        put(2, 2)
    else:
        first = units[0]
        put(0 if first < 256 else 1, 2)
        put(first, 8 if first < 256 else 16)
        index = {(first,): 3}
        size, width, room = 4, 3, 4
        previous, at = (first,), 1

        def grow():
            nonlocal room, width
            room -= 1
            if room == 0:
                room, width = 1 << width, width + 1

        while at < len(units):
            unit = units[at]
            if (unit,) not in index:
                put(0 if unit < 256 else 1, width)
                put(unit, 8 if unit < 256 else 16)
                index[(unit,)] = size
                size += 1
                grow()
                entry = (unit,)
            else:
                length = 1
                while tuple(units[at : at + length + 1]) in index and at + length < len(units):
                    length += 1
                entry = tuple(units[at : at + length])
                put(index[entry], width)
            at += len(entry)
            key = previous + entry[:1]
            if key not in index:
                index[key] = size
            size += 1
            grow()
            previous = entry
        put(2, width)
    bits.extend([0] * (-len(bits) % 6))
    chars = [
        _LZ_ALPHABET[sum(bit << (5 - k) for k, bit in enumerate(bits[i : i + 6]))]
        for i in range(0, len(bits), 6)
    ]
    return "".join(chars) + "=" * (-len(chars) % 4)


def grid_json(n, givens="", regions=None):
    """The grid field: rows of cell objects, givens from a line of digits."""
    givens = givens or "0" * (n * n)
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            cell = {}
            digit = int(givens[r * n + c], 36)
            if digit:
                cell = {"value": digit, "given": True}
            if regions is not None:
                cell["region"] = int(regions[r][c])
            row.append(cell)
        rows.append(row)
    return rows


# A real link packed by f-puzzles (an X-Sudoku), as shared in its URLs.
X_LINK = (
    "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSQA3AQwBsBXOeAdlTQgpg"
    "DsEAXDBkmSGDBlWgwQBmVuy69+MUdXqMArDI7d4fAQF1khMSoQAODXO0KRpa8PLKJSc1p2KbN/YSXjGAJmfyAu6gD"
    "owAbAGWQSE+CCzosi5WwbZEnnYZ3sbw0gmagW4x2ep5Fq5ZjhGlSdFpBpnBRo4AjJHlKY2hUm1W6bZNfj219rHwZ"
    "tUFqSPZACxDhXVeHUUt8xWMKBNRC52jJWz52yJ9y+sI+4mTywNxax71Uw0ZN/BzW+W6+iDYEFRoAPacWgAagKqB+f"
    "0BtAAtJMgA==="
)
CLASSIC = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def real_sigint():
    """A real SIGINT sent to the main thread, as a terminal's Ctrl-C (POSIX)."""
    signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)


def foreign_wakeup_fd():
    """The signal wake-up descriptor set now, unless it is none or numbadlx's own socket
    (which stays set once the package made it so): then None. Left as it is."""
    from numbadlx import _stopping

    fd = signal.set_wakeup_fd(-1)
    if fd != -1:
        signal.set_wakeup_fd(fd, warn_on_full_buffer=False)
    ours = [watcher.inbox.fileno() for watcher in _stopping._watcher]
    return None if fd == -1 or fd in ours else fd


def ctrl_c_after(seconds, send=real_sigint):
    """A started timer that calls ``send`` (Ctrl-C to the main thread: a real SIGINT,
    or ``_thread.interrupt_main``) after ``seconds``; and the list its send time goes to."""
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        send()

    timer = threading.Timer(seconds, interrupt)
    timer.start()
    return timer, sent


def lz_bomb(codes):
    """A packed text (lz-string base64) of one character then ``codes`` codes, each the
    newest dictionary entry (the previous string plus its first character): the text
    inflates to about ``codes**2 / 2`` characters from about ``codes * 2.5`` packed."""
    bits = [0, 0] + [(ord("a") >> k) & 1 for k in range(8)]
    size, width, room = 4, 3, 4
    for _ in range(codes):
        bits.extend((size >> k) & 1 for k in range(width))
        size += 1
        room -= 1
        if room == 0:
            room, width = 1 << width, width + 1
    bits.extend((2 >> k) & 1 for k in range(width))
    bits.extend([0] * (-len(bits) % 6))
    chars = [
        _LZ_ALPHABET[sum(bit << (5 - k) for k, bit in enumerate(bits[i : i + 6]))]
        for i in range(0, len(bits), 6)
    ]
    return "".join(chars) + "=" * (-len(chars) % 4)


def random_xcc(rng, *, colours=True, bounds=False, max_items=7, max_options=12):
    """A small random exact-cover problem as ``ExactCover`` keyword arguments
    (``options``, ``n_items``, ``secondary``, ``colours``, ``bounds``, ``dense``), drawn
    from the NumPy generator ``rng``: option lists of 1-4 items, secondary items with
    colours 0-2, bounds ``(u, v)`` with ``u`` in 0-2 and ``v`` in ``max(u, 1)``-3."""
    n_items = int(rng.integers(1, max_items + 1))
    secondary = rng.random(n_items) < 0.35
    options, tints = [], []
    for _ in range(int(rng.integers(0, max_options + 1))):
        size = int(rng.integers(1, min(4, n_items) + 1))
        row = sorted(rng.choice(n_items, size, replace=False).tolist())
        options.append(row)
        tints.append([int(rng.integers(0, 3)) if secondary[i] else 0 for i in row])
    limits = None
    if bounds:
        limits = []
        for _ in range(int((~secondary).sum())):
            u = int(rng.integers(0, 3))
            limits.append((u, int(rng.integers(max(u, 1), 4))))
    return {
        "options": options,
        "n_items": n_items,
        "secondary": secondary,
        "colours": tints if colours else None,
        "bounds": limits,
        "dense": False,
    }


def _axis_maps(groups, size):
    """Every order of ``groups`` blocks of ``size`` lines, each block's lines permuted."""
    inner = list(itertools.permutations(range(size)))
    return np.array([
        [g * size + line for g, order in zip(blocks, orders) for line in order]
        for blocks in itertools.permutations(range(groups))
        for orders in itertools.product(inner, repeat=groups)
    ])  # fmt: skip


def naive_canonical(puzzle, box):
    """The minimal form of one puzzle from every transformation (vectorised over column
    maps), each image relabelled by first appearance."""
    rows, cols = box
    n, best = rows * cols, None
    grid = np.asarray(puzzle, dtype=np.int64).reshape(n, n)
    row_maps, col_maps = _axis_maps(cols, rows), _axis_maps(rows, cols)
    for source in [grid, grid.T] if rows == cols else [grid]:
        for row_map in row_maps:
            images = source[row_map][:, col_maps].transpose(1, 0, 2).reshape(len(col_maps), -1)
            seen = images[:, :, None] == np.arange(1, n + 1)
            first = np.where(seen.any(axis=1), seen.argmax(axis=1), n * n)  # (maps, n)
            labels = np.zeros((len(col_maps), n + 1), dtype=np.int64)
            labels[:, 1:] = first.argsort(axis=1, kind="stable").argsort(axis=1) + 1
            images = np.take_along_axis(labels, images, axis=1) * (images > 0)
            if best is not None:
                images = np.vstack([best[None], images])
            keep = np.arange(len(images))
            for cell in range(n * n):  # the lexicographic minimum, column by column
                column = images[keep, cell]
                keep = keep[column == column.min()]
            best = images[keep[0]]
    return best.astype(np.uint8)


def grids_with_first_row(box):
    """Every completed grid of the shape whose first row is 1..n, by backtracking: each
    class of grids under relabelling has one of them."""
    rows, cols = box
    n = rows * cols
    grid, found = np.zeros((n, n), dtype=np.int64), []
    grid[0] = np.arange(1, n + 1)

    def fill(cell):
        if cell == n * n:
            found.append(grid.ravel().copy())
            return
        r, c = divmod(cell, n)
        box_cells = grid[r - r % rows : r - r % rows + rows, c - c % cols : c - c % cols + cols]
        taken = set(grid[r]) | set(grid[:, c]) | set(box_cells.ravel())
        for v in range(1, n + 1):
            if v not in taken:
                grid[r, c] = v
                fill(cell + 1)
                grid[r, c] = 0

    fill(n)
    return np.array(found, dtype=np.uint8)


def holed_puzzles(n, box, rng, count):
    """Random grids with random holes: unique, several-solution and (with one given
    changed to a digit nothing else in its units holds) mostly no-solution puzzles."""
    from numbadlx.sudoku import random_grid as _random_grid

    out = []
    for k in range(count):
        grid = _random_grid(n, box=box, seed=int(rng.integers(1 << 30)))
        puzzle = grid.copy()
        share = (0.3, 0.5, 0.7)[k % 3] if n <= 16 else (0.15, 0.25, 0.35)[k % 3]
        puzzle[rng.random(n * n) < share] = 0
        if k % 4 == 3:
            # swap one given for a digit missing from its row, column and box
            cells = np.flatnonzero(puzzle)
            cell = int(rng.choice(cells))
            r, c = divmod(cell, n)
            b0, b1 = r - r % box[0], c - c % box[1]
            units = np.concatenate(
                [
                    puzzle.reshape(n, n)[r],
                    puzzle.reshape(n, n)[:, c],
                    puzzle.reshape(n, n)[b0 : b0 + box[0], b1 : b1 + box[1]].ravel(),
                ]
            )
            free = np.setdiff1d(np.arange(1, n + 1), units)
            if free.size:
                puzzle[cell] = rng.choice(free)
        out.append(puzzle)
    return np.array(out, dtype=np.uint8)


# Hypothesis settings of the fuzz tests. More examples for a long bug hunt:
# NUMBADLX_FUZZ_EXAMPLES=2000 python -m pytest tests/test_fuzz*.py
EXAMPLES = int(os.environ.get("NUMBADLX_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
FEW = settings(FUZZ, max_examples=max(1, EXAMPLES // 3))


def check_built_problem(problem):
    """A built problem can be searched, and every solution it gives is exact."""
    total = problem.count(limit=200, max_nodes=200_000)
    listed = list(problem.solutions(limit=20, max_nodes=200_000))
    assert len(listed) == min(total, 20)
    for solution in listed:
        assert problem.verify(solution)
    first = problem.solve(max_nodes=200_000)
    assert (first is None) == (total == 0)
    if first is not None:
        assert problem.verify(first)
