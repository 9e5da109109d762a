"""I-measure counting, metrics, reference candidates and choice; real-data checks."""
from __future__ import annotations

import os
import random
import warnings
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.io.ixml import read_ixml
from gecscore.imeasure import scorer as im
from gecscore.imeasure.config import IMeasureConfig
from gecscore.types import Edit, Gold, GoldAlternative, GoldError


def GoldSentence(sentence_id, source, numann, errors):
    """A gold stated as errors, as the XML reader builds it."""
    return Gold.from_errors(source, errors, numann, id=sentence_id)

DATA = Path(os.environ.get("GEC_DATA", Path(__file__).resolve().parents[1] / ".." / "shared" / "data"))

LISTING1 = """<?xml version='1.0' encoding='UTF-8'?>
<scripts><script id="1"><sentence id="1" numann="2">
<text>This machines is designed for help people .</text><error-list>
<error id="1" req="yes" type="SVA">
  <alt ann="0"><c start="0" end="1">These</c><c start="2" end="3">are</c></alt>
  <alt ann="1"><c start="1" end="2">machine</c></alt></error>
<error id="2" req="yes" type="Vform">
  <alt ann="0"><c start="5" end="6">helping</c></alt>
  <alt ann="1"><c start="4" end="5">to</c></alt></error>
</error-list></sentence></script></scripts>"""
HYP = "This machines are designed to help people .".split()


@pytest.fixture()
def listing1(tmp_path):
    path = tmp_path / "listing1.xml"
    path.write_text(LISTING1, encoding="utf-8")
    return read_ixml(path)


def test_was_table_row_by_row():
    # Table 6 of the paper: (source, hypothesis, reference) -> detection, correction
    rows = [
        (("a", "a", "a"), "TN", ("TN",)), (("a", "a", "b"), "FN", ("FN",)),
        (("a", "a", None), "FN", ("FN",)), (("a", "b", "a"), "FP", ("FP",)),
        (("a", "b", "b"), "TP", ("TP",)), (("a", "b", "c"), "TP", ("FP", "FN", "FPN")),
        (("a", "b", None), "TP", ("FP", "FN", "FPN")), (("a", None, "a"), "FP", ("FP",)),
        (("a", None, "b"), "TP", ("FP", "FN", "FPN")), (("a", None, None), "TP", ("TP",)),
        ((None, "a", "a"), "TP", ("TP",)), ((None, "a", "b"), "TP", ("FP", "FN", "FPN")),
        ((None, "a", None), "FP", ("FP",)), ((None, None, "a"), "FN", ("FN",)),
    ]
    for column, detection, correction in rows:
        assert im.column_labels(column) == (detection, correction), column


def test_listing1_candidates(listing1):
    candidates = [" ".join(c) for c in im.mixed_candidates(listing1[0].source, im.error_options(listing1[0]))]
    assert candidates == ["These machines are designed for helping people .",
                          "These machines are designed to help people .",
                          "This machine is designed for helping people .",
                          "This machine is designed to help people ."]
    assert [" ".join(c) for c in im.annotator_candidates(listing1[0])] == [candidates[0], candidates[3]]


def test_listing1_mix_by_hand(listing1):
    # Worked by hand. Every candidate has 8 tokens, so all columns are substitutions.
    # Best candidate "These machines are designed to help people .":
    #   This/This/These FN, is/are/are TP, for/to/to TP, 5 TN -> TP 2, TN 5, FN 1.
    #   WAcc = (2*2 + 5) / (2*2 + 5 + 1) = 0.9; baseline TN 5, FN 3 -> 5/8 = 0.625;
    #   I = (0.9 - 0.625) / (1 - 0.625) = 0.7333; P = 1, R = 2/3, F1 = 0.8, Acc = 7/8.
    # The others: WAcc 0.6 (ann 0's), 0.4, 0.7 (ann 1's).
    result = im.score_imeasure(listing1, [HYP])
    c = result.correction
    assert (c["tp"], c["tn"], c["fp"], c["fn"], c["fpn"]) == (2, 5, 0, 1, 0)
    assert c["wacc"] == pytest.approx(0.9) and c["wacc_base"] == pytest.approx(0.625)
    assert c["i"] == pytest.approx(0.275 / 0.375)
    assert (c["p"], c["r"], c["f"], c["acc"], c["acc_base"]) == pytest.approx((1, 2 / 3, 0.8, 7 / 8, 5 / 8))
    assert result.detection["tp"] == 2 and result.score == c["i"]
    assert result.sentences[0].reference_index == 1


def test_listing1_no_mix_by_hand(listing1):
    # Annotator 1's "This machine is designed to help people .":
    #   machines/machines/machine FN, is/are/is FP, for/to/to TP, 5 TN -> WAcc (2+5)/(4+5+1) = 0.7
    #   (annotator 0's gives 0.6). Baseline: TN 6, FN 2 -> 0.75; I = 0.7 / 0.75 - 1.
    result = im.score_imeasure(listing1, [HYP], IMeasureConfig(no_mix=True))
    c = result.correction
    assert (c["tp"], c["tn"], c["fp"], c["fn"], c["fpn"]) == (1, 5, 1, 1, 0)
    assert c["i"] == pytest.approx(0.7 / 0.75 - 1)


def test_fpn_and_metric_formulas():
    # one column a/b/c: detection TP; correction FP+FN+FPN
    sentence = GoldSentence("1", ("a",), 1, (GoldError("1", True, "T", (
        GoldAlternative(0, (Edit(0, 1, ("c",)),)),)),))
    result = im.score_imeasure([sentence], [["b"]])
    assert (result.correction["fp"], result.correction["fn"], result.correction["fpn"]) == (1, 1, 1)
    # WAcc = (0 + 0) / (2*1 + 0 + 1 - 3*1/2) = 0; Acc = 0 / (1 + 1 - 1) = 0; baseline 0 -> I = floor(0)
    assert result.correction["wacc"] == 0 and result.correction["acc"] == 0 and result.correction["i"] == 0
    assert result.detection["tp"] == 1 and result.detection["wacc"] == 1 and result.detection["i"] == 1
    assert im.improvement(0.5, 0.5) == 0 and im.improvement(1.0, 1.0) == 1


def test_empty_and_one_token_sentences():
    one = GoldSentence("1", ("a",), 0, ())
    result = im.score_imeasure([one, one], [["a"], []])
    # sentence 1: TN 1; sentence 2 (empty hypothesis): a/-/a -> FP
    assert (result.correction["tn"], result.correction["fp"]) == (1, 1)
    deletion = GoldSentence("2", ("a",), 1, (GoldError("1", True, "T", (GoldAlternative(0, (Edit(0, 1, ()),)),)),))
    # a deletion that would empty the sentence is skipped: the only reference is the source
    assert im.mixed_candidates(deletion.source, im.error_options(deletion)) == [("a",)]


def test_selection_options(listing1):
    with pytest.raises(ValueError):
        im.Selection("cxyz")
    detection = im.score_imeasure(listing1, [HYP], IMeasureConfig(max="dtp"))
    assert detection.detection["tp"] == 2
    corpus = im.score_imeasure(listing1 * 2, [HYP, HYP], IMeasureConfig(opt="corpus"))
    assert corpus.correction["tp"] == 4


def random_gold(rng: random.Random, n_errors: int) -> GoldSentence:
    source = tuple(rng.choice("abcdefgh") for _ in range(rng.randint(8, 30)))
    errors, pos = [], 0
    for number in range(n_errors):
        pos += rng.randint(0, 4)
        if pos >= len(source):
            break
        length = rng.choice([0, 1, 1, 2])
        end = min(pos + length, len(source))
        alts = tuple(GoldAlternative(ann, (Edit(pos, end, tuple(rng.choice("xyz") for _ in range(rng.randint(0, 2)))),))
                     for ann in range(rng.randint(1, 3)))
        errors.append(GoldError(str(number + 1), rng.random() < 0.3, "T", alts))
        pos = end + 1
    return GoldSentence("1", source, 3, tuple(errors))


def random_case(seed):
    rng = random.Random(seed)
    gold = random_gold(rng, rng.randint(3, 7))
    hyp = list(gold.source)
    for _ in range(rng.randint(0, 3)):  # a few system edits anywhere
        p = rng.randrange(len(hyp))
        hyp[p] = rng.choice("abxyz")
    return gold, hyp


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from(["cwacc", "cf", "dacc", "ctp", "ci", "dp"]))
def test_segment_search_against_brute_force(seed, metric):
    gold, hyp = random_case(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        brute = im.score_imeasure([gold], [hyp], IMeasureConfig(max=metric, max_candidates=10 ** 6))
        segmented = im.score_imeasure([gold], [hyp], IMeasureConfig(max=metric, max_candidates=8))
    sel = im.Selection(metric)
    best, found = brute.sentences[0], segmented.sentences[0]
    if best.n_candidates > 8:
        assert found.search != "enumerated"
    if found.search in ("enumerated", "segments"):  # exact: same key, same first reference
        assert sel.key(found.evaluation) == sel.key(best.evaluation)
        assert found.reference == best.reference
    else:  # a segment was searched locally: never better than the maximum
        assert sel.key(found.evaluation) <= sel.key(best.evaluation)
    # the segment search without local segments is exact for the whole key order
    exact = im._segmented_search(gold, tuple(hyp), im.error_options(gold), sel, None, 10 ** 6)
    if exact is not None:
        assert exact.local_segments == 0
        assert exact.reference == best.reference
        assert sel.vector_key(exact.vector) == sel.key(best.evaluation)
        assert tuple(exact.vector) == im.vector_of(best.evaluation)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10 ** 6))
def test_counts_split_at_segment_cuts(seed):
    """The assumption behind the segment search: for every combination of segment
    references, the full sentence's counts are the sums of the segments' counts."""
    gold, hyp = random_case(seed)
    hyp = tuple(hyp)
    src_cuts, hyp_cuts = im._segment_cuts(gold, hyp)
    options = im.error_options(gold)
    per_segment = []
    for k in range(len(src_cuts) - 1):
        s0, s1 = src_cuts[k], src_cuts[k + 1]
        inside = [[tuple((c[0] - s0, c[1] - s0, c[2]) for c in opt) for opt in opts] for opts in options
                  if min(c[0] for opt in opts for c in opt) in range(s0, s1)]
        src, seg_hyp = gold.source[s0:s1], hyp[hyp_cuts[k]:hyp_cuts[k + 1]]
        refs = im.mixed_candidates(src, inside)[:6]
        vectors = im.PreparedReferences.build(src, refs).vectors(seg_hyp)
        per_segment.append(list(zip(refs, vectors)))
    for n, combination in enumerate(product(*per_segment)):
        if n == 300:
            break
        reference = tuple(t for ref, _ in combination for t in ref)
        predicted = sum(vector for _, vector in combination)
        evaluation, _ = im.align_and_count(gold.source, hyp, reference)
        assert tuple(predicted) == im.vector_of(evaluation), (gold.source, hyp, reference)


def test_float_rounding_does_not_break_ties():
    """Regression (hypothesis seed 1876, --max cf): two references tie exactly on F and I,
    but the floats of I differ in the last bit; the exact key goes on to WAcc."""
    source = "b e d c b e h b h b h h f a f f e d f c a g f d b".split()
    hyp = "b e d c b e h b h b h h a a f f e d f c a g f d b".split()
    alt = GoldAlternative
    errors = (
        GoldError("1", True, "T", (alt(0, (Edit(1, 1, ("x", "z")),)), alt(1, (Edit(1, 1, ()),)),
                                   alt(2, (Edit(1, 1, ("y",)),)))),
        GoldError("2", False, "T", (alt(0, (Edit(3, 3, ()),)), alt(1, (Edit(3, 3, ("z", "x")),)),
                                    alt(2, (Edit(3, 3, ("z",)),)))),
        GoldError("3", False, "T", (alt(0, (Edit(4, 5, ("x",)),)),)),
        GoldError("4", False, "T", (alt(0, (Edit(7, 8, ("y",)),)), alt(1, (Edit(7, 8, ("y", "y")),)),
                                    alt(2, (Edit(7, 8, ("y",)),)))),
        GoldError("5", False, "T", (alt(0, (Edit(10, 11, ("y",)),)),)),
        GoldError("6", False, "T", (alt(0, (Edit(12, 13, ()),)), alt(1, (Edit(12, 13, ("x", "y")),)))),
    )
    gold = GoldSentence("1", tuple(source), 3, errors)
    # By hand, correction counts (TP, TN, FP, FN, FPN) and baseline (TN, FN):
    #   chosen: (0, 23, 1, 8, 1), (23, 8): WAcc = 23 / (2 + 23 + 8 - 1.5) = 46/63,
    #           WAcc_b = 23/31, I = (46/63) / (23/31) - 1 = -1/63
    #   float winner: (0, 21, 1, 10, 1), (21, 10): WAcc = 21/31.5 = 42/63, WAcc_b = 21/31,
    #           I = (42/63) / (21/31) - 1 = -1/63 as well; F = 0 for both.
    sel = im.Selection("cf")
    other = im.Evaluation(im.WasCounts(1, 21, 0, 9, 0), im.WasCounts(0, 21, 1, 10, 1), im.WasCounts(0, 21, 0, 10, 0))
    chosen = im.Evaluation(im.WasCounts(1, 23, 0, 7, 0), im.WasCounts(0, 23, 1, 8, 1), im.WasCounts(0, 23, 0, 8, 0))
    assert sel.key(other)[:2] == sel.key(chosen)[:2] == (0, Fraction(-1, 63))
    assert sel.key(chosen)[2] == Fraction(46, 63) > sel.key(other)[2] == Fraction(2, 3)
    assert im.improvement(2 / 3, 21 / 31) != im.improvement(46 / 63, 23 / 31)  # the float noise
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        brute = im.score_imeasure([gold], [hyp], IMeasureConfig(max="cf", max_candidates=10 ** 6))
        segmented = im.score_imeasure([gold], [hyp], IMeasureConfig(max="cf", max_candidates=8))
    for result in (brute, segmented):
        assert result.sentences[0].evaluation == chosen
    assert " ".join(brute.sentences[0].reference) == "b x z e d z x c b e h y y h b h h x y a f f e d f c a g f d b"


def test_float_values_match_exact_values():
    rng = random.Random(3)
    vectors = np.array([[rng.randint(0, 6) for _ in range(im.VECTOR_SIZE)] for _ in range(400)])
    vectors[:, 8] = np.minimum(vectors[:, 8], np.minimum(vectors[:, 6], vectors[:, 7]))  # FPN <= FP, FN
    for aspect in im.ASPECTS:
        for name in im.METRIC_NAMES:
            floats = im._float_values(vectors, aspect, name, 1.0, 2.0)
            for vector, value in zip(vectors, floats):
                ev = im.evaluation_of(vector)
                exact = im._exact_value(ev.system(aspect), ev.baseline, name, Fraction(1), Fraction(2))
                assert value == pytest.approx(float(exact), abs=1e-12), (aspect, name, vector)


def test_huge_products_never_hang():
    rng = random.Random(7)
    gold = random_gold(rng, 60)
    gold = GoldSentence("big", gold.source * 4, 3, gold.errors)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = im.score_imeasure([gold], [list(gold.source)], IMeasureConfig(max_candidates=64))
    assert result.largest_candidate_count > 64
    assert any("big" in str(w.message) for w in caught)


def _official(n_sentences, system):
    xml = DATA / "conll14" / "refsets" / "NUCLE.m2.ieval.xml"
    hyp = DATA / "conll14" / "systems" / f"{system}.txt"
    if not xml.exists() or not hyp.exists():
        pytest.skip(f"no CoNLL-2014 data under {DATA} (set GEC_DATA)")
    gold = read_ixml(xml)[:n_sentences]
    hyps = [line.split() for line in hyp.read_text(encoding="utf-8").split("\n")[:n_sentences]]
    return gold, hyps


def test_real_data_input_system_is_the_baseline():
    gold, hyps = _official(300, "INPUT")
    result = im.score_imeasure(gold, hyps)
    for aspect in (result.detection, result.correction):
        assert aspect["tp"] == aspect["fp"] == aspect["fpn"] == 0
        assert aspect["wacc"] == aspect["wacc_base"] and aspect["i"] == 0


def test_real_data_segment_search_equals_enumeration():
    """On official-gold sentences with 65-1024 combinations, the segment-wise search finds
    references as good as full enumeration (AMU's hypotheses)."""
    gold, hyps = _official(1312, "AMU")
    picked = [(g, h) for g, h in zip(gold, hyps)
              if 64 < im.count_combinations(im.error_options(g)) <= 1024][:12]
    assert picked
    for g, h in picked:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            full = im.score_imeasure([g], [h]).sentences[0].evaluation
            seg = im.score_imeasure([g], [h], IMeasureConfig(max_candidates=8)).sentences[0].evaluation
        assert im.Selection().key(seg) <= im.Selection().key(full), g.id
        assert im.Selection().key(seg) == im.Selection().key(full), g.id


def _sorted_first_sums(totals: np.ndarray, options: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The textbook Minkowski step: every sum, its distinct values by sorting, each ranked by
    the first flat index r * m + j that reaches it."""
    sums = (totals[:, None] + options[None, :]).reshape(-1)
    unique, first = np.unique(sums, return_index=True)
    rank = np.argsort(first, kind="stable")
    return unique[rank], first[rank]


@settings(max_examples=300, deadline=None)
@given(totals=st.lists(st.integers(0, 60), min_size=1, max_size=40, unique=True),
       options=st.lists(st.integers(0, 60), min_size=1, max_size=12),
       big=st.booleans(), cap=st.integers(1, 400))
def test_the_minkowski_step_ranks_sums_by_their_first_combination(totals, options, big, cap):
    scale = (1 << 61) // 128 if big else 1   # codes of up to 62 bits hash as small ones
    totals, options = np.array(totals, dtype=np.int64) * scale, np.array(options, dtype=np.int64) * scale
    values, first = _sorted_first_sums(totals, options)
    got = im._minkowski_step(totals, options, cap)
    if len(values) > cap:
        assert got is None
    else:
        assert got is not None
        assert np.array_equal(got[0], values) and np.array_equal(got[1], first)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10 ** 6), st.booleans())
def test_a_sentences_counts_are_those_of_its_alignment(seed, mix):
    """An enumerated sentence's counts come from the batched kernel and its alignment is
    built only when read (``SentenceResult.columns``): the two agree, column by column, with
    the chosen reference, and the baseline is the source's against it."""
    gold, hyp = random_case(seed)
    result = im.score_imeasure([gold], [hyp], IMeasureConfig(no_mix=not mix))
    sentence = result.sentences[0]
    assert sentence.alignment is None or sentence.search != "enumerated"
    evaluation, columns = im.align_and_count(sentence.source, sentence.hypothesis, sentence.reference)
    assert sentence.columns == columns
    assert im.vector_of(sentence.evaluation) == im.vector_of(evaluation)
