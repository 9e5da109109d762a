"""CLEME and CLEME2.0 behind the metric seam: their configs (every option and the papers'
defaults, declared here once) and the prepare/score pair.

Reference side (``prepare``): the gold's reference targets and, for ERRANT-extracted gold, the
parsed sources. System side (``score``): the hypothesis edits (ERRANT, or given), the chunk
partition, labels and weights.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Sequence

import numpy as np

from gecscore.cache.safe_pickle import storable
from gecscore.chunks.cleme import precision_recall_f, score_cleme
from gecscore.chunks.cleme2 import disentangled_scores, score_cleme2
from gecscore.chunks.config import MODEL_WEIGHTINGS, ClemeConfig, Cleme2Config
from gecscore.chunks.labels import ChunkCounts
from gecscore.chunks.report import result_values, sentence_records
from gecscore.chunks.weighers import ChunkWeigher
from gecscore.metric import Metric, Predictions, Prepared, Result, Share, Shared, SharingKey, build_now, first_column
from gecscore.types import GoldCorpus, Sample, Target


class _ChunkMetric(Metric):
    """The shared prepare/score of CLEME and CLEME2.0."""

    llm_weights = True   # weighting="llm"

    def __init__(self, config, *, weigher: ChunkWeigher | None = None):
        """``weigher`` shares one model-backed weigher (and its caches) between metric objects."""
        super().__init__(config)
        self._weigher: ChunkWeigher | None = weigher
        self._owns_weigher = weigher is None   # a shared weigher is closed by its owner

    def needs(self) -> str:
        return {"similarity": "similarity", "llm": "judge"}.get(self.config.weighting, "")

    def shared_collaborators(self, progress: bool = False, share: Share = build_now) -> dict[str, Shared]:
        """The model-backed weigher, shared by every metric object with the same model (or
        judge) options: BERTScore's from the similarity settings, or the LLM weigher of the
        judge (which ``share`` obtains: a judged metric with the same options asks the same
        one; it shows no bars)."""
        weighting = self.config.weighting
        if weighting == "similarity":
            from gecscore.chunks.similarity_weights import SimilarityChunkWeigher
            from gecscore.models.similarity import SimilaritySettings

            settings = SimilaritySettings.of(self.config)
            return {"weigher": (SharingKey("similarity weigher", settings),
                                lambda: SimilarityChunkWeigher(settings.build(progress)))}
        if weighting == "llm":
            from gecscore.chunks.llm_weights import llm_chunk_weigher
            from gecscore.judged_metric import shared_judge

            judge_key, build_judge = shared_judge(self.config)
            return {"weigher": (SharingKey("llm weigher", judge_key.settings),
                                lambda: llm_chunk_weigher(share(judge_key, build_judge)))}
        return {}

    def weigher(self) -> ChunkWeigher | None:
        """The model-backed weigher, built once per metric object: its pair and judge caches
        keep reference-side model work across calls and systems."""
        if self._weigher is None and self.config.weighting in MODEL_WEIGHTINGS:
            self._weigher = self.own_collaborator("weigher")
        return self._weigher

    def close(self) -> None:
        """Close the LLM weigher's judge if this metric built it (it is rebuilt on use)."""
        judge = getattr(self._weigher, "judge", None)
        if self._owns_weigher and judge is not None:
            judge.close()
            self._weigher = None

    def has_weigher(self) -> bool:
        """Whether the model-backed weigher has been built (it is built on first use)."""
        return self._weigher is not None

    def judge_used(self):
        """The LLM weigher's judge (``weighting="llm"``), if the weigher has been built."""
        return getattr(self._weigher, "judge", None) if self.config.weighting == "llm" else None

    def prepare(self, gold: GoldCorpus) -> Prepared:
        for sentence in gold.sentences:
            sentence.targets()  # built once, kept on the gold
        return self.prepared(gold)

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """CLEME and CLEME2.0 build the same reference side (the gold's targets)."""
        return (("reference side", "chunks"), ("tokenize", self.tokenize), ("lang", self.lang))

    def system_work(self) -> str:
        """CLEME reads a system's text through its hypothesis edits."""
        return self.hypothesis_edits_key()

    def hypotheses(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]
                   ) -> tuple[list[Target], bool]:
        """The hypothesis targets and whether ERRANT extracted them (kept in ``work``)."""
        predictions = self.checked_predictions(prepared, predictions)
        if isinstance(predictions[0], Target):
            return predictions, False
        return self.hypothesis_edits(prepared, predictions, work), True

    def samples(self, prepared: Prepared, hypotheses: Sequence[Target]) -> list[Sample]:
        return [Sample(gold.source, hyp, gold.targets(), index)
                for index, (gold, hyp) in enumerate(zip(prepared.gold.sentences, hypotheses))]

    def model_facts(self) -> tuple[tuple[str, str], ...]:
        """The similarity model and layer, or the judge, of a model-backed weighting."""
        return self._weigher.facts() if self._weigher is not None else ()

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        from gecscore.chunks.evaluation import SampleMemo, partition_corpus

        hypotheses, extracted = self.hypotheses(prepared, predictions, work)
        # the samples and their partition depend on no option: every CLEME configuration of a
        # system shares them
        key = f"chunk partitions:{self.lang if extracted else 'given'}:tok={self.tokenize}"
        shared = work.get(key)
        if shared is None:
            samples = self.samples(prepared, hypotheses)
            memo = prepared.state.setdefault("sample memo", SampleMemo())   # across the systems
            shared = work[key] = (samples, partition_corpus(samples, memo))
        samples, partitions = shared
        detail = self._score_samples(samples, partitions)
        values = result_values(detail)
        weigher = self._weigher
        if self.config.weighting == "llm" and weigher is not None:
            values.update(weigher.counts())   # llm_edits, llm_fallbacks (weight 1 for want of an answer)
        if self.config.per_type:
            from gecscore.chunks.per_type import chunk_categories, table_dict

            values["per_type"] = table_dict(chunk_categories(detail), self.config.per_type, self.name,
                                            alphas=getattr(self.config, "alpha", None),
                                            beta=getattr(self.config, "beta", None))
        stats, statistic = self._statistics(detail)
        return Result(self.name, self.signature(prepared, extracted), values, stats, statistic, detail,
                      partial(sentence_records, detail), partial(sentence_score_values, detail, self.sentence_score_key))


def sentence_score_values(detail, key: str) -> list[float]:
    """Each sentence's ``key`` score in sentence order: the field :func:`sentence_records`
    copies from the same table, without describing every chunk (a leaderboard asks for these
    of every configuration and system)."""
    return detail.sentence_table[key].tolist()


class ClemeMetric(_ChunkMetric):
    name = "cleme"
    sentence_score_key = "f"
    config_type = ClemeConfig
    summary = "CLEME: chunk-level precision, recall and F0.5"

    def _score_samples(self, samples, partitions):
        return score_cleme(samples, self.config, partitions=partitions, weigher=self.weigher())

    def _statistics(self, detail):
        if self.config.level == "corpus":
            tp, fp_ne, fp_un, fn, _ = detail.chosen_counts().T
            return np.stack([tp, fp_ne + fp_un, fn], axis=1), partial(cleme_from_means, beta=self.config.beta)
        return detail.sentence_table["f"].reshape(-1, 1), first_column


class Cleme2Metric(_ChunkMetric):
    name = "cleme2"
    sentence_score_key = "score"
    config_type = Cleme2Config
    summary = "CLEME2.0: hit/wrong/under/over-correction and the comprehensive score"
    per_edit = True
    tunable_weights = True   # alpha

    def _score_samples(self, samples, partitions):
        return score_cleme2(samples, self.config, partitions=partitions, weigher=self.weigher())

    def _statistics(self, detail):
        if self.config.level == "corpus":
            return detail.chosen_counts()[:, :4].copy(), partial(cleme2_from_means, alphas=self.config.alpha)
        return detail.sentence_table["score"].reshape(-1, 1), first_column


@storable
def cleme2_from_means(means: np.ndarray, alphas: tuple[float, ...]) -> float:
    tp, fp_ne, fp_un, fn = means
    return disentangled_scores(ChunkCounts(tp, fp_ne, fp_un, fn), alphas)["score"]


@storable
def cleme_from_means(means: np.ndarray, beta: float) -> float:
    tp, fp, fn = means
    return precision_recall_f(tp, fp, fn, beta)[2]
