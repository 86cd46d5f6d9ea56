"""Names are data, never markup: hostile item and option names in every text numbadlx
writes for another program to read (Graphviz's dot language, SVG, HTML tables and the
JSON inside the player's ``<script>``).

The dot output is read back with a small tokenizer of the subset numbadlx writes (and
with Graphviz's ``dot`` when it is installed); the HTML with an HTML5 parser
(html5lib), which follows the WHATWG rules a browser follows.
"""

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from numbadlx import ExactCover
from numbadlx.display.cover_html import exact_cover_html
from numbadlx.display.player import _asset, play
from numbadlx.display.zdd_html import zdd_svg

# Names that broke out of a quoted dot string, or carry dot syntax. The order matters:
# to_dot() writes the options last to first, and a name ending in a backslash once ate
# the closing quote, so the name written after it came out as raw dot.
INJECTION = '];\n  n99 [URL=<javascript:alert(1)>, label="x'
DOT_NAMES = [
    INJECTION,
    "ends in a backslash\\",
    INJECTION.replace("\n", " "),
    'a "quoted" name',
    "two\nlines",
    "carriage\rreturn",
    "windows\r\nline",
    "back\\slash \\N \\G \\l",
    "nul\x00byte",
    "tab\tstop",
    "}",
]
# What each name shows in the picture: line ends become line breaks, other control
# characters their visible symbols (U+2400 onwards); everything else as written.
DOT_LABELS = [
    '];\n  n99 [URL=<javascript:alert(1)>, label="x',
    "ends in a backslash\\",
    '];   n99 [URL=<javascript:alert(1)>, label="x',
    'a "quoted" name',
    "two\nlines",
    "carriage\nreturn",
    "windows\nline",
    "back\\slash \\N \\G \\l",
    "nul\u2400byte",
    "tab\tstop",
    "}",
]

_TOKEN = re.compile(
    r'(?P<space>\s+)|(?P<arrow>->)|(?P<punct>[{}\[\];,=])|(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<id>[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+)",
    re.DOTALL,
)
# the attributes numbadlx writes, and where
_NODE_ATTRS = {"shape", "label"}
_EDGE_ATTRS = {"style"}


def _tokens(text):
    pos, out = 0, []
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        assert match, f"not dot numbadlx writes at {pos}: {text[pos : pos + 40]!r}"
        pos = match.end()
        if match.lastgroup != "space":
            out.append((match.lastgroup, match.group()))
    return out


def _label(quoted):
    """The text Graphviz shows for a quoted label (its escString rules)."""
    body = quoted[1:-1]
    assert "\n" not in body and "\r" not in body, f"a raw line end in {quoted!r}"
    out, k = [], 0
    while k < len(body):
        if body[k] == "\\":
            nxt = body[k + 1]
            assert nxt in '\\"nlr', f"an escape numbadlx does not mean: {quoted!r}"
            out.append("\n" if nxt in "nlr" else nxt)
            k += 2
        else:
            out.append(body[k])
            k += 1
    return "".join(out)


def _attrs(tokens, k):
    """Parse ``[key=value, ...]`` from tokens[k]; return (dict, next index)."""
    assert tokens[k] == ("punct", "[")
    attrs, k = {}, k + 1
    while True:
        (kind_key, key), eq, (kind_value, value) = tokens[k : k + 3]
        assert kind_key == "id" and eq == ("punct", "=") and kind_value in ("id", "string")
        assert key not in attrs
        attrs[key] = value
        k += 3
        if tokens[k] == ("punct", "]"):
            return attrs, k + 1
        assert tokens[k] == ("punct", ",")
        k += 1


def parse_dot(text):
    """Nodes {id: attrs} and edges [(tail, head, attrs)] of numbadlx's dot subset;
    fails on anything else."""
    tokens = _tokens(text)
    assert tokens[:3] == [("id", "digraph"), ("id", "zdd"), ("punct", "{")]
    assert tokens[-1] == ("punct", "}")
    nodes, edges, k, body = {}, [], 0, tokens[3:-1]
    while k < len(body):
        kind, name = body[k]
        assert kind == "id", f"a statement starts with {body[k]}"
        if body[k + 1] == ("arrow", "->"):
            kind_head, head = body[k + 2]
            assert kind_head == "id"
            k += 3
            attrs = {}
            if body[k] == ("punct", "["):
                attrs, k = _attrs(body, k)
            assert set(attrs) <= _EDGE_ATTRS and attrs.get("style", "dashed") == "dashed"
            edges.append((name, head, attrs))
        else:
            attrs, k = _attrs(body, k + 1)
            if name == "node":
                assert attrs == {"shape": "circle"}
            else:
                assert set(attrs) <= _NODE_ATTRS and name not in nodes
                assert attrs["label"].startswith('"')
                nodes[name] = attrs
        assert body[k] == ("punct", ";")
        k += 1
    return nodes, edges


def _hostile_zdd():
    # every option covers the one item: each is a solution, so each is a node
    return ExactCover([[0]] * len(DOT_NAMES), option_names=DOT_NAMES).zdd()


def test_dot_labels_are_whole_quoted_strings():
    zdd = _hostile_zdd()
    nodes, edges = parse_dot(zdd.to_dot())
    assert len(nodes) == zdd.size + 2 and len(edges) == 2 * zdd.size
    assert all(head in nodes for _, head, _ in edges)
    assert {name: _label(a["label"]) for name, a in nodes.items() if name[0] == "t"} == {
        "t0": "0",
        "t1": "1",
    }
    shown = sorted(_label(a["label"]) for name, a in nodes.items() if name[0] == "n")
    assert shown == sorted(DOT_LABELS)
    # plain names are written as before
    plain = ExactCover([[0], [0]], option_names=["x y", "z"]).zdd().to_dot()
    assert '[label="x y"]' in plain and '[label="z"]' in plain


def test_dot_renders_the_names_as_plain_text():
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (apt-get install graphviz)")
    zdd = _hostile_zdd()
    done = subprocess.run(
        ["dot", "-Tsvg"], input=zdd.to_dot().encode(), capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    svg = ET.fromstring(done.stdout)
    space = "{http://www.w3.org/2000/svg}"
    assert not list(svg.iter(space + "a")), "a name became a link"
    nodes = [g for g in svg.iter(space + "g") if g.get("class") == "node"]
    assert len(nodes) == zdd.size + 2
    # (the SVG keeps runs of spaces as no-break spaces)
    labels = sorted(
        "\n".join(t.text or "" for t in g.iter(space + "text")).replace("\xa0", " ") for g in nodes
    )
    assert labels == sorted(DOT_LABELS + ["0", "1"])


# ------------------------------------------------------------------ HTML
html5lib = pytest.importorskip(
    "html5lib", reason="html5lib is not installed (pip install '.[test]')"
)

HOSTILE = [
    "<!--<script>",
    "</script>",
    "<script>",
    "line\u2028separator",
    "para\u2029separator",
    "</SCRIPT >",
    "<!--",
    "-->",
    "&amp; &lt;",
    '<img src=x onerror="window.pwned=1">',
]


def _parse(text):
    html5lib = pytest.importorskip(
        "html5lib", reason="html5lib is not installed (pip install '.[test]')"
    )
    return html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=False)


def _text(element):
    return "".join(element.itertext())


def _hostile_player():
    items, options = HOSTILE[:5], HOSTILE[5:]
    problem = ExactCover(
        [[0, 1], [2, 3], [4], [0, 1, 2, 3], [4]], item_names=items, option_names=options
    )
    return play(problem), items, options


def _payload(script):
    """The player's script split as its asset says, the steps decoded."""
    head, tail = _asset("player.js").split("DATA", 1)
    assert script.startswith(head.split('"ID"')[0])
    start = script.index("var D = ") + len("var D = ")
    data, end = json.JSONDecoder().raw_decode(script, start)
    return script[start:end], data, script[end:]


def test_player_scripts_parse_as_written_with_hostile_names():
    player, items, options = _hostile_player()
    page = (
        "<!DOCTYPE html><html><head><title>t</title></head><body>"
        f'<p id="before">before</p>{player.html()}<p id="after">after</p></body></html>'
    )
    body = _parse(page).find("body")
    # the player is one element between the two markers, the script its last child
    assert [child.tag for child in body] == ["p", "div", "p"]
    assert body[2].get("id") == "after" and _text(body[2]) == "after"
    div = body[1]
    assert div.get("id") == player.dom_id
    scripts = list(div.iter("script"))
    assert len(scripts) == 1 and div[-1] is scripts[0]
    script = scripts[0].text
    payload, data, rest = _payload(script)
    assert data["items"] == items and data["names"] == options
    for bad in "<>&\u2028\u2029":
        assert bad not in payload
    tail = _asset("player.js").split("DATA", 1)[1]
    assert rest == tail.replace('"ID-"', json.dumps(player.dom_id + "-"))
    # the names in the matrix are text, not markup
    heads = [_text(th) for th in div.iter("th") if th.get("data-item") is not None]
    assert heads == items
    rows = [_text(tr[0]) for tr in div.iter("tr") if tr.get("data-option") is not None]
    assert rows == options
    assert not list(div.iter("img"))
    # a saved page keeps everything after the player
    saved = _parse(player.html().join(["<!DOCTYPE html><body>", "<p>end</p></body>"]))
    assert _text(saved.find("body")[-1]) == "end"


def test_every_embedded_json_is_escaped_for_a_script():
    from numbadlx.display import _escape

    text = _escape.script_json({"a": "</script><!--<script>&\u2028\u2029", "b": [1, "x"]})
    for bad in "<>&\u2028\u2029":
        assert bad not in text
    assert json.loads(text) == {"a": "</script><!--<script>&\u2028\u2029", "b": [1, "x"]}


def test_cover_table_names_are_text():
    items, options = HOSTILE[:5], HOSTILE[5:]
    problem = ExactCover.from_dlx(
        "a b | c\na c:<b>red</b>\nb c:<b>red</b>\n"
    )  # a colour name with markup
    body = _parse(exact_cover_html(problem)).find("body")
    assert not list(body.iter("b"))[1:]  # only the title's <b>ExactCover</b>
    assert "<b>red</b>" in _text(body)
    problem = ExactCover(
        [[0, 1], [2, 3], [4], [0, 1, 2, 3], [4]], item_names=items, option_names=options
    )
    body = _parse(exact_cover_html(problem, [0, 1, 2])).find("body")
    table = body.find(".//table")
    heads = [_text(th) for th in table.iter("th") if th.get("class") in ("primary", "secondary")]
    assert heads == items
    assert [_text(tr[0]) for tr in table.iter("tr") if tr.get("class") in ("chosen", "option")] == (
        options
    )
    assert not list(body.iter("img")) and not list(body.iter("script"))


def test_zdd_svg_names_are_text():
    names = HOSTILE + ["x\\", 'y"']
    svg = zdd_svg(ExactCover([[0]] * len(names), option_names=names).zdd())
    body = _parse(f"<!DOCTYPE html><body>{svg}<p>end</p></body>").find("body")
    space = "{http://www.w3.org/2000/svg}"
    assert [child.tag for child in body] == [space + "svg", "p"]
    titles = sorted(_text(t) for t in body.iter(space + "title"))
    assert titles == sorted(names)
    assert not list(body.iter("img")) and not list(body.iter("script"))


# ------------------------------------------------------------------ plots
def test_search_tree_plot_writes_names_as_text():
    """Matplotlib reads a text between two ``$`` as mathtext: a name is not a formula."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    from numbadlx.display.cover_plots import plot_search_tree

    items, options = ["$\\nocommand{x}$", "$y$"], ["$a_1$", "$\\frac{$", "$$"]
    problem = ExactCover([[0, 1], [0], [1]], item_names=items, option_names=options)
    try:
        fig = plot_search_tree(problem.trace())
        fig.canvas.draw()  # a name read as mathtext fails here
        texts = {t.get_text() for t in fig.axes[0].texts}
        assert set(options) | set(items) <= texts
        assert all(not t.get_parse_math() for t in fig.axes[0].texts)
    finally:
        plt.close("all")
