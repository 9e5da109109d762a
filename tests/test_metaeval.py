"""Meta-evaluation: correlations, bootstrap, human score readers and reference sets."""
from __future__ import annotations

import math

import numpy as np
import pytest

from gecscore.errors import GecInputError
from gecscore.significance.bootstrap import paired_bootstrap, resample_weights
from gecscore.metaeval.correlation import correlate, pearson, spearman
from gecscore.metaeval.human import HumanScores, gjg15_scores, load_human, match_lines, read_human_tsv, seeda_scores
from gecscore.benchdata.refsets import RefSet, exclude_unchanged, fill_annotators, load_refset, read_m2_lenient
from gecscore.types import Target

from datapaths import GEC_DATA, require


# ---------------------------------------------------------------- correlations

def test_pearson_and_spearman_by_hand():
    # x = 1,2,3 and y = 1,3,2: deviations (-1,0,1) and (-1,1,0); sum of products 1,
    # sums of squares 2 and 2, so r = 1/2; the values are their own ranks, so rho = 1/2.
    assert pearson([1, 2, 3], [1, 3, 2]) == pytest.approx(0.5)
    assert spearman([1, 2, 3], [1, 3, 2]) == pytest.approx(0.5)


def test_spearman_uses_average_ranks_for_ties():
    # ranks of x = 1,2,2,3 are 1, 2.5, 2.5, 4; of y 1..4. Deviations (-1.5,0,0,1.5) and
    # (-1.5,-.5,.5,1.5): products 4.5, squares 4.5 and 5, so rho = 4.5 / sqrt(22.5).
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(4.5 / math.sqrt(22.5))


def test_monotone_but_not_linear():
    assert spearman([1, 2, 3, 10], [1, 2, 3, 4]) == pytest.approx(1.0)
    assert pearson([1, 2, 3, 10], [1, 2, 3, 4]) < 0.9


def test_constant_side_gives_nan_and_short_input_fails():
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3]))
    assert math.isnan(spearman([1, 2, 3], [5, 5, 5]))
    with pytest.raises(GecInputError, match="at least 3"):
        pearson([1, 2], [1, 2])
    with pytest.raises(GecInputError, match="equal lengths"):
        spearman([1, 2, 3], [1, 2])


def test_correlate_follows_the_human_systems():
    human = HumanScores("h", {"A": 3.0, "B": 1.0, "C": 2.0})
    # Extra metric systems (D) are ignored; the order of the dict does not matter.
    corr = correlate({"C": 0.2, "D": 9.0, "A": 0.3, "B": 0.1}, human)
    assert (corr.pearson, corr.spearman, corr.n) == (pytest.approx(1.0), pytest.approx(1.0), 3)
    with pytest.raises(GecInputError, match="B"):
        correlate({"A": 1.0, "C": 2.0}, human)


# ---------------------------------------------------------------- bootstrap

def test_resample_weights_are_seeded_counts():
    w1, w2 = resample_weights(7, 20, seed=5), resample_weights(7, 20, seed=5)
    assert np.array_equal(w1, w2)
    assert not np.array_equal(w1, resample_weights(7, 20, seed=6))
    assert w1.shape == (20, 7) and np.all(w1.sum(axis=1) == 7)
    # one sentence: every resample draws it once
    assert np.array_equal(resample_weights(1, 4, seed=0), np.ones((4, 1)))


def mean_of_first(means):
    return float(means[0])


def ratio(means):
    return float(means[0] / (means[0] + means[1]))


def test_paired_bootstrap_is_deterministic_and_paired():
    rng = np.random.default_rng(0)
    base = rng.random((50, 1))
    systems = {"A": (base + 0.1, mean_of_first), "B": (base, mean_of_first)}
    first = paired_bootstrap(systems, n_resamples=200, seed=11)
    again = paired_bootstrap(systems, n_resamples=200, seed=11)
    assert first.intervals == again.intervals and first.differences == again.differences
    # A is B + 0.1 on every sentence, so every paired resample differs by exactly 0.1.
    (diff,) = first.differences
    assert (diff.a, diff.b) == ("A", "B")
    assert diff.interval.estimate == pytest.approx(0.1)
    assert diff.interval.low == pytest.approx(0.1) and diff.interval.high == pytest.approx(0.1)
    assert diff.p_not_better == 0.0
    a = first.intervals["A"]
    assert a.estimate == pytest.approx(float(base.mean()) + 0.1)
    assert a.low < a.estimate < a.high
    other_seed = paired_bootstrap(systems, n_resamples=200, seed=12)
    assert other_seed.intervals["A"] != a


def test_bootstrap_of_a_ratio_of_counts():
    # corpus-level style: score = sum(tp) / (sum(tp) + sum(fp)); 3 sentences of (tp, fp).
    stats = np.array([[1.0, 1.0], [2.0, 0.0], [1.0, 3.0]])
    result = paired_bootstrap({"S": (stats, ratio)}, n_resamples=100, seed=0)
    assert result.intervals["S"].estimate == pytest.approx(4 / 8)
    assert 0.0 <= result.intervals["S"].low <= 0.5 <= result.intervals["S"].high <= 1.0


def test_bootstrap_rejects_mismatched_sentence_counts():
    with pytest.raises(ValueError, match="different numbers"):
        paired_bootstrap({"A": (np.ones((3, 1)), mean_of_first), "B": (np.ones((4, 1)), mean_of_first)})


# ---------------------------------------------------------------- human scores

def test_read_human_tsv(tmp_path):
    path = tmp_path / "h.tsv"
    path.write_text("system\tEW\tTS\nX\t0.5\t1\nY\t0.25\t-1\n")
    rankings = read_human_tsv(path, prefix="p-")
    assert rankings["p-EW"].scores == {"X": 0.5, "Y": 0.25}
    assert rankings["p-TS"].systems == ("X", "Y")
    path.write_text("system\tEW\nX\tabc\n")
    with pytest.raises(GecInputError, match=r"h.tsv:2"):
        read_human_tsv(path)


def write_seeda(folder, systems, values):
    folder.mkdir()
    (folder / "SYSTEMS.txt").write_text("\n".join(systems) + "\n")
    for name in ("EW_sent", "TS_sent", "EW_edit", "TS_edit"):
        (folder / f"{name}.txt").write_text("\n".join(str(v) for v in values) + "\n")


def test_seeda_system_sets(tmp_path):
    systems = ["BART", "GPT-3.5", "INPUT", "REF-F", "REF-M", "T5"]
    write_seeda(tmp_path / "human", systems, [1, 2, 3, 4, 5, 6])
    base = seeda_scores(tmp_path / "human", "base")
    assert set(base) == {"seeda-S-EW", "seeda-S-TS", "seeda-E-EW", "seeda-E-TS"}
    assert base["seeda-S-TS"].scores == {"BART": 1.0, "REF-M": 5.0, "T5": 6.0}
    assert seeda_scores(tmp_path / "human", "+input")["seeda-E-EW"].systems == ("BART", "INPUT", "REF-M", "T5")
    assert len(seeda_scores(tmp_path / "human", "all")["seeda-E-EW"].systems) == 6
    with pytest.raises(GecInputError, match="unknown SEEDA system set"):
        seeda_scores(tmp_path / "human", "tiny")
    (tmp_path / "human" / "TS_edit.txt").write_text("1\n2\n")
    with pytest.raises(GecInputError, match="TS_edit.txt"):
        seeda_scores(tmp_path / "human")


def test_match_lines():
    full = ["a b", "c d", "e f", "c d"]
    assert match_lines(["c d", "e f", "c d"], full) == [1, 2, 3]
    with pytest.raises(GecInputError, match="subset:2"):
        match_lines(["e f", "a b"], full)


def test_real_gjg15_and_seeda():
    require(GEC_DATA / "gjg15" / "human_scores.tsv")
    gjg = gjg15_scores(GEC_DATA / "gjg15" / "human_scores.tsv")
    assert len(gjg["gjg15-EW"].systems) == 13
    assert gjg["gjg15-EW"].scores["AMU"] == 0.628 and gjg["gjg15-TS"].scores["IPN"] == -0.358
    require(GEC_DATA / "seeda" / "human")
    base = load_human("seeda-base", GEC_DATA)
    assert len(base["seeda-S-TS"].systems) == 12 and "REF-F" not in base["seeda-S-TS"].scores
    assert len(load_human("seeda-all", GEC_DATA)["seeda-E-EW"].systems) == 15
    subset = (GEC_DATA / "seeda" / "outputs" / "subset" / "INPUT.txt").read_text().splitlines()
    source = (GEC_DATA / "conll14" / "source.txt").read_text().splitlines()
    indices = match_lines(subset, source)
    assert len(indices) == 391 and indices[:3] == [11, 12, 28]


# ---------------------------------------------------------------- reference sets

GOLD = """S a b c
A 0 1|||R:X|||A|||REQUIRED|||-NONE-|||0

S d e
A 0 1|||R:X|||D|||REQUIRED|||-NONE-|||0
A 1 2|||R:X|||E|||REQUIRED|||-NONE-|||2

S f g
A 5 5|||M:X|||h|||REQUIRED|||-NONE-|||1

"""


def test_lenient_reader_fill_and_exclusion(tmp_path):
    path = tmp_path / "g.m2"
    path.write_text(GOLD)
    sentences, notes = read_m2_lenient(path)
    assert len(sentences) == 3 and len(notes) == 1 and "g.m2:9" in notes[0]
    # the insertion past the end of "f g" applies at the end
    assert sentences[2].targets()[0].tokens == ("f", "g", "h")
    filled = [fill_annotators(s, 3) for s in sentences]
    assert [len(s.annotations) for s in filled] == [3, 3, 3]
    assert sum(1 for s in filled for e in s.annotations.values() if not e) == 2 + 1 + 2
    kept = [exclude_unchanged(s) for s in filled]
    assert [sorted(s.annotations) for s in kept] == [[0], [0, 2], [1]]


def test_load_refset_from_path_and_samples(tmp_path):
    path = tmp_path / "g.m2"
    path.write_text(GOLD.replace("A 5 5|||M:X|||h", "A 2 2|||M:X|||h"))
    refset = load_refset(path, fill_missing_annotators=True, exclude_unchanged_refs=True)
    assert isinstance(refset, RefSet) and len(refset) == 3
    assert refset.options["exclude_unchanged_refs"] == "true"
    hyps = [Target.unchanged(s.source) for s in refset.sentences]
    samples = refset.samples(hyps)
    assert [len(s.references) for s in samples] == [1, 2, 1]
    assert samples[2].references[0].tokens == ("f", "g", "h")
    assert refset.subset([2]).sources == ["f g"]
    with pytest.raises(GecInputError, match="2 hypotheses"):
        refset.samples(hyps[:2])
    with pytest.raises(GecInputError, match="not a reference set name"):
        load_refset(tmp_path / "missing.m2")


def test_real_refsets():
    require(GEC_DATA / "conll14" / "refsets" / "EXPMIN.m2")
    emin = load_refset("e-minimal", GEC_DATA, reference_edits="m2")
    assert len(emin) == 1312 and len(emin.notes) == 1  # an edit beyond the end of sentence 335
    assert sum(len(s.annotations) for s in emin.sentences) == 2624
    assert emin.count_unchanged() == 816
    assert load_refset("e-minimal", GEC_DATA, reference_edits="m2", exclude_unchanged_refs=True).count_unchanged() == 612
    conll = load_refset("conll14", GEC_DATA)
    assert conll.options["reference_edits"] == "m2" and conll.options["fill_missing_annotators"] == "false"
    assert sum(1 for s in conll.sentences if len(s.annotations) == 1) == 88
