"""What the tests share, in one module (no test file imports another).

* :func:`data_dir`: where the public datasets are;
* :func:`grid_errors`: an independent check of completed Sudoku grids;
* :func:`line_rule_holds` and :func:`line_rules_hold`: plain checks of full grids
  against outside clues, lines and quadruples, written from the Rules docstring;
* the slow, obviously correct twins of the search (``naive_*``): every subset of
  options tried, for brute-force agreement tests;
* :func:`ctrl_c_after`: Ctrl-C sent to the main thread by a timer;
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
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

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


def real_sigint():
    """A real SIGINT sent to the main thread, as a terminal's Ctrl-C (POSIX)."""
    signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)


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


# -- outside clues, lines and quadruples, from the Rules docstring ---------------------

#: The rule kinds :func:`line_rule_holds` checks.
LINE_KINDS = (
    "sandwiches",
    "x_sums",
    "skyscrapers",
    "between_lines",
    "lockout_lines",
    "quadruples",
    "renbans",
)


def line_rule_holds(kind, value, grid, n):
    """Whether the full ``grid`` (flat digits) meets one rule ``value`` of ``kind``."""
    if kind in ("sandwiches", "x_sums", "skyscrapers"):
        line, number = value
        digits = [int(grid[c]) for c in line]
        if kind == "sandwiches":
            a, b = sorted((digits.index(1), digits.index(n)))
            return sum(digits[a + 1 : b]) == number
        if kind == "x_sums":
            return sum(digits[: digits[0]]) == number
        tallest, seen = 0, 0
        for d in digits:
            if d > tallest:
                tallest, seen = d, seen + 1
        return seen == number
    if kind == "quadruples":
        four, listed = value
        have = Counter(int(grid[c]) for c in four)
        return all(have[d] >= k for d, k in Counter(listed).items())
    if kind == "lockout_lines":
        line, gap = value
        digits = [int(grid[c]) for c in line]
        low, high = sorted((digits[0], digits[-1]))
        return high - low >= gap and all(d < low or d > high for d in digits[1:-1])
    digits = [int(grid[c]) for c in value]
    if kind == "between_lines":
        low, high = sorted((digits[0], digits[-1]))
        return all(low < d < high for d in digits[1:-1])
    # renbans: distinct, consecutive
    return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1


def line_rules_hold(rules, grid, n):
    return all(
        line_rule_holds(kind, value, grid, n)
        for kind in LINE_KINDS
        for value in getattr(rules, kind)
    )
