"""Significance clusters of a leaderboard: its metric configurations ranked on each human
signal, and its systems ranked under each configuration.

**Metrics** (:func:`metric_cluster_plans`, :func:`rank_planned_metrics`). For each human signal
the board has, at each level, every pair of configurations is tested with PERM-BOTH
(:func:`gecscore.metaeval.perm_both.rank_metrics`: the one-sided p that the configuration above
is better, on z-normalised scores) and the configurations get ranks by mt-metrics-eval's
``AssignRanks`` rule (:func:`gecscore.significance.ranks.assign_ranks`), as the WMT metrics
tasks rank metrics:

- ``system``: each human ranking (``--human``), over the systems it shares with the board; the
  statistic (default Pearson r) of each configuration's system scores, the scores the board's
  correlations use;
- ``sentence``: each set of sentence-level judgments (``--sentence-judgments``), over the
  systems of the board's sentence-level table; a cell is one system's score of one source
  sentence; default pairwise accuracy with the board's tie rule, pooled over the ranking items
  (the table's Acc: equal to it);
- ``segment``: each set of segment-level human scores (GMEG-Data), over the board's systems the
  set rates; a cell is one system's score of one segment; default Pearson r within each
  segment, averaged over the segments where it is defined.

Draws (:meth:`ClusterOptions.params`): at system level the reference's parameters (``draws`` in
one block: no early stopping), so the p-values are those of docs/significance_clusters.md; at
sentence and segment level blocks of :data:`EARLY_STOPPING_BLOCK` draws with the reference's
early stopping (after a block, stop once ``p < 0.02`` or ``p > 0.5``): a pair far from ``alpha``
is decided in 100 draws. On SEEDA-S (21 configurations, 15 systems, 21,410 pairs of outputs)
that is about 12 s instead of about 2 minutes.

**Undefined cases** are named, never given a number. A configuration is left out of a ranking
(``left_out``, with the reason) when a cell has no score (a configuration without sentence
scores, a system without a score), its scores are constant over the cells (the z-normalisation
divides by zero; its correlation is undefined), or the statistic of its own scores is undefined.
A ranking is not computed (``undefined``, with the reason) when the human signal shares fewer
systems with the board than the statistic needs (3 at system level, 2 at segment level), when
no pair of outputs can be compared, or when fewer than two configurations are left.

**Systems** (:func:`system_cluster_plans`, :func:`rank_planned_systems`): per configuration
with per-sentence statistics of every system, every pair of systems by ``gecscore compare``'s
paired approximate randomisation (:func:`gecscore.significance.system_clusters.rank_systems`:
two-sided p, ``draws`` trials, seeded) and the same ranks, as the human-evaluation rankings of
the shared tasks present systems. The score tested is the configuration's own
(``statistic(mean of the sentence statistics)``), also where ``--aggregation`` replaced the
board's system score.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.metaeval.draw_statistics import (SEGMENT_STATISTICS, SENTENCE_STATISTICS, SYSTEM_STATISTICS,
                                               DrawStatistic, segment_statistic, sentence_statistic, system_statistic)
from gecscore.metaeval.perm_both import PermBothParams, rank_metrics
from gecscore.metaeval.ties import GROUPINGS
from gecscore.significance.ranks import ALPHA, Ranking, check_alpha
from gecscore.significance.system_clusters import rank_systems

if TYPE_CHECKING:
    from gecscore.leaderboard.board import Leaderboard
    from gecscore.metaeval.human_segments import SegmentScores
    from gecscore.metaeval.sentence_level import Judgment

SYSTEM_LEVEL, SENTENCE_LEVEL, SEGMENT_LEVEL = "system", "sentence", "segment"
LEVELS = (SYSTEM_LEVEL, SENTENCE_LEVEL, SEGMENT_LEVEL)
#: draws per block at sentence and segment level (early stopping is checked after each block)
EARLY_STOPPING_BLOCK = 100
#: the fewest systems a system-level statistic (a correlation over systems) is defined on
MIN_SYSTEMS = 3
#: the test of the system clusters (``gecscore compare``'s)
SYSTEM_ALTERNATIVE = "two-sided"


@dataclass(frozen=True)
class ClusterOptions:
    """What the clusters of a leaderboard run take: ``draws`` (PERM-BOTH draws per pair of
    configurations, randomisation trials per pair of systems), ``alpha`` (the significance
    level of the ranks), ``seed``, the statistic of each level, the grouping of the
    sentence-level ranking items (``pooled``: counts summed over the items; ``item``: the mean
    over items) and whether to rank the systems under each configuration too."""

    draws: int = 1000
    alpha: float = ALPHA
    seed: int = 0
    system_statistic: str = "pearson"
    sentence_statistic: str = "accuracy"
    grouping: str = "pooled"
    segment_statistic: str = "pearson"
    systems: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.draws, bool) or not isinstance(self.draws, int) or self.draws < 1:
            raise GecInputError(f"the number of draws of the clusters must be a positive integer, got {self.draws!r}")
        check_alpha(self.alpha)
        for name, known in ((self.system_statistic, SYSTEM_STATISTICS), (self.sentence_statistic, SENTENCE_STATISTICS),
                            (self.segment_statistic, SEGMENT_STATISTICS)):
            if name not in known:
                raise GecInputError(f"unknown statistic {name!r}; expected one of: {', '.join(known)}")
        if self.grouping not in GROUPINGS:
            raise GecInputError(f"grouping must be one of {', '.join(GROUPINGS)}, got {self.grouping!r}")

    def params(self, level: str) -> PermBothParams:
        """PERM-BOTH's parameters at ``level`` (module docstring)."""
        if level == SYSTEM_LEVEL:
            return PermBothParams.without_early_stopping(self.draws, self.seed)
        return PermBothParams(k=self.draws, seed=self.seed, block_size=min(EARLY_STOPPING_BLOCK, self.draws))

    def statistic(self, level: str) -> str:
        return {SYSTEM_LEVEL: self.system_statistic, SENTENCE_LEVEL: self.sentence_statistic,
                SEGMENT_LEVEL: self.segment_statistic}[level]

    def as_dict(self) -> dict:
        return {"draws": self.draws, "alpha": self.alpha, "seed": self.seed,
                "statistics": {level: self.statistic(level) for level in LEVELS}, "grouping": self.grouping,
                "tests": {level: self.params(level).signature() for level in LEVELS}, "systems": self.systems}


@dataclass(frozen=True)
class MetricClusters:
    """The configurations ranked on one human signal at one level: ``ranking`` (None, with the
    reason in ``undefined``, when it could not be computed), the configurations ``left_out``
    with the reason, the ``systems`` and the number of ``cells`` (systems, or outputs of
    sentences) the statistic reads; ``settings`` of a sentence-level statistic (ties, grouping)."""

    level: str
    human: str
    statistic: str
    systems: tuple[str, ...]
    cells: int
    ranking: Ranking | None
    left_out: Mapping[str, str] = field(default_factory=dict)
    undefined: str | None = None
    settings: Mapping[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict:
        out: dict[str, Any] = {"level": self.level, "human": self.human, "statistic": self.statistic,
                               **self.settings, "systems": list(self.systems), "cells": self.cells}
        if self.ranking is not None:
            out.update(self.ranking.as_dict())
        else:
            out["undefined"] = self.undefined
        out["left_out"] = dict(self.left_out)
        return out


@dataclass(frozen=True, eq=False)
class MetricClusterPlan:
    """One ranking to compute: the statistic and each configuration's score vector in the
    statistic's cell order (or ``undefined``, the reason none is computed)."""

    level: str
    human: str
    statistic_name: str
    systems: tuple[str, ...]
    statistic: DrawStatistic | None
    vectors: Mapping[str, np.ndarray]
    left_out: Mapping[str, str]
    undefined: str | None = None
    settings: Mapping[str, str] = field(default_factory=dict)

    @property
    def pairs(self) -> int:
        return 0 if self.undefined else len(self.vectors) * (len(self.vectors) - 1) // 2

    def result(self, ranking: Ranking | None) -> MetricClusters:
        cells = len(self.statistic.cells) if self.statistic is not None else 0
        return MetricClusters(self.level, self.human, self.statistic_name, self.systems, cells, ranking,
                              dict(self.left_out), self.undefined, dict(self.settings))


def _plan(level: str, human: str, name: str, systems: Sequence[str], make: Callable[[], DrawStatistic],
          columns: Mapping[str, Mapping[Any, Any] | None], *, missing: str, cell: str,
          settings: Mapping[str, str] | None = None) -> MetricClusterPlan:
    """The plan of one ranking: the statistic (``make``; a GecInputError is the ranking's
    ``undefined`` reason), the configurations whose scores it is defined on, the others with
    the reason (``missing``: why a configuration given as None has no scores; ``cell``: what a
    cell is, for the sentence saying the scores are constant)."""
    settings = dict(settings or {})
    try:
        statistic = make()
    except GecInputError as error:
        return MetricClusterPlan(level, human, name, tuple(systems), None, {}, {}, str(error.args[0]), settings)
    vectors: dict[str, np.ndarray] = {}
    left_out: dict[str, str] = {}
    for config, scores in columns.items():
        if scores is None:
            left_out[config] = missing
            continue
        try:
            vector = statistic.vector(scores)
        except GecInputError:
            left_out[config] = f"some {cell} has no score (or not a finite one)"
            continue
        if vector.min() == vector.max():
            left_out[config] = f"constant scores (every {cell} scores {vector[0]:.4f}): nothing to correlate"
            continue
        if math.isnan(float(statistic(vector[None, :])[0])):
            left_out[config] = f"its {name} is undefined on its scores"
            continue
        vectors[config] = vector
    undefined = None
    if len(vectors) < 2:
        undefined = (f"fewer than two configurations to compare ({len(vectors)} with defined scores of "
                     f"{len(columns)})")
    return MetricClusterPlan(level, human, name, tuple(systems), statistic, vectors, left_out, undefined, settings)


def _undefined(level: str, human: str, name: str, systems: Sequence[str], reason: str,
               settings: Mapping[str, str] | None = None) -> MetricClusterPlan:
    return MetricClusterPlan(level, human, name, tuple(systems), None, {}, {}, reason, dict(settings or {}))


def system_level_plans(board: Leaderboard, options: ClusterOptions) -> list[MetricClusterPlan]:
    """One plan per human ranking of the board, over the systems it shares with the board."""
    plans = []
    name = options.system_statistic
    columns = {c.name: board.column(c.name) for c in board.configs}
    for human, ranking in board.human.items():
        shared = [s for s in ranking.systems if s in board.systems]
        if len(shared) < MIN_SYSTEMS:
            plans.append(_undefined(SYSTEM_LEVEL, human, name, shared,
                                    f"not run: a system-level {name} needs at least {MIN_SYSTEMS} systems and {human} "
                                    f"ranks {len(shared)} of this board's systems"))
            continue
        plans.append(_plan(SYSTEM_LEVEL, human, name, shared,
                           lambda: system_statistic(name, {s: ranking.scores[s] for s in shared}),
                           columns, missing="no score", cell="system"))
    return plans


def sentence_level_plans(board: Leaderboard, options: ClusterOptions, judgments: Mapping[str, Sequence[Judgment]],
                         positions: Sequence[int], only: Sequence[str] | None = None) -> list[MetricClusterPlan]:
    """One plan per set of judgments, over the systems of the board's sentence-level table
    (:func:`~gecscore.leaderboard.analyses.sentence_agreements`: the board's, or ``only``,
    alphabetical) and the judgments of the sentences the board scored (``positions``: each
    scored sentence's index in the full set)."""
    systems = sorted(board.systems if only is None else only)
    name = options.sentence_statistic
    settings = {"ties": board.sentence_ties, "grouping": options.grouping}
    columns: dict[str, dict[str, dict[int, float]] | None] = {}
    for config in board.configs:
        cells = [board.scores[s][config.name].sentence_scores for s in systems]
        columns[config.name] = (None if any(c is None for c in cells)
                                else {s: dict(zip(positions, c)) for s, c in zip(systems, cells)})
    covered = set(positions)
    plans = []
    for human, items in judgments.items():
        kept = [j for j in items if j.source in covered]
        plans.append(_plan(SENTENCE_LEVEL, human, name, systems,
                           lambda: sentence_statistic(name, kept, systems, ties=board.sentence_ties,
                                                      grouping=options.grouping),
                           columns, missing="no sentence scores", cell="output", settings=settings))
    return plans


def segment_level_plans(board: Leaderboard, options: ClusterOptions, segments: Mapping[str, SegmentScores]
                        ) -> list[MetricClusterPlan]:
    """One plan per set of segment-level human scores, over the board's systems it rates; the
    board must score exactly its segments (sentence ``i`` of the board is segment ``i``)."""
    name = options.segment_statistic
    settings = {"grouping": "item"}
    plans = []
    for human, scores in segments.items():
        systems = [s for s in scores.systems if s in board.systems]
        if scores.n_segments != board.n_sentences:
            plans.append(_undefined(SEGMENT_LEVEL, human, name, systems,
                                    f"not run: {human} rates {scores.n_segments} segments and this board scores "
                                    f"{board.n_sentences} sentences", settings))
            continue
        columns: dict[str, dict[str, tuple[float, ...]] | None] = {}
        for config in board.configs:
            cells = [board.scores[s][config.name].sentence_scores for s in systems]
            columns[config.name] = None if any(c is None for c in cells) else dict(zip(systems, cells))
        plans.append(_plan(SEGMENT_LEVEL, human, name, systems,
                           lambda: segment_statistic(name, {s: scores.of(s) for s in systems}, grouping="item"),
                           columns, missing="no sentence scores", cell="output", settings=settings))
    return plans


def rank_planned_metrics(plans: Sequence[MetricClusterPlan], options: ClusterOptions,
                         on_pair: Callable[[], object] | None = None) -> dict[str, dict[str, MetricClusters]]:
    """Each plan's ranking (``{level: {human: MetricClusters}}``); ``on_pair`` after each pair."""
    out: dict[str, dict[str, MetricClusters]] = {}
    for plan in plans:
        ranking = None
        if plan.undefined is None:
            ranking = rank_metrics(plan.vectors, plan.statistic, params=options.params(plan.level),
                                   alpha=options.alpha, on_pair=on_pair)
        out.setdefault(plan.level, {})[plan.human] = plan.result(ranking)
    return out


@dataclass(frozen=True)
class SystemClusterPlan:
    """The systems of each configuration to rank (``{config: {system: (statistics,
    statistic)}}``) and the configurations left out, with the reason."""

    systems: Mapping[str, Mapping[str, tuple[np.ndarray, Callable[[np.ndarray], float]]]]
    left_out: Mapping[str, str]
    undefined: str | None = None

    @property
    def pairs(self) -> int:
        return sum(len(s) * (len(s) - 1) // 2 for s in self.systems.values())


def system_cluster_plans(board: Leaderboard) -> SystemClusterPlan:
    """Every configuration whose cells have per-sentence statistics for every system, when the
    board has at least two systems."""
    systems: dict[str, dict] = {}
    left_out: dict[str, str] = {}
    if len(board.systems) < 2:
        return SystemClusterPlan({}, {}, f"not run: ranking systems needs at least two and this board has "
                                         f"{len(board.systems)}")
    for config in board.configs:
        cells = {s: board.scores[s][config.name] for s in board.systems}
        if not all(cell.has_sentence_stats for cell in cells.values()):
            left_out[config.name] = "no per-sentence statistics to randomise (a corpus-only score)"
        else:
            stats = {s: (cell.sentence_stats, cell.statistic) for s, cell in cells.items()}
            scores = [float(statistic(np.asarray(matrix, dtype=np.float64).mean(axis=0)))
                      for matrix, statistic in stats.values()]
            if any(math.isnan(v) for v in scores):
                left_out[config.name] = "some system's score is undefined"
            else:
                systems[config.name] = stats
    return SystemClusterPlan(systems, left_out)


def rank_planned_systems(plan: SystemClusterPlan, options: ClusterOptions,
                         on_pair: Callable[[], object] | None = None) -> dict[str, Ranking]:
    """Each configuration's systems ranked (``{config: Ranking}``); ``on_pair`` after each pair."""
    return {config: rank_systems(stats, trials=options.draws, seed=options.seed, alpha=options.alpha,
                                 alternative=SYSTEM_ALTERNATIVE, on_pair=on_pair)
            for config, stats in plan.systems.items()}


def system_cluster_test(options: ClusterOptions) -> str:
    """The test behind the system clusters, as the JSON and the page name it."""
    return f"paired approximate randomisation ({SYSTEM_ALTERNATIVE} p, {options.draws} trials, seed {options.seed})"


def notes(metric_clusters: Mapping[str, Mapping[str, MetricClusters]], systems: SystemClusterPlan | None = None
          ) -> list[str]:
    """One sentence per undefined case of the clusters (stderr prints them as notes); a
    configuration without the level's scores (no sentence scores, a corpus-only score) is named
    in the section, not here."""
    out = []
    for level, by_human in metric_clusters.items():
        for human, result in by_human.items():
            where = f"metric clusters on {human} ({level} level)"
            if result.undefined:
                out.append(f"{where}: {result.undefined}")
            out += [f"{where}: `{config}` left out: {reason}" for config, reason in result.left_out.items()
                    if not reason.startswith("no sentence scores")]
    if systems is not None:
        if systems.undefined:
            out.append(f"system clusters: {systems.undefined}")
        out += [f"system clusters: `{config}` left out: {reason}" for config, reason in systems.left_out.items()
                if not reason.startswith("no per-sentence statistics")]
    return out
