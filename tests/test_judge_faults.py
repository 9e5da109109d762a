"""The judge against a misbehaving server: a body trickled one byte at a time (the total
deadline of ``timeout``), 5xx, 429 with Retry-After, malformed answers, a dropped connection, a
refused connection (final: the run stops), credentials in the base URL (never shown), LLM edit weights that fall back
to 1 (counted), and a run killed with SIGKILL then rerun (resumed from the cache).

Each test prints what it measured (seconds, requests sent, re-sent); ``pytest -s`` shows them.
Seconds are printed, never asserted, except lower bounds that a sleep guarantees.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from judge_server import JudgeServer, Reply, request_subject
from waiting import HANG_GUARD_S, wait_until
from gecscore.chunks.cleme2 import score_cleme2
from gecscore.chunks.config import Cleme2Config
from gecscore.chunks.llm_weights import llm_chunk_weigher
from gecscore.chunks.report import result_values
from gecscore.judge import Judge, JudgeCache, JudgeRequest, OpenAIChatBackend, RetryPolicy, Sampling
from gecscore.judge.backends import JudgeUnreachableError, redact_url

from cleme_examples import sample_2

SRC = Path(__file__).resolve().parents[1] / "shared"


def ask(text: str) -> JudgeRequest:
    return JudgeRequest.of([("system", "You judge."), ("user", text)], Sampling(0.0, 1.0, 16))


def judge_at(url: str, *, timeout: float = 5.0, retries: int = 2, backoff: float = 0.01,
             max_backoff: float = 0.05, cache=None, concurrency: int = 4) -> Judge:
    backend = OpenAIChatBackend("m", url, timeout=timeout, max_connections=concurrency)
    return Judge(backend, cache, concurrency=concurrency, progress=False,
                 retry=RetryPolicy(max_retries=retries, backoff_s=backoff, max_backoff_s=max_backoff, jitter=0.0))


class Script:
    """Replies in order for each user text (the last repeats); timestamps of each request."""

    def __init__(self, *replies: Reply):
        self.replies = replies
        self.times: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, body: dict) -> Reply:
        with self.lock:
            self.times.append(time.monotonic())
            n = len(self.times)
        reply = self.replies[min(n, len(self.replies)) - 1]
        return Reply(reply.content, reply.status, reply.body, reply.delay, dict(reply.headers),
                     reply.trickle, reply.trickle_headers, reply.drop)


def test_trickling_server_cannot_outlast_the_timeout():
    # 1 byte every 50 ms: every read succeeds well inside httpx's per-read timeout of 1 s, so
    # only a total deadline ends it. The full ~190-byte body would take ~9.5 s per try.
    script = Script(Reply("5", trickle=0.05))
    with JudgeServer(script) as server, judge_at(server.base_url, timeout=1.0, retries=1) as judge:
        started = time.monotonic()
        (answer,) = judge.ask([ask("slow")])
        elapsed = time.monotonic() - started
        sent = server.requests
    assert not answer.ok and answer.error.startswith("timeout:")
    assert "within 1 s" in answer.error
    assert judge.stats.calls == 2 and judge.stats.retries == 1 and sent == 2
    assert judge.stats.failures == {"timeout": 1}
    print(f"\ntrickle: timeout 1 s, 2 tries: failed after {elapsed:.2f} s ({sent} requests sent)")


def test_trickled_headers_cannot_outlast_the_timeout():
    # The status line and headers themselves arrive one byte every 50 ms (~80 bytes: 4 s):
    # httpx is still reading headers at the deadline; the caller stops waiting for it.
    script = Script(Reply("5", trickle=0.05, trickle_headers=True))
    with JudgeServer(script) as server, judge_at(server.base_url, timeout=1.0, retries=0) as judge:
        started = time.monotonic()
        (answer,) = judge.ask([ask("slow headers")])
        elapsed = time.monotonic() - started
    assert not answer.ok and answer.error.startswith("timeout:")
    assert judge.stats.calls == 1 and judge.stats.failures == {"timeout": 1}
    print(f"\ntrickled headers: timeout 1 s: failed after {elapsed:.2f} s")


def test_trickle_that_finishes_inside_the_deadline_is_answered():
    script = Script(Reply("4", trickle=0.001))
    with JudgeServer(script) as server, judge_at(server.base_url, timeout=10.0) as judge:
        (answer,) = judge.ask([ask("slow but fine")])
    assert answer.text == "4" and judge.stats.calls == 1


def test_server_errors_are_retried_then_answered():
    script = Script(Reply("busy", status=500), Reply("busy", status=502), Reply("3"))
    with JudgeServer(script) as server, judge_at(server.base_url) as judge:
        (answer,) = judge.ask([ask("x")])
        assert server.requests == 3
    assert answer.text == "3"
    assert (judge.stats.calls, judge.stats.retries, judge.stats.failed) == (3, 2, 0)


def test_persistent_5xx_fails_after_bounded_tries():
    script = Script(Reply("down", status=503))
    with JudgeServer(script) as server, judge_at(server.base_url, retries=3) as judge:
        answers = judge.ask([ask("a"), ask("b")])
        assert server.requests == 2 * 4
    assert all(not a.ok and a.error.startswith("HTTP 503:") for a in answers)
    assert judge.stats.failures == {"HTTP 503": 2}


def test_429_waits_for_retry_after():
    script = Script(Reply("slow down", status=429, headers={"Retry-After": "1"}), Reply("2"))
    with JudgeServer(script) as server, judge_at(server.base_url, max_backoff=5.0) as judge:
        (answer,) = judge.ask([ask("x")])
        assert server.requests == 2
    gap = script.times[1] - script.times[0]
    assert answer.text == "2"
    assert gap >= 0.95  # the policy's own backoff is 10 ms: only Retry-After explains the wait
    print(f"\n429 Retry-After 1: re-sent after {gap:.2f} s")


@pytest.mark.parametrize("reply, kind", [
    (Reply(body=b"<html>oops</html>"), "bad response"),
    (Reply(body=b'{"choices": []}'), "bad response"),
    (Reply(body=b'{"choices": [{"message": {"content": "5"'), "bad response"),
    (Reply(drop=True), "connection"),
])
def test_malformed_answers_are_retried_then_counted(reply, kind):
    script = Script(reply)
    with JudgeServer(script) as server, judge_at(server.base_url, retries=2) as judge:
        (answer,) = judge.ask([ask("x")])
        sent = server.requests
    assert not answer.ok and answer.error.startswith(f"{kind}:")
    assert sent == 3 and judge.stats.failures == {kind: 1}


def test_malformed_then_good_answer_is_used():
    script = Script(Reply(body=b"not json"), Reply("5"))
    with JudgeServer(script) as server, judge_at(server.base_url) as judge:
        (answer,) = judge.ask([ask("x")])
        assert server.requests == 2
    assert answer.text == "5"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_refused_connection_stops_the_run_without_retries():
    """Nothing listens: the endpoint was never reached, so no retry (issue 49): one line, at once."""
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    with judge_at(url, retries=2) as judge:
        started = time.monotonic()
        with pytest.raises(JudgeUnreachableError, match=r"^cannot reach http://127.0.0.1:\d+/v1/chat/completions "
                                                        r"\(connection refused; not retried\): is the server running"):
            judge.ask([ask("a"), ask("b"), ask("c")])
        elapsed = time.monotonic() - started
    assert judge.stats.retries == 0 and 1 <= judge.stats.calls <= 3   # at most one try of each request
    print(f"\nrefused: stopped after {judge.stats.calls} tries in {elapsed:.2f} s")


# ------------------------------------------------------------------ credentials in the URL

def test_redact_url():
    assert redact_url("http://me:pa55@host:8000/v1") == "http://me:***@host:8000/v1"
    assert redact_url("https://sk-abcdef@host/v1") == "https://***@host/v1"
    assert redact_url("https://host/v1?api-key=xyz&x=1") == "https://host/v1?api-key=***&x=1"
    assert redact_url("https://api.openai.com/v1") == "https://api.openai.com/v1"


@pytest.mark.parametrize("reply", [Reply("down", status=503), Reply(body=b"garbage"),
                                   Reply("no such model", status=404)])
def test_credentials_in_the_base_url_are_never_shown(reply, tmp_path):
    secret = "pa55w0rd-XYZ"
    script = Script(reply)
    with JudgeServer(script) as server:
        url = server.base_url.replace("http://", f"http://someone:{secret}@")
        judge = judge_at(url, retries=0)
        transcript = tmp_path / "transcript.jsonl"
        judge.record_transcript(transcript)
        try:
            shown = []
            try:
                answers = judge.ask([ask("x")])
                shown += [a.error or "" for a in answers]
            except Exception as error:  # noqa: BLE001 - a setup error (404) stops the run
                shown.append(str(error))
            shown.append(judge.summary())
            shown.append(judge.name)
        finally:
            judge.close()
        assert server.authorizations  # the credentials were used (HTTP basic auth) ...
    shown.append(transcript.read_text(encoding="utf-8") if transcript.exists() else "")
    text = "\n".join(shown)
    assert secret not in text  # ... and never shown
    assert "someone:***@127.0.0.1" in text or "404" in text


def test_credentials_never_reach_a_connection_error():
    secret = "hunter2-secret"
    url = f"http://admin:{secret}@127.0.0.1:{free_port()}/v1"
    with judge_at(url, retries=0) as judge, pytest.raises(JudgeUnreachableError) as error:
        judge.ask([ask("x")])
    assert secret not in str(error.value) and "admin:***@127.0.0.1" in str(error.value)


def test_leaderboard_run_options_mask_the_judge_url():
    from gecscore.leaderboard.board import judge_description
    from gecscore.leaderboard.run_wide import RunWide

    options = RunWide(judge={"base_url": "http://u:topsecret@judge.local/v1", "model": "m"})
    assert "topsecret" not in judge_description(options)
    assert "u:***@judge.local" in judge_description(options)


# ------------------------------------------------------------------ LLM edit weights

def test_llm_weigher_counts_fallbacks_per_call():
    # sample_2 asks three edits; "go -> went" never gets a usable rating (garbage, re-asked
    # twice), the others answer 2 and 1. The second call reuses every rating (no request) but
    # still reports the fallback it used.
    answers = {"go -> went": Reply("very important"), "∅ -> the": Reply("2"), ". -> !": Reply("1")}

    def respond(body):
        return answers[request_subject(body)[1]]

    with JudgeServer(respond) as server:
        weigher = llm_chunk_weigher(judge_at(server.base_url, retries=1, cache=JudgeCache(":memory:")))
        out = result_values(score_cleme2([sample_2()], Cleme2Config(weighting="llm"), weigher=weigher))
        first = server.requests
        assert weigher.counts() == {"llm_edits": 3, "llm_fallbacks": 1, "llm_fallback_chunks": 1}
        result_values(score_cleme2([sample_2(), sample_2()], Cleme2Config(weighting="llm"), weigher=weigher))
        assert server.requests == first == 5  # 3 asks + 2 re-asks, nothing on the second call
    assert (out["tp"], out["fp_un"]) == (1, 3)
    assert weigher.counts() == {"llm_edits": 3, "llm_fallbacks": 1, "llm_fallback_chunks": 2}
    assert weigher.fallback_count() == 1


# ------------------------------------------------------------------ SIGKILL mid-run, then rerun

CHILD = textwrap.dedent("""
    import json, sys
    from gecscore.judge import Judge, JudgeCache, JudgeRequest, OpenAIChatBackend, RetryPolicy, Sampling
    url, cache, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    judge = Judge(OpenAIChatBackend("m", url, timeout=10), JudgeCache(cache), concurrency=4,
                  retry=RetryPolicy(max_retries=1, backoff_s=0.01), progress=False)
    requests = [JudgeRequest.of([("user", f"item {i}")], Sampling(0.0, 1.0, 16)) for i in range(n)]
    answers = judge.ask(requests)
    print(json.dumps({"ok": sum(a.ok for a in answers), "cached": sum(a.cached for a in answers),
                      "texts": [a.text for a in answers]}))
""")


def test_sigkill_mid_run_then_rerun_resends_only_what_was_in_flight(tmp_path):
    n, concurrency = 40, 4
    sent: list[str] = []
    lock = threading.Lock()

    def respond(body):
        text = body["messages"][-1]["content"]
        with lock:
            sent.append(text)
        return Reply("answer to " + text, delay=0.05)

    cache = tmp_path / "judge.sqlite"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    with JudgeServer(respond) as server:
        first = subprocess.Popen([sys.executable, "-c", CHILD, server.base_url, str(cache), str(n)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        wait_until(lambda: server.requests >= 15 or first.poll() is not None, "15 requests reach the server",
                   poll_s=0.01)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=HANG_GUARD_S)
        assert first.returncode == -signal.SIGKILL
        time.sleep(0.2)  # let the in-flight handlers finish on the server side
        with lock:
            first_sent = list(sent)
            sent.clear()
        cached_rows = len(JudgeCache(cache))
        started = time.monotonic()
        second = subprocess.run([sys.executable, "-c", CHILD, server.base_url, str(cache), str(n)],
                                capture_output=True, text=True, env=env, timeout=120)
        elapsed = time.monotonic() - started
        assert second.returncode == 0, second.stderr
        with lock:
            second_sent = list(sent)
    result = json.loads(second.stdout)
    assert result["ok"] == n
    assert result["texts"] == [f"answer to item {i}" for i in range(n)]
    assert result["cached"] == cached_rows  # every answer committed before the kill is reused
    assert len(second_sent) == n - cached_rows
    resent = set(first_sent) & set(second_sent)
    assert len(resent) <= concurrency  # only requests in flight at the kill are sent again
    print(f"\nSIGKILL: first run sent {len(first_sent)}, {cached_rows} answers were committed; "
          f"rerun sent {len(second_sent)} ({len(resent)} re-sent) in {elapsed:.2f} s")


def test_cli_reports_llm_fallbacks_and_exits_3_past_the_threshold(tmp_path, capsys):
    from gecscore.cli import main

    from datapaths import EXAMPLES

    gold = ["--src", str(EXAMPLES / "source.txt"), "--hyp", str(EXAMPLES / "hypothesis.txt"),
            "--ref", str(EXAMPLES / "reference0.txt"), "--ref", str(EXAMPLES / "reference1.txt")]
    unreadable = lambda body: Reply("I would rather not say.")   # noqa: E731 - every answer unusable
    with JudgeServer(unreadable) as server:
        argv = ["cleme2", *gold, "--weighting", "llm", "--base-url", server.base_url, "--model", "m",
                "--no-cache", "--json"]
        assert main(argv) == 3
        out = json.loads(capsys.readouterr().out)
        assert out["llm_edits"] > 0 and out["llm_fallbacks"] == out["llm_edits"]
        assert main([*argv, "--max-fallback-share", "1"]) == 0
        capsys.readouterr()


def test_dsgram_cli_exits_3_when_every_judge_call_failed(tmp_path, capsys):
    from gecscore.cli import main

    from datapaths import EXAMPLES

    failing = lambda body: Reply(status=400, body=b'{"error": {"message": "no"}}')   # noqa: E731
    with JudgeServer(failing) as server:
        status = main(["dsgram", "--src", str(EXAMPLES / "source.txt"), "--hyp", str(EXAMPLES / "hypothesis.txt"),
                       "--base-url", server.base_url, "--model", "m", "--no-cache", "--max-retries", "0", "--json"])
    captured = capsys.readouterr()
    assert status == 3 and "every judge call failed" in captured.err
    assert json.loads(captured.out)["n_failed"] == 4
