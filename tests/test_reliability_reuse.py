"""Reuse never crosses inputs (issue 24, class 1): every cache keyed by text tells apart inputs
that differ only by a separator-like character."""
from __future__ import annotations

import os

import pytest

import gecscore
from gecscore.judge.prompts import edit_weight_messages
from gecscore.judge.types import EDIT_WEIGHT_SAMPLING, JudgeRequest
from gecscore.metric import PreparedCache, text_digest

SEPARATORS = ["\x00", "\x01", "\x02", "\t", "\n", "\x1f"]


@pytest.mark.parametrize("sep", SEPARATORS)
def test_text_digest_tells_boundaries_from_separator_characters(sep):
    pairs = [
        ((["a"], [["x" + sep + "y"]]), (["a"], [["x", "y"]])),          # one reference vs two
        ((["a"], [[sep + "y"]]), (["a"], [["", "y"]])),
        ((["a" + sep], [["b"]]), (["a"], [[sep + "b"]])),              # source vs reference side
        ((["a", "b"], [["c"], ["d"]]), (["a" + sep + "b"], [["c" + sep + "d"]])),
        ((["a"], None), (["a"], [[]])),
        ((["a"], ["b"]), (["a"], [["b", ""]])),
    ]
    for left, right in pairs:
        assert text_digest(*left) != text_digest(*right), (left, right)


def test_text_digest_is_stable_for_equal_inputs():
    assert text_digest(["a\x00b"], [["c", "d"]]) == text_digest(["a\x00b"], [["c", "d"]])


def test_prepared_cache_does_not_reuse_a_reference_side_across_a_separator():
    """Two references, then one reference holding \\x01: the second call must see one reference."""
    metric = gecscore.load("cleme2")
    cache = PreparedCache()
    sources = ["He go home ."]
    two = cache.get(metric, sources, [["He goes home .", "He went home ."]])
    one = cache.get(metric, sources, [["He goes home .\x01He went home ."]])
    assert one is not two and cache.misses == 2
    assert len(two.gold.sentences[0].annotations) == 2
    assert len(one.gold.sentences[0].annotations) == 1


def test_edit_weight_prompt_fills_its_slots_once():
    """A sentence containing the text '{edit}' is asked as it is: before, it received the edit
    and two different (sentence, edit) pairs shared one prompt and one cached answer."""
    edit = "go -> goes"
    tricky = edit_weight_messages("He {edit} home .", edit)
    plain = edit_weight_messages("He go -> goes home .", edit)
    assert tricky != plain
    assert "Uncorrected sentence: He {edit} home .\nEdit: go -> goes\n" in tricky[0][1]
    keys = {JudgeRequest.of(m, EDIT_WEIGHT_SAMPLING).cache_key("openai", "m") for m in (tricky, plain)}
    assert len(keys) == 2


@pytest.mark.parametrize("sep", ["\n", "\x00", "\t"])
def test_judge_cache_key_tells_turn_boundaries_from_newlines(sep):
    one = JudgeRequest.of((("user", "a" + sep + "b"),), EDIT_WEIGHT_SAMPLING)
    two = JudgeRequest.of((("user", "a"), ("user", "b")), EDIT_WEIGHT_SAMPLING)
    assert one.cache_key("openai", "m") != two.cache_key("openai", "m")


def test_judge_cache_key_of_a_lone_surrogate_is_a_key_not_a_crash():
    request = JudgeRequest.of((("user", "caf\udce9"),), EDIT_WEIGHT_SAMPLING)
    other = JudgeRequest.of((("user", "caf\udce8"),), EDIT_WEIGHT_SAMPLING)
    assert request.cache_key("openai", "m") != other.cache_key("openai", "m")


def test_errant_edit_cache_keeps_pairs_apart():
    from gecscore.lang.en.extractor import ErrantExtractor

    extractor = ErrantExtractor(progress=False)
    first = extractor.edits("He go home .", "He goes home .")
    for sep in ("\x00", "\x01"):
        second = extractor.edits("He go home .", f"He goes{sep} home .")
        assert [e.correction for e in second] == [(f"goes{sep}",)] and first[0].correction == ("goes",)


def test_pair_scorer_cache_separates_local_model_folders(tmp_path, monkeypatch):
    """Two different folders both given as the relative path ``model`` are two cache entries."""
    from gecscore.models.similarity import BertScoreF1, BartScore

    (tmp_path / "a" / "model").mkdir(parents=True)
    (tmp_path / "b" / "model").mkdir(parents=True)
    def bert(model: str, **options) -> BertScoreF1:
        scorer = BertScoreF1(model, num_layers=3, **options)
        scorer._model = object()   # loaded, as far as the cache is concerned
        return scorer

    ids = []
    for folder in ("a", "b"):
        monkeypatch.chdir(tmp_path / folder)
        ids.append(bert("model").cache_id)
    assert ids[0] != ids[1]
    assert bert("m", precision="bf16").cache_id != bert("m").cache_id
    assert BartScore("m", max_length=16).cache_id != BartScore("m", max_length=1024).cache_id
