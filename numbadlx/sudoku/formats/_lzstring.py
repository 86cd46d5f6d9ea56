"""Decompressing lz-string's base64 text, the packing of f-puzzles links.

lz-string (a JavaScript library) writes text as a stream of variable-width codes, six
bits per base64 character, the most significant bit of each character first; a code's
own bits come least significant first. The first code (2 bits) says whether the first
character is 8 or 16 bits wide (or that the text is empty); then each code, ``width``
bits wide, is 0 or 1 (a new 8- or 16-bit character, added to the dictionary), 2 (the
end), or the index of a dictionary string. After every string read, the previous string
plus the first character of this one joins the dictionary (LZW). The width starts at 3
and grows by one whenever the dictionary has filled the current width.
"""

from __future__ import annotations

__all__ = ["decompress_base64"]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_VALUE = {ch: k for k, ch in enumerate(_ALPHABET)}


class _Bits:
    """Reads codes from base64 characters, six bits each, high bit first."""

    def __init__(self, text):
        try:
            self.values = [_VALUE[ch] for ch in text]
        except KeyError as error:
            raise ValueError(f"lz-string: {error.args[0]!r} is not a base64 character") from None
        self.index = 0
        self.mask = 0  # the next bit of the current character; 0: take the next character

    def read(self, width):
        code = 0
        for k in range(width):
            if self.mask == 0:
                if self.index >= len(self.values):
                    raise ValueError("lz-string: the compressed text ends in the middle")
                self.current = self.values[self.index]
                self.index += 1
                self.mask = 32
            if self.current & self.mask:
                code |= 1 << k
            self.mask >>= 1
        return code


def decompress_base64(text: str) -> str:
    """The text lz-string's ``compressToBase64`` packed into ``text``.

    Raises
    ------
    ValueError
        A character outside the base64 alphabet, a code pointing past the dictionary,
        or a stream that ends without its end code.

    Examples
    --------
    >>> decompress_base64("BYUwNmD2AEoZQ===")
    'hello hello'
    """
    bits = _Bits(text.strip())
    first = bits.read(2)
    if first == 2:
        return ""
    if first == 3:
        raise ValueError("lz-string: the first code must be a character (0 or 1), got 3")
    units = [bits.read(8 if first == 0 else 16)]
    dictionary = [None, None, None, units[:]]  # codes 0-2 are markers, never strings
    previous = units[:]
    width, room = 3, 4
    while True:
        code = bits.read(width)
        if code == 2:
            break
        if code in (0, 1):
            dictionary.append([bits.read(8 if code == 0 else 16)])
            code = len(dictionary) - 1
            room -= 1
            if room == 0:
                room, width = 1 << width, width + 1
        if code < len(dictionary) and dictionary[code] is not None:
            entry = dictionary[code]
        elif code == len(dictionary):
            entry = previous + previous[:1]
        else:
            raise ValueError(f"lz-string: code {code} points past the dictionary")
        units.extend(entry)
        dictionary.append(previous + entry[:1])
        previous = entry
        room -= 1
        if room == 0:
            room, width = 1 << width, width + 1
    # the codes are UTF-16 code units, as JavaScript strings hold them
    raw = b"".join(u.to_bytes(2, "little") for u in units)
    return raw.decode("utf-16-le", errors="surrogatepass")
