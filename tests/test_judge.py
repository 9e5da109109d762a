"""The judge against a local OpenAI-compatible server and a tiny local transformers model:
request bodies, cache and resumption, retries with backoff, timeouts, failure counts,
concurrency bounds, batching and chat templates."""
from __future__ import annotations

import os

import sqlite3
import threading
import time

import pytest

from judge_server import JudgeServer, Reply, tiny_causal_lm
from gecscore.judge import (Judge, JudgeCache, JudgeConfigError, JudgeRequest, OpenAIChatBackend,
                            RetryPolicy, Sampling, TransformersBackend, build_judge)
from gecscore.errors import GecInputError

FAST = RetryPolicy(max_retries=2, backoff_s=0.01, max_backoff_s=0.05)


def ask_one(text: str, attempt: int = 0, sampling: Sampling = Sampling(0.6, 0.7, 512)) -> JudgeRequest:
    return JudgeRequest.of([("system", "You judge."), ("user", text)], sampling, attempt)


def http_judge(server: JudgeServer, cache=None, *, concurrency=4, timeout=5.0, retry=FAST,
               api_key=None) -> Judge:
    backend = OpenAIChatBackend("judge-model", server.base_url, api_key=api_key, timeout=timeout,
                                max_connections=concurrency)
    return Judge(backend, cache, concurrency=concurrency, retry=retry, progress=False)


def echo(body: dict) -> Reply:
    return Reply("echo: " + body["messages"][-1]["content"])


def test_request_body_carries_messages_model_and_sampling():
    with JudgeServer(echo) as server:
        with http_judge(server, api_key="sk-test-key") as judge:
            answers = judge.ask([ask_one("hello"), ask_one("world")])
        assert [a.text for a in answers] == ["echo: hello", "echo: world"]
        assert server.requests == 2
        body = next(b for b in server.bodies if b["messages"][-1]["content"] == "hello")
        assert body["model"] == "judge-model"
        assert body["messages"] == [{"role": "system", "content": "You judge."}, {"role": "user", "content": "hello"}]
        assert (body["temperature"], body["top_p"], body["max_tokens"]) == (0.6, 0.7, 512)
        assert server.authorizations == {"Bearer sk-test-key": 2}


def test_identical_requests_in_one_call_are_sent_once():
    with JudgeServer(echo) as server, http_judge(server) as judge:
        answers = judge.ask([ask_one("same"), ask_one("same"), ask_one("other")])
        assert [a.text for a in answers] == ["echo: same", "echo: same", "echo: other"]
        assert server.requests == 2


def test_cache_serves_reruns_and_separates_attempts_and_settings(tmp_path):
    path = tmp_path / "judge.sqlite"
    with JudgeServer(echo) as server:
        with http_judge(server, JudgeCache(path)) as judge:
            judge.ask([ask_one("a"), ask_one("b")])
        assert server.requests == 2
        with http_judge(server, JudgeCache(path)) as judge:
            answers = judge.ask([ask_one("a"), ask_one("b"), ask_one("a", attempt=1),
                                 ask_one("a", sampling=Sampling(0.1, 1.0, 16))])
            assert [a.cached for a in answers] == [True, True, False, False]
            assert judge.stats.cache_hits == 2 and judge.stats.answered == 2
        assert server.requests == 4
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 4


def test_api_key_never_reaches_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_JUDGE_KEY", "sk-very-secret-0123")
    path = tmp_path / "cache.sqlite"
    with JudgeServer(echo) as server:
        judge = build_judge("openai", "m", base_url=server.base_url, api_key_env="MY_JUDGE_KEY", cache=path,
                            progress=False)
        judge.ask([ask_one("x")])
        judge.close()
        assert server.authorizations == {"Bearer sk-very-secret-0123": 1}
    for file in tmp_path.iterdir():
        assert b"sk-very-secret" not in file.read_bytes()


def test_openai_without_a_key_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(GecInputError, match="OPENAI_API_KEY"):
        build_judge("openai", no_cache=True)
    with pytest.raises(GecInputError, match="unknown backend"):
        build_judge("claude", no_cache=True)


class Flaky:
    """Fails the first ``n`` requests with ``reply``, then echoes."""

    def __init__(self, n: int, reply: Reply):
        self.n, self.reply, self.seen = n, reply, 0
        self.lock = threading.Lock()

    def __call__(self, body: dict) -> Reply:
        with self.lock:
            self.seen += 1
            if self.seen <= self.n:
                return self.reply
        return echo(body)


@pytest.mark.parametrize("failure", [Reply("busy", status=500), Reply("slow down", status=429),
                                     Reply(body=b'{"choices": [{"mess'), Reply(body=b"not json at all")])
def test_transient_failures_are_retried(failure):
    with JudgeServer(Flaky(2, failure)) as server, http_judge(server) as judge:
        [answer] = judge.ask([ask_one("q")])
        assert answer.text == "echo: q"
        assert server.requests == 3
        assert judge.stats.retries == 2 and judge.stats.failed == 0 and judge.stats.calls == 3


def test_persistent_500_fails_after_bounded_retries_and_is_not_cached(tmp_path):
    with JudgeServer(lambda body: Reply("down", status=500)) as server:
        with http_judge(server, JudgeCache(tmp_path / "c.sqlite")) as judge:
            [answer] = judge.ask([ask_one("q")])
            assert not answer.ok and answer.error.startswith("HTTP 500")
            assert server.requests == 1 + FAST.max_retries
            assert judge.stats.failures == {"HTTP 500": 1}
            assert "1 failed (HTTP 500 x1)" in judge.summary()
            assert len(judge.cache) == 0


def test_retry_after_header_is_honoured_up_to_the_cap():
    with JudgeServer(Flaky(2, Reply("wait", status=429, headers={"Retry-After": "0.3"}))) as server:
        with http_judge(server, retry=RetryPolicy(max_retries=2, backoff_s=0.01, max_backoff_s=0.4)) as judge:
            start = time.perf_counter()
            [answer] = judge.ask([ask_one("q")])
            assert answer.ok and time.perf_counter() - start >= 0.6
    assert RetryPolicy(backoff_s=1, max_backoff_s=5, jitter=0).delay(0, retry_after=60) == 5
    assert [RetryPolicy(backoff_s=1, max_backoff_s=5, jitter=0).delay(k) for k in range(4)] == [1, 2, 4, 5]


def test_slow_replies_time_out_and_are_counted():
    with JudgeServer(lambda body: Reply("late", delay=1.0)) as server:
        with http_judge(server, timeout=0.2, retry=RetryPolicy(max_retries=1, backoff_s=0.01)) as judge:
            [answer] = judge.ask([ask_one("q")])
            assert not answer.ok and judge.stats.failures == {"timeout": 1}
            assert judge.stats.calls == 2


def test_bad_request_is_not_retried():
    with JudgeServer(lambda body: Reply("context too long", status=400)) as server, http_judge(server) as judge:
        [answer] = judge.ask([ask_one("q")])
        assert not answer.ok and "context too long" in answer.error
        assert server.requests == 1 and judge.stats.failures == {"HTTP 400": 1}


@pytest.mark.parametrize("status", [401, 404])
def test_setup_errors_stop_the_run(status):
    with JudgeServer(lambda body: Reply("no such model", status=status)) as server:
        with http_judge(server, concurrency=2) as judge:
            with pytest.raises(JudgeConfigError, match=str(status)):
                judge.ask([ask_one(str(i)) for i in range(50)])
        assert server.requests < 50


def test_concurrency_is_bounded():
    lock = threading.Lock()
    state = {"now": 0, "max": 0}

    def slow(body):
        with lock:
            state["now"] += 1
            state["max"] = max(state["max"], state["now"])
        time.sleep(0.1)
        with lock:
            state["now"] -= 1
        return echo(body)

    with JudgeServer(slow) as server, http_judge(server, concurrency=3) as judge:
        answers = judge.ask([ask_one(str(i)) for i in range(12)])
        assert all(a.ok for a in answers)
        assert 2 <= state["max"] <= 3


def test_server_is_bounded():
    with JudgeServer(echo, max_requests=2) as server, http_judge(server, retry=RetryPolicy(0)) as judge:
        answers = judge.ask([ask_one(str(i)) for i in range(3)])
        assert sum(a.ok for a in answers) == 2
        time.sleep(0.2)
        assert not server.running


# ------------------------------------------------------------------ transformers backend

@pytest.fixture(scope="module")
def tiny():
    return tiny_causal_lm()


def counting(backend: TransformersBackend) -> list[dict]:
    """Record the keyword arguments of every generate call of ``backend``."""
    calls: list[dict] = []
    generate = backend.lm.generate

    def wrapped(**kwargs):
        calls.append({k: v for k, v in kwargs.items() if k not in ("input_ids", "attention_mask")}
                     | {"batch": kwargs["input_ids"].shape[0]})
        return generate(**kwargs)

    backend.lm.generate = wrapped
    return calls


def test_transformers_backend_batches_samples_and_caches(tiny, tmp_path):
    model, tokenizer = tiny
    backend = TransformersBackend(model, tokenizer, model_id="tiny-llama", device="cpu", batch_size=4)
    calls = counting(backend)
    sampling = Sampling(0.6, 0.7, 5)
    requests = [ask_one(f"the edit {i} is good", sampling=sampling) for i in range(6)]
    judge = Judge(backend, JudgeCache(tmp_path / "t.sqlite"), progress=False)
    answers = judge.ask(requests)
    assert all(isinstance(a.text, str) and not a.cached for a in answers)
    assert [c["batch"] for c in calls] == [4, 2]
    assert calls[0]["max_new_tokens"] == 5 and calls[0]["do_sample"] is True
    assert (calls[0]["temperature"], calls[0]["top_p"]) == (0.6, 0.7)
    assert judge.stats.calls == 6 and judge.stats.answered == 6
    again = Judge(backend, JudgeCache(tmp_path / "t.sqlite"), progress=False).ask(requests)
    assert [a.text for a in again] == [a.text for a in answers] and all(a.cached for a in again)
    assert len(calls) == 2


def test_transformers_backend_greedy_at_temperature_zero(tiny):
    model, tokenizer = tiny
    backend = TransformersBackend(model, tokenizer, model_id="tiny-llama", device="cpu", batch_size=2)
    calls = counting(backend)
    request = ask_one("the score", sampling=Sampling(0.0, 1.0, 4))
    first, second = backend.complete_batch([request, request])
    assert first == second  # greedy decoding, left padding: identical prompts, identical answers
    assert calls[0]["do_sample"] is False and "temperature" not in calls[0]


def test_chat_template_is_used_and_system_turns_are_merged_when_refused(tiny):
    model, tokenizer = tiny
    plain = TransformersBackend(model, tokenizer, model_id="t", device="cpu")
    assert plain.prompt_text(ask_one("hi")) == "system: You judge.\n\nuser: hi\n\nassistant:"
    tokenizer.chat_template = ("{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n{% endfor %}"
                               "{% if add_generation_prompt %}[assistant]{% endif %}")
    try:
        assert plain.prompt_text(ask_one("hi")) == "[system] You judge.\n[user] hi\n[assistant]"
        tokenizer.chat_template = ("{% for m in messages %}{% if m['role'] == 'system' %}"
                                   "{{ raise_exception('no system role') }}{% endif %}"
                                   "<{{ m['role'] }}>{{ m['content'] }}{% endfor %}<assistant>")
        assert plain.prompt_text(ask_one("hi")) == "<user>You judge.\n\nhi<assistant>"
        assert isinstance(plain.complete(ask_one("the edit", sampling=Sampling(0.6, 0.7, 3))), str)
    finally:
        tokenizer.chat_template = None




def _open_cache_and_write(path: str, barrier, results) -> None:
    from gecscore.judge.cache import JudgeCache
    from gecscore.judge.types import JudgeRequest, Sampling

    barrier.wait()
    try:
        with JudgeCache(path) as cache:
            cache.put(f"key-{os.getpid()}", "b", "m", JudgeRequest.of((("user", "hi"),), Sampling()), "x")
        results.put("ok")
    except Exception as error:  # reported to the parent, which asserts on it
        results.put(repr(error))


def test_cache_opened_by_several_processes_at_once(tmp_path):
    """Leaderboard workers open one new cache file together. Before the fix, switching a new
    file to WAL raced and SQLite said "database is locked" (4 of 15 rounds of 8 processes)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    for round_ in range(15):
        path = str(tmp_path / f"cache{round_}.sqlite")
        barrier, results = context.Barrier(8), context.Queue()
        workers = [context.Process(target=_open_cache_and_write, args=(path, barrier, results))
                   for _ in range(8)]
        for worker in workers:
            worker.start()
        outcomes = [results.get(timeout=60) for _ in workers]
        for worker in workers:
            worker.join(timeout=60)
        assert outcomes == ["ok"] * 8
