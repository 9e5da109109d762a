"""From samples to weighted, labelled chunks: the shared front half of CLEME and CLEME2.0.

Partitioning is the expensive step and does not depend on the metric options, so
:func:`partition_corpus` is separate: partition once, label once per assumption, then weigh
for each setting (:func:`weigh_corpus`, whole-corpus arrays: :mod:`gecscore.chunks.candidates`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from gecscore.chunks.candidates import CandidateLabels, WeighedCandidates
from gecscore.chunks.config import MODEL_WEIGHTINGS, WEIGHTINGS
from gecscore.chunks.labels import ASSUMPTIONS, LabelledChunks, label_sample
from gecscore.chunks.length_weights import length_bias, length_weights
from gecscore.chunks.partition import partition_chunks
from gecscore.lru import LruCache
from gecscore.options import LEVELS
from gecscore.types import ChunkPartition, Sample

SAMPLE_MEMO_SIZE = 20_000   # samples one gold keeps (about 7 KB each: a partition and its labels)


@dataclass(frozen=True, slots=True)
class SampleChunks:
    """One sample's partition and its candidate labellings (one per reference under dep)."""

    sample: Sample
    partition: ChunkPartition
    candidates: tuple[LabelledChunks, ...]


class SampleMemo:
    """Partitions and labels kept by sample across the systems scored against one gold.

    A sample's partition is a function of its source, its references and its hypothesis; within
    one gold the index fixes the source and references, so the key is the index, the source and
    the hypothesis's tokens and edits, and a line a system leaves unchanged, or corrects as an
    earlier system did, is not partitioned or labelled again (56% of CoNLL-2014's samples after
    the first of its 13 systems). Bounded (least recently used out): a training loop scoring at
    every step keeps its working set. Keep one per gold (``Prepared.state``), never share one
    between golds.
    """

    def __init__(self, capacity: int = SAMPLE_MEMO_SIZE):
        self._partitions = LruCache(capacity)
        self._labels = LruCache(capacity)

    @staticmethod
    def key(sample: Sample) -> tuple:
        return (sample.index, sample.source, sample.hypothesis.tokens, sample.hypothesis.edits)

    def partition(self, sample: Sample, key: tuple) -> ChunkPartition:
        found = self._partitions.get_fresh(key)
        if found is None:
            found = partition_chunks(sample.source, sample.hypothesis, sample.kept_references())
            self._partitions.put(key, found)
        return found

    def labels(self, partition: ChunkPartition, key: tuple, assumption: str) -> tuple[LabelledChunks, ...]:
        found = self._labels.get_fresh((key, assumption))
        if found is None:
            found = label_sample(partition, assumption)
            self._labels.put((key, assumption), found)
        return found


class ChunkedCorpus(Sequence[ChunkPartition]):
    """The partitions of a corpus (a sequence of :class:`ChunkPartition`), with each
    assumption's unit-weight labels computed once and reused by every metric setting (taken
    from ``memo`` where it has them: ``keys``, each sample's :meth:`SampleMemo.key`)."""

    def __init__(self, partitions: Sequence[ChunkPartition], memo: SampleMemo | None = None,
                 keys: Sequence[tuple] | None = None):
        self.partitions = list(partitions)
        self._memo = memo if keys is not None else None
        self._keys = keys
        self._labels: dict[str, list[tuple[LabelledChunks, ...]]] = {}
        self._candidates: dict[str, CandidateLabels] = {}
        self._lengths: list[tuple[int, ...]] | None = None
        self._bias: float | None = None

    def __len__(self) -> int:
        return len(self.partitions)

    def __getitem__(self, index):
        return self.partitions[index]

    def labelled(self, assumption: str) -> list[tuple[LabelledChunks, ...]]:
        if assumption not in self._labels:
            check_option("assumption", assumption, ASSUMPTIONS)
            if self._memo is not None:
                memo = self._memo
                self._labels[assumption] = [memo.labels(p, k, assumption) for p, k in zip(self.partitions, self._keys)]
            else:
                self._labels[assumption] = [label_sample(p, assumption) for p in self.partitions]
        return self._labels[assumption]

    def candidates(self, assumption: str) -> CandidateLabels:
        """The assumption's labels as arrays (:mod:`gecscore.chunks.candidates`), built once."""
        if assumption not in self._candidates:
            self._candidates[assumption] = CandidateLabels.of(self.labelled(assumption), self.hypothesis_lengths())
        return self._candidates[assumption]

    def hypothesis_lengths(self) -> list[tuple[int, ...]]:
        if self._lengths is None:
            self._lengths = [p.hypothesis_lengths() for p in self.partitions]
        return self._lengths

    def length_bias(self) -> float:
        if self._bias is None:
            self._bias = length_bias(self.partitions)
        return self._bias


def partition_corpus(samples: Sequence[Sample], memo: SampleMemo | None = None) -> ChunkedCorpus:
    """Partition every sample against its kept (non-empty) references (through ``memo``, one
    gold's :class:`SampleMemo`, when given)."""
    if memo is None:
        return ChunkedCorpus([partition_chunks(s.source, s.hypothesis, s.kept_references()) for s in samples])
    keys = [memo.key(s) for s in samples]
    return ChunkedCorpus([memo.partition(s, k) for s, k in zip(samples, keys)], memo, keys)


def check_option(name: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ValueError(f"unknown {name} {value!r}; expected one of: {', '.join(allowed)}")


# A weigher receives the whole corpus (so model calls can be batched) and returns, for each
# sample and candidate, one weight per chunk.
CorpusWeigher = Callable[[Sequence[Sample], Sequence[ChunkPartition],
                          Sequence[Sequence[LabelledChunks]]], list[list[Sequence[float]]]]


def weigh_corpus(samples: Sequence[Sample], *, assumption: str, level: str, weighting: str,
                 partitions: Sequence[ChunkPartition] | None = None, weigher: CorpusWeigher | None = None
                 ) -> tuple[ChunkedCorpus, WeighedCandidates]:
    """Label every sample's chunks and weigh them: the partitions and, for every candidate
    labelling, its chunk weights and counts.

    ``weighting`` is ``none`` or ``length``; ``similarity`` and ``llm`` need a model, given as
    ``weigher`` (:func:`gecscore.chunks.weighers.build_chunk_weigher` makes one).
    """
    check_option("assumption", assumption, ASSUMPTIONS)
    check_option("level", level, LEVELS)
    check_option("weighting", weighting, WEIGHTINGS)
    if weighting in MODEL_WEIGHTINGS and weigher is None:
        raise ValueError(f"weighting {weighting!r} needs a model: pass weigher=build_chunk_weigher("
                         f"{weighting!r}, ...) from gecscore.chunks.weighers")
    if partitions is None:
        partitions = partition_corpus(samples)
    elif not isinstance(partitions, ChunkedCorpus):
        partitions = ChunkedCorpus(partitions)
    if len(partitions) != len(samples):
        raise ValueError(f"{len(partitions)} partitions for {len(samples)} samples")
    candidates = partitions.candidates(assumption)
    if weigher is not None:
        weights = candidates.model_weights(weigher(samples, partitions, candidates.labelled))
    elif weighting == "length":
        weights = candidates.length_weights(length_weights(level, assumption, partitions.length_bias()))
    else:
        weights = None
    return partitions, candidates.weighed(weights)


def label_corpus(samples: Sequence[Sample], *, assumption: str, level: str, weighting: str,
                 partitions: Sequence[ChunkPartition] | None = None, weigher: CorpusWeigher | None = None
                 ) -> list[SampleChunks]:
    """:func:`weigh_corpus` as one :class:`SampleChunks` per sample."""
    partitions, weighed = weigh_corpus(samples, assumption=assumption, level=level, weighting=weighting,
                                       partitions=partitions, weigher=weigher)
    return sample_chunks(samples, partitions, weighed)


def sample_chunks(samples: Sequence[Sample], partitions: Sequence[ChunkPartition],
                  weighed: WeighedCandidates) -> list[SampleChunks]:
    """Each sample with its partition and its weighed candidates as objects."""
    return [SampleChunks(s, p, c) for s, p, c in zip(samples, partitions, weighed.candidates(), strict=True)]
