"""A corpus's candidate labellings as flat arrays: each setting's weights, counts and choice as
whole-corpus operations rather than an object per chunk.

A sample has one candidate labelling of its chunks per reference under ``dep``, one under
``ind`` (:mod:`gecscore.chunks.labels`). The labels do not depend on the metric setting; the
weights, and so the counts and the choice, do. :class:`CandidateLabels` codes every candidate's
labels once per corpus and assumption: one array of label codes (:data:`LABELS`' order, the
columns of :class:`~gecscore.chunks.labels.ChunkCounts`), candidates in sample order, each
candidate's chunks in chunk order. :meth:`CandidateLabels.weighed` gives one setting's
:class:`WeighedCandidates`: every chunk's weight and every candidate's counts, shape
``(candidates, 5)``.

Exactness: :meth:`ChunkCounts.of` adds a candidate's weights label by label, in chunk order,
into 0.0; ``np.bincount`` with weights adds its weights in input order into zeros, one double
per bin, and the chunks of each candidate are in chunk order: the same floats. Length weights
are :meth:`LengthWeights.weight` of each (label, length) that occurs, looked up per chunk.
:func:`first_best` chooses as Python's ``max`` over tuples: the largest key tuple, the first
candidate of equal ones.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Sequence

import numpy as np

from gecscore.chunks.labels import LABELS, ChunkCounts, LabelledChunks
from gecscore.chunks.length_weights import LengthWeights

_CODE = {label: code for code, label in enumerate(LABELS)}


@dataclass(frozen=True, eq=False)
class CandidateLabels:
    """Every candidate labelling of a corpus under one assumption, all weights 1.

    ``labelled``: per sample, its candidates as objects (what a model-backed weigher reads);
    ``codes``: every candidate's label codes, concatenated; ``owner``: the candidate of each
    code; ``lengths``: the hypothesis chunk's length at each code; ``first``: sample ``i``'s
    candidates are ``first[i]:first[i + 1]``.
    """

    labelled: list[tuple[LabelledChunks, ...]]
    codes: np.ndarray
    owner: np.ndarray
    lengths: np.ndarray
    first: np.ndarray

    @classmethod
    def of(cls, labelled: Sequence[tuple[LabelledChunks, ...]],
           hypothesis_lengths: Sequence[Sequence[int]]) -> "CandidateLabels":
        """From each sample's unit-weight candidates and its hypothesis chunk lengths."""
        candidates = [c for cands in labelled for c in cands]
        sizes = np.fromiter((len(c.labels) for c in candidates), dtype=np.int64, count=len(candidates))
        codes = np.fromiter(map(_CODE.__getitem__, chain.from_iterable(c.labels for c in candidates)),
                            dtype=np.int64, count=int(sizes.sum()))
        lengths = np.fromiter(chain.from_iterable(lengths for cands, lengths in zip(labelled, hypothesis_lengths,
                                                                                   strict=True) for _ in cands),
                              dtype=np.int64, count=len(codes))
        first = np.zeros(len(labelled) + 1, dtype=np.int64)
        np.cumsum([len(cands) for cands in labelled], out=first[1:])
        owner = np.repeat(np.arange(len(candidates), dtype=np.int64), sizes)
        return cls(list(labelled), codes, owner, lengths, first)

    @property
    def n_candidates(self) -> int:
        return int(self.first[-1])

    def length_weights(self, params: LengthWeights) -> np.ndarray:
        """Each chunk's length weight: ``params.weight(label, length)`` of each pair that occurs."""
        if not len(self.codes):
            return np.zeros(0)
        width = int(self.lengths.max()) + 1
        pairs, where = np.unique(self.codes * width + self.lengths, return_inverse=True)
        values = np.array([params.weight(LABELS[pair // width], pair % width) for pair in pairs.tolist()],
                          dtype=np.float64)
        return values[where.reshape(-1)]

    def model_weights(self, weights: Sequence[Sequence[Sequence[float]]]) -> np.ndarray:
        """A model weigher's answer (per sample, per candidate, one weight per chunk) as one
        array, checked to have one weight per chunk."""
        if len(weights) != len(self.labelled):
            raise ValueError(f"the weigher gave weights for {len(weights)} samples, not {len(self.labelled)}")
        for cands, per_sample in zip(self.labelled, weights):
            if len(per_sample) != len(cands) or any(len(w) != len(c.labels) for c, w in zip(cands, per_sample)):
                raise ValueError("the weigher's weights do not match the candidates' chunks")
        flat = chain.from_iterable(chain.from_iterable(per_sample) for per_sample in weights)
        return np.fromiter(flat, dtype=np.float64, count=len(self.codes))

    def weighed(self, weights: np.ndarray | None = None) -> "WeighedCandidates":
        """One setting's weights (None: all 1) and every candidate's counts."""
        if weights is None:
            weights = np.ones(len(self.codes))
        n = self.n_candidates
        counts = np.bincount(self.owner * len(LABELS) + self.codes, weights=weights,
                             minlength=n * len(LABELS)).reshape(n, len(LABELS))
        return WeighedCandidates(self, weights, counts)


@dataclass(frozen=True, eq=False)
class WeighedCandidates:
    """One setting's weight of every chunk (``weights``, aligned with ``labels.codes``) and
    each candidate's counts (``counts``, columns :data:`LABELS`)."""

    labels: CandidateLabels
    weights: np.ndarray
    counts: np.ndarray

    def counts_of(self, candidate: int) -> ChunkCounts:
        return ChunkCounts(*self.counts[candidate].tolist())

    def candidates(self) -> list[tuple[LabelledChunks, ...]]:
        """Per sample, its candidates as objects with this setting's weights and counts."""
        starts = np.zeros(self.labels.n_candidates + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.labels.owner, minlength=self.labels.n_candidates), out=starts[1:])
        weights, counts, bounds = self.weights.tolist(), self.counts.tolist(), starts.tolist()
        out, c = [], 0
        for cands in self.labels.labelled:
            row = []
            for cand in cands:
                row.append(LabelledChunks(cand.reference, cand.labels, tuple(weights[bounds[c]:bounds[c + 1]]),
                                          ChunkCounts(*counts[c])))
                c += 1
            out.append(tuple(row))
        return out

    def unique_choice(self) -> np.ndarray:
        """Per sample, whether every candidate has the same counts (any choice then scores the
        same, and ``max`` takes the first)."""
        first = self.labels.first
        counts = self.counts
        same = np.ones(len(first) - 1, dtype=bool)
        sizes = np.diff(first)
        for k in range(1, int(sizes.max(initial=1))):
            has = sizes > k
            rows = first[:-1][has]
            same[has] &= (counts[rows + k] == counts[rows]).all(axis=1)
        return same


def first_best(first: np.ndarray, keys: Sequence[np.ndarray]) -> np.ndarray:
    """Per group ``first[i]:first[i + 1]`` (none empty), the index of its largest key tuple
    ``(keys[0][c], keys[1][c], ...)``, the first of equal ones: Python's ``max`` over the tuples,
    for keys without NaN (0.0 and -0.0 compare equal, as in Python)."""
    if any(np.isnan(key).any() for key in keys):
        raise ValueError("a key is NaN: no order to choose by")
    if (np.diff(first) < 1).any():
        raise ValueError("a sample has no candidate")
    group = np.repeat(np.arange(len(first) - 1), np.diff(first))
    # np.lexsort sorts by its last key first and is stable: group, then each key descending,
    # then the candidate's own position
    order = np.lexsort([*(-key for key in reversed(keys)), group])
    return order[first[:-1]]

