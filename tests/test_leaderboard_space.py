"""The leaderboard Space's library (gecscore.leaderboard.upload, .upload_input, .benchmarks), its
page's pieces (gecscore.spaces.leaderboard_view / leaderboard_page) and `gecscore publish
leaderboard`: an upload's row is the row one `gecscore leaderboard` run over all the files gives,
every cell; so are its significance clusters and intervals; an upload is never written to the
persistent store; a bad upload gets one message saying what to fix. A synthetic board without
data, and SEEDA with GEC_DATA. The page in a real browser: tests/test_leaderboard_space_browser.py."""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gecscore.benchdata.refsets import load_refset
from gecscore.cache.store import disabled
from gecscore.errors import GecInputError
from gecscore.io.hypotheses import ExpectedLines
from gecscore.leaderboard.benchmarks import BENCHMARKS, Benchmark, BenchmarkData, sizes
from gecscore.leaderboard.board import run_leaderboard
from gecscore.leaderboard.clusters import ClusterOptions
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.systems import SystemSource
from gecscore.leaderboard.upload import (UploadOptions, add_statistics, check_name, prepare_board, rank_among,
                                         rank_with_pairs, pair_p_value, score_upload, space_configurations)
from gecscore.leaderboard.upload_input import OutputLimits, pasted_lines, read_output, tokenised
from gecscore.metaeval.human import HumanScores

from datapaths import GEC_DATA

ROOT = Path(__file__).resolve().parents[1]

# Eight sentences: the examples' four (two annotators) and four with one annotator.
GOLD = (ROOT / "examples" / "gold.m2").read_text(encoding="utf-8").rstrip("\n") + """

S She go to the market yesterday .
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0

S I has two cat .
A 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||cats|||REQUIRED|||-NONE-|||0

S They is happy about there results .
A 1 2|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
A 4 5|||R:OTHER|||their|||REQUIRED|||-NONE-|||0

S He do n't like apples .
A 1 2|||R:VERB:SVA|||does|||REQUIRED|||-NONE-|||0
"""
SOURCES = [
    "Do one who suffered from this disease keep it a secret of infrom their relatives ?",
    "When we are diagonosed out with certain genetic disease , should we disclose this result to our relatives ?",
    "Genetic testing is a very personal decision .",
    "The boy walk to school every days .",
    "She go to the market yesterday .",
    "I has two cat .",
    "They is happy about there results .",
    "He do n't like apples .",
]
SYSTEMS = {
    "INPUT": SOURCES,
    "REF": ["Does one who suffers from this disease keep it a secret or inform their relatives ?",
            "When we are diagnosed with certain genetic diseases , should we disclose this result to our relatives ?",
            "Genetic testing is a very personal decision .",
            "The boy walks to school every day .",
            "She went to the market yesterday .",
            "I have two cats .",
            "They are happy about their results .",
            "He does n't like apples ."],
    "HALF": ["Does one who suffered from this disease keep it a secret of infrom their relatives ?",
             "When we are diagnosed out with certain genetic disease , should we disclose this result to our relatives ?",
             "Genetic testing is a very personal decision .",
             "The boy walks to school every days .",
             "She went to the market yesterday .",
             "I has two cats .",
             "They is happy about their results .",
             "He do n't like apples ."],
    "NOISY": ["Do one who suffered from the disease keep it the secret of infrom their relatives ?",
              "When we were diagonosed out with certain genetic disease , should we disclose that result to our relatives ?",
              "Genetic testing is the very personal decision .",
              "The boy walked to school every days .",
              "She goes to the market yesterday .",
              "I has three cat .",
              "They was happy about there results .",
              "He do n't likes apples ."],
}
NEW = ["Does one who suffer from this disease keep it a secret or inform their relatives ?",
       "When we are diagnosed with certain genetic disease , should we disclose the result to our relatives ?",
       "Genetic testing is a very personal decision .",
       "The boy walks to the school every day .",
       "She goes to the market yesterday .",
       "I have two cat .",
       "They are happy about there results .",
       "He does not like apples ."]
HUMAN = {"toy-H": HumanScores("toy-H", {"REF": 4.0, "HALF": 3.0, "INPUT": 1.0, "NOISY": 2.0})}
CONFIGS = ["m2-corpus", "m2-sentence", "errant-corpus", "cleme2-corpus-dep", "green-sentence", "gleu"]
OPTIONS = UploadOptions(bootstrap=60, seed=3, clusters=ClusterOptions(draws=60, seed=3))
TOY = Benchmark("toy", "a toy benchmark", "eight sentences", primary_human="toy-H")


def _spacy_or_skip():
    try:
        from gecscore.lang.en.spacy_model import load_spacy_model

        load_spacy_model()
    except Exception as error:  # no spaCy model: ERRANT cannot run
        pytest.skip(f"no spaCy English model: {error}")


def _write(folder: Path, name: str, lines) -> Path:
    path = folder / f"{name}.txt"
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """The synthetic benchmark's data, its prepared board and the folder of its files."""
    _spacy_or_skip()
    folder = tmp_path_factory.mktemp("toy")
    (folder / "gold.m2").write_text(GOLD, encoding="utf-8")
    refset = load_refset(folder / "gold.m2")
    (folder / "systems").mkdir()
    systems = tuple(SystemSource(name, _write(folder / "systems", name, lines)) for name, lines in SYSTEMS.items())
    data = BenchmarkData(TOY, refset, systems, HUMAN, None)
    return data, prepare_board(data, only=CONFIGS, options=OPTIONS), folder


def _same_number(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def _reference_run(data, folder: Path, extra: dict[str, list[str]]):
    """One `gecscore leaderboard` run over the published files and ``extra`` (as its library
    call), the persistent store off: nothing read back from what the board kept."""
    sources = list(data.systems) + [SystemSource(name, _write(folder, name, lines)) for name, lines in extra.items()]
    with disabled():
        return run_leaderboard(data.refset, sources, CONFIGS, progress=False, bootstrap=OPTIONS.bootstrap,
                               seed=OPTIONS.seed, clusters=ClusterOptions(draws=60, seed=3, systems=True))


def _same_ranking(mine, theirs) -> None:
    assert (mine.names, mine.values, mine.ranks, mine.test, mine.draws) == (
        theirs.names, theirs.values, theirs.ranks, theirs.test, theirs.draws)
    n = len(mine.names)
    assert all(mine.p[i][j] == theirs.p[i][j] for i in range(n) for j in range(i + 1, n))


def test_upload_row_clusters_and_intervals_equal_one_leaderboard_run_over_all_files(toy, tmp_path):
    data, published, _ = toy
    result = add_statistics(score_upload(published, NEW, "NEW", tmp_path / "upload"))
    reference = _reference_run(data, tmp_path, {"NEW": NEW})
    assert result.board.systems == reference.systems and sorted(result.configs) == sorted(CONFIGS)
    for system in reference.systems:   # every cell: the upload's and (read back) the published ones
        for config in CONFIGS:
            mine, theirs = result.board.scores[system][config], reference.scores[system][config]
            assert _same_number(mine.score, theirs.score), (system, config)
            assert mine.signature == theirs.signature and mine.details.keys() == theirs.details.keys()
            assert all(_same_number(mine.details[k], theirs.details[k]) for k in mine.details
                       if isinstance(theirs.details[k], float))
            interval, expected = result.intervals[config].get(system), reference.bootstrap[config].intervals.get(system)
            assert interval == expected, (system, config)
    assert set(result.clusters) == set(reference.system_clusters)
    for config, ranking in reference.system_clusters.items():
        _same_ranking(result.clusters[config], ranking)
    assert result.clusters_left_out == reference.system_clusters_left_out
    # its rank: 1 + the systems scoring above it
    column = reference.column("m2-corpus")
    assert result.ranks["m2-corpus"] == (1 + sum(v > column["NEW"] for v in column.values()), 5)
    # the per-type table: ERRANT's counts of the upload and of the best published system by errant-corpus
    assert result.best == "REF" and set(result.per_type) == {"REF", "NEW"}
    with disabled():
        per_type = run_leaderboard(data.refset, [s for s in data.systems if s.name == "REF"], ["errant-corpus"],
                                   progress=False, options=RunWide(per_type="main"))
    assert result.per_type["REF"] == per_type.scores["REF"]["errant-corpus"].details["per_type"]
    assert result.per_type["NEW"]["types"]["VERB:SVA"]["tp"] >= 1


def test_a_published_output_under_another_name_gets_that_systems_row_rank_and_cluster(toy, tmp_path):
    _, published, _ = toy
    result = add_statistics(score_upload(published, SYSTEMS["HALF"], "copy of HALF", tmp_path))
    for config in CONFIGS:
        assert result.score("copy of HALF", config) == result.score("HALF", config)
        assert result.ranks[config] == rank_among(result.score("HALF", config), result.board.column(config).values())
        if config in result.clusters:
            assert result.cluster_rank(config) == result.cluster_rank(config, "HALF")
    assert result.board.scores["HALF"] is published.board.scores["HALF"]   # the published cells, not rescored


def test_an_upload_is_never_kept_in_the_persistent_store(toy, tmp_path):
    from gecscore.cache.store import store_folder

    _, published, _ = toy
    root = Path(store_folder())
    before = sorted(p for p in root.rglob("*") if p.is_file())
    folder = tmp_path / "request"
    result = add_statistics(score_upload(published, [line.upper() for line in NEW], "UPPER", folder))
    assert result.ranks["m2-corpus"] is not None
    assert sorted(p for p in root.rglob("*") if p.is_file()) == before
    assert not os.environ.get("GECSCORE_NO_CACHE")   # the store is back on after the upload


def test_the_published_board_is_not_changed_by_an_upload(toy, tmp_path):
    _, published, _ = toy
    systems, scores = list(published.board.systems), dict(published.board.scores)
    clusters = dict(published.board.system_clusters)
    add_statistics(score_upload(published, NEW, "NEW2", tmp_path))
    assert published.board.systems == systems and published.board.scores == scores
    assert published.board.system_clusters == clusters and "NEW2" not in published.board.scores


def test_the_metric_ranking_is_the_boards_perm_both_ranking_on_the_human_signal(toy):
    data, published, _ = toy
    with disabled():
        reference = run_leaderboard(data.refset, list(data.systems), CONFIGS, progress=False, human=HUMAN,
                                    clusters=ClusterOptions(draws=60, seed=3))
    mine = published.metric_rankings()["toy-H"].ranking
    _same_ranking(mine, reference.metric_clusters["system"]["toy-H"].ranking)
    assert published.trust() == mine.rank_of() and min(published.trust().values()) == 1


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(3, 30), st.integers(0, 2**16))
def test_ranking_with_kept_pairs_equals_rank_systems(n_systems, n_sentences, seed):
    from gecscore.significance.system_clusters import rank_systems

    rng = np.random.default_rng(seed)
    ratio = lambda means: float(means[0] / means[1]) if means[1] else float("nan")
    systems = {f"S{k}": (rng.integers(0, 4, size=(n_sentences, 2)).astype(float) + [0, 1], ratio)
               for k in range(n_systems)}
    expected = rank_systems(systems, trials=50, seed=seed % 7, alpha=0.05)
    kept = {}

    def p_of(better, worse):
        kept[(better, worse)] = pair_p_value(systems[better], systems[worse], 50, seed % 7)
        return kept[(better, worse)]

    ranking, pairs = rank_with_pairs(systems, p_of, trials=50, seed=seed % 7, alpha=0.05)
    _same_ranking(ranking, expected)
    # read back from what was kept: the same ranking without one test run
    again, _ = rank_with_pairs(systems, lambda b, w: kept[(b, w)], trials=50, seed=seed % 7, alpha=0.05)
    _same_ranking(again, expected)
    assert {pair: p for pair, (p, _) in pairs.items()} == kept


def test_rank_among_shares_ranks_and_skips_undefined_scores():
    assert rank_among(0.5, [0.7, 0.5, 0.5, 0.2]) == (2, 4)
    assert rank_among(0.9, [0.7, float("nan"), 0.9]) == (1, 2)
    assert rank_among(float("nan"), [0.1, float("nan")]) is None


def test_the_board_leaves_out_run_dependent_model_and_xml_gold_configurations(tmp_path):
    chosen, left_out = space_configurations(RunWide())
    assert "gotoscorer" not in chosen and "all the systems of the run" in left_out["gotoscorer"]
    assert "gotoscorer-noweight" in chosen and "imeasure" in chosen
    assert "pt_m2-corpus" not in chosen and "similarity model" in left_out["pt_m2-corpus"]
    assert "dsgram" in left_out and not any(name.startswith("cleme2-llm") for name in chosen)
    with_model, _ = space_configurations(RunWide(similarity={"model": "some-bert"}))
    assert {"pt_m2-corpus", "pt_errant-sentence", "cleme2-sim-corpus-dep"} <= set(with_model)
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    no_xml, left = space_configurations(RunWide(), refset=load_refset(tmp_path / "gold.m2"))
    assert "imeasure" not in no_xml and "XML gold" in left["imeasure"]
    only, left = space_configurations(RunWide(), ["m2-corpus", "gleu"])
    assert only == ["m2-corpus", "gleu"] and left["green"] == "not asked for"
    with pytest.raises(GecInputError, match="gotoscorer"):
        space_configurations(RunWide(), ["gotoscorer"])


def test_names_are_checked():
    assert check_name("  my system (v2) ", ["AMU"]) == "my system (v2)"
    for bad, message in (("", "give your system a name"), ("AMU", "is a published system"),
                         ("<b>x</b>", "not one this board takes"), ("x" * 61, "not one this board takes")):
        with pytest.raises(GecInputError, match=message):
            check_name(bad, ["AMU"])


# --------------------------------------------------------------------------- bad uploads

EXPECTED = ExpectedLines(tuple(f"source {k} ." for k in range(1, 11)), None, "the reference set toy")


def _read(tmp_path: Path, content: bytes, limits: OutputLimits = OutputLimits(), other=None):
    path = tmp_path / "output.txt"
    path.write_bytes(content)
    return read_output(path, None, EXPECTED, limits=limits, other_sizes=other or {})


def _lines(n: int) -> bytes:
    return "".join(f"line {k} .\n" for k in range(1, n + 1)).encode()


def test_a_wrong_line_count_says_found_expected_and_the_likely_cause(tmp_path):
    with pytest.raises(GecInputError) as error:
        _read(tmp_path, _lines(14))
    message = str(error.value)
    assert "output.txt" in message and "14 lines but the reference set toy has 10" in message
    assert "likely cause: more lines than sentences" in message
    with pytest.raises(GecInputError, match="likely cause: fewer lines than sentences"):
        _read(tmp_path, _lines(6))
    with pytest.raises(GecInputError, match="7 is the size of SEEDA: choose that benchmark"):
        _read(tmp_path, _lines(7), other={"SEEDA": 7})
    # the command line's own hints for one line more (a blank last line) or less
    with pytest.raises(GecInputError, match=r"9 lines .*\(one line short: is the last sentence missing"):
        _read(tmp_path, _lines(9))
    with pytest.raises(GecInputError, match=r"11 lines .*\(the last line is blank"):
        _read(tmp_path, _lines(10) + b"\n")


def test_empty_binary_non_utf8_and_oversized_uploads_get_one_message(tmp_path):
    cases = [(b"", "output.txt: the uploaded file is empty (0 bytes)"),
             (b"\n \n\n", "the uploaded file (output.txt) is empty (no sentence in it)"),
             (_lines(9) + b"line\x00 10\n", "output.txt, line 10: not text: a NUL byte (a binary file?): upload "
                                              "the system output as plain UTF-8 text"),
             (_lines(4) + "caf\u00e9 .\n".encode("latin-1") + _lines(5),
              "output.txt, line 5: not UTF-8 text (byte 0xe9): upload the system output as plain UTF-8 text")]
    for content, message in cases:
        with pytest.raises(GecInputError) as error:
            _read(tmp_path, content)
        assert str(error.value).startswith(message), str(error.value)
        assert str(tmp_path) not in str(error.value)   # the server's path of an upload is never shown
    with pytest.raises(GecInputError, match="the file has 91 bytes; uploads are limited to 80 "):
        _read(tmp_path, _lines(10), OutputLimits(max_bytes=80))
    with pytest.raises(GecInputError, match="line 3.*a line of 5 tokens; at most 4"):
        _read(tmp_path, _lines(2) + b"a b c d e\n" + _lines(7), OutputLimits(max_line_tokens=4))
    with pytest.raises(GecInputError, match="no output: upload"):
        read_output(None, "  \n", EXPECTED)
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)   # refused unopened (opening it would wait for a writer)
    with pytest.raises(GecInputError, match=r"^pipe.txt: is a named pipe \(FIFO\), not a regular file"):
        read_output(pipe, None, EXPECTED)


def test_crlf_and_a_byte_order_mark_read_as_plain_utf8(tmp_path):
    plain = _read(tmp_path, _lines(10)).lines
    assert _read(tmp_path, b"\xef\xbb\xbf" + _lines(10).replace(b"\n", b"\r\n")).lines == plain
    assert read_output(None, "\ufeff" + _lines(10).decode().replace("\n", "\r\n") + "\n\n", EXPECTED).lines == plain
    assert pasted_lines("a\r\nb\n\n") == ["a", "b"]
    # a parallel file is read as the command line reads one, its sources matched to the gold's
    parallel = "".join(f"{k}\tsource {k} .\tfixed {k} .\n" for k in range(1, 11)).encode()
    assert _read(tmp_path, parallel).lines[0] == "fixed 1 ."
    with pytest.raises(GecInputError, match="the source differs"):
        _read(tmp_path, parallel.replace(b"source 3 .", b"other 3 ."))


def test_untokenised_text_is_scored_with_the_command_lines_warning_and_tokenisation_offered(tmp_path):
    glued = "".join(f"I went home{k}, then I said: hello.\n" for k in range(10)).encode()
    output = _read(tmp_path, glued)
    assert output.untokenised and len(output.warnings) == 1
    warning = output.warnings[0]
    assert warning.startswith("predictions look untokenised") and "'home0,'" in warning and "tokenize=True" in warning
    assert not _read(tmp_path, _lines(10)).warnings
    _spacy_or_skip()
    assert tokenised(["I went home, then I said: hello."]) == ("I went home , then I said : hello .",)


def test_benchmark_sizes_and_commands_name_the_catalogue():
    assert sizes("conll14") == {"SEEDA (CoNLL-2014 subset, 15 outputs incl. GPT-3.5)": 391, "JFLEG test": 747}
    assert BENCHMARKS["seeda"].command("DIR") == ("gecscore leaderboard --refset conll14 --subset-source "
                                                  "seeda/outputs/subset/INPUT.txt --systems DIR")
    paths = BENCHMARKS["conll14"].data_paths()
    assert "conll14/systems/AMU.txt" in paths and "conll14/conll14.errant.m2" in paths
    assert len([p for p in paths if p.startswith("conll14/systems/")]) == 13
    assert len([p for p in BENCHMARKS["seeda"].data_paths() if p.startswith("seeda/outputs/subset/")]) == 15
    assert not any(p.startswith("/") for b in BENCHMARKS.values() for p in b.data_paths())


# --------------------------------------------------------------------------- the page's pieces

def test_the_board_html_marks_the_upload_its_rank_and_the_trusted_columns(toy, tmp_path):
    from gecscore.spaces import leaderboard_view as view

    _, published, _ = toy
    result = add_statistics(score_upload(published, NEW, "NEW", tmp_path))
    data = view.BoardView.of_result(result)
    html = view.board_html(data)
    assert html.count('<tr class="gec-lb-upload" data-system="NEW">') == 1
    assert html.count("data-system=") == 5 and 'data-row="rank"' in html and 'data-row="cluster"' in html
    first = data.ordered_configs()[0]
    assert published.trust()[first] == 1 and f'class="gec-lb-trust-1" data-config="{first}"' in html
    rank = result.ranks[first]
    assert f'<td data-config="{first}">{rank[0]} of {rank[1]}</td>' in html
    plot = view.interval_plot_svg(data, "m2-corpus")
    assert plot.count("<circle") == 5 and 'data-system="NEW"' in plot and view.UPLOAD_COLOUR in plot
    assert view.rank_plot_svg(data).count("<circle") == len(CONFIGS)
    assert 'data-type="VERB:SVA"' in view.per_type_html(result)
    assert "toy-H (primary)" in view.trust_html(published)
    result.warnings = ["a warning of the metric"]
    summary = view.summary_html(result, ["tokenise it"])
    assert summary.count("gec-note-warn") == 1 and "tokenise it" in summary
    assert "<summary>1 warning(s) the command line prints" in summary and "a warning of the metric" in summary


def test_downloads_hold_the_whole_result_and_every_cell(toy, tmp_path):
    import csv
    import io
    import json

    pytest.importorskip("gradio", reason="gradio is not installed")
    from gecscore.spaces.leaderboard_page import Session, cells_csv, write_downloads

    _, published, _ = toy
    result = add_statistics(score_upload(published, NEW, "my system", tmp_path / "request"))
    session = Session()
    paths = write_downloads(result, session.downloads_folder())
    document = json.loads(Path(paths[0]).read_text(encoding="utf-8"))
    assert document["systems"]["my system"]["m2-corpus"]["score"] == result.score("my system", "m2-corpus")
    assert document["upload"]["ranks"]["m2-corpus"] == {"rank": result.ranks["m2-corpus"][0], "of": 5}
    assert set(document["system_clusters"]["configs"]) == set(result.clusters)
    assert document["metric_ranking"]["primary"] == "toy-H" and document["benchmark"]["name"] == "toy"
    rows = list(csv.DictReader(io.StringIO(cells_csv(result))))
    assert len(rows) == 5 * len(CONFIGS) and Path(paths[1]).read_text(encoding="utf-8") == cells_csv(result)
    mine = next(r for r in rows if r["system"] == "my system" and r["config"] == "m2-corpus")
    assert float(mine["score"]) == result.score("my system", "m2-corpus") and mine["upload"] == "True"
    folder = session.folder
    session.close()
    assert not folder.exists() and session.result is None


def test_the_page_is_built_without_reading_any_data(monkeypatch):
    pytest.importorskip("gradio", reason="gradio is not installed")
    from gecscore.spaces import leaderboard_page

    monkeypatch.setattr(leaderboard_page, "load_benchmark", lambda *a, **k: pytest.fail("data read at build"))
    boards = leaderboard_page.Boards.from_env({"GECSCORE_LEADERBOARD_BENCHMARKS": "seeda,jfleg",
                                               "GECSCORE_LEADERBOARD_CONFIGS": "m2-corpus gleu",
                                               "GECSCORE_LEADERBOARD_MODEL": "some-bert"})
    assert boards.names == ["seeda", "jfleg"] and boards.only == ["m2-corpus", "gleu"]
    assert boards.run.similarity == {"model": "some-bert"}
    demo = leaderboard_page.build_demo(boards)
    assert type(demo).__name__ == "Blocks"
    with pytest.raises(GecInputError, match="unknown benchmark 'nope'"):
        leaderboard_page.Boards(["nope"])


# --------------------------------------------------------------------------- publish

def test_publish_builds_the_leaderboard_space_folder(tmp_path, capsys):
    from gecscore import publish
    from gecscore.cli import main

    assert main(["publish", "leaderboard", "--dry-run", "--out", str(tmp_path)]) == 0
    assert "python " in capsys.readouterr().out
    folder = tmp_path / "leaderboard"
    assert sorted(p.name for p in folder.iterdir()) == [publish.STAMP, "README.md", "app.py", "gecscore",
                                                       "requirements.txt"]
    assert (folder / "app.py").read_bytes() == (ROOT / "spaces/leaderboard/app.py").read_bytes()
    assert (folder / "gecscore" / "leaderboard" / "upload.py").is_file()
    header = publish.card_header(folder / "README.md")
    assert header["sdk"] == "gradio" and "leaderboard" in header["tags"]
    requirements = (folder / "requirements.txt").read_text(encoding="utf-8").splitlines()
    import configparser

    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg", encoding="utf-8")
    gradio_pin = next(line for line in setup["options.extras_require"]["spaces"].split() if line.startswith("gradio=="))
    assert requirements[0] == f"gradio=={header['sdk_version']}" == gradio_pin   # the Gradio the tests ran
    assert any(line.startswith("spacy==") for line in requirements)
    for name in ("app.py", "README.md", "requirements.txt"):
        text = (folder / name).read_text(encoding="utf-8")
        assert "/work" not in text and "shared/data" not in text
    assert main(["publish", "leaderboard", "--dry-run", "--out", str(tmp_path)]) == 0   # rebuilt in place


def test_the_published_folder_builds_its_page_from_its_own_files(tmp_path):
    import subprocess
    import sys

    pytest.importorskip("gradio", reason="gradio is not installed")
    from gecscore.publish import assemble

    folder = assemble("leaderboard", tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", "import app, gecscore; print(type(app.demo).__name__, gecscore.__file__)"],
                         cwd=folder, env={**env, "GRADIO_ANALYTICS_ENABLED": "False"}, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    kind, library = run.stdout.split()
    assert kind == "Blocks" and Path(library).resolve().is_relative_to(folder.resolve())


# --------------------------------------------------------------------------- real data

@pytest.mark.slow
@pytest.mark.realdata("seeda/outputs/subset", "conll14/official-2014.combined.m2", "conll14/conll14.errant.m2",
                      "seeda/human")
def test_seeda_upload_row_equals_the_leaderboard_over_the_same_files(tmp_path):
    from gecscore.leaderboard.benchmarks import load_benchmark

    configs = ["m2-corpus", "errant-corpus", "cleme2-corpus-dep"]
    data = load_benchmark(BENCHMARKS["seeda"], tmp_path, GEC_DATA)
    assert len(data.refset) == 391 and len(data.systems) == 15 and "seeda-S-TS" in data.human
    options = UploadOptions(bootstrap=50, clusters=ClusterOptions(draws=50))
    published = prepare_board(data, only=configs, options=options)
    t5 = (GEC_DATA / "seeda" / "outputs" / "subset" / "T5.txt").read_text(encoding="utf-8").splitlines()
    mine = [line.replace(" the ", " a ", 1) for line in t5]   # a new output: T5 with one change a line
    result = add_statistics(score_upload(published, mine, "T5-variant", tmp_path / "request"))
    with disabled():
        reference = run_leaderboard(data.refset, [*data.systems, SystemSource("T5-variant", _write(tmp_path, "x", mine))],
                                    configs, progress=False, bootstrap=50, clusters=ClusterOptions(draws=50, systems=True))
    for config in configs:
        for system in reference.systems:
            assert result.score(system, config) == reference.scores[system][config].score, (system, config)
        _same_ranking(result.clusters[config], reference.system_clusters[config])
        assert result.intervals[config]["T5-variant"] == reference.bootstrap[config].intervals["T5-variant"]
    assert published.trust() and result.best in {s.name for s in data.systems}
    assert result.per_type_refset_name == "conll14-errant[391]" and set(result.per_type) == {result.best, "T5-variant"}
