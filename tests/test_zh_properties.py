"""Property tests of the Chinese char-level extraction (hypothesis).

* the compiled alignment yields exactly the paths of a plain-Python transcription of ChERRANT's
  (``zh_reference``), in the same order, on random short token sequences drawn from characters
  chosen to make ties: shared pinyin (的/地/得, 在/再, 做/作/坐), Cilin neighbours, punctuation,
  Latin letters, digits and the ``[缺失成分]`` token;
* every alignment's edits, applied to the source, give the target;
* tokenisation keeps every non-space character, in order.
"""
from __future__ import annotations

import pytest

pytest.importorskip("pypinyin")
pytest.importorskip("opencc")

from hypothesis import given, settings, strategies as st  # noqa: E402

import zh_reference  # noqa: E402
from gecscore.lang.zh import align  # noqa: E402
from gecscore.lang.zh.extractor import annotate_tokens  # noqa: E402
from gecscore.lang.zh.tokenize import MISSING, normalize, tokenize  # noqa: E402
from gecscore.types import Target  # noqa: E402

ALPHABET = list("的地得在再做作坐我你他们是不了人士，。、！,.ab1") + [MISSING]
tokens = st.lists(st.sampled_from(ALPHABET), max_size=9)


@settings(max_examples=300, deadline=None)
@given(tokens, tokens)
def test_compiled_alignment_equals_plain_transcription(src, tgt):
    if not src and not tgt:
        return
    ours = list(align.paths(align.fill(src, tgt)))
    assert ours == zh_reference.paths(src, tgt)
    assert len(ours) == align.count_paths(align.fill(src, tgt))


@settings(max_examples=300, deadline=None)
@given(tokens, tokens)
def test_costs_equal_plain_transcription(src, tgt):
    cost, _ = zh_reference.table(src, tgt)
    assert align.fill(src, tgt).cost.tolist() == cost


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=12),
       st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=12))
def test_every_alignment_applied_gives_the_target(src, tgt):
    annotation = annotate_tokens(tuple(src), tuple(tgt))
    if annotation.kind != "edits":
        assert "".join(src) == "".join(tgt)
        return
    for edits in annotation.alignments:
        assert edits, "a changed sentence has edits"
        assert "".join(Target.from_edits(src, edits).tokens) == "".join(tgt)
        assert all(a.end <= b.start for a, b in zip(edits, edits[1:]))  # ordered, disjoint


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("我们 \u3000\t的ab1，") + ["[缺失成分]", "[缺失", "成分]"]), max_size=20)
       .map("".join))
def test_tokenize_keeps_every_non_space_character(text):
    toks = tokenize(text)
    assert "".join(toks) == normalize(text)
    assert all(len(t) == 1 or t == MISSING for t in toks)
