"""IMPARA's sentence score, model-free.

    IMPARA(s, h) = sigmoid(QE(h))   if sim(s, h) >= threshold
                 = 0                 otherwise

QE is the quality estimator's raw output on the hypothesis alone; sim the cosine of the
mean-pooled encoder states of source and hypothesis (:mod:`gecscore.models.mean_pooled`). The
gate keeps a hypothesis from scoring well by being fluent but unfaithful. A similarity equal to
the threshold passes (the reference implementation zeroes ``sim < threshold``). The system
score is the mean of the sentence scores.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, Sequence


class Regressor(Protocol):
    """The quality estimator: one raw output per text."""

    def scores(self, inputs: Sequence[str]) -> list[float]: ...


class Similarity(Protocol):
    """The similarity model: one similarity per (source, hypothesis) pair."""

    def similarities(self, pairs: Sequence[tuple[str, str]]) -> list[float]: ...


@dataclass(frozen=True)
class ImparaSentence:
    quality: float      # sigmoid(QE(h))
    similarity: float   # sim(s, h)
    score: float        # quality, or 0 below the threshold


def sigmoid(x: float) -> float:
    """1 / (1 + e^-x), without overflow for large |x|."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def gate(quality: float, similarity: float, threshold: float) -> float:
    """The quality when the similarity reaches the threshold, else 0."""
    return quality if similarity >= threshold else 0.0


def impara_scores(sources: Sequence[str], hypotheses: Sequence[str], quality_estimator: Regressor,
                  similarity: Similarity, threshold: float) -> list[ImparaSentence]:
    """Every sentence's score: one call of each model on the whole corpus (they batch)."""
    hyps = list(hypotheses)
    raw = quality_estimator.scores(hyps)
    sims = similarity.similarities(list(zip(sources, hyps, strict=True)))
    out = []
    for x, sim in zip(raw, sims):
        q = sigmoid(x)
        out.append(ImparaSentence(q, sim, gate(q, sim, threshold)))
    return out
