"""Bad parallel input through the Python API: each a clear error naming the place."""
from __future__ import annotations

import pytest

from gecscore.api import cleme2_from_text
from gecscore.errors import GecInputError


@pytest.mark.parametrize("sources, predictions, references, where", [
    (["a b ."], ["a b .", "c"], [["a b ."]], "got 1 sources but 2 predictions"),
    (["a b .", "c ."], ["a b .", "c ."], [["a b ."]], "got 2 sources but 1 reference lists"),
    (["a b .", ""], ["a b .", "c"], [["a b ."], ["c"]], "sources[1]: empty source"),
    (["a b ."], [None], [["a b ."]], "predictions[0]: prediction must be a string, got NoneType"),
    (["a b ."], [3], [["a b ."]], "predictions[0]: prediction must be a string, got int"),
    (["a b ."], ["a b ."], ["a b ."], "references[0]: references must be a non-empty list"),
    (["a b ."], ["a b ."], [[]], "references[0]: references must be a non-empty list"),
    (["a b ."], ["a b ."], [["a b .", 7]], "references[0][1]: reference must be a string"),
])
def test_bad_input(sources, predictions, references, where):
    with pytest.raises(GecInputError) as caught:
        cleme2_from_text(sources, predictions, references)
    assert where in str(caught.value)


def test_tokenize_option_handles_raw_text():
    result = cleme2_from_text(["He go home."], ["He goes home."], [["He goes home."]], tokenize=True)
    assert (result["hit"], result["tp"]) == (1.0, 1.0)
