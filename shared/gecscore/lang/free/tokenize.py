"""Model-free tokenisation for any script (rules ``free-1``).

Every character falls in one of four classes, decided from its Unicode data alone:

* **space**: ``str.isspace()``; separates tokens and is dropped;
* **continuous**: a character of a script written without spaces between words (CJK ideographs
  and their extensions, compatibility ideographs, Hiragana, Katakana (incl. halfwidth), Bopomofo,
  Thai, Lao, Khmer, Myanmar): each is one token, as ChERRANT cuts Chinese into characters.
  Combining marks (Unicode category ``M*``) that follow it stay with it (a Thai vowel sign or
  tone mark belongs to its consonant), so a token is a base character plus its marks;
* **word**: letters, digits and combining marks (categories ``L*``, ``N*``, ``M*``) of any other
  script (Latin with diacritics, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Hangul, ...);
* **other**: punctuation and symbols: each character is one token (``...`` is three tokens,
  as in the CoNLL-2014 and UA-GEC tokenised text).

Words are maximal runs of word characters, where one *joiner* between two word characters keeps
the run going: an apostrophe (``'`` U+0027, ``’`` U+2019, ``ʼ`` U+02BC) or a hyphen (``-``
U+002D, ``‐`` U+2010) between two letters (Ukrainian ``п'ять``, ``будь-який``, French
``aujourd'hui``), and ``.`` or ``,`` between two digits (``3.14``, ``1,000``). Why: these are
parts of one word in every language the rule was checked on, and splitting them would turn a
spelling fix (``пять`` -> ``п'ять``) into a multi-token edit. English clitics (``don't``) stay
one token, unlike spaCy's ``do n't``: a language-specific rule the free profile does not have.

With ``tokenize=False`` text is split on whitespace as given; a whitespace token holding
continuous-script characters is still cut into them (each such character one token, the runs
of other characters between them kept whole), since a Japanese or Thai sentence would else be
one token and no edit could be located.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

SPACE, CONTINUOUS, WORD, OTHER = 0, 1, 2, 3

# Scripts written without spaces between words: one token per character.
CONTINUOUS_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0E7F),    # Thai
    (0x0E80, 0x0EFF),    # Lao
    (0x1000, 0x109F),    # Myanmar
    (0x1780, 0x17FF),    # Khmer
    (0x19E0, 0x19FF),    # Khmer symbols
    (0x3040, 0x309F),    # Hiragana
    (0x30A0, 0x30FF),    # Katakana
    (0x3100, 0x312F),    # Bopomofo
    (0x31A0, 0x31BF),    # Bopomofo extended
    (0x31F0, 0x31FF),    # Katakana phonetic extensions
    (0x3400, 0x4DBF),    # CJK extension A
    (0x4E00, 0x9FFF),    # CJK unified ideographs
    (0xF900, 0xFAFF),    # CJK compatibility ideographs
    (0xFF66, 0xFF9F),    # halfwidth Katakana
    (0x20000, 0x3134F),  # CJK extensions B-G
)
APOSTROPHES = frozenset("'\u2019\u02bc")
HYPHENS = frozenset("-\u2010")
NUMBER_JOINERS = frozenset(".,")


@lru_cache(maxsize=65536)
def char_class(ch: str) -> int:
    """The class of one character (see the module docstring)."""
    if ch.isspace():
        return SPACE
    code = ord(ch)
    for low, high in CONTINUOUS_RANGES:
        if low <= code <= high:
            if unicodedata.category(ch)[0] in "LMN":
                return CONTINUOUS
            return OTHER  # e.g. Thai punctuation signs, the Katakana middle dot
    if unicodedata.category(ch)[0] in "LMN":
        return WORD
    return OTHER


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "M"


def _joins(text: str, k: int) -> bool:
    """Whether text[k] (a non-word character) joins the word characters on both sides."""
    if k == 0 or k + 1 >= len(text):
        return False
    before, ch, after = text[k - 1], text[k], text[k + 1]
    if char_class(before) != WORD or char_class(after) != WORD:
        return False
    if ch in APOSTROPHES or ch in HYPHENS:
        return (before.isalpha() or _is_mark(before)) and after.isalpha()
    if ch in NUMBER_JOINERS:
        return before.isdigit() and after.isdigit()
    return False


def tokenize(text: str) -> tuple[str, ...]:
    """The tokens of raw ``text`` (``tokenize=True``)."""
    tokens: list[str] = []
    current: list[str] = []
    current_class = SPACE

    def flush() -> None:
        nonlocal current, current_class
        if current:
            tokens.append("".join(current))
        current = []
        current_class = SPACE

    for k, ch in enumerate(text):
        cls = char_class(ch)
        if cls == WORD and _is_mark(ch) and current_class == CONTINUOUS:
            current.append(ch)  # a mark stays with its continuous-script base character
        elif cls == WORD:
            if current_class != WORD:
                flush()
                current_class = WORD
            current.append(ch)
        elif cls == CONTINUOUS:
            if _is_mark(ch) and current_class == CONTINUOUS:
                current.append(ch)
            else:
                flush()
                current.append(ch)
                current_class = CONTINUOUS
        elif cls == OTHER and current_class == WORD and _joins(text, k):
            current.append(ch)
        else:
            flush()
            if cls == OTHER:
                tokens.append(ch)
    flush()
    return tuple(tokens)


def split_continuous(token: str) -> tuple[str, ...]:
    """A whitespace token cut at continuous-script characters (``tokenize=False``): each such
    character (with its marks) one token, the runs between them kept whole."""
    if not any(char_class(ch) == CONTINUOUS for ch in token):
        return (token,)
    out: list[str] = []
    run: list[str] = []
    for ch in token:
        cls = char_class(ch)
        if cls == CONTINUOUS and not (_is_mark(ch) and out and not run):
            if run:
                out.append("".join(run))
                run = []
            out.append(ch)
        elif _is_mark(ch) and not run and out:
            out[-1] += ch
        else:
            run.append(ch)
    if run:
        out.append("".join(run))
    return tuple(out)


def whitespace_tokens(text: str) -> tuple[str, ...]:
    """The tokens of already tokenised ``text`` (``tokenize=False``)."""
    return tuple(piece for token in text.split() for piece in split_continuous(token))
