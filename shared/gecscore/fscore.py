"""Precision, recall and F-beta under the edge-case convention of a reference tool.

Every metric computes ``P = TP / (TP + FP)``, ``R = TP / (TP + FN)`` and
``F = (1 + b^2) P R / (b^2 P + R)``; the reference tools differ on purpose where a denominator
is 0 (nothing proposed, nothing to find, P + R = 0), and in the order of the floating-point
operations (``beta ** 2`` or ``beta * beta``; F through P and R or through the counts), which
can change the last bit and so break a tie between references differently. Each convention
below reproduces one tool's choices exactly; a metric names the one its reference uses:

- ``M2SCORER`` (M2, SentM2, PT-M2): P = 1 when nothing is proposed, R = 1 when there is
  nothing to find, F through the counts, 1 when b^2 gold + proposed = 0 and nothing is correct;
- ``ERRANT`` (ERRANT compare, GoToScorer, GREEN's F of its P and R): P = 1 when FP = 0,
  R = 1 when FN = 0, F = 0 when P + R = 0, ``beta ** 2``;
- ``IMEASURE`` (I-measure, CLEME): P = 1 when TP + FP = 0, R = 1 when TP + FN = 0, F = 0 when
  b^2 P + R = 0, ``beta * beta``.

They agree on every count table with beta > 0 (all give P = R = F = 1 on an empty table);
they part at beta = 0 (or a beta whose square underflows): with nothing proposed and
something to find, M2SCORER's F is 1, IMEASURE's 0, and ERRANT's divides by zero.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator, TypeVar

import numpy as np

Number = TypeVar("Number", int, float, Fraction)


@dataclass(frozen=True, slots=True)
class PRF:
    """Precision ``p``, recall ``r`` and F-beta ``f`` (the library's result keys); unpacks as
    ``p, r, f``."""

    p: float
    r: float
    f: float

    def __iter__(self) -> Iterator[float]:
        return iter((self.p, self.r, self.f))


def _constant(value: int, like: object) -> float | Fraction:
    """A zero case's value in the counts' arithmetic: a Fraction for exact (Fraction) counts, so
    that exact scores stay exact; a float otherwise (as the reference tools return)."""
    return Fraction(value) if isinstance(like, Fraction) else float(value)


@dataclass(frozen=True, slots=True)
class M2ScorerConvention:
    """The official M2 scorer's (``levenshtein.py``: ``comp_p``, ``comp_r``, ``comp_f1``), read
    from the counts c (correct), e (proposed) and g (gold) as it reads them:

    - P = c / e; 1 when e = 0 (the system proposed nothing: no wrong edit);
    - R = c / g; 1 when g = 0 (nothing to find);
    - F = (1 + b*b) c / (b*b g + e), through the counts, not P and R (through P and R the
      rounding breaks exact ties between annotators differently: CoNLL-2014 POST, sentence 56);
      when b*b g + e = 0, F = 1 if c = 0 (nothing proposed, nothing to find) and 0 otherwise.

    Weighted (PT-M2) counts are floats; e and g are taken as given, since e - c + c need not
    equal e in floating point: :meth:`scores_of_totals` is the form M2 calls.
    """

    name: str = "m2scorer"

    def scores_of_totals(self, correct: float, proposed: float, gold: float, beta: float) -> PRF:
        p = correct / proposed if proposed else 1.0
        r = correct / gold if gold else 1.0
        b2 = beta * beta
        denominator = b2 * gold + proposed
        if denominator:
            f = (1.0 + b2) * correct / denominator
        else:
            f = 1.0 if correct == 0 else 0.0
        return PRF(p, r, f)

    def scores(self, tp: float, fp: float, fn: float, beta: float) -> PRF:
        return self.scores_of_totals(tp, tp + fp, tp + fn, beta)


@dataclass(frozen=True, slots=True)
class ErrantConvention:
    """ERRANT's ``compare_m2.computeFScore`` (gec-metrics' ``Score`` and GREEN aggregate copy it):

    - P = float(TP) / (TP + FP); 1 when FP = 0 (the test is on FP; with FP = 0, TP / TP is 1
      anyway);
    - R = float(TP) / (TP + FN); 1 when FN = 0;
    - F = float((1 + beta**2) P R) / (beta**2 P + R); 0 when P + R = 0. With beta = 0 and
      R = 0 < P this divides by zero, as ERRANT does (ZeroDivisionError).

    ERRANT rounds P, R and F to 4 decimals when it prints them; that rounding is its caller's.
    """

    name: str = "errant"

    def precision_of(self, tp: float, fp: float) -> float:
        return float(tp) / (tp + fp) if fp else 1.0

    def recall_of(self, tp: float, fn: float) -> float:
        return float(tp) / (tp + fn) if fn else 1.0

    def f_of(self, p: float, r: float, beta: float) -> float:
        return float((1 + beta ** 2) * p * r) / ((beta ** 2) * p + r) if p + r else 0.0

    def scores(self, tp: float, fp: float, fn: float, beta: float) -> PRF:
        p, r = self.precision_of(tp, fp), self.recall_of(tp, fn)
        return PRF(p, r, self.f_of(p, r, beta))


@dataclass(frozen=True, slots=True)
class IMeasureConvention:
    """The I-measure's ``ieval.py`` (``compute_p``, ``compute_r``, ``compute_f``):

    - P = TP / (TP + FP); 1 when TP + FP = 0;
    - R = TP / (TP + FN); 1 when TP + FN = 0;
    - F = (1 + b*b) P R / (b*b P + R); 0 when b*b P + R = 0 (ieval.py catches the division
      by zero), so beta = 0 with R = 0 gives 0 rather than an error.

    CLEME's scores use it too (its reference tests P + R instead, which agrees for beta > 0).
    Counts may be ints, floats or Fractions (the I-measure compares exact keys): a zero case
    then is a Fraction too. :meth:`precision_array` and friends are the same convention over
    numpy arrays (the I-measure's vectorised candidate search; call under
    ``np.errstate(divide="ignore", invalid="ignore")``).
    """

    name: str = "imeasure"

    def precision_of(self, tp: Number, fp: Number) -> Number:
        return tp / (tp + fp) if tp + fp else _constant(1, tp)

    def recall_of(self, tp: Number, fn: Number) -> Number:
        return tp / (tp + fn) if tp + fn else _constant(1, tp)

    def f_of(self, p: Number, r: Number, beta: Number) -> Number:
        b2 = beta * beta
        return (1 + b2) * p * r / (b2 * p + r) if b2 * p + r else _constant(0, p)

    def scores(self, tp: Number, fp: Number, fn: Number, beta: Number) -> PRF:
        p, r = self.precision_of(tp, fp), self.recall_of(tp, fn)
        return PRF(p, r, self.f_of(p, r, beta))

    def precision_array(self, tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
        return np.where(tp + fp != 0, tp / (tp + fp), 1.0)

    def recall_array(self, tp: np.ndarray, fn: np.ndarray) -> np.ndarray:
        return np.where(tp + fn != 0, tp / (tp + fn), 1.0)

    def f_array(self, p: np.ndarray, r: np.ndarray, beta: float) -> np.ndarray:
        b2 = beta * beta
        return np.where(b2 * p + r != 0, (1 + b2) * p * r / (b2 * p + r), 0.0)


Convention = M2ScorerConvention | ErrantConvention | IMeasureConvention

M2SCORER = M2ScorerConvention()
ERRANT = ErrantConvention()
IMEASURE = IMeasureConvention()
CONVENTIONS: tuple[Convention, ...] = (M2SCORER, ERRANT, IMEASURE)


def f_beta(tp: Number, fp: Number, fn: Number, beta: float, convention: Convention) -> PRF:
    """P, R and F-beta of (TP, FP, FN) counts under ``convention`` (the table above)."""
    return convention.scores(tp, fp, fn, beta)
