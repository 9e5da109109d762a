"""A leaderboard: every system scored with every requested metric configuration
(:func:`run_leaderboard`), the cells in a :class:`Leaderboard`, and their meta-evaluation
against human rankings when asked.

The configurations are resolved once (:mod:`~gecscore.leaderboard.specs`,
:mod:`~gecscore.leaderboard.configurations`); the cells are read from the cache or scored by an
executor the caller chooses (:mod:`~gecscore.leaderboard.scoring`,
:mod:`~gecscore.leaderboard.executor`: this process by default; local worker processes or a
Dask cluster are :mod:`~gecscore.leaderboard.processes` and
:mod:`~gecscore.leaderboard.dask_cluster`, which this module does not import); the statistics
are :mod:`~gecscore.leaderboard.analyses`'.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from gecscore.benchdata.refsets import RefSet
from gecscore.errors import GecInputError
from gecscore.leaderboard.analyses import (SegmentAgreement, aggregate_scores, baseline_comparisons,
                                           board_metric_significance, segment_agreements, sentence_agreements,
                                           undefined_statistics)
from gecscore.leaderboard.clusters import ClusterOptions, MetricClusters
from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.executor import Executor, InProcess
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.scoring import score_systems
from gecscore.leaderboard.specs import resolve
from gecscore.leaderboard.system_scores import SystemScore
from gecscore.leaderboard.systems import SystemSource
from gecscore.metaeval.correlation import Correlation, correlate
from gecscore.metaeval.human import HumanScores
from gecscore.metaeval.human_segments import SegmentScores
from gecscore.metaeval.metric_significance import MetricSignificance
from gecscore.metaeval.sentence_level import Judgment, PairwiseAgreement, Window, window_analysis
from gecscore.metaeval.system_pairs import PairwiseSystems, pairwise_systems
from gecscore.significance.bootstrap import BootstrapResult, paired_bootstrap
from gecscore.significance.comparison import Comparison, SignificanceConfig
from gecscore.significance.ranks import Ranking


@dataclass
class Leaderboard:
    refset: str
    refset_options: dict[str, str]
    n_sentences: int
    configs: list[Configuration]
    systems: list[str]
    scores: dict[str, dict[str, SystemScore]]
    unavailable: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    wall_seconds: float = 0.0
    human: dict[str, HumanScores] = field(default_factory=dict)
    correlations: dict[str, dict[str, Correlation]] = field(default_factory=dict)
    bootstrap: dict[str, BootstrapResult] = field(default_factory=dict)
    bootstrap_options: dict[str, float] = field(default_factory=dict)
    # config -> judgments name -> agreement of its sentence scores with the human pairs
    sentence_level: dict[str, dict[str, PairwiseAgreement]] = field(default_factory=dict)
    sentence_ties: str = "neutral"
    # config -> human ranking -> SEEDA's window analysis (windows of consecutive human ranks)
    windows: dict[str, dict[str, list[Window]]] = field(default_factory=dict)
    # config -> each system against the baseline (paired bootstrap and approximate randomisation)
    significance: dict[str, list[Comparison]] = field(default_factory=dict)
    significance_options: dict[str, object] = field(default_factory=dict)
    # how system scores were made from sentence scores (AGGREGATIONS) and which configs it changed
    aggregation: str = "mean"
    aggregated: list[str] = field(default_factory=list)
    # config -> human ranking -> the system pairs the metric orders as the humans do or not
    pairwise: dict[str, dict[str, PairwiseSystems]] = field(default_factory=dict)
    # human ranking -> Williams' test between every pair of configurations, their clusters and,
    # with a bootstrap, intervals of each one's correlations (gecscore.metaeval.metric_significance)
    metric_significance: dict[str, MetricSignificance] = field(default_factory=dict)
    # statistics that could not be computed, one sentence each (constant scores, too few systems)
    undefined_statistics: list[str] = field(default_factory=list)
    # config -> segment-level human set (GMEG) -> soft pairwise accuracy and item-grouped correlations
    segment_level: dict[str, dict[str, SegmentAgreement]] = field(default_factory=dict)
    # significance clusters (gecscore.leaderboard.clusters): the options they ran with (None: not
    # asked); level -> human signal -> the configurations ranked by PERM-BOTH; config -> its
    # systems ranked by paired randomisation, and the configurations left out, with the reason
    cluster_options: ClusterOptions | None = None
    metric_clusters: dict[str, dict[str, MetricClusters]] = field(default_factory=dict)
    system_clusters: dict[str, Ranking] = field(default_factory=dict)
    system_clusters_left_out: dict[str, str] = field(default_factory=dict)
    # what the clusters and the segment level could not compute, one sentence each
    cluster_notes: list[str] = field(default_factory=list)

    def column(self, config: str) -> dict[str, float]:
        """``{system: score}`` for one configuration."""
        return {system: self.scores[system][config].score for system in self.systems}

    def as_dict(self) -> dict:
        out = {
            "refset": self.refset, "refset_options": self.refset_options, "n_sentences": self.n_sentences,
            "configs": {c.name: {"family": c.family, "description": c.description,
                                 "signature": self.scores[self.systems[0]][c.name].signature if self.systems else ""}
                        for c in self.configs},
            "unavailable": self.unavailable,
            "systems": {s: {c.name: {**self.scores[s][c.name].details, "score": self.scores[s][c.name].score}
                            for c in self.configs} for s in self.systems},
            "seconds": {"wall": self.wall_seconds, "per_system": self.seconds},
            "aggregation": {"method": self.aggregation, "configs": self.aggregated},
        }
        if self.human:
            out["human"] = {name: h.scores for name, h in self.human.items()}
            out["correlations"] = {c: {h: corr.as_dict() for h, corr in by_h.items()}
                                   for c, by_h in self.correlations.items()}
            out["pairwise_systems"] = {c: {h: p.as_dict() for h, p in by_h.items()}
                                       for c, by_h in self.pairwise.items()}
            if self.metric_significance:
                out["metric_significance"] = {h: m.as_dict() for h, m in self.metric_significance.items()}
            out["undefined_statistics"] = list(self.undefined_statistics)
        if self.bootstrap:
            out["bootstrap"] = {"options": self.bootstrap_options, "configs": {
                c: {"intervals": {s: i.as_dict() for s, i in b.intervals.items()},
                    "differences": [d.as_dict() for d in b.differences]}
                for c, b in self.bootstrap.items()}}
        if self.sentence_level:
            out["sentence_level"] = {"ties": self.sentence_ties, "configs": {
                c: {name: agreement.as_dict() for name, agreement in by_name.items()}
                for c, by_name in self.sentence_level.items()}}
        if self.windows:
            out["windows"] = {c: {h: [w.as_dict() for w in ws] for h, ws in by_h.items()}
                              for c, by_h in self.windows.items()}
        if self.significance:
            out["significance"] = {"options": self.significance_options, "configs": {
                c: [comparison.as_dict() for comparison in comparisons]
                for c, comparisons in self.significance.items()}}
        out.update(self.clusters_dict())
        return out

    def clusters_dict(self) -> dict:
        """The JSON sections of the segment level and the clusters, those the run has:
        ``segment_level`` ``{"configs": {config: {human: {"spa": ..., "item": ...}}}}``;
        ``metric_clusters`` ``{"options": ..., level: {human: MetricClusters.as_dict()}}``;
        ``system_clusters`` ``{"options": ..., "configs": {config: Ranking.as_dict()},
        "left_out": {config: reason}}``; ``cluster_notes`` (what could not be computed)."""
        out: dict = {}
        if self.segment_level:
            out["segment_level"] = {"configs": {c: {h: a.as_dict() for h, a in by_h.items()}
                                                for c, by_h in self.segment_level.items()}}
        options = self.cluster_options
        if options is not None and self.metric_clusters:
            out["metric_clusters"] = {"options": options.as_dict(), **{
                level: {h: m.as_dict() for h, m in by_h.items()} for level, by_h in self.metric_clusters.items()}}
        if options is not None and options.systems:
            from gecscore.leaderboard.clusters import system_cluster_test

            out["system_clusters"] = {
                "options": {"trials": options.draws, "alpha": options.alpha, "seed": options.seed,
                            "test": system_cluster_test(options)},
                "configs": {c: r.as_dict() for c, r in self.system_clusters.items()},
                "left_out": dict(self.system_clusters_left_out)}
        if self.cluster_notes:
            out["cluster_notes"] = list(self.cluster_notes)
        return out


def judge_description(run: RunWide) -> str:
    """``backend:model@url`` for summaries, with any credentials in the URL masked."""
    from gecscore.judge.backends import redact_url

    judge = run.judge
    url = redact_url(judge["base_url"]) if judge.get("base_url") else None
    return f"{judge.get('backend') or 'openai'}:{judge.get('model')}@{url}"


def run_leaderboard(refset: RefSet, systems: Sequence[SystemSource], metrics: Sequence[str] | None = None, *,
                    human: Mapping[str, HumanScores] | None = None, executor: Executor | None = None,
                    bootstrap: int = 0, seed: int = 0, confidence: float = 0.95, progress: bool = True,
                    options: RunWide | None = None,
                    judgments: Mapping[str, Sequence[Judgment]] | None = None, ties: str = "neutral",
                    baseline: str | None = None, significance: SignificanceConfig | None = None,
                    window: int = 0, aggregation: str = "mean",
                    sentence_systems: Sequence[str] | None = None, alpha: float = 0.05,
                    clusters: ClusterOptions | None = None, segments: Mapping[str, SegmentScores] | None = None
                    ) -> Leaderboard:
    """Score ``systems`` with the configurations matching ``metrics`` (all available if None)
    on ``executor`` (default :class:`~gecscore.leaderboard.executor.InProcess`; the cells of
    earlier runs are read from the cache, :mod:`~gecscore.leaderboard.scoring`); correlate with
    ``human`` rankings and bootstrap if asked. ``options``: the run-wide options (the
    similarity model, resolved here once, and the judge) that configurations take where they
    apply.

    ``judgments`` (name -> sentence-level human rankings, e.g. SEEDA-S and SEEDA-E): pairwise
    accuracy and Kendall's tau of each configuration's sentence scores over the scored systems,
    or ``sentence_systems`` only (:func:`~gecscore.leaderboard.analyses.sentence_agreements`).
    ``baseline``: every other system against it, per configuration, with paired bootstrap and
    approximate randomisation (``significance`` sets samples and seed). ``window`` (with
    ``human``): SEEDA's window analysis. ``aggregation``
    (:data:`~gecscore.leaderboard.analyses.AGGREGATIONS`): ``mean`` keeps each configuration's
    own system score; ``trueskill`` / ``expected-wins`` replace it, for configurations with
    sentence scores, before the correlations. With ``human``, Williams' test between every pair
    of configurations and their significance clusters (``alpha``) per ranking of at least 4
    systems, with ``bootstrap`` also intervals of each one's correlations
    (:mod:`~gecscore.leaderboard.analyses`).

    ``segments`` and ``clusters``: :func:`segment_level_and_clusters` (None: neither)."""
    run = options or RunWide()
    configs, unavailable = resolve(metrics, run)
    run, configs = with_similarity_model(run, configs)
    if not configs:
        raise GecInputError("none of the requested metric configurations is available: "
                            + "; ".join(f"{k}: {v}" for k, v in unavailable.items()))
    if not systems:
        raise GecInputError("no systems to score")
    started = time.perf_counter()
    scores, seconds = score_systems(refset, systems, configs, executor or InProcess(), progress, run)
    board = Leaderboard(refset.name, run_options(refset, configs, run), len(refset), configs,
                        [s.name for s in systems], scores, unavailable, seconds)
    aggregate_scores(board, aggregation)
    if human:
        correlate_with_humans(board, human, window, bootstrap=bootstrap, seed=seed, confidence=confidence,
                              alpha=alpha)
    if bootstrap:
        bootstrap_systems(board, bootstrap, seed, confidence)
    if judgments:
        board.sentence_ties = ties
        board.sentence_level = sentence_agreements(board, refset, judgments, ties, sentence_systems)
    if baseline is not None:
        compare_with_baseline(board, baseline, significance or SignificanceConfig(seed=seed))
    segment_level_and_clusters(board, refset, segments, clusters, judgments, sentence_systems, progress)
    board.wall_seconds = time.perf_counter() - started
    return board


def segment_level_and_clusters(board: Leaderboard, refset: RefSet, segments: Mapping[str, SegmentScores] | None,
                               clusters: ClusterOptions | None, judgments: Mapping[str, Sequence[Judgment]] | None,
                               sentence_systems: Sequence[str] | None, progress: bool) -> None:
    """``segments`` (name -> segment-level human scores, GMEG-Data's): each configuration's soft
    pairwise accuracy and item-grouped segment correlations
    (:func:`~gecscore.leaderboard.analyses.segment_agreements`). ``clusters``: the configurations
    ranked in significance clusters on each human signal the board has (its human rankings,
    ``judgments`` over ``sentence_systems``, ``segments``) and, with ``clusters.systems``, the
    systems under each configuration (:func:`rank_in_clusters`)."""
    if segments:
        board.segment_level, board.cluster_notes = segment_agreements(board, segments)
    if clusters is not None:
        positions = refset.indices if refset.indices is not None else range(board.n_sentences)
        rank_in_clusters(board, clusters, judgments=judgments, positions=positions, sentence_systems=sentence_systems,
                         segments=segments, progress=progress)


def rank_in_clusters(board: Leaderboard, options: ClusterOptions, *,
                     judgments: Mapping[str, Sequence[Judgment]] | None = None, positions: Sequence[int] = (),
                     sentence_systems: Sequence[str] | None = None,
                     segments: Mapping[str, SegmentScores] | None = None, progress: bool = True) -> None:
    """The significance clusters of :mod:`~gecscore.leaderboard.clusters` on ``board``: its
    configurations on each human ranking of the board (system level), each set of
    ``judgments`` (sentence level, over ``sentence_systems`` or every system, the sentences at
    ``positions``) and each set of ``segments``; with ``options.systems`` its systems under each
    configuration. One progress bar counts the pairs tested."""
    from gecscore.leaderboard import clusters
    from gecscore.progress import bar

    plans = clusters.system_level_plans(board, options)
    if judgments:
        plans += clusters.sentence_level_plans(board, options, judgments, list(positions), sentence_systems)
    if segments:
        plans += clusters.segment_level_plans(board, options, segments)
    systems = clusters.system_cluster_plans(board) if options.systems else None
    total = sum(plan.pairs for plan in plans) + (systems.pairs if systems is not None else 0)
    board.cluster_options = options
    what = f"{len(plans)} rankings of configurations" + (
        f", systems under {len(systems.systems)} configurations" if systems is not None else "")
    with bar(total=total, desc="significance clusters", unit="pairs", requested=progress, heartbeat=True,
             start=f"{what}: {total} pairs, at most {options.draws} draws each") as progress_bar:
        step = lambda: progress_bar.update(1)
        board.metric_clusters = clusters.rank_planned_metrics(plans, options, on_pair=step)
        if systems is not None:
            board.system_clusters = clusters.rank_planned_systems(systems, options, on_pair=step)
            board.system_clusters_left_out = dict(systems.left_out)
    board.cluster_notes = board.cluster_notes + clusters.notes(board.metric_clusters, systems)


def with_similarity_model(run: RunWide, configs: list[Configuration]) -> tuple[RunWide, list[Configuration]]:
    """The run with its BERTScore model chosen once (:func:`~gecscore.leaderboard.run_wide.
    similarity_model`) when a configuration weighs with one and names none, and the
    configurations under it."""
    if any(c.needs == "similarity" and "model" not in c.option_dict for c in configs) and not run.similarity.get("model"):
        from gecscore.leaderboard.run_wide import similarity_model

        run = replace(run, similarity={**run.similarity, "model": similarity_model(run)})
        configs = [c.for_run(run) for c in configs]
    return run, configs


def run_options(refset: RefSet, configs: Sequence[Configuration], run: RunWide) -> dict[str, str]:
    """The options the page names once: the reference set's, the similarity model, the judge."""
    out = dict(refset.options)
    if any(c.needs == "similarity" for c in configs):
        out["similarity_model"] = run.similarity.get("model")
    if run.has_judge and any(c.needs == "judge" for c in configs):
        out["judge"] = judge_description(run)   # a configuration's own judge is in its signature
    return out


def correlate_with_humans(board: Leaderboard, human: Mapping[str, HumanScores], window: int, *,
                          bootstrap: int, seed: int, confidence: float, alpha: float = 0.05) -> None:
    """Each configuration's correlations, system pairs and (with ``window``) SEEDA's window
    analysis on each human ranking; Williams' test between configurations; what could not be
    computed."""
    board.human = dict(human)
    for config in board.configs:
        column = board.column(config.name)
        board.correlations[config.name] = {name: correlate(column, ranking) for name, ranking in human.items()}
        board.pairwise[config.name] = {name: pairwise_systems(column, ranking) for name, ranking in human.items()}
        if window:
            board.windows[config.name] = {
                name: window_analysis({s: ranking.scores[s] for s in ranking.systems}, column, window)
                for name, ranking in human.items() if len(ranking.systems) >= window}
    board.metric_significance = board_metric_significance(board, bootstrap=bootstrap, seed=seed,
                                                          confidence=confidence, alpha=alpha)
    board.undefined_statistics = undefined_statistics(board)


def bootstrap_systems(board: Leaderboard, resamples: int, seed: int, confidence: float) -> None:
    """The paired bootstrap of each configuration's system scores over sentences."""
    board.bootstrap_options = {"resamples": resamples, "seed": seed, "confidence": confidence}
    for config in board.configs:
        cells = {s: board.scores[s][config.name] for s in board.systems}
        per_system = {s: (cell.sentence_stats, cell.statistic) for s, cell in cells.items()
                      if cell.statistic is not None}
        board.bootstrap[config.name] = paired_bootstrap(per_system, n_resamples=resamples, seed=seed,
                                                        confidence=confidence)


def compare_with_baseline(board: Leaderboard, baseline: str, significance: SignificanceConfig) -> None:
    """Every other system against ``baseline`` (:func:`~gecscore.leaderboard.analyses.baseline_comparisons`)."""
    board.significance_options = {"baseline": baseline, "bootstrap": significance.bootstrap,
                                  "randomisation": significance.randomisation, "seed": significance.seed,
                                  "confidence": significance.confidence}
    board.significance = baseline_comparisons(board, baseline, significance)
