"""The cells of one line: the alphabet lookup table, tokens, per-line and batched
parsing, and the texts of cell errors (see "Cells of one line" in
:mod:`numbadlx.sudoku.formats`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

import numpy as np

from ...core.words import plural
from ..shape import DIGITS as _DIGITS
from ..shape import MAX_SIZE, MIN_BOXLESS_SIZE, MIN_SIZE

_BAD = 255  # lookup-table marker for "not a cell character"
#: Characters that stand for a blank cell besides ``0`` (in line format; in grid
#: format ``-`` draws box borders instead).
_BLANK_CHARS = "._*-"


def _build_lookup() -> np.ndarray:
    table = np.full(256, _BAD, dtype=np.uint8)
    for value, ch in enumerate(_DIGITS):
        table[ord(ch)] = value
        table[ord(ch.lower())] = value
    for blank in _BLANK_CHARS:
        table[ord(blank)] = 0
    return table


_LOOKUP = _build_lookup()
_SQUARES = {k * k: k for k in range(MIN_SIZE, MAX_SIZE + 1)}
_ROW_COUNTS = frozenset(range(MIN_SIZE, MAX_SIZE + 1))
# the same for grids without boxes (latin squares, jigsaws), whose sizes start lower
_BOXLESS_SQUARES = {k * k: k for k in range(MIN_BOXLESS_SIZE, MAX_SIZE + 1)}
_BOXLESS_ROW_COUNTS = frozenset(range(MIN_BOXLESS_SIZE, MAX_SIZE + 1))
_TOKEN_RE = re.compile(r"[^\s,]+")
_GRID_BLANKING = str.maketrans("|+-", "   ")
# A puzzle line's leading run of cell characters, when the end of the line, a space, a
# tab or one of ; , | # // follows it (what follows is a trailing field: a rating, a
# comment). Not a CR: old Mac files end their lines with CR alone, and three puzzles on
# one "line" must not be read as one puzzle and a trailing field.
_LEADING_RUN_RE = re.compile(r"[ \t]*([0-9A-Za-z._*\-]+)(?=\Z|[ \t;,|#]|//)")
_TRAILING_DELIMITERS = frozenset(b" \t;,|#")


def _alphabet(n: int) -> str:
    if n <= 9:
        return f"0-{n} or '.'"
    if n == 10:
        return "0-9, A or '.'"
    if n <= 35:
        return f"0-9, A-{_DIGITS[n]} or '.'"
    return "0-9, A-Z or '.', or integers 0-36 separated by spaces or commas"


def _char_error(ch: str, n: int) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # byte kept by 'surrogateescape'
        return f"undecodable byte 0x{code - 0xDC00:02X} (the text is not valid UTF-8)"
    value = int(_LOOKUP[code]) if code < 128 else _BAD
    if value == _BAD or (value >= 10 and n < 10):
        return f"invalid character {ch!r} (expected {_alphabet(n)})"
    return f"value {ch!r} ({value}) is too large for a {n}x{n} puzzle (max {n})"


def _is_number_token(tok: str) -> bool:
    return tok == "." or (tok.isascii() and tok.isdigit())


def _token_value(tok: str) -> int:
    if tok == ".":
        return 0
    digits = tok.lstrip("0")
    if len(digits) > 3:
        return 10_000  # too large for any size; avoids converting huge strings
    return int(digits) if digits else 0


def _split_cells(
    text: str, expected: int | None, valid: Iterable[int], grid: bool, n: int | None = None
):
    """Split one line into cells (see "Cells of one line" in the package docs).

    ``expected`` is the required cell count (None while sniffing, when any
    count in ``valid`` will do) and ``n`` the largest allowed value.

    Returns ``(kind, cells, columns, numbers)``: ``kind`` is ``'chars'``
    (``cells`` is a str, one cell per character) or ``'ints'`` (``cells`` is a
    list of number tokens); ``columns`` holds the 0-based column of each
    cell; ``numbers`` is the token count when the line could also have been
    read as separated numbers, else None.
    """
    if grid:
        text = text.translate(_GRID_BLANKING)
    elif expected is not None:
        run = _leading_run(text, (expected,))
        if run is not None:
            return run
    else:
        found = _split_tokens(text, None, valid, n)
        if len(found[1]) not in valid:
            run = _leading_run(text, valid)
            if run is not None:
                return run
        return found
    return _split_tokens(text, expected, valid, n)


def _split_tokens(text: str, expected: int | None, valid: Iterable[int], n: int | None):
    """:func:`_split_cells` without the trailing-field rule."""
    spans = [(m.start(), m.group()) for m in _TOKEN_RE.finditer(text)]
    numbers = None
    if (
        len(spans) > 1
        and any(len(t) > 1 for _, t in spans)
        and all(_is_number_token(t) for _, t in spans)
    ):
        count = len(spans)
        fits = count == expected if expected is not None else count in valid
        if fits:
            if n is not None:
                limit = n
            else:
                limit = count if count <= MAX_SIZE else math.isqrt(count)
            n_chars = sum(len(t) for _, t in spans)
            chars_fit = n_chars == expected if expected is not None else n_chars in valid
            # "850002400 720000009 ..." is nine groups of digits, not nine numbers
            if not chars_fit or all(_token_value(t) <= limit for _, t in spans):
                return "ints", [t for _, t in spans], [p for p, _ in spans], count
        numbers = count
    if len(spans) == 1:
        start, tok = spans[0]
        return "chars", tok, range(start, start + len(tok)), numbers
    chars = "".join(t for _, t in spans)
    columns = [p + i for p, t in spans for i in range(len(t))]
    return "chars", chars, columns, numbers


def _leading_run(text: str, counts):
    """The cells of a line that starts with a run of ``k`` cell characters, ``k`` in
    ``counts``, followed by a trailing field (or nothing), as :func:`_split_cells`
    returns them; None for any other line."""
    match = _LEADING_RUN_RE.match(text)
    if match is None or len(match.group(1)) not in counts:
        return None
    start = match.start(1)
    return "chars", match.group(1), range(start, match.end(1)), None


def _count_cells(text: str, valid: Iterable[int], grid: bool) -> int:
    return len(_split_cells(text, None, valid, grid)[1])


def _parse_cells(text: str, expected: int, n: int, what: str, note: str, grid: bool = False):
    """Parse one line of ``expected`` cells with values ``0..n``.

    Returns ``(values, None)`` or ``(None, (column0, message))``.
    """
    kind, cells, columns, numbers = _split_cells(text, expected, (), grid, n)
    count = len(cells)
    if count != expected:
        if count < expected:
            col0 = len(text.rstrip())
        else:
            col0 = columns[expected]
        if numbers is not None:
            msg = (
                f"{what} has {plural(count, 'cell')} ({numbers} if read as separated "
                f"numbers), expected {expected}"
            )
        else:
            msg = f"{what} has {plural(count, 'cell')}, expected {expected}"
        valid = _ROW_COUNTS if grid else _SQUARES
        if count in valid or (numbers is not None and numbers in valid):
            msg += note
        return None, (col0, msg)
    if kind == "chars":
        if cells.isascii():
            values = _LOOKUP[np.frombuffer(cells.encode("ascii"), dtype=np.uint8)]
        else:
            values = np.array(
                [_LOOKUP[ord(ch)] if ord(ch) < 128 else _BAD for ch in cells],
                dtype=np.uint8,
            )
        wrong = np.flatnonzero(values > n)
        if wrong.size:
            j = int(wrong[0])
            return None, (columns[j], _char_error(cells[j], n))
        return values, None
    values = np.zeros(count, dtype=np.uint8)
    for j, tok in enumerate(cells):
        if tok == ".":
            continue
        if _token_value(tok) > n:
            shown = tok if len(tok) <= 12 else tok[:12] + "..."
            return None, (
                columns[j],
                f"value {shown} is too large for a {n}x{n} puzzle (max {n})",
            )
        values[j] = _token_value(tok)
    return values, None


def _has_trailing_field(content: bytes, size: int) -> bool:
    """True if ``content`` is longer than ``size`` bytes and a trailing-field delimiter
    (whitespace, ``; , | #`` or ``//``) follows its first ``size`` bytes."""
    if len(content) <= size:
        return False
    after = content[size]
    return after in _TRAILING_DELIMITERS or content[size : size + 2] == b"//"


def _lookup(codes: np.ndarray, n: int) -> np.ndarray:
    """The cell values of the character ``codes`` (:data:`_LOOKUP`); for ``n <= 9``,
    rows of digits alone by a subtraction (many times cheaper than a table lookup), the
    others through the table."""
    if n > 9:
        return _LOOKUP[codes]
    values = codes - np.uint8(ord("0"))  # wraps below "0": any other byte is > 9
    other = values.max(axis=1) > 9
    if other.any():
        values[other] = _LOOKUP[codes[other]]
    return values


def _parse_line_batch(contents: list[bytes], n: int, what: str, note: str):
    """Parse many one-puzzle lines (bytes, already stripped of comments).

    Lines of exactly ``n*n`` bytes, or of ``n*n`` bytes and a trailing field, are
    converted together through the lookup table; the others (and the bad ones, to
    describe the error) go through :func:`_parse_cells`.  Returns ``(values,
    errors)`` where ``errors`` is a sorted list of ``(row, column0, message)``.
    """
    size = n * n
    k = len(contents)
    out = np.zeros((k, size), dtype=np.uint8)
    cells = contents
    lengths = np.fromiter(map(len, contents), dtype=np.intp, count=k)
    slow = np.flatnonzero(lengths != size).tolist()
    if slow:
        trailing = [i for i in slow if _has_trailing_field(contents[i], size)]
        if trailing:
            cells = list(contents)
            for i in trailing:
                cells[i] = cells[i][:size]
            slow = [i for i in slow if len(cells[i]) != size]
    if len(slow) < k:
        if not slow:
            fast = np.arange(k)
            joined = b"".join(cells)
        else:
            keep = np.ones(k, dtype=bool)
            keep[slow] = False
            fast = np.flatnonzero(keep)
            joined = b"".join([cells[i] for i in fast])
        codes = np.frombuffer(joined, dtype=np.uint8).reshape(fast.size, size)
        values = _lookup(codes, n)
        row_bad = values.max(axis=1) > n
        if row_bad.any():
            out[fast[~row_bad]] = values[~row_bad]
            slow.extend(fast[row_bad].tolist())
        elif fast.size == k:
            out = values
        else:
            out[fast] = values
    errors = []
    for i in slow:
        text = contents[i].decode("utf-8", "surrogateescape")
        values, err = _parse_cells(text, size, n, what, note)
        if err is None:
            out[i] = values
        else:
            errors.append((i, err[0], err[1]))
    errors.sort()
    return out, errors
