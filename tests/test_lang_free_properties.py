"""Property tests of the model-free profile (hypothesis):

* the compiled alignment equals the plain-Python programme (:func:`align_plain`), step for step,
  on token sequences drawn to make ties, transpositions and case-only changes;
* the edits, applied to the source, give the target (every merge strategy);
* any Unicode text tokenises, aligns and types without an error, and tokenisation keeps every
  non-space character in order.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from gecscore.lang.free.align import align, align_plain
from gecscore.lang.free.merge import STRATEGIES
from gecscore.lang.free.profile import edits_of
from gecscore.lang.free.tokenize import tokenize, whitespace_tokens
from gecscore.types import Target

VOCAB = ["a", "A", "b", "ab", "ba", "the", "The", "cat", "cats", "школа", "школи", "Ελλάδα", "ελλαδα",
         ",", ".", "!", "-", "3", "3.5", "東", "京", "ฉั", "น", "الى", "إلى", ""]
tokens = st.lists(st.sampled_from(VOCAB[:-1]), max_size=9).map(tuple)


@settings(max_examples=400, deadline=None)
@given(tokens, tokens)
def test_compiled_alignment_equals_plain(src, tgt):
    assert align(src, tgt) == align_plain(src, tgt)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=4), max_size=7).map(tuple), st.lists(st.text(max_size=4), max_size=7).map(tuple))
def test_compiled_alignment_equals_plain_on_any_text(src, tgt):
    assert align(src, tgt) == align_plain(src, tgt)


@settings(max_examples=300, deadline=None)
@given(tokens, tokens, st.sampled_from(STRATEGIES))
def test_edits_applied_give_the_target(src, tgt, strategy):
    found = edits_of(src, tgt, strategy)
    target = Target.from_edits(src, found)
    assert target.tokens == tgt
    assert all(e.type.split(":")[0] in "MRU" for e in found)
    assert all((e.tgt_start, e.tgt_end) == (p.tgt_start, p.tgt_end) for e, p in zip(found, target.edits))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_any_unicode_never_crashes(source, target):
    src, tgt = tokenize(source), tokenize(target)
    assert "".join(src) == "".join(source.split())
    assert all(tok and not any(ch.isspace() for ch in tok) for tok in src)
    assert Target.from_edits(src, edits_of(src, tgt)).tokens == tgt
    ws_src, ws_tgt = whitespace_tokens(source), whitespace_tokens(target)
    assert "".join(ws_src) == "".join(source.split())
    assert Target.from_edits(ws_src, edits_of(ws_src, ws_tgt)).tokens == ws_tgt


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_tokenised_text_reads_back_as_the_same_tokens(text):
    """What the seam does: sources tokenised once, joined by spaces, then read as whitespace tokens."""
    tokens = tokenize(text)
    assert whitespace_tokens(" ".join(tokens)) == tokens
