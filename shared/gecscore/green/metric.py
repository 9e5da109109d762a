"""GREEN behind the metric seam: ``gecscore.load("green", order=4, beta=2.0, unit="word")``.

``sentence_stats`` holds, per sentence, the (TP, FP, FN) counts of each order against the
sentence's best reference (``3 order`` columns, order-major); at corpus level ``statistic``
reads the column means as pooled counts (only ratios matter), so
``statistic(sentence_stats.mean(axis=0)) == score``. At sentence level the one column is the
sentence's GREEN.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Sequence

import numpy as np

from gecscore.cache.safe_pickle import storable
from gecscore.extract.text_gold import text_gold
from gecscore.green.config import GreenConfig
from gecscore.green.scorer import all_ngrams, best_reference, counts, green, units
from gecscore.metric import Metric, Predictions, Prepared, Result, first_column
from gecscore.types import GoldCorpus, Target


@storable
def corpus_green(means: np.ndarray, beta: float, order: int) -> float:
    return green(np.asarray(means).reshape(order, 3), beta)


class GreenMetric(Metric[GreenConfig]):
    name = "green"
    sentence_score_key = "green"
    config_type = GreenConfig
    summary = "GREEN (Koyama et al. 2024): n-gram F2 over true/over/under keeps, insertions and deletions"

    def prepare(self, gold: GoldCorpus) -> Prepared:
        """The n-gram counts of every source and reference (annotator k's edits applied)."""
        unit, order = self.config.unit, self.config.order
        grams = lambda tokens: all_ngrams(units(" ".join(tokens), unit), order)
        sources = tuple(grams(g.source) for g in gold.sentences)
        references = tuple(tuple(grams(t.tokens) for t in g.targets()) for g in gold.sentences)
        return self.prepared(gold, state={"sources": sources, "references": references})

    def prepare_text(self, sources: Sequence[str], references: Any) -> Prepared:
        """English text references are used as they are (no ERRANT extraction: GREEN reads text
        only, as gec-metrics does); another language's text is read through its profile
        (Chinese: characters), the predictions then too (:meth:`_score`)."""
        if self.lang != "en":
            return super().prepare_text(sources, references)
        return self.prepare(text_gold(sources, references))

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """The n-gram counts depend on the unit and the order."""
        return (("reference side", self.name), ("unit", self.config.unit), ("order", self.config.order),
                ("lang", self.lang))

    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        predictions = self.checked_predictions(prepared, predictions)
        if self.lang != "en" and predictions and not isinstance(predictions[0], Target):
            predictions = list(self.tokens_of(predictions))   # the profile's tokens, as the gold's
        hyps = [" ".join(p.tokens) if isinstance(p, Target) else p for p in predictions]
        beta, order, unit = self.config.beta, self.config.order, self.config.unit
        tables = []
        for source, refs, hyp in zip(prepared.state["sources"], prepared.state["references"], hyps):
            h = all_ngrams(units(hyp, unit), order)
            per_ref = [counts(source, h, r, order) for r in refs] or [counts(source, h, {}, order)]
            tables.append(per_ref[best_reference(per_ref, beta)])
        sentence_scores = np.array([green(t, beta) for t in tables])
        if self.config.level == "corpus":
            stats = np.stack(tables).reshape(len(tables), 3 * order) if tables else np.zeros((0, 3 * order))
            statistic = partial(corpus_green, beta=beta, order=order)
        else:
            stats = sentence_scores.reshape(-1, 1)
            statistic = first_column
        value = statistic(stats.mean(axis=0)) if len(hyps) else 0.0
        signature = self.signature(prepared)

        def records() -> list[dict]:
            return [{"index": i, "green": float(s), "tp": t[:, 0].tolist(), "fp": t[:, 1].tolist(),
                     "fn": t[:, 2].tolist()} for i, (s, t) in enumerate(zip(sentence_scores, tables))]

        return Result(self.name, signature, {"score": value, "green": value}, stats, statistic, None, records)

    def reference_key(self) -> tuple:
        return (self.name, self.config.unit, self.config.order, self.lang)
