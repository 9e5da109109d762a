"""The compiled ERRANT alignment (gecscore.lang.en.alignment) against errant's own, exactly:
alignment sequences, cost/op matrices, and the typed edits of annotator.annotate."""
from __future__ import annotations

import string

import numpy as np
import pytest

errant = pytest.importorskip("errant", reason="errant is not installed (a base requirement: pip install -e .)")
from errant.alignment import Alignment  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402

from budget import examples
from hypothesis import strategies as st  # noqa: E402
from rapidfuzz.distance import Indel  # noqa: E402

from gecscore.errors import GecInputError, MissingModelError  # noqa: E402
from gecscore.lang.en import alignment as compiled  # noqa: E402
from gecscore.lang.en.alignment import CompiledAlignment, annotate, doc_features  # noqa: E402
from gecscore.lang.en.spacy_model import load_spacy_model  # noqa: E402
from rewrites import rewrite  # noqa: E402

MERGINGS = ("rules", "all-split", "all-merge", "all-equal")


@pytest.fixture(scope="module")
def annotator():
    try:
        nlp = load_spacy_model()
    except MissingModelError as exc:  # pragma: no cover
        pytest.skip(str(exc))
    return errant.load("en", nlp)


_DOCS: dict = {}


def parse(annotator, words):
    """A parsed Doc of pre-tokenised words, as ErrantExtractor builds it (cached)."""
    from spacy.tokens import Doc

    words = tuple(words.split()) if isinstance(words, str) else tuple(words)
    if words not in _DOCS:
        _DOCS[words] = annotator.nlp(Doc(annotator.nlp.vocab, list(words)))
    return _DOCS[words]


def edit_rows(edits):
    return [(e.o_start, e.o_end, e.c_start, e.c_end, e.o_str, e.c_str, e.type) for e in edits]


def compiled_variants(o, c, lev, ring_rows):
    """CompiledAlignment with each ring size, and once with the LCS memo forced on."""
    for rows in ring_rows:
        yield rows, CompiledAlignment(o, c, lev, ring_rows=rows)
    saved = compiled.LCS_CACHE_MIN_CELLS
    compiled.LCS_CACHE_MIN_CELLS = 0
    try:
        yield "lcs-memo", CompiledAlignment(o, c, lev, ring_rows=ring_rows[0])
    finally:
        compiled.LCS_CACHE_MIN_CELLS = saved


def assert_same(annotator, orig, cor, *, matrices=False, ring_rows=(2, 64)):
    o, c = parse(annotator, orig), parse(annotator, cor)
    for lev in (False, True):
        reference = Alignment(o, c, lev)
        for variant, ours in compiled_variants(o, c, lev, ring_rows):
            assert ours.align_seq == reference.align_seq, (orig, cor, lev, variant)
        if matrices:
            assert ours.cost_matrix == reference.cost_matrix
            assert ours.op_matrix == reference.op_matrix
        for merging in MERGINGS:
            expected = annotator.annotate(o, c, lev, merging)
            assert edit_rows(annotate(annotator, o, c, lev, merging)) == edit_rows(expected), \
                (orig, cor, lev, merging)


WORDS20 = [f"w{ch}" for ch in string.ascii_lowercase[:20]]

TRICKY = [
    ("He go to school yesterday .", "He went to the school yesterday ."),
    ("I like cats and dogs .", "I like dogs and cats ."),                    # transposition
    ("a b c d", "d c b a"),
    ("a a b b a", "b a a b"),                                                 # repeated tokens
    ("the the cat", "the cat the"),
    ("The cat sat .", ""),                                                    # empty target
    ("", "Some new words ."),                                                 # insertions only
    ("", ""),
    ("Same sentence here .", "Same sentence here ."),                         # identical
    ("this is paris , france", "This is Paris , France"),                     # case changes
    ("we went home , we slept", "We went home . We slept"),                   # punctuation + case
    ("Its a nice day , isnt it ?", "It 's a nice day , is n't it ?"),
    ("He has been eat the apple", "He ate apples"),
    ("I want to eat", "I want eating"),
    ("I look at the sky", "I watch the sky"),
    ("a cat", "acat"), ("sub way", "sub - way"), ("friends house", "friend 's house"),
    ("colour color colours", "color colour colour"),                          # char cost ties
    ("x y", "y x"), ("x y z", "z y x"), ("big bigger biggest", "biggest big bigger"),
    ("It is a long long long way to go home now", "It is long way home"),     # long merged spans
    ("The quick brown fox jumps over the lazy dog",
     "A slow red fox jumped above one sleepy cat and left"),
    (" ".join(WORDS20), " ".join(WORDS20[::-1])),                             # T20: side table
    ("x " + " ".join(WORDS20) + " y", "x " + " ".join(WORDS20[1:] + WORDS20[:1]) + " y"),
    ("the cat sat on the mat and the dog ate the bone",
     "the dog ate the bone and the cat sat on the mat"),
    ("naïve café – “quoted” ☃", "naive cafe - \"quoted\" ☃ ☃"),             # non-ASCII code points
    ("I love it 😀😀 !", "I loved it 😀 !"),                                # astral code points
]


@pytest.mark.parametrize("orig,cor", TRICKY)
def test_tricky_pairs_match_errant(annotator, orig, cor):
    assert_same(annotator, orig, cor, matrices=True, ring_rows=(2, 3, 64))


def test_long_transposition_uses_side_table(annotator):
    o, c = parse(annotator, " ".join(WORDS20)), parse(annotator, " ".join(WORDS20[::-1]))
    assert CompiledAlignment(o, c, ring_rows=2).align_seq == [("T20", 0, 20, 0, 20)]


def test_alignment_is_a_drop_in(annotator):
    o, c = parse(annotator, "He go to school"), parse(annotator, "He goes to the school")
    ours = CompiledAlignment(o, c)
    assert isinstance(ours, Alignment)
    assert ours.orig is o and ours.cor is c
    assert all(type(x) is int for row in ours.align_seq for x in row[1:])
    assert str(ours) == str(Alignment(o, c))
    assert doc_features(o) is doc_features(o)


def test_max_cells_limit(annotator):
    o, c = parse(annotator, "one two three four"), parse(annotator, "one two three five")
    with pytest.raises(GecInputError, match=r"4 source tokens x 4 target tokens.*max_cells"):
        CompiledAlignment(o, c, max_cells=24)
    with pytest.raises(GecInputError, match="max_cells"):
        annotate(annotator, o, c, max_cells=24)
    assert CompiledAlignment(o, c, max_cells=25).align_seq[-1][0] == "S"
    assert annotate(annotator, o, c, max_cells=None)


# --- char cost: the LCS formula against rapidfuzz ------------------------------------------------


def char_cost(a: str, b: str) -> float:
    ca, cb = compiled.code_points(a), compiled.code_points(b)
    lcs = compiled.lcs_length(ca, 0, len(ca), cb, 0, len(cb), np.zeros(len(cb) + 1, dtype=np.int64))
    maximum = len(ca) + len(cb)
    return 0.0 if maximum == 0 else np.float64(maximum - 2 * lcs) / np.float64(maximum)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30), st.text(max_size=30))
def test_char_cost_is_rapidfuzz_indel(a, b):
    assert char_cost(a, b) == Indel.normalized_distance(a, b)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="abcab'-", max_size=12), st.text(alphabet="abcba-", max_size=12))
def test_char_cost_small_alphabet(a, b):
    assert char_cost(a, b) == Indel.normalized_distance(a, b)


# --- property test: random token edits over a small vocabulary -----------------------------------

VOCAB = ["the", "The", "a", "an", "cat", "cats", "Cat", "dog", "dogs", "go", "went", "goes", "going",
         "is", "are", "be", "was", "quick", "quickly", "big", "bigger", ",", ".", "'s", "-", "and",
         "to", "eat", "eating", "ate", "colour", "color", "in", "on", "at", "I", "it", "its", "It",
         "happy", "happily", "house", "houses"]


@st.composite
def sentence_pairs(draw):
    orig = draw(st.lists(st.sampled_from(VOCAB), max_size=14))
    cor = list(orig)
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["sub", "del", "ins", "swap", "move", "reverse", "case"]))
        n = len(cor)
        if kind == "ins" or n == 0:
            cor.insert(draw(st.integers(0, n)), draw(st.sampled_from(VOCAB)))
        elif kind == "sub":
            cor[draw(st.integers(0, n - 1))] = draw(st.sampled_from(VOCAB))
        elif kind == "del":
            del cor[draw(st.integers(0, n - 1))]
        elif kind == "case":
            i = draw(st.integers(0, n - 1))
            cor[i] = draw(st.sampled_from([cor[i].lower(), cor[i].upper(), cor[i].capitalize()]))
        elif n >= 2:
            i = draw(st.integers(0, n - 2))
            j = draw(st.integers(i + 2, min(n, i + 6)))
            if kind == "swap":
                cor[i], cor[i + 1] = cor[i + 1], cor[i]
            elif kind == "reverse":
                cor[i:j] = cor[i:j][::-1]
            else:  # move a span
                span = cor[i:j]
                del cor[i:j]
                k = draw(st.integers(0, len(cor)))
                cor[k:k] = span
    return orig, cor


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sentence_pairs())
def test_random_edits_match_errant(annotator, pair):
    orig, cor = pair
    assert_same(annotator, orig, cor, ring_rows=(2, 64))


# --- property test: random rewrites of real CoNLL-2014 sentences ----------------------------------

def conll14_sources() -> list[tuple[str, ...]]:
    """Windows of 12 tokens of CoNLL-2014's source sentences (empty without GEC_DATA)."""
    from datapaths import CONLL14

    path = CONLL14 / "source.txt"
    if not path.exists():
        return []
    return [tuple(line.split()[start:start + 12]) for line in path.read_text(encoding="utf-8").splitlines()
            for start in range(0, max(1, len(line.split()) - 6), 12) if line.split()]


_CONLL14: list = []


@pytest.mark.realdata
@settings(max_examples=examples(600, 2500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_conll14_rewrites_match_errant(annotator, data):
    """Our ERRANT edits equal errant 3.0.2's (default settings: no Levenshtein costs, the "rules"
    merging) on random rewrites of real sentences: multi-token replacements, reorderings,
    insertions at the sentence start, repeated tokens, deletions."""
    if not _CONLL14:
        _CONLL14.extend(conll14_sources() or [()])
    if _CONLL14 == [()]:
        pytest.skip("CoNLL-2014 source not found (set GEC_DATA)")
    source = data.draw(st.sampled_from(_CONLL14))
    words = tuple(dict.fromkeys(source + tuple(VOCAB[:12])))
    corrected = data.draw(rewrite(list(source), words))
    o, c = parse(annotator, source), parse(annotator, corrected)
    assert edit_rows(annotate(annotator, o, c, False, "rules")) == edit_rows(annotator.annotate(o, c, False, "rules")), \
        (source, corrected)
