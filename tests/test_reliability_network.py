"""Issue 49, item 1: every network read has a deadline.

Data downloads (:mod:`gecscore.benchdata.fetch`) against a local upstream that misbehaves
(``tests/benchdata_server.py``): never answers, stalls mid-body, trickles the body or the
headers, lies about its length, sends more than the catalogue's size, redirects in a loop,
answers 404, 500 then 200, 503 for good; a refused connection; a download killed with SIGKILL
then run again; two downloads of one set at once. Each fails (or succeeds) in bounded time, with
bounded tries, in one line naming the URL, and leaves nothing half-written.

The LLM judge (:mod:`gecscore.judge`): a refused connection stops the run at once (no retries)
unless the endpoint has answered before; an endpoint that never answers is bounded by the
timeout; the judge's SQLite cache is created by the first answer stored, never by a run whose
every call failed.

Each test prints what it measured (``pytest -s``); seconds are printed, never asserted.
"""
from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest

from benchdata_server import FakeUpstream
from judge_server import JudgeServer, Reply
from waiting import HANG_GUARD_S, wait_until
from gecscore.benchdata import CATALOGUE, DataUnavailable, fetch_set
from gecscore.benchdata import catalogue as cat
from gecscore.benchdata.fetch import DownloadPolicy
from gecscore.benchdata.layout import Verifier
from gecscore.errors import GecInputError
from gecscore.judge import Judge, JudgeCache, JudgeRequest, OpenAIChatBackend, RetryPolicy, Sampling
from gecscore.network import (DeadlineExceeded, backoff_s, retry_after_s, retryable_status, run_with_deadline,
                              unreachable, unreachable_reason)

TESTS = Path(__file__).resolve().parent
SRC = TESTS.parent / "shared"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


NET_REPO = cat.Repository("net-owner/net-data", "ab" * 20, "MIT")
SMALL = b"one two\nthree\n"
LARGE = b"".join(b"line %03d of a file trickled byte by byte\n" % i for i in range(10))   # 420 bytes
NET = cat.DataSet("net", "Net set", "a synthetic set for the network tests", "net", "MIT", "Nobody. 2025.",
                  "@misc{net}", (cat.copied("net/small.txt", NET_REPO, "small", len(SMALL), sha(SMALL)),
                                 cat.copied("net/large.txt", NET_REPO, "large", len(LARGE), sha(LARGE))))
SMALL_URL = f"{NET_REPO.name}/{NET_REPO.commit}/small"
LARGE_URL = f"{NET_REPO.name}/{NET_REPO.commit}/large"
UPSTREAM = {SMALL_URL: SMALL, LARGE_URL: LARGE}

# failures come fast: no byte for 0.3 s is a stall; the whole-file deadline is the stall time
# (the rate term is nil); two tries, 10 ms apart
FAILING = DownloadPolicy(stall_s=0.3, connect_s=0.3, min_rate_bps=1e12, attempts=2, retry_delay_s=0.01,
                         max_retry_delay_s=0.05)
# a stall cannot end the trickle tests (a byte comes every 50 ms): only the 0.5 s deadline can
TRICKLED = DownloadPolicy(stall_s=0.5, connect_s=0.5, min_rate_bps=1e12, attempts=2, retry_delay_s=0.01,
                          max_retry_delay_s=0.05)
# success must not depend on the machine's load
GENEROUS = DownloadPolicy(stall_s=30.0, connect_s=30.0, min_rate_bps=1e12, attempts=3, retry_delay_s=0.01,
                          max_retry_delay_s=0.05)


@pytest.fixture
def upstream(monkeypatch):
    """Downloads on, the net set in the catalogue, served by a local upstream."""
    for name in ("GECSCORE_OFFLINE", "HF_HUB_OFFLINE", "GEC_DATA", "GECSCORE_DATA_TIMEOUT", "GECSCORE_DATA_ATTEMPTS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setitem(CATALOGUE, "net", NET)
    with FakeUpstream(UPSTREAM) as server:
        monkeypatch.setenv("GECSCORE_DATA_BASE_URL", server.url)
        yield server


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) if root.exists() else []


def fetch_failing(folder: Path, policy: DownloadPolicy = FAILING) -> tuple[str, float]:
    started = time.monotonic()
    with pytest.raises(GecInputError) as error:
        fetch_set("net", folder, progress=False, policy=policy)
    return str(error.value), time.monotonic() - started


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ------------------------------------------------------------------ retried, then one line

@pytest.mark.parametrize("mode, reason", [
    ("silent", "ReadTimeout: no data for 0.3 s"),    # accepts, never answers
    ("stall", "ReadTimeout: no data for 0.3 s"),     # half the body, then nothing
    ("status:503", "HTTP 503"),
], ids=["never-answers", "stalls-mid-body", "503-for-good"])
def test_a_stalled_or_failing_download_is_retried_boundedly_then_one_line(upstream, tmp_path, mode, reason):
    upstream.behaviour[SMALL_URL] = mode
    message, elapsed = fetch_failing(tmp_path)
    url = f"{upstream.url}/{SMALL_URL}"
    assert len(message.splitlines()) == 1
    assert message.startswith(f"net: download of {url} interrupted 2 times (")
    assert f"interrupted 2 times ({reason})" in message
    assert message.endswith("; nothing was kept; `gecscore data get net` retries (a slow link: "
                            "$GECSCORE_DATA_TIMEOUT=120 allows 120 s without data; check $GECSCORE_DATA_BASE_URL (the "
                            "mirror in use))")
    assert upstream.hits[SMALL_URL] == FAILING.attempts
    assert files_under(tmp_path / "net") == []
    print(f"\n{mode}: failed after {elapsed:.2f} s, {upstream.hits[SMALL_URL]} tries")


@pytest.mark.parametrize("mode", ["trickle", "trickle-headers"])
def test_a_trickle_cannot_outlast_the_whole_file_deadline(monkeypatch, tmp_path, mode):
    """One byte every 50 ms (the large file: 21 s; its headers alone: 2 s): no read waits
    anywhere near the 0.5 s stall limit, so only the whole-file deadline ends each try."""
    monkeypatch.setitem(CATALOGUE, "net", NET)
    for name in ("GECSCORE_OFFLINE", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    with FakeUpstream(UPSTREAM, trickle_s=0.05) as server:
        monkeypatch.setenv("GECSCORE_DATA_BASE_URL", server.url)
        server.behaviour[LARGE_URL] = mode
        message, elapsed = fetch_failing(tmp_path, TRICKLED)
        hits = server.hits[LARGE_URL]
    assert f"download of {server.url}/{LARGE_URL} interrupted 2 times (not complete within 0.5 s)" in message
    assert hits == 2
    assert files_under(tmp_path / "net") == ["small.txt"]   # the other file is whole and verified
    print(f"\n{mode}: failed after {elapsed:.2f} s, {hits} tries")


def test_a_server_error_then_success_is_fetched(upstream, tmp_path):
    upstream.behaviour[SMALL_URL] = "status:500-once"
    upstream.behaviour[LARGE_URL] = "status:429-once"   # with Retry-After: 0
    report = fetch_set("net", tmp_path, progress=False, policy=GENEROUS)
    assert report.fetched == ["net/small.txt", "net/large.txt"]
    assert (tmp_path / "net/small.txt").read_bytes() == SMALL and (tmp_path / "net/large.txt").read_bytes() == LARGE
    assert upstream.hits == {SMALL_URL: 2, LARGE_URL: 2}


def test_a_dropped_connection_then_success_is_fetched(upstream, tmp_path):
    upstream.behaviour[SMALL_URL] = "stall-once"
    fetch_set("net", tmp_path, progress=False,
              policy=DownloadPolicy(stall_s=2.0, min_rate_bps=1e12, attempts=2, retry_delay_s=0.01))
    assert (tmp_path / "net/small.txt").read_bytes() == SMALL and upstream.hits[SMALL_URL] == 2


# ------------------------------------------------------------------ final at once, one line

@pytest.mark.parametrize("status", [403, 404, 410])
def test_a_client_error_is_final_at_once(upstream, tmp_path, status):
    upstream.behaviour[SMALL_URL] = f"status:{status}"
    message, _ = fetch_failing(tmp_path)
    assert message == (f"net: HTTP {status} fetching {upstream.url}/{SMALL_URL} (not retried): check that "
                       "$GECSCORE_DATA_BASE_URL (the mirror in use) serves the file")
    assert upstream.hits[SMALL_URL] == 1 and files_under(tmp_path / "net") == []


def test_a_client_error_upstream_asks_for_a_report(upstream, tmp_path, monkeypatch):
    from gecscore.benchdata import fetch as fetch_module

    monkeypatch.delenv("GECSCORE_DATA_BASE_URL")
    monkeypatch.setattr(fetch_module, "DEFAULT_BASE_URL", upstream.url)   # "upstream" itself
    del upstream.files[SMALL_URL]
    message, _ = fetch_failing(tmp_path)
    assert message.endswith("(not retried): the pinned upstream file is gone or refused; please report it (a mirror "
                            "can stand in: $GECSCORE_DATA_BASE_URL)")


def test_a_redirect_loop_is_final_and_bounded(upstream, tmp_path):
    upstream.behaviour[SMALL_URL] = "redirect-loop"
    message, _ = fetch_failing(tmp_path)
    assert message == (f"net: {upstream.url}/{SMALL_URL} redirects more than 5 times (a redirect loop; not "
                       "retried): check $GECSCORE_DATA_BASE_URL (the mirror in use)")
    assert upstream.hits[SMALL_URL] == 6   # the request and 5 redirects followed
    assert files_under(tmp_path / "net") == []


@pytest.mark.parametrize("mode, what", [("more", "announces 1000014 bytes, more"),
                                        ("lie-longer", "announces 114 bytes, more"),   # and never sends them
                                        ("endless", "sent more")])
def test_more_than_the_pinned_size_is_never_read_on(upstream, tmp_path, mode, what):
    """Announced (refused before the body: a server announcing more than the catalogue's 14
    bytes is not serving the pinned file, whatever it then sends) or not (reading stops at the
    first chunk past the 14 bytes: an endless body cannot hold the run); not retried, nothing
    written."""
    upstream.behaviour[SMALL_URL] = mode
    message, elapsed = fetch_failing(tmp_path, GENEROUS)
    assert message == (f"net/small.txt: {upstream.url}/{SMALL_URL} {what} than the catalogue's 14 bytes (stopped "
                       "there; nothing was written). The upstream file changed or the mirror serves another file")
    assert upstream.hits[SMALL_URL] == 1 and files_under(tmp_path / "net") == []
    print(f"\n{mode}: refused after {elapsed:.2f} s; the server wrote {upstream.sent[SMALL_URL]} bytes past the "
          "body into the socket (kernel buffers) before the client hung up")


def test_a_length_that_lies_short_is_a_checksum_mismatch(upstream, tmp_path):
    upstream.behaviour[SMALL_URL] = "lie-shorter"
    message, _ = fetch_failing(tmp_path, GENEROUS)
    assert message.startswith("net/small.txt: checksum mismatch for net/small.txt (from ")
    assert "got 13 bytes" in message and "(truncated download?)" in message
    assert upstream.hits[SMALL_URL] == 1 and files_under(tmp_path / "net") == []


def test_a_refused_connection_is_final_and_names_the_mirror_variable(monkeypatch, tmp_path):
    monkeypatch.setitem(CATALOGUE, "net", NET)
    monkeypatch.delenv("GECSCORE_OFFLINE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)   # set by the model tests' offline runs
    url = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("GECSCORE_DATA_BASE_URL", url)
    started = time.monotonic()
    with pytest.raises(DataUnavailable) as error:
        fetch_set("net", tmp_path, progress=False, policy=GENEROUS)
    elapsed = time.monotonic() - started
    assert str(error.value) == (f"net: cannot reach {url[7:]} (connection refused) fetching {url}/{SMALL_URL}: no "
                                "network? `gecscore data get net` fetches it when online; check "
                                "$GECSCORE_DATA_BASE_URL (the mirror in use)")
    assert files_under(tmp_path / "net") == []
    print(f"\nrefused download: failed after {elapsed:.3f} s, 1 try")


def test_the_unreachable_message_without_a_mirror_suggests_one(monkeypatch):
    from gecscore.benchdata.fetch import _mirror_hint

    monkeypatch.delenv("GECSCORE_DATA_BASE_URL", raising=False)
    assert _mirror_hint() == ("behind a firewall, set $GECSCORE_DATA_BASE_URL to a mirror of "
                              "https://raw.githubusercontent.com")


# ------------------------------------------------------------------ the command line, as the issue ran it

def run_cli(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(SRC), **env}
    return subprocess.run([sys.executable, "-m", "gecscore", *args], capture_output=True, text=True,
                          env=environment, timeout=timeout)


def test_data_get_against_a_server_that_never_answers_ends_in_one_line(tmp_path):
    """The issue's run (``gecscore data get gjg15`` hung for minutes) with the limits set small
    through the environment: two tries of 0.5 s, one line, the embedded file kept, the
    downloaded one absent."""
    gjg15 = CATALOGUE["gjg15"]
    xml = next(f for f in gjg15.files if f.path == "gjg15/judgments.xml")
    with FakeUpstream({xml.url_path: b"never sent"}) as server:
        server.behaviour[xml.url_path] = "silent"
        started = time.monotonic()
        done = run_cli("data", "get", "gjg15", env={
            "GEC_DATA": str(tmp_path), "GECSCORE_DATA_BASE_URL": server.url, "GECSCORE_OFFLINE": "",
            "HF_HUB_OFFLINE": "", "GECSCORE_DATA_TIMEOUT": "0.5", "GECSCORE_DATA_ATTEMPTS": "2"})
        elapsed = time.monotonic() - started
        hits = server.hits[xml.url_path]
    assert done.returncode == 2 and hits == 2
    assert done.stderr.splitlines()[-1] == (
        f"gecscore data: error: gjg15: download of {server.url}/{xml.url_path} interrupted 2 times (ReadTimeout: "
        "no data for 0.5 s); nothing was kept; `gecscore data get gjg15` retries (a slow link: "
        "$GECSCORE_DATA_TIMEOUT=120 allows 120 s without data; check $GECSCORE_DATA_BASE_URL (the mirror in use))")
    assert files_under(tmp_path / "gjg15") == ["human_scores.tsv"]
    print(f"\ngecscore data get gjg15, never answered: exit 2 after {elapsed:.2f} s (process start included), "
          f"{hits} tries")


@pytest.mark.parametrize("name, value, message", [
    ("GECSCORE_DATA_TIMEOUT", "soon", "$GECSCORE_DATA_TIMEOUT must be a number of seconds above 0, got 'soon'"),
    ("GECSCORE_DATA_TIMEOUT", "0", "$GECSCORE_DATA_TIMEOUT must be a number of seconds above 0, got '0'"),
    ("GECSCORE_DATA_ATTEMPTS", "0", "$GECSCORE_DATA_ATTEMPTS must be a whole number of tries, at least 1, got '0'"),
])
def test_a_bad_limit_in_the_environment_is_one_line(monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(GecInputError) as error:
        DownloadPolicy.current()
    assert str(error.value) == message


def test_the_limits_come_from_the_environment(monkeypatch):
    monkeypatch.delenv("GECSCORE_DATA_TIMEOUT", raising=False)
    monkeypatch.delenv("GECSCORE_DATA_ATTEMPTS", raising=False)
    default = DownloadPolicy.current()
    assert (default.stall_s, default.connect_s, default.attempts) == (30.0, 15.0, 3)
    # gjg15's judgments.xml: 30 s + 802577 B / 8192 B/s
    assert default.deadline_s(802577) == pytest.approx(30 + 802577 / 8192) == pytest.approx(127.971, abs=1e-3)
    monkeypatch.setenv("GECSCORE_DATA_TIMEOUT", "2.5")
    monkeypatch.setenv("GECSCORE_DATA_ATTEMPTS", "5")
    set_here = DownloadPolicy.current()
    assert (set_here.stall_s, set_here.connect_s, set_here.attempts) == (2.5, 2.5, 5)


# ------------------------------------------------------------------ killed, and two at once

CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[2])
    from gecscore.benchdata import CATALOGUE, fetch_set
    from test_reliability_network import NET
    CATALOGUE["net"] = NET
    report = fetch_set("net", sys.argv[1], progress=False)
    print(" ".join(report.fetched))
""")


def child(folder: Path, url: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(SRC), "GECSCORE_DATA_BASE_URL": url, "GECSCORE_OFFLINE": "",
           "HF_HUB_OFFLINE": "", "GECSCORE_DATA_TIMEOUT": "30"}
    return subprocess.Popen([sys.executable, "-c", CHILD, str(folder), str(TESTS)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_sigkill_mid_download_leaves_nothing_and_a_rerun_completes(upstream, tmp_path):
    upstream.behaviour[SMALL_URL] = "stall-once"   # half the body, then the child is killed
    process = child(tmp_path, upstream.url)
    wait_until(lambda: upstream.hits[SMALL_URL] >= 1 or process.poll() is not None, "the download starts")
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=HANG_GUARD_S)
    assert process.returncode == -signal.SIGKILL
    assert files_under(tmp_path / "net") == []    # no target, no part file
    report = fetch_set("net", tmp_path, progress=False, policy=GENEROUS)
    assert report.fetched == ["net/small.txt", "net/large.txt"]
    assert files_under(tmp_path / "net") == ["large.txt", "small.txt"]
    assert all(state.ok for state in Verifier(tmp_path).check_set(NET))
    assert upstream.hits[SMALL_URL] == 2


def test_two_fetches_of_one_set_at_once_both_end_with_the_verified_set(upstream, tmp_path):
    """The server holds each request until both processes are downloading (``gather:2``): each
    writes its own part file and renames it into place; the last rename wins, with the same
    verified bytes, and no part file is left."""
    upstream.behaviour[SMALL_URL] = "gather:2"
    upstream.behaviour[LARGE_URL] = "gather:2"
    processes = [child(tmp_path, upstream.url) for _ in range(2)]
    outputs = [process.communicate(timeout=HANG_GUARD_S) for process in processes]
    assert [process.returncode for process in processes] == [0, 0], outputs
    assert [out.split() for out, _ in outputs] == [["net/small.txt", "net/large.txt"]] * 2
    assert upstream.hits == {SMALL_URL: 2, LARGE_URL: 2}   # both downloaded each file, at once
    assert files_under(tmp_path / "net") == ["large.txt", "small.txt"]
    assert (tmp_path / "net/small.txt").read_bytes() == SMALL and (tmp_path / "net/large.txt").read_bytes() == LARGE
    assert all(state.ok for state in Verifier(tmp_path).check_set(NET))


# ------------------------------------------------------------------ the judge

def ask(text: str) -> JudgeRequest:
    return JudgeRequest.of([("user", text)], Sampling(0.0, 1.0, 16))


def judge_at(url: str, cache=None, *, timeout: float = 5.0, retries: int = 2) -> Judge:
    return Judge(OpenAIChatBackend("m", url, timeout=timeout), cache, concurrency=4, progress=False,
                 retry=RetryPolicy(max_retries=retries, backoff_s=0.01, max_backoff_s=0.05, jitter=0.0))


def test_a_refused_endpoint_stops_the_command_at_once_and_leaves_no_cache(tmp_path, monkeypatch, capsys):
    from gecscore.cli import main

    from datapaths import EXAMPLES

    cache = tmp_path / "judge.sqlite"
    monkeypatch.setenv("GECSCORE_JUDGE_CACHE", str(cache))
    port = free_port()
    started = time.monotonic()
    status = main(["dsgram", "--src", str(EXAMPLES / "source.txt"), "--hyp", str(EXAMPLES / "hypothesis.txt"),
                   "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "m"])
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err.splitlines()
    assert status == 2
    assert err[-1] == (f"gecscore dsgram: error: cannot reach http://127.0.0.1:{port}/v1/chat/completions "
                       "(connection refused; not retried): is the server running, and is the base URL right "
                       "(--base-url or $OPENAI_BASE_URL)?")
    assert not cache.exists() and not list(tmp_path.iterdir())
    print(f"\nrefused judge endpoint, gecscore dsgram: exit 2 after {elapsed:.2f} s")


def test_a_refused_connection_after_the_endpoint_answered_is_retried():
    """A server that answered and then went away (restarting in a long run) is worth the retries."""
    server = JudgeServer(lambda body: Reply("5", headers={"Connection": "close"})).start()   # no reuse
    judge = judge_at(server.base_url, retries=2)
    try:
        assert judge.ask([ask("first")])[0].text == "5"
        server.stop()
        (answer,) = judge.ask([ask("second")])
    finally:
        judge.close()
    assert not answer.ok and answer.error.startswith("connection:")
    assert judge.stats.calls == 1 + 3 and judge.stats.retries == 2 and judge.stats.failures == {"connection": 1}


def test_an_endpoint_that_never_answers_is_bounded_by_the_timeout():
    """A socket that listens and never accepts: the kernel completes the connection, nothing
    ever answers. Each try ends at the 0.3 s timeout; two tries, then a counted failure."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
        with judge_at(url, timeout=0.3, retries=1) as judge:
            started = time.monotonic()
            (answer,) = judge.ask([ask("anyone?")])
            elapsed = time.monotonic() - started
    assert not answer.ok and answer.error.startswith("timeout:")
    assert judge.stats.calls == 2 and judge.stats.failures == {"timeout": 1}
    print(f"\njudge endpoint that never answers: timeout 0.3 s, 2 tries: failed after {elapsed:.2f} s")


def test_the_judge_cache_file_is_created_by_the_first_answer_only(tmp_path):
    path = tmp_path / "judge.sqlite"
    refusing = lambda body: Reply("no", status=400)   # noqa: E731 - every call fails for good
    with JudgeServer(refusing) as server:
        with judge_at(server.base_url, JudgeCache(path)) as judge:
            answers = judge.ask([ask("a"), ask("b")])
            assert judge.cache is not None and len(judge.cache) == 0 and judge.cache.get("k") is None
    assert not any(a.ok for a in answers)
    assert not path.exists() and list(tmp_path.iterdir()) == []
    with JudgeServer(lambda body: Reply("4")) as server:
        with judge_at(server.base_url, JudgeCache(path)) as judge:
            assert judge.ask([ask("a")])[0].text == "4"
    assert path.exists() and len(JudgeCache(path)) == 1
    with JudgeServer(refusing) as server:   # an existing cache answers without a call
        with judge_at(server.base_url, JudgeCache(path)) as judge:
            assert judge.ask([ask("a")])[0].cached and server.requests == 0


def test_a_cache_another_process_creates_later_is_read(tmp_path):
    path = tmp_path / "judge.sqlite"
    reader = JudgeCache(path)   # no file yet
    request = ask("x")
    key = request.cache_key("openai", "m")
    assert reader.get(key) is None and not path.exists()
    with JudgeCache(path) as writer:
        writer.put(key, "openai", "m", request, "7")
    assert reader.get(key) == "7" and len(reader) == 1
    reader.close()


# ------------------------------------------------------------------ the Hub's reachability check

def test_the_hub_check_is_bounded_when_the_hub_never_answers(monkeypatch):
    from gecscore.models.hub import unreachable_reason as hub_unreachable

    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    with socket.socket() as listener:   # listens, never accepts: connected, never answered
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        endpoint = f"http://127.0.0.1:{listener.getsockname()[1]}"
        monkeypatch.setenv("HF_ENDPOINT", endpoint)
        started = time.monotonic()
        reason = hub_unreachable("nobody/no-such-model-anywhere", timeout=0.3)
        elapsed = time.monotonic() - started
    assert reason is not None and reason.startswith(f"it is not in the local Hugging Face cache and {endpoint} is "
                                                    "unreachable (")
    assert reason.endswith(("(ReadTimeout)", "(DeadlineExceeded)"))
    print(f"\nHub check, never answered: {reason.rsplit('(', 1)[1][:-1]} after {elapsed:.2f} s (limit 0.3 s)")


# ------------------------------------------------------------------ the shared rules

def test_backoff_doubles_up_to_the_cap_and_honours_retry_after():
    assert [backoff_s(k, 1.0, 5.0) for k in range(5)] == [1, 2, 4, 5, 5]
    assert backoff_s(0, 1.0, 5.0, retry_after=3) == 3        # the server's wait is longer
    assert backoff_s(0, 1.0, 5.0, retry_after=60) == 5       # capped
    assert backoff_s(2, 1.0, 5.0, retry_after=0.5) == 4      # ours is longer
    assert all(0.9 <= backoff_s(0, 1.0, 5.0, jitter=0.1) <= 1.1 for _ in range(50))


def test_retry_after_and_retryable_statuses():
    assert retry_after_s("2") == 2.0 and retry_after_s("-1") == 0.0
    assert retry_after_s("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0   # a date past
    assert retry_after_s("soon") is None and retry_after_s(None) is None
    assert [s for s in (200, 301, 400, 403, 404, 408, 409, 425, 429, 500, 502, 503) if retryable_status(s)] == [
        408, 409, 425, 429, 500, 502, 503]


def test_which_errors_say_the_server_was_never_reached():
    refused = httpx.ConnectError("[Errno 111] Connection refused")
    dns = httpx.ConnectError("[Errno -2] Name or service not known")
    dns_again = httpx.ConnectError("[Errno -3] Temporary failure in name resolution")
    routing = httpx.ConnectError("[Errno 101] Network is unreachable")
    connect_timeout = httpx.ConnectTimeout("timed out")
    assert [unreachable_reason(e) for e in (refused, dns, dns_again, routing, connect_timeout)] == [
        "connection refused", "name not resolved", "name not resolved", "network unreachable", "connect timed out"]
    assert all(unreachable(e) for e in (refused, dns, routing, connect_timeout))
    assert not any(unreachable(e) for e in (httpx.ReadTimeout("x"), httpx.RemoteProtocolError("x"),
                                            httpx.ReadError("x"), httpx.TooManyRedirects("x")))


def test_run_with_deadline():
    assert run_with_deadline(5.0, lambda deadline: deadline.remaining() > 4) is True
    with pytest.raises(ValueError, match="inner"):
        run_with_deadline(5.0, lambda deadline: (_ for _ in ()).throw(ValueError("inner")))
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded, match=r"not done within 0\.2 s"):
        run_with_deadline(0.2, lambda deadline: time.sleep(1), grace_s=0.0)
    assert time.monotonic() - started >= 0.2
