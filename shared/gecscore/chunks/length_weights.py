"""CLEME's length weighting of chunks.

A chunk of length l (max of its source and target lengths, always read off the hypothesis
chunk) weighs ``a / (1 + (a - 1) * exp(-(l - b)))`` as TP or FN (longer chunks weigh more)
and ``a / (1 + (a - 1) * exp(l - b))`` as FP (longer ones weigh less), clipped to
``[min, max]``; TN weighs 1. ``b`` is the mean length of the changed reference chunks of the
corpus.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

from gecscore.chunks.labels import Label
from gecscore.types import ChunkPartition


@dataclass(frozen=True, slots=True)
class SigmoidParams:
    a: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class LengthWeights:
    """Parameters for TP, FP and FN, and the bias ``b``."""

    tp: SigmoidParams
    fp: SigmoidParams
    fn: SigmoidParams
    bias: float
    _memo: dict = field(default_factory=dict, compare=False, repr=False)

    def weight(self, label: Label, length: int) -> float:
        """The weight of a chunk; memoised, as few distinct (label, length) pairs occur."""
        key = (label, length)
        value = self._memo.get(key)
        if value is None:
            value = self._memo[key] = self._compute(label, length)
        return value

    def _compute(self, label: Label, length: int) -> float:
        if label is Label.TN:
            return 1.0
        if label is Label.TP or label is Label.FN:
            params, exponent = (self.tp if label is Label.TP else self.fn), -(length - self.bias)
        else:
            params, exponent = self.fp, length - self.bias
        value = params.a / (1 + (params.a - 1) * math.exp(exponent))
        return float(min(max(value, params.low), params.high))   # a float even where clipped to an int bound


# CLEME's table (the newer reference code always uses the corpus row: a bug we do not copy).
_TABLE = {
    "corpus": (SigmoidParams(2, 0.75, 1.25), SigmoidParams(2, 0.75, 1.25), SigmoidParams(2, 0.75, 1.25)),
    ("sentence", "dep"): (SigmoidParams(10, 1, 10), SigmoidParams(10, 0.25, 1), SigmoidParams(10, 1, 1)),
    ("sentence", "ind"): (SigmoidParams(10, 2.5, 10), SigmoidParams(10, 0.25, 1), SigmoidParams(10, 1, 1)),
}


def length_bias(partitions: Iterable[ChunkPartition]) -> float:
    """Mean ``max(len src, len tgt)`` over the changed chunks of all references."""
    total = count = 0
    for partition in partitions:
        for reference in partition.references:
            for chunk in reference:
                if chunk.changed:
                    total += chunk.length
                    count += 1
    return total / count if count else 0.0


def length_weights(level: str, assumption: str, bias: float) -> LengthWeights:
    key = "corpus" if level == "corpus" else ("sentence", assumption)
    tp, fp, fn = _TABLE[key]
    return LengthWeights(tp, fp, fn, bias)

