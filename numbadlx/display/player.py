"""Watch Dancing Links work: a step-by-step matrix player that needs no kernel.

:func:`play` records the search with :func:`numbadlx.core.trace.trace` (the production
kernel with its trace table on), expands every event into the steps a teacher would
draw, and returns a :class:`MatrixPlayer`. Its ``_repr_html_`` is one self-contained
``<div>``: the options x items 0/1 matrix as an HTML table, the steps as JSON and a
small script that redraws the table at each step (the script and the styles are the
package files ``assets/player.js`` and ``assets/player.css``). No kernel, no network
and no library is needed, so the player still works in an exported notebook or a
static documentation page; :meth:`MatrixPlayer.save` writes it as a page of its own.

The steps, from the trace's ``choose``, ``try``, ``backtrack`` and ``solution``
events:

========== ===========================================================================
step       what is drawn
========== ===========================================================================
choose     the item with fewest options left (its column outlined, its options, the
           current level's choices, listed beside the matrix)
try        the option tried in red, the items it covers in blue, the options that
           clash with it (share one of those items) in purple
cover      the option joins the partial solution; its items and the clashing
           options leave the matrix (faded, or hidden with the check box)
uncover    the option leaves the partial solution; what it removed comes back
backtrack  the chosen item has no option left to try: the search goes up a level
solution   every primary item is covered; the solution's options are marked
========== ===========================================================================

Colours (Algorithm C) follow Knuth: an option that gives a secondary item the same
colour as the partial solution does not clash with it. Multiplicities (Algorithm M)
are not drawn.

Every player has its own DOM ids (``numbadlx-player-<hex>``), so several players can
sit on one page. Elements carry stable classes for tests: rows are
``tr[data-option=k]`` with classes ``removed``, ``chosen``, ``clash``,
``candidate``, ``picked``, ``solution``, ``undone``; cells ``td[data-item=i]`` with
``covered``, ``removed``, ``focus``.

Examples
--------
>>> from numbadlx import ExactCover
>>> problem = ExactCover([[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]],
...                      item_names="1234567", option_names="ABCDEF")
>>> player = play(problem)
>>> [step.kind for step in player.steps[:4]]
['choose', 'try', 'cover', 'choose']
>>> player.steps[-1].kind, player.truncated
('backtrack', False)
"""

from __future__ import annotations

import uuid
import warnings
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..core.names import option_text
from ..core.trace import trace
from ..core.words import plural
from ._escape import script_json
from ._escape import text as _esc

__all__ = [
    "MatrixPlayer",
    "PlayerStep",
    "play",
    "PLAYER_MAX_CELLS",
    "PLAYER_MAX_OPTIONS",
    "PLAYER_MAX_ITEMS",
    "PLAYER_DEFAULT_EVENTS",
]

#: A problem is drawn only if options x items is at most this (a browser redraws every
#: cell at each step; a 6x6 Sudoku without givens has 216 x 144 = 31,104).
PLAYER_MAX_CELLS = 40_000
#: ... and it has at most this many options and items.
PLAYER_MAX_OPTIONS = 400
PLAYER_MAX_ITEMS = 200
#: Trace events kept by default; a longer search is cut there (and the player says so).
PLAYER_DEFAULT_EVENTS = 2_000

KINDS = ("choose", "try", "cover", "uncover", "backtrack", "solution")


@dataclass(frozen=True)
class PlayerStep:
    """One step of the player.

    Attributes
    ----------
    kind : str
        ``'choose'``, ``'try'``, ``'cover'``, ``'uncover'``, ``'backtrack'`` or
        ``'solution'``.
    level : int
        Search depth (0 at the root).
    item : int
        The item chosen at this level (caller's numbering), -1 for a solution.
    option : int
        The option tried, covered or uncovered, -1 otherwise.
    stack : tuple of int
        The partial solution drawn at this step (options chosen at the levels above,
        and for ``cover`` and ``solution`` the current one too).
    tried : tuple of int
        Options of this level's item tried so far (the current one included).
    event : int
        Row of the trace this step comes from.
    text : str
        The caption shown above the matrix.

    Examples
    --------
    >>> PlayerStep("try", 0, 0, 1, (), (1,), 1, "try B").kind
    'try'
    """

    kind: str
    level: int
    item: int
    option: int
    stack: tuple
    tried: tuple
    event: int
    text: str


def _labels(problem):
    items = (
        list(problem.item_names)
        if problem.item_names is not None
        else [str(i) for i in range(problem.n_items)]
    )
    if problem.option_names is not None:
        options = list(problem.option_names)
    else:
        options = [str(k) for k in range(problem.n_options)]
    return items, options


def _check_size(problem):
    if problem.algorithm == "M":
        raise ValueError(
            "the player draws Algorithms X and C; this problem has multiplicities "
            "(Algorithm M), whose steps it does not draw: use problem.trace() instead"
        )
    cells = problem.n_options * problem.n_items
    if (
        cells > PLAYER_MAX_CELLS
        or problem.n_options > PLAYER_MAX_OPTIONS
        or problem.n_items > PLAYER_MAX_ITEMS
    ):
        raise ValueError(
            f"the problem has {plural(problem.n_options, 'option', spec=',')} x "
            f"{plural(problem.n_items, 'item', spec=',')} "
            f"= {cells:,} matrix cells, too many to redraw in a browser at every step "
            f"(the player takes at most {PLAYER_MAX_OPTIONS} options, {PLAYER_MAX_ITEMS} "
            f"items and {PLAYER_MAX_CELLS:,} cells); play a smaller instance, or read "
            f"problem.trace(max_events=...) as a table"
        )


def _steps(problem, table):
    """Trace events -> player steps (see the module docstring)."""
    items, options = _labels(problem)

    def names(ks):
        return ", ".join(options[k] for k in ks)

    def item_list(k, but=-1):
        return " ".join(items[i] for i in problem.option(k).tolist() if i != but)

    steps = []
    stack = []  # option chosen at each level above the current one
    level_item = {}
    tried = {}
    for row, (event, level, item, option, branches, number) in enumerate(
        zip(
            table["event"].tolist(),
            table["level"].tolist(),
            table["item"].tolist(),
            table["option"].tolist(),
            table["branches"].tolist(),
            table["solution"].tolist(),
        )
    ):

        def add(kind, text, option=-1, item=item, level=level, row=row):
            steps.append(
                PlayerStep(
                    kind,
                    level,
                    item,
                    option,
                    tuple(stack),
                    tuple(tried.get(level, ())),
                    row,
                    text,
                )
            )

        def uncover(level=level):
            previous = stack[level]
            del stack[level:]
            add(
                "uncover",
                f"Level {level}: uncover option {options[previous]}: items "
                f"{item_list(previous)} and the options it removed come back.",
                option=previous,
            )

        if event == "choose":
            del stack[level:]
            level_item[level] = item
            tried[level] = []
            if branches == 0:
                text = (
                    f"Level {level}: item {items[item]} has no option left: a dead end, "
                    f"nothing to try here."
                )
            else:
                text = (
                    f"Level {level}: item {items[item]} has the fewest options left "
                    f"({branches}); choose it. Its options are this level's choices."
                )
            add("choose", text)
        elif event == "try":
            if len(stack) > level:
                uncover()
            tried.setdefault(level, []).append(option)
            add(
                "try",
                f"Level {level}: try option {options[option]} for item {items[item]}. "
                f"Red: the option; blue: the items it covers ({item_list(option)}); "
                f"purple: the options that clash with it.",
                option=option,
            )
            stack.append(option)
            add(
                "cover",
                f"Level {level}: cover items {item_list(option)}: they and the clashing "
                f"options leave the matrix; {options[option]} joins the partial solution.",
                option=option,
            )
        elif event == "backtrack":
            if len(stack) > level:
                uncover()
            where = f"back to level {level - 1}" if level > 0 else "the search is over"
            add(
                "backtrack",
                f"Level {level}: item {items[item]} has no option left to try: uncover it; "
                f"{where}.",
            )
        else:  # solution
            add(
                "solution",
                f"Solution {number}: every primary item is covered, by options {names(stack)}.",
                item=-1,
            )
    return steps


class MatrixPlayer:
    """A recorded search, drawn as a self-contained HTML/JavaScript player.

    Made by :func:`play` (or :meth:`numbadlx.ExactCover.play`). Jupyter shows it
    through ``_repr_html_``; :meth:`save` writes a page of its own; :meth:`html`
    gives the ``<div>`` to put in a page.

    Attributes
    ----------
    problem : ExactCover
    steps : list of PlayerStep
    truncated : bool
        True when the search was longer than the events kept.
    dom_id : str
        The id of the player's outer ``<div>``; its parts have ids
        ``dom_id + "-next"``, ``"-prev"``, ``"-first"``, ``"-last"``, ``"-play"``,
        ``"-slider"``, ``"-hide"``, ``"-caption"``, ``"-counter"``, ``"-choices"``,
        ``"-solution"`` and ``"-matrix"``.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> player = play(ExactCover([[0, 1], [0], [1]]))
    >>> len(player), player.html().count("<script>")
    (15, 1)
    """

    def __init__(self, problem: Any, steps: list, truncated: bool, solutions: int):
        self.problem = problem
        self.steps = steps
        self.truncated = truncated
        self.solutions = solutions
        self.dom_id = f"numbadlx-player-{uuid.uuid4().hex[:12]}"

    def __len__(self) -> int:
        return len(self.steps)

    def __repr__(self) -> str:
        cut = ", cut short" if self.truncated else ""
        return (
            f"MatrixPlayer({plural(len(self.steps), 'step')} over "
            f"{plural(self.problem.n_options, 'option')} x {plural(self.problem.n_items, 'item')}, "
            f"{plural(self.solutions, 'solution')}{cut})"
        )

    def _repr_html_(self) -> str:
        return self.html()

    def html(self) -> str:
        """The player as one ``<div>`` (styles, the matrix, the steps and the script).

        Examples
        --------
        >>> from numbadlx import ExactCover
        >>> text = play(ExactCover([[0], [0]])).html()
        >>> text.startswith('<div class="numbadlx-player"')
        True
        """
        return _player_html(self)

    def save(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the player as a complete HTML page (UTF-8) and return its path.

        A file that holds something (not empty) is replaced only with ``overwrite``;
        else FileExistsError and the file is left as it is.

        Examples
        --------
        >>> import tempfile, os
        >>> from numbadlx import ExactCover
        >>> folder = tempfile.mkdtemp()
        >>> path = play(ExactCover([[0], [0]])).save(os.path.join(folder, "dance.html"))
        >>> path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
        True
        """
        path = Path(path)
        if not overwrite and path.is_file() and path.stat().st_size:
            raise FileExistsError(
                f"{path} exists ({plural(path.stat().st_size, 'byte')}); pass overwrite=True "
                f"to replace it, or choose another name"
            )
        page = (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            "<title>numbadlx: Dancing Links step by step</title></head>"
            f'<body style="font-family:sans-serif">{self.html()}</body></html>\n'
        )
        path.write_text(page, encoding="utf-8")
        return path


def play(problem: Any, *, max_events: int | None = None, limit: int | None = None) -> MatrixPlayer:
    """Record a small problem's search and return a :class:`MatrixPlayer` for it.

    Parameters
    ----------
    problem : ExactCover
        Algorithm X or C (no multiplicities), at most :data:`PLAYER_MAX_OPTIONS`
        options, :data:`PLAYER_MAX_ITEMS` items and :data:`PLAYER_MAX_CELLS` cells.
    max_events : int, optional
        Trace events to keep (default :data:`PLAYER_DEFAULT_EVENTS`); a longer search
        is cut there and the player says so.
    limit : int, optional
        Stop the search after this many solutions.

    Returns
    -------
    MatrixPlayer

    Raises
    ------
    ValueError
        For a problem too big to draw, or one with multiplicities.

    Examples
    --------
    A 4x4 Sudoku through its exact-cover form:

    >>> from numbadlx import sudoku
    >>> problem, cells, digits = sudoku.to_exact_cover("1000" "0010" "0300" "0004")
    >>> player = play(problem, limit=1)
    >>> sum(step.kind == "solution" for step in player.steps)
    1
    """
    _check_size(problem)
    if max_events is None:
        max_events = PLAYER_DEFAULT_EVENTS
    # a cut trace is reported by the player itself, not by trace()'s warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = trace(problem, max_events=max_events, limit=limit, as_frame=False)
    truncated = any("cut short" in str(warning.message) for warning in caught)
    steps = _steps(problem, table)
    solutions = sum(step.kind == "solution" for step in steps)
    return MatrixPlayer(problem, steps, truncated, solutions)


# ------------------------------------------------------------------ HTML
@cache
def _asset(name):
    """The text of ``assets/<name>``, a package file beside this module (read once).

    ``player.css`` writes ``#ID`` for the player's element, ``player.js`` the string
    ``"ID"`` for its id, ``"ID-"`` for the prefix of its parts' ids and ``DATA`` for
    the steps; :func:`_player_html` puts the real ones in.
    """
    return (files(__package__) / "assets" / name).read_text(encoding="utf-8")


def _player_html(player):
    problem = player.problem
    uid = player.dom_id
    items, options = _labels(problem)
    option_items = [problem.option(k).tolist() for k in range(problem.n_options)]
    colours = None
    if problem.colours is not None:
        colours = [problem.option_colours(k).tolist() for k in range(problem.n_options)]
    data = {
        "items": items,
        "names": options,
        "primary": [not bool(s) for s in problem.secondary],
        "options": option_items,
        # each option's items as Knuth writes them, a secondary item with its colour
        "optionTexts": [option_text(problem, k) for k in range(problem.n_options)],
        "colours": colours,
        "steps": [
            [KINDS.index(s.kind), s.level, s.item, s.option, list(s.stack), list(s.tried)]
            for s in player.steps
        ],
        "texts": [s.text for s in player.steps],
    }
    payload = script_json(data)
    colour_names = problem.colour_names
    out = [
        f'<div class="numbadlx-player" id="{uid}" tabindex="0">',
        "<style>" + _asset("player.css").replace("#ID", "#" + uid) + "</style>",
        f"<p><b>Dancing Links, step by step</b> (Algorithm {problem.algorithm}): "
        f"{plural(problem.n_options, 'option', spec=',')} x "
        f"{plural(problem.n_items, 'item', spec=',')}, "
        f"{plural(len(player.steps), 'step', spec=',')}, "
        f"{plural(player.solutions, 'solution')} shown.</p>",
    ]
    if player.truncated:
        out.append(
            f'<p class="ndlx-note">The search is longer than the events kept: the player '
            f"shows its first {plural(len(player.steps), 'step', spec=',')} (pass a larger "
            f"max_events to see more).</p>"
        )
    if not player.steps:
        out.append("<p>The search made no step.</p></div>")
        return "".join(out)
    last = len(player.steps) - 1
    out.append(
        '<div class="ndlx-controls">'
        f'<button id="{uid}-first" title="first step">|&lt;</button>'
        f'<button id="{uid}-prev" title="previous step">&lt;</button>'
        f'<button id="{uid}-play" title="play or pause">play</button>'
        f'<button id="{uid}-next" title="next step">&gt;</button>'
        f'<button id="{uid}-last" title="last step">&gt;|</button>'
        f'<input id="{uid}-slider" type="range" min="0" max="{last}" value="0" '
        'aria-label="step">'
        f'<span id="{uid}-counter"></span>'
        f'<label><input id="{uid}-hide" type="checkbox"> hide removed rows and '
        "columns</label></div>"
        f'<div id="{uid}-caption" class="ndlx-caption">(the player needs JavaScript)</div>'
        '<div class="ndlx-body"><div class="ndlx-scroll">'
        f'<table id="{uid}-matrix" class="ndlx-matrix"><tr><th></th>'
    )
    for item, name in enumerate(items):
        kind = ' class="secondary"' if problem.secondary[item] else ""
        out.append(f'<th data-item="{item}"{kind}>{_esc(name)}</th>')
    out.append("</tr>")
    for k in range(problem.n_options):
        texts = [""] * problem.n_items
        colours_k = problem.option_colours(k).tolist()
        for item, colour in zip(option_items[k], colours_k):
            if colour == 0:
                texts[item] = "1"
            elif colour_names is not None:
                texts[item] = colour_names[colour - 1]
            else:
                texts[item] = str(colour)
        out.append(f'<tr data-option="{k}"><th>{_esc(options[k])}</th>')
        for item, text in enumerate(texts):
            one = ' data-one="1" class="one"' if text else ""
            out.append(f'<td data-item="{item}"{one}>{_esc(text)}</td>')
        out.append("</tr>")
    out.append(
        "</table></div>"
        '<div class="ndlx-side">'
        f'<h4>Choices at <span id="{uid}-level"></span></h4><ul id="{uid}-choices"></ul>'
        f'<h4>Partial solution</h4><ol id="{uid}-solution"></ol>'
        '<p class="ndlx-legend"><span style="background:#d62728">option tried</span>'
        '<span style="background:#1f62c4">items covered</span>'
        '<span style="background:#8e44ad">clashing options</span></p>'
        "<p>Faded: removed from the matrix.</p></div></div>"
    )
    script = (
        _asset("player.js")
        .replace('"ID"', script_json(uid))
        .replace('"ID-"', script_json(uid + "-"))
    )
    script = script.replace("DATA", payload, 1)
    out.append(f"<script>{script}</script></div>")
    return "".join(out)
