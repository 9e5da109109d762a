"""CLEME (v1): chunk-level P/R/F_beta under the dependent or independent assumption.

Corpus level: go through the samples in order and, for each, take the reference whose counts
added to the running totals give the best F (rounded to 4 decimals, as the reference code;
ties: higher TP, lower FP, lower FN, higher TN); P/R/F come from the totals.
Sentence level: per sample take the reference with the best (F, P, R, accuracy) and average
F, P and R over sentences.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Sequence

import numpy as np

from gecscore.chunks.candidates import WeighedCandidates, first_best
from gecscore.chunks.config import ClemeConfig
from gecscore.chunks.evaluation import SampleChunks, sample_chunks, weigh_corpus
from gecscore.chunks.labels import ChunkCounts, LabelledChunks
from gecscore.fscore import IMEASURE, f_beta
from gecscore.types import ChunkPartition, Sample

Array = np.ndarray


def precision_recall_f(tp: float, fp: float, fn: float, beta: float = ClemeConfig.beta) -> tuple[float, float, float]:
    """P and R are 1 when their denominator is 0; F is 0 when beta^2 P + R is 0
    (:data:`gecscore.fscore.IMEASURE`)."""
    return tuple(f_beta(tp, fp, fn, beta, IMEASURE))


def accuracy(counts: ChunkCounts) -> float:
    total = counts.tp + counts.fp + counts.fn + counts.tn
    return (counts.tp + counts.tn) / total if total else 0.0


def sentence_scores_of(counts: Array, beta: float) -> dict[str, Array]:
    """:func:`precision_recall_f` and :func:`accuracy` of each row of a counts array
    (columns tp, fp_ne, fp_un, fn, tn), the same operations in the same order."""
    tp, fp_ne, fp_un, fn, tn = counts.T
    fp = fp_ne + fp_un
    total = tp + fp + fn + tn
    with np.errstate(divide="ignore", invalid="ignore"):
        p = IMEASURE.precision_array(tp, fp)
        r = IMEASURE.recall_array(tp, fn)
        return {"p": p, "r": r, "f": IMEASURE.f_array(p, r, beta),
                "acc": np.where(total != 0, (tp + tn) / total, 0.0)}


@dataclass(frozen=True, slots=True)
class SentenceScore:
    """One sample's chosen labelling and its sentence-level scores."""

    index: int
    choice: LabelledChunks
    scores: dict[str, float]

    @property
    def counts(self) -> ChunkCounts:
        return self.choice.counts


@dataclass(eq=False)
class ChunkMetricResult:
    """What CLEME and CLEME2.0 return: headline scores and totals, and each sample's chosen
    candidate (``chosen``, an index into ``weighed``'s candidates) with its sentence scores
    (``sentence_table``: per score key, one value per sample in order). The per-sample
    objects (``sentences``, ``chunks``) are built when first read."""

    metric: str
    scores: dict[str, float]
    counts: ChunkCounts
    samples: Sequence[Sample] = field(repr=False)
    partitions: Sequence[ChunkPartition] = field(repr=False)
    weighed: WeighedCandidates = field(repr=False)
    chosen: Array = field(repr=False)
    sentence_table: dict[str, Array] = field(repr=False)

    @property
    def score(self) -> float:
        return self.scores["score"]

    def chosen_counts(self) -> Array:
        """Each sample's chosen counts, shape ``(samples, 5)``."""
        return self.weighed.counts[self.chosen]

    @cached_property
    def chunks(self) -> list[SampleChunks]:
        return sample_chunks(self.samples, self.partitions, self.weighed)

    @cached_property
    def sentences(self) -> list[SentenceScore]:
        first = self.weighed.labels.first.tolist()
        keys = list(self.sentence_table)
        rows = zip(*(self.sentence_table[k].tolist() for k in keys))
        return [SentenceScore(i, chunks.candidates[c - first[i]], dict(zip(keys, row)))
                for i, (chunks, c, row) in enumerate(zip(self.chunks, self.chosen.tolist(), rows))]


def choose_corpus(weighed: WeighedCandidates, total_key: Callable[[ChunkCounts, ChunkCounts], tuple]
                  ) -> tuple[ChunkCounts, Array]:
    """Greedy reference choice against running totals, sample by sample:
    ``max(candidates, key=total_key(totals, counts))`` (the first of equal keys), then
    ``totals + counts``. A sample whose candidates all have the same counts takes its first
    without ranking them (their keys are equal)."""
    if (np.diff(weighed.labels.first) < 1).any():
        raise ValueError("a sample has no candidate (no reference to label it against)")
    first = weighed.labels.first.tolist()
    counts = weighed.counts.tolist()
    unique = weighed.unique_choice().tolist()
    totals = ChunkCounts()
    chosen = []
    for i, same in enumerate(unique):
        best = first[i]
        if not same:
            candidates = range(first[i], first[i + 1])
            best = max(candidates, key=lambda c: total_key(totals, ChunkCounts(*counts[c])))
        totals = totals + ChunkCounts(*counts[best])
        chosen.append(best)
    return totals, np.asarray(chosen, dtype=np.int64)


def choose_sentences(weighed: WeighedCandidates, table: dict[str, Array], key: Sequence[Array]
                     ) -> tuple[Array, dict[str, Array]]:
    """Per sample, the candidate with the largest ``key`` tuple (the first of equal ones), and
    the score table's rows of the chosen candidates."""
    chosen = first_best(weighed.labels.first, key)
    return chosen, {k: v[chosen] for k, v in table.items()}


def chosen_totals(weighed: WeighedCandidates, chosen: Array) -> ChunkCounts:
    """The chosen candidates' counts added sample by sample from 0.0 (a running sum)."""
    rows = weighed.counts[chosen]
    if not len(rows):
        return ChunkCounts()
    return ChunkCounts(*np.add.accumulate(rows, axis=0)[-1].tolist())


def mean(values: Array) -> float:
    """The sum of a score over the sentences, in order, as Python adds them, over their number
    (0 over an empty corpus)."""
    return sum(values.tolist()) / (len(values) or 1)


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
    partitions, weighed = weigh_corpus(samples, assumption=config.assumption, level=level,
                                       weighting=config.weighting, partitions=partitions, weigher=weigher)
    table = sentence_scores_of(weighed.counts, beta)
    if level == "corpus":
        def key(totals: ChunkCounts, counts: ChunkCounts):
            merged = totals + counts
            f = precision_recall_f(merged.tp, merged.fp, merged.fn, beta)[2]
            return (round(f, 4), *tie_break(counts))
        totals, chosen = choose_corpus(weighed, key)
        p, r, f = precision_recall_f(totals.tp, totals.fp, totals.fn, beta)
        sentences = {k: v[chosen] for k, v in table.items()}
    else:
        chosen, sentences = choose_sentences(weighed, table, (table["f"], table["p"], table["r"], table["acc"]))
        p, r, f = mean(sentences["p"]), mean(sentences["r"]), mean(sentences["f"])
        totals = chosen_totals(weighed, chosen)
    return ChunkMetricResult("cleme", {"score": f, "p": p, "r": r, "f": f}, totals, samples, partitions, weighed,
                             chosen, sentences)
