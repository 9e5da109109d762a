"""The Scribendi score behind the metric seam: ``gecscore.load("scribendi", lm="gpt2",
threshold=0.8)``.

Reference-free: the prepared side is the sources. Each sentence scores +1, -1 or 0
(:mod:`gecscore.scribendi.rules`); the system score is their sum. ``sentence_stats`` has one
column, the sentence score, so ``statistic(means) = n * means[0]`` gives the sum back (a
bootstrap resamples n sentences, so n is fixed).
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from gecscore.cache.safe_pickle import storable
from gecscore.metric import Metric, Predictions, Prepared, Result
from gecscore.models.source_side import SourceSide
from gecscore.scribendi.config import ScribendiConfig
from gecscore.scribendi.rules import PerplexityModel, sentence_scores


class ScribendiMetric(SourceSide, Metric[ScribendiConfig]):
    name = "scribendi"
    config_type = ScribendiConfig
    summary = ("Scribendi score (Islam & Magnani 2021): per changed sentence +1 when a causal LM's perplexity fell "
               "and the change kept close to the source, else -1 (0 unchanged); reference-free, summed")

    def __init__(self, config: ScribendiConfig, *, lm: PerplexityModel | None = None):
        """``lm`` stands in for the language model (shared between metric objects, or a stub)."""
        super().__init__(config)
        self._lm = lm

    def lm(self) -> PerplexityModel:
        """The language model, loaded on first use and kept (its perplexities cached per text)."""
        if self._lm is None:
            from gecscore.models.causal_lm import CausalLMPerplexity

            c = self.config
            self._lm = CausalLMPerplexity(c.lm, c.batch_size, c.device, option="lm")
        return self._lm

    def close(self) -> None:
        self._lm = None

    def model_facts(self) -> tuple[tuple[str, str], ...]:
        """The language model (a local folder by its last two path components)."""
        from gecscore.models.loading import model_label

        return (("lm", model_label(getattr(self._lm, "model", None) or self.config.lm)),)

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        sources, hypotheses = self.texts(prepared, predictions)
        scores, ppl = sentence_scores(sources, hypotheses, self.lm(), self.config.threshold)
        n = len(scores)
        total = float(sum(scores))
        values = {"score": total, "scribendi": total, "improved": scores.count(1), "worsened": scores.count(-1),
                  "unchanged": scores.count(0), "sentences": n}
        stats = np.asarray(scores, dtype=np.float64).reshape(-1, 1)

        def records() -> list[dict]:
            return [{"index": i, "scribendi": s, **({} if p is None else {"ppl_source": p[0], "ppl_hypothesis": p[1]})}
                    for i, (s, p) in enumerate(zip(scores, ppl))]

        return Result(self.name, self.signature(prepared), values, stats, partial(scaled_first_column, n=n),
                      None, records)


@storable
def scaled_first_column(means: np.ndarray, n: int) -> float:
    """The sum of the sentence scores from their mean: n * mean."""
    return float(means[0] * n)
