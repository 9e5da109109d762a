"""Metric configurations a leaderboard can run: name -> function scoring one system.

A configuration scores one :class:`SystemData` against shared :class:`ReferenceData`. Both
carry a ``cache`` so that work done once is reused: reference-side work (gold edits, reference
parses, model weights) across all systems of a worker process, and system-side work (the
hypothesis edits, CLEME's chunk partition) across all configurations of one system.

CLEME and CLEME2.0 are registered here. The other metrics plug in at the marked
registration points below: each family names the module it needs and is reported as
"not available" (never faked) until that module exists and its entries are written.
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from gecscore.errors import GecInputError
from gecscore.metaeval.refsets import RefSet
from gecscore.types import Sample, Target


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
    from gecscore.metrics.chunk_labels import ChunkCounts
    from gecscore.metrics.cleme2 import disentangled_scores

    tp, fp_ne, fp_un, fn = means
    return disentangled_scores(ChunkCounts(tp, fp_ne, fp_un, fn), alphas)["score"]


def cleme_from_counts(means: np.ndarray, beta: float) -> float:
    from gecscore.metrics.cleme import precision_recall_f

    tp, fp, fn = means
    return precision_recall_f(tp, fp, fn, beta)[2]


def chunk_partitions(system: SystemData, refs: ReferenceData):
    """CLEME's chunk partition of a system: computed once, shared by every CLEME configuration."""
    from gecscore.metrics.chunk_evaluation import partition_corpus

    return system.cached("chunk_partitions", lambda: partition_corpus(system.samples(refs)))


def _score_chunk_metric(system: SystemData, refs: ReferenceData, *, metric: str, level: str,
                        assumption: str, weighting: str) -> SystemScore:
    from gecscore.metrics.chunk_report import result_dict
    from gecscore.metrics.cleme import score_cleme
    from gecscore.metrics.cleme2 import parse_alphas, score_cleme2

    samples = system.samples(refs)
    partitions = chunk_partitions(system, refs)
    common = dict(level=level, assumption=assumption, weighting=weighting, partitions=partitions)
    if metric == "cleme2":
        result = score_cleme2(samples, **common)
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


_register_chunk_metrics()


# ---------------------------------------------------------------- registration points
# Each family below is reported "not available" until its module exists AND its entries are
# registered. To plug one in: write ``_register_<family>()`` registering MetricConfig entries
# named as listed (their score functions take (SystemData, ReferenceData) and return a
# SystemScore; cache reference-side work in ``refs.cached(...)``), and call it from
# ``PENDING[<family>].register`` instead of ``None``.

@dataclass(frozen=True)
class PendingFamily:
    module: str
    names: tuple[str, ...]
    register: Callable[[], None] | None = None


PENDING: dict[str, PendingFamily] = {
    # M2 / SentM2 (MaxMatch) over the official gold: gecscore.metrics.m2
    "m2": PendingFamily("gecscore.metrics.m2", ("m2-corpus", "m2-sentence")),
    # PT-M2 / SentPT-M2 (BERTScore-weighted M2) and PT-ERRANT: gecscore.metrics.pt_m2
    "pt_m2": PendingFamily("gecscore.metrics.pt_m2", ("pt_m2-corpus", "pt_m2-sentence", "pt_errant-corpus",
                                                      "pt_errant-sentence", "errant-corpus", "errant-sentence")),
    # I-measure over the I-measure XML gold: gecscore.metrics.imeasure
    "imeasure": PendingFamily("gecscore.metrics.imeasure", ("imeasure",)),
    # CLEME2.0 with similarity (BERTScore) weights: needs the similarity weigher
    "cleme2_sim": PendingFamily("gecscore.weigh.similarity", ("cleme2-sim-corpus-dep", "cleme2-sim-corpus-ind",
                                                              "cleme2-sim-sentence-dep", "cleme2-sim-sentence-ind")),
    # DSGram and LLM edit weights need a judge endpoint: gecscore.metrics.dsgram
    "dsgram": PendingFamily("gecscore.metrics.dsgram", ("dsgram",)),
}


def _activate_pending() -> dict[str, str]:
    """Register the families whose module exists and whose entries are written; the reasons
    the others are not available."""
    reasons = {}
    for family, pending in PENDING.items():
        if all(name in REGISTRY for name in pending.names):
            continue
        try:
            found = importlib.util.find_spec(pending.module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            reason = f"not available: module {pending.module} not found"
        elif pending.register is None:
            reason = f"not available: {pending.module} exists but its leaderboard entries are not registered yet"
        else:
            pending.register()
            continue
        for name in pending.names:
            reasons[name] = reason
    return reasons


def resolve(patterns: Sequence[str] | None = None) -> tuple[list[MetricConfig], dict[str, str]]:
    """Configurations matching ``patterns`` (names, families or shell globs; all if None) and
    ``{name: reason}`` for requested ones that are not available. Unknown names raise."""
    unavailable_all = _activate_pending()
    if not patterns:
        return list(REGISTRY.values()), unavailable_all
    chosen: dict[str, MetricConfig] = {}
    unavailable: dict[str, str] = {}
    known = [*REGISTRY, *unavailable_all]
    for pattern in patterns:
        if pattern in known:
            matches = [pattern]
        else:
            matches = [n for n in known if fnmatchcase(n, pattern) or n.startswith(pattern + "-")
                       or (REGISTRY[n].family if n in REGISTRY else "") == pattern]
            matches += [n for f, p in PENDING.items() if f == pattern for n in p.names if n not in matches]
        if not matches:
            raise GecInputError(f"unknown metric configuration {pattern!r}; known: {', '.join(known)}")
        for name in matches:
            if name in REGISTRY:
                chosen.setdefault(name, REGISTRY[name])
            else:
                unavailable[name] = unavailable_all[name]
    return list(chosen.values()), unavailable
