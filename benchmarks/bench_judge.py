"""Judge benchmarks against the local OpenAI-compatible test server (tests/judge_server.py).

1. Throughput: the same N sub-score requests with concurrency 1 and 8 (each reply delayed by
   --latency seconds, as a remote model would be), no cache.
2. A DSGram run over --pairs sentence pairs through ``gecscore dsgram`` (scores, weights,
   inconsistent count, server requests).
3. Kill and resume: the same run with a fresh cache, killed (SIGKILL) after half of the full
   run's server requests, then rerun: every answer committed before the kill is served from the
   cache (cache hits == rows at kill), the server sees only the rest, and the result equals the
   uninterrupted run's. A third run makes no server request.

    python benchmarks/bench_judge.py [--pairs 100] [--requests 100] [--latency 0.05] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from judge_server import DSGramSimulator, JudgeServer  # noqa: E402

from gecscore.judge import Judge, JudgeRequest, OpenAIChatBackend, RetryPolicy  # noqa: E402
from gecscore.judge.prompts import sub_score_messages  # noqa: E402

CLI = [sys.executable, "-c", "import sys; from gecscore.cli import main; sys.exit(main())", "dsgram"]


def pairs(n: int) -> tuple[list[str], list[str]]:
    sources = [f"this are sentence number {i} and it have a error ." for i in range(n)]
    hypotheses = [f"This is sentence number {i} and it has an error ." for i in range(n)]
    return sources, hypotheses


def throughput(n: int, latency: float) -> dict:
    sources, hypotheses = pairs(n)
    requests = [JudgeRequest.of(sub_score_messages(s, h)) for s, h in zip(sources, hypotheses)]
    out = {}
    for concurrency in (1, 8):
        with JudgeServer(DSGramSimulator(latency=latency)) as server:
            judge = Judge(OpenAIChatBackend("sim", server.base_url, max_connections=concurrency), None,
                          concurrency=concurrency, retry=RetryPolicy(backoff_s=0.01), progress=False)
            start = time.perf_counter()
            answers = judge.ask(requests)
            seconds = time.perf_counter() - start
            judge.close()
            out[f"concurrency_{concurrency}"] = {
                "requests": n, "server_requests": server.requests, "seconds": round(seconds, 3),
                "requests_per_s": round(n / seconds, 1), "ok": sum(a.ok for a in answers)}
    out["speedup"] = round(out["concurrency_8"]["requests_per_s"] / out["concurrency_1"]["requests_per_s"], 2)
    return out


def cache_rows(path: Path) -> int:
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        try:
            return db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        except sqlite3.OperationalError:
            return 0


def command(src: Path, hyp: Path, server: JudgeServer, cache: Path, concurrency: int) -> list[str]:
    return [*CLI, "--src", str(src), "--hyp", str(hyp), "--base-url", server.base_url, "--model", "sim",
            "--cache", str(cache), "--concurrency", str(concurrency), "--json"]


def run_cli(cmd: list[str]) -> dict:
    done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "OPENAI_API_KEY": ""})
    if done.returncode != 0:
        raise SystemExit(f"gecscore dsgram failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def strip(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "judge"}


def dsgram_and_resume(n: int, latency: float, work: Path) -> dict:
    sources, hypotheses = pairs(n)
    src, hyp = work / "src.txt", work / "hyp.txt"
    src.write_text("\n".join(sources) + "\n")
    hyp.write_text("\n".join(hypotheses) + "\n")
    report: dict = {}
    with JudgeServer(DSGramSimulator(latency=latency)) as server:
        start = time.perf_counter()
        full = run_cli(command(src, hyp, server, work / "full.sqlite", 8))
        report["full_run"] = {"seconds": round(time.perf_counter() - start, 2), "server_requests": server.requests,
                              "result": full}
    with JudgeServer(DSGramSimulator(latency=latency)) as server:
        cache = work / "resume.sqlite"
        cmd = command(src, hyp, server, cache, 4)
        target = report["full_run"]["server_requests"] // 2
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env={**os.environ, "OPENAI_API_KEY": ""})
        while server.requests < target and process.poll() is None:
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
        process.wait()
        killed = {"server_requests": server.requests, "cache_rows": cache_rows(cache)}
        before = server.requests
        rerun = run_cli(cmd)
        rerun_requests = server.requests - before
        before = server.requests
        third = run_cli(cmd)
        report["kill_and_resume"] = {
            "killed_after": killed,
            "rerun": {"server_requests": rerun_requests, "judge": rerun["judge"], "cache_rows": cache_rows(cache)},
            "third_run": {"server_requests": server.requests - before, "judge": third["judge"]},
            "cache_served_every_finished_call": rerun["judge"]["cache_hits"] == killed["cache_rows"],
            "server_saw_only_the_rest": rerun_requests == rerun["judge"]["calls"],
            "same_result_as_uninterrupted": strip(rerun) == strip(full) == strip(third),
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the server waits per reply")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = {"throughput": throughput(args.requests, args.latency)}
    with tempfile.TemporaryDirectory() as work:
        report.update(dsgram_and_resume(args.pairs, args.latency, Path(work)))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    t = report["throughput"]
    print(f"Judge throughput, {args.requests} requests, {args.latency * 1000:.0f} ms per reply:")
    for c in (1, 8):
        info = t[f"concurrency_{c}"]
        print(f"  concurrency {c}: {info['seconds']:.2f} s, {info['requests_per_s']:.1f} requests/s ({info['ok']} ok)")
    print(f"  speedup: {t['speedup']}x")
    full = report["full_run"]
    result = full["result"]
    print(f"\nDSGram over {args.pairs} pairs: {full['seconds']} s, {full['server_requests']} server requests")
    print(f"  score {result['score']:.4f}  SC {result['semantic_coherence']:.3f}  EL {result['edit_level']:.3f}  "
          f"F {result['fluency']:.3f}  overall {result['overall']:.3f}")
    print("  mean weights " + ", ".join(f"{k} {v:.4f}" for k, v in result["weights"].items()))
    print(f"  n_inconsistent {result['n_inconsistent']}, n_failed {result['n_failed']}, "
          f"n_weights_fallback {result['n_weights_fallback']}, n_reciprocity_repaired "
          f"{result['n_reciprocity_repaired']}")
    print(f"  judge: {json.dumps(result['judge'])}")
    k = report["kill_and_resume"]
    print(f"\nKilled after {k['killed_after']['server_requests']} server requests with "
          f"{k['killed_after']['cache_rows']} answers committed to the cache")
    print(f"  rerun: {k['rerun']['server_requests']} server requests, judge {json.dumps(k['rerun']['judge'])}")
    print(f"  third run: {k['third_run']['server_requests']} server requests")
    print(f"  cache served every finished call: {k['cache_served_every_finished_call']}; server saw only the "
          f"rest: {k['server_saw_only_the_rest']}; same result as the uninterrupted run: "
          f"{k['same_result_as_uninterrupted']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
