"""PERM-BOTH: is metric 2's statistic significantly higher than metric 1's?

The paired permutation test of Deutsch, Dror and Roth (2021), *A Statistical Analysis of
Summarization Evaluation Metrics Using Resampling Methods* (TACL; arXiv 2104.00054), as WMT ranks
metrics with it: mt-metrics-eval's ``stats.PermutationSigDiff`` (google-research/mt-metrics-eval).
Both metrics score the same cells (systems, or systems' sentences) against one human signal;
``S(.)`` is a statistic of a score vector (:mod:`gecscore.metaeval.draw_statistics`)::

    z1, z2  = zscore(m1), zscore(m2)             each metric's scores, (x - mean) / std (ddof 0)
    delta   = S(z2) - S(z1)
    draw t  : w_c ~ Bernoulli(1/2) per cell c (one w for both hybrids)
              h1_c = z1_c if w_c else z2_c ,  h2_c = z2_c if w_c else z1_c
              d_t  = S(h2) - S(h1)
    p       = #{t : d_t >= delta} / T              one-sided, for "metric 2 > metric 1"

Under the null hypothesis the two metrics are exchangeable cell by cell, so ``delta`` is a draw
like the others; a small ``p`` says metric 2 is better. "Reaches" is ``>=`` (up to 1e-12
relative float noise), so identical metrics give ``delta = 0``, every ``d_t = 0`` and ``p = 1``;
without ties among the draws, ``p(A > B) + p(B > A) = 1`` on the same draws
(:func:`perm_both` with the same seed uses the same ``w`` for both orders, so
``p(A > B) + p(B > A) = 1 + #{d_t = delta} / T`` exactly).

**Draws** come from ``numpy.random.default_rng(seed)`` in blocks of ``block_size`` rows of
``n_cells`` uniforms (``w = u < 1/2``); the statistic is evaluated on all the rows of a block at
once. **Early stopping** (the reference's ``PermutationSigDiffParams``): at the end of each full
block, with ``t`` draws done so far, stop if ``count / t < early_min`` (0.02) or ``> early_max``
(0.5); a last partial block is not checked. ``k`` draws at most (default 1000 in blocks of 1000:
no early stop); ``block_size = k`` turns early stopping off. The same seed, scores and
parameters always give the same p-value, and the same draws for every pair of a matrix
(:func:`rank_metrics`), so a pair's p-value does not depend on the other metrics.

**Undefined statistics** count as 0, for the observed values and in every draw, as in the
reference (its average over no defined value is 0). A constant metric z-normalises to zeros
(the reference's ``scipy.stats.zscore`` gives NaN there).

Differences from the reference. Two can move a p-value beyond Monte Carlo error, both where
the reference's result depends on float rounding: (1) the reference compares ``d_t >= delta``
exactly, so for a discrete statistic (an accuracy, a Kendall tau) a draw whose difference
equals ``delta`` mathematically (``a/66 - b/66`` against ``c/66 - e/66`` with ``a - b = c - e``)
counts or not by the last bit; we count it (the 1e-12 tolerance). (2) Tie calibration groups
differences equal up to float noise (:mod:`gecscore.metaeval.draw_statistics`). The others do
not: our own seeded generator (the reference draws from numpy's global ``np.random.binomial``);
exact tie calibration (the reference's ``KendallWithTiesOpt`` defaults to ``sample_rate=0.1``,
a random tenth of the pairs; compare with ``sample_rate=1``); a sentence-level cell is one
system's score of one source sentence, shared by every ranking item of that sentence (the
reference has one gold score per cell, so one item per sentence).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.metaeval.draw_statistics import CHUNK_ELEMENTS, DrawStatistic
from gecscore.significance.ranks import ALPHA, Ranking, best_first, check_alpha, ranking

#: the most cells :func:`perm_both_exact` enumerates (2^20 swap patterns)
MAX_EXACT_CELLS = 20


@dataclass(frozen=True)
class PermBothParams:
    """Draws (``k``), seed and early stopping (module docstring); defaults are the reference's."""

    k: int = 1000
    seed: int = 0
    block_size: int = 1000
    early_min: float = 0.02
    early_max: float = 0.5

    def __post_init__(self) -> None:
        if self.k < 1 or self.block_size < 1:
            raise GecInputError(f"k and block_size must be at least 1, got {self.k} and {self.block_size}")
        if not 0 <= self.early_min <= self.early_max <= 1:
            raise GecInputError(f"need 0 <= early_min <= early_max <= 1, got {self.early_min}, {self.early_max}")

    @classmethod
    def without_early_stopping(cls, k: int, seed: int = 0) -> PermBothParams:
        return cls(k=k, seed=seed, block_size=k)

    def signature(self) -> str:
        return f"perm-both|k:{self.k}|block:{self.block_size}|early:{self.early_min:g},{self.early_max:g}|seed:{self.seed}"


@dataclass(frozen=True)
class PermBothResult:
    """``p`` for "metric 2 > metric 1", ``delta = statistic2 - statistic1`` (on the
    z-normalised scores), ``count`` of the ``draws`` whose difference reached ``delta``."""

    p: float
    delta: float
    statistic1: float
    statistic2: float
    count: int
    draws: int

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def z_normalise(scores: Sequence[float] | np.ndarray) -> np.ndarray:
    """``(x - mean) / std`` with the population std (``scipy.stats.zscore``); zeros if constant."""
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 1 or x.size == 0:
        raise GecInputError(f"metric scores must be a non-empty vector, got shape {x.shape}")
    if not np.isfinite(x).all():
        raise GecInputError("every metric score must be a finite number (a permutation test cannot use NaN)")
    std = x.std()
    return (x - x.mean()) / std if std > 0 else np.zeros_like(x)


def evaluate(statistic: DrawStatistic, rows: np.ndarray) -> np.ndarray:
    """``statistic`` of every row, in chunks that fit :data:`CHUNK_ELEMENTS`; NaN becomes 0."""
    step = max(1, CHUNK_ELEMENTS // max(1, statistic.row_cost))
    out = np.concatenate([statistic(rows[start:start + step]) for start in range(0, rows.shape[0], step)])
    return np.nan_to_num(out, nan=0.0)


def _prepared(scores1: Sequence[float] | np.ndarray, scores2: Sequence[float] | np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    z1, z2 = z_normalise(scores1), z_normalise(scores2)
    if z1.shape != z2.shape:
        raise GecInputError(f"the two metrics score different cells ({z1.size} and {z2.size} scores)")
    return z1, z2


def _reached(d: np.ndarray, delta: float, observed: np.ndarray) -> int:
    tolerance = 1e-12 * max(1.0, float(np.abs(observed).max()))
    return int(np.count_nonzero(d >= delta - tolerance))


def _differences(statistic: DrawStatistic, z1: np.ndarray, z2: np.ndarray, keep_first: np.ndarray) -> np.ndarray:
    """``S(h2) - S(h1)`` for each row of ``keep_first`` (True: the cell keeps its own metric)."""
    h1 = np.where(keep_first, z1, z2)
    h2 = np.where(keep_first, z2, z1)
    values = evaluate(statistic, np.concatenate([h1, h2]))
    return values[keep_first.shape[0]:] - values[:keep_first.shape[0]]


def perm_both(scores1: Sequence[float] | np.ndarray, scores2: Sequence[float] | np.ndarray,
              statistic: DrawStatistic, params: PermBothParams = PermBothParams()) -> PermBothResult:
    """The one-sided p-value that metric 2 (``scores2``) is better than metric 1 on
    ``statistic`` (both score vectors in the order of ``statistic.cells``; module docstring)."""
    z1, z2 = _prepared(scores1, scores2)
    observed = evaluate(statistic, np.stack([z1, z2]))
    delta = float(observed[1] - observed[0])
    rng = np.random.default_rng(params.seed)
    count = draws = 0
    while draws < params.k:
        size = min(params.block_size, params.k - draws)
        keep_first = rng.random((size, z1.size)) < 0.5
        count += _reached(_differences(statistic, z1, z2, keep_first), delta, observed)
        draws += size
        if size == params.block_size and not params.early_min <= count / draws <= params.early_max:
            break
    return PermBothResult(count / draws, delta, float(observed[0]), float(observed[1]), count, draws)


def perm_both_exact(scores1: Sequence[float] | np.ndarray, scores2: Sequence[float] | np.ndarray,
                    statistic: DrawStatistic) -> PermBothResult:
    """The p-value :func:`perm_both` estimates, computed over all ``2^n`` swap patterns of
    ``n <= 20`` cells (each equally likely): the limit of the Monte Carlo p as ``k`` grows."""
    z1, z2 = _prepared(scores1, scores2)
    n = z1.size
    if n > MAX_EXACT_CELLS:
        raise GecInputError(f"exact enumeration is for at most {MAX_EXACT_CELLS} cells (2^n patterns), got {n}")
    observed = evaluate(statistic, np.stack([z1, z2]))
    delta = float(observed[1] - observed[0])
    patterns = np.arange(2 ** n, dtype=np.int64)
    count = 0
    for start in range(0, patterns.size, 1 << 14):
        chunk = patterns[start:start + (1 << 14)]
        keep_first = ((chunk[:, None] >> np.arange(n)) & 1).astype(bool)
        count += _reached(_differences(statistic, z1, z2, keep_first), delta, observed)
    return PermBothResult(count / 2 ** n, delta, float(observed[0]), float(observed[1]), count, 2 ** n)


def rank_metrics(metric_scores: Mapping[str, Mapping[Any, Any] | Sequence[float] | np.ndarray],
                 statistic: DrawStatistic, *, params: PermBothParams = PermBothParams(), alpha: float = ALPHA,
                 on_pair: Callable[[], object] | None = None) -> Ranking:
    """Every pair of metrics by :func:`perm_both`, and their ranks by the reference's rule.

    ``metric_scores[name]`` is a mapping the statistic reads (``{system: score}``, or
    ``{system: {source: score}}`` for a sentence-level statistic) or a vector in the order of
    ``statistic.cells``. The metrics are sorted by the statistic of their scores, best first
    (equal values by name; an undefined one counts as 0); ``p[i][j]`` is
    ``perm_both(metric j, metric i)``: the p-value that metric ``i`` is better than metric
    ``j``. Ranks: :func:`gecscore.significance.ranks.assign_ranks` with ``alpha``. ``on_pair``
    is called after each pair (a progress bar's step).
    """
    check_alpha(alpha)
    if not metric_scores:
        raise GecInputError("no metrics to rank")
    vectors = {name: (statistic.vector(scores) if isinstance(scores, Mapping) else np.asarray(scores, dtype=np.float64))
               for name, scores in metric_scores.items()}
    for name, vector in vectors.items():
        if vector.shape != (len(statistic.cells),):
            raise GecInputError(f"metric {name!r} has {vector.size} scores for {len(statistic.cells)} cells")
    values = {name: float(evaluate(statistic, vector[None, :])[0]) for name, vector in vectors.items()}
    names = best_first(values)
    p_values = {}
    for i, better in enumerate(names):
        for worse in names[i + 1:]:
            result = perm_both(vectors[worse], vectors[better], statistic, params)
            p_values[(better, worse)] = (result.p, result.draws)
            if on_pair is not None:
                on_pair()
    return ranking(values, p_values, alpha=alpha, statistic=statistic.name, test=params.signature())
