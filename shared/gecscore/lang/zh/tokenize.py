"""Character-level tokenisation as ChERRANT's ``parallel_to_m2.py -g char`` does it.

ChERRANT (not ``--segmented``, no ``--bpe``):

1. removes every whitespace character (``"".join(text.split())``: spaces, tabs, U+3000, ...);
2. converts *targets* (not sources) from traditional to simplified Chinese with OpenCC
   ``t2s`` (unless ``--no_simplified``);
3. cuts the text into characters, one token each: Latin letters, digits and punctuation are
   characters like any other (``abc`` is three tokens); the only multi-character token is the
   placeholder ``[缺失成分]`` ("missing constituent"), written as one token when its six
   characters appear in a row.
"""
from __future__ import annotations

from functools import lru_cache


MISSING = "[缺失成分]"
_MISSING_SPACED = " ".join(MISSING)


def normalize(text: str) -> str:
    """The text without any whitespace (step 1)."""
    return "".join(text.split())


@lru_cache(maxsize=1)
def _t2s():
    from gecscore.extras import require

    return require("opencc", "simplifying Chinese targets as ChERRANT does (OpenCC t2s)").OpenCC("t2s")


def simplify(text: str) -> str:
    """OpenCC ``t2s`` of a text (step 2; ChERRANT applies it to targets only)."""
    return _t2s().convert(text)


def char_tokens(text: str) -> tuple[str, ...]:
    """The tokens of an already normalised text (step 3)."""
    if not text:
        return ()
    return tuple(" ".join(text).replace(_MISSING_SPACED, MISSING).split(" "))


def tokenize(text: str, *, target: bool = False, simplified: bool = True) -> tuple[str, ...]:
    """Steps 1-3: a source (``target=False``) or a target (converted to simplified Chinese when
    ``simplified``)."""
    text = normalize(text)
    if target and simplified:
        text = simplify(text)
    return char_tokens(text)
