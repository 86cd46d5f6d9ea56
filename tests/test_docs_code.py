"""Every ```python block of the documentation (docs/) runs as written, page by page (a
page's blocks in order, in one fresh interpreter, as a reader running them in turn),
from a checkout with the public datasets in ``../shared/data`` beside it.

Two conventions keep the pages plain to read and still checked:

* a line ``expression  # value``, where ``value`` is a Python literal, says what the
  expression gives: the test checks that it does (``result.engine  # 'bits'``);
* a line ``statement  # SomeError: ...`` shows a refusal: the test checks that it raises
  that error.

A page whose blocks read the public datasets is skipped, saying why, without them;
blocks written as ``>>>`` sessions run as doctests."""

import ast
import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import data_dir, plain_env, run_once

pytestmark = run_once

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def python_blocks(text):
    """The ```python blocks of a Markdown page, in order."""
    blocks, current, inside = [], [], None
    for line in text.splitlines():
        if line.startswith("```"):
            if inside is None:
                inside, current = line[3:].strip(), []
            else:
                if inside == "python":
                    blocks.append("\n".join(current) + "\n")
                inside = None
        elif inside is not None:
            current.append(line)
    return blocks


def _pages():
    return sorted(p for p in DOCS.rglob("*.md") if python_blocks(p.read_text(encoding="utf-8")))


_ERROR_COMMENT = re.compile(r"^(?P<code>\S.*?)\s+#\s*(?P<error>[A-Z]\w*(Error|Exception)):")


def checked(block, where):
    """``block`` with its ``# value`` comments made checks and its ``# SomeError:``
    lines made to expect that error (top-level one-line statements only)."""
    out = []
    for number, line in enumerate(block.splitlines(), 1):
        here = f"{where}, line {number}"
        error = _ERROR_COMMENT.match(line)
        if error:
            code, name = error.group("code"), error.group("error")
            out += [
                "try:",
                f"    {code}",
                f"except {name}:",
                "    pass",
                "else:",
                f"    raise AssertionError({here!r} + ': expected {name}')",
            ]
            continue
        out.append(_value_check(line, here) or line)
    return "\n".join(out) + "\n"


def _value_check(line, here):
    """``line`` as a check of the value its comment gives, or None when it gives none."""
    if line[:1].isspace() or "#" not in line:
        return None
    code, _, comment = line.partition("  #")
    comment = comment.strip()
    if re.fullmatch(r"\d{1,3}(,\d{3})+", comment):  # a number written 3,110,940
        comment = comment.replace(",", "")
    try:
        statement = ast.parse(code.strip()).body
        wanted = ast.literal_eval(comment)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    if len(statement) != 1 or not isinstance(statement[0], ast.Expr):
        return None
    if isinstance(statement[0].value, ast.Call) and getattr(
        statement[0].value.func, "id", None
    ) in ("print", "display"):
        return None
    return f"_check(({code.strip()}), {wanted!r}, {here!r})"


_CHECK = """
def _check(got, wanted, where):
    got = got.tolist() if hasattr(got, "tolist") else got
    assert got == wanted, f"{where}: the page says {wanted!r}, the code gives {got!r}"
"""


def test_the_conventions_are_checked():
    code = checked("x = [1, 2]\nlen(x)  # 2\nx[5]  # IndexError: out of range\n", "p")
    namespace = {}
    exec(_CHECK + code, namespace)
    with pytest.raises(AssertionError, match="the page says 3, the code gives 2"):
        exec(_CHECK + checked("x = [1, 2]\nlen(x)  # 3\n", "p"), {})
    with pytest.raises(AssertionError, match="expected KeyError"):
        exec(_CHECK + checked("x = {1: 2}\nx[1]  # KeyError: absent\n", "p"), {})
    # a comment that is no literal, an assignment, a print: left as they are
    for line in ("len(x)  # two items", "y = 2  # 2", "print(1)  # 1"):
        assert checked(line, "p") == line + "\n"
    exec(_CHECK + checked("12 * 1000  # 12,000\n", "p"), {})


@pytest.mark.slow
@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_the_python_blocks_of_a_page_run_as_written(page, tmp_path):
    text = page.read_text(encoding="utf-8")
    blocks = python_blocks(text)
    code = "".join(blocks)
    if "shared/data" in code and not data_dir().is_dir():
        pytest.skip(f"{page.name} reads the public datasets, not found at {data_dir()}")
    for module, package in (
        ("pandas", "pandas"),
        ("plotting", "matplotlib"),
        ("dask", "distributed"),
    ):
        if module in code:
            pytest.importorskip(package)
    sessions = [block for block in blocks if block.lstrip().startswith(">>>")]
    for block in sessions:
        _run_session(block, page)
    script = _CHECK + "".join(
        checked(block, f"{page.relative_to(DOCS)} block {k + 1}")
        for k, block in enumerate(blocks)
        if block not in sessions
    )
    # a checkout in tmp_path/repo with ../shared/data beside it, as the pages assume
    repo = tmp_path / "repo"
    repo.mkdir()
    if data_dir().is_dir():
        (tmp_path / "shared").mkdir()
        (tmp_path / "shared" / "data").symlink_to(data_dir().resolve())
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=900,
        env=dict(
            plain_env(),
            MPLBACKEND="Agg",
            NUMBADLX_QUIET="1",
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        ),
    )
    assert run.returncode == 0, run.stderr[-3000:]


def _run_session(block, page):
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{page.name}: a >>> session gives other output"
