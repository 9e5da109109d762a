"""System scores from a metric's sentence scores by pairwise comparisons (Goto et al. 2025,
"Rethinking Evaluation Metrics for Grammatical Error Correction: Why Use a Different
Evaluation Process than Human?", arXiv 2502.09416): the metric's sentence-level judgments are
aggregated the way the human ones are, instead of by a corpus score.

For each sentence ``k`` (in order) and each pair of systems ``(i, j)``, ``i`` before ``j`` in the
mapping's order, the system with the higher sentence score wins; equal scores are a draw; a
pair where either score is NaN (no score: a judge that failed, an output its prompt did not
show) is no comparison, as gec-metrics leaves such pairs out of its table. A system that takes
part in no comparison at all (every sentence score NaN, or NaN wherever the others have one)
has no aggregate score: NaN, as the mean of no sentence scores is (``null`` in JSON), never
the prior ``mu`` or an Expected Wins of 0, which would rank it as if it had been judged.

- :func:`trueskill_aggregate`: every comparison updates TrueSkill ratings at once, in that
  order, with ``TrueSkill(mu=0, sigma=0.5, beta=0.25, tau=0, draw_probability=0.25)``; a
  system's score is its final ``mu``. Deterministic (no sampling). This is gec-metrics'
  ``rank_systems(aggregation="trueskill")``.
- :func:`expected_wins_aggregate`: ``EW(i) = 1/(|S| - 1) sum_{j != i} w(i, j) / (w(i, j) + w(j, i))``
  over the sentence wins (a pair with no wins either way adds 0).

The order of the systems matters to TrueSkill (the updates are sequential), so pass the same
mapping order to compare runs.
"""
from __future__ import annotations

import math
from itertools import combinations
from typing import Mapping, Sequence

import numpy as np

from gecscore.metaeval.trueskill_human import TwoPlayerTrueSkill

#: Goto et al. 2025 / gec-metrics: mu 0, sigma 0.5, beta 0.25, no dynamics, 25% draws
TRUESKILL_PARAMETERS = {"mu": 0.0, "sigma": 0.5, "beta": 0.25, "draw_probability": 0.25}


def _table(sentence_scores: Mapping[str, Sequence[float]]) -> tuple[list[str], np.ndarray]:
    systems = list(sentence_scores)
    if len(systems) < 2:
        raise ValueError("pairwise aggregation needs at least two systems")
    lengths = {len(v) for v in sentence_scores.values()}
    if len(lengths) != 1:
        raise ValueError(f"every system needs the same number of sentence scores, got {sorted(lengths)}")
    return systems, np.array([np.asarray(sentence_scores[s], dtype=np.float64) for s in systems])


def _compared(table: np.ndarray) -> np.ndarray:
    """Per system, whether it has a score on a sentence where another system has one too
    (at least one comparison)."""
    scored = ~np.isnan(table)
    together = scored.astype(int) @ scored.T.astype(int)   # sentences both systems scored
    np.fill_diagonal(together, 0)
    return together.sum(axis=1) > 0


def _undefined_without_comparisons(systems: Sequence[str], values: Sequence[float], table: np.ndarray
                                   ) -> dict[str, float]:
    """``{system: value}``, NaN for a system that was compared with no other (module docstring)."""
    compared = _compared(table)
    return {s: float(v) if c else math.nan for s, v, c in zip(systems, values, compared)}


def trueskill_aggregate(sentence_scores: Mapping[str, Sequence[float]], *, mu: float = 0.0, sigma: float = 0.5,
                        beta: float = 0.25, draw_probability: float = 0.25) -> dict[str, float]:
    """Final TrueSkill ``mu`` of every system from its sentence scores (module docstring)."""
    systems, table = _table(sentence_scores)
    model = TwoPlayerTrueSkill(beta=beta, draw_probability=draw_probability, mu=mu, sigma=sigma)
    rating = [(mu, sigma ** 2)] * len(systems)
    pairs = list(combinations(range(len(systems)), 2))
    for column in table.T:
        for i, j in pairs:
            if np.isnan(column[i]) or np.isnan(column[j]):
                continue   # no score for one of them (a failed or unshown judgment): no comparison
            if column[i] < column[j]:
                rating[j], rating[i] = model.rate(rating[j], rating[i], False)
            else:
                rating[i], rating[j] = model.rate(rating[i], rating[j], column[i] == column[j])
    return _undefined_without_comparisons(systems, [r[0] for r in rating], table)


def expected_wins_aggregate(sentence_scores: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """Expected Wins of every system over its sentence-level comparisons (module docstring)."""
    systems, table = _table(sentence_scores)
    wins = (table[:, None, :] > table[None, :, :]).sum(axis=2).astype(float)
    total = wins + wins.T
    share = np.divide(wins, total, out=np.zeros_like(wins), where=total > 0)
    np.fill_diagonal(share, 0.0)
    return _undefined_without_comparisons(systems, share.sum(axis=1) / (len(systems) - 1), table)
