"""The meta-evaluation of a leaderboard's scores: the statistics of :mod:`gecscore.metaeval` and
:mod:`gecscore.significance` applied to a :class:`~gecscore.leaderboard.board.Leaderboard`'s
cells (aggregation of sentence scores, sentence-level agreement, comparisons with a baseline,
Williams' test between configurations, and what could not be computed)."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from gecscore.benchdata.refsets import RefSet
from gecscore.errors import GecInputError
from gecscore.metaeval.metric_significance import MIN_SYSTEMS, MetricSignificance, compare_metrics
from gecscore.metaeval.sentence_level import Judgment, PairwiseAgreement, pairwise_agreement
from gecscore.significance.comparison import Comparison, SignificanceConfig, compare_stats

if TYPE_CHECKING:
    from gecscore.leaderboard.board import Leaderboard
    from gecscore.metaeval.human_segments import SegmentScores
    from gecscore.metaeval.segment_correlation import ItemCorrelations
    from gecscore.metaeval.soft_pairwise import SoftPairwiseAccuracy


def sentence_agreements(board: Leaderboard, refset: RefSet, judgments: Mapping[str, Sequence[Judgment]],
                        ties: str = "neutral", only: Sequence[str] | None = None
                        ) -> dict[str, dict[str, PairwiseAgreement]]:
    """Per configuration with sentence scores: its agreement with each set of judgments over the
    board's systems, or those of ``only`` (alphabetical: the tie order of ``ties="seeda-script"``)."""
    positions = refset.indices if refset.indices is not None else range(board.n_sentences)
    if only is not None:
        missing = sorted(set(only) - set(board.systems))
        if missing:
            raise GecInputError(f"sentence-level system(s) not scored: {', '.join(missing)}")
    systems = sorted(board.systems if only is None else only)
    out: dict[str, dict[str, PairwiseAgreement]] = {}
    for config in board.configs:
        cells = [board.scores[s][config.name].sentence_scores for s in systems]
        if any(c is None for c in cells):
            continue
        scores = {s: dict(zip(positions, c)) for s, c in zip(systems, cells)}
        covered = set(positions)
        out[config.name] = {name: pairwise_agreement([j for j in items if j.source in covered], scores, systems, ties)
                            for name, items in judgments.items()}
    return out


def baseline_comparisons(board: Leaderboard, baseline: str, config: SignificanceConfig
                         ) -> dict[str, list[Comparison]]:
    """Per configuration with sentence statistics: every other system against ``baseline``."""
    if baseline not in board.systems:
        raise GecInputError(f"baseline {baseline!r} is not among the scored systems ({', '.join(board.systems)})")
    out: dict[str, list[Comparison]] = {}
    for metric in board.configs:
        base = board.scores[baseline][metric.name]
        if not base.has_sentence_stats:
            continue
        comparisons = []
        for system in board.systems:
            cell = board.scores[system][metric.name]
            if system == baseline or not cell.has_sentence_stats:
                continue
            comparisons.append(compare_stats(base.sentence_stats, cell.sentence_stats, base.statistic,
                                             cell.statistic, config=config, names=(baseline, system)))
        out[metric.name] = comparisons
    return out


#: ``mean``: each configuration's own system score (a corpus score, or the mean of sentence
#: scores); the others aggregate sentence-level comparisons (Goto et al. 2025)
AGGREGATIONS = ("mean", "trueskill", "expected-wins")


def aggregate_scores(board: Leaderboard, method: str = "mean") -> list[str]:
    """Make each system score of a configuration with sentence scores the ``method``
    aggregation of them, so the correlations, windows, tables and plots rank systems the way
    the humans' pairwise judgments are aggregated; the configuration's own score stays in the
    details as ``corpus_score``. Systems enter in name order (TrueSkill's updates are
    sequential, so one fixed order keeps runs comparable). Returns (and records on the board)
    the configurations changed."""
    from gecscore.metaeval.trueskill_aggregate import expected_wins_aggregate, trueskill_aggregate

    if method not in AGGREGATIONS:
        raise GecInputError(f"unknown aggregation {method!r}; expected one of: {', '.join(AGGREGATIONS)}")
    board.aggregation = method
    board.aggregated = []
    if method == "mean" or len(board.systems) < 2:
        return board.aggregated
    aggregate = trueskill_aggregate if method == "trueskill" else expected_wins_aggregate
    for config in board.configs:
        cells = {s: board.scores[s][config.name] for s in sorted(board.systems)}
        if any(cell.sentence_scores is None for cell in cells.values()):
            continue
        values = aggregate({s: cell.sentence_scores for s, cell in cells.items()})
        for system, cell in cells.items():
            board.scores[system][config.name] = dataclasses.replace(
                cell, score=values[system], details={**cell.details, "corpus_score": cell.score})
        board.aggregated.append(config.name)
    return board.aggregated


def board_metric_significance(board: Leaderboard, *, alpha: float = 0.05, alternative: str = "one-sided",
                              bootstrap: int = 0, seed: int = 0, confidence: float = 0.95
                              ) -> dict[str, MetricSignificance]:
    """:func:`compare_metrics` of a :class:`~gecscore.leaderboard.board.Leaderboard`'s
    configurations on each of its human rankings with at least 4 systems, by default with the
    one-sided p that nusnlp/gecmetrics prints and the WMT metrics tasks cluster with (Williams' test is
    undefined below; such a ranking is left out), over the systems the ranking and the board
    share. With ``bootstrap``, sentence resampling too for the configurations with sentence
    statistics on every system of the ranking (not those whose score an ``aggregation``
    replaced: re-scoring from the statistics would not give that score)."""
    out = {}
    for name, ranking in board.human.items():
        ranking = ranking.without([s for s in ranking.systems if s not in board.systems])
        if len(ranking.systems) < MIN_SYSTEMS:
            continue
        columns = {c.name: board.column(c.name) for c in board.configs}
        stats = {}
        for config in board.configs:
            if config.name in board.aggregated:   # its system score is no longer statistic(mean stats)
                continue
            cells = {s: board.scores[s][config.name] for s in ranking.systems}
            if bootstrap and all(c.has_sentence_stats for c in cells.values()):   # read only to resample
                stats[config.name] = {s: (c.sentence_stats, c.statistic) for s, c in cells.items()}
        out[name] = compare_metrics(columns, ranking, alpha=alpha, alternative=alternative, bootstrap=bootstrap,
                                    seed=seed, confidence=confidence, sentence_stats=stats)
    return out


def undefined_statistics(board: Leaderboard) -> list[str]:
    """What a :class:`~gecscore.leaderboard.board.Leaderboard` with human rankings could not
    compute, one sentence each, for the page, the JSON and stderr (a number nobody can compute
    is said, never printed as ``nan`` nor left out without a word): correlations of a
    configuration whose scores are constant (or missing) over a ranking's systems, and Williams'
    test on a ranking sharing fewer than 4 systems with the board (df = n - 3) or for a
    configuration with constant scores."""
    notes = []
    for name, ranking in board.human.items():
        shared = [s for s in ranking.systems if s in board.systems]
        if len(shared) < MIN_SYSTEMS:
            notes.append(f"Williams' test on {name}: not run: it needs at least {MIN_SYSTEMS} systems (df = n - 3) and "
                         f"{name} ranks {len(shared)} of this board's systems")
        for config in board.configs:
            column = [board.scores[s][config.name].score for s in shared]
            if any(v is None or math.isnan(v) for v in column):
                reason = "some system has no score"
            elif len(column) >= 2 and max(column) == min(column):
                reason = f"every system scores {column[0]:.4f} (constant scores)"
            elif len(column) < 3:
                reason = f"only {len(column)} systems"
            else:
                continue
            also = " and left out of Williams' test" if len(shared) >= MIN_SYSTEMS else ""
            notes.append(f"`{config.name}` on {name}: correlations undefined{also}: {reason}")
    return notes


@dataclass(frozen=True)
class SegmentAgreement:
    """A configuration's sentence scores against one set of segment-level human scores: soft
    pairwise accuracy (:mod:`gecscore.metaeval.soft_pairwise`) and the correlations within each
    segment averaged over segments (:mod:`gecscore.metaeval.segment_correlation`; None below 3
    systems, where they are undefined)."""

    spa: SoftPairwiseAccuracy
    item: ItemCorrelations | None

    def as_dict(self) -> dict:
        return {"spa": self.spa.as_dict(), "item": self.item.as_dict() if self.item is not None else None}


def segment_agreements(board: Leaderboard, segments: Mapping[str, SegmentScores]
                       ) -> tuple[dict[str, dict[str, SegmentAgreement]], list[str]]:
    """Per configuration with sentence scores, against each set of segment-level human scores
    (GMEG-Data's) over the board's systems the set rates (in the set's order; sentence ``i`` of
    the board is segment ``i``, so the board must score exactly the set's segments), with the
    library's defaults (SPA: 1000 permutations, seed 4, as mt-metrics-eval). Returns the
    agreements and what could not be computed, one sentence each."""
    from gecscore.metaeval.segment_correlation import item_correlations
    from gecscore.metaeval.soft_pairwise import soft_pairwise_accuracy

    out: dict[str, dict[str, SegmentAgreement]] = {}
    notes: list[str] = []
    for name, human in segments.items():
        systems = [s for s in human.systems if s in board.systems]
        if human.n_segments != board.n_sentences:
            notes.append(f"segment level on {name}: not run: {name} rates {human.n_segments} segments and this "
                         f"board scores {board.n_sentences} sentences")
            continue
        if len(systems) < 2:
            notes.append(f"segment level on {name}: not run: soft pairwise accuracy needs at least 2 systems and "
                         f"{name} rates {len(systems)} of this board's systems")
            continue
        if len(systems) < 3:
            notes.append(f"segment level on {name}: correlations within a segment not computed: they need at least "
                         f"3 systems and {name} rates {len(systems)} of this board's systems")
        for config in board.configs:
            scores = {s: board.scores[s][config.name].sentence_scores for s in systems}
            if any(v is None for v in scores.values()):
                continue
            try:
                spa = soft_pairwise_accuracy(human, scores, systems)
            except GecInputError as error:
                notes.append(f"`{config.name}` on {name}: segment level undefined: {error.args[0]}")
                continue
            item = item_correlations(human, scores, systems) if len(systems) >= 3 else None
            out.setdefault(config.name, {})[name] = SegmentAgreement(spa, item)
    return out, notes
