"""Knuth's DLX text format: read (:func:`parse_dlx`) and write (:func:`to_dlx`).

The format, as Knuth's DLX programs read it:

* lines whose first character is ``|`` are comments, blank lines are skipped;
* the first other line names the items, separated by white space; a lone ``|``
  separates the primary items (before it) from the secondary ones (after it);
* every further line is one option: the names of its items.

Example::

    | Knuth's example from "Dancing Links"
    a b c d e f g
    c e
    a d g
"""

import os
from dataclasses import dataclass

import numpy as np

from ._validate import check_link_size

__all__ = ["parse_dlx", "to_dlx", "DLXText"]

_FORBIDDEN = set("|:")


@dataclass
class DLXText:
    """A parsed DLX file: CSR options over named items."""

    item_names: list
    n_primary_mask: np.ndarray  # boolean mask of secondary items
    indptr: np.ndarray
    indices: np.ndarray
    line_numbers: np.ndarray  # 1-based source line of each option
    source: str


def _read(source):
    """Return ``(text, label)``: the text and a name for error messages."""
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        with open(path, encoding="utf-8") as handle:
            return handle.read(), path
    if isinstance(source, bytes):
        return source.decode("utf-8"), "<bytes>"
    if not isinstance(source, str):
        raise ValueError(f"DLX source must be text or a path, got {type(source).__name__}")
    if "\n" not in source and source.strip() and os.path.isfile(source):
        with open(source, encoding="utf-8") as handle:
            return handle.read(), source
    return source, "<string>"


def _column(line, token, start=0):
    return line.index(token, start) + 1


def parse_dlx(source):
    """Parse DLX text (or a file) into item names and CSR options.

    Raises ValueError naming the source, line and column of the first problem: no item
    line, a repeated or malformed item name, an unknown item in an option, an item
    twice in one option, or an option with no items.

    Examples
    --------
    >>> parsed = parse_dlx("a b | c\\na c\\nb\\n")
    >>> parsed.item_names, parsed.indices.tolist()
    (['a', 'b', 'c'], [0, 2, 1])
    """
    text, label = _read(source)
    if text.startswith("\ufeff"):
        text = text[1:]
    item_names = None
    secondary = []
    index = {}
    lengths, flat, line_numbers = [], [], []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped or line.startswith("|"):
            continue
        if item_names is None:
            item_names = []
            in_secondary = False
            search_from = 0
            for token in stripped.split():
                col = _column(line, token, search_from)
                search_from = col - 1 + len(token)
                if token == "|":
                    if in_secondary:
                        raise ValueError(f"{label}:{number}:{col}: a second '|' in the item "
                                         f"line")
                    in_secondary = True
                    continue
                bad = _FORBIDDEN.intersection(token)
                if bad:
                    raise ValueError(f"{label}:{number}:{col}: item name {token!r} contains "
                                     f"{sorted(bad)[0]!r} (colours and multiplicities are "
                                     f"not supported by Algorithm X)")
                if token in index:
                    raise ValueError(f"{label}:{number}:{col}: item {token!r} is named twice")
                index[token] = len(item_names)
                item_names.append(token)
                secondary.append(in_secondary)
            continue
        seen = set()
        search_from = 0
        option = []
        for token in stripped.split():
            col = _column(line, token, search_from)
            search_from = col - 1 + len(token)
            item = index.get(token)
            if item is None:
                hint = " (colours are not supported by Algorithm X)" if ":" in token else ""
                raise ValueError(f"{label}:{number}:{col}: unknown item {token!r}{hint}")
            if item in seen:
                raise ValueError(f"{label}:{number}:{col}: item {token!r} appears twice in "
                                 f"this option")
            seen.add(item)
            option.append(item)
        lengths.append(len(option))
        flat.extend(option)
        line_numbers.append(number)
    if item_names is None:
        raise ValueError(f"{label}: no item line found (the first non-comment line must "
                         f"name the items)")
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    if lengths:
        np.cumsum(lengths, out=indptr[1:])
    check_link_size(len(item_names), len(lengths), len(flat))
    return DLXText(item_names=item_names, n_primary_mask=np.array(secondary, dtype=bool),
                   indptr=indptr, indices=np.asarray(flat, dtype=np.int32),
                   line_numbers=np.asarray(line_numbers, dtype=np.int64), source=label)


def _names(problem):
    if problem.item_names is not None:
        names = list(problem.item_names)
        ok = all(name and not _FORBIDDEN.intersection(name) and not any(
            ch.isspace() for ch in name) for name in names) and len(set(names)) == len(names)
        if ok:
            return names
    return [f"i{k}" for k in range(problem.n_items)]


def to_dlx(problem):
    """Write ``problem`` (an :class:`~numbadlx.ExactCover`) as DLX text.

    Item names are kept when they are valid DLX names, else ``i0, i1, ...`` are used.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> print(to_dlx(ExactCover([[0, 1], [2]], secondary=1)), end="")
    i0 i1 | i2
    i0 i1
    i2
    """
    names = _names(problem)
    primary = [names[k] for k in range(problem.n_items) if not problem.secondary[k]]
    secondary = [names[k] for k in range(problem.n_items) if problem.secondary[k]]
    head = " ".join(primary)
    if secondary:
        # a line starting with '|' would be a comment, hence the space
        head = (head + " | " if head else " | ") + " ".join(secondary)
    lines = [head]
    for k in range(problem.n_options):
        lines.append(" ".join(names[i] for i in problem.option(k)))
    return "\n".join(lines) + "\n"
