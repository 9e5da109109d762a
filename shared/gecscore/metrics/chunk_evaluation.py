"""From samples to weighted, labelled chunks: the shared front half of CLEME and CLEME2.0.

Partitioning is the expensive step and does not depend on the metric options, so
:func:`partition_corpus` is separate: partition once, then label and weigh for each
setting.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from gecscore.align.chunk_partition import partition_chunks
from gecscore.metrics.chunk_labels import ASSUMPTIONS, LabelledChunks, label_sample
from gecscore.types import ChunkPartition, Sample
from gecscore.weigh.length import chunk_length_weights, length_bias, length_weights

LEVELS = ("corpus", "sentence")
WEIGHTINGS = ("none", "length")


@dataclass(frozen=True, slots=True)
class SampleChunks:
    """One sample's partition and its candidate labellings (one per reference under dep)."""

    sample: Sample
    partition: ChunkPartition
    candidates: tuple[LabelledChunks, ...]


def partition_corpus(samples: Sequence[Sample]) -> list[ChunkPartition]:
    """Partition every sample against its kept (non-empty) references."""
    return [partition_chunks(s.source, s.hypothesis, s.kept_references()) for s in samples]


def check_option(name: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ValueError(f"unknown {name} {value!r}; expected one of: {', '.join(allowed)}")


# A weigher receives the whole corpus (so model calls can be batched) and returns, for each
# sample and candidate, one weight per chunk.
CorpusWeigher = Callable[[Sequence[Sample], Sequence[ChunkPartition],
                          Sequence[Sequence[LabelledChunks]]], list[list[Sequence[float]]]]


def label_corpus(samples: Sequence[Sample], *, assumption: str = "dep", level: str = "corpus",
                 weighting: str = "none", partitions: Sequence[ChunkPartition] | None = None,
                 weigher: CorpusWeigher | None = None) -> list[SampleChunks]:
    """Label every sample's chunks and weigh them.

    ``weighting`` is ``none`` or ``length``; any other weighting is given as ``weigher``.
    """
    check_option("assumption", assumption, ASSUMPTIONS)
    check_option("level", level, LEVELS)
    if partitions is None:
        partitions = partition_corpus(samples)
    labelled = [label_sample(partition, assumption) for partition in partitions]
    if weigher is not None:
        weights = weigher(samples, partitions, labelled)
        labelled = [tuple(c.reweighted(w) for c, w in zip(cands, ws, strict=True))
                    for cands, ws in zip(labelled, weights, strict=True)]
    elif weighting == "length":
        params = length_weights(level, assumption, length_bias(partitions))
        labelled = [tuple(c.reweighted(chunk_length_weights(params, partition, c.labels)) for c in cands)
                    for partition, cands in zip(partitions, labelled)]
    else:
        check_option("weighting", weighting, WEIGHTINGS)
    return [SampleChunks(s, p, c) for s, p, c in zip(samples, partitions, labelled, strict=True)]
