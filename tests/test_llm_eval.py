"""LLM-S and LLM-E (Kobayashi et al. 2024) through the judge layer: the paper's prompts, answers
read robustly, exact scores against scripted judges (worked out by hand), bounded re-asks and
failures counted, the cache, transcripts replayed bit for bit, a Batch API round trip, the
signature and the CLI. Judges are the local test server (``judge_server.JudgeServer``) with the
LLM-S/LLM-E simulator of ``llm_eval_server``."""
from __future__ import annotations

import inspect
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from judge_server import BatchService, JudgeServer, Reply
from llm_eval_server import LlmEvalSimulator, Script, answer, request_subject
import gecscore
from gecscore.errors import JudgeShortfallWarning
from gecscore.cli import inputs as cli_inputs, main
from gecscore.errors import GecOptionError
from gecscore.judge import Judge, JudgeCache, OpenAIChatBackend, RetryPolicy
from gecscore.judge.parsing import JudgeOutputError
from gecscore.llm_eval.config import LlmEConfig, LlmSConfig
from gecscore.llm_eval.metric import LlmEMetric, LlmSMetric
from gecscore.llm_eval.prompts import edit_messages, render_edits, sentence_messages
from gecscore.llm_eval.scorer import parse_score, parse_scores, shown_hypotheses
from gecscore.types import Edit, Target

FAST = RetryPolicy(max_retries=1, backoff_s=0.01, max_backoff_s=0.05)


def judge_for(server: JudgeServer, cache: JudgeCache | None = None) -> Judge:
    return Judge(OpenAIChatBackend("m", server.base_url, timeout=5.0), cache, concurrency=4, retry=FAST,
                 progress=False)


def pairs(n: int) -> tuple[list[str], list[str]]:
    return ([f"this are sentence {i} with a error ." for i in range(n)],
            [f"This is sentence {i} with an error ." for i in range(n)])


def values(result) -> dict:
    """The result's values without the judge's counts (which describe the run)."""
    return {k: v for k, v in result.as_dict().items() if k != "judge"}


# ------------------------------------------------------------------ prompts

def test_sentence_prompt_is_the_papers_with_one_target():
    text = sentence_messages("this are a apple .", "This is an apple .")[0][1]
    assert text.startswith("The goal of this task is to rank the presented targets based on the quality of the "
                           "sentences.\nAfter reading the source sentence and target sentences, please assign a "
                           "score from a minimum of 1 point to a maximum of 5 points to each target")
    assert "\n\n# source\nthis are a apple .\n\n# targets\nThis is an apple .\n\n# output format\n" in text
    assert '"target1_score": int // assigned score for target 1\n...\n"targetN_score": int' in text
    assert sentence_messages("a", "b")[0][0] == "user" and len(sentence_messages("a", "b")) == 1
    focused = sentence_messages("a", "b", criteria="fluency")[0][1]
    assert "(note that you can assign the same score multiple times).\nPlease evaluate each target with a " \
           "focus on the fluency of the sentence.\n\n# source\n" in focused
    assert "minimum of 0 point to a maximum of 10 points" in sentence_messages("a", "b", low=0, high=10)[0][1]


def test_edit_prompt_is_the_papers_and_shows_errant_edits_inline():
    text = edit_messages("I go home .", "I [→will] go [home→] .")[0][1]
    assert "they will be awarded 5 points; if there is an error, they will receive 1 point.\n" in text
    assert 'Insert "the": [→the]\nDelete "the": [the→]\nReplace "the" with "a": [the→a]\n\n# context\n' in text
    assert "\n# targets\nI [→will] go [home→] .\n\n# output format\nThe output should be a markdown code " \
           "snippet formatted in the\nfollowing schema" in text
    source = "this are a apple .".split()
    edits = [Edit(1, 2, ("is",)), Edit(2, 3, ("an",))]
    assert render_edits(source, edits) == "this [are→is] [a→an] apple ."
    assert render_edits(source, edits, edit_format="list") == "are→is a→an"
    assert render_edits(source, []) == "this are a apple ." and render_edits(source, [], edit_format="list") == ""
    assert render_edits(list("我去了"), [Edit(2, 3, ())], joiner="") == "我去[了→]"


def test_module_doctests():
    import doctest

    from gecscore.llm_eval import prompts, scorer

    for module in (prompts, scorer):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__


# ------------------------------------------------------------------ reading answers

@pytest.mark.parametrize("text, expected", [
    ('```json\n{\n"target1_score": 4\n}\n```', 4),
    ('```json\n{\n"target1_score": 3 // assigned score for target 1\n}\n```', 3),  # the schema's comment kept
    ('{"target_score1": 2}', 2),  # gec-metrics' structured-output key
    ('Here you are: {"Target 1 Score": "5"}', 5),
    ('{"score": 1}', 1),
    ("target1_score: 4", 4),
    ("Score = 2", 2),
    ("3", 3),
    ("4.", 4),
    ('[{"target1_score": 2}]', 2),
])
def test_scores_parse(text, expected):
    assert parse_score(text) == expected


@pytest.mark.parametrize("text, problem", [
    ("", "empty output"),
    ("The target is fine.", "no score found"),
    ('```json\n{\n"target1_score": \n```', "no score found"),
    ('{"target1_score": 9}', "score 9 is outside 1-5"),
    ('{"target1_score": 0}', "score 0 is outside 1-5"),
    ('{"target1_score": "good"}', "has no number"),
    ('{"target1_score": 3, "target2_score": 4, "fluency score": 2}', None),  # target 1 is read
])
def test_scores_reject(text, problem):
    if problem is None:
        assert parse_score(text) == 3
        return
    with pytest.raises(JudgeOutputError, match=problem):
        parse_score(text)


@pytest.mark.parametrize("text, expected", [
    (answer(4, 2, 5), [4, 2, 5]),
    (answer(4, 2, 5, comment=True), [4, 2, 5]),   # the schema's comments kept: read as text
    ('{"target_score1": 1, "target_score2": 3, "target_score3": 3}', [1, 3, 3]),  # gec-metrics' keys
    ('{"target3_score": 3, "target1_score": 1, "target2_score": 2}', [1, 2, 3]),  # any key order
    ("target1_score: 5\ntarget2_score: 4\ntarget3_score: 1", [5, 4, 1]),
])
def test_several_targets_parse(text, expected):
    assert parse_scores(text, 3) == expected


@pytest.mark.parametrize("text, problem", [
    (answer(4, 2), "no score for target 3 of 3"),
    (answer(4, 2, 6), "score 6 of target 3 is outside 1-5"),
    ('{"target1_score": 4}', "no score for target 2"),
    ("Target 2 is best.", "no score for target 1"),
])
def test_several_targets_reject(text, problem):
    with pytest.raises(JudgeOutputError, match=problem):
        parse_scores(text, 3)


def test_the_prompt_shows_the_most_frequent_distinct_outputs_in_sorted_order():
    assert shown_hypotheses(["b", "a", "b"], 5) == ["a", "b"]
    # C and B twice, A and D once: the two most frequent, ties by first appearance (C before B)
    assert shown_hypotheses(["C", "B", "A", "B", "C", "D"], 2) == ["B", "C"]
    assert shown_hypotheses(["A", "B", "C"], 2) == ["A", "B"]   # all once: the first two systems'
    assert shown_hypotheses(["x"], 5) == ["x"]


def test_scale_is_an_option_and_checked():
    assert parse_score('{"target1_score": 9}', 1, 10) == 9
    with pytest.raises(GecOptionError, match="scale_max"):
        gecscore.load("llm_s", scale_min=5, scale_max=5)
    with pytest.raises(GecOptionError, match="criteria"):
        gecscore.load("llm_s", criteria="impact")  # an LLM-E criterion


# ------------------------------------------------------------------ scoring against a script

def test_llm_s_scores_reasks_and_failures_by_hand():
    # A: 4. B: malformed, then 2 (re-asked once). C: out of scale (9) on all 1 + 3 asks: failed.
    # D: "target1_score: 5" as text. Score (4 + 2 + 5) / 3 = 11/3; requests 1 + 2 + 4 + 1 = 8.
    script = Script({"A": [Reply(answer(4))], "B": [Reply('{"target1_score": '), Reply(answer(2))],
                     "C": [Reply(answer(9))], "D": [Reply("target1_score: 5")]})
    with JudgeServer(script) as server:
        metric = LlmSMetric(LlmSConfig(), judge=judge_for(server))
        result = metric.score(metric.prepare_text(["a", "b", "c", "d"]), ["A", "B", "C", "D"])
        assert server.requests == 8
        assert {(b["temperature"], b["top_p"], b["max_tokens"]) for b in server.bodies} == {(1.0, 1.0, 256)}
    out = result.as_dict()
    assert out["score"] == pytest.approx(11 / 3)
    assert (out["n_sentences"], out["n_failed"], out["n_reasked"]) == (4, 1, 2)
    assert out["distribution"] == {"2": 1, "4": 1, "5": 1}
    assert result.statistic(result.sentence_stats.mean(axis=0)) == pytest.approx(11 / 3)  # as a bootstrap reads it
    records = result.records()
    assert [r["score"] for r in records] == [4, 2, None, 5]
    assert [r["attempts"] for r in records] == [1, 2, 4, 1]
    assert "outside 1-5" in records[2]["problems"][0] and len(records[2]["problems"]) == 4


def test_llm_e_sends_errant_edits_and_scores_by_hand():
    # ERRANT: "this are a apple ." -> "This is an apple ." has 3 edits; the unchanged second
    # sentence is shown as its source (the prompt: 5 if correct, 1 if not). (3 + 5) / 2 = 4.
    shown = "[this→This] [are→is] [a→an] apple ."
    script = Script({shown: [Reply(answer(3))], "I go home .": [Reply(answer(5))]})
    with JudgeServer(script) as server:
        metric = LlmEMetric(LlmEConfig(), judge=judge_for(server))
        prepared = metric.prepare_text(["this are a apple .", "I go home ."])
        result = metric.score(prepared, ["This is an apple .", "I go home ."])
        sent = [request_subject(body) for body in server.bodies]
    assert sorted(sent) == [("edit", "I go home .", "I go home ."), ("edit", "this are a apple .", shown)]
    assert result.as_dict()["score"] == 4.0
    assert "errant:" in str(result.signature) and "edits:inline" in str(result.signature)
    # Targets with known edits (e.g. from a hypothesis M2 file) are shown as given.
    with JudgeServer(Script({"this [are→is] a apple .": [Reply(answer(2))], "I go home .": [Reply(answer(5))]})) \
            as server:
        metric = LlmEMetric(LlmEConfig(), judge=judge_for(server))
        targets = [Target.from_edits("this are a apple .".split(), [Edit(1, 2, ("is",))]),
                   Target(tuple("I go home .".split()), ())]
        assert metric.score(prepared, targets).as_dict()["score"] == 3.5


def test_transport_failures_are_counted_not_reasked_and_all_failed_warns():
    # HTTP 500 on every try (1 + 1 retry each): no re-ask; every sentence failed: a warning.
    with JudgeServer(lambda body: Reply("down", status=500)) as server:
        metric = LlmSMetric(LlmSConfig(), judge=judge_for(server))
        with pytest.warns(JudgeShortfallWarning, match="every judge call failed: none of the 2 sentences has a score "
                                                r"\(n_failed = 2\)"):
            result = metric.score(metric.prepare_text(["a", "b"]), ["A", "B"])
        assert server.requests == 4
    out = result.as_dict()
    assert out["score"] is None and out["n_failed"] == 2
    assert out["judge"]["failures"] == {"HTTP 500": 2}


def test_no_warning_while_one_sentence_is_scored():
    with JudgeServer(Script({"A": [Reply(answer(4))], "B": [Reply("no idea")]})) as server:
        metric = LlmSMetric(LlmSConfig(max_reasks=1), judge=judge_for(server))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = metric.score(metric.prepare_text(["a", "b"]), ["A", "B"]).as_dict()
        assert server.requests == 1 + 2
    assert (out["score"], out["n_failed"]) == (4.0, 1)


# ------------------------------------------------------------------ cache, replay, batch

def load(name: str, server: JudgeServer, tmp_path: Path, **options):
    return gecscore.load(name, base_url=server.base_url, model="sim", cache=str(tmp_path / "c.sqlite"),
                         max_retries=1, **options)


@pytest.mark.parametrize("name", ["llm_s", "llm_e"])
def test_the_cache_answers_a_rerun_without_calls(tmp_path, name):
    sources, hypotheses = pairs(12)
    simulator = LlmEvalSimulator()
    with JudgeServer(simulator) as server:
        metric = load(name, server, tmp_path)
        first = metric.score(metric.prepare_text(sources), hypotheses)
        calls = server.requests
        metric.close()
        again = load(name, server, tmp_path)
        second = again.score(again.prepare_text(sources), hypotheses)
        again.close()
        assert server.requests == calls
    assert second.as_dict()["judge"]["cache_hits"] == second.as_dict()["judge"]["requests"] == \
        first.as_dict()["judge"]["requests"]
    assert values(first) == values(second)
    if name == "llm_s":
        expected = [simulator.expected(h) for h in hypotheses]
        assert [r["score"] for r in first.records()] == expected


def test_a_replayed_transcript_gives_bit_identical_scores(tmp_path):
    sources, hypotheses = pairs(30)
    transcript = tmp_path / "run.jsonl"
    with JudgeServer(LlmEvalSimulator()) as server:
        metric = load("llm_s", server, tmp_path, transcript=str(transcript))
        live = metric.score(metric.prepare_text(sources), hypotheses)
        metric.close()
    judge = live.as_dict()["judge"]
    assert judge["requests"] > 30 and live.as_dict()["n_failed"] >= 1  # re-asks and a failure happened
    replay = gecscore.load("llm_s", backend="replay", replay=str(transcript))
    again = replay.score(replay.prepare_text(sources), hypotheses)
    replay.close()
    assert again.records() == live.records()  # == on floats: bit for bit
    assert values(again) == values(live) and np.array_equal(again.sentence_stats, live.sentence_stats)
    assert str(again.signature) == str(live.signature)  # the replay names the recorded backend and model


def test_batch_export_import_round_trip(tmp_path):
    sources, hypotheses = pairs(20)
    service = BatchService(LlmEvalSimulator())
    written, imports = [], []
    with JudgeServer(LlmEvalSimulator()) as server:
        for round_ in range(1, 7):
            metric = load("llm_s", server, tmp_path, import_batch=tuple(imports),
                          export_batch=str(tmp_path / f"in{round_}.jsonl"))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an export round answers nothing
                metric.score(metric.prepare_text(sources), hypotheses)
            written.append(metric.judge().exporter.result.written)
            metric.close()
            if not written[-1]:
                break
            service.run(tmp_path / f"in{round_}.jsonl", tmp_path / f"out{round_}.jsonl")
            imports = [str(tmp_path / f"out{round_}.jsonl")]
        assert server.requests == 0
        metric = load("llm_s", server, tmp_path)
        batched = metric.score(metric.prepare_text(sources), hypotheses)
        metric.close()
        assert server.requests == 0  # every answer came from the imported batches
    assert written[0] == 20 and written[-1] == 0 and len(written) >= 3  # re-asks took later rounds
    with JudgeServer(LlmEvalSimulator()) as server:
        metric = gecscore.load("llm_s", base_url=server.base_url, model="sim", cache=str(tmp_path / "live.sqlite"))
        live = metric.score(metric.prepare_text(sources), hypotheses)
        metric.close()
    assert values(batched) == values(live) and batched.records() == live.records()


# ------------------------------------------------------------------ signature and CLI

def test_signature_names_backend_model_and_options(tmp_path):
    with JudgeServer(LlmEvalSimulator()) as server:
        metric = load("llm_s", server, tmp_path, criteria="fluency", temperature=0.0)
        signature = str(metric.signature(metric.prepare_text(["a"])))
        metric.close()
        assert signature.startswith("llm_s|criteria:fluency|min:1|max:5|targets:5|backend:openai|model:sim|temperature:0|"
                                    "top_p:1|max_tokens:256|reasks:3|")
        e = load("llm_e", server, tmp_path, edit_format="list")
        assert str(e.signature(e.prepare_text(["a"]))).startswith("llm_e|edits:list|criteria:none|min:1|max:5|targets:5|"
                                                                  "backend:openai|model:sim|")
        e.close()
    # without model= the openai backend judges with the paper's GPT-4 (no call is made here)
    paper = gecscore.load("llm_s", base_url="http://127.0.0.1:9/v1", no_cache=True)
    assert "|backend:openai|model:gpt-4|" in str(paper.signature(paper.prepare_text(["a"])))
    assert paper.needs() == "judge" and not paper.needs_references
    paper.close()
    assert LlmSConfig().model == LlmEConfig().model == "gpt-4"  # the leaderboard builds the judge from it
    assert LlmSConfig(backend="replay").model is None and LlmSConfig(model="x").model == "x"


@pytest.mark.parametrize("name", ["llm_s", "llm_e"])
def test_cli_json(tmp_path, capsys, name):
    sources, hypotheses = pairs(6)
    src, hyp = tmp_path / "src.txt", tmp_path / "hyp.txt"
    src.write_text("\n".join(sources) + "\n")
    hyp.write_text("\n".join(hypotheses) + "\n")
    with JudgeServer(LlmEvalSimulator()) as server:
        argv = [name, "--src", str(src), "--hyp", str(hyp), "--base-url", server.base_url, "--model", "m",
                "--cache", str(tmp_path / "c.sqlite"), "--json"]
        assert main(argv) == 0
        out = json.loads(capsys.readouterr().out)
        calls = server.requests
        assert main(argv) == 0
        assert json.loads(capsys.readouterr().out)["score"] == out["score"] and server.requests == calls
    assert out["metric"] == name and out["n_sentences"] == 6
    assert "|backend:openai|model:m|" in out["signature"]
    assert out["score"] is None or 1 <= out["score"] <= 5


def test_llm_e_options_reach_the_prompt_and_a_replay(tmp_path):
    # edit_format="list" shows the edits alone; criteria="impact" adds the paper's criterion line.
    transcript = tmp_path / "e.jsonl"
    sources, hypotheses = ["this are a apple .", "I go home ."], ["This is an apple .", "I go home ."]
    script = Script({"this→This are→is a→an": [Reply(answer(2))], "": [Reply('{"target1_score": 1}')]})
    with JudgeServer(script) as server:
        metric = load("llm_e", server, tmp_path, edit_format="list", criteria="impact", transcript=str(transcript))
        live = metric.score(metric.prepare_text(sources), hypotheses)
        metric.close()
        text = server.bodies[0]["messages"][0]["content"]
    assert "[the→a]\nPlease evaluate each edit in the target with a focus on its impact on the sentence.\n\n" \
           "# context\n" in text
    assert (live["score"], live["distribution"]) == (1.5, {"1": 1, "2": 1})
    replay = gecscore.load("llm_e", backend="replay", replay=str(transcript), edit_format="list", criteria="impact")
    again = replay.score(replay.prepare_text(sources), hypotheses)
    replay.close()
    assert again.records() == live.records() and str(again.signature) == str(live.signature)


def test_sentence_scores_of_a_judge_metric_for_meta_evaluation():
    """LLM-S/E give one sentence score each for the sentence-level meta-evaluation; a sentence the
    judge failed is NaN (no preference), not an error."""
    import numpy as np

    from gecscore.metaeval.sentence_level import sentence_scores
    from gecscore.metric import Result, first_column

    records = [{"index": 1, "score": None}, {"index": 0, "score": 4}]
    result = Result("llm_s", "llm_s|...", {"score": 4.0}, np.zeros((2, 1)), first_column, records_of=lambda: records)
    first, second = sentence_scores(result)   # the records' declared field (LlmSMetric.sentence_score_key)
    assert first == 4.0 and second != second   # NaN


# ------------------------------------------------------------------ several targets per prompt

def test_systems_scored_together_share_prompts_by_hand():
    # Three systems on two sources. Source a: outputs A, B, A -> one prompt "A\nB" (A: 4, B: 2).
    # Source b: X, X, X -> one prompt "X" (3). System scores (4+3)/2, (2+3)/2, (4+3)/2.
    script = Script({"A\nB": [Reply(answer(4, 2))], "X": [Reply(answer(3))]})
    with JudgeServer(script) as server:
        metric = LlmSMetric(LlmSConfig(), judge=judge_for(server))
        assert metric.needs_all_systems()
        prepared = metric.prepare_text(["a", "b"])
        results = dict(metric.score_systems(prepared, [("s1", ["A", "X"]), ("s2", ["B", "X"]), ("s3", ["A", "X"])]))
        assert server.requests == 2
    assert [results[n]["score"] for n in ("s1", "s2", "s3")] == [3.5, 2.5, 3.5]
    assert [r["targets"] for r in results["s2"].records()] == [2, 1]
    # the same systems one at a time: one target per prompt, as targets_per_prompt=1 together
    alone = Script({"A": [Reply(answer(5))], "B": [Reply(answer(1))], "X": [Reply(answer(3))]})
    with JudgeServer(alone) as server:
        metric = LlmSMetric(LlmSConfig(), judge=judge_for(server))
        single = metric.score(metric.prepare_text(["a", "b"]), ["B", "X"])
        one = LlmSMetric(LlmSConfig(targets_per_prompt=1), judge=judge_for(server))
        assert not one.needs_all_systems()
        together = dict(one.score_systems(one.prepare_text(["a", "b"]), [("s1", ["A", "X"]), ("s2", ["B", "X"])]))
    assert single["score"] == together["s2"]["score"] == 2.0 and together["s1"]["score"] == 4.0
    assert single.records() == together["s2"].records()


def test_outputs_beyond_the_prompts_targets_are_not_scored_and_a_missing_target_is_reasked():
    # targets_per_prompt=2, four systems with outputs C, B, A, B: B twice, then C (first of the
    # ties) -> the prompt shows "B\nC"; A is not shown. The first answer lacks target 2: re-asked.
    script = Script({"B\nC": [Reply(answer(5)), Reply(answer(5, 2))]})
    with JudgeServer(script) as server:
        metric = LlmSMetric(LlmSConfig(targets_per_prompt=2), judge=judge_for(server))
        prepared = metric.prepare_text(["s"])
        results = dict(metric.score_systems(prepared, [("c", ["C"]), ("b1", ["B"]), ("a", ["A"]), ("b2", ["B"])]))
        assert server.requests == 2
    assert [results[n]["score"] for n in ("c", "b1", "a", "b2")] == [2, 5, None, 5]
    assert (results["a"]["n_unshown"], results["a"]["n_failed"], results["c"]["n_unshown"]) == (1, 0, 0)
    record = results["a"].records()[0]
    assert record["targets"] == 0 and "not shown: 3 distinct outputs" in record["problems"][0]
    assert results["c"].records()[0]["attempts"] == 2 and "no score for target 2" in results["c"].records()[0]["problems"][0]
    assert np.isnan(results["a"].statistic(results["a"].sentence_stats.mean(axis=0)))


def test_llm_e_shows_each_outputs_edits_together():
    sources = ["this are a apple ."]
    shown = "[this→This] [are→is] [a→an] apple .\nthis [are→is] a apple ."
    script = Script({shown: [Reply(answer(5, 3))]})
    with JudgeServer(script) as server:
        metric = LlmEMetric(LlmEConfig(), judge=judge_for(server))
        results = dict(metric.score_systems(metric.prepare_text(sources),
                                            [("good", ["This is an apple ."]), ("half", ["this is a apple ."])]))
    assert (results["good"]["score"], results["half"]["score"]) == (5, 3)
    assert "|targets:5|" in str(results["good"].signature)


def test_the_leaderboard_scores_joint_llm_configurations_together():
    from gecscore.leaderboard.configurations import resolve_configuration
    from gecscore.leaderboard.specs import parse_spec

    def scored_together(spec: str) -> bool:
        return resolve_configuration(parse_spec(spec)).scored_together

    assert scored_together("llm_s") and scored_together("llm_e:criteria=impact")
    assert not scored_together("llm_s:targets_per_prompt=1")


def test_leaderboard_joint_llm_s_with_its_own_judge(tmp_path):
    """A configuration naming its own judge runs without run-wide judge flags, scores the systems
    together (one prompt per source with their distinct outputs) and the run options claim no
    run-wide judge."""
    from tiny_board import SYSTEMS, write_tiny_board
    from gecscore.leaderboard.board import run_leaderboard

    refset, systems = write_tiny_board(tmp_path)
    with JudgeServer(LlmEvalSimulator()) as server:
        spec = f"llm_s:base_url={server.base_url},model=sim,cache={tmp_path / 'c.sqlite'},max_retries=1"
        board = run_leaderboard(refset, systems, [spec], progress=False)
        prompts = [request_subject(body)[2] for body in server.bodies]
    assert not board.unavailable and "judge" not in board.refset_options
    # two sources, three systems with three distinct outputs each: one prompt per source (re-asks aside)
    assert {p for p in prompts} == {"\n".join(sorted({s[i] for s in SYSTEMS.values()})) for i in range(2)}
    assert all(board.scores[name][board.configs[0].name].signature.startswith("llm_s|criteria:none|min:1|max:5|"
                                                                               "targets:5|backend:openai|model:sim|")
               for name in SYSTEMS)
