"""The Spaces' HTML helpers and input parsing (no gradio, no browser)."""
from __future__ import annotations

import re

import pytest

from gecscore.errors import GecInputError
from gecscore.spaces import chunks_view, metric_views
from gecscore.spaces.inputs import corpus_input, split_lines
from gecscore.spaces.render import Bar, bar_chart_html, legend_html, result_table_html

# A hand-made per-sentence record in the format of chunk_report.sentence_records: source
# "He go to school in monday ." with one chunk of each label (weights as with weighting on).
RECORD = {
    "index": 0, "reference": 1, "score": 0.5, "hit": 0.25, "wrong": 0.25, "under": 0.5, "over": 0.5,
    "source": "He go to school in monday .", "hypothesis": "He goes at school on monday !",
    "chunks": [
        {"source": "He", "hypothesis": "He", "references": ["He", "He"], "label": "TN", "weight": 1.0,
         "changed": {"hypothesis": False, "references": [False, False]}, "types": []},
        {"source": "go", "hypothesis": "goes", "references": ["goes", "goes"], "label": "TP", "weight": 1.5,
         "changed": {"hypothesis": True, "references": [True, True]}, "types": ["R:VERB:SVA"]},
        {"source": "to", "hypothesis": "at", "references": ["to", "to"], "label": "FP_un", "weight": 1.0,
         "changed": {"hypothesis": True, "references": [False, False]}, "types": ["R:PREP"]},
        {"source": "school", "hypothesis": "school", "references": ["school", "school"], "label": "TN",
         "weight": 1.0, "changed": {"hypothesis": False, "references": [False, False]}, "types": []},
        {"source": "in", "hypothesis": "on", "references": ["", "on"], "label": "TP", "weight": 1.0,
         "changed": {"hypothesis": True, "references": [True, False]}, "types": ["R:PREP"]},
        {"source": "monday", "hypothesis": "monday", "references": ["Monday", "Monday"], "label": "FN",
         "weight": 2.0, "changed": {"hypothesis": False, "references": [True, True]}, "types": []},
        {"source": ".", "hypothesis": "!", "references": [".", "?"], "label": "FP_ne", "weight": 0.5,
         "changed": {"hypothesis": True, "references": [False, True]}, "types": ["R:PUNCT"]},
    ],
}


def _rows(html: str) -> list[str]:
    return re.findall(r"<tr[^>]*>.*?</tr>", html)


def _cells(row: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", row)


def test_legend_has_the_four_labels_in_four_distinct_colours():
    html = chunks_view.legend()
    for label in ("TP", "FP_ne", "FP_un", "FN"):
        assert f'data-label="{label}"' in html
    backgrounds = {s.background for s in chunks_view.LABEL_STYLES.values()}
    borders = {s.border for s in chunks_view.LABEL_STYLES.values()}
    assert len(backgrounds) == 4 and len(borders) == 4


def test_chunk_grid_puts_every_chunk_in_its_own_column():
    html = chunks_view.chunk_grid(RECORD, show_weights=False)
    rows = _rows(html)
    # source, hypothesis, label tags, reference 1, reference 2 (no weights row)
    assert len(rows) == 5
    assert all(len(_cells(row)) == 7 for row in rows)
    assert _cells(rows[0]) == ["He", "go", "to", "school", "in", "monday", "."]
    assert _cells(rows[1]) == ["He", "goes", "at", "school", "on", "monday", "!"]
    # The deleted chunk of reference 1 shows as the empty-set sign, not as nothing.
    assert _cells(rows[3])[4] == chunks_view.EMPTY
    assert "weight" not in html


def test_hypothesis_cells_carry_their_label_colour_and_tooltip():
    html = chunks_view.chunk_grid(RECORD, show_weights=False)
    hyp = _rows(html)[1]
    for label, style in chunks_view.LABEL_STYLES.items():
        cell = re.search(rf'<td[^>]*data-label="{label}"[^>]*>', hyp).group(0)
        assert f"background:{style.background}" in cell and f"border-color:{style.border}" in cell
    # unchanged chunks are not coloured
    assert re.search(r'<td[^>]*data-label="TN"[^>]*>', hyp).group(0).count("background") == 0
    assert 'title="FP_ne: &quot;.&quot; -&gt; &quot;!&quot;; reference 1: &quot;.&quot;; ' \
           'reference 2: &quot;?&quot;; types: R:PUNCT"' in hyp


def test_weights_row_and_chosen_reference():
    html = chunks_view.chunk_grid(RECORD, show_weights=True)
    weights = [r for r in _rows(html) if "gec-weights" in r][0]
    # one weight per labelled chunk, blank for unchanged chunks
    assert [c.strip() for c in _cells(weights)] == ["", "1.50", "1.00", "", "1.00", "2.00", "0.50"]
    chosen = [r for r in _rows(html) if "gec-chosen" in r]
    assert len(chosen) == 1 and "Reference 2 ✓" in chosen[0]


def test_reference_cells_mark_what_the_reference_changed():
    rows = _rows(chunks_view.chunk_grid(RECORD, show_weights=False))
    ref2 = re.findall(r"<td([^>]*)>", rows[4])
    assert ["gec-ref-changed" in attrs for attrs in ref2] == [False, True, False, False, False, True, True]


def test_text_is_escaped():
    record = {**RECORD, "chunks": [{**RECORD["chunks"][1], "hypothesis": "<b>goes</b>"}]}
    html = chunks_view.chunk_grid(record, show_weights=False)
    assert "<b>goes</b>" not in html and "&lt;b&gt;goes&lt;/b&gt;" in html


def test_weighting_is_detected_from_the_weights():
    assert chunks_view.is_weighted([RECORD])
    unit = {**RECORD, "chunks": [{**c, "weight": 1.0} for c in RECORD["chunks"]]}
    assert not chunks_view.is_weighted([unit])


def test_sentence_filter_and_limit():
    clean = {**RECORD, "index": 1, "chunks": [RECORD["chunks"][0]]}
    records = [RECORD, clean, {**RECORD, "index": 2}]
    assert [chunks_view.wanted(r, "with FP_un") for r in records] == [True, False, True]
    assert [chunks_view.wanted(r, "sentences with edits") for r in records] == [True, False, True]
    html = chunks_view.sentences_html(records, show="sentences with edits", limit=1)
    assert html.count('class="gec-sentence"') == 1
    assert "Showing the first 1 of 2 matching sentences (of 3)" in html
    assert "No sentence matches" in chunks_view.sentences_html([clean], show="with FN")
    with pytest.raises(ValueError, match="unknown filter"):
        chunks_view.wanted(RECORD, "with XX")


def test_sentence_head_counts_labels():
    html = chunks_view.sentences_html([RECORD])
    assert "2 TP" in html and "1 FP_ne" in html and "1 FP_un" in html and "1 FN" in html
    assert "scored against reference 2 ✓" in html


def test_bar_chart_widths_follow_the_values_and_clip():
    html = bar_chart_html([Bar("hit", 0.25, "#000"), Bar("over", 1.7, "#111"), Bar("neg", -0.2, "#222")],
                          "t")
    assert re.findall(r"width:([\d.]+)%", html) == ["25.0", "100.0", "0.0"]
    assert ">0.250<" in html and ">1.700<" in html
    signed = bar_chart_html([Bar("i", 0.0, "#000")], "t", lo=-1, hi=1)
    assert "width:50.0%" in signed


def test_ratio_chart_uses_the_label_colours():
    html = chunks_view.ratio_chart({"hit": 0.5, "wrong": 0.1, "under": 0.4, "over": 0.2})
    for name, label, _ in chunks_view.RATIO_LABELS:
        row = re.search(rf'data-bar="{name}".*?</div></div></div>', html).group(0)
        assert chunks_view.LABEL_STYLES[label].border in row


def test_result_table_highlights_the_score_and_shows_the_signature():
    html = result_table_html({"metric": "cleme2", "signature": "cleme2|v:1", "score": 0.51666, "tp": 2,
                              "hit": 1 / 3}, [("scores", ("score", "hit", "missing")), ("counts", ("tp",))])
    assert '<tr class="gec-highlight" data-key="score"><th>score</th><td>0.5167</td>' in html
    assert '<td>0.3333</td>' in html and "<td>2</td>" in html and "missing" not in html
    assert "<code>cleme2|v:1</code>" in html
    assert "Legend" in legend_html([], "Legend")


def test_pasted_text_becomes_parallel_references():
    corpus = corpus_input("a b .\nc d .\n", "a B .\nc D .", ["A b .\nC d .", "", "a b !\nc d !\n"])
    assert corpus.sources == ["a b .", "c d ."]
    assert corpus.references == [["A b .", "a b !"], ["C d .", "c d !"]]
    assert split_lines("x\r\ny\n\n") == ["x", "y"]


def test_uploads_replace_pasted_boxes(tmp_path):
    src = tmp_path / "src.txt"
    src.write_text("one .\ntwo .\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("One .\nTwo .\n", encoding="utf-8")
    corpus = corpus_input("ignored", "one !\ntwo !", [""], source_file=str(src), reference_files=[str(ref)])
    assert corpus.sources == ["one .", "two ."] and corpus.references == [["One ."], ["Two ."]]
    m2 = corpus_input(None, "one !", [], m2_file=str(tmp_path / "gold.m2"))
    assert m2.m2_path == str(tmp_path / "gold.m2") and m2.sources == []


@pytest.mark.parametrize("args, message", [
    (("a .", "", ["A ."]), "no hypothesis"),
    (("", "a .", ["A ."]), "no source"),
    (("a .\n \nb .", "a .\nx\nb .", ["A .\nX\nB ."]), r"source:2: empty line"),
    (("a .\nb .", "a .", ["A .\nB ."]), "hypothesis: 1 lines but the source has 2"),
    (("a .\nb .", "a .\nb .", ["A ."]), "reference 1: 1 lines but the source has 2"),
    (("a .", "a .", ["", ""]), "no reference"),
])
def test_bad_input_names_the_box(args, message):
    with pytest.raises(GecInputError, match=message):
        corpus_input(*args)


def test_non_utf8_upload_is_named(tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9 .\n".encode("latin-1"))
    with pytest.raises(GecInputError, match=r"source \(latin1.txt\):1: not UTF-8"):
        corpus_input(None, "x .", ["X ."], source_file=str(bad))


def test_sentence_scores_table_shows_texts_and_the_record_values():
    records = metric_views.with_texts(
        [{"index": 0, "score": 4.0, "attempts": 1, "tp": [3.0, 1.0]},
         {"index": 1, "score": None, "attempts": 4, "tp": []}],
        ["He go <home> .", "She like it ."], ["He goes <home> .", "She likes it ."])
    html = metric_views.sentence_scores_html(records, ("score", "attempts", "tp"))
    rows = re.findall(r'<tr data-index="(\d+)">(.*?)</tr>', html)
    assert [index for index, _ in rows] == ["0", "1"]
    assert _cells(rows[0][1]) == ["1", "He go &lt;home&gt; .", "<b>He goes &lt;home&gt; .</b>", "4.0000", "1",
                                  "3, 1"]
    # no score (a sentence the judge failed) and an empty list show as a dash
    assert _cells(rows[1][1])[3:] == [metric_views.MISSING, "4", metric_views.MISSING]
    assert re.search(r'<td data-key="score" class="gec-score">4.0000</td>', html)
    assert "<th>#</th><th>source</th><th>hypothesis</th><th>score</th>" in html
    many = metric_views.with_texts([{"index": i, "score": 1.0} for i in range(5)], ["a"] * 5, ["b"] * 5)
    shown = metric_views.sentence_scores_html(many, ("score",), limit=2)
    assert shown.count("<tr data-index=") == 2 and "first 2 of 5 sentences" in shown
    assert "No sentences yet" in metric_views.sentence_scores_html([], ("score",))
    # text values (a target as the judge saw it, the judge's problems) are set as text
    judged = metric_views.sentence_scores_html(
        [{"index": 0, "source": "a", "hypothesis": "b", "score": 3.0, "shown": "[a→b]", "problems": ["no score"]}],
        ("score", "shown", "problems"))
    assert '<td data-key="shown" class="gec-text">[a→b]</td>' in judged
    assert '<td data-key="problems" class="gec-text">no score</td>' in judged
