"""Rich display (HTML and text), the search trace, and the matplotlib helpers."""

import re
import warnings
from html.parser import HTMLParser

import numpy as np
import pytest

from numbadlx import ExactCover, problems, sudoku
from numbadlx.core.trace import MAX_OPTIONS, trace
from numbadlx.display import CoverMatrix, exact_cover_html, search_tree, sudoku_result_html
from numbadlx.sudoku import Grid, random_puzzles

TUTORIAL = [[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]]
VOID = {"br", "hr", "img", "meta", "input", "col", "wbr", "link"}


class _Checker(HTMLParser):
    """Checks that tags nest and close, and collects every table cell."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.cells = []  # (tag, attrs dict, text) for every td and th
        self.rows = []  # attrs of every tr
        self._cell = None

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        if tag in ("td", "th"):
            self._cell = [tag, dict(attrs), ""]
        if tag == "tr":
            self.rows.append(dict(attrs))
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append(tuple(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[2] += data


def parse_html(text):
    checker = _Checker()
    checker.feed(text)
    checker.close()
    assert not checker.errors, checker.errors
    assert not checker.stack, f"unclosed tags: {checker.stack}"
    return checker


def _tds(checker):
    return [
        (attrs.get("class"), text, attrs.get("style", ""))
        for tag, attrs, text in checker.cells
        if tag == "td"
    ]


# ---------------------------------------------------------------- grids
@pytest.mark.parametrize("n", [4, 6, 9, 12, 16, 25])
def test_grid_html_shows_every_cell_givens_apart_and_box_borders(n):
    puzzle = random_puzzles(1, n=n, seed=n, keep=int(0.6 * n * n))[0]
    solution = sudoku.solve_one(puzzle)
    rows, cols = sudoku.box_shape(n)
    checker = parse_html(Grid(puzzle, solution)._repr_html_())
    cells = _tds(checker)
    assert len(cells) == n * n
    symbols = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for index, (kind, text, style) in enumerate(cells):
        r, c = divmod(index, n)
        given = puzzle[index]
        assert kind == ("given" if given else "filled")
        assert text == symbols[solution[index]]
        assert ("border-right:2px" in style) == ((c + 1) % cols == 0 and c + 1 < n)
        assert ("border-bottom:2px" in style) == ((r + 1) % rows == 0 and r + 1 < n)
    # givens and filled digits are drawn differently, not only named differently
    styles = {kind: style.split(";")[-1] for kind, _, style in cells}
    assert styles["given"] != styles["filled"]
    assert sum(kind == "given" for kind, _, _ in cells) == int((puzzle > 0).sum())


def test_grid_without_solution_has_blanks_and_text_repr():
    puzzle = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
    grid = sudoku.Grid(puzzle)
    cells = _tds(parse_html(grid._repr_html_()))
    kinds = [kind for kind, _, _ in cells]
    assert kinds.count("given") == 30 and kinds.count("blank") == 51
    assert all(text == "" for kind, text, _ in cells if kind == "blank")
    text = repr(grid)
    assert text.startswith("Grid(9x9, 3x3 boxes, 30 givens)")
    assert sudoku.format_grid(sudoku.parse(puzzle)[0]) in text
    solved = repr(sudoku.Grid(puzzle, sudoku.solve_one(puzzle)))
    assert "51 filled" in solved and "solution" in solved
    assert "5 3 4 | 6 7 8 | 9 1 2" in solved


def test_grid_marks_a_solution_that_contradicts_a_given():
    puzzle = np.zeros(16, dtype=np.uint8)
    puzzle[0] = 1
    wrong = sudoku.solve_one("2" + "0" * 15)
    cells = _tds(parse_html(Grid(puzzle, wrong)._repr_html_()))
    assert cells[0][0] == "clash" and cells[0][1] == "2"
    assert [kind for kind, _, _ in cells[1:]] == ["filled"] * 15


def test_grid_from_result_and_36x36_numbers():
    result = sudoku.solve(["0200004034000000", "11" + "0" * 14])
    assert Grid.from_result(result, 0).solution is not None
    assert Grid.from_result(result, 1).solution is None
    empty = np.zeros(36 * 36, dtype=np.uint8)
    empty[0], empty[1] = 36, 10
    cells = _tds(parse_html(Grid(empty)._repr_html_()))
    assert len(cells) == 36 * 36 and cells[0][1] == "36" and cells[1][1] == "10"
    with pytest.raises(ValueError):
        Grid("0" * 16, "0" * 81)


# --------------------------------------------------------------- results
def test_sudoku_result_html_shows_the_text_of_an_unreadable_row():
    # as to_pandas() does: the row's input, not the empty grid it was read as
    bad = "12x4" * 4
    result = sudoku.solve(["0200004034000000", bad, "<b>" * 5 + "0"])
    text = result._repr_html_()
    checker = parse_html(text)
    tds = [cell_text for tag, _attrs, cell_text in checker.cells if tag == "td"]
    assert bad in tds and "<b><b><b><b><b>0" in tds
    assert "<b><b>" not in text  # escaped
    assert "................" not in tds


def test_sudoku_result_html_shows_status_counts_and_rows():
    unique = "0200004034000000"
    puzzles = [unique] * 7 + ["1000001000000000"] * 2 + ["11" + "0" * 14]
    result = sudoku.solve(puzzles)
    checker = parse_html(result._repr_html_())
    table = {}
    for tag, _attrs, text in checker.cells:
        table.setdefault(tag, []).append(text)
    tds = table["td"]
    for name, count in (("UNIQUE", 7), ("MULTIPLE", 2), ("INVALID", 1)):
        at = tds.index(name)
        assert tds[at + 1] == str(count)
    assert "10 puzzles of 4x4" in result._repr_html_()
    assert "puzzles/s" in result._repr_html_()
    # five first rows, then a note about the rest
    rows = [attrs for attrs in checker.rows if not attrs]
    assert "... 5 more" in sudoku_result_html(result)
    assert len(rows) >= 5
    assert ".2....4.34......" in result._repr_html_()
    assert sudoku_result_html(result, rows=20).count(".2....4.34......") == 7


# ----------------------------------------------------------- exact cover
def test_exact_cover_html_draws_the_matrix_and_marks_the_solution():
    problem = ExactCover(TUTORIAL, item_names="1234567", option_names="ABCDEF")
    before = problem.stats
    checker = parse_html(problem._repr_html_())
    assert problem.stats is before  # showing does not count as a search
    rows = [attrs.get("class") for attrs in checker.rows]
    assert rows[1:] == ["option", "chosen", "option", "chosen", "option", "chosen"]
    headers = [
        text
        for tag, attrs, text in checker.cells
        if tag == "th" and attrs.get("class") == "primary"
    ]
    assert headers == list("1234567")
    ones = [text for tag, _, text in checker.cells if tag == "td" and text]
    assert ones == ["1"] * 17
    matrix = np.array([text == "1" for tag, _, text in checker.cells if tag == "td"])
    assert (matrix.reshape(6, 7) == problem.to_dense()).all()
    assert "solution: options 1 (B), 3 (D), 5 (F)" in problem._repr_html_()
    text = repr(CoverMatrix(problem))
    assert text.splitlines()[2].startswith("* B") and text.splitlines()[1].startswith("  A")


def test_exact_cover_html_escapes_names_and_marks_secondary_colours_bounds():
    problem = ExactCover(
        [[0, 2], [1, 2], [1]],
        secondary=1,
        colours=[[0, 1], [0, 1], [0]],
        item_names=["<a>", "b&c", "x"],
        option_names=['"o"', "p", "q"],
        colour_names=["red"],
    )
    text = exact_cover_html(problem)
    checker = parse_html(text)
    assert "<a>" not in text and "&lt;a&gt;" in text and "b&amp;c" in text
    secondary = [text for tag, attrs, text in checker.cells if attrs.get("class") == "secondary"]
    assert secondary == ["x"]
    assert [text for tag, _, text in checker.cells if tag == "td"].count("red") == 2
    bounded = ExactCover([[0], [0, 1], [0]], bounds=[(2, 2), (0, 1)])
    cells = [text for _, _, text in parse_html(bounded._repr_html_()).cells]
    assert "2..2" in cells and "0..1" in cells


def test_exact_cover_html_large_problem_summary_only():
    problem = problems.pentominoes(6, 10)
    text = problem._repr_html_()
    parse_html(text)
    assert "numbadlx-matrix" not in text and "2,056 options" in text
    assert "F, I, L, N, P, T, U, V, W, X, Y, Z" in text
    assert repr(CoverMatrix(problem)) == repr(problem)


# ----------------------------------------------------------------- trace
# Hand-run of Algorithm X on Knuth's example, MRV with the first of equal lengths:
# lengths 1:2 2:2 3:2 4:3 5:2 6:2 7:4.
#   level 0: choose 1 (A, B).  try A = {1 4 7}: covering 4 and 7 removes C, E and F,
#   level 1: item 2 has no option left: choose 2 (length 0), backtrack.
#   level 0: try B = {1 4}: covering 4 removes C; lengths 2:2 3:2 5:1 6:2 7:2.
#   level 1: choose 5 (D only), try D = {3 5 6}: covering 3 and 6 removes E.
#   level 2: choose 2 (F only), try F = {2 7}.
#   level 3: nothing is left: solution 1 = {B, D, F}.
#   Then every level runs out of options: backtrack 2, 5 and 1.
HAND_RUN = [
    ("choose", 0, "1", "", "1", 2, -1),
    ("try", 0, "1", "A", "4 7", -1, -1),
    ("choose", 1, "2", "", "2", 0, -1),
    ("backtrack", 1, "2", "", "", -1, -1),
    ("try", 0, "1", "B", "4", -1, -1),
    ("choose", 1, "5", "", "5", 1, -1),
    ("try", 1, "5", "D", "3 6", -1, -1),
    ("choose", 2, "2", "", "2", 1, -1),
    ("try", 2, "2", "F", "7", -1, -1),
    ("solution", 3, "", "", "", -1, 1),
    ("backtrack", 2, "2", "", "", -1, -1),
    ("backtrack", 1, "5", "", "", -1, -1),
    ("backtrack", 0, "1", "", "", -1, -1),
]


def _rows(table):
    columns = ("event", "level", "item_name", "option_name", "covered", "branches", "solution")
    return [tuple(_plain(np.asarray(table[c])[k]) for c in columns) for k in range(len(table))]


def _plain(value):
    return value.item() if hasattr(value, "item") else value


def test_trace_of_the_classic_example_matches_a_hand_run():
    problem = ExactCover(TUTORIAL, item_names="1234567", option_names="ABCDEF")
    table = problem.trace(as_frame=False)
    assert _rows(table) == HAND_RUN
    # caller numbering: item '1' is index 0, option B is index 1
    assert table["item"][:2].tolist() == [0, 0] and table["option"][4] == 1
    assert table["item"][5] == 4  # item '5'
    assert problem.stats.nodes == 5 and problem.stats.solutions == 1
    # without names, items are labelled by index and options by their items
    plain = ExactCover(TUTORIAL).trace(as_frame=False)
    assert plain["item_name"][0] == "0" and plain["option_name"][1] == "0 3 6"


def test_trace_as_dataframe():
    pd = pytest.importorskip("pandas")
    problem = ExactCover(TUTORIAL, item_names="1234567", option_names="ABCDEF")
    frame = problem.trace()
    assert isinstance(frame, pd.DataFrame)
    # what does not apply is missing in a DataFrame, not -1 or ''
    missing = [tuple(None if v in (-1, "") else v for v in row) for row in HAND_RUN]
    assert [tuple(None if pd.isna(v) else v for v in row) for row in _rows(frame)] == missing
    assert not (frame.select_dtypes("number") == -1).any().any()
    assert str(frame["item"].dtype) == "Int64" and str(frame["item_name"].dtype) == "string"
    assert frame.attrs["stats"].nodes == 5 and frame.attrs["truncated"] is False
    assert frame.index.name == "step"


@pytest.mark.parametrize(
    "make",
    [
        lambda: ExactCover(TUTORIAL),
        lambda: problems.n_queens(6),
        lambda: problems.langford(4),
        lambda: problems.langford(7),
        lambda: ExactCover.from_dlx("a b | x\na x:1\nb x:1\na x:2\nb\n"),  # colours (C)
        lambda: ExactCover([[0], [0, 1], [0], [1]], bounds=[(1, 2), (0, 1)]),  # (M)
    ],
)
def test_traced_run_has_the_stats_of_the_untraced_count(make):
    """The trace is the production kernel with its table on: same search, same effort;
    with the table empty (every ordinary call) nothing is recorded."""
    problem = make()
    total = problem.count()
    plain = problem.stats
    table = problem.trace(max_events=10**6, as_frame=False)
    traced = problem.stats
    assert (traced.nodes, traced.updates, traced.solutions) == (plain.nodes, plain.updates, total)
    events = table["event"]
    assert (events == "solution").sum() == total
    if problem.algorithm != "M":
        # every node writes one choose or solution; every node but the root is a try;
        # every chosen item is backtracked once its options are exhausted
        assert (events == "choose").sum() + total == plain.nodes
        assert (events == "try").sum() == plain.nodes - 1
        assert (events == "backtrack").sum() == (events == "choose").sum()
        tree = search_tree(table)
        assert len(tree) == plain.nodes
        assert tree.kind.count("solution") == total
    from numbadlx.core.search import Search

    search = Search(problem)
    assert search.trace.shape == (0, 5)


def test_trace_refuses_big_problems_and_warns_when_cut_short():
    big = problems.pentominoes(6, 10)
    assert big.n_options > MAX_OPTIONS
    with pytest.raises(ValueError, match="max_events"):
        big.trace()
    with pytest.warns(UserWarning, match="cut short"):
        table = trace(big, max_events=50, as_frame=False)
    assert len(table) == 50
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = problems.n_queens(8).trace(limit=1, as_frame=False)
    assert table["event"][-1] == "solution" and (table["event"] == "solution").sum() == 1
    with pytest.raises(ValueError):
        problems.n_queens(4).trace(max_events=0)


def test_search_tree_of_the_classic_example():
    tree = search_tree(
        ExactCover(TUTORIAL, item_names="1234567", option_names="ABCDEF").trace(as_frame=False)
    )
    assert tree.parent.tolist() == [-1, 0, 0, 2, 3]
    assert tree.option == ["", "A", "B", "D", "F"]
    assert tree.item == ["1", "2", "5", "2", ""]
    assert tree.kind == ["inner", "dead end", "inner", "inner", "solution"]
    assert tree.level.tolist() == [0, 1, 1, 2, 3]
    assert tree.x[0] == pytest.approx(0.5 * (tree.x[1] + tree.x[2]))
    assert re.match(r"SearchTree\(5 nodes", repr(tree))


# ----------------------------------------------------------------- plots
@pytest.fixture
def agg():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.figure import Figure

    yield Figure
    plt.close("all")


@pytest.mark.slow
def test_plots_return_figures(agg):
    from numbadlx import plotting

    puzzle = random_puzzles(1, n=16, seed=2, keep=140)[0]
    figures = [plotting.plot_grid(puzzle, sudoku.solve_one(puzzle)), plotting.plot_grid("0" * 36)]
    queens = problems.n_queens(8)
    figures.append(plotting.plot_queens(queens, queens.solve()))
    figures.append(plotting.plot_queens(5, [0, 7, 14, 16, 23]))
    board = problems.pentominoes(3, 20)
    figures.append(plotting.plot_pentominoes(board, board.solve()))
    result = sudoku.solve(random_puzzles(20, n=9, seed=1))
    figures.append(plotting.plot_effort(result))
    figures.append(plotting.plot_effort({"a": result, "b": result}))
    figures.append(plotting.plot_search_tree(ExactCover(TUTORIAL).trace()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        big_trace = problems.n_queens(8).trace(max_events=400)
    figures.append(plotting.plot_search_tree(big_trace))
    for figure in figures:
        assert isinstance(figure, agg)
        figure.canvas.draw()
    assert len(figures[-3].axes) == 2


def test_search_tree_figure_fits_its_tree_and_grid_titles_fit_their_figure(agg):
    from numbadlx import plotting

    small = plotting.plot_search_tree(ExactCover(TUTORIAL).trace())  # 5 nodes, 2 leaves
    wide = plotting.plot_search_tree(problems.n_queens(6).trace())  # 111 nodes, 34 dead ends
    small_size, wide_size = small.get_size_inches(), wide.get_size_inches()
    assert small_size[0] < 5 and small_size[0] < wide_size[0]
    # every title, wrapped to its figure, is drawn inside it
    for puzzle in ("1000001003000004", "0" * 36, "0" * 81):
        figure = plotting.plot_grid(puzzle, sudoku.solve_one(puzzle))
        figure.canvas.draw()
        title = figure.axes[0].title.get_window_extent()
        assert title.x0 >= 0 and title.x1 <= figure.bbox.width, puzzle
        assert title.y1 <= figure.bbox.height, puzzle


def test_plots_draw_on_a_given_axes(agg):
    from matplotlib import pyplot as plt

    from numbadlx import plotting

    fig, axes = plt.subplots(1, 2)
    assert plotting.plot_grid("0200004034000000", ax=axes[0]) is fig
    assert plotting.plot_queens(4, [1, 7, 8, 14], ax=axes[1]) is fig
    assert len(axes[0].texts) == 4
