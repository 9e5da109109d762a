"""How long a single line each metric handles, and what happens past it.

One corpus of ONE sentence of ``n`` tokens (random words from a small English vocabulary);
the reference changes every ``--every``-th token (substitutions, insertions and deletions in
turn), the hypothesis changes a different, overlapping set, so every step has real work:
ERRANT on the reference (prepare) and on the hypothesis (CLEME), CLEME's chunking, the
MaxMatch lattice (PT-M2 with ``base=m2``), the I-measure's 3-way alignment. ``n`` doubles from
``--start`` until a run takes longer than ``--budget`` seconds (default 60), fails or runs out
of memory; each run is a fresh process (so the spaCy model load, about 1 s, is counted once in
the ``load`` column and not in the others) limited to ``--memory-gb`` of address space.

    python benchmarks/bench_long_lines.py [--metrics cleme2 pt_m2 imeasure] [--budget 60] [--gold-m2]

``--gold-m2`` gives the reference edits as M2 lines (``--m2 GOLD`` on the command line), so no
ERRANT runs on the reference side and only the metric's own bounds apply.

Prints one row per (metric, n): prepare seconds (reference side: ERRANT, the gold), score
seconds (hypothesis side), peak RSS, and the outcome (ok, the error's type and first line,
"timeout" or "out of memory"); then the longest line within the budget per metric.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time

VOCAB = ("the", "a", "cat", "dog", "sat", "on", "mat", "and", "he", "she", "go", "went", "to", "school",
         "is", "was", "very", "happy", "in", "park", "with", "friends", "they", "play", "played", "big",
         "house", "of", "for", "at", "it", "good", "day", "we", "have", "had", "been", "there", ".", ",")
OPTIONS = {"cleme2": {}, "cleme": {}, "pt_m2": {"scorer": "none"}, "imeasure": {}}


def make_line(n: int, every: int, seed: int) -> tuple[str, str, str, list[str]]:
    """(source, reference, hypothesis, the reference's M2 lines) of ``n`` tokens."""
    rng = random.Random(seed)
    source = [rng.choice(VOCAB) for _ in range(n)]

    def corrupt(offset: int, m2: list[str]) -> list[str]:
        out = []
        for i, token in enumerate(source):
            if (i + offset) % every:
                out.append(token)
                continue
            kind = (i // every) % 3
            if kind == 0:
                new = rng.choice(VOCAB)
                out.append(new)
                m2.append(f"A {i} {i + 1}|||R:X|||{new}|||REQUIRED|||-NONE-|||0")
            elif kind == 1:
                new = rng.choice(VOCAB)
                out += [token, new]
                m2.append(f"A {i + 1} {i + 1}|||M:X|||{new}|||REQUIRED|||-NONE-|||0")
            else:
                m2.append(f"A {i} {i + 1}|||U:X||||||REQUIRED|||-NONE-|||0")
        return out or [source[0]]

    m2 = ["S " + " ".join(source)]
    reference = corrupt(0, m2)
    return " ".join(source), " ".join(reference), " ".join(corrupt(every // 2 or 1, [])), m2


def child(metric: str, n: int, every: int, seed: int, memory_gb: float, gold_m2: bool) -> None:
    if memory_gb:
        limit = int(memory_gb * 2 ** 30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import gecscore
    from gecscore.lang.en.extractor import shared_extractor

    started = time.perf_counter()
    shared_extractor()  # the spaCy model
    load = time.perf_counter() - started
    source, reference, hypothesis, m2 = make_line(n, every, seed)
    m = gecscore.load(metric, **OPTIONS[metric])
    out = {"load": load}
    try:
        started = time.perf_counter()
        if gold_m2:  # the reference edits as given (an M2 gold file): no ERRANT on the reference
            from gecscore.io.m2 import parse_m2
            from gecscore.types import GoldCorpus

            prepared = m.prepare(GoldCorpus(tuple(parse_m2(m2, "bench.m2")), "m2", "bench.m2"))
        else:
            prepared = m.prepare_text([source], [[reference]])
        out["prepare"] = time.perf_counter() - started
        started = time.perf_counter()
        result = m.score(prepared, [hypothesis])
        out["score_s"] = time.perf_counter() - started
        out["value"] = float(result.score)
        out["outcome"] = "ok"
    except MemoryError:
        out["outcome"] = "out of memory (MemoryError)"
    except Exception as error:  # noqa: BLE001 - reported, the point of the benchmark
        out["outcome"] = f"{type(error).__name__}: {str(error).splitlines()[0][:160]}"
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def run_one(metric: str, n: int, args) -> dict:
    command = [sys.executable, __file__, "--child", metric, str(n), "--every", str(args.every),
               "--seed", str(args.seed), "--memory-gb", str(args.memory_gb)] + (["--gold-m2"] if args.gold_m2 else [])
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.budget + 15)
    except subprocess.TimeoutExpired:
        return {"outcome": f"timeout (> {args.budget + 15:g} s wall)", "wall": time.perf_counter() - started}
    wall = time.perf_counter() - started
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        tail = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        kind = "out of memory" if done.returncode in (-9, 137) or "MemoryError" in done.stderr else "crash"
        return {"outcome": f"{kind}: {tail[:160]}", "wall": wall}
    result = json.loads(lines[-1])
    result["wall"] = wall
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--metrics", nargs="+", default=["cleme2", "pt_m2", "imeasure"], choices=list(OPTIONS))
    parser.add_argument("--start", type=int, default=100)
    parser.add_argument("--max-tokens", type=int, default=102400)
    parser.add_argument("--budget", type=float, default=60.0, help="seconds for prepare + score")
    parser.add_argument("--every", type=int, default=8, help="change every k-th token")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--memory-gb", type=float, default=8.0, help="address-space limit per run (0: none)")
    parser.add_argument("--gold-m2", action="store_true",
                        help="reference edits from M2 lines (as with --m2 GOLD): no ERRANT on the reference")
    parser.add_argument("--child", nargs=2, metavar=("METRIC", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), args.every, args.seed, args.memory_gb, args.gold_m2)
        return
    print(f"cpus {os.cpu_count()}; budget {args.budget:g} s; memory limit {args.memory_gb:g} GB; "
          f"one edit every {args.every} tokens; gold {'M2 edits' if args.gold_m2 else 'ERRANT on the reference'}")
    print(f"{'metric':9} {'tokens':>7} {'prepare s':>10} {'score s':>9} {'total s':>8} {'RSS MB':>8}  outcome")
    longest = {}
    for metric in args.metrics:
        n = args.start
        while n <= args.max_tokens:
            r = run_one(metric, n, args)
            total = r.get("prepare", 0.0) + r.get("score_s", 0.0)
            print(f"{metric:9} {n:7d} {r.get('prepare', float('nan')):10.2f} {r.get('score_s', float('nan')):9.2f} "
                  f"{total:8.2f} {r.get('rss_mb', float('nan')):8.0f}  {r['outcome']}", flush=True)
            if r["outcome"] != "ok" or total > args.budget:
                break
            longest[metric] = (n, total)
            n *= 2
    print()
    for metric in args.metrics:
        n, total = longest.get(metric, (0, 0.0))
        print(f"{metric}: longest line within {args.budget:g} s: {n} tokens ({total:.1f} s)")


if __name__ == "__main__":
    main()
