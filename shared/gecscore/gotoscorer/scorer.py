"""GoToScorer's weighted counts, weights and F (Gotou et al. 2020).

Each chunk ``c`` of the reference (:mod:`gecscore.gotoscorer.chunks`) with weight ``w_c``
adds to one sentence's counts, by its annotation (correct, tried) against the system's chunks::

    tried,     correct  ->  TP += w
    tried,     wrong    ->  FP += w, and FN += w too when c is a reference edit
    not tried, correct  ->  TN += w
    not tried, wrong    ->  FN += w

**Weights** (the paper's difficulty): with ``S`` systems scored together, a chunk's weight is
the share of them that do not correct it, ``w_c = 1 - |{s : s corrects c}| / S``: a chunk every
system gets right weighs 0, one none gets right weighs 1. "Corrects" (option ``weight_match``):
``span``, a chunk of the system with the same span and the same correction (the paper);
``correction``, any chunk of the system with the same corrected string wherever it is
(gec-metrics 0.1.1's ``gecmetrics-gen-gotoscorer-weight``, whose span test compares the
reference chunk with itself). ``no_weight``: every ``w_c = 1``.

From counts (pooled over the sentences at corpus level)::

    P = TP / (TP + FP), 1 when FP = 0;   R = TP / (TP + FN), 1 when FN = 0
    F = (1 + b^2) P R / (b^2 P + R), 0 when P + R = 0

(ERRANT's convention: :data:`gecscore.fscore.ERRANT`.)
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from gecscore import fscore
from gecscore.gotoscorer.chunks import Chunk, annotate

#: columns of one sentence's counts
COLUMNS = ("tp", "fp", "fn", "tn")


def sentence_counts(reference: Sequence[Chunk], system: Sequence[Chunk], weights: Sequence[float] | None
                    ) -> np.ndarray:
    """(TP, FP, FN, TN) of one sentence (module docstring); ``weights`` None: all 1."""
    out = np.zeros(4)
    for index, chunk in enumerate(reference):
        w = 1.0 if weights is None else weights[index]
        correct, tried = annotate(chunk, system)
        if tried and correct:
            out[0] += w
        elif tried:
            out[1] += w
            if chunk.edited:
                out[2] += w
        elif correct:
            out[3] += w
        else:
            out[2] += w
    return out


def corrects(reference: Chunk, system: Sequence[Chunk], match: str) -> bool:
    """Whether a system's chunks correct one reference chunk, for the weights (``span`` or
    ``correction``: module docstring)."""
    if match == "span":
        return any(h.start == reference.start and h.end == reference.end and h.correction == reference.correction
                   for h in system)
    return any(h.correction == reference.correction for h in system)


def chunk_weights(reference: Sequence[Chunk], systems: Sequence[Sequence[Chunk]], match: str) -> tuple[float, ...]:
    """``1 - (systems correcting the chunk) / (systems)`` for every reference chunk."""
    if not systems:
        raise ValueError("GoToScorer weights need at least one system")
    return tuple(1 - sum(corrects(chunk, system, match) for system in systems) / len(systems)
                 for chunk in reference)


def f_beta(counts: np.ndarray, beta: float) -> float:
    """F-beta of (TP, FP, FN, ...) counts (module docstring)."""
    return fscore.f_beta(float(counts[0]), float(counts[1]), float(counts[2]), beta, fscore.ERRANT).f
