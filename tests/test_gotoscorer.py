"""GoToScorer (Gotou et al. 2020) behind the seam: chunks, annotations, weights, scores."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.errors import GecInputError
from gecscore.gotoscorer.chunks import Chunk, annotate, chunks_of
from gecscore.gotoscorer.metric import GoToScorerMetric
from gecscore.types import Edit, Gold, GoldCorpus, Target

SOURCE = ("A", "B", "C")
FIX = Edit(1, 2, ("X",), "R:NOUN")


def gold(*edits: Edit) -> GoldCorpus:
    return GoldCorpus((Gold(SOURCE, {0: tuple(edits)}, 0, "1"),), "m2")


def target(*edits: Edit) -> Target:
    return Target.from_edits(SOURCE, list(edits))


def spans(chunks):
    return [(c.start, c.end, c.correction, c.edited) for c in chunks]


def test_chunks_have_one_insertion_slot_per_gap():
    assert spans(chunks_of([FIX], SOURCE)) == [
        (0, 0, "", False), (0, 1, "A", False), (1, 1, "", False), (1, 2, "X", True), (2, 2, "", False),
        (2, 3, "C", False), (3, 3, "", False)]
    # an insertion takes its gap's slot; one at the end is the last chunk
    assert spans(chunks_of([Edit(1, 1, ("the",), "M:DET"), Edit(3, 3, ("!",), "M:PUNCT")], SOURCE)) == [
        (0, 0, "", False), (0, 1, "A", False), (1, 1, "the", True), (1, 2, "B", False), (2, 2, "", False),
        (2, 3, "C", False), (3, 3, "!", True)]
    # noop and UNK edits are not chunks of their own
    assert spans(chunks_of([Edit(0, 1, ("A",), "UNK")], SOURCE)) == spans(chunks_of([], SOURCE))


def test_annotation_of_a_reference_chunk():
    system = chunks_of([Edit(0, 2, ("Z",), "R:OTHER")], SOURCE)
    assert annotate(Chunk(1, 2, "X", "R", True), system) == (False, True)   # overlapped by an edit: tried
    assert annotate(Chunk(2, 3, "C"), system) == (True, False)               # same span, same token
    assert annotate(Chunk(1, 1, ""), system) == (True, False)                # no slot there: counted correct


def unweighted(hypothesis: Target, **options):
    metric = GoToScorerMetric.from_options(no_weight=True, **options)
    return metric.score(metric.prepare(gold(FIX)), [hypothesis])


def test_counts_and_f_by_hand():
    right = unweighted(target(FIX))
    assert (right["tp"], right["fp"], right["fn"], right["tn"]) == (1, 0, 0, 6) and right.score == 1.0
    wrong = unweighted(target(Edit(1, 2, ("Y",), "R:NOUN")))
    assert (wrong["tp"], wrong["fp"], wrong["fn"], wrong["tn"]) == (0, 1, 1, 6) and wrong.score == 0.0
    missed = unweighted(target())
    assert (missed["tp"], missed["fp"], missed["fn"], missed["tn"]) == (0, 0, 1, 6) and missed.score == 0.0
    # a correct edit plus a spurious one: P = 1/2, R = 1, F0.5 = 1.25 * 0.5 / (0.25 * 0.5 + 1) = 5/9
    both = unweighted(target(Edit(0, 1, ("Z",), "R:OTHER"), FIX))
    assert (both["tp"], both["fp"], both["fn"]) == (1, 1, 0)
    assert both.score == pytest.approx(5 / 9)
    assert both.statistic(both.sentence_stats.mean(axis=0)) == pytest.approx(both.score)


def test_weights_come_from_the_systems_scored_together():
    metric = GoToScorerMetric.from_options()
    prepared = metric.prepare(gold(FIX))
    with pytest.raises(GecInputError, match="score_systems"):
        metric.score(prepared, [target(FIX)])
    results = dict(metric.score_systems(prepared, [("fixes", [target(FIX)]), ("keeps", [target()])]))
    # every chunk but X is right in both systems (weight 0); X is fixed by one of two: 0.5
    assert results["fixes"]["tp"] == 0.5 and results["fixes"].score == 1.0
    assert results["keeps"]["fn"] == 0.5 and results["keeps"]["tn"] == 0.0 and results["keeps"].score == 0.0
    with pytest.raises(GecInputError, match="at least two systems"):
        metric.score_systems(prepared, [("alone", [target(FIX)])])
    weighted = metric.weighted(prepared, [[target(FIX)], [target()]])
    assert weighted.state["weights"] == ((0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0),)
    assert metric.score(weighted, [target(FIX)]).score == 1.0
    assert "weights:2sys-" in str(metric.score(weighted, [target(FIX)]).signature)


def test_weight_match_span_is_the_papers_and_correction_is_gec_metrics():
    insertion = Edit(2, 2, ("X",), "M:NOUN")
    elsewhere = [target(Edit(0, 1, ("X",), "R:NOUN"))]   # writes X, but in another place
    for match, weight in (("span", 1.0), ("correction", 0.0)):
        metric = GoToScorerMetric.from_options(weight_match=match)
        prepared = metric.weighted(metric.prepare(gold(insertion)), [elsewhere, elsewhere])
        chunk = [c.correction for c in prepared.state["chunks"][0]].index("X")
        assert prepared.state["weights"][0][chunk] == weight


def test_text_input_and_sentence_level():
    metric = GoToScorerMetric.from_options(no_weight=True, level="sentence")
    prepared = metric.prepare_text(["He go home .", "It is ."], [["He goes home ."], ["It is ."]])
    result = metric.score(prepared, ["He goes home .", "It was ."])
    # sentence 1 exactly right (F 1); sentence 2 one spurious edit: P 0, R 1 (no FN) -> F 0
    assert [r["f"] for r in result.records()] == [1.0, 0.0]
    assert result.score == 0.5


tokens = st.lists(st.sampled_from("a b c".split()), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
@given(tokens, st.data())
def test_chunk_and_identity_properties(source, data):
    source = tuple(source)
    start = data.draw(st.integers(0, len(source)))
    end = data.draw(st.integers(start, len(source)))
    edit = Edit(start, end, tuple(data.draw(st.lists(st.sampled_from("x y".split()), max_size=2))), "R")
    if start == end and not edit.correction:
        return
    chunks = chunks_of([edit], source)
    # one insertion chunk per gap between tokens, except the gaps inside a multi-token edit
    assert sum(c.is_insertion for c in chunks) == len(source) + 1 - max(end - start - 1, 0)
    # the chunks tile the source: each token is in exactly one non-insertion chunk
    assert sum(c.end - c.start for c in chunks) == len(source)
    metric = GoToScorerMetric.from_options(no_weight=True)
    corpus = GoldCorpus((Gold(source, {0: (edit,)}, 0, "1"),), "m2")
    result = metric.score(metric.prepare(corpus), [Target.from_edits(source, [edit])])
    assert result["fp"] == 0 and result["fn"] == 0 and result.score == 1.0
