"""HTML views of Sudoku grids and bulk results for Jupyter.

The Sudoku classes delegate their ``_repr_html_`` to the functions here:

* :func:`grid_table` -- a :class:`~numbadlx.sudoku.Grid` of any size, givens told
  apart from filled digits, box borders drawn (:func:`grid_html` for a puzzle given
  as text or an array); a grid with a variant's rules is drawn as an SVG picture
  instead, with the marks of its rules;
* :func:`sudoku_result_html` -- a :class:`~numbadlx.sudoku.SudokuResult`: counts per
  status, throughput, effort and the first rows.

Nothing here needs more than NumPy and the standard library; text from puzzles is
escaped with :func:`html.escape`.

Examples
--------
>>> from numbadlx.sudoku import Grid
>>> grid_table(Grid("1000" "0010" "0000" "0000")).count('class="given"')
2
"""

import numpy as np

from ..core.words import plural
from ..sudoku import Grid, Status, format_line
from ._escape import text as _esc
from ._sudoku_svg import grid_svg

__all__ = ["grid_html", "grid_table", "sudoku_result_html"]

# A text line in a results table is cut to this many characters.
_LINE_CHARS = 90

_GIVEN_COLOUR = "#111"
_FILLED_COLOUR = "#1d5fbf"
_CLASH_COLOUR = "#c0392b"


# --------------------------------------------------------------------- grids
def grid_html(puzzle, solution=None, box=None, rules=None):
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
    rules : Rules, optional
        A variant's rules: the grid is then an SVG picture with region borders,
        diagonals, cages and their totals, thermometers, dots, X and V, odd and even
        cells, and the setters' rules (arrows, coloured lines, clues outside the grid
        in a margin, quadruples, inequality signs, minimums and maximums, extra
        regions, candidates; the negative constraint in a note), each element of a
        class naming it: ``border``, ``cage``, ``dot white``, ``arrow``, ``whisper``...

    Returns
    -------
    str
        A ``<table class="numbadlx-grid">`` with one ``<td>`` per cell, each of class
        ``given``, ``filled``, ``blank`` or ``clash``; thick borders between boxes. With
        rules, a ``<div class="numbadlx-grid">`` holding the ``<svg>``.

    Examples
    --------
    >>> text = grid_html("1000" "0010" "0000" "0000")
    >>> text.count("<td"), text.count('class="blank"')
    (16, 14)
    >>> from numbadlx.sudoku import Rules
    >>> text = grid_html("1000" "0010" "0000" "0000", rules=Rules(thermos=[[0, 1, 2]]))
    >>> text.count('class="thermo"'), text.count('class="border"')
    (1, 8)
    """
    return grid_table(Grid(puzzle, solution=solution, box=box, rules=rules))


def grid_table(grid):
    """The HTML table of a :class:`~numbadlx.sudoku.Grid` (its ``_repr_html_``), or
    its SVG picture when it has a variant's rules."""
    if getattr(grid, "rules", None) is not None and grid.rules.kinds:
        return grid_svg(grid)
    n = grid.n
    rows, cols = grid.box or (n, n)  # no boxes: no thick borders inside
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
    ``rows`` puzzles with their status, solution count, nodes, puzzle and solution (for
    a row that could not be read, its input text as the puzzle).

    Examples
    --------
    >>> from numbadlx import sudoku
    >>> result = sudoku.solve(["0200" "0040" "3400" "0000", "11" + "0" * 14])
    >>> text = sudoku_result_html(result)
    >>> "<td>UNIQUE</td>" in text and "<td>INVALID</td>" in text
    True
    """
    total = len(result)
    box = f"{result.box[0]}x{result.box[1]} boxes" if result.box else "no boxes"
    rate = result.puzzles_per_second
    rate_text = plural(rate, "puzzle/s", spec=",.0f") if np.isfinite(rate) else "-"
    out = [
        '<div class="numbadlx-result">',
        f"<p><b>SudokuResult</b>: {plural(total, 'puzzle', spec=',')} of {result.n}x{result.n} "
        f"({box}), limit {result.limit}, {plural(result.threads, 'thread')}, "
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
        texts = getattr(result, "texts", {})
        for k in range(shown):
            # an unreadable row shows what it was, not an empty grid
            puzzle = _cut(texts[k] if k in texts else format_line(result.puzzles[k], blank="."))
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
