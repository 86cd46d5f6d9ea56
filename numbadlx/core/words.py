"""Counts in messages: ``1 puzzle``, ``2 puzzles``, ``1,000 nodes``. One rule for every
message, repr and summary line of the package, so none says "1 puzzles" or "thread(s)".
"""

from __future__ import annotations

__all__ = ["per_second", "plural"]


def plural(number, noun: str, many: str | None = None, spec: str = "") -> str:
    """``number`` and ``noun``, the noun made plural unless the number reads as one.

    Parameters
    ----------
    number : int or float
        The count (a rate such as puzzles per second too).
    noun : str
        The singular noun; it may carry a unit after it, as in ``"puzzle/s"``, whose
        first word is the one made plural.
    many : str, optional
        The plural when it is not ``noun`` with an ``s`` after its first word (such
        as ``"entries"`` for ``"entry"``).
    spec : str
        How the number is written (a :func:`format` spec such as ``","`` or ``",.0f"``);
        the noun is singular when the number is written ``1``.

    Returns
    -------
    str

    Examples
    --------
    >>> plural(1, "puzzle"), plural(2, "puzzle"), plural(0, "thread")
    ('1 puzzle', '2 puzzles', '0 threads')
    >>> plural(12345, "node", spec=","), plural(1.2, "puzzle/s", spec=",.0f")
    ('12,345 nodes', '1 puzzle/s')
    >>> plural(3, "entry", "entries")
    '3 entries'
    """
    text = format(number, spec)
    if text == "1":
        return f"{text} {noun}"
    if many is None:
        word, slash, unit = noun.partition("/")
        many = f"{word}s{slash}{unit}"
    return f"{text} {many}"


def per_second(count, seconds, noun: str = "puzzle") -> str:
    """A rate, ``count`` per ``seconds``, as text: whole numbers from 10 a second up,
    two significant digits below (a slow call is never "0 puzzles/s"), and ``-`` when
    nothing was counted or timed.

    Examples
    --------
    >>> per_second(20000, 8), per_second(1, 16.0), per_second(3, 0)
    ('2,500 puzzles/s', '0.062 puzzles/s', '- puzzles/s')
    """
    if not count or not seconds > 0:
        return "- " + plural(2, f"{noun}/s").split(" ", 1)[1]
    value = count / seconds
    return plural(value, f"{noun}/s", spec=",.0f" if value >= 9.5 else ".2g")
