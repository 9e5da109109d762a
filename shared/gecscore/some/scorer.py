"""SOME's sentence score from its three regressors, model-free.

Each regressor was trained on 1-4 ratings (TMU-GFM); its raw output x is min-max normalised
to the rating scale, n(x) = (x - 1) / (4 - 1), not clipped (the original code's). Then

    SOME(s, h) = w_g n(G(h)) + w_f n(F(h)) + w_m n(M(s, h))

G and F read the hypothesis alone, M reads the pair (source, hypothesis). The system score is
the mean of the sentence scores (the original ``--system``). The weights are not renormalised:
with the defaults (0.55 + 0.43 + 0.02 = 1) the score stays on the normalised scale.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

RATING_MIN = 1.0
RATING_MAX = 4.0


class Regressor(Protocol):
    """A model with one output per input (a text, or a (text, text) pair)."""

    def scores(self, inputs: Sequence[str | tuple[str, str]]) -> list[float]: ...


@dataclass(frozen=True)
class SubScores:
    """The normalised sub-scores of one sentence and their combination."""

    grammaticality: float
    fluency: float
    meaning: float
    score: float


def normalise(x: float) -> float:
    """(x - 1) / 3: a 1-4 rating onto [0, 1]."""
    return (x - RATING_MIN) / (RATING_MAX - RATING_MIN)


def combine(g: float, f: float, m: float, weights: tuple[float, float, float]) -> float:
    """w_g g + w_f f + w_m m of normalised sub-scores."""
    return weights[0] * g + weights[1] * f + weights[2] * m


def some_scores(sources: Sequence[str], hypotheses: Sequence[str], grammaticality: Regressor, fluency: Regressor,
                meaning: Regressor, weights: tuple[float, float, float]) -> list[SubScores]:
    """The sub-scores of every sentence: each regressor called once on the whole corpus (it
    batches)."""
    hyps = list(hypotheses)
    g = grammaticality.scores(hyps)
    f = fluency.scores(hyps)
    m = meaning.scores(list(zip(sources, hyps, strict=True)))
    out = []
    for raw_g, raw_f, raw_m in zip(g, f, m):
        ng, nf, nm = normalise(raw_g), normalise(raw_f), normalise(raw_m)
        out.append(SubScores(ng, nf, nm, combine(ng, nf, nm, weights)))
    return out
