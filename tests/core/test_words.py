"""Counts in messages (numbadlx.core.words.plural), and no message of the package
writes a count as "thread(s)"."""

import re
from pathlib import Path

import numpy as np
import pytest

from numbadlx import ExactCover
from numbadlx.core.words import plural

ROOT = Path(__file__).resolve().parents[2] / "numbadlx"


@pytest.mark.parametrize(
    ("args", "text"),
    [
        ((1, "puzzle"), "1 puzzle"),
        ((0, "puzzle"), "0 puzzles"),
        ((2, "thread"), "2 threads"),
        ((np.int64(1), "range"), "1 range"),
        ((1.2, "puzzle/s", None, ",.0f"), "1 puzzle/s"),
        ((1.6, "puzzle/s", None, ",.0f"), "2 puzzles/s"),
        ((1234, "dead end", None, ","), "1,234 dead ends"),
        ((1, "entry", "entries"), "1 entry"),
        ((5, "entry", "entries"), "5 entries"),
    ],
)
def test_plural(args, text):
    assert plural(*args) == text


def test_no_message_writes_a_count_with_an_optional_s():
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\}\s*[A-Za-z ]+\(s\)", line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_a_count_of_one_is_singular_in_reprs():
    problem = ExactCover([[0]])
    assert repr(problem) == "ExactCover(1 option, 1 primary + 0 secondary items, 1 entry)"
