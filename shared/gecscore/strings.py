"""String measures several parts of the library use (one copy each)."""
from __future__ import annotations

import re


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common subsequence of ``a`` and ``b`` (bit-parallel: Allison and
    Dix 1986 / Hyyro 2004; one big-integer step per character of ``b``).

    V starts with |a| one bits; for each character c of b, with M[c] the positions of c in a,
    U = V & M[c] and V = (V + U) | (V - U); the LCS is the number of zero bits of V's low |a|
    bits at the end."""
    if not a or not b:
        return 0
    masks: dict[str, int] = {}
    for i, ch in enumerate(a):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for ch in b:
        u = v & masks.get(ch, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - bin(v).count("1")


# The whitespace Python 2 split byte strings on: what the reference scripts that read bytes
# (the official GLEU, ieval.py) cut tokens at. A non-breaking space (U+00A0, SEEDA's REF-M has
# some) or another Unicode space stays inside a token there; str.split() would cut at it.
ASCII_WHITESPACE = " \t\n\r\x0b\x0c"


def ascii_tokens(text: str) -> tuple[str, ...]:
    """The tokens of ``text`` split on ASCII whitespace only, as a Python 2 byte string's
    ``split()``: runs of whitespace are one separator, leading and trailing ones are dropped."""
    return tuple(token for token in re.split(f"[{re.escape(ASCII_WHITESPACE)}]+", text) if token)
