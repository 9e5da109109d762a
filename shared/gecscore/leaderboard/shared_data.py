"""What the configurations of a leaderboard run share in one process, so that work done once is
reused: :class:`ReferenceData` holds the reference-side work (prepared reference sides, model
scorers, weighers, judges) across all systems, :class:`SystemData` a system's output and the
system-side work (the hypothesis edits, CLEME's chunk partition, MaxMatch candidates: the seam's
``work`` dict) across all configurations of that system.

Which collaborators a metric can share, and under which key, is the metric's own declaration
(``Metric.shared_collaborators``); which gold it prepares from too (``Metric.gold_format``):
nothing here knows a metric by name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TypeVar

from gecscore.errors import GecInputError
from gecscore.leaderboard.configurations import Configuration
from gecscore.benchdata.refsets import RefSet
from gecscore.leaderboard.run_wide import RunWide
from gecscore.metric import Metric, Prepared, SharingKey
from gecscore.types import GoldCorpus, Target

T = TypeVar("T")


@dataclass
class ReferenceData:
    """The reference set and whatever configurations derive from it (per process)."""

    refset: RefSet
    run: RunWide = field(default_factory=RunWide)
    cache: dict[str, Any] = field(default_factory=dict)   # by what it holds (``metric:NAME``, ``judge:...``)

    def cached(self, key: str | SharingKey, compute: Callable[[], T]) -> T:
        """What ``compute`` gives, computed once per ``key`` (a shared collaborator's key by its
        text: the cache reads like what it holds)."""
        key = str(key)
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    def metric(self, config: Configuration) -> Metric:
        """The metric object of a configuration (built once per process), its model scorer,
        weigher or judge shared with every configuration that has the same one."""
        return self.cached(f"metric:{config.name}", lambda: self._build(config))

    def _build(self, config: Configuration) -> Metric:
        metric = config.build()
        shared = metric.shared_collaborators(progress=self.run.progress, share=self.cached)
        return config.metric_class(metric.config,
                                   **{keyword: self.cached(key, build) for keyword, (key, build) in shared.items()})

    def gold(self, gold_format: str) -> GoldCorpus:
        """The reference set's gold in ``gold_format`` (read once per process)."""
        return self.cached(f"gold:{gold_format}", lambda: self.refset.gold(gold_format))

    def prepared(self, metric: Metric) -> Prepared:
        """The metric's prepared reference side of this reference set, built once per process
        from the gold in the format the metric declares (the sources for a reference-free one)."""
        def prepare() -> Prepared:
            if not metric.needs_references:
                return metric.prepare_text(self.refset.sources)
            return metric.prepare(self.gold(metric.gold_format))
        return self.cached(f"prepared:{metric.reference_key()}", prepare)


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

    def scored_by(self, metric: Metric, refs: ReferenceData) -> list[str] | list[Target]:
        """What ``metric`` scores of this system: the predictions, or the text for a
        reference-free metric."""
        return self.predictions(refs) if metric.needs_references else self.lines(refs)


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
