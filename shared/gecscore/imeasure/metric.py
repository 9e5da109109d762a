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

from typing import Any, Sequence

from gecscore.cache.safe_pickle import storable
from gecscore.imeasure.config import IMeasureConfig
from gecscore.imeasure.scorer import (PreparedReferences, WasCounts, aspect_scores, count_combinations, error_options,
                                      prepared_candidates, result_values, score_imeasure, sentence_records,
                                      vector_of)
from gecscore.metric import Metric, Predictions, Prepared, Result
from gecscore.strings import ascii_tokens
from gecscore.types import Gold, GoldCorpus, Target


# the columns of the I-measure's table: counts, then rates (printed as percentages)
TABLE_COUNTS = ("tp", "tn", "fp", "fn", "fpn")
TABLE_RATES = ("p", "r", "f", "acc", "acc_base", "wacc", "wacc_base", "i")


class IMeasureTableResult(Result):
    """An I-measure result, printed as a table: one row per aspect (detection, correction),
    its counts then its rates as percentages."""

    def format(self) -> str:
        out = self.as_dict()
        lines = [out["signature"],
                 f"{'':<11}" + "".join(f"{k.upper():>10}" for k in (*TABLE_COUNTS, *TABLE_RATES))]
        for aspect in ("detection", "correction"):
            row = out[aspect]
            cells = [f"{row[k]:>10d}" for k in TABLE_COUNTS] + [f"{100 * row[k]:>10.2f}" for k in TABLE_RATES]
            lines.append(f"{aspect:<11}" + "".join(cells))
        return "\n".join(lines)


class IMeasureMetric(Metric):
    name = "imeasure"
    config_type = IMeasureConfig
    summary = "I-measure: WAS counts on a 3-way alignment, WAcc and improvement I"
    # scored against a reference set's I-measure XML gold (*.ieval.xml), as the reference tool is
    gold_format = "xml"

    def prepare(self, gold: GoldCorpus) -> Prepared:
        """The gold and, per sentence, its reference candidates encoded once (None where they
        are too many to enumerate: searched per hypothesis). The candidates of a corpus come
        from the persistent cache when this gold was prepared before under the same options,
        code and versions (:func:`reference_candidates`)."""
        prepared = self.prepared(gold)
        prepared.state["candidates"] = reference_candidates(gold.sentences, not self.config.no_mix,
                                                            self.config.max_candidates)
        return prepared

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        c = self.config
        predictions = self.checked_predictions(prepared, predictions)
        if isinstance(predictions[0], Target):
            hypotheses = [p.tokens for p in predictions]
        else:
            hypotheses = [ascii_tokens(line) for line in self.tokens_of(predictions)]   # as ieval.py (bytes) cuts them
        detail = score_imeasure(list(prepared.gold.sentences), hypotheses, c,
                                candidates=prepared.state.get("candidates"), warn=False)
        for note in detail.warnings:   # from here, not under catch_warnings: that resets the registry
            warnings.warn(note, UserWarning, stacklevel=2)   # by which the same note is shown once
        values = result_values(detail)
        stats = np.asarray([vector_of(s.evaluation) for s in detail.sentences], dtype=np.float64)
        return IMeasureTableResult(self.name, self.signature(prepared), values,
                                   stats.reshape(len(detail.sentences), -1),
                                   partial(imeasure_from_means, beta=c.beta, w=c.w), detail,
                                   partial(sentence_records, detail))

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """The candidates encoded in ``prepare`` depend on mixing and on the enumeration bound."""
        return (("reference side", "imeasure"), ("tokenize", self.tokenize), ("lang", self.lang),
                ("no_mix", self.config.no_mix),
                ("max_candidates", self.config.max_candidates))


CACHE_NAMESPACE = "imeasure-candidates"


def reference_candidates(sentences: Sequence[Gold], mix: bool, max_candidates: int
                         ) -> tuple[PreparedReferences | None, ...]:
    """Each sentence's encoded reference candidates (None beyond ``max_candidates``
    combinations), from the persistent cache (:mod:`gecscore.cache`) when they were built
    before: keyed by the gold's content, ``mix``, ``max_candidates``, the source of the
    modules that build them and the installed versions."""
    from gecscore.cache import remembered
    from gecscore.cache.keys import KeyBuilder, environment_digest, package_digest, value_digest

    def build() -> tuple[PreparedReferences | None, ...]:
        return tuple(prepared_candidates(s, mix) if not mix or count_combinations(error_options(s)) <= max_candidates
                     else None for s in sentences)

    key = (KeyBuilder(CACHE_NAMESPACE)
           .facts((("mix", str(mix)), ("max_candidates", str(max_candidates)), ("environment", environment_digest()),
                   ("code", package_digest()),
                   ("gold", value_digest(tuple(sentences)))))
           .digest())

    def answers(value: object) -> bool:   # one entry per sentence, each of its source
        return (isinstance(value, tuple) and len(value) == len(sentences)
                and all(v is None or (isinstance(v, PreparedReferences) and v.source == tuple(s.source))
                        for v, s in zip(value, sentences)))

    return remembered(CACHE_NAMESPACE, key, build, answers)


@storable
def imeasure_from_means(means: np.ndarray, beta: float, w: float) -> float:
    """Correction I of count totals [dTP dTN dFP dFN cTP cTN cFP cFN cFPN bTN bFN] (means work:
    WAcc is a ratio of counts)."""
    m = [float(x) for x in means]
    return aspect_scores(WasCounts(*m[4:9]), WasCounts(0.0, m[9], 0.0, m[10], 0.0), beta, w)["i"]
