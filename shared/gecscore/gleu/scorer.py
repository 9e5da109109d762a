"""GLEU statistics and score (Napoles et al. 2015, as updated in "GLEU without tuning", 2016).

Per sentence and reference ``r`` (hypothesis ``h``, source ``s``; n-gram count multisets, ``&``
the multiset minimum, ``s_n \\ r_n`` the source n-grams (with their counts) that do not occur in
the reference at all), for n = 1..N::

    match_n  = max(0, |h_n & r_n| - |h_n & (s_n \\ r_n)|)
    total_n  = max(0, len(h) + 1 - n)

and the lengths ``c = len(h)``, ``r_len = len(r)``. So an n-gram of the hypothesis counts as
correct where the reference has it, and is taken back where it is a source n-gram that the
reference does not contain (an n-gram the reference has, even fewer times, is never
penalised, so a hypothesis equal to the reference gets every n-gram; the 2016 update's
single penalty, no tuned weight). On the sums of these statistics over a corpus (or their
means: only ratios are used)::

    GLEU = exp(min(0, 1 - r_len / c) + (1/N) sum_n log(match_n / total_n))

and 0 when any statistic is 0 (c = 0 included). Sentence-level GLEU (records only) replaces
zero statistics by 1 first, as the reference implementation's smoothing does.

Several references: in each of ``iterations`` rounds every sentence uses one reference drawn
at random, as the reference implementation (cnap/gec-ranking ``compute_gleu``, 2016 version)
draws it: round ``j`` seeds Python's Mersenne Twister with ``seed + 101 j`` (the reference:
``101 j``, so ``seed=0`` gives its draws exactly) and sentence ``i`` takes reference
``int(random() * k_i)`` in sentence order (Python 2's ``randint(0, k - 1)``); the score is the
mean of the rounds' corpus GLEU. With one reference per sentence there is one round.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from gecscore.cache.safe_pickle import storable

Tokens = Sequence[str]


def ngrams(tokens: Tokens, n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def n_stats(order: int) -> int:
    """Columns of one statistics vector: c, r_len, then (match_n, total_n) for n = 1..order."""
    return 2 + 2 * order


@dataclass(frozen=True)
class ReferenceNgrams:
    """What the statistics need of one source and reference, for n = 1..order: the
    reference's n-gram counts ``found[n-1]`` and the source n-grams it does not contain,
    with their source counts, ``penalised[n-1]`` (the two never share an n-gram). Built once
    per reference and reused for every hypothesis (every system of a leaderboard)."""

    length: int
    found: tuple[Counter, ...]
    penalised: tuple[Counter, ...]

    @classmethod
    def of(cls, source: Tokens, reference: Tokens, order: int) -> "ReferenceNgrams":
        found, penalised = [], []
        for n in range(1, order + 1):
            r, s = ngrams(reference, n), ngrams(source, n)
            found.append(r)
            penalised.append(Counter({gram: count for gram, count in s.items() if gram not in r}))
        return cls(len(reference), tuple(found), tuple(penalised))


def stats_against(hypothesis: Tokens, references: Sequence[ReferenceNgrams]) -> np.ndarray:
    """``len(references) x (2 + 2 order)`` statistics of one hypothesis, a row per reference:
    ``match_n = max(0, |h_n & r_n| - |h_n & (s_n \\ r_n)|)`` (module docstring), the
    hypothesis's n-grams counted once for all references."""
    order = len(references[0].found) if references else 0
    out = np.empty((len(references), n_stats(order)), dtype=np.float64)
    grams = [ngrams(hypothesis, n) for n in range(1, order + 1)]
    for row, reference in enumerate(references):
        values = [len(hypothesis), reference.length]
        for n, (h, found, penalised) in enumerate(zip(grams, reference.found, reference.penalised), start=1):
            match = 0
            for gram, count in h.items():
                in_reference = found.get(gram)
                if in_reference:
                    match += min(count, in_reference)
                else:
                    match -= min(count, penalised.get(gram, 0))
            values += [max(0, match), max(0, len(hypothesis) + 1 - n)]
        out[row] = values
    return out


def sentence_stats(source: Tokens, hypothesis: Tokens, reference: Tokens, order: int = 4) -> np.ndarray:
    """``[c, r_len, match_1, total_1, ..., match_N, total_N]`` of one sentence and reference."""
    return stats_against(hypothesis, [ReferenceNgrams.of(source, reference, order)])[0]


def gleu(stats: np.ndarray, smooth: bool = False) -> np.ndarray | float:
    """GLEU of statistics vectors (the last axis holds one vector; any leading shape)."""
    stats = np.asarray(stats, dtype=np.float64)
    if smooth:
        stats = np.where(stats == 0, 1.0, stats)
    c, r = stats[..., 0], stats[..., 1]
    match, total = stats[..., 2::2], stats[..., 3::2]
    zero = (stats == 0).any(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_prec = np.log(match / total).mean(axis=-1)
        value = np.exp(np.minimum(0.0, 1.0 - r / c) + log_prec)
    value = np.where(zero, 0.0, value)
    return float(value) if value.ndim == 0 else value


def reference_draws(counts: Sequence[int], iterations: int, seed: int) -> np.ndarray:
    """``iterations x sentences`` reference indices (sentence i: in [0, counts[i])), drawn as the
    reference implementation draws them (module docstring); one row when every sentence has
    one reference."""
    counts = np.asarray(counts, dtype=np.int64)
    if counts.size == 0 or (counts == 1).all():
        return np.zeros((1, counts.size), dtype=np.int64)
    draws = np.empty((iterations, counts.size), dtype=np.int64)
    for j in range(iterations):
        rng = random.Random(seed + 101 * j)
        uniform = np.fromiter((rng.random() for _ in range(counts.size)), dtype=np.float64, count=counts.size)
        draws[j] = (uniform * counts).astype(np.int64)   # int(random() * k): floor of a non-negative
    return draws


@storable
def gleu_of_rounds(means: np.ndarray, order: int) -> float:
    """The score from the column means of the round-major statistics matrix: mean over rounds
    of the corpus GLEU of each round's statistics."""
    rounds = np.asarray(means, dtype=np.float64).reshape(-1, n_stats(order))
    return float(np.mean(gleu(rounds)))
