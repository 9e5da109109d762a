"""What every gecscore evaluate module shares: the GEC input features, its MetricInfo, the
options section of its docstring (read from the metric's config) and ``compute`` over the
metric seam, which keeps the prepared reference side across calls in one process."""
from __future__ import annotations

import atexit
import threading
from collections import OrderedDict
from typing import Any, Sequence

import datasets
import evaluate

from gecscore.metric import Metric, load, metric_class
from gecscore.options import fields_of, format_value

METRIC_OBJECTS = 8  # configured metric objects kept (model weighers and judges are costly to build)
_objects: OrderedDict[tuple[str, str], Metric] = OrderedDict()
_lock = threading.Lock()


def gec_features() -> list[datasets.Features]:
    """``sources`` and ``predictions`` (strings) and ``references``: a list of strings per
    example, or one string (one reference), as evaluate's sacrebleu module allows."""
    text = datasets.Value("string", id="sequence")
    return [
        datasets.Features({"sources": text, "predictions": text,
                           "references": datasets.Sequence(datasets.Value("string", id="sequence"), id="references")}),
        datasets.Features({"sources": text, "predictions": text, "references": datasets.Value("string", id="sequence")}),
    ]


def gec_metric_info(description: str, citation: str, inputs_description: str,
                    **urls: list[str]) -> evaluate.MetricInfo:
    """The MetricInfo of a gecscore metric (``urls``: codebase_urls, reference_urls)."""
    return evaluate.MetricInfo(description=description, citation=citation,
                               inputs_description=inputs_description, features=gec_features(), **urls)


def options_description(name: str, indent: str = "    ") -> str:
    """One line per option of metric ``name``: its name, help and default (from the config)."""
    lines = []
    for f in fields_of(metric_class(name).config_type):
        default = f.default
        shown = "None" if default is None else repr(format_value(default) if isinstance(default, tuple) else default)
        lines.append(f"{indent}{f.name}: {f.metadata['help']} (default {shown}).")
    return "\n".join(lines)


def configured(name: str, options: dict[str, Any]) -> Metric:
    """The metric object for these options, reused across calls (its model and judge too)."""
    key = (name, repr(sorted(options.items())))
    with _lock:
        metric = _objects.get(key)
        if metric is not None:
            _objects.move_to_end(key)
            return metric
    metric = load(name, **options)
    evicted = []
    with _lock:
        _objects[key] = metric
        while len(_objects) > METRIC_OBJECTS:
            evicted.append(_objects.popitem(last=False)[1])
    for old in evicted:   # its judge's connections and cache file
        old.close()
    return metric


@atexit.register
def close_metrics() -> None:
    """Close the kept metric objects (at exit: no judge connection is left to the collector)."""
    with _lock:
        kept = list(_objects.values())
        _objects.clear()
    for metric in kept:
        metric.close()


def compute(name: str, sources: Sequence[str], predictions: Sequence[str],
            references: Sequence[Sequence[str]] | None, options: dict[str, Any]) -> dict[str, Any]:
    """The contract dictionary of ``name`` on these inputs (what ``_compute`` returns)."""
    return configured(name, options).compute(sources, predictions, references).as_dict()
