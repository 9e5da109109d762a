"""CLI conventions: several --hyp systems share one prepared reference side, '-' reads stdin,
--quiet and TQDM_DISABLE silence progress bars (drawn only on a terminal), a closed pipe ends
quietly, documented exit codes."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from gecscore import progress
from gecscore.cli import main

from datapaths import EXAMPLES, library_result, example_corpus

GOLD = ["--src", str(EXAMPLES / "source.txt"), "--ref", str(EXAMPLES / "reference0.txt"),
        "--ref", str(EXAMPLES / "reference1.txt")]


def test_several_systems_in_one_call_equal_one_call_each(capsys):
    hyps = [str(EXAMPLES / "hypothesis.txt"), str(EXAMPLES / "reference0.txt")]
    assert main(["cleme2", *GOLD, "--hyp", *hyps, "--json"]) == 0
    together = json.loads(capsys.readouterr().out)
    assert list(together["systems"]) == hyps
    for path in hyps:
        assert main(["cleme2", *GOLD, "--hyp", path, "--json"]) == 0
        assert together["systems"][path] == json.loads(capsys.readouterr().out)
    sources, _, refs = example_corpus()
    perfect = library_result("cleme2", sources, [r[0] for r in refs], refs)
    assert together["systems"][hyps[1]] == perfect


def test_dash_reads_the_hypothesis_from_stdin(capsys, monkeypatch):
    text = (EXAMPLES / "hypothesis.txt").read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(("\ufeff" + text).encode("utf-8"))))
    assert main(["pt_m2", *GOLD, "--hyp", "-", "--scorer", "none", "--json"]) == 0
    from_stdin = json.loads(capsys.readouterr().out)
    assert main(["pt_m2", *GOLD, "--hyp", str(EXAMPLES / "hypothesis.txt"), "--scorer", "none", "--json"]) == 0
    assert from_stdin == json.loads(capsys.readouterr().out)


def test_bars_only_on_a_terminal_and_never_when_silenced(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert not progress.wanted()                     # stderr is not a terminal
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert progress.wanted() and not progress.wanted(size=10, minimum=500) and not progress.wanted(False)
    monkeypatch.setenv(progress.QUIET_ENV, "1")
    assert not progress.wanted()
    monkeypatch.setenv(progress.QUIET_ENV, "0")
    assert progress.wanted()


def test_quiet_flag_silences_bars(monkeypatch, capsys):
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    assert main(["cleme2", *GOLD, "--hyp", str(EXAMPLES / "hypothesis.txt"), "--quiet", "--json"]) == 0
    import os

    assert os.environ.get(progress.QUIET_ENV) == "1"
    capsys.readouterr()


def test_exit_codes_and_a_closed_pipe():
    script = [sys.executable, "-m", "gecscore"]
    bad = subprocess.run([*script, "cleme2", *GOLD, "--hyp", str(EXAMPLES / "hypothesis.txt"), "--alpha", "1"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("gecscore cleme2: error: --alpha:")
    missing = subprocess.run([*script, "cleme2", "--src", "nope.txt", "--ref", "nope.txt", "--hyp", "nope.txt"],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "nope.txt: no such file" in missing.stderr
    piped = subprocess.run(f"{sys.executable} -m gecscore cleme2 {' '.join(GOLD)} --hyp {EXAMPLES / 'hypothesis.txt'}"
                           f" | head -1", shell=True, capture_output=True, text=True)
    assert piped.stdout.startswith("cleme2|") and "Traceback" not in piped.stderr
