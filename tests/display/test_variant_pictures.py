"""The pictures of docs/variants.md: the committed SVGs are what docs/variant_pictures.py
writes today (rerun it after a change to the drawing), each is shown on the page, and
each is small."""

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _script():
    spec = importlib.util.spec_from_file_location("variant_pictures", DOCS / "variant_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_pictures_are_what_the_script_writes():
    made = _script().pictures()
    folder = DOCS / "pictures"
    assert sorted(made) == sorted(p.name for p in folder.glob("*.svg"))
    for name, text in made.items():
        assert (folder / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python docs/variant_pictures.py"
        )
        assert len(text.encode()) < 8000, name


def test_every_picture_is_on_the_variants_page():
    page = (DOCS / "variants.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\]\(pictures/([\w-]+\.svg)\)", page))
    assert shown == {p.name for p in (DOCS / "pictures").glob("*.svg")}


def test_each_picture_draws_the_example_above_it():
    """The page's example before each picture makes the rules the picture was drawn
    with."""
    from numbadlx.sudoku import Grid, Rules

    page = (DOCS / "variants.md").read_text(encoding="utf-8")
    pictures = _script().PICTURES
    pairs = re.findall(
        r"```python\n((?:(?!```).)*?)```\s*\n!\[[^\]]*\]\(pictures/([\w-]+)\.svg\)", page, re.S
    )
    assert len(pairs) == len(pictures)
    for code, name in pairs:
        scope = {"Grid": Grid, "Rules": Rules}
        exec(code, scope)
        assert scope["rules"] == pictures[name][1], name
