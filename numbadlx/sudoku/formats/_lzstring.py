"""Decompressing lz-string's base64 text, the packing of f-puzzles links.

lz-string (a JavaScript library) writes text as a stream of variable-width codes, six
bits per base64 character, the most significant bit of each character first; a code's
own bits come least significant first. The first code (2 bits) says whether the first
character is 8 or 16 bits wide (or that the text is empty); then each code, ``width``
bits wide, is 0 or 1 (a new 8- or 16-bit character, added to the dictionary), 2 (the
end), or the index of a dictionary string. After every string read, the previous string
plus the first character of this one joins the dictionary (LZW). The width starts at 3
and grows by one whenever the dictionary has filled the current width.

The reader works on whole strings rather than bit by bit: the text becomes one string
of ``0``/``1`` characters in reading order (six per base64 character, by a table),
reversed once so that each code is a slice read by ``int(..., 2)``, and the dictionary
holds Python strings of UTF-16 code units (lone surrogates included), joined once at
the end.

Every input is bounded: a packed text longer than :data:`MAX_PACKED` characters is
refused before it is read, and so is a stream as soon as its output would pass
:data:`MAX_TEXT` characters. An LZW stream may point every code at the newest
dictionary entry, each one character longer than the last, so a few kilobytes can
stand for gigabytes; counting the output as it grows stops such a stream after a few
thousand codes, in memory and time proportional to the bound (the dictionary never
holds more characters than the output plus one per code).
"""

from __future__ import annotations

__all__ = ["decompress_base64", "MAX_TEXT", "MAX_PACKED"]

#: The most characters a decompressed text may hold: 8 Mi. The f-puzzles JSON of a
#: 36x36 grid with every cell written out and thousands of constraints is well under
#: 1 Mi characters, so a text past the bound is no puzzle.
MAX_TEXT = 1 << 23
#: The most characters a packed (base64) text may hold: 4 Mi.
MAX_PACKED = 1 << 22

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
# each base64 character's six bits, most significant first (the order they are read
# in); a code's own bits come least significant first, so a code is its slice reversed
_BITS = str.maketrans({ch: format(k & 63, "06b") for k, ch in enumerate(_ALPHABET)})  # "=": 0


def _bit_string(text: str) -> str:
    """The bits of ``text`` in reading order, one ``0``/``1`` character each."""
    bits = text.translate(_BITS)
    if len(bits) != 6 * len(text):
        bad = next(ch for ch in text if ch not in _ALPHABET)
        raise ValueError(f"lz-string: {bad!r} is not a base64 character")
    return bits


def decompress_base64(text: str) -> str:
    """The text lz-string's ``compressToBase64`` packed into ``text``.

    Raises
    ------
    ValueError
        A character outside the base64 alphabet, a code pointing past the dictionary,
        a stream that ends without its end code, a packed text longer than
        :data:`MAX_PACKED` or an output longer than :data:`MAX_TEXT` characters.

    Examples
    --------
    >>> decompress_base64("BYUwNmD2AEoZQ===")
    'hello hello'
    """
    # reversed once, the bits read every code as plain binary: the code at reading
    # position ``at`` (``width`` bits) is ``backwards[end - at - width : end - at]``
    text = text.strip()
    if len(text) > MAX_PACKED:
        raise ValueError(
            f"lz-string: the packed text has {len(text):,} characters, more than the "
            f"{MAX_PACKED:,} a puzzle may take"
        )
    backwards = _bit_string(text)[::-1]
    top = len(backwards)  # end - at: where the next code ends in ``backwards``
    if top < 2:
        raise ValueError("lz-string: the compressed text ends in the middle")
    first = int(backwards[top - 2 : top], 2)
    top -= 2
    if first == 2:
        return ""
    if first == 3:
        raise ValueError("lz-string: the first code must be a character (0 or 1), got 3")
    size = 8 if first == 0 else 16
    if top < size:
        raise ValueError("lz-string: the compressed text ends in the middle")
    previous = chr(int(backwards[top - size : top], 2))
    top -= size
    out = [previous]
    total = 1  # characters in ``out``
    dictionary = ["", "", "", previous]  # codes 0-2 are markers, never strings
    width, room = 3, 4
    while True:
        if top < width:
            raise ValueError("lz-string: the compressed text ends in the middle")
        code = int(backwards[top - width : top], 2)
        top -= width
        if code == 2:
            break
        if code < 2:
            size = 8 if code == 0 else 16
            if top < size:
                raise ValueError("lz-string: the compressed text ends in the middle")
            dictionary.append(chr(int(backwards[top - size : top], 2)))
            top -= size
            code = len(dictionary) - 1
            room -= 1
            if room == 0:
                room, width = 1 << width, width + 1
        if code < len(dictionary):
            entry = dictionary[code]
        elif code == len(dictionary):
            entry = previous + previous[0]
        else:
            raise ValueError(f"lz-string: code {code} points past the dictionary")
        total += len(entry)
        if total > MAX_TEXT:
            raise ValueError(
                f"lz-string: the text inflates past {MAX_TEXT:,} characters, more than "
                "any puzzle holds (a decompression bomb?)"
            )
        out.append(entry)
        dictionary.append(previous + entry[0])
        previous = entry
        room -= 1
        if room == 0:
            room, width = 1 << width, width + 1
    # the strings hold UTF-16 code units, as JavaScript strings do: pairs of surrogates
    # become the characters they encode
    return "".join(out).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
