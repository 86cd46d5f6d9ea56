"""Variant grids drawn: the SVG of Grid and grid_html, and plot_grid, hold one mark per
rule element (cages, thermometers, dots, X/V, odd/even, region borders)."""

import numpy as np
import pytest

from numbadlx.display import grid_html
from numbadlx.display._variant_marks import marks
from numbadlx.sudoku import Grid, Rules

RULES = Rules(
    cages=[([0, 1, 9], 12), ([30, 31, 39, 40, 41], None), ([60, 61, 69, 70, 71], 20)],
    thermos=[[20, 21, 22, 13], [50, 59]],
    white_dots=[(44, 45)],
    black_dots=[(53, 62), (6, 7)],
    x_pairs=[(74, 75)],
    v_pairs=[(77, 78), (79, 80)],
    odd=[8],
    even=[17, 26],
    diagonals=True,
)
PUZZLE = "1" + "0" * 80


def _svg(html):
    html5lib = pytest.importorskip("html5lib", reason="html5lib is not installed")
    tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    (svg,) = [e for e in tree.iter() if _local(e) == "svg"]
    return svg


def _local(element):
    return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""


def _texts(svg, name):
    return sorted(
        "".join(e.itertext()) for e in svg.iter() if _local(e) == "text" and e.get("class") == name
    )


def _classes(svg):
    out = {}
    for element in svg.iter():
        name = element.get("class")
        if name:
            out[name] = out.get(name, 0) + 1
    return out


def test_svg_holds_every_mark():
    svg = _svg(grid_html(PUZZLE, rules=RULES))
    classes = _classes(svg)
    assert classes["cage"] == 3 and classes["cage-sum"] == 2
    assert classes["thermo"] == 2 and classes["bulb"] == 2
    assert classes["dot white"] == 1 and classes["dot black"] == 2
    assert classes["xv"] == 3 and classes["odd"] == 1 and classes["even"] == 2
    assert classes["diagonal"] == 2 and classes["given"] == 1
    assert classes["border"] == 2 * 2 * 9  # two box lines each way, nine cells long
    assert _texts(svg, "xv") == ["V", "V", "X"]
    assert _texts(svg, "cage-sum") == ["12", "20"]


def test_grid_repr_html_with_rules_and_without():
    grid = Grid(PUZZLE, rules=RULES)
    assert "<svg" in grid._repr_html_()
    assert "cages" in grid.summary() and "3x3 boxes" in grid.summary()
    # classic rules keep the table
    assert "<table" in Grid(PUZZLE, rules=Rules())._repr_html_()
    assert "<table" in Grid(PUZZLE)._repr_html_()
    with pytest.raises(TypeError, match="rules must be a Rules"):
        Grid(PUZZLE, rules={"diagonals": True})
    with pytest.raises(ValueError, match="cages: cell 81 is out of range"):
        Grid(PUZZLE, rules=Rules(cages=[([80, 81], 3)]))


def test_jigsaw_borders_follow_the_regions():
    regions = np.array([[0, 0, 1, 1], [0, 2, 1, 1], [0, 2, 3, 3], [2, 2, 3, 3]])
    svg = _svg(grid_html("0" * 16, rules=Rules(regions=regions)))
    classes = _classes(svg)
    # cell edges between different regions, counted by hand
    expected = sum(regions[r, c] != regions[r, c + 1] for r in range(4) for c in range(3)) + sum(
        regions[r, c] != regions[r + 1, c] for r in range(3) for c in range(4)
    )
    assert classes["border"] == expected == 10
    assert "boxes" not in Grid("0" * 16, rules=Rules(regions=regions)).summary()
    # a latin square: no inner thick border at all
    assert "border" not in _classes(_svg(grid_html("0" * 16, rules=Rules(latin=True))))


def test_cage_outline_joins_its_corners():
    # an L-shaped cage: eight cell sides on its outline, its inner corner closed
    m = marks(4, (2, 2), Rules(cages=[([0, 4, 5], 6)]).checked(4))
    segments = m.cages[0][0]
    ends = [tuple(np.round(point, 6)) for segment in segments for point in segment]
    assert len(segments) == 8
    # every corner of the outline is shared by two segments: a closed polygon
    assert all(ends.count(point) == 2 for point in ends)


def test_windows_and_dots_positions():
    m = marks(9, (3, 3), Rules(windoku=True, white_dots=[(0, 1)], even=[80]).checked(9))
    assert m.windows == [(1, 1, 3, 3), (5, 1, 3, 3), (1, 5, 3, 3), (5, 5, 3, 3)]
    assert m.dots == [(1.0, 0.5, "white")] and m.even == [(8.5, 8.5)]


def test_plot_grid_draws_the_rules():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from matplotlib.patches import Circle, Rectangle

    from numbadlx.plotting import plot_grid

    fig = plot_grid(PUZZLE, rules=RULES)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert sorted(texts) == sorted(["12", "20", "X", "V", "V", "1"])
    circles = [p for p in ax.patches if isinstance(p, Circle)]
    squares = [p for p in ax.patches if isinstance(p, Rectangle)]
    # 3 dots, 2 bulbs, 1 odd cell; 2 even cells
    assert len(circles) == 6 and len(squares) == 2
    fig.canvas.draw()  # renders without error
    from matplotlib import pyplot

    pyplot.close(fig)


def test_rules_for_another_size_are_named_in_the_error():
    # a 4x4 grid with the rules of a 9x9 one: the rules' box is named, not a grid length
    with pytest.raises(ValueError, match="box: box 3x3 does not fit a 4x4 puzzle"):
        Grid("0" * 16, rules=Rules(box=(3, 3)))
    assert Grid("0" * 36, rules=Rules(box=(3, 2), diagonals=True)).box == (3, 2)
