"""Recompute the human Expected Wins and TrueSkill scores of GJG15 and SEEDA from their raw
judgments and print them beside the published scores and rankings.

    python scripts/human_trueskill.py [--runs 1000] [--bootstrap 1000] [--seed 0] [--data-dir DIR]

Procedure: :mod:`gecscore.metaeval.trueskill_human` (GJG15's print_pairs.pl, EW.py, TS.py and
cluster.py). EW is printed as the all-pairs score and as the bootstrap mean (the published
one); TS is the mean ``mu`` over ``--runs`` seeded runs (the original: 1,000 unseeded runs; 100
by default: about 4 minutes for GJG15, 1 for each SEEDA file), with its standard error.
For each set: whether the recomputed ranking equals the published one, and the largest
absolute score difference. GJG15 and SEEDA are found by name in the data folder (``--data-dir``,
else ``$GEC_DATA``, else the per-user one) and fetched there on first use.
"""
from __future__ import annotations

import argparse
import time

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script
from gecscore.metaeval.human import gjg15_scores, seeda_scores
from gecscore.metaeval.trueskill_human import expected_wins, ranking, read_pairs, trueskill_scores


SETS = {"gjg15": "gjg15", "seeda-sent": "seeda", "seeda-edit": "seeda"}   # -> the named set it reads


def compare(label: str, published: dict[str, float], recomputed: dict[str, float],
            stderr: dict[str, float] | None = None) -> tuple[bool, float]:
    systems = [s for s in ranking(published) if s in recomputed]
    mine = {s: recomputed[s] for s in systems}
    same = ranking(mine) == systems
    biggest = max(abs(published[s] - mine[s]) for s in systems)
    print(f"\n== {label}: ranking {'EQUAL' if same else 'DIFFERENT'} to the published one; "
          f"largest |difference| {biggest:.4f}")
    print(f"{'system':14s} {'published':>10s} {'recomputed':>11s} {'diff':>8s} {'rank pub/ours':>14s}"
          + ("  stderr" if stderr else ""))
    ours_rank = ranking(mine)
    for position, s in enumerate(systems, start=1):
        tail = f"  {stderr[s]:.4f}" if stderr else ""
        print(f"{s:14s} {published[s]:10.3f} {mine[s]:11.4f} {mine[s] - published[s]:8.4f} "
              f"{position:>6d}/{ours_rank.index(s) + 1:<7d}{tail}")
    return same, biggest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_dir_option(parser)
    parser.add_argument("--runs", type=int, default=100, help="TrueSkill runs (the original: 1000)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="EW bootstrap resamples (the original: 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sets", default="gjg15,seeda-sent,seeda-edit")
    args = parser.parse_args()
    names = args.sets.split(",")
    unknown = [n for n in names if n not in SETS]
    if unknown:
        parser.error(f"--sets: unknown {', '.join(unknown)}; expected some of {', '.join(SETS)}")
    data = data_root([SETS[n] for n in names], args.data_dir)
    gjg15, seeda = data / "gjg15", data / "seeda"

    def published_gjg15() -> dict[str, dict[str, float]]:
        rankings = gjg15_scores(gjg15 / "human_scores.tsv")
        return {m: rankings[f"gjg15-{m}"].scores for m in ("EW", "TS")}

    def published_seeda(label: str) -> dict[str, dict[str, float]]:
        rankings = seeda_scores(seeda / "human", "all")
        return {m: rankings[f"seeda-{label}-{m}"].scores for m in ("EW", "TS")}

    sets = {
        "gjg15": (gjg15 / "judgments.xml", published_gjg15),
        "seeda-sent": (seeda / "judgments_sent.xml", lambda: published_seeda("S")),
        "seeda-edit": (seeda / "judgments_edit.xml", lambda: published_seeda("E")),
    }
    for name in names:
        path, published = sets[name]
        published = published()
        pairs = read_pairs(path)
        print(f"\n##### {name}: {len(pairs)} pairwise comparisons from {path.name}")
        compare(f"{name} EW (all pairs)", published["EW"], expected_wins(pairs))
        compare(f"{name} EW (bootstrap mean of {args.bootstrap}, seed {args.seed})", published["EW"],
                expected_wins(pairs, args.bootstrap, args.seed))
        start = time.time()
        ts = trueskill_scores(pairs, args.runs, args.seed)
        compare(f"{name} TS (mean of {args.runs} runs, seed {args.seed}; {time.time() - start:.0f} s)",
                published["TS"], ts.mean, ts.stderr)


if __name__ == "__main__":
    run_script(main)
