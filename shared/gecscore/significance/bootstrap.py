"""Paired bootstrap over sentences: confidence intervals for system scores and differences.

A system score must be a function of the column means of a per-sentence statistics matrix
(``n_sentences x k``): the mean sentence score for sentence-level metrics, or the counts
(TP, FP, FN ...) for corpus-level ones, whose ratios do not change when sums become means.
For corpus-level CLEME the per-sentence counts are those of the reference chosen on the full
corpus (the choice is not re-run per resample). Every system is resampled with the same
sentence draws (paired), so differences between systems are tested on the same samples.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

Statistic = Callable[[np.ndarray], float]


@dataclass(frozen=True)
class Interval:
    """A point estimate with a percentile confidence interval."""

    estimate: float
    low: float
    high: float

    def as_dict(self) -> dict:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Difference:
    """``a - b`` with its interval and the share of resamples where ``a`` is not above ``b``."""

    a: str
    b: str
    interval: Interval
    p_not_better: float

    def as_dict(self) -> dict:
        return {"a": self.a, "b": self.b, **self.interval.as_dict(), "p_not_better": self.p_not_better}


def resample_weights(n_sentences: int, n_resamples: int, seed: int) -> np.ndarray:
    """``n_resamples x n_sentences`` draw counts (each row sums to ``n_sentences``); the same
    seed and sizes always give the same draws."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n_sentences, size=(n_resamples, n_sentences))
    weights = np.zeros((n_resamples, n_sentences), dtype=np.float64)
    np.add.at(weights, (np.arange(n_resamples)[:, None], draws), 1.0)
    return weights


def resampled_scores(stats: np.ndarray, statistic: Statistic, weights: np.ndarray) -> np.ndarray:
    """The statistic on each resample's column means."""
    stats = np.asarray(stats, dtype=np.float64)
    if stats.ndim != 2 or stats.shape[0] != weights.shape[1]:
        raise ValueError(f"statistics of shape {stats.shape} do not fit {weights.shape[1]} sentences")
    means = weights @ stats / stats.shape[0]
    return np.array([statistic(row) for row in means])


def interval(estimate: float, samples: np.ndarray, confidence: float) -> Interval:
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(samples, [tail, 100 - tail])
    return Interval(float(estimate), float(low), float(high))


@dataclass
class BootstrapResult:
    intervals: dict[str, Interval]
    differences: list[Difference]


def paired_bootstrap(systems: Mapping[str, tuple[np.ndarray, Statistic]], *, n_resamples: int = 1000,
                     seed: int = 0, confidence: float = 0.95) -> BootstrapResult:
    """CIs for each system's score and for every pairwise difference (systems in given order).

    ``systems`` maps a name to ``(per-sentence statistics, statistic)``; all share the same
    sentences.
    """
    names = list(systems)
    if not names:
        return BootstrapResult({}, [])
    sizes = {np.asarray(stats).shape[0] for stats, _ in systems.values()}
    if len(sizes) != 1:
        raise ValueError(f"systems have different numbers of sentences: {sorted(sizes)}")
    weights = resample_weights(sizes.pop(), n_resamples, seed)
    estimates, samples = {}, {}
    for name in names:
        stats, statistic = systems[name]
        stats = np.asarray(stats, dtype=np.float64)
        estimates[name] = statistic(stats.mean(axis=0))
        samples[name] = resampled_scores(stats, statistic, weights)
    intervals = {name: interval(estimates[name], samples[name], confidence) for name in names}
    differences = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            delta = samples[a] - samples[b]
            differences.append(Difference(a, b, interval(estimates[a] - estimates[b], delta, confidence),
                                          float(np.mean(delta <= 0))))
    return BootstrapResult(intervals, differences)
