"""Edit types decidable without a parse (``free-1``).

The operation is ERRANT's: ``M`` (missing: nothing in the source), ``U`` (unnecessary: nothing in
the target), ``R`` (replacement). The category is the first of these rules that holds:

* ``WO`` (``R`` only): a transposition, or a replacement whose two sides hold the same
  lowercased tokens in another order (ERRANT's word-order rule);
* ``ORTH`` (``R`` only): the two sides are the same string once lowercased and with
  whitespace removed: a case or spacing change (ERRANT's ``ORTH``);
* ``PUNCT``: every token of both sides is punctuation (Unicode ``P*``); or (``R``) the two
  sides hold punctuation and, once their punctuation tokens are dropped, the same tokens up to
  case (``, we`` -> ``. We``: ERRANT's rule for punctuation with a capitalisation);
* ``SPELL`` (``R`` only, one word each side) when the two words differ only in diacritics
  (equal once lowercased, decomposed (NFD) and stripped of combining marks: ``Ca`` -> ``Ça``,
  ``ειναι`` -> ``είναι``, Arabic ``الى`` -> ``إلى``);
* ``MORPH`` (``R`` only, one word each side): the two words share a stem of at least 3
  characters and differ only in their last 1 to 3 characters (lowercased): most likely an
  inflection (``годині`` -> ``годину``, ``cat`` -> ``cats``). ERRANT would name it from the
  POS (``NOUN:NUM``, ``VERB:SVA``, ``NOUN:INFL``, ...); without a parse the free profile
  cannot, so these are one category;
* ``SPELL`` (``R`` only, one word each side): otherwise, an optimal-string-alignment
  (Damerau-Levenshtein with adjacent transpositions) distance of the lowercased words of at
  most 2 and at most a third of the longer word (``recieve`` -> ``receive``, ``hte`` -> ``the``);
  ERRANT also requires the source word to be missing from its English word list, which the
  free profile has no counterpart of (a real-word error within distance 2 is SPELL here);
* ``OTHER``: anything else.

A *word* here is a token of letters and marks only (``str.isalpha`` or a combining mark: no
digits, no punctuation).
"""
from __future__ import annotations

import unicodedata
from typing import Sequence

from gecscore.lang.free.merge import is_punct

STEM_MIN = 3
ENDING_MAX = 3
SPELL_MAX = 2


def _is_word(token: str) -> bool:
    return bool(token) and all(ch.isalpha() or unicodedata.category(ch)[0] == "M" for ch in token)


def osa_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (insert, delete, substitute, swap adjacent characters)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for p in range(1, len(a) + 1):
        row = [p] + [0] * len(b)
        for q in range(1, len(b) + 1):
            cost = 0 if a[p - 1] == b[q - 1] else 1
            row[q] = min(prev[q] + 1, row[q - 1] + 1, prev[q - 1] + cost)
            if p > 1 and q > 1 and a[p - 1] == b[q - 2] and a[p - 2] == b[q - 1]:
                row[q] = min(row[q], prev2[q - 2] + 1)
        prev2, prev = prev, row
    return prev[len(b)]


def strip_marks(word: str) -> str:
    """``word`` lowercased, decomposed (NFD), without combining marks."""
    return "".join(ch for ch in unicodedata.normalize("NFD", word.lower()) if unicodedata.category(ch)[0] != "M")


def _word_type(a: str, b: str) -> str:
    if strip_marks(a) == strip_marks(b):
        return "SPELL"
    a, b = a.lower(), b.lower()
    stem = 0
    while stem < min(len(a), len(b)) and a[stem] == b[stem]:
        stem += 1
    if stem >= STEM_MIN and len(a) - stem <= ENDING_MAX and len(b) - stem <= ENDING_MAX:
        return "MORPH"
    distance = osa_distance(a, b)
    if distance <= SPELL_MAX and 3 * distance <= max(len(a), len(b)):
        return "SPELL"
    return "OTHER"


def classify(op: str, src: Sequence[str], tgt: Sequence[str]) -> str:
    """The type of an edit from source tokens ``src`` to target tokens ``tgt`` (``op``: the
    alignment op, ``T<k>`` for a transposition)."""
    if not src:
        operation = "M"
    elif not tgt:
        operation = "U"
    else:
        operation = "R"
    tokens = (*src, *tgt)
    if operation == "R":
        if op.startswith("T") or (len(src) > 1 and sorted(t.lower() for t in src) == sorted(t.lower() for t in tgt)):
            return "R:WO"
        if "".join("".join(src).split()).lower() == "".join("".join(tgt).split()).lower():
            return "R:ORTH"
    if tokens and all(is_punct(t) for t in tokens):
        return operation + ":PUNCT"
    if operation == "R" and any(is_punct(t) for t in tokens):
        if [t.lower() for t in src if not is_punct(t)] == [t.lower() for t in tgt if not is_punct(t)]:
            return "R:PUNCT"
    if operation == "R" and len(src) == len(tgt) == 1 and _is_word(src[0]) and _is_word(tgt[0]):
        return "R:" + _word_type(src[0], tgt[0])
    return operation + ":OTHER"
