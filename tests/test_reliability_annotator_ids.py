"""Gold with gaps in annotator ids (issue 24, class 2): ``|||7`` without annotators 1-6 keeps
exactly the annotators it has through the M2 reader, the M2 -> XML converter and the XML
reader, and every metric gives the numbers of ids 0,1."""
from __future__ import annotations

import pytest

import gecscore
from gecscore.cli import main
from gecscore.io.ixml import read_ixml
from gecscore.io.m2 import parse_m2, read_m2
from gecscore.types import GoldCorpus

HYPOTHESES = ["He goes to school yesterday .", "This is fine !", "The one here .", "No change ."]
METRICS = [("cleme", {}), ("cleme2", {}), ("pt_m2", {"scorer": "none"}), ("imeasure", {}), ("gleu", {})]


def gold_m2(second: int) -> str:
    """Annotators 0 and ``second``: both with edits, one a noop each way, none at all."""
    return f"""S He go to school yesterday .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||{second}

S This is fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A 3 3|||M:PUNCT|||!|||REQUIRED|||-NONE-|||{second}

S Another one here .
A 0 1|||R:DET|||The|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{second}

S No change .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{second}
"""


def converted(tmp_path, second: int) -> list:
    """The gold through ``gecscore m2-to-ixml`` and the XML reader."""
    m2 = tmp_path / f"gold{second}.m2"
    m2.write_text(gold_m2(second), encoding="utf-8")
    xml = tmp_path / f"gold{second}.xml"
    assert main(["m2-to-ixml", str(m2), str(xml), "--quiet"]) == 0
    return read_ixml(xml)


def test_m2_reader_keeps_exactly_the_annotators_it_has():
    for sentence in parse_m2(gold_m2(7).splitlines(), "gap.m2"):
        assert list(sentence.annotations) == [0, 7]
        assert sentence.numann == 2


def test_converter_and_xml_reader_agree_with_numann(tmp_path):
    for sentence in converted(tmp_path, 7):
        assert sentence.numann == 2
        assert len(sentence.annotations) == sentence.numann, sentence.annotations
        assert not {alt.annotator for error in sentence.errors for alt in error.alternatives} - {0, 7}
    xml = (tmp_path / "gold7.xml").read_text(encoding="utf-8")
    assert 'ann="7"' in xml and 'ann="1"' not in xml


def test_xml_reader_adds_no_empty_annotator_for_a_gap(tmp_path):
    first = converted(tmp_path, 7)[0]
    assert sorted(first.annotations) == [0, 7]
    assert all(first.annotations.values())     # both annotators made their edit: none is empty


def _scores(gold: list, origin: str) -> dict[str, dict]:
    out = {}
    for name, options in METRICS:
        metric = gecscore.load(name, **options)
        result = metric.score(metric.prepare(GoldCorpus(tuple(gold), origin)), HYPOTHESES)
        out[name] = {k: v for k, v in result.values.items() if isinstance(v, (int, float))}
    return out


def test_every_metric_gives_the_same_numbers_for_ids_0_7_as_for_0_1(tmp_path):
    plain = list(parse_m2(gold_m2(1).splitlines(), "plain.m2"))
    gap = list(parse_m2(gold_m2(7).splitlines(), "gap.m2"))
    assert _scores(gap, "m2") == _scores(plain, "m2")
    assert _scores(converted(tmp_path, 7), "xml") == _scores(converted(tmp_path, 1), "xml")
    imeasure_m2 = _scores(plain, "m2")["imeasure"]
    assert _scores(converted(tmp_path, 7), "xml")["imeasure"] == pytest.approx(imeasure_m2)
