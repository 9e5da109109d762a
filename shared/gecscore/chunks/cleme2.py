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

import numpy as np

from gecscore.chunks.cleme import (ChunkMetricResult, choose_corpus, choose_sentences, chosen_totals, mean,
                                   tie_break)
from gecscore.chunks.config import Cleme2Config
from gecscore.chunks.evaluation import weigh_corpus
from gecscore.chunks.labels import ChunkCounts
from gecscore.types import ChunkPartition, Sample

RATIOS = ("hit", "wrong", "under", "over")


def _share(part, whole):
    """``part / whole``, 0 where ``whole`` is 0: of floats, or elementwise of arrays."""
    if isinstance(whole, np.ndarray):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(whole != 0, part / whole, 0.0)
    return part / whole if whole else 0.0


def disentangled_scores(counts: ChunkCounts, alphas: Sequence[float]) -> dict[str, float]:
    """hit, wrong, under, over and the comprehensive score from (weighted) counts; of a
    :class:`ChunkCounts`, or of arrays of them (:func:`disentangled_table`)."""
    necessary = counts.tp + counts.fp_ne + counts.fn
    hit = _share(counts.tp, necessary)
    wrong = _share(counts.fp_ne, necessary)
    under = _share(counts.fn, necessary)
    over = _share(counts.fp_un, counts.tp + counts.fp_ne + counts.fp_un)
    a1, a2, a3, a4 = alphas
    score = a1 * hit + a2 * (1 - wrong) + a3 * (1 - under) + a4 * (1 - over)
    return {"score": score, "hit": hit, "wrong": wrong, "under": under, "over": over}


def disentangled_table(counts: np.ndarray, alphas: Sequence[float]) -> dict[str, np.ndarray]:
    """:func:`disentangled_scores` of each row of a counts array (columns tp, fp_ne, fp_un,
    fn, tn): the same operations in the same order."""
    return disentangled_scores(ChunkCounts(*counts.T), alphas)


def score_cleme2(samples: Sequence[Sample], config: Cleme2Config = Cleme2Config(), *,
                 partitions: Sequence[ChunkPartition] | None = None, weigher=None) -> ChunkMetricResult:
    """CLEME2.0 of one system (the implementation behind ``gecscore.load("cleme2")``); a
    model-backed weigher (similarity, LLM) comes as ``weigher``; ``partitions``: the samples'
    chunk partitions, if already computed (they do not depend on any option)."""
    level, alphas = config.level, config.alpha
    partitions, weighed = weigh_corpus(samples, assumption=config.assumption, level=level,
                                       weighting=config.weighting, partitions=partitions, weigher=weigher)
    table = disentangled_table(weighed.counts, alphas)
    if level == "corpus":
        def key(totals: ChunkCounts, counts: ChunkCounts):
            return (disentangled_scores(totals + counts, alphas)["score"], *tie_break(counts))
        totals, chosen = choose_corpus(weighed, key)
        scores = disentangled_scores(totals, alphas)
        sentences = {k: v[chosen] for k, v in table.items()}
    else:
        chosen, sentences = choose_sentences(weighed, table, (table["score"], table["hit"], -table["wrong"],
                                                              -table["under"], -table["over"]))
        scores = {k: mean(sentences[k]) for k in ("score", *RATIOS)}
        totals = chosen_totals(weighed, chosen)
    return ChunkMetricResult("cleme2", scores, totals, samples, partitions, weighed, chosen, sentences)
