"""MkDocs hook: pages take sections of README.md at build time, so the site never
holds a second copy of the set-up commands or the benchmark tables.

A line ``<!-- readme: Title -->`` in a page is replaced by the body of README's
section whose ``## `` heading starts with Title (up to the next ``## `` heading).
Links to files of the repository, which are not pages of the site, become plain text.
The API pages lose the Sphinx role names of the docstrings (see ``on_page_content``).
"""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
MARKER = re.compile(r"^<!-- readme: (.+?) -->$", re.MULTILINE)
FILE_LINK = re.compile(r"\[([^\]]+)\]\((?!https?:|#)[^)]+\)")


def readme_section(title):
    """The body of README's ``## title`` section; an error if it is missing."""
    text = README.read_text(encoding="utf-8")
    heading = rf"^## {re.escape(title)}\b[^\n]*\n"  # "Set up" finds "## Set up (a fresh ...)"
    match = re.search(heading + r"(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    if match is None:
        raise ValueError(f"README.md has no section '## {title}' (asked for by the docs)")
    return FILE_LINK.sub(r"\1", match.group(1)).strip() + "\n"


def on_page_markdown(markdown, page, config, files):
    return MARKER.sub(lambda match: readme_section(match.group(1)), markdown)


# The docstrings are numpydoc with Sphinx roles (:func:`solve`, :class:`~numbadlx.X`);
# mkdocstrings shows such a role's target as code, so the role's name and a leading
# "~" (Sphinx: show the last part only) are dropped from the page.
ROLE = re.compile(r":(?:func|meth|class|mod|attr|data|exc|obj):(<code>)(~?)([^<]*)(</code>)")


def _role(match):
    target = match.group(3)
    if match.group(2):
        target = target.rsplit(".", 1)[-1]
    return match.group(1) + target + match.group(4)


def on_page_content(html, page, config, files):
    return ROLE.sub(_role, html)
