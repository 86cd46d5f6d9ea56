"""The matrix player (numbadlx.display.player): its steps against the trace, its HTML,
and the page itself driven in a real headless Chromium through Selenium.

The browser tests skip, with a message, when Selenium, Chromium or chromedriver cannot
be found (``.ci/run`` installs Debian's ``chromium`` and ``chromium-driver``).
"""

import os
import shutil
import tempfile

import numpy as np
import pytest

from numbadlx import ExactCover, problems, sudoku
from numbadlx.display.player import PLAYER_MAX_CELLS, MatrixPlayer, play

# Knuth's example: options A..F over items 1..7.
TUTORIAL = [[0, 3, 6], [0, 3], [3, 4, 6], [2, 4, 5], [1, 2, 5, 6], [1, 6]]
ROWS = "ABCDEF"


def _classic():
    return ExactCover(TUTORIAL, item_names="1234567", option_names=ROWS)


# Hand-run (see tests/test_display.py's HAND_RUN for the trace): the step, then the
# chosen (red) option, the covered (blue) items, the clashing (purple) options, and
# the removed (faded) options and items.
HAND_STEPS = {
    0: ("choose", "", "1", "", "", ""),
    1: ("try", "A", "147", "BCEF", "", ""),
    2: ("cover", "", "", "", "ABCEF", "147"),
    5: ("uncover", "", "147", "", "", ""),
    6: ("try", "B", "14", "AC", "", ""),
    7: ("cover", "", "", "", "ABC", "14"),
    9: ("try", "D", "356", "E", "ABC", "14"),
    10: ("cover", "", "", "", "ABCDE", "13456"),
    12: ("try", "F", "27", "", "ABCDE", "13456"),
    14: ("solution", "", "", "", "ACE", "1234567"),
}


def test_steps_follow_the_trace():
    problem = _classic()
    player = problem.play()
    table = problem.trace(as_frame=False)
    kinds = [step.kind for step in player.steps]
    assert kinds[:15] == [
        "choose", "try", "cover", "choose", "backtrack", "uncover", "try", "cover",
        "choose", "try", "cover", "choose", "try", "cover", "solution",
    ]  # fmt: skip
    # every trace event has its step, in order, naming the same item and option
    for kind in ("choose", "try", "backtrack", "solution"):
        rows = np.flatnonzero(table["event"] == kind)
        steps = [step for step in player.steps if step.kind == kind]
        assert [step.event for step in steps] == rows.tolist()
        assert [step.level for step in steps] == table["level"][rows].tolist()
        if kind != "solution":
            assert [step.item for step in steps] == table["item"][rows].tolist()
    tries = [step.option for step in player.steps if step.kind == "try"]
    assert tries == table["option"][table["event"] == "try"].tolist()
    # a cover follows every try, and every tried option is uncovered once
    assert kinds.count("cover") == kinds.count("try") == kinds.count("uncover")
    solution = next(step.stack for step in player.steps if step.kind == "solution")
    assert sorted(solution) == [1, 3, 5] and problem.verify(solution)
    assert not player.truncated and player.solutions == 1


def test_sudoku_4x4_and_6x6_through_exact_cover():
    for puzzle in ("1000001003000004", "0" * 36):
        problem, cells, digits = sudoku.to_exact_cover(puzzle)
        player = play(problem, limit=1)
        stacks = [step.stack for step in player.steps if step.kind == "solution"]
        assert len(stacks) == 1 and problem.verify(stacks[0])
        grid = np.zeros(len(puzzle), dtype=np.uint8)
        grid[cells[list(stacks[0])]] = digits[list(stacks[0])]
        assert grid.all() and sudoku.check_grid(grid) is None  # full, no clash
        givens = np.frombuffer(puzzle.encode(), dtype=np.uint8) - ord("0")
        assert np.all((givens == 0) | (grid == givens))
        assert "<script>" in player._repr_html_()


def test_too_big_or_multiplicities_is_a_clear_error_and_long_searches_are_cut():
    with pytest.raises(ValueError, match="too many to redraw"):
        play(problems.pentominoes(6, 10))
    assert 2056 * 72 > PLAYER_MAX_CELLS
    with pytest.raises(ValueError, match="multiplicities"):
        play(ExactCover([[0], [0]], bounds=[(1, 2)]))
    player = play(problems.n_queens(8), max_events=50)
    assert player.truncated and "first" in player.html()
    assert not play(problems.n_queens(5)).truncated


def test_players_have_their_own_ids_and_escape_names():
    problem = ExactCover([[0, 1], [1]], item_names=["<b>", "</script>"], option_names="xy")
    first, second = play(problem), play(problem)
    assert first.dom_id != second.dom_id
    text = first.html()
    markup = text.split("<script>")[0]  # in the JSON, a name is a JavaScript string
    assert "<b>" not in markup.replace("<b>Dancing", "") and "&lt;b&gt;" in markup
    assert text.count("</script>") == 1  # the name inside the JSON is escaped too
    assert isinstance(first, MatrixPlayer) and len(first) == len(first.steps)


def test_script_and_styles_are_package_files():
    """The page carries ``assets/player.js`` and ``player.css`` as read from the package,
    with the player's id and steps put in place of their placeholders."""
    from importlib.resources import files

    assets = files("numbadlx.display") / "assets"
    script = (assets / "player.js").read_text(encoding="utf-8")
    styles = (assets / "player.css").read_text(encoding="utf-8")
    assert "var D = DATA;" in script and 'getElementById("ID")' in script
    assert styles.count("#ID") > 10
    player = play(_classic())
    text = player.html()
    uid = player.dom_id
    assert f"<style>{styles.replace('#ID', '#' + uid)}</style>" in text
    tail = script.split("var D = DATA;")[1]
    assert tail.replace('"ID-"', f'"{uid}-"') in text
    assert "DATA" not in text and '"ID' not in text
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "pyproject.toml")) as handle:
        assert '"numbadlx.display" = ["assets/*.js", "assets/*.css"]' in handle.read()


def _css_rules(styles):
    """``{selector: {property: value}}`` of a style sheet (comments dropped; a rule
    listing several selectors gives each of them the declarations)."""
    import re

    rules = {}
    for selectors, body in re.findall(
        r"([^{}]+)\{([^}]*)\}", re.sub(r"/\*.*?\*/", "", styles, flags=re.S)
    ):
        declarations = dict(
            (name.strip(), value.strip())
            for name, _, value in (part.partition(":") for part in body.split(";"))
            if value.strip()
        )
        for selector in selectors.split(","):
            rules.setdefault(" ".join(selector.split()), {}).update(declarations)
    return rules


def _luminance(colour):
    """Relative luminance (WCAG 2) of ``#rgb`` or ``#rrggbb``."""
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(text, background):
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    dark, light = sorted((_luminance(text), _luminance(background)))
    return (light + 0.05) / (dark + 0.05)


def test_contrast_helper_matches_published_ratios():
    assert _contrast("#000", "#fff") == pytest.approx(21)
    assert _contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    assert _contrast("#777", "#fff") < 4.5  # one step lighter fails AA


def test_faded_rows_keep_their_text_readable():
    """Rows and columns out of the matrix are faded by colour, not opacity, and their
    text keeps a contrast of at least 4.5:1 (WCAG AA for text) on its background."""
    from importlib.resources import files

    styles = (files("numbadlx.display") / "assets" / "player.css").read_text(encoding="utf-8")
    rules = _css_rules(styles)
    page = rules["#ID"]["background"]
    for selector, declarations in rules.items():
        opacity = declarations.get("opacity")
        assert opacity is None or float(opacity) == 1, (selector, opacity)
    faded = [
        "#ID tr.removed td",
        "#ID tr.removed th",
        "#ID td.removed",
        "#ID th.removed",
        "#ID tr.removed td.one",
        "#ID td.removed.one",
        "#ID tr.removed.picked th",
        "#ID .ndlx-side li.tried",
    ]
    for selector in faded:
        colour = rules[selector]["color"]
        # a rule without a background of its own is on the faded rows' or the page's
        background = rules[selector].get(
            "background",
            rules["#ID tr.removed td"]["background"] if "removed" in selector else page,
        )
        assert _contrast(colour, background) >= 4.5, (selector, colour, background)
    # and everything else that sets a text colour and a background of its own
    for selector, declarations in rules.items():
        if "color" in declarations and declarations.get("background", "").startswith("#"):
            assert _contrast(declarations["color"], declarations["background"]) >= 4.5, selector
    assert _contrast(rules["#ID table.ndlx-matrix th.secondary"]["color"], page) >= 4.5


# ------------------------------------------------------------------ browser
def _browser_paths():
    chromium = next(
        (
            shutil.which(name)
            for name in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(name)
        ),
        None,
    )
    driver = shutil.which("chromedriver") or (
        "/usr/lib/chromium/chromedriver"
        if os.path.exists("/usr/lib/chromium/chromedriver")
        else None
    )
    return chromium, driver


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium is not installed (pip install '.[test]')"
    )
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = _browser_paths()
    if chromium is None or driver_path is None:
        pytest.skip(
            "no Chromium and chromedriver found (apt-get install chromium chromium-driver); "
            "the player's browser tests need them"
        )
    profile = tempfile.mkdtemp(prefix="numbadlx-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as error:  # a browser that will not start is a skip, said why
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"Chromium would not start under chromedriver: {error}")
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _state(driver, uid):
    """What the page shows now: row and item classes, visible rows, lists."""
    return driver.execute_script(
        """
        var root = document.getElementById(arguments[0]);
        var rows = {}, cols = {}, shown = [];
        root.querySelectorAll("tr[data-option]").forEach(function (tr) {
            var name = tr.querySelector("th").textContent;
            rows[name] = tr.className.split(" ").filter(Boolean);
            if (tr.offsetParent !== null) { shown.push(name); }
        });
        root.querySelectorAll("th[data-item]").forEach(function (th) {
            cols[th.textContent] = th.className.split(" ").filter(Boolean);
        });
        var sol = Array.prototype.map.call(
            document.querySelectorAll("#" + arguments[0] + "-solution li"),
            function (li) { return li.textContent.split(":")[0]; });
        var choices = Array.prototype.map.call(
            document.querySelectorAll("#" + arguments[0] + "-choices li"),
            function (li) { return li.textContent.split(":")[0]; });
        return {step: root.getAttribute("data-step"), rows: rows, cols: cols, shown: shown,
                solution: sol, choices: choices,
                caption: document.getElementById(arguments[0] + "-caption").textContent};
        """,
        uid,
    )


def _with(state, group, cls):
    return "".join(sorted(name for name, classes in state[group].items() if cls in classes))


def _removed_by(solution):
    """Options and items the partial solution removes, from the matrix itself."""
    covered = {i for name in solution for i in TUTORIAL[ROWS.index(name)]}
    rows = "".join(n for k, n in enumerate(ROWS) if covered & set(TUTORIAL[k]))
    return rows, "".join(sorted(str(i + 1) for i in covered))


@pytest.mark.slow
def test_browser_steps_through_the_classic_example(browser, tmp_path):
    problem = _classic()
    player = problem.play()
    table = problem.trace(as_frame=False)
    page = player.save(tmp_path / "dance.html")
    browser.get(page.as_uri())
    uid = player.dom_id
    state = _state(browser, uid)
    assert state["step"] == "0" and state["caption"].startswith("Level 0: item 1")
    next_button = browser.find_element("id", f"{uid}-next")
    tries = iter(table["option_name"][table["event"] == "try"].tolist())
    for n in range(len(player)):
        if n:
            next_button.click()
        state = _state(browser, uid)
        assert state["step"] == str(n)
        kind = player.steps[n].kind
        assert f"({kind})" in browser.find_element("id", f"{uid}-counter").text
        if kind == "try":  # the red row is the trace's next tried option
            assert _with(state, "rows", "chosen") == next(tries)
        if kind != "solution":
            # faded rows and items are exactly those the listed partial solution removes
            rows, items = _removed_by(state["solution"])
            assert _with(state, "rows", "removed") == rows
            assert _with(state, "cols", "removed") == items
        if n in HAND_STEPS:
            want_kind, red, blue, purple, faded_rows, faded_items = HAND_STEPS[n]
            assert kind == want_kind
            assert _with(state, "rows", "chosen") == red
            assert _with(state, "cols", "covered") == blue
            assert _with(state, "rows", "clash") == purple
            assert _with(state, "rows", "removed") == faded_rows
            assert _with(state, "cols", "removed") == faded_items
    assert next(tries, None) is None
    # the solution step: B, D and F marked, listed as the solution
    browser.find_element("id", f"{uid}-first").click()
    _slide(browser, uid, 14)
    state = _state(browser, uid)
    assert state["solution"] == ["B", "D", "F"] and _with(state, "rows", "solution") == "BDF"
    # the smaller matrix that is left: hide removed rows and items after covering B
    _slide(browser, uid, 7)
    browser.find_element("id", f"{uid}-hide").click()
    state = _state(browser, uid)
    assert state["shown"] == ["D", "E", "F"] and state["choices"] == ["A", "B"]  # level 0
    hidden_items = browser.execute_script(
        "return Array.prototype.filter.call(document.querySelectorAll("
        "'#' + arguments[0] + ' th[data-item]'), function (th) {"
        "return th.offsetParent === null; }).map(function (th) { return th.textContent; });",
        uid,
    )
    assert hidden_items == ["1", "4"]
    # level choices at step 8: item 5 has one option, D
    _slide(browser, uid, 8)
    assert _state(browser, uid)["choices"] == ["D"]
    # the keyboard: the arrow keys step the player that has the focus
    from selenium.webdriver.common.keys import Keys

    matrix = browser.find_element("id", f"{uid}-matrix")
    matrix.click()
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert _state(browser, uid)["step"] == "9"
    browser.switch_to.active_element.send_keys(Keys.END)
    assert _state(browser, uid)["step"] == str(len(player) - 1)


def _slide(driver, uid, n):
    driver.execute_script(
        "var s = document.getElementById(arguments[0] + '-slider'); s.value = arguments[1];"
        "s.dispatchEvent(new Event('input'));",
        uid,
        n,
    )


def test_browser_two_players_on_one_page_work_apart(browser, tmp_path):
    first, second = _classic().play(), play(problems.n_queens(4))
    page = tmp_path / "two.html"
    page.write_text(
        f"<!DOCTYPE html><html><body>{first.html()}{second.html()}</body></html>",
        encoding="utf-8",
    )
    browser.get(page.as_uri())
    for _ in range(3):
        browser.find_element("id", f"{second.dom_id}-next").click()
    assert _state(browser, first.dom_id)["step"] == "0"
    assert _state(browser, second.dom_id)["step"] == "3"
    browser.find_element("id", f"{first.dom_id}-last").click()
    assert _state(browser, first.dom_id)["step"] == str(len(first) - 1)
    assert _state(browser, second.dom_id)["step"] == "3"


def test_browser_colours_keep_options_of_the_same_colour(browser, tmp_path):
    """Algorithm C: after 'a x:red' is chosen, 'b x:red' stays and 'b x:blue' goes."""
    problem = ExactCover.from_dlx("a b | x\na x:red\nb x:red\nb x:blue\n")
    player = problem.play()
    kinds = [step.kind for step in player.steps]
    assert kinds[:3] == ["choose", "try", "cover"] and player.steps[1].option == 0
    page = player.save(tmp_path / "colours.html")
    browser.get(page.as_uri())
    uid = player.dom_id
    cells = browser.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll("
        "'#' + arguments[0] + ' tr[data-option] td'), function (td) { return td.textContent; });",
        uid,
    )
    assert cells == ["1", "", "red", "", "1", "red", "", "1", "blue"]  # colour names shown
    _slide(browser, uid, 1)  # try option 0: only the blue option clashes on x
    rows = _state(browser, uid)["rows"]
    clashing = sorted(name for name, classes in rows.items() if "clash" in classes)
    assert clashing == ["b x:blue"]  # rows are named by the option's text
    _slide(browser, uid, 2)  # cover: option 0 and the blue one leave, the red one stays
    rows = _state(browser, uid)["rows"]
    removed = sorted(name for name, classes in rows.items() if "removed" in classes)
    assert removed == ["a x:red", "b x:blue"]
    solution = next(step.stack for step in player.steps if step.kind == "solution")
    assert sorted(solution) == [0, 1] and problem.verify(solution)


@pytest.mark.slow
def test_browser_player_with_hostile_names_still_steps(browser, tmp_path):
    """Names that look like markup or end a script stay names: the saved page's
    player steps, shows them as text, and nothing after it is lost."""
    items = ["<!--<script>", "</script>", "<script>", "line\u2028separator"]
    options = ['<img src=x onerror="window.pwned=1">', "</SCRIPT >", "<!--", "-->"]
    problem = ExactCover([[0, 1], [2, 3], [0, 1, 2], [3]], item_names=items, option_names=options)
    player = problem.play()
    page = player.save(tmp_path / "hostile.html")
    browser.get(page.as_uri())
    uid = player.dom_id
    state = _state(browser, uid)
    assert state["step"] == "0" and state["caption"].startswith("Level 0: item ")
    assert state["caption"].split(":")[1].startswith(f" item {items[0]} ")  # shown as text
    assert sorted(state["cols"]) == sorted(items) and sorted(state["rows"]) == sorted(options)
    next_button = browser.find_element("id", f"{uid}-next")
    solutions = []
    for n in range(1, len(player)):
        next_button.click()
        state = _state(browser, uid)
        assert state["step"] == str(n)
        assert f"({player.steps[n].kind})" in browser.find_element("id", f"{uid}-counter").text
        if player.steps[n].kind == "solution":
            solutions.append(state["solution"])
    assert solutions == [[options[0], options[1]], [options[2], options[3]]]
    assert browser.execute_script("return window.pwned === undefined;")
    assert browser.execute_script("return document.scripts.length;") == 1


MATERIAL_RESET = (
    "<style>button{padding:0;margin:0;font-family:inherit;font-size:inherit;"
    "background:#0000;border:0}"
    ".md-typeset table tr:nth-child(odd) td{background:#eee;color:#999}"
    ".md-typeset ol li,.md-typeset ul li{margin-left:1.25em;margin-bottom:.5em}</style>"
)


def test_browser_buttons_keep_their_look_under_a_theme_reset(browser, tmp_path):
    """A documentation theme (Material for MkDocs) resets every button to no border and
    no background: the player's buttons still show as buttons, and faded rows stay
    readable, on such a page."""
    player = _classic().play()
    page = tmp_path / "themed.html"
    page.write_text(
        f"<!DOCTYPE html><html><head>{MATERIAL_RESET}</head><body>"
        f'<article class="md-typeset">{player.html()}</article></body></html>',
        encoding="utf-8",
    )
    browser.get(page.as_uri())
    uid = player.dom_id
    for _ in range(3):  # a step with rows removed
        browser.find_element("id", f"{uid}-next").click()
    look = browser.execute_script(
        """
        var b = getComputedStyle(document.getElementById(arguments[0] + "-next"));
        var row = document.querySelector("#" + arguments[0] + " tr.removed td");
        var faded = row ? getComputedStyle(row) : null;
        return {border: b.borderTopWidth, style: b.borderTopStyle, background: b.backgroundColor,
                padding: b.paddingLeft,
                faded: faded && [faded.color, faded.backgroundColor, faded.opacity]};
        """,
        uid,
    )
    assert look["border"] != "0px" and look["style"] == "solid", look
    assert look["background"] not in ("rgba(0, 0, 0, 0)", "transparent"), look
    assert look["padding"] != "0px", look
    assert look["faded"] is not None, "no removed row at this step"
    colour, background, opacity = look["faded"]

    def hex_of(rgb):
        return "#" + "".join(f"{int(v):02x}" for v in rgb[rgb.index("(") + 1 : -1].split(",")[:3])

    assert float(opacity) == 1
    assert _contrast(hex_of(colour), hex_of(background)) >= 4.5, look


def _errands():
    """Two named options that differ only in the colour of the van."""
    return ExactCover.from_names(
        {"morning": ["shop", "drive", "van:red"], "evening": ["shop", "drive", "van:blue"]},
        secondary=["van"],
    )


def test_option_lists_show_the_colours_of_secondary_items():
    player = _errands().play()
    html = player.html()
    # the lists' text of each option: its items as Knuth writes them, colours included
    assert '"optionTexts":["shop drive van:red","shop drive van:blue"]' in html


def test_browser_choices_show_the_colours_of_secondary_items(browser, tmp_path):
    player = _errands().play()
    page = player.save(tmp_path / "errands.html")
    browser.get(page.as_uri())
    uid = player.dom_id
    _slide(browser, uid, 0)  # choose "shop": both options are this level's choices
    choices = browser.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll("
        "'#' + arguments[0] + '-choices li'), function (li) { return li.textContent; });",
        uid,
    )
    assert choices == ["morning: shop drive van:red", "evening: shop drive van:blue"]
    # at the solution, the partial solution lists the option, colour too
    _slide(browser, uid, [step.kind for step in player.steps].index("solution"))
    solution = browser.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll("
        "'#' + arguments[0] + '-solution li'), function (li) { return li.textContent; });",
        uid,
    )
    assert solution == ["morning: shop drive van:red"]


def test_save_never_replaces_a_page_that_holds_something_unless_asked(tmp_path):
    player = play(ExactCover([[0], [0]]))
    page = tmp_path / "dance.html"
    page.write_text("my notes\n")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        player.save(page)
    assert page.read_text() == "my notes\n"
    assert player.save(page, overwrite=True).read_text().startswith("<!DOCTYPE html>")
    empty = tmp_path / "empty.html"
    empty.write_text("")
    assert player.save(empty).read_text() == page.read_text()
