"""Time the I-measure on the 13 CoNLL-2014 systems: official gold (NUCLE.m2.ieval.xml) and,
with --bn, BN-10GEC (--all: every XML gold in refsets/). Systems are scored in --jobs
processes (default 2). Prints the detection and correction rows, times and the largest
candidate count met. The named sets are found in the data folder (``--data-dir``, else
``$GEC_DATA``, else the per-user one) and fetched there on first use; without them it exits 2
with one line.

    python benchmarks/bench_imeasure.py [--gold NUCLE.m2.ieval.xml] [--bn | --all] [--no-mix] [--jobs 2]
"""
from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import time
import warnings
from pathlib import Path

from gecscore.io.ixml import read_ixml
from gecscore.imeasure.config import DEFAULT_MAX_CANDIDATES
from gecscore.imeasure.config import IMeasureConfig
from gecscore.imeasure.scorer import score_imeasure
from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

SYSTEMS = ("UFC", "INPUT", "IITB", "SJTU", "CUUI", "PKU", "AMU", "UMC", "IPN", "POST", "RAC", "CAMB", "NTHU")
COLUMNS = ("tp", "tn", "fp", "fn", "fpn", "p", "r", "f", "acc", "acc_base", "wacc", "wacc_base", "i")


_GOLD: list = []


def _load(gold_path: Path) -> None:
    _GOLD[:] = read_ixml(gold_path)


def score_system(task: tuple[Path, str, bool, int]) -> tuple[str, dict, dict, float, int, list[str]]:
    """Score one system on the gold loaded in this process: rows, time, largest count, warnings."""
    systems_dir, name, mix, max_candidates = task
    lines = (systems_dir / f"{name}.txt").read_text(encoding="utf-8").split("\n")[:len(_GOLD)]
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = score_imeasure(_GOLD, [line.split() for line in lines],
                                IMeasureConfig(no_mix=not mix, max_candidates=max_candidates))
    return (name, result.detection, result.correction, time.perf_counter() - start,
            result.largest_candidate_count, [str(w.message) for w in caught])


def run(gold_path: Path, systems_dir: Path, mix: bool, max_candidates: int, jobs: int) -> None:
    start = time.perf_counter()
    tasks = [(systems_dir, name, mix, max_candidates) for name in SYSTEMS]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs, initializer=_load, initargs=(gold_path,)) as pool:
            results = pool.map(score_system, tasks, chunksize=1)
    else:
        _load(gold_path)
        results = [score_system(task) for task in tasks]
    wall = time.perf_counter() - start
    n_sentences = len(read_ixml(gold_path)) if jobs > 1 else len(_GOLD)
    print(f"# {gold_path.name}: {n_sentences} sentences, mix={'yes' if mix else 'no'}")
    print(f"{'system':<7}{'aspect':<5}" + "".join(f"{c.upper():>10}" for c in COLUMNS) + f"{'time':>8}")
    largest, n_warnings = 0, 0
    for name, detection, correction, elapsed, count, messages in results:
        largest = max(largest, count)
        n_warnings += len(messages)
        for aspect, row in (("det", detection), ("cor", correction)):
            cells = [f"{row[c]:>10d}" for c in COLUMNS[:5]] + [f"{100 * row[c]:>10.2f}" for c in COLUMNS[5:]]
            print(f"{name:<7}{aspect:<5}" + "".join(cells) + (f"{elapsed:>7.1f}s" if aspect == "cor" else ""))
        for message in messages[:3]:
            print(f"    warning ({name}): {message[:200]}", file=sys.stderr)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN if jobs > 1 else resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"# wall {wall:.1f} s for {len(SYSTEMS)} systems in {jobs} process(es) (reading the gold included); "
          f"largest candidate count {largest:.4g}; warnings {n_warnings}; peak memory {peak:.0f} MB per process",
          flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gold", default="NUCLE.m2.ieval.xml", help="XML gold in conll14/refsets/")
    parser.add_argument("--bn", action="store_true", help="also run BN-10GEC (BN.m2.ieval.xml)")
    parser.add_argument("--all", action="store_true", help="every *.ieval.xml gold in refsets/")
    parser.add_argument("--no-mix", action="store_true")
    parser.add_argument("--jobs", type=int, default=2, help="processes scoring systems (default 2)")
    parser.add_argument("--max-candidates", type=int, default=DEFAULT_MAX_CANDIDATES)
    add_data_dir_option(parser)
    args = parser.parse_args()
    sets = ["conll14", "conll14-systems", *(["bn10gec"] if args.bn or args.all else []),
            *(["sn8gec"] if args.all else [])]
    conll = data_root(sets, args.data_dir) / "conll14"
    score_imeasure(read_ixml(conll / "refsets" / args.gold)[:3], [["x"]] * 3)  # compile
    golds = [args.gold] + (["BN.m2.ieval.xml"] if args.bn else [])
    if args.all:
        golds = [args.gold] + sorted(p.name for p in (conll / "refsets").glob("*.ieval.xml") if p.name != args.gold)
    for name in golds:
        run(conll / "refsets" / name, conll / "systems", not args.no_mix, args.max_candidates, args.jobs)
    return 0


if __name__ == "__main__":
    run_script(main)
