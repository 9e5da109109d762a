"""IMPARA behind the metric seam: ``gecscore.load("impara", quality_estimator=DIR,
similarity_model=DIR, threshold=0.9)``.

Reference-free (it reads the source). ``sentence_stats`` has three columns (the score, the
quality before the gate, the similarity); the statistic is the first column's mean, the
system score. The models are loaded on first use and kept; outputs are cached per text.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from gecscore.impara.config import ImparaConfig
from gecscore.impara.scorer import Regressor, Similarity, impara_scores
from gecscore.metric import Metric, Predictions, Prepared, Result, first_column
from gecscore.models.source_side import SourceSide


class ImparaMetric(SourceSide, Metric[ImparaConfig]):
    name = "impara"
    config_type = ImparaConfig
    summary = ("IMPARA (Maeda et al. 2022): a BERT quality estimator's sigmoid score of the hypothesis, 0 when its "
               "similarity to the source is below the threshold; reference-free, mean over sentences")

    def __init__(self, config: ImparaConfig, *, quality_estimator: Regressor | None = None,
                 similarity: Similarity | None = None):
        """``quality_estimator`` and ``similarity`` stand in for the models."""
        super().__init__(config)
        self._qe = quality_estimator
        self._sim = similarity

    def quality_estimator(self) -> Regressor:
        if self._qe is None:
            from gecscore.models.regressor import SequenceRegressor

            c = self.config
            self._qe = SequenceRegressor(c.quality_estimator, "quality_estimator", "IMPARA's quality estimator",
                                         c.max_length, c.batch_size, c.device)
        return self._qe

    def similarity(self) -> Similarity:
        if self._sim is None:
            from gecscore.models.mean_pooled import MeanPooledSimilarity

            c = self.config
            self._sim = MeanPooledSimilarity(c.similarity_model, "similarity_model", "IMPARA's similarity model",
                                             c.max_length, c.batch_size, c.device)
        return self._sim

    def close(self) -> None:
        self._qe = self._sim = None

    def model_facts(self) -> tuple[tuple[str, str], ...]:
        """The quality estimator and the similarity model (a local folder by its last two path
        components)."""
        from gecscore.models.loading import model_label

        qe = getattr(self._qe, "model", None) or self.config.quality_estimator
        sim = getattr(self._sim, "model", None) or self.config.similarity_model
        return (("qe", model_label(qe)), ("sim", model_label(sim)))

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        sources, hypotheses = self.texts(prepared, predictions)
        sentences = (impara_scores(sources, hypotheses, self.quality_estimator(), self.similarity(),
                                   self.config.threshold) if hypotheses else [])
        stats = np.asarray([[s.score, s.quality, s.similarity] for s in sentences], dtype=np.float64).reshape(-1, 3)
        means = stats.mean(axis=0) if len(sentences) else np.zeros(3)
        gated = sum(s.score == 0.0 and s.quality > 0 for s in sentences)
        values = {"score": float(means[0]), "impara": float(means[0]), "quality": float(means[1]),
                  "similarity": float(means[2]), "gated": int(gated)}

        def records() -> list[dict]:
            return [{"index": i, "impara": s.score, "quality": s.quality, "similarity": s.similarity}
                    for i, s in enumerate(sentences)]

        return Result(self.name, self.signature(prepared), values, stats, first_column, sentences, records)
