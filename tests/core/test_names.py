"""Named items and options: ExactCover.from_names, names(solution), and names kept by
from_dlx, to_dlx, trace, the HTML views, the player and the ZDD."""

import html
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numbadlx import ExactCover, problems
from numbadlx.display.cover_html import exact_cover_html
from numbadlx.display.player import play

# Knuth's example from "Dancing Links": one exact cover, options A, D and E.
KNUTH = {
    "A": ["c", "e"],
    "B": ["a", "d", "g"],
    "C": ["b", "c", "f"],
    "D": ["a", "d", "f"],
    "E": ["b", "g"],
    "F": ["d", "e", "g"],
}

# A coloured problem (Knuth's toy XCC problem as in the xcover README: its single
# solution is the options {p, r, x:A, y} and {q, x:A}).
XCC_PRIMARY = ["p", "q", "r"]
XCC_SECONDARY = ["x", "y"]
XCC = {
    "o0": ["p", "q", "x", "y:A"],
    "o1": ["p", "r", "x:A", "y"],
    "o2": ["p", "x:B"],
    "o3": ["q", "x:A"],
    "o4": ["r", "y:B"],
}


def brute_force(options, secondary=(), bounds=None):
    """Every solution, as a set of option names, straight from the names: each primary
    item covered exactly once (or within ``bounds``), each secondary item by at most
    one option, or by several that all give it the same colour. As in Knuth's
    algorithms, an option is chosen to cover a primary item: one without any is never
    part of a solution."""
    secondary = set(secondary)
    bounds = bounds or {}
    parsed = {name: [t.partition(":")[::2] for t in items] for name, items in options.items()}
    primary = {item for items in parsed.values() for item, _ in items} - secondary
    primary |= set(bounds)
    found = []
    names = [name for name, items in parsed.items() if any(i in primary for i, _ in items)]
    for size in range(len(names) + 1):
        for chosen in itertools.combinations(names, size):
            uses = {}
            for name in chosen:
                for item, colour in parsed[name]:
                    uses.setdefault(item, []).append(colour)
            ok = all(
                lo <= len(uses.get(item, [])) <= hi
                for item in primary
                for lo, hi in [bounds.get(item, (1, 1))]
            )
            for item in secondary & set(uses):
                colours = uses[item]
                if len(colours) > 1 and not (colours[0] and len(set(colours)) == 1):
                    ok = False
            if ok:
                found.append(frozenset(chosen))
    return set(found)


def named_solutions(problem):
    return {frozenset(problem.names(solution)) for solution in problem.solutions()}


def test_knuth_example_by_names():
    p = ExactCover.from_names(KNUTH)
    assert sorted(p.names(p.solve())) == ["A", "D", "E"]
    assert p.item_names == ["c", "e", "a", "d", "g", "b", "f"]  # first appearance
    assert p.option_names == list(KNUTH)
    assert named_solutions(p) == brute_force(KNUTH) == {frozenset("ADE")}
    assert p.algorithm == "X" and p.n_secondary == 0


def test_list_form_names_options_by_their_text():
    options = [items for items in KNUTH.values()]
    p = ExactCover.from_names(options)
    assert p.option_names == [" ".join(items) for items in options]
    assert sorted(p.names(p.solve())) == ["a d f", "b g", "c e"]
    # one string per option reads as names separated by blanks
    q = ExactCover.from_names(["c  e", "a d g", "b\tc f", "a d f", "b g", "d e g"])
    assert q.option_names == p.option_names and q.item_names == p.item_names
    assert named_solutions(q) == named_solutions(p)


def test_colours_match_dlx_text_and_brute_force():
    p = ExactCover.from_names(XCC, primary=XCC_PRIMARY, secondary=XCC_SECONDARY)
    assert p.algorithm == "C" and p.colour_names == ["A", "B"]
    assert named_solutions(p) == brute_force(XCC, XCC_SECONDARY) == {frozenset({"o1", "o3"})}
    text = "p q r | x y\n" + "".join(" ".join(items) + "\n" for items in XCC.values())
    q = ExactCover.from_dlx(text)
    assert q.item_names == p.item_names
    assert q.colours.tolist() == p.colours.tolist() and q.colour_names == p.colour_names
    assert [s.tolist() for s in q.solutions()] == [s.tolist() for s in p.solutions()]


def test_secondary_defaults_and_item_order():
    options = {"one": ["b", "x:red", "a"], "two": ["a", "y"], "three": ["b", "x:red"]}
    p = ExactCover.from_names(options, secondary=["y", "x"])
    assert p.item_names == ["b", "a", "y", "x"]  # primary by first appearance, then secondary
    assert p.secondary.tolist() == [False, False, True, True]
    assert named_solutions(p) == brute_force(options, {"x", "y"})
    given = ExactCover.from_names(options, primary=["a", "b"], secondary=["x", "y"])
    assert given.item_names == ["a", "b", "x", "y"]
    assert named_solutions(given) == named_solutions(p)
    # a listed item in no option is kept (a primary one then has no cover)
    assert ExactCover.from_names({"o": ["a"]}, primary=["a", "b"]).count() == 0


def test_bounds_by_name():
    options = {"A": ["a"], "B": ["a", "b"], "C": ["a"], "D": ["b"]}
    p = ExactCover.from_names(options, bounds={"a": (2, 2)})
    assert p.algorithm == "M"
    assert named_solutions(p) == brute_force(options, bounds={"a": (2, 2)})
    assert len(named_solutions(p)) == 3


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"options": {"A": []}}, ValueError, "option 'A' is empty"),
        ({"options": [["a"], []]}, ValueError, "option 1 is empty"),
        ({"options": {"A": ["a", "b", "a"]}}, ValueError, "option 'A': item 'a' appears twice"),
        ({"options": {"A": ["a", "x:1", "x:2"]}, "secondary": ["x"]}, ValueError, "'x' appears"),
        ({"options": {"A": ["a:red"]}}, ValueError, "option 'A': primary item 'a' has a colour"),
        (
            {"options": {"A": ["a", "z"]}, "primary": ["a"]},
            ValueError,
            "option 'A': item 'z' is not listed",
        ),
        (
            {"options": {"A": ["a", "z"]}, "primary": ["a"], "secondary": ["x"]},
            ValueError,
            "option 'A': item 'z' is not listed",
        ),
        (
            {"options": {"A": ["a"]}, "primary": ["a", "x"], "secondary": ["x"]},
            ValueError,
            "item 'x' is named both primary and secondary",
        ),
        ({"options": {"A": ["a"]}, "primary": ["a", "a"]}, ValueError, "'a' is named twice"),
        ({"options": {"A": ["a b"]}}, ValueError, "option 'A': item 'a b' contains ' '"),
        ({"options": {"A": ["a|b"]}}, ValueError, "contains '|'"),
        ({"options": {"A": [""]}}, ValueError, "option 'A': empty item"),
        ({"options": {"A": ["x:"]}, "secondary": ["x"]}, ValueError, "empty colour"),
        ({"options": {"A": ["x:r:g"]}, "secondary": ["x"]}, ValueError, "colour 'r:g'"),
        ({"options": {"A": ["a", 3]}}, TypeError, "option 'A': item 3 is a int"),
        ({"options": "a b\nc"}, TypeError, "from_dlx"),
        ({"options": {"A": ["a"]}, "secondary": ["x:red"]}, ValueError, "secondary: item"),
    ],
)
def test_errors_name_the_option_and_the_item(kwargs, error, match):
    with pytest.raises(error, match=match):
        ExactCover.from_names(**kwargs)


def test_names_of_a_solution():
    p = ExactCover.from_names(KNUTH)
    assert p.names(None) is None
    assert p.names([]) == []
    assert p.names([5, 0]) == ["F", "A"]  # in the order given
    with pytest.raises(ValueError, match="option index 6 out of range"):
        p.names([6])
    with pytest.raises(ValueError, match="option index -1 out of range"):
        p.names([-1])
    # without option names: each option's text, with colours
    plain = ExactCover([[0, 2], [1]], item_names=["a", "b", "x"], secondary=1)
    assert plain.names([0, 1]) == ["a x", "b"]
    assert ExactCover([[0, 1], [2]]).names([1, 0]) == ["2", "0 1"]
    coloured = ExactCover.from_dlx("a | x\na x:red\n")
    coloured.option_names = None
    assert coloured.names([0]) == ["a x:red"]


def test_from_dlx_names_options():
    p = ExactCover.from_dlx("a b | x\n| a comment\na  x:red\n|: both\nb\ta x\n\nb\n")
    assert p.option_names == ["a x:red", "both", "b"]
    assert named_solutions(p) == {frozenset({"both"}), frozenset({"a x:red", "b"})}
    # a comment line before the item line names nothing
    assert ExactCover.from_dlx("|: nothing\na\na\n").option_names == ["a"]


def test_round_trip_keeps_names_and_solutions():
    for p in (
        ExactCover.from_names(KNUTH),
        ExactCover.from_names(XCC, primary=XCC_PRIMARY, secondary=XCC_SECONDARY),
        ExactCover.from_names([["a", "b"], ["a"], ["b"]]),
        ExactCover.from_names({"x y": ["a"], " spaced ": ["a"], "": ["a"]}),
        problems.n_queens(5),
    ):
        text = p.to_dlx()
        q = ExactCover.from_dlx(text)
        assert q.item_names == p.item_names
        assert q.option_names == p.option_names
        assert q.secondary.tolist() == p.secondary.tolist()
        assert q.colour_names == p.colour_names
        assert [s.tolist() for s in q.solutions()] == [s.tolist() for s in p.solutions()]
        assert q.to_dlx() == text
    # options named by their text write no name lines
    assert "|:" not in ExactCover.from_names([["a", "b"], ["a"]]).to_dlx()
    head = ExactCover.from_names(KNUTH).to_dlx().splitlines()[:3]
    assert head == ["c e a d g b f", "|: A", "c e"]


def test_an_option_name_with_a_line_break_cannot_be_written():
    p = ExactCover.from_names({"two\nlines": ["a"]})
    with pytest.raises(ValueError, match="option 0 is named 'two\\\\nlines'"):
        p.to_dlx()


HOSTILE = "<b>&"


def test_names_flow_through_trace_html_player_and_zdd():
    options = {HOSTILE: ["a", "<i>"], "B": ["a"], "C": ["<i>"]}
    p = ExactCover.from_names(options)
    assert p.item_names == ["a", "<i>"]
    events = p.trace(as_frame=False)
    assert HOSTILE in events["option_name"].tolist()
    assert "<i>" in events["item_name"].tolist()
    page = exact_cover_html(p, [0])
    assert html.escape(HOSTILE) in page and HOSTILE not in page
    assert "&lt;i&gt;" in page and "<i>" not in page
    player = play(p)
    assert any(f"try option {HOSTILE} " in step.text for step in player.steps)
    text = player.html()
    markup, script = text.split("<script>", 1)
    assert f"<th>{html.escape(HOSTILE)}</th>" in markup and HOSTILE not in markup
    assert "<i>" not in markup and HOSTILE not in script  # JSON escapes < > & too
    dot = p.zdd().to_dot()
    assert '"<b>&"' in dot and '"B"' in dot


def test_zdd_svg_escapes_option_names():
    from numbadlx.display.zdd_html import zdd_svg

    svg = zdd_svg(ExactCover.from_names({HOSTILE: ["a"], "B": ["a"]}).zdd())
    assert html.escape(HOSTILE) in svg and HOSTILE not in svg


def test_no_options_and_no_items():
    empty = ExactCover.from_names({})
    assert (empty.n_items, empty.n_options, empty.count()) == (0, 0, 1)
    assert empty.names(empty.solve()) == []


@st.composite
def named_problems(draw):
    primary = ["p", "q", "r"][: draw(st.integers(1, 3))]
    secondary = draw(st.sampled_from([[], ["x"], ["x", "y"]]))
    entries = st.sampled_from(
        primary + secondary + [f"{s}:{c}" for s in secondary for c in ("red", "blue")]
    )
    options = {}
    for k in range(draw(st.integers(0, 7))):
        chosen = draw(st.lists(entries, min_size=1, max_size=4))
        items, seen = [], set()
        for token in chosen:
            if token.partition(":")[0] not in seen:
                seen.add(token.partition(":")[0])
                items.append(token)
        options[f"o{k}"] = items
    return options, secondary


@settings(max_examples=60, deadline=None)
@given(named_problems())
def test_random_named_problems_match_brute_force_and_round_trip(case):
    options, secondary = case
    p = ExactCover.from_names(options, secondary=secondary)
    expected = brute_force(options, secondary)
    found = [frozenset(p.names(solution)) for solution in p.solutions()]
    assert len(found) == len(set(found)) and set(found) == expected
    q = ExactCover.from_dlx(p.to_dlx())
    assert (q.item_names, q.option_names) == (p.item_names, p.option_names)
    assert named_solutions(q) == expected
