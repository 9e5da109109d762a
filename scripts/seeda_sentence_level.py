"""SEEDA sentence-level meta-evaluation (Acc, Kendall's tau) and the window analysis.

Scores the SEEDA systems' outputs on the 391-sentence CoNLL-2014 subset with M2, ERRANT and
GLEU at the sentence level (``gecscore.load``: SentM2 F0.5 against the official gold,
ERRANT span F0.5 against the ERRANT-typed gold, GLEU against the two text references), then
compares every human pairwise preference of SEEDA-S (``judgments_sent.xml``) and SEEDA-E
(``judgments_edit.xml``) with the metric's order (``gecscore.metaeval.sentence_level``), next
to the published cells of the DSGram paper's Table 3 (which follows Kobayashi et al. 2024).
The window analysis correlates the corpus scores with the human system scores over windows of
systems ranked consecutively by humans.

    python scripts/seeda_sentence_level.py [--systems base|+input|all] [--ties neutral|seeda-script|discordant]
        [--window 8] [--out docs/seeda_sentence_level.md]

Reads the data through GEC_DATA (default ../shared/data); exits 0 with a message when absent.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("GEC_DATA", REPO.parent / "shared" / "data"))

# DSGram paper, Table 3, sentence-level cells (SEEDA-S Acc, tau, SEEDA-E Acc, tau)
PUBLISHED = {"M2": (0.512, 0.200, 0.582, 0.328), "ERRANT": (0.498, 0.189, 0.573, 0.310),
             "GLEU": (0.673, 0.351, 0.695, 0.404)}
METRICS = {  # name -> (gecscore metric, options, gold)
    "M2": ("pt_m2", {"scorer": "none", "level": "sentence"}, "m2"),
    "ERRANT": ("pt_m2", {"scorer": "none", "base": "errant", "level": "sentence"}, "errant"),
    "GLEU": ("gleu", {}, "text"),
}


def sentence_scores(metric_name: str, options: dict, gold_kind: str, indices: list[int],
                    outputs: dict[str, list[str]]) -> tuple[dict[str, dict[int, float]], dict[str, float]]:
    """Per system: {CoNLL-2014 line index: sentence score} and the corpus score."""
    import gecscore
    from gecscore.io.m2 import read_m2
    from gecscore.io.text import read_lines
    from gecscore.types import GoldCorpus

    metric = gecscore.load(metric_name, **options)
    conll = DATA / "conll14"
    if gold_kind == "text":
        sources = read_lines(conll / "source.txt")
        refs = [read_lines(conll / name) for name in ("ref0.txt", "ref1.txt")]
        prepared = metric.prepare_text([sources[i] for i in indices], [[r[i] for r in refs] for i in indices])
    else:
        path = conll / ("official-2014.combined.m2" if gold_kind == "m2" else "conll14.errant.m2")
        gold = read_m2(path)
        prepared = metric.prepare(GoldCorpus(tuple(gold[i] for i in indices), gold_kind if gold_kind == "m2" else "m2"))
    per_sentence, corpus = {}, {}
    key = "gleu" if metric_name == "gleu" else "f"
    for system, lines in outputs.items():
        result = metric.score(prepared, lines)
        per_sentence[system] = {indices[r["index"]]: float(r[key]) for r in result.records()}
        corpus[system] = result.score
    return per_sentence, corpus


def section_lines(system_set: str = "base", ties: str = "neutral", window: int = 8) -> list[str]:
    """The Markdown section (``###`` headings): the sentence-level table and the window analysis."""
    from gecscore.io.text import read_lines
    from gecscore.metaeval.human import SEEDA_SYSTEM_SETS, match_lines, seeda_scores
    from gecscore.metaeval.sentence_level import pairwise_agreement, read_judgments, window_analysis

    seeda = DATA / "seeda"
    start = time.perf_counter()
    all_systems = read_lines(seeda / "human" / "SYSTEMS.txt", allow_empty=False)
    systems = [s for s in all_systems if s not in SEEDA_SYSTEM_SETS[system_set]]
    indices = match_lines(read_lines(seeda / "outputs" / "subset" / "INPUT.txt"),
                          read_lines(DATA / "conll14" / "source.txt"), "SEEDA subset INPUT", "CoNLL-2014 source")
    outputs = {s: read_lines(seeda / "outputs" / "subset" / f"{s}.txt") for s in all_systems}
    judgments = {"SEEDA-S": read_judgments(seeda / "judgments_sent.xml"),
                 "SEEDA-E": read_judgments(seeda / "judgments_edit.xml")}
    human = seeda_scores(seeda / "human", system_set)
    command = "python scripts/seeda_sentence_level.py" + (f" --systems {system_set}" if system_set != "base" else "") \
        + (f" --ties {ties}" if ties != "neutral" else "") + (f" --window {window}" if window != 8 else "")
    lines = [f"### Sentence level (DSGram paper Table 3, after Kobayashi et al. 2024): SEEDA {system_set} set, "
             f"{len(systems)} systems", "",
             "Pairwise accuracy and Kendall's tau between each metric's sentence scores and every human "
             "preference of SEEDA-S (`judgments_sent.xml`) and SEEDA-E (`judgments_edit.xml`); metric ties "
             f"{ties} (`gecscore.metaeval.sentence_level`). M2: SentM2 F0.5 against the official gold; ERRANT: "
             "span F0.5 against `conll14.errant.m2`; GLEU: sentence GLEU against `ref0.txt`, `ref1.txt`. "
             f"{len(indices)} sentences; {len(judgments['SEEDA-S'])} (S) and {len(judgments['SEEDA-E'])} (E) "
             f"ranking items. `{command}`", "",
             "| metric | S Acc | published | diff | S tau | published | diff | E Acc | published | diff | E tau | published | diff | pairs S / E | metric ties S / E |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    corpus_scores = {}
    for name, (metric_name, options, gold_kind) in METRICS.items():
        per_sentence, corpus_scores[name] = sentence_scores(metric_name, options, gold_kind, indices, outputs)
        s = pairwise_agreement(judgments["SEEDA-S"], per_sentence, systems, ties)
        e = pairwise_agreement(judgments["SEEDA-E"], per_sentence, systems, ties)
        cells = []
        for ours, published in zip((s.accuracy, s.kendall, e.accuracy, e.kendall), PUBLISHED[name]):
            diff = abs(ours - published)
            cells.append(f"{ours:.3f} | {published:.3f} | {'**' if diff > 0.01 else ''}{diff:.3f}"
                         f"{'**' if diff > 0.01 else ''}")
        lines.append(f"| {name} | {' | '.join(cells)} | {s.pairs} / {e.pairs} | {s.metric_ties} / {e.metric_ties} |")
    lines += ["", f"Window analysis (SEEDA's system-level windows: {window} systems consecutive in the human "
              "TrueSkill ranking, best first; corpus scores on the same subset; r / rho per window):", "",
              "| human ranking | metric | " + " | ".join(f"ranks {w}-{w + window - 1}"
                                                      for w in range(1, len(systems) - window + 2)) + " |",
              "|---|---|" + "---|" * (len(systems) - window + 1)]
    for ranking_name in ("seeda-S-TS", "seeda-E-TS"):
        ranking = human[ranking_name].scores
        for name, corpus in corpus_scores.items():
            cells = " | ".join(f"{w.pearson:.3f} / {w.spearman:.3f}" for w in window_analysis(ranking, corpus, window))
            lines.append(f"| {ranking_name} | {name} | {cells} |")
    lines += ["", f"({time.perf_counter() - start:.0f} s.)", ""]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", default="base", choices=("base", "+input", "all"))
    parser.add_argument("--ties", default="neutral", choices=("neutral", "seeda-script", "discordant"))
    parser.add_argument("--window", type=int, default=8)
    parser.add_argument("--out", type=Path, help="also write the Markdown section here")
    args = parser.parse_args()
    if not (DATA / "seeda" / "judgments_sent.xml").is_file():
        print(f"SEEDA data not found under {DATA / 'seeda'} (set GEC_DATA); nothing to do")
        return 0
    text = "\n".join(section_lines(args.systems, args.ties, args.window))
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
