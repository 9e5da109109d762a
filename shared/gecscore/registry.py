"""The one registry of metric names: every entry point (``gecscore.load``, the CLI commands, the
evaluate modules and Spaces that ``gecscore publish`` builds, the leaderboard, the docs) reads
it, so a metric is added with one line here and one folder for its family.

An entry names the class (imported on first use, so that ``import gecscore`` stays light) and
the evaluate module / Space that serves it (``metrics/<module>/``, ``spaces/<module>/``; one
module may serve several metrics, e.g. ``cleme2`` serves CLEME as ``metric="cleme"``, and
``llm_eval`` serves LLM-S and LLM-E as ``metric="llm_s"`` / ``"llm_e"``).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gecscore.errors import GecInputError

if TYPE_CHECKING:
    from gecscore.metric import Metric


@dataclass(frozen=True)
class MetricEntry:
    name: str
    target: str                 # "package.module:Class"
    module: str | None = None   # the evaluate module and Space serving it (None: library and CLI only)


ENTRIES: dict[str, MetricEntry] = {}


def register_metric(name: str, target: str, module: str | None = None) -> MetricEntry:
    """Add a metric (``target``: ``"package.module:Class"``); a name is registered once."""
    if name in ENTRIES:
        raise ValueError(f"metric {name!r} is registered already")
    ENTRIES[name] = MetricEntry(name, target, module)
    return ENTRIES[name]


register_metric("cleme2", "gecscore.chunks.metric:Cleme2Metric", module="cleme2")
register_metric("cleme", "gecscore.chunks.metric:ClemeMetric", module="cleme2")
register_metric("pt_m2", "gecscore.m2.metric:PtM2Metric", module="pt_m2")
register_metric("imeasure", "gecscore.imeasure.metric:IMeasureMetric", module="imeasure")
register_metric("dsgram", "gecscore.dsgram.metric:DsgramMetric", module="dsgram")
register_metric("gleu", "gecscore.gleu.metric:GleuMetric", module="gleu")
register_metric("green", "gecscore.green.metric:GreenMetric", module="green")
register_metric("gotoscorer", "gecscore.gotoscorer.metric:GoToScorerMetric", module="gotoscorer")
register_metric("llm_s", "gecscore.llm_eval.metric:LlmSMetric", module="llm_eval")
register_metric("llm_e", "gecscore.llm_eval.metric:LlmEMetric", module="llm_eval")
register_metric("scribendi", "gecscore.scribendi.metric:ScribendiMetric", module="scribendi")
register_metric("some", "gecscore.some.metric:SomeMetric", module="some")
register_metric("impara", "gecscore.impara.metric:ImparaMetric", module="impara")


def metric_names() -> list[str]:
    """Every registered metric, in registration order."""
    return list(ENTRIES)


def metric_class(name: str) -> type[Metric]:
    """The class of metric ``name``; a clear error naming the known ones otherwise."""
    try:
        module_name, class_name = ENTRIES[name].target.split(":")
    except KeyError:
        raise GecInputError(f"unknown metric {name!r}; expected one of: {', '.join(ENTRIES)}") from None
    return getattr(importlib.import_module(module_name), class_name)


def module_names() -> list[str]:
    """The evaluate modules (and Spaces), in registration order."""
    return list(dict.fromkeys(e.module for e in ENTRIES.values() if e.module))


def module_metrics(module: str) -> list[str]:
    """The metrics one evaluate module serves: the one named like the module first, then the
    others in registration order (so a module named after none of them, ``llm_eval`` serving
    ``llm_s`` and ``llm_e``, defaults to the first registered). The first is the module's
    default ``metric=``."""
    names = [e.name for e in ENTRIES.values() if e.module == module]
    if not names:
        raise GecInputError(f"unknown evaluate module {module!r}; expected one of: {', '.join(module_names())}")
    return sorted(names, key=lambda n: n != module)
