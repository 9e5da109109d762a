"""I-measure XML gold: reader, writer, M2 -> XML converter and its clustering rules."""
from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import pytest

from gecscore.errors import GecInputError
from gecscore.imeasure.gold import cluster_edits, m2_to_ixml, py2_set_order
from gecscore.io.ixml import format_ixml, read_ixml, write_ixml
from gecscore.io.m2 import parse_m2, read_m2
from gecscore.types import Edit

DATA = Path(os.environ.get("GEC_DATA", Path(__file__).resolve().parents[1] / ".." / "shared" / "data"))

LISTING1_M2 = """S This machines is designed for help people .
A 0 1|||SVA|||These|||REQUIRED|||-NONE-|||0
A 2 3|||SVA|||are|||REQUIRED|||-NONE-|||0
A 5 6|||Vform|||helping|||REQUIRED|||-NONE-|||0
A 1 2|||SVA|||machine|||REQUIRED|||-NONE-|||1
A 4 5|||Vform|||to|||REQUIRED|||-NONE-|||1

S Nothing to fix here .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

"""


def listing1_gold():
    return m2_to_ixml(list(parse_m2(LISTING1_M2.splitlines(), "listing1.m2")))


def test_converter_listing1_by_hand():
    gold = listing1_gold()
    sentence = gold[0]
    assert sentence.numann == 2
    # 'These'(0,1) and 'machine'(1,2) do not overlap: with 'are'(2,3) and 'to'(4,5),
    # 'helping'(5,6) each edit is its own error (the paper's Listing 1 groups them by hand)
    spans = [[(e.start, e.end) for alt in err.alternatives for e in alt.edits] for err in sentence.errors]
    assert spans == [[(0, 1)], [(1, 2)], [(2, 3)], [(4, 5)], [(5, 6)]]
    assert [err.required for err in sentence.errors] == [False] * 5
    # noop annotator counts in numann but adds no error
    assert gold[1].numann == 1 and gold[1].errors == ()


def test_clustering_rules():
    e = lambda s, t, ann=0: Edit(s, t, ("x",), "T", annotator=ann)
    # an insertion at the start of a span is not inside it; strictly inside, it is
    assert [[(m.start, m.end) for m in c] for c in cluster_edits([e(2, 2), e(2, 4)])] == [[(2, 2)], [(2, 4)]]
    assert [[(m.start, m.end) for m in c] for c in cluster_edits([e(3, 3), e(2, 4)])] == [[(2, 4), (3, 3)]]
    # same span (insertions too) overlap; longest first joins the first cluster it overlaps
    assert len(cluster_edits([e(1, 1), e(1, 1, 1)])) == 1
    assert [[(m.start, m.end) for m in c] for c in cluster_edits([e(0, 1), e(1, 2), e(0, 2, 1)])] == \
        [[(0, 2), (0, 1), (1, 2)]]


def test_req_and_types():
    m2 = """S a b c d
A 0 1|||X|||z|||REQUIRED|||-NONE-|||0
A 0 2|||Y|||-NONE-|||REQUIRED|||-NONE-|||1
A 3 4|||Z|||w|||REQUIRED|||-NONE-|||1
"""
    (sentence,) = m2_to_ixml(list(parse_m2(m2.splitlines())))
    first, second = sentence.errors
    assert first.required and not second.required
    assert first.type == "/".join(py2_set_order(["X", "Y"]))
    text = format_ixml([sentence])
    assert '<alt ann="1"><c end="2" start="0" /></alt>' in text  # deletion: empty c


def test_py2_set_order_matches_reference_files():
    # orders taken from the reference converter's output (NUCLE.m2.ieval.xml sentences 10, 13)
    assert py2_set_order(["Mec", "Prep", "Rloc-"]) == ["Rloc-", "Prep", "Mec"]
    assert py2_set_order(["Vform", "WOadv"]) == ["WOadv", "Vform"]
    assert py2_set_order(["a", "a"]) == ["a"]


def test_round_trip(tmp_path):
    gold = listing1_gold()
    path = tmp_path / "gold.xml"
    write_ixml(gold, path)
    again = read_ixml(path)
    assert format_ixml(again) == path.read_text(encoding="utf-8")
    assert [s.source for s in again] == [s.source for s in gold]
    assert [len(s.errors) for s in again] == [5, 0]


def test_malformed_xml_names_the_place(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text("<scripts><script id='1'><sentence id='1'><text>a b</text>", encoding="utf-8")
    with pytest.raises(GecInputError, match="bad.xml:1"):
        read_ixml(path)
    path.write_text('<scripts><script id="1"><sentence id="7" numann="1"><text>a b</text><error-list>'
                    '<error id="1" req="maybe" type="T"><alt ann="0"><c start="0" end="1">x</c></alt>'
                    '</error></error-list></sentence></script></scripts>', encoding="utf-8")
    with pytest.raises(GecInputError, match="sentence 7 error 1"):
        read_ixml(path)


def _norm(text):
    """Ignore token spacing and quote style inside corrections (the XML files were made from
    a differently tokenised copy of the M2 files)."""
    return re.sub(r">([^<]*)</c>", lambda m: ">" + m.group(1).replace("``", '"').replace("''", '"')
                  .replace(" ", "") + "</c>", text)


@pytest.mark.parametrize("m2_name,xml_name,exact_differences", [
    ("official-2014.combined.m2", "refsets/NUCLE.m2.ieval.xml", 9),
    ("refsets/BN.m2", "refsets/BN.m2.ieval.xml", 36),
])
def test_converter_reproduces_reference_files(m2_name, xml_name, exact_differences):
    m2, xml = DATA / "conll14" / m2_name, DATA / "conll14" / xml_name
    if not m2.exists() or not xml.exists():
        pytest.skip(f"no CoNLL-2014 data under {DATA} (set GEC_DATA)")
    mine = m2_to_ixml(read_m2(m2))
    reference = read_ixml(xml)
    assert len(mine) == len(reference) == 1312
    differing = [a.id for a, b in zip(mine, reference) if format_ixml([a]) != format_ixml([b])]
    assert len(differing) == exact_differences
    assert all(_norm(format_ixml([a])) == _norm(format_ixml([b])) for a, b in zip(mine, reference))
    if m2_name.startswith("official"):
        # whole file: byte-identical apart from those sentences' correction tokens
        assert _norm(format_ixml(mine)) == _norm(xml.read_text(encoding="utf-8"))


def test_reader_accepts_spans_beyond_the_sentence_with_a_warning():
    xml = DATA / "conll14" / "refsets" / "EXPMIN.m2.ieval.xml"
    if not xml.exists():
        pytest.skip(f"no CoNLL-2014 data under {DATA} (set GEC_DATA)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gold = read_ixml(xml)
    assert len(gold) == 1312
    assert any("beyond their sentence" in str(w.message) for w in caught)


@pytest.mark.parametrize("name,exact_differences,clamped", [
    ("EXPFLUENCY", 9, {"335"}), ("EXPMIN", 6, {"335"}), ("TURKFLUENCY", 19, {"335"}),
    ("TURKMIN", 10, {"335", "1057"}),
])
def test_lenient_converter_on_sn8gec_files(name, exact_differences, clamped):
    """SN-8GEC M2 files with edit spans past the sentence end: strict reading fails; lenient
    reading converts them, and the only differences from the reference XML are the
    correction tokens' spacing and quotes, and spans moved to the sentence end."""
    m2, xml = DATA / "conll14" / "refsets" / f"{name}.m2", DATA / "conll14" / "refsets" / f"{name}.m2.ieval.xml"
    if not m2.exists() or not xml.exists():
        pytest.skip(f"no CoNLL-2014 data under {DATA} (set GEC_DATA)")
    with pytest.raises(GecInputError, match="outside the"):
        read_m2(m2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mine = m2_to_ixml(read_m2(m2, strict=False))
        reference = read_ixml(xml)
    assert any("past the end" in str(w.message) for w in caught)
    assert len(mine) == len(reference) == 1312
    differing = [a.id for a, b in zip(mine, reference) if format_ixml([a]) != format_ixml([b])]
    assert len(differing) == exact_differences

    def clamp(sentence):
        n = len(sentence.source)
        return re.sub(r'end="(\d+)" start="(\d+)"', lambda m: f'end="{min(int(m.group(1)), n)}" '
                      f'start="{min(int(m.group(2)), n)}"', _norm(format_ixml([sentence])))

    assert {a.id for a, b in zip(mine, reference) if _norm(format_ixml([a])) != _norm(format_ixml([b]))} == clamped
    assert all(clamp(a) == clamp(b) for a, b in zip(mine, reference))
