"""The untokenised-text warning (issue 39): an abbreviation's own period is how tokenised text
writes it (CoNLL-2014 keeps "etc.", "U.S.", "C."), so it never makes tokenised text look
untokenised; punctuation glued to a word still does."""
from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_the_share_counts_abbreviations_only_when_it_depends_on_them():
    """A line whose only glue is a word's period counts unless the word is one of spaCy's
    abbreviations; the answer is the same whether or not the list had to be read."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    words = st.sampled_from(["home.", "Mr.", "Dr.", "etc.", "U.S.", "said,", "word", "don't", "(a", "."])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.lists(words, min_size=1, max_size=4).map(" ".join), min_size=1, max_size=12))
    def check(lines):
        expected = sum(1 for line in lines if any(is_glued(t) for t in line.split())) / len(lines) >= 0.2
        assert looks_untokenised(lines) == expected

    check()


def test_checking_tokenised_text_does_not_import_spacy():
    import subprocess
    import sys

    code = ("import sys; from gecscore.inputs import looks_untokenised; "
            "assert not looks_untokenised(['He said : `` go home . ``', 'Mr. Smith left .'] + ['a b c'] * 8); "
            "print('spacy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.text(alphabet="aZ9_.,!?;:)](\"'nts ", min_size=1, max_size=8) | st.sampled_from(
    ["don't", "it's", "(the", "home.", "U.S.", "etc.", "\"hi", "said,", "x]"]), max_size=6),
       st.lists(st.sampled_from([" ", "  ", "\t", "\u00a0", "\u2003", "\x1c"]), min_size=7, max_size=7))
def test_a_line_the_quick_search_passes_has_no_glued_token(tokens, spaces):
    """The one search per line (inputs._MAY_BE_GLUED) finds every line a token of which
    _GLUED finds: a line it passes over has no glued token (so the count is unchanged)."""
    from gecscore.inputs import _GLUED, _MAY_BE_GLUED

    line = "".join(t + s for t, s in zip(tokens, spaces))
    if any(_GLUED.search(token) for token in line.split()):
        assert _MAY_BE_GLUED.search(line)
