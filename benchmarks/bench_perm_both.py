"""Cost of the PERM-BOTH significance matrix behind docs/significance_clusters.md (not a test).

    python benchmarks/bench_perm_both.py --leaderboard OUT/leaderboard.json [--human seeda-S-TS]
    python benchmarks/bench_perm_both.py                 # synthetic scores of the same shape

Times :func:`gecscore.metaeval.perm_both.rank_metrics` (every pair of metric configurations,
``k`` draws each with the reference's early stopping, then the ranks) for each system-level
statistic, on the system scores of a leaderboard run (``gecscore leaderboard ... --out OUT``:
its ``leaderboard.json`` has every configuration's score of every system and the human
rankings) over the systems of one human ranking. Without ``--leaderboard``: 18 configurations x
12 systems of seeded synthetic scores (the shape of SEEDA's model-free board). Prints, per
statistic, the seconds, the seconds per pair, the draws taken and the ratio of the time to the
budget (``--budget``, 30 s). With mt-metrics-eval importable (``PYTHONPATH``; it is not a
dependency), ``--reference N`` also times its ``stats.PermutationSigDiff`` on the first N pairs
and prints the speed ratio.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

from gecscore.metaeval.draw_statistics import SYSTEM_STATISTICS, system_statistic
from gecscore.metaeval.perm_both import PermBothParams, perm_both, rank_metrics


def board_scores(path: Path, human_name: str) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    board = json.loads(path.read_text(encoding="utf-8"))
    if human_name not in board.get("human", {}):
        sys.exit(f"{path} has no human ranking {human_name!r}; it has: {', '.join(board.get('human', {}))}")
    human = board["human"][human_name]
    metrics = {config: {s: board["systems"][s][config]["score"] for s in human} for config in board["configs"]}
    return human, metrics


def synthetic_scores(configs: int = 18, systems: int = 12, seed: int = 0):
    rng = np.random.default_rng(seed)
    names = [f"s{i:02d}" for i in range(systems)]
    truth = rng.normal(size=systems)
    human = dict(zip(names, truth))
    metrics = {f"config-{c:02d}": dict(zip(names, truth + rng.uniform(0.2, 1.5) * rng.normal(size=systems)))
               for c in range(configs)}
    return human, metrics


def reference_seconds(human, metrics, pairs: int, k: int) -> float | None:
    """Seconds of mt-metrics-eval's PermutationSigDiff (Pearson) per pair, if importable."""
    try:
        import scipy.stats
        from mt_metrics_eval import stats
    except ImportError:
        print("mt-metrics-eval is not importable: no speed ratio (put it on PYTHONPATH)")
        return None
    gold = list(human.values())
    vectors = {m: [scores[s] for s in human] for m, scores in metrics.items()}
    chosen = list(itertools.combinations(vectors, 2))[:pairs]
    start = time.perf_counter()
    for a, b in chosen:
        stats.PermutationSigDiff(stats.Correlation(len(gold), gold, vectors[a]),
                                 stats.Correlation(len(gold), gold, vectors[b]), scipy.stats.pearsonr, "none", k)
    return (time.perf_counter() - start) / len(chosen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaderboard", type=Path, help="a leaderboard.json (default: synthetic scores)")
    parser.add_argument("--human", default="seeda-S-TS", help="the human ranking of the leaderboard to use")
    parser.add_argument("--k", type=int, default=1000, help="draws per pair (default 1000)")
    parser.add_argument("--statistics", nargs="+", default=list(SYSTEM_STATISTICS), choices=SYSTEM_STATISTICS)
    parser.add_argument("--budget", type=float, default=30.0, help="seconds the full matrix may take (default 30)")
    parser.add_argument("--reference", type=int, default=0, metavar="N",
                        help="also time mt-metrics-eval on N pairs (Pearson), if importable")
    args = parser.parse_args()
    if args.leaderboard:
        human, metrics = board_scores(args.leaderboard, args.human)
        source = f"{args.leaderboard} ({args.human})"
    else:
        human, metrics = synthetic_scores()
        source = "synthetic (seed 0)"
    n_pairs = len(metrics) * (len(metrics) - 1) // 2
    print(f"{len(metrics)} configurations x {len(human)} systems from {source}: {n_pairs} pairs, k = {args.k}")
    print(f"{'statistic':<22} {'seconds':>8} {'ms/pair':>8} {'draws':>8} {'/budget':>8}  ranks")
    total = 0.0
    params = PermBothParams(k=args.k)
    for name in args.statistics:
        statistic = system_statistic(name, human)
        rank_metrics(dict(itertools.islice(metrics.items(), 2)), statistic, params=params)   # warm up imports
        start = time.perf_counter()
        ranking = rank_metrics(metrics, statistic, params=params)
        seconds = time.perf_counter() - start
        total += seconds
        draws = sum(ranking.draws[i][j] for i in range(len(ranking.names)) for j in range(i + 1, len(ranking.names)))
        print(f"{name:<22} {seconds:8.2f} {1000 * seconds / n_pairs:8.2f} {draws:8d} {seconds / args.budget:8.3f}  "
              f"{max(ranking.ranks)} ranks")
    print(f"{'all of them':<22} {total:8.2f}")
    if args.reference:
        per_pair = reference_seconds(human, metrics, args.reference, args.k)
        if per_pair is not None:
            statistic = system_statistic("pearson", human)
            vectors = list(metrics.values())
            start = time.perf_counter()
            for a, b in list(itertools.combinations(vectors, 2))[:args.reference]:
                perm_both(statistic.vector(a), statistic.vector(b), statistic, params)
            ours = (time.perf_counter() - start) / args.reference
            print(f"pearson, one pair: mt-metrics-eval {1000 * per_pair:.1f} ms, ours {1000 * ours:.2f} ms "
                  f"(ratio {per_pair / ours:.0f}x); the reference's full matrix: about {per_pair * n_pairs:.0f} s")


if __name__ == "__main__":
    main()
