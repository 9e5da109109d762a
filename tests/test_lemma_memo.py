"""The rule lemmatizer's answers kept by (word, POS, morphology) (gecscore.lang.en.lemma_memo)
against spaCy's own lemmatizer: the same lemmas on parsed docs, lemmas set before it kept (or
overwritten when it overwrites), tokens without a POS asked every time, and no memo where the
argument for it does not hold."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

spacy = pytest.importorskip("spacy", reason="spaCy is not installed (a base requirement: pip install -e .)")
from spacy.attrs import LEMMA  # noqa: E402
from spacy.tokens import Doc  # noqa: E402

from english_pipeline import docs_before  # noqa: E402
from gecscore.lang.en.lemma_memo import RememberedLemmas, remembered_lemmas  # noqa: E402

SENTENCES = ["The cats were running to the houses .", "He has been there , has n't he ?",
             "Running is better than walking ; the best runs are long .", "I saw the saw that she saws with .",
             "The cats were running to the houses ."]


@pytest.fixture(scope="module")
def nlp(english_nlp):
    return english_nlp


def _copies(nlp, docs):
    return [Doc(nlp.vocab).from_bytes(doc.to_bytes()) for doc in docs]


@pytest.mark.parametrize("overwrite", [False, True])
def test_the_lemmas_are_spacys(nlp, overwrite, monkeypatch):
    lemmatizer = nlp.get_pipe("lemmatizer")
    monkeypatch.setattr(lemmatizer, "overwrite", overwrite)
    docs = docs_before(nlp, SENTENCES * 2, "lemmatizer")
    docs[3][0].lemma_ = "preset"   # set before it (as the attribute ruler sets "be" for 's)
    expected = [lemmatizer(doc) for doc in _copies(nlp, docs)]
    got = list(RememberedLemmas(lemmatizer).pipe(_copies(nlp, docs), batch_size=2))
    assert [[t.lemma_ for t in d] for d in got] == [[t.lemma_ for t in d] for d in expected]
    assert (got[3][0].lemma_ == "preset") is not overwrite


def test_a_token_without_a_pos_is_asked_every_time(nlp):
    lemmatizer = nlp.get_pipe("lemmatizer")
    docs = [Doc(nlp.vocab, ["Cats", "run"]) for _ in range(3)]   # no tagger, no POS: spaCy warns each time
    memo = RememberedLemmas(lemmatizer)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = list(memo.pipe(docs, batch_size=1))
    assert len(caught) == 6 and not memo.lemmas
    assert [t.lemma_ for t in got[2]] == ["cats", "run"]


def test_only_spacys_base_and_english_rule_lemmatizers_are_remembered(nlp):
    from spacy.lang.en.lemmatizer import EnglishLemmatizer

    class OtherLemmatizer(EnglishLemmatizer):
        def is_base_form(self, token):   # may read anything
            return token.i == 0

    lemmatizer = nlp.get_pipe("lemmatizer")
    assert remembered_lemmas(lemmatizer) is remembered_lemmas(lemmatizer) is not None   # one per lemmatizer
    other = OtherLemmatizer(nlp.vocab, lemmatizer.model, mode="rule")
    assert remembered_lemmas(other) is None
    assert remembered_lemmas(nlp.get_pipe("tagger")) is None
    lookup = spacy.blank("en").add_pipe("lemmatizer", config={"mode": "lookup"})
    assert remembered_lemmas(lookup) is None


def test_the_lemma_column_is_written_whole(nlp):
    docs = docs_before(nlp, SENTENCES, "lemmatizer")
    got = list(RememberedLemmas(nlp.get_pipe("lemmatizer")).pipe(docs, batch_size=8))
    assert all((d.to_array([LEMMA]) != 0).all() for d in got)
    assert np.array_equal(got[0].to_array([LEMMA]), got[4].to_array([LEMMA]))


def test_the_index_as_sets_answers_as_the_lists(nlp):
    """spaCy's rule_lemmatize reading the lemma index as sets (the memo's view) gives every
    token the lemmas it gives reading the model's lists: forms found in the index and not."""
    from gecscore.lang.en.lemma_memo import _IndexedAsSets, _SetIndex

    lemmatizer = nlp.get_pipe("lemmatizer")
    view = _IndexedAsSets(lemmatizer, _SetIndex(lemmatizer.lookups))
    docs = docs_before(nlp, SENTENCES + ["The families were inheriting and developing the considered houses .",
                                         "Blorfing zorbles quickly glimmered ."], "lemmatizer")
    for token in (t for doc in docs for t in doc):
        lemmatizer.cache.clear()
        theirs = lemmatizer.rule_lemmatize(token)
        lemmatizer.cache.clear()
        assert type(lemmatizer).rule_lemmatize(view, token) == theirs
    index = lemmatizer.lookups.get_table("lemma_index")
    assert view.lookups.get_table("lemma_index").get("verb") == frozenset(index.get("verb")) != frozenset()
    assert view.lookups.get_table("lemma_rules") is lemmatizer.lookups.get_table("lemma_rules")
