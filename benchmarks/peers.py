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
import itertools
import os
import sys
import time
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


# ---- xcover --------------------------------------------------------------
#
# Every _prep_<peer> takes the problem as CSR arrays: option k covers
# ``items[indptr[k]:indptr[k + 1]]`` (int64), ``colours`` is None or parallel to
# ``items``, ``bounds`` is None or a list of (u, v) per primary item.


def _prep_xcover(indptr, items, colours, n_primary, n_items, bnds):
    if bnds is not None:
        raise NotImplementedError(
            "xcover implements Algorithm C (exact cover with colours) only; "
            "it has no multiplicities (Algorithm M)"
        )
    xc = _module("xcover")
    ptr = np.asarray(indptr, dtype=np.uint32)
    flat = np.asarray(items, dtype=np.uint32)
    colarr = (
        np.zeros(len(flat), dtype=np.uint32)
        if colours is None
        else np.asarray(colours, dtype=np.uint32)
    )
    n_sec = n_items - n_primary
    algo = xc.algorithm_c  # xcover's documented direct entry point

    def gen():
        # Same call that xcover.covers() makes after converting its input;
        # items are 0..n_items-1 with the secondary ones last, as ours are.
        return algo(flat, ptr, colarr, n_items, n_sec)

    def count(limit):
        c = 0
        if limit is None:
            for _ in gen():
                c += 1
        else:
            for _ in gen():
                c += 1
                if c >= limit:
                    break
        return c

    def first():
        for sol in gen():
            return sorted(int(j) for j in sol)
        return None

    return count, first, (lambda: None), ""


# ---- exact-cover -----------------------------------------------------------

# get_all_solutions(limit) allocates limit x n_rows int32 up front; above this
# size a limited count falls back to a full count and clamps the result.
_EC_LIMIT_BUFFER_BYTES = 64 << 20


def _prep_exact_cover(indptr, items, colours, n_primary, n_items, bnds):
    if bnds is not None:
        raise NotImplementedError(
            "exact-cover implements plain Algorithm X only; no multiplicities"
        )
    if colours is not None and np.any(colours):
        raise NotImplementedError(
            "exact-cover implements plain Algorithm X on a 0/1 matrix; it "
            "has no colours (Algorithm C)"
        )
    ec = _module("exact-cover")
    from exact_cover.error import NoSolution

    n_options = len(indptr) - 1
    option_of_node = np.repeat(np.arange(n_options), np.diff(indptr))
    n_sec = n_items - n_primary
    note = ""
    if n_sec:
        # Options with no primary item are never chosen under XCC semantics,
        # but would become choosable once secondary items turn primary.
        has_primary = np.zeros(n_options, dtype=bool)
        has_primary[option_of_node[items < n_primary]] = True
        keep = np.flatnonzero(has_primary)
        note = (
            f"secondary items emulated: {n_sec} slack rows added, "
            f"{n_options - len(keep)} primary-less options dropped"
        )
    else:
        keep = np.arange(n_options)
    n_real = len(keep)
    n_rows = n_real + n_sec
    row_of_option = np.full(n_options, -1, dtype=np.int64)
    row_of_option[keep] = np.arange(n_real)
    rows = row_of_option[option_of_node]
    mat = np.zeros((n_rows, n_items), dtype=np.bool_)
    mat[rows[rows >= 0], items[rows >= 0]] = True
    # a slack row for each secondary item
    mat[n_real + np.arange(n_sec), n_primary + np.arange(n_sec)] = True
    row_to_opt = np.concatenate([keep, np.full(n_sec, -1, dtype=np.int64)])

    def count(limit):
        if n_rows == 0:
            return 0
        if limit is not None and limit * max(n_rows, 1) * 4 <= _EC_LIMIT_BUFFER_BYTES:
            try:
                sols = ec.get_all_solutions(mat, max_count=int(limit))
            except NoSolution:
                return 0
            return min(len(sols), int(limit))
        c = int(ec.get_solution_count(mat))
        if c < 0:
            raise OverflowError("exact-cover's solution count overflowed its 32-bit C int")
        return c if limit is None else min(c, int(limit))

    def first():
        if n_rows == 0:
            return None
        try:
            rows = ec.get_exact_cover(mat)
        except NoSolution:
            return None
        return sorted(int(row_to_opt[r]) for r in rows if r < n_real)

    return count, first, (lambda: None), note


# ---- miniexact -------------------------------------------------------------


def _prep_miniexact(indptr, items, colours, n_primary, n_items, bnds):
    mx = _module("miniexact")
    # its API takes one option at a time, as Python lists of item ids
    starts = indptr.tolist()
    flat = items.tolist()
    opts = [flat[a:b] for a, b in zip(starts, starts[1:])]
    cols = None
    if colours is not None:
        flat_colours = np.asarray(colours).tolist()
        cols = [flat_colours[a:b] for a, b in zip(starts, starts[1:])]
    if bnds is not None:
        cls, kind = mx.miniexacts_m, "M"
    elif cols is not None:
        cls, kind = mx.miniexacts_c, "C"
    else:
        cls, kind = mx.miniexacts_x, "X"

    def build():
        s = cls()
        ids = []
        for i in range(n_primary):
            if bnds is None:
                ids.append(s.primary(f"i{i}"))
            else:
                u, v = bnds[i]
                ids.append(s.primary(f"i{i}", u, v))
        for i in range(n_primary, n_items):
            ids.append(s.secondary(f"i{i}"))
        ret = []  # miniexact option index (1-based) returned by add()
        if cols is None:
            for o in opts:
                ret.append(s.add([ids[i] for i in o]))
        else:
            cid = {}
            for o, c in zip(opts, cols):
                for i, x in zip(o, c):
                    if x:
                        if x not in cid:
                            cid[x] = s.color(f"c{x}")
                        s.add(ids[i], cid[x])
                    else:
                        s.add(ids[i])
                ret.append(s.add(0))
        if any(r == 0 for r in ret):
            raise RuntimeError("miniexact rejected the problem (see its stderr)")
        back = {r: k for k, r in enumerate(ret)}
        return s, back

    state = {"s": None, "back": None}

    def reset():
        state["s"], state["back"] = build()

    def take():
        if state["s"] is None:
            reset()
        s, back = state["s"], state["back"]
        state["s"] = None  # each enumeration consumes the solver
        return s, back

    def count(limit):
        s, _ = take()
        c = 0
        solve = s.solve
        if limit is None:
            while True:
                r = solve()
                if r != 10:
                    break
                c += 1
        else:
            while c < limit:
                r = solve()
                if r != 10:
                    break
                c += 1
            else:
                return c
        if r != 20:
            raise RuntimeError(f"miniexact solve() returned {r} (error state)")
        return c

    def first():
        s, back = take()
        r = s.solve()
        if r == 10:
            return sorted(back[int(j)] for j in s.selected_options())
        if r != 20:
            raise RuntimeError(f"miniexact solve() returned {r} (error state)")
        return None

    reset()
    return count, first, reset, f"miniexact Algorithm {kind}"


# ---- pyxcc -----------------------------------------------------------------


def _prep_pyxcc(indptr, items, colours, n_primary, n_items, bnds):
    """pyxcc (Rust, dancing cells) takes items and options by name and returns every
    solution as a list of option labels; its count is the length of that list. An
    empty colour is its "no colour"; it wants every primary item in some option (a
    problem with an item in none has no solution, answered here without it) and no
    secondary item in none (such items are left out)."""
    if bnds is not None:
        raise NotImplementedError("pyxcc implements Algorithm C only; no multiplicities")
    xcc = _module("pyxcc")
    names = [f"i{i}" for i in range(n_items)]
    flat = items.tolist()
    flat_colours = None if colours is None else np.asarray(colours).tolist()
    options = []
    for k, (a, b) in enumerate(zip(indptr.tolist(), indptr.tolist()[1:])):
        primary = [names[i] for i in flat[a:b] if i < n_primary]
        secondary = [
            (names[i], "" if flat_colours is None or not flat_colours[t] else f"c{flat_colours[t]}")
            for t, i in zip(range(a, b), flat[a:b])
            if i >= n_primary
        ]
        options.append(xcc.Option(f"o{k}", primary, secondary))
    covered = set(i for i in flat if i < n_primary)
    used = sorted(set(i for i in flat if i >= n_primary))  # it panics on an unused one
    problem = xcc.Problem(names[:n_primary], [names[i] for i in used], options)
    solvable = len(covered) == n_primary and n_primary > 0

    def count(limit):
        if not solvable:
            return 0
        found = xcc.solve(problem, limit != 1).count()
        return found if limit is None else min(found, limit)

    def first():
        if not solvable:
            return None
        solutions = xcc.solve(problem, False)
        if not solutions.count():
            return None
        return sorted(int(label[1:]) for label in solutions.first())

    return count, first, (lambda: None), ""


_PREP = {
    "xcover": _prep_xcover,
    "exact-cover": _prep_exact_cover,
    "miniexact": _prep_miniexact,
    "pyxcc": _prep_pyxcc,
}


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
        indptr, items, colours, int(n_primary), int(n_items), bounds
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


def _queens(n):
    """N queens: rows and columns primary, diagonals secondary."""
    opts = []
    nd = 2 * n - 1
    for r in range(n):
        for c in range(n):
            opts.append([r, n + c, 2 * n + r + c, 2 * n + nd + (r - c + n - 1)])
    return opts, 2 * n, 2 * n + 2 * nd


def _brute(opts, n_primary, n_items, cols=None, bnds=None):
    """Count solutions by trying every subset of options (tiny problems)."""
    cols = cols or [[0] * len(o) for o in opts]
    bnds = bnds or [(1, 1)] * n_primary
    usable = [k for k, o in enumerate(opts) if any(i < n_primary for i in o)]
    total = 0
    for mask in range(1 << len(usable)):
        cnt = [0] * n_primary
        seen = [[] for _ in range(n_items)]  # colours used on secondary items
        for b, k in enumerate(usable):
            if mask >> b & 1:
                for i, x in zip(opts[k], cols[k]):
                    if i < n_primary:
                        cnt[i] += 1
                    else:
                        seen[i].append(x)
        if not all(bnds[i][0] <= cnt[i] <= bnds[i][1] for i in range(n_primary)):
            continue
        # a secondary item: used at most once, or only with one non-zero colour
        if all(len(c) <= 1 or (0 not in c and len(set(c)) == 1) for c in seen):
            total += 1
    return total


def _valid_solution(sol, opts, n_primary, n_items):
    cnt = [0] * n_items
    for k in sol:
        for i in opts[k]:
            cnt[i] += 1
    return all(c == 1 for c in cnt[:n_primary]) and all(c <= 1 for c in cnt[n_primary:])


def _random_problem(rng, coloured=False, multiplicity=False):
    n_primary = int(rng.integers(2, 5))
    n_sec = int(rng.integers(0, 4))
    n_items = n_primary + n_sec
    n_opts = int(rng.integers(4, 12))
    opts, cols = [], []
    for _ in range(n_opts):
        size = int(rng.integers(1, min(3, n_items) + 1))
        o = sorted(int(i) for i in rng.choice(n_items, size=size, replace=False))
        opts.append(o)
        cols.append([int(rng.integers(0, 3)) if (coloured and i >= n_primary) else 0 for i in o])
    bnds = None
    if multiplicity:
        bnds = []
        for _ in range(n_primary):
            u = int(rng.integers(0, 3))
            v = int(rng.integers(max(u, 1), 4))
            bnds.append((u, v))
    return opts, n_primary, n_items, (cols if coloured else None), bnds


SUDOKU_PUZZLE = "004300209005009001070060043006002087190007400050083000600000105003508690042910300"
SUDOKU_SOLUTION = (
    "864371259325849761971265843436192587198657432257483916689734125713528694542916378"
)


def _time(prep, repeats=3):
    best = float("inf")
    result = None
    for _ in range(repeats):
        prep.reset()
        t0 = time.perf_counter()
        result = prep()
        best = min(best, time.perf_counter() - t0)
    return result, best


def selftest(verbose: bool = True) -> int:
    """Check every available peer; returns the number of failures."""
    failures = 0

    def check(ok, msg):
        nonlocal failures
        if not ok:
            failures += 1
        if verbose:
            print(("ok    " if ok else "FAIL  ") + msg)

    print("peer versions:", peer_versions())
    print("available:", AVAILABLE)
    for p, e in IMPORT_ERRORS.items():
        print(f"  {p} import error: {e}")
    peers = [p for p in PEERS if AVAILABLE[p]]
    t0 = time.perf_counter()
    warmup(peers)
    print(f"warm-up {time.perf_counter() - t0:.2f}s")

    # Knuth's example: items a..g = 0..6
    knuth_expected = [0, 3, 4]  # c e, a d f, b g
    for p in peers:
        n = count_solutions(p, _KNUTH_OPTIONS, 7, 7)
        check(n == 1, f"{p}: Knuth example count = {n} (expect 1)")
        s = first_solution(p, _KNUTH_OPTIONS, 7, 7)
        check(s == knuth_expected, f"{p}: Knuth example solution = {s} (expect {knuth_expected})")
        # unsatisfiable: drop option 'a d f'
        opts = [o for k, o in enumerate(_KNUTH_OPTIONS) if k != 3]
        n0 = count_solutions(p, opts, 7, 7)
        s0 = first_solution(p, opts, 7, 7)
        check(n0 == 0 and s0 is None, f"{p}: no-solution case count={n0} first={s0}")

    # N queens, diagonals secondary
    timings = {}
    for nq, expect in ((8, 92), (10, 724)):
        opts, npri, nitems = _queens(nq)
        for p in peers:
            prep = prepare(p, opts, npri, nitems)
            n, dt = _time(prep)
            timings[(p, nq)] = dt
            check(
                n == expect,
                f"{p}: {nq}-queens count = {n} (expect {expect}); best {dt * 1e3:.2f} ms",
            )
            prep.reset()
            lim = prep(limit=10)
            check(lim == 10, f"{p}: {nq}-queens count(limit=10) = {lim}")
            s = prep.first()
            check(
                s is not None and len(s) == nq and _valid_solution(s, opts, npri, nitems),
                f"{p}: {nq}-queens first solution valid {s}",
            )

    # Sudoku
    grid = np.frombuffer(SUDOKU_PUZZLE.encode(), dtype=np.uint8) - ord("0")
    want = np.frombuffer(SUDOKU_SOLUTION.encode(), dtype=np.uint8) - ord("0")
    # the same puzzle with 6 givens removed (several solutions; counts must agree)
    loose = grid.copy()
    loose[np.flatnonzero(loose)[:6]] = 0
    for p in peers:
        t = time.perf_counter()
        sol = sudoku_solve(p, grid)
        dt = time.perf_counter() - t
        check(
            sol is not None and np.array_equal(sol, want),
            f"{p}: sudoku solved correctly ({dt * 1e3:.1f} ms incl. conversion)",
        )
        opts, _ = sudoku_options(grid)
        n = count_solutions(p, opts, 324, 324)
        check(n == 1, f"{p}: sudoku has {n} solution(s) (expect 1)")
        prep, decode = prepare_sudoku(p, grid, pruned=True)
        check(
            np.array_equal(decode(prep.first()), want),
            f"{p}: sudoku solved correctly from the pruned encoding",
        )
        naive, _ = prepare_sudoku(p, loose)
        pruned, decode = prepare_sudoku(p, loose, pruned=True)
        n_naive, n_pruned = naive(), pruned()
        pruned.reset()
        found = decode(pruned.first())
        check(
            n_naive == n_pruned > 1
            and np.all(found[loose > 0] == loose[loose > 0])
            and np.all(np.sort(found.reshape(9, 9), axis=1) == np.arange(1, 10))
            and np.all(np.sort(found.reshape(9, 9), axis=0) == np.arange(1, 10)[:, None]),
            f"{p}: a 6-givens-fewer puzzle: {n_naive} solutions naive, {n_pruned} pruned",
        )

    # Random tiny problems against brute force
    rng = np.random.default_rng(12345)
    for trial_kind in ("exact", "coloured", "multiplicity"):
        bad = {p: 0 for p in peers}
        ran = {p: 0 for p in peers}
        for _ in range(150):
            opts, npri, nitems, cols, bnds = _random_problem(
                rng, coloured=trial_kind == "coloured", multiplicity=trial_kind == "multiplicity"
            )
            want_n = _brute(opts, npri, nitems, cols, bnds)
            for p in peers:
                try:
                    prep = prepare(p, opts, npri, nitems, colours=cols, bounds=bnds)
                except NotImplementedError:
                    continue
                ran[p] += 1
                got = prep()
                if got != want_n:
                    bad[p] += 1
                    if bad[p] <= 3:
                        print(
                            f"      mismatch {p} {trial_kind}: got {got} want {want_n}: "
                            f"{opts} npri={npri} nitems={nitems} cols={cols} bnds={bnds}"
                        )
                if trial_kind == "exact":
                    s = prep.first()
                    if (s is None) != (want_n == 0) or (
                        s is not None and not _valid_solution(s, opts, npri, nitems)
                    ):
                        bad[p] += 1
        for p in peers:
            if ran[p]:
                extra = (
                    " (only those with no colour used)"
                    if (trial_kind == "coloured" and SUPPORTS[p]["colours"] is False)
                    else ""
                )
                check(
                    bad[p] == 0, f"{p}: {ran[p]} random {trial_kind} problems vs brute force{extra}"
                )
            else:
                print(f"skip  {p}: {trial_kind} not supported (NotImplementedError)")

    if timings:
        print("\nN-queens counting (search only, best of 3):")
        print(f"  {'peer':12s} {'8-queens':>10s} {'10-queens':>10s}")
        for p in peers:
            print(f"  {p:12s} {timings[(p, 8)] * 1e3:8.2f}ms {timings[(p, 10)] * 1e3:8.2f}ms")
    print(f"\nselftest: {failures} failure(s)")
    return failures


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
