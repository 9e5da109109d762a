"""gecscore.benchdata: the catalogue, fetching into the data folder, verification, offline mode.

Downloads come from a local server standing in for raw.githubusercontent.com
(``tests/benchdata_server.py``, ``GECSCORE_DATA_BASE_URL``). These tests use a small synthetic
set registered in the catalogue (no evaluation data needed); ``test_benchdata_realdata.py``
checks the real catalogue against GEC_DATA.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchdata_server import FakeUpstream
from gecscore.benchdata import CATALOGUE, DataUnavailable, fetch_set, require
from gecscore.benchdata import catalogue as cat
from gecscore.benchdata import fetch as fetch_module
from gecscore.benchdata.fetch import seeda_systems_text, strip_trailing_blanks
from gecscore.benchdata.layout import MARKER_DIR, candidate_folders, data_folder, user_data_dir
from gecscore.errors import GecInputError

REPO = Path(__file__).resolve().parents[1]
TOY_REPO = cat.Repository("toy-owner/toy-data", "0123456789abcdef0123456789abcdef01234567", "MIT")
GOLD = b"one two\nthree\n"
RAW_SYSTEM = b"x y  \nz\t\n\tw \t\n"     # trailing blanks, one leading tab kept
SYSTEM = b"x y\nz\n\tw\n"
TABLE = "system\tscore\nA\t0.5\n"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


TOY = cat.DataSet(
    "toy", "Toy set", "a synthetic set for the tests", "toy", "MIT", "Nobody. A toy. 2025.", "@misc{toy}",
    (cat.copied("toy/gold.txt", TOY_REPO, "data/gold", len(GOLD), sha(GOLD)),
     cat.stripped("toy/systems/A.txt", TOY_REPO, "out/A", len(SYSTEM), sha(SYSTEM), len(RAW_SYSTEM), sha(RAW_SYSTEM)),
     cat.embedded("toy/table.tsv", TABLE, len(TABLE.encode()), sha(TABLE.encode()))))
UPSTREAM = {f"{TOY_REPO.name}/{TOY_REPO.commit}/data/gold": GOLD,
            f"{TOY_REPO.name}/{TOY_REPO.commit}/out/A": RAW_SYSTEM}
GOLD_URL, SYSTEM_URL = UPSTREAM


@pytest.fixture
def online(monkeypatch):
    """Downloads on (the suite turns them off), no retry delay, no GEC_DATA."""
    monkeypatch.delenv("GECSCORE_OFFLINE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("GEC_DATA", raising=False)
    monkeypatch.setattr(fetch_module, "RETRY_DELAY_S", 0.0)


@pytest.fixture
def toy(monkeypatch, online):
    """The toy set in the catalogue, served by a local upstream."""
    monkeypatch.setitem(CATALOGUE, "toy", TOY)
    with FakeUpstream(UPSTREAM) as server:
        monkeypatch.setenv("GECSCORE_DATA_BASE_URL", server.url)
        yield server


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_first_fetch_lays_out_derives_and_verifies(toy, tmp_path):
    report = fetch_set("toy", tmp_path, progress=False)
    assert (tmp_path / "toy/gold.txt").read_bytes() == GOLD
    assert (tmp_path / "toy/systems/A.txt").read_bytes() == SYSTEM
    assert (tmp_path / "toy/table.tsv").read_text(encoding="utf-8") == TABLE
    assert report.fetched == ["toy/gold.txt", "toy/systems/A.txt", "toy/table.tsv"] and report.present == []
    assert report.downloaded_bytes == len(GOLD) + len(RAW_SYSTEM)
    assert toy.hits == {GOLD_URL: 1, SYSTEM_URL: 1}
    # nothing but the set and the verification stamps: no temporary file left
    assert files_under(tmp_path) == [f"{MARKER_DIR}/verified.json", "toy/gold.txt", "toy/systems/A.txt",
                                     "toy/table.tsv"]


def test_a_second_run_reads_the_folder_without_a_request(toy, tmp_path):
    fetch_set("toy", tmp_path, progress=False)
    hits = toy.total_hits
    again = fetch_set("toy", tmp_path, progress=False)
    assert again.fetched == [] and len(again.present) == 3
    assert require(["toy/gold.txt"], tmp_path, fetch=False) == tmp_path
    assert toy.total_hits == hits == 2


def test_the_stamp_does_not_vouch_for_an_edited_file(toy, tmp_path):
    """Same size, mtime put back: the ctime still changed, so the file is hashed and refused."""
    fetch_set("toy", tmp_path, progress=False)
    path = tmp_path / "toy/gold.txt"
    before = path.stat()
    path.write_bytes(b"ONE" + GOLD[3:])
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(GecInputError, match=r"toy/gold.txt: differs from the catalogue's copy .*gecscore data get "
                                            r"toy --force"):
        require(["toy/gold.txt"], tmp_path)
    fetch_set("toy", tmp_path, force=True, progress=False)
    assert path.read_bytes() == GOLD and toy.hits[GOLD_URL] == 2


def test_require_fetches_on_first_use_with_a_message(toy, tmp_path, capsys):
    assert require(["toy/table.tsv"], tmp_path) == tmp_path
    err = capsys.readouterr().err
    assert "toy (Toy set, 3 files" in err and "first use; `gecscore data get toy`" in err
    assert "toy: licence: MIT" in err and "toy: please cite: Nobody. A toy. 2025." in err
    assert (tmp_path / "toy/gold.txt").read_bytes() == GOLD


@pytest.mark.parametrize("mode", ["corrupt", "short"])
def test_a_corrupted_or_silently_truncated_download_is_refused(toy, tmp_path, mode):
    toy.behaviour[GOLD_URL] = mode
    with pytest.raises(GecInputError) as error:
        fetch_set("toy", tmp_path, progress=False)
    message = str(error.value)
    assert message.startswith("toy/gold.txt: checksum mismatch for toy/gold.txt") and "nothing was written" in message
    assert ("truncated download?" in message) == (mode == "short")
    assert toy.hits[GOLD_URL] == 1   # a checksum mismatch is not retried
    assert files_under(tmp_path) == []


def test_a_changed_upstream_file_is_an_error_naming_it_and_leaves_nothing(toy, tmp_path):
    toy.files[SYSTEM_URL] = b"x y  \nchanged\n"
    with pytest.raises(GecInputError, match=r"^toy/systems/A.txt: checksum mismatch for toy/systems/A.txt as derived "
                                            r"\(strip-trailing-blanks\); the upstream file is 14 bytes"):
        fetch_set("toy", tmp_path, progress=False)
    assert sorted(p.name for p in (tmp_path / "toy").rglob("*") if p.is_file()) == ["gold.txt"]
    assert not list(tmp_path.rglob("*.part")) and not list(tmp_path.rglob("*.derived"))


def test_an_interrupted_download_is_retried(toy, tmp_path):
    toy.behaviour[GOLD_URL] = "truncate-once"
    fetch_set("toy", tmp_path, progress=False)
    assert (tmp_path / "toy/gold.txt").read_bytes() == GOLD and toy.hits[GOLD_URL] == 2


def test_a_run_interrupted_for_good_keeps_nothing_partial_and_a_rerun_completes(toy, tmp_path):
    toy.behaviour[SYSTEM_URL] = "truncate"
    with pytest.raises(GecInputError, match=r"interrupted 3 times .*nothing was kept; `gecscore data get toy` retries"):
        fetch_set("toy", tmp_path, progress=False)
    assert toy.hits[SYSTEM_URL] == fetch_module.ATTEMPTS
    assert files_under(tmp_path / "toy") == ["gold.txt"]   # complete and verified, kept
    del toy.behaviour[SYSTEM_URL]
    report = fetch_set("toy", tmp_path, progress=False)
    assert report.present == ["toy/gold.txt"] and report.fetched == ["toy/systems/A.txt", "toy/table.tsv"]
    assert toy.hits[GOLD_URL] == 1 and (tmp_path / "toy/systems/A.txt").read_bytes() == SYSTEM


@pytest.mark.parametrize("variable", ["GECSCORE_OFFLINE", "HF_HUB_OFFLINE"])
def test_offline_one_line_names_the_command(toy, tmp_path, monkeypatch, variable):
    monkeypatch.setenv(variable, "1")
    with pytest.raises(DataUnavailable) as error:
        require(["toy/gold.txt"], tmp_path)
    assert str(error.value) == (f"{tmp_path}/toy/gold.txt: not in the data folder and downloads are off ({variable}): "
                                "`gecscore data get toy` fetches it (or set GEC_DATA to a folder holding it)")
    assert toy.total_hits == 0 and not (tmp_path / "toy").exists()


def test_no_network_names_the_command(monkeypatch, online, tmp_path):
    import socket

    monkeypatch.setitem(CATALOGUE, "toy", TOY)
    with socket.socket() as sock:   # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("GECSCORE_DATA_BASE_URL", f"http://127.0.0.1:{port}")
    with pytest.raises(DataUnavailable, match=r"^toy: cannot reach 127.0.0.1:\d+ \(connection refused\) fetching "
                                              r"http://127.0.0.1:\d+/toy-owner/\S+/data/gold: no network\? "
                                              r"`gecscore data get toy` fetches it when online; check "
                                              r"\$GECSCORE_DATA_BASE_URL \(the mirror in use\)$"):
        fetch_set("toy", tmp_path, progress=False)
    assert files_under(tmp_path / "toy") == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_data_folder_is_a_clear_error(toy, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(GecInputError, match=r"cannot write into the data folder \(Permission denied\): set "
                                                r"GEC_DATA \(or --data-dir\) to a writable folder"):
            fetch_set("toy", folder, progress=False)
    finally:
        folder.chmod(0o755)
    assert toy.total_hits == 0


def test_an_unwritable_data_folder_is_a_clear_error(toy, tmp_path):
    """A data folder that cannot be created (its parent is a file): the same error, as root too."""
    (tmp_path / "file").write_text("x")
    with pytest.raises(GecInputError, match=r"cannot write into the data folder \(Not a directory\)"):
        fetch_set("toy", tmp_path / "file" / "data", progress=False)
    assert toy.total_hits == 0


def test_a_differing_file_is_never_overwritten_without_force(toy, tmp_path):
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy/gold.txt").write_bytes(b"mine\n")
    with pytest.raises(GecInputError, match=r"toy/gold.txt: differs from the catalogue's copy \(5 bytes"):
        fetch_set("toy", tmp_path, progress=False)
    assert (tmp_path / "toy/gold.txt").read_bytes() == b"mine\n" and toy.total_hits == 0


def test_strip_trailing_blanks_and_seeda_systems():
    assert strip_trailing_blanks(RAW_SYSTEM) == SYSTEM
    assert strip_trailing_blanks(b"a \r\nb") == b"a \r\nb"   # only spaces and tabs before \n go
    names = seeda_systems_text().decode().splitlines()
    assert len(names) == 15 and names == sorted(names)
    # SEEDA's utils/corr_system.py drops indices 4, 5, 8 for its base set: GPT-3.5, INPUT, REF-F
    assert [names[i] for i in (4, 5, 8)] == ["GPT-3.5", "INPUT", "REF-F"]


def test_the_files_gecscore_makes_match_their_pinned_checksums():
    """The embedded GJG15 table and the SEEDA system list verify without any data."""
    for dataset in CATALOGUE.values():
        for file in dataset.files:
            if file.derivation == cat.EMBEDDED:
                data = file.content.encode("utf-8")
            elif file.derivation == cat.SEEDA_SYSTEMS:
                data = seeda_systems_text()
            else:
                continue
            assert (len(data), sha(data)) == (file.size, file.sha256), file.path


def test_every_named_path_the_code_reads_is_catalogued():
    from gecscore.robustness.attacks import CONLL14_SOURCE, PUBLISHED
    from gecscore.metaeval.human import GJG15_SCORES, SEEDA_HUMAN
    from gecscore.benchdata.refsets import REFSETS

    paths = {f.path for d in CATALOGUE.values() for f in d.files}
    named = {CONLL14_SOURCE, GJG15_SCORES, *(f"attacks/{f}" for f in PUBLISHED.values()),
             *(f"{SEEDA_HUMAN}/{m}_{g}.txt" for m in ("EW", "TS") for g in ("sent", "edit")),
             f"{SEEDA_HUMAN}/SYSTEMS.txt", "seeda/judgments_sent.xml", "seeda/judgments_edit.xml",
             "seeda/outputs/subset/INPUT.txt", "jfleg/test.src", "jfleg/dev.ref3",
             *(i.path for i in REFSETS.values()), *(i.ixml for i in REFSETS.values())}
    assert named - paths == set()
    assert len(paths) == sum(len(d.files) for d in CATALOGUE.values())   # no path in two sets


def test_every_catalogued_file_has_a_pinned_source_or_is_made_locally():
    for dataset in CATALOGUE.values():
        assert dataset.licence and dataset.citation and dataset.bibtex.startswith("@")
        for file in dataset.files:
            assert len(file.sha256) == 64 and file.size > 0
            if file.repository is not None:
                assert len(file.repository.commit) == 40 and file.source_path
                assert file.url_path == f"{file.repository.name}/{file.repository.commit}/{file.source_path}"


def test_the_data_folder_is_gec_data_else_the_per_user_folder_never_the_working_directory(monkeypatch, tmp_path):
    monkeypatch.delenv("GEC_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert user_data_dir() == data_folder() == tmp_path / "xdg" / "gecscore"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_folder() == tmp_path / "home" / ".local" / "share" / "gecscore"
    monkeypatch.setenv("GEC_DATA", str(tmp_path / "mine"))
    assert data_folder() == tmp_path / "mine" and candidate_folders() == (tmp_path / "mine",)
    assert data_folder(tmp_path / "explicit") == tmp_path / "explicit"


def run_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    environment = {**os.environ, **env, "PYTHONPATH": str(REPO / "shared")}
    return subprocess.run([sys.executable, "-m", "gecscore", *args], capture_output=True, text=True,
                          env=environment, cwd=REPO, timeout=300)


def test_the_command_line_offline_names_the_missing_file_and_the_command(tmp_path):
    """Without the data and offline, --refset conll14 says which file is missing and how to get it."""
    systems = tmp_path / "systems"
    systems.mkdir()
    (systems / "A.txt").write_text("x\n")
    done = run_cli("leaderboard", "--refset", "conll14", "--systems", str(systems), "--metrics", "m2-corpus",
                   env={"GEC_DATA": str(tmp_path / "empty"), "GECSCORE_OFFLINE": "1"})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"gecscore leaderboard: error: {tmp_path}/empty/conll14/official-2014.combined.m2: not in the data folder "
        "and downloads are off (GECSCORE_OFFLINE): `gecscore data get conll14` fetches it (or set GEC_DATA to a "
        "folder holding it)"]
    done = run_cli("leaderboard", "--refset", "conll14", "--systems", str(systems), "--human", "gjg15",
                   "--metrics", "m2-corpus", "--data-dir", str(tmp_path / "other"), env={"GECSCORE_OFFLINE": "1"})
    assert "other/conll14/official-2014.combined.m2: not in the data folder" in done.stderr


def test_data_get_list_and_path_from_the_command_line(tmp_path):
    """``gecscore data get/list/path`` with the embedded-only set: gjg15's table needs no download,
    its judgments do (from the local upstream)."""
    judgments = b"<judgments/>\n"
    gjg15 = CATALOGUE["gjg15"]
    xml = next(f for f in gjg15.files if f.path == "gjg15/judgments.xml")
    # serve a wrong judgments file: the command fails naming it, the embedded table is still written
    with FakeUpstream({xml.url_path: judgments}) as server:
        env = {"GEC_DATA": str(tmp_path / "data"), "GECSCORE_DATA_BASE_URL": server.url, "GECSCORE_OFFLINE": "",
               "HF_HUB_OFFLINE": ""}
        done = run_cli("data", "get", "gjg15", env=env)
        assert done.returncode == 2 and server.hits[xml.url_path] == 1
        assert done.stderr.strip().startswith("gecscore data: error: gjg15/judgments.xml: checksum mismatch")
        listing = run_cli("data", "list", env=env)
        assert "gjg15              2 files   0.8 MB  partial" in listing.stdout
        path = run_cli("data", "path", env=env)
        assert path.stdout == f"{tmp_path / 'data'}\n"
        offline = run_cli("data", "path", "gjg15", env={**env, "GECSCORE_OFFLINE": "1"})
        assert offline.returncode == 2 and "`gecscore data get gjg15` fetches it" in offline.stderr
    assert (tmp_path / "data/gjg15/human_scores.tsv").read_text().startswith("system\tEW\tTS\nAMU\t0.628\t0.273\n")
    assert not (tmp_path / "data/gjg15/judgments.xml").exists()
