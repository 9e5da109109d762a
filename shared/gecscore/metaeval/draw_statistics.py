"""Meta-evaluation statistics of many metric-score vectors at once, one row per resample.

A permutation test (:mod:`gecscore.metaeval.perm_both`) recomputes a statistic on thousands of
hybrid score vectors; here each statistic takes a matrix ``rows`` (``R x n_cells``: one metric
score per *cell* in each row) and returns its ``R`` values with numpy, no Python loop over rows.
The human side is fixed inside the statistic. The formulas are the library's own:

- system level (:func:`system_statistic`; a cell is a system, one group of all systems):
  ``pearson``, ``spearman``, ``kendall`` (tau-b) and ``accuracy`` are
  :func:`gecscore.metaeval.metric_significance.correlation_rows` (what the bootstrap of
  correlations computes); every name of :data:`TIE_STATISTICS` is a
  :mod:`gecscore.metaeval.ties` statistic over the system pairs.
- sentence level (:func:`sentence_statistic`; a cell is one system's score of one source
  sentence, a group one ranking item of :class:`~gecscore.metaeval.sentence_level.Judgment`):
  ``accuracy`` and ``kendall`` are :class:`~gecscore.metaeval.sentence_level.PairwiseAgreement`'s,
  with its ``ties`` rule; the :data:`TIE_STATISTICS` are :mod:`~gecscore.metaeval.ties`'s, with
  its ``grouping`` (``pooled``: counts summed over the items; ``item``: the mean over the items
  where the statistic is defined).
- segment level (:func:`segment_statistic`; every system's human score of every segment, as
  GMEG-Data's; a cell is one system's score of one segment, a group one segment): ``pearson``,
  ``spearman`` and ``kendall`` (tau-b) within each segment, averaged over the segments where
  they are defined (mt-metrics-eval's ``average_by="item"``; the per-segment values are
  :func:`~gecscore.metaeval.metric_significance.correlation_rows`'s), and the
  :data:`TIE_STATISTICS` by item or pooled.

**Pairs.** Every pair of outputs *within* a group is classified as in
:mod:`gecscore.metaeval.ties` (C, D, T_h, T_m, T_hm; a metric tie is exact equality) for all
rows at once, the counts summed per group (``np.add.reduceat``) and the ties formulas
(:func:`~gecscore.metaeval.ties.kendall`, :func:`~gecscore.metaeval.ties.acc_kept`, ...) applied
to the count arrays. Under ``ties="seeda-script"`` a metric tie of a human-ordered pair counts
as agreement when the humans prefer the output of the later system (in the ``systems`` order),
as :func:`~gecscore.metaeval.sentence_level.pairwise_agreement` reads it, else as disagreement.
tau_c's bound per group is ``n^2 (k - 1) / (2 k)`` with ``k = min(distinct human values,
distinct metric values)``, as :func:`~gecscore.metaeval.ties.pair_counts` computes it; the
distinct metric values of a group are counted from its tied pairs (an output is a repeat when
it ties an earlier one).

**Tie calibration** (``acc-eq-calibrated``): :func:`~gecscore.metaeval.ties.tie_calibration`'s
sweep, per row: the pairs sorted by ``|m_i - m_j|``, the running (weighted) count of
``C + T_hm`` as each pair turns into a metric tie, read at the end of each run of equal
differences (a threshold turns all of them at once) and at 0; the statistic is the largest
value, so it is recalibrated on every row (the reference's ``KendallWithTiesOpt`` inside
``PermutationSigDiff`` does the same per draw, with ``sample_rate = 1``). Weights and
denominators are :func:`~gecscore.metaeval.ties.tie_calibration`'s exact integers (pooled: 1 per
pair over N; by item: ``L / N_g`` per pair over ``L G``, ``L`` the least common multiple of the
groups' pair counts; floats ``1 / N_g`` over ``G`` when ``L`` is too large for exact int64
sums), so each row's value equals what that function returns on the row whenever the row's
equal differences are equal floats (integer scores, say). Differences equal up to ``1e-9`` times the row's largest ``|score|`` are one threshold: the
z-normalisation of the permutation test turns equal raw differences into floats that differ in
the last bits, and a sweep that took those for distinct thresholds could stop *inside* a run of
mathematically equal differences, a tie calibration no threshold gives (the reference's
``tau_optimization`` compares them exactly and does so: on SEEDA-like integer scores its
calibrated acc_eq of the z-normalised scores exceeds that of the raw scores; so does
:func:`~gecscore.metaeval.ties.tie_calibration` on decimal scores, where ``0.3 - 0.1`` and
``0.7 - 0.5`` differ as floats).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Hashable, Mapping, Protocol, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.metaeval import ties as tie_stats
from gecscore.metaeval.metric_significance import correlation_rows
from gecscore.metaeval.sentence_level import TIES, Judgment

#: the statistics of :mod:`gecscore.metaeval.ties`, by the names used here
TIE_STATISTICS = tuple(f"kendall-{v}" for v in tie_stats.KENDALL_VARIANTS) + (
    "acc-kept", "acc-dropped", "acc-eq", "acc-eq-calibrated")
SYSTEM_STATISTICS = ("pearson", "spearman", "kendall", "accuracy") + TIE_STATISTICS
SENTENCE_STATISTICS = ("accuracy", "kendall") + TIE_STATISTICS
SEGMENT_STATISTICS = ("pearson", "spearman", "kendall") + TIE_STATISTICS
#: what a row chunk may hold (elements of the largest temporary array)
CHUNK_ELEMENTS = 2_000_000
#: two metric differences closer than this (relative to the row's largest |score|) are one threshold
GAP_TOLERANCE = 1e-9


class DrawStatistic(Protocol):
    """A statistic of ``R x n_cells`` metric scores (one row per draw) given fixed human data."""

    name: str
    cells: tuple[Hashable, ...]

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        """The statistic of each row (NaN where undefined)."""

    @property
    def row_cost(self) -> int:
        """Elements of the largest temporary array per row (to size chunks of rows)."""

    def vector(self, scores: Mapping[Any, Any]) -> np.ndarray:
        """One metric's scores in the order of ``cells``."""


def _vector(cells: Sequence[Hashable], scores: Mapping[Any, Any]) -> np.ndarray:
    out = np.empty(len(cells), dtype=np.float64)
    for index, cell in enumerate(cells):
        try:
            out[index] = scores[cell[0]][cell[1]] if isinstance(cell, tuple) else scores[cell]
        except (KeyError, IndexError):
            raise GecInputError(f"no sentence score of {cell[0]} for sentence {cell[1] + 1}" if isinstance(cell, tuple)
                                else f"no metric score for system {cell}") from None
    if not np.isfinite(out).all():
        raise GecInputError("every metric score must be a finite number (a permutation test cannot use NaN)")
    return out


# ---------------------------------------------------------------- pairs within groups

@dataclass(frozen=True, eq=False)
class PairLayout:
    """The pairs of outputs within each group, in the order (group, later output, earlier
    output), so that each group's pairs, and each output's pairs with the outputs before it
    (a *slot*), are contiguous."""

    n_cells: int
    first: np.ndarray            # (P,) cell of the earlier output of each pair
    second: np.ndarray           # (P,) cell of the later output
    human_sign: np.ndarray       # (P,) sign(h_first - h_second)
    tie_fill: np.ndarray         # (P,) +1 / -1: a metric tie under ties="seeda-script"
    group_starts: np.ndarray     # (G,) first pair of each group
    group_pairs: np.ndarray      # (G,) pairs per group
    group_sizes: np.ndarray      # (G,) outputs per group
    human_distinct: np.ndarray   # (G,) distinct human values per group
    slot_starts: np.ndarray      # (S,) first pair of each slot
    slot_group_starts: np.ndarray  # (G,) first slot of each group

    @property
    def n_pairs(self) -> int:
        return int(self.first.size)

    @property
    def n_groups(self) -> int:
        return int(self.group_starts.size)

    @classmethod
    def of_groups(cls, groups: Sequence[tuple[Sequence[int], Sequence[float]]], n_cells: int) -> PairLayout:
        """From ``(cell indices, human scores)`` per group (higher human score is better); groups
        of fewer than two outputs are left out."""
        first, second, sign, fill, starts, npairs, sizes, distinct, slots, slot_group = ([] for _ in range(10))
        for cells, human in groups:
            cells, human = [int(c) for c in cells], [float(h) for h in human]
            if len(cells) != len(human):
                raise GecInputError(f"a group has {len(cells)} outputs but {len(human)} human scores")
            if len(cells) < 2:
                continue
            if len(set(cells)) != len(cells):
                raise GecInputError("an output appears twice in one group")
            starts.append(len(first))
            slot_group.append(len(slots))
            for j in range(1, len(cells)):
                slots.append(len(first))
                for i in range(j):
                    first.append(cells[i])
                    second.append(cells[j])
                    s = (human[i] > human[j]) - (human[i] < human[j])
                    sign.append(s)
                    fill.append(1 if s < 0 else -1)   # the later output preferred: a tie agrees
            npairs.append(len(first) - starts[-1])
            sizes.append(len(cells))
            distinct.append(len(set(human)))
        if not first:
            raise GecInputError("no pair to compare: every group has fewer than two outputs")
        ints = lambda v: np.asarray(v, dtype=np.int64)
        return cls(n_cells, ints(first), ints(second), np.asarray(sign, dtype=np.int8), np.asarray(fill, dtype=np.int8),
                   ints(starts), ints(npairs), ints(sizes), ints(distinct), ints(slots), ints(slot_group))

    def signs(self, rows: np.ndarray) -> np.ndarray:
        """sign(m_first - m_second) of every pair, per row (``R x P``, int8)."""
        return np.sign(rows[:, self.first] - rows[:, self.second]).astype(np.int8)

    def per_group(self, values: np.ndarray) -> np.ndarray:
        """Per-pair values (``R x P``) summed per group (``R x G``)."""
        return np.add.reduceat(values, self.group_starts, axis=1, dtype=np.int64)

    def distinct_metric_values(self, metric_sign: np.ndarray) -> np.ndarray:
        """Distinct metric values per group (``R x G``): outputs minus those tying an earlier one."""
        repeats = np.logical_or.reduceat(metric_sign == 0, self.slot_starts, axis=1)
        return self.group_sizes - np.add.reduceat(repeats, self.slot_group_starts, axis=1, dtype=np.int64)


def _formula(name: str, ties: str | None):
    """The :mod:`~gecscore.metaeval.ties` function of counts behind ``name``."""
    if name == "accuracy" or name == "acc-kept":
        return tie_stats.acc_kept
    if name == "acc-dropped":
        return tie_stats.acc_dropped
    if name == "acc-eq":
        return tie_stats.acc_eq
    if name == "kendall":
        variant = {None: "b", "neutral": "wmt-kept", "seeda-script": "wmt-kept", "discordant": "wmt-discordant"}[ties]
    else:
        variant = name.removeprefix("kendall-")
    return lambda counts: tie_stats.kendall(counts, variant)


def _mean_defined(values: np.ndarray) -> np.ndarray:
    """Per row, the mean of the non-NaN values (NaN where there is none)."""
    defined = ~np.isnan(values)
    total = np.where(defined, values, 0.0).sum(axis=1)
    count = defined.sum(axis=1)
    out = np.full(values.shape[0], np.nan)
    np.divide(total, count, out=out, where=count > 0)
    return out


@dataclass(frozen=True, eq=False)
class PairStatistic:
    """A :data:`TIE_STATISTICS` statistic (or sentence-level ``accuracy``/``kendall`` with a
    ``ties`` rule, which only they read; ``ties=None``: system level, where ``kendall`` is tau-b)
    over a layout."""

    name: str
    layout: PairLayout
    cells: tuple[Hashable, ...]
    grouping: str = "pooled"
    ties: str | None = None

    def __post_init__(self) -> None:
        if self.grouping not in tie_stats.GROUPINGS:
            raise GecInputError(f"grouping must be one of {', '.join(tie_stats.GROUPINGS)}, got {self.grouping!r}")
        if self.ties is not None and self.ties not in TIES:
            raise GecInputError(f"ties must be one of {', '.join(TIES)}, got {self.ties!r}")
        known = SYSTEM_STATISTICS[2:] if self.ties is None else SENTENCE_STATISTICS
        if self.name not in known:
            raise GecInputError(f"unknown statistic {self.name!r}; expected one of: {', '.join(known)}")
        if len(self.cells) != self.layout.n_cells:
            raise GecInputError(f"{len(self.cells)} cell labels for {self.layout.n_cells} cells")

    @property
    def row_cost(self) -> int:
        return 4 * self.layout.n_pairs

    def vector(self, scores: Mapping[Any, Any]) -> np.ndarray:
        return _vector(self.cells, scores)

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        rows = np.atleast_2d(np.asarray(rows, dtype=np.float64))
        if rows.shape[1] != self.layout.n_cells:
            raise GecInputError(f"rows of {rows.shape[1]} scores for {self.layout.n_cells} cells")
        metric = self.layout.signs(rows)
        if self.name == "acc-eq-calibrated":
            return self._calibrated(rows, metric)
        counts = self._counts(metric)
        values = np.asarray(_formula(self.name, self.ties)(counts), dtype=np.float64)
        return values if self.grouping == "pooled" else _mean_defined(values)

    def _counts(self, metric: np.ndarray) -> tie_stats.PairCounts:
        layout = self.layout
        human = layout.human_sign
        ordered = human != 0
        tied = metric == 0
        agreement = metric * human                       # +1 concordant, -1 discordant, 0 a tie
        metric_ties = ordered & tied
        if self.ties == "seeda-script" and self.name in ("accuracy", "kendall"):
            # PairwiseAgreement's script rule: a metric tie of a human-ordered pair read as a preference
            agreement = np.where(metric_ties, layout.tie_fill, agreement)
            metric_ties = np.zeros_like(metric_ties)
        classes = (agreement > 0, agreement < 0, ~ordered & ~tied, metric_ties, ~ordered & tied)
        grouped = [layout.per_group(c) for c in classes]
        stuart = np.zeros_like(grouped[0], dtype=np.float64)
        if self.name == "kendall-c":
            k = np.minimum(layout.human_distinct, layout.distinct_metric_values(metric))
            n = layout.group_sizes.astype(np.float64)
            stuart = n * n * (k - 1) / (2 * k)           # tau_c's bound, as ties.pair_counts
        if self.grouping == "pooled":
            grouped = [g.sum(axis=1) for g in grouped]
            stuart = stuart.sum(axis=1)
        return tie_stats.PairCounts(*grouped, stuart)

    def _calibrated(self, rows: np.ndarray, metric: np.ndarray) -> np.ndarray:
        layout = self.layout
        pair_group = np.repeat(np.arange(layout.n_groups), layout.group_pairs)
        if self.grouping == "pooled":
            weights, denominator = np.ones(layout.n_groups, dtype=np.int64), layout.n_pairs
        else:
            common = math.lcm(*(int(n) for n in layout.group_pairs))
            if common * layout.n_pairs < 2 ** 53:     # exact integers (and quotient), as ties.tie_calibration
                weights, denominator = common // layout.group_pairs, common * layout.n_groups
            else:                                     # very mixed group sizes: floats (1 / N_g)
                weights, denominator = 1.0 / layout.group_pairs, layout.n_groups
        ordered = layout.human_sign != 0
        concordant = (metric * layout.human_sign) > 0
        correct = concordant | (~ordered & (metric == 0))          # C + T_hm at epsilon 0
        weight = weights[pair_group]
        base = (correct * weight).sum(axis=1)
        # a pair turning into a metric tie: C -> T_m loses 1, T_h -> T_hm gains 1, ties stay
        change = np.where(metric == 0, 0, (~ordered).astype(np.int64) - concordant) * weight
        gap = np.abs(rows[:, layout.first] - rows[:, layout.second])
        order = np.argsort(gap, axis=1, kind="stable")
        gap = np.take_along_axis(gap, order, axis=1)
        running = base[:, None] + np.cumsum(np.take_along_axis(change, order, axis=1), axis=1)
        # equal differences turn together; "equal" up to float noise (see the module docstring)
        tolerance = GAP_TOLERANCE * np.maximum(1e-300, np.abs(rows).max(axis=1, keepdims=True))
        run_end = np.ones_like(gap, dtype=bool)
        run_end[:, :-1] = gap[:, 1:] - gap[:, :-1] > tolerance
        unreachable = np.iinfo(np.int64).min if running.dtype.kind == "i" else -np.inf
        best = np.maximum(base, np.where(run_end, running, unreachable).max(axis=1))
        return best / denominator


@dataclass(frozen=True, eq=False)
class CorrelationStatistic:
    """System-level Pearson r, Spearman rho, Kendall tau-b or pairwise accuracy of each row with
    fixed human scores: :func:`~gecscore.metaeval.metric_significance.correlation_rows`."""

    name: str
    human: np.ndarray
    cells: tuple[Hashable, ...]

    @property
    def row_cost(self) -> int:
        n = self.human.size
        return max(4 * n, n * (n - 1) // 2 * 3)

    def vector(self, scores: Mapping[Any, Any]) -> np.ndarray:
        return _vector(self.cells, scores)

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        rows = np.atleast_2d(np.asarray(rows, dtype=np.float64))
        return correlation_rows(rows, np.broadcast_to(self.human, rows.shape))[self.name]


def system_statistic(name: str, human: Mapping[str, float]) -> CorrelationStatistic | PairStatistic:
    """A system-level statistic (:data:`SYSTEM_STATISTICS`) with the human scores ``{system:
    score}`` (higher is better); its cells are those systems, in that order."""
    if name not in SYSTEM_STATISTICS:
        raise GecInputError(f"unknown statistic {name!r}; expected one of: {', '.join(SYSTEM_STATISTICS)}")
    systems = tuple(human)
    values = np.array([float(human[s]) for s in systems], dtype=np.float64)
    if len(systems) < 3:
        raise GecInputError(f"a system-level statistic needs at least 3 systems, got {len(systems)}")
    if not np.isfinite(values).all():
        raise GecInputError("every human score must be a finite number")
    if name in ("pearson", "spearman"):
        return CorrelationStatistic(name, values, systems)
    if name in ("kendall", "accuracy"):   # correlation_rows' tau-b and accuracy are the pair counts'
        name = "kendall-b" if name == "kendall" else "acc-kept"
    layout = PairLayout.of_groups([(range(len(systems)), values)], len(systems))
    return PairStatistic(name, layout, systems)


def sentence_statistic(name: str, judgments: Sequence[Judgment], systems: Sequence[str], *, ties: str = "neutral",
                       grouping: str = "pooled") -> PairStatistic:
    """A sentence-level statistic (:data:`SENTENCE_STATISTICS`) over the ranking items of
    ``judgments`` restricted to ``systems`` (human score ``-rank``, as
    :func:`~gecscore.metaeval.ties.judgment_groups`); its cells are the ``(system, source)``
    pairs the items rank, so one sentence score is one cell wherever it appears."""
    cells: dict[tuple[str, int], int] = {}
    groups = []
    for judgment in judgments:
        kept = [s for s in systems if s in judgment.ranks]
        if len(kept) < 2:
            continue
        groups.append(([cells.setdefault((s, judgment.source), len(cells)) for s in kept],
                       [-float(judgment.ranks[s]) for s in kept]))
    layout = PairLayout.of_groups(groups, len(cells))
    return PairStatistic(name, layout, tuple(cells), grouping, ties)


@dataclass(frozen=True, eq=False)
class ItemCorrelationStatistic:
    """Pearson r or Spearman rho within each segment (``human``: segments x systems, cells
    segment-major), averaged over the segments where it is defined."""

    name: str
    human: np.ndarray
    cells: tuple[Hashable, ...]

    @property
    def row_cost(self) -> int:
        segments, systems = self.human.shape
        return segments * max(4 * systems, systems * (systems - 1) // 2 * 3)

    def vector(self, scores: Mapping[Any, Any]) -> np.ndarray:
        return _vector(self.cells, scores)

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        rows = np.atleast_2d(np.asarray(rows, dtype=np.float64))
        segments, systems = self.human.shape
        x = rows.reshape(rows.shape[0] * segments, systems)
        y = np.broadcast_to(self.human, (rows.shape[0], segments, systems)).reshape(x.shape)
        return _mean_defined(correlation_rows(x, y)[self.name].reshape(rows.shape[0], segments))


def segment_statistic(name: str, human: Mapping[str, Sequence[float]], *, grouping: str = "item"
                      ) -> ItemCorrelationStatistic | PairStatistic:
    """A segment-level statistic (:data:`SEGMENT_STATISTICS`) with every system's human score of
    every segment (``human[system][segment]``, higher is better). Segments where a system has no
    (NaN) human score are left out. Its cells are ``(system, segment)``, segment by segment;
    ``vector`` reads ``scores[system][segment]``. ``pearson``, ``spearman`` and ``kendall`` are
    averaged over segments (``grouping="item"`` only)."""
    if name not in SEGMENT_STATISTICS:
        raise GecInputError(f"unknown statistic {name!r}; expected one of: {', '.join(SEGMENT_STATISTICS)}")
    systems = tuple(human)
    if len(systems) < 2:
        raise GecInputError(f"a segment-level statistic needs at least 2 systems, got {len(systems)}")
    lengths = {len(human[s]) for s in systems}
    if len(lengths) != 1:
        raise GecInputError(f"the systems have human scores of different numbers of segments: {sorted(lengths)}")
    matrix = np.array([[float(v) for v in human[s]] for s in systems], dtype=np.float64).T   # segments x systems
    rated = [segment for segment in range(matrix.shape[0]) if np.isfinite(matrix[segment]).all()]
    if not rated:
        raise GecInputError("no segment has a human score of every system")
    cells = tuple((system, segment) for segment in rated for system in systems)
    if name in ("pearson", "spearman"):
        if grouping != "item":
            raise GecInputError(f"{name} is averaged over segments: grouping must be 'item', got {grouping!r}")
        return ItemCorrelationStatistic(name, matrix[rated], cells)
    n = len(systems)
    layout = PairLayout.of_groups([(range(i * n, (i + 1) * n), matrix[segment]) for i, segment in enumerate(rated)],
                                  len(cells))
    return PairStatistic("kendall-b" if name == "kendall" else name, layout, cells, grouping)
