"""MkDocs hooks: pages take text that lives elsewhere in the repository at build time, so
the site never holds a second copy of it, and the API pages lose the docstrings' roles.

* A line ``<!-- readme: Title -->`` in a page is replaced by the body of README's
  section whose ``## `` heading starts with Title (up to the next ``## `` heading): the
  set-up commands.
* A block from ``<!-- results: NAME -->`` to ``<!-- /results -->`` is replaced by the
  benchmark results file ``benchmarks/results/NAME.md`` (what the benchmark scripts
  write with ``--results``), less its ``# `` title: the page has its own. The text
  between the two markers is what GitHub shows instead (a link to the file).
* Links in that text (to files of the repository, not pages of the site) become plain
  text.
* The docstrings are numpydoc with Sphinx roles (:func:`solve`, :class:`~numbadlx.X`),
  which mkdocstrings does not know: every role becomes the code span of its target
  (``~`` keeps the last part only, as in Sphinx), and a role left over is a build
  warning, so ``mkdocs build --strict`` fails on it.
"""

import logging
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RESULTS = ROOT / "benchmarks" / "results"
MARKER = re.compile(r"^<!-- readme: (.+?) -->$", re.MULTILINE)
RESULTS_BLOCK = re.compile(
    r"^<!-- results: ([\w-]+) -->$.*?^<!-- /results -->$", re.MULTILINE | re.DOTALL
)
FILE_LINK = re.compile(r"\[([^\]]+)\]\((?!https?:|#)[^)]+\)")

log = logging.getLogger("mkdocs.hooks.numbadlx")


def readme_section(title):
    """The body of README's ``## title`` section; an error if it is missing."""
    text = README.read_text(encoding="utf-8")
    heading = rf"^## {re.escape(title)}\b[^\n]*\n"  # "Set up" finds "## Set up (a fresh ...)"
    match = re.search(heading + r"(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    if match is None:
        raise ValueError(f"README.md has no section '## {title}' (asked for by the docs)")
    return FILE_LINK.sub(r"\1", match.group(1)).strip() + "\n"


def results_file(name, level=1):
    """A benchmark results file without its ``# `` title, its own headings moved below
    a page heading of ``level``; an error if the file is missing."""
    path = RESULTS / f"{name}.md"
    if not path.is_file():
        raise ValueError(f"benchmarks/results/{name}.md is missing (asked for by the docs)")
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\A# [^\n]*\n", "", text)
    text = re.sub(r"^##", "#" * (level + 1), text, flags=re.MULTILINE)
    return FILE_LINK.sub(r"\1", text).strip() + "\n"


def _heading_level(markdown, end):
    """The level of the last ``#`` heading before position ``end`` (1 without one)."""
    levels = re.findall(r"^(#+) ", markdown[:end], re.MULTILINE)
    return len(levels[-1]) if levels else 1


def on_page_markdown(markdown, page, config, files):
    markdown = MARKER.sub(lambda match: readme_section(match.group(1)), markdown)
    return RESULTS_BLOCK.sub(
        lambda m: results_file(m.group(1), _heading_level(markdown, m.start())), markdown
    )


ROLE_NAMES = r"(?:func|meth|class|mod|attr|data|exc|obj)"
# a role whose target Markdown already made a code span: :func:<code>~a.b</code>
ROLE_CODE = re.compile(rf":{ROLE_NAMES}:(<code>)(~?)([^<]*)(</code>)")
# a role in text mkdocstrings shows as it is (a parameter's type): :func:`~a.b`
ROLE_RAW = re.compile(rf":{ROLE_NAMES}:`(~?)([^`<]*)`")
LEFT_OVER = re.compile(rf":{ROLE_NAMES}:")


def _target(tilde, target):
    return target.rsplit(".", 1)[-1] if tilde else target


def on_page_content(html, page, config, files):
    html = ROLE_CODE.sub(lambda m: m[1] + _target(m[2], m[3]) + m[4], html)
    html = ROLE_RAW.sub(lambda m: _target(m[1], m[2]), html)
    for match in LEFT_OVER.finditer(html):
        context = html[max(0, match.start() - 60) : match.end() + 60]
        log.warning("%s: a Sphinx role left unrendered: ...%s...", page.file.src_path, context)
    return html
