"""The training-loop case: load an evaluate module once, then ``compute`` three times on a fixed
evaluation set (CoNLL-2014, 1,312 sentences, two references), as ``Trainer.compute_metrics``
does at every evaluation step.

    python benchmarks/bench_training_loop.py [--metrics cleme2 pt_m2 imeasure] [--data-dir DIR]

Two loops per metric, each in a fresh process (so the first call is really cold):
- ``same``: AMU's output three times (the bar of the issue);
- ``changing``: AMU, then CAMB, then CUUI (what a training run sees: new predictions each step).
Prints each call's time, the ratio first / later, and where the time of a warm call goes
(cProfile of a fourth call, not timed: AMU again for ``same``, NTHU for ``changing``; cumulative
seconds of the library's stages). CoNLL-2014 and its systems are found in the data folder
(``--data-dir``, else ``$GEC_DATA``, else the per-user one) and fetched there on first use;
without them it exits 2 with one line.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

REPO = Path(__file__).resolve().parent.parent
CONLL = Path()   # the CoNLL-2014 folder, resolved by main() (data_root)
OPTIONS = {"cleme2": {}, "pt_m2": {"scorer": "none"}, "imeasure": {}}
LOOPS = {"same": ("AMU", "AMU", "AMU"), "changing": ("AMU", "CAMB", "CUUI")}
PROFILED = {"same": "AMU", "changing": "NTHU"}  # a fourth, profiled call (not timed: the profiler slows it)


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def stage_times(profile: cProfile.Profile, top: int = 12) -> list[tuple[str, float]]:
    """The library functions with the largest cumulative time (their own module and name)."""
    stats = pstats.Stats(profile)
    rows = []
    for (filename, _, name), (_, _, _, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        if "gecscore" in filename or "errant" in filename or "spacy/language" in filename:
            module = filename.split("site-packages/")[-1].split("shared/")[-1]
            rows.append((f"{module}:{name}", cumulative))
    rows.sort(key=lambda row: -row[1])
    return rows[:top]


def run_loop(metric_name: str, loop: str) -> dict:
    """One loop in this process: load the module offline, compute three times."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import evaluate

    sources = lines(CONLL / "source.txt")
    references = [list(pair) for pair in zip(lines(CONLL / "ref0.txt"), lines(CONLL / "ref1.txt"))]
    start = time.perf_counter()
    module = evaluate.load(str(REPO / "metrics" / metric_name))
    load_s = time.perf_counter() - start
    calls = []
    for system in LOOPS[loop]:
        predictions = lines(CONLL / "systems" / f"{system}.txt")
        start = time.perf_counter()
        result = module.compute(sources=sources, predictions=predictions, references=references,
                                **OPTIONS[metric_name])
        calls.append({"system": system, "seconds": time.perf_counter() - start, "score": result["score"]})
    predictions = lines(CONLL / "systems" / f"{PROFILED[loop]}.txt")
    profile = cProfile.Profile()
    profile.enable()
    module.compute(sources=sources, predictions=predictions, references=references, **OPTIONS[metric_name])
    profile.disable()
    return {"metric": metric_name, "loop": loop, "load_s": load_s, "calls": calls,
            "warm_profile": stage_times(profile), "signature": result["signature"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metrics", nargs="+", default=list(OPTIONS), choices=list(OPTIONS))
    parser.add_argument("--loops", nargs="+", default=list(LOOPS), choices=list(LOOPS))
    parser.add_argument("--child", nargs=2, metavar=("METRIC", "LOOP"), help=argparse.SUPPRESS)
    parser.add_argument("--alignment", choices=("compiled", "errant"), default="compiled",
                        help="ERRANT alignment: the compiled one (default) or ERRANT's own, for comparison")
    parser.add_argument("--json", metavar="FILE", help="also write the measurements here")
    add_data_dir_option(parser)
    args = parser.parse_args()
    global CONLL
    CONLL = data_root(("conll14", "conll14-systems"), args.data_dir) / "conll14"
    if args.child:
        print(json.dumps(run_loop(*args.child)))
        return 0
    results = []
    for metric_name in args.metrics:
        for loop in args.loops:
            out = subprocess.run([sys.executable, __file__, "--child", metric_name, loop,
                                  "--data-dir", str(CONLL.parent)], capture_output=True,
                                 text=True, env={**os.environ, "TQDM_DISABLE": "1",
                                                 "GECSCORE_ERRANT_ALIGNMENT": args.alignment})
            if out.returncode:
                print(out.stderr, file=sys.stderr)
                return out.returncode
            result = json.loads(out.stdout.strip().splitlines()[-1])
            results.append(result)
            times = [c["seconds"] for c in result["calls"]]
            ratios = ", ".join(f"{times[0] / t:.1f}x" for t in times[1:])
            print(f"{metric_name:9} {loop:9} [{args.alignment}] load {result['load_s']:.1f} s; calls "
                  + " / ".join(f"{c['system']} {c['seconds']:.2f} s" for c in result["calls"])
                  + f"; first / later: {ratios}")
            print(f"  {result['signature']}")
            print(f"  where a warm call's time goes ({PROFILED[loop]}, profiled; cumulative seconds):")
            for name, seconds in result["warm_profile"][:8]:
                print(f"    {seconds:7.3f}  {name}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    run_script(main)
