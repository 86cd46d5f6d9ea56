"""The public exact-cover API: :class:`ExactCover`, :func:`solve`, :func:`count`.

Data path: input (dense 0/1 matrix, item-index lists, CSR arrays or DLX text) ->
validated CSR options (primary items first internally) -> DLX1 link tables
(:mod:`numbadlx.core.links`) -> the search (:mod:`numbadlx.core.search`) -> option
indices in the caller's numbering.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import dlx_text, verification
from ._tools import ExplorerTools, shuffled
from .costs import check_costs, check_max_cost, cost_count, cost_solutions
from .counting import count_by_method
from .links import link_problem
from .names import read_names, solution_names
from .search import (
    BudgetExceeded,
    SearchStats,
    check_engine,
    count_dlx,
    first_solution,
    iter_solutions,
)
from .validate import (
    check_bounds,
    check_colour_names,
    check_colours,
    check_count,
    check_csr,
    check_names,
    colours_from_lists,
    dense_colours,
    dense_to_csr,
    options_to_csr,
    secondary_mask,
    to_csr,
)
from .words import plural

__all__ = ["ExactCover", "SearchStats", "BudgetExceeded"]


class ExactCover(ExplorerTools):
    """An exact-cover problem: choose options so every primary item is covered exactly
    once and every secondary item at most once.

    Parameters
    ----------
    options : array_like or sequence of sequences of int
        Either a dense 2-D 0/1 (or bool) matrix, options x items, or a sequence of
        options, each a sequence of 0-based item indices. For CSR arrays use
        :meth:`from_csr`, for Knuth's text format :meth:`from_dlx`, for named items
        :meth:`from_names`. Which of the two is decided by ``dense``.
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
        index); any other list is option lists, except that two or more rows that read
        either way (such as ``[[1, 0], [0, 1]]``: two options covering items 0 and 1,
        or the 2 x 2 identity matrix) raise ValueError unless ``dense`` says which is
        meant.
    engine : {'dlx', 'cells', 'auto'}, optional
        The search of ``solve``, ``solutions`` and ``count`` (an attribute too):
        ``'dlx'`` (the default), ``'cells'`` (dancing cells, for Algorithms X, C and
        M) or ``'auto'`` (cells for packings without secondary items, of options of
        5+ items in 100+ options per item on average, and for Algorithms X and C on
        options of about 3 items when items are in 12+ options on average and none in
        more than twice as many as the rarest, as Langford pairs; else DLX). Same
        solutions.

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
        engine: str = "dlx",
        costs: Any = None,
    ) -> None:
        self.engine = check_engine(engine)
        indptr, indices, width, colours = to_csr(options, n_items, colours, dense)
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
            costs=costs,
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
            colours = dense_colours(colours, matrix)
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
        times; options are named by their text, or by a ``|: name`` line before them
        (see :mod:`numbadlx.core.dlx_text`).

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
            parsed.option_names,
            line_numbers=parsed.line_numbers,
            colours=parsed.colours,
            bounds=parsed.bounds,
            colour_names=parsed.colour_names,
            costs=parsed.costs,
        )

    @classmethod
    def from_names(
        cls,
        options: Any,
        primary: Sequence[str] | None = None,
        secondary: Sequence[str] | None = None,
        *,
        bounds: Any = None,
        costs: Any = None,
    ) -> ExactCover:
        """Build from named options: a dict ``{option name: [item names]}``, or a list
        of lists of item names (an option then named by its text, ``"a d g"``).

        An option may be one string of names separated by spaces; ``"x:red"`` gives
        secondary item ``x`` the colour ``red``, as in DLX text. Every item not named
        ``secondary`` is primary; when ``primary`` is given every item must be listed.
        Items are numbered primary first (in the order of ``primary``, or of first
        appearance), then secondary. ``bounds``: multiplicities by item name, and
        ``costs``: costs by option name, as in :class:`ExactCover`. Names are
        strings; item and colour names hold no white space, ``|`` or ``:`` (see
        :mod:`numbadlx.core.names`). ValueError names the option and the item of an
        empty option, a repeated or unlisted item, or a colour on a primary item.

        Examples
        --------
        >>> p = ExactCover.from_names({"A": ["c", "e"], "B": ["a", "d", "g"],
        ...     "C": ["b", "c", "f"], "D": ["a", "d", "f"], "E": ["b", "g"],
        ...     "F": ["d", "e", "g"]})
        >>> sorted(p.names(p.solve()))
        ['A', 'D', 'E']
        >>> q = ExactCover.from_names([["a", "x:red"], ["b", "x:red"], ["b", "x:blue"]],
        ...                           secondary=["x"])
        >>> [q.names(s) for s in q.solutions()]
        [['a x:red', 'b x:red']]
        """
        named = read_names(options, primary, secondary)
        return cls._from_checked(
            named.indptr,
            named.indices,
            len(named.item_names),
            named.secondary,
            named.item_names,
            named.option_names,
            colours=named.colours,
            bounds=bounds,
            colour_names=named.colour_names,
            costs=costs,
        )

    @classmethod
    def _from_checked(cls, *args, line_numbers=None, **kwargs):
        """A problem from input read into CSR (arguments of :meth:`_setup`)."""
        problem = cls.__new__(cls)
        problem._setup(*args, **kwargs)
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
        costs=None,
    ):
        self.indptr = indptr
        self.indices = indices
        self.n_items = int(n_items)
        self.n_options = indptr.size - 1
        self.secondary = secondary_mask(secondary, self.n_items)
        self.n_primary = int(self.n_items - self.secondary.sum())
        self.n_secondary = self.n_items - self.n_primary
        self.line_numbers = getattr(self, "line_numbers", None)
        self.engine = getattr(self, "engine", "dlx")  # set by __init__, else DLX
        self.item_names = item_names = check_names(item_names, self.n_items, "item")
        self.option_names = check_names(option_names, self.n_options, "option")
        #: colours parallel to ``indices`` (int32, 0 = none), or None without colours
        self.colours = check_colours(colours, indptr, indices, self.secondary)
        #: ``(u, v)`` per primary item (int64, rows in item order), or None
        self.bounds = check_bounds(bounds, self.n_items, self.secondary, item_names)
        self.colour_names = check_colour_names(colour_names, self.colours)
        #: one cost per option (int64), or None
        self.costs = check_costs(costs, self.n_options, self.option_names)
        # Internal item numbering (primary items first) and the DLX1 link tables
        self._order, self._internal, self._nodes, self._items = link_problem(
            indptr, indices, self.colours, self.secondary, self.n_primary
        )
        self.stats = SearchStats()

    # ------------------------------------------------------------------ views
    def option(self, k: int) -> NDArray[np.int32]:
        """Item indices of option ``k`` (in the caller's numbering)."""
        if not -self.n_options <= k < self.n_options:
            raise IndexError(f"option {k} out of range ({plural(self.n_options, 'option')})")
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
            f"ExactCover({plural(self.n_options, 'option')}, {self.n_primary} primary + "
            f"{plural(self.n_secondary, 'secondary item')}, "
            f"{plural(self.indices.size, 'entry', 'entries')})"
        )

    def _repr_html_(self):
        """Jupyter view: sizes, item names, and for small problems the 0/1 matrix with
        a solution's options marked (see :mod:`numbadlx.display.cover_html`)."""
        from ..display.cover_html import exact_cover_html

        return exact_cover_html(self)

    # ----------------------------------------------------------------- search
    def solve(
        self,
        *,
        max_nodes: int | None = None,
        timeout: float | None = None,
        seed: int | None = None,
    ) -> NDArray[np.int64] | None:
        """First solution as sorted option indices, or None when there is none.

        Raises :class:`BudgetExceeded` if ``max_nodes`` or ``timeout`` (seconds) stop
        the search first. ``seed`` searches the options in a random order drawn from it
        (as DLX2's ``s``): another first solution for another seed, the same for the
        same seed.
        """
        if seed is not None:
            copy, order = shuffled(self, seed)
            found = first_solution(copy, max_nodes=max_nodes, timeout=timeout)
            self.stats = copy.stats
            return None if found is None else np.sort(order[found])
        return first_solution(self, max_nodes=max_nodes, timeout=timeout)

    def count(
        self,
        limit: int | None = None,
        *,
        max_nodes: int | None = None,
        timeout: float | None = None,
        method: str = "dlx",
        threads: int = 1,
        max_bytes: int | None = None,
        max_cost: int | None = None,
        progress: Any = None,
    ) -> int:
        """Number of solutions, stopping early at ``limit`` if given.

        Raises :class:`BudgetExceeded` (with ``.found``) if the budget runs out first.

        ``method``: ``'dlx'`` (the default) searches the whole tree; ``'memo'`` searches
        each distinct subproblem once (see :meth:`zdd`; Algorithms X and C, exact past
        2**63; :class:`~numbadlx.core.zdd.MemoryBudgetExceeded` past ``max_bytes``
        bytes); ``'auto'`` races the two for a few milliseconds and goes on with the one
        that got further (see :mod:`numbadlx.core.counting`). ``threads > 1`` splits
        the search tree over a thread pool (Algorithm M's by the states of its
        branches: see :mod:`numbadlx.core.split_m`). ``threads`` is a positive integer
        (``True`` is refused). ``timeout`` stays one deadline and
        ``max_nodes`` one budget whatever the method (see
        :func:`numbadlx.core.counting.count_by_method`). ``max_cost`` counts only the
        solutions that cost at most that much (see :attr:`costs`; one thread, DLX).
        ``progress(fraction, nodes, solutions)`` is called every few tens of
        milliseconds of a plain DLX count (the share of the tree done is estimated from
        the search's path; see :meth:`numbadlx.core.search.Search.fraction_done`).

        Examples
        --------
        >>> from numbadlx import problems
        >>> problems.domino_tilings(12, 12).count(method="memo")
        53060477521960000
        >>> problems.n_queens(8).count(method="auto", threads=2)
        92
        """
        threads = check_count(threads, "threads")
        if max_cost is not None:
            return cost_count(
                self, check_max_cost(max_cost), limit=limit, max_nodes=max_nodes, timeout=timeout
            )
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
        return count_dlx(self, limit, max_nodes=max_nodes, timeout=timeout, progress=progress)

    def solutions(
        self,
        limit: int | None = None,
        *,
        max_nodes: int | None = None,
        timeout: float | None = None,
        batch: int = 64,
        seed: int | None = None,
        max_cost: int | None = None,
    ) -> Iterator[NDArray[np.int64]]:
        """Yield solutions one by one (sorted option indices), resuming the same search.

        The kernel stops after each batch of ``batch`` solutions and carries on from
        where it stopped when more are wanted, so nothing is searched twice.

        The budgets are those of the whole enumeration, not of one batch: ``max_nodes``
        counts every node since the first solution was asked for, and ``timeout`` is
        one deadline, ``timeout`` seconds after this call (the time the caller spends
        between solutions counts too). Past either, the next request raises
        :class:`BudgetExceeded` with ``.found`` the solutions yielded so far. ``seed``
        searches the options in a random order drawn from it (see :meth:`solve`);
        ``max_cost`` yields only the solutions that cost at most that much.
        """
        if max_cost is not None:
            found = cost_solutions(
                self, check_max_cost(max_cost), max_nodes=max_nodes, timeout=timeout
            )
            return found if limit is None else itertools.islice(found, limit)
        if seed is not None:
            copy, order = shuffled(self, seed)
            found = iter_solutions(copy, limit, max_nodes=max_nodes, timeout=timeout, batch=batch)
            return (np.sort(order[s]) for s in found)
        return iter_solutions(self, limit, max_nodes=max_nodes, timeout=timeout, batch=batch)

    def names(self, solution: ArrayLike | None) -> list[str] | None:
        """The names of a solution's options (``None`` in, ``None`` out); an option
        without a name is named by its text, as in :meth:`from_names`.

        Examples
        --------
        >>> problem = ExactCover([[0, 1], [0], [1]], item_names=["x", "y"])
        >>> problem.names([1, 2])
        ['x', 'y']
        """
        return solution_names(self, solution)

    def verify(self, solution: ArrayLike) -> bool:
        """True if ``solution`` (option indices) is an exact cover of this problem."""
        return verification.verify(self, solution)

    def to_dlx(self) -> str:
        """This problem in Knuth's DLX text format."""
        return dlx_text.to_dlx(self)
