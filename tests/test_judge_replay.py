"""Transcripts and the replay backend: a replayed DSGram run is bit-identical to the run that
wrote the transcript (failures included), a request the file cannot answer stops the run
naming it, and the published DSGram-Eval answer files (their JSON shape, built here) answer
sub-score requests by sentence pair."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge_server import DSGramSimulator, JudgeServer, Reply
from gecscore.dsgram import scorer as dsgram
from gecscore.dsgram.scorer import score_dsgram, sentence_records
from gecscore.dsgram.config import DsgramConfig
from gecscore.errors import GecInputError
from gecscore.judge import (Judge, JudgeCache, JudgeConfigError, JudgeRequest, ReplayBackend, ReplayMissError,
                            Sampling, build_judge)
from gecscore.judge.prompts import matrix_messages, sub_score_messages


from test_judge_batch import judge_from_cli, lines, pairs, values


class WithOutage(DSGramSimulator):
    """The simulator, except that one hypothesis's matrix requests always get HTTP 500."""

    def __init__(self, down: str):
        super().__init__()
        self.down = down

    def reply(self, kind, subject, nth):
        if kind == "matrix" and subject[1] == self.down:
            return Reply("down", status=500)
        return super().reply(kind, subject, nth)


def live_run(tmp_path: Path, sources, hypotheses, **options):
    with JudgeServer(WithOutage(hypotheses[min(3, len(hypotheses) - 1)])) as server:
        judge = build_judge("openai", "sim", base_url=server.base_url, cache=tmp_path / "c.sqlite",
                            max_retries=1, backoff_s=0.01, progress=False, **options)
        with judge:
            return score_dsgram(sources, hypotheses, judge), judge


def test_replay_of_a_transcript_is_bit_identical(tmp_path):
    sources, hypotheses = pairs(30)
    transcript = tmp_path / "run.jsonl"
    live, judge = live_run(tmp_path, sources, hypotheses, transcript=transcript)
    assert live.judge["failures"] == {"HTTP 500": 1} and live.judge["answered"] > 60  # re-asks happened
    recorded = lines(transcript)
    assert len(recorded) == live.judge["requests"] and judge.transcript.lines == len(recorded)
    assert {(line["backend"], line["model"]) for line in recorded} == {("openai", "sim")}
    with build_judge("replay", replay=transcript, progress=False) as replay:
        assert replay.cache is None and replay.name == "replay of openai:sim from run.jsonl"
        again = score_dsgram(sources, hypotheses, replay)
        # the replay names the recorded backend and model: the signature is the live run's
        assert (replay.backend.name, replay.backend.model) == ("openai", "sim")
    assert sentence_records(again) == sentence_records(live)  # == on floats: bit for bit
    assert values(again) == values(live)
    assert again.judge["failures"] == {"HTTP 500": 1}
    assert sentence_records(again)[3]["weight_source"] == dsgram.FALLBACK_FAILED


def test_cache_hits_are_recorded_and_a_rerun_transcript_replays_the_same(tmp_path):
    sources, hypotheses = pairs(6)
    first, _ = live_run(tmp_path, sources, hypotheses, transcript=tmp_path / "first.jsonl")
    second, judge = live_run(tmp_path, sources, hypotheses, transcript=tmp_path / "second.jsonl")
    assert judge.stats.cache_hits > 0
    strip = lambda path: sorted((line["key"], line["answer"]) for line in lines(path))
    # the rerun's transcript holds the same answers (the failed request is asked again: still 500)
    assert strip(tmp_path / "second.jsonl") == strip(tmp_path / "first.jsonl")
    with build_judge("replay", replay=tmp_path / "second.jsonl", progress=False) as replay:
        assert sentence_records(score_dsgram(sources, hypotheses, replay)) == sentence_records(second)
    assert values(second) == values(first)


def test_a_later_answer_replaces_a_recorded_failure(tmp_path):
    request = JudgeRequest.of([("user", "q")])
    state = {"n": 0}

    def flaky(body):
        state["n"] += 1
        return Reply("down", status=500) if state["n"] == 1 else Reply("up")

    with JudgeServer(flaky) as server:
        with build_judge("openai", "m", base_url=server.base_url, no_cache=True, max_retries=0,
                         transcript=tmp_path / "t.jsonl", progress=False) as judge:
            assert not judge.ask([request])[0].ok and judge.ask([request])[0].text == "up"
    assert [line["answer"] for line in lines(tmp_path / "t.jsonl")] == [None, "up"]
    assert ReplayBackend(tmp_path / "t.jsonl").complete(request) == "up"


def test_a_request_the_transcript_lacks_stops_the_run_naming_it(tmp_path):
    sources, hypotheses = pairs(4)
    live_run(tmp_path, sources, hypotheses, transcript=tmp_path / "run.jsonl")
    with build_judge("replay", replay=tmp_path / "run.jsonl", progress=False) as replay:
        with pytest.raises(ReplayMissError, match=r"has no answer for the (sub-score|judgment-matrix) request "
                                                  r"for 'other source' -> 'other hypothesis' \(attempt 0"):
            score_dsgram([*sources, "other source"], [*hypotheses, "other hypothesis"], replay)
        with pytest.raises(JudgeConfigError, match="temperature 0.2"):  # other settings, other requests
            score_dsgram(sources, hypotheses, replay, DsgramConfig(temperature=0.2))
    with pytest.raises(GecInputError, match="recorded with model 'sim', not 'gpt-4o'"):
        build_judge("replay", "gpt-4o", replay=tmp_path / "run.jsonl")


def test_replay_options_are_checked(tmp_path):
    with pytest.raises(GecInputError, match="needs replay="):
        build_judge("replay")
    with pytest.raises(GecInputError, match="needs backend='replay'"):
        build_judge("openai", base_url="http://127.0.0.1:9/v1", no_cache=True, replay=tmp_path / "x.jsonl")
    with pytest.raises(GecInputError, match="replay file not found"):
        build_judge("replay", replay=tmp_path / "missing.jsonl")
    (tmp_path / "ft.json").write_text('{"label": "semantic coherence: 8", "predict": "semantic coherence: 9"}\n')
    with pytest.raises(GecInputError, match="carry no inputs"):
        build_judge("replay", replay=tmp_path / "ft.json")
    (tmp_path / "junk.jsonl").write_text('{"a": 1}\n')
    with pytest.raises(GecInputError, match="neither a judge transcript line"):
        build_judge("replay", replay=tmp_path / "junk.jsonl")


# ------------------------------------------------------------------ DSGram-Eval answer files

def published(tmp_path: Path, rows: list[tuple[str, str, str]]) -> Path:
    """A file in the shape of dsgram-eval/results/gec_gpt4_eval_test.json."""
    path = tmp_path / "gec_gpt4_eval_test.json"
    path.write_text(json.dumps([{"input": f"original sentence: {s}, corrected sentence: {h}", "output": out,
                                 "id": i + 1, "instruction": "You're a meticulous ..."}
                                for i, (s, h, out) in enumerate(rows)], indent=1))
    return path


def test_published_answers_serve_sub_score_requests_by_pair(tmp_path):
    path = published(tmp_path, [
        ("He go home .", "He goes home .", "semantic coherence: 9, edit level: 10, fluency: 9, overall: 9"),
        ("4:they have it", "Fourth, they have it.", "semantic coherence: 7, edit level:6, fluency: 8,overall: 7"),
        ("She like it .", "She likes it .", "I think it is good."),
    ])
    sources = ["He go home .", "4:they have it", "She like it ."]
    hypotheses = ["He goes home .", "Fourth , they have it .", "She likes it ."]  # 2nd: other spacing
    with build_judge("replay", "gpt-4", replay=path, progress=False) as judge:
        assert (judge.backend.name, judge.backend.model) == ("dsgram-eval", "gpt-4")
        result = score_dsgram(sources, hypotheses, judge, DsgramConfig(weights="equal"))
        with pytest.raises(ReplayMissError, match="sub-score answers only .*judgment-matrix request"):
            score_dsgram(sources[:1], hypotheses[:1], judge)
        with pytest.raises(ReplayMissError, match="no answer for the sub-score request for 'x' -> 'y'"):
            score_dsgram(["x"], ["y"], judge, DsgramConfig(weights="equal"))
    records = sentence_records(result)
    assert [(r["semantic_coherence"], r["edit_level"], r["fluency"], r["overall"]) for r in records[:2]] == \
        [(9, 10, 9, 9), (7, 6, 8, 7)]
    # the unreadable answer is re-asked; the file has no second answer: that sentence fails alone
    assert records[2]["score"] is None and records[2]["score_attempts"] == 2
    assert "no re-ask" in records[2]["problems"][-1]


def test_published_file_default_model_and_ambiguous_pairs(tmp_path):
    path = published(tmp_path, [("a b", "c d", "semantic coherence: 1, edit level: 1, fluency: 1"),
                                ("a  b", "c d", "semantic coherence: 2, edit level: 2, fluency: 2")])
    backend = ReplayBackend(path)
    assert backend.model == "gec_gpt4_eval_test"
    exact = JudgeRequest.of(sub_score_messages("a b", "c d"))
    assert backend.complete(exact).startswith("semantic coherence: 1")
    with pytest.raises(ReplayMissError, match="several different answers"):
        backend.complete(JudgeRequest.of(sub_score_messages("ab", "cd")))
    with pytest.raises(ReplayMissError, match="judgment-matrix"):
        backend.complete(JudgeRequest.of(matrix_messages("a b", "c d")))


def test_cli_replay_flags(tmp_path):
    sources, hypotheses = pairs(3)
    live, _ = live_run(tmp_path, sources, hypotheses, transcript=tmp_path / "run.jsonl")
    judge = judge_from_cli(["--backend", "replay", "--replay", str(tmp_path / "run.jsonl")])
    assert isinstance(judge, Judge) and isinstance(judge.backend, ReplayBackend)
    with judge:
        assert sentence_records(score_dsgram(sources, hypotheses, judge)) == sentence_records(live)


def test_replay_in_a_judge_with_a_cache_stores_under_the_recorded_judge(tmp_path):
    # Library users may give a replay judge a cache: the answers are the recorded judge's, so
    # they go under its keys, and a later live run of that judge finds them.
    sources, hypotheses = pairs(2)
    live_run(tmp_path, sources, hypotheses, transcript=tmp_path / "run.jsonl")
    cache = JudgeCache(tmp_path / "other.sqlite")
    with Judge(ReplayBackend(tmp_path / "run.jsonl"), cache, progress=False) as judge:
        score_dsgram(sources, hypotheses, judge)
    request = JudgeRequest.of(sub_score_messages(sources[0], hypotheses[0]))
    assert JudgeCache(tmp_path / "other.sqlite").get(request.cache_key("openai", "sim")) is not None
