"""GREEN (Koyama et al. 2024) behind the seam: hand-counted n-gram classes and scores."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.errors import GecOptionError
from gecscore.green.metric import GreenMetric
from gecscore.green.scorer import all_ngrams, counts, green


def table(source: str, hyp: str, ref: str, order: int = 1):
    grams = lambda s: all_ngrams(s.split(), order)
    return counts(grams(source), grams(hyp), grams(ref), order)


def test_each_ngram_class_lands_in_its_count():
    # a kept by all (TK), b deleted by both (TD), c inserted by both (TI): all true.
    assert table("a b", "a c", "a c").tolist() == [[3, 0, 0]]
    # unchanged hypothesis: b kept against the reference (UD), c not inserted (UI) -> 2 FN.
    assert table("a b", "a b", "a c").tolist() == [[1, 0, 2]]
    # d inserted by the hypothesis only (OI), c missed (UI), b deleted by both (TD).
    assert table("a b", "a d", "a c").tolist() == [[2, 1, 1]]
    # b deleted by the hypothesis only (OD): FP.
    assert table("a b", "a", "a b").tolist() == [[1, 1, 0]]


def test_scores_by_hand():
    # TP 1, FN 2: P = 1 (no FP), R = 1/3; F2 = 5 (1/3) / (4 + 1/3) = 5/13
    assert green(table("a b", "a b", "a c"), beta=2.0) == pytest.approx(5 / 13)
    assert green(table("a b", "a b", "a c"), beta=1.0) == pytest.approx(0.5)
    assert green(table("a b", "a d", "a c"), beta=2.0) == pytest.approx(2 / 3)
    # order 2: the bigram (a, b) is deleted by both and (a, c) inserted by both: all 1
    assert green(table("a b", "a c", "a c", order=2), beta=2.0) == 1.0
    # a zero precision of one order makes the geometric mean 0: hypothesis "x", reference "a"
    assert green(table("a", "x", "a"), beta=2.0) == 0.0


def test_corpus_pools_counts_and_sentence_level_averages():
    sources, hyps, refs = ["a b", "a b"], ["a b", "a d"], [["a c"], ["a c"]]
    corpus = GreenMetric.from_options(order=1, beta=1.0)
    result = corpus.score(corpus.prepare_text(sources, refs), hyps)
    # pooled TP 3, FP 1, FN 3: P = 3/4, R = 1/2, F1 = 0.6
    assert result.score == pytest.approx(0.6)
    assert result.statistic(result.sentence_stats.mean(axis=0)) == pytest.approx(result.score)
    assert [r["green"] for r in result.records()] == pytest.approx([0.5, 2 / 3])
    sentence = GreenMetric.from_options(order=1, beta=1.0, level="sentence")
    assert sentence.score(sentence.prepare_text(sources, refs), hyps).score == pytest.approx((0.5 + 2 / 3) / 2)


def test_best_reference_per_sentence_first_on_ties():
    metric = GreenMetric.from_options(order=1, beta=1.0)
    prepared = metric.prepare_text(["a b", "a b"], [["a c", "a b"], ["a c", "a c"]])
    result = metric.score(prepared, ["a b", "a c"])
    records = result.records()
    assert records[0]["green"] == 1.0 and records[0]["fn"] == [0.0]  # the second reference wins
    assert records[1]["tp"] == [3.0]
    assert result.score == 1.0


def test_characters_and_options():
    metric = GreenMetric.from_options(unit="char", order=2, beta=1.0)
    result = metric.score(metric.prepare_text(["ab"], [["ac"]]), ["ac"])
    assert result.score == 1.0
    with pytest.raises(GecOptionError):
        GreenMetric.from_options(unit="byte")
    assert "unit:char" in str(result.signature)


words = st.lists(st.sampled_from("a b c d".split()), min_size=1, max_size=7).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(words, words, words)
def test_properties(source, hyp, ref):
    metric = GreenMetric.from_options()
    prepared = metric.prepare_text([source], [[ref]])
    assert metric.score(prepared, [ref]).score == 1.0  # the reference itself is perfect
    result = metric.score(prepared, [hyp])
    assert 0.0 <= result.score <= 1.0
    assert result.statistic(result.sentence_stats.mean(axis=0)) == pytest.approx(result.score)
    t = table(source, hyp, ref, order=4)
