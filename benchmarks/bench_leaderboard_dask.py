"""Wall times and per-unit times behind docs/leaderboard_dask.md (not a test).

    python benchmarks/bench_leaderboard_dask.py units [--systems AMU CAMB INPUT]
    python benchmarks/bench_leaderboard_dask.py wall --out /tmp/bench [--runs jobs2 local1 local2]

``units``: in this process, the CoNLL-2014 reference set's load, then for each system every
model-free configuration in the leaderboard's order with its seconds: on the first system a
configuration's time includes preparing its reference side (kept by ``ReferenceData``); the
first configuration that needs a system's ERRANT edits extracts them (kept in ``SystemData.work``
for the others). ``wall``: ``gecscore leaderboard`` on the 13 systems x every model-free
configuration with ``--jobs 2``, ``--scheduler local:1`` and ``--scheduler local:2``, each
run's wall time, and whether the JSON outputs (less timings) are equal.
Reads the data from GEC_DATA (default ../shared/data); exits with a message if absent.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

MODEL_FREE = ["cleme2-corpus-*", "cleme2-sentence-*", "cleme-*", "m2", "errant", "imeasure", "gleu"]
RUNS = {"jobs2": ["--jobs", "2"], "local1": ["--scheduler", "local:1"], "local2": ["--scheduler", "local:2"]}


def data_dir() -> Path:
    root = Path(os.environ.get("GEC_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    if not (root / "conll14" / "systems").is_dir():
        sys.exit(f"CoNLL-2014 data not found under {root} (set GEC_DATA)")
    return root


def units(names: list[str]) -> None:
    """Per-configuration seconds per system in one process (first system: + reference side)."""
    from gecscore.metaeval.leaderboard import discover_systems
    from gecscore.metaeval.refsets import load_refset
    from gecscore.metaeval.registry import ReferenceData, SystemData, resolve, score_system

    root = data_dir()
    started = time.perf_counter()
    refset = load_refset("conll14", root)
    print(f"load reference set: {time.perf_counter() - started:.2f} s ({len(refset)} sentences)")
    configs, _ = resolve(MODEL_FREE)
    refs = ReferenceData(refset)
    for source in discover_systems(root / "conll14" / "systems", only=names):
        system = SystemData(source.name, source.text_path)
        total = 0.0
        for config in configs:
            started = time.perf_counter()
            score_system(config, system, refs)
            elapsed = time.perf_counter() - started
            total += elapsed
            print(f"{source.name}\t{config.name}\t{elapsed:.2f}")
        print(f"{source.name}\ttotal\t{total:.2f}", flush=True)


def wall(out: Path, runs: list[str]) -> None:
    """Each run of the CLI, timed; the JSON outputs compared less their timings."""
    root = data_dir()
    out.mkdir(parents=True, exist_ok=True)
    outputs = {}
    for run in runs:
        command = [sys.executable, "-m", "gecscore", "leaderboard", "--refset", "conll14", "--data-dir", str(root),
                   "--systems", str(root / "conll14" / "systems"), "--metrics", *MODEL_FREE, "--json", *RUNS[run]]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        elapsed = time.perf_counter() - started
        board = json.loads(done.stdout)
        (out / f"{run}.json").write_text(done.stdout)
        board.pop("seconds")
        outputs[run] = json.dumps(board, sort_keys=True)
        print(f"{run}\t{elapsed:.1f} s\tload {os.getloadavg()[0]:.1f}", flush=True)
    first = next(iter(outputs.values()))
    print("JSON outputs equal (less timings):", all(o == first for o in outputs.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("units", "wall"))
    parser.add_argument("--systems", nargs="+", default=["AMU", "CAMB", "INPUT"])
    parser.add_argument("--out", type=Path, default=Path("/tmp/bench_leaderboard_dask"))
    parser.add_argument("--runs", nargs="+", choices=list(RUNS), default=list(RUNS))
    args = parser.parse_args()
    if args.mode == "units":
        units(args.systems)
    else:
        wall(args.out, args.runs)


if __name__ == "__main__":
    main()
