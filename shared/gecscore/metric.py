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
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Generic, Hashable, Mapping, Protocol, Sequence, TypeVar

import numpy as np

from gecscore.cache.safe_pickle import storable
from gecscore.errors import GecInputError
from gecscore.options import DEFAULT_LANG, build_config, format_value
from gecscore.registry import metric_class
from gecscore.result_text import values_text
from gecscore.signature import Facts, Signature, signature_of
from gecscore.types import GoldCorpus, Target

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
    #: each sentence's own score in sentence order (None: a sentence without one), where the
    #: metric has a cheaper way to it than its full records (CLEME's records describe every
    #: chunk); else :meth:`sentence_scores` reads the records
    sentence_scores_of: Callable[[], Sequence[float | None]] | None = field(repr=False, default=None)

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

    def sentence_scores(self) -> tuple[float, ...] | None:
        """The metric's own score of each sentence, in sentence order (NaN where it has none,
        e.g. a sentence the judge failed), or None for a metric without sentence scores: its
        :attr:`Metric.sentence_score_key` field of each record."""
        if self.sentence_scores_of is not None:
            values = list(self.sentence_scores_of())
        else:
            try:
                key = metric_class(self.metric).sentence_score_key
            except GecInputError:   # a metric outside the registry (a test's toy): no declared key
                return None
            records = self.records() if key is not None else []
            if not records or key not in records[0]:
                return None
            values = [record[key] for record in sorted(records, key=lambda record: record["index"])]
        return tuple(float("nan") if value is None else float(value) for value in values)

    def format(self) -> str:
        """The result as text (what ``gecscore <metric>`` prints; sacreBLEU's ``Score.format``):
        the signature, then one line per value. A metric whose result reads better another way
        subclasses :class:`Result` next to the metric and overrides this."""
        return values_text(self.as_dict())


@dataclass(frozen=True)
class Prepared:
    """The reference side of a corpus, ready to score any number of systems against.

    ``state`` holds what the metric derived from the gold (built in ``prepare``, filled further
    on first use, e.g. model scores of reference-side pairs); ``facts`` go into signatures.
    """

    gold: GoldCorpus
    facts: Facts
    state: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # the options of the metric that built it which change its content (``Metric.reference_options``)
    built_under: tuple[tuple[str, Any], ...] = ()

    def __len__(self) -> int:
        return len(self.gold.sentences)


C = TypeVar("C")
T = TypeVar("T")
Predictions = Sequence[str] | Sequence[Target]


@dataclass(frozen=True)
class SharingKey:
    """The key of a collaborator metric objects can share: what it is (``kind``: a pair
    scorer, a weigher, a judge) and every setting that changes it (hashable)."""

    kind: str
    settings: Hashable

    def __str__(self) -> str:
        return f"{self.kind}:{self.settings!r}"


#: a collaborator a metric can share: its key, and how to build it
Shared = tuple[SharingKey, Callable[[], Any]]


class Share(Protocol):
    """How a collaborator is obtained: built now, or taken from a cache of equal keys (the
    leaderboard's per-process cache shares a judge between a weigher and a judged metric)."""

    def __call__(self, key: SharingKey, build: Callable[[], T]) -> T: ...


def build_now(key: SharingKey, build: Callable[[], T]) -> T:
    """A :class:`Share` that shares nothing: the collaborator of one metric object."""
    return build()


class Metric(ABC, Generic[C]):
    """One metric with its config.

    A subclass sets ``name`` (its registry name), ``config_type`` (the frozen config whose
    :func:`gecscore.options.option` fields declare every option) and ``summary`` (one line, for
    the CLI and the docs), and implements :meth:`prepare` and :meth:`_score`. It may add the
    facts of its model or judge to the signature (:meth:`model_facts`) and declare what its
    reference side depends on (:meth:`reference_options`).
    """

    name: ClassVar[str]
    config_type: ClassVar[type]
    summary: ClassVar[str] = ""
    #: whether the metric reads references (DSGram does not); a metric that does reads them
    #: from any gold (an M2 file, an I-measure XML, parallel text): its reference side is
    #: ``prepare(gold)`` whatever the gold was read from
    needs_references: ClassVar[bool] = True
    #: the field of its per-sentence records holding its own score of a sentence (None: it has
    #: none, e.g. a corpus-only statistic such as the I-measure's): what sentence-level
    #: meta-evaluation and edit attribution read (:meth:`Result.sentence_scores`)
    sentence_score_key: ClassVar[str | None] = None
    #: whether an LLM judge may weigh its edits, an unanswered weight falling back to 1
    #: (CLEME's ``weighting="llm"``; the result then has ``llm_edits`` and ``llm_fallbacks``):
    #: the CLI's ``--max-fallback-share`` applies
    llm_weights: ClassVar[bool] = False
    #: whether its sentence-level score is split over the hypothesis edits
    #: (:mod:`gecscore.attribution`: the CLI's ``--per-edit``); the metric takes ``level``
    per_edit: ClassVar[bool] = False
    #: whether it has trade-off weights that ``gecscore tune-weights`` tunes against human
    #: rankings (:mod:`gecscore.metaeval.weight_tuning`)
    tunable_weights: ClassVar[bool] = False
    #: the gold :meth:`prepare` takes, one of :data:`gecscore.types.GOLD_FORMATS` (a reference set offers both)
    gold_format: ClassVar[str] = "m2"

    def __init__(self, config: C):
        self.config = config

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"

    def close(self) -> None:
        """Release what the metric holds open (a judge's connections and cache); whatever it
        needs again is rebuilt on use. Nothing to release by default."""

    def judge_used(self) -> Any | None:
        """The LLM judge this metric object has built, if any (a caller reports its counts
        before :meth:`close`); none by default."""
        return None

    @classmethod
    def from_options(cls, **options: Any) -> "Metric":
        return cls(build_config(cls.config_type, options))

    # ------------------------------------------------------------ collaborators

    def shared_collaborators(self, progress: bool = False, share: Share = build_now) -> dict[str, Shared]:
        """The model-backed collaborators this configuration can share with other metric
        objects, as ``{constructor keyword: (key, zero-argument builder)}``: objects whose keys
        are equal can share one (its model, caches and connections). The key holds every
        option that changes the collaborator, read from the validated config. The metric builds
        its own from here when none was passed; a caller scoring many configurations (the
        leaderboard) builds each key once and passes it. ``share`` obtains a collaborator's own
        collaborators (an LLM weigher's judge); ``progress``: bars for the model passes. None
        by default."""
        return {}

    def own_collaborator(self, keyword: str) -> Any:
        """The collaborator ``keyword`` of :meth:`shared_collaborators`, built for this object
        alone (none was passed to its constructor)."""
        _, build = self.shared_collaborators()[keyword]
        return build()

    # ------------------------------------------------------------ the reference side

    @abstractmethod
    def prepare(self, gold: GoldCorpus) -> Prepared:
        """The reference side of ``gold``."""

    def prepared(self, gold: GoldCorpus, facts: Facts | None = None, state: dict[str, Any] | None = None
                 ) -> Prepared:
        """A :class:`Prepared` of ``gold`` stamped with this metric's reference options."""
        return Prepared(gold, gold.facts() if facts is None else facts, {} if state is None else state,
                        self.reference_options())

    def prepare_text(self, sources: Sequence[str], references: Sequence[Sequence[str]] | Sequence[str]
                     ) -> Prepared:
        """The reference side of parallel text; reference edits are extracted by the language
        profile (``lang``: ERRANT for English, ChERRANT for Chinese, ...)."""
        from gecscore.lang.profiles import gold_of

        return self.prepare(gold_of(self.profile(), sources, references, self.tokenize))

    def prepare_para(self, path: str) -> Prepared:
        """The reference side of a parallel file (ChERRANT's format: ``id<TAB>source<TAB>
        reference[<TAB>reference...]``; ``没有错误`` and ``无法标注`` as ChERRANT reads them under
        ``lang="zh"``)."""
        from gecscore.io.para import read_para

        para = read_para(path)
        return self.prepare_text(list(para.sources), [list(targets) for targets in para.targets])

    @property
    def tokenize(self) -> bool:
        return bool(getattr(self.config, "tokenize", False))

    @property
    def lang(self) -> str:
        """The config's validated ``lang``; a config without one reads English text (the
        declaration's default, not a second literal)."""
        return getattr(self.config, "lang", DEFAULT_LANG)

    def profile(self):
        """The language profile this metric reads text through (:mod:`gecscore.lang.profiles`)."""
        from gecscore.lang.profiles import profile_for

        return profile_for(self.lang)

    def tokens_of(self, predictions: Sequence[str]) -> list[str]:
        """The predictions as tokens comparable with the prepared sources (the profile's)."""
        return self.profile().predictions(predictions, self.tokenize)

    def reference_options(self) -> tuple[tuple[str, Any], ...]:
        """What a prepared reference side depends on besides the data: the kind of reference
        side (metrics that build the same one share it) and the options that change its
        content. A :class:`Prepared` remembers them; :meth:`score` refuses one built under
        others."""
        return (("reference side", self.name), ("tokenize", self.tokenize), ("lang", self.lang))

    def reference_key(self) -> tuple:
        """The key of this metric's prepared reference side in caches (with a text digest)."""
        return self.reference_options()

    def check_prepared(self, prepared: Any) -> Prepared:
        """``prepared``, or a clear error when it is not a reference side this metric can use."""
        if not isinstance(prepared, Prepared):
            raise GecInputError(f"{self.name}.score needs the reference side from prepare(...) or "
                                f"prepare_text(...), got {type(prepared).__name__}")
        ours = dict(self.reference_options())
        theirs = dict(prepared.built_under)
        if theirs != ours:
            differing = [k for k in dict.fromkeys([*ours, *theirs]) if ours.get(k) != theirs.get(k)]
            said = "; ".join(f"{k}: prepared with {_said(theirs.get(k))}, this metric has {_said(ours.get(k))}"
                             for k in differing)
            raise GecInputError(f"this reference side was prepared under other options ({said}); prepare it "
                                f"again with this metric")
        return prepared

    # ------------------------------------------------------------ scoring

    @staticmethod
    def checked_predictions(prepared: Prepared, predictions: Predictions) -> list[Target] | list[str]:
        """One prediction per prepared sentence: the given targets (edits known, e.g. from a
        hypothesis M2 file) or the texts, checked and cleaned (:func:`gecscore.inputs.strings`)."""
        from gecscore import inputs

        if isinstance(predictions, str) or not hasattr(predictions, "__len__"):
            raise GecInputError(f"predictions must be a list, got {type(predictions).__name__}")
        if len(predictions) != len(prepared):
            raise GecInputError(f"got {len(predictions)} predictions for {len(prepared)} sentences")
        if len(predictions) and all(isinstance(p, Target) for p in predictions):
            return list(predictions)
        return inputs.strings(predictions, "predictions")

    def hypothesis_edits_key(self) -> str:
        """The key of the hypothesis edits in a system's ``work``: every configuration reading
        text in this language and tokenisation extracts the same ones."""
        return f"hypothesis edits:{self.lang}:tok={self.tokenize}"

    def system_work(self) -> str:
        """What this configuration computes of a system that others may reuse (in the seam's
        ``work``), as a key: a caller spreading configurations over processes (the
        leaderboard's workers) scores those with equal keys together, so that work is done
        once. By default the reference side's options (configurations preparing the same
        reference side compute the same system-side work: M2's MaxMatch candidates); a metric
        extracting hypothesis edits answers :meth:`hypothesis_edits_key` (the parse of every
        changed sentence, the costliest work a system has). It only decides where a number
        is computed, never the number."""
        return repr(self.reference_options())

    def hypothesis_edits(self, prepared: Prepared, predictions: Sequence[str], work: dict[str, Any]
                         ) -> list[Target]:
        """The predictions' edits against the prepared sources (the language profile's: ERRANT
        for English), extracted once per system (``work`` keeps them for every configuration
        scoring that system)."""
        key = self.hypothesis_edits_key()
        if key not in work:
            profile = self.profile()
            work[key] = profile.hypothesis_targets(prepared.gold.sources, self.tokens_of(predictions))
        return work[key]

    def score(self, prepared: Prepared, predictions: Predictions, *, work: dict[str, Any] | None = None
              ) -> Result:
        """Score one system: ``predictions[i]`` corrects sentence i (text, or a Target whose
        edits are given, e.g. from a hypothesis M2 file).

        ``work``: a dict kept per system by a caller that scores the same predictions with
        several configurations (the leaderboard): the hypothesis edits, chunk partitions and
        MaxMatch candidates computed by one are reused by the others (keys name every option
        they depend on)."""
        return self._score(self.check_prepared(prepared), predictions, {} if work is None else work)

    @abstractmethod
    def _score(self, prepared: Prepared, predictions: Predictions, work: dict[str, Any]) -> Result:
        """:meth:`score` once ``prepared`` is checked."""

    def score_systems(self, prepared: Prepared, systems: Sequence[tuple[str, Predictions]],
                      works: Sequence[dict[str, Any]] | None = None) -> list[tuple[str, Result]]:
        """Several systems against one reference side, in order; a metric may share work
        between them (PT-M2 scores the model pairs of all systems in one pass). ``works``: one
        ``work`` dict per system (see :meth:`score`)."""
        works = list(works) if works is not None else [{} for _ in systems]
        return [(name, self.score(prepared, predictions, work=work))
                for (name, predictions), work in zip(systems, works, strict=True)]

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

    def needs_all_systems(self) -> bool:
        """Whether a system's score depends on the other systems scored with it (GoToScorer's
        weights): such a metric is scored through :meth:`score_systems` only."""
        return False

    def needs(self) -> str:
        """What this configuration needs besides the data: "similarity" (a BERTScore/BARTScore
        model weighing edits: the leaderboard's run-wide --model applies), "model" (another
        pretrained model of its own, e.g. SOME's regressors), "judge" (an LLM judge) or ""."""
        return ""

    # ------------------------------------------------------------ the signature

    def model_facts(self) -> Facts:
        """What the signature records of the model or judge behind the number (the model and
        layer that weighed the edits, the judge's backend and model); none by default."""
        return ()

    def signature(self, prepared: Prepared, extracted: bool = False) -> Signature:
        """The signature of a result on ``prepared``: the config's options (as declared), the
        model facts, the input's facts (``extracted``: ERRANT extracted the hypothesis edits)."""
        return signature_of(self.name, self.config, self.model_facts(), self.input_facts(prepared, extracted))

    def input_facts(self, prepared: Prepared, extracted: bool = False) -> Facts:
        """The signature's facts of the input: the gold's (with what extracted its edits), plus
        the language profile's (ERRANT's and the spaCy model's versions for English) when it
        extracted the hypotheses' edits."""
        from gecscore.lang.profiles import profile_for

        facts = prepared.facts
        profiles = ([profile_for("en")] if prepared.gold.origin == "errant" else []) + ([self.profile()] if extracted
                                                                                       else [])
        keys = {key for key, _ in facts}
        for profile in profiles:
            new = tuple((k, v) for k, v in profile.facts() if k not in keys)
            facts += new
            keys.update(k for k, _ in new)
        return facts


def _said(value: Any) -> str:
    return "nothing" if value is None else format_value(value) if not isinstance(value, str) else value


@storable
def first_column(means: np.ndarray) -> float:
    """The statistic of sentence-level metrics: the system score is the mean sentence score."""
    return float(means[0])


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
