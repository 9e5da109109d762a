"""System-level Pearson and Spearman correlations between a metric and a human ranking."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from gecscore.errors import GecInputError
from gecscore.metaeval.human import HumanScores


@dataclass(frozen=True)
class Correlation:
    """Pearson r and Spearman rho over ``n`` systems (NaN when a side is constant)."""

    human: str
    pearson: float
    spearman: float
    n: int

    def as_dict(self) -> dict:
        return {"human": self.human, "pearson": self.pearson, "spearman": self.spearman, "n": self.n}


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    from scipy.stats import pearsonr

    _check_pair(x, y)
    if _constant(x) or _constant(y):
        return math.nan
    return float(pearsonr(x, y)[0])


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rho with average ranks for ties."""
    from scipy.stats import spearmanr

    _check_pair(x, y)
    if _constant(x) or _constant(y):
        return math.nan
    return float(spearmanr(x, y)[0])


def _check_pair(x: Sequence[float], y: Sequence[float]) -> None:
    if len(x) != len(y):
        raise GecInputError(f"correlation needs equal lengths, got {len(x)} and {len(y)}")
    if len(x) < 3:
        raise GecInputError(f"correlation needs at least 3 systems, got {len(x)}")


def _constant(values: Sequence[float]) -> bool:
    return max(values) - min(values) == 0


def correlate(metric_scores: Mapping[str, float], human: HumanScores) -> Correlation:
    """Correlate over the human ranking's systems; every one of them must have a metric score."""
    missing = [s for s in human.systems if s not in metric_scores]
    if missing:
        raise GecInputError(f"no metric score for system(s) {', '.join(missing)} of {human.name}")
    x = [metric_scores[s] for s in human.systems]
    y = [human.scores[s] for s in human.systems]
    return Correlation(human.name, pearson(x, y), spearman(x, y), len(x))
