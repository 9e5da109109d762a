"""UA-GEC (Ukrainian; ``pip install gecscore[uagec]``: the ``ua-gec`` package ships the corpus,
CC BY 4.0): a few test documents, their source sentences and two annotators' corrections
(GEC-only layer, tokenised as the corpus gives them).

* the free profile's gold on them: hand-checked edits and types of document 0002's first two
  sentences, and every annotator's edits applied to the source giving its correction;
* every model-free metric through the seam, ``gecscore.load(name, lang="uk", ...)``: a
  hypothesis equal to the only reference scores at least as well as the uncorrected source and
  the other annotator, F-scores of 1.0 for it (0.0 for the uncorrected source with CLEME and
  M2), and the signature names the free profile.
"""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("ua_gec", reason="UA-GEC is not installed (pip install 'gecscore[uagec]')")

import gecscore  # noqa: E402
from gecscore.lang.free import FreeProfile  # noqa: E402
from gecscore.types import Target  # noqa: E402

DOCS = ("0002", "0006", "0013")


def _documents():
    from ua_gec import Corpus

    found: dict[str, dict[int, object]] = {}
    for doc in Corpus(partition="test", annotation_layer="gec-only"):
        if doc.doc_id in DOCS:
            found.setdefault(doc.doc_id, {})[doc.meta.annotator_id] = doc
    return found


@pytest.fixture(scope="module")
def uagec():
    """(sources, annotator-1 corrections, annotator-2 corrections) of the documents in DOCS."""
    docs = _documents()
    sources, first, second = [], [], []
    for doc_id in DOCS:
        a, b = (docs[doc_id][k] for k in sorted(docs[doc_id]))
        assert a.source_sentences_tokenized == b.source_sentences_tokenized
        sources += a.source_sentences_tokenized
        first += a.target_sentences_tokenized
        second += b.target_sentences_tokenized
    return sources, first, second


def described(sentence, annotator):
    return [(e.start, e.end, " ".join(sentence.source[e.start:e.end]), " ".join(e.correction), e.type)
            for e in sentence.annotations[annotator]]


def test_free_profile_gold_of_uagec(uagec):
    sources, first, second = uagec
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # tokenised text: no untokenised warning
        gold = FreeProfile("uk").gold(sources, [[a, b] for a, b in zip(first, second)], False)
    assert len(gold) == len(sources) > 20
    s0, s1 = gold.sentences[:2]
    assert described(s0, 0) == [(3, 4, "о", "об", "R:OTHER"), (14, 15, "шаштався", "шастав", "R:OTHER"),
                                (15, 16, "в", "у", "R:OTHER"), (26, 28, ", хто", "", "U:OTHER"),
                                (29, 30, "воно", "", "U:OTHER")]
    assert described(s0, 1) == [(3, 4, "о", "об", "R:OTHER")]
    # `" Я не є доктор " - сказав я : " Чому вам ...`: punctuation next to punctuation is not merged
    assert described(s1, 0) == [(6, 6, "", ",", "M:PUNCT"), (6, 7, "-", "—", "R:PUNCT"),
                                (9, 10, ":", ".", "R:PUNCT"), (10, 11, '"', "—", "R:PUNCT")]
    assert described(s1, 1) == [(0, 1, '"', "—", "R:PUNCT"), (6, 7, "-", "—", "R:PUNCT"),
                                (9, 10, ":", ".", "R:PUNCT"), (10, 11, '"', "—", "R:PUNCT"),
                                (12, 12, "", "б", "M:OTHER"), (18, 20, '" .', "", "U:PUNCT")]
    for sentence, a, b in zip(gold.sentences, first, second):
        assert Target.from_edits(sentence.source, sentence.annotations[0]).tokens == tuple(a.split())
        assert Target.from_edits(sentence.source, sentence.annotations[1]).tokens == tuple(b.split())


def test_free_profile_hypotheses_of_uagec(uagec):
    sources, first, second = uagec
    profile = FreeProfile("uk")
    targets = profile.hypothesis_targets(sources, profile.predictions(second, False))
    assert [t.tokens for t in targets] == [tuple(s.split()) for s in second]
    assert sum(len(t.edits) for t in targets) > 0
    assert all(not t.edits for t, s, h in zip(targets, sources, second) if s == h)


METRICS = [("cleme", {}), ("cleme2", {}), ("pt_m2", {"scorer": "none"}),
           ("pt_m2", {"scorer": "none", "base": "errant"}), ("imeasure", {}), ("gleu", {})]
F_SCORES = {"cleme", "cleme2", "pt_m2"}


@pytest.mark.parametrize("name, options", METRICS, ids=[f"{n}-{'-'.join(o.values())}" for n, o in METRICS])
def test_every_metric_scores_uagec_through_the_seam(uagec, name, options):
    sources, first, second = uagec
    metric = gecscore.load(name, lang="uk", **options)
    references = [[ref] for ref in first]
    perfect = metric.compute(sources, first, references)
    copy = metric.compute(sources, sources, references)
    other = metric.compute(sources, second, references)
    assert "free-1" in str(perfect.signature)
    assert perfect.score >= other.score and perfect.score >= copy.score
    if name in F_SCORES:
        assert perfect.score == pytest.approx(1.0)
    if name in ("cleme", "pt_m2"):  # CLEME2.0 also credits the chunks a system rightly leaves alone
        assert copy.score == pytest.approx(0.0)
