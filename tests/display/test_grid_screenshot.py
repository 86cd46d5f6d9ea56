"""A variant grid with many of the setters' marks, drawn by a real headless Chromium and
read back as pixels: every line's colour is on the screen, the outside clues sit in the
margin left of the grid and the grid is not cut off.

Skips, saying why, when no Chromium is found (``.ci/run`` installs Debian's
``chromium``).
"""

import shutil
import subprocess
import tempfile

import numpy as np
import pytest

from numbadlx.display import grid_html
from numbadlx.display._rule_shapes import LINE_COLOURS
from numbadlx.sudoku import Rules

PIXELS = 40  # a cell of a 9x9 grid in the SVG


def _c(row, col):
    return row * 9 + col


RULES = Rules(
    diagonals="anti",
    arrows=[(0, [10, 20]), ([3, 4], [13, 22])],
    little_killers=[([1, 11, 21, 31, 41, 51, 61, 71], 40)],
    sandwiches=[(list(range(9, 18)), 15)],
    x_sums=[(list(range(18, 27)), 23)],
    whispers=[[_c(1, 5), _c(2, 5), _c(2, 6)]],
    renbans=[[_c(3, 0), _c(4, 0), _c(5, 0)]],
    palindromes=[[_c(3, 2), _c(4, 3), _c(5, 2)]],
    between_lines=[[_c(6, 4), _c(6, 5), _c(6, 6), _c(6, 7)]],
    region_sum_lines=[[_c(4, 5), _c(4, 6), _c(4, 7)]],
    entropic_lines=[[_c(7, 1), _c(7, 2), _c(7, 3)]],
    modular_lines=[[_c(1, 7), _c(2, 8), _c(3, 8)]],
    zipper_lines=[[_c(5, 4), _c(5, 5), _c(5, 6), _c(5, 7), _c(5, 8)]],
    lockout_lines=[([_c(8, 4), _c(7, 5), _c(8, 6)], 4)],
    quadruples=[((_c(0, 6), _c(0, 7), _c(1, 6), _c(1, 7)), (1, 2, 3))],
    greater=[(_c(2, 3), _c(2, 4))],
    minimums=[_c(6, 0)],
    extra_regions=[[_c(6, 1), _c(6, 2), _c(7, 0)]],
    candidates={_c(0, 8): [1, 5, 9]},
    negative=("white",),
)


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def _rgb(colour):
    colour = colour.lstrip("#")
    return np.array([int(colour[i : i + 2], 16) for i in (0, 2, 4)]) / 255


@pytest.fixture(scope="module")
def screenshot(tmp_path_factory):
    chromium = _chromium()
    if chromium is None:
        pytest.skip("no Chromium found (apt-get install chromium): the screenshot test needs it")
    image = pytest.importorskip("matplotlib.image", reason="matplotlib reads the screenshot")
    folder = tmp_path_factory.mktemp("screenshot")
    page = folder / "grid.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
        f'<body style="margin:0;background:white">{grid_html("1" + "0" * 80, rules=RULES)}'
        "</body></html>",
        encoding="utf-8",
    )
    shot = folder / "grid.png"
    profile = tempfile.mkdtemp(prefix="numbadlx-chromium-")
    try:
        done = subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                f"--user-data-dir={profile}",
                "--window-size=520,600",
                f"--screenshot={shot}",
                page.as_uri(),
            ],
            capture_output=True,
            timeout=120,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if done.returncode != 0 or not shot.exists():
        pytest.skip(f"Chromium made no screenshot: {done.stderr.decode(errors='replace')[-300:]}")
    return image.imread(shot)[:, :, :3]


def _pixels_of(picture, colour, tol=0.04):
    return int((np.abs(picture - _rgb(colour)).max(axis=2) <= tol).sum())


@pytest.mark.slow
def test_every_line_colour_is_on_the_screen(screenshot):
    # a line a sixth of a cell wide and two cells long: hundreds of pixels of its colour
    for rule, colour in LINE_COLOURS.items():
        assert _pixels_of(screenshot, colour) >= 100, (rule, colour)
    # and a colour no mark uses is not
    assert _pixels_of(screenshot, "#ff00ff", tol=0.02) == 0


@pytest.mark.slow
def test_the_margin_holds_the_outside_clues_and_the_grid_is_whole(screenshot):
    dark = screenshot.max(axis=2) < 0.35
    # the grid's frame: a dark column one margin cell in, the whole grid's height
    left, top = PIXELS, PIXELS  # one cell of margin left (sandwich, x-sum) and above (killer)
    frame = dark[top + 5 : top + 9 * PIXELS - 5, left - 2 : left + 3].any(axis=1)
    assert frame.all()
    right = dark[top + 5 : top + 9 * PIXELS - 5, left + 9 * PIXELS - 3 : left + 9 * PIXELS + 2]
    assert right.any(axis=1).all()  # the right edge is on the screen too
    # the clues left of rows 1 and 2 (15 and 23) are dark text inside the margin
    for row in (1, 2):
        slot = dark[top + row * PIXELS + 5 : top + (row + 1) * PIXELS - 5, 4 : left - 4]
        assert slot.sum() >= 20, row
    # the little killer's clue and arrow above column 0, up-left of its first cell
    assert dark[4 : top - 2, left + 2 : left + PIXELS - 2].sum() >= 20
    # nothing above the other columns
    assert not dark[: top - 2, left + PIXELS + 2 : left + 9 * PIXELS].any()
    # no margin right of the grid: nothing is drawn past its frame
    assert not dark[top : top + 9 * PIXELS, left + 9 * PIXELS + 4 :].any()
