"""CLEME / CLEME2.0 on Chinese (MuCGEC dev, example predictions) against THUKElab/CLEME itself.

    python benchmarks/cleme_zh_parity.py --cleme /path/to/CLEME [--python /tmp/cleme-venv/bin/python] \\
        [--data-dir DIR] [--ref-m2 MuCGEC_dev.m2 --hyp-m2 example_pred_dev.m2]

CLEME's documented entry (``main.py``) reads M2 files: for Chinese, ChERRANT's char-level M2
(``parallel_to_m2.py``), read by its ``M2DataReaderWriter`` with ``lang="zho"`` (char tokens,
``T<k>-A<a>`` lines with ``a > 0`` skipped, ``noop``/``NA`` edits giving an unchanged
reference). Pass ChERRANT's own M2 files with ``--ref-m2``/``--hyp-m2``; without them they are
written with ``gecscore.lang.zh.m2.para_to_m2``, byte-identical to ChERRANT's on these two files
(``benchmarks/zh_parity.py``). Ours reads the parallel text files (``prepare_para``) as a user
would.

Settings, each as CLEME's ``main.py`` builds it: CLEME with its length weigher, CLEME2.0 with
the HEUO scorer (factors 0.45/0.35/0.15/0.05 corpus, 0.35/0.25/0.20/0.20 sentence) and no
weighting (``main.py`` uses the BERTScore similarity weigher, which needs a model: not run
here; ours defaults to none), dependent and independent, corpus and sentence. CLEME's
``LengthWeigher.__init__`` drops its keyword arguments, so ``main.py``'s sentence-level rows
(alpha 10, ...) never take effect and every level weighs with the corpus row; the paper's
rows are what ours uses, so sentence-level CLEME is run twice on their side: as ``main.py``
does (``head``) and with the rows set on the weigher after construction (``rows``), and ours
is compared with ``rows``.

Modules CLEME imports at load time but the Chinese char path never uses (``ltp``, ``spacy``,
``errant``, ``bert_score``) get stand-ins when ``--python`` lacks them; they raise if called.
CLEME's code is run from its checkout, never copied.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, run_script, set_folder

REPO = Path(__file__).resolve().parent.parent
TOLERANCE = 1e-4

# Runs inside --python with cwd = the CLEME checkout; argv: ref.m2 hyp.m2; prints one JSON object.
THEIRS = r'''
import contextlib, copy, importlib.util, io, json, logging, sys, types
logging.disable(logging.WARNING)

def stub(name, **attrs):
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    return module

def refuse(*args, **kwargs):
    raise RuntimeError("stand-in: not used by the Chinese char path")

if importlib.util.find_spec("ltp") is None:
    stub("ltp", LTP=refuse)
if importlib.util.find_spec("spacy") is None:
    spacy = stub("spacy", load=refuse)
    for sub in ("symbols", "parts_of_speech"):
        setattr(spacy, sub, stub("spacy." + sub, __getattr__=lambda name: name))
    spacy.tokens = stub("spacy.tokens", Doc=type("Doc", (), {}))
if importlib.util.find_spec("errant") is None:
    stub("errant"); stub("errant.en")
    stub("errant.en.lancaster", LancasterStemmer=type("LancasterStemmer", (), {"stem": refuse}))
if importlib.util.find_spec("bert_score") is None:
    stub("bert_score", BERTScorer=refuse)

sys.path.insert(0, ".")
from core.evaluation.metrics import DependentCLEME, IndependentCLEME
from core.evaluation.scorers import HEUOEditScorer, ScorerType
from core.evaluation.weighers import LengthWeigher, WeigherType
from core.readers import M2DataReaderWriter

ROWS = {"dependent": dict(tp_alpha=10.0, tp_min_value=1.0, tp_max_value=10.0, fp_alpha=10.0, fp_min_value=0.25,
                          fp_max_value=1.0, fn_alpha=10.0, fn_min_value=1.0, fn_max_value=1.0),
        "independent": dict(tp_alpha=10.0, tp_min_value=2.5, tp_max_value=10.0, fp_alpha=10.0, fp_min_value=0.25,
                            fp_max_value=1.0, fn_alpha=10.0, fn_min_value=1.0, fn_max_value=1.0)}
FACTORS = {"corpus": (0.45, 0.35, 0.15, 0.05), "sentence": (0.35, 0.25, 0.20, 0.20)}

reader = M2DataReaderWriter()
with contextlib.redirect_stdout(io.StringIO()):
    ref, hyp = reader.read(sys.argv[1]), reader.read(sys.argv[2])
out = {}
for metric in ("cleme", "cleme2"):
    for level in ("corpus", "sentence"):
        for assumption in ("dependent", "independent"):
            variants = ["head", "rows"] if (metric, level) == ("cleme", "sentence") else ["head"]
            for variant in variants:
                cls = DependentCLEME if assumption == "dependent" else IndependentCLEME
                if metric == "cleme":
                    weigher = LengthWeigher(**(ROWS[assumption] if level == "sentence" else {}))
                    if variant == "rows":
                        for key, value in ROWS[assumption].items():
                            setattr(weigher, key, value)
                    m = cls(lang="zho", scorer_type=ScorerType.PRF, weigher=weigher, enable_tqdm=False)
                    key = "prf_%s_weighted" % level
                else:
                    m = cls(lang="zho", scorer=HEUOEditScorer(*FACTORS[level]), weigher_type=WeigherType.NONE,
                            enable_tqdm=False)
                    key = "heuo_%s_weighted" % level
                m.scorer.table_print = False
                with contextlib.redirect_stdout(io.StringIO()):
                    score, _ = m.evaluate(copy.deepcopy(hyp), copy.deepcopy(ref))
                out["%s/%s/%s/%s" % (metric, level, assumption[:3], variant)] = score.scores[key].model_dump()
print(json.dumps(out))
'''

# (figure name, our key, their key) per metric
FIGURES = {
    "cleme": [("P", "p", "p"), ("R", "r", "r"), ("F0.5", "f", "f"),
              ("TP", "tp", "tp"), ("FP", "fp", "fp"), ("FN", "fn", "fn"), ("TN", "tn", "tn")],
    "cleme2": [("score", "score", "com"), ("hit", "hit", "hit"), ("wrong", "wrong", "err"),
               ("under", "under", "und"), ("over", "over", "ove"), ("TP", "tp", "tp"), ("FP_ne", "fp_ne", "fp_ne"),
               ("FP_un", "fp_un", "fp_un"), ("FN", "fn", "fn"), ("TN", "tn", "tn")],
}


def run_theirs(cleme: Path, python: str, ref_m2: Path, hyp_m2: Path) -> dict[str, dict[str, float]]:
    """CLEME's figures for every setting, from a fresh process in its own environment."""
    done = subprocess.run([python, "-c", THEIRS, str(ref_m2.resolve()), str(hyp_m2.resolve())], cwd=cleme,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=""))
    if done.returncode:
        sys.exit(f"CLEME failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_ours(data: Path) -> dict[str, dict[str, float]]:
    """Our figures through the seam, as a user calls it on the parallel files."""
    sys.path.insert(0, str(REPO / "shared"))
    import gecscore

    predictions = [(line.split("\t") + ["", ""])[2] for line in
                   (data / "example_pred_dev.txt").read_text(encoding="utf-8").splitlines()]
    out, work = {}, {}
    for metric in ("cleme", "cleme2"):
        for level in ("corpus", "sentence"):
            for assumption in ("dep", "ind"):
                m = gecscore.load(metric, lang="zh", level=level, assumption=assumption)
                result = m.score(m.prepare_para(str(data / "MuCGEC_dev.txt")), predictions, work=work)
                out[f"{metric}/{level}/{assumption}"] = {k: v for k, v in result.values.items()
                                                        if isinstance(v, (int, float))}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cleme", required=True, type=Path, help="a checkout of THUKElab/CLEME (holds core/)")
    parser.add_argument("--python", default=sys.executable, help="a Python with CLEME's dependencies "
                        "(pydantic, tabulate, numpy, pypinyin, Levenshtein, rapidfuzz)")
    add_data_dir_option(parser)
    parser.add_argument("--ref-m2", type=Path, help="ChERRANT's M2 of MuCGEC_dev.txt")
    parser.add_argument("--hyp-m2", type=Path, help="ChERRANT's M2 of example_pred_dev.txt")
    args = parser.parse_args()

    if (args.ref_m2 is None) != (args.hyp_m2 is None):
        parser.error("--ref-m2 and --hyp-m2 go together")
    mucgec = set_folder("mucgec", args.data_dir)   # MuCGEC, found by name (fetched on first use)
    ref_m2, hyp_m2 = args.ref_m2, args.hyp_m2
    if ref_m2 is None:
        sys.path.insert(0, str(REPO / "shared"))
        from gecscore.lang.zh.m2 import para_to_m2

        work = Path(tempfile.mkdtemp(prefix="cleme_zh_parity_"))
        ref_m2, hyp_m2 = work / "MuCGEC_dev.m2", work / "example_pred_dev.m2"
        para_to_m2(mucgec / "MuCGEC_dev.txt", ref_m2)
        para_to_m2(mucgec / "example_pred_dev.txt", hyp_m2)
        print(f"M2 written by gecscore (byte-identical to ChERRANT's, benchmarks/zh_parity.py): {work}")

    theirs = run_theirs(args.cleme, args.python, ref_m2, hyp_m2)
    ours = run_ours(mucgec)

    worst, failures = 0.0, []
    print(f"{'setting':<32} {'figure':<7} {'ours':>14} {'theirs':>14} {'difference':>12}")
    for key, their in theirs.items():
        metric, level, assumption, variant = key.split("/")
        our = ours[f"{metric}/{level}/{assumption}"]
        compared = variant == "rows" or (metric, level) != ("cleme", "sentence")
        for name, ours_key, theirs_key in FIGURES[metric]:
            a, b = float(our[ours_key]), float(their[theirs_key])
            diff = a - b
            flag = ""
            if compared:
                worst = max(worst, abs(diff))
                if abs(diff) > TOLERANCE:
                    failures.append(f"{key} {name}")
                    flag = "  <-- over 1e-4"
            else:
                flag = "  (not compared: main.py's weigher rows are dropped)"
            print(f"{key:<32} {name:<7} {a:>14.6f} {b:>14.6f} {diff:>12.2e}{flag}")
    print(f"\nlargest difference over the compared settings: {worst:.2e} (tolerance {TOLERANCE:g})")
    print("CLEME's compute_prf rounds P, R and F to 4 decimals (per sentence at sentence level).")
    if failures:
        print("over tolerance:", ", ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    run_script(main)
