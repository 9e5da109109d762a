"""CLEME2.0-sim chunk weights: BERTScore F1 of pseudo-sentences against references
(:mod:`gecscore.models.similarity` scores the pairs)."""
from __future__ import annotations

from typing import Sequence

from gecscore.chunks.labels import Label, LabelledChunks
from gecscore.models.loading import model_label
from gecscore.models.similarity import BertScoreF1, Pair, apply_span
from gecscore.types import Chunk, ChunkPartition, Sample



def _chunk_pseudo(source: Sequence[str], chunk: Chunk) -> str:
    pseudo = apply_span(source, chunk.start, chunk.end, chunk.target)
    return pseudo if pseudo else " ".join(source)


def reference_side(sample: Sample) -> list[str]:
    """The source and the references of a sample, as the pairs spell them."""
    return [" ".join(sample.source), *(" ".join(r.tokens) for r in sample.kept_references())]


def _chunk_requests(sample: Sample, partition: ChunkPartition, candidate: LabelledChunks
                    ) -> list[list[tuple[Pair, Pair]] | None]:
    """Per chunk: None (TN, weight 1) or the (pseudo, r) and (src, r) pairs, one per
    reference it is weighed against."""
    source = sample.source
    src_text = " ".join(source)
    references = sample.kept_references()
    indices = range(len(references)) if candidate.reference is None else (candidate.reference,)
    requests = []
    for index, label in enumerate(candidate.labels):
        if label is Label.TN:
            requests.append(None)
            continue
        pairs = []
        for k in indices:
            reference = " ".join(references[k].tokens)
            chunk = partition.references[k][index] if label is Label.FN else partition.hypothesis[index]
            pairs.append(((_chunk_pseudo(source, chunk), reference), (src_text, reference)))
        requests.append(pairs)
    return requests


class SimilarityChunkWeigher:
    """The CLEME2.0 weigher of ``--weighting similarity`` (CLEME2.0-sim).

    For reference r: anchor = F1(src, r). A TP/FP_ne/FP_un chunk weighs |F1(pseudo, r) -
    anchor| with pseudo = src with only that hypothesis chunk applied; an FN chunk likewise
    with r's chunk at that index; an empty pseudo is replaced by src; TN weighs 1. Under the
    independent assumption (candidate reference None) a chunk is weighed against every
    reference and takes the largest weight. All pairs of the corpus are scored in one batch;
    the embeddings of the sources and references are kept for the next call (another system).
    """

    def __init__(self, scorer: BertScoreF1):
        """``scorer``: the BERTScore scorer of the weights (from a config:
        :meth:`gecscore.models.similarity.SimilaritySettings.build`)."""
        self.scorer = scorer

    @property
    def model(self) -> str:
        return self.scorer.model

    def facts(self) -> tuple[tuple[str, str], ...]:
        """The model and layer (known once the model is loaded, i.e. after weighing)."""
        return (("model", model_label(self.model)), ("layer", str(self.scorer.layer)))

    def __call__(self, samples: Sequence[Sample], partitions: Sequence[ChunkPartition],
                 labelled: Sequence[Sequence[LabelledChunks]]) -> list[list[tuple[float, ...]]]:
        requests = [[_chunk_requests(sample, partition, candidate) for candidate in candidates]
                    for sample, partition, candidates in zip(samples, partitions, labelled, strict=True)]
        pairs = [pair for per_sample in requests for per_candidate in per_sample
                 for chunk in per_candidate if chunk for both in chunk for pair in both]
        # The sources and references come back with every system: their embeddings are kept.
        self.scorer.keep(dict.fromkeys(text for sample in samples for text in reference_side(sample)))
        scores = dict(zip(pairs, self.scorer.score(pairs)))
        return [[tuple(1.0 if chunk is None else max(abs(scores[p] - scores[a]) for p, a in chunk)
                       for chunk in per_candidate)
                 for per_candidate in per_sample]
                for per_sample in requests]
