"""Output paths (issue 24, class 4): an output that is a folder or lies under a regular file, or
a judge cache that cannot be opened, is one clear error line with exit code 2, never a
traceback, and is reported before the work starts."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gecscore.cli import main

from datapaths import EXAMPLES

GOLD = ["--src", str(EXAMPLES / "source.txt"), "--ref", str(EXAMPLES / "reference0.txt")]
HYP = ["--hyp", str(EXAMPLES / "hypothesis.txt")]
# a judge that writes its requests to a Batch API file: no network, no key
JUDGE = ["dsgram", "--src", str(EXAMPLES / "source.txt"), *HYP, "--model", "m",
         "--base-url", "http://127.0.0.1:9/v1", "--quiet"]
M2 = "S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"


@pytest.fixture
def places(tmp_path):
    """A folder, and a regular file (a path under it cannot be created)."""
    folder = tmp_path / "a_folder"
    folder.mkdir()
    blocker = tmp_path / "a_file"
    blocker.write_text("x", encoding="utf-8")
    (tmp_path / "in.m2").write_text(M2, encoding="utf-8")
    return tmp_path, folder, blocker


def one_line_error(capsys, command: str, mentions: str) -> None:
    err = capsys.readouterr().err.strip().splitlines()
    errors = [line for line in err if ": error: " in line]
    assert len(errors) == 1 and errors[0].startswith(f"gecscore {command}: error: "), err
    assert mentions in errors[0], errors[0]
    assert not any("Traceback" in line for line in err)


def cases(tmp_path: Path, folder: Path, blocker: Path) -> list[tuple[list[str], str, str]]:
    batch = ["--cache", str(tmp_path / "c.sqlite"), "--export-batch"]
    return [
        (["cleme2", *GOLD, *HYP, "--per-sentence", str(folder)], "cleme2", str(folder)),
        (["cleme2", *GOLD, *HYP, "--per-sentence", str(blocker / "x.jsonl")], "cleme2", str(blocker)),
        (["m2-to-ixml", str(tmp_path / "in.m2"), str(folder)], "m2-to-ixml", str(folder)),
        (["m2-to-ixml", str(tmp_path / "in.m2"), str(blocker / "out.xml")], "m2-to-ixml", str(blocker)),
        (["publish", "cleme2", "--dry-run", "--out", str(blocker)], "publish", str(blocker)),
        (["publish", "cleme2", "--dry-run", "--out", str(blocker / "sub")], "publish", str(blocker)),
        ([*JUDGE, *batch, str(folder)], "dsgram", str(folder)),
        ([*JUDGE, *batch, str(blocker / "in.jsonl")], "dsgram", str(blocker)),
        ([*JUDGE, *batch, str(tmp_path / "in.jsonl"), "--transcript", str(folder)], "dsgram", str(folder)),
        ([*JUDGE, *batch, str(tmp_path / "in.jsonl"), "--transcript", str(blocker / "t")], "dsgram", str(blocker)),
        ([*JUDGE, "--cache", str(folder), "--export-batch", str(tmp_path / "in.jsonl")], "dsgram", str(folder)),
        ([*JUDGE, "--cache", str(blocker / "c.sqlite"), "--export-batch", str(tmp_path / "in.jsonl")],
         "dsgram", str(blocker)),
    ]


def test_bad_output_paths_are_one_line_errors_with_exit_2(places, capsys):
    tmp_path, folder, blocker = places
    for argv, command, mentions in cases(tmp_path, folder, blocker):
        assert main(argv) == 2, argv
        one_line_error(capsys, command, mentions)
    assert blocker.read_text(encoding="utf-8") == "x" and not list(folder.iterdir())


def test_cache_option_is_named_as_the_cli_spells_it(places, capsys):
    tmp_path, folder, _ = places
    assert main([*JUDGE, "--cache", str(folder), "--export-batch", str(tmp_path / "in.jsonl")]) == 2
    assert "error: --cache: " in capsys.readouterr().err


@pytest.mark.parametrize("setting", ["env", "home"])
def test_unwritable_default_judge_cache_is_a_one_line_error(places, capsys, monkeypatch, setting):
    tmp_path, folder, blocker = places
    if setting == "env":
        monkeypatch.setenv("GECSCORE_JUDGE_CACHE", str(folder))
    else:
        monkeypatch.delenv("GECSCORE_JUDGE_CACHE", raising=False)
        monkeypatch.setenv("HOME", str(blocker))
    assert main([*JUDGE, "--export-batch", str(tmp_path / "in.jsonl")]) == 2
    one_line_error(capsys, "dsgram", str(folder) if setting == "env" else str(blocker))


def test_per_sentence_is_checked_before_the_scoring(places, capsys, monkeypatch):
    """The check comes first: no metric is scored for an output that cannot be written."""
    from gecscore.metric import Metric

    tmp_path, folder, _ = places

    def never(*args, **kwargs):
        raise AssertionError("scored before the output was checked")

    monkeypatch.setattr(Metric, "score_systems", never)
    assert main(["pt_m2", *GOLD, *HYP, "--scorer", "none", "--per-sentence", str(folder)]) == 2
    one_line_error(capsys, "pt_m2", str(folder))


def test_a_real_process_exits_2_without_a_traceback(places):
    tmp_path, folder, _ = places
    done = subprocess.run([sys.executable, "-m", "gecscore", "m2-to-ixml", str(tmp_path / "in.m2"), str(folder)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and str(folder) in done.stderr


def test_leaderboard_folder_under_a_file_names_the_file(places):
    from gecscore.errors import GecInputError
    from gecscore.leaderboard.report import check_output_dir

    _, _, blocker = places
    with pytest.raises(GecInputError, match=f"{blocker} is a file, not a folder"):
        check_output_dir(blocker / "board")
