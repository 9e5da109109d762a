"""Parity and speed of gecscore's Chinese char-level extraction against ChERRANT itself.

    python benchmarks/zh_parity.py --cherrant /path/to/MuCGEC/scorers/ChERRANT \\
        [--python /path/to/cherrant-venv/bin/python] [--data-dir DIR] [--random 2000]

Runs ChERRANT's ``parallel_to_m2.py -g char`` (defaults otherwise) and ``gecscore``'s
``para_to_m2`` on the MuCGEC dev references and the example predictions, each in a fresh
process (wall and CPU time, one run each, ours including start-up, imports and numba's cache
load), then compares the two M2 files sentence by sentence (every annotator's every alignment
and edit) and prints the sentences that differ, and the scores of ChERRANT's
``compare_m2_for_evaluation.py`` and ours. ``--random N`` also compares N random short pairs
built from characters that make ties (shared pinyin, confusable characters, punctuation,
the ``[缺失成分]`` token).

ChERRANT's modules import ``ltp`` and ``torch`` at load time although char mode uses neither;
when they are missing from ``--python``'s environment, ``--stub-missing`` puts empty stand-ins
on its path (they raise if word mode were ever used). ChERRANT's code is run, never copied.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, run_script, set_folder

REPO = Path(__file__).resolve().parent.parent
STUBS = {
    "ltp.py": "class LTP:\n    def __init__(self, *a, **k):\n        raise RuntimeError('LTP stub: word mode not run')\n",
    "torch.py": "class _Cuda:\n    @staticmethod\n    def is_available():\n        return False\n\n"
                "cuda = _Cuda()\n\n\ndef device(name):\n    return name\n",
}
OURS = ("import sys; from gecscore.lang.zh.m2 import para_to_m2; para_to_m2(sys.argv[1], sys.argv[2])")


def timed(command: list[str], cwd: Path | None = None, env: dict | None = None) -> tuple[float, float]:
    """Run a command to completion; its wall and CPU (user + system) seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def blocks(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").strip().split("\n\n")


def compare_m2(theirs: Path, ours: Path, show: int) -> int:
    """Number of sentences whose blocks differ (S, T and A lines alike); prints the first few."""
    a, b = blocks(theirs), blocks(ours)
    if len(a) != len(b):
        print(f"  block counts differ: ChERRANT {len(a)}, ours {len(b)}")
    differing = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    for i in differing[:show]:
        print(f"  sentence {i + 1} differs:\n--- ChERRANT\n{a[i]}\n--- ours\n{b[i]}\n")
    return len(differing) + abs(len(a) - len(b))


def cherrant_score(cherrant: Path, python: str, env: dict, hyp: Path, ref: Path) -> str:
    out = subprocess.run([python, "compare_m2_for_evaluation.py", "-hyp", str(hyp), "-ref", str(ref)],
                         cwd=cherrant, env=env, capture_output=True, text=True, check=True).stdout
    return next(line for line in out.splitlines() if line[:1].isdigit())


def random_pairs(n: int, seed: int) -> str:
    """Random source/target pairs (tab-separated parallel lines) rich in ties: three in four are
    a source of 1-12 characters and a few edits of it; one in four two independent strings of
    1-25 characters (lengths may differ by more than ten: ChERRANT's single-path case)."""
    alphabet = list("的地得在再做作坐我你他们是不了人士学生老师，。、！？：；“”（）,.!?ab1") + ["[缺失成分]"]
    rng = random.Random(seed)
    lines = []
    for number in range(1, n + 1):
        if number % 4 == 0:
            src = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 25)))
            tgt = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 25)))
            lines.append(f"{number}\t{src}\t{tgt}")
            continue
        src = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        tgt = list(src)
        for _ in range(rng.randint(1, 4)):  # a few edits of the source
            op = rng.choice("sidt")
            pos = rng.randrange(len(tgt) + 1)
            if op == "i" or not tgt:
                tgt.insert(pos, rng.choice(alphabet))
            elif op == "d" and pos < len(tgt):
                del tgt[pos]
            elif op == "s" and pos < len(tgt):
                tgt[pos] = rng.choice(alphabet)
            elif op == "t" and pos + 1 < len(tgt):
                tgt[pos], tgt[pos + 1] = tgt[pos + 1], tgt[pos]
        target = "".join(tgt) or rng.choice(alphabet)
        lines.append(f"{number}\t{src}\t{target}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cherrant", required=True, type=Path, help="the scorers/ChERRANT folder")
    parser.add_argument("--python", default=sys.executable, help="a Python with ChERRANT's dependencies")
    add_data_dir_option(parser)
    parser.add_argument("--random", type=int, default=0, metavar="N", help="also compare N random pairs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random-only", action="store_true", help="only the random pairs (no MuCGEC, no scores)")
    parser.add_argument("--stub-missing", action="store_true", help="stand-ins for ltp and torch (see above)")
    parser.add_argument("--show", type=int, default=5, help="differing sentences printed per file")
    args = parser.parse_args()
    mucgec = None if args.random_only else set_folder("mucgec", args.data_dir)   # found by name, fetched on first use

    work = Path(tempfile.mkdtemp(prefix="zh_parity_"))
    env = dict(os.environ, TOKENIZERS_PARALLELISM="false")
    if args.stub_missing:
        stubs = work / "stubs"
        stubs.mkdir()
        for name, text in STUBS.items():
            (stubs / name).write_text(text)
        env["PYTHONPATH"] = str(stubs)
    ours_env = dict(os.environ, PYTHONPATH=str(REPO / "shared"))
    inputs = [] if mucgec is None else [("dev references", mucgec / "MuCGEC_dev.txt"),
                                        ("example predictions", mucgec / "example_pred_dev.txt")]
    if args.random:
        rnd = work / "random.para"
        rnd.write_text(random_pairs(args.random, args.seed), encoding="utf-8")
        inputs.append((f"{args.random} random pairs", rnd))
    # warm numba's on-disk cache once, so that the timed runs measure what a user's second run costs
    subprocess.run([sys.executable, "-c", OURS, str(inputs[0][1]), str(work / "warm.m2")], env=ours_env, check=True)


    total = {"theirs": [0.0, 0.0], "ours": [0.0, 0.0]}
    outputs = {}
    for label, path in inputs:
        theirs, ours = work / f"{path.stem}.cherrant.m2", work / f"{path.stem}.ours.m2"
        t_wall, t_cpu = timed([args.python, "parallel_to_m2.py", "-f", str(path), "-o", str(theirs)],
                              cwd=args.cherrant, env=env)
        o_wall, o_cpu = timed([sys.executable, "-c", OURS, str(path), str(ours)], env=ours_env)
        if path.parent == mucgec:
            total["theirs"][0] += t_wall; total["theirs"][1] += t_cpu
            total["ours"][0] += o_wall; total["ours"][1] += o_cpu
        print(f"{label}: ChERRANT {t_wall:.1f} s wall / {t_cpu:.1f} s CPU; "
              f"ours {o_wall:.2f} s wall / {o_cpu:.2f} s CPU ({t_wall / o_wall:.1f}x wall, {t_cpu / o_cpu:.1f}x CPU)")
        differing = compare_m2(theirs, ours, args.show)
        print(f"  differing sentences: {differing} of {len(blocks(theirs))}")
        outputs[path.name] = (theirs, ours)
    if args.random_only:
        return 0
    (tw, tc), (ow, oc) = total["theirs"], total["ours"]
    print(f"MuCGEC dev (both files): ChERRANT {tw:.1f} s wall / {tc:.1f} s CPU; ours {ow:.2f} s wall / "
          f"{oc:.2f} s CPU: {tw / ow:.1f}x faster (wall), {tc / oc:.1f}x (CPU)")

    ref_t, ref_o = outputs["MuCGEC_dev.txt"]
    hyp_t, hyp_o = outputs["example_pred_dev.txt"]
    print("ChERRANT compare_m2_for_evaluation.py (TP FP FN P R F0.5):",
          cherrant_score(args.cherrant, args.python, env, hyp_t, ref_t))
    sys.path.insert(0, str(REPO / "shared"))
    from gecscore.m2.cherrant_compare import score_para_files

    start = time.perf_counter()
    result = score_para_files(mucgec / "example_pred_dev.txt", mucgec / "MuCGEC_dev.txt")
    c = result.counts
    print("gecscore score_para_files (TP FP FN P R F0.5):",
          "\t".join(map(str, [c.tp, c.fp, c.fn, *c.prf(0.5)])), f"({time.perf_counter() - start:.2f} s)")
    return 0


if __name__ == "__main__":
    run_script(main)
