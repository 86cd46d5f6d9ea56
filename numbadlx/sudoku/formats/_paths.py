"""A path or puzzles? The one rule for a string given where either may come.

A string with no line break that names an existing file is that file. Otherwise, a
one-line string that is a well-formed puzzle line is a puzzle, and any other one-line
string is a missing file (``FileNotFoundError``), never puzzle text read by mistake.
"""

from __future__ import annotations

import math
import os
import re

import numpy as np

from ..shape import MAX_SIZE, MIN_SIZE
from ._cells import _BLANK_CHARS, _LEADING_RUN_RE, _LOOKUP, _TOKEN_RE


def _is_existing_file(text: str) -> bool:
    if "\n" in text or "\r" in text or len(text) > 4096:
        return False
    try:
        return os.path.exists(text)  # a directory too: reading it says so
    except (OSError, ValueError):
        return False


def _looks_like_path(text: str) -> bool:
    stripped = text.strip()
    if "\n" in stripped:
        return False
    has_suffix = re.search(r"\.[A-Za-z]\w{0,4}$", stripped) is not None
    return "/" in stripped or "\\" in stripped or has_suffix


def _is_puzzle_line(text: str, n: int | None, min_size: int = MIN_SIZE) -> bool:
    """Whether one line of text (no file of that name exists) is a well-formed puzzle:
    ``n * n`` cell characters of one size (``n`` if known), each a legal cell of that
    size, perhaps in groups separated by spaces or followed by a trailing field (a
    comment, a rating); or ``n * n`` numbers 0..n separated by spaces or commas.
    Otherwise a string that names no file is a missing file. ``min_size``: the
    smallest size read (2 for grids without boxes)."""
    sizes = range(min_size, MAX_SIZE + 1) if n is None else (n,)
    run = _LEADING_RUN_RE.match(text)
    tokens = _TOKEN_RE.findall(text.split("#", 1)[0])
    for cells in (run.group(1) if run else "", "".join(tokens)):
        size = math.isqrt(len(cells))
        if size * size == len(cells) and size in sizes and cells.isascii():
            values = _LOOKUP[np.frombuffer(cells.encode("ascii"), dtype=np.uint8)]
            if (values <= size).all():
                return True
    size = math.isqrt(len(tokens))
    if size * size != len(tokens) or size not in sizes:
        return False
    return all(t in _BLANK_CHARS or (t.isdigit() and int(t) <= size) for t in tokens)


def _source_name(source) -> str:
    """The name messages give a source: its path, or ``<list>``, ``<string>``..."""
    if isinstance(source, (list, tuple)):
        return "<list>"
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "<bytes>"
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _is_existing_file(source)):
        return os.fsdecode(os.fspath(source))
    return "<string>" if isinstance(source, str) else "<array>"
