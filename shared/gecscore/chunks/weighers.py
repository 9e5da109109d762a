"""The model-backed chunk weighers of CLEME / CLEME2.0 ``weighting="similarity"|"llm"``.

A weigher sees the whole corpus at once (so model calls are batched and deduplicated) and
returns, per sample and candidate labelling, one weight per chunk; ``facts()`` names what it
adds to the metric signature (model and layer, or the judge).
"""
from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

from gecscore.chunks.labels import LabelledChunks
from gecscore.options import DEFAULT_PRECISION
from gecscore.types import ChunkPartition, Sample


@runtime_checkable
class ChunkWeigher(Protocol):
    def __call__(self, samples: Sequence[Sample], partitions: Sequence[ChunkPartition],
                 labelled: Sequence[Sequence[LabelledChunks]]) -> list[list[Sequence[float]]]: ...

    def facts(self) -> tuple[tuple[str, str], ...]: ...


def build_chunk_weigher(weighting: str, *, model: str | None = None, num_layers: int | None = None,
                        batch_size: int | None = None, device: str | None = None, judge: Any = None,
                        progress: bool = True, precision: str = DEFAULT_PRECISION) -> ChunkWeigher | None:
    """``similarity``: BERTScore weights (default bert-base-uncased, layer 9); ``llm``: edit
    weights 1-5 from ``judge`` (a :class:`gecscore.judge.runner.Judge`); else None."""
    if weighting == "similarity":
        from gecscore.chunks.similarity_weights import SimilarityChunkWeigher
        from gecscore.models.similarity import make_scorer

        return SimilarityChunkWeigher(make_scorer("bertscore", model, num_layers, batch_size, device, progress,
                                                  precision))
    if weighting == "llm":
        from gecscore.chunks.llm_weights import llm_chunk_weigher

        if judge is None:
            raise ValueError("weighting 'llm' needs a judge (gecscore.judge.factory.build_judge)")
        return llm_chunk_weigher(judge)
    return None
