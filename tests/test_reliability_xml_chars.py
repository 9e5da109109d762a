"""The M2 -> I-measure XML converter refuses what XML 1.0 cannot hold (issue 24, class 3),
naming the input file and line, instead of writing a file the I-measure then rejects."""
from __future__ import annotations

import subprocess
import sys

import pytest

from gecscore.imeasure.gold import m2_to_ixml
from gecscore.io.ixml import IXmlFormatError, format_ixml, read_ixml
from gecscore.io.m2 import parse_m2

GOOD = "S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"


def convert(tmp_path, text: str) -> subprocess.CompletedProcess:
    source = tmp_path / "in.m2"
    source.write_text(GOOD + text, encoding="utf-8", errors="surrogatepass")
    return subprocess.run([sys.executable, "-m", "gecscore", "m2-to-ixml", str(source), str(tmp_path / "out.xml")],
                          capture_output=True, text=True)


@pytest.mark.parametrize("bad, line", [
    ("S A\x01b c .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n", 4),   # in the source
    ("S A b .\nA 1 2|||R:X|||x\x00y|||REQUIRED|||-NONE-|||0\n", 5),           # in a correction
    ("S A b .\nA 1 2|||R:X|||x\ufffe|||REQUIRED|||-NONE-|||0\n", 5),
    ("S A b .\nA 1 2|||R:X|||x\uffff|||REQUIRED|||-NONE-|||0\n", 5),
    ("S A b \x1b.\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n", 4),
])
def test_converter_refuses_non_xml_characters_naming_file_and_line(tmp_path, bad, line):
    done = convert(tmp_path, bad)
    assert done.returncode == 2, done.stderr
    # a NUL byte is refused by the text reader itself (not text), every other one by the converter
    assert f"in.m2:{line}:" in done.stderr and ("XML 1.0" in done.stderr or "a NUL byte" in done.stderr)
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out.xml").exists()


def test_whitespace_like_separators_are_not_written_and_pass(tmp_path):
    done = convert(tmp_path, "S A\x0cb c .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    assert done.returncode == 0, done.stderr
    assert [s.source for s in read_ixml(tmp_path / "out.xml")][1] == ("A", "b", "c", ".")


def test_writer_refuses_a_lone_surrogate_from_the_python_api():
    gold = m2_to_ixml(list(parse_m2(["S caf\udce9 is open .", "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"],
                                    "api.m2")))
    with pytest.raises(IXmlFormatError, match="U\\+DCE9.*XML 1.0"):
        format_ixml(gold)
