"""Edit attribution on real CoNLL-2014 sentences: sampled Shapley against exact Shapley, and
the time per sentence of each method.

    python benchmarks/bench_attribution.py [--system AMU] [--sentences 40] [--data-dir DIR]
        [--metric cleme2|sentm2] [--samples 8 32 128] [--min-edits 3] [--max-edits 10]

Sentences: the first ``--sentences`` of the official gold (M2) whose hypothesis (the system's
output, edits by ERRANT) has between ``--min-edits`` and ``--max-edits`` edits. Value function:
the sentence-level score (CLEME2.0, or SentM2 = pt_m2 scorer none) against the gold's
annotators. Printed: for each sample count, the mean and largest absolute error of the sampled
attributions against the exact ones (over all edits of all sentences), and the mean time per
sentence of every method (cold: each method pays for its own evaluations). CoNLL-2014 and its
systems are found in the data folder (``--data-dir``, else ``$GEC_DATA``, else the per-user one)
and fetched there on first use; without them it exits 2 with one line.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import gecscore
from gecscore.attribution import add_one, exact_shapley, remove_one, sampled_shapley
from gecscore.attribution.metric_value import MetricValue
from gecscore.lang.en.gold import hypothesis_targets
from gecscore.io.m2 import read_m2
from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_dir_option(parser)
    parser.add_argument("--system", default="AMU")
    parser.add_argument("--sentences", type=int, default=40)
    parser.add_argument("--metric", default="cleme2", choices=("cleme2", "sentm2"))
    parser.add_argument("--samples", type=int, nargs="+", default=[8, 32, 128])
    parser.add_argument("--min-edits", type=int, default=3)
    parser.add_argument("--max-edits", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    conll = data_root(("conll14", "conll14-systems"), args.data_dir) / "conll14"
    gold = read_m2(conll / "official-2014.combined.m2")
    hyps = (conll / "systems" / f"{args.system}.txt").read_text(encoding="utf-8").rstrip("\n").split("\n")
    targets = hypothesis_targets([" ".join(g.source) for g in gold], hyps)
    metric = (gecscore.load("cleme2", level="sentence") if args.metric == "cleme2"
              else gecscore.load("pt_m2", level="sentence", scorer="none"))
    chosen = [i for i, t in enumerate(targets) if args.min_edits <= len(t.edits) <= args.max_edits][:args.sentences]
    errors = {n: [] for n in args.samples}
    times = {name: 0.0 for name in ["add-one", "remove-one", "shapley", *(f"sampled-{n}" for n in args.samples)]}
    edits_total = 0
    for i in chosen:
        edits = targets[i].edits
        edits_total += len(edits)
        runs = {"add-one": lambda v, n: add_one(v, n), "remove-one": lambda v, n: remove_one(v, n),
                "shapley": lambda v, n: exact_shapley(v, n),
                **{f"sampled-{s}": (lambda v, n, s=s: sampled_shapley(v, n, s, args.seed)) for s in args.samples}}
        found = {}
        for name, run in runs.items():
            value = MetricValue(metric, gold[i], edits)
            value.prepared(1)  # the reference side is not part of the attribution's time
            start = time.perf_counter()
            found[name] = run(value, len(edits))
            times[name] += time.perf_counter() - start
        exact = np.array(found["shapley"].values)
        assert abs(exact.sum() - found["shapley"].gap) < 1e-9
        for s in args.samples:
            errors[s].extend(np.abs(np.array(found[f"sampled-{s}"].values) - exact).tolist())
    print(f"{args.metric} on {len(chosen)} {args.system} sentences with {args.min_edits}-{args.max_edits} edits "
          f"({edits_total} edits, {edits_total / max(len(chosen), 1):.1f} per sentence)")
    for s in args.samples:
        e = np.array(errors[s])
        print(f"sampled Shapley, {s:4d} permutations: mean |error| {e.mean():.4f}, max |error| {e.max():.4f}")
    for name, total in times.items():
        print(f"{name:16s} {1000 * total / max(len(chosen), 1):8.1f} ms per sentence")


if __name__ == "__main__":
    run_script(main)
