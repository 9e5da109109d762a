"""SOME behind the metric seam: ``gecscore.load("some", grammaticality=DIR, fluency=DIR,
meaning=DIR)``.

Reference-free: the prepared side is the sources. ``sentence_stats`` has four columns (the
score and the three normalised sub-scores); the statistic is the first column's mean, the
system score. The three regressors are loaded on first use and kept; their outputs are cached
per input, so the same hypothesis in two systems is run once.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from gecscore.errors import MissingModelError
from gecscore.metric import Metric, Predictions, Prepared, Result, first_column
from gecscore.models.source_side import SourceSide
from gecscore.some.config import DEFAULT_TOKENIZER, SomeConfig
from gecscore.some.scorer import Regressor, some_scores

ASPECTS = ("grammaticality", "fluency", "meaning")


class SomeMetric(SourceSide, Metric[SomeConfig]):
    name = "some"
    config_type = SomeConfig
    summary = ("SOME (Yoshimura et al. 2020): weighted grammaticality, fluency and meaning-preservation BERT "
               "regressors; reference-free, mean over sentences")

    def __init__(self, config: SomeConfig, *, regressors: dict[str, Regressor] | None = None):
        """``regressors`` (``grammaticality``, ``fluency``, ``meaning``) stand in for the models."""
        super().__init__(config)
        self._regressors = dict(regressors or {})

    def regressor(self, aspect: str) -> Regressor:
        if aspect not in self._regressors:
            from gecscore.models.regressor import SequenceRegressor

            c = self.config
            folder = getattr(c, aspect)
            if folder is None:
                raise MissingModelError(
                    "SOME needs its three released regressors: grammaticality=, fluency= and meaning= naming the "
                    "unpacked gfm-models folders")
            self._regressors[aspect] = SequenceRegressor(folder, aspect, f"SOME's {aspect} model", c.max_length,
                                                         c.batch_size, c.device, tokenizer=self.tokenizer_path())
        return self._regressors[aspect]

    def tokenizer_path(self) -> str:
        """The given tokenizer, else the fluency folder when it holds one, else bert-base-cased."""
        c = self.config
        if c.tokenizer:
            return c.tokenizer
        folder = c.fluency or ""
        has_own = any(os.path.exists(os.path.join(folder, name))
                      for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt"))
        return folder if has_own else DEFAULT_TOKENIZER

    def close(self) -> None:
        self._regressors.clear()

    def model_facts(self) -> tuple[tuple[str, str], ...]:
        """The three regressors (a local folder by its last two path components)."""
        from gecscore.models.loading import model_label

        facts = []
        for key, aspect in zip(("g", "f", "m"), ASPECTS):
            given = self._regressors.get(aspect)
            path = getattr(given, "model", None) or getattr(self.config, aspect)
            facts.append((key, model_label(path) if path else "unset"))
        return tuple(facts)

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        c = self.config
        sources, hypotheses = self.texts(prepared, predictions)
        weights = (c.weight_grammaticality, c.weight_fluency, c.weight_meaning)
        if hypotheses:
            subs = some_scores(sources, hypotheses, *(self.regressor(a) for a in ASPECTS), weights)
        else:
            subs = []
        stats = np.asarray([[s.score, s.grammaticality, s.fluency, s.meaning] for s in subs],
                           dtype=np.float64).reshape(-1, 4)
        means = stats.mean(axis=0) if len(subs) else np.zeros(4)
        values = {"score": float(means[0]), "some": float(means[0]), "grammaticality": float(means[1]),
                  "fluency": float(means[2]), "meaning": float(means[3])}

        def records() -> list[dict]:
            return [{"index": i, "some": s.score, "grammaticality": s.grammaticality, "fluency": s.fluency,
                     "meaning": s.meaning} for i, s in enumerate(subs)]

        return Result(self.name, self.signature(prepared), values, stats, first_column, subs, records)
