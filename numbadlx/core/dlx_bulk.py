"""DLX text's option lines read in bulk: one split, one dictionary, NumPy.

:func:`numbadlx.core.dlx_text.parse_dlx` reads the item line itself and hands the rest
of the text to :func:`read_options`. That reads every option line at once:

* the token boundaries and the line of every token come from NumPy over the UTF-8
  bytes (the separators are ASCII, so no byte of a multi-byte character is one);
* the tokens themselves from one ``str.split`` (or one regular expression when the
  text holds characters that ``str.split`` would also split at);
* each distinct token is decoded once (an item, ``item:colour`` or a ``|cost``) into
  one integer, and the tokens are mapped through a dictionary of those integers;
* lengths, costs, colours and repeated items are then array operations.

A text of :data:`SCAN_BYTES` or more is first scanned by a compiled kernel
(:mod:`numbadlx.core.kernels.scan`), which gives every token the id of its distinct
token: no string is made per token, only per distinct one. It takes tidy text (single
spaces, no ``|:`` lines), the common shape of generated files; other text is split.

It answers None for any text it does not read exactly as the line-by-line reader does
(an unknown item, a bad colour or cost, an item twice in an option, an option with no
item, a cost too large to add up in 64 bits): the caller then reads the text line by
line, which names the first problem with its line and column. So the two readers give
the same problem for every text this one accepts, and the errors are the line reader's.
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from .._compiling import first_use
from .validate import MAX_TOTAL_COST

__all__ = ["read_options", "SCAN_BYTES"]

#: The bytes that end a token: ASCII blanks and the line feed.
_SEPARATOR = np.zeros(256, dtype=bool)
_SEPARATOR[list(b" \t\v\f\r\n")] = True
_TOKEN = re.compile(r"[^ \t\v\f\r\n]+")
_PIPE, _COLON, _LINE_FEED = ord("|"), ord(":"), ord("\n")
#: Texts of at least this many bytes are scanned by a compiled kernel (compiled on
#: first use, then loaded from Numba's cache); shorter ones are split in Python, which
#: costs less than loading a kernel.
SCAN_BYTES = 16384


def read_options(body, first_number, index, secondary, n_items):
    """The options of ``body`` (the text after the item line), or None.

    ``first_number`` is the line number of the body's first line, ``index`` maps item
    names to items and ``secondary`` is a sequence of booleans, one per item. Returns
    ``(indptr, indices, colours, colour_names, line_numbers, option_names, costs)`` as
    :class:`numbadlx.core.dlx_text.DLXText` holds them, or None (see the module).

    Examples
    --------
    >>> got = read_options("a c:red |2\\n| a comment\\nb\\n", 2, {"a": 0, "b": 1, "c": 2},
    ...                    [False, False, True], 3)
    >>> [x.tolist() for x in got[:3]], got[3], got[4].tolist(), got[5], got[6].tolist()
    ([[0, 2, 3], [0, 2, 1], [0, 1, 0]], ['red'], [2, 4], ['a c:red', 'b'], [2, 0])
    """
    try:
        data = body.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the line reader says where
        return None
    raw = np.frombuffer(data, dtype=np.uint8)
    front = None
    if SCAN_BYTES <= raw.size < 2**31 - 1:
        front = _scanned(data, raw, index, secondary, n_items)
    if front is None:
        front = _split(body, raw, index, secondary, n_items)
    if front is None:
        return None
    codes, colour_names, line_of, tidy, tokens, named = front
    new_line = np.ones(line_of.size, dtype=bool)
    new_line[1:] = line_of[1:] != line_of[:-1]
    option_lines = line_of[new_line]
    n_options = option_lines.size
    option_of = np.cumsum(new_line) - 1
    is_cost = codes < 0
    has_costs = bool(is_cost.any())
    costs = None
    lines = body.split("\n")
    texts = _line_texts(lines, option_lines) if tidy else None
    if has_costs:
        values = -1 - codes[is_cost]
        if int(values.max()) * values.size >= MAX_TOTAL_COST:
            return None
        if int(values.sum()) < 2**53:  # exact in float64: one bincount
            costs = np.bincount(option_of[is_cost], values, n_options).astype(np.int64)
        else:
            costs = np.zeros(n_options, dtype=np.int64)
            np.add.at(costs, option_of[is_cost], values)
        if texts is not None:
            trimmed = _without_cost(texts, is_cost, new_line)
            texts = trimmed if trimmed is not None or tokens is not None else _uncosted(texts)
        is_item = ~is_cost
        codes, option_of = codes[is_item], option_of[is_item]
    lengths = np.bincount(option_of, minlength=n_options)
    if n_options and lengths.min() == 0:  # an option with costs and no item
        return None
    indices = codes % max(n_items, 1)
    key = np.sort(option_of * n_items + indices)
    if key.size > 1 and not (key[1:] != key[:-1]).all():  # an item twice in an option
        return None
    colours = None
    if not colour_names:
        colour_names = None
    else:
        colours = (codes // n_items).astype(np.int32)
    indptr = np.zeros(n_options + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    if texts is None:
        texts = _joined(tokens, is_cost if has_costs else None, indptr)
    if named is not None:
        _named_options(lines, raw, *named, option_lines, texts)
    return (
        indptr,
        indices.astype(np.int32),
        colours,
        colour_names,
        first_number + option_lines.astype(np.int64),
        texts,
        costs,
    )


def _split(body, raw, index, secondary, n_items):
    """The tokens by ``str.split`` (or a regular expression) and their lines by NumPy:
    ``(codes, colour names, line of each token, tidy, tokens, comment lines or None)``,
    comments left out; None for a token the line reader would refuse."""
    # with no control byte but tab, line feed, vertical tab, form feed and CR, the
    # separators are the bytes below 33, and str.split() splits where the format does
    controls = np.count_nonzero(raw < 9) + np.count_nonzero((raw - np.uint8(14)) < 18)
    separator = _SEPARATOR[raw] if controls else raw < 33
    begins = ~separator
    begins[1:] &= separator[:-1]
    starts = np.flatnonzero(begins)
    tokens = body.split() if not controls and body.isascii() else _TOKEN.findall(body)
    if len(tokens) != starts.size:  # cannot happen; never guess
        return None
    feeds = np.flatnonzero(raw == _LINE_FEED)
    line_of = np.searchsorted(feeds, starts)
    # tidy: single spaces between the tokens of a line and no other blank (a line of
    # t tokens holds at least t - 1 spaces, and exactly that many when tidy)
    spaces = np.count_nonzero(raw == 32)
    token_lines = np.count_nonzero(line_of[1:] != line_of[:-1]) + (line_of.size > 0)
    tidy = (
        np.count_nonzero(separator) == spaces + feeds.size and spaces == starts.size - token_lines
    )
    named = None
    if body.startswith("|") or "\n|" in body:  # comment lines: first byte '|'
        line_starts = np.concatenate(([0], feeds + 1))
        first = np.zeros(line_starts.size, dtype=np.uint8)
        inside = line_starts < raw.size
        first[inside] = raw[line_starts[inside]]
        comment = first == _PIPE
        keep = ~comment[line_of]
        tokens = list(itertools.compress(tokens, keep.tolist()))
        line_of = line_of[keep]
        named = line_starts, comment
    codes, colour_names = _codes(tokens, index, secondary, n_items)
    if codes is None:
        return None
    return codes, colour_names, line_of, tidy, tokens, named


def _scanned(data, raw, index, secondary, n_items):
    """The front end of :func:`_split` by one compiled pass (:mod:`.kernels.scan`) that
    gives each distinct token an id, so that only those are decoded and looked up; for
    tidy text without ``|:`` lines and control bytes (else None: split it)."""
    from .kernels.scan import SCAN_FIELDS, scan_tokens

    cap = raw.size // 2 + 1  # tokens at most
    # 32-bit offsets and ids (the text is shorter than 2 GiB): 28 bytes a token at most
    token_id = np.empty(cap, dtype=np.int32)
    token_line = np.empty(cap, dtype=np.int32)
    first_start = np.empty(cap, dtype=np.int32)
    first_length = np.empty(cap, dtype=np.int32)
    hashes = np.empty(cap, dtype=np.uint64)
    slots = np.full(1 << (2 * cap).bit_length(), -1, dtype=np.int32)
    counts = np.zeros(len(SCAN_FIELDS), dtype=np.int64)
    with first_use("the DLX text scanner"):
        scan_tokens(raw, token_id, token_line, first_start, first_length, hashes, slots, counts)
    got = dict(zip(SCAN_FIELDS, counts.tolist()))
    if got["control"] or got["crowded"] or got["named"] or got["other_blanks"]:
        return None
    if got["spaces"] != got["tokens"] - got["token_lines"]:
        return None  # not tidy: the option names need the tokens
    distinct = got["distinct"]
    ends = (first_start[:distinct] + first_length[:distinct]).tolist()
    texts = [data[a:b].decode("utf-8") for a, b in zip(first_start[:distinct].tolist(), ends)]
    codes, colour_names = _codes(texts, index, secondary, n_items)
    if codes is None:
        return None
    tokens = got["tokens"]
    return codes[token_id[:tokens]], colour_names, token_line[:tokens], True, None, None


def _uncosted(texts):
    """Tidy option lines without their cost tokens, wherever they stand."""
    return [" ".join(t for t in text.split(" ") if not t.startswith("|")) for text in texts]


def _codes(tokens, index, secondary, n_items):
    """Each token as one int64: ``item + n_items * colour`` for an item, ``-1 - cost``
    for a cost; and the colour names, numbered in order of first appearance as the line
    reader numbers them (the distinct tokens are met in that order). (None, None) for
    a token the line reader would refuse."""
    lookup = dict(index)
    fresh = [token for token in dict.fromkeys(tokens) if token not in lookup]
    priced = [token for token in fresh if token[0] == "|"]
    if priced:  # '|' and at most 19 decimal digits, all at once
        numbers = [token[1:] for token in priced]
        if max(map(len, priced)) > 20 or not all(map(str.isdigit, numbers)):
            return None, None
        if not "".join(numbers).isascii():
            return None, None
        values = list(map(int, numbers))
        if max(values) >= MAX_TOTAL_COST:
            return None, None
        lookup.update(zip(priced, [-1 - value for value in values]))
    colour_index = {}
    for token in fresh if len(priced) < len(fresh) else ():
        if token[0] == "|":
            continue
        name, colon, colour = token.partition(":")
        item = index.get(name)
        if item is None or not colon or not secondary[item]:
            return None, None
        if not colour or "|" in colour or ":" in colour:
            return None, None
        code = colour_index.setdefault(colour, len(colour_index) + 1)
        lookup[token] = item + n_items * code
    codes = np.fromiter(map(lookup.__getitem__, tokens), dtype=np.int64, count=len(tokens))
    return codes, list(colour_index)


def _line_texts(lines, option_lines):
    """The option lines as they stand (the text being tidy: they are their tokens
    joined by single spaces)."""
    n_options = option_lines.size
    if n_options and option_lines[-1] == n_options - 1:  # no comment or blank line
        return lines[:n_options]
    return [lines[k] for k in option_lines.tolist()]


def _without_cost(texts, is_cost, new_line):
    """Tidy option lines without their cost token when each ends in exactly one (the
    shape DLX5's inputs have), else None."""
    last = np.empty(new_line.size, dtype=bool)
    last[:-1] = new_line[1:]
    last[-1:] = True
    if not (is_cost[last].all() and is_cost.sum() == len(texts)):
        return None
    return [text.rpartition(" ")[0] for text in texts]


def _joined(tokens, is_cost, indptr):
    """Each option's text: its item tokens joined by single spaces."""
    if is_cost is not None:
        tokens = list(itertools.compress(tokens, (~is_cost).tolist()))
    join = " ".join
    bounds = indptr.tolist()
    return [join(tokens[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def _named_options(lines, raw, line_starts, comment, option_lines, names):
    """Apply ``|: name`` lines: each names the next option line (the last such line
    before an option wins); one with no option after it names nothing."""
    second = np.zeros(line_starts.size, dtype=np.uint8)
    inside = line_starts + 1 < raw.size
    second[inside] = raw[line_starts[inside] + 1]
    marked = np.flatnonzero(comment & (second == _COLON))
    if not marked.size:
        return
    targets = np.searchsorted(option_lines, marked)
    for line, target in zip(marked.tolist(), targets.tolist()):
        if target < len(names):
            text = lines[line]
            text = text[:-1] if text.endswith("\r") else text
            names[target] = text[3:] if text.startswith("|: ") else text[2:]
