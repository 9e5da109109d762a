"""The real catalogue against the evaluation data under GEC_DATA (skipped without it).

A local server (``tests/benchdata_server.py``) serves GEC_DATA's files at the catalogue's URL
paths, standing in for raw.githubusercontent.com. Files the catalogue derives by stripping
trailing blanks are served as the stripped copies (stripping again changes nothing), so the
derivation runs and the derived checksum is what is checked.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchdata_server import FakeUpstream
from datapaths import GEC_DATA
from gecscore.benchdata import CATALOGUE, fetch_set
from gecscore.benchdata import fetch as fetch_module
from gecscore.benchdata.layout import Verifier

REPO = Path(__file__).resolve().parents[1]
# the sets GEC_DATA holds whole: a data folder laid out before a set joined the catalogue lacks it
PRESENT = {name: d for name, d in CATALOGUE.items() if all((GEC_DATA / f.path).is_file() for f in d.files)}
# the sets the real-data tests need at the least (the ones the rest of the suite reads)
REQUIRED = ("conll14", "conll14-systems", "gjg15")
HAVE_DATA = all(name in PRESENT for name in REQUIRED)
pytestmark = [pytest.mark.realdata,
              pytest.mark.skipif(not HAVE_DATA, reason=f"evaluation data not found at {GEC_DATA} (set GEC_DATA)")]


def mirror_of_gec_data() -> dict[str, bytes]:
    return {f.url_path: (GEC_DATA / f.path).read_bytes()
            for d in PRESENT.values() for f in d.files if f.url_path is not None}


@pytest.fixture
def upstream(monkeypatch):
    monkeypatch.delenv("GECSCORE_OFFLINE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(fetch_module, "RETRY_DELAY_S", 0.0)
    with FakeUpstream(mirror_of_gec_data()) as server:
        monkeypatch.setenv("GECSCORE_DATA_BASE_URL", server.url)
        yield server


def test_every_checksum_of_the_catalogue_verifies_against_gec_data():
    verifier = Verifier(GEC_DATA)
    bad = [(s.file.path, s.describe()) for d in PRESENT.values() for s in verifier.check_set(d) if not s.ok]
    assert bad == []
    # a set GEC_DATA holds only in part is a broken data folder, not a newer catalogue
    partial = [name for name, d in CATALOGUE.items() if name not in PRESENT
               and any((GEC_DATA / f.path).exists() for f in d.files)]
    assert partial == []


def test_fetching_every_set_from_an_empty_folder_rebuilds_gec_data(upstream, tmp_path):
    for name in PRESENT:
        report = fetch_set(name, tmp_path, progress=False)
        assert len(report.fetched) == len(CATALOGUE[name].files), name
    for dataset in PRESENT.values():
        for file in dataset.files:
            assert (tmp_path / file.path).read_bytes() == (GEC_DATA / file.path).read_bytes(), file.path
    hits = upstream.total_hits
    assert hits == len(mirror_of_gec_data())        # one request per upstream file
    for name in PRESENT:                            # all present and verified: no request
        assert fetch_set(name, tmp_path, progress=False).fetched == []
    assert upstream.total_hits == hits


@pytest.mark.slow
def test_a_leaderboard_from_an_empty_folder_equals_the_one_on_gec_data(upstream, tmp_path):
    """No manual step: the systems' folder comes from ``gecscore data path``, the gold and the
    human ranking are fetched on first use; scores.csv is byte-identical to the GEC_DATA run's."""
    command = ('gecscore leaderboard --refset conll14 --systems "$(gecscore data path conll14-systems)" '
               '--human gjg15 --metrics m2-corpus gleu --no-cache --no-plots --quiet --out "$OUT"')
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "gecscore").write_text(f"#!/bin/sh\nexec {sys.executable} -m gecscore \"$@\"\n")
    (shim / "gecscore").chmod(0o755)
    base = {**os.environ, "PYTHONPATH": str(REPO / "shared"), "PATH": f"{shim}:{os.environ['PATH']}"}
    fresh = subprocess.run(["bash", "-c", command], env={**base, "GEC_DATA": str(tmp_path / "data"),
                                                         "OUT": str(tmp_path / "fresh")},
                           capture_output=True, text=True, timeout=600)
    assert fresh.returncode == 0, fresh.stderr[-2000:]
    assert "conll14 (CoNLL-2014 test gold, 7 files" in fresh.stderr and "gjg15: please cite" in fresh.stderr
    reference = subprocess.run(["bash", "-c", command], env={**base, "GEC_DATA": str(GEC_DATA),
                                                             "OUT": str(tmp_path / "reference")},
                               capture_output=True, text=True, timeout=600)
    assert reference.returncode == 0, reference.stderr[-2000:]
    assert "fetching" not in reference.stderr
    assert (tmp_path / "fresh/scores.csv").read_bytes() == (tmp_path / "reference/scores.csv").read_bytes()
    assert (tmp_path / "fresh/correlations.csv").read_bytes() == (tmp_path / "reference/correlations.csv").read_bytes()
