"""CLEME's candidate labellings as arrays (gecscore.chunks.candidates) against a model of the
object-by-object computation they replaced: every count, choice and score equal (exactly, not
approximately) on random corpora, every weighting, level and assumption."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.chunks.candidates import CandidateLabels, first_best
from gecscore.chunks.cleme import accuracy, precision_recall_f, score_cleme
from gecscore.chunks.cleme2 import disentangled_scores, score_cleme2
from gecscore.chunks.config import Cleme2Config, ClemeConfig
from gecscore.chunks.labels import LABELS, ChunkCounts, LabelledChunks, label_sample
from gecscore.chunks.length_weights import length_bias, length_weights
from gecscore.chunks.partition import partition_chunks
from gecscore.types import Sample, Target

from test_chunk_partition import edits_for, samples as sample_parts

ALPHAS = (0.45, 0.35, 0.15, 0.05)


# --- the model: the computation object by object, as the library did it before the arrays ---

def _candidates(samples, level, assumption, weighting, weigher):
    parts = [partition_chunks(s.source, s.hypothesis, s.kept_references()) for s in samples]
    cands = [label_sample(p, assumption) for p in parts]
    if weigher is not None:
        weights = weigher(samples, parts, cands)
        cands = [tuple(LabelledChunks(c.reference, c.labels, tuple(w)) for c, w in zip(cs, ws))
                 for cs, ws in zip(cands, weights)]
    elif weighting == "length":
        params = length_weights(level, assumption, length_bias(parts))
        cands = [tuple(LabelledChunks(c.reference, c.labels,
                                      tuple(map(params.weight, c.labels, p.hypothesis_lengths()))) for c in cs)
                 for cs, p in zip(cands, parts)]
    return cands


def _tie_break(c):
    return (c.tp, -c.fp, -c.fn, c.tn)


def model(metric, samples, level, assumption, weighting, weigher=None, beta=0.5):
    """(headline scores, totals, [(chosen reference, sentence scores)])."""
    cands = _candidates(samples, level, assumption, weighting, weigher)

    def sentence(c):
        if metric == "cleme":
            p, r, f = precision_recall_f(c.tp, c.fp, c.fn, beta)
            return {"p": p, "r": r, "f": f, "acc": accuracy(c)}
        return disentangled_scores(c, ALPHAS)

    if level == "corpus":
        totals, chosen = ChunkCounts(), []
        for cs in cands:
            if metric == "cleme":
                def key(c):
                    m = totals + c.counts
                    return (round(precision_recall_f(m.tp, m.fp, m.fn, beta)[2], 4), *_tie_break(c.counts))
            else:
                def key(c):
                    return (disentangled_scores(totals + c.counts, ALPHAS)["score"], *_tie_break(c.counts))
            best = max(cs, key=key)
            totals = totals + best.counts
            chosen.append(best)
        if metric == "cleme":
            p, r, f = precision_recall_f(totals.tp, totals.fp, totals.fn, beta)
            scores = {"score": f, "p": p, "r": r, "f": f}
        else:
            scores = disentangled_scores(totals, ALPHAS)
        return scores, totals, [(c.reference, sentence(c.counts)) for c in chosen]
    rows = []
    for cs in cands:
        scored = [(c, sentence(c.counts)) for c in cs]
        if metric == "cleme":
            rows.append(max(scored, key=lambda x: (x[1]["f"], x[1]["p"], x[1]["r"], x[1]["acc"])))
        else:
            rows.append(max(scored, key=lambda x: (x[1]["score"], x[1]["hit"], -x[1]["wrong"], -x[1]["under"],
                                                   -x[1]["over"])))
    n = len(rows) or 1
    keys = ("score", "p", "r", "f") if metric == "cleme" else ("score", "hit", "wrong", "under", "over")
    scores = {k: sum(s[k if k != "score" else ("f" if metric == "cleme" else "score")] for _, s in rows) / n
              for k in keys}
    totals = sum((c.counts for c, _ in rows), ChunkCounts())
    return scores, totals, [(c.reference, s) for c, s in rows]


class RandomWeigher:
    """A model-backed weigher's shape: one weight per chunk, here random (seeded) floats."""

    def __init__(self, seed):
        self.seed = seed

    def __call__(self, samples, partitions, labelled):
        rng = random.Random(self.seed)
        return [[tuple(rng.choice([0.0, 0.5, 1.0, rng.random() * 3]) for _ in c.labels) for c in cs]
                for cs in labelled]

    def facts(self):
        return ()


@st.composite
def corpora(draw):
    out = []
    for index in range(draw(st.integers(0, 6))):
        source, hyp, refs = draw(sample_parts())
        out.append(Sample(source, hyp, tuple(refs), index))
    return out


@settings(max_examples=150, deadline=None)
@given(corpora(), st.sampled_from(["corpus", "sentence"]), st.sampled_from(["dep", "ind"]),
       st.sampled_from(["none", "length", "model"]), st.integers(0, 1000))
def test_scores_equal_the_object_model(corpus, level, assumption, weighting, seed):
    for metric in ("cleme", "cleme2"):
        weigher = RandomWeigher(seed) if weighting == "model" else None
        options = dict(level=level, assumption=assumption, weighting="similarity" if weigher else weighting)
        if metric == "cleme":
            result = score_cleme(corpus, ClemeConfig(**options), weigher=weigher)
        else:
            result = score_cleme2(corpus, Cleme2Config(**options, alpha=ALPHAS), weigher=weigher)
        scores, totals, rows = model(metric, corpus, level, assumption, weighting, weigher)
        assert result.scores == scores and list(result.scores) == list(scores)
        assert result.counts == totals
        assert [(s.choice.reference, s.scores) for s in result.sentences] == rows
        assert [list(s.scores) for s in result.sentences] == [list(r) for _, r in rows]
        # the arrays the statistics read are the objects' numbers
        assert result.chosen_counts().tolist() == [[getattr(s.counts, f) for f in ("tp", "fp_ne", "fp_un", "fn", "tn")]
                                                   for s in result.sentences]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.lists(st.tuples(st.sampled_from(LABELS),
                                            st.floats(0, 10, allow_nan=False)), max_size=8),
                         min_size=1, max_size=4), max_size=6))
def test_counts_are_chunk_counts_of_each_candidate(corpus):
    """bincount's sums are ChunkCounts.of's: label by label, chunk order, from 0.0."""
    labelled = [tuple(LabelledChunks(r, tuple(l for l, _ in chunks), tuple(w for _, w in chunks))
                      for r, chunks in enumerate(cands)) for cands in corpus]
    # every candidate of a sample labels the same chunks: pad to the first one's length
    labelled = [tuple(LabelledChunks(c.reference, (c.labels + cs[0].labels)[:len(cs[0].labels)],
                                     (c.weights + cs[0].weights)[:len(cs[0].labels)]) for c in cs)
                for cs in labelled]
    lengths = [tuple(range(len(cs[0].labels))) for cs in labelled]
    labels = CandidateLabels.of([tuple(LabelledChunks(c.reference, c.labels, (1.0,) * len(c.labels)) for c in cs)
                                 for cs in labelled], lengths)
    weights = np.array([w for cs in labelled for c in cs for w in c.weights], dtype=np.float64)
    weighed = labels.weighed(weights)
    assert [weighed.counts_of(i) for i in range(labels.n_candidates)] == [c.counts for cs in labelled for c in cs]
    for mine, theirs in zip(weighed.candidates(), labelled):
        assert [(c.reference, c.labels, c.weights, c.counts) for c in mine] == \
               [(c.reference, c.labels, c.weights, c.counts) for c in theirs]


KEY = st.sampled_from([0.0, -0.0, 0.25, 1.0, 1.0 / 3, -1.0, 2.0])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(KEY, KEY, KEY), min_size=1, max_size=5), max_size=8))
def test_first_best_is_pythons_max(groups):
    first = np.cumsum([0] + [len(g) for g in groups])
    flat = [key for g in groups for key in g]
    keys = [np.array([k[j] for k in flat], dtype=np.float64).reshape(-1) for j in range(3)]
    expected = [first[i] + max(range(len(g)), key=lambda c: g[c]) for i, g in enumerate(groups)]
    assert first_best(first, keys).tolist() == expected


def test_first_best_refuses_nan_and_empty_groups():
    with pytest.raises(ValueError, match="NaN"):
        first_best(np.array([0, 2]), [np.array([1.0, float("nan")])])
    with pytest.raises(ValueError, match="no candidate"):
        first_best(np.array([0, 1, 1]), [np.array([1.0])])


def test_length_weights_are_floats_even_at_an_integer_bound():
    # sentence-level dep FN weights are clipped to [1, 1]: every one weighs 1, as a float
    params = length_weights("sentence", "dep", 2.0)
    value = params.weight(LABELS[3], 5)
    assert value == 1 and type(value) is float


@settings(max_examples=100, deadline=None)
@given(corpora(), st.data())
def test_a_sample_memo_answers_as_partitioning_afresh(corpus, data):
    """Two systems against one gold through one memo (the second keeps some of the first's
    hypotheses, changes others): every partition and label list equals a fresh one; a kept
    line's partition is the memo's, not recomputed; a small capacity changes nothing."""
    from dataclasses import replace

    from gecscore.chunks.evaluation import SampleMemo, partition_corpus

    second = [s if data.draw(st.booleans())
              else replace(s, hypothesis=Target.from_edits(s.source, data.draw(edits_for(len(s.source)))))
              for s in corpus]
    for capacity in (100, 1):
        memo = SampleMemo(capacity)
        first_run = partition_corpus(corpus, memo)
        for samples in (corpus, second):
            got, fresh = partition_corpus(samples, memo), partition_corpus(samples)
            assert got.partitions == fresh.partitions
            for assumption in ("dep", "ind"):
                assert got.labelled(assumption) == fresh.labelled(assumption)
        if capacity == 100:
            again = partition_corpus(corpus, memo)
            assert all(a is b for a, b in zip(again.partitions, first_run.partitions))



@pytest.mark.parametrize("level", ["corpus", "sentence"])
def test_a_sample_without_references_is_refused_under_dep(level):
    """Under ``dep`` a sample has one candidate per reference: none without references, which
    is an error at either level (not another sample's candidate taken for it)."""
    from cleme_examples import sample_1, sample_2

    bare = Sample(sample_1().source, sample_1().hypothesis, (), 0)
    with pytest.raises(ValueError, match="no candidate"):
        score_cleme([bare, sample_2()], ClemeConfig(level=level, assumption="dep"))
