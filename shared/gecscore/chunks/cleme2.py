"""CLEME2.0: hit-, wrong-, under- and over-correction from chunk-level TP, FP_ne, FP_un, FN.

    NE    = w(TP) + w(FP_ne) + w(FN)
    hit   = w(TP) / NE,  wrong = w(FP_ne) / NE,  under = w(FN) / NE      (0 if NE == 0)
    over  = w(FP_un) / (w(TP) + w(FP_ne) + w(FP_un))                     (0 if 0/0)
    score = a1 * hit + a2 * (1 - wrong) + a3 * (1 - under) + a4 * (1 - over)

Corpus level: per sample take the reference maximising the score of the running totals plus
its counts (ties: higher TP, lower FP, lower FN, higher TN). Sentence level: per sample take
the reference by (score, hit, -wrong, -under, -over) and average over sentences.
"""
from __future__ import annotations

from typing import Sequence

from gecscore.chunks.labels import ChunkCounts
from gecscore.chunks.cleme import ChunkMetricResult, SentenceScore, choose_corpus, tie_break
from gecscore.chunks.config import Cleme2Config
from gecscore.chunks.evaluation import label_corpus
from gecscore.types import ChunkPartition, Sample

RATIOS = ("hit", "wrong", "under", "over")


def disentangled_scores(counts: ChunkCounts, alphas: Sequence[float]) -> dict[str, float]:
    """hit, wrong, under, over and the comprehensive score from (weighted) counts."""
    necessary = counts.tp + counts.fp_ne + counts.fn
    hit = counts.tp / necessary if necessary else 0.0
    wrong = counts.fp_ne / necessary if necessary else 0.0
    under = counts.fn / necessary if necessary else 0.0
    proposed = counts.tp + counts.fp_ne + counts.fp_un
    over = counts.fp_un / proposed if proposed else 0.0
    a1, a2, a3, a4 = alphas
    score = a1 * hit + a2 * (1 - wrong) + a3 * (1 - under) + a4 * (1 - over)
    return {"score": score, "hit": hit, "wrong": wrong, "under": under, "over": over}


def score_cleme2(samples: Sequence[Sample], config: Cleme2Config = Cleme2Config(), *,
                 partitions: Sequence[ChunkPartition] | None = None, weigher=None) -> ChunkMetricResult:
    """CLEME2.0 of one system (the implementation behind ``gecscore.load("cleme2")``); a
    model-backed weigher (similarity, LLM) comes as ``weigher``; ``partitions``: the samples'
    chunk partitions, if already computed (they do not depend on any option)."""
    level, alphas = config.level, config.alpha
    chunks = label_corpus(samples, assumption=config.assumption, level=level, weighting=config.weighting,
                          partitions=partitions, weigher=weigher)
    if level == "corpus":
        def key(totals: ChunkCounts, counts: ChunkCounts):
            return (disentangled_scores(totals + counts, alphas)["score"], *tie_break(counts))
        totals, chosen = choose_corpus(chunks, key)
        scores = disentangled_scores(totals, alphas)
        sentences = [SentenceScore(i, c, disentangled_scores(c.counts, alphas)) for i, c in enumerate(chosen)]
    else:
        sentences = []
        for i, sample in enumerate(chunks):
            scored = [(c, disentangled_scores(c.counts, alphas)) for c in sample.candidates]
            best, best_scores = max(scored, key=lambda cs: (cs[1]["score"], cs[1]["hit"], -cs[1]["wrong"],
                                                            -cs[1]["under"], -cs[1]["over"]))
            sentences.append(SentenceScore(i, best, best_scores))
        n = len(sentences) or 1
        scores = {k: sum(s.scores[k] for s in sentences) / n for k in ("score", *RATIOS)}
        totals = sum((s.counts for s in sentences), ChunkCounts())
    return ChunkMetricResult("cleme2", scores, totals, sentences, chunks)
