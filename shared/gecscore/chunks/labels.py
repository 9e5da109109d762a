"""Chunk-level labels (TP, FP_ne, FP_un, FN, TN) shared by CLEME and CLEME2.0.

A hypothesis chunk that is changed is TP when its tokens equal the reference chunk's,
otherwise FP: FP_ne ("necessary") when the reference also changed that chunk, FP_un when the
reference left it unchanged. An unchanged hypothesis chunk is FN when the reference changed
it, otherwise TN. CLEME v1 uses FP = FP_ne + FP_un.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Sequence

from gecscore.types import Chunk, ChunkPartition

DEPENDENT = "dep"
INDEPENDENT = "ind"
ASSUMPTIONS = (DEPENDENT, INDEPENDENT)


class Label(str, Enum):
    TP = "TP"
    FP_NE = "FP_ne"
    FP_UN = "FP_un"
    FN = "FN"
    TN = "TN"

    def __str__(self) -> str:
        return self.value


#: the labels in the order of :class:`ChunkCounts`' fields (the columns of counts arrays)
LABELS = (Label.TP, Label.FP_NE, Label.FP_UN, Label.FN, Label.TN)


def label_dependent(hypothesis: Sequence[Chunk], reference: Sequence[Chunk]) -> tuple[Label, ...]:
    """Labels against one reference (correction dependence)."""
    labels = []
    for hyp, ref in zip(hypothesis, reference, strict=True):
        if hyp.changed:
            if hyp.target == ref.target:
                labels.append(Label.TP)
            else:
                labels.append(Label.FP_NE if ref.changed else Label.FP_UN)
        else:
            labels.append(Label.FN if hyp.target != ref.target else Label.TN)
    return tuple(labels)


def label_independent(hypothesis: Sequence[Chunk],
                      references: Sequence[Sequence[Chunk]]) -> tuple[Label, ...]:
    """Labels against all references at once (correction independence).

    A changed chunk is TP if any reference has the same tokens, FP_ne if any reference
    changed the chunk, else FP_un. An unchanged chunk is FN only if every reference changed
    it.
    """
    labels = []
    for index, hyp in enumerate(hypothesis):
        column = [ref[index] for ref in references]
        if hyp.changed:
            if any(hyp.target == ref.target for ref in column):
                labels.append(Label.TP)
            else:
                labels.append(Label.FP_NE if any(ref.changed for ref in column) else Label.FP_UN)
        else:
            labels.append(Label.FN if all(ref.changed for ref in column) else Label.TN)
    return tuple(labels)


@dataclass(frozen=True, slots=True)
class ChunkCounts:
    """Weighted sums of labelled chunks (plain counts when every weight is 1)."""

    tp: float = 0.0
    fp_ne: float = 0.0
    fp_un: float = 0.0
    fn: float = 0.0
    tn: float = 0.0

    @property
    def fp(self) -> float:
        return self.fp_ne + self.fp_un

    def __add__(self, other: "ChunkCounts") -> "ChunkCounts":
        return ChunkCounts(self.tp + other.tp, self.fp_ne + other.fp_ne, self.fp_un + other.fp_un,
                           self.fn + other.fn, self.tn + other.tn)

    @classmethod
    def of(cls, labels: Sequence[Label], weights: Sequence[float]) -> "ChunkCounts":
        tp = fp_ne = fp_un = fn = tn = 0.0
        for label, weight in zip(labels, weights, strict=True):
            if label is Label.TN:
                tn += weight
            elif label is Label.TP:
                tp += weight
            elif label is Label.FN:
                fn += weight
            elif label is Label.FP_NE:
                fp_ne += weight
            else:
                fp_un += weight
        return cls(tp, fp_ne, fp_un, fn, tn)

    def as_dict(self) -> dict[str, float]:
        return {"tp": self.tp, "fp_ne": self.fp_ne, "fp_un": self.fp_un, "fn": self.fn, "tn": self.tn}


@dataclass(frozen=True, slots=True)
class LabelledChunks:
    """The hypothesis chunks of one sample labelled against one reference (dep; its index)
    or against all references (ind; ``reference`` is None), with one weight per chunk, and
    their :meth:`ChunkCounts.of` (``counts``: summed here, unless given by a caller that summed
    them in the same order, :mod:`gecscore.chunks.candidates`)."""

    reference: int | None
    labels: tuple[Label, ...]
    weights: tuple[float, ...]
    counts: ChunkCounts = field(default=None, compare=False)   # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.counts is None:
            object.__setattr__(self, "counts", ChunkCounts.of(self.labels, self.weights))

    def reweighted(self, weights: Sequence[float]) -> "LabelledChunks":
        return LabelledChunks(self.reference, self.labels, tuple(weights))


def label_sample(partition: ChunkPartition, assumption: str) -> tuple[LabelledChunks, ...]:
    """The candidate labellings of one sample, all weights 1: one per reference under
    ``dep``, a single one under ``ind``."""
    ones = (1.0,) * len(partition)
    if assumption == DEPENDENT:
        return tuple(LabelledChunks(index, label_dependent(partition.hypothesis, ref), ones)
                     for index, ref in enumerate(partition.references))
    if assumption == INDEPENDENT:
        return (LabelledChunks(None, label_independent(partition.hypothesis, partition.references), ones),)
    raise ValueError(f"unknown assumption {assumption!r}; expected one of {ASSUMPTIONS}")
