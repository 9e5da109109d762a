"""Issue 32, item 6: ``--out`` never loses a user file. A leaderboard run replaces its output
folder only when the folder holds, at any depth, nothing but what a leaderboard run wrote (its
stamp lists it), and deletes only that: the rule ``publish`` follows, through the same helper
(:mod:`gecscore.outputs`)."""
from __future__ import annotations

import json

import pytest

from gecscore import outputs
from gecscore.cli import main
from gecscore.leaderboard import report
from gecscore.outputs import OutputPathError

from test_leaderboard import tiny  # noqa: F401 - the fixture


def run_into(tiny, out) -> int:  # noqa: F811 - the fixture's value
    return main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
                 "--metrics", "m2-corpus", "--out", str(out), "--no-plots", "--quiet"])


@pytest.mark.parametrize("mine", ["plots/notes.txt", "plots/m2-corpus.png.bak", "deep/er/notes.txt"])
def test_a_user_file_at_any_depth_is_never_deleted(mine, tiny, capsys):  # noqa: F811 - the fixture
    out = tiny / "board"
    assert run_into(tiny, out) == 0
    assert (out / report.STAMP).is_file()
    user = out / mine
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text("mine", encoding="utf-8")
    capsys.readouterr()
    for _ in range(2):
        assert run_into(tiny, out) == 2
        err = capsys.readouterr().err
        assert mine in err and err.count("\n") == 1
        assert user.read_text(encoding="utf-8") == "mine" and (out / "scores.csv").is_file()
    user.unlink()
    assert run_into(tiny, out) == 0
    assert not (out / mine.split("/")[0]).exists()   # the emptied folder went with the run


def test_an_older_unstamped_run_is_replaced_but_only_its_own_files(tiny, capsys):  # noqa: F811 - the fixture
    out = tiny / "board"
    (out / "plots").mkdir(parents=True)
    (out / "leaderboard.json").write_text(json.dumps({"configs": {"m2-corpus": {}}}), encoding="utf-8")
    (out / "scores.csv").write_text("old", encoding="utf-8")
    (out / "plots" / "m2-corpus.png").write_bytes(b"old plot")
    (out / "plots" / "pairwise_m2-corpus.png").write_bytes(b"old plot")
    assert run_into(tiny, out) == 0
    assert (out / "scores.csv").read_text(encoding="utf-8") != "old" and not (out / "plots").exists()
    # a plot of a configuration that run did not have is not its: refused
    (out / report.STAMP).unlink()
    (out / "plots").mkdir()
    (out / "plots" / "mine.png").write_bytes(b"my plot")
    assert run_into(tiny, out) == 2
    assert "plots/mine.png" in capsys.readouterr().err and (out / "plots" / "mine.png").exists()


def test_a_file_appearing_after_the_check_is_kept(tmp_path):
    target, new = tmp_path / "board", tmp_path / "new"
    target.mkdir()
    new.mkdir()
    (target / "scores.csv").write_text("old", encoding="utf-8")
    (target / report.STAMP).write_text(outputs.manifest_text("test", target), encoding="utf-8")
    (target / "late.txt").write_text("mine", encoding="utf-8")   # not in the stamp
    with pytest.raises(OutputPathError, match="late.txt"):
        report.replace_folder(new, target)
    kept = [p for p in tmp_path.rglob("late.txt")]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "mine"
    assert not [p for p in tmp_path.rglob("scores.csv") if p.read_text(encoding="utf-8") == "old"]


def test_publish_and_the_leaderboard_share_the_rule(tmp_path):
    """One helper decides what a rebuild may delete, for both commands."""
    from gecscore import publish

    folder = tmp_path / "f"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "ours.txt").write_text("x", encoding="utf-8")
    (folder / "sub" / "theirs.txt").write_text("y", encoding="utf-8")
    (folder / publish.STAMP).write_text(outputs.manifest_text("test", folder), encoding="utf-8")
    (folder / "sub" / "late.txt").write_text("z", encoding="utf-8")
    assert publish.foreign_entries(folder, set()) == ["sub/late.txt"]
    assert outputs.foreign_entries(folder, {"sub/ours.txt", "sub/theirs.txt", publish.STAMP}) == ["sub/late.txt"]
