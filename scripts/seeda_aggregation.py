"""System-level correlations on the SEEDA subset under each aggregation of sentence scores
(``gecscore leaderboard --aggregation``; Goto et al. 2025): the table of docs/leaderboard.md.

    python scripts/seeda_aggregation.py [--set base] [--metrics green-sentence m2-corpus] [--data-dir DIR]

Scores the SEEDA subset outputs of the set's systems only (so the pairwise comparisons are among
them) against the CoNLL-2014 gold restricted to the subset, then prints r / rho against SEEDA-S
and SEEDA-E TrueSkill for ``mean``, ``trueskill`` and ``expected-wins``. CoNLL-2014 and SEEDA are
found by name in the data folder (``--data-dir``, else ``$GEC_DATA``, else the per-user one) and
fetched there on first use; without them the script exits 2 with one line.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

AGGREGATIONS = ("mean", "trueskill", "expected-wins")


def table(system_set: str, metrics: list[str], data_dir: str | Path | None = None) -> list[str]:
    """Markdown rows: one per metric, r / rho per aggregation and human ranking."""
    from gecscore.io.text import read_lines
    from gecscore.metaeval.human import load_human, match_lines
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata.refsets import load_refset

    subset = data_root(["seeda"], data_dir) / "seeda" / "outputs" / "subset"
    refset = load_refset("conll14", data_dir)
    refset = refset.subset(match_lines(read_lines(subset / "INPUT.txt"), refset.sources))
    human = load_human(f"seeda-{system_set}", data_dir)
    systems = discover_systems(subset, only=list(human["seeda-S-TS"].systems))
    rankings = ("seeda-S-TS", "seeda-E-TS")
    lines = [f"| metric | {' | '.join(f'{a} {h}' for a in AGGREGATIONS for h in rankings)} |",
             "|---" * (1 + len(AGGREGATIONS) * len(rankings)) + "|"]
    cells: dict[str, list[str]] = {m: [] for m in metrics}
    for aggregation in AGGREGATIONS:
        board = run_leaderboard(refset, systems, metrics, human=human, progress=False, aggregation=aggregation)
        for metric in metrics:
            for h in rankings:
                c = board.correlations[metric][h]
                cells[metric].append(f"{c.pearson:.3f} / {c.spearman:.3f}")
    lines += [f"| {m} | {' | '.join(v)} |" for m, v in cells.items()]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", default="base", help="SEEDA system set: base, +input, +ref-f, all")
    parser.add_argument("--metrics", nargs="+", default=["green-sentence", "m2-corpus"])
    add_data_dir_option(parser)
    args = parser.parse_args()
    print("\n".join(table(args.set, args.metrics, args.data_dir)))


if __name__ == "__main__":
    run_script(main)
