"""Scoring through the metric seam in tests that check the M2 family on hand-built gold: the
same path as ``gecscore.load("pt_m2", ...)`` (there is no second one to test)."""
from __future__ import annotations

from typing import Any, Sequence

from gecscore.m2.config import PtM2Config
from gecscore.m2.metric import PtM2Metric
from gecscore.types import Gold, GoldCorpus, Target


def pt_m2(gold: Sequence[Gold], hypotheses: Sequence[Target | Sequence[str]], pair_scorer: Any = None,
          **options: Any):
    """The ``PtM2Result`` (``Result.detail``) of one system under ``options`` (a pair scorer
    stands in for the model when given)."""
    metric = PtM2Metric(PtM2Config(**options), pair_scorer=pair_scorer)
    prepared = metric.prepare(GoldCorpus(tuple(gold), "m2"))
    targets = [h if isinstance(h, Target) else Target(tuple(h), ()) for h in hypotheses]
    return metric.score(prepared, targets).detail


def m2(gold: Sequence[Gold], hypotheses: Sequence[Sequence[str]], **options: Any):
    """Plain M2 / SentM2 (``scorer="none"``) of one system."""
    return pt_m2(gold, hypotheses, scorer="none", **options)
