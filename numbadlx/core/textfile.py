"""Is this path a text file? One check for every reader of text input: the DLX text
format (:mod:`numbadlx.core.dlx_text`) and the Sudoku puzzle formats.

A directory, a missing file and a binary file each get an error that names the path
and says which it is, instead of a parse error about its first "line".
"""

from __future__ import annotations

import os

import numpy as np

__all__ = [
    "TEXT_SAMPLE_BYTES",
    "binary_byte",
    "check_file",
    "check_text_bytes",
    "check_text_file",
]

#: Bytes at the start of a file that :func:`check_text_file` looks at.
TEXT_SAMPLE_BYTES = 1 << 16

# Control bytes that text never holds: NUL to backspace and 0x0E to 0x1F, except
# Ctrl-Z (0x1A, an old DOS end-of-file mark) and escape (0x1B); tab, line feed,
# vertical tab, form feed and carriage return are text.
_BINARY = np.zeros(256, dtype=bool)
_BINARY[0x00:0x09] = True
_BINARY[0x0E:0x20] = True
_BINARY[[0x1A, 0x1B]] = False


def binary_byte(data: bytes) -> int:
    """Offset of the first byte of ``data`` that no text holds (a NUL or another
    control byte other than tab, line ends, form feed, escape and Ctrl-Z), or -1.

    Examples
    --------
    >>> binary_byte(b"1 2 3\\n"), binary_byte(b"PK\\x03\\x04")
    (-1, 2)
    """
    if not data:
        return -1
    found = _binary_mask(data)
    return int(np.argmax(found)) if found.any() else -1


def _binary_mask(data: bytes) -> np.ndarray:
    return _BINARY[np.frombuffer(data, dtype=np.uint8)]


def check_text_bytes(data: bytes, label: str, share: float = 0.0) -> None:
    """Raise ValueError ``LABEL is not a text file (byte 0x.. at offset ..)`` when more
    than ``share`` of the bytes of ``data`` are bytes that text never holds (see
    :func:`binary_byte`; the message names the first). With the default ``share=0``
    one such byte is enough; a reader that reports bad lines one by one passes a
    small share, so that a stray NUL in a text file is a bad line, while a binary
    file (compressed data, an image: about one byte in ten) is refused whole.

    Examples
    --------
    >>> check_text_bytes(b"\\x89PNG\\r\\n\\x1a\\n\\x00", "image.png")
    Traceback (most recent call last):
    ...
    ValueError: image.png is not a text file (byte 0x00 at offset 8)
    """
    offset = binary_byte(data)
    if offset >= 0 and (share <= 0 or np.count_nonzero(_binary_mask(data)) > share * len(data)):
        raise ValueError(
            f"{label} is not a text file (byte 0x{data[offset]:02x} at offset {offset})"
        )


def check_file(path: str | os.PathLike) -> str:
    """Check that ``path`` names a file (of any content) and return it as a string:
    IsADirectoryError ``PATH is a directory, not a file`` or FileNotFoundError ``no
    such file: PATH`` otherwise.

    Examples
    --------
    >>> check_file("/no/such/file.txt")
    Traceback (most recent call last):
    ...
    FileNotFoundError: no such file: /no/such/file.txt
    """
    name = os.fspath(path)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    if os.path.isdir(name):
        raise IsADirectoryError(f"{name} is a directory, not a file")
    if not os.path.exists(name):
        raise FileNotFoundError(f"no such file: {name}")
    return name


def check_text_file(path: str | os.PathLike) -> str:
    """Check that ``path`` names a readable text file and return it as a string.

    Raises what :func:`check_file` raises, PermissionError from opening it, or ValueError (``PATH is
    not a text file (byte 0x.. at offset ..)``) when its first
    :data:`TEXT_SAMPLE_BYTES` bytes hold a byte that text never holds.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> check_text_file(folder)
    Traceback (most recent call last):
    ...
    IsADirectoryError: ... is a directory, not a file
    """
    name = check_file(path)
    with open(name, "rb") as handle:
        check_text_bytes(handle.read(TEXT_SAMPLE_BYTES), name)
    return name
