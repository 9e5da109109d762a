"""DSGram: parsing of judge output, scoring against scripted judges (exact figures worked out
by hand), re-ask bounds and fallbacks, the CLI contract, a killed run resumed from the cache,
the transformers backend, and the human dsgram-eval strings."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datapaths import GEC_DATA, require
from judge_server import (INCONSISTENT, NON_RECIPROCAL, DSGramSimulator, JudgeServer, Reply, matrix_answer,
                          request_kind, request_subject, scores_answer, tiny_causal_lm)
from gecscore.cli import main
from gecscore.judge import Judge, JudgeCache, OpenAIChatBackend, RetryPolicy, Sampling, TransformersBackend
from gecscore.judge.parsing import JudgeOutputError
from gecscore.dsgram.scorer import (FALLBACK_FAILED, FALLBACK_INCONSISTENT, FALLBACK_UNPARSED, WEIGHTS_AHP,
                                     parse_judgment_matrix, parse_sub_scores, result_values, score_dsgram,
                                     sentence_records)
from gecscore.dsgram.config import DsgramConfig

REPO = Path(__file__).resolve().parent.parent
FAST = RetryPolicy(max_retries=2, backoff_s=0.01, max_backoff_s=0.05)

# ------------------------------------------------------------------ parsing


@pytest.mark.parametrize("text, expected", [
    ("semantic coherence: 8, edit level: 8, fluency: 9, overall: 9", (8, 8, 9, 9)),
    ("Semantic Coherence:7 ,EDIT  LEVEL : 6,fluency:10,Overall: 8", (7, 6, 10, 8)),
    ("**Semantic coherence**: 8/10\n**Edit level**: 9/10\n**Fluency**: 7/10", (8, 9, 7, None)),
    ('```json\n[{"reason": "ok", "score": {"semantic coherence": 9, "edit level": "8", "fluency": 7.5, '
     '"overall": 8}, "id": 1}]\n```', (9, 8, 7.5, 8)),
    # The paper's own output example is not valid JSON (no comma after "reason", trailing comma).
    ('[{"original sentence": "a", "score": {"semantic coherence": 6, "edit level": 5, "fluency": 4, '
     '"overall": 5}, "reason": "Explanation." "id": 1,}]', (6, 5, 4, 5)),
    ('{"Semantic_Coherence": 3, "Edit_Level": 2, "Fluency": 1}', (3, 2, 1, None)),
])
def test_sub_scores_parse(text, expected):
    scores = parse_sub_scores(text)
    assert (scores.semantic_coherence, scores.edit_level, scores.fluency, scores.overall) == expected


def test_sub_scores_keep_the_reason():
    assert parse_sub_scores(scores_answer(8, 7, 9, 8, reason="Fixed the verb.")).reason == "Fixed the verb."
    text = '[{"score": {"semantic coherence": 6, "edit level": 5, "fluency": 4}, "reason": "Why." "id": 1,}]'
    assert parse_sub_scores(text).reason == "Why."


@pytest.mark.parametrize("text, problem", [
    ("", "empty output"),
    ("I cannot judge this.", "no sub-scores"),
    ("semantic coherence: 4, edit level: 10, fluency: , overall: 5", "fluency has no number"),
    ("semantic coherence: 11, edit level: 8, fluency: 9", "semantic coherence 11 is outside 1-10"),
    (scores_answer(8, 0, 9, 8), "edit level 0 is outside 1-10"),
    ('{"score": {"semantic coherence": 8, "fluency": 9}}', "edit level is missing"),
    ('[{"score": {"semantic coherence": 8, "edit level": ', "edit level has no number"),
])
def test_sub_scores_reject(text, problem):
    with pytest.raises(JudgeOutputError, match=problem):
        parse_sub_scores(text)


def test_overall_can_be_required():
    with pytest.raises(JudgeOutputError, match="overall is missing"):
        parse_sub_scores("semantic coherence: 8, edit level: 8, fluency: 9", require_overall=True)


@pytest.mark.parametrize("text, expected", [
    ('{"Semantic Coherence":[1,0.333,0.5], "Edit Level":[3,1,1], "Fluency":[2,1,1]}',
     [[1, 0.333, 0.5], [3, 1, 1], [2, 1, 1]]),
    ('Here it is:\n```json\n{"fluency": [2, 1, 1], "edit level": ["3", 1, 1], "semantic coherence": '
     '[1, "1/3", 0.5]}\n```', [[1, 1 / 3, 0.5], [3, 1, 1], [2, 1, 1]]),
    ("[[1, 2, 4], [0.5, 1, 2], [0.25, 0.5, 1]]", [[1, 2, 4], [0.5, 1, 2], [0.25, 0.5, 1]]),
    ('{"matrix": {"Semantic Coherence Weight": [1, 5, 3], "Edit Level Weight": [0.2, 1, 0.5], '
     '"Fluency Weight": [0.333, 2, 1]}}', [[1, 5, 3], [0.2, 1, 0.5], [0.333, 2, 1]]),
    ("Semantic Coherence: [1, 1/3, 2]\nEdit Level: [3, 1, 5]\nFluency: [0.5, 0.2, 1]",
     [[1, 1 / 3, 2], [3, 1, 5], [0.5, 0.2, 1]]),
])
def test_matrix_parse(text, expected):
    assert np.allclose(parse_judgment_matrix(text), expected)


@pytest.mark.parametrize("text, problem", [
    ('{"Semantic Coherence": [1, 2, ', "no 3x3 judgment matrix"),
    ('{"Semantic Coherence": [1, 2], "Edit Level": [1, 1, 1], "Fluency": [1, 1, 1]}', "row 1 .* 3 entries"),
    ('{"Semantic Coherence": [1, 12, 1], "Edit Level": [1, 1, 1], "Fluency": [1, 1, 1]}', "off Saaty"),
    ('{"Semantic Coherence": [1, 0, 1], "Edit Level": [1, 1, 1], "Fluency": [1, 1, 1]}', "off Saaty"),
    ('{"Semantic Coherence": [1, "x", 1], "Edit Level": [1, 1, 1], "Fluency": [1, 1, 1]}', "non-number"),
])
def test_matrix_reject(text, problem):
    with pytest.raises(JudgeOutputError, match=problem):
        parse_judgment_matrix(text)


# ------------------------------------------------------------------ scoring against a script

class Script:
    """Replies per (kind, hypothesis), in order; the last one repeats. Counts requests."""

    def __init__(self, replies: dict[tuple[str, str], list[Reply]]):
        self.replies = replies
        self.count: Counter = Counter()
        self.lock = threading.Lock()

    def __call__(self, body: dict) -> Reply:
        key = (request_kind(body), request_subject(body)[1])
        with self.lock:
            self.count[key] += 1
            n = self.count[key]
        replies = self.replies[key]
        return replies[min(n, len(replies)) - 1]


def judge_for(server, cache=None, timeout=5.0) -> Judge:
    return Judge(OpenAIChatBackend("m", server.base_url, timeout=timeout), cache, concurrency=4, retry=FAST,
                 progress=False)


def ok(text: str) -> list[Reply]:
    return [Reply(text)]


W_HALF = [[1, 2, 2], [0.5, 1, 1], [0.5, 1, 1]]  # consistent, w = (1/2, 1/4, 1/4)


def test_scores_weights_and_fallbacks_by_hand():
    # A: scores (8, 6, 9), consistent matrix w = (1/2, 1/4, 1/4): 4 + 1.5 + 2.25 = 7.75.
    # B: scores (6, 8, 10), matrix inconsistent on all 4 asks: equal weights, 24 / 3 = 8.
    # C: sub-scores malformed on all 4 asks: failed, left out of the means.
    # D: scores out of range (12) first, then (4, 6, 8); matrix malformed first, then the
    #    non-reciprocal one repaired to [[1, 1, 2], [1, 1, 2], [1/2, 1/2, 1]] (consistent),
    #    w = (2/5, 2/5, 1/5): 1.6 + 2.4 + 1.6 = 5.6.
    # System: (7.75 + 8 + 5.6) / 3 = 7.116667; SC (8 + 6 + 4) / 3 = 6, EL 20/3, F 9.
    # Mean weights over A, B, D: SC (1/2 + 1/3 + 2/5) / 3 = 0.411111, EL (1/4 + 1/3 + 2/5) / 3
    # = 0.327778, F (1/4 + 1/3 + 1/5) / 3 = 0.261111.
    # Requests: A 1 + 1, B 1 + 4, C 4 + 1, D 2 + 2 = 16.
    script = Script({
        ("scores", "A"): ok(scores_answer(8, 6, 9, 8)), ("matrix", "A"): ok(matrix_answer(W_HALF)),
        ("scores", "B"): ok(scores_answer(6, 8, 10, 7)), ("matrix", "B"): ok(matrix_answer(INCONSISTENT)),
        ("scores", "C"): ok('{"score": oops'), ("matrix", "C"): ok(matrix_answer(W_HALF)),
        ("scores", "D"): [Reply(scores_answer(12, 6, 8, 5)), Reply(scores_answer(4, 6, 8, 5))],
        ("matrix", "D"): [Reply('{"Semantic Coherence": [1, 2, '), Reply(matrix_answer(NON_RECIPROCAL))],
    })
    with JudgeServer(script) as server:
        judge = judge_for(server)
        result = score_dsgram(["a", "b", "c", "d"], ["A", "B", "C", "D"], judge)
        assert server.requests == 16
    out = result_values(result)
    assert out["score"] == pytest.approx((7.75 + 8 + 5.6) / 3)
    assert (out["semantic_coherence"], out["edit_level"], out["fluency"]) == pytest.approx((6, 20 / 3, 9))
    assert out["weights"] == pytest.approx({"semantic_coherence": 0.411111, "edit_level": 0.327778,
                                            "fluency": 0.261111}, abs=1e-6)
    assert (out["n_inconsistent"], out["n_failed"], out["n_weights_fallback"]) == (1, 1, 1)
    assert out["n_reciprocity_repaired"] == 1
    assert out["overall"] == pytest.approx((8 + 7 + 5) / 3)
    records = sentence_records(result)
    assert [r["weight_source"] for r in records] == [WEIGHTS_AHP, FALLBACK_INCONSISTENT, WEIGHTS_AHP, WEIGHTS_AHP]
    assert [r["score"] for r in records] == pytest.approx([7.75, 8.0, None, 5.6])
    assert [(r["score_attempts"], r["matrix_attempts"]) for r in records] == [(1, 1), (1, 4), (4, 1), (2, 2)]
    assert records[1]["cr"] == pytest.approx(0.187381, abs=1e-6)
    assert np.allclose(records[3]["matrix"], [[1, 1, 2], [1, 1, 2], [0.5, 0.5, 1]])
    assert records[3]["weights"] == pytest.approx({"semantic_coherence": 0.4, "edit_level": 0.4, "fluency": 0.2})
    assert "outside 1-10" in records[3]["problems"][0]
    assert signature_of(judge).startswith("dsgram|weights:dynamic|backend:openai|model:m|temperature:0.6|top_p:0.7|")


def signature_of(judge, config: DsgramConfig = DsgramConfig()) -> str:
    """The signature the metric seam gives DSGram with this judge and config."""
    from gecscore.dsgram.metric import DsgramMetric

    metric = DsgramMetric(config, judge=judge)
    return str(metric.signature(metric.prepare_text(["a"])))


def test_equal_weights_ask_no_matrix():
    # (8 + 6 + 9) / 3 = 7.666667 and (6 + 8 + 10) / 3 = 8: mean 7.833333.
    script = Script({("scores", "A"): ok(scores_answer(8, 6, 9, 8)), ("scores", "B"): ok(scores_answer(6, 8, 10, 7))})
    with JudgeServer(script) as server:
        judge = judge_for(server)
        result = score_dsgram(["a", "b"], ["A", "B"], judge, DsgramConfig(weights="equal"))
        out = result_values(result)
        assert server.requests == 2
    assert out["score"] == pytest.approx((23 / 3 + 8) / 2)
    assert out["weights"] == pytest.approx({k: 1 / 3 for k in ("semantic_coherence", "edit_level", "fluency")})
    assert out["n_inconsistent"] == 0 and "weights:equal" in signature_of(judge, DsgramConfig(weights="equal"))


def test_judge_counts_are_per_run_with_a_shared_judge():
    script = Script({("scores", "A"): ok(scores_answer(8, 6, 9, 8)), ("matrix", "A"): ok(matrix_answer(W_HALF))})
    with JudgeServer(script) as server:
        judge = judge_for(server, JudgeCache(":memory:"))
        first = result_values(score_dsgram(["a"], ["A"], judge))["judge"]
        second = result_values(score_dsgram(["a"], ["A"], judge))["judge"]
        assert server.requests == 2
    assert (first["requests"], first["answered"], first["cache_hits"]) == (2, 2, 0)
    assert (second["requests"], second["answered"], second["cache_hits"]) == (2, 0, 2)
    assert judge.stats.requests == 4


def test_reasks_are_bounded():
    script = Script({("scores", "A"): ok("no idea"), ("matrix", "A"): ok("no idea either")})
    with JudgeServer(script) as server:
        result = score_dsgram(["a"], ["A"], judge_for(server), DsgramConfig(max_reasks=1))
        assert server.requests == 4
    out = result_values(result)
    assert out["score"] is None and out["n_failed"] == 1 and out["n_inconsistent"] == 0
    assert result.sentences[0].weight_source == FALLBACK_UNPARSED


def test_transport_failures_are_counted_not_reasked():
    # A's sub-score requests time out (0.6 s > 0.2 s, 1 + 2 tries); its matrix gets HTTP 500 on
    # every try. B is fine: the run finishes with B alone.
    script = Script({
        ("scores", "A"): [Reply(scores_answer(8, 8, 8, 8), delay=0.6)], ("matrix", "A"): [Reply("down", status=500)],
        ("scores", "B"): ok(scores_answer(5, 5, 5, 5)), ("matrix", "B"): ok(matrix_answer(W_HALF)),
    })
    with JudgeServer(script) as server:
        judge = judge_for(server, timeout=0.2)
        result = score_dsgram(["a", "b"], ["A", "B"], judge)
        assert server.requests == 3 + 3 + 2
    out = result_values(result)
    assert out["score"] == 5.0 and out["n_failed"] == 1
    assert out["judge"]["failures"] == {"HTTP 500": 1, "timeout": 1}
    assert result.sentences[0].weight_source == FALLBACK_FAILED


def test_bad_input_is_rejected():
    with pytest.raises(ValueError, match="weights: unknown value 'static'"):
        score_dsgram(["a"], ["A"], None, DsgramConfig(weights="static"))
    with pytest.raises(ValueError, match="1 sources but 2 predictions"):
        score_dsgram(["a"], ["A", "B"], None)
    with pytest.raises(ValueError, match=r"sources\[1\]"):
        score_dsgram(["a", " "], ["A", "B"], None)


# ------------------------------------------------------------------ CLI

def write_pairs(tmp_path: Path, n: int) -> tuple[Path, Path]:
    src, hyp = tmp_path / "src.txt", tmp_path / "hyp.txt"
    src.write_text("".join(f"this are sentence {i} with a error .\n" for i in range(n)))
    hyp.write_text("".join(f"This is sentence {i} with an error .\n" for i in range(n)))
    return src, hyp


def test_cli_json_contract_and_per_sentence(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("JUDGE_KEY", "sk-cli-secret")
    src, hyp = write_pairs(tmp_path, 12)
    cache, per = tmp_path / "cache.sqlite", tmp_path / "per.jsonl"
    simulator = DSGramSimulator()
    with JudgeServer(simulator) as server:
        argv = ["dsgram", "--src", str(src), "--hyp", str(hyp), "--base-url", server.base_url, "--model", "sim",
                "--cache", str(cache), "--api-key-env", "JUDGE_KEY", "--json", "--per-sentence", str(per)]
        assert main(argv) == 0
        first = json.loads(capsys.readouterr().out)
        requests = server.requests
        assert main(argv) == 0
        second = json.loads(capsys.readouterr().out)
        assert server.requests == requests  # all from the cache
    for key in ("metric", "signature", "score", "semantic_coherence", "edit_level", "fluency", "weights",
                "n_inconsistent", "n_failed"):
        assert key in first
    assert first["metric"] == "dsgram" and first["n_sentences"] == 12
    assert second["judge"]["cache_hits"] == second["judge"]["requests"] and second["judge"]["answered"] == 0
    assert {k: v for k, v in first.items() if k != "judge"} == {k: v for k, v in second.items() if k != "judge"}
    records = [json.loads(line) for line in per.read_text().splitlines()]
    expected = [simulator.expected_scores(line) for line in hyp.read_text().splitlines()]
    assert [(r["semantic_coherence"], r["edit_level"], r["fluency"], r["overall"]) for r in records] == expected
    assert first["semantic_coherence"] == pytest.approx(sum(e[0] for e in expected) / 12)
    for file in tmp_path.iterdir():
        assert b"sk-cli-secret" not in file.read_bytes()


def test_cli_reports_setup_errors(tmp_path, capsys):
    src, hyp = write_pairs(tmp_path, 2)
    with JudgeServer(lambda body: Reply("invalid key", status=401)) as server:
        rc = main(["dsgram", "--src", str(src), "--hyp", str(hyp), "--base-url", server.base_url, "--no-cache"])
    assert rc == 2 and "401" in capsys.readouterr().err
    (tmp_path / "short.txt").write_text("one\n")
    assert main(["dsgram", "--src", str(src), "--hyp", str(tmp_path / "short.txt"), "--no-cache",
                 "--base-url", "http://127.0.0.1:9/v1"]) == 2
    assert "1 lines but the source has 2" in capsys.readouterr().err


def cache_rows(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]


def test_killed_run_resumes_from_the_cache(tmp_path):
    # Kill the CLI midway (SIGKILL); every answer committed before the kill is served from the
    # cache on the rerun, which asks the server only for the rest.
    src, hyp = write_pairs(tmp_path, 40)
    cache = tmp_path / "cache.sqlite"
    with JudgeServer(DSGramSimulator(latency=0.05)) as server:
        command = [sys.executable, "-c", "import sys; from gecscore.cli import main; sys.exit(main())",
                   "dsgram", "--src", str(src), "--hyp", str(hyp),
                   "--base-url", server.base_url, "--model", "sim", "--cache", str(cache),
                   "--concurrency", "2", "--json"]
        env = {**os.environ, "OPENAI_API_KEY": ""}
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        deadline = time.time() + 60
        while server.requests < 30 and process.poll() is None and time.time() < deadline:
            time.sleep(0.01)
        assert process.poll() is None, "the run ended before it could be killed"
        process.send_signal(signal.SIGKILL)
        process.wait()
        killed_at = server.requests
        finished = cache_rows(cache)
        assert 0 < finished <= killed_at
        rerun = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
        assert rerun.returncode == 0, rerun.stderr
        stats = json.loads(rerun.stdout)["judge"]
        assert stats["cache_hits"] == finished
        assert server.requests - killed_at == stats["calls"]
        assert stats["answered"] + finished == cache_rows(cache)
        again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
        assert json.loads(again.stdout)["judge"]["answered"] == 0
        assert json.loads(again.stdout)["score"] == json.loads(rerun.stdout)["score"]


# ------------------------------------------------------------------ transformers backend

def test_dsgram_with_a_tiny_local_model(tmp_path):
    # The tiny model's vocabulary has no sub-metric names and no brackets: every answer is
    # unusable, so each sentence is asked 1 + 1 times for each kind, then counted as failed.
    model, tokenizer = tiny_causal_lm()
    backend = TransformersBackend(model, tokenizer, model_id="tiny-llama", device="cpu", batch_size=8)
    judge = Judge(backend, JudgeCache(tmp_path / "t.sqlite"), progress=False)
    result = score_dsgram(["He go home .", "She like it ."], ["He goes home .", "She likes it ."], judge,
                          DsgramConfig(max_tokens=6, max_reasks=1))
    out = result_values(result)
    assert out["n_failed"] == 2 and out["score"] is None and out["n_weights_fallback"] == 2
    assert out["judge"]["answered"] == 8 and out["judge"]["failed"] == 0
    assert "backend:transformers|model:tiny-llama" in signature_of(judge, DsgramConfig(max_tokens=6, max_reasks=1))


# ------------------------------------------------------------------ the human strings

@pytest.mark.realdata
def test_human_dsgram_eval_strings_parse():
    folder = require(GEC_DATA / "dsgram-eval")
    rows = [row for i in (1, 2, 3) for row in json.loads((folder / f"gec_human_eval_test_{i}.json").read_text())]
    problems = []
    for row in rows:
        try:
            parse_sub_scores(row["output"], require_overall=True)
        except JudgeOutputError as error:
            problems.append(str(error))
    assert len(rows) == 303
    assert problems == ["fluency has no number (got '')"]


def test_a_python_caller_is_told_when_the_judge_failed():
    """Through gecscore.load (and so evaluate), a judge that fails every call gives None scores
    and a JudgeShortfallWarning with the count, as the CLI's exit status 3 does; a partial
    failure warns with its count too."""
    from gecscore.dsgram.metric import DsgramMetric
    from gecscore.errors import JudgeShortfallWarning

    down = Script({(kind, text): [Reply("down", status=500)] for kind in ("scores", "matrix") for text in "AB"})
    with JudgeServer(down) as server:
        metric = DsgramMetric(DsgramConfig(), judge=judge_for(server))
        with pytest.warns(JudgeShortfallWarning, match="failed on 2 of 2 sentences; no sentence has a score"):
            result = metric.compute(["a", "b"], ["A", "B"])
    assert result.score is None
    half = Script({("scores", "A"): [Reply("down", status=500)], ("matrix", "A"): [Reply("down", status=500)],
                   ("scores", "B"): ok(scores_answer(5, 5, 5, 5)), ("matrix", "B"): ok(matrix_answer(W_HALF))})
    with JudgeServer(half) as server:
        metric = DsgramMetric(DsgramConfig(), judge=judge_for(server))
        with pytest.warns(JudgeShortfallWarning, match="failed on 1 of 2 sentences; the scores are means"):
            assert metric.compute(["a", "b"], ["A", "B"]).score == 5.0
