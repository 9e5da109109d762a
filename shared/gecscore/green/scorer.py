"""GREEN statistics and score (Koyama et al. 2024).

For one sentence, one reference and one n-gram ``g`` of order n (``s``, ``h``, ``r``: its counts
in the source, hypothesis and reference)::

    TP_n += max(s - max(r, h), 0)      true deletion   (TD)
          + max(min(r, h) - s, 0)      true insertion  (TI)
          + min(s, h, r)               true keep       (TK)
    FP_n += max(min(s, r) - h, 0)      over-deletion   (OD)
          + max(h - max(s, r), 0)      over-insertion  (OI)
    FN_n += max(min(s, h) - r, 0)      under-deletion  (UD)
          + max(r - max(s, h), 0)      under-insertion (UI)

over every n-gram of s, h or r, n = 1..N (words: the tokens; chars: the characters of the
sentence string, spaces included). From counts of n = 1..N::

    P_n = TP_n / (TP_n + FP_n), 1 when FP_n = 0;    R_n = TP_n / (TP_n + FN_n), 1 when FN_n = 0
    P = (prod P_n)^(1/N), 0 when any P_n = 0;       R likewise
    GREEN = (1 + b^2) P R / (b^2 P + R), 0 when P + R = 0

(ERRANT's zero cases and operation order: :data:`gecscore.fscore.ERRANT`.)

**References.** Each sentence keeps the reference whose sentence GREEN is highest; on a tie the
earlier reference (strictly greater replaces). **Corpus** GREEN pools the kept references'
counts over the sentences (per order) and applies the formula once; **sentence** level is the
mean of the sentence scores. (The behaviour of gec-metrics 0.1.1's ``GREEN``, which we match
to 1e-9 on the 13 CoNLL-2014 systems: ``benchmarks/compare_gec_metrics.py``.)
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Sequence

import numpy as np

from gecscore.fscore import ERRANT


def units(sentence: str, unit: str) -> Sequence[str]:
    """The symbols n-grams are made of: tokens (split on single spaces) or characters; an empty
    sentence has none."""
    sentence = sentence.strip()
    if not sentence:
        return ()
    return sentence.split(" ") if unit == "word" else sentence


def all_ngrams(symbols: Sequence[str], order: int) -> Counter:
    """Counts of every n-gram of ``symbols`` for n = 1..order."""
    return Counter(tuple(symbols[i:i + n]) for n in range(1, order + 1) for i in range(len(symbols) - n + 1))


def counts(source: Counter, hypothesis: Counter, reference: Counter, order: int) -> np.ndarray:
    """``order x 3`` matrix of (TP, FP, FN) per n-gram order (module docstring)."""
    out = np.zeros((order, 3))
    for gram in source.keys() | hypothesis.keys() | reference.keys():
        s, h, r = source.get(gram, 0), hypothesis.get(gram, 0), reference.get(gram, 0)
        row = out[len(gram) - 1]
        row[0] += max(s - max(r, h), 0) + max(min(r, h) - s, 0) + min(s, h, r)
        row[1] += max(min(s, r) - h, 0) + max(h - max(s, r), 0)
        row[2] += max(min(s, h) - r, 0) + max(r - max(s, h), 0)
    return out


def green(table: np.ndarray, beta: float) -> float:
    """GREEN of an ``order x 3`` (TP, FP, FN) matrix (module docstring)."""
    table = np.asarray(table, dtype=np.float64)
    tp, fp, fn = table[:, 0], table[:, 1], table[:, 2]
    precisions = [ERRANT.precision_of(t, f) for t, f in zip(tp, fp)]
    recalls = [ERRANT.recall_of(t, f) for t, f in zip(tp, fn)]
    p = _geometric_mean(precisions)
    r = _geometric_mean(recalls)
    return float(ERRANT.f_of(p, r, beta))


def _geometric_mean(values: Sequence[float]) -> float:
    if any(v == 0 for v in values):
        return 0.0
    return math.exp(sum(math.log(v) for v in values) / len(values))


def best_reference(tables: Sequence[np.ndarray], beta: float) -> int:
    """Index of the reference with the highest sentence GREEN; the first of equals."""
    best, best_value = 0, None
    for k, table in enumerate(tables):
        value = green(table, beta)
        if best_value is None or best_value < value:
            best, best_value = k, value
    return best
