"""Is metric A's correlation with humans significantly higher than metric B's? Williams' test,
bootstrap intervals of system-level correlations, and WMT-style significance clusters.

Williams' test (Williams 1959; Steiger 1980, eq. 7; Graham and Baldwin 2014 for MT metrics;
Chollampatt and Ng 2018 for GEC metrics) compares two *dependent, overlapping* correlations
measured on the same ``n`` systems: ``r12 = corr(A, human)`` and ``r13 = corr(B, human)``, given
``r23 = corr(A, B)``. As R's ``psych::r.test(n, r12 = r12, r13 = r13, r23 = r23)`` computes it
(psych 2.5.3, ``R/r.test.R``)::

    |R|  = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23        (determinant of the 3x3 matrix)
    rbar = (r12 + r13) / 2
    t    = (r12 - r13) * sqrt( (n - 1)(1 + r23) / (2 ((n - 1)/(n - 3)) |R| + rbar^2 (1 - r23)^3) )
    df   = n - 3
    p    = 2 * P(T_df > |t|)          (two-sided, psych's default ``twotailed=TRUE``)
    p1   =     P(T_df > |t|)          (one-sided, ``twotailed=FALSE``)

psych's one-sided p is that of "the larger correlation is larger": it does not depend on the
order of A and B. nusnlp/gecmetrics (Chollampatt and Ng 2018, ``tools/significance-williams``,
adapted from ygraham/significance-williams) runs the one-sided test once per pair, with the
metric of the higher *signed* correlation as r12 (higher metric scores mean better output), and
prints p there; :attr:`WilliamsResult.p_one_sided` is that number. psych used ``df = n - 2``
until 30 Nov 2014 (its source says "changed to n-3 on 30/11/14"): p-values published before
then (Graham and Baldwin's example output) are ``P(T_{n-2} > |t|)`` with the same ``t``.
For Spearman, the three coefficients are Spearman's rho (as gecmetrics'
``williams-sig.neg.spearman.R`` does); the test is then an approximation, as it is there.

Needs ``n >= 4`` (``df >= 1``). ``r12 == r13`` gives ``t = 0``, ``p = 1`` and one-sided
``p = 0.5`` (psych's ``pt(0, df, lower.tail=FALSE)``) whatever ``r23`` (A and B identical,
``r23 = 1``, would otherwise be 0/0).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.significance.bootstrap import Interval, interval, resample_weights, resampled_scores
from gecscore.metaeval.correlation import pearson, spearman
from gecscore.metaeval.human import HumanScores

Statistic = Callable[[np.ndarray], float]
ALTERNATIVES = ("two-sided", "one-sided")
#: the coefficients compared by Williams' test and clustered
COEFFICIENTS = ("pearson", "spearman")
#: the statistics of a bootstrap of correlations
STATISTICS = ("pearson", "spearman", "kendall", "accuracy")
#: a determinant this far below 0 is rounding, not an impossible correlation matrix
_DET_TOLERANCE = 1e-12


# ---------------------------------------------------------------- Williams' test

@dataclass(frozen=True)
class WilliamsResult:
    """Williams' t of ``r12 - r13`` (positive when A, the r12 side, correlates higher), its
    degrees of freedom ``n - 3`` and the two- and one-sided p-values (NaN where a correlation is)."""

    n: int
    r12: float
    r13: float
    r23: float
    t: float
    df: int
    p: float
    p_one_sided: float

    def p_value(self, alternative: str = "two-sided") -> float:
        _check_alternative(alternative)
        return self.p if alternative == "two-sided" else self.p_one_sided

    def as_dict(self) -> dict:
        return {"n": self.n, "r12": self.r12, "r13": self.r13, "r23": self.r23, "t": self.t, "df": self.df,
                "p": self.p, "p_one_sided": self.p_one_sided}


def _check_alternative(alternative: str) -> None:
    if alternative not in ALTERNATIVES:
        raise GecInputError(f"unknown alternative {alternative!r}; expected one of: {', '.join(ALTERNATIVES)}")


#: the fewest systems Williams' test is defined for (df = n - 3 must be at least 1)
MIN_SYSTEMS = 4


def _check_n(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise GecInputError(f"the number of systems must be an integer, got {n!r}")
    if n < MIN_SYSTEMS:
        raise GecInputError(f"Williams' test is undefined for fewer than {MIN_SYSTEMS} systems (df = n - 3), "
                            f"got n = {n}")


def williams_test(n: int, r12: float, r13: float, r23: float) -> WilliamsResult:
    """Williams' test of ``r12`` against ``r13`` given ``r23`` over ``n`` systems, exactly as
    ``psych::r.test(n, r12 = r12, r13 = r13, r23 = r23)`` (formula in the module docstring).

    ``r12 = corr(A, human)``, ``r13 = corr(B, human)``, ``r23 = corr(A, B)``. A NaN correlation
    (a constant metric) gives NaN t and p. Raises :class:`GecInputError` for ``n < 4``, a
    coefficient outside [-1, 1], or three coefficients no correlation matrix has (``|R| < 0``).
    """
    _check_n(n)
    values = (float(r12), float(r13), float(r23))
    if any(math.isnan(v) for v in values):
        return WilliamsResult(int(n), *values, math.nan, int(n) - 3, math.nan, math.nan)
    for name, value in zip(("r12", "r13", "r23"), values):
        if not -1.0 <= value <= 1.0:
            raise GecInputError(f"{name} must be a correlation in [-1, 1], got {value}")
    r12, r13, r23 = values
    n = int(n)
    df = n - 3
    det = 1 - r12 * r12 - r13 * r13 - r23 * r23 + 2 * r12 * r13 * r23
    if det < -_DET_TOLERANCE:
        raise GecInputError(f"r12={r12}, r13={r13}, r23={r23} are not the correlations of three variables "
                            f"(determinant {det:.3g} < 0)")
    det = max(det, 0.0)
    diff = r12 - r13
    if diff == 0:
        return WilliamsResult(n, r12, r13, r23, 0.0, df, 1.0, 0.5)
    rbar = (r12 + r13) / 2
    denominator = 2 * ((n - 1) / (n - 3)) * det + rbar * rbar * (1 - r23) ** 3
    if denominator <= 0:   # only on rounding noise: A and B collinear but r12 != r13 in the last bits
        t = math.copysign(math.inf, diff)
    else:
        t = diff * math.sqrt((n - 1) * (1 + r23) / denominator)
    from scipy.stats import t as student_t

    one = float(student_t.sf(abs(t), df))
    return WilliamsResult(n, r12, r13, r23, float(t), df, min(1.0, 2 * one), one)


def williams_from_scores(a: Sequence[float], b: Sequence[float], human: Sequence[float],
                         coefficient: str = "pearson") -> WilliamsResult:
    """Williams' test of metric scores ``a`` against ``b`` (same systems, same order as ``human``),
    with Pearson r or Spearman rho for all three coefficients."""
    if coefficient not in COEFFICIENTS:
        raise GecInputError(f"unknown coefficient {coefficient!r}; expected one of: {', '.join(COEFFICIENTS)}")
    if not len(a) == len(b) == len(human):
        raise GecInputError(f"Williams' test needs the same systems on every side, got {len(a)}, {len(b)} "
                            f"and {len(human)} scores")
    _check_n(len(human))
    corr = pearson if coefficient == "pearson" else spearman
    return williams_test(len(human), corr(a, human), corr(b, human), corr(a, b))


# ---------------------------------------------------------------- clusters

def significance_clusters(correlations: Mapping[str, float], p_values: Mapping[tuple[str, str], float],
                          alpha: float = 0.05) -> dict[str, int | None]:
    """WMT-style clusters: cluster number (1 = best) of each metric.

    Metrics are sorted by correlation, highest first; **ties keep the input order** of
    ``correlations`` (a stable sort), so equal coefficients never reorder and the result does
    not depend on anything but the input. Walking down the list, a metric starts a new cluster
    when its correlation is lower than that of the *best metric of the current cluster* (the
    cluster's first) and their p-value (``p_values[(a, b)]`` or ``[(b, a)]``) is below
    ``alpha``; it then becomes the new cluster's best. Comparing with the cluster's best, not
    the previous metric, keeps a long chain of small, non-significant steps from staying one
    cluster forever. A metric with a NaN correlation (constant scores) has no cluster (None)
    and is left out of the walk.
    """
    if not 0 < alpha < 1:
        raise GecInputError(f"alpha must be in (0, 1), got {alpha}")
    ranked = [m for m in sorted(correlations, key=lambda m: -correlations[m]) if not math.isnan(correlations[m])]
    clusters: dict[str, int | None] = {}
    head, number = None, 0
    for metric in ranked:
        if head is None:
            head, number = metric, 1
        else:
            p = p_values[(head, metric)] if (head, metric) in p_values else p_values[(metric, head)]
            if correlations[metric] < correlations[head] and p < alpha:
                head, number = metric, number + 1
        clusters[metric] = number
    return {m: clusters.get(m) for m in correlations}


# ---------------------------------------------------------------- bootstrap of correlations

def _rank_rows(x: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata

    return rankdata(x, axis=1)   # average ranks for ties, as scipy.stats.spearmanr


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    r = (xc * yc).sum(axis=1) / np.sqrt((xc * xc).sum(axis=1) * (yc * yc).sum(axis=1))
    return np.clip(r, -1.0, 1.0)


def correlation_rows(x: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """Per row of ``x`` (metric) and ``y`` (human), both ``R x n``: Pearson r, Spearman rho,
    Kendall's tau-b and pairwise accuracy. Rows with a constant side give NaN.

    tau-b = sum(sx * sy) / sqrt(sum(sx^2) * sum(sy^2)) over the pairs i < j, with
    ``sx = sign(x_i - x_j)`` (scipy.stats.kendalltau's default). Pairwise accuracy = the share
    of pairs the humans order (``sy != 0``) that the metric orders the same way; a metric tie
    counts as not agreeing, human ties are left out (as :class:`~gecscore.metaeval.system_pairs.
    PairwiseSystems` counts them). The same draw of a system twice is a tie on both sides.
    """
    x = np.atleast_2d(np.asarray(x, dtype=np.float64))
    y = np.atleast_2d(np.asarray(y, dtype=np.float64))
    constant = (np.ptp(x, axis=1) == 0) | (np.ptp(y, axis=1) == 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = _pearson_rows(x, y)
        rho = _pearson_rows(_rank_rows(x), _rank_rows(y))
        i, j = np.triu_indices(x.shape[1], 1)
        sx, sy = np.sign(x[:, i] - x[:, j]), np.sign(y[:, i] - y[:, j])
        tau = (sx * sy).sum(axis=1) / np.sqrt((sx * sx).sum(axis=1) * (sy * sy).sum(axis=1))
        accuracy = (sx * sy > 0).sum(axis=1) / (sy != 0).sum(axis=1)
    out = {"pearson": r, "spearman": rho, "kendall": tau, "accuracy": accuracy}
    return {k: np.where(constant, np.nan, v) for k, v in out.items()}


@dataclass(frozen=True)
class CorrelationBootstrap:
    """Percentile intervals of a metric's system-level correlations with one human ranking.

    ``resampling`` is ``systems`` (systems drawn with replacement, ``n_resamples`` kept after
    skipping draws with a constant side) or ``sentences`` (sentences drawn with replacement,
    every system re-scored on the same draws). ``kept`` is the number of resamples the
    intervals use."""

    human: str
    resampling: str
    n_systems: int
    n_resamples: int
    kept: int
    seed: int
    confidence: float
    pearson: Interval
    spearman: Interval
    kendall: Interval
    accuracy: Interval

    def as_dict(self) -> dict:
        return {"human": self.human, "resampling": self.resampling, "n_systems": self.n_systems,
                "n_resamples": self.n_resamples, "kept": self.kept, "seed": self.seed,
                "confidence": self.confidence, **{s: getattr(self, s).as_dict() for s in STATISTICS}}


def _check_bootstrap(n_resamples: int, confidence: float) -> None:
    if n_resamples < 1:
        raise GecInputError(f"the number of resamples must be at least 1, got {n_resamples}")
    if not 0 < confidence < 1:
        raise GecInputError(f"confidence must be in (0, 1), got {confidence}")


def _aligned(metric_scores: Mapping[str, float], human: HumanScores) -> tuple[np.ndarray, np.ndarray]:
    missing = [s for s in human.systems if s not in metric_scores]
    if missing:
        raise GecInputError(f"no metric score for system(s) {', '.join(missing)} of {human.name}")
    x = np.array([metric_scores[s] for s in human.systems], dtype=np.float64)
    y = np.array([human.scores[s] for s in human.systems], dtype=np.float64)
    return x, y


def _intervals(estimates: dict[str, np.ndarray], samples: dict[str, np.ndarray], confidence: float
               ) -> dict[str, Interval]:
    out = {}
    for name in STATISTICS:
        values = samples[name][~np.isnan(samples[name])]
        estimate = float(estimates[name][0])
        out[name] = (interval(estimate, values, confidence) if values.size
                     else Interval(estimate, math.nan, math.nan))
    return out


def bootstrap_systems(metric_scores: Mapping[str, float], human: HumanScores, *, n_resamples: int = 1000,
                      seed: int = 0, confidence: float = 0.95) -> CorrelationBootstrap:
    """Intervals from resampling the human ranking's systems with replacement.

    Draws come from ``numpy.random.default_rng(seed)``, ``n_resamples`` rows of ``n`` system
    indices at a time; a row where the metric or the human scores are constant is skipped (no
    correlation is defined) and more rows are drawn until ``n_resamples`` are kept (at most
    100 rounds, else :class:`GecInputError`). The same seed, systems and scores give the same
    numbers. The estimate is the coefficient on the systems as given."""
    _check_bootstrap(n_resamples, confidence)
    x, y = _aligned(metric_scores, human)
    if len(x) < 3:
        raise GecInputError(f"a bootstrap of correlations needs at least 3 systems, got {len(x)}")
    if np.ptp(x) == 0 or np.ptp(y) == 0 or np.isnan(x).any():
        raise GecInputError(f"no correlation with {human.name}: the metric or the human scores are constant "
                            "or missing")
    rng = np.random.default_rng(seed)
    kept: list[np.ndarray] = []
    total = 0
    for _ in range(100):
        draws = rng.integers(0, len(x), size=(n_resamples, len(x)))
        usable = (np.ptp(x[draws], axis=1) > 0) & (np.ptp(y[draws], axis=1) > 0)
        kept.append(draws[usable])
        total += int(usable.sum())
        if total >= n_resamples:
            break
    else:
        raise GecInputError(f"fewer than {n_resamples} of the resamples of {human.name} have two distinct scores")
    draws = np.concatenate(kept)[:n_resamples]
    samples = correlation_rows(x[draws], y[draws])
    estimates = correlation_rows(x[None, :], y[None, :])
    iv = _intervals(estimates, samples, confidence)
    return CorrelationBootstrap(human.name, "systems", len(x), n_resamples, len(draws), seed, confidence, **iv)


def bootstrap_sentences(per_system: Mapping[str, tuple[np.ndarray, Statistic]], human: HumanScores, *,
                        n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95
                        ) -> CorrelationBootstrap:
    """Intervals from resampling sentences: each resample re-scores every system of ``human``
    from its per-sentence statistics with the *same* sentence weights
    (:func:`~gecscore.significance.bootstrap.resample_weights` with ``seed``, then
    :func:`~gecscore.significance.bootstrap.resampled_scores`, as the paired bootstrap of system
    scores does), then correlates the re-scored systems with the (fixed) human scores.
    Resamples where every system gets the same score are skipped (``kept`` says how many are
    left). The estimate is the correlation of ``statistic(stats.mean(0))``, each system's score
    on all the sentences. ``per_system`` maps a system to ``(sentence statistics, statistic)``."""
    _check_bootstrap(n_resamples, confidence)
    missing = [s for s in human.systems if s not in per_system]
    if missing:
        raise GecInputError(f"no sentence statistics for system(s) {', '.join(missing)} of {human.name}")
    stats = [np.asarray(per_system[s][0], dtype=np.float64) for s in human.systems]
    sizes = {a.shape[0] if a.ndim == 2 else -1 for a in stats}
    if len(sizes) != 1 or -1 in sizes:
        raise GecInputError(f"the systems of {human.name} need sentence statistics over the same sentences "
                            f"(got {sorted(sizes)} rows)")
    if len(stats) < 3:
        raise GecInputError(f"a bootstrap of correlations needs at least 3 systems, got {len(stats)}")
    y = np.array([human.scores[s] for s in human.systems], dtype=np.float64)
    if np.ptp(y) == 0:
        raise GecInputError(f"the human scores of {human.name} are constant: no correlation")
    weights = resample_weights(sizes.pop(), n_resamples, seed)
    x = np.column_stack([resampled_scores(a, per_system[s][1], weights) for s, a in zip(human.systems, stats)])
    full = np.array([per_system[s][1](a.mean(axis=0)) for s, a in zip(human.systems, stats)], dtype=np.float64)
    samples = correlation_rows(x, np.broadcast_to(y, x.shape))
    estimates = correlation_rows(full[None, :], y[None, :])
    kept = int((~np.isnan(samples["pearson"])).sum())
    iv = _intervals(estimates, samples, confidence)
    return CorrelationBootstrap(human.name, "sentences", len(stats), n_resamples, kept, seed, confidence, **iv)


# ---------------------------------------------------------------- every pair of metrics

@dataclass(frozen=True)
class MetricSignificance:
    """Every pair of metrics compared on one human ranking.

    ``correlations[c][m]`` is metric ``m``'s coefficient ``c`` (``pearson``/``spearman``);
    ``williams[c][(a, b)]`` (``a`` before ``b`` in ``metrics``) the test of ``a`` against ``b``
    (``t > 0`` when ``a`` correlates higher); ``clusters[c][m]`` the cluster of ``m`` by
    :func:`significance_clusters` with the ``alternative`` p-values and ``alpha``;
    ``intervals[m]`` the bootstrap(s) of ``m``'s correlations, if asked (``systems`` and,
    where sentence statistics were given, ``sentences``)."""

    human: str
    n: int
    metrics: tuple[str, ...]
    alpha: float
    alternative: str
    correlations: dict[str, dict[str, float]]
    williams: dict[str, dict[tuple[str, str], WilliamsResult]]
    clusters: dict[str, dict[str, int | None]]
    intervals: dict[str, dict[str, CorrelationBootstrap]] = field(default_factory=dict)

    def p_value(self, coefficient: str, a: str, b: str) -> float:
        """The ``alternative`` p-value of the pair (either order)."""
        cell = self.williams[coefficient]
        result = cell[(a, b)] if (a, b) in cell else cell[(b, a)]
        return result.p_value(self.alternative)

    def as_dict(self) -> dict:
        return {
            "human": self.human, "n": self.n, "metrics": list(self.metrics), "alpha": self.alpha,
            "alternative": self.alternative, "correlations": self.correlations, "clusters": self.clusters,
            "williams": {c: [{"a": a, "b": b, **w.as_dict()} for (a, b), w in pairs.items()]
                         for c, pairs in self.williams.items()},
            **({"intervals": {m: {k: b.as_dict() for k, b in by.items()} for m, by in self.intervals.items()}}
               if self.intervals else {}),
        }


def compare_metrics(metric_scores: Mapping[str, Mapping[str, float]], human: HumanScores, *,
                    alpha: float = 0.05, alternative: str = "two-sided", bootstrap: int = 0, seed: int = 0,
                    confidence: float = 0.95,
                    sentence_stats: Mapping[str, Mapping[str, tuple[np.ndarray, Statistic]]] | None = None
                    ) -> MetricSignificance:
    """Williams' test (Pearson and Spearman) for every pair of ``metric_scores``
    (``{metric: {system: score}}``, over the systems of ``human``, each of which every metric
    must score) and the significance clusters. ``alternative``: which p the clusters use,
    ``two-sided`` (default) or ``one-sided`` (what gecmetrics and WMT report).

    With ``bootstrap`` > 0, ``intervals[metric]["systems"]`` is :func:`bootstrap_systems` with
    ``seed``; with ``sentence_stats`` (``{metric: {system: (stats, statistic)}}``) also
    ``intervals[metric]["sentences"]`` (:func:`bootstrap_sentences`) for the metrics there.
    Raises :class:`GecInputError` for fewer than 4 systems (Williams' test is undefined)."""
    _check_alternative(alternative)
    metrics = tuple(metric_scores)
    if not metrics:
        raise GecInputError("no metrics to compare")
    columns = {}
    for metric in metrics:
        missing = [s for s in human.systems if s not in metric_scores[metric]]
        if missing:
            raise GecInputError(f"metric {metric!r} has no score for system(s) {', '.join(missing)} of {human.name}")
        columns[metric] = [float(metric_scores[metric][s]) for s in human.systems]
    n = len(human.systems)
    if n < MIN_SYSTEMS:
        raise GecInputError(f"Williams' test is undefined for fewer than {MIN_SYSTEMS} systems (df = n - 3); "
                            f"{human.name} has {n}")
    y = [human.scores[s] for s in human.systems]
    correlations, williams, clusters = {}, {}, {}
    for coefficient, corr in (("pearson", _safe(pearson)), ("spearman", _safe(spearman))):
        with_human = {m: corr(columns[m], y) for m in metrics}
        pairs = {}
        for i, a in enumerate(metrics):
            for b in metrics[i + 1:]:
                pairs[(a, b)] = williams_test(n, with_human[a], with_human[b], corr(columns[a], columns[b]))
        correlations[coefficient] = with_human
        williams[coefficient] = pairs
        clusters[coefficient] = significance_clusters(
            with_human, {k: w.p_value(alternative) for k, w in pairs.items()}, alpha)
    intervals: dict[str, dict[str, CorrelationBootstrap]] = {}
    if bootstrap:
        for metric in metrics:
            by: dict[str, CorrelationBootstrap] = {}
            if not any(math.isnan(v) for v in columns[metric]) and max(columns[metric]) > min(columns[metric]):
                by["systems"] = bootstrap_systems(dict(zip(human.systems, columns[metric])), human,
                                                  n_resamples=bootstrap, seed=seed, confidence=confidence)
            stats = (sentence_stats or {}).get(metric)
            if stats and all(s in stats for s in human.systems):
                by["sentences"] = bootstrap_sentences(stats, human, n_resamples=bootstrap, seed=seed,
                                                      confidence=confidence)
            if by:
                intervals[metric] = by
    return MetricSignificance(human.name, n, metrics, alpha, alternative, correlations, williams, clusters,
                              intervals)


def _safe(corr: Callable[[Sequence[float], Sequence[float]], float]) -> Callable[..., float]:
    """The coefficient, NaN where a side has a NaN (a metric that could not score a system)."""
    def wrapped(x: Sequence[float], y: Sequence[float]) -> float:
        if any(math.isnan(v) for v in x) or any(math.isnan(v) for v in y):
            return math.nan
        return corr(x, y)
    return wrapped
