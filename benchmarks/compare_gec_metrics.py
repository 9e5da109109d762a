"""gecscore against gec-metrics (gotutiyan, 0.1.1) on the same data: every metric both have.

    python benchmarks/compare_gec_metrics.py [--gm-python /tmp/gm-venv/bin/python] [--data-dir DIR]

gec-metrics runs in its own environment, in a subprocess (``gec_metrics_side.py``); its JSON is
cached (``--cache``) so a second run only scores our side. Data: CoNLL-2014 (source, the two
annotators' corrected text ref0/ref1, the 13 "systems" incl. INPUT; found by name in the data
folder, ``--data-dir``, else ``$GEC_DATA``, else the per-user one, and fetched there on first
use). Printed per metric and system: both corpus scores and their difference, then the largest
difference (corpus and, where both have it, sentence level).

Metrics compared:

- GREEN: ``gecscore.load("green")`` vs ``GREEN()``.
- GoToScorer: ``no_weight=True`` vs ``GoToScorer(no_weight=True)``; weighted with the weights of
  all 13 systems against ref0, ``weight_match="correction"`` vs gec-metrics' weight script
  (which counts a chunk corrected when any chunk of the system has the same string); our
  default ``weight_match="span"`` (the paper's) is printed beside it.
- ERRANT: ``gecscore.load("pt_m2", base="errant", scorer="none")`` vs ``ERRANT()``.
- TrueSkill aggregation: :func:`gecscore.metaeval.trueskill_aggregate.trueskill_aggregate` of
  our GREEN sentence scores vs ``GREEN().rank_systems(..., aggregation="trueskill")``.
- GLEU: ``gecscore.load("gleu")`` vs ``GLEU()`` and ``GLEUOfficial()``. Ours is the reference
  implementation's (cnap/gec-ranking): the source n-grams penalised are those absent from the
  reference (gec-metrics' ``GLEUOfficial``; its ``GLEU`` also penalises, per count, source
  n-grams kept more often than the reference has them), and a sentence's reference in round j
  is ``int(random() * k)`` after ``seed(101 j)`` (Python 2's ``randint``, as the reference code
  ran). gec-metrics draws with Python 3's ``random.randint`` under the same seeds, which picks
  other references; and it cuts lines with ``split(" ")``, so a leading, trailing or double
  space is an empty token (n-grams with "" and one more token of length: IITB's and PKU's
  lines end in " \r\n", NTHU has leading spaces) and an empty line (ref1 has 3, POST 1) has
  length 1; we split on any whitespace. The "ours, Py3 draws" rows recompute our statistics
  with gec-metrics' draws, then also with its tokens: that isolates both causes (the last row
  equals ``GLEUOfficial``).
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

HERE = Path(__file__).resolve().parent


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


def gec_metrics_side(python: str, source: Path, refs: list[Path], systems: list[Path], cache: Path,
                     metrics: str | None = None) -> dict:
    if not cache.exists():
        subprocess.run([python, str(HERE / "gec_metrics_side.py"), str(source), *map(str, refs), "--systems",
                        *map(str, systems), "--out", str(cache), *(["--metrics", metrics] if metrics else [])],
                       check=True)
    return json.loads(cache.read_text(encoding="utf-8"))


def gleu_with_py3_draws(sources, hyps, references, order: int = 4, iterations: int = 500,
                        their_tokens: bool = False) -> float:
    """Our GLEU statistics with gec-metrics' reference draws (Python 3 ``randint`` after
    ``seed(101 j)``); ``their_tokens``: lines cut into tokens as gec-metrics cuts them,
    ``line.split(" ")`` (a leading, trailing or double space makes an empty token; an empty
    line has no n-grams but length 1), instead of our ``line.split()``."""
    from gecscore.gleu.scorer import sentence_stats

    def tokens(line: str) -> list[str]:
        if not their_tokens:
            return line.split()
        return [] if line == "" else line.split(" ")

    def stats(s: str, h: str, r: str):
        row = sentence_stats(tokens(s), tokens(h), tokens(r), order)
        if their_tokens:
            row[0], row[1] = len(h.split(" ")), len(r.split(" "))
        return row

    per_ref = [[stats(s, h, ref[i]) for ref in references] for i, (s, h) in enumerate(zip(sources, hyps))]
    rounds = []
    for j in range(iterations):
        random.seed(101 * j)
        draws = [random.randint(0, len(references) - 1) for _ in sources]
        rounds.append(np.sum([per_ref[i][k] for i, k in enumerate(draws)], axis=0))
    from gecscore.gleu.scorer import gleu_of_rounds

    return gleu_of_rounds(np.concatenate(rounds), order)


def our_side(sources, references, systems: dict[str, list[str]]) -> dict:
    import gecscore
    from gecscore.gotoscorer.metric import GoToScorerMetric
    from gecscore.green.metric import GreenMetric

    per_sentence = [list(r) for r in zip(*references)]
    out: dict = {}

    def run(name, metric, sentence_key=None, many=False):
        prepared = metric.prepare_text(sources, per_sentence)
        results = (metric.score_systems(prepared, list(systems.items())) if many
                   else [(s, metric.score(prepared, h)) for s, h in systems.items()])
        out[name] = {}
        for system, result in results:
            row = {"corpus": result.score}
            if sentence_key:
                row["sentence"] = [r[sentence_key] for r in sorted(result.records(), key=lambda r: r["index"])]
            out[name][system] = row
        print(name, "done", file=sys.stderr, flush=True)

    run("green", GreenMetric.from_options(), "green")
    from gecscore.metaeval.trueskill_aggregate import trueskill_aggregate

    out["green_trueskill"] = {s: {"corpus": v} for s, v in trueskill_aggregate(
        {s: row["sentence"] for s, row in out["green"].items()}).items()}
    run("gotoscorer_no_weight", GoToScorerMetric.from_options(no_weight=True), "f")
    ref0 = [[r] for r in references[0]]
    for match in ("correction", "span"):
        metric = GoToScorerMetric.from_options(weight_match=match)
        prepared = metric.prepare_text(sources, ref0)
        out[f"gotoscorer_weighted_{match}"] = {
            s: {"corpus": r.score, "sentence": [x["f"] for x in sorted(r.records(), key=lambda x: x["index"])]}
            for s, r in metric.score_systems(prepared, list(systems.items()))}
    run("errant", gecscore.load("pt_m2", base="errant", scorer="none"), "f")
    run("gleu", gecscore.load("gleu"))
    out["gleu_py3_draws"] = {s: {"corpus": gleu_with_py3_draws(sources, h, references)} for s, h in systems.items()}
    out["gleu_py3_draws_their_tokens"] = {s: {"corpus": gleu_with_py3_draws(sources, h, references, their_tokens=True)}
                                          for s, h in systems.items()}
    return out


PAIRS = [  # (label, ours, theirs)
    ("GREEN", "green", "green"),
    ("GoToScorer no_weight", "gotoscorer_no_weight", "gotoscorer_no_weight"),
    ("GoToScorer weighted (match=correction)", "gotoscorer_weighted_correction", "gotoscorer_weighted"),
    ("GoToScorer weighted (match=span, paper) vs gec-metrics", "gotoscorer_weighted_span", "gotoscorer_weighted"),
    ("ERRANT", "errant", "errant"),
    ("GLEU (ours) vs GLEUOfficial", "gleu", "gleu_official"),
    ("GLEU (ours) vs GLEU", "gleu", "gleu"),
    ("GREEN sentence scores aggregated by TrueSkill", "green_trueskill", "green_trueskill"),
    ("GLEU (ours, Py3 draws) vs GLEUOfficial", "gleu_py3_draws", "gleu_official"),
    ("GLEU (ours, Py3 draws, split(' ') tokens) vs GLEUOfficial", "gleu_py3_draws_their_tokens", "gleu_official"),
]


def report(ours: dict, theirs: dict) -> dict[str, tuple[float, float | None]]:
    summary = {}
    for label, mine, other in PAIRS:
        if mine not in ours or other not in theirs:
            continue
        print(f"\n== {label}")
        print(f"{'system':8s} {'gecscore':>20s} {'gec-metrics':>20s} {'diff':>10s}")
        corpus_max, sentence_max = 0.0, None
        for system in ours[mine]:
            a, b = ours[mine][system]["corpus"], theirs[other][system]["corpus"]
            corpus_max = max(corpus_max, abs(a - b))
            print(f"{system:8s} {a:20.15f} {b:20.15f} {a - b:10.2e}")
            if "sentence" in ours[mine][system] and "sentence" in theirs[other][system]:
                diff = np.abs(np.array(ours[mine][system]["sentence"]) - np.array(theirs[other][system]["sentence"]))
                sentence_max = max(sentence_max or 0.0, float(diff.max()))
        tail = f", sentence level {sentence_max:.2e}" if sentence_max is not None else ""
        print(f"largest difference: corpus {corpus_max:.2e}{tail}")
        summary[label] = (corpus_max, sentence_max)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_dir_option(parser)
    parser.add_argument("--gm-python", default="/tmp/gm-venv/bin/python",
                        help="python of an environment with gec-metrics==0.1.1 (and a spaCy English model)")
    parser.add_argument("--cache", default="/tmp/gec_metrics_side.json", help="gec-metrics' scores (reused)")
    parser.add_argument("--save", default=None, help="write both sides' scores to this JSON file")
    args = parser.parse_args()
    conll = data_root(("conll14", "conll14-systems"), args.data_dir) / "conll14"
    source, refs = conll / "source.txt", [conll / "ref0.txt", conll / "ref1.txt"]
    system_files = sorted((conll / "systems").glob("*.txt"))
    theirs = gec_metrics_side(args.gm_python, source, refs, system_files, Path(args.cache))
    cache = Path(args.cache)
    theirs.update(gec_metrics_side(args.gm_python, source, refs, system_files,
                                   cache.with_name(cache.stem + "-trueskill" + cache.suffix), "green_trueskill"))
    sources = lines(source)
    references = [lines(r) for r in refs]
    ours = our_side(sources, references, {p.stem: lines(p) for p in system_files})
    report(ours, theirs)
    if args.save:
        Path(args.save).write_text(json.dumps({"gecscore": ours, "gec_metrics": theirs}), encoding="utf-8")


if __name__ == "__main__":
    run_script(main)
