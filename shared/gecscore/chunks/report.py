"""Contract values and per-sentence records of CLEME / CLEME2.0 results."""
from __future__ import annotations

from gecscore.chunks.cleme import ChunkMetricResult

CONTRACT_KEYS = {
    "cleme": ("score", "p", "r", "f", "tp", "fp", "fn", "tn"),
    "cleme2": ("score", "hit", "wrong", "under", "over", "tp", "fp_ne", "fp_un", "fn", "tn"),
}


def result_values(result: ChunkMetricResult) -> dict:
    """The metric's fixed contract keys (``score`` first), without ``metric``/``signature``
    (the metric seam adds those)."""
    values = {**result.scores, **result.counts.as_dict(), "fp": result.counts.fp}
    return {key: values[key] for key in CONTRACT_KEYS[result.metric]}


def sentence_records(result: ChunkMetricResult) -> list[dict]:
    """One record per sentence: its scores, counts, chosen reference and every chunk with its
    label and weight (hypothesis chunk, source chunk, each reference's chunk)."""
    records = []
    for sentence, sample_chunks in zip(result.sentences, result.chunks):
        choice = sentence.choice
        partition = sample_chunks.partition
        chunks = []
        for i, hyp in enumerate(partition.hypothesis):
            chunks.append({
                "span": [hyp.start, hyp.end],
                "source": " ".join(hyp.source),
                "hypothesis": " ".join(hyp.target),
                "references": [" ".join(ref[i].target) for ref in partition.references],
                "changed": {"hypothesis": hyp.changed, "references": [ref[i].changed for ref in partition.references]},
                "types": list(hyp.types),
                "label": choice.labels[i].value,
                "weight": choice.weights[i],
            })
        records.append({
            "index": sentence.index,
            "reference": choice.reference,
            **sentence.scores,
            **choice.counts.as_dict(),
            "source": " ".join(sample_chunks.sample.source),
            "hypothesis": " ".join(sample_chunks.sample.hypothesis.tokens),
            "chunks": chunks,
        })
    return records
