"""A step-by-step record of the search, for small problems: :func:`trace`.

The record comes from the production kernel itself. :class:`numbadlx.core.search.Search`
hands every kernel an ``(m, 5)`` int64 trace table; with ``m = 0`` (every ordinary
``solve``, ``count`` and ``solutions`` call) the kernel writes nothing, and with
``m > 0`` it appends one row per event:

========== ===================== =====================================================
event      kernel step           meaning
========== ===================== =====================================================
choose     X3 and X4             the item with fewest remaining options is chosen and
                                 covered; ``branches`` is how many options it has
                                 (Algorithm M: the branching degree)
try        X5 (after X6)         an option of the chosen item is tried: its other
                                 items are covered and the search goes one level down
backtrack  X7                    the item has no option left: it is uncovered and the
                                 search goes back up to try the next option above
solution   X2                    every primary item is covered; ``solution`` counts
                                 them
========== ===================== =====================================================

:func:`trace` decodes those rows into the caller's numbering (item and option
indices and names) as a pandas DataFrame, or a structured NumPy array when pandas is
not installed; :func:`numbadlx.display.tree.search_tree` turns the rows into the tree
the search walked (:func:`numbadlx.plotting.plot_search_tree` draws it).

Examples
--------
>>> from numbadlx import ExactCover
>>> problem = ExactCover([[0, 1], [0], [1]])
>>> table = trace(problem, as_frame=False)
>>> [str(e) for e in table["event"][:4]]
['choose', 'try', 'solution', 'try']
"""

import warnings

import numpy as np

from .kernels import common as _kernel
from .search import Search
from .validate import check_count
from .words import plural

__all__ = ["trace", "EVENTS", "MAX_OPTIONS", "MAX_ITEMS", "DEFAULT_MAX_EVENTS"]

#: Event names by kernel code (``EV_CHOOSE``, ``EV_TRY``, ``EV_BACKTRACK``,
#: ``EV_SOLUTION``).
EVENTS = ("choose", "try", "backtrack", "solution")
assert (_kernel.EV_CHOOSE, _kernel.EV_TRY, _kernel.EV_BACKTRACK, _kernel.EV_SOLUTION) == (
    0,
    1,
    2,
    3,
)

#: A problem with more options or items than this is refused unless ``max_events``
#: says how many events to keep.
MAX_OPTIONS = 400
MAX_ITEMS = 400
#: Events kept by default for a small problem.
DEFAULT_MAX_EVENTS = 20_000

COLUMNS = (
    "event",
    "level",
    "item",
    "item_name",
    "option",
    "option_name",
    "covered",
    "branches",
    "solution",
)


def trace(problem, *, max_events=None, limit=None, as_frame=None):
    """Run the search with the kernel's trace table on and return its events.

    Parameters
    ----------
    problem : ExactCover
    max_events : int, optional
        Keep at most this many events; the search stops once it has entered that
        many nodes (each node writes at least one event). Required for problems with
        more than :data:`MAX_OPTIONS` options or :data:`MAX_ITEMS` items; defaults
        to :data:`DEFAULT_MAX_EVENTS`. A warning says when the record was cut short.
    limit : int, optional
        Stop after this many solutions (default: search everything).
    as_frame : bool, optional
        True for a pandas DataFrame, False for a structured NumPy array; by default
        a DataFrame when pandas can be imported.

    Returns
    -------
    pandas.DataFrame or numpy.ndarray
        One row per event, in the order they happened, with columns

        * ``event``: ``'choose'``, ``'try'``, ``'backtrack'`` or ``'solution'``;
        * ``level``: search depth (0 at the root);
        * ``item``, ``item_name``: the chosen (or backtracked) item, as the caller
          numbers and names it (-1 and ``''`` for a solution);
        * ``option``, ``option_name``: the option tried (-1 and ``''`` otherwise);
          an option without a name is labelled by its items;
        * ``covered``: names of the items this step covers (the chosen item for
          ``choose``, the option's other items for ``try``);
        * ``branches``: for ``choose``, the options the item has left (-1 otherwise);
        * ``solution``: for ``solution``, its running number (-1 otherwise).

        In a DataFrame, what does not apply to a row is a missing value (``<NA>``)
        instead of -1 or ``''``: the numbers are nullable integers (``Int64``) and the
        names strings. A DataFrame also carries ``attrs["stats"]`` (the search's
        :class:`~numbadlx.SearchStats`) and ``attrs["truncated"]``. The problem's
        ``stats`` are set as by :meth:`~numbadlx.ExactCover.count`.

    Examples
    --------
    Knuth's example: options A..F over items 1..7.

    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6],
    ...                       [1, 6]], item_names="1234567", option_names="ABCDEF")
    >>> table = trace(problem, as_frame=False)
    >>> [f"{e} {i}{o}" for e, i, o in zip(table["event"][:3], table["item_name"][:3],
    ...                                    table["option_name"][:3])]
    ['choose 1', 'try 1A', 'choose 2']
    >>> int((table["event"] == "solution").sum()), problem.stats.nodes
    (1, 5)
    """
    if max_events is None:
        if problem.n_options > MAX_OPTIONS or problem.n_items > MAX_ITEMS:
            raise ValueError(
                f"the problem has {plural(problem.n_options, 'option', spec=',')} and "
                f"{plural(problem.n_items, 'item', spec=',')}, too big to trace by default "
                f"(at most {MAX_OPTIONS} options and "
                f"{MAX_ITEMS} items); pass max_events=... to record the first events"
            )
        max_events = DEFAULT_MAX_EVENTS
    max_events = check_count(max_events, "max_events")
    if limit is not None:
        limit = check_count(limit, "limit")
    # One spare row tells whether events were dropped once the table was full.
    search = Search(problem, trace_rows=max_events + 1, max_nodes=max_events)
    search.run(0 if limit is None else int(limit), 0)
    problem.stats = search.summary()
    written = int(search.state[2])
    truncated = written > max_events or search.status == "budget"
    if truncated:
        warnings.warn(
            f"the trace was cut short after {plural(min(written, max_events), 'event', spec=',')} "
            f"({plural(problem.stats.nodes, 'node', spec=',')}); pass a larger max_events "
            f"to see more",
            stacklevel=2,
        )
    rows = search.trace[: min(written, max_events)]
    table = _decode(problem, rows)
    if as_frame is None:
        try:
            import pandas  # noqa: F401

            as_frame = True
        except ImportError:
            as_frame = False
    if not as_frame:
        return table
    import pandas as pd

    frame = pd.DataFrame({name: _column(pd, table, name) for name in COLUMNS})
    frame.index.name = "step"
    frame.attrs["stats"] = problem.stats
    frame.attrs["truncated"] = truncated
    return frame


def _column(pd, table, name):
    """One DataFrame column: numbers as nullable integers and names as strings, with
    missing values where the structured array holds -1 or ``''``."""
    values = table[name]
    if name in ("event", "level"):
        return values.astype(str) if name == "event" else values
    if values.dtype.kind == "U":
        return pd.array([v if v else None for v in values.tolist()], dtype="string")
    return pd.array([v if v >= 0 else None for v in values.tolist()], dtype="Int64")


def _decode(problem, rows):
    """Kernel rows -> a structured array in the caller's numbering."""
    order = problem.item_order  # internal item i is caller item order[i - 1]
    item_labels = (
        list(problem.item_names)
        if problem.item_names is not None
        else [str(i) for i in range(problem.n_items)]
    )
    option_labels = {}

    def option_label(k):
        if k not in option_labels:
            if problem.option_names is not None:
                option_labels[k] = problem.option_names[k]
            else:
                option_labels[k] = " ".join(item_labels[i] for i in problem.option(k))
        return option_labels[k]

    count = rows.shape[0]
    event = rows[:, 0]
    internal = rows[:, 2]
    item = (
        np.where(internal > 0, order[np.clip(internal - 1, 0, None)], -1)
        if problem.n_items
        else np.full(count, -1)
    )
    option = rows[:, 3]
    item_name, option_name, covered = [], [], []
    for e, i, k in zip(event.tolist(), item.tolist(), option.tolist()):
        item_name.append(item_labels[i] if i >= 0 else "")
        option_name.append(option_label(k) if k >= 0 else "")
        if e == _kernel.EV_CHOOSE:
            covered.append(item_labels[i])
        elif e == _kernel.EV_TRY and k >= 0:
            covered.append(" ".join(item_labels[j] for j in problem.option(k) if j != i))
        else:
            covered.append("")

    def text_dtype(values):
        return f"U{max((len(v) for v in values), default=1) or 1}"

    dtype = [
        ("event", "U9"),
        ("level", np.int64),
        ("item", np.int64),
        ("item_name", text_dtype(item_name)),
        ("option", np.int64),
        ("option_name", text_dtype(option_name)),
        ("covered", text_dtype(covered)),
        ("branches", np.int64),
        ("solution", np.int64),
    ]
    table = np.zeros(count, dtype=dtype)
    table["event"] = np.array(EVENTS)[event] if count else []
    table["level"] = rows[:, 1]
    table["item"] = item
    table["item_name"] = item_name
    table["option"] = option
    table["option_name"] = option_name
    table["covered"] = covered
    table["branches"] = np.where(event == _kernel.EV_CHOOSE, rows[:, 4], -1)
    table["solution"] = np.where(event == _kernel.EV_SOLUTION, rows[:, 4], -1)
    return table
