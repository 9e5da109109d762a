"""A configuration's score of a system: the leaderboard's cell (:class:`SystemScore`, with what
the bootstrap needs), scored through the metric seam with the work a process shares
(:mod:`gecscore.leaderboard.shared_data`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.shared_data import ReferenceData, SystemData
from gecscore.metric import Result


@dataclass(frozen=True)
class SystemScore:
    """A configuration's score of one system, with what the bootstrap needs.

    ``statistic(column_means_of(sentence_stats))`` must give back ``score``.
    """

    score: float
    details: dict[str, Any]
    signature: str
    sentence_stats: np.ndarray | None = None
    statistic: Callable[[np.ndarray], float] | None = None
    sentence_scores: tuple[float, ...] | None = None   # the metric's own score of each sentence


def system_score(result: Result) -> SystemScore:
    """A leaderboard cell from a :class:`gecscore.metric.Result`: its numbers (nested ones
    flattened, e.g. the I-measure's ``correction_i``; per-type tables kept), its signature."""
    from gecscore.metaeval.sentence_level import sentence_scores

    details: dict[str, Any] = {}
    for key, value in result.values.items():
        if key == "per_type":
            details[key] = value
        elif isinstance(value, Mapping):
            details.update({f"{key}_{k}": v for k, v in value.items() if isinstance(v, (int, float))})
        elif isinstance(value, (int, float)) or value is None:
            details[key] = value
    score = result.score if result.score is not None else float("nan")
    return SystemScore(score, details, str(result.signature), result.sentence_stats, result.statistic,
                       sentence_scores(result))


def score_system(config: Configuration, system: SystemData, refs: ReferenceData) -> SystemScore:
    """One configuration's score of one system, through the seam."""
    metric = refs.metric(config)
    prepared = refs.prepared(metric)
    return system_score(metric.score(prepared, system.scored_by(metric, refs), work=system.work))


def score_all_systems(config: Configuration, systems: Sequence[SystemData], refs: ReferenceData
                      ) -> list[SystemScore]:
    """One configuration's scores of every system at once (``Metric.score_systems``: PT-M2
    scores the model pairs of all systems in one pass)."""
    metric = refs.metric(config)
    prepared = refs.prepared(metric)
    pairs = [(s.name, s.scored_by(metric, refs)) for s in systems]
    results = metric.score_systems(prepared, pairs, [s.work for s in systems])
    return [system_score(result) for _, result in results]
