"""GMEG-Data and CWEB: the catalogue's entries, the readers of segment- and corpus-level human
scores (gecscore.metaeval.human_segments), the ``gmeg-*`` human rankings, and (with GEC_DATA
holding gmeg) soft pairwise accuracy and item-grouped correlations on the real ratings, pinned
from mt-metrics-eval (commit 68a481aea1a787392d55af8f76ac8ef40c5f4664) run on the same scores.

Downloads come from a local server standing in for raw.githubusercontent.com
(``tests/benchdata_server.py``); the synthetic GMEG set below has the real set's paths.
"""
from __future__ import annotations

import hashlib
import math
from pathlib import Path

import pytest

from benchdata_server import FakeUpstream
from datapaths import GEC_DATA
from gecscore.benchdata import CATALOGUE, DataUnavailable
from gecscore.benchdata import catalogue as cat
from gecscore.benchdata import fetch as fetch_module
from gecscore.benchdata.layout import Verifier
from gecscore.errors import GecInputError
from gecscore.metaeval.human import load_human
from gecscore.metaeval.human_segments import (GMEG_DOMAINS, GMEG_SPLITS, GMEG_SYSTEMS, gmeg_corpus_scores,
                                              gmeg_folder, gmeg_segment_scores, gmeg_spec, read_corpus_scores,
                                              read_segment_scores)

GMEG_COMMIT = "83be7cd0a94f6986028bd60ca7fa2c8ba036ad3b"
CWEB_COMMIT = "08d1da0ff2b78885b1f060b4fa11460a98eb9218"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- the catalogue ---------------------------------------------------------------------------

def gmeg_paths_the_code_reads() -> set[str]:
    paths = set()
    for split in GMEG_SPLITS:
        for domain in GMEG_DOMAINS:
            folder = gmeg_folder(split, domain)
            paths |= {f"{folder}/segment-scores.csv", f"{folder}/corpus-scores.csv", f"{folder}/source.txt",
                      *(f"{folder}/ref{k}.txt" for k in range(4)),
                      *(f"{folder}/systems/{system}.txt" for system in GMEG_SYSTEMS)}
    return paths


def test_the_gmeg_entry_is_every_file_of_fce_and_wiki_from_the_pinned_commit():
    gmeg = CATALOGUE["gmeg"]
    assert {f.path for f in gmeg.files} == gmeg_paths_the_code_reads()
    assert len(gmeg.files) == 2 * 2 * 13
    assert gmeg.repositories == (cat.GMEG,) and cat.GMEG.commit == GMEG_COMMIT
    assert gmeg.licence == ("no licence stated in the repository: not re-hosted; fetched from the upstream "
                            "repository for research use")
    assert "TACL 2019" in gmeg.citation and "tacl_a_00282" in gmeg.bibtex
    for file in gmeg.files:            # copied byte for byte from data/<split>/..., nothing shipped
        assert file.derivation == cat.COPY and file.content is None
        split, domain, name = file.path.split("/")[1], file.path.split("/")[2], file.path.split("/")[-1]
        if name.endswith("-scores.csv"):
            assert file.source_path == f"data/{split}/{domain}-{name}"
        else:
            assert file.source_path == f"data/{split}/{domain}/{name.removesuffix('.txt')}"
    # the corpus-score files are a header and 8 rows of ~25 bytes; the texts ~85-150 KB
    sizes = {f.path.split("/")[-1]: f.size for f in gmeg.files if f.path.startswith("gmeg/test/fce/")}
    assert sizes["corpus-scores.csv"] == 205 and sizes["segment-scores.csv"] == 76198


def test_the_cweb_entry_is_the_combined_m2_the_sources_and_the_licence():
    cweb = CATALOGUE["cweb"]
    assert cweb.repositories == (cat.CWEB,) and cat.CWEB.commit == CWEB_COMMIT
    assert cweb.licence == "CC BY-NC-SA 4.0" and "EMNLP 2020" in cweb.citation
    expected = {"cweb/README.md"} | {f"cweb/CWEB-{d}.{s}.{kind}" for d in "GS" for s in ("dev", "test")
                                     for kind in ("m2", "source.txt")}
    assert {f.path for f in cweb.files} == expected
    sources = {f.path: f.source_path for f in cweb.files}
    assert sources["cweb/CWEB-G.test.m2"] == "data/m2/CWEB-G.test.m2"
    assert sources["cweb/CWEB-S.dev.source.txt"] == "data/tokenized/CWEB-S.dev.tok.source"


# --- a synthetic GMEG set with the real paths, fetched from a local upstream ----------------

SEGMENTS = ("amu,marian,nus,lstm,lstm-r,ref,source,transformer\n"
            "50,60,50,70,70,90,50,40\n"
            ",,,,,,,\n"
            "80,80,80,80,80,95,80,75\n"
            "10,20,30,40,50,60,70,80\n").encode()
CORPUS = ("system,score\namu,46.666666666666664\nmarian,53.333333333333336\nnus,53.333333333333336\n"
          "lstm,63.333333333333336\nlstm-r,66.66666666666667\nref,81.66666666666667\nsource,66.66666666666667\n"
          "transformer,65.0\n").encode()
TOY_REPO = cat.Repository("toy-owner/toy-gmeg", "0123456789abcdef0123456789abcdef01234567", "none stated")


@pytest.fixture
def toy_gmeg(monkeypatch):
    """The catalogue's gmeg replaced by the two score files of test/fce, served locally."""
    files = {"gmeg/test/fce/segment-scores.csv": ("data/test/fce-segment-scores.csv", SEGMENTS),
             "gmeg/test/fce/corpus-scores.csv": ("data/test/fce-corpus-scores.csv", CORPUS)}
    toy = cat.DataSet("gmeg", "Toy GMEG", "synthetic", "gmeg", "none stated", "Nobody. 2025.", "@misc{toy}",
                      tuple(cat.copied(path, TOY_REPO, source, len(data), sha(data))
                            for path, (source, data) in files.items()))
    monkeypatch.setitem(CATALOGUE, "gmeg", toy)
    monkeypatch.delenv("GECSCORE_OFFLINE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("GEC_DATA", raising=False)
    monkeypatch.setattr(fetch_module, "RETRY_DELAY_S", 0.0)
    served = {f"{TOY_REPO.name}/{TOY_REPO.commit}/{source}": data for source, data in files.values()}
    with FakeUpstream(served) as server:
        monkeypatch.setenv("GECSCORE_DATA_BASE_URL", server.url)
        yield server


def test_gmeg_fce_is_fetched_on_first_use_and_read(toy_gmeg, tmp_path, capsys):
    rankings = load_human("gmeg-fce", tmp_path)
    assert list(rankings) == ["gmeg-fce"]
    ranking = rankings["gmeg-fce"]
    assert ranking.systems == GMEG_SYSTEMS          # the six systems, without ref and source
    assert ranking.scores["lstm-r"] == 66.66666666666667 and ranking.scores["transformer"] == 65.0
    assert "gmeg: please cite: Nobody. 2025." in capsys.readouterr().err
    segments = gmeg_segment_scores("GMEG-FCE", tmp_path)
    assert segments.name == "gmeg-fce" and segments.systems == GMEG_SYSTEMS and segments.n_segments == 4
    lstm_r = segments.of("lstm-r")
    assert lstm_r[::2] == (70.0, 80.0) and lstm_r[3] == 50.0 and math.isnan(lstm_r[1])
    assert segments.rated_segments() == (0, 2, 3)
    # the published corpus scores are the means over the rated segments
    means = segments.system_means()
    assert all(means[s] == pytest.approx(ranking.scores[s], abs=1e-12) for s in GMEG_SYSTEMS)
    assert toy_gmeg.total_hits == 2


def test_an_absent_gmeg_offline_names_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("GECSCORE_OFFLINE", "1")
    with pytest.raises(DataUnavailable, match=r"gmeg/test/wiki/corpus-scores.csv: not in the data folder .*"
                                              r"`gecscore data get gmeg`"):
        load_human("gmeg-wiki", tmp_path)


def test_gmeg_names():
    assert gmeg_spec("gmeg-fce") == ("test", "fce")
    assert gmeg_spec("gmeg-wiki-dev") == ("dev", "wiki")
    for bad in ("gmeg-yahoo", "gmeg-fce-train", "gmeg", "gmeg-fce-dev-x"):
        with pytest.raises(GecInputError, match="expected one of: gmeg-fce, gmeg-fce-dev, gmeg-wiki, gmeg-wiki-dev"):
            gmeg_spec(bad)
    with pytest.raises(GecInputError, match="gmeg-fce, gmeg-wiki, gmeg-fce-dev, gmeg-wiki-dev or a TSV file"):
        load_human("nothing-of-the-kind")


# --- the readers on malformed files ----------------------------------------------------------

def write(tmp_path: Path, text: str, name: str = "scores.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_segment_scores_read_with_empty_cells_as_unrated(tmp_path):
    scores = read_segment_scores(write(tmp_path, "a,b\n1,2\n,\n3.5,\n"))
    assert scores.name == "scores" and scores.systems == ("a", "b") and scores.n_segments == 3
    assert scores.of("a")[::2] == (1.0, 3.5) and math.isnan(scores.of("b")[2])
    assert scores.rated_segments() == (0,)
    assert scores.system_means() == {"a": 2.25, "b": 2.0}
    with pytest.raises(GecInputError, match="no human scores of system 'c'; it has a, b"):
        scores.of("c")


@pytest.mark.parametrize("text, message", [
    ("", "empty segment score file"),
    ("a,b\n", "no segment rows after the header"),
    ("a,a\n1,2\n", ":1: column\\(s\\) named twice: a"),
    ("a,\n1,2\n", ":1: the header needs a non-empty name for every column"),
    ("a,b\n1,2\n1,2,3\n", ":3: expected 2 comma-separated cells, got 3"),
    ("a,b\n1,x\n", ":2: expected a number or an empty cell, got 'x'"),
    ("a,b\n1,nan\n", ":2: expected a finite number \\(leave the cell empty for no score\\), got 'nan'"),
])
def test_a_malformed_segment_file_is_one_line_naming_the_place(tmp_path, text, message):
    with pytest.raises(GecInputError, match=message) as error:
        read_segment_scores(write(tmp_path, text))
    assert "\n" not in str(error.value) and str(error.value).startswith(str(tmp_path / "scores.csv"))


@pytest.mark.parametrize("text, message", [
    ("", "empty corpus score file"),
    ("name,value\nA,1\n", ":1: expected the header 'system,score'"),
    ("system,score\n", "no system rows after the header"),
    ("system,score\nA,1\nA,2\n", ":3: system 'A' listed twice"),
    ("system,score\nA,\n", ":2: no score for system 'A'"),
    ("system,score\nA,1,2\n", ":2: expected 2 comma-separated cells, got 3"),
    ("system,score\n,1\n", ":2: empty system name"),
])
def test_a_malformed_corpus_file_is_one_line_naming_the_place(tmp_path, text, message):
    with pytest.raises(GecInputError, match=message):
        read_corpus_scores(write(tmp_path, text))


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(GecInputError, match="absent.csv: no such file"):
        read_segment_scores(tmp_path / "absent.csv")


# --- the real ratings (GEC_DATA holding gmeg) -----------------------------------------------

REAL = [f"{gmeg_folder(split, domain)}/{name}" for split in GMEG_SPLITS for domain in GMEG_DOMAINS
        for name in ("segment-scores.csv", "corpus-scores.csv")]


@pytest.mark.realdata(*REAL)
def test_the_real_files_verify_and_corpus_scores_are_the_segment_means():
    verifier = Verifier(GEC_DATA)
    assert [s.file.path for s in verifier.check_set(CATALOGUE["gmeg"]) if not s.ok] == []
    rated = {}
    for spec in ("gmeg-fce", "gmeg-wiki", "gmeg-fce-dev", "gmeg-wiki-dev"):
        segments = gmeg_segment_scores(spec, GEC_DATA)
        published = gmeg_corpus_scores(spec, GEC_DATA)
        means = segments.system_means()
        assert all(abs(means[s] - published[s]) < 1e-9 for s in GMEG_SYSTEMS), spec
        rated[spec] = (segments.n_segments, len(segments.rated_segments()))
    assert rated == {"gmeg-fce": (968, 963), "gmeg-wiki": (992, 980), "gmeg-fce-dev": (968, 962),
                     "gmeg-wiki-dev": (992, 980)}


def real_texts(spec: str) -> tuple[list[str], dict[str, list[str]], list[list[str]]]:
    split, domain = gmeg_spec(spec)
    folder = GEC_DATA / gmeg_folder(split, domain)
    read = lambda name: (folder / name).read_text(encoding="utf-8").split("\n")[:-1]
    references = [list(r) for r in zip(*(read(f"ref{k}.txt") for k in range(4)))]
    return read("source.txt"), {s: read(f"systems/{s}.txt") for s in GMEG_SYSTEMS}, references


@pytest.mark.realdata(*REAL, *(f"gmeg/test/{d}/ref0.txt" for d in GMEG_DOMAINS))
@pytest.mark.parametrize("spec, spa, pearson, spearman, kendall, acc, defined", [
    ("gmeg-fce", 0.8022666666666667, 0.09708154616304883, 0.10410774299758316, 0.09692123280454144,
     0.5866389754240203, 650),
    ("gmeg-wiki", 0.7452666666666667, 0.12464466158603962, 0.1163896479532019, 0.11026952312259386,
     0.5614965986394546, 716),
])
def test_spa_and_item_correlations_of_a_length_metric_equal_mt_metrics_eval(spec, spa, pearson, spearman, kendall,
                                                                          acc, defined):
    """A metric made here, with many ties: minus the token-count difference from reference 0.
    mt-metrics-eval's stats.PairwiseConfidenceError (filter_nones) and Correlation(...).Pearson,
    Spearman, Kendall and KendallVariants(variant="acc23") with average_by="item" gave these."""
    from gecscore.metaeval.segment_correlation import item_correlations
    from gecscore.metaeval.soft_pairwise import soft_pairwise_accuracy

    _, outputs, references = real_texts(spec)
    metric = {s: [-abs(len(h.split()) - len(r[0].split())) for h, r in zip(outputs[s], references)]
              for s in GMEG_SYSTEMS}
    human = gmeg_segment_scores(spec, GEC_DATA)
    assert abs(soft_pairwise_accuracy(human, metric).value - spa) < 1e-9
    items = item_correlations(human, metric)
    assert abs(items.pearson - pearson) < 1e-9 and abs(items.spearman - spearman) < 1e-9
    assert abs(items.kendall - kendall) < 1e-9 and abs(items.acc_eq - acc) < 1e-9
    assert items.defined["pearson"] == defined


@pytest.mark.realdata(*REAL, "gmeg/test/fce/ref0.txt")
def test_spa_of_sentence_gleu_on_gmeg_fce_equals_mt_metrics_eval():
    """gecscore's sentence GLEU on GMEG FCE test (the six systems, four references): SPA and the
    item-grouped Pearson as mt-metrics-eval computes them from the same segment scores."""
    import gecscore
    from gecscore.metaeval.segment_correlation import item_correlations
    from gecscore.metaeval.soft_pairwise import soft_pairwise_accuracy

    sources, outputs, references = real_texts("gmeg-fce")
    gleu = gecscore.load("gleu")
    prepared = gleu.prepare_text(sources, references)
    metric = {s: gleu.score(prepared, outputs[s]).sentence_scores() for s in GMEG_SYSTEMS}
    human = gmeg_segment_scores("gmeg-fce", GEC_DATA)
    assert abs(soft_pairwise_accuracy(human, metric).value - 0.9035333333333333) < 1e-9
    items = item_correlations(human, metric)
    assert abs(items.pearson - 0.3998674880585449) < 1e-9 and items.defined["pearson"] == 806
