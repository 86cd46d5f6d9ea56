"""Names written into Graphviz's DOT language as data: one quoted string each."""

_DOT_ESCAPES = {ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", 0x7F: "\u2421"}
_DOT_ESCAPES.update({c: chr(0x2400 + c) for c in range(32) if c not in (9, 10, 13)})


def _dot_string(text: str) -> str:
    """``text`` as one quoted dot string whose label shows ``text`` (line ends as line
    breaks, other control characters but tab as their U+2400 symbols)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return '"' + text.translate(_DOT_ESCAPES) + '"'
