"""Ranks from a matrix of pairwise p-values, and the table mt-metrics-eval prints of them.

The rule is mt-metrics-eval's ``data.AssignRanks`` (google-research/mt-metrics-eval), which
ranks the metrics of the WMT metrics shared tasks; the human-evaluation rankings of the shared
tasks present systems the same way. The entries (metrics or systems) are sorted by their
statistic, best first; ``p[i][j]`` (``i < j``) is the p-value of the null hypothesis that entry
``j`` is at least as good as entry ``i``. Walking down the sorted list with the current group
starting at ``start`` (0 at first)::

    rank(0) = 1
    rank(i) = rank(i - 1) + 1, and start = i,   if p[s][i] <= alpha for some start <= s < i
    rank(i) = rank(i - 1),                      otherwise

so an entry gets a new rank when some entry above it *in the current group* beats it
significantly, and the group restarts there: no entry of rank r is beaten by an entry of rank r
above it, and the first entry of each rank r > 1 is beaten by some entry of rank r - 1. (The
reference's docstring also says "nor outperformed by any metric of rank < r"; the rule does not
check that, and neither do we.) Note ``<=`` (inclusive), as in the reference.

This is not :func:`gecscore.metaeval.metric_significance.significance_clusters` (which compares
each entry with the *first* entry of the current cluster only, with ``p < alpha`` and a strictly
lower statistic): that one stays for the Williams'-test clusters of the leaderboard; this one is
for the permutation tests (:mod:`gecscore.metaeval.perm_both`,
:mod:`gecscore.significance.system_clusters`), as the reference uses it.

The table (:meth:`Ranking.text`) is the reference's ``PrintMetricComparison``: per entry its
name (padded to the longest), rank (2 wide), statistic (``10.7f``), then ``.`` for itself and
the entries above it and ``>`` (``p < alpha``) or ``=`` against each entry below it. The
reference marks ``>`` with a strict ``<`` while it ranks with ``<=``: at ``p == alpha`` exactly
the rank increases but the cell reads ``=``; we print what it prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError

#: the reference's default significance level
ALPHA = 0.05


def check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise GecInputError(f"alpha must be in (0, 1), got {alpha}")


def best_first(statistics: Mapping[str, float]) -> list[str]:
    """The names sorted by statistic, highest first; equal statistics by name (the reference's
    secondary key, so the order never depends on the input order). A NaN statistic sorts last."""
    def key(name: str) -> tuple[bool, float, str]:
        value = float(statistics[name])
        return (math.isnan(value), -value if not math.isnan(value) else 0.0, name)
    return sorted(statistics, key=key)


def assign_ranks(p: Sequence[Sequence[float]] | np.ndarray, alpha: float = ALPHA) -> tuple[int, ...]:
    """The rank (1 = best) of each entry of a square p-value matrix whose rows and columns are
    sorted best first (module docstring; only the upper triangle ``p[i][j], i < j`` is read)."""
    check_alpha(alpha)
    matrix = np.asarray(p, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise GecInputError(f"the p-values must form a square matrix, got shape {matrix.shape}")
    ranks, rank, start = [], 1, 0
    for i in range(matrix.shape[0]):
        if np.any(matrix[start:i, i] <= alpha):
            rank, start = rank + 1, i
        ranks.append(rank)
    return tuple(ranks)


@dataclass(frozen=True)
class Ranking:
    """Entries sorted best first with their statistic, rank and the p-value matrix.

    ``p[i][j]`` for ``i < j``: the one-sided p-value that entry ``i`` is not better than entry
    ``j`` (NaN on and below the diagonal); ``draws[i][j]`` the resamples it took (0 where none).
    ``statistic`` names what was compared (``pearson``, ``score`` ...); ``test`` the test."""

    names: tuple[str, ...]
    values: tuple[float, ...]
    ranks: tuple[int, ...]
    p: tuple[tuple[float, ...], ...]
    draws: tuple[tuple[int, ...], ...]
    alpha: float
    statistic: str
    test: str

    def rank_of(self) -> dict[str, int]:
        return dict(zip(self.names, self.ranks))

    def p_value(self, better: str, worse: str) -> float:
        """The p-value of ``better`` (higher in the list) against ``worse``."""
        i, j = self.names.index(better), self.names.index(worse)
        if i >= j:
            raise GecInputError(f"{better!r} is not above {worse!r} in the ranking")
        return self.p[i][j]

    def text(self, probabilities: bool = False) -> str:
        """The reference's ``PrintMetricComparison`` table (``probabilities``: its ``probs``
        mode, the p-values instead of ``>``/``=``)."""
        width = max((len(name) for name in self.names), default=0)
        lines = []
        for i, (name, value, rank) in enumerate(zip(self.names, self.values, self.ranks)):
            if probabilities:
                cells = " ".join(["  .  "] * (i + 1)) + " " + " ".join(f"{p:5.3f}" for p in self.p[i][i + 1:])
            else:
                cells = " ".join(["."] * (i + 1)) + " " + " ".join(
                    ">" if p < self.alpha else "=" for p in self.p[i][i + 1:])
            lines.append(f"{name:<{width}} {rank:>2} {value:10.7f}  {cells}")
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {"statistic": self.statistic, "test": self.test, "alpha": self.alpha,
                "ranking": [{"name": n, "value": v, "rank": r} for n, v, r in zip(self.names, self.values, self.ranks)],
                "p": [{"better": self.names[i], "worse": self.names[j], "p": self.p[i][j], "draws": self.draws[i][j]}
                      for i in range(len(self.names)) for j in range(i + 1, len(self.names))]}


def ranking(values: Mapping[str, float], p_values: Mapping[tuple[str, str], tuple[float, int]], *,
            alpha: float = ALPHA, statistic: str = "", test: str = "") -> Ranking:
    """A :class:`Ranking` of ``values`` (sorted by :func:`best_first`) from ``p_values[(better,
    worse)] = (p, draws)``, given for every pair in best-first order."""
    check_alpha(alpha)
    names = best_first(values)
    n = len(names)
    p = [[math.nan] * n for _ in range(n)]
    draws = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            try:
                p[i][j], draws[i][j] = p_values[(names[i], names[j])]
            except KeyError:
                raise GecInputError(f"no p-value for {names[i]!r} against {names[j]!r}") from None
    upper = np.array(p, dtype=np.float64).reshape(n, n)
    return Ranking(tuple(names), tuple(float(values[m]) for m in names), assign_ranks(upper, alpha),
                   tuple(tuple(row) for row in p), tuple(tuple(row) for row in draws), alpha, statistic, test)
