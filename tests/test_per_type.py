"""Per-error-type scores of the M2 family: the ERRANT base equals errant_compare -cat N; the
MaxMatch base splits the headline counts by the gold's own types (hand-checked)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gecscore
from gecscore.cli import main
from gecscore.io.m2 import parse_m2
from gecscore.m2.per_type import UNANNOTATED, merge, type_at
from gecscore.types import GoldCorpus

from datapaths import CONLL14, require
from test_errant_compare import errant_output

# NUCLE-style types in the gold (as the official CoNLL-2014 M2): kept as they are.
GOLD = """S He go to school in the weekend .
A 1 2|||Vform|||goes|||REQUIRED|||-NONE-|||0
A 4 5|||Prep|||at|||REQUIRED|||-NONE-|||0
A 3 3|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0

S She like apple .
A 1 2|||SVA|||likes|||REQUIRED|||-NONE-|||0
A 2 3|||Nn|||apples|||REQUIRED|||-NONE-|||0
"""


def m2_metric(**options):
    metric = gecscore.load("pt_m2", scorer="none", per_type="full", **options)
    return metric, metric.prepare(GoldCorpus(tuple(parse_m2(GOLD.splitlines())), "m2"))


def test_maxmatch_base_splits_the_headline_counts_by_the_gold_types():
    metric, prepared = m2_metric()
    # sentence 1: "goes" (Vform, correct), "on" for "in" (a wrong fix of the Prep error: FP
    # typed Prep, and Prep missed: FN), "the" not inserted (ArtOrDet FN);
    # sentence 2: "likes" (SVA correct), "an" inserted before "apple" (touches the Nn edit's
    # span: FP typed Nn), "apples" missed (Nn FN).
    result = metric.score(prepared, ["He goes to school on the weekend .", "She likes an apple ."])
    types = result["per_type"]["types"]
    assert {name: (row["tp"], row["fp"], row["fn"]) for name, row in types.items()} == {
        "Vform": (1, 0, 0), "Prep": (0, 1, 1), "ArtOrDet": (0, 0, 1), "SVA": (1, 0, 0), "Nn": (0, 1, 1)}
    assert (result["correct"], result["proposed"], result["gold"]) == (2, 4, 5)
    assert result["per_type"]["rule"] == "m2-choice"
    assert types["Prep"]["p"] == 0.0 and types["Vform"]["f"] == 1.0


def test_an_unrelated_wrong_edit_is_unannotated():
    # "." -> "!" touches no gold edit under the minimal segmentation
    metric, prepared = m2_metric(segmentation="minimal")
    result = metric.score(prepared, ["He goes to school at the weekend .", "She like apple !"])
    types = result["per_type"]["types"]
    assert types[UNANNOTATED] == {"tp": 0, "fp": 1, "fn": 0, "p": 0.0, "r": 1.0, "f": 0.0}
    assert sum(row["fp"] for row in types.values()) == result["proposed"] - result["correct"]


def test_the_default_segmentation_widens_an_unmatched_edit_over_unchanged_words():
    # m2scorer's segmentation (the default) makes one edit "like apple ." -> "like apple !" of
    # the same change (its transitive arc over two unchanged words comes first): its span
    # touches the SVA edit, so the wrong edit is typed SVA, not unannotated
    metric, prepared = m2_metric()
    result = metric.score(prepared, ["He goes to school at the weekend .", "She like apple !"])
    types = result["per_type"]["types"]
    assert UNANNOTATED not in types and types["SVA"] == {"tp": 0, "fp": 1, "fn": 1, "p": 0.0, "r": 0.0, "f": 0.0}
    assert sum(row["fp"] for row in types.values()) == result["proposed"] - result["correct"]


def test_per_type_sums_are_the_headline_counts_on_every_granularity():
    metric, prepared = m2_metric()
    result = metric.score(prepared, ["He goes to a school on weekend .", "She likes apples ."])
    types = result["per_type"]["types"]
    assert sum(r["tp"] for r in types.values()) == result["correct"]
    assert sum(r["tp"] + r["fp"] for r in types.values()) == result["proposed"]
    assert sum(r["tp"] + r["fn"] for r in types.values()) == result["gold"]


def test_granularities_follow_errant_compare_and_keep_foreign_types():
    assert [type_at("R:VERB:TENSE", g) for g in ("operation", "main", "full")] == ["R", "VERB:TENSE", "R:VERB:TENSE"]
    assert [type_at(t, "operation") for t in ("UNK", "Vform", "ArtOrDet", UNANNOTATED)] == [
        "UNK", "Vform", "ArtOrDet", UNANNOTATED]
    assert merge({"R:NOUN": [1, 2, 3], "M:NOUN": [1, 0, 0], "R:VERB": [0, 1, 0]}, "main") == {
        "NOUN": [2, 2, 3], "VERB": [0, 1, 0]}


def test_per_type_is_not_in_the_signature_and_leaves_the_score(tmp_path, capsys):
    plain = gecscore.load("pt_m2", scorer="none")
    typed = gecscore.load("pt_m2", scorer="none", per_type="operation")
    args = (["He go to school ."], ["He goes to school ."], [["He goes to school ."]])
    a, b = plain.compute(*args), typed.compute(*args)
    assert str(a.signature) == str(b.signature) and a.score == b.score and "per_type" not in a.values
    assert b["per_type"]["types"] == {"R": {"tp": 1, "fp": 0, "fn": 0, "p": 1.0, "r": 1.0, "f": 1.0}}


@pytest.mark.realdata
@pytest.mark.parametrize("level, granularity", [(1, "operation"), (2, "main"), (3, "full")])
def test_conll14_amu_errant_base_equals_errant_compare(level, granularity, capsys):
    hyp = str(require(CONLL14 / "systems-errant" / "AMU.errant.m2"))
    ref = str(require(CONLL14 / "conll14.errant.m2"))
    assert main(["pt_m2", "--m2", ref, "--hyp-m2", hyp, "--base", "errant", "--scorer", "none",
                 "--per-type", granularity, "--json", "--quiet"]) == 0
    ours = json.loads(capsys.readouterr().out)["per_type"]
    lines = errant_output(hyp, ref, ["-cat", str(level)]).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Category"))
    theirs = {}
    for line in lines[start + 1:]:
        if not line.strip():
            break
        name, *cells = line.split()
        theirs[name] = cells
    assert ours["rule"] == "errant_compare"
    assert {name: [str(row[k]) for k in ("tp", "fp", "fn", "p", "r", "f")] for name, row in ours["types"].items()} \
        == theirs


class LengthScorer:
    """A fake pair scorer (no model): a pair scores by its candidate's length, so edit weights
    |s(S_u, R) - s(S, R)| are small whole-number ratios."""

    model, layer = "fake", None
    sentences_encoded = forward_batches = pairs_scored = 0

    def score(self, pairs):
        return [len(candidate) / 100 for candidate, _ in pairs]


def test_weighted_per_type_counts_sum_to_the_weighted_totals():
    from gecscore.m2.config import PtM2Config
    from gecscore.m2.metric import PtM2Metric

    metric = PtM2Metric(PtM2Config(scorer="bertscore", per_type="full"), pair_scorer=LengthScorer())
    prepared = metric.prepare(GoldCorpus(tuple(parse_m2(GOLD.splitlines())), "m2"))
    result = metric.score(prepared, ["He goes to school on the weekend .", "She likes an apple ."])
    types = result["per_type"]["types"]
    assert result["per_type"]["rule"] == "m2-choice-weighted"
    # goes: |len("He goes to ...") - len("He go to ...")| / 100 = 0.02
    assert types["Vform"]["tp"] == pytest.approx(0.02)
    assert sum(r["tp"] for r in types.values()) == pytest.approx(result["correct"])
    assert sum(r["tp"] + r["fp"] for r in types.values()) == pytest.approx(result["proposed"])
    assert sum(r["tp"] + r["fn"] for r in types.values()) == pytest.approx(result["gold"])


words = st.lists(st.sampled_from("He she go goes to school in at the a weekend apple apples like likes .".split()),
                 min_size=1, max_size=9)


@settings(max_examples=40, deadline=None)
@given(first=words, second=words, granularity=st.sampled_from(["operation", "main", "full"]))
def test_unweighted_per_type_sums_are_the_headline_counts(first, second, granularity):
    metric = gecscore.load("pt_m2", scorer="none", per_type=granularity)
    prepared = metric.prepare(GoldCorpus(tuple(parse_m2(GOLD.splitlines())), "m2"))
    result = metric.score(prepared, [" ".join(first), " ".join(second)])
    rows = result["per_type"]["types"].values()
    assert sum(r["tp"] for r in rows) == result["correct"]
    assert sum(r["tp"] + r["fp"] for r in rows) == result["proposed"]
    assert sum(r["tp"] + r["fn"] for r in rows) == result["gold"]


# CLEME / CLEME2.0 --------------------------------------------------------------------------

FOUR_LABELS = (["The childs were playing for the park and they was happy ."],
               ["The children were playing at the park and they was happy again ."],
               [["The children were playing in the park and they were happy ."]])


def test_cleme2_chunks_by_the_type_of_their_error():
    # childs -> children (TP, R:NOUN:INFL), for -> at (reference: in; FP_ne, R:PREP),
    # was left (FN, R:VERB:SVA), "again" inserted (FP_un: the hypothesis edit's type, M:ADV)
    result = gecscore.load("cleme2", per_type="full").compute(*FOUR_LABELS)
    types = result["per_type"]["types"]
    assert {name: tuple(row[c] for c in ("tp", "fp_ne", "fp_un", "fn")) for name, row in types.items()} == {
        "R:NOUN:INFL": (1, 0, 0, 0), "R:PREP": (0, 1, 0, 0), "R:VERB:SVA": (0, 0, 0, 1), "M:ADV": (0, 0, 1, 0)}
    assert (types["R:NOUN:INFL"]["hit"], types["R:PREP"]["wrong"], types["R:VERB:SVA"]["under"],
            types["M:ADV"]["over"]) == (1.0, 1.0, 1.0, 1.0)
    by_operation = gecscore.load("cleme2", per_type="operation").compute(*FOUR_LABELS)["per_type"]["types"]
    assert by_operation["R"]["hit"] == pytest.approx(1 / 3) and by_operation["M"]["over"] == 1.0
    cleme = gecscore.load("cleme", weighting="none", per_type="main").compute(*FOUR_LABELS)["per_type"]["types"]
    assert (cleme["NOUN:INFL"]["p"], cleme["PREP"]["p"], cleme["VERB:SVA"]["r"]) == (1.0, 0.0, 0.0)


@pytest.mark.parametrize("options", [{"assumption": "dep"}, {"assumption": "ind"},
                                     {"weighting": "length", "level": "sentence"}])
def test_chunk_per_type_counts_sum_to_the_headline_counts(options):
    from datapaths import example_corpus

    sources, hyps, refs = example_corpus()
    result = gecscore.load("cleme2", per_type="full", **options).compute(sources, hyps, refs)
    rows = result["per_type"]["types"].values()
    for column in ("tp", "fp_ne", "fp_un", "fn"):
        assert sum(row[column] for row in rows) == pytest.approx(result[column]), column


def test_space_panel_charts_and_tabulates_each_type():
    pytest.importorskip("gradio", reason="gradio is not installed (the spaces extra: pip install -e '.[spaces]')")
    from gecscore.spaces.per_type_view import option_value, per_type_html

    table = gecscore.load("pt_m2", scorer="none", per_type="main").compute(*FOUR_LABELS)["per_type"]
    html = per_type_html(table)
    assert html.count('<tr data-type="') == len(table["types"]) == 4
    assert 'data-bar="NOUN:INFL"' in html and "TP 1 FP 0 FN 0" in html
    assert option_value("none") is None and option_value("full") == "full"


def test_a_repeated_system_edit_matched_once_is_one_tp_and_one_fp():
    # found by the property test: a hypothesis inserting "the" twice before "school"; the gold's
    # one ArtOrDet insertion matches one of them, the other is a wrong edit of that error (both
    # segmentations propose the second "the" at that point, alone or with "school")
    for segmentation in ("reference", "minimal"):
        metric, prepared = m2_metric(segmentation=segmentation)
        result = metric.score(prepared, ["He goes to the the school at the weekend .", "She likes apples ."])
        types = result["per_type"]["types"]
        assert (types["ArtOrDet"]["tp"], types["ArtOrDet"]["fp"]) == (1, 1), segmentation
        assert sum(r["tp"] + r["fp"] for r in types.values()) == result["proposed"] == 6
