"""The one path for in-memory text inputs: type and length checks, a byte-order mark or CR
left on a line, one reference string per example, and a warning when text looks untokenised
while ``tokenize`` is off. File reading is :mod:`gecscore.io.text`; tokenisation is spaCy's
(:mod:`gecscore.lang.en.extractor`)."""
from __future__ import annotations

import re
import warnings
from functools import lru_cache
from typing import Any, Sequence

from gecscore.errors import GecInputError

BOM = "\ufeff"
# a word with punctuation glued to it ("home." "said," "don't"): spaCy would split these
_GLUED = re.compile(r"\w[.,!?;:)\]\"]$|^[(\[\"]\w|\w(n't|'s|'re|'ve|'ll|'d|'m)$", re.IGNORECASE)
# a line with a token _GLUED may match (each of its three forms at a token's edge: before a
# space or the line's end, after a space or the line's start): a line it does not match has no
# glued token, and most lines of tokenised text are told so by one search
_MAY_BE_GLUED = re.compile(r"\w[.,!?;:)\]\"](?=\s|$)|(?:^|(?<=\s))[(\[\"]\w|\w(?:n't|'s|'re|'ve|'ll|'d|'m)(?=\s|$)",
                           re.IGNORECASE)
UNTOKENISED_SHARE = 0.2
# An abbreviation keeps its period in tokenised text (the CoNLL-2014 and PTB tokenisations keep
# "etc.", "Mr.", "U.S.", "C."): initials and dotted abbreviations, spaCy's English exceptions
# (Mr., e.g., a.m., ...) and the Latin ones that list leaves out.
_DOTTED = re.compile(r"^(?:[A-Za-z]\.)+[A-Za-z]?\.?$")
_LATIN_ABBREVIATIONS = frozenset({"etc.", "vs.", "cf.", "al.", "viz.", "ca.", "approx.", "ibid."})


@lru_cache(maxsize=1)
def _abbreviations() -> frozenset[str]:
    try:
        from spacy.lang.en.tokenizer_exceptions import TOKENIZER_EXCEPTIONS
    except ImportError:   # spaCy is a base requirement; without it, the Latin ones only
        return _LATIN_ABBREVIATIONS
    return frozenset(k.lower() for k in TOKENIZER_EXCEPTIONS if k.endswith(".")) | _LATIN_ABBREVIATIONS


def is_glued(token: str) -> bool:
    """Whether ``token`` has punctuation glued to a word (``home.``, ``said,``, ``don't``), an
    abbreviation's own period (``etc.``, ``Mr.``, ``U.S.``) excepted."""
    glue = _glue(token)
    return glue == SURELY_GLUED or (glue == GLUED_UNLESS_ABBREVIATION and token.lower() not in _abbreviations())


NOT_GLUED, SURELY_GLUED, GLUED_UNLESS_ABBREVIATION = 0, 1, 2


def _glue(token: str) -> int:
    """What the token's form alone says: not glued, glued, or glued unless it is one of
    spaCy's English abbreviations (a word and a period that is not initials or a Latin
    abbreviation: ``home.``, ``Mr.``). The last needs spaCy's list, whose import costs
    seconds: :func:`looks_untokenised` asks it only when the answer depends on it."""
    if not _GLUED.search(token):
        return NOT_GLUED
    if not token.endswith("."):
        return SURELY_GLUED
    if _DOTTED.match(token) or token.lower() in _LATIN_ABBREVIATIONS:
        return NOT_GLUED
    return GLUED_UNLESS_ABBREVIATION


def clean(text: str) -> str:
    """A sentence without a leading byte-order mark or surrounding whitespace (line ends, and
    the spaces some systems leave at a line's end: CoNLL-2014's IITB output ends every line
    with " \r"). Token-based metrics never saw them; for the metrics that read text (Scribendi,
    SOME, IMPARA, the LLM judges) they made an untouched sentence a changed one."""
    return text.lstrip(BOM).strip()


def strings(values: Any, what: str, *, non_empty: bool = False) -> list[str]:
    """``values`` as a list of cleaned strings; a clear error on a non-string or (``non_empty``)
    a blank item."""
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise GecInputError(f"{what} must be a list of strings, got {type(values).__name__}")
    out = []
    for index, value in enumerate(values):
        if not isinstance(value, str):
            raise GecInputError(f"must be a string, got {type(value).__name__}", f"{what}[{index}]")
        value = clean(value)
        if non_empty and not value.strip():
            raise GecInputError("empty source sentence (a source needs at least one token)", f"{what}[{index}]")
        out.append(value)
    return out


def reference_lists(references: Any, n: int) -> list[list[str]]:
    """References as one list per example; a single string per example is one reference (as
    evaluate's sacrebleu module allows)."""
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise GecInputError(f"references must be a list (one entry per example), got {type(references).__name__}")
    if len(references) != n:
        raise GecInputError(f"got {n} sources but {len(references)} reference lists")
    out = []
    for index, refs in enumerate(references):
        if isinstance(refs, str):
            refs = [refs]
        if not isinstance(refs, Sequence) or not len(refs):
            raise GecInputError("references must be a non-empty list of strings", f"references[{index}]")
        out.append(strings(refs, f"references[{index}]"))
    return out


def parallel(sources: Any, predictions: Any | None = None, references: Any | None = None
             ) -> tuple[list[str], list[str] | None, list[list[str]] | None]:
    """Checked parallel inputs: equal lengths, strings, non-empty sources."""
    sources = strings(sources, "sources", non_empty=True)
    if predictions is not None:
        predictions = strings(predictions, "predictions")
        if len(predictions) != len(sources):
            raise GecInputError(f"got {len(sources)} sources but {len(predictions)} predictions")
    if references is not None:
        references = reference_lists(references, len(sources))
    if not sources:
        raise GecInputError("no sentences to score (the inputs are empty)")
    return sources, predictions, references


def looks_untokenised(lines: Sequence[str]) -> bool:
    """Whether at least 20% of the lines have punctuation glued to a word (``home.``, ``said,``,
    ``don't``; :func:`is_glued`): text that spaCy would tokenise differently from whitespace
    splitting. An abbreviation's period (``etc.``) is how tokenised text writes it.

    The lines whose only glue is a word's period are counted through spaCy's abbreviations
    only when the share depends on them (tokenised text rarely has enough to matter), so a
    metric that never parses does not import spaCy to check its input."""
    lines = [line for line in lines if line.strip()]
    if not lines:
        return False
    surely, maybe = 0, []
    for line in lines:
        if not _MAY_BE_GLUED.search(line):
            continue
        glue = max((_glue(token) for token in line.split()), key=_GLUE_ORDER.index, default=NOT_GLUED)
        if glue == SURELY_GLUED:
            surely += 1
        elif glue == GLUED_UNLESS_ABBREVIATION:
            maybe.append(line)
    def enough(glued: int) -> bool:
        return glued / len(lines) >= UNTOKENISED_SHARE

    if enough(surely) or not enough(surely + len(maybe)):
        return enough(surely)
    return enough(surely + sum(1 for line in maybe if any(is_glued(token) for token in line.split())))


_GLUE_ORDER = (NOT_GLUED, GLUED_UNLESS_ABBREVIATION, SURELY_GLUED)


def first_glued_token(lines: Sequence[str]) -> str | None:
    """The first token with punctuation glued to it (what the untokenised warning quotes)."""
    for line in lines:
        for token in line.split():
            if is_glued(token):
                return token
    return None


@lru_cache(maxsize=64)
def _looks_untokenised_seen(lines: tuple[str, ...]) -> bool:
    """:func:`looks_untokenised`, kept for the last inputs by content: every configuration of
    a leaderboard reads the same system's lines (14 checks of one list per system), and a
    leaderboard worker goes over every system once per group of configurations (64: the
    systems of a large board, whose lines the worker reads anyway)."""
    return looks_untokenised(lines)


def warn_if_untokenised(lines: Sequence[str], what: str, tokenize: bool) -> None:
    """Warn, quoting a token of the input itself, when text looks untokenised."""
    if not tokenize and _looks_untokenised_seen(tuple(lines)):
        example = first_glued_token(lines)
        warnings.warn(f"{what} look untokenised (punctuation glued to words, e.g. {example!r}): edits are "
                      f"extracted from whitespace tokens; pass tokenize=True to tokenise "
                      f"them first (spaCy for English, the language profile's tokeniser otherwise)", UserWarning, stacklevel=3)
