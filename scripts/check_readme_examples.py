"""Run every example of the README as written, from the repository root (what a newcomer does
after the two set-up commands): each ```bash line (continuations joined) and each ```python
block. Lines that need what this machine cannot have are listed and skipped: an LLM endpoint or
API key, the Hub, a running Space, the full reproduction (hours). A traceback or a non-zero exit
is a failure; stderr under --quiet must hold no progress bar.

    GEC_DATA=../shared/data python scripts/check_readme_examples.py [--only SUBSTRING]
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# what an example needs that this machine lacks (skipped with the reason)
SKIP = {"OPENAI_API_KEY": "an OpenAI key", "localhost:8000": "an LLM endpoint", "HF_TOKEN": "a Hub token",
        "spaces/cleme2/app.py": "a Space server (browser-tested in tests/)", "--full": "hours of model runs",
        "make install": "the set-up itself", "make test": "the set-up itself", "pip install": "the set-up itself",
        "evaluate.load(\"<namespace>": "the Hub", "publish cleme2 --namespace my-org\n": "the Hub",
        "check_space_folders": "fresh venvs (minutes each)", "compute_metrics": "a Trainer"}


def blocks(text: str) -> list[tuple[str, str]]:
    return [(lang, body) for lang, body in re.findall(r"```(bash|python)\n(.*?)```", text, re.S)]


def commands(body: str) -> list[str]:
    joined = body.replace("\\\n", " ")
    return [line.split("  #")[0].strip() for line in joined.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def run(command: str, shell: bool) -> tuple[int, str, float]:
    env = {**os.environ, "GEC_DATA": os.environ.get("GEC_DATA", str(ROOT.parent / "shared" / "data")),
           "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}"}
    started = time.perf_counter()
    if shell:
        done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True)
    else:
        done = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c", command], cwd=ROOT, env=env,
                              capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only examples containing this text")
    args = parser.parse_args()
    failures = 0
    for lang, body in blocks((ROOT / "README.md").read_text(encoding="utf-8")):
        for command in (commands(body) if lang == "bash" else [body]):
            if args.only and args.only not in command:
                continue
            reason = next((why for key, why in SKIP.items() if key in command), None)
            head = command.splitlines()[0][:110]
            if reason:
                print(f"SKIP  {head}  (needs {reason})")
                continue
            code, output, seconds = run(command, lang == "bash")
            bad = code != 0 or "Traceback" in output or ("--quiet" in command and "it/s]" in output)
            failures += bad
            print(f"{'FAIL' if bad else 'ok  '}  {seconds:6.1f} s  {head}")
            if bad:
                print("      " + "\n      ".join(output.strip().splitlines()[-8:]))
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
