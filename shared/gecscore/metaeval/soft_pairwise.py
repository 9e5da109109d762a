"""Soft pairwise accuracy (SPA): 1 - pairwise confidence error, from segment-level scores.

Thompson, Mathur, Deutsch and Khayrallah (2024), *Improving Statistical Significance in Human
Evaluation of Automatic Metrics via Soft Pairwise Accuracy* (WMT 2024); the system-level
statistic of the WMT 2024 metrics task. Reference code: mt-metrics-eval's
``mt_metrics_eval/pce.py`` (``compute_pairwise_p_values``, ``compute_one_minus_pce``).

**Pairwise p-values.** For systems ``i`` and ``j`` with segment scores ``x_i`` and ``x_j`` over
the same ``L`` segments, the paired permutation test of "``i`` is better than ``j``" draws
``P`` sign vectors ``s`` in {-1, +1}^L (each segment's two scores swapped where ``s = -1``) and
counts how often the permuted difference reaches the observed one::

    p(i > j) = #{ s : s . x_i - s . x_j >= sum(x_i) - sum(x_j) } / P

(sums rather than means: the same test). One set of ``P`` sign vectors serves every pair.

**SPA.** With ``p_h`` from the human scores and ``p_m`` from the metric's, over the
``S (S - 1) / 2`` pairs ``i < j`` of the systems in their given order::

    SPA = 1 - mean_{i<j} | p_h(i > j) - p_m(i > j) |

1 when the metric is as confident as the humans about every pair; unlike pairwise accuracy it
rewards a metric for being unsure where the humans are.

**Same numbers as the reference.** The signs are drawn as ``pce.py`` draws them (numpy's
``default_rng(seed).random((P, L), dtype=float32)``, rounded half to even, times 2, minus 1;
default seed 4 and ``P = 1000``), and the statistic is computed in float32 as there (sums and
the signed sums by one float32 matrix product), so that the rare permutation whose difference
equals the observed one to the last bit (e.g. all signs +1) counts the same: with the same seed
the p-values and SPA equal the reference's. The pair order matters at that last bit
(``p(i > j) + p(j > i) = 1 + #ties / P``): give the human and the metric the same system order.

**Unrated segments.** GMEG-Data leaves a few sentences without a human score (empty for every
system); they are dropped from both sides (:func:`gecscore.metaeval.human_segments.align`), as
mt-metrics-eval's ``filter_gold_nones`` drops a segment without a gold score.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.metaeval.human_segments import SegmentScores, align

DEFAULT_PERMUTATIONS = 1000
DEFAULT_SEED = 4


def _check_permutations(num_permutations: int) -> None:
    if isinstance(num_permutations, bool) or not isinstance(num_permutations, (int, np.integer)) \
            or num_permutations < 1:
        raise GecInputError(f"the number of permutations must be a positive integer, got {num_permutations!r}")


def permutation_signs(num_permutations: int, num_segments: int, seed: int = DEFAULT_SEED) -> np.ndarray:
    """``(num_permutations, num_segments)`` float32 signs in {-1, +1}, drawn as ``pce.py`` draws
    them: uniform float32 in [0, 1) from ``numpy.random.default_rng(seed)``, rounded half to even
    (so 0.5 gives -1), then ``2 m - 1``."""
    _check_permutations(num_permutations)
    uniform = np.random.default_rng(seed).random((num_permutations, num_segments), dtype=np.float32)
    return np.rint(uniform) * np.float32(2.0) - np.float32(1.0)


def _scores_matrix(scores) -> np.ndarray:
    matrix = np.asarray(scores, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] < 2 or matrix.shape[1] < 1:
        raise GecInputError(f"segment scores must be a (systems x segments) matrix of at least 2 systems and 1 "
                            f"segment, got shape {matrix.shape}")
    if not np.isfinite(matrix).all():
        raise GecInputError("segment scores must be finite numbers (drop unrated segments first)")
    return matrix


def pairwise_p_values(scores, *, num_permutations: int = DEFAULT_PERMUTATIONS, seed: int = DEFAULT_SEED,
                      signs: np.ndarray | None = None) -> np.ndarray:
    """``(S, S)`` matrix whose upper triangle holds p(i > j) (module docstring) for ``scores`` of
    shape (systems x segments); NaN elsewhere. ``signs``: the sign vectors to use instead of the
    seeded draw (e.g. all 2^L of them, for an exact test on a few segments)."""
    matrix = _scores_matrix(scores).astype(np.float32)
    if signs is None:
        signs = permutation_signs(num_permutations, matrix.shape[1], seed)
    signs = np.asarray(signs, dtype=np.float32)
    if signs.ndim != 2 or signs.shape[1] != matrix.shape[1] or signs.shape[0] < 1:
        raise GecInputError(f"signs must be a (permutations x {matrix.shape[1]}) matrix, got shape {signs.shape}")
    totals = matrix.sum(axis=1)                       # float32, per system
    signed = np.matmul(signs, matrix.T)               # float32, (permutations, systems)
    observed = totals[:, None] - totals[None, :]      # (systems, systems)
    null = signed[:, :, None] - signed[:, None, :]    # (permutations, systems, systems)
    counts = np.count_nonzero(null >= observed[None, :, :], axis=0)
    p_values = np.full(observed.shape, np.nan)
    upper = np.triu_indices(observed.shape[0], 1)
    p_values[upper] = counts[upper] / signs.shape[0]
    return p_values


def one_minus_pce(human_p_values: np.ndarray, metric_p_values: np.ndarray) -> float:
    """SPA = 1 - mean over the upper triangle of |human p - metric p| (module docstring)."""
    human_p_values, metric_p_values = np.asarray(human_p_values), np.asarray(metric_p_values)
    if human_p_values.shape != metric_p_values.shape or human_p_values.ndim != 2 \
            or human_p_values.shape[0] != human_p_values.shape[1] or human_p_values.shape[0] < 2:
        raise GecInputError(f"p-value matrices must be square, of the same shape and of at least 2 systems, got "
                            f"{human_p_values.shape} and {metric_p_values.shape}")
    upper = np.triu_indices(human_p_values.shape[0], 1)
    return float(1.0 - np.mean(np.abs(human_p_values - metric_p_values)[upper]))


@dataclass(frozen=True)
class SoftPairwiseAccuracy:
    """SPA of one metric over ``systems`` (in this order) and ``segments`` rated segments
    (``unrated`` dropped); ``human_p``/``metric_p``: p(a > b) for each pair (a before b)."""

    value: float
    systems: tuple[str, ...]
    segments: int
    unrated: int
    num_permutations: int
    seed: int
    human_p: Mapping[tuple[str, str], float]
    metric_p: Mapping[tuple[str, str], float]

    def as_dict(self) -> dict:
        return {"spa": self.value, "systems": list(self.systems), "segments": self.segments,
                "unrated": self.unrated, "num_permutations": self.num_permutations, "seed": self.seed,
                "pairs": [{"better": a, "worse": b, "human_p": self.human_p[a, b], "metric_p": self.metric_p[a, b]}
                          for a, b in self.human_p]}


def soft_pairwise_accuracy(human: SegmentScores, metric: Mapping[str, Sequence[float]],
                           systems: Sequence[str] | None = None, *, num_permutations: int = DEFAULT_PERMUTATIONS,
                           seed: int = DEFAULT_SEED) -> SoftPairwiseAccuracy:
    """SPA of a metric's segment scores (``metric[system]``, one per segment of the set) against
    the human segment scores, over ``systems`` (default: the human file's, in its order) and the
    segments every one of them has a human score of."""
    _check_permutations(num_permutations)
    aligned = align(human, metric, systems)
    signs = permutation_signs(num_permutations, len(aligned.segments), seed)
    human_p = pairwise_p_values(aligned.human, signs=signs)
    metric_p = pairwise_p_values(aligned.metric, signs=signs)
    pairs = [(i, j) for i in range(len(aligned.systems)) for j in range(i + 1, len(aligned.systems))]
    names = aligned.systems
    return SoftPairwiseAccuracy(one_minus_pce(human_p, metric_p), names, len(aligned.segments), aligned.unrated,
                                int(num_permutations), seed,
                                {(names[i], names[j]): float(human_p[i, j]) for i, j in pairs},
                                {(names[i], names[j]): float(metric_p[i, j]) for i, j in pairs})
