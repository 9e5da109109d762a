"""The leaderboard's metric configurations: each one is a metric of the registry plus options,
scored through the metric seam (``gecscore.load(name, **options)``: one path from an option to
a number, the same validation and the same signature as every other entry point).

A configuration is named by a preset (:mod:`gecscore.metaeval.presets`) or written as a spec
(:mod:`gecscore.metaeval.specs`); what it asks for besides the data (a model, a judge, every
system at once) is what its metric says of its options.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gecscore.metric import Metric
from gecscore.options import build_config
from gecscore.registry import metric_class


@dataclass(frozen=True)
class MetricConfig:
    """A leaderboard configuration: a metric of the registry and its options."""

    name: str
    metric: str
    options: tuple[tuple[str, Any], ...] = ()
    description: str = ""
    family: str = ""
    spec: str = ""   # as the user wrote it (NAME:key=value,...), for messages; "" for a preset

    @property
    def option_dict(self) -> dict[str, Any]:
        return dict(self.options)


def probe(config: MetricConfig) -> Metric:
    """The metric object of a configuration's own options (no run-wide ones, no model loaded):
    what its metric says of them."""
    cls = metric_class(config.metric)
    return cls(build_config(cls.config_type, config.option_dict))


def needs_of(config: MetricConfig) -> str:
    """"similarity", "model", "judge" or "" for a configuration (what ``Metric.needs`` says of
    its config)."""
    return probe(config).needs()


def scored_together(config: MetricConfig) -> bool:
    """Whether a configuration scores every system at once (a model pass over all of them, or
    scores that depend on the other systems, as GoToScorer's weights): it runs in the main
    process through ``Metric.score_systems``."""
    metric = probe(config)
    return metric.needs() in ("similarity", "model") or metric.needs_all_systems()


def scored_by_run(config: MetricConfig) -> bool:
    """Whether a configuration's score of a system depends on the other systems of the run
    (GoToScorer's weights: ``Metric.needs_all_systems``)."""
    return probe(config).needs_all_systems()
