"""Rich display for Jupyter: HTML (and plain text) views of grids, results and problems.

Nothing here needs more than NumPy and the standard library. Jupyter calls an
object's ``_repr_html_`` to show it; the package's classes delegate to the functions
below:

* :func:`grid_table` -- a :class:`~numbadlx.sudoku.Grid` of any size, givens told
  apart from filled digits, box borders drawn (:func:`grid_html` for a puzzle given
  as text or an array);
* :func:`sudoku_result_html` -- a :class:`~numbadlx.sudoku.SudokuResult`: counts per
  status, throughput, effort and the first rows;
* :func:`exact_cover_html` and :class:`CoverMatrix` -- an
  :class:`~numbadlx.ExactCover`: sizes, item names and, for small problems, the 0/1
  matrix with a solution's options marked.

Every name that comes from the caller (item, option and colour names) is escaped
with :func:`html.escape`.

Examples
--------
>>> from numbadlx.sudoku import Grid
>>> grid_table(Grid("1000" "0010" "0000" "0000")).count('class="given"')
2
"""

import html

import numpy as np

from ..core.search import Search, decode_solution
from ..sudoku import Grid, Status, format_line

__all__ = [
    "CoverMatrix",
    "grid_html",
    "grid_table",
    "sudoku_result_html",
    "exact_cover_html",
    "MATRIX_MAX_OPTIONS",
    "MATRIX_MAX_ITEMS",
]

#: Problems up to this many options and items are drawn as a 0/1 matrix.
MATRIX_MAX_OPTIONS = 60
MATRIX_MAX_ITEMS = 60
# Node budget for the solution :func:`exact_cover_html` looks for on its own.
_AUTO_SOLVE_NODES = 20_000
# A text line in a results table is cut to this many characters.
_LINE_CHARS = 90

_GIVEN_COLOUR = "#111"
_FILLED_COLOUR = "#1d5fbf"
_CLASH_COLOUR = "#c0392b"


def _esc(value):
    return html.escape(str(value), quote=True)


# --------------------------------------------------------------------- grids
def grid_html(puzzle, solution=None, box=None):
    """An HTML table for one Sudoku grid.

    Parameters
    ----------
    puzzle : array_like or str
        The givens (anything :func:`numbadlx.sudoku.parse` reads as one grid).
    solution : array_like or str, optional
        A filled grid; its digits in blank cells are shown as *filled* (another
        colour, class ``filled``). A digit that contradicts a given is shown in red
        with class ``clash``.
    box : (rows, cols), optional
        Box shape when n is not a square.

    Returns
    -------
    str
        A ``<table class="numbadlx-grid">`` with one ``<td>`` per cell, each of class
        ``given``, ``filled``, ``blank`` or ``clash``; thick borders between boxes.

    Examples
    --------
    >>> text = grid_html("1000" "0010" "0000" "0000")
    >>> text.count("<td"), text.count('class="blank"')
    (16, 14)
    """
    return grid_table(Grid(puzzle, solution=solution, box=box))


def grid_table(grid):
    """The HTML table of a :class:`~numbadlx.sudoku.Grid` (its ``_repr_html_``)."""
    n = grid.n
    rows, cols = grid.box
    size = 1.9 if n <= 9 else 1.6 if n <= 16 else 1.3
    font = 1.0 if n <= 16 else 0.8
    style = {
        "given": f"color:{_GIVEN_COLOUR};font-weight:bold",
        "filled": f"color:{_FILLED_COLOUR}",
        "clash": f"color:{_CLASH_COLOUR};font-weight:bold;text-decoration:line-through",
        "blank": "",
    }
    thin, thick = "1px solid #bbb", "2px solid #333"
    cells = grid.cells()
    out = [
        f'<table class="numbadlx-grid" style="border-collapse:collapse;'
        f"border:{thick};font-family:monospace;font-size:{font}em;"
        f'margin:0.3em 0">',
        f'<caption style="white-space:nowrap;font-size:0.8em;'
        f'font-family:sans-serif">{_esc(grid.summary())}</caption>',
    ]
    for r in range(n):
        out.append("<tr>")
        for c in range(n):
            text, kind = cells[r * n + c]
            right = thick if (c + 1) % cols == 0 and c + 1 < n else thin
            bottom = thick if (r + 1) % rows == 0 and r + 1 < n else thin
            out.append(
                f'<td class="{kind}" style="width:{size}em;height:{size}em;'
                f"padding:0;text-align:center;border:{thin};"
                f"border-right:{right};border-bottom:{bottom};"
                f'{style[kind]}">{_esc(text)}</td>'
            )
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


# ------------------------------------------------------------------- results
def _cut(text, limit=_LINE_CHARS):
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def sudoku_result_html(result, rows=5):
    """HTML summary of a :class:`~numbadlx.sudoku.SudokuResult`.

    Shows the size, limit, threads, wall time and throughput; a table of how many
    puzzles got each status; the search effort (nodes per puzzle); and the first
    ``rows`` puzzles with their status, solution count, nodes, puzzle and solution.

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> result = sudoku.solve(["0200" "0040" "3400" "0000", "11" + "0" * 14])
    >>> text = sudoku_result_html(result)
    >>> "<td>UNIQUE</td>" in text and "<td>INVALID</td>" in text
    True
    """
    total = len(result)
    box = f"{result.box[0]}x{result.box[1]}"
    rate = result.puzzles_per_second
    rate_text = f"{rate:,.0f} puzzles/s" if np.isfinite(rate) else "-"
    out = [
        '<div class="numbadlx-result">',
        f"<p><b>SudokuResult</b>: {total:,} puzzles of {result.n}x{result.n} "
        f"({box} boxes), limit {result.limit}, {result.threads} thread(s), "
        f"{result.seconds:.3f} s, {rate_text}</p>",
        '<table class="status"><tr><th>status</th><th>puzzles</th><th>share</th></tr>',
    ]
    for name, count in result.status_counts().items():
        share = count / total if total else 0.0
        out.append(
            f'<tr class="{_esc(name.lower())}"><td>{_esc(name)}</td>'
            f'<td style="text-align:right">{count:,}</td>'
            f'<td style="text-align:right">{share:.1%}</td></tr>'
        )
    out.append("</table>")
    searched = result.status != Status.INVALID
    if total and searched.any():
        nodes = result.nodes[searched]
        out.append(
            '<table class="effort"><tr><th>nodes per puzzle</th><th>min</th>'
            "<th>median</th><th>mean</th><th>max</th></tr>"
            f"<tr><td>{nodes.size:,} searched</td><td>{int(nodes.min()):,}</td>"
            f"<td>{float(np.median(nodes)):,.0f}</td><td>{nodes.mean():,.1f}</td>"
            f"<td>{int(nodes.max()):,}</td></tr></table>"
        )
    shown = min(rows, total)
    if shown:
        names = result.status_names()
        out.append(
            '<table class="rows"><tr><th>#</th><th>status</th><th>solutions</th>'
            "<th>nodes</th><th>puzzle</th><th>solution</th></tr>"
        )
        for k in range(shown):
            puzzle = _cut(format_line(result.puzzles[k], blank="."))
            solution = _cut(format_line(result.solutions[k])) if result.counts[k] else ""
            out.append(
                f"<tr><td>{k}</td><td>{_esc(names[k])}</td>"
                f"<td>{int(result.counts[k])}</td><td>{int(result.nodes[k]):,}</td>"
                f'<td style="font-family:monospace">{_esc(puzzle)}</td>'
                f'<td style="font-family:monospace">{_esc(solution)}</td></tr>'
            )
        out.append("</table>")
        if total > shown:
            out.append(f"<p>... {total - shown:,} more</p>")
    out.append("</div>")
    return "".join(out)


# ------------------------------------------------------------- exact cover
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
