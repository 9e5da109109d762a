"""Per-edit records of a whole corpus: what a CLI ``--per-edit`` writes (one JSON line per edit).

    records = attribute_corpus(gecscore.load("cleme2", level="sentence"), gold, hypotheses,
                               method="shapley")

``method``: ``add-one``, ``remove-one``, ``shapley`` (exact; sentences with more than
``MAX_EXACT_EDITS`` edits fall back to sampled Shapley, which their records say) or
``sampled-shapley`` (``samples`` permutations, ``seed``). Sentences without edits have no record.
"""
from __future__ import annotations

from typing import Sequence

from gecscore.attribution.methods import MAX_EXACT_EDITS, METHODS, exact_shapley, sampled_shapley
from gecscore.attribution.metric_value import MetricValue
from gecscore.attribution.records import edit_records
from gecscore.metric import Metric
from gecscore.types import GoldCorpus, Target


def attribute_corpus(metric: Metric, gold: GoldCorpus, hypotheses: Sequence[Target], method: str = "shapley",
                     samples: int = 64, seed: int = 0) -> list[dict]:
    if method not in METHODS:
        raise ValueError(f"unknown attribution method {method!r}; expected one of: {', '.join(METHODS)}")
    if len(hypotheses) != len(gold.sentences):
        raise ValueError(f"{len(hypotheses)} hypotheses for {len(gold.sentences)} sentences")
    records: list[dict] = []
    for index, (sentence, hypothesis) in enumerate(zip(gold.sentences, hypotheses)):
        edits = hypothesis.edits
        if not edits:
            continue
        value = MetricValue(metric, sentence, edits, gold.origin)
        n = len(edits)
        if method == "sampled-shapley" or (method == "shapley" and n > MAX_EXACT_EDITS):
            attribution = sampled_shapley(value, n, samples, seed)
        elif method == "shapley":
            attribution = exact_shapley(value, n)
        else:
            attribution = METHODS[method](value, n)
        records += edit_records(index, sentence.source, edits, attribution)
    return records
