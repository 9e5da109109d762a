"""The Scribendi rules of one sentence (Islam & Magnani 2021, section 3), model-free.

For a source s and a hypothesis h:

* h == s (the same string): 0, the system left the sentence alone;
* ppl(h) >= ppl(s): -1, the change did not make the sentence more likely (a tie counts
  against the change, as the reference implementation's ``ppl_s <= ppl_h``);
* otherwise +1 when max(TSR(s, h), LDR(s, h)) >= threshold, else -1: the change lowered the
  perplexity and kept close enough to the source (a rewrite into another sentence is
  penalised however fluent it is). The threshold is inclusive.

The corpus score is the sum of the sentence scores (so it grows with the corpus; the paper
compares systems on one test set).

TSR, the token sort ratio (the ``fuzzywuzzy`` definition the paper used): each string is
lower-cased, the characters U+0080..U+00FF dropped, every other non-alphanumeric character
replaced by a space, split on whitespace, the tokens sorted and joined by single spaces; then

    TSR = round(100 * 2 * LCS(a, b) / (|a| + |b|)) / 100         (0 when either is empty)

with LCS the longest common character subsequence (``python-Levenshtein``'s ratio; the
rounding to a whole percent is fuzzywuzzy's, so 0.795 passes a 0.8 threshold as it did there).

LDR, the Levenshtein distance ratio over the raw characters, insertions and deletions costing
1 and a substitution 2 (so the distance is |s| + |h| - 2 LCS(s, h)):

    LDR = 1 - distance / (|s| + |h|) = 2 * LCS(s, h) / (|s| + |h|)
"""
from __future__ import annotations

import re
from typing import Protocol, Sequence

from gecscore.strings import lcs_length

_NON_WORD = re.compile(r"(?ui)\W")
_LATIN1_HIGH = {code: None for code in range(128, 256)}


class PerplexityModel(Protocol):
    """What the rules need of a language model: one perplexity per text."""

    def perplexities(self, texts: Sequence[str]) -> list[float]: ...


def indel_ratio(a: str, b: str) -> float:
    """2 LCS(a, b) / (|a| + |b|); 1 for two empty strings."""
    total = len(a) + len(b)
    return 1.0 if total == 0 else 2 * lcs_length(a, b) / total


def sorted_tokens(text: str) -> str:
    """fuzzywuzzy's processing for the token sort ratio (see the module docstring)."""
    text = _NON_WORD.sub(" ", text.translate(_LATIN1_HIGH)).lower().strip()
    return " ".join(sorted(text.split()))


def token_sort_ratio(source: str, hypothesis: str) -> float:
    """TSR in [0, 1], rounded to a whole percent; 0 when either side has no token."""
    a, b = sorted_tokens(source), sorted_tokens(hypothesis)
    if not a or not b:
        return 0.0
    return round(100 * indel_ratio(a, b)) / 100


def levenshtein_ratio(source: str, hypothesis: str) -> float:
    """LDR in [0, 1] over the raw characters (substitution costs 2)."""
    return indel_ratio(source, hypothesis)


def sentence_score(source: str, hypothesis: str, ppl_source: float, ppl_hypothesis: float,
                   threshold: float) -> int:
    """+1, -1 or 0 by the rules of the module docstring."""
    if source == hypothesis:
        return 0
    if ppl_source <= ppl_hypothesis:
        return -1
    similar = max(token_sort_ratio(source, hypothesis), levenshtein_ratio(source, hypothesis))
    return 1 if similar >= threshold else -1


def sentence_scores(sources: Sequence[str], hypotheses: Sequence[str], lm: PerplexityModel,
                    threshold: float) -> tuple[list[int], list[tuple[float, float] | None]]:
    """The sentence scores and the (source, hypothesis) perplexities of the changed sentences
    (None for an unchanged one: the model is not asked). One :meth:`perplexities` call covers
    every changed sentence's source and hypothesis (one batched pass)."""
    changed = [i for i, (s, h) in enumerate(zip(sources, hypotheses, strict=True)) if s != h]
    ppl = lm.perplexities([sources[i] for i in changed] + [hypotheses[i] for i in changed])
    pairs: list[tuple[float, float] | None] = [None] * len(sources)
    for k, i in enumerate(changed):
        pairs[i] = (ppl[k], ppl[len(changed) + k])
    scores = [0 if pair is None else sentence_score(s, h, pair[0], pair[1], threshold)
              for s, h, pair in zip(sources, hypotheses, pairs)]
    return scores, pairs
