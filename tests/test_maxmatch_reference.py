"""Differential property tests: the library's MaxMatch (``segmentation="reference"``, the
default) against a step-by-step model of m2scorer 3.2 (tests/m2scorer_model.py), on random
rewrites: multi-token replacements, reorderings, insertions at the sentence start, repeated
tokens, deletions. The real-data test rewrites windows of CoNLL-2014 source sentences with their
gold edits (skipped without GEC_DATA); the synthetic one runs everywhere.

Compared per example: the whole edit sequence (spans and corrections) and the matched count.
"""
from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from budget import examples

from datapaths import CONLL14
from gecscore.m2.maxmatch import match_edits
from gecscore.m2.reference import reference_edit_sequence, reference_graph
from gecscore.types import Edit
from m2scorer_model import m2scorer_edits, m2scorer_matches
from rewrites import rewrite

WORDS = ("the", "a", "of", "to", "is", "are", "in", "people", "health", ",", ".", "and", "it", "they")


def ours(source, hypothesis, gold, limit=2):
    if tuple(source) == tuple(hypothesis):
        return []
    edits = reference_edit_sequence(reference_graph(source, hypothesis, limit), tuple(source), gold)
    return list(edits)


def spans(edits):
    return [(e.start, e.end, tuple(e.correction)) for e in edits]


def check(source, hypothesis, gold, limit=2):
    expected = m2scorer_edits(source, hypothesis, gold, limit)
    got = ours(source, hypothesis, gold, limit)
    assert spans(got) == spans(expected), (source, hypothesis, gold)
    assert len(match_edits(got, gold)) == m2scorer_matches(expected, gold, source)


@st.composite
def synthetic_case(draw):
    source = draw(st.lists(st.sampled_from(WORDS[:6]), min_size=1, max_size=8))
    gold = []
    for _ in range(draw(st.integers(0, 3))):
        start = draw(st.integers(0, len(source)))
        end = draw(st.integers(start, min(len(source), start + 2)))
        gold.append(Edit(start, end, tuple(draw(st.lists(st.sampled_from(WORDS[:6]), max_size=2)))))
    gold = sorted(dict.fromkeys(gold), key=lambda e: (e.start, e.end))
    return source, draw(rewrite(source, WORDS[:6])), gold


@settings(max_examples=examples(500, 1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(synthetic_case(), st.integers(0, 2))
def test_reference_segmentation_equals_the_m2scorer_model(case, limit):
    check(*case, limit)


@lru_cache(maxsize=1)
def conll_windows() -> list[tuple[tuple[str, ...], tuple[Edit, ...]]]:
    """Windows of 3-10 tokens of CoNLL-2014 source sentences with the gold edits of one
    annotator that lie inside them (shifted to the window)."""
    from gecscore.io.m2 import read_m2

    path = CONLL14 / "official-2014.combined.m2"
    if not path.exists():
        return []
    windows = []
    for sentence in read_m2(path):
        for annotator, edits in sorted(sentence.annotations.items()):
            for start in range(0, max(1, len(sentence.source) - 3), 7):
                stop = min(len(sentence.source), start + 10)
                inside = tuple(Edit(e.start - start, e.end - start, e.correction, alternatives=tuple(
                    e.alternatives)) for e in edits if start <= e.start and e.end <= stop and e.start != -1)
                if inside:
                    windows.append((tuple(sentence.source[start:stop]), inside))
    return windows


@st.composite
def conll_case(draw):
    windows = conll_windows()
    source, gold = windows[draw(st.integers(0, len(windows) - 1))]
    words = tuple(dict.fromkeys(source + tuple(t for e in gold for t in e.correction) + WORDS[:4]))
    # the hypothesis: the gold correction (or a part of it), then random rewrites
    corrected, position = [], 0
    for edit in gold:
        if draw(st.booleans()):
            corrected += list(source[position:edit.start]) + list(edit.correction)
            position = edit.end
    corrected += list(source[position:])
    return list(source), draw(rewrite(corrected, words)), list(gold)


@pytest.mark.realdata("conll14/official-2014.combined.m2")
@settings(max_examples=examples(1200, 5000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conll_case())
def test_reference_segmentation_equals_the_m2scorer_model_on_conll14_rewrites(case):
    if not conll_windows():
        pytest.skip(f"CoNLL-2014 gold not found under {CONLL14} (set GEC_DATA)")
    check(*case)
