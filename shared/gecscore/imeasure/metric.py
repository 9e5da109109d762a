"""The I-measure behind the metric seam: its config (the reference tool's options and defaults,
declared here once) and the prepare/score pair.

Reference side (``prepare``): the gold's error groups and, per sentence, the reference
candidates encoded once with their baseline counts. System side (``score``): the 3-way
alignment of each hypothesis against the candidates and the per-sentence choice.
"""
from __future__ import annotations

import warnings
from functools import partial

import numpy as np

from typing import Any

from gecscore.imeasure.config import IMeasureConfig
from gecscore.imeasure.scorer import (WasCounts, aspect_scores, count_combinations, error_options, prepared_candidates,
                                      result_values, score_imeasure, sentence_records, vector_of)
from gecscore.metric import Metric, Predictions, Prepared, Result
from gecscore.strings import ascii_tokens
from gecscore.types import GoldCorpus, Target


class IMeasureMetric(Metric):
    name = "imeasure"
    config_type = IMeasureConfig
    summary = "I-measure: WAS counts on a 3-way alignment, WAcc and improvement I"
    # scored against a reference set's I-measure XML gold (*.ieval.xml), as the reference tool is
    gold_format = "xml"

    def prepare(self, gold: GoldCorpus) -> Prepared:
        mix = not self.config.no_mix
        for sentence in gold.sentences:  # encode the candidates once (kept while the gold lives)
            if not mix or count_combinations(error_options(sentence)) <= self.config.max_candidates:
                prepared_candidates(sentence, mix)
        return self.prepared(gold)

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        c = self.config
        predictions = self.checked_predictions(prepared, predictions)
        if isinstance(predictions[0], Target):
            hypotheses = [p.tokens for p in predictions]
        else:
            hypotheses = [ascii_tokens(line) for line in self.tokens_of(predictions)]   # as ieval.py (bytes) cuts them
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            detail = score_imeasure(list(prepared.gold.sentences), hypotheses, c)
        for warning in caught:  # the search notes are also in detail.warnings
            warnings.warn(str(warning.message), warning.category, stacklevel=2)
        values = result_values(detail)
        stats = np.asarray([vector_of(s.evaluation) for s in detail.sentences], dtype=np.float64)
        return Result(self.name, self.signature(prepared), values, stats.reshape(len(detail.sentences), -1),
                      partial(imeasure_from_means, beta=c.beta, w=c.w), detail, partial(sentence_records, detail))

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """The candidates encoded in ``prepare`` depend on mixing and on the enumeration bound."""
        return (("reference side", "imeasure"), ("tokenize", self.tokenize), ("lang", self.lang),
                ("no_mix", self.config.no_mix),
                ("max_candidates", self.config.max_candidates))


def imeasure_from_means(means: np.ndarray, beta: float, w: float) -> float:
    """Correction I of count totals [dTP dTN dFP dFN cTP cTN cFP cFN cFPN bTN bFN] (means work:
    WAcc is a ratio of counts)."""
    m = [float(x) for x in means]
    return aspect_scores(WasCounts(*m[4:9]), WasCounts(0.0, m[9], 0.0, m[10], 0.0), beta, w)["i"]
