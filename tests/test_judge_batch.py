"""OpenAI Batch API round trips: the export file's shape, import into the judge cache, a rerun
that makes no HTTP call, per-request errors that the next export retries, DSGram's re-asks in
later rounds, file splitting, and the CLI flags. The provider is emulated by
``judge_server.BatchService``; live calls go to the local ``JudgeServer``, which counts them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from datapaths import example_corpus
from judge_server import BatchService, DSGramSimulator, JudgeServer, Reply, request_kind
from gecscore.dsgram import scorer as dsgram
from gecscore.dsgram.scorer import score_dsgram, sentence_records
from gecscore.errors import GecInputError
from gecscore.judge import (JudgeCache, JudgeRequest, OpenAIChatBackend, RetryPolicy, Sampling, build_judge,
                            export_batch, import_batch, validate_batch_file)
from gecscore.judge.batch import BATCH_EXPORTED, check_batch_line

FAST = RetryPolicy(max_retries=2, backoff_s=0.01, max_backoff_s=0.05)


def pairs(n: int) -> tuple[list[str], list[str]]:
    return ([f"this are sentence {i} with a error ." for i in range(n)],
            [f"This is sentence {i} with an error ." for i in range(n)])


def values(result) -> dict:
    """The result's contract values without the judge's counts (which describe the run)."""
    return {key: value for key, value in dsgram.result_values(result).items() if key != "judge"}


def judge_from_cli(argv: list[str]):
    """The judge ``gecscore dsgram`` builds from these judge flags (the real parser and config)."""
    from gecscore.cli import build_parser
    from gecscore.cli.options import config_from_args
    from gecscore.dsgram.metric import DsgramConfig

    args = build_parser().parse_args(["dsgram", "--src", "SRC", "--hyp", "HYP", *argv])
    config = config_from_args(DsgramConfig, args)
    from gecscore.judge.factory import judge_from_options

    return judge_from_options(config, config.model, config.device, config.batch_size, progress=False)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def judge(server: JudgeServer, cache: Path, **options):
    return build_judge("openai", "judge-model", base_url=server.base_url, cache=cache, progress=False,
                       max_retries=FAST.max_retries, backoff_s=FAST.backoff_s, **options)


def dsgram_run(server, cache, sources, hypotheses, **options):
    with judge(server, cache, **options) as j:
        result = score_dsgram(sources, hypotheses, j)
        return result, j


# ------------------------------------------------------------------ export

def test_export_writes_batch_api_lines_and_calls_nothing(tmp_path):
    sources, hypotheses, _ = example_corpus()
    with JudgeServer(DSGramSimulator()) as server:
        result, j = dsgram_run(server, tmp_path / "c.sqlite", sources, hypotheses,
                               export_batch=tmp_path / "in.jsonl")
        assert server.requests == 0
    assert validate_batch_file(tmp_path / "in.jsonl") == []
    exported = lines(tmp_path / "in.jsonl")
    assert len(exported) == 2 * len(sources) == j.exporter.result.written
    assert all(s.failed for s in result.sentences)
    assert result.judge["failures"] == {BATCH_EXPORTED: 2 * len(sources)} and result.judge["calls"] == 0
    backend = OpenAIChatBackend("judge-model", "http://unused/v1")
    requests = {r.cache_key("openai", "judge-model"): r for r in _dsgram_requests(sources, hypotheses)}
    for line in exported:  # custom_id is the cache key, the body is the live call's body
        assert line["method"] == "POST" and line["url"] == "/v1/chat/completions"
        assert line["body"] == backend.body(requests[line["custom_id"]])
    assert "written to" in j.summary() and "import_batch=" in j.summary()


def _dsgram_requests(sources, hypotheses):
    from gecscore.judge.prompts import matrix_messages, sub_score_messages

    return [JudgeRequest.of(make(s, h)) for s, h in zip(sources, hypotheses)
            for make in (sub_score_messages, matrix_messages)]


def test_export_skips_cached_and_repeated_requests(tmp_path):
    cache = JudgeCache(tmp_path / "c.sqlite")
    requests = [JudgeRequest.of([("user", f"q{i}")], Sampling(0.1, 1.0, 16)) for i in range(4)]
    cache.put(requests[0].cache_key("openai", "m"), "openai", "m", requests[0], "cached answer")
    done = export_batch([*requests, requests[1]], tmp_path / "in.jsonl", model="m", cache=cache)
    assert (done.written, done.cached, done.duplicates) == (3, 1, 1)
    assert [line["custom_id"] for line in lines(tmp_path / "in.jsonl")] == \
        [r.cache_key("openai", "m") for r in requests[1:]]
    assert cache.pending_count() == 3
    line = lines(tmp_path / "in.jsonl")[0]
    assert (line["body"]["temperature"], line["body"]["top_p"], line["body"]["max_tokens"]) == (0.1, 1.0, 16)
    nothing = export_batch(requests[:1], tmp_path / "none.jsonl", model="m", cache=cache)
    assert nothing.written == 0 and not (tmp_path / "none.jsonl").exists()
    assert "no request to export" in nothing.summary()


def test_export_splits_files_at_the_limits(tmp_path):
    requests = [JudgeRequest.of([("user", f"question {i}")]) for i in range(7)]
    done = export_batch(requests, tmp_path / "in.jsonl", model="m", cache=None, max_requests=3)
    assert [p.name for p in done.paths] == ["in.jsonl", "in.part2.jsonl", "in.part3.jsonl"]
    assert [len(lines(p)) for p in done.paths] == [3, 3, 1]
    assert all(validate_batch_file(p, max_requests=3) == [] for p in done.paths)
    size = len((json.dumps(lines(done.paths[0])[0]) + "\n").encode())
    by_size = export_batch(requests, tmp_path / "b.jsonl", model="m", cache=None, max_bytes=2 * size + 10)
    assert [len(lines(p)) for p in by_size.paths] == [2, 2, 2, 1]


GOOD = {"custom_id": "k1", "method": "POST", "url": "/v1/chat/completions",
        "body": {"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.6,
                 "top_p": 0.7, "max_tokens": 512}}


@pytest.mark.parametrize("change, problem", [
    ({"method": "GET"}, "method must be 'POST'"),
    ({"url": "/v1/completions"}, "url must be '/v1/chat/completions'"),
    ({"custom_id": ""}, "custom_id must be a non-empty string"),
    ({"extra": 1}, "unexpected ['extra']"),
    ({"body": {"model": "m", "messages": []}}, "body.messages must be a non-empty list"),
    ({"body": {"model": "m", "messages": [{"role": "judge", "content": "x"}]}}, "body.messages[0]"),
    ({"body": {**GOOD["body"], "temperature": 3}}, "body.temperature"),
    ({"body": {**GOOD["body"], "max_tokens": 0}}, "body.max_tokens"),
    ({"body": {**GOOD["body"], "stream": True}}, "stream is not allowed"),
    ({"body": {"messages": GOOD["body"]["messages"]}}, "body.model"),
])
def test_validator_names_what_is_wrong(change, problem):
    assert check_batch_line(GOOD) == []
    assert any(problem in p for p in check_batch_line({**GOOD, **change}))


def test_validator_checks_the_file_as_a_whole(tmp_path):
    path = tmp_path / "in.jsonl"
    other = {**GOOD, "custom_id": "k2", "body": {**GOOD["body"], "model": "other"}}
    path.write_text("\n".join([json.dumps(GOOD), json.dumps(GOOD), json.dumps(other), "{not json"]) + "\n")
    problems = "\n".join(validate_batch_file(path, max_requests=3))
    assert "custom_id 'k1' repeats line 1" in problems and "name 2 models" in problems
    assert ":4: not JSON" in problems and "4 requests, over the 3-request limit" in problems
    (tmp_path / "empty.jsonl").write_text("")
    assert validate_batch_file(tmp_path / "empty.jsonl") == [f"{tmp_path / 'empty.jsonl'}: empty file"]


# ------------------------------------------------------------------ round trips

def test_dsgram_round_trip_needs_no_http_call_and_matches_a_live_run(tmp_path):
    # DSGramSimulator: some sentences first get malformed or out-of-range sub-scores, a 500,
    # inconsistent or malformed matrices; a re-ask (attempt 1) can only be exported once the
    # first answers are imported, so the batch takes rounds until an export writes nothing.
    sources, hypotheses = pairs(30)
    cache = tmp_path / "c.sqlite"
    service = BatchService(DSGramSimulator())
    written, imports = [], []
    with JudgeServer(DSGramSimulator()) as server:
        for round_ in range(1, 6):
            _, j = dsgram_run(server, cache, sources, hypotheses, import_batch=imports,
                              export_batch=tmp_path / f"in{round_}.jsonl")
            written.append(j.exporter.result.written)
            if not written[-1]:
                break
            service.run(tmp_path / f"in{round_}.jsonl", tmp_path / f"out{round_}.jsonl")
            imports = [tmp_path / f"out{round_}.jsonl"]
        assert server.requests == 0
        batched, j = dsgram_run(server, cache, sources, hypotheses)
        assert server.requests == 0  # every answer came from the imported batches
        assert j.stats.cache_hits == j.stats.requests and j.stats.calls == 0
    assert written[0] == 60 and len(written) >= 3 and written[-1] == 0
    assert _failed_in_batch(tmp_path) >= 1  # an HTTP 500 in the batch, retried by the next round
    assert service.requests == sum(written) == len(JudgeCache(cache)) + _failed_in_batch(tmp_path)
    with JudgeServer(DSGramSimulator()) as server:
        live, _ = dsgram_run(server, tmp_path / "live.sqlite", sources, hypotheses)
    assert values(batched) == values(live)
    assert sentence_records(batched) == sentence_records(live)


def _failed_in_batch(folder: Path) -> int:
    return sum(line["response"]["status_code"] != 200 for path in folder.glob("out*.jsonl") for line in lines(path))


def test_import_reports_failures_per_request_and_the_next_export_retries_them(tmp_path):
    requests = [JudgeRequest.of([("user", f"q{i}")], Sampling(0.1, 1.0, 16)) for i in range(6)]
    keys = [r.cache_key("openai", "m") for r in requests]
    cache = JudgeCache(tmp_path / "c.sqlite")
    export_batch(requests, tmp_path / "in.jsonl", model="m", cache=cache)

    def respond(body):
        text = body["messages"][-1]["content"]
        return {"q1": Reply("too long", status=400), "q2": Reply(body=b'{"choices": []}')}.get(text, Reply("3"))

    BatchService(respond).run(tmp_path / "in.jsonl", tmp_path / "out.jsonl", error_path=tmp_path / "err.jsonl",
                              expire=lambda custom_id: custom_id == keys[3])
    done = import_batch(tmp_path / "out.jsonl", cache)
    assert (done.imported, done.failed_ids) == (3, [keys[2]])
    assert done.failed[0].kind == "bad response"
    errors = import_batch(tmp_path / "err.jsonl", cache)
    assert errors.imported == 0 and {f.custom_id: f.kind for f in errors.failed} == \
        {keys[1]: "HTTP 400", keys[3]: "batch_expired"}
    assert "too long" in errors.summary() and errors.pending == 3
    assert [cache.get(k) for k in keys] == ["3", None, None, None, "3", "3"]
    # the row is stored as a live call stores it: request record, backend and model
    again = export_batch(requests, tmp_path / "retry.jsonl", model="m", cache=cache)
    assert sorted(line["custom_id"] for line in lines(tmp_path / "retry.jsonl")) == sorted(keys[1:4])
    assert again.cached == 3
    twice = import_batch(tmp_path / "out.jsonl", cache)
    assert twice.imported == 0 and twice.already_cached == 3


def test_import_stores_rows_like_a_live_call(tmp_path):
    request = JudgeRequest.of([("system", "judge"), ("user", "hello")], Sampling(0, 1.0, 16), attempt=1)
    with JudgeServer(lambda body: Reply("4")) as server:
        with build_judge("openai", "m", base_url=server.base_url, cache=tmp_path / "live.sqlite",
                         progress=False) as j:
            j.ask([request])
    live = _rows(tmp_path / "live.sqlite")
    cache = JudgeCache(tmp_path / "batch.sqlite")
    export_batch([request], tmp_path / "in.jsonl", model="m", cache=cache)
    BatchService(lambda body: Reply("4")).run(tmp_path / "in.jsonl", tmp_path / "out.jsonl")
    import_batch(tmp_path / "out.jsonl", cache)
    cache.close()
    assert _rows(tmp_path / "batch.sqlite") == live


def _rows(path: Path) -> list[tuple]:
    import sqlite3

    with sqlite3.connect(path) as db:
        return db.execute("SELECT key, backend, model, request, answer FROM answers").fetchall()


def test_import_refuses_ids_this_cache_did_not_export(tmp_path):
    request = JudgeRequest.of([("user", "q")])
    export_batch([request], tmp_path / "in.jsonl", model="m", cache=None)
    BatchService(lambda body: Reply("ok")).run(tmp_path / "in.jsonl", tmp_path / "out.jsonl")
    (tmp_path / "out.jsonl").write_text((tmp_path / "out.jsonl").read_text() + "not json\n{}\n")
    cache = JudgeCache(tmp_path / "c.sqlite")
    done = import_batch(tmp_path / "out.jsonl", cache)
    assert [f.kind for f in done.failed] == ["unknown custom_id", "not JSON", "no custom_id"]
    assert done.imported == 0
    # with the input file, a cache that did not export the requests can take the answers
    done = import_batch(tmp_path / "out.jsonl", cache, requests_path=tmp_path / "in.jsonl")
    assert done.imported == 1 and cache.get(request.cache_key("openai", "m")) == "ok"
    with pytest.raises(GecInputError, match="not found"):
        import_batch(tmp_path / "missing.jsonl", cache)


def test_batch_options_need_the_openai_backend_and_the_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(GecInputError, match="drop no_cache=True"):
        build_judge("openai", no_cache=True, export_batch=tmp_path / "in.jsonl")
    with pytest.raises(GecInputError, match="need backend='openai'"):
        build_judge("transformers", "x", export_batch=tmp_path / "in.jsonl", cache=tmp_path / "c.sqlite")
    # no API key is needed to write a batch file for OpenAI itself
    j = build_judge("openai", cache=tmp_path / "c.sqlite", export_batch=tmp_path / "in.jsonl", progress=False)
    j.ask([JudgeRequest.of([("user", "q")])])
    j.close()
    assert lines(tmp_path / "in.jsonl")[0]["body"]["model"] == "gpt-4o"


def test_cli_flags_reach_the_judge(tmp_path):
    request = JudgeRequest.of([("user", "q")])
    cache = tmp_path / "c.sqlite"
    export_batch([request], tmp_path / "in.jsonl", model="m", cache=JudgeCache(cache))
    BatchService(lambda body: Reply("yes")).run(tmp_path / "in.jsonl", tmp_path / "out.jsonl")
    argv = ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--cache", str(cache),
            "--import-batch", str(tmp_path / "out.jsonl"), "--export-batch", str(tmp_path / "in2.jsonl"),
            "--transcript", str(tmp_path / "t.jsonl")]
    with judge_from_cli(argv) as j:
        assert j.batch_imports[0].imported == 1
        answers = j.ask([request, JudgeRequest.of([("user", "new")])])
    assert [a.text for a in answers] == ["yes", None]
    assert [line["body"]["messages"][0]["content"] for line in lines(tmp_path / "in2.jsonl")] == ["new"]
    assert [line["answer"] for line in lines(tmp_path / "t.jsonl")] == ["yes", None]


def test_edit_weight_requests_export_too(tmp_path):
    # CLEME2.0's LLM edit weights use the same judge: their requests export the same way.
    from gecscore.judge.prompts import edit_weight_messages
    from gecscore.judge.types import EDIT_WEIGHT_SAMPLING

    requests = [JudgeRequest.of(edit_weight_messages("He go home .", "go -> goes"), EDIT_WEIGHT_SAMPLING)]
    export_batch(requests, tmp_path / "in.jsonl", model="m", cache=None)
    [line] = lines(tmp_path / "in.jsonl")
    assert validate_batch_file(tmp_path / "in.jsonl") == [] and line["body"]["temperature"] == 0.1
    assert request_kind(line["body"]) == "edit"


def test_api_key_reaches_neither_batch_files_nor_transcripts(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_JUDGE_KEY", "sk-batch-secret-42")
    with JudgeServer(lambda body: Reply("5")) as server:
        with judge(server, tmp_path / "c.sqlite", api_key_env="MY_JUDGE_KEY",
                   export_batch=tmp_path / "in.jsonl", transcript=tmp_path / "t.jsonl") as j:
            j.ask([JudgeRequest.of([("user", "q")])])
        BatchService(lambda body: Reply("5")).run(tmp_path / "in.jsonl", tmp_path / "out.jsonl")
        with judge(server, tmp_path / "c.sqlite", api_key_env="MY_JUDGE_KEY", import_batch=tmp_path / "out.jsonl",
                   transcript=tmp_path / "t2.jsonl") as j:
            assert j.ask([JudgeRequest.of([("user", "q")])])[0].text == "5"
        assert server.requests == 0
    for file in tmp_path.iterdir():
        assert b"sk-batch-secret" not in file.read_bytes(), file


def test_cli_export_prints_the_batch_and_no_scores(tmp_path, capsys):
    from gecscore.cli import main
    from gecscore.judge import validate_batch_file

    sources, hypotheses = pairs(3)
    (tmp_path / "src.txt").write_text("\n".join(sources) + "\n")
    (tmp_path / "hyp.txt").write_text("\n".join(hypotheses) + "\n")
    argv = ["dsgram", "--src", str(tmp_path / "src.txt"), "--hyp", str(tmp_path / "hyp.txt"), "--model", "m",
            "--base-url", "http://127.0.0.1:9/v1", "--cache", str(tmp_path / "c.sqlite"),
            "--export-batch", str(tmp_path / "in.jsonl"), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"metric": "dsgram", "batch_export": {"files": [str(tmp_path / "in.jsonl")], "requests": 6}}
    assert validate_batch_file(tmp_path / "in.jsonl") == []


def test_hugging_face_inference_providers_take_the_hub_token(tmp_path, monkeypatch, capsys):
    """Inference Providers are an OpenAI-compatible router (HF_ROUTER_URL) keyed by a Hub token:
    here the local server stands in for it, reached with --api-key-env HF_TOKEN; the token goes to
    the Authorization header and nowhere else (output, transcript, cache)."""
    from gecscore.cli import main
    from gecscore.judge.backends import HF_ROUTER_URL

    from judge_server import DSGramSimulator

    assert HF_ROUTER_URL == "https://router.huggingface.co/v1"
    monkeypatch.setenv("HF_TOKEN", "hf_visitor_token_123")
    sources, hypotheses = pairs(2)
    (tmp_path / "src.txt").write_text("\n".join(sources) + "\n")
    (tmp_path / "hyp.txt").write_text("\n".join(hypotheses) + "\n")
    with JudgeServer(DSGramSimulator()) as server:
        status = main(["dsgram", "--src", str(tmp_path / "src.txt"), "--hyp", str(tmp_path / "hyp.txt"),
                       "--base-url", server.base_url, "--model", "meta-llama/Llama-3.3-70B-Instruct:novita",
                       "--api-key-env", "HF_TOKEN", "--cache", str(tmp_path / "c.sqlite"),
                       "--transcript", str(tmp_path / "t.jsonl"), "--json"])
        assert server.authorizations["Bearer hf_visitor_token_123"] == server.requests > 0
    captured = capsys.readouterr()
    assert status == 0 and json.loads(captured.out)["n_failed"] == 0
    assert "hf_visitor_token" not in captured.out + captured.err
    for file in tmp_path.iterdir():
        assert b"hf_visitor_token" not in file.read_bytes(), file


def test_the_hugging_face_router_falls_back_to_hf_token(monkeypatch):
    from gecscore.judge.backends import HF_ROUTER_URL

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("HF_TOKEN", "hf_from_env")
    with build_judge("openai", "m", base_url=HF_ROUTER_URL, no_cache=True, progress=False) as j:
        assert j.backend._client.headers["Authorization"] == "Bearer hf_from_env"
