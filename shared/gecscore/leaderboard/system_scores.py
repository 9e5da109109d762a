"""A configuration's score of a system: the leaderboard's cell (:class:`SystemScore`, with what
the bootstrap needs), scored through the metric seam with the work a process shares
(:mod:`gecscore.leaderboard.shared_data`)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.shared_data import ReferenceData, SystemData
from gecscore.metric import Result


@dataclass(frozen=True)
class SystemScore:
    """A configuration's score of one system, with what the bootstrap needs.

    ``statistic(column_means_of(sentence_stats))`` must give back ``score``.

    ``stored_stats``: the sentence statistics (float64), or the same values as int16/int32
    when every one is such an integer (:meth:`compact`: counts, as GLEU's 500 rounds of n-gram
    counts, 52 MB a system on CoNLL-2014 as float64); :attr:`sentence_stats` gives the float64
    array either way, made on first use (a leaderboard read back from the cache without a
    bootstrap never makes them).
    """

    score: float
    details: dict[str, Any]
    signature: str
    stored_stats: np.ndarray | None = None
    statistic: Callable[[np.ndarray], float] | None = None
    sentence_scores: tuple[float, ...] | None = None   # the metric's own score of each sentence

    @cached_property
    def sentence_stats(self) -> np.ndarray | None:
        """The sentence statistics as float64 (bit for bit those the metric gave)."""
        stats = self.stored_stats
        return stats if stats is None or stats.dtype == np.float64 else stats.astype(np.float64)

    @property
    def has_sentence_stats(self) -> bool:
        """Whether it can be resampled: sentence statistics and the statistic of their means
        (asked without making the float64 array)."""
        return self.stored_stats is not None and self.statistic is not None

    def compact(self) -> "SystemScore":
        """This score with its statistics as exact integers where they are (same numbers, a
        quarter of the bytes to send between processes and to keep), else itself."""
        integers = exact_integers(self.stored_stats)
        return self if integers is None else replace(self, stored_stats=integers)


def exact_integers(values: np.ndarray | None) -> np.ndarray | None:
    """float64 ``values`` as int16 or int32 when that type holds every value exactly (no
    fraction, no infinity or nan, no negative zero, within its range), else None."""
    if not isinstance(values, np.ndarray) or values.dtype != np.float64 or values.size == 0:
        return None
    low, high = values.min(), values.max()   # a nan makes both nan; an infinity is one of them
    if not (np.isfinite(low) and np.isfinite(high)):
        return None
    signed = np.signbit(values)   # a negative zero has its sign bit set: looked for only among those
    if signed.any() and (values[signed] == 0).any():
        return None
    for dtype in (np.int16, np.int32):
        limits = np.iinfo(dtype)
        if low >= limits.min and high <= limits.max:
            integers = values.astype(dtype)
            return integers if np.array_equal(integers, values) else None   # int16/32 -> float64 is exact
    return None


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
