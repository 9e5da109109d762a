"""Run every example of the README as written, from the repository root (what a newcomer does
after the two set-up commands): each ```bash line (continuations joined) and each ```python
block. Lines that need what this machine cannot have are listed and skipped: an LLM endpoint or
API key, the Hub, a running Space, the full reproduction (hours), the set-up itself. A traceback,
a non-zero exit or a run past ``--timeout`` is a failure; stderr under --quiet must hold no
progress bar.

    python scripts/check_readme_examples.py [--only SUBSTRING] [--root CLONE] [--venv DIR]
        [--fresh-home] [--timeout 900]

What a stranger meets: ``git clone`` the repository somewhere, then give ``--root`` that clone
and ``--fresh-home`` (an empty temporary ``HOME``, ``XDG_*`` folders unset). After each example
the clone's ``git status --porcelain`` must be what it was before (an example that leaves a file
in the clone fails), and the files the example wrote under ``HOME`` are listed by folder (the
documented caches and the data folder are expected there; anything else is for a reader to
judge). ``GEC_DATA`` is passed on as it is set, never guessed: without it, the examples that read
a named set fetch it into the per-user data folder, or stop with one line naming ``gecscore data
get NAME`` when offline: those are listed as ``data``, not as failures.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# what an example needs that this machine lacks (skipped with the reason)
SKIP = {"OPENAI_API_KEY": "an OpenAI key", "localhost:8000": "an LLM endpoint", "HF_TOKEN": "a Hub token",
        "spaces/cleme2/app.py": "a Space server (browser-tested in tests/)", "--full": "hours of model runs",
        "make install": "the set-up itself", "make test": "the set-up itself", "pip install": "the set-up itself",
        "make dist": "the release build (a build environment from PyPI)",
        "evaluate.load(\"<namespace>": "the Hub", "publish cleme2 --namespace my-org\n": "the Hub",
        "check_space_folders": "fresh venvs (minutes each)", "compute_metrics": "a Trainer"}
XDG = ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")


def blocks(text: str) -> list[tuple[str, str]]:
    return [(lang, body) for lang, body in re.findall(r"```(bash|python)\n(.*?)```", text, re.S)]


def commands(body: str) -> list[str]:
    joined = body.replace("\\\n", " ")
    return [line.split("  #")[0].strip() for line in joined.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def git_status(root: Path) -> str:
    done = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=all"],
                          capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else f"(git status failed: {done.stderr.strip()})"


def files_under(folder: Path | None) -> set[Path]:
    if folder is None or not folder.is_dir():
        return set()
    return {p for p in folder.rglob("*") if p.is_file() or p.is_symlink()}


def where_written(home: Path, written: set[Path]) -> str:
    """``~/.cache/gecscore (12), ~/.local/share/gecscore (3)``: the new files by their first two
    folders under ``home``."""
    counts = Counter("~/" + "/".join(p.relative_to(home).parts[:2]) for p in written)
    return ", ".join(f"{folder} ({n})" for folder, n in sorted(counts.items()))


def run(command: str, shell: bool, root: Path, venv: Path, env: dict[str, str],
        timeout: float) -> tuple[int | None, str, float]:
    """(exit status, or None past ``timeout``; stdout + stderr; seconds)."""
    started = time.perf_counter()
    argv = ["bash", "-c", command] if shell else [str(venv / "bin" / "python"), "-c", command]
    try:
        done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as stopped:
        output = (stopped.stdout or b"").decode(errors="replace") + (stopped.stderr or b"").decode(errors="replace")
        return None, output, time.perf_counter() - started
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - started


def outcome(command: str, code: int | None, output: str, timeout: float, status_before: str,
            status_after: str) -> tuple[str, list[str]]:
    """The label of one example (``ok``, ``data``: stopped in one line for want of a named set it
    cannot fetch, ``FAIL``) and what went wrong."""
    problems = []
    if code is None:
        problems.append(f"still running after {timeout:.0f} s: stopped")
    elif code != 0 or "Traceback" in output:
        problems.append(f"exit status {code}" + (", a traceback" if "Traceback" in output else ""))
    if "--quiet" in command and "it/s]" in output:
        problems.append("a progress bar under --quiet")
    if status_after != status_before:
        problems.append(f"git status changed: {status_after.strip() or '(clean)'}")
    if (len(problems) == 1 and code not in (0, None) and "Traceback" not in output
            and "gecscore data get" in output):
        return "data", []
    return ("FAIL" if problems else "ok  "), problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only examples containing this text")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to run in (default: this one)")
    parser.add_argument("--venv", type=Path, help="the venv whose bin/ comes first on PATH (default: ROOT/.venv)")
    parser.add_argument("--fresh-home", action="store_true",
                        help="run with an empty temporary HOME (XDG_* folders unset) and list what each example "
                             "writes there")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds an example may take (default 900)")
    args = parser.parse_args()
    root = args.root.resolve()
    venv = (args.venv or root / ".venv").resolve()
    env = {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ['PATH']}"}
    home = Path(tempfile.mkdtemp(prefix="gecscore-home-")) if args.fresh_home else None
    if home is not None:
        env["HOME"] = str(home)
        for name in XDG:
            env.pop(name, None)
    status = git_status(root)
    labels: Counter = Counter()
    for lang, body in blocks((root / "README.md").read_text(encoding="utf-8")):
        for command in (commands(body) if lang == "bash" else [body]):
            if args.only and args.only not in command:
                continue
            reason = next((why for key, why in SKIP.items() if key in command), None)
            head = command.splitlines()[0][:110]
            if reason:
                print(f"SKIP  {head}  (needs {reason})")
                continue
            before = files_under(home)
            code, output, seconds = run(command, lang == "bash", root, venv, env, args.timeout)
            now = git_status(root)
            label, problems = outcome(command, code, output, args.timeout, status, now)
            status = now
            labels[label] += 1
            print(f"{label}  {seconds:6.1f} s  {head}")
            if label == "data":
                lines = output.splitlines()
                said = next((line for line in lines if "error:" in line), None) or next(
                    line for line in lines if "gecscore data get" in line)
                print("      " + said[:300])
            written = files_under(home) - before
            if written:
                print(f"      wrote under HOME: {where_written(home, written)}")
            if problems:
                print("      " + "; ".join(problems))
                print("      " + "\n      ".join(output.strip().splitlines()[-8:]))
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)
    print(f"{labels['FAIL']} failed" + (f"; {labels['data']} stopped for want of a named set (one line naming "
                                        "`gecscore data get NAME`; set GEC_DATA or fetch the sets)"
                                        if labels["data"] else ""))
    return 1 if labels["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
