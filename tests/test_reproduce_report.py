"""scripts/reproduce.py: the published tables it compares with, and the report it writes."""
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


def test_published_tables_have_every_cell(reproduce):
    for table in (reproduce.TABLE1, reproduce.TABLE8):
        for config, (r, rho) in table.items():
            assert len(reproduce.floats(r)) == 12 == len(reproduce.floats(rho)), config
    for table in (reproduce.TABLE10, reproduce.PTM2_TABLE5, reproduce.TABLE2):
        for config, values in table.items():
            assert len(reproduce.floats(values)) == 4, config


def test_expectations_route_cells_to_their_runs(reproduce):
    by_key = {(e.run, e.config, e.source): e for e in reproduce.expectations()}
    # CLEME2.0-dep, CoNLL-2014 column: the ERRANT M2 setting, Table 1 (EW r/rho, TS r/rho).
    cell = by_key[("gjg15-conll14-m2", "cleme2-corpus-dep", "CLEME2.0 Table 1")]
    assert cell.values == {"gjg15-EW": (0.700, 0.665), "gjg15-TS": (0.765, 0.736)}
    # SentCLEME2.0-dep on E-Minimal: Table 8 (all references) for the plain run, Table 1 for the
    # run that excludes unchanged references.
    assert by_key[("gjg15-e-minimal", "cleme2-sentence-dep", "CLEME2.0 Table 8 (all refs)")].values[
        "gjg15-EW"] == (0.937, 0.846)
    assert by_key[("gjg15-e-minimal-excl", "cleme2-sentence-dep",
                   "CLEME2.0 Table 1 (unchanged refs excluded)")].values["gjg15-EW"] == (0.941, 0.857)
    # M2 on SEEDA (Table 2): the official gold run; SEEDA-S then SEEDA-E.
    seeda = by_key[("seeda-base-official", "m2-corpus", "CLEME2.0 Table 2 / metaeval.md")]
    assert seeda.values == {"seeda-S-TS": (0.658, 0.487), "seeda-E-TS": (0.791, 0.764)}


def test_report_compares_flags_and_keeps_the_notes_whole(reproduce, tmp_path):
    run = reproduce.Run("gjg15-conll14-official", "GJG15, official gold", [], ["m2-corpus", "m2-sentence"])
    board = {
        "n_sentences": 1312, "systems": ["A", "B", "C"], "seconds": {"wall": 3.0},
        "refset_options": {"refset": "conll14"},
        "human": {"gjg15-EW": {}, "gjg15-TS": {}},
        "correlations": {"m2-corpus": {"gjg15-EW": {"pearson": 0.625, "spearman": 0.687},
                                       "gjg15-TS": {"pearson": 0.690, "spearman": 0.720}}},
    }
    results = {run.name: {"run": run, "unavailable": {"m2-sentence": "needs something absent"},
                          "board": board, "command": "gecscore leaderboard --refset conll14", "seconds": 3.0}}
    text = reproduce.report(results, tmp_path, 3.0)
    lines = text.splitlines()
    # Published 0.623/0.687 (EW) and 0.672/0.720 (TS): EW within 0.01, TS r 0.018 over.
    assert ("| m2-corpus | gjg15-conll14-official | gjg15-EW | 0.623 | 0.625 | +0.002 | 0.687 | 0.687 | +0.000 "
            "| CLEME2.0 Table 1 |") in lines
    assert ("| m2-corpus | gjg15-conll14-official | gjg15-TS | 0.672 | 0.690 | +0.018 | 0.720 | 0.720 | +0.000 "
            "**>0.01** | CLEME2.0 Table 1 |") in lines
    assert any(line.startswith("| m2-sentence | gjg15-conll14-official |") and "needs something absent" in line
               for line in lines)
    # 2 configurations x 2 human rankings x (r, rho) of the PT-M2 paper and of Table 1: 8 cells.
    assert "Compared cells: 8; within 0.01: 6; largest difference 0.018." in text
    # The notes are paragraphs, not one character per line.
    assert "## Notes on the differences" in lines
    assert sum(len(line) <= 1 for line in lines) < len(lines) / 5
    for paragraph in reproduce.NOTES.split("\n- ")[1:]:
        assert paragraph.split("\n")[0] in text
