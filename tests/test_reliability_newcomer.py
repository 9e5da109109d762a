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
    pytest.importorskip("transformers")
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
