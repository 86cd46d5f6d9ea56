"""The marks of the setters' rules, one rule at a time: the right shapes at the right
coordinates (grid units: x the column, y the row, one unit a cell), the outside clues in
a margin only when there are some, and the same marks in the SVG and in plot_grid."""

import math

import pytest

from numbadlx.display import grid_html
from numbadlx.display._outside_shapes import outside_shapes
from numbadlx.display._rule_shapes import LINE_COLOURS, OVER, TOP, UNDER, Shape, rule_shapes
from numbadlx.display._sudoku_svg import _shape
from numbadlx.display._variant_marks import marks
from numbadlx.sudoku import Grid, Rules


def _of(rules, n, cls=None):
    shapes = rule_shapes(rules.checked(n), n) + outside_shapes(rules.checked(n), n)[0]
    return [s for s in shapes if cls is None or s.cls == cls]


def _near(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _centre(cell, n):
    row, col = divmod(cell, n)
    return (col + 0.5, row + 0.5)


# ----------------------------------------------------------------- arrows
def test_arrow_with_a_round_bulb():
    # bulb r0c0, shaft down the column then right: r1c0, r2c0, r2c1
    shapes = _of(Rules(arrows=[(0, [9, 18, 19])]), 9)
    assert [s.cls for s in shapes] == ["bulb", "arrow", "arrowhead"]
    bulb, shaft, head = shapes
    assert bulb.kind == "circle" and bulb.points == ((0.5, 0.5),) and bulb.r == 0.4
    assert bulb.fill == "none" and bulb.stroke != "none"
    # the shaft leaves from the bulb's edge toward its first cell, then runs cell to cell
    assert _near(shaft.points[0], (0.5, 0.9))
    assert shaft.points[1:] == ((0.5, 1.5), (0.5, 2.5), (1.5, 2.5))
    # the head's tip is the last cell's centre, its two strokes behind it (to the left)
    assert head.points[1] == (1.5, 2.5)
    for x, y in (head.points[0], head.points[2]):
        assert x < 1.5 and abs(y - 2.5) > 0.1
    assert (
        head.points[0][1] < 2.5 < head.points[2][1] or head.points[2][1] < 2.5 < head.points[0][1]
    )


def test_pill_arrows_straight_and_bent():
    # a three-cell pill along row 0, its shaft down from the middle cell's neighbour
    straight = _of(Rules(arrows=[([0, 1, 2], [11, 20])]), 9)
    pill = straight[0]
    assert pill.kind == "rect" and pill.cls == "pill" and pill.r == 0.4
    assert _near(pill.points[0], (0.1, 0.1)) and _near(pill.points[1], (2.9, 0.9))
    shaft = straight[1]
    # nearest bulb cell to r1c2 is r0c2: the shaft leaves its bottom edge
    assert _near(shaft.points[0], (2.5, 0.9)) and shaft.points[1] == (2.5, 1.5)
    # a two-cell pill down a column
    column = _of(Rules(arrows=[([0, 9], [19])]), 9)[0]
    assert _near(column.points[0], (0.1, 0.1)) and _near(column.points[1], (0.9, 1.9))
    # an L-shaped pill: its three cells and the two joins of neighbours, each thick then
    # hollowed
    bent = [s for s in _of(Rules(arrows=[([0, 1, 9], [18])]), 9) if s.cls == "pill"]
    assert len(bent) == 2 * (3 + 2) and all(s.kind == "line" for s in bent)
    outer, inner = bent[:5], bent[5:]
    assert {s.stroke for s in inner} == {"white"} and all(
        o.width > i.width for o, i in zip(outer, inner)
    )
    joins = sorted(s.points for s in outer if s.points[0] != s.points[1])
    assert joins == [((0.5, 0.5), (0.5, 1.5)), ((0.5, 0.5), (1.5, 0.5))]


# ------------------------------------------------------------------ lines
@pytest.mark.parametrize("rule", sorted(LINE_COLOURS))
def test_each_line_in_its_colour_through_its_cells(rule):
    line = [0, 10, 20, 21]
    value = (line, 4) if rule == "lockout_lines" else line
    shapes = [s for s in _of(Rules(**{rule: [value]}), 9) if s.kind == "line"]
    assert len(shapes) == 1
    (shape,) = shapes
    assert shape.stroke == LINE_COLOURS[rule] and shape.layer == OVER
    assert shape.points == tuple(_centre(c, 9) for c in line)
    assert 0.1 <= shape.width <= 0.25


def test_line_colours_are_told_apart():
    assert len(set(LINE_COLOURS.values())) == len(LINE_COLOURS)
    assert LINE_COLOURS["whispers"].startswith("#3") and LINE_COLOURS["entropic_lines"] == "#f0932b"


def test_between_lines_end_in_circles_and_lockout_lines_in_diamonds():
    ends = _of(Rules(between_lines=[[0, 1, 2, 3]]), 9, "between-end")
    assert [s.points[0] for s in ends] == [(0.5, 0.5), (3.5, 0.5)]
    assert all(s.kind == "circle" and s.fill == "white" and s.r > 0.3 for s in ends)
    diamonds = _of(Rules(lockout_lines=[([40, 41, 42], 4)]), 9, "lockout-end")
    assert len(diamonds) == 2 and all(s.kind == "polygon" for s in diamonds)
    # a diamond: four corners straight above, right, below and left of the end's centre
    (x, y) = _centre(40, 9)
    assert diamonds[0].points == ((x, y - 0.4), (x + 0.4, y), (x, y + 0.4), (x - 0.4, y))


# --------------------------------------------------------- outside clues
def test_little_killers_sit_outside_with_an_arrow_along_their_diagonal():
    n = 9
    # from r0c1 down-right: the clue is above-left of r0c1, at slot (row -1, col 0)
    texts = _of(Rules(little_killers=[([1, 11, 21, 31, 41, 51, 61, 71], 40)]), n)
    text = texts[0]
    assert text.cls == "little-killer" and text.text == "40"
    assert -1 < text.points[0][1] < 0 and 0 < text.points[0][0] < 1  # in slot (-1, 0)
    arrow = [s for s in texts if s.cls == "killer-arrow"]
    tail, tip = arrow[0].points
    assert tip[0] > tail[0] and tip[1] > tail[1]  # pointing down-right
    assert math.dist(tip, (1.0, 0.0)) < 0.2  # at the first cell's top-left corner
    # read the other way, the clue sits beside the first cell, at the bottom right
    back = _of(Rules(little_killers=[([71, 61, 51, 41, 31, 21, 11, 1], 40)]), n)
    assert 8 < back[0].points[0][1] < 9 and 9 < back[0].points[0][0] < 10
    # a part of a diagonal read from inside the grid: the clue at the end on the edge,
    # its arrow pointing back along the diagonal
    part = _of(Rules(little_killers=[([21, 11, 1], 12)]), n)
    assert _near(part[0].points[0], text.points[0])
    assert part[1].points[1][0] > part[1].points[0][0]
    # one corner cell: the clue beside that corner, diagonally out
    corner = _of(Rules(little_killers=[([8], 5)]), n)
    tail, tip = corner[1].points
    assert math.dist(tip, (8.0, 0.0)) < 0.2 or math.dist(tip, (9.0, 1.0)) < 0.2


def test_outside_clues_beside_their_row_or_column_and_margins_only_when_needed():
    n = 6
    row0 = list(range(6))
    col2_up = [30 + 2, 24 + 2, 18 + 2, 12 + 2, 6 + 2, 2]
    rules = Rules(
        sandwiches=[(row0, 5)],
        x_sums=[(row0[::-1], 9)],
        skyscrapers=[(col2_up, 3), (list(range(1, 36, 6)), 2)],
    )
    shapes, margins = outside_shapes(rules.checked(n), n)
    where = {(s.cls, s.text): s.points[0] for s in shapes}
    assert where[("sandwich", "5")] == (-0.5, 0.5)  # left of row 0
    assert where[("x-sum", "9")] == (6.5, 0.5)  # right of row 0, read from the right
    assert where[("skyscraper", "3")] == (2.5, 6.5)  # below column 2, read upwards
    assert where[("skyscraper", "2")] == (1.5, -0.5)  # above column 1
    assert margins == (1, 1, 1, 1)
    # a second clue for the same slot moves one slot further out
    stacked, margins = outside_shapes(
        Rules(sandwiches=[(row0, 5)], x_sums=[(row0, 9)]).checked(n), n
    )
    assert [s.points[0] for s in stacked] == [(-0.5, 0.5), (-1.5, 0.5)]
    assert margins == (2, 0, 0, 0)
    assert outside_shapes(Rules(whispers=[[0, 1]]).checked(n), n) == ([], (0, 0, 0, 0))


# ----------------------------------------------------- signs and cells
def test_inequality_signs_point_at_the_smaller_cell():
    (right,) = _of(Rules(greater=[(0, 1)]), 9)  # r0c0 > r0c1: '>' on their edge
    arms0, tip, arms1 = right.points
    assert tip[0] > 1.0 > arms0[0] and arms0[0] == arms1[0] and abs(tip[1] - 0.5) < 1e-9
    (up,) = _of(Rules(greater=[(9, 0)]), 9)  # r1c0 > r0c0: the tip points up
    assert up.points[1][1] < 1.0 < up.points[0][1]
    # cells apart: a thin link and the sign halfway
    far = _of(Rules(greater=[(0, 3)]), 9)
    assert [s.cls for s in far] == ["greater-link", "greater"]
    assert abs(far[1].points[1][0] - 2.0) < 0.2


def test_minimum_and_maximum_cells_shaded_with_signs_to_each_neighbour():
    shapes = _of(Rules(minimums=[0], maximums=[40]), 9)
    shades = [s for s in shapes if s.kind == "rect"]
    assert [(s.cls, s.points, s.layer) for s in shades] == [
        ("minimum", ((0, 0), (1, 1)), UNDER),
        ("maximum", ((4, 4), (5, 5)), UNDER),
    ]
    signs = {
        cls: [s for s in shapes if s.cls == cls and s.kind == "line"]
        for cls in ("minimum", "maximum")
    }
    # a corner cell has two neighbours, a middle cell four
    assert len(signs["minimum"]) == 2 and len(signs["maximum"]) == 4
    # a maximum's signs point out of the cell, a minimum's into it
    for sign in signs["maximum"]:
        tip, back = sign.points[1], sign.points[0]
        assert math.dist(tip, (4.5, 4.5)) > math.dist(back, (4.5, 4.5)) - 0.09
    for sign in signs["minimum"]:
        assert math.dist(sign.points[1], (0.5, 0.5)) < math.dist(sign.points[0], (0.5, 0.5))


def test_quadruple_circle_at_the_corner_with_its_digits():
    shapes = _of(Rules(quadruples=[((10, 11, 19, 20), (1, 2, 2, 9))]), 9)
    circle, *digits = shapes
    assert circle.kind == "circle" and circle.points == ((2.0, 2.0),)
    assert [d.text for d in digits] == ["1", "2", "2", "9"]
    assert all(math.dist(d.points[0], (2.0, 2.0)) < circle.r for d in digits)
    # digits above 9 are written as the grid writes them
    (_, ten) = _of(Rules(quadruples=[((0, 1, 16, 17), (10,))]), 16)
    assert ten.text == "A" and ten.points[0] == (1.0, 1.0)


def test_extra_regions_shaded_one_tint_each():
    shapes = _of(Rules(extra_regions=[[0, 1], [40, 41, 42]]), 9)
    assert [s.points[0] for s in shapes] == [(0, 0), (1, 0), (4, 4), (5, 4), (6, 4)]
    assert all(s.layer == UNDER and s.cls == "extra-region" for s in shapes)
    assert shapes[0].fill == shapes[1].fill != shapes[2].fill


def test_candidates_as_pencil_marks_in_their_place():
    shapes = _of(Rules(candidates={10: [1, 5, 9]}), 9)
    assert [s.text for s in shapes] == ["1", "5", "9"]
    assert [s.points[0] for s in shapes] == [
        (1 + 1 / 6, 1 + 1 / 6),
        (1.5, 1.5),
        (1 + 5 / 6, 1 + 5 / 6),
    ]
    assert all(s.cell == 10 and s.layer == TOP for s in shapes)
    # hidden where the cell shows a digit
    puzzle = "0" * 10 + "4" + "0" * 70
    svg = grid_html(puzzle, rules=Rules(candidates={10: [1, 5, 9], 11: [2]}))
    assert svg.count('class="candidate"') == 1


def test_one_diagonal_only():
    main = marks(9, (3, 3), Rules(diagonals="main").checked(9))
    anti = marks(9, (3, 3), Rules(diagonals="anti").checked(9))
    assert main.diagonals == [((0, 0), (9, 9))] and anti.diagonals == [((9, 0), (0, 9))]


# ------------------------------------------------------------------ SVG
def test_svg_margin_only_for_outside_clues():
    plain = grid_html("0" * 16, rules=Rules(whispers=[[0, 1]]))
    assert 'viewBox="-0.04 -0.04 4.08 4.08"' in plain
    clued = grid_html("0" * 16, rules=Rules(sandwiches=[([0, 1, 2, 3], 0)]))
    assert 'viewBox="-1.04 -0.04 5.08 4.08"' in clued and 'width="200"' in clued


def test_svg_escapes_the_text_of_every_shape():
    hostile = Shape("text", 'x"><script>', ((0, 0),), text="<b>&", size=0.3, fill="#222")
    out = _shape(hostile)
    assert "<script>" not in out and "<b>" not in out
    assert "&lt;b&gt;&amp;" in out and 'class="x&quot;&gt;&lt;script&gt;"' in out


def test_the_negative_constraint_is_named_in_the_caption():
    svg = grid_html("0" * 81, rules=Rules(negative=("white", "v"), white_dots=[(0, 1)]))
    assert 'class="note"' in svg and "no white dot, not consecutive" in svg
    assert "no V, no sum of 5" in svg and "no X" not in svg


# ----------------------------------------------------------- matplotlib
@pytest.fixture
def plt():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from matplotlib import pyplot

    yield pyplot
    pyplot.close("all")


def test_plot_grid_title_one_line_and_cage_sums_readable(plt):
    from numbadlx.plotting import plot_grid

    rules = Rules(
        cages=[([0, 1], 3), ([2, 3], 17)],
        diagonals=True,
        anti_knight=True,
        whispers=[[40, 41, 42]],
        renbans=[[60, 61]],
        x_pairs=[(70, 71)],
        negative=("x",),
    )
    fig = plot_grid("1" + "0" * 80, rules=rules)
    ax = fig.axes[0]
    title = ax.get_title()
    assert "\n" not in title and title == "9x9, 3x3 boxes, 1 given"
    fig.canvas.draw()
    box = ax.title.get_window_extent()
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width and box.y1 <= fig.bbox.height
    assert ax.title.get_fontsize() >= 9
    # the rules and the negative constraint in the caption below the grid
    (caption,) = fig.texts
    words = caption.get_text().replace("\n", " ")
    assert "anti knight" in words and "x pairs" in words and "no X, no sum of 10" in words
    assert caption.get_window_extent().y1 <= ax.get_window_extent().y0 + 1
    # cage sums of at least 8 points at the default size, a third of a digit's at most
    sums = [t for t in ax.texts if t.get_text() in ("3", "17")]
    digit = next(t for t in ax.texts if t.get_text() == "1")
    assert len(sums) == 2 and all(t.get_fontsize() >= 8 for t in sums)
    assert all(t.get_fontsize() < digit.get_fontsize() for t in sums)


def test_plot_grid_draws_the_new_marks_in_a_margin(plt):
    from matplotlib.patches import Circle, FancyBboxPatch, Polygon

    from numbadlx.plotting import plot_grid

    rules = Rules(
        arrows=[([0, 1], [10, 19])],
        little_killers=[([1, 11, 21], 15)],
        sandwiches=[(list(range(36, 45)), 0)],
        between_lines=[[60, 61, 62]],
        lockout_lines=[([69, 70, 71], 4)],
        quadruples=[((30, 31, 39, 40), (3, 4))],
        candidates={80: [1, 2]},
    )
    fig = plot_grid("0" * 81, rules=rules)
    ax = fig.axes[0]
    assert ax.get_xlim() == (-1, 9) and ax.get_ylim() == (9, -1)  # a margin left and top
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted(["15", "0", "3", "4", "1", "2"])
    assert sum(isinstance(p, FancyBboxPatch) for p in ax.patches) == 1  # the pill
    assert sum(isinstance(p, Polygon) for p in ax.patches) == 2  # lockout diamonds
    circles = [p for p in ax.patches if isinstance(p, Circle)]
    assert len(circles) == 3  # two between ends, one quadruple
    colours = {line.get_color() for line in ax.lines}
    assert LINE_COLOURS["between_lines"] in colours and LINE_COLOURS["lockout_lines"] in colours
    fig.canvas.draw()


def test_grid_summary_counts_givens_in_words():
    assert Grid("1" + "0" * 15).summary().endswith("1 given")
    assert Grid("12" + "0" * 14).summary().endswith("2 givens")


def test_svg_structure_of_every_new_mark():
    html5lib = pytest.importorskip("html5lib", reason="html5lib is not installed")
    rules = Rules(
        arrows=[(0, [1, 2]), ([27, 28], [36, 45])],
        little_killers=[([1, 11, 21], 9)],
        sandwiches=[(list(range(9, 18)), 0)],
        x_sums=[(list(range(26, 17, -1)), 10)],
        skyscrapers=[([8 + 9 * r for r in range(9)], 2)],
        whispers=[[30, 31]],
        renbans=[[32, 33]],
        palindromes=[[48, 49, 50]],
        between_lines=[[51, 52, 53]],
        region_sum_lines=[[54, 55]],
        entropic_lines=[[56, 57, 58]],
        modular_lines=[[59, 60, 61]],
        zipper_lines=[[69, 70, 71]],
        lockout_lines=[([72, 73, 74], 3)],
        quadruples=[((6, 7, 15, 16), (1, 2, 3, 4))],
        greater=[(40, 41)],
        minimums=[80],
        maximums=[42],
        extra_regions=[[66, 67]],
        candidates={68: [1, 2]},
    )
    tree = html5lib.parse(
        grid_html("0" * 81, rules=rules), treebuilder="etree", namespaceHTMLElements=False
    )
    counts, tags = {}, {}
    for element in tree.iter():
        name = element.get("class")
        if name and isinstance(element.tag, str):
            counts[name] = counts.get(name, 0) + 1
            tags.setdefault(name, set()).add(element.tag.rsplit("}", 1)[-1])
    expected = {
        "bulb": (1, "circle"), "pill": (1, "rect"), "arrow": (2, "polyline"),
        "arrowhead": (2, "polyline"), "little-killer": (1, "text"), "killer-arrow": (2, "polyline"),
        "sandwich": (1, "text"), "x-sum": (1, "text"), "skyscraper": (1, "text"),
        "whisper": (1, "polyline"), "renban": (1, "polyline"), "palindrome": (1, "polyline"),
        "between-line": (1, "polyline"), "between-end": (2, "circle"),
        "region-sum-line": (1, "polyline"), "entropic-line": (1, "polyline"),
        "modular-line": (1, "polyline"), "zipper-line": (1, "polyline"),
        "lockout-line": (1, "polyline"), "lockout-end": (2, "polygon"),
        "quadruple": (1, "circle"), "quadruple-digit": (4, "text"), "greater": (1, "polyline"),
        "extra-region": (2, "rect"), "candidate": (2, "text"),
    }  # fmt: skip
    for name, (count, tag) in expected.items():
        assert counts.get(name) == count and tags[name] == {tag}, name
    # a shaded cell and a sign per neighbour: two for a corner minimum, four for a maximum
    assert counts["minimum"] == 1 + 2 and counts["maximum"] == 1 + 4
    # margins: left (sandwich), right (x-sum read from the right), top (killer, skyscraper)
    svg = next(e for e in tree.iter() if isinstance(e.tag, str) and e.tag.endswith("svg"))
    assert svg.get("viewBox") == "-1.04 -1.04 11.08 10.08"


def test_a_slanting_shaft_leaves_a_pill_from_its_round_end():
    # the shaft leaves the pill cell nearest its first cell; slantwise that is an end
    # cell (a middle cell's slanting neighbour is straight below or above an end cell)
    end = _of(Rules(arrows=[([0, 1], [11])]), 9)[1].points[0]
    assert abs(math.dist(end, (1.5, 0.5)) - 0.4) < 1e-9 and end[0] > 1.5 and end[1] > 0.5
