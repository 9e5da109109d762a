"""Sentence-level meta-evaluation (SEEDA's pairwise accuracy and Kendall's tau) and the window
analysis: hand-counted judgments, and the published SEEDA-S cells on the real data."""
from __future__ import annotations

import math

import pytest

from gecscore.errors import GecInputError
from gecscore.metaeval.sentence_level import (Judgment, human_pairs, pairwise_agreement, read_judgments,
                                              window_analysis)

from datapaths import CONLL14, GEC_DATA, require

XML = """<?xml version="1.0" encoding="UTF-8"?>
<appraise-results>
<error-correction-ranking-result id="x">
  <ranking-item src-id="3" id="1" user="annotator1">
    <translation system="A C" rank="1" />
    <translation system="B" rank="2" />
  </ranking-item>
  <ranking-item src-id="1" id="2" user="annotator2">
    <translation system="A" rank="2" />
    <translation system="B" rank="1" />
    <translation system="C" rank="2" />
  </ranking-item>
</error-correction-ranking-result>
</appraise-results>
"""


@pytest.fixture
def judgments(tmp_path):
    path = tmp_path / "judgments.xml"
    path.write_text(XML, encoding="utf-8")
    return read_judgments(path)


def test_judgments_split_shared_outputs_and_count_sentences_from_zero(judgments):
    assert judgments == (Judgment("1", 2, "annotator1", {"A": 1, "C": 1, "B": 2}),
                         Judgment("2", 0, "annotator2", {"A": 2, "B": 1, "C": 2}))


def test_human_pairs_skip_equal_ranks_and_unkept_systems(judgments):
    assert human_pairs(judgments[0], ["A", "B", "C"]) == [("A", "B"), ("C", "B")]
    assert human_pairs(judgments[1], ["A", "B", "C"]) == [("B", "A"), ("B", "C")]
    assert human_pairs(judgments[1], ["A", "C"]) == []       # A and C tie for the humans


def test_accuracy_and_tau_by_hand_for_each_tie_rule(judgments):
    # sentence 2: A 0.9, B 0.5, C 0.5 -> (A > B) agrees, (C > B) is a metric tie
    # sentence 0: A 0.2, B 0.7, C 0.1 -> (B > A) agrees, (B > C) agrees
    scores = {"A": {2: 0.9, 0: 0.2}, "B": {2: 0.5, 0: 0.7}, "C": {2: 0.5, 0: 0.1}}
    neutral = pairwise_agreement(judgments, scores, ["A", "B", "C"])
    assert (neutral.agree, neutral.disagree, neutral.neutral, neutral.metric_ties) == (3, 0, 1, 1)
    assert (neutral.accuracy, neutral.kendall) == (3 / 4, 3 / 4)
    # SEEDA's script: the tie of (C better, B worse) reads as "the later of B, C is better": C, agree
    script = pairwise_agreement(judgments, scores, ["A", "B", "C"], ties="seeda-script")
    assert (script.agree, script.disagree, script.accuracy, script.kendall) == (4, 0, 1.0, 1.0)
    # ... and with C ordered before B it reads as "B is better": a disagreement
    script = pairwise_agreement(judgments, scores, ["A", "C", "B"], ties="seeda-script")
    assert (script.agree, script.disagree, script.kendall) == (3, 1, 0.5)
    strict = pairwise_agreement(judgments, scores, ["A", "B", "C"], ties="discordant")
    assert (strict.accuracy, strict.kendall) == (3 / 4, 2 / 4)


def test_missing_scores_and_bad_tie_rules_are_named(judgments):
    with pytest.raises(GecInputError, match="no sentence score of C for sentence 3"):
        pairwise_agreement(judgments, {"A": {2: 1.0, 0: 1.0}, "B": {2: 1.0, 0: 1.0}, "C": {0: 1.0}}, ["A", "B", "C"])
    with pytest.raises(GecInputError, match="ties must be one of"):
        pairwise_agreement(judgments, {}, ["A"], ties="half")


def test_bad_judgment_files_name_the_item(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text('<r><ranking-item id="7"><translation system="A" rank="x"/></ranking-item></r>')
    with pytest.raises(GecInputError, match="ranking-item 7"):
        read_judgments(path)


def test_window_analysis_by_hand():
    human = {"A": 4.0, "B": 3.0, "C": 2.0, "D": 1.0}
    metric = {"A": 0.4, "B": 0.3, "C": 0.35, "D": 0.1}
    windows = window_analysis(human, metric, 3)
    assert [(w.first, w.systems) for w in windows] == [(1, ("A", "B", "C")), (2, ("B", "C", "D"))]
    # window 1: metric ranks A > C > B against A > B > C: rho = 1 - 6 * 2 / (3 * 8) = 0.5
    assert windows[0].spearman == pytest.approx(0.5)
    # window 2: human 3, 2, 1 vs metric 0.3, 0.35, 0.1: rho = 0.5; Pearson by hand
    assert windows[1].spearman == pytest.approx(0.5)
    mx = (0.3 + 0.35 + 0.1) / 3
    cov = (1 * (0.3 - mx) + 0 + -1 * (0.1 - mx))
    norm = math.sqrt(2) * math.sqrt(sum((v - mx) ** 2 for v in (0.3, 0.35, 0.1)))
    assert windows[1].pearson == pytest.approx(cov / norm)
    with pytest.raises(GecInputError, match="at least 3"):
        window_analysis(human, metric, 2)


@pytest.mark.realdata
@pytest.mark.slow
@pytest.mark.heavy
def test_seeda_s_sentence_level_reproduces_the_published_cells():
    """DSGram paper, Table 3 (after Kobayashi et al. 2024), SEEDA-S, base systems: M2 Acc 0.512,
    tau 0.200; GLEU 0.673, 0.351 (M2: SentM2 F0.5 against the official gold; ties neutral).
    Heavy: tests/test_ties.py checks the same cells from the same scores in make test (as
    acc_kept and tau_14, which equal ties="neutral", tested there)."""
    import gecscore
    from gecscore.io.m2 import read_m2
    from gecscore.io.text import read_lines
    from gecscore.metaeval.human import SEEDA_SYSTEM_SETS, match_lines
    from gecscore.types import GoldCorpus

    seeda = GEC_DATA / "seeda"
    judgments = read_judgments(require(seeda / "judgments_sent.xml"))
    systems = [s for s in read_lines(seeda / "human" / "SYSTEMS.txt", allow_empty=False)
               if s not in SEEDA_SYSTEM_SETS["base"]]
    indices = match_lines(read_lines(seeda / "outputs" / "subset" / "INPUT.txt"),
                          read_lines(require(CONLL14 / "source.txt")))
    outputs = {s: read_lines(seeda / "outputs" / "subset" / f"{s}.txt") for s in systems}
    gold = read_m2(CONLL14 / "official-2014.combined.m2")
    m2 = gecscore.load("pt_m2", scorer="none", level="sentence")
    prepared = m2.prepare(GoldCorpus(tuple(gold[i] for i in indices), "m2"))
    scores = {s: {indices[r["index"]]: r["f"] for r in m2.score(prepared, lines).records()}
              for s, lines in outputs.items()}
    m2_s = pairwise_agreement(judgments, scores, systems)
    assert (round(m2_s.accuracy, 3), round(m2_s.kendall, 3)) == (0.512, 0.200)
    sources, refs = read_lines(CONLL14 / "source.txt"), [read_lines(CONLL14 / f"ref{k}.txt") for k in (0, 1)]
    gleu = gecscore.load("gleu")
    prepared = gleu.prepare_text([sources[i] for i in indices], [[r[i] for r in refs] for i in indices])
    scores = {s: {indices[r["index"]]: r["gleu"] for r in gleu.score(prepared, lines).records()}
              for s, lines in outputs.items()}
    gleu_s = pairwise_agreement(judgments, scores, systems)
    assert (round(gleu_s.accuracy, 3), round(gleu_s.kendall, 3)) == (0.673, 0.351)


@pytest.mark.parametrize("name, options", [("cleme2", {}), ("cleme2", {"level": "sentence", "assumption": "ind"}),
                                           ("cleme", {"weighting": "length"}), ("pt_m2", {"scorer": "none"}),
                                           ("pt_m2", {"scorer": "none", "base": "errant"}), ("gleu", {}),
                                           ("green", {}), ("gotoscorer", {"no_weight": True})])
def test_a_results_sentence_scores_are_its_records_declared_field(name, options):
    """``Result.sentence_scores`` (a metric's cheap path, e.g. CLEME's, or the records) gives
    exactly the field ``Metric.sentence_score_key`` of each record, in sentence order."""
    import gecscore

    from datapaths import EXAMPLES

    sources = (EXAMPLES / "source.txt").read_text().splitlines()
    hypotheses = (EXAMPLES / "hypothesis.txt").read_text().splitlines()
    references = list(zip((EXAMPLES / "reference0.txt").read_text().splitlines(),
                          (EXAMPLES / "reference1.txt").read_text().splitlines()))
    metric = gecscore.load(name, **options)
    result = metric.score(metric.prepare_text(sources, references), hypotheses)
    key = metric.sentence_score_key
    expected = tuple(float(r[key]) for r in sorted(result.records(), key=lambda r: r["index"]))
    assert result.sentence_scores() == expected and len(expected) == len(sources)
    assert gecscore.load("imeasure").sentence_score_key is None
