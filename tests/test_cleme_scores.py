"""CLEME and CLEME2.0 on hand-checked samples (see cleme_examples.py), and invariants."""
from __future__ import annotations

import math

import pytest

from gecscore.chunks.labels import Label, label_dependent, label_independent
from gecscore.chunks.cleme import precision_recall_f, score_cleme
from gecscore.chunks.cleme2 import disentangled_scores, score_cleme2
from gecscore.chunks.config import ClemeConfig, Cleme2Config, parse_alphas
from gecscore.chunks.partition import partition_chunks
from gecscore.types import Sample, Target

from cleme_examples import SOURCE_2, edit, sample_1, sample_2

TP, FP_NE, FP_UN, FN, TN = Label.TP, Label.FP_NE, Label.FP_UN, Label.FN, Label.TN


def labels_of(sample):
    part = partition_chunks(sample.source, sample.hypothesis, sample.references)
    return label_dependent(part.hypothesis, part.references[0])


def test_labels_by_hand():
    # Table 3: Do->Does missed (FN), suffer vs suffers and "to inform" vs "or inform" are
    # corrected in the wrong way (FP_ne); the rest untouched by everyone (TN).
    assert labels_of(sample_1()) == (FN, TN, FP_NE, TN, FP_NE, TN)
    # went = went (TP); "the" inserted and "!" where the reference keeps "." (FP_un)
    assert labels_of(sample_2()) == (TN, TP, TN, FP_UN, TN, FP_UN)


def test_cleme2_corpus_by_hand():
    result = score_cleme2([sample_1(), sample_2()])
    # totals: TP 1, FP_ne 2, FP_un 2, FN 1, TN 6; NE = 1 + 2 + 1 = 4
    assert (result.counts.tp, result.counts.fp_ne, result.counts.fp_un, result.counts.fn, result.counts.tn) == \
        (1, 2, 2, 1, 6)
    assert result.scores["hit"] == pytest.approx(0.25)
    assert result.scores["wrong"] == pytest.approx(0.5)
    assert result.scores["under"] == pytest.approx(0.25)
    assert result.scores["over"] == pytest.approx(2 / 5)
    # 0.45*0.25 + 0.35*0.5 + 0.15*0.75 + 0.05*0.6
    assert result.score == pytest.approx(0.43)


def test_cleme2_sentence_by_hand():
    result = score_cleme2([sample_1(), sample_2()], Cleme2Config(level="sentence"))
    # sentence 1: hit 0, wrong 2/3, under 1/3, over 0 -> .25/3 + .2*2/3 + .2 = 0.416667
    # sentence 2: hit 1, wrong 0, under 0, over 2/3   -> .35 + .25 + .2 + .2/3 = 0.866667
    assert [s.scores["score"] for s in result.sentences] == pytest.approx([0.25 / 3 + 0.4 / 3 + 0.2, 0.8 + 0.2 / 3])
    assert result.score == pytest.approx((0.65 / 3 + 0.2 + 0.8 + 0.2 / 3) / 2)
    assert result.scores["over"] == pytest.approx(1 / 3)


def test_cleme_unweighted_corpus_by_hand():
    result = score_cleme([sample_1(), sample_2()], ClemeConfig(weighting="none"))
    # TP 1, FP 4, FN 1: P = 0.2, R = 0.5, F0.5 = 1.25 * 0.1 / (0.25 * 0.2 + 0.5)
    assert (result.scores["p"], result.scores["r"]) == pytest.approx((0.2, 0.5))
    assert result.scores["f"] == pytest.approx(0.125 / 0.55)


def test_cleme_length_weighting_by_hand():
    result = score_cleme([sample_1(), sample_2()], ClemeConfig(weighting="length"))
    # b = mean length of changed reference chunks: Do->Does 1, suffers 1, "or inform" 2, went 1
    b = 1.25
    up = lambda l: min(max(2 / (1 + math.exp(-(l - b))), 0.75), 1.25)    # TP, FN
    down = lambda l: min(max(2 / (1 + math.exp(l - b)), 0.75), 1.25)     # FP
    # FN "Do" (l=1); FP "suffer" (1), FP "to inform" (2); TP "went" (1); FP "the" (1), FP "!" (1)
    assert result.counts.fn == pytest.approx(up(1))
    assert result.counts.tp == pytest.approx(up(1))
    assert result.counts.fp == pytest.approx(down(1) * 3 + 0.75)   # down(2) = 0.64 clips to 0.75
    assert result.counts.tn == 6
    p, r, f = precision_recall_f(up(1), down(1) * 3 + 0.75, up(1))
    assert result.scores["f"] == pytest.approx(f)


def test_independent_assumption():
    source = SOURCE_2
    hyp = Target.from_edits(source, [edit(1, 2, "goes"), edit(5, 6, "!")])
    ref_a = Target.from_edits(source, [edit(1, 2, "went")], 0)
    ref_b = Target.from_edits(source, [edit(1, 2, "goes"), edit(3, 4, "class")], 1)
    part = partition_chunks(source, hyp, [ref_a, ref_b])
    # chunks: She | go | to | school | yesterday | .
    assert label_independent(part.hypothesis, part.references) == (TN, TP, TN, TN, TN, FP_UN)
    # dependent on ref_a alone: goes != went is FP_ne
    assert label_dependent(part.hypothesis, part.references[0]) == (TN, FP_NE, TN, TN, TN, FP_UN)
    # FN under ind only when every reference changed the chunk
    hyp_none = Target.unchanged(source)
    part = partition_chunks(source, hyp_none, [ref_a, ref_b])
    assert label_independent(part.hypothesis, part.references) == (TN, FN, TN, TN, TN)


def test_dep_corpus_picks_the_reference_that_helps_the_totals():
    source = SOURCE_2
    hyp = Target.from_edits(source, [edit(1, 2, "goes")])
    refs = (Target.from_edits(source, [edit(1, 2, "went")], 0), Target.from_edits(source, [edit(1, 2, "goes")], 1))
    result = score_cleme2([Sample(source, hyp, refs)])
    assert result.sentences[0].choice.reference == 1
    assert result.scores["hit"] == 1.0


@pytest.mark.parametrize("level", ["corpus", "sentence"])
@pytest.mark.parametrize("assumption", ["dep", "ind"])
def test_invariants(level, assumption):
    samples = [sample_1(), sample_2()]
    # hypothesis = the reference: hit 1, wrong and under 0
    perfect = [Sample(s.source, s.references[0], s.references, s.index) for s in samples]
    result = score_cleme2(perfect, Cleme2Config(level=level, assumption=assumption))
    assert (result.scores["hit"], result.scores["wrong"], result.scores["under"], result.scores["over"]) == (1, 0, 0, 0)
    assert score_cleme(perfect, ClemeConfig(level=level, assumption=assumption)).scores["f"] == pytest.approx(1.0)
    # hypothesis = source: over 0 and hit 0 (everything the references changed is FN)
    lazy = [Sample(s.source, Target.unchanged(s.source), s.references, s.index) for s in samples]
    result = score_cleme2(lazy, Cleme2Config(level=level, assumption=assumption))
    assert (result.scores["hit"], result.scores["over"], result.scores["under"]) == (0, 0, 1)


def test_no_edits_anywhere_scores_a2_a3_a4():
    source = ("Fine", ".")
    sample = Sample(source, Target.unchanged(source), (Target.unchanged(source),))
    assert score_cleme2([sample], Cleme2Config(level="sentence")).score == pytest.approx(0.25 + 0.20 + 0.20)
    assert score_cleme([sample], ClemeConfig(level="sentence")).scores["f"] == 1.0


def test_empty_hypothesis_is_kept_and_empty_references_dropped():
    source = ("a", "b")
    empty_hyp = Target.from_edits(source, [edit(0, 2, "")])
    empty_ref = Target.from_edits(source, [edit(0, 2, "")], 0)
    good_ref = Target.from_edits(source, [edit(1, 2, "c")], 1)
    result = score_cleme2([Sample(source, empty_hyp, (empty_ref, good_ref))])
    # the empty reference is dropped: one reference left; the hypothesis deletion is an FP_ne
    assert len(result.chunks[0].partition.references) == 1
    assert (result.counts.fp_ne, result.counts.tp) == (1, 0)


def test_alphas():
    assert parse_alphas(None, "sentence") == (0.35, 0.25, 0.20, 0.20)
    assert parse_alphas("0.25,0.25,0.25,0.25", "corpus") == (0.25,) * 4
    with pytest.raises(ValueError, match="sum to 1"):
        parse_alphas("0.5,0.5,0.5,0.5", "corpus")
    with pytest.raises(ValueError, match="four"):
        parse_alphas("1", "corpus")
    assert disentangled_scores(score_cleme2([sample_2()]).counts, (1, 0, 0, 0))["score"] == 1.0


def test_unknown_option_is_a_clear_error():
    with pytest.raises(ValueError, match="assumption"):
        score_cleme2([sample_1()], Cleme2Config(assumption="both"))
    with pytest.raises(ValueError, match="level"):
        score_cleme2([sample_1()], Cleme2Config(level="document"))
