"""Knuth's DLX text format: read (:func:`parse_dlx`) and write (:func:`to_dlx`).

The format, as Knuth's DLX programs read it:

* lines whose first character is ``|`` are comments, blank lines are skipped;
* the first other line names the items, separated by white space; a lone ``|``
  separates the primary items (before it) from the secondary ones (after it);
* every further line is one option: the names of its items.

Colours and multiplicities, as in Knuth's DLX2 and DLX3:

* in an option, ``x:c`` gives secondary item ``x`` the colour ``c`` (any name without
  ``:``, ``|`` or white space; colours are numbered ``1, 2, ...`` in order of first
  appearance and their names kept in :attr:`DLXText.colour_names`);
* in the item line, ``u:v|a`` lets primary item ``a`` be covered between ``u`` and
  ``v`` times, and ``v|a`` exactly ``v`` times (decimal ``0 <= u <= v``, ``v >= 1``).

Costs, as in Knuth's DLX5: a token ``|c`` in an option (decimal ``c >= 0``, never the
line's first token, which would make it a comment) adds ``c`` to the option's cost;
several add up, and an option without one costs 0. All the options' costs together
stay below ``2**62`` (so that every solution's cost fits in 64 bits).

Option names (a numbadlx addition that Knuth's programs read as comments): every
option is named by its text, its item names joined by single spaces, unless a comment
line ``|: name`` before it gives its name (the rest of that line, after one space).
:func:`to_dlx` writes such a line before each option whose name is not its text.

Example::

    | Knuth's example from "Dancing Links"
    a b c d e f g
    c e
    a d g

and one with colours and a multiplicity::

    2|p q | x
    p x:red
    p q x:red
"""

import os
import re
from dataclasses import dataclass

import numpy as np

from .dlx_bulk import read_options
from .textfile import check_text_bytes, check_text_file
from .validate import MAX_TOTAL_COST, check_link_size

__all__ = ["parse_dlx", "to_dlx", "DLXText"]

_FORBIDDEN = set("|:")
#: What separates names: ASCII blanks only (``str.split()`` would also split at
#: U+00A0, U+2028 and other Unicode spaces).
_BLANKS = " \t\v\f\r"
_SEPARATOR = re.compile(f"[{re.escape(_BLANKS)}]+")


def _tokens(line):
    return [token for token in _SEPARATOR.split(line) if token]


@dataclass
class DLXText:
    """A parsed DLX file: CSR options over named items."""

    item_names: list
    secondary: np.ndarray  # boolean mask: True for a secondary item
    indptr: np.ndarray
    indices: np.ndarray
    line_numbers: np.ndarray  # 1-based source line of each option
    source: str
    colours: np.ndarray = None  # int32 parallel to indices (0 = none), or None
    colour_names: list = None  # name of colour k + 1 at index k, or None
    bounds: np.ndarray = None  # (n_primary, 2) int64 (u, v) in item order, or None
    option_names: list = None  # the name of each option (its text unless named)
    costs: np.ndarray = None  # int64 cost of each option, or None when none has one


def _read(source):
    """Return ``(text, label)``: the text and a name for error messages.

    A :class:`os.PathLike` is always a file, an object with a ``read`` method an open
    file (such as ``sys.stdin.buffer``), and a string (or bytes) with a newline always
    text. A string (or bytes) without a newline must name a file: DLX text always has
    a line break, and guessing would read a mistyped file name as a problem. Errors
    name the file: it is missing, a directory, unreadable, or not UTF-8 text.
    """
    if isinstance(source, os.PathLike):
        return read_text_file(os.fspath(source)), os.fspath(source)
    if isinstance(source, bytes):
        if b"\n" not in source:  # the same rule as for a str: a file name
            source = os.fsdecode(source)
        else:
            return _decode(source, "<bytes>"), "<bytes>"
    if hasattr(source, "read"):  # an open file, such as sys.stdin
        label = str(getattr(source, "name", "<file>"))
        text = source.read()
        return (_decode(text, label) if isinstance(text, bytes) else text), label
    if not isinstance(source, str):
        raise ValueError(f"DLX source must be text or a path, got {type(source).__name__}")
    if "\n" not in source:
        if not source.strip():
            raise ValueError("DLX source is empty (give text with a newline, or a file name)")
        if not os.path.exists(source):
            raise FileNotFoundError(
                f"no such file: {source!r} (a string without a newline names a file; "
                f"DLX text has at least one line break)"
            )
        return read_text_file(source), source
    return source, "<string>"


def read_text_file(path):
    """The text of the UTF-8 file at ``path``; clear errors for a missing file, a
    directory and a binary file (OSError or ValueError naming the file)."""
    check_text_file(path)  # a directory, a missing file: the same errors as Sudoku's
    with open(path, "rb") as handle:
        data = handle.read()
    return _decode(data, path)


def _decode(data, label):
    check_text_bytes(data, label)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{label} is not a UTF-8 text file (byte 0x{data[error.start]:02x} at offset "
            f"{error.start})"
        ) from None


def _column(line, token, start=0):
    return line.index(token, start) + 1


def _parse_bound(mult, token, where):
    """``'u:v'`` or ``'v'`` (the part of ``token`` before its ``|``) -> ``(u, v)``."""
    parts = mult.split(":")
    if len(parts) > 2 or not all(part.isdigit() and part.isascii() for part in parts):
        raise ValueError(
            f"{where}: bad multiplicity in {token!r} (expected 'u:v|item' or "
            f"'v|item' with decimal u <= v)"
        )
    u, v = (int(parts[0]), int(parts[-1]))
    if u > v or v < 1:
        raise ValueError(
            f"{where}: bad multiplicity in {token!r}: need u <= v and v >= 1, got u = {u}, v = {v}"
        )
    if v > 2**31 - 1:
        raise ValueError(f"{where}: multiplicity {v} in {token!r} is too large")
    return u, v


def _plain_option(tokens, index, secondary, colour_index):
    """``(items, colour codes)`` of an option line with no cost and nothing wrong in
    it, or None: the caller then reads the line token by token and names the first
    problem with its column. A new colour is numbered here as the caller would."""
    items = []
    codes = []
    for token in tokens:
        name, colon, colour = token.partition(":")
        item = index.get(name)  # never a cost: no item name holds a '|'
        if item is None:
            return None
        code = 0
        if colon:
            if not secondary[item] or not colour or "|" in colour or ":" in colour:
                return None
            code = colour_index.get(colour)
            if code is None:
                code = colour_index[colour] = len(colour_index) + 1
        items.append(item)
        codes.append(code)
    if len(set(items)) != len(items):
        return None
    return items, codes


def _trailing_cost(tokens):
    """``(tokens, 0)``, or the tokens before a well-formed cost token that ends the
    line (``|`` and a decimal integer) and that cost: the common shape of a line with a
    cost, read on the fast path (any other place or form goes token by token)."""
    last = tokens[-1]
    if len(tokens) > 1 and last.startswith("|") and len(last) <= 20:
        digits = last[1:]
        if digits.isascii() and digits.isdigit():
            return tokens[:-1], int(digits)
    return tokens, 0


def parse_dlx(source):
    """Parse DLX text (or a file) into item names and CSR options.

    Raises ValueError naming the source, line and column of the first problem: no item
    line, a repeated or malformed item name, a bad multiplicity, an unknown item in an
    option, a colour on a primary item or an empty colour, an item twice in one
    option, an option with no items, or costs adding up to ``2**62`` or more.
    FileNotFoundError for a file that is not there (see
    :meth:`numbadlx.ExactCover.from_dlx` for how a string is told from a path).

    The option lines are read in bulk (:mod:`numbadlx.core.dlx_bulk`); text that the
    bulk reader does not take is read line by line, which names the first problem.

    Examples
    --------
    >>> parsed = parse_dlx("a b | c\\na c\\nb\\n")
    >>> parsed.item_names, parsed.indices.tolist()
    (['a', 'b', 'c'], [0, 2, 1])
    >>> parsed = parse_dlx("1:3|a | c\\na c:red\\na c:blue\\n")
    >>> parsed.bounds.tolist(), parsed.colours.tolist(), parsed.colour_names
    ([[1, 3]], [0, 1, 0, 2], ['red', 'blue'])
    """
    text, label = _read(source)
    if text.startswith("\ufeff"):
        text = text[1:]
    parsed = _parse_bulk(text, label)
    return parsed if parsed is not None else _parse_lines(text, label)


def _line_text(raw):
    """A line without its ``\\r`` (of a ``\\r\\n`` line end)."""
    return raw[:-1] if raw.endswith("\r") else raw


def _item_line(line, number, label):
    """``(item names, secondary flags, name -> item, (u, v) per primary item)`` of the
    item line ``line`` (line ``number``); ValueError naming the column of a problem."""
    tokens = _tokens(line.strip(_BLANKS))
    joined = "".join(tokens)
    bars = joined.count("|")
    if ":" not in joined and bars <= 1 and tokens.count("|") == bars:
        # plain names and at most one lone '|': read at once unless a name repeats
        split = tokens.index("|") if bars else len(tokens)
        names = tokens[:split] + tokens[split + 1 :]
        index = dict(zip(names, range(len(names))))
        if len(index) == len(names):
            secondary = [False] * split + [True] * (len(names) - split)
            return names, secondary, index, [(1, 1)] * split
    item_names, secondary, index, bound_rows = [], [], {}, []
    in_secondary = False
    search_from = 0
    for token in tokens:
        col = _column(line, token, search_from)
        search_from = col - 1 + len(token)
        if token == "|":
            if in_secondary:
                raise ValueError(f"{label}:{number}:{col}: a second '|' in the item line")
            in_secondary = True
            continue
        where = f"{label}:{number}:{col}"
        name = token
        bound = (1, 1)
        if "|" in token:
            if in_secondary:
                raise ValueError(
                    f"{where}: multiplicity on secondary item "
                    f"{token!r} (only primary items may have one)"
                )
            mult, name = token.split("|", 1)
            bound = _parse_bound(mult, token, where)
            col += len(mult) + 1
        if not name:
            raise ValueError(f"{where}: no item name in {token!r}")
        bad = _FORBIDDEN.intersection(name)
        if bad:
            raise ValueError(
                f"{label}:{number}:{col}: item name {name!r} contains "
                f"{sorted(bad)[0]!r} (multiplicities are written "
                f"'u:v|item', colours only in options)"
            )
        if name in index:
            raise ValueError(f"{label}:{number}:{col}: item {name!r} is named twice")
        index[name] = len(item_names)
        item_names.append(name)
        secondary.append(in_secondary)
        if not in_secondary:
            bound_rows.append(bound)
    return item_names, secondary, index, bound_rows


def _parse_bulk(text, label):
    """The item line read as :func:`_parse_lines` reads it, the option lines by
    :func:`numbadlx.core.dlx_bulk.read_options`; None where that declines."""
    start, number = 0, 1
    while True:
        end = text.find("\n", start)
        line = _line_text(text[start:] if end < 0 else text[start:end])
        if line.strip(_BLANKS) and not line.startswith("|"):
            break
        if end < 0:
            return None  # no item line: the line reader says so
        start, number = end + 1, number + 1
    item_names, secondary, index, bound_rows = _item_line(line, number, label)
    body = "" if end < 0 else text[end + 1 :]
    got = read_options(body, number + 1, index, secondary, len(item_names))
    if got is None:
        return None
    indptr, indices, colours, colour_names, line_numbers, option_names, costs = got
    check_link_size(len(item_names), indptr.size - 1, indices.size)
    return _result(
        label, item_names, secondary, bound_rows, indptr, indices, line_numbers,
        colours, colour_names, option_names, costs,
    )  # fmt: skip


def _result(
    label,
    item_names,
    secondary,
    bound_rows,
    indptr,
    indices,
    line_numbers,
    colours,
    colour_names,
    option_names,
    costs,
):
    bounds = None
    if any(bound != (1, 1) for bound in bound_rows):
        bounds = np.asarray(bound_rows, dtype=np.int64).reshape(-1, 2)
    return DLXText(
        item_names=item_names,
        secondary=np.array(secondary, dtype=bool),
        indptr=indptr,
        indices=indices,
        line_numbers=line_numbers,
        source=label,
        colours=colours,
        colour_names=colour_names,
        bounds=bounds,
        option_names=option_names,
        costs=costs,
    )


def _parse_lines(text, label):
    """:func:`parse_dlx`, line by line: the reader that names every problem."""
    item_names = None
    lengths, flat, line_numbers = [], [], []
    colour_flat = []
    colour_index = {}
    option_names, pending_name = [], None
    costs, has_costs, total_cost = [], False, 0
    # Only "\n" (or "\r\n") ends a line, and only ASCII blanks (space, tab, vertical
    # tab, form feed, CR) separate names: U+2028 or a no-break space are characters of
    # a name, as in Knuth's reader, and a form feed never ends a line.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = _line_text(raw)
        stripped = line.strip(_BLANKS)
        if line.startswith("|:") and item_names is not None:
            pending_name = line[3:] if line.startswith("|: ") else line[2:]
        if not stripped or line.startswith("|"):
            continue
        if item_names is None:
            item_names, secondary, index, bound_rows = _item_line(line, number, label)
            continue
        # (``stripped`` has no blank at either end: no empty token)
        tokens = _SEPARATOR.split(stripped)
        body, cost = _trailing_cost(tokens)
        plain = _plain_option(body, index, secondary, colour_index)
        if plain is not None and total_cost + cost < MAX_TOTAL_COST:
            # the common case, read without columns or checks
            total_cost += cost
            option, codes = plain
            lengths.append(len(option))
            flat.extend(option)
            colour_flat.extend(codes)
            line_numbers.append(number)
            costs.append(cost)
            has_costs = has_costs or body is not tokens
            option_names.append(" ".join(body) if pending_name is None else pending_name)
            pending_name = None
            continue
        seen = set()
        search_from = 0
        option = []
        cost = 0
        for token in tokens:
            col = _column(line, token, search_from)
            search_from = col - 1 + len(token)
            if token.startswith("|"):
                if not token[1:].isascii() or not token[1:].isdigit() or len(token) > 20:
                    raise ValueError(
                        f"{label}:{number}:{col}: bad cost {token!r} (expected '|' and a "
                        "non-negative decimal integer)"
                    )
                cost += int(token[1:])
                has_costs = True
                if total_cost + cost >= MAX_TOTAL_COST:
                    raise ValueError(
                        f"{label}:{number}:{col}: the costs add up to 2**62 or more here (the "
                        "options' costs may add up to 2**62 - 1 at most)"
                    )
                continue
            name, colon, colour = token.partition(":")
            item = index.get(name)
            if item is None:
                raise ValueError(f"{label}:{number}:{col}: unknown item {name!r}")
            if item in seen:
                raise ValueError(
                    f"{label}:{number}:{col}: item {name!r} appears twice in this option"
                )
            colour_code = 0
            if colon:
                where = f"{label}:{number}:{col + len(name) + 1}"
                if not secondary[item]:
                    raise ValueError(
                        f"{where}: primary item {name!r} has a colour (only "
                        f"secondary items may have one)"
                    )
                if not colour or _FORBIDDEN.intersection(colour):
                    raise ValueError(
                        f"{where}: bad colour {colour!r} in {token!r} (expected 'item:colour')"
                    )
                colour_code = colour_index.setdefault(colour, len(colour_index) + 1)
            seen.add(item)
            option.append(item)
            colour_flat.append(colour_code)
        if not option:
            raise ValueError(f"{label}:{number}: an option with a cost but no items")
        total_cost += cost
        lengths.append(len(option))
        flat.extend(option)
        line_numbers.append(number)
        costs.append(cost)
        text = " ".join(t for t in tokens if not t.startswith("|"))
        option_names.append(text if pending_name is None else pending_name)
        pending_name = None
    if item_names is None:
        raise ValueError(
            f"{label}: no item line found (the first non-comment line must name the items)"
        )
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    if lengths:
        np.cumsum(lengths, out=indptr[1:])
    check_link_size(len(item_names), len(lengths), len(flat))
    return _result(
        label,
        item_names,
        secondary,
        bound_rows,
        indptr,
        np.asarray(flat, dtype=np.int32),
        np.asarray(line_numbers, dtype=np.int64),
        np.asarray(colour_flat, dtype=np.int32) if colour_index else None,
        list(colour_index) if colour_index else None,
        option_names,
        np.asarray(costs, dtype=np.int64) if has_costs else None,
    )


def _names(problem):
    if problem.item_names is not None:
        names = list(problem.item_names)
        if _valid_names(names):
            return names
    return [f"i{k}" for k in range(problem.n_items)]


def _valid_names(names):
    return all(
        name
        and not _FORBIDDEN.intersection(name)
        and not any(ch.isspace() or ch in _BLANKS for ch in name)
        for name in names
    ) and len(set(names)) == len(names)


def _colour_labels(problem):
    """Text for colours ``0, 1, 2, ...`` (index 0 unused)."""
    colours = getattr(problem, "colours", None)
    if colours is None:
        return None
    largest = int(colours.max())
    names = getattr(problem, "colour_names", None)
    if names is not None and _valid_names(list(names[:largest])):
        return [""] + list(names[:largest])
    return [""] + [str(c) for c in range(1, largest + 1)]


def to_dlx(problem):
    """Write ``problem`` (an :class:`~numbadlx.ExactCover`) as DLX text.

    Item names are kept when they are valid DLX names, else ``i0, i1, ...`` are used;
    colour names likewise, else the colour numbers. Multiplicities other than ``(1, 1)``
    are written ``u:v|item`` (``v|item`` when ``u = v``), colours ``item:colour``, a
    cost other than 0 ``|cost`` at the end of its option's line. An
    option whose name is not its text gets a ``|: name`` line before it (ValueError for
    a name with a line break).

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> print(to_dlx(ExactCover([[0, 1], [2]], secondary=1)), end="")
    i0 i1 | i2
    i0 i1
    i2
    >>> print(to_dlx(ExactCover([[0, 2], [0, 1, 2]], secondary=1, bounds=[(1, 2), (2, 2)],
    ...                         colours=[[0, 1], [0, 0, 1]], colour_names=["red"])), end="")
    1:2|i0 2|i1 | i2
    i0 i2:red
    i0 i1 i2:red
    """
    names = _names(problem)
    bounds = getattr(problem, "bounds", None)
    labels = _colour_labels(problem)
    prefixes = {}
    if bounds is not None:
        for row, item in enumerate(np.flatnonzero(~problem.secondary)):
            u, v = (int(b) for b in bounds[row])
            if (u, v) != (1, 1):
                prefixes[item] = f"{v}|" if u == v else f"{u}:{v}|"
    primary = [
        prefixes.get(k, "") + names[k] for k in range(problem.n_items) if not problem.secondary[k]
    ]
    secondary = [names[k] for k in range(problem.n_items) if problem.secondary[k]]
    head = " ".join(primary)
    if secondary or not head:
        # a line starting with '|' would be a comment, hence the space; " |" alone is
        # the item line of a problem with no items
        head = (head + " | " if head else " | ") + " ".join(secondary)
    lines = [head]
    option_names = problem.option_names
    costs = getattr(problem, "costs", None)
    for k in range(problem.n_options):
        start, stop = problem.indptr[k], problem.indptr[k + 1]
        if labels is None:
            line = " ".join(names[i] for i in problem.indices[start:stop])
        else:
            line = " ".join(
                names[i] + (":" + labels[c] if c else "")
                for i, c in zip(problem.indices[start:stop], problem.colours[start:stop])
            )
        if option_names is not None and option_names[k] != line:
            lines.append("|: " + _option_name(option_names[k], k))
        if costs is not None and costs[k]:
            line += f" |{costs[k]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _option_name(name, k):
    if "\n" in name or "\r" in name:
        raise ValueError(
            f"option {k} is named {name!r}, with a line break: DLX text cannot hold it"
        )
    return name
