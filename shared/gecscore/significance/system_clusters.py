"""Systems in significance clusters: every pair of systems by the paired randomisation test of
``gecscore compare``, and ranks by mt-metrics-eval's rule.

For the systems of one metric and one test set, as the human-evaluation rankings of the shared
tasks present them (systems sorted by score, a cluster = the systems no system above them in the
cluster beats significantly):

1. each system's score is ``statistic(stats.mean(0))`` (its :class:`~gecscore.metric.Result`);
   the systems are sorted best first (equal scores by name);
2. for every pair (``better`` above ``worse``), paired approximate randomisation over sentences,
   exactly :func:`gecscore.significance.comparison.compare_stats`'s (``trials`` trials, each
   sentence's rows of the two systems swapped with probability 1/2; the draws of
   ``default_rng(seed + 1)``, so a pair's p-value is the ``p AR`` that ``gecscore compare``
   prints for it with the same seed and trials)::

       two-sided (default):  p = (1 + #{|d'| >= |d|}) / (trials + 1)
       one-sided:            p = (1 + #{d' >= d}) / (trials + 1),   d = score(better) - score(worse)

3. ranks: :func:`gecscore.significance.ranks.assign_ranks` with ``alpha`` (a system starts a
   new rank when some system above it in the current group beats it at ``p <= alpha``).

The two-sided p is the test ``compare`` reports; at the same ``alpha`` it is stricter than the
one-sided p of the reference's metric ranking (about half the one-sided p on the better side).
Nothing here runs a metric: it reads per-sentence statistics.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.significance.comparison import SignificanceConfig, compare_stats, p_value, randomised_differences
from gecscore.significance.ranks import ALPHA, Ranking, best_first, check_alpha, ranking

Statistic = Callable[[np.ndarray], float]
ALTERNATIVES = ("two-sided", "one-sided")


def rank_systems(systems: Mapping[str, tuple[np.ndarray, Statistic]], *, trials: int = 1000, seed: int = 0,
                 alpha: float = ALPHA, alternative: str = "two-sided",
                 on_pair: Callable[[], object] | None = None,
                 p_of: Callable[[str, str], float] | None = None) -> Ranking:
    """Every pair of ``systems`` (``{name: (sentence statistics, statistic)}``, the same
    sentences) by paired approximate randomisation, and their ranks (module docstring).
    ``on_pair`` is called after each pair (a progress bar's step); ``p_of(better, worse)``, when
    given, supplies each pair's two-sided p-value instead (one kept from an earlier run)."""
    check_alpha(alpha)
    if alternative not in ALTERNATIVES:
        raise GecInputError(f"unknown alternative {alternative!r}; expected one of: {', '.join(ALTERNATIVES)}")
    if p_of is not None and alternative != "two-sided":
        raise GecInputError("kept p-values (p_of) are two-sided; give alternative='two-sided'")
    if trials < 1:
        raise GecInputError(f"the number of randomisation trials must be at least 1, got {trials}")
    if len(systems) < 2:
        raise GecInputError(f"ranking needs at least two systems, got {len(systems)}")
    stats = {name: np.asarray(s, dtype=np.float64) for name, (s, _) in systems.items()}
    shapes = {a.shape for a in stats.values()}
    if len(shapes) != 1 or len(next(iter(shapes))) != 2:
        raise GecInputError(f"the systems need sentence statistics over the same sentences, got shapes {sorted(shapes)}")
    scores = {name: float(statistic(stats[name].mean(axis=0))) for name, (_, statistic) in systems.items()}
    config = SignificanceConfig(bootstrap=0, randomisation=trials, seed=seed)
    names = best_first(scores)
    p_values = {}
    for i, better in enumerate(names):
        for worse in names[i + 1:]:
            if p_of is not None:
                p = p_of(better, worse)
            elif alternative == "two-sided":
                p = compare_stats(stats[worse], stats[better], systems[worse][1], systems[better][1], config=config,
                                  names=(worse, better)).p_randomisation
            else:
                d = randomised_differences(stats[worse], stats[better], systems[worse][1], systems[better][1],
                                           trials, seed + 1)
                delta = scores[better] - scores[worse]
                tolerance = 1e-12 * max(1.0, abs(scores[better]), abs(scores[worse]))
                p = p_value(d >= delta - tolerance)
            p_values[(better, worse)] = (float(p), trials)
            if on_pair is not None:
                on_pair()
    return ranking(scores, p_values, alpha=alpha, statistic="score",
                   test=f"paired approximate randomisation ({alternative})|{config.signature()}")


def rank_results(results: Sequence[tuple[str, object]], *, trials: int = 1000, seed: int = 0, alpha: float = ALPHA,
                 alternative: str = "two-sided") -> Ranking:
    """:func:`rank_systems` of named :class:`~gecscore.metric.Result` of one metric and gold."""
    metrics = {getattr(result, "metric", None) for _, result in results}
    if len(metrics) > 1:
        raise GecInputError(f"cannot rank results of different metrics: {', '.join(sorted(map(str, metrics)))}")
    names = [name for name, _ in results]
    if len(set(names)) != len(names):
        raise GecInputError("two systems have the same name")
    return rank_systems({name: (result.sentence_stats, result.statistic) for name, result in results},
                        trials=trials, seed=seed, alpha=alpha, alternative=alternative)
