"""The model-free profile (``gecscore.lang.free``, rules ``free-1``): tokens, edits and types on
hand-checked sentences in several scripts, the profile's gold / predictions / hypothesis edits.

Every expected edit below was checked by hand against the rules in the modules' docstrings
(alignment: ERRANT's programme with the parse-free substitution cost; merge: ERRANT's rule merger
without its parse-based rules; types: :mod:`gecscore.lang.free.classify`).
"""
from __future__ import annotations

import warnings

import pytest

from gecscore.lang.free import FreeProfile
from gecscore.lang.free.align import align, align_plain, sub_cost_plain
from gecscore.lang.free.classify import osa_distance
from gecscore.lang.free.merge import merge
from gecscore.lang.free.profile import edits_of
from gecscore.lang.free.tokenize import tokenize, whitespace_tokens
from gecscore.types import Target


def edits(source: str, target: str) -> list[tuple[int, int, tuple[str, ...], str]]:
    src, tgt = tokenize(source), tokenize(target)
    found = edits_of(src, tgt)
    assert Target.from_edits(src, found).tokens == tgt
    return [(e.start, e.end, e.correction, e.type) for e in found]


# ------------------------------------------------------------------------------ tokeniser

@pytest.mark.parametrize("text, tokens", [
    ("Він прийшов о одинадцятій, п'ять будь-який.",
     ("Він", "прийшов", "о", "одинадцятій", ",", "п'ять", "будь-який", ".")),
    ("Ça coûte 3,14 € aujourd'hui...", ("Ça", "coûte", "3,14", "€", "aujourd'hui", ".", ".", ".")),
    ("Ελλάδα είναι ωραία!", ("Ελλάδα", "είναι", "ωραία", "!")),
    ("ذهبت إلى المدرسة.", ("ذهبت", "إلى", "المدرسة", ".")),
    ("東京に行きました。", ("東", "京", "に", "行", "き", "ま", "し", "た", "。")),
    # Thai: one token per character, its combining vowel/tone marks kept with it
    ("ฉันกินข้าว", ("ฉั", "น", "กิ", "น", "ข้", "า", "ว")),
    ("e\u0301te\u0301 - 'quoted'", ("e\u0301te\u0301", "-", "'", "quoted", "'")),
    ("", ()),
])
def test_tokenize(text, tokens):
    assert tokenize(text) == tokens


def test_whitespace_tokens_keep_given_tokens_but_cut_continuous_scripts():
    assert whitespace_tokens("home. 3,14 don't") == ("home.", "3,14", "don't")
    assert whitespace_tokens("東京2020年 ok") == ("東", "京", "2020", "年", "ok")


# ------------------------------------------------------------------------------ edits and types

def test_latin_with_diacritics():
    assert edits("Il a manger la pomme .", "Il a mangé la pomme .") == [(2, 3, ("mangé",), "R:MORPH")]
    assert edits("Ca coute cher", "Ça coûte cher") == [(0, 1, ("Ça",), "R:SPELL"), (1, 2, ("coûte",), "R:SPELL")]


def test_cyrillic():
    assert edits("Я пішов до школа .", "Я пішов до школи .") == [(3, 4, ("школи",), "R:MORPH")]
    assert edits("Я думаю що він прийде", "Я думаю , що він прийде") == [(2, 2, (",",), "M:PUNCT")]
    assert edits("рівно о одинадцятій", "рівно об одинадцятій") == [(1, 2, ("об",), "R:OTHER")]


def test_greek_adjacent_substitutions_are_split():
    assert edits("Η Ελλαδα ειναι ωραια", "Η Ελλάδα είναι ωραία .") == [
        (1, 2, ("Ελλάδα",), "R:SPELL"), (2, 3, ("είναι",), "R:SPELL"), (3, 4, ("ωραία",), "R:SPELL"),
        (4, 4, (".",), "M:PUNCT")]


def test_arabic_hamza_is_a_spelling_edit():
    assert edits("ذهبت الى المدرسة", "ذهبت إلى المدرسة .") == [(1, 2, ("إلى",), "R:SPELL"),
                                                               (3, 3, (".",), "M:PUNCT")]


def test_japanese_characters_as_tokens():
    # で matches; し->す (S) and た deleted (D) hold a word character: merged into one edit
    assert edits("私は学生でした", "私は学生です") == [(5, 7, ("す",), "R:OTHER")]


def test_thai_insertion_follows_errants_tie_rule():
    # the final ว matches the final ว (the back-trace meets that match first), so the
    # insertion is "ว แ ล้" before it; the three insertions are one edit (all-I run)
    assert edits("ฉันกินข้าว", "ฉันกินข้าวแล้ว") == [(6, 6, ("ว", "แ", "ล้"), "M:OTHER")]


def test_word_order_case_whitespace_and_punctuation_with_case():
    assert edits("very is good", "is very good") == [(0, 2, ("is", "very"), "R:WO")]
    assert edits("london is big", "London is big") == [(0, 1, ("London",), "R:ORTH")]
    assert edits("any one can", "anyone can") == [(0, 2, ("anyone",), "R:ORTH")]
    assert edits("he go home ,we eat", "he goes home . We eat") == [(1, 2, ("goes",), "R:OTHER"),
                                                                   (3, 5, (".", "We"), "R:PUNCT")]


def test_spelling_and_unnecessary_words():
    assert edits("I recieve it", "I receive it") == [(1, 2, ("receive",), "R:SPELL")]
    assert edits("the the cat", "the cat") == [(0, 1, (), "U:OTHER")]
    assert edits("a b", "a b") == []


def test_merge_strategies():
    src, tgt = ("a", "b", "c"), ("x", "y", "c")
    steps = align(src, tgt)
    assert [s[0] for s in steps] == ["S", "S", "M"]
    assert merge(steps, src, tgt, "all-split") == [("S", 0, 1, 0, 1), ("S", 1, 2, 1, 2)]
    assert merge(steps, src, tgt, "all-merge") == [("X", 0, 2, 0, 2)]
    with pytest.raises(ValueError):
        merge(steps, src, tgt, "nope")


def test_costs():
    assert sub_cost_plain("Cat", "cat") == 0.0
    # (0.499 + 0.25) + (3 + 4 - 2*3) / 7
    assert sub_cost_plain("cat", "cats") == (0.499 + 0.25) + 1 / 7
    assert sub_cost_plain(",", ".") == (0.499 + 0.0) + 1.0
    assert sub_cost_plain("a", ".") == (0.499 + 0.5) + 1.0
    assert osa_distance("hte", "the") == 1
    assert align(("a", "b"), ("b", "a")) == align_plain(("a", "b"), ("b", "a")) == [("T2", 0, 2, 0, 2)]


# ------------------------------------------------------------------------------ the profile

def test_profile_gold_predictions_and_hypotheses():
    profile = FreeProfile("uk")
    assert profile.name == "free"
    assert profile.facts() == (("profile", "free-1"),)
    gold = profile.gold(["Я пішов до школа.", "Все добре."],
                        [["Я пішов до школи.", "Я пішов у школу."], ["Все добре."]], True)
    assert gold.origin == "free"
    first, second = gold.sentences
    assert first.source == ("Я", "пішов", "до", "школа", ".")
    assert [(e.start, e.end, e.correction, e.type) for e in first.annotations[0]] == [
        (3, 4, ("школи",), "R:MORPH")]
    # two adjacent substitutions are split (ERRANT's rule)
    assert [(e.start, e.end, e.correction, e.type) for e in first.annotations[1]] == [
        (2, 3, ("у",), "R:OTHER"), (3, 4, ("школу",), "R:MORPH")]
    assert second.annotations == {0: ()}
    assert gold.facts() == (("refs", "var"), ("gold", "free"))
    predictions = profile.predictions(["Я пішов до школи!"], True)
    assert predictions == ["Я пішов до школи !"]
    (target,) = profile.hypothesis_targets(gold.sources[:1], predictions)
    assert [(e.start, e.end, e.correction, e.type) for e in target.edits] == [
        (3, 4, ("школи",), "R:MORPH"), (4, 5, ("!",), "R:PUNCT")]


def test_untokenised_text_warns_without_tokenize():
    profile = FreeProfile("fr")
    with pytest.warns(UserWarning, match="untokenised"):
        profile.gold(["Il est parti."], [["Il est parti hier."]], False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        profile.gold(["Il est parti ."], [["Il est parti hier ."]], False)


def test_other_merge_strategy_is_in_the_facts():
    assert FreeProfile("uk", strategy="all-split").facts() == (("profile", "free-1"), ("merge", "all-split"))


def test_profile_for_picks_free_without_a_pipeline(monkeypatch):
    from gecscore.lang import multigec, profiles

    monkeypatch.setattr(multigec, "spacy_pipeline_for", lambda lang: None)
    profiles.profile_for.cache_clear()
    try:
        profile = profiles.profile_for("uk")
        assert isinstance(profile, FreeProfile) and profile.lang == "uk"
    finally:
        profiles.profile_for.cache_clear()
