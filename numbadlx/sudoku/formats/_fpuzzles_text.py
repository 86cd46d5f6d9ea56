"""The JSON text of an f-puzzles puzzle, from what a user holds: the JSON itself, its
lz-string packing, an f-puzzles link (``?load=``), a SudokuPad link whose puzzle id is
f-puzzles data (``fpuz`` or ``fpuzzles`` followed by the packing), or a file of one.

SudokuPad names a puzzle by an id in the link's path (``sudokupad.app/fpuzN4Ig...``)
or in its query (``?puzzleid=fpuzN4Ig...``); other ids (``scl``, ``ctc``, short ids of
puzzles kept on a server) are SudokuPad's own format and are refused by name.
"""

from __future__ import annotations

import os
import re
import urllib.parse

from ._lzstring import MAX_PACKED, MAX_TEXT, decompress_base64

__all__ = ["text_of", "WHOLE_LIMIT"]

#: The most bytes of an f-puzzles file read as one puzzle (a file of lines, one puzzle
#: each, is read a line at a time)
WHOLE_LIMIT = 1 << 24

_BASE64 = re.compile(r"[A-Za-z0-9+/= \n\r\t]+")
# an id of f-puzzles data in a SudokuPad link: after a slash or "=", up to the query
_SUDOKUPAD_FPUZ = re.compile(r"(?:^|[/=])fpuz(?:zles)?([^?&#]*)")
_SUDOKUPAD_HOSTS = ("sudokupad", "crackingthecryptic", "svencodes")


def _unpack(packed: str) -> str:
    # a "+" in a link may have been turned into a space on the way
    return decompress_base64(urllib.parse.unquote(packed).replace(" ", "+"))


def _link(text: str) -> str | None:
    """The JSON text of an f-puzzles or SudokuPad link, or None when ``text`` is none."""
    if "load=" in text:
        query = text.split("load=", 1)[1].split("&", 1)[0].split("#", 1)[0]
        return _unpack(query)
    found = _SUDOKUPAD_FPUZ.search(text)
    if found is not None and (text.startswith("fpuz") or "://" in text):
        return _unpack(found.group(1))
    if "://" in text and any(host in text.lower() for host in _SUDOKUPAD_HOSTS):
        raise ValueError(
            "f-puzzles: a SudokuPad link whose puzzle id is not f-puzzles data (only ids "
            f"starting fpuz are read; others are SudokuPad's own format): {text[:60]!r}"
        )
    return None


def text_of(source, paths: bool = True) -> str:
    """The JSON text of ``source``: a JSON string, a packed string, a link or (when
    ``paths``) a file. The text of a file, or a line of a data file, is never a path."""
    if isinstance(source, os.PathLike):
        return _file_text(source)
    if not isinstance(source, str):
        raise TypeError(f"f-puzzles: expected JSON text, a link or a path, got {type(source)}")
    text = source.strip()
    if text.startswith("{"):
        if len(text) > MAX_TEXT:
            raise ValueError(
                f"f-puzzles: a JSON text of {len(text):,} characters is no puzzle (at most "
                f"{MAX_TEXT:,} are read)"
            )
        return text
    if len(text) > 4 * MAX_PACKED:
        raise ValueError(
            f"f-puzzles: a text of {len(text):,} characters is no puzzle (at most "
            f"{MAX_PACKED:,} packed characters are read)"
        )
    unpacked = _link(text)
    if unpacked is not None:
        return unpacked
    is_file = paths and len(text) < 4096 and os.path.isfile(text)
    if text and _BASE64.fullmatch(text) and not is_file:
        return decompress_base64("".join(text.split()))
    if is_file:
        return _file_text(text)
    raise ValueError(
        "f-puzzles: expected a JSON object, an lz-string base64 text, an f-puzzles link "
        f"with ?load=, a SudokuPad link with an fpuz id, or a file, got {text[:40]!r}"
    )


def _file_text(path) -> str:
    with open(path, "rb") as handle:
        data = handle.read(WHOLE_LIMIT + 1)
    if len(data) > WHOLE_LIMIT:
        raise ValueError(
            f"f-puzzles: {os.fspath(path)} holds more than {WHOLE_LIMIT:,} bytes: no puzzle "
            "is that large (a file of many puzzles, one a line, is read by sudoku.solve)"
        )
    return text_of(data.decode("utf-8-sig", "surrogateescape"), paths=False)
