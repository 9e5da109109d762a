"""The M2 reader: annotators, noops, deletions, alternatives and malformed input."""
from __future__ import annotations

import pytest

from gecscore.errors import M2FormatError
from gecscore.io.m2 import format_m2, parse_m2, read_m2

M2_TEXT = """\
S The cat sat on mat .
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0
A 1 2|||R:NOUN|||dog||hound|||REQUIRED|||-NONE-|||0
A 3 4|||U:PREP|||-NONE-|||REQUIRED|||-NONE-|||1
A 5 6|||U:PUNCT||||||REQUIRED|||-NONE-|||1

S Nothing wrong here .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S No annotation at all .
"""


def test_annotators_edits_and_targets():
    first, second, third = parse_m2(M2_TEXT.splitlines(True), "x.m2")
    assert first.source == ("The", "cat", "sat", "on", "mat", ".")
    assert list(first.annotations) == [0, 1]
    dog, the = sorted(first.annotations[0], key=lambda e: e.start)
    assert (dog.start, dog.end, dog.correction, dog.alternatives) == (1, 2, ("dog",), (("dog",), ("hound",)))
    assert (the.start, the.end, the.correction, the.type) == (4, 4, ("the",), "M:DET")
    # -NONE- and an empty correction are both deletions
    assert [e.correction for e in first.annotations[1]] == [(), ()]
    ann0, ann1 = first.targets()
    assert ann0.tokens == ("The", "dog", "sat", "on", "the", "mat", ".")
    # placed target spans: dog at 1..2, the inserted at 4..5
    assert [(e.tgt_start, e.tgt_end) for e in ann0.edits] == [(1, 2), (4, 5)]
    assert ann1.tokens == ("The", "cat", "sat", "mat")
    assert first.line == 1


def test_noop_annotators_count_as_unchanged_references():
    _, second, third = parse_m2(M2_TEXT.splitlines(True))
    assert second.annotations == {0: (), 1: ()}
    assert [t.tokens for t in second.targets()] == [second.source, second.source]
    assert [t.is_unchanged for t in second.targets()] == [True, True]
    # a block without A lines gives the source as its one reference
    assert [t.tokens for t in third.targets()] == [third.source]


def test_round_trip_through_format_m2():
    sentences = list(parse_m2(M2_TEXT.splitlines(True)))
    text = "\n".join(format_m2(s.source, s.targets()) for s in sentences)
    again = list(parse_m2(text.splitlines(True)))
    assert [[t.tokens for t in s.targets()] for s in again] == [[t.tokens for t in s.targets()] for s in sentences]


def test_missing_final_blank_line_and_crlf():
    text = "S a b\r\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||0\r\nS d e\r\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
    first, second = parse_m2(text.splitlines(True))
    assert first.targets()[0].tokens == ("c", "b")
    assert second.source == ("d", "e")


@pytest.mark.parametrize("text, line, message", [
    ("S a b\nA 0 x|||R|||c|||REQUIRED|||-NONE-|||0\n", 2, "integers"),
    ("S a b\nA 0 3|||R|||c|||REQUIRED|||-NONE-|||0\n", 2, "outside"),
    ("S a b\nA 1 0|||R|||c|||REQUIRED|||-NONE-|||0\n", 2, "outside"),
    ("S a b\nA 0 1|||R\n", 2, "A line needs"),
    ("A 0 1|||R|||c|||REQUIRED|||-NONE-|||0\n", 1, "before any S"),
    ("S a b\n\nS c\nX something\n", 4, "expected a line"),
    ("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||zero\n", 2, "annotator"),
    ("S \n", 1, "empty source"),
])
def test_malformed_lines_name_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.m2"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(M2FormatError) as caught:
        read_m2(path)
    assert f"{path}:{line}:" in str(caught.value)
    assert message in str(caught.value)


def test_lenient_reading_applies_spans_past_the_end_at_the_end(tmp_path):
    # SN-8GEC has insertions such as "A 120 120" on a 114-token sentence.
    path = tmp_path / "sn.m2"
    path.write_text("S a b\nA 3 3|||M|||c d|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    with pytest.raises(M2FormatError, match=r"sn.m2:2: edit span \[3, 3\) is outside"):
        read_m2(path)
    with pytest.warns(UserWarning, match=r"sn.m2:2: edit span \[3, 3\) is past the end"):
        (sentence,) = read_m2(path, strict=False)
    assert sentence.targets()[0].tokens == ("a", "b", "c", "d")
