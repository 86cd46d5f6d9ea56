"""Named items and options: the input of :meth:`numbadlx.ExactCover.from_names`, and
the names of a solution's options.

Names are strings. Item names follow the rules of Knuth's DLX text, so that a problem
made from names writes to DLX text and reads back with the same names: an item name is
not empty and holds no white space, ``|`` or ``:``. In an option, ``"x:red"`` gives
secondary item ``x`` the colour ``red`` (a colour name follows the same rules). Option
names are any text (a dict key that is not a string is turned into one with
:class:`str`); options given as a list are named by their text, their items joined by
single spaces as a line of DLX text writes them (``"a d g"``, ``"b x:red"``).

``primary`` and ``secondary`` are lists of item names, or one string of names separated
by spaces. Item order: the primary items (in the order of ``primary``, or of first appearance in
the options), then the secondary ones (in the order of ``secondary``). Colours are
numbered ``1, 2, ...`` in order of first appearance, as :func:`~numbadlx.core.dlx_text.
parse_dlx` numbers them.

Examples
--------
>>> named = read_names({"A": ["a", "x:red"], "B": "b x:red"}, secondary=["x"])
>>> named.item_names, named.indices.tolist(), named.colours.tolist()
(['a', 'b', 'x'], [0, 2, 1, 2], [0, 1, 0, 1])
>>> read_names([["b", "a"], ["a"]]).option_names
['b a', 'a']
"""

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .validate import check_link_size, check_option_indices

__all__ = ["NamedOptions", "read_names", "option_text", "solution_names"]

_BLANKS = " \t\v\f\r"


@dataclass
class NamedOptions:
    """Options over named items, read into CSR (the item indices in item order)."""

    item_names: list
    secondary: np.ndarray  # boolean mask over the items
    indptr: np.ndarray
    indices: np.ndarray
    option_names: list
    colours: np.ndarray = None  # int32 parallel to indices (0 = none), or None
    colour_names: list = None  # name of colour k + 1 at index k, or None


def _bad_char(name):
    """The first character that may not be in a DLX name, or None."""
    for ch in name:
        if ch.isspace() or ch in "|:":
            return ch
    return None


def _check_name(name, what, where):
    if not isinstance(name, str):
        raise TypeError(
            f"{where}: {what} {name!r} is a {type(name).__name__}; names are strings "
            f"(for item indices use ExactCover(options))"
        )
    if not name:
        raise ValueError(f"{where}: empty {what}")
    bad = _bad_char(name)
    if bad is not None:
        raise ValueError(
            f"{where}: {what} {name!r} contains {bad!r} (names may not hold white space, "
            f"'|' or ':'; write a colour as 'item:colour')"
        )
    return name


def _split(text):
    return "".join(" " if ch in _BLANKS else ch for ch in text).split(" ")


def _tokens(value, where):
    """An option's entries as a list: a string is read as names separated by blanks."""
    if isinstance(value, str):
        return [token for token in _split(value) if token]
    if isinstance(value, (bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{where}: expected a list of item names, got {type(value).__name__}")
    return list(value)


def _listed(names, what):
    """``primary`` or ``secondary`` as a list of checked, distinct names."""
    if names is None:
        return None
    listed = _tokens(names, what)
    for name in listed:
        _check_name(name, "item", what)
    seen = set()
    for name in listed:
        if name in seen:
            raise ValueError(f"{what}: item {name!r} is named twice")
        seen.add(name)
    return listed


def _entries(options):
    """``(name or None, label for errors, entries)`` for each option."""
    if isinstance(options, Mapping):
        return [(str(key), f"option {str(key)!r}", value) for key, value in options.items()]
    if isinstance(options, (str, bytes)) or not hasattr(options, "__iter__"):
        raise TypeError(
            f"options must be a dict {{name: [items]}} or a list of lists of item names, "
            f"got {type(options).__name__} (for DLX text use ExactCover.from_dlx)"
        )
    return [(None, f"option {k}", value) for k, value in enumerate(options)]


def read_names(options, primary=None, secondary=None):
    """Read named options (see :meth:`numbadlx.ExactCover.from_names`) into a
    :class:`NamedOptions`.

    Raises ValueError naming the option and the item for an empty option, an item twice
    in one option, an item that is not listed (when ``primary`` is given), a colour on
    a primary item, an item named both primary and secondary, or a malformed name;
    TypeError for a name that is not a string.
    """
    primary = _listed(primary, "primary")
    secondary = _listed(secondary, "secondary")
    if primary is not None and secondary is not None:
        both = set(primary).intersection(secondary)
        if both:
            first = next(name for name in primary if name in both)
            raise ValueError(f"item {first!r} is named both primary and secondary")
    is_secondary = set(secondary or ())
    known = None if primary is None else set(primary) | is_secondary
    parsed, names, first_seen = [], [], {}
    colour_index = {}
    for name, label, value in _entries(options):
        tokens = _tokens(value, label)
        if not tokens:
            raise ValueError(f"{label} is empty (an option covers at least one item)")
        option, seen = [], set()
        for token in tokens:
            if not isinstance(token, str):
                _check_name(token, "item", label)
            item, colon, colour = token.partition(":")
            _check_name(item, "item", label)
            if item in seen:
                raise ValueError(f"{label}: item {item!r} appears twice")
            seen.add(item)
            if known is not None and item not in known:
                raise ValueError(
                    f"{label}: item {item!r} is not listed in primary or secondary "
                    f"(when primary is given, every item must be listed)"
                )
            code = 0
            if colon:
                if item not in is_secondary:
                    raise ValueError(
                        f"{label}: primary item {item!r} has a colour in {token!r} (only "
                        f"secondary items may have one: name it in secondary)"
                    )
                _check_name(colour, "colour", f"{label}, {token!r}")
                code = colour_index.setdefault(colour, len(colour_index) + 1)
            first_seen.setdefault(item, len(first_seen))
            option.append((item, code))
        parsed.append(option)
        names.append(name if name is not None else " ".join(tokens))
    if primary is None:
        primary = [item for item in first_seen if item not in is_secondary]
    item_names = primary + (secondary or [])
    index = {item: k for k, item in enumerate(item_names)}
    lengths = [len(option) for option in parsed]
    indptr = np.zeros(len(parsed) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    check_link_size(len(item_names), len(parsed), int(indptr[-1]))
    flat = [pair for option in parsed for pair in option]
    indices = np.array([index[item] for item, _ in flat], dtype=np.int32)
    colours = np.array([code for _, code in flat], dtype=np.int32) if colour_index else None
    mask = np.zeros(len(item_names), dtype=bool)
    mask[len(primary) :] = True
    return NamedOptions(
        item_names=item_names,
        secondary=mask,
        indptr=indptr,
        indices=indices,
        option_names=names,
        colours=colours,
        colour_names=list(colour_index) if colour_index else None,
    )


def option_text(problem, k):
    """Option ``k`` of ``problem`` as a line of DLX text: its item names (item indices
    without names) joined by spaces, ``item:colour`` for a coloured item.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> option_text(ExactCover([[0, 2], [1]], item_names=["a", "b", "c"]), 0)
    'a c'
    """
    labels = problem.item_names
    start, stop = problem.indptr[k], problem.indptr[k + 1]
    colours = problem.colours
    colour_names = problem.colour_names
    parts = []
    for at in range(start, stop):
        item = int(problem.indices[at])
        text = str(item) if labels is None else labels[item]
        code = 0 if colours is None else int(colours[at])
        if code:
            colour = colour_names[code - 1] if colour_names else str(code)
            text += f":{colour}"
        parts.append(text)
    return " ".join(parts)


def solution_names(problem, solution):
    """The names of the options ``solution`` (option indices) picks: its option names,
    or :func:`option_text` for a problem without; ``None`` for ``None``. ValueError for
    an index out of range."""
    if solution is None:
        return None
    picked = check_option_indices(solution, problem.n_options)
    outside = (picked < 0) | (picked >= problem.n_options)
    if outside.any():
        raise ValueError(
            f"option index {int(picked[outside][0])} out of range 0..{problem.n_options - 1}"
        )
    if problem.option_names is not None:
        return [problem.option_names[k] for k in picked.tolist()]
    return [option_text(problem, k) for k in picked.tolist()]
