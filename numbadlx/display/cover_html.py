"""HTML (and plain text) views of an exact-cover problem for Jupyter.

:meth:`numbadlx.ExactCover._repr_html_` calls :func:`exact_cover_html`: sizes, item
names and, for small problems, the options x items 0/1 matrix with a solution's options
marked. :class:`CoverMatrix` is the same matrix as an object of its own, drawn as text
too. Nothing here needs more than NumPy, the standard library and
:mod:`numbadlx.core`; every name that comes from the caller (item, option and colour
names) is escaped with :func:`html.escape`.

Examples
--------
>>> from numbadlx import ExactCover
>>> text = exact_cover_html(ExactCover([[0, 1], [0], [1]]))
>>> text.count('<tr class="chosen"')
1
"""

import numpy as np

from ..core.search import Search, decode_solution
from ._escape import text as _esc

__all__ = ["CoverMatrix", "exact_cover_html", "MATRIX_MAX_OPTIONS", "MATRIX_MAX_ITEMS"]

#: Problems up to this many options and items are drawn as a 0/1 matrix.
MATRIX_MAX_OPTIONS = 60
MATRIX_MAX_ITEMS = 60
# Node budget for the solution :func:`exact_cover_html` looks for on its own.
_AUTO_SOLVE_NODES = 20_000


def _item_labels(problem):
    if problem.item_names is not None:
        return list(problem.item_names)
    return [str(i) for i in range(problem.n_items)]


def _option_labels(problem):
    if problem.option_names is not None:
        return list(problem.option_names)
    return [str(k) for k in range(problem.n_options)]


def _find_solution(problem):
    """A first solution within a small node budget, without touching
    ``problem.stats``; None if there is none or it is not found quickly."""
    search = Search(problem, max_nodes=_AUTO_SOLVE_NODES)
    _, found, record = search.run(1, 1)
    return decode_solution(record[0]) if found else None


def _chosen(problem, solution):
    chosen = np.zeros(problem.n_options, dtype=bool)
    if solution is not None:
        chosen[np.asarray(solution, dtype=np.int64)] = True
    return chosen


def _is_small(problem):
    return problem.n_options <= MATRIX_MAX_OPTIONS and problem.n_items <= MATRIX_MAX_ITEMS


def _cell_texts(problem):
    """Per option, per item: the text of the matrix cell ('' when absent)."""
    cells = [[""] * problem.n_items for _ in range(problem.n_options)]
    for k in range(problem.n_options):
        items = problem.option(k)
        colours = problem.option_colours(k)
        for item, colour in zip(items, colours):
            if colour == 0:
                cells[k][item] = "1"
            elif problem.colour_names is not None:
                cells[k][item] = problem.colour_names[colour - 1]
            else:
                cells[k][item] = str(int(colour))
    return cells


def exact_cover_html(problem, solution=None, *, find_solution=True):
    """HTML view of an :class:`~numbadlx.ExactCover`.

    Sizes and the algorithm, the item names (primary and secondary apart) and, when
    the problem has at most :data:`MATRIX_MAX_OPTIONS` options and
    :data:`MATRIX_MAX_ITEMS` items, the options x items matrix: ``1`` where an
    option holds an item (the colour's name for coloured entries), rows of the
    solution marked (class ``chosen``), secondary item columns marked (class
    ``secondary``).

    Parameters
    ----------
    problem : ExactCover
    solution : sequence of int, optional
        Option indices to mark.
    find_solution : bool, default True
        For a small problem without ``solution``, look for one (with a small node
        budget; ``problem.stats`` is left as it was).

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6],
    ...                       [1, 6]])
    >>> text = exact_cover_html(problem)
    >>> text.count('<tr class="chosen"'), text.count('<tr class="option"')
    (3, 3)
    """
    small = _is_small(problem)
    if solution is None and small and find_solution:
        solution = _find_solution(problem)
    items = _item_labels(problem)
    primary = [name for name, sec in zip(items, problem.secondary) if not sec]
    secondary = [name for name, sec in zip(items, problem.secondary) if sec]
    out = [
        '<div class="numbadlx-exact-cover">',
        f"<p><b>ExactCover</b> (Algorithm {problem.algorithm}): {problem.n_options:,} "
        f"options, {problem.n_primary:,} primary + {problem.n_secondary:,} secondary "
        f"items, {problem.indices.size:,} entries</p>",
    ]
    for title, names in (("primary items", primary), ("secondary items", secondary)):
        if names:
            listed = ", ".join(_esc(name) for name in names[:40])
            more = f", ... ({len(names) - 40:,} more)" if len(names) > 40 else ""
            out.append(f"<p>{title}: {listed}{more}</p>")
    if solution is not None:
        labels = _option_labels(problem)
        picked = [int(k) for k in solution]
        listed = ", ".join(
            f"{k} ({_esc(labels[k])})" if problem.option_names else str(k) for k in picked[:40]
        )
        more = ", ..." if len(picked) > 40 else ""
        out.append(f"<p>solution: options {listed}{more}</p>")
    if small:
        out.append(_matrix_html(problem, _chosen(problem, solution), items))
    out.append("</div>")
    return "".join(out)


def _matrix_html(problem, chosen, items):
    labels = _option_labels(problem)
    cells = _cell_texts(problem)
    border = "border:1px solid #ddd;padding:1px 4px;text-align:center"
    out = [
        '<table class="numbadlx-matrix" style="border-collapse:collapse;font-family:monospace">',
        "<tr><th></th>",
    ]
    for item, name in enumerate(items):
        kind = "secondary" if problem.secondary[item] else "primary"
        extra = ";color:#777;font-style:italic" if kind == "secondary" else ""
        out.append(f'<th class="{kind}" style="{border}{extra}">{_esc(name)}</th>')
    out.append("</tr>")
    if problem.bounds is not None:
        out.append('<tr class="bounds"><th></th>')
        row = 0
        for item in range(problem.n_items):
            text = ""
            if not problem.secondary[item]:
                u, v = problem.bounds[row]
                row += 1
                text = f"{u}..{v}"
            out.append(f'<td style="{border};color:#777">{text}</td>')
        out.append("</tr>")
    for k in range(problem.n_options):
        kind = "chosen" if chosen[k] else "option"
        shade = ";background:#ffe9a8;font-weight:bold" if chosen[k] else ""
        out.append(
            f'<tr class="{kind}"><th style="{border};text-align:left{shade}">{_esc(labels[k])}</th>'
        )
        for item in range(problem.n_items):
            text = cells[k][item]
            on = ";background:#ffe9a8" if chosen[k] and text else ""
            out.append(f'<td style="{border}{on}">{_esc(text)}</td>')
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _matrix_text(problem, chosen, items):
    labels = _option_labels(problem)
    cells = _cell_texts(problem)
    widths = [
        max(len(name), max((len(cells[k][i]) for k in range(problem.n_options)), default=1))
        for i, name in enumerate(items)
    ]
    left = max((len(label) for label in labels), default=0)
    lines = ["  " + " " * left + " " + " ".join(name.rjust(w) for name, w in zip(items, widths))]
    for k in range(problem.n_options):
        mark = "* " if chosen[k] else "  "
        row = " ".join((cells[k][i] or ".").rjust(w) for i, w in enumerate(widths))
        lines.append(mark + labels[k].ljust(left) + " " + row)
    return "\n".join(lines)


class CoverMatrix:
    """An exact-cover problem shown as its options x items 0/1 matrix, with the
    options of a solution marked (``*`` in text, highlighted rows in HTML).

    Parameters
    ----------
    problem : ExactCover
    solution : sequence of int, optional
        Option indices to mark; by default a small problem's first solution.
    find_solution : bool, default True
        Look for a solution when none is given.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> problem = ExactCover([[0, 1], [0], [1]], item_names=["x", "y"],
    ...                      option_names=["xy", "x", "y"])
    >>> CoverMatrix(problem)
         x y
    * xy 1 1
      x  1 .
      y  . 1
    """

    def __init__(self, problem, solution=None, *, find_solution=True):
        self.problem = problem
        if solution is None and find_solution and _is_small(problem):
            solution = _find_solution(problem)
        self.solution = None if solution is None else np.asarray(solution, dtype=np.int64)

    def _repr_html_(self):
        return exact_cover_html(self.problem, self.solution, find_solution=False)

    def __repr__(self):
        problem = self.problem
        if not _is_small(problem):
            return repr(problem)
        return _matrix_text(problem, _chosen(problem, self.solution), _item_labels(problem))
