"""The leaderboard's metric configurations: each one is a metric of the registry plus options,
scored through the metric seam (``gecscore.load(name, **options)``: one path from an option to
a number, the same validation and the same signature as every other entry point).

A configuration is named by a preset (:mod:`gecscore.leaderboard.presets`) or written as a spec
(:mod:`gecscore.leaderboard.specs`): a :class:`MetricConfig`, what the user asked for. A run
resolves it once (:func:`resolve_configuration`) into a :class:`Configuration`: its metric
class, what the metric says of its own options (needs, scored with every system at once,
dependent on the run's other systems), the options it takes from the run (:mod:`run_wide
<gecscore.leaderboard.run_wide>`) and its validated config, and its part of a cell's cache key.
Nothing downstream asks the metric class again.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from gecscore.metric import Metric
from gecscore.options import applies, build_config, fields_of
from gecscore.registry import metric_class

if TYPE_CHECKING:
    from gecscore.leaderboard.run_wide import RunWide


@dataclass(frozen=True)
class MetricConfig:
    """A leaderboard configuration as asked for: a metric of the registry and its options."""

    name: str
    metric: str
    options: tuple[tuple[str, Any], ...] = ()
    description: str = ""
    family: str = ""
    spec: str = ""   # as the user wrote it (NAME:key=value,...), for messages; "" for a preset

    @property
    def option_dict(self) -> dict[str, Any]:
        return dict(self.options)


#: what a configuration asks for besides the data, as ``Metric.needs`` says: scored in one
#: pass over every system (one model, its caches shared by all of them)
MODEL_PASSES = ("similarity", "model")


@dataclass(frozen=True)
class Configuration:
    """A configuration resolved for one run (:func:`resolve_configuration`).

    ``needs``: "similarity", "model", "judge" or "" (``Metric.needs`` of its own options);
    ``depends_on_run``: its score of a system depends on the other systems of the run
    (GoToScorer's weights: ``Metric.needs_all_systems``); ``scored_together``: it scores every
    system at once, in the main process (a model pass, or ``depends_on_run``); ``options``: its
    own options with the run-wide ones it takes (its own win); ``config``: those validated;
    ``own_config``: its own options' config, as its metric holds it (which run-wide options
    apply is decided on it).
    """

    asked: MetricConfig
    metric_class: type[Metric]
    needs: str
    depends_on_run: bool
    options: tuple[tuple[str, Any], ...]
    config: Any
    own_config: Any

    @property
    def name(self) -> str:
        return self.asked.name

    @property
    def metric(self) -> str:
        return self.asked.metric

    @property
    def family(self) -> str:
        return self.asked.family

    @property
    def description(self) -> str:
        return self.asked.description

    @property
    def spec(self) -> str:
        return self.asked.spec

    @property
    def option_dict(self) -> dict[str, Any]:
        """The configuration's own options (as asked; :attr:`options` adds the run-wide ones)."""
        return self.asked.option_dict

    @property
    def scored_together(self) -> bool:
        return self.needs in MODEL_PASSES or self.depends_on_run

    def build(self, **collaborators: Any) -> Metric:
        """The metric object of the validated config (collaborators: shared model scorers,
        weighers, judges, as ``Metric.shared_collaborators`` names them)."""
        return self.metric_class(self.config, **collaborators)

    @cached_property
    def cache_facts(self) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]] | None:
        """Its part of a cell's key (:mod:`gecscore.leaderboard.cell_cache`): the metric and its
        validated config (defaults included), and for options naming a model its files; None for
        a configuration asking an LLM judge, which is never kept. Computed on first use (the
        model files are read only when the cache is on)."""
        if self.needs == "judge":
            return None
        from gecscore.cache.keys import path_fingerprint

        models = []
        for field in fields_of(self.metric_class.config_type):
            value = getattr(self.config, field.name)
            if field.metadata.get("choices") or field.metadata.get("normalize"):
                continue   # a choice among names (base, scorer, segmentation, lang): no file behind it
            if isinstance(value, str) and value:
                fingerprint = path_fingerprint(value)
                if fingerprint:
                    models.append((field.name, fingerprint))
        return (self.metric, repr(self.config)), tuple(models)

    def for_run(self, run: "RunWide") -> "Configuration":
        """The same configuration under other run-wide options (the metric is not asked again)."""
        return _with_run(self.asked, self.metric_class, self.needs, self.depends_on_run, run, self.own_config)


def resolve_configuration(asked: MetricConfig, run: "RunWide | None" = None) -> Configuration:
    """``asked`` resolved once: the metric of its own options says what it needs and whether
    its scores depend on the run (no model is loaded), then the run-wide options it takes are
    applied and the result validated as ``gecscore.load`` does."""
    from gecscore.leaderboard.run_wide import RunWide

    cls = metric_class(asked.metric)
    own = cls(build_config(cls.config_type, asked.option_dict))
    return _with_run(asked, cls, own.needs(), own.needs_all_systems(), run or RunWide(), own.config)


def _with_run(asked: MetricConfig, cls: type[Metric], needs: str, depends_on_run: bool, run: "RunWide",
              own_config: Any) -> Configuration:
    """The run-wide options a configuration takes (its own win): the similarity model's where
    it needs one, the judge's where it asks one, per-type tables and the language where its
    metric declares them and they apply to its own config."""
    options = asked.option_dict
    declared = {f.name for f in fields_of(cls.config_type)}
    extra: dict[str, Any] = {}
    if needs == "similarity":
        extra.update(run.similarity)
    elif needs == "judge":
        extra.update(run.judge)
    if run.per_type is not None:
        extra["per_type"] = run.per_type
    extra.update(run.text)
    for key, value in extra.items():
        if key in declared and key not in options and value is not None and applies(own_config, key):
            options[key] = value
    return Configuration(asked, cls, needs, depends_on_run, tuple(options.items()),
                         build_config(cls.config_type, options), own_config)
