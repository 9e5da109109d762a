"""A known benchmark costs nothing twice (issue 34): wall times of this checkout beside an
older commit's ("today's" code when the issue was filed), in one run, on this machine.

    python benchmarks/bench_cache.py [--baseline 9cc3c1c] [--jobs 2] [--skip-pt-m2]

Measured, each in a fresh cache folder (``GECSCORE_CACHE_DIR``), for both checkouts, after a
warm-up run that leaves numba's compiled kernels on disk for that checkout:

1. **cold**: ``gecscore leaderboard`` on CoNLL-2014's 13 systems x the 18 model-free
   configurations (those of ``bench_leaderboard_dask.py``), nothing cached;
2. **re-run**: the same command again;
3. **one more system**: the leaderboard of 12 systems (all but UMC), then of all 13: the
   second run's time (the new system's own work, when the first run's cells are kept);
4. **PT-M2, one system**: ``gecscore pt_m2`` (the offline all-MiniLM-L6-v2) on AMU in a fresh
   cache, then on CAMB with that cache: the second run pays no reference-side model pass.

The baseline runs from a git worktree of ``--baseline`` (``PYTHONPATH`` at its ``shared/``,
this venv). Every pair of leaderboard outputs is checked equal (``scores.csv``) so a faster
number is the same number. Wall times depend on the load: run it on a quiet machine. The
named sets are found in the data folder (``--data-dir``, else ``$GEC_DATA``, else the per-user
one) and fetched there on first use; without them it exits 2 with one line.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

REPO = Path(__file__).resolve().parents[1]
MODEL_FREE = ["cleme2-corpus-*", "cleme2-sentence-*", "cleme-*", "m2", "errant", "imeasure", "gleu"]
ADDED = "UMC"
LOADS: list[float] = []   # the 1-minute load average at the end of each timed run


def data_dir(chosen: str | None = None) -> Path:
    """The data folder holding conll14, conll14-systems, verified (fetched on first use)."""
    return data_root(("conll14", "conll14-systems"), chosen)


def timed(command: list[str], code: Path, cache: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(code / "shared"), "GECSCORE_CACHE_DIR": str(cache)}
    env.pop("GECSCORE_NO_CACHE", None)
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    LOADS.append(os.getloadavg()[0])
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-2000:]}")
    return elapsed


def leaderboard(root: Path, out: Path, jobs: int, only: list[str] | None = None) -> list[str]:
    command = [sys.executable, "-m", "gecscore", "leaderboard", "--refset", "conll14", "--data-dir", str(root),
               "--systems", str(root / "conll14" / "systems"), "--metrics", *MODEL_FREE, "--jobs", str(jobs),
               "--out", str(out), "--no-plots", "--quiet"]
    return command + (["--only", *only] if only else [])


def pt_m2(root: Path, system: str, model: str) -> list[str]:
    return [sys.executable, "-m", "gecscore", "pt_m2", "--m2", str(root / "conll14" / "official-2014.combined.m2"),
            "--hyp", str(root / "conll14" / "systems" / f"{system}.txt"), "--model", model, "--json"]


def warm_up(code: Path, root: Path, work: Path, jobs: int) -> None:
    """One system scored in a throwaway cache, so that numba's compiled kernels are on disk for
    this checkout (a fresh worktree compiles them in its first run: seconds that are not the
    leaderboard's, and that the other checkout has already paid)."""
    timed(leaderboard(root, work / "warm-up", jobs, ["AMU"]), code, work / "cache-warm-up")


def measure(code: Path, root: Path, work: Path, jobs: int, model: str | None) -> dict[str, float]:
    times: dict[str, float] = {}
    warm_up(code, root, work, jobs)
    cache = work / "cache-leaderboard"
    times["cold"] = timed(leaderboard(root, work / "cold", jobs), code, cache)
    times["re-run"] = timed(leaderboard(root, work / "rerun", jobs), code, cache)
    systems = sorted(p.stem for p in (root / "conll14" / "systems").glob("*.txt"))
    cache = work / "cache-one-more"
    timed(leaderboard(root, work / "twelve", jobs, [s for s in systems if s != ADDED]), code, cache)
    times["one more system"] = timed(leaderboard(root, work / "thirteen", jobs), code, cache)
    cache = work / "cache-alone"
    times["that system alone, cold"] = timed(leaderboard(root, work / "alone", jobs, [ADDED]), code, cache)
    if model:
        cache = work / "cache-pt-m2"
        times["PT-M2 one system, cold"] = timed(pt_m2(root, "AMU", model), code, cache)
        times["PT-M2 another system, cached"] = timed(pt_m2(root, "CAMB", model), code, cache)
    return times


def same_scores(a: Path, b: Path) -> bool:
    return (a / "scores.csv").read_bytes() == (b / "scores.csv").read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="9cc3c1c", help="the commit to compare with (default 9cc3c1c)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-pt-m2", action="store_true", help="leave out the PT-M2 runs (minutes each on CPU)")
    add_data_dir_option(parser)
    args = parser.parse_args()
    root = data_dir(args.data_dir)
    model = None
    if not args.skip_pt_m2:
        sys.path.insert(0, str(REPO / "shared"))
        from gecscore.models.bundled import local_minilm_dir

        model = local_minilm_dir()
    with tempfile.TemporaryDirectory(prefix="gecscore-bench-cache-") as tmp:
        work = Path(tmp)
        baseline = work / "baseline-code"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet", str(baseline), args.baseline],
                       check=True)
        try:
            results = {}
            for label, code in (("baseline", baseline), ("this checkout", REPO)):
                (work / label).mkdir()
                print(f"measuring {label} ({code}) ...", file=sys.stderr, flush=True)
                results[label] = measure(code, root, work / label, args.jobs, model)
            equal = all(same_scores(work / "baseline" / run, work / "this checkout" / run)
                        for run in ("cold", "rerun", "thirteen", "alone"))
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(baseline)], check=False)
            shutil.rmtree(baseline, ignore_errors=True)
    print(f"CoNLL-2014, 13 systems x {len(MODEL_FREE)} model-free patterns (18 configurations), --jobs {args.jobs}; "
          f"{os.cpu_count()} CPUs")
    print(f"{'':<32}{'baseline ' + args.baseline:>18}{'this checkout':>16}{'ratio':>8}")
    for name in results["baseline"]:
        before, after = results["baseline"][name], results["this checkout"][name]
        print(f"{name:<32}{before:>16.1f} s{after:>14.1f} s{before / after:>7.1f}x")
    print(f"scores.csv equal between the two checkouts on every leaderboard run: {'yes' if equal else 'NO'}")
    print("1-minute load average after each run: " + ", ".join(f"{load:.2f}" for load in LOADS))


if __name__ == "__main__":
    run_script(main)
