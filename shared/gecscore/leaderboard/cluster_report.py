"""The sections of ``leaderboard.md`` for the segment level and the significance clusters
(:mod:`gecscore.leaderboard.clusters`): the configurations ranked on each human signal (the
ranking as mt-metrics-eval's ``PrintMetricComparison`` prints it, and the p-values), the
systems ranked under each configuration, and what could not be computed, named."""
from __future__ import annotations

from typing import TYPE_CHECKING

from gecscore.leaderboard.clusters import MetricClusters, system_cluster_test
from gecscore.result_text import number

if TYPE_CHECKING:
    from gecscore.leaderboard.board import Leaderboard

RANK_RULE = ("1 is the best; a configuration starts a new rank when one above it in the current rank beats it at "
             "p <= alpha (mt-metrics-eval's AssignRanks, the rule of the WMT metrics tasks)")


def _fmt(value: float | None, digits: int = 3) -> str:
    return number(value, f".{digits}f")


def segment_level_markdown(board: Leaderboard) -> list[str]:
    """Per set of segment-level human scores: each configuration's soft pairwise accuracy and
    its correlations within each segment, averaged over the segments."""
    if not board.segment_level:
        return []
    humans = list(dict.fromkeys(h for by_h in board.segment_level.values() for h in by_h))
    lines = []
    for human in humans:
        rows = [(config, by_h[human]) for config, by_h in board.segment_level.items() if human in by_h]
        first = rows[0][1].spa
        lines += ["", f"## Segment level on {human} (soft pairwise accuracy; correlations within each segment)", "",
                  f"SPA (Thompson et al. 2024): 1 - the mean over system pairs of |p(human) - p(metric)|, each p a "
                  f"paired permutation test over the {first.segments} rated segments ({first.num_permutations} "
                  f"permutations, seed {first.seed}; {first.unrated} unrated segments left out). r, rho, tau_b and "
                  f"acc_eq: within each segment over the {len(first.systems)} systems, averaged over the segments "
                  f"where defined (mt-metrics-eval's average_by=\"item\"; how many in the last column).", "",
                  "| metric | SPA | r | rho | tau_b | acc_eq | segments (r / acc_eq) |",
                  "|---|---|---|---|---|---|---|"]
        for config, agreement in rows:
            item = agreement.item
            if item is None:
                cells = ["-"] * 4 + ["-"]
            else:
                cells = [_fmt(item.pearson), _fmt(item.spearman), _fmt(item.kendall), _fmt(item.acc_eq),
                         f"{item.defined['pearson']} / {item.defined['acc_eq']}"]
            lines.append(f"| {config} | {_fmt(agreement.spa.value, 4)} | " + " | ".join(cells) + " |")
    return lines


def _over(result: MetricClusters) -> str:
    if result.level == "system":
        return f"{len(result.systems)} systems"
    settings = ", ".join(f"{k} {v}" for k, v in result.settings.items())
    what = "outputs of sentences" if result.level == "sentence" else "outputs of segments"
    return f"{result.cells} {what} of {len(result.systems)} systems; {settings}"


def metric_clusters_markdown(board: Leaderboard) -> list[str]:
    """Per level and human signal: the configurations in significance clusters (PERM-BOTH),
    as the reference prints them, the p-value of every pair, and those left out."""
    options = board.cluster_options
    if options is None or not board.metric_clusters:
        return []
    lines = []
    for level, by_human in board.metric_clusters.items():
        for human, result in by_human.items():
            lines += ["", f"## Metrics in significance clusters on {human} ({level} level, {result.statistic})", ""]
            if result.ranking is None:
                lines.append(f"Not computed: {result.undefined}.")
            else:
                ranking = result.ranking
                lines += [f"{result.statistic} of each configuration over {_over(result)}. Every pair by PERM-BOTH "
                          f"(Deutsch, Dror and Roth 2021, as mt-metrics-eval's PermutationSigDiff: the one-sided p that the "
                          f"configuration above is better; `{ranking.test}`). Ranks at alpha {ranking.alpha:g}: "
                          f"{RANK_RULE}. In the first block `>` marks p < alpha against the configuration of that "
                          f"column (in the order of the rows), `=` not; the second gives the p-values.", "",
                          "```text", ranking.text(), "```", "", "```text", ranking.text(probabilities=True), "```"]
            if result.left_out:
                lines += ["", "Left out:", ""]
                lines += [f"- `{config}`: {reason}" for config, reason in result.left_out.items()]
    return lines


def system_clusters_markdown(board: Leaderboard, order: list[str]) -> list[str]:
    """Each configuration's rank of each system (systems in ``order``), then each ranking as
    the reference prints it, and the configurations left out."""
    options = board.cluster_options
    if options is None or not options.systems:
        return []
    lines = ["", f"## Systems in significance clusters ({system_cluster_test(options)}, alpha {options.alpha:g})", "",
             "Per configuration, every pair of systems by the test `gecscore compare` reports, on the configuration's "
             "own score; ranks by the rule of the metric clusters (1 is the best; a system starts a new rank when one "
             "above it in the current rank beats it at p <= alpha). Every p-value is in `leaderboard.json` "
             "(`system_clusters`)."]
    configs = [c.name for c in board.configs if c.name in board.system_clusters]
    if configs:
        ranks = {c: board.system_clusters[c].rank_of() for c in configs}
        lines += ["", "| system | " + " | ".join(configs) + " |", "|---" * (len(configs) + 1) + "|"]
        lines += [f"| {s} | " + " | ".join(str(ranks[c].get(s, "-")) for c in configs) + " |" for s in order]
        for config in configs:
            lines += ["", f"<details><summary>{config}</summary>", "", "```text", board.system_clusters[config].text(),
                      "```", "", "</details>"]
    if board.system_clusters_left_out:
        lines += ["", "Left out:", ""]
        lines += [f"- `{config}`: {reason}" for config, reason in board.system_clusters_left_out.items()]
    return lines


def cluster_notes_markdown(board: Leaderboard) -> list[str]:
    """What the segment level and the clusters could not compute, one sentence each."""
    if not board.cluster_notes:
        return []
    return ["", "## Not computed (segment level and clusters)", "", *(f"- {note}" for note in board.cluster_notes)]
