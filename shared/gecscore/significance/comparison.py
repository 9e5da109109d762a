"""Is system B better than system A on a metric? Paired bootstrap and paired approximate
randomisation over sentences.

Both read a :class:`gecscore.metric.Result` per system: ``sentence_stats`` (one row per
sentence) and ``statistic`` (the score from the column means, ``statistic(stats.mean(0)) ==
score``). The observed difference is ``d = score(B) - score(A)``.

* Paired bootstrap (Koehn 2004; Berg-Kirkpatrick et al. 2012): ``n`` resamples of the sentences
  with replacement, the same draws for both systems (:func:`gecscore.significance.bootstrap.
  resample_weights`); ``d*_i`` the difference on resample i. Confidence interval: the
  percentiles ``(1-c)/2`` and ``(1+c)/2`` of ``d*``. Two-sided p-value of "no difference",
  with the resampled differences centred on ``d``: ``p = (1 + #{|d*_i - d| >= |d|}) / (n + 1)``.
* Paired approximate randomisation (Noreen 1989; Riezler and Maxwell 2005): in each of ``n``
  trials every sentence's rows of A and B are swapped with probability 1/2;
  ``p = (1 + #{|d'_i| >= |d|}) / (n + 1)``.

Identical systems give ``d = 0`` and ``p = 1`` under both. Draws come from
``numpy.random.default_rng(seed)`` (bootstrap) and ``default_rng(seed + 1)`` (randomisation):
the same seed and sizes give the same numbers. The ``signature`` records them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from gecscore.significance.bootstrap import resample_weights

Statistic = Callable[[np.ndarray], float]


@dataclass(frozen=True)
class SignificanceConfig:
    bootstrap: int = 1000
    randomisation: int = 1000
    seed: int = 0
    confidence: float = 0.95

    def __post_init__(self) -> None:
        if self.bootstrap < 0 or self.randomisation < 0:
            raise ValueError("the numbers of bootstrap resamples and randomisation trials must be >= 0")
        if not 0 < self.confidence < 1:
            raise ValueError(f"confidence must be in (0, 1), got {self.confidence}")

    def signature(self) -> str:
        return f"bs:{self.bootstrap}|ar:{self.randomisation}|seed:{self.seed}|ci:{self.confidence:g}"


@dataclass(frozen=True)
class Comparison:
    """B against the baseline A: scores, ``delta = B - A``, the bootstrap interval of delta and
    both p-values (``None`` where a test was not run)."""

    baseline: str
    system: str
    score_a: float
    score_b: float
    delta: float
    low: float | None
    high: float | None
    p_bootstrap: float | None
    p_randomisation: float | None
    signature: str

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def statistic_rows(statistic: Statistic, means: np.ndarray) -> np.ndarray:
    """``statistic`` of every row of ``means``."""
    return np.fromiter((statistic(row) for row in means), dtype=np.float64, count=means.shape[0])


def _checked(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.ndim != 2 or a.shape != b.shape:
        raise ValueError(f"per-sentence statistics of shapes {a.shape} and {b.shape} cannot be paired")
    if a.shape[0] == 0:
        raise ValueError("no sentences to compare")
    return a, b


def bootstrap_differences(a: np.ndarray, b: np.ndarray, stat_a: Statistic, stat_b: Statistic,
                          n: int, seed: int) -> np.ndarray:
    """``d*``: score(B) - score(A) on ``n`` paired resamples."""
    a, b = _checked(a, b)
    weights = resample_weights(a.shape[0], n, seed) / a.shape[0]
    return statistic_rows(stat_b, weights @ b) - statistic_rows(stat_a, weights @ a)


def randomised_differences(a: np.ndarray, b: np.ndarray, stat_a: Statistic, stat_b: Statistic,
                           n: int, seed: int) -> np.ndarray:
    """``d'``: score(B') - score(A') on ``n`` trials of random per-sentence swaps."""
    a, b = _checked(a, b)
    rng = np.random.default_rng(seed)
    swaps = rng.integers(0, 2, size=(n, a.shape[0])).astype(np.float64)
    moved = swaps @ (b - a) / a.shape[0]  # what swapping adds to A's means and takes from B's
    mean_a, mean_b = a.mean(axis=0), b.mean(axis=0)
    return statistic_rows(stat_b, mean_b - moved) - statistic_rows(stat_a, mean_a + moved)


def p_value(extreme: np.ndarray) -> float:
    """``(1 + #extreme) / (n + 1)``."""
    return float((1 + np.count_nonzero(extreme)) / (len(extreme) + 1))


def compare_stats(a: np.ndarray, b: np.ndarray, stat_a: Statistic, stat_b: Statistic | None = None, *,
                  config: SignificanceConfig = SignificanceConfig(), names: tuple[str, str] = ("A", "B")
                  ) -> Comparison:
    """Both tests on per-sentence statistics (``stat_b`` defaults to ``stat_a``)."""
    stat_b = stat_b or stat_a
    a, b = _checked(a, b)
    score_a, score_b = float(stat_a(a.mean(axis=0))), float(stat_b(b.mean(axis=0)))
    delta = score_b - score_a
    # a tolerance for the float noise of recomputing the same score from means
    tol = 1e-12 * max(1.0, abs(score_a), abs(score_b))
    low = high = p_boot = p_rand = None
    if config.bootstrap:
        d = bootstrap_differences(a, b, stat_a, stat_b, config.bootstrap, config.seed)
        tail = (1 - config.confidence) / 2 * 100
        low, high = (float(x) for x in np.percentile(d, [tail, 100 - tail]))
        p_boot = p_value(np.abs(d - delta) >= abs(delta) - tol)
    if config.randomisation:
        d = randomised_differences(a, b, stat_a, stat_b, config.randomisation, config.seed + 1)
        p_rand = p_value(np.abs(d) >= abs(delta) - tol)
    return Comparison(names[0], names[1], score_a, score_b, delta, low, high, p_boot, p_rand, config.signature())


def compare_results(baseline, system, *, config: SignificanceConfig = SignificanceConfig(),
                    names: tuple[str, str] = ("A", "B")) -> Comparison:
    """Both tests on two :class:`~gecscore.metric.Result` of the same metric and gold."""
    if baseline.metric != system.metric:
        raise ValueError(f"cannot compare a {baseline.metric} result with a {system.metric} result")
    return compare_stats(baseline.sentence_stats, system.sentence_stats, baseline.statistic, system.statistic,
                         config=config, names=names)


def compare_against_baseline(results: Sequence[tuple[str, object]], config: SignificanceConfig = SignificanceConfig()
                             ) -> list[Comparison]:
    """Every system after the first against the first (the baseline)."""
    (base_name, base), *rest = results
    return [compare_results(base, result, config=config, names=(base_name, name)) for name, result in rest]
