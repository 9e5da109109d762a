"""The untokenised-text warning (issue 39): an abbreviation's own period is how tokenised text
writes it (CoNLL-2014 keeps "etc.", "U.S.", "C."), so it never makes tokenised text look
untokenised; punctuation glued to a word still does."""
from __future__ import annotations

import warnings

import pytest

from gecscore.inputs import is_glued, looks_untokenised, warn_if_untokenised


@pytest.mark.parametrize("token", ["etc.", "Mr.", "e.g.", "U.S.", "C.", "a.m.", "vs."])
def test_an_abbreviation_is_not_glued(token):
    assert not is_glued(token)


@pytest.mark.parametrize("token", ["home.", "said,", "don't", "(the", "is.", "end\"", "it's"])
def test_punctuation_glued_to_a_word_is(token):
    assert is_glued(token)


def test_tokenised_text_with_abbreviations_raises_no_warning():
    lines = ["Food , clothes , etc. are needed .", "The U.S. and Dr. C. Smith agree ."]
    assert not looks_untokenised(lines)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_if_untokenised(lines, "references", tokenize=False)


def test_untokenised_text_still_warns_quoting_a_glued_token():
    with pytest.warns(UserWarning, match="'home.'"):
        warn_if_untokenised(["He went home.", "She said, etc. it is fine ."], "references", tokenize=False)
