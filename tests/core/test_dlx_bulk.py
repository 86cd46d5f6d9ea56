"""The bulk reader of DLX text against the line-by-line reader: the same problem for
every text the bulk reader takes, and the line reader's errors for every other."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numbadlx import ExactCover, problems
from numbadlx.core import dlx_bulk, dlx_text
from numbadlx.core.dlx_bulk import read_options

FIELDS = (
    "item_names",
    "secondary",
    "indptr",
    "indices",
    "line_numbers",
    "colours",
    "colour_names",
    "bounds",
    "option_names",
    "costs",
)


def _same(bulk, lines):
    for field in FIELDS:
        a, b = getattr(bulk, field), getattr(lines, field)
        if isinstance(b, np.ndarray):
            assert isinstance(a, np.ndarray) and a.dtype == b.dtype, field
            assert a.shape == b.shape and (a == b).all(), field
        else:
            assert a == b, field


def _read(read, text):
    try:
        return read(text, "<t>")
    except ValueError as error:
        return str(error)


def _both(text):
    """``(bulk result or None or the error, line reader's result or error)``; the bulk
    reader is run twice, its front end splitting the text in Python and scanning it
    with the compiled kernel, and the two must agree."""
    split = _read(dlx_text._parse_bulk, text)
    saved = dlx_bulk.SCAN_BYTES
    dlx_bulk.SCAN_BYTES = 0
    try:
        scanned = _read(dlx_text._parse_bulk, text)
    finally:
        dlx_bulk.SCAN_BYTES = saved
    if isinstance(split, dlx_text.DLXText):
        assert isinstance(scanned, dlx_text.DLXText), scanned
        _same(scanned, split)
    else:
        assert scanned == split
    return split, _read(dlx_text._parse_lines, text)


GOOD = ["a", "b", "c", "x", "y", "x:red", "y:blue", "y:red", "x:vert\u00a0clair", "é", "|3", "|0",
        "|12", "|7"]  # fmt: skip
BAD = ["x:", "a:red", "zz", "|", "|x", "|-1", "|99999999999999999999", "|4611686018427387904",
       "|9999999999999999999",
       "x:r:s", "\x1c", "a\x1cb", "a", "é:x"]  # fmt: skip
BLANKS = [" ", " ", " ", "  ", "\t", "\f", "\v", "\r"]
EXTRA_LINES = ["", "| a comment", "|: named", "|:", "|: x y |3", "  ", "   |5", "|\x1c", "\r"]


def _item(token):
    return token.partition(":")[0]


@st.composite
def texts(draw):
    """Texts most of whose lines are good options, some with a bad token or an odd line."""
    lines = [draw(st.sampled_from(["a b c é | x y", "2|a b c é | x y", " a\tb c é |  x y"]))]
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(EXTRA_LINES)))
            continue
        tokens = draw(st.lists(st.sampled_from(GOOD), min_size=1, max_size=5, unique_by=_item))
        if draw(st.integers(0, 9)) == 0:
            tokens.insert(draw(st.integers(0, len(tokens))), draw(st.sampled_from(BAD)))
        line = ""
        for token in tokens:
            line += draw(st.sampled_from(BLANKS)) + token
        lines.append(line[1:] if draw(st.booleans()) else line)
    if draw(st.booleans()):
        lines.insert(0, draw(st.sampled_from(EXTRA_LINES)))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return end.join(lines) + draw(st.sampled_from([end, ""]))


@settings(max_examples=400, deadline=None)
@given(texts())
def test_bulk_reader_reads_as_the_line_reader_or_declines(text):
    bulk, lines = _both(text)
    if isinstance(lines, str):  # an error: the bulk reader declines or raises the same
        assert bulk is None or bulk == lines
    elif bulk is not None:
        assert not isinstance(bulk, str), bulk
        _same(bulk, lines)


@pytest.mark.parametrize(
    "text",
    [
        "a b | x y\na x:red |3\n|: second\n\nb y:blue x:green |1 |2\n| note\r\nb\n",
        "| lead\n|: ignored\na b\n\na |4\nb\n",
        "a b | x\n|: one\n|: two\na\n|: three\n",
        "a b\r\na\tb\r\nb\f|0 a\r\n",
        "é ü | x\nü x:rouge\u00a0vif\né\n",
        "a b\n",
        "a b | x\n",
        "a b\na |1000000000000000001\nb |9007199254740993 |2\n",  # past 2**53: not in float64
    ],
)
def test_bulk_reader_on_names_comments_and_line_ends(text):
    bulk, lines = _both(text)
    assert bulk is not None and not isinstance(bulk, str)
    _same(bulk, lines)


def test_named_options_and_colour_order():
    parsed = dlx_text.parse_dlx("a b | x y\na y:blue x:red |5\n|: last\n|: b\nb x:blue |1 |2\n")
    assert parsed.option_names == ["a y:blue x:red", "b"]
    assert parsed.colour_names == ["blue", "red"]
    assert parsed.colours.tolist() == [0, 1, 2, 0, 1]
    assert parsed.costs.tolist() == [5, 3]
    assert parsed.line_numbers.tolist() == [2, 5]


@pytest.mark.parametrize(
    "body",
    [
        "a zz\n",  # an unknown item
        "a:red\n",  # a colour on a primary item
        "a x:\n",  # an empty colour
        "a x:r:s\n",  # a colour with ':'
        "a |x\n",  # a bad cost
        "a |123456789012345678901\n",  # a cost too long to be one
        "a |4611686018427387904\n",  # a cost of 2**62: left to the line reader
        "a a\n",  # an item twice
        " |3\n",  # a cost and no item
        "a \ud800\n",  # a lone surrogate
    ],
)
@pytest.mark.parametrize("scan_bytes", [0, dlx_bulk.SCAN_BYTES])
def test_bulk_reader_declines_what_the_line_reader_refuses(body, scan_bytes, monkeypatch):
    monkeypatch.setattr(dlx_bulk, "SCAN_BYTES", scan_bytes)
    index = {"a": 0, "b": 1, "x": 2}
    assert read_options(body, 2, index, [False, False, True], 3) is None
    # and past a good first half (the scanner reads the whole text first)
    good = "a x:red |1\nb\n" * 50
    assert read_options(good + body, 2, index, [False, False, True], 3) is None
    assert read_options(good, 2, index, [False, False, True], 3)[6].tolist() == [1, 0] * 50


def test_scanner_tells_distinct_tokens_by_their_bytes_not_their_hash():
    from numbadlx.core.kernels.scan import scan_tokens

    raw = np.frombuffer(b"ab ba ab\n| ab ab\nab  ba\tc\n", dtype=np.uint8)
    cap = raw.size // 2 + 1
    ids, lines, starts, lengths = (np.zeros(cap, dtype=np.int32) for _ in range(4))
    hashes = np.zeros(cap, dtype=np.uint64)
    counts = np.zeros(9, dtype=np.int64)
    slots = np.full(4, -1, dtype=np.int32)  # a small table: probes go past taken slots
    scan_tokens(raw, ids, lines, starts, lengths, hashes, slots, counts)
    assert counts.tolist() == [6, 3, 4, 4, 2, 1, 0, 0, 0]
    assert ids[:6].tolist() == [0, 1, 0, 0, 1, 2] and lines[:6].tolist() == [0, 0, 0, 2, 2, 2]


LIBRARY = {
    "langford7": lambda: problems.langford(7),
    "queens6": lambda: problems.n_queens(6),
    "pentominoes3x20": lambda: problems.pentominoes(3, 20),
    "words3-60": lambda: problems.word_square(3, problems.WORDS3[:60]),
}


@pytest.mark.parametrize("name", LIBRARY)
def test_bulk_reader_on_library_problems_with_costs(name):
    problem = LIBRARY[name]()
    head, *body = problem.to_dlx().splitlines()
    priced = [head]
    for line in body:  # the option lines get costs, the '|: name' lines stay
        k = len(priced) - 1 - sum(line.startswith("|") for line in priced)
        priced.append(line if line.startswith("|") else f"{line} |{1 + 7 * k % 10}")
    text = "\n".join(priced) + "\n"
    bulk, lines = _both(text)
    _same(bulk, lines)
    read = ExactCover.from_dlx(text)
    assert read.count() == problem.count()
    assert read.option_names == problem.option_names
    assert read.costs.tolist() == [1 + 7 * k % 10 for k in range(problem.n_options)]


def _crowding_tokens(count, slots, rng):
    """``count`` distinct 8-letter tokens that the scanner's hash (FNV-1a, folded)
    sends to slot 0 of a table of ``slots`` slots: a text made to be slow to scan."""
    found = []
    letters = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)
    mask = np.uint64(slots - 1)
    while len(found) < count:
        words = letters[rng.integers(0, 26, size=(1 << 20, 8))]
        h = np.full(words.shape[0], 14695981039346656037, dtype=np.uint64)
        for j in range(8):
            h = (h ^ words[:, j].astype(np.uint64)) * np.uint64(1099511628211)
        slot = (h ^ (h >> np.uint64(29)) ^ (h >> np.uint64(47))) & mask
        found += [bytes(w).decode() for w in words[slot == 0]]
        found = list(dict.fromkeys(found))
    return found[:count]


def test_scanner_gives_up_on_tokens_made_to_collide_and_the_text_is_split():
    from numbadlx.core.kernels.scan import PROBES_PER_TOKEN, SCAN_FIELDS, scan_tokens

    lines = 1900  # 9 bytes a line: past SCAN_BYTES, a table of 2**15 slots
    body_bytes = 9 * lines
    cap = body_bytes // 2 + 1
    slots = 1 << (2 * cap).bit_length()
    assert body_bytes >= dlx_bulk.SCAN_BYTES and slots == 2**15
    names = _crowding_tokens(160, slots, np.random.default_rng(5))
    body = "".join(names[k % len(names)] + "\n" for k in range(lines))
    raw = np.frombuffer(body.encode(), dtype=np.uint8)
    ids, token_lines, starts, lengths = (np.zeros(cap, dtype=np.int32) for _ in range(4))
    hashes = np.zeros(cap, dtype=np.uint64)
    counts = np.zeros(len(SCAN_FIELDS), dtype=np.int64)
    scan_tokens(raw, ids, token_lines, starts, lengths, hashes, np.full(slots, -1, np.int32),
                counts)  # fmt: skip
    got = dict(zip(SCAN_FIELDS, counts.tolist()))
    # every token probes past the others in slot 0: far more than the allowance
    assert got["crowded"] == 1 and got["tokens"] < lines
    # it gives up early: token k probes past about k others, so the allowance of
    # PROBES_PER_TOKEN a token (and 1,024 more) runs out within a few dozen tokens
    budget = PROBES_PER_TOKEN * got["tokens"] + 1024
    assert got["tokens"] * (got["tokens"] - 1) // 2 >= budget // 2
    assert got["tokens"] < 4 * math.isqrt(2 * budget)
    # the reader then splits the text and reads it as the line reader does
    text = " ".join(names) + "\n" + body
    bulk, by_lines = _both(text)
    _same(bulk, by_lines)
    assert bulk.indices.tolist() == [k % len(names) for k in range(lines)]


@pytest.mark.parametrize("pad", [0, 2000])  # below and past SCAN_BYTES
@pytest.mark.parametrize(
    ("body", "line", "column"),
    [
        ("a |9999999999999999999\n", 1, 3),  # past int64
        ("a |4611686018427387904\n", 1, 3),  # 2**62 in one option
        ("a |4611686018427387903\nb |1\n", 2, 3),  # 2**62 in all
        ("b |3000000000000000000 |3000000000000000000 a\n", 1, 24),  # in one line
        ("a |4611686018427387900 |3\nb |1\n", 2, 3),
    ],
)
def test_costs_adding_up_to_2_62_are_refused_where_they_do(body, line, column, pad):
    text = "a b\n" + "a b\n" * pad + body
    where = f"{1 + pad + line}:{column}"
    bulk, lines = _both(text)
    assert bulk is None and isinstance(lines, str)
    assert lines.startswith(f"<t>:{where}: the costs add up to 2**62 or more"), lines
    with pytest.raises(ValueError, match=f"<string>:{where}: the costs add up"):
        ExactCover.from_dlx(text)


def test_costs_just_below_2_62_are_read_by_both_readers():
    text = "a b\n" + "a b\n" * 2000 + "a |4611686018427387900\nb |1 |2\n"
    bulk, lines = _both(text)
    assert bulk is None  # declined (largest cost times their number is past the bound)
    assert lines.costs[-2:].tolist() == [4611686018427387900, 3]
    problem = ExactCover.from_dlx(text)
    assert problem.costs.tolist() == lines.costs.tolist()
    assert [c for c, _ in problem.cheapest(1)] == [0]
    small = ExactCover.from_dlx("a b\na b\n" + text.split("\n", 2001)[-1])
    assert [(c, s.tolist()) for c, s in small.cheapest(3)] == [
        (0, [0]),
        (4611686018427387903, [1, 2]),
    ]
    with pytest.raises(ValueError, match="<string>:4:6: the costs add up"):
        ExactCover.from_dlx("a b\na b |1\n" + text.split("\n", 2001)[-1])
