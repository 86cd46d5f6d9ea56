"""One pass over the bytes of DLX text's option lines: tokens, their lines, and an id
per distinct token (for :mod:`numbadlx.core.dlx_bulk`, which reads large texts so).

The bytes are UTF-8 text whose separators are ASCII (space, tab, line feed, vertical
tab, form feed, carriage return), so a token is a run of bytes above 32. Lines whose
first byte is ``|`` are comments and give no token. Each distinct token gets an id in
order of first appearance, through an open-addressing table keyed by an FNV-1a hash
and checked byte by byte (never by the hash alone): the caller then decodes each
distinct token once instead of making a string of every token.

The arrays come sized by the caller: ``n // 2 + 1`` tokens at most for ``n`` bytes, and
a table of more slots than that, a power of two, so every probe ends.

The hash is fixed and public, so a text can be made whose tokens all want the same
slot, and each new token would then probe past all those before it (time growing with
the square of their number). A token's slot comes from all 64 bits of its hash (the
low bits alone, which depend only on the low bits of the bytes, are easy to make
collide), and the scan gives up ("crowded") once the probes outnumber
:data:`PROBES_PER_TOKEN` per token (and a small allowance): the caller then splits the
text in Python, whose dictionaries use a hash seeded per process.
"""

import numpy as np
from numba import njit

__all__ = ["scan_tokens", "SCAN_FIELDS", "PROBES_PER_TOKEN"]

#: What ``counts`` holds after :func:`scan_tokens`, by index.
SCAN_FIELDS = (
    "tokens",
    "distinct",
    "lines",
    "spaces",  # spaces on the lines that are not comments
    "token_lines",  # lines (not comments) with at least one token
    "other_blanks",  # tabs, vertical tabs, form feeds and CRs outside comments
    "named",  # comment lines starting with "|:"
    "control",  # 1 if a control byte other than those blanks was met (scan stopped)
    "crowded",  # 1 if the table took too many probes (scan stopped)
)

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)
#: Probes a scan may take per token on average before it gives up (with a good hash
#: and a table at most half full, about two are needed).
PROBES_PER_TOKEN = 8
_PROBE_ALLOWANCE = 1024


@njit(cache=True, nogil=True)
def _same(raw, a, b, length):
    for j in range(length):
        if raw[a + j] != raw[b + j]:
            return False
    return True


@njit(cache=True, nogil=True)
def scan_tokens(raw, token_id, token_line, first_start, first_length, hashes, slots, counts):
    """Scan ``raw`` (uint8); fill ``token_id`` and ``token_line`` per token,
    ``first_start``/``first_length``/``hashes`` per distinct token, and ``counts`` (see
    :data:`SCAN_FIELDS`). ``slots`` (int32, a power of two, all -1) is the table."""
    n = raw.size
    mask = np.uint64(slots.size - 1)
    tokens = 0
    distinct = 0
    line = 0
    spaces = 0
    token_lines = 0
    other = 0
    named = 0
    control = 0
    crowded = 0
    probes = 0
    last_line = -1
    i = 0
    line_start = True
    while i < n:
        b = raw[i]
        if line_start:
            line_start = False
            if b == 124:  # '|': a comment line, up to its line feed
                if i + 1 < n and raw[i + 1] == 58:
                    named += 1
                while i < n and raw[i] != 10:
                    i += 1
                continue
        if b == 10:
            line += 1
            line_start = True
            i += 1
            continue
        if b == 32:
            spaces += 1
            i += 1
            continue
        if b < 32:
            if b == 9 or b == 11 or b == 12 or b == 13:
                other += 1
                i += 1
                continue
            control = 1
            break
        start = i
        h = _FNV_OFFSET
        while i < n and raw[i] > 32:
            h = (h ^ np.uint64(raw[i])) * _FNV_PRIME
            i += 1
        length = i - start
        if line != last_line:
            token_lines += 1
            last_line = line
        s = (h ^ (h >> np.uint64(29)) ^ (h >> np.uint64(47))) & mask
        while True:
            probes += 1
            if probes > PROBES_PER_TOKEN * tokens + _PROBE_ALLOWANCE:
                crowded = 1
                break
            u = slots[s]
            if u < 0:
                u = distinct
                slots[s] = u
                first_start[u] = start
                first_length[u] = length
                hashes[u] = h
                distinct += 1
                break
            if hashes[u] == h and first_length[u] == length:
                if _same(raw, first_start[u], start, length):
                    break
            s = (s + np.uint64(1)) & mask
        if crowded:
            break
        token_id[tokens] = u
        token_line[tokens] = line
        tokens += 1
    counts[0] = tokens
    counts[1] = distinct
    counts[2] = line + 1
    counts[3] = spaces
    counts[4] = token_lines
    counts[5] = other
    counts[6] = named
    counts[7] = control
    counts[8] = crowded
