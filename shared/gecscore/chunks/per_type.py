"""Per-error-type scores of CLEME and CLEME2.0: the headline chunk counts split by error type.

Each non-TN chunk of each sentence's chosen labelling is counted (with its weight) under the
types of the error it concerns:

- TP, FP_ne, FN: the reference chunk's types (the annotated error: corrected, corrected
  wrongly, or missed). With ``assumption="dep"`` the chosen reference's chunk; with ``ind``
  (no single reference) the first reference whose chunk equals the hypothesis chunk for a TP,
  else the first reference that changes the chunk.
- FP_un: the hypothesis chunk's types (an unnecessary edit has no annotated error; ERRANT's
  types of the hypothesis edits, or ``UNK`` for hypothesis edits given without types).

A chunk holding several edits carries several types: its weight is split equally among them,
so that per-type counts sum to the headline counts. Types are merged at the granularity of
:func:`gecscore.m2.per_type.type_at` (ERRANT's operation / main / full type; other types as they
are). Per type: CLEME2.0's hit, wrong, under and over ratios (its
:func:`~gecscore.chunks.cleme2.disentangled_scores`), or CLEME's P, R and F_beta.
"""
from __future__ import annotations

from typing import Sequence

from gecscore.chunks.cleme import ChunkMetricResult, precision_recall_f
from gecscore.chunks.labels import ChunkCounts, Label
from gecscore.m2.per_type import UNKNOWN, type_at
from gecscore.types import Chunk, ChunkPartition

COLUMNS = ("tp", "fp_ne", "fp_un", "fn")
_COLUMN = {Label.TP: 0, Label.FP_NE: 1, Label.FP_UN: 2, Label.FN: 3}


def error_types(label: Label, index: int, partition: ChunkPartition, reference: int | None) -> tuple[str, ...]:
    """The types a labelled chunk is counted under (module docstring)."""
    hypothesis = partition.hypothesis[index]
    if label is Label.FP_UN:
        return hypothesis.types or (UNKNOWN,)
    if reference is not None:
        chunk: Chunk | None = partition.references[reference][index]
    else:
        chunks = [ref[index] for ref in partition.references]
        same = [c for c in chunks if c.changed and c.target == hypothesis.target] if label is Label.TP else []
        chunk = (same or [c for c in chunks if c.changed] or [None])[0]
    return (chunk.types if chunk is not None and chunk.types else None) or hypothesis.types or (UNKNOWN,)


def chunk_categories(result: ChunkMetricResult) -> dict[str, list[float]]:
    """Per full type: weighted [TP, FP_ne, FP_un, FN] of the chosen labellings."""
    categories: dict[str, list[float]] = {}
    for sentence, sample_chunks in zip(result.sentences, result.chunks):
        choice = sentence.choice
        for index, (label, weight) in enumerate(zip(choice.labels, choice.weights)):
            if label is Label.TN:
                continue
            types = error_types(label, index, sample_chunks.partition, choice.reference)
            share = weight / len(types)
            for name in types:
                categories.setdefault(name, [0.0] * len(COLUMNS))[_COLUMN[label]] += share
    return categories


def table_dict(categories: dict[str, Sequence[float]], granularity: str, metric: str,
               alphas: Sequence[float] | None = None, beta: float | None = None) -> dict:
    """``{"granularity", "rule", "types": {type: {tp, fp_ne, fp_un, fn, <ratios>}}}``: CLEME2.0's
    ratios with ``alphas``, CLEME's P/R/F with ``beta``."""
    from gecscore.chunks.cleme2 import disentangled_scores

    merged: dict[str, list[float]] = {}
    for name, counts in categories.items():
        row = merged.setdefault(type_at(name, granularity), [0.0] * len(COLUMNS))
        for i, value in enumerate(counts):
            row[i] += value
    types = {}
    for name, row in sorted(merged.items()):
        counts = ChunkCounts(*row)
        cells = dict(zip(COLUMNS, row))
        if metric == "cleme2":
            cells.update(disentangled_scores(counts, alphas))
        else:
            cells.update(zip(("p", "r", "f"), precision_recall_f(counts.tp, counts.fp, counts.fn, beta)))
        types[name] = cells
    return {"granularity": granularity, "rule": "chosen-labelling", "types": types}
