"""The per-edit colour view of the CLEME2.0 and PT-M2 Spaces (no browser: the HTML and the
records it draws; tests/test_spaces_attribution_browser.py clicks through it)."""
from __future__ import annotations

import re

import pytest

from gecscore.spaces import attribution_view as view

RECORD = {"index": 0, "tokens": ["He", "go", "to", "school", "."], "attribution": [
    {"sentence": 0, "edit": 0, "start": 1, "end": 2, "source": "go", "correction": "went", "type": "R:VERB",
     "method": "shapley", "attribution": 0.5, "empty": 0.0, "full": 0.4, "samples": None},
    {"sentence": 0, "edit": 1, "start": 3, "end": 3, "source": "", "correction": "the", "type": "M:DET",
     "method": "shapley", "attribution": -0.1, "empty": 0.0, "full": 0.4, "samples": None}]}


def test_colours_by_sign_and_magnitude():
    assert view.colour(0.5, 0.5) == "rgba(46,139,87,1.000)"
    assert view.colour(-0.25, 0.5) == "rgba(192,57,43,0.560)"     # 0.12 + 0.88 * 0.5
    assert view.colour(0.0, 0.5) == "transparent" and view.colour(0.3, 0.0) == "transparent"


def test_sentence_drawn_in_place_with_one_scale():
    html = view.sentences_html([RECORD, {**RECORD, "index": 1, "attribution": []}])
    spans = re.findall(r'data-sign="(\w+)" data-attribution="([^"]+)"', html)
    assert spans == [("positive", "0.5"), ("negative", "-0.1")]
    plain = re.sub(r"<[^>]+>", "", html)
    assert "He go→went to ∅→the school ." in plain.replace("+0.500", "").replace("-0.100", "")
    assert "rgba(46,139,87,1.000)" in html and "rgba(192,57,43,0.296)" in html   # -0.1 of the max 0.5
    assert "no hypothesis edit" in html and "Edit attribution" in html
    assert "No edit attribution was computed" in view.sentences_html([{"index": 0}])


def test_space_compute_attaches_sentence_attributions():
    pytest.importorskip("gradio")
    from gecscore.spaces.examples import FOUR_LABELS
    from gecscore.spaces.inputs import corpus_input

    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "pt_m2_app", Path(__file__).resolve().parents[1] / "spaces" / "pt_m2" / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    corpus = corpus_input(FOUR_LABELS.sources, FOUR_LABELS.hypotheses, list(FOUR_LABELS.references))
    plain = app.compute(corpus, {"scorer": "none"})
    assert "attribution" not in plain.records[0]
    outcome = app.compute(corpus, {"scorer": "none"}, attribution="shapley")
    edits = outcome.records[0]["attribution"]
    # childs -> children matches the gold (TP), for -> at and +again do not: SentM2 TP 1 FP 2 FN 2
    assert [(e["source"], e["correction"]) for e in edits] == [("childs", "children"), ("for", "at"), ("", "again")]
    assert edits[0]["attribution"] > 0 > edits[1]["attribution"]
    assert sum(e["attribution"] for e in edits) == pytest.approx(edits[0]["full"] - edits[0]["empty"])
    assert outcome.result == plain.result           # the scores do not change
    assert 'data-sign="positive"' in app.render_view(outcome.records, 50, "attribution")
    assert "gec-edits" in app.render_view(outcome.records, 50, "labels")
