"""What single change would turn our system-level correlations into published ones.

When a reproduced correlation misses the published figure, two questions narrow the cause:

- :func:`system_score_fits`: could one system's metric score alone be different in the
  published run? For each system, the change of its score (on a grid) that brings Pearson and
  Spearman against every human ranking closest to the published pairs. A change that fits every
  cell points at that system's output (or its scoring) in the published run.
- :func:`human_score_fits`: could one human score be different? A human ranking is shared by
  every metric configuration, so one change must fit all configurations at once.

Both search a grid (``span``, ``step``) and report the largest remaining difference; with about
a dozen systems Spearman moves in steps of ~0.007, so a residual near 0.005 is an exact fit up
to rounding of the published figures.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
from scipy.stats import rankdata

from gecscore.errors import GecInputError
from gecscore.metaeval.human import HumanScores


@dataclass(frozen=True)
class ScoreChangeFit:
    """Changing ``system``'s score by ``delta`` gives ``correlations`` (r, rho per human
    ranking, flattened); ``residual`` is the largest difference left to the published ones."""

    system: str
    delta: float
    correlations: tuple[float, ...]
    residual: float


def _row_pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of each row of ``x`` (grid x systems) with the vector ``y``."""
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean()
    denominator = np.sqrt((xc * xc).sum(axis=1) * (yc @ yc))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (xc @ yc) / denominator


def _row_correlations(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Pearson, Spearman with average ranks) of each row of ``x`` with ``y``."""
    return _row_pearson(x, y), _row_pearson(rankdata(x, axis=1), rankdata(y))


def _grid(span: float, step: float) -> np.ndarray:
    if span <= 0 or step <= 0:
        raise GecInputError("span and step must be positive")
    return np.arange(-span, span + step / 2, step)


def _check(systems: Sequence[str], scores: Mapping[str, float], what: str) -> None:
    missing = [s for s in systems if s not in scores]
    if missing:
        raise GecInputError(f"no {what} for system(s) {', '.join(missing)}")
    if len(systems) < 3:
        raise GecInputError(f"correlation needs at least 3 systems, got {len(systems)}")


def _fits(systems: Sequence[str], changed: np.ndarray, others: Sequence[np.ndarray],
          published: Sequence[float], grid: np.ndarray) -> list[ScoreChangeFit]:
    """For each position of ``changed``, the grid offset whose (r, rho) against each of
    ``others`` come closest (max abs) to ``published``; best fit first."""
    target = np.array(published, dtype=float)
    fits = []
    for index, system in enumerate(systems):
        x = np.repeat(changed[None, :], len(grid), axis=0)
        x[:, index] += grid
        values = np.stack([c for y in others for c in _row_correlations(x, y)], axis=1)
        errors = np.nanmax(np.abs(values - target), axis=1)
        best = int(np.nanargmin(errors))
        fits.append(ScoreChangeFit(system, float(grid[best]), tuple(float(v) for v in values[best]),
                                   float(errors[best])))
    return sorted(fits, key=lambda f: (f.residual, abs(f.delta)))


def system_score_fits(scores: Mapping[str, float], humans: Sequence[HumanScores],
                      published: Sequence[tuple[float, float]], *, span: float = 0.1,
                      step: float = 0.0005) -> list[ScoreChangeFit]:
    """Per system, the change of its metric score alone that best matches ``published``
    ((r, rho) per ranking of ``humans``, same systems); best fit first."""
    if len(humans) != len(published):
        raise GecInputError(f"{len(humans)} human rankings but {len(published)} published pairs")
    systems = list(humans[0].systems)
    _check(systems, scores, "metric score")
    others = [np.array([human.scores[s] for s in systems], dtype=float) for human in humans]
    return _fits(systems, np.array([scores[s] for s in systems], dtype=float), others,
                 [v for pair in published for v in pair], _grid(span, step))


def human_score_fits(metric_scores: Mapping[str, Mapping[str, float]], human: HumanScores,
                     published: Mapping[str, tuple[float, float]], *, span: float = 0.5,
                     step: float = 0.005) -> list[ScoreChangeFit]:
    """Per system, the change of its ``human`` score that best matches ``published`` ((r, rho)
    per metric configuration) for every configuration at once; best fit first.
    ``correlations`` holds (r, rho) per configuration in the order of ``published``."""
    systems = list(human.systems)
    configs = list(published)
    for config in configs:
        if config not in metric_scores:
            raise GecInputError(f"no scores for configuration {config!r}")
        _check(systems, metric_scores[config], f"{config} score")
    others = [np.array([metric_scores[c][s] for s in systems], dtype=float) for c in configs]
    # correlation is symmetric: the human side is the one that changes here
    return _fits(systems, np.array([human.scores[s] for s in systems], dtype=float), others,
                 [v for c in configs for v in published[c]], _grid(span, step))
