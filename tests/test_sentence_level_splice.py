"""scripts/reproduce.py --section sentence-level: the SEEDA sentence-level section and the notes
are replaced in an existing report, every other line is kept."""
from __future__ import annotations

import importlib.util
import sys

import pytest

from datapaths import REPO


@pytest.fixture(scope="module")
def reproduce():
    spec = importlib.util.spec_from_file_location("reproduce", REPO / "scripts" / "reproduce.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["reproduce"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("reproduce", None)


def test_splice_replaces_the_section_and_the_notes_only(reproduce, tmp_path):
    old = ["### Sentence level (old): 12 systems", "", "| M2 | 0.1 |", ""]
    new = ["### Sentence level (new): 12 systems", "", "| M2 | 0.512 |", "| GLEU | 0.673 |", ""]
    report = reproduce.report({}, tmp_path, 1.0, sentence_level=old)
    out = tmp_path / "reproduction.md"
    out.write_text(report.replace(reproduce.NOTES.splitlines()[-1], "stale last note line"), encoding="utf-8")
    reproduce.splice_sentence_level(out, new)
    # what a full run with the new section writes, line for line
    assert out.read_text(encoding="utf-8") == reproduce.report({}, tmp_path, 1.0, sentence_level=new)


def test_splice_refuses_a_report_without_the_section(reproduce, tmp_path):
    out = tmp_path / "reproduction.md"
    out.write_text(reproduce.report({}, tmp_path, 1.0), encoding="utf-8")
    with pytest.raises(SystemExit, match="no sentence-level section"):
        reproduce.splice_sentence_level(out, ["### Sentence level (new)", ""])
