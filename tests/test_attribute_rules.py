"""The attribute ruler's matches by column tests (gecscore.lang.en.attribute_rules) against
spaCy's own ``AttributeRuler.match``: on the English model's 179 rules, on generated rulers
and docs (every supported test, patterns of 1-3 tokens, batches whose docs a span must not
cross), and the whole pipeline's annotations against ``nlp.pipe``."""
from __future__ import annotations

import numpy as np
import pytest

spacy = pytest.importorskip("spacy", reason="spaCy is not installed (a base requirement: pip install -e .)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from spacy.attrs import DEP, HEAD, LEMMA, MORPH, POS, TAG  # noqa: E402
from spacy.pipeline import AttributeRuler  # noqa: E402
from spacy.tokens import Doc  # noqa: E402

from budget import examples  # noqa: E402
from datapaths import GEC_DATA  # noqa: E402
from english_pipeline import docs_before  # noqa: E402
from gecscore.lang.en.attribute_rules import compile_rules  # noqa: E402
from gecscore.lang.en.parsing import run_pipeline  # noqa: E402

ANNOTATIONS = [TAG, POS, MORPH, LEMMA, DEP, HEAD]
# Sentences that reach the model's word, tag and dependency exceptions (two-token rules with an
# index, REGEX, IN / NOT_IN on tags and dependencies).
TRICKY = ["I 'm gon na do it , but it is n't done .", "Let 's go , y' all !", "There 's a cat and there are dogs .",
          "He ai n't here and I got ta leave .", "nothin' is done because I do n't know it .",
          "Whether he did it or not , it was him who had that .", "Did you have it ? I have .",
          "c'm on , I 'd rather that you gave it to me .", "That which is done is done , said it ."]


@pytest.fixture(scope="module")
def nlp(english_nlp):
    return english_nlp


def test_the_english_model_compiles_and_matches_as_spacy(nlp):
    ruler = nlp.get_pipe("attribute_ruler")
    compiled = compile_rules(ruler)
    assert compiled is not None and len({p.rule for p in compiled.patterns}) == len(ruler.attrs) == 179
    docs = docs_before(nlp, TRICKY, "attribute_ruler")
    expected = [ruler.match(doc) for doc in docs]
    assert compiled.matches(docs) == expected
    assert {m[0] for found in expected for m in found} >= {  # the exceptions were reached
        n for n, p in enumerate(ruler.patterns) if len(p["patterns"][0]) == 2 and p["index"] == 1} - {
        n for n, p in enumerate(ruler.patterns) if p["patterns"][0][0].get("LOWER") == "got"}


def test_the_pipeline_annotates_as_nlp_pipe(nlp):
    sentences = TRICKY + ["", "A", "The cat sat on the mat ."]
    expected = [d.to_array(ANNOTATIONS) for d in nlp.pipe(Doc(nlp.vocab, s.split()) for s in sentences)]
    for batch_size in (1, 3, 256):
        got = [d.to_array(ANNOTATIONS) for d in run_pipeline(nlp, (Doc(nlp.vocab, s.split()) for s in sentences),
                                                             batch_size)]
        assert all(np.array_equal(a, b) for a, b in zip(got, expected, strict=True))


@pytest.mark.parametrize("pattern", [
    [{"LOWER": "a", "OP": "?"}],                  # an operator
    [{"LENGTH": 3}],                              # an attribute outside the subset
    [{"LOWER": {"FUZZY": "cat"}}],                # another predicate
    [{"_": {"flag": True}}],                      # an extension attribute
])
def test_a_feature_outside_the_subset_is_left_to_spacy(pattern):
    from spacy.tokens import Token

    if not Token.has_extension("flag"):
        Token.set_extension("flag", default=False)
    ruler = AttributeRuler(spacy.blank("en").vocab)
    ruler.add([[{"LOWER": "b"}]], {"LEMMA": "bee"})
    assert compile_rules(ruler) is not None
    ruler.add([pattern], {"LEMMA": "x"})
    assert compile_rules(ruler) is None


WORDS = ["a", "A", "b", "the", "The", "'s", "n't", "nt", "gon", "na", " ", "\n", "run", "ran"]
TAGS = ["NN", "VB", "DT", "RB", "_SP", ""]
DEPS = ["nsubj", "det", "ROOT", "aux", ""]
POSES = ["NOUN", "VERB", "DET", "ADV"]


@st.composite
def token_tests(draw):
    attr = draw(st.sampled_from(["LOWER", "ORTH", "TEXT", "TAG", "DEP", "POS", "IS_SPACE", "IS_PUNCT", "IS_ALPHA"]))
    pool = {"TAG": TAGS, "DEP": DEPS, "POS": POSES}.get(attr, WORDS)
    if attr.startswith("IS_"):
        return attr, draw(st.booleans())
    kind = draw(st.sampled_from(["==", "IN", "NOT_IN", "REGEX"]))
    if kind == "==":
        return attr, draw(st.sampled_from([v for v in pool if v]))
    if kind == "REGEX":
        return attr, {"REGEX": draw(st.sampled_from(["^n'?t$", "^[Tt]", "a", "^$", "s$"]))}
    return attr, {kind: draw(st.lists(st.sampled_from(pool), max_size=3))}


BLANK = spacy.blank("en")   # one vocabulary for the generated rulers (a blank pipeline takes 0.1 s)


@st.composite
def rulers(draw):
    ruler = AttributeRuler(BLANK.vocab)
    for _ in range(draw(st.integers(1, 6))):
        length = draw(st.integers(1, 3))
        patterns = [[dict(draw(st.lists(token_tests(), max_size=2))) for _ in range(length)]
                    for _ in range(draw(st.integers(1, 2)))]
        attrs = draw(st.sampled_from([{"LEMMA": "x"}, {"LEMMA": "y"}, {"POS": "NOUN"}, {"POS": "VERB", "LEMMA": "z"},
                                      {"TAG": "NN"}, {"MORPH": "Number=Sing"}, {"MORPH": "Number=Plur", "POS": "NOUN"}]))
        ruler.add(patterns, attrs, index=draw(st.integers(-length, length - 1)))
    return ruler


@st.composite
def docs(draw, vocab):
    out = []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(0, 6))
        words = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
        parsed = draw(st.booleans())
        out.append(Doc(vocab, words=words, tags=[draw(st.sampled_from(TAGS[:-1])) for _ in words],
                       pos=[draw(st.sampled_from(POSES)) for _ in words],
                       heads=list(range(n)) if parsed else None,
                       deps=[draw(st.sampled_from(DEPS[:-1])) for _ in words] if parsed else None))
    return out


@settings(max_examples=examples(150, 2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_rulers_match_as_spacy(data):
    ruler = data.draw(rulers())
    compiled = compile_rules(ruler)
    assert compiled is not None
    batch = data.draw(docs(ruler.vocab))
    assert compiled.matches(batch) == [ruler.match(doc) for doc in batch]


@pytest.mark.realdata("conll14/systems/AMU.txt", "conll14/systems/INPUT.txt")
def test_conll14_sentences_annotate_as_nlp_pipe(nlp):
    lines = [line for name in ("INPUT", "AMU")
             for line in (GEC_DATA / "conll14" / "systems" / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:400]]
    expected = [d.to_array(ANNOTATIONS) for d in nlp.pipe(Doc(nlp.vocab, s.split()) for s in lines)]
    got = [d.to_array(ANNOTATIONS) for d in run_pipeline(nlp, (Doc(nlp.vocab, s.split()) for s in lines), 256)]
    assert all(np.array_equal(a, b) for a, b in zip(got, expected, strict=True))


@settings(max_examples=examples(150, 2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_rulers_annotate_as_spacy(data):
    """The annotations written token by token (each field's last write) equal spaCy's
    set_annotations, match by match: rules overlapping on a token, negative indices."""
    ruler = data.draw(rulers())
    compiled = compile_rules(ruler)
    batch = data.draw(docs(ruler.vocab))
    theirs = [Doc(ruler.vocab).from_bytes(doc.to_bytes()) for doc in batch]
    ours = [Doc(ruler.vocab).from_bytes(doc.to_bytes()) for doc in batch]
    for doc in theirs:
        ruler.set_annotations(doc, ruler.match(doc))
    compiled._annotate(ours)
    fields = [LEMMA, POS, TAG, MORPH]
    assert all(np.array_equal(a.to_array(fields), b.to_array(fields)) for a, b in zip(ours, theirs))
