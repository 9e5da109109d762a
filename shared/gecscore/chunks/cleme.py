"""CLEME (v1): chunk-level P/R/F_beta under the dependent or independent assumption.

Corpus level: go through the samples in order and, for each, take the reference whose counts
added to the running totals give the best F (rounded to 4 decimals, as the reference code;
ties: higher TP, lower FP, lower FN, higher TN); P/R/F come from the totals.
Sentence level: per sample take the reference with the best (F, P, R, accuracy) and average
F, P and R over sentences.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from gecscore.chunks.config import ClemeConfig
from gecscore.chunks.evaluation import SampleChunks, label_corpus
from gecscore.chunks.labels import ChunkCounts, LabelledChunks
from gecscore.fscore import IMEASURE, f_beta
from gecscore.types import ChunkPartition, Sample


def precision_recall_f(tp: float, fp: float, fn: float, beta: float = ClemeConfig.beta) -> tuple[float, float, float]:
    """P and R are 1 when their denominator is 0; F is 0 when beta^2 P + R is 0
    (:data:`gecscore.fscore.IMEASURE`)."""
    return tuple(f_beta(tp, fp, fn, beta, IMEASURE))


def accuracy(counts: ChunkCounts) -> float:
    total = counts.tp + counts.fp + counts.fn + counts.tn
    return (counts.tp + counts.tn) / total if total else 0.0


@dataclass(frozen=True, slots=True)
class SentenceScore:
    """One sample's chosen labelling and its sentence-level scores."""

    index: int
    choice: LabelledChunks
    scores: dict[str, float]

    @property
    def counts(self) -> ChunkCounts:
        return self.choice.counts


@dataclass
class ChunkMetricResult:
    """What CLEME and CLEME2.0 return: headline scores, totals and each sample's choice."""

    metric: str
    scores: dict[str, float]
    counts: ChunkCounts
    sentences: list[SentenceScore]
    chunks: list[SampleChunks] = field(repr=False, default_factory=list)

    @property
    def score(self) -> float:
        return self.scores["score"]


def _cleme_sentence_scores(counts: ChunkCounts, beta: float) -> dict[str, float]:
    p, r, f = precision_recall_f(counts.tp, counts.fp, counts.fn, beta)
    return {"p": p, "r": r, "f": f, "acc": accuracy(counts)}


def choose_corpus(chunks: Sequence[SampleChunks], total_key) -> tuple[ChunkCounts, list[LabelledChunks]]:
    """Greedy reference choice against running totals; ``total_key(totals, counts)`` ranks."""
    totals = ChunkCounts()
    chosen = []
    for sample in chunks:
        best = max(sample.candidates, key=lambda c: total_key(totals, c.counts))
        totals = totals + best.counts
        chosen.append(best)
    return totals, chosen


def tie_break(counts: ChunkCounts) -> tuple[float, float, float, float]:
    """Higher TP, then lower FP, lower FN, higher TN."""
    return (counts.tp, -counts.fp, -counts.fn, counts.tn)


def score_cleme(samples: Sequence[Sample], config: ClemeConfig = ClemeConfig(), *,
                partitions: Sequence[ChunkPartition] | None = None, weigher=None) -> ChunkMetricResult:
    """CLEME P/R/F_beta of one system (the implementation behind ``gecscore.load("cleme")``).
    ``config.weighting`` is ``length`` (CLEME's default) or ``none``; a model-backed weigher
    (similarity, LLM) comes as ``weigher``. ``partitions``: the samples' chunk partitions, if
    already computed (they do not depend on any option)."""
    level, beta = config.level, config.beta
    chunks = label_corpus(samples, assumption=config.assumption, level=level, weighting=config.weighting,
                          partitions=partitions, weigher=weigher)
    if level == "corpus":
        def key(totals: ChunkCounts, counts: ChunkCounts):
            merged = totals + counts
            f = precision_recall_f(merged.tp, merged.fp, merged.fn, beta)[2]
            return (round(f, 4), *tie_break(counts))
        totals, chosen = choose_corpus(chunks, key)
        p, r, f = precision_recall_f(totals.tp, totals.fp, totals.fn, beta)
        sentences = [SentenceScore(i, c, _cleme_sentence_scores(c.counts, beta)) for i, c in enumerate(chosen)]
    else:
        sentences = []
        for i, sample in enumerate(chunks):
            scored = [(c, _cleme_sentence_scores(c.counts, beta)) for c in sample.candidates]
            best, scores = max(scored, key=lambda cs: (cs[1]["f"], cs[1]["p"], cs[1]["r"], cs[1]["acc"]))
            sentences.append(SentenceScore(i, best, scores))
        n = len(sentences) or 1
        p = sum(s.scores["p"] for s in sentences) / n
        r = sum(s.scores["r"] for s in sentences) / n
        f = sum(s.scores["f"] for s in sentences) / n
        totals = sum((s.counts for s in sentences), ChunkCounts())
    return ChunkMetricResult("cleme", {"score": f, "p": p, "r": r, "f": f}, totals, sentences, chunks)
