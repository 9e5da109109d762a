"""gecscore metrics as LightEval metrics.

A GEC score is a corpus statistic (F0.5 over summed edit counts, GLEU over corpus n-gram
counts), and every gecscore metric prepares the reference side of a corpus once (ERRANT
parses, gold edits) before scoring it. So each LightEval metric here is *batched*: LightEval
hands it all the documents of one task at once; it puts them back in corpus order, builds the
prepared reference side once per task and metric (:class:`PreparedSides`), and calls
``metric.score(prepared, predictions)`` once. Each document gets its sentence's record (what
``result.records()`` gives: edits, chunks, the sentence score) as its sample-level value; the
corpus aggregation returns ``result.score`` itself (plus the result's other values and a
bootstrap standard error over ``result.sentence_stats``), so LightEval reports exactly what
``gecscore.load(name, **options)`` computes on the same outputs. A task may score against an
M2 file's gold edits instead of the reference sentences (``gold_m2``, :func:`gec_metric`).

The aggregation returns a dict on purpose: LightEval then skips its own bootstrap, which
would re-score the corpus a thousand times in a process pool; resampling the sentence
statistics gives the same kind of standard error for almost nothing.
"""
from __future__ import annotations

import json
import logging
import os
import itertools
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from lighteval.metrics.metrics_corpus import CorpusLevelComputation
from lighteval.metrics.metrics_sample import SampleLevelComputation
from lighteval.metrics.utils.metric_utils import CorpusLevelMetric
from lighteval.tasks.requests import SamplingMethod

import gecscore
from gecscore.outputs import json_text
from gecscore.metric import Metric as GecMetric
from gecscore.metric import Prepared, Result
from gecscore.types import Gold, GoldCorpus

# The metrics of the task family and their offline defaults: PT-M2's default scorer (BERTScore)
# needs model weights, so it is plain M2 unless options say otherwise.
DEFAULT_METRICS: dict[str, tuple[str, dict[str, Any]]] = {
    "cleme2": ("cleme2", {}),
    "pt_m2": ("pt_m2", {"scorer": "none"}),
    "errant": ("pt_m2", {"base": "errant", "scorer": "none"}),
    "gleu": ("gleu", {}),
}
logger = logging.getLogger(__name__)
OPTIONS_ENV = "GEC_LIGHTEVAL_OPTIONS"
BOOTSTRAP_ENV = "GEC_LIGHTEVAL_BOOTSTRAP"


def metric_options(label: str, given: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """(gecscore metric name, options) of ``label``: its default, updated by the JSON object
    in ``GEC_LIGHTEVAL_OPTIONS`` (``{"pt_m2": {"scorer": "bertscore"}}``), then by ``given``."""
    name, options = DEFAULT_METRICS.get(label, (label, {}))
    options = dict(options)
    raw = os.environ.get(OPTIONS_ENV, "").strip()
    if raw:
        try:
            from_env = json.loads(raw)
        except json.JSONDecodeError as error:
            raise ValueError(f"{OPTIONS_ENV} is not a JSON object: {error}") from None
        if not isinstance(from_env, dict):
            raise ValueError(f"{OPTIONS_ENV} must be a JSON object of metric label -> options")
        options.update(from_env.get(label, {}))
    options.update(given or {})
    return name, options


class PreparedSides:
    """Prepared reference sides, one per (task, metric, options, text): a task scored again in
    the same process (another model, another seed) reuses it. The last ``capacity`` are kept
    (one holds a corpus's parses and gold edits)."""

    def __init__(self, capacity: int = 8) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[tuple, Prepared] = OrderedDict()
        self._lock = threading.Lock()
        self.built = 0

    def get(self, key: tuple, build: Callable[[], Prepared]) -> Prepared:
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        prepared = build()
        with self._lock:
            self._entries.setdefault(key, prepared)
            self.built += 1
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
            return self._entries[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


PREPARED = PreparedSides()
# run key -> the Result its documents were scored into, read by the corpus aggregation, which
# LightEval runs after scoring every task: enough for many tasks x metrics, bounded for a
# process that evaluates again and again.
RESULTS: OrderedDict[str, Result] = OrderedDict()
RESULTS_KEPT = 64


def prediction_text(texts: Sequence[str]) -> str:
    """The correction in a model's answer: its first non-blank line, stripped (a model that
    runs on past the sentence is cut at the line end, as the task's stop sequence does)."""
    for text in texts[:1]:
        for line in text.splitlines():
            if line.strip():
                return line.strip()
    return ""


def sentence_value(record: dict) -> float | None:
    """The sentence-level score in a record: ``score`` (CLEME), ``f`` (M2, ERRANT, PT-M2) or
    ``gleu``."""
    for key in ("score", "f", "gleu"):
        if isinstance(record.get(key), (int, float)):
            return float(record[key])
    return None


@dataclass
class GecScore(SampleLevelComputation, CorpusLevelComputation):
    """One gecscore metric, scored once per task: the sample-level (batched) and corpus-level
    sides of one LightEval metric. Holds only its name and options, so that LightEval can
    copy it per task; the loaded metric, prepared sides and results live in module caches."""

    label: str
    name: str
    options: dict[str, Any] = field(default_factory=dict)
    gold_m2: str = ""

    def metric(self) -> GecMetric:
        return _loaded(self.name, self.options)

    def compute(self, responses: Sequence[Any], docs: Sequence[Any], **kwargs: Any) -> list[dict]:
        order = sorted(range(len(docs)), key=lambda i: int(docs[i].specific["index"]))
        sources = [docs[i].specific["source"] for i in order]
        references = [tuple(docs[i].specific["references"]) for i in order]
        predictions = [prediction_text(responses[i].final_text) for i in order]
        task = docs[order[0]].task_name if order else ""
        metric = self.metric()
        key = (task, self.name, json.dumps(self.options, sort_keys=True), self.gold_m2, tuple(sources),
               tuple(references))
        if self.gold_m2:
            indices = [int(docs[i].specific["index"]) for i in order]
            prepared = PREPARED.get(key, lambda: metric.prepare(m2_subset(self.gold_m2, indices, sources)))
        else:
            prepared = PREPARED.get(key, lambda: metric.prepare_text(sources, [list(r) for r in references]))
        result = metric.score(prepared, predictions)
        run = f"{task}|{self.label}|{next(_RUNS)}"
        RESULTS[run] = result
        while len(RESULTS) > RESULTS_KEPT:
            RESULTS.popitem(last=False)
        # LightEval's results hold numbers only; the signature names what produced them.
        logger.info("%s %s: %.6f, signature %s", task, self.label, result.score, result.signature)
        # a record names its sentence (``index``, the position in the scored corpus)
        records = {int(r.get("index", i)): r for i, r in enumerate(result.records())}
        values: list[dict] = [{}] * len(docs)
        for position, doc_index in enumerate(order):
            record = records.get(position, {})
            values[doc_index] = {"run": run, "position": position, "prediction": predictions[position],
                                 "sentence": sentence_value(record),
                                 "record": json_text(record, ensure_ascii=False, default=str)}
        return values

    def compute_corpus(self, items: Sequence[dict]) -> dict[str, float]:
        runs = {item["run"] for item in items}
        if len(runs) != 1 or next(iter(runs)) not in RESULTS:
            raise ValueError(f"{self.label}: the sentence values do not come from one scoring run of this "
                             f"process (runs {sorted(runs)}); re-run the evaluation instead of loading details")
        result = RESULTS[next(iter(runs))]
        positions = [int(item["position"]) for item in items]
        if sorted(positions) != list(range(len(result.sentence_stats))):
            stats = result.sentence_stats[positions]
            return {self.label: float(result.statistic(stats.mean(axis=0)))}
        out = {self.label: float(result.score)}
        for key, value in result.values.items():
            if key not in ("score", self.label) and isinstance(value, (int, float)) and not isinstance(value, bool):
                out[f"{self.label}_{key}"] = float(value)
        stderr = bootstrap_stderr(result)
        if stderr is not None:
            out[f"{self.label}_stderr"] = stderr
        return out


@lru_cache(maxsize=4)
def _read_m2(path: str) -> tuple[Gold, ...]:
    from gecscore.io.m2 import read_m2

    return tuple(read_m2(path))


def m2_subset(path: str, indices: Sequence[int], sources: Sequence[str]) -> GoldCorpus:
    """The M2 gold's sentences ``indices`` (the documents LightEval evaluated, in corpus order),
    checked against the documents' sources so that a gold never scores another corpus."""
    gold = _read_m2(path)
    sentences = tuple(gold[i] for i in indices)
    for index, sentence, source in zip(indices, sentences, sources):
        if " ".join(sentence.source) != source:
            raise ValueError(f"{path}: sentence {index} is not the task's source {source!r}")
    return GoldCorpus(sentences, "m2", path)


def bootstrap_stderr(result: Result, draws: int | None = None, seed: int = 0) -> float | None:
    """Standard error of the score by resampling sentences (``result.sentence_stats`` rows)
    with replacement; ``GEC_LIGHTEVAL_BOOTSTRAP`` draws (1000 by default, 0 for none)."""
    if draws is None:
        draws = int(os.environ.get(BOOTSTRAP_ENV, "1000"))
    stats = np.asarray(result.sentence_stats, dtype=float)
    if draws <= 0 or len(stats) < 2:
        return None
    rng = np.random.default_rng(seed)
    scores = [result.statistic(stats[rng.integers(0, len(stats), len(stats))].mean(axis=0))
              for _ in range(draws)]
    return float(np.std(scores, ddof=1))


_RUNS = itertools.count()
_METRICS: dict[str, GecMetric] = {}
_METRICS_LOCK = threading.Lock()


def _loaded(name: str, options: dict[str, Any]) -> GecMetric:
    key = f"{name}|{json.dumps(options, sort_keys=True)}"
    with _METRICS_LOCK:
        if key not in _METRICS:
            _METRICS[key] = gecscore.load(name, **options)
        return _METRICS[key]


def gec_metric(label: str, *, gold_m2: str | Path = "", **options: Any) -> CorpusLevelMetric:
    """The LightEval metric ``label`` (cleme2, pt_m2, errant, gleu or any gecscore metric
    name) with gecscore ``options`` over its defaults. Options are checked now, so that a bad
    one fails when the task file loads rather than after generation.

    ``gold_m2``: score against this M2 file's gold edits (``metric.prepare(gold)``, as the
    official M2 scorer does) instead of re-extracting edits from the reference sentences with
    ERRANT (``metric.prepare_text``); document i of the task must be its sentence i."""
    name, merged = metric_options(label, options)
    _loaded(name, merged)
    computation = GecScore(label, name, merged, str(gold_m2))
    return CorpusLevelMetric(metric_name=label, higher_is_better=True, category=SamplingMethod.GENERATIVE,
                             sample_level_fn=computation, corpus_level_fn=computation, batched_compute=True)
