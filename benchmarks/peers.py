"""Adapters that run the PyPI peer exact-cover solvers for benchmarking.

Peers: ``xcover``, ``exact-cover`` (import name ``exact_cover``),
``miniexact`` and ``pyxcc`` (Rust, dancing cells).  This module does not import
numbadlx; it gives the benchmarks one problem format and turns it into each peer's
own input.

Problem format (as the benchmarks pass it)
-----------------------------------------
* ``options``: a list of options, each a list of 0-based item indices, with
  no item repeated inside an option and no empty options.
* Items ``0 .. n_primary-1`` are primary (covered exactly once).  Items
  ``n_primary .. n_items-1`` are secondary (covered at most once, or by any
  number of options that all give the item the same non-zero colour).
* ``colours`` (optional) has the same shape as ``options``; 0 means "no
  colour", and non-zero colours may only be given to secondary items.
* ``bounds`` (multiplicities, Knuth's Algorithm M) is a list of ``(u, v)``
  per primary item: that item must be covered at least ``u`` and at most
  ``v`` times.
* As in Knuth's algorithms, an option with no primary item is never part of a
  solution.  The search only branches on primary items.

What each peer supports (see README_peers.md for more)
------------------------------------------------------
=============  =========  ==========  =========  ===============  =========
peer           exact cov. secondary   colours    multiplicities   sudoku
=============  =========  ==========  =========  ===============  =========
xcover         yes        yes         yes (C)    no               324-item
exact-cover    yes        emulated*   no         no               324-item
miniexact      yes (X)    yes         yes (C)    yes (M)          324-item
pyxcc          yes        yes         yes (C)    no               324-item
=============  =========  ==========  =========  ===============  =========

\\* exact-cover (Algorithm X on a 0/1 matrix) has no secondary items.  Each
secondary item becomes a primary column plus one *slack* row that covers
only that column.  Options with no primary item are dropped first, because
XCC semantics never select them.  Each solution of the original problem then
matches exactly one solution of the new one, so the counts agree.  The slack
rows are removed from reported solutions.  The search tree is different, so
timings on problems with secondary items are not a like-for-like comparison.

None of the peers ships a Sudoku helper in the versions we tested (xcover
0.2.6, exact-cover 1.5.0, miniexact 1.6.1; exact-cover moved its Sudoku code
to a separate ``xudoku`` package).  ``sudoku_encoding`` builds a Sudoku's
exact cover with NumPy, in one of two forms: *textbook* (all 324 items; only
the given digit's option for a filled cell, all 9 options for a blank one)
or *pruned* (the encoding numbadlx's Sudoku kernel builds: items the givens
satisfy left out, and only the digits no given rules out).  ``sudoku_solve``
uses the textbook form.

Timing
------
``prepare(...)`` checks a problem given as lists (plain Python) and converts
it; ``prepare_csr(...)`` converts trusted CSR arrays without any check (what
``prepare_sudoku`` and the Sudoku comparison use).  Both do the conversion up
front and return a ``Prepared`` object.  Calling it, ``prep(limit=None)``,
runs only the peer's search and returns the number of solutions.
``prep.first()`` returns the first solution.  miniexact's solver object is
used up by one enumeration, so run ``prep.reset()`` (not timed) before each
timed repetition.  For the
other peers ``reset()`` does nothing.  If you forget, the rebuild is done
inside the timed call.  Call ``warmup()`` once before timing.  It makes
xcover load or compile its numba code, and it runs every peer once.

Run ``python benchmarks/peers.py --selftest`` to check the adapters.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "PEERS",
    "AVAILABLE",
    "IMPORT_ERRORS",
    "SUPPORTS",
    "peer_versions",
    "prepare",
    "prepare_csr",
    "prepare_sudoku",
    "sudoku_encoding",
    "Prepared",
    "count_solutions",
    "first_solution",
    "count_solutions_coloured",
    "count_solutions_multiplicity",
    "sudoku_solve",
    "sudoku_options",
    "warmup",
    "selftest",
]

# --------------------------------------------------------------------------
# Peer discovery
# --------------------------------------------------------------------------

PEERS: tuple = ("xcover", "exact-cover", "miniexact", "pyxcc")

# canonical peer name -> (import name, distribution name)
_MODULES = {
    "xcover": ("xcover", "xcover"),
    "exact-cover": ("exact_cover", "exact-cover"),
    "miniexact": ("miniexact", "miniexact"),
    "pyxcc": ("pyxcc", "pyxcc"),
}

_ALIASES = {
    "xcover": "xcover",
    "exact-cover": "exact-cover",
    "exact_cover": "exact-cover",
    "exactcover": "exact-cover",
    "miniexact": "miniexact",
    "pyxcc": "pyxcc",
}

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_part(name):
    """Load a helper module of this script (``_peer_adapters``, ``_peer_selftest``) by path."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(_HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_PREP = _load_part("_peer_adapters").PREP


def _import_peer(name):
    """Import a peer's package with this folder taken off ``sys.path``.

    ``benchmarks/exact_cover.py`` (our benchmark script) has the same name as
    the exact-cover peer's package, and a script's folder comes first on
    ``sys.path``, so a plain import would load the script instead of the peer.
    """
    here = os.path.normcase(_HERE)
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if os.path.normcase(os.path.abspath(p or os.curdir)) != here]
    try:
        cached = sys.modules.get(name)
        cached_file = getattr(cached, "__file__", None) or ""
        if (
            cached is not None
            and os.path.normcase(os.path.dirname(os.path.abspath(cached_file))) == here
        ):
            del sys.modules[name]  # a benchmark script got in under the peer's name
        return importlib.import_module(name)
    finally:
        sys.path[:] = saved


_mods: dict = {}
AVAILABLE: dict = {}
IMPORT_ERRORS: dict = {}
for _peer, (_imp, _dist) in _MODULES.items():
    try:
        with warnings.catch_warnings():
            # xcover's ZDD module triggers a NumbaTypeSafetyWarning on import
            warnings.simplefilter("ignore")
            _mods[_peer] = _import_peer(_imp)
        AVAILABLE[_peer] = True
    except Exception as _exc:  # ImportError, or a broken binary wheel
        AVAILABLE[_peer] = False
        IMPORT_ERRORS[_peer] = f"{type(_exc).__name__}: {_exc}"

# Which problem kinds each peer can run; "emulated" means it works by
# changing the problem (see the module docstring).
SUPPORTS = {
    "xcover": {
        "exact": True,
        "secondary": True,
        "colours": True,
        "multiplicity": False,
        "sudoku_helper": False,
    },
    "exact-cover": {
        "exact": True,
        "secondary": "emulated",
        "colours": False,
        "multiplicity": False,
        "sudoku_helper": False,
    },
    "miniexact": {
        "exact": True,
        "secondary": True,
        "colours": True,
        "multiplicity": True,
        "sudoku_helper": False,
    },
    "pyxcc": {
        "exact": True,
        "secondary": True,
        "colours": True,
        "multiplicity": False,
        "sudoku_helper": False,
    },
}


def _canon(peer: str) -> str:
    try:
        return _ALIASES[peer.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown peer {peer!r}; expected one of {PEERS}") from None


def _module(peer: str):
    peer = _canon(peer)
    if not AVAILABLE.get(peer):
        raise RuntimeError(
            f"peer {peer!r} is not importable here "
            f"({IMPORT_ERRORS.get(peer, 'not installed')}); "
            "run benchmarks/setup_env.sh and use that virtualenv"
        )
    return _mods[peer]


def peer_versions() -> dict:
    """Installed versions of the peers (dist metadata); 'missing' if absent."""
    from importlib import metadata

    out = {}
    for peer, (_imp, dist) in _MODULES.items():
        try:
            out[peer] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[peer] = "missing"
    if AVAILABLE.get("miniexact"):
        try:  # version the C library reports about itself
            lib = str(_mods["miniexact"].miniexacts_version())
            if lib != out["miniexact"]:
                out["miniexact"] += f" (lib {lib})"
        except Exception:
            pass
    return out


# --------------------------------------------------------------------------
# Input checking
# --------------------------------------------------------------------------


def _check_problem(options, n_primary, n_items, colours=None, bounds=None):
    n_primary = int(n_primary)
    n_items = int(n_items)
    if not 0 <= n_primary <= n_items:
        raise ValueError(f"need 0 <= n_primary <= n_items, got {n_primary}, {n_items}")
    opts = []
    for k, opt in enumerate(options):
        o = [int(i) for i in opt]
        if not o:
            raise ValueError(f"option {k} is empty")
        if len(set(o)) != len(o):
            raise ValueError(f"option {k} repeats an item: {o}")
        for i in o:
            if not 0 <= i < n_items:
                raise ValueError(f"option {k} has item {i} outside 0..{n_items - 1}")
        opts.append(o)
    cols = None
    if colours is not None:
        if len(colours) != len(opts):
            raise ValueError("colours must parallel options")
        cols = []
        for k, (o, c) in enumerate(zip(opts, colours)):
            c = [int(x) for x in c]
            if len(c) != len(o):
                raise ValueError(f"colours[{k}] has length {len(c)}, option has {len(o)}")
            for i, x in zip(o, c):
                if x < 0:
                    raise ValueError(f"negative colour in option {k}")
                if x and i < n_primary:
                    raise ValueError(f"option {k} colours primary item {i}")
            cols.append(c)
    bnds = None
    if bounds is not None:
        bnds = [(int(u), int(v)) for u, v in bounds]
        if len(bnds) != n_primary:
            raise ValueError("bounds needs one (u, v) per primary item")
        for i, (u, v) in enumerate(bnds):
            if not 0 <= u <= v or v == 0:
                raise ValueError(f"bad bounds for item {i}: ({u}, {v})")
    return opts, n_primary, n_items, cols, bnds


# --------------------------------------------------------------------------
# Prepared problems
# --------------------------------------------------------------------------


@dataclass
class Prepared:
    """A problem converted into one peer's native input.

    ``prep(limit=None) -> int`` counts solutions, stopping after ``limit``.
    ``prep.first() -> list[int] | None`` returns the first solution as our
    option indices.
    ``prep.reset()`` rebuilds any state used up by the last run (not timed).
    """

    peer: str
    kind: str  # "exact" | "coloured" | "multiplicity"
    n_options: int
    _count: Callable = field(repr=False)
    _first: Callable = field(repr=False)
    _reset: Callable = field(repr=False, default=lambda: None)
    note: str = ""

    def __call__(self, limit: int | None = None) -> int:
        if limit is not None and limit <= 0:
            return 0
        return self._count(limit)

    count = __call__

    def first(self):
        return self._first()

    def reset(self) -> None:
        self._reset()


def prepare(
    peer: str, options, n_primary: int, n_items: int, *, colours=None, bounds=None
) -> Prepared:
    """Check a problem given as lists, then convert it into ``peer``'s own input.

    With ``colours``, solves exact cover with colours (Algorithm C).  With
    ``bounds``, solves with multiplicities (Algorithm M).  A peer that cannot
    run the problem raises NotImplementedError.  The check is plain Python
    (about a millisecond for a Sudoku); benchmarks that time building the input
    use :func:`prepare_csr` with arrays built by NumPy instead.
    """
    opts, n_primary, n_items, cols, bnds = _check_problem(
        options, n_primary, n_items, colours, bounds
    )
    lengths = np.fromiter((len(o) for o in opts), dtype=np.int64, count=len(opts))
    indptr = np.zeros(len(opts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    items = np.fromiter(itertools.chain.from_iterable(opts), dtype=np.int64, count=indptr[-1])
    flat_colours = None
    if cols is not None:
        flat_colours = np.fromiter(
            itertools.chain.from_iterable(cols), dtype=np.int64, count=indptr[-1]
        )
    return prepare_csr(peer, indptr, items, n_primary, n_items, colours=flat_colours, bounds=bnds)


def prepare_csr(
    peer: str, indptr, items, n_primary: int, n_items: int, *, colours=None, bounds=None
) -> Prepared:
    """Convert a problem given as CSR arrays into ``peer``'s own input; no checks.

    Option ``k`` covers ``items[indptr[k]:indptr[k + 1]]``; ``colours`` (optional)
    is parallel to ``items``; ``bounds`` as in :func:`prepare`.  The arrays are
    trusted (made by code such as :func:`sudoku_encoding`): nothing is validated,
    so that only the peer's own conversion is paid here.
    """
    peer = _canon(peer)
    indptr = np.asarray(indptr, dtype=np.int64)
    items = np.asarray(items, dtype=np.int64)
    count, first, reset, note = _PREP[peer](
        _module(peer), indptr, items, colours, int(n_primary), int(n_items), bounds
    )
    kind = (
        "multiplicity" if bounds is not None else ("coloured" if colours is not None else "exact")
    )
    return Prepared(peer, kind, len(indptr) - 1, count, first, reset, note)


# --------------------------------------------------------------------------
# One-shot conveniences
# --------------------------------------------------------------------------


def count_solutions(
    peer: str, options, n_primary: int, n_items: int, limit: int | None = None
) -> int:
    """Number of solutions (all if ``limit`` is None, else min(count, limit))."""
    return prepare(peer, options, n_primary, n_items)(limit)


def first_solution(peer: str, options, n_primary: int, n_items: int):
    """The first solution found, as sorted option indices, or None."""
    return prepare(peer, options, n_primary, n_items).first()


def count_solutions_coloured(
    peer: str, options, colours, n_primary: int, n_items: int, limit: int | None = None
) -> int:
    """Count solutions of an exact cover problem with colours (Algorithm C).

    Supported by xcover and miniexact.  exact-cover raises NotImplementedError,
    unless every colour is 0, which is just a plain problem.
    """
    return prepare(peer, options, n_primary, n_items, colours=colours)(limit)


def count_solutions_multiplicity(
    peer: str, options, bounds, n_items: int, limit: int | None = None
) -> int:
    """Count solutions with multiplicities (Algorithm M); miniexact only.

    ``bounds[i] = (u, v)`` for each primary item ``i``, so
    ``n_primary = len(bounds)``.  Items from ``len(bounds)`` up to
    ``n_items - 1`` are secondary.
    """
    return prepare(peer, options, len(bounds), n_items, bounds=bounds)(limit)


# --------------------------------------------------------------------------
# Sudoku
# --------------------------------------------------------------------------


# Fixed tables of the 729 (cell, digit) candidates of a 9x9 grid, in the order
# cell-major, digit-minor: candidate j is cell j // 9, digit j % 9 + 1.
_CAND_CELL, _CAND_DIGIT = np.divmod(np.arange(729), 9)
_CAND_ROW, _CAND_COL = np.divmod(_CAND_CELL, 9)
_CAND_BOX = 3 * (_CAND_ROW // 3) + _CAND_COL // 3
# the candidate's four items: cell, row-digit, column-digit, box-digit
_CAND_ITEMS = np.stack(
    [
        _CAND_CELL,
        81 + 9 * _CAND_ROW + _CAND_DIGIT,
        162 + 9 * _CAND_COL + _CAND_DIGIT,
        243 + 9 * _CAND_BOX + _CAND_DIGIT,
    ],
    axis=1,
)


def sudoku_encoding(grid81, pruned: bool = False):
    """A 9x9 Sudoku as exact cover, built with NumPy: ``(indptr, items, n_items,
    cells, digits)``.

    Items: cell (r, c) -> 9r+c; row r has digit d -> 81+9r+d; column c has d
    -> 162+9c+d; box b has d -> 243+9b+d (d = digit-1).  Option k covers
    ``items[indptr[k]:indptr[k + 1]]`` (always 4 items) and means "digit
    ``digits[k]`` in cell ``cells[k]``".

    * ``pruned=False`` (the textbook encoding): all 324 items; a filled cell
      gets only its given digit's option, a blank cell all 9 digit options.
    * ``pruned=True`` (the encoding numbadlx's Sudoku kernel builds): the
      items the givens already satisfy are left out (the rest renumbered
      0..n_items-1, order kept), and a blank cell gets an option only for the
      digits that no given in its row, column or box already holds.

    The grid is trusted (values 0..9, 0 = blank, no clash among givens):
    nothing is checked.
    """
    grid = np.asarray(grid81).reshape(81).astype(np.int64)
    given = grid[_CAND_CELL]
    if not pruned:
        keep = (given == 0) | (given == _CAND_DIGIT + 1)
        items = _CAND_ITEMS[keep]
        n_items = 324
    else:
        filled = np.flatnonzero(grid)
        digit = grid[filled] - 1
        row, col = np.divmod(filled, 9)
        box = 3 * (row // 3) + col // 3
        placed = np.zeros(324, dtype=bool)  # the items the givens satisfy
        placed[filled] = True
        placed[81 + 9 * row + digit] = True
        placed[162 + 9 * col + digit] = True
        placed[243 + 9 * box + digit] = True
        # a candidate survives when its cell is blank and none of its items is taken
        keep = (given == 0) & ~placed[_CAND_ITEMS[:, 1:]].any(axis=1)
        new_number = np.cumsum(~placed) - 1
        items = new_number[_CAND_ITEMS[keep]]
        n_items = int(324 - placed.sum())
    indptr = np.arange(0, 4 * len(items) + 1, 4, dtype=np.int64)
    return indptr, items.ravel(), n_items, _CAND_CELL[keep], _CAND_DIGIT[keep] + 1


def sudoku_options(grid81):
    """The textbook 324-item encoding of one 9x9 Sudoku as lists (checked).

    Returns ``(options, meta)`` where ``options[k]`` is a list of 4 items and
    ``meta[k] = (cell, digit)``; see :func:`sudoku_encoding`.
    """
    g = np.asarray(grid81).reshape(-1)
    if g.size != 81:
        raise ValueError("sudoku grid must have 81 cells")
    if g.min() < 0 or g.max() > 9:
        raise ValueError(f"sudoku values must be 0..9, got {g.min()}..{g.max()}")
    _, items, _, cells, digits = sudoku_encoding(g)
    return items.reshape(-1, 4).tolist(), list(zip(cells.tolist(), digits.tolist()))


def prepare_sudoku(peer: str, grid81, pruned: bool = False):
    """Like prepare_csr(), for one trusted Sudoku grid (see :func:`sudoku_encoding`).

    Returns ``(prep, decode)``, where ``decode(prep.first())`` gives the solved
    grid (uint8, 81), or None.
    """
    indptr, items, n_items, cells, digits = sudoku_encoding(grid81, pruned)
    prep = prepare_csr(peer, indptr, items, n_items, n_items)
    grid = np.asarray(grid81).reshape(81).astype(np.uint8)

    def decode(sol):
        if sol is None:
            return None
        out = grid.copy()
        out[cells[sol]] = digits[sol]
        return out

    return prep, decode


def sudoku_solve(peer: str, grid81):
    """Solve one Sudoku with ``peer``.  Returns a uint8 array of 81, or None.

    No peer ships a Sudoku helper (see the module docstring), so this uses
    the standard 324-item encoding for all of them.
    """
    prep, decode = prepare_sudoku(peer, grid81)
    return decode(prep.first())


# --------------------------------------------------------------------------
# Warm-up
# --------------------------------------------------------------------------

_KNUTH_OPTIONS = [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]]


def warmup(peers: Sequence[str] | None = None) -> None:
    """Run a tiny problem on each available peer (loads xcover's numba
    code and any other lazy setup) so that it is not timed later."""
    for peer in peers or [p for p in PEERS if AVAILABLE[p]]:
        prep = prepare(peer, _KNUTH_OPTIONS, 7, 7)
        prep()
        prep.reset()
        prep.first()
        if SUPPORTS[_canon(peer)]["colours"] is True:
            prepare(peer, [[0, 1], [0, 1]], 1, 2, colours=[[0, 1], [0, 2]])()


# --------------------------------------------------------------------------
# Self-test
# --------------------------------------------------------------------------


def selftest(verbose: bool = True) -> int:
    """Check every available peer against known counts and brute force; returns the failures."""
    return _load_part("_peer_selftest").selftest(sys.modules[__name__], verbose)


if __name__ == "__main__":
    if "--selftest" in sys.argv[1:]:
        import machine  # benchmarks/machine.py: this script's folder is on sys.path

        print(machine.describe("peer adapters self-test (benchmarks/peers.py)"))
        sys.exit(1 if selftest() else 0)
    if "--versions" in sys.argv[1:]:
        for _p, _v in peer_versions().items():
            _state = "ok" if AVAILABLE[_p] else "NOT IMPORTABLE: " + IMPORT_ERRORS.get(_p, "")
            print(f"{_p:12s} {_v:10s} {_state}")
        sys.exit(0 if all(AVAILABLE.values()) else 1)
    print(__doc__)
    print("versions:", peer_versions())
    print("available:", AVAILABLE)
