"""What a killed writer leaves is accounted for (issue 39, the class beyond the cache): a
leaderboard or a Space build killed mid-write leaves its staging folder beside the output; the
next run removes it once an hour old, and leaves a live run's (younger) one and anything else."""
from __future__ import annotations

import os
import time

from gecscore.leaderboard.board import run_leaderboard
from gecscore.leaderboard.report import write_leaderboard
from gecscore.outputs import STALE_STAGING_S, remove_stale_staging

from tiny_board import write_tiny_board


def _age(path, seconds: float) -> None:
    old = time.time() - seconds
    os.utime(path, (old, old))


def test_only_old_staging_folders_of_this_output_go(tmp_path):
    out = tmp_path / "board"
    dead = tmp_path / ".board.k1ll3d.partial"
    live = tmp_path / ".board.wr1t1n.partial"
    other = tmp_path / ".elsewhere.k1ll3d.partial"
    user = tmp_path / "board.partial"
    for folder in (dead, live, other, user):
        folder.mkdir()
        (folder / "scores.csv").write_text("x")
    for folder in (dead, other, user):
        _age(folder, STALE_STAGING_S + 60)
    assert remove_stale_staging(out, ("partial",)) == [dead]
    assert not dead.exists() and live.exists() and other.exists() and user.exists()


def test_a_leaderboard_run_removes_what_a_killed_run_left(tmp_path, monkeypatch):
    monkeypatch.setenv("GECSCORE_NO_CACHE", "1")
    (tmp_path / "data").mkdir()
    refset, systems = write_tiny_board(tmp_path / "data")
    killed = tmp_path / ".out.abcd1234.partial"
    killed.mkdir()
    (killed / "scores.csv").write_text("half a run")
    _age(killed, STALE_STAGING_S + 60)
    board = run_leaderboard(refset, systems, ["m2-corpus"], progress=False)
    write_leaderboard(board, tmp_path / "out", plots=False)
    assert not killed.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out.")) == []


def test_a_killed_download_leaves_no_part_file_for_ever(tmp_path):
    target = tmp_path / "conll14" / "source.txt"
    target.parent.mkdir()
    dead, live = target.with_name(".source.txt.4242.part"), target.with_name(".source.txt.4343.part")
    dead.write_bytes(b"half")
    live.write_bytes(b"writing")
    _age(dead, STALE_STAGING_S + 60)
    assert remove_stale_staging(target, ("part", "derived")) == [dead]
    assert live.exists()
