"""What every gecscore evaluate module shares: the GEC input features, its MetricInfo, the
options section of its docstring and its ``_compute`` (both generated from the metric's config:
an option declared once reaches the module with its default and help), and ``compute`` over
the metric seam, which keeps the prepared reference side across calls in one process. In
evaluate's distributed mode a process without examples joins, a failed rendezvous is one line,
and an order-dependent score warns (:mod:`gecscore.evaluate_distributed`).

``_compute`` has one explicit keyword parameter per option (evaluate's conformance test
refuses ``**kwargs``, and ``help()`` / ``inspect`` show users the real parameters). It is
generated the way :mod:`dataclasses` generates ``__init__``: from the declarations, once per
module, as Python source compiled here. A module serving several metrics (``cleme2`` serves
CLEME as ``metric="cleme"``) gets a ``metric`` parameter; an option whose default differs
between them, or that only some have, defaults to ``None``: the chosen metric's own default.
"""
from __future__ import annotations

import atexit
import inspect
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Sequence

import datasets
import evaluate

from gecscore.errors import DistributedEvaluationError, GecOptionError, UnknownOptionError
from gecscore.evaluate_distributed import failure_line, warn_order_dependence
from gecscore.metric import Metric, load
from gecscore.options import fields_of, format_value, merged_help
from gecscore.registry import metric_class, module_metrics

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


@dataclass(frozen=True)
class ModuleParameter:
    """One keyword parameter of a module's ``_compute``: an option of (some of) its metrics."""

    name: str
    default: Any
    help: str
    metrics: tuple[str, ...]     # the metrics of the module that have this option


def module_parameters(module: str) -> list[ModuleParameter]:
    """The options of every metric the evaluate module ``module`` serves, in declaration order
    (the module's own metric first)."""
    metrics = module_metrics(module)
    found: dict[str, list[Any]] = {}
    for metric in metrics:
        for f in fields_of(metric_class(metric).config_type):
            found.setdefault(f.name, []).append((metric, f))
    parameters = []
    for name, having in found.items():
        defaults = {repr(f.default) for _, f in having}
        shared = len(having) == len(metrics) and len(defaults) == 1
        metric_names = tuple(m for m, _ in having)
        parameters.append(ModuleParameter(name, having[0][1].default if shared else None,
                                          merged_help(dict(having)), metric_names))
    return parameters


def options_description(module: str, indent: str = "    ") -> str:
    """One line per option of the module: its name, help and default (from the configs)."""
    metrics = module_metrics(module)
    lines = []
    if len(metrics) > 1:
        lines.append(f"{indent}metric: which metric to compute: {' or '.join(metrics)} (default {metrics[0]!r}).")
    for p in module_parameters(module):
        defaults = [next(f.default for f in fields_of(metric_class(m).config_type) if f.name == p.name)
                    for m in p.metrics]
        if len(p.metrics) < len(metrics) or len({repr(d) for d in defaults}) > 1:
            shown = "; ".join(f"{m}: {_shown(d)}" for m, d in zip(p.metrics, defaults))
        else:
            shown = _shown(defaults[0])
        only = f" ({', '.join(p.metrics)} only)" if len(p.metrics) < len(metrics) else ""
        lines.append(f"{indent}{p.name}: {p.help}{only} (default {shown}).")
    return "\n".join(lines)


def _shown(default: Any) -> str:
    return "None" if default is None else repr(format_value(default) if isinstance(default, tuple) else default)


def compute_method(module: str):
    """The ``_compute(self, sources, predictions, references=None, *, <options>)`` of evaluate
    module ``module``: explicit keyword parameters with the declared defaults, their
    documentation, and a body that hands them to :func:`compute` by name."""
    metrics = module_metrics(module)
    parameters = module_parameters(module)
    names = [p.name for p in parameters]
    defaults = {f"_default_{p.name}": p.default for p in parameters}
    keyword = ([f"metric={metrics[0]!r}"] if len(metrics) > 1 else []) + [f"{n}=_default_{n}" for n in names]
    summary = (f"{metric_class(metrics[0]).summary}." if len(metrics) == 1 else
               "\n".join(f"metric={m!r}: {metric_class(m).summary}." for m in metrics))
    doc = f"{summary}\n\nOptions (declared in the metric's config):\n" + options_description(module)
    source = (f"def _compute(self, sources, predictions, references=None, *, {', '.join(keyword)}):\n"
              f"    {doc!r}\n"
              f"    return _run(self, {'metric' if len(metrics) > 1 else repr(metrics[0])}, sources, predictions, "
              f"references, {{{', '.join(f'{n!r}: {n}' for n in names)}}})\n")
    namespace: dict[str, Any] = {"_run": _compute_given, **defaults}
    exec(compile(source, f"<gecscore evaluate module {module}>", "exec"), namespace)  # noqa: S102 - our own source
    function = namespace["_compute"]
    function.__qualname__ = f"{module}._compute"
    return function


def _compute_given(module, name: str, sources, predictions, references, options: dict[str, Any]) -> dict[str, Any]:
    """:func:`compute` with the options a caller set: a ``None`` left at a ``None`` default means
    the metric's own default; an option the chosen metric lacks is an error naming it. On
    process 0 of a distributed ``module``, a metric whose score depends on the order of the
    examples warns once (:func:`~gecscore.evaluate_distributed.warn_order_dependence`)."""
    fields = {f.name: f for f in fields_of(metric_class(name).config_type)}
    given = {}
    for key, value in options.items():
        if key not in fields:
            if value is not None:
                raise GecOptionError(key, f"not an option of {name}")
            continue
        if value is None and fields[key].default is not None:
            continue   # the module's None: this metric's own default
        given[key] = value
    metric = configured(name, given)
    warn_order_dependence(module, getattr(metric, "order_dependence", None), references)
    return metric.compute(sources, predictions, references).as_dict()


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


# ---------------------------------------------------------------- evaluate's input methods

def _references_as_lists(references: Any, optional: bool, count: int | None) -> Any:
    """References as one list of strings per example: a lone string becomes a one-item list, so
    a batch mixing strings and lists is read as meant (evaluate would otherwise pick one of
    its two input formats for the whole batch and print the lists into strings); for a
    reference-free metric, missing references become empty lists."""
    if references is None:
        return [[] for _ in range(count)] if optional and count is not None else None
    if isinstance(references, (list, tuple)):
        return [[r] if isinstance(r, str) else r for r in references]
    return references


def _discard_pending(module: evaluate.Metric) -> None:
    """Forget what a failed call left behind: its writer (with the batch it was given), the
    data, the input format evaluate inferred from it and the locks on its cache files, so that
    the next call starts as on a fresh module (a distributed process 0 also lets go of the
    rendezvous lock, so that a new call can take it)."""
    writer = getattr(module, "writer", None)
    if writer is not None:
        try:
            writer.finalize()
        except Exception:  # noqa: BLE001 - a writer broken by the failure: it is dropped anyway
            pass
    locks = [getattr(module, "filelock", None), getattr(module, "rendez_vous_lock", None),
             *(getattr(module, "filelocks", None) or [])]
    for lock in locks:
        if lock is not None:
            try:
                lock.release()
            except Exception:  # noqa: BLE001 - not held any more
                pass
    module.writer = module.buf_writer = module.data = module.filelock = module.rendez_vous_lock = None
    module.cache_file_name = None
    module.selected_feature_format = None


def _join_without_examples(module: evaluate.Metric) -> None:
    """Open the module's cache file as a batch would, writing nothing: in distributed mode the
    process takes part in the rendezvous with no examples (evaluate infers the input format
    from a batch's first example, so an empty batch would fail with an IndexError, and a
    process that adds nothing never joins: its peers would wait for it until ``timeout``)."""
    features = module.features
    module.selected_feature_format = features[0] if isinstance(features, list) else features
    module._init_writer()


def input_methods(module: str):
    """``compute``, ``add_batch`` and ``add`` of an evaluate module: evaluate's own, with the
    references normalised (:func:`_references_as_lists`), with evaluate's remembered input
    format forgotten after a failed call (evaluate keeps the format inferred from the failed
    call's input, so the next valid call would be refused or misread), an empty batch accepted
    (and, in distributed mode, ``compute`` with nothing added joining the other processes with
    no examples), and a failed distributed rendezvous raised as one
    :class:`~gecscore.errors.DistributedEvaluationError` line."""
    optional = not metric_class(module_metrics(module)[0]).needs_references

    def _forgetting_on_failure(self, call):
        started = time.time()
        try:
            return call()
        except BaseException as error:
            line = failure_line(self, error, started)
            _discard_pending(self)
            if line is not None:
                raise DistributedEvaluationError(line) from None
            raise

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Score the added and given examples (references: a list of strings, or one string, per example)."""
        _check_names(self, kwargs)
        count = len(predictions) if predictions is not None else None
        references = _references_as_lists(references, optional, count)

        def call():
            nothing_given = predictions is None and references is None and kwargs.get("sources") is None
            if nothing_given and self.writer is None and self.num_process > 1:
                _join_without_examples(self)
            return evaluate.Metric.compute(self, predictions=predictions, references=references, **kwargs)
        return _forgetting_on_failure(self, call)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of examples (references: a list of strings, or one string, per example)."""
        count = len(predictions) if predictions is not None else None
        references = _references_as_lists(references, optional, count)

        def call():
            if count == 0 and self.writer is None:
                return _join_without_examples(self)
            return evaluate.Metric.add_batch(self, predictions=predictions, references=references, **kwargs)
        return _forgetting_on_failure(self, call)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one example (reference: a list of strings, or one string)."""
        if reference is None and optional and prediction is not None:
            reference = []
        elif isinstance(reference, str):
            reference = [reference]
        return _forgetting_on_failure(self, lambda: evaluate.Metric.add(
            self, prediction=prediction, reference=reference, **kwargs))

    return compute, add_batch, add


def _check_names(module, kwargs: dict[str, Any]) -> None:
    """An :class:`UnknownOptionError` (a TypeError naming the closest option) for a keyword that
    is neither an input of the evaluate module nor an option of its ``_compute``."""
    inputs = set(module._feature_names())
    options = [p for p in inspect.signature(module._compute).parameters if p not in inputs | {"self"}]
    for key in kwargs:
        if key not in inputs and key not in options:
            raise UnknownOptionError(key, options, f"the {module.name} module")
