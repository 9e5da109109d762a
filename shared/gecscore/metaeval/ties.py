"""Ties in sentence-level meta-evaluation: Kendall variants and tie-calibrated pairwise accuracy.

Follows Deutsch, Foster and Freitag (2023), *Ties Matter: Meta-Evaluating Modern Metrics with
Pairwise Accuracy and Tie Calibration* (EMNLP 2023), whose reference code is
``mt_metrics_eval/stats.py`` (``KendallVariants``) and ``mt_metrics_eval/tau_optimization.py``.

**Pairs.** Scores come in *groups*: one group is a vector of human scores and the metric's scores
of the same outputs (for SEEDA, one ranking item: the systems one annotator ranked for one
source sentence, human score = -rank, so higher is better on both sides). Every unordered pair
``(i, j)`` of a group falls in exactly one of five classes (``h`` human, ``m`` metric)::

    C     concordant       h_i != h_j, |m_i - m_j| > eps, same direction
    D     discordant       h_i != h_j, |m_i - m_j| > eps, opposite direction
    T_h   human tie only   h_i == h_j, |m_i - m_j| > eps
    T_m   metric tie only  h_i != h_j, |m_i - m_j| <= eps
    T_hm  tied in both     h_i == h_j, |m_i - m_j| <= eps

Human ties are exact equality (human scores are ranks or ratings); a metric tie is a difference
of at most ``eps`` (``eps = 0``: exact equality, the textbook definitions). Pairs are only formed
*within* a group: SEEDA's ranks of different items are not comparable.

**Kendall variants** (``variant`` of :func:`kendall`; N = C + D + T_h + T_m + T_hm)::

    "a"                tau_a  = (C - D) / N
    "b"                tau_b  = (C - D) / sqrt((C + D + T_m) (C + D + T_h))
    "c"                tau_c  = 2 (C - D) / (n^2 (k - 1) / k)          (Stuart 1953)
    "wmt"              tau_13 = (C - D) / (C + D)                      metric ties dropped
    "wmt-kept"         tau_14 = (C - D) / (C + D + T_m)                metric ties kept
    "wmt-discordant"   tau_10 = (C - D - T_m) / (C + D + T_m)          metric ties penalised
    "eq"               tau_eq = (C + T_hm - D - T_h - T_m) / N         ties are predictions

- tau_a counts every tie in the denominator and in neither C nor D, so a metric that ties a lot
  (or human data with many ties) can never reach 1.
- tau_b removes from each side of the geometric mean the pairs tied *on that side*: the pairs
  the human (resp. metric) leaves unordered cannot be concordant, so they do not count against
  the metric. It reaches 1 only when both rankings have the same ties (T_h = T_m = 0).
  ``scipy.stats.kendalltau(h, m)`` (default ``variant="b"``) gives the same number.
- tau_c (Stuart's) divides by the largest C - D a table of ``n`` observations with ``k`` =
  min(distinct human values, distinct metric values) rows or columns allows;
  ``scipy.stats.kendalltau(h, m, variant="c")``. Deutsch et al.'s Table 1 writes it without
  the factor 2; we follow scipy and Stuart (the factor makes tau_c = 1 reachable). It is
  undefined with ``eps > 0`` (``k`` has no meaning once near values are merged).
- The three WMT variants use only the *human-ranked* pairs (T_h and T_hm dropped: a human tie
  says nothing about which output is better), and differ in the metric ties: dropped (WMT'13),
  kept in the denominator as neither agreement nor disagreement (WMT'14; SEEDA's published
  cells, ``sentence_level.pairwise_agreement(..., ties="neutral")``), or counted as
  disagreements (WMT'10; ``ties="discordant"``). Deutsch et al. show that dropping ties lets a
  metric game tau_13 by tying whenever unsure, and that tau_10/tau_14 punish a metric that ties
  where humans tie too; that is what acc_eq fixes.
- tau_eq (Deutsch et al.'s tau_eq, ``"23"`` in mt-metrics-eval): a correctly predicted tie
  (T_hm) counts as concordant, any tie on one side only as discordant.

**Accuracies** (:class:`TieReport`)::

    acc_kept    = C / (C + D + T_m)          SEEDA's Acc (human-ranked pairs, ties kept)
    acc_dropped = C / (C + D)                metric ties dropped
    acc_eq      = (C + T_hm) / N             Deutsch et al.'s acc_eq (``acc23`` in mt-metrics-eval)

**Tie calibration** (:func:`tie_calibration`): acc_eq depends on ``eps``. The candidate
thresholds are 0 and every distinct absolute metric difference |m_i - m_j| of the pairs; acc_eq
is piecewise constant between them, so this search is exact. The first (smallest) threshold
with the largest acc_eq is chosen (``numpy.nanargmax``, as mt-metrics-eval). Since 0 is a
candidate, acc_eq at the chosen ``eps`` is never below acc_eq at ``eps = 0``.

**Grouping** (``grouping``):

- ``"pooled"``: the counts of all groups are summed first and the statistic is taken once
  (micro average; what SEEDA and the WMT segment-level tau do over their human pairs). For
  tau_c the denominators add up: sum over groups of n_g^2 (k_g - 1) / (2 k_g).
- ``"item"``: Deutsch et al.'s *group-by-item*: the statistic of each group, averaged with equal
  weight over the groups where it is defined (groups with no pair, or with a zero denominator,
  such as a tau_b whose human ranks are all equal, are left out, as mt-metrics-eval's
  ``AverageCorrelation`` drops NaNs). Tie calibration then picks one ``eps`` for all groups,
  maximising the average acc_eq (mt-metrics-eval's ``tau_optimization`` with one row per item).

For SEEDA an "item" is one ranking item (one annotator, one source sentence), not one source
sentence: two annotators' ranks of the same sentence are separate rankings.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.metaeval.sentence_level import Judgment

KENDALL_VARIANTS = ("a", "b", "c", "wmt", "wmt-kept", "wmt-discordant", "eq")
GROUPINGS = ("pooled", "item")

#: one group: (human scores, metric scores) of the same outputs, higher is better on both sides
Group = tuple[Sequence[float], Sequence[float]]


@dataclass(frozen=True)
class PairCounts:
    """The five pair classes of the module docstring, and tau_c's denominator.

    ``stuart`` is the sum over the counted groups of n^2 (k - 1) / (2 k), the largest C - D
    their shapes allow (0 for a group of fewer than 2 outputs or with k = 1). The fields may
    also be numpy arrays of equal shape (one count per resample): :func:`kendall` and the
    accuracies then give an array, element by element."""

    concordant: int = 0
    discordant: int = 0
    human_ties: int = 0
    metric_ties: int = 0
    both_ties: int = 0
    stuart: float = 0.0

    def __add__(self, other: PairCounts) -> PairCounts:
        return PairCounts(self.concordant + other.concordant, self.discordant + other.discordant,
                          self.human_ties + other.human_ties, self.metric_ties + other.metric_ties,
                          self.both_ties + other.both_ties, self.stuart + other.stuart)

    @property
    def pairs(self) -> int:
        """N: every pair, tied or not."""
        return self.concordant + self.discordant + self.human_ties + self.metric_ties + self.both_ties

    @property
    def human_ranked(self) -> int:
        """The pairs the human orders (C + D + T_m): SEEDA's and WMT's denominator."""
        return self.concordant + self.discordant + self.metric_ties

    def as_dict(self) -> dict:
        return {"C": self.concordant, "D": self.discordant, "T_h": self.human_ties, "T_m": self.metric_ties,
                "T_hm": self.both_ties, "N": self.pairs}


def _ratio(numerator, denominator):
    """``numerator / denominator``, NaN where the denominator is 0. Element-wise when a count is
    a numpy array (one per resample: :mod:`gecscore.metaeval.perm_both` evaluates many draws at
    once with these same formulas)."""
    if isinstance(numerator, np.ndarray) or isinstance(denominator, np.ndarray):
        top, bottom = np.broadcast_arrays(np.asarray(numerator, dtype=np.float64),
                                          np.asarray(denominator, dtype=np.float64))
        out = np.full(top.shape, np.nan)
        np.divide(top, bottom, out=out, where=bottom != 0)
        return out
    return numerator / denominator if denominator else float("nan")


def kendall(counts: PairCounts, variant: str = "b") -> float:
    """Kendall's tau of ``counts`` (variants in the module docstring); NaN when undefined."""
    c, d, th, tm, thm = (counts.concordant, counts.discordant, counts.human_ties, counts.metric_ties,
                         counts.both_ties)
    if variant == "a":
        return _ratio(c - d, counts.pairs)
    if variant == "b":
        return _ratio(c - d, np.sqrt((c + d + tm) * (c + d + th)) if isinstance(c, np.ndarray)
                      else math.sqrt((c + d + tm) * (c + d + th)))
    if variant == "c":
        return _ratio(c - d, counts.stuart)
    if variant == "wmt":
        return _ratio(c - d, c + d)
    if variant == "wmt-kept":
        return _ratio(c - d, c + d + tm)
    if variant == "wmt-discordant":
        return _ratio(c - d - tm, c + d + tm)
    if variant == "eq":
        return _ratio(c + thm - d - th - tm, counts.pairs)
    raise GecInputError(f"variant must be one of {', '.join(KENDALL_VARIANTS)}, got {variant!r}")


def acc_kept(counts: PairCounts) -> float:
    """C / (C + D + T_m): SEEDA's pairwise accuracy (human ties out, metric ties kept)."""
    return _ratio(counts.concordant, counts.human_ranked)


def acc_dropped(counts: PairCounts) -> float:
    """C / (C + D): metric ties dropped as well."""
    return _ratio(counts.concordant, counts.concordant + counts.discordant)


def acc_eq(counts: PairCounts) -> float:
    """(C + T_hm) / N: Deutsch et al.'s pairwise accuracy with ties."""
    return _ratio(counts.concordant + counts.both_ties, counts.pairs)


def _checked(group: Group, where: str) -> tuple[list[float], list[float]]:
    human, metric = group
    if len(human) != len(metric):
        raise GecInputError(f"{len(human)} human scores but {len(metric)} metric scores", where)
    human, metric = [float(v) for v in human], [float(v) for v in metric]
    if not all(math.isfinite(v) for v in human + metric):
        raise GecInputError("scores must be finite numbers (no NaN)", where)
    return human, metric


def pair_counts(human: Sequence[float], metric: Sequence[float], epsilon: float = 0.0) -> PairCounts:
    """The pair classes of one group; metric scores within ``epsilon`` are a tie.

    ``stuart`` (tau_c) is only filled with ``epsilon == 0`` (undefined otherwise: NaN)."""
    if not epsilon >= 0:
        raise GecInputError(f"epsilon must be >= 0, got {epsilon}")
    h, m = _checked((human, metric), "pair_counts")
    c = d = th = tm = thm = 0
    for i in range(len(h)):
        for j in range(i + 1, len(h)):
            dh, dm = h[i] - h[j], m[i] - m[j]
            metric_tie = abs(dm) <= epsilon
            if dh == 0:
                if metric_tie:
                    thm += 1
                else:
                    th += 1
            elif metric_tie:
                tm += 1
            elif (dh > 0) == (dm > 0):
                c += 1
            else:
                d += 1
    if epsilon > 0:
        stuart = float("nan")
    else:
        n, k = len(h), min(len(set(h)), len(set(m)))
        stuart = n * n * (k - 1) / (2 * k) if n >= 2 and k >= 1 else 0.0
    return PairCounts(c, d, th, tm, thm, stuart)


def judgment_groups(judgments: Sequence[Judgment], scores: Mapping[str, Mapping[int, float]],
                    systems: Sequence[str]) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """One group per ranking item: the item's ranked ``systems`` (in ``systems`` order), human
    score ``-rank`` and metric score ``scores[system][judgment.source]``. Items with fewer than
    two kept systems form no pair and are left out."""
    groups = []
    for judgment in judgments:
        kept = [s for s in systems if s in judgment.ranks]
        if len(kept) < 2:
            continue
        metric = []
        for system in kept:
            try:
                metric.append(float(scores[system][judgment.source]))
            except KeyError:
                raise GecInputError(f"no sentence score of {system} for sentence {judgment.source + 1}") from None
        groups.append((tuple(-float(judgment.ranks[s]) for s in kept), tuple(metric)))
    return groups


@dataclass(frozen=True)
class TieReport:
    """Every variant over the same groups (``grouping`` as in the module docstring).

    ``counts`` are always the pooled counts (for ``grouping="item"`` too), at ``epsilon = 0``."""

    grouping: str
    groups: int
    counts: PairCounts
    tau: Mapping[str, float]
    acc_kept: float
    acc_dropped: float
    acc_eq: float

    def as_dict(self) -> dict:
        return {"grouping": self.grouping, "groups": self.groups, "counts": self.counts.as_dict(),
                "tau": dict(self.tau), "acc_kept": self.acc_kept, "acc_dropped": self.acc_dropped,
                "acc_eq": self.acc_eq}


def _check_grouping(grouping: str) -> None:
    if grouping not in GROUPINGS:
        raise GecInputError(f"grouping must be one of {', '.join(GROUPINGS)}, got {grouping!r}")


def _mean_defined(values: Iterable[float]) -> float:
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else float("nan")


def tie_report(groups: Sequence[Group], grouping: str = "pooled") -> TieReport:
    """tau (every variant), acc_kept, acc_dropped and acc_eq (at epsilon 0) over ``groups``."""
    _check_grouping(grouping)
    per_group = [pair_counts(h, m) for h, m in groups]
    pooled = sum(per_group, PairCounts())

    def statistic(function) -> float:
        if grouping == "pooled":
            return function(pooled)
        return _mean_defined(function(counts) for counts in per_group if counts.pairs)

    tau = {variant: statistic(lambda counts, v=variant: kendall(counts, v)) for variant in KENDALL_VARIANTS}
    return TieReport(grouping, len(per_group), pooled, tau, statistic(acc_kept), statistic(acc_dropped),
                     statistic(acc_eq))


@dataclass(frozen=True)
class TieCalibration:
    """acc_eq at the chosen ``epsilon`` (and at 0); ``candidates`` thresholds were tried."""

    acc_eq: float
    epsilon: float
    acc_eq_at_zero: float
    candidates: int
    grouping: str

    def as_dict(self) -> dict:
        return {"acc_eq": self.acc_eq, "epsilon": self.epsilon, "acc_eq_at_zero": self.acc_eq_at_zero,
                "candidates": self.candidates, "grouping": self.grouping}


def tie_calibration(groups: Sequence[Group], grouping: str = "pooled") -> TieCalibration:
    """acc_eq with the metric-tie threshold ``epsilon`` that maximises it (module docstring).

    Sweep (as mt-metrics-eval's ``tau_optimization``): the pairs are sorted by |m_i - m_j|; raising
    epsilon past a pair's difference turns it into a metric tie (C or D become T_m, T_h becomes
    T_hm), so each candidate's acc_eq is updated in O(1) per pair: O(P log P) for P pairs.
    Ties in acc_eq between thresholds go to the smallest threshold."""
    _check_grouping(grouping)
    # per pair: (|dm|, group, change to (C + T_hm)) when it becomes a metric tie
    stats: list[list[int]] = []       # per group: [C + T_hm, N]
    changes: list[tuple[float, int, int]] = []
    for number, group in enumerate(groups):
        h, m = _checked(group, f"group {number + 1}")
        correct = total = 0
        for i in range(len(h)):
            for j in range(i + 1, len(h)):
                dh, dm = h[i] - h[j], m[i] - m[j]
                total += 1
                if dm == 0:
                    correct += dh == 0          # already a metric tie at epsilon 0
                    continue
                now = int(dh != 0 and (dh > 0) == (dm > 0))      # concordant
                later = int(dh == 0)                             # T_hm once tied
                correct += now
                changes.append((abs(dm), len(stats), later - now))
        stats.append([correct, total])
    rows = [s for s in stats if s[1]]
    if not rows:
        raise GecInputError("no pair to compare: every group has fewer than two outputs")

    # exact integers: pooled, (C + T_hm) over N; by item, sum_g (C + T_hm)_g * L / N_g over L * groups
    if grouping == "pooled":
        weights, denominator = [1] * len(stats), sum(s[1] for s in rows)
    else:
        common = math.lcm(*(s[1] for s in rows))
        weights, denominator = [common // s[1] if s[1] else 0 for s in stats], common * len(rows)
    numerator = sum(w * s[0] for w, s in zip(weights, stats))
    best_eps, best = 0.0, numerator
    at_zero = numerator
    changes.sort(key=lambda change: change[0])
    candidates = 1
    index = 0
    while index < len(changes):
        threshold = changes[index][0]
        while index < len(changes) and changes[index][0] == threshold:
            _, row, delta = changes[index]
            numerator += weights[row] * delta
            index += 1
        candidates += 1
        if numerator > best:
            best_eps, best = threshold, numerator
    return TieCalibration(best / denominator, best_eps, at_zero / denominator, candidates, grouping)
