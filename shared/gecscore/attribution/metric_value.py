"""A value function from a gecscore metric: ``v(S)`` is the sentence-level score of the source
with only the hypothesis edits in ``S`` applied (:meth:`gecscore.types.Target.from_edits`),
against the sentence's references.

    metric = gecscore.load("cleme2", level="sentence")        # or pt_m2 level="sentence" scorer="none"
    v = MetricValue(metric, gold_sentence, hypothesis.edits)
    attribution = exact_shapley(v, len(hypothesis.edits))

A batch of subsets is scored in one ``score`` call: the reference side is the sentence repeated
once per subset (prepared once per batch size), the predictions the subsets' targets, and each
subset's value is that sentence's own score in the result's records.
"""
from __future__ import annotations

from typing import Sequence

from gecscore.metric import Metric, Prepared, Result
from gecscore.types import Edit, Gold, GoldCorpus, Target


def sentence_values(result: Result) -> list[float]:
    """Each sentence's own score (:meth:`gecscore.metric.Result.sentence_scores`), in sentence order."""
    values = result.sentence_scores()
    if values is None:
        raise ValueError(f"{result.metric} gives no sentence score in its records")
    return list(values)


class MetricValue:
    """``v(S)`` of one sentence by ``metric`` (module docstring)."""

    def __init__(self, metric: Metric, gold: Gold, edits: Sequence[Edit], origin: str = "m2"):
        self.metric = metric
        self.gold = gold
        self.edits = tuple(edits)
        self.origin = origin
        self._prepared: dict[int, Prepared] = {}
        self.score_calls = 0

    def target(self, subset) -> Target:
        return Target.from_edits(self.gold.source, [self.edits[i] for i in sorted(subset)])

    def prepared(self, size: int) -> Prepared:
        if size not in self._prepared:
            self._prepared[size] = self.metric.prepare(GoldCorpus((self.gold,) * size, self.origin))
        return self._prepared[size]

    def values(self, subsets: Sequence[frozenset[int]]) -> list[float]:
        if not subsets:
            return []
        self.score_calls += 1
        result = self.metric.score(self.prepared(len(subsets)), [self.target(s) for s in subsets])
        return sentence_values(result)

    def __call__(self, subset: frozenset[int]) -> float:
        return self.values([frozenset(subset)])[0]
