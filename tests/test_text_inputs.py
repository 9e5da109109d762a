"""Bad parallel input through the Python API: each a clear error naming the place."""
from __future__ import annotations

import pytest

import gecscore
from gecscore.errors import GecInputError


@pytest.mark.parametrize("sources, predictions, references, where", [
    (["a b ."], ["a b .", "c"], [["a b ."]], "got 1 sources but 2 predictions"),
    (["a b .", "c ."], ["a b .", "c ."], [["a b ."]], "got 2 sources but 1 reference lists"),
    (["a b .", ""], ["a b .", "c"], [["a b ."], ["c"]], "sources[1]: empty source"),
    (["a b ."], [None], [["a b ."]], "predictions[0]: must be a string, got NoneType"),
    (["a b ."], [3], [["a b ."]], "predictions[0]: must be a string, got int"),
    (["a b ."], ["a b ."], [3], "references[0]: references must be a non-empty list"),
    (["a b ."], ["a b ."], [[]], "references[0]: references must be a non-empty list"),
    (["a b ."], ["a b ."], [["a b .", 7]], "references[0][1]: must be a string"),
    ([], [], [], "no sentences to score"),
    ("a b .", ["a b ."], [["a b ."]], "sources must be a list of strings"),
])
def test_bad_input(sources, predictions, references, where):
    with pytest.raises(GecInputError) as caught:
        gecscore.load("cleme2").compute(sources, predictions, references)
    assert where in str(caught.value)


def test_tokenize_option_handles_raw_text():
    result = gecscore.load("cleme2", tokenize=True).compute(["He go home."], ["He goes home."], [["He goes home."]])
    assert (result["hit"], result["tp"]) == (1.0, 1.0)
    assert "|tok:yes|" in str(result.signature)


def test_one_reference_string_per_example_equals_a_list_of_one():
    metric = gecscore.load("cleme2")
    as_strings = metric.compute(["He go home ."], ["He goes home ."], ["He goes home ."]).as_dict()
    as_lists = metric.compute(["He go home ."], ["He goes home ."], [["He goes home ."]]).as_dict()
    assert as_strings == as_lists


def test_untokenised_text_warns_when_tokenize_is_off():
    with pytest.warns(UserWarning, match="look untokenised"):
        gecscore.load("cleme2").compute(["He go home.", "She say, no."], ["He goes home.", "She says, no."],
                                        [["He goes home."], ["She says, no."]])


def test_byte_order_mark_and_carriage_return_are_removed():
    metric = gecscore.load("cleme2")
    clean = metric.compute(["He go home ."], ["He goes home ."], [["He goes home ."]]).as_dict()
    dirty = metric.compute(["\ufeffHe go home .\r"], ["He goes home .\r\n"], [["He goes home .\r"]]).as_dict()
    assert clean == dirty
