"""Text from names into the markup the views write: HTML text and attributes, and JSON
inside a ``<script>`` element.

Every view escapes through these two functions, so a name is always data, never
markup. (The dot language has its own helper beside its one writer,
:meth:`numbadlx.core.zdd.ZDD.to_dot`, as core does not import this layer.)
"""

from __future__ import annotations

import html
import json
from typing import Any

__all__ = ["text", "script_json"]

# Inside a <script> element the HTML parser looks for "</script", and after "<!--" it
# also counts "<script" openings (the "script data escaped" states), so no "<" may reach
# it. ">" and "&" go too, so the text means the same in XHTML and in an attribute, and
# the line and paragraph separators are line ends to JavaScript engines before ES2019.
_SCRIPT_SAFE = str.maketrans(
    {
        "<": "\\u003c",
        ">": "\\u003e",
        "&": "\\u0026",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)


def text(value: Any) -> str:
    """``value`` as HTML text or a quoted attribute value (``& < > " '`` escaped).

    Examples
    --------
    >>> text('<b title="x">')
    '&lt;b title=&quot;x&quot;&gt;'
    """
    return html.escape(str(value), quote=True)


def script_json(value: Any) -> str:
    r"""``value`` as JSON that can stand inside a ``<script>`` element: no ``<``, ``>``,
    ``&``, U+2028 or U+2029 in it, each written as its ``\uXXXX`` escape (these
    characters only occur inside JSON strings, where the escape means the same).

    Examples
    --------
    >>> print(script_json({"name": "</script><!--"}))
    {"name":"\u003c/script\u003e\u003c!--"}
    """
    return json.dumps(value, separators=(",", ":")).translate(_SCRIPT_SAFE)
