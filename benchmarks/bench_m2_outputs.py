"""Plain M2's default segmentation (m2scorer 3.2's edit sequence) against ``segmentation=minimal``
on the outputs that share least with their source: SEEDA's fluent human rewrite REF-F and the
four published attacks on CoNLL-2014 (SOME, Scribendi, IMPARA, LLM-S), all 1,312 lines.

Each score is a whole CLI process (``gecscore pt_m2 --scorer none --m2 GOLD --hyp OUT
--segmentation S --no-cache``: start-up, reading, MaxMatch, scoring), the two segmentations of
an input run back to back. Printed per input: both wall times, their ratio (goal: at most 1.5)
and the load average around the pair (the machine may be shared: compare ratios, not times
across machines). ``--repeat N`` keeps each process's fastest of N runs.

For scale, m2scorer 3.2 itself on the first ``--slice`` lines (default 100) of each input:
give ``--m2scorer PATH`` (scripts/m2scorer.py of the 3.2 release, nusnlp/m2scorer) and
``--python2 CMD``; without them the step-by-step model of m2scorer in tests/m2scorer_model.py
(Python 3, the same cubic closure) is timed on the slice instead, and labelled so. The named sets
(CoNLL-2014, SEEDA, the attacks) are found in the data folder (``--data-dir``, else
``$GEC_DATA``, else the per-user one) and fetched there on first use; without them it exits 2
with one line.

    python benchmarks/bench_m2_outputs.py [--repeat 1] [--slice 100] [--data-dir DIR]
        [--m2scorer m2scorer/scripts/m2scorer.py --python2 python2.7] [--slice-timeout 600]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

ROOT = Path(__file__).resolve().parents[1]
INPUTS = {"SEEDA REF-F": "seeda/outputs/all/REF-F.txt", "attack SOME": "attacks/conll14-some.txt",
          "attack Scribendi": "attacks/conll14-scribendi.txt", "attack IMPARA": "attacks/conll14-impara.txt",
          "attack LLM-S": "attacks/conll14-llmsent.txt"}
GOLD = "conll14/official-2014.combined.m2"
SETS = {"SEEDA REF-F": "seeda"}   # the named set of each input (the attacks: "attacks")


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def run_cli(gold: Path, hypothesis: Path, segmentation: str, repeat: int) -> tuple[float, str]:
    """The fastest wall time of ``repeat`` CLI processes, and the F it printed."""
    command = [sys.executable, "-m", "gecscore", "pt_m2", "--scorer", "none", "--m2", str(gold), "--hyp",
               str(hypothesis), "--segmentation", segmentation, "--quiet", "--no-cache", "--json"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), os.environ.get("PYTHONPATH", "")])}
    best, output = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        best = min(best, time.perf_counter() - start)
        output = done.stdout
    import json

    return best, f"{json.loads(output)['score']:.4f}"


def slices(gold: Path, hypothesis: Path, lines: int, folder: Path) -> tuple[Path, Path]:
    """The first ``lines`` sentences of the gold and of the output."""
    blocks = gold.read_text(encoding="utf-8").strip().split("\n\n")[:lines]
    gold_slice = folder / f"{hypothesis.stem}.gold.m2"
    gold_slice.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    hyp_slice = folder / f"{hypothesis.stem}.hyp.txt"
    hyp_slice.write_text("\n".join(hypothesis.read_text(encoding="utf-8").split("\n")[:lines]) + "\n",
                         encoding="utf-8")
    return gold_slice, hyp_slice


def time_m2scorer(args: argparse.Namespace, gold: Path, hypothesis: Path) -> str:
    start = time.perf_counter()
    try:
        subprocess.run([*args.python2.split(), str(args.m2scorer), str(hypothesis), str(gold)], check=True,
                       capture_output=True, timeout=args.slice_timeout)
    except subprocess.TimeoutExpired:
        return f">{args.slice_timeout:.0f}"
    return f"{time.perf_counter() - start:.1f}"


def time_model(args: argparse.Namespace, gold: Path, hypothesis: Path) -> str:
    """tests/m2scorer_model.py's edits for every annotator of every sentence of the slice."""
    code = ("import sys, time; sys.path[:0] = [{tests!r}, {shared!r}]\n"
            "from m2scorer_model import m2scorer_edits\n"
            "from gecscore.io.m2 import read_m2\n"
            "gold = read_m2({gold!r}); lines = open({hyp!r}, encoding='utf-8').read().split('\\n')\n"
            "for sentence, line in zip(gold, lines):\n"
            "    for edits in (sentence.annotations or {{0: ()}}).values():\n"
            "        m2scorer_edits(sentence.source, line.split(), [e for e in edits if e.start >= 0])\n"
            ).format(tests=str(ROOT / "tests"), shared=str(ROOT / "shared"), gold=str(gold), hyp=str(hypothesis))
    start = time.perf_counter()
    try:
        subprocess.run([sys.executable, "-c", code], check=True, timeout=args.slice_timeout)
    except subprocess.TimeoutExpired:
        return f">{args.slice_timeout:.0f}"
    return f"{time.perf_counter() - start:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--slice", type=int, default=100, help="lines for the m2scorer timing (0: none)")
    parser.add_argument("--slice-timeout", type=float, default=600.0)
    parser.add_argument("--m2scorer", type=Path, help="m2scorer 3.2's scripts/m2scorer.py")
    parser.add_argument("--python2", default="python2.7", help="the Python 2 that runs --m2scorer")
    parser.add_argument("--inputs", nargs="+", choices=list(INPUTS), default=list(INPUTS))
    add_data_dir_option(parser)
    args = parser.parse_args()
    data = data_root(["conll14", *(SETS.get(name, "attacks") for name in args.inputs)], args.data_dir)
    gold = data / GOLD
    reference_label = ("m2scorer 3.2 (Python 2)" if args.m2scorer
                       else "tests/m2scorer_model.py (Python 3 model of m2scorer 3.2, not m2scorer itself)")
    print(f"whole CLI processes, 1,312 lines each; best of {args.repeat}; "
          f"{args.slice}-line slice timed with {reference_label}")
    header = (f"{'input':<17} {'default s':>9} {'minimal s':>9} {'ratio':>6} {'F default':>9} {'F minimal':>9} "
              f"{'load 1/5/15 min':>16}")
    if args.slice:
        header += f" {'slice s':>8}"
    print(header, flush=True)
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for name in args.inputs:
            hypothesis = data / INPUTS[name]
            before = load()
            default, f_default = run_cli(gold, hypothesis, "reference", args.repeat)
            minimal, f_minimal = run_cli(gold, hypothesis, "minimal", args.repeat)
            worst = max(worst, default / minimal)
            row = (f"{name:<17} {default:>9.2f} {minimal:>9.2f} {default / minimal:>6.2f} {f_default:>9} "
                   f"{f_minimal:>9} {before + ' ' + load():>16}")
            if args.slice:
                gold_slice, hyp_slice = slices(gold, hypothesis, args.slice, Path(folder))
                timer = time_m2scorer if args.m2scorer else time_model
                row += f" {timer(args, gold_slice, hyp_slice):>8}"
            print(row, flush=True)
    print(f"largest ratio default / minimal: {worst:.2f} (goal: at most 1.5)")
    return 0


if __name__ == "__main__":
    run_script(main)
