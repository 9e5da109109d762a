"""Regenerate docs/choosing_a_metric.md: every model-free metric configuration ranked in
significance clusters on the human judgments of GJG15 and SEEDA.

    python scripts/choosing_a_metric.py                  # writes choosing_a_metric/ (the page, the boards)
    python scripts/choosing_a_metric.py --update-docs    # and rewrites docs/choosing_a_metric.md
    python scripts/choosing_a_metric.py --model bert-base-uncased                     # + BERTScore-weighted ones
    python scripts/choosing_a_metric.py --judge-base-url URL --judge-model NAME        # + the judged ones

Two leaderboards are run through the library (``gecscore.leaderboard.board.run_leaderboard``)
on named sets found by name (``gecscore.benchdata``: ``$GEC_DATA``, else the per-user data
folder; fetched on first use): CoNLL-2014's systems on the official gold against GJG15's
Expected Wins and TrueSkill rankings, and SEEDA's 12 base systems on the 391 sentences of its
subset against SEEDA-S and SEEDA-E, at system level (TrueSkill and Expected Wins) and sentence
level (the pairwise judgments). The configurations are every preset that needs no model
(``Configuration.needs == ""``: 22 of 35); ``--model`` adds those weighing edits with a
BERTScore model, ``--judge-*`` those asking an LLM judge, and the page says which model each
ran with. Each configuration is ranked by PERM-BOTH with the clusters of
``gecscore.leaderboard.clusters`` (seeded: the same data and code give the same page, byte for
byte). Each board's ``leaderboard.md`` and ``leaderboard.json`` (every p-value) are written
under ``--out`` beside the page.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS_PAGE = REPO / "docs" / "choosing_a_metric.md"
PAGE_NAME = "choosing_a_metric.md"


@dataclass(frozen=True)
class BoardSpec:
    """One leaderboard of the page: the systems (a data-folder path), the gold, the human
    rankings, and for SEEDA the subset of sentences and the sentence-level judgments."""

    name: str
    systems: str
    systems_in_shell: str
    human: str
    subset: str | None = None
    judgments: bool = False
    sentence_set: str | None = None
    refset: str = "conll14"

    def command(self, metrics: list[str], options: list[str]) -> str:
        """The ``gecscore leaderboard`` command that makes the same board (the folders by
        ``gecscore data path``)."""
        parts = [f"gecscore leaderboard --refset {self.refset} --systems {self.systems_in_shell}"]
        if self.subset:
            parts.append(f'--subset-source {self.systems_in_shell}/{Path(self.subset).name}')
        parts.append(f"--human {self.human}")
        if self.judgments:
            parts.append(f"--sentence-judgments seeda --sentence-set {self.sentence_set}")
        parts += options
        parts.append("--metrics " + " ".join(metrics))
        return " \\\n    ".join(parts) + f" \\\n    --out {self.name}/"


GJG15 = BoardSpec("gjg15", "conll14/systems", '"$(gecscore data path conll14-systems)"', "gjg15")
SEEDA = BoardSpec("seeda", "seeda/outputs/subset", '"$(gecscore data path seeda)/outputs/subset"', "seeda-base",
                  subset="seeda/outputs/subset/INPUT.txt", judgments=True, sentence_set="base")
# (board, level, human signal) of each ranking the page shows with its table, in page order
SHOWN = {"gjg15": [("system", "gjg15-EW"), ("system", "gjg15-TS")],
         "seeda": [("system", "seeda-S-TS"), ("system", "seeda-E-TS"),
                   ("sentence", "SEEDA-S"), ("sentence", "SEEDA-E")]}


def configurations(model: str | None, judge: bool) -> tuple[list[str], list[str]]:
    """The presets to run (model-free, plus the model-backed ones a model or judge was given
    for) and the model-backed ones left out."""
    from gecscore.leaderboard.configurations import resolve_configuration
    from gecscore.leaderboard.presets import PRESETS

    needs = {name: resolve_configuration(config).needs for name, config in PRESETS.items()}
    wanted = {"": True, "similarity": bool(model), "judge": judge}
    run = [n for n, need in needs.items() if wanted.get(need, False)]
    return run, [n for n in needs if n not in run]


def run_board(spec: BoardSpec, metrics: list[str], args: argparse.Namespace):
    """The leaderboard of ``spec`` with the significance clusters."""
    from gecscore.benchdata import require
    from gecscore.benchdata.refsets import load_refset
    from gecscore.cli.leaderboard import load_judgments
    from gecscore.io.text import read_lines
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.clusters import ClusterOptions
    from gecscore.leaderboard.processes import LocalProcesses
    from gecscore.leaderboard.run_wide import RunWide
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.metaeval.human import load_human, match_lines, seeda_systems

    root = require([f"{spec.systems}/INPUT.txt"] + ([spec.subset] if spec.subset else []), args.data_dir)
    refset = load_refset(spec.refset, args.data_dir)
    if spec.subset:
        refset = refset.subset(match_lines(read_lines(root / spec.subset), refset.sources, spec.subset,
                                           f"reference set {refset.name}"))
    systems = discover_systems(str(root / spec.systems), None, None)
    judgments = load_judgments(["seeda"], args.data_dir) if spec.judgments else None
    judge = {"base_url": args.judge_base_url, "model": args.judge_model} if args.judge_base_url else {}
    options = RunWide(similarity={"model": args.model} if args.model else {}, judge=judge)
    sentence_systems = seeda_systems(spec.sentence_set, [s.name for s in systems]) if spec.sentence_set else None
    return run_leaderboard(refset, systems, metrics, human=load_human(spec.human, args.data_dir),
                           executor=LocalProcesses(args.jobs), options=options, judgments=judgments,
                           sentence_systems=sentence_systems, seed=args.seed, alpha=args.alpha,
                           clusters=ClusterOptions(draws=args.draws, alpha=args.alpha, seed=args.seed))


# ---------------------------------------------------------------- the page

def _number(value: float | None) -> str:
    from gecscore.result_text import number

    return number(value, ".3f")


def ranking_table(board, shown: list[tuple[str, str]]) -> list[str]:
    """One row per configuration (sorted by the first ranking's order): the statistic and the
    rank in each ranking; a configuration left out of a ranking reads ``left out`` there, with
    the reason under the table."""
    results = [board.metric_clusters[level][human] for level, human in shown]
    first = results[0].ranking
    names = list(first.names) if first is not None else []
    names += [c.name for c in board.configs if c.name not in names]
    header = "| metric | " + " | ".join(f"{r.human} {r.statistic} | rank" for r in results) + " |"
    lines = [header, "|---" * (2 * len(results) + 1) + "|"]
    notes = []
    for name in names:
        cells = []
        for result in results:
            ranking = result.ranking
            if ranking is not None and name in ranking.names:
                i = ranking.names.index(name)
                cells += [_number(ranking.values[i]), str(ranking.ranks[i])]
            else:
                cells += ["left out", "-"]
                reason = result.left_out.get(name) or result.undefined
                notes.append(f"`{name}` on {result.human}: {reason}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if notes:
        lines += ["", "Left out (no number is given for them): " + "; ".join(notes) + "."]
    return lines


def ranking_blocks(board, shown: list[tuple[str, str]]) -> list[str]:
    """Each ranking as mt-metrics-eval's PrintMetricComparison prints it."""
    lines = []
    for level, human in shown:
        result = board.metric_clusters[level][human]
        if result.ranking is None:
            lines += ["", f"{human}: not computed: {result.undefined}."]
            continue
        lines += ["", f"{human} ({level} level, {result.statistic}; `>`: p < {result.ranking.alpha:g} against the "
                      "configuration of that column, in the order of the rows):", "", "```text", result.ranking.text(),
                  "```"]
    return lines


def first_rank(boards: dict, level: str) -> list[str]:
    """The configurations in rank 1 of every ranking shown at ``level``."""
    rankings = [boards[b].metric_clusters[lv][h].ranking for b, shown in SHOWN.items() for lv, h in shown
                if lv == level and boards[b].metric_clusters[lv][h].ranking is not None]
    if not rankings:
        return []
    return [n for n in rankings[0].names if all(n in r.names and r.rank_of()[n] == 1 for r in rankings)]


def mostly_first(boards: dict, level: str) -> list[str]:
    """The configurations in rank 1 of all but one of the rankings shown at ``level``."""
    rankings = [boards[b].metric_clusters[lv][h].ranking for b, shown in SHOWN.items() for lv, h in shown
                if lv == level and boards[b].metric_clusters[lv][h].ranking is not None]
    counts = {n: sum(1 for r in rankings if n in r.names and r.rank_of()[n] == 1) for n in rankings[0].names}
    return [n for n, count in counts.items() if count == len(rankings) - 1]


def widths(boards: dict) -> str:
    parts = []
    for board_name, shown in SHOWN.items():
        for level, human in shown:
            ranking = boards[board_name].metric_clusters[level][human].ranking
            if ranking is not None:
                parts.append(f"{human} {len(ranking.names)} in {max(ranking.ranks)}")
    return "; ".join(parts)


CLUSTERS_PARAGRAPH = (
    "**What the clusters mean, and what they do not.** Every pair of configurations is tested with "
    "PERM-BOTH (Deutsch, Dror and Roth 2021), the permutation test the WMT metrics tasks rank metrics with "
    "(mt-metrics-eval's `PermutationSigDiff`): is the correlation (or accuracy) of the configuration above "
    "significantly higher, one-sided p <= {alpha:g}? Going down the list, a configuration starts a new rank "
    "when some configuration above it *in the current rank* beats it (mt-metrics-eval's `AssignRanks`). So "
    "configurations sharing a rank are ones these data could not tell apart, and rank 1 is the group nobody "
    "significantly beats, not \"the best metric\". A shared rank is not evidence that two metrics are equally "
    "good (no test of equivalence is made), and being two ranks apart does not mean every member of one beats "
    "every member of the other: the rule compares within the current rank only. With 12 or 13 systems a "
    "system-level correlation is uncertain (a difference of 0.05 in r is rarely significant), so the "
    "system-level clusters are wide; the sentence level compares thousands of pairs of outputs and separates "
    "far more finely, but answers another question (which of two corrections of one sentence is better, not "
    "which system is). All of it is about these systems, sentences and raters: another test set, or systems "
    "of another spread, can reorder the top. Configurations whose statistic is undefined (constant scores) are "
    "left out and named, never given a number.")

STATIC_SECTIONS = """## Robustness: adversarial systems

Not regenerated by this script: from the runs of [metrics under attack](robustness.md), SEEDA's
15 outputs beside six generated and the four published attackers, scored on CoNLL-2014. No
reference-based configuration lets an attacker above the best real system; the best attacker
beats at most INPUT (rank 15 of 16) under GLEU, GREEN, CLEME2.0, CLEME, ERRANT, M2 and
GoToScorer. The I-measure is the exception: copying the source ranks 10th of 16, above five real
systems including the human rewrite REF-F. The reference-free metrics the attacks were built
against (SOME, IMPARA, Scribendi, LLM-S) need model weights that are not available offline here:
their ranks are not measured.

## Cost

Not regenerated by this script: wall time per 1,000 sentences from the robustness run (25
systems x 1,312 sentences, one configuration at a time, `--jobs 1`, ERRANT parses not yet
cached, a 2-core machine at load 2-7): GoToScorer without weights 0.55 s, GLEU 0.63 s, M2
(`segmentation="minimal"`) 1.6 s, GREEN 3.1 s (sentence level 3.5 s), I-measure 3.5 s, CLEME2.0
3.8 s, GoToScorer 4.4 s, ERRANT and CLEME 4.9 s. The ERRANT-based configurations pay mostly for
spaCy parsing, which the persistent cache (`gecscore cache info`) keeps for a known benchmark. M2
with its default `segmentation="reference"` (m2scorer's edit graph) is far slower on
whole-sentence rewrites such as the attacks (it was stopped after 26 minutes on this set).
"""


def model_paragraph(boards: dict, left_out: list[str]) -> str:
    """Which configurations ran, and with which model or judge."""
    options = next(iter(boards.values())).refset_options
    used = []
    if options.get("similarity_model"):
        used.append(f"the BERTScore-weighted configurations with `{options['similarity_model']}`")
    if options.get("judge"):
        used.append(f"the judged ones with `{options['judge']}`")
    ran = ("Model-backed configurations run: " + " and ".join(used) + ". ") if used else ""
    rest = (f"Not run here ({len(left_out)}, they need a model or a judge: `--model NAME` and `--judge-base-url URL "
            f"--judge-model NAME` add them, and the page then names the model): "
            + ", ".join(f"`{n}`" for n in left_out) + ".") if left_out else "Every preset ran."
    return ran + rest


def page(boards: dict, metrics: list[str], left_out: list[str], args: argparse.Namespace) -> str:
    from gecscore.leaderboard.configurations import resolve_configuration
    from gecscore.leaderboard.presets import PRESETS

    free = [n for n in metrics if not resolve_configuration(PRESETS[n]).needs]
    gjg15, seeda = boards["gjg15"], boards["seeda"]
    options = ["--cluster-draws", str(args.draws), "--alpha", f"{args.alpha:g}", "--seed", str(args.seed)]
    option_text = " ".join(options)
    n_seeda = len(seeda.human["seeda-S-TS"].systems)
    sentence = seeda.metric_clusters["sentence"]["SEEDA-S"]
    lines = [
        "# Choosing a metric", "",
        "<!-- Generated by scripts/choosing_a_metric.py (--update-docs); edit the script, not this page. -->", "",
        "Which metric should rank your systems? This page ranks every metric configuration of gecscore that needs no "
        "model against the human judgments of two data sets, in significance clusters, then adds what the "
        "robustness and cost measurements say. Every number below is regenerated by `python "
        "scripts/choosing_a_metric.py --update-docs` from the named sets (`gecscore data get conll14 "
        "conll14-systems gjg15 seeda`); each table's `gecscore leaderboard` command gives the same board, and its "
        "`leaderboard.md` and `leaderboard.json` hold every p-value. The [reproduction report](reproduction.md) "
        "sets our correlations beside the published ones.", "",
        f"The {len(free)} model-free configurations: " + ", ".join(f"`{n}`" for n in free) + ". (The ERRANT-based "
        "ones parse with spaCy's English model; none scores with a neural model.) "
        + model_paragraph(boards, left_out), "",
        CLUSTERS_PARAGRAPH.format(alpha=args.alpha), "",
        f"Draws: PERM-BOTH with {args.draws} draws per pair, seed {args.seed}; at system level all {args.draws} "
        "(the reference's parameters), at sentence level in blocks of 100 with the reference's early stopping "
        "(a pair stops once p < 0.02 or p > 0.5 after a block). Configurations with the same sentence scores (a "
        "corpus-level configuration and its sentence-level twin, e.g. `errant-corpus` and `errant-sentence`) tie "
        "exactly at sentence level.", "",
        f"## System level: GJG15 (CoNLL-2014's {len(gjg15.human['gjg15-TS'].systems)} systems)", "",
        "```bash", GJG15.command(metrics, [option_text]), "```", "",
        "Pearson r of each configuration's system scores with GJG15's Expected Wins and TrueSkill rankings "
        "(official CoNLL-2014 gold, 1,312 sentences), and its rank.", "",
        *ranking_table(gjg15, SHOWN["gjg15"]),
        *ranking_blocks(gjg15, SHOWN["gjg15"]), "",
        "CLEME2.0's default weights were tuned on GJG15 and SEEDA themselves: held out, its GJG15 r falls from 0.768 "
        "to 0.611 ([honest weights](tune_weights.md)). The same boards with Williams' test (the clusters "
        "nusnlp/gecmetrics reports) are in each `leaderboard.md`.", "",
        f"## System level: SEEDA ({n_seeda} base systems, the {seeda.n_sentences}-sentence subset)", "",
        "```bash", SEEDA.command(metrics, [option_text]), "```", "",
        "Pearson r with the TrueSkill rankings of SEEDA-S (sentence-based judgments) and SEEDA-E (edit-based), "
        "official CoNLL-2014 gold. (The Expected Wins rankings are in the board's `leaderboard.md`.)", "",
        *ranking_table(seeda, SHOWN["seeda"][:2]),
        *ranking_blocks(seeda, SHOWN["seeda"][:2]), "",
        "## Sentence level: SEEDA", "",
        f"The same board: for every pair of outputs of one sentence that SEEDA's raters ordered, does the "
        f"configuration's sentence score order them alike? Pairwise accuracy (metric ties {seeda.sentence_ties}: "
        f"counted in the denominator, as SEEDA's published cells), pooled over the ranking items, over the "
        f"{len(sentence.systems)} base systems ({sentence.cells} outputs of sentences under SEEDA-S). Kendall's "
        "tau variants and the tie-calibrated accuracy are in [ties and Kendall variants](sentence_ties.md).", "",
        *ranking_table(seeda, SHOWN["seeda"][2:]),
        *ranking_blocks(seeda, SHOWN["seeda"][2:]), "",
        STATIC_SECTIONS,
        "## In short", "",
        "- In rank 1 of every system-level ranking above (GJG15 EW and TS, SEEDA-S and SEEDA-E TrueSkill): "
        + (", ".join(f"`{n}`" for n in first_rank(boards, "system")) or "no configuration") + "; in rank 1 of "
        "three of the four: " + (", ".join(f"`{n}`" for n in mostly_first(boards, "system")) or "none") + ". "
        "Width of the clusters (configurations in ranks): " + widths(boards) + ".",
        "- At sentence level, rank 1 under both SEEDA-S and SEEDA-E: "
        + (", ".join(f"`{n}`" for n in first_rank(boards, "sentence")) or "no single configuration") + ".",
        "- To report one number that a reviewer will compare with the literature: M2 (m2scorer's defaults, exact "
        "here on every output we could test: [oracles](oracles.md)).",
        "- To resist gaming: any reference-based metric here; avoid the I-measure's ranking where copying the "
        "source is an option, and test a reference-free metric with `gecscore robustness` before trusting it.",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("choosing_a_metric"),
                        help="folder for the page and the boards (default ./choosing_a_metric)")
    parser.add_argument("--update-docs", action="store_true", help=f"also rewrite {DOCS_PAGE.relative_to(REPO)}")
    parser.add_argument("--draws", type=int, default=1000, help="PERM-BOTH draws per pair (default 1000)")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level of the clusters (default 0.05)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes scoring the cells (default 2)")
    parser.add_argument("--data-dir", help="evaluation data folder (default $GEC_DATA, else the per-user one)")
    parser.add_argument("--model", help="BERTScore model: adds the similarity-weighted configurations")
    parser.add_argument("--judge-base-url", help="OpenAI-compatible judge endpoint: adds the judged configurations")
    parser.add_argument("--judge-model", help="the judge's model name")
    args = parser.parse_args()
    from gecscore.errors import GecInputError
    from gecscore.leaderboard.report import write_leaderboard

    if args.judge_base_url and not args.judge_model:
        parser.error("--judge-base-url needs --judge-model")
    metrics, left_out = configurations(args.model, bool(args.judge_base_url))
    boards = {}
    try:
        for spec in (GJG15, SEEDA):
            started = time.perf_counter()
            boards[spec.name] = run_board(spec, metrics, args)
            print(f"{spec.name}: {len(metrics)} configurations in {time.perf_counter() - started:.0f} s",
                  file=sys.stderr)
    except GecInputError as error:
        print(f"choosing_a_metric: {error}", file=sys.stderr)
        return 1
    for name, board in boards.items():
        write_leaderboard(board, args.out / name, plots=False)
    text = page(boards, metrics, left_out, args)
    (args.out / PAGE_NAME).write_text(text, encoding="utf-8")
    print(f"wrote {args.out / PAGE_NAME} and the boards under {args.out}", file=sys.stderr)
    if args.update_docs:
        DOCS_PAGE.write_text(text, encoding="utf-8")
        print(f"wrote {DOCS_PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
