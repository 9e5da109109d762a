"""Build the model-backed chunk weigher for CLEME / CLEME2.0 ``--weighting similarity|llm``.

A weigher is a ``CorpusWeigher`` (see ``gecscore.chunks.evaluation``): it sees the
whole corpus at once so model calls are batched and deduplicated. Its ``signature`` names
the model, so the metric signature records it.
"""
from __future__ import annotations

from typing import Any


def build_chunk_weigher(weighting: str, *, model: str | None = None, num_layers: int | None = None,
                        batch_size: int | None = None, device: str | None = None, judge: Any = None,
                        progress: bool = True):
    """``similarity``: BERTScore weights (default bert-base-uncased, layer 9); ``llm``: edit
    weights 1-5 from ``judge`` (a :class:`gecscore.judge.runner.Judge`); else None."""
    if weighting == "similarity":
        from gecscore.models.similarity import DEFAULT_MODEL, model_label, similarity_chunk_weigher

        name = model or DEFAULT_MODEL
        weigher = similarity_chunk_weigher(name, num_layers, batch_size or 64, device, progress)
        # the layer is known once the model is loaded, i.e. after weighing
        weigher.signature = lambda: f"model:{model_label(name)}|layer:{weigher.scorer.layer}"
        return weigher
    if weighting == "llm":
        from gecscore.chunks.llm_weights import llm_chunk_weigher

        if judge is None:
            raise ValueError("weighting 'llm' needs a judge (gecscore.judge.factory.build_judge)")
        weigher = llm_chunk_weigher(judge)
        weigher.signature = f"judge:{judge.name}"
        return weigher
    return None


def weigher_signature(weigher) -> str | None:
    """What the weigher (or None) adds to a metric signature (model, layer or judge), if anything."""
    signature = getattr(weigher, "signature", None)
    return signature() if callable(signature) else signature
