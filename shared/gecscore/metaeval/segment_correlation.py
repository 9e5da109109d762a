"""Segment-level correlation grouped by item, from segment-level human scores.

With every system's human score on every segment (GMEG-Data,
:mod:`gecscore.metaeval.human_segments`), a metric's segment scores can be correlated with the
humans' *within each segment* (one item: the systems' outputs of one source sentence) and the
correlations averaged over the items: mt-metrics-eval's ``average_by="item"``
(``stats.AverageCorrelation``), the grouping of the WMT segment-level statistics. Within an
item, the question is the one a sentence-level metric is used for: which of several corrections
of the same sentence is better.

Per item, over the systems in their order: Pearson r and Spearman rho
(:mod:`gecscore.metaeval.correlation`; NaN when the humans or the metric give every system the
same score), Kendall's tau_b and Deutsch et al.'s acc_eq at epsilon 0
(:mod:`gecscore.metaeval.ties`; tau_b is NaN exactly when r is). Each statistic is the plain
mean over the items where it is defined; an item where it is NaN is left out (mt-metrics-eval's
default, ``replace_nans_with_zeros=False``), and :class:`ItemCorrelations` says how many items
counted. GMEG collapses identical outputs before rating, so equal outputs have equal human
scores: items where every system left the sentence alike (or all made the same correction) are
constant on both sides and count for acc_eq (every pair a correctly predicted tie) but not for
r, rho or tau_b.

Segments without a human score of every system are dropped first, as mt-metrics-eval's
``filter_gold_nones`` drops a segment without a gold score (GMEG's unrated segments are unrated
for every system, where the two agree).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from gecscore.errors import GecInputError
from gecscore.metaeval.correlation import pearson, spearman
from gecscore.metaeval.human_segments import SegmentScores, align
from gecscore.metaeval.ties import acc_eq, kendall, pair_counts


@dataclass(frozen=True)
class ItemCorrelations:
    """Item-averaged segment-level statistics (module docstring) over ``items`` rated segments
    (``unrated`` dropped); ``defined``: how many items each statistic was averaged over."""

    systems: tuple[str, ...]
    items: int
    unrated: int
    pearson: float
    spearman: float
    kendall: float
    acc_eq: float
    defined: Mapping[str, int]

    def as_dict(self) -> dict:
        return {"systems": list(self.systems), "items": self.items, "unrated": self.unrated,
                "pearson": self.pearson, "spearman": self.spearman, "kendall": self.kendall, "acc_eq": self.acc_eq,
                "defined": dict(self.defined)}


def _mean_of_defined(values: Sequence[float]) -> tuple[float, int]:
    """The sum-then-divide mean of the non-NaN values (NaN when none) and their number."""
    kept = [v for v in values if not math.isnan(v)]
    total = 0.0
    for value in kept:        # left to right, as mt-metrics-eval accumulates
        total += value
    return (total / len(kept) if kept else math.nan), len(kept)


def item_correlations(human: SegmentScores, metric: Mapping[str, Sequence[float]],
                      systems: Sequence[str] | None = None) -> ItemCorrelations:
    """Pearson, Spearman, Kendall tau_b and acc_eq averaged over items (module docstring) of a
    metric's segment scores (``metric[system]``, one per segment of the set) against the human
    segment scores, over ``systems`` (default: the human file's; at least 3)."""
    aligned = align(human, metric, systems)
    if len(aligned.systems) < 3:
        raise GecInputError(f"a correlation within an item needs at least 3 systems, got {len(aligned.systems)}",
                            human.name)
    per_item: dict[str, list[float]] = {"pearson": [], "spearman": [], "kendall": [], "acc_eq": []}
    for column in range(aligned.human.shape[1]):
        h = [float(v) for v in aligned.human[:, column]]
        m = [float(v) for v in aligned.metric[:, column]]
        counts = pair_counts(h, m)
        per_item["pearson"].append(pearson(h, m))
        per_item["spearman"].append(spearman(h, m))
        per_item["kendall"].append(kendall(counts, "b"))
        per_item["acc_eq"].append(acc_eq(counts))
    means = {name: _mean_of_defined(values) for name, values in per_item.items()}
    return ItemCorrelations(aligned.systems, len(aligned.segments), aligned.unrated, means["pearson"][0],
                            means["spearman"][0], means["kendall"][0], means["acc_eq"][0],
                            {name: count for name, (_, count) in means.items()})
