"""The documentation site's sources: benchmark pages come from results files that say
how, where and when they were made; the API reference lists public names only; the
build hook renders the docstrings' Sphinx roles; no page carries a development
machine's paths, issue numbers or commit ids. (CI builds the site itself with
``mkdocs build --strict``.)"""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RESULTS = ROOT / "benchmarks" / "results"
PAGES = sorted(p for p in DOCS.rglob("*.md"))
RESULT_FILES = sorted(RESULTS.glob("*.md"))


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_there_are_results_files_and_pages():
    assert len(RESULT_FILES) >= 8
    assert (DOCS / "benchmarks" / "index.md").is_file()


@pytest.mark.parametrize("path", RESULT_FILES, ids=lambda p: p.name)
def test_a_results_file_says_its_command_cpu_and_date(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# "), "a results file starts with its title"
    assert re.search(r"^Run on \d{4}-\d{2}-\d{2}: `python benchmarks/[\w/]+\.py", text, re.M)
    assert re.search(r"^CPU: .+; \d+ cores", text, re.M)
    assert "|---" in text, "a results file holds at least one table"


def test_every_results_file_is_shown_and_every_page_finds_its_file():
    wanted = set()
    for page in PAGES:
        wanted |= set(re.findall(r"^<!-- results: ([\w-]+) -->$", page.read_text(), re.M))
    assert wanted == {p.stem for p in RESULT_FILES}


@pytest.mark.parametrize("path", PAGES + RESULT_FILES, ids=lambda p: p.name)
def test_no_machine_paths_issue_numbers_or_commits(path):
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"/work/|/home/|[Ii]ssue \d", text)
    assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b", text)
    assert not re.search(r"load avg|load average", text)


def test_the_api_reference_lists_public_names_only():
    for page in sorted((DOCS / "api").glob("*.md")):
        for target in re.findall(r"^::: (\S+)", page.read_text(), re.M):
            parts = target.split(".")
            assert parts[0] == "numbadlx", target
            assert not any(part.startswith("_") for part in parts), target
            # the engines and the kernels are private: never a page of their own
            assert not {"kernel", "kernels", "bands", "bitboard", "engines"} & set(parts), target


def test_the_hook_renders_sphinx_roles():
    hooks = _hooks()

    class Page:
        class file:
            src_path = "api/x.md"

    html = (
        "see :func:<code>~numbadlx.sudoku.solve</code> and :class:<code>Status</code>;"
        "<code>as in :func:`numbadlx.sudoku.solve`.</code> "
        "<code>(N,) uint8, :class:`~numbadlx.sudoku.Status` codes</code>"
    )
    out = hooks.on_page_content(html, Page, None, None)
    assert ":func:" not in out and ":class:" not in out
    assert "<code>solve</code>" in out and "<code>Status</code>" in out
    assert "as in numbadlx.sudoku.solve." in out and "uint8, Status codes" in out


def test_the_hook_puts_results_files_under_the_page_heading():
    hooks = _hooks()
    page = "# Page\n\n## Part\n\n<!-- results: engines -->\nOn GitHub: a link\n<!-- /results -->\n"
    out = hooks.on_page_markdown(page, None, None, None)
    assert "On GitHub" not in out and "Run on " in out
    assert "\n### Notes on this run" in out and not re.search(r"^# Sudoku", out, re.M)


def test_the_command_line_page_counts_its_commands_and_says_what_solve_prints():
    """docs/cli.md's opening table lists every command, and the number it gives is
    that of the table's rows and of the parser's commands."""
    import argparse

    from numbadlx.cli._parser import build_parser

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    said = re.search(r"(\w+) commands:", text).group(1).lower()
    rows = re.findall(r"^\| `numbadlx (\S+)", text, re.M)
    actions = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    commands = list(actions[0].choices)
    assert rows[: len(commands)] == commands
    assert said == words[len(commands) - 1], f"the page says {said} commands"
    # without -o the built-in sample's solutions are not printed: no "to stdout"
    bare = [line for line in text.splitlines() if re.match(r"numbadlx solve\s+#", line)]
    assert bare and all("stdout" not in line for line in bare), bare
