"""The public exact-cover API: :class:`ExactCover`, :func:`solve`, :func:`count`.

Data path: input (dense 0/1 matrix, item-index lists, CSR arrays or DLX text) ->
validated CSR options (primary items first internally) -> DLX1 link tables
(:mod:`numbadlx.core.links`) -> the search (:mod:`numbadlx.core.search`) -> option
indices in the caller's numbering.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import dlx_text, verification
from . import trace as _trace
from .counting import count_by_method
from .links import build_links
from .search import RET_BUDGET, RET_DONE, BudgetExceeded, Search, SearchStats, decode_solution
from .validate import (
    check_bounds,
    check_colours,
    check_count,
    check_csr,
    colours_from_lists,
    dense_to_csr,
    options_to_csr,
    secondary_mask,
)
from .zdd import ZDD, build_zdd

__all__ = ["ExactCover", "SearchStats", "BudgetExceeded", "solve", "count"]


class ExactCover:
    """An exact-cover problem: choose options so every primary item is covered exactly
    once and every secondary item at most once.

    Parameters
    ----------
    options : array_like or sequence of sequences of int
        Either a dense 2-D 0/1 (or bool) matrix, options x items, or a sequence of
        options, each a sequence of 0-based item indices. For CSR arrays use
        :meth:`from_csr`; for Knuth's text format :meth:`from_dlx`. Which of the two
        is decided by ``dense``.
    n_items : int, optional
        Number of items (inferred from the matrix width or the largest index).
    secondary : int or array_like of bool, optional
        Secondary items (covered at most once): a count of trailing items, or a
        boolean mask over the items.
    item_names, option_names : sequence of str, optional
        Names kept for display and output.
    colours : optional
        Colours of secondary items (Knuth's Algorithm C): a secondary item may then be
        shared by several chosen options if all give it the same non-zero colour.
        For option lists, a list of lists parallel to ``options`` (``None`` for an
        option without colours); for a dense matrix, an integer matrix of the same
        shape. ``0`` means no colour; primary items may not have one.
    bounds : optional
        Multiplicities (Knuth's Algorithm M): primary item ``i`` must be covered
        between ``u`` and ``v`` times. An array-like of ``(u, v)`` with one row per
        primary item (in item order), or a dict ``item -> (u, v)`` (an index, or a
        name from ``item_names``) where missing items keep ``(1, 1)``.
    colour_names : sequence of str, optional
        Names of colours ``1, 2, ...`` for output and :meth:`to_dlx`.
    dense : bool, optional
        True: ``options`` is a 0/1 matrix; False: it is option lists. By default a
        NumPy array is a matrix, and so is a list of equal-length rows of bools, or
        of 0/1 rows, each with a 1, that could not be option lists (a row repeats an
        index); any
        other list is option lists, except that two or more rows that read either
        way (such as ``[[1, 0], [0, 1]]``: two options covering items 0 and 1, or the
        2 x 2 identity matrix) raise ValueError unless ``dense`` says which is
        meant.

    Notes
    -----
    The kernel follows from the data: Algorithm X without colours and bounds, C with
    colours, M with bounds (and colours); see :attr:`algorithm`.

    Examples
    --------
    >>> problem = ExactCover([[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]])
    >>> problem.solve().tolist()
    [1, 3, 5]
    >>> problem.count()
    1

    Colours: item 2 is secondary; options 0 and 1 may share it, both giving colour 7.

    >>> coloured = ExactCover([[0, 2], [1, 2], [1]], secondary=1,
    ...                       colours=[[0, 7], [0, 7], [0]])
    >>> coloured.algorithm, coloured.count()
    ('C', 2)

    Multiplicities: cover item 0 twice, from three options.

    >>> ExactCover([[0], [0, 1], [0]], bounds=[(2, 2), (0, 1)]).count()
    3
    """

    def __init__(
        self,
        options: ArrayLike | Sequence[Sequence[int]],
        *,
        n_items: int | None = None,
        secondary: int | ArrayLike | None = None,
        item_names: Sequence[str] | None = None,
        option_names: Sequence[str] | None = None,
        colours: Any = None,
        bounds: Any = None,
        colour_names: Sequence[str] | None = None,
        dense: bool | None = None,
    ) -> None:
        if not isinstance(options, (np.ndarray, Sequence)):
            options = list(options)  # an iterator: read once, used twice below
        if dense is None:
            dense = _reads_as_dense(options)
        if dense:
            indptr, indices, width = dense_to_csr(options)
            if n_items is not None and n_items != width:
                raise ValueError(f"n_items = {n_items} but the matrix has {width} columns")
            if colours is not None:
                colours = _dense_colours(colours, options)
        else:
            indptr, indices, width = options_to_csr(options, n_items)
            if colours is not None:
                colours = colours_from_lists(colours, indptr)
        self._setup(
            indptr,
            indices,
            width,
            secondary,
            item_names,
            option_names,
            colours=colours,
            bounds=bounds,
            colour_names=colour_names,
        )

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_dense(
        cls,
        matrix: ArrayLike,
        *,
        secondary: int | ArrayLike | None = None,
        item_names: Sequence[str] | None = None,
        option_names: Sequence[str] | None = None,
        colours: ArrayLike | None = None,
        bounds: Any = None,
        colour_names: Sequence[str] | None = None,
    ) -> ExactCover:
        """Build from a dense options x items 0/1 matrix (``colours``: an integer
        matrix of the same shape)."""
        indptr, indices, width = dense_to_csr(matrix)
        if colours is not None:
            colours = _dense_colours(colours, matrix)
        return cls._from_checked(
            indptr,
            indices,
            width,
            secondary,
            item_names,
            option_names,
            colours=colours,
            bounds=bounds,
            colour_names=colour_names,
        )

    @classmethod
    def from_options(
        cls,
        options: Sequence[Sequence[int]],
        *,
        n_items: int | None = None,
        secondary: int | ArrayLike | None = None,
        item_names: Sequence[str] | None = None,
        option_names: Sequence[str] | None = None,
        colours: Sequence[Sequence[int] | None] | None = None,
        bounds: Any = None,
        colour_names: Sequence[str] | None = None,
    ) -> ExactCover:
        """Build from a sequence of options, each a sequence of 0-based item indices
        (``colours``: lists parallel to the options)."""
        indptr, indices, width = options_to_csr(options, n_items)
        if colours is not None:
            colours = colours_from_lists(colours, indptr)
        return cls._from_checked(
            indptr,
            indices,
            width,
            secondary,
            item_names,
            option_names,
            colours=colours,
            bounds=bounds,
            colour_names=colour_names,
        )

    @classmethod
    def from_csr(
        cls,
        indptr: ArrayLike,
        indices: ArrayLike,
        *,
        n_items: int | None = None,
        secondary: int | ArrayLike | None = None,
        item_names: Sequence[str] | None = None,
        option_names: Sequence[str] | None = None,
        colours: ArrayLike | None = None,
        bounds: Any = None,
        colour_names: Sequence[str] | None = None,
    ) -> ExactCover:
        """Build from CSR arrays: option ``k`` holds ``indices[indptr[k]:indptr[k+1]]``.

        ``colours``, if given, is an integer array parallel to ``indices`` (0 = none).

        Examples
        --------
        >>> problem = ExactCover.from_csr([0, 2, 3, 4], [0, 1, 0, 1], n_items=2)
        >>> problem.count()
        2
        >>> ExactCover.from_csr([0, 2, 4], [0, 1, 0, 1], n_items=2, secondary=1,
        ...                     colours=[0, 3, 0, 3]).count()
        2
        """
        indptr, indices, width = check_csr(indptr, indices, n_items)
        return cls._from_checked(
            indptr,
            indices,
            width,
            secondary,
            item_names,
            option_names,
            colours=colours,
            bounds=bounds,
            colour_names=colour_names,
        )

    @classmethod
    def from_dlx(cls, source: str | Any) -> ExactCover:
        """Read Knuth's DLX text format (text, a path, or an open file such as stdin).

        The first non-comment line names the items, with ``|`` between the primary and
        the secondary ones; every further line is an option (item names separated by
        spaces). Lines starting with ``|`` are comments. As in Knuth's DLX2 and DLX3,
        ``x:c`` in an option gives secondary item ``x`` colour ``c``, and ``u:v|a``
        (or ``v|a``) in the item line lets primary item ``a`` be covered ``u`` to ``v``
        times; see :mod:`numbadlx.core.dlx_text`.

        A :class:`pathlib.Path` is always read as a file and a string with a newline as
        text. A string without a newline must name a file (DLX text always has a line
        break): :class:`FileNotFoundError` if it names none, so a mistyped file name is
        never read as a problem. A directory, an unreadable file or one that is not
        UTF-8 text raises an error naming it.

        Examples
        --------
        >>> problem = ExactCover.from_dlx("a b c | x\\na b\\nc x\\nc\\n")
        >>> problem.count()
        2
        >>> ExactCover.from_dlx("2|a b | x\\na x:red\\na b x:red\\na x:blue\\n").count()
        1
        """
        parsed = dlx_text.parse_dlx(source)
        return cls._from_checked(
            parsed.indptr,
            parsed.indices,
            len(parsed.item_names),
            parsed.secondary,
            parsed.item_names,
            None,
            line_numbers=parsed.line_numbers,
            colours=parsed.colours,
            bounds=parsed.bounds,
            colour_names=parsed.colour_names,
        )

    @classmethod
    def _from_checked(
        cls,
        indptr,
        indices,
        n_items,
        secondary,
        item_names,
        option_names,
        line_numbers=None,
        colours=None,
        bounds=None,
        colour_names=None,
    ):
        problem = cls.__new__(cls)
        problem._setup(
            indptr,
            indices,
            n_items,
            secondary,
            item_names,
            option_names,
            colours=colours,
            bounds=bounds,
            colour_names=colour_names,
        )
        problem.line_numbers = line_numbers
        return problem

    def _setup(
        self,
        indptr,
        indices,
        n_items,
        secondary,
        item_names,
        option_names,
        colours=None,
        bounds=None,
        colour_names=None,
    ):
        self.indptr = indptr
        self.indices = indices
        self.n_items = int(n_items)
        self.n_options = indptr.size - 1
        self.secondary = secondary_mask(secondary, self.n_items)
        self.n_primary = int(self.n_items - self.secondary.sum())
        self.n_secondary = self.n_items - self.n_primary
        self.line_numbers = getattr(self, "line_numbers", None)
        if item_names is not None:
            item_names = [str(name) for name in item_names]
            if len(item_names) != self.n_items:
                raise ValueError(f"{len(item_names)} item names for {self.n_items} items")
        if option_names is not None:
            option_names = [str(name) for name in option_names]
            if len(option_names) != self.n_options:
                raise ValueError(f"{len(option_names)} option names for {self.n_options} options")
        self.item_names = item_names
        self.option_names = option_names
        #: colours parallel to ``indices`` (int32, 0 = none), or None without colours
        self.colours = check_colours(colours, indptr, indices, self.secondary)
        #: ``(u, v)`` per primary item (int64, rows in item order), or None
        self.bounds = check_bounds(bounds, self.n_items, self.secondary, item_names)
        self.colour_names = _colour_names(colour_names, self.colours)
        # Internal item numbering: primary items first, then secondary, each in order.
        self._order = np.concatenate(
            [np.flatnonzero(~self.secondary), np.flatnonzero(self.secondary)]
        ).astype(np.int32)
        self._internal = np.empty(self.n_items, dtype=np.int32)
        self._internal[self._order] = np.arange(self.n_items, dtype=np.int32)
        internal_indices = self._internal[indices] if indices.size else indices
        self._nodes, self._items = build_links(
            indptr,
            internal_indices.astype(np.int32),
            self.colours if self.colours is not None else np.zeros(0, dtype=np.int32),
            self.n_items,
            self.n_primary,
        )
        self.stats = SearchStats()

    # ------------------------------------------------------------------ views
    def option(self, k: int) -> NDArray[np.int32]:
        """Item indices of option ``k`` (in the caller's numbering)."""
        if not -self.n_options <= k < self.n_options:
            raise IndexError(f"option {k} out of range ({self.n_options} options)")
        k %= self.n_options
        return self.indices[self.indptr[k] : self.indptr[k + 1]].copy()

    def to_dense(self) -> NDArray[np.bool_]:
        """The options x items 0/1 matrix as a bool array."""
        dense = np.zeros((self.n_options, self.n_items), dtype=bool)
        rows = np.repeat(np.arange(self.n_options), np.diff(self.indptr))
        dense[rows, self.indices] = True
        return dense

    def links(self) -> tuple[NDArray[np.uint32], NDArray[np.uint32]]:
        """Copies of the pristine link tables as ``(nodes, items)``: one row per node
        (columns up, down, item or length, aux) and one per item (prev, next).

        Internal numbering: item ``i`` of the tables is ``item_order[i - 1]`` of the
        caller's items. The kernels keep the same tables transposed (one contiguous
        row per field), which indexes faster in Numba; these are their transposes.
        """
        return self._nodes.T.copy(), self._items.T.copy()

    @property
    def algorithm(self) -> str:
        """Which of Knuth's algorithms the search runs: ``'X'`` (plain exact cover),
        ``'C'`` (with colours) or ``'M'`` (with multiplicities, and any colours)."""
        if self.bounds is not None:
            return "M"
        return "C" if self.colours is not None else "X"

    def option_colours(self, k: int) -> NDArray[np.int32]:
        """Colours of option ``k``'s items, parallel to :meth:`option` (0 = none)."""
        items = self.option(k)
        if self.colours is None:
            return np.zeros(items.size, dtype=np.int32)
        k %= self.n_options
        return self.colours[self.indptr[k] : self.indptr[k + 1]].copy()

    @property
    def item_order(self) -> NDArray[np.int32]:
        """Caller's item index of each internal item (primary items first)."""
        return self._order.copy()

    def __repr__(self):
        return (
            f"ExactCover({self.n_options} options, {self.n_primary} primary + "
            f"{self.n_secondary} secondary items, {self.indices.size} entries)"
        )

    def _repr_html_(self):
        """Jupyter view: sizes, item names, and for small problems the 0/1 matrix with
        a solution's options marked (see :mod:`numbadlx.display.cover_html`)."""
        from ..display.cover_html import exact_cover_html

        return exact_cover_html(self)

    # ----------------------------------------------------------------- search
    def _finish(self, search, code, found, what):
        self.stats = search.summary()
        if code == RET_BUDGET:
            raise BudgetExceeded(
                f"{what} stopped at its budget ({search.budget_text()}) after "
                f"{self.stats.nodes} nodes, {found} solution(s) seen",
                found,
                self.stats,
            )

    def solve(
        self, *, max_nodes: int | None = None, timeout: float | None = None
    ) -> NDArray[np.int64] | None:
        """First solution as sorted option indices, or None when there is none.

        Raises :class:`BudgetExceeded` if ``max_nodes`` or ``timeout`` (seconds) stop
        the search first.
        """
        search = Search(self, max_nodes=max_nodes, timeout=timeout)
        code, found, record = search.run(1, 1)
        self._finish(search, code, found, "solve")
        return decode_solution(record[0]) if found else None

    def count(
        self,
        limit: int | None = None,
        *,
        max_nodes: int | None = None,
        timeout: float | None = None,
        method: str = "dlx",
        threads: int = 1,
        max_bytes: int | None = None,
    ) -> int:
        """Number of solutions, stopping early at ``limit`` if given.

        Raises :class:`BudgetExceeded` (with ``.found``) if the budget runs out first.

        ``method``: ``'dlx'`` (the default) searches the whole tree; ``'memo'`` searches
        each distinct subproblem once (see :meth:`zdd`; Algorithms X and C, exact past
        2**63; :class:`~numbadlx.core.zdd.MemoryBudgetExceeded` past ``max_bytes``
        bytes); ``'auto'`` races the two for a few milliseconds and goes on with the one
        that got further (see :mod:`numbadlx.core.counting`). ``threads > 1`` splits
        the DLX search tree over a thread pool. ``timeout`` stays one deadline and
        ``max_nodes`` one budget whatever the method (see
        :func:`numbadlx.core.counting.count_by_method`).

        Examples
        --------
        >>> from numbadlx import problems
        >>> problems.domino_tilings(12, 12).count(method="memo")
        53060477521960000
        >>> problems.n_queens(8).count(method="auto", threads=2)
        92
        """
        if method != "dlx" or threads != 1:
            return count_by_method(
                self,
                limit,
                max_nodes=max_nodes,
                timeout=timeout,
                method=method,
                threads=threads,
                max_bytes=max_bytes,
            )
        limit = None if limit is None else check_count(limit, "limit")
        search = Search(self, max_nodes=max_nodes, timeout=timeout)
        code, found, _ = search.run(0 if limit is None else limit, 0)
        self._finish(search, code, found, "count")
        return found

    def solutions(
        self,
        limit: int | None = None,
        *,
        max_nodes: int | None = None,
        timeout: float | None = None,
        batch: int = 64,
    ) -> Iterator[NDArray[np.int64]]:
        """Yield solutions one by one (sorted option indices), resuming the same search.

        The kernel stops after each batch of ``batch`` solutions and carries on from
        where it stopped when more are wanted, so nothing is searched twice.

        The budgets are those of the whole enumeration, not of one batch: ``max_nodes``
        counts every node since the first solution was asked for, and ``timeout`` is
        one deadline, ``timeout`` seconds after this call (the time the caller spends
        between solutions counts too). Past either, the next request raises
        :class:`BudgetExceeded` with ``.found`` the solutions yielded so far.
        """
        limit = None if limit is None else check_count(limit, "limit")
        batch = check_count(batch, "batch")
        search = Search(self, max_nodes=max_nodes, timeout=timeout)
        return self._solutions(search, limit, batch)

    def _solutions(self, search, limit, batch):
        produced = 0
        while limit is None or produced < limit:
            want = batch if limit is None else min(batch, limit - produced)
            code, found, record = search.run(want, want)
            self.stats = search.summary()
            for row in record[:found]:
                yield decode_solution(row)
            produced += found
            if code == RET_DONE:
                return
            if code == RET_BUDGET:
                self._finish(search, code, produced, "solutions")

    def zdd(
        self,
        *,
        max_nodes: int | None = None,
        timeout: float | None = None,
        max_bytes: int | None = None,
    ) -> ZDD:
        """A decision diagram (ZDD) of every solution, from the memoised search.

        Each distinct subproblem (the open items, and the colour state of the secondary
        items) is searched once; see :mod:`numbadlx.core.zdd`. The result counts its
        solutions exactly (:meth:`~numbadlx.core.zdd.ZDD.count`, a Python int),
        lists them (``solutions()``) and draws uniform samples (``sample(k, seed=)``).
        Algorithms X and C only (ValueError with multiplicities). Raises
        :class:`BudgetExceeded` at ``max_nodes`` subproblems or ``timeout`` seconds,
        and :class:`~numbadlx.core.zdd.MemoryBudgetExceeded` past ``max_bytes``.

        Examples
        --------
        >>> from numbadlx import problems
        >>> zdd = problems.domino_tilings(10, 10).zdd()
        >>> zdd.count()
        258584046368
        >>> len(zdd.sample(2, seed=0))
        2
        """
        return build_zdd(self, max_nodes=max_nodes, timeout=timeout, max_bytes=max_bytes)

    def verify(self, solution: ArrayLike) -> bool:
        """True if ``solution`` (option indices) is an exact cover of this problem."""
        return verification.verify(self, solution)

    def trace(
        self,
        *,
        max_events: int | None = None,
        limit: int | None = None,
        as_frame: bool | None = None,
    ) -> Any:
        """Record the search step by step: chosen items, options tried, backtracks and
        solutions, as a table (a pandas DataFrame, or a structured array without
        pandas). The same kernel runs with its trace table switched on; see
        :func:`numbadlx.core.trace.trace` for the columns and limits.

        Examples
        --------
        >>> problem = ExactCover([[0, 1], [0], [1]])
        >>> events = problem.trace(as_frame=False)["event"]
        >>> " ".join(events)
        'choose try solution try choose try solution backtrack backtrack'
        """
        return _trace.trace(self, max_events=max_events, limit=limit, as_frame=as_frame)

    def play(self, *, max_events: int | None = None, limit: int | None = None) -> Any:
        """Watch the search step by step: a self-contained HTML/JavaScript player of
        the 0/1 matrix (chosen option red, covered items blue, clashing options
        purple), shown by Jupyter and saved with ``.save("dance.html")``. For small
        problems without multiplicities; see :func:`numbadlx.display.player.play`.

        Examples
        --------
        >>> problem = ExactCover([[0, 1], [0], [1]])
        >>> player = problem.play()
        >>> [step.kind for step in player.steps[:3]]
        ['choose', 'try', 'cover']
        """
        from ..display.player import play

        return play(self, max_events=max_events, limit=limit)

    def to_dlx(self) -> str:
        """This problem in Knuth's DLX text format."""
        return dlx_text.to_dlx(self)


def _reads_as_dense(options):
    """The default of ``ExactCover(options, dense=None)``: True for a matrix, False for
    option lists, ValueError when a list of rows reads both ways."""
    if isinstance(options, np.ndarray):
        return True
    try:
        rows = [list(row) for row in options]
    except TypeError:
        return False  # not a sequence of sequences: options_to_csr says what is wrong
    if not rows or any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        return False
    if all(isinstance(v, (bool, np.bool_)) for row in rows for v in row):
        return True
    if not all(
        isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and v in (0, 1)
        for row in rows
        for v in row
    ):
        return False
    as_options = all(len(set(row)) == len(row) for row in rows)
    as_matrix = all(1 in row for row in rows) and (len(rows) > 1 or not as_options)
    if as_options and as_matrix:
        raise ValueError(
            f"options {rows[:2]}{'...' if len(rows) > 2 else ''} read both as a 0/1 "
            f"matrix and as lists of item indices: pass dense=True or dense=False, a "
            f"NumPy array (always a matrix), or use ExactCover.from_dense / from_options"
        )
    return as_matrix


def _dense_colours(colours, matrix):
    """Colours given as a dense matrix: pick the entries of the non-zero cells, in the
    order :func:`dense_to_csr` lists them."""
    present = np.asarray(matrix) != 0
    array = np.asarray(colours)
    if array.shape != present.shape:
        raise ValueError(
            f"colour matrix has shape {array.shape}, expected {present.shape} "
            f"(the shape of the options matrix)"
        )
    if not (np.issubdtype(array.dtype, np.integer) and array.dtype != np.bool_):
        raise ValueError(f"colour matrix must hold integers, got dtype {array.dtype}")
    stray = (array != 0) & ~present
    if stray.any():
        row, col = np.argwhere(stray)[0]
        raise ValueError(
            f"colour {array[row, col]} at row {row}, item {col}, where the option has no item"
        )
    return array[present].astype(np.int64)


def _colour_names(names, colours):
    if names is None:
        return None
    names = [str(name) for name in names]
    largest = int(colours.max()) if colours is not None else 0
    if len(names) < largest:
        raise ValueError(f"{len(names)} colour names but colours go up to {largest}")
    return names


def _problem(matrix, secondary, dense):
    if isinstance(matrix, ExactCover):
        if secondary is not None or dense is not None:
            raise ValueError(
                f"{'secondary' if secondary is not None else 'dense'} is given with an "
                f"ExactCover, which already settles it"
            )
        return matrix
    return ExactCover(matrix, secondary=secondary, dense=dense)


def solve(
    matrix: ArrayLike | Sequence[Sequence[int]] | ExactCover,
    secondary: int | ArrayLike | None = None,
    *,
    dense: bool | None = None,
    **budget: Any,
) -> NDArray[np.int64] | None:
    """Solve an exact-cover problem given as a dense 0/1 matrix or option lists
    (``dense`` as in :class:`ExactCover`); ``budget``: ``max_nodes``, ``timeout``.

    Examples
    --------
    >>> import numpy as np
    >>> solve(np.array([[1, 0], [0, 1], [1, 1]])).tolist()
    [0, 1]
    """
    return _problem(matrix, secondary, dense).solve(**budget)


def count(
    matrix: ArrayLike | Sequence[Sequence[int]] | ExactCover,
    secondary: int | ArrayLike | None = None,
    limit: int | None = None,
    *,
    dense: bool | None = None,
    **budget: Any,
) -> int:
    """Count the solutions of an exact-cover problem (up to ``limit``), given as in
    :func:`solve`.

    Examples
    --------
    >>> import numpy as np
    >>> count(np.array([[1, 0], [0, 1], [1, 1]]))
    2
    >>> count([[1, 0], [0, 1]], dense=True), count([[1, 0], [0, 1]], dense=False)
    (1, 2)
    """
    return _problem(matrix, secondary, dense).count(limit, **budget)
