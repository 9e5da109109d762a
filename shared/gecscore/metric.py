"""The metric seam: each metric is one object, prepared once on the reference side and scored
many times.

    >>> import gecscore
    >>> metric = gecscore.load("cleme2", level="sentence")
    >>> prepared = metric.prepare_text(["He go home ."], [["He goes home ."]])
    >>> result = metric.score(prepared, ["He goes home ."])
    >>> result.score, result["hit"]
    (1.0, 1.0)

A metric is a frozen config (every option with the paper's default, validated once: see
:mod:`gecscore.options`), ``prepare(gold)`` / ``prepare_text(sources, references)`` for the
reference side (parses, gold edits, MaxMatch gold, I-measure candidates, model scores: reused
across calls and systems), and ``score(prepared, predictions)`` returning one :class:`Result`:
the contract values, the per-sentence records and the per-sentence statistics that bootstrap
and significance tests read. The :class:`Signature` (as in sacreBLEU) names every option that
changes the number and the facts of the input that do.
"""
from __future__ import annotations

import hashlib
import importlib
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Generic, Mapping, Sequence, TypeVar

import numpy as np

from gecscore import __version__
from gecscore.errors import GecInputError
from gecscore.options import build_config
from gecscore.types import GoldCorpus, Target

# name -> "module:class"; imported on first use so that `import gecscore` stays light.
METRICS: dict[str, str] = {
    "cleme": "gecscore.chunks.metric:ClemeMetric",
    "cleme2": "gecscore.chunks.metric:Cleme2Metric",
    "pt_m2": "gecscore.m2.metric:PtM2Metric",
    "imeasure": "gecscore.imeasure.metric:IMeasureMetric",
    "dsgram": "gecscore.dsgram.metric:DsgramMetric",
    "gleu": "gecscore.gleu.metric:GleuMetric",
}


@dataclass(frozen=True)
class Signature:
    """``metric|option:value|...|fact:value|...|v:<version>``: the options that change the
    number, then the facts of the input that do (references, gold origin, tokenisation, the
    ERRANT/spaCy/model versions), then the gecscore version."""

    metric: str
    options: tuple[tuple[str, str], ...]
    facts: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        parts = [self.metric, *(f"{k}:{v}" for k, v in (*self.options, *self.facts)), f"v:{__version__}"]
        return "|".join(parts)

    def renamed(self, metric: str) -> "Signature":
        return Signature(metric, self.options, self.facts)


@dataclass(frozen=True)
class Result:
    """What ``score`` returns.

    ``values``: the contract keys (``score`` first). ``sentence_stats``: one row per sentence
    such that ``statistic(sentence_stats.mean(axis=0))`` gives back ``score`` (a bootstrap or
    a significance test resamples the rows). ``detail``: the family's full result.
    """

    metric: str
    signature: Signature
    values: Mapping[str, Any]
    sentence_stats: np.ndarray
    statistic: Callable[[np.ndarray], float] = field(repr=False)
    detail: Any = field(repr=False, default=None)
    records_of: Callable[[], list[dict]] = field(repr=False, default=list)

    @property
    def score(self) -> float:
        return self.values["score"]

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def as_dict(self) -> dict[str, Any]:
        """The CLI/JSON contract: ``metric``, ``signature``, then the metric's keys."""
        return {"metric": self.metric, "signature": str(self.signature), **self.values}

    def records(self) -> list[dict]:
        """One JSON-ready record per sentence (what ``--per-sentence`` writes)."""
        return self.records_of()


@dataclass(frozen=True)
class Prepared:
    """The reference side of a corpus, ready to score any number of systems against.

    ``state`` holds what the metric derived from the gold (built in ``prepare``, filled further
    on first use, e.g. model scores of reference-side pairs); ``facts`` go into signatures.
    """

    gold: GoldCorpus
    facts: tuple[tuple[str, str], ...]
    state: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.gold.sentences)


C = TypeVar("C")
Predictions = Sequence[str] | Sequence[Target]


class Metric(ABC, Generic[C]):
    """One metric with its config. Subclasses set ``name`` and ``config_type`` and implement
    :meth:`prepare` and :meth:`score`."""

    name: ClassVar[str]
    config_type: ClassVar[type]

    def __init__(self, config: C):
        self.config = config

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"

    def close(self) -> None:
        """Release what the metric holds open (a judge's connections and cache); whatever it
        needs again is rebuilt on use. Nothing to release by default."""

    @classmethod
    def from_options(cls, **options: Any) -> "Metric":
        return cls(build_config(cls.config_type, options))

    @abstractmethod
    def prepare(self, gold: GoldCorpus) -> Prepared:
        """The reference side of ``gold``."""

    def prepare_text(self, sources: Sequence[str], references: Sequence[Sequence[str]] | Sequence[str]
                     ) -> Prepared:
        """The reference side of parallel text; reference edits are extracted by ERRANT."""
        from gecscore.extract.gold import gold_from_text

        return self.prepare(gold_from_text(sources, references, tokenize=self.tokenize))

    @property
    def tokenize(self) -> bool:
        return bool(getattr(self.config, "tokenize", False))

    @staticmethod
    def checked_predictions(prepared: Prepared, predictions: Predictions) -> list[Target] | list[str]:
        """One prediction per prepared sentence: the given targets (edits known, e.g. from a
        hypothesis M2 file) or the texts, checked and cleaned (:func:`gecscore.inputs.strings`)."""
        from gecscore import inputs

        if isinstance(predictions, str) or not hasattr(predictions, "__len__"):
            raise GecInputError(f"predictions must be a list, got {type(predictions).__name__}")
        if len(predictions) != len(prepared):
            raise GecInputError(f"got {len(predictions)} predictions for {len(prepared)} sentences")
        if all(isinstance(p, Target) for p in predictions):
            return list(predictions)
        return inputs.strings(predictions, "predictions")

    @abstractmethod
    def score(self, prepared: Prepared, predictions: Predictions) -> Result:
        """Score one system: ``predictions[i]`` corrects sentence i (text, or a Target whose
        edits are given, e.g. from a hypothesis M2 file)."""

    def score_systems(self, prepared: Prepared, systems: Sequence[tuple[str, Predictions]]
                      ) -> list[tuple[str, Result]]:
        """Several systems against one reference side, in order; a metric may share work
        between them (PT-M2 scores the model pairs of all systems in one pass)."""
        return [(name, self.score(prepared, predictions)) for name, predictions in systems]

    def compute(self, sources: Sequence[str], predictions: Predictions,
                references: Sequence[Sequence[str]] | Sequence[str] | None = None) -> Result:
        """Prepare (or reuse the prepared reference side of the same text) and score."""
        from gecscore import inputs

        given_edits = (isinstance(predictions, (list, tuple)) and len(predictions) > 0
                       and all(isinstance(p, Target) for p in predictions))
        if not given_edits:
            inputs.parallel(sources, predictions, self.needed_references(references))
        return self.score(PREPARED.get(self, sources, references), predictions)

    def needed_references(self, references: Any) -> Any:
        """The references, or a clear error when a reference-based metric got none."""
        if references is None:
            raise GecInputError(f"{self.name} needs references (one list of corrected sentences, or one "
                                f"string, per source)")
        return references

    @staticmethod
    def input_facts(prepared: Prepared, errant_used: bool = False) -> tuple[tuple[str, str], ...]:
        """The signature's facts of the input: the gold's, plus ERRANT's and the spaCy model's
        versions when ERRANT extracted edits (from the references or the hypotheses)."""
        if not (errant_used or prepared.gold.origin == "errant"):
            return prepared.facts
        from gecscore.extract.errant_edits import shared_extractor

        return prepared.facts + shared_extractor().facts()

    def reference_key(self) -> tuple:
        """What the prepared reference side depends on besides the data (for caching)."""
        return (self.name, self.tokenize)


def first_column(means: np.ndarray) -> float:
    """The statistic of sentence-level metrics: the system score is the mean sentence score."""
    return float(means[0])


def metric_class(name: str) -> type[Metric]:
    try:
        module_name, class_name = METRICS[name].split(":")
    except KeyError:
        raise GecInputError(f"unknown metric {name!r}; expected one of: {', '.join(METRICS)}") from None
    return getattr(importlib.import_module(module_name), class_name)


def load(name: str, **options: Any) -> Metric:
    """The metric ``name`` (cleme, cleme2, pt_m2, imeasure, dsgram) with ``options``; unknown or
    bad options raise :class:`gecscore.errors.GecOptionError` naming the option."""
    return metric_class(name).from_options(**options)


# ---------------------------------------------------------------- reuse of the reference side

def _encode_field(digest: Any, data: bytes) -> None:
    """One field as its 8-byte length then its bytes: no content can imitate a boundary."""
    digest.update(len(data).to_bytes(8, "big"))
    digest.update(data)


def text_digest(sources: Sequence[str], references: Sequence[Any] | None) -> str:
    """A digest of checked parallel text (sources and their reference lists or strings).

    Every text is length-prefixed UTF-8 and the structure is encoded too (the number of
    sentences, per sentence whether its references are one string, a list or absent, and how
    many), so two inputs share a digest only if they are equal: a separator-like character
    (NUL, \\x01, a tab, a newline) inside a text can never stand for a boundary."""
    digest = hashlib.blake2b(digest_size=20)
    _encode_field(digest, b"S" + len(sources).to_bytes(8, "big"))
    if references is None:
        _encode_field(digest, b"none")
        references = [()] * len(sources)
    for source, refs in zip(sources, references, strict=True):
        _encode_field(digest, source.encode("utf-8", "surrogatepass"))
        kind = b"str" if isinstance(refs, str) else b"list"
        refs = [refs] if isinstance(refs, str) else list(refs)
        _encode_field(digest, kind + len(refs).to_bytes(8, "big"))
        for ref in refs:
            _encode_field(digest, ref.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class PreparedCache:
    """The last ``capacity`` prepared reference sides, keyed by the metric's reference key and
    a digest of the text: a training loop scoring a fixed evaluation set at every step pays for
    the reference side once. Bounded by count (each entry holds one corpus's reference-side
    state); least recently used first out."""

    def __init__(self, capacity: int = 4):
        self.capacity = capacity
        self._entries: OrderedDict[tuple, Prepared] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, metric: Metric, sources: Sequence[str], references: Sequence[Any]) -> Prepared:
        digest = text_digest(sources, references)
        key = (metric.reference_key(), digest)
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                self.hits += 1
                return self._entries[key]
        prepared = metric.prepare_text(sources, references)
        with self._lock:
            self.misses += 1
            self._entries[key] = prepared
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
        return prepared

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


PREPARED = PreparedCache()
