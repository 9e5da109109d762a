"""Leaderboard configurations of GREEN and GoToScorer, ready for the registry to register
(``for config in PEER_CONFIGS: register(config)`` at the end of
:mod:`gecscore.metaeval.registry`).

- ``green`` / ``green-sentence``: GREEN (F2, n <= 4, words) on the reference set's gold, corpus
  and sentence level.
- ``gotoscorer``: GoToScorer with the paper's chunk weights, built by ``prefetch`` from every
  system of the run (so it must run where the prefetch ran: the main process); a worker that
  finds no weights raises rather than score with other weights.
- ``gotoscorer-noweight``: every chunk weighs 1 (no dependence on the other systems).

Each cell carries the metric's own sentence scores (``sentence_scores``), which
:func:`gecscore.metaeval.trueskill_aggregate.trueskill_aggregate` turns into a TrueSkill
system ranking beside the mean.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.metaeval.registry import MetricConfig, ReferenceData, SystemData, SystemScore, system_score

WEIGHTED_KEY = "prepared:gotoscorer-weighted"


def _with_sentence_scores(score: SystemScore, result, key: str) -> SystemScore:
    records = sorted(result.records(), key=lambda r: r["index"])
    return replace(score, sentence_scores=tuple(float(r[key]) for r in records))


def _score_green(system: SystemData, refs: ReferenceData, *, level: str) -> SystemScore:
    from gecscore.green.metric import GreenMetric

    metric = GreenMetric.from_options(level=level)
    prepared = refs.cached("prepared:green", lambda: metric.prepare(refs.refset.gold()))
    result = metric.score(prepared, system.lines(refs))
    return _with_sentence_scores(system_score(result), result, "green")


def _gotoscorer(no_weight: bool):
    from gecscore.gotoscorer.metric import GoToScorerMetric

    return GoToScorerMetric.from_options(no_weight=no_weight)


def _prefetch_gotoscorer_weights(systems: Sequence[SystemData], refs: ReferenceData) -> None:
    metric = _gotoscorer(no_weight=False)
    prepared = refs.cached("prepared:gotoscorer", lambda: metric.prepare(refs.refset.gold()))
    refs.cached(WEIGHTED_KEY, lambda: metric.weighted(prepared, [s.hypotheses(refs) for s in systems]))


def _score_gotoscorer(system: SystemData, refs: ReferenceData, *, no_weight: bool) -> SystemScore:
    metric = _gotoscorer(no_weight)
    if no_weight:
        prepared = refs.cached("prepared:gotoscorer", lambda: metric.prepare(refs.refset.gold()))
    elif WEIGHTED_KEY in refs.cache:
        prepared = refs.cache[WEIGHTED_KEY]
    else:
        raise GecInputError("GoToScorer's weights come from all systems of the run: score it in the process "
                            "that ran its prefetch")
    result = metric.score(prepared, system.hypotheses(refs))
    return _with_sentence_scores(system_score(result), result, "f")


def _configs() -> list[MetricConfig]:
    from functools import partial

    return [
        MetricConfig("green", "green", "GREEN (Koyama et al. 2024): n-gram F2, corpus",
                     partial(_score_green, level="corpus")),
        MetricConfig("green-sentence", "green", "GREEN, mean sentence score", partial(_score_green, level="sentence")),
        MetricConfig("gotoscorer", "gotoscorer", "GoToScorer (Gotou et al. 2020): chunk F0.5 weighted by the "
                     "systems' difficulty", partial(_score_gotoscorer, no_weight=False),
                     prefetch=_prefetch_gotoscorer_weights),
        MetricConfig("gotoscorer-noweight", "gotoscorer", "GoToScorer, every chunk weighs 1",
                     partial(_score_gotoscorer, no_weight=True)),
    ]


PEER_CONFIGS: list[MetricConfig] = _configs()
