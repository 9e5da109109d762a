"""Check that each published Space folder builds from its own requirements.txt in a fresh venv.

For each metric: ``gecscore publish <name> --dry-run`` into a temporary folder, a fresh virtual
environment, ``pip install -r requirements.txt`` (PyPI only: nothing of this checkout is
installed; the folder's vendored ``gecscore/`` is what the app imports), then, inside the
folder, build the Gradio app (``import app``: the demo is constructed, not launched) and score
the hand-checked example through ``evaluate.load(<folder>)``: DSGram and LLM-S/LLM-E against
the test suite's simulated judges, Scribendi, SOME and IMPARA with tiny random models of the
real architectures (``gecscore.models.tiny``, built here: no published weights are needed).
Prints the install time, the venv's size and the scores. Not part of the test suite (minutes, and it downloads the packages).

    python scripts/check_space_folders.py [NAME ...] [--keep DIR]      (default: every module)
"""
from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gecscore.publish import assemble
from gecscore.registry import metric_class, module_metrics, module_names

EXAMPLE = dict(
    sources=["The childs were playing for the park and they was happy ."],
    predictions=["The children were playing at the park and they was happy again ."],
    references=[["The children were playing in the park and they were happy ."]],
)
# what each Space's example is scored with (services() adds the judge's URL and the model folders)
OPTIONS = {"cleme2": {}, "pt_m2": {"scorer": "none"}, "imeasure": {}, "dsgram": {"no_cache": True, "model": "judge"},
           "gleu": {}, "green": {}, "gotoscorer": {"no_weight": True},
           "llm_eval": {"no_cache": True, "model": "judge"}, "scribendi": {"device": "cpu"},
           "some": {"device": "cpu"}, "impara": {"device": "cpu"}}
# the Spaces whose metrics read no references (what the metric classes declare)
REFERENCE_FREE = {name for name in module_names() if not metric_class(module_metrics(name)[0]).needs_references}
ROOT = Path(__file__).resolve().parents[1]

SCORE = """
import json, os, sys, evaluate
import app  # the Space's Gradio app: constructed, not launched
options, example = json.loads(sys.argv[1]), json.loads(sys.argv[2])
result = evaluate.load(os.getcwd()).compute(**example, **options)
print(json.dumps({"app": type(app.demo).__name__, "score": result["score"]}))
"""


def size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 2**20


@contextlib.contextmanager
def services(name: str, work: Path):
    """The options that point a metric at what it needs: the test suite's simulated
    OpenAI-compatible judge on localhost (DSGram, LLM-S/LLM-E; tests/judge_server.py), tiny model
    folders (Scribendi, SOME, IMPARA; built with this checkout's transformers); none otherwise."""
    if name in ("dsgram", "llm_eval"):
        sys.path.insert(0, str(ROOT / "tests"))
        from judge_server import DSGramSimulator, JudgeServer
        from llm_eval_server import LlmEvalSimulator

        with JudgeServer(DSGramSimulator() if name == "dsgram" else LlmEvalSimulator()) as server:
            yield {"base_url": server.base_url}
        return
    if name in ("scribendi", "some", "impara"):
        from gecscore.models.tiny import tiny_bert, tiny_gpt2

        root = work / f"models-{name}"
        if name == "scribendi":
            yield {"lm": tiny_gpt2(str(root / "gpt2"))}
        elif name == "some":
            yield {aspect: tiny_bert(str(root / aspect), seed=seed)
                   for seed, aspect in enumerate(("grammaticality", "fluency", "meaning"))}
        else:
            yield {"quality_estimator": tiny_bert(str(root / "qe")),
                   "similarity_model": tiny_bert(str(root / "encoder"), regression=False, seed=1)}
        return
    yield {}


def check(name: str, work: Path) -> dict:
    folder = assemble(name, work / "spaces")
    venv = work / f"venv-{name}"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    start = time.perf_counter()
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-r", str(folder / "requirements.txt")], check=True)
    install_s = time.perf_counter() - start
    import json

    env = {"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1",
           "HF_DATASETS_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False", "HOME": str(work)}
    with services(name, work) as needed:
        options = {**OPTIONS[name], **needed}
        example = {key: value for key, value in EXAMPLE.items() if name not in REFERENCE_FREE or key != "references"}
        run = subprocess.run([str(python), "-c", SCORE, json.dumps(options), json.dumps(example)],
                             cwd=folder, check=True, capture_output=True, text=True, env=env)
    outcome = json.loads(run.stdout.strip().splitlines()[-1])
    return {"metric": name, "install_s": round(install_s, 1), "venv_mb": round(size_mb(venv)), **outcome}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"metrics to check (default: {' '.join(module_names())})")
    parser.add_argument("--keep", metavar="DIR", help="work here and keep the venvs (default: a temporary folder)")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(module_names()))
    if unknown:
        parser.error(f"unknown metric(s) {', '.join(unknown)}; expected: {', '.join(module_names())}")
    args.names = args.names or list(module_names())
    with tempfile.TemporaryDirectory(prefix="gecscore-spaces-") as temporary:
        work = Path(args.keep or temporary)
        work.mkdir(parents=True, exist_ok=True)
        for name in args.names:
            print(check(name, work), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
